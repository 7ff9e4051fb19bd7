// SPDX-License-Identifier: GPL-2.0
/*
 * Total exchange on a linear array (paper 001, section 3).
 */
#include "sched.h"

static u32 distance(u32 a, u32 b)
{
	return a > b ? a - b : b - a;
}

/* Queue @pkt at @node towards its destination, furthest first. */
static void queue_at(struct txn_engine *e, u32 pkt, u32 node)
{
	u32 to = txn_pkt_dst(e, pkt);

	txn_pq_push(e, txn_line_link(e, node, to > node), distance(node, to), pkt);
}

static void queue_source(struct txn_engine *e, u32 src)
{
	u32 k, pkt = src * (e->n - 1);

	for (k = 0; k < e->n - 1; k++, pkt++)
		queue_at(e, pkt, src);
}

static void ff_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	queue_at(e, pkt, e->g->dst[link]);
}

static u32 ff_keys(const struct txn_graph *g)
{
	return g->procs;	/* remaining distances 1 .. n-1 */
}

/*
 * "If node i has any messages in its queue, it selects the message that
 * has to travel the largest distance and sends it" -- furthest-first, in
 * each direction independently; ties are immaterial (ibid.).
 */
static int ff_start(struct txn_engine *e)
{
	u32 src;

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
	.arrive = ff_arrive,
	.pq_keys = ff_keys,
};

/*
 * The reference algorithm the paper compares with: n consecutive
 * scatterings, node 0 first; each an optimal scattering (furthest
 * message first in each direction), the next starting in the tick after
 * the last packet of the previous one is consumed (paper 001, section 2).
 */
static int sc_start(struct txn_engine *e)
{
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
	.arrive = ff_arrive,
	.pq_keys = ff_keys,
};
