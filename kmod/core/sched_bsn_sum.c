// SPDX-License-Identifier: GPL-2.0
/*
 * Data sum on a biswapped network ([Wei07] section 3.3, Table 3), all-port:
 *
 *   Step 1: a data sum in every group: each node ends with its group's sum;
 *   Step 2: every node sends it over its swap link;
 *   Step 3: a data sum in every group of what it received: each node of
 *           part c ends with the sum of all of part 1-c;
 *   Step 4: every node sends that over its swap link, keeping it;
 *   Step 5: each node adds the two: the sum of both parts.
 *
 * A group data sum runs dimension by dimension of the base: along a line
 * of a factor every node's partial travels to every other (both ways along
 * a linear array to its ends, half way round a ring each way, directly in
 * a complete graph), one per link a tick, each node adding what passes;
 * the factor's diameter in ticks, the base's diameter D over all of them.
 * Step 5 is one addition at each node, no transmission, and costs no tick
 * in the timing model (the paper charges it a group data sum), so the time
 * is 2 D + 2 (bsn.h), which is the network's diameter: no schedule can do
 * better, as every node needs every value.
 */
#include "bsn.h"
#include "sched.h"

enum phase_kind { DIM, SWAP_SUMS, SWAP_TOTALS };

struct bsum {
	u32 nph;
	struct txn_bsn_phase ph[2 * TXNET_MAX_DIMS + 2];
	u32 acc[];		/* per processor: its partial sum */
};

static void add_dims(const struct txn_graph *g, struct bsum *b, u32 *t)
{
	u32 d;

	for (d = 0; d < g->bndims; d++) {
		b->ph[b->nph++] = (struct txn_bsn_phase){ DIM, (u8)d, *t,
						  txn_factor_diameter(g->bkind[d], g->bsize[d]) };
		*t += b->ph[b->nph - 1].len;
	}
}

/* Start of a dimension phase: every node's partial leaves along its line. */
static void dim_begin(struct txn_engine *e, const struct txn_bsn_phase *ph)
{
	const struct txn_graph *g = e->g;
	struct bsum *b = e->priv;
	u32 v, j, w;

	for (v = 0; v < e->n; v++)
		for (j = 0; (w = txn_bsn_line_first(g, v, ph->dim, j)) != ~0U; j++)
			txn_bsn_push_copy(e, b->acc[v], v, w);
}

/* A partial reached @v from @u, @hops ticks after it left: on along the line, and into @v's. */
static void dim_arrive(struct txn_engine *e, const struct txn_bsn_phase *ph, u32 pkt,
		       u32 u, u32 v, u32 hops)
{
	struct bsum *b = e->priv;
	u32 w = txn_bsn_line_next(e->g, u, v, ph->dim, hops);

	if (w != ~0U)
		txn_bsn_push_copy(e, pkt, v, w);
	txn_merge(e, b->acc[v], pkt);
}

static void sum_choose(struct txn_engine *e)
{
	struct bsum *b = e->priv;
	u64 t = e->tick + 1;
	const struct txn_bsn_phase *ph = txn_bsn_phase_at(b->ph, b->nph, t);
	u32 v, c;

	if (ph && t == (u64)ph->start + 1) {
		switch (ph->step) {
		case DIM:
			dim_begin(e, ph);
			break;
		case SWAP_SUMS:
			/* Step 2: the group's sum itself goes */
			for (v = 0; v < e->n; v++) {
				txn_q_push(e, txn_bsn_swap_link(e->g, v), b->acc[v]);
				b->acc[v] = TXN_NONE;
			}
			break;
		default:
			/* Step 4: a copy goes, the total of the other part stays */
			for (v = 0; v < e->n; v++) {
				c = txn_copy(e, b->acc[v]);
				if (c != TXN_NONE)
					txn_q_push(e, txn_bsn_swap_link(e->g, v), c);
			}
		}
	}
	txn_q_send_heads(e);
}

static void sum_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct bsum *b = e->priv;
	u64 t = e->tick + 1;
	const struct txn_bsn_phase *ph = txn_bsn_phase_at(b->ph, b->nph, t);
	u32 u = e->g->src[link], v = e->g->dst[link];

	if (!ph)
		return;
	switch (ph->step) {
	case DIM:
		dim_arrive(e, ph, pkt, u, v, (u32)(t - ph->start));
		break;
	case SWAP_SUMS:
		b->acc[v] = pkt;
		break;
	default:
		/* Step 5: both parts' sums, the result */
		if (!txn_merge(e, b->acc[v], pkt))
			txn_fold(e, b->acc[v]);
		b->acc[v] = TXN_NONE;
	}
}

static int sum_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	struct bsum *b;
	u32 t = 0, v;

	if (e->p.op != TXNET_OP_DATA_SUM || !g->bsn_n || e->p.port_model != TXNET_PORT_ALL)
		return -EINVAL;
	b = txn_zalloc_array(1, sizeof(*b) + (u64)e->n * sizeof(u32));
	if (!b)
		return -ENOMEM;
	e->priv = b;
	add_dims(g, b, &t);
	b->ph[b->nph++] = (struct txn_bsn_phase){ SWAP_SUMS, 0, t++, 1 };
	add_dims(g, b, &t);
	b->ph[b->nph++] = (struct txn_bsn_phase){ SWAP_TOTALS, 0, t, 1 };
	/* slot v is processor v's own value */
	for (v = 0; v < e->n; v++)
		b->acc[v] = v;
	return 0;
}

static void sum_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static u64 sum_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return sizeof(struct bsum) + (u64)g->procs * sizeof(u32);
}

const struct txn_sched txn_sched_bsn_sum = {
	.algo = TXNET_ALGO_BISWAPPED,
	.name = "biswapped",
	.start = sum_start,
	.choose = sum_choose,
	.arrive = sum_arrive,
	.fini = sum_fini,
	.priv_bytes = sum_bytes,
};
