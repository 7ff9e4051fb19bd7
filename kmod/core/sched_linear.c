// SPDX-License-Identifier: GPL-2.0
/*
 * Total exchange on a linear array ([Dimakopoulos94], section 3).
 *
 * Furthest-first keeps no table of distances: a link's packets sit in the
 * engine's sorted queue (txn_sq_*), its own in one lane, queued furthest
 * first, its arrivals in the other.  Arrivals come furthest first too:
 * each link sends the furthest packet it holds, and what it receives
 * after sending d was sent by a link that, one tick earlier, held nothing
 * further than d's predecessor, which the receiving link held when it
 * chose d.  So every push is an append and every choice a comparison of
 * two heads.
 */
#include "sched.h"

static u32 distance(u32 a, u32 b)
{
	return a > b ? a - b : b - a;
}

/* How far a packet bound for @dst still has to go from the node @link leaves: its urgency. */
static u32 ff_key(const struct txn_engine *e, u32 link, u32 dst)
{
	return distance(e->g->src[link], dst);
}

/* Source @src's packets, furthest first in each direction. */
static void queue_source(struct txn_engine *e, u32 src)
{
	u32 to;

	for (to = e->n - 1; to > src; to--)
		txn_sq_push(e, txn_line_link(e, src, true), txn_pkt_id(e, src, to), false);
	for (to = 0; to < src; to++)
		txn_sq_push(e, txn_line_link(e, src, false), txn_pkt_id(e, src, to), false);
}

/* A packet keeps its direction: the link on is the one not leading back. */
static u64 ff_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	u32 next = txn_line_onward(e, link);

	(void)pkt;
	return txn_way(next, ff_key(e, next, dst));
}

/*
 * "If node i has any messages in its queue, it selects the message that
 * has to travel the largest distance and sends it" -- furthest-first, in
 * each direction independently; ties are immaterial (ibid.).
 */
static int ff_start(struct txn_engine *e)
{
	int ret = txn_line_start(e);
	u32 src;

	if (ret)
		return ret;
	for (src = 0; src < e->n; src++)
		queue_source(e, src);
	return 0;
}

static void ff_choose(struct txn_engine *e)
{
	txn_line_choose(e, true);
}

const struct txn_sched txn_sched_furthest_first = {
	.algo = TXNET_ALGO_FURTHEST_FIRST,
	.name = "furthest-first",
	.start = ff_start,
	.choose = ff_choose,
	.onward = ff_onward,
	.sq_key = ff_key,
	.fini = txn_line_fini,
	.priv_bytes = txn_line_priv_bytes,
};

/*
 * The reference algorithm the paper compares with: n consecutive
 * scatterings, node 0 first; each an optimal scattering (furthest
 * message first in each direction), the next starting in the tick after
 * the last packet of the previous one is consumed ([Dimakopoulos94], section 2).
 */
static int sc_start(struct txn_engine *e)
{
	int ret = txn_line_start(e);

	if (ret)
		return ret;
	e->sched_state[0] = 0;
	queue_source(e, 0);
	return 0;
}

static void sc_choose(struct txn_engine *e)
{
	u64 src = e->sched_state[0];

	if (src + 1 < e->n && e->delivered == (src + 1) * (e->n - 1)) {
		e->sched_state[0] = ++src;
		queue_source(e, (u32)src);
	}
	txn_line_choose(e, true);
}

const struct txn_sched txn_sched_scatterings = {
	.algo = TXNET_ALGO_SCATTERINGS,
	.name = "scatterings",
	.start = sc_start,
	.choose = sc_choose,
	.onward = ff_onward,
	.sq_key = ff_key,
	.fini = txn_line_fini,
	.priv_bytes = txn_line_priv_bytes,
};
