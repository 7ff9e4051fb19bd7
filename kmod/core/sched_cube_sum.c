// SPDX-License-Identifier: GPL-2.0
/*
 * Data sum and prefix sum on a d-cube by recursive doubling (Thakur,
 * Rabenseifner and Gropp, "Optimization of collective communication
 * operations in MPICH", IJHPCA 2005, for the sum; the prefix is the same
 * exchange keeping the lower half's, as in Kogge and Stone's recursive
 * doubling, IEEE Trans. Computers 1973).  [Bertsekas91] gives no schedule
 * for either.
 *
 * Every processor keeps its total: the partial of the k-subcube it is in
 * (the processors that agree with it above bit k), its own value to
 * begin with.  At tick k + 1 every processor sends a copy of its total
 * across dimension k and merges the one it receives into it, so that
 * after d ticks every total is of the whole cube.  For the prefix sum a
 * processor also keeps its prefix, which takes in what it receives only
 * from the partner below it (bit k of the processor set): that partner's
 * k-subcube holds exactly the processors below it in its own
 * (k + 1)-subcube, so the prefix stays of 0 .. v.  One packet leaves and
 * one arrives at each processor a tick, under either port model: d ticks,
 * the diameter and log2 n, which every data or prefix sum needs (the last
 * processor needs the first's value), with d n transmissions.
 */
#include "cube.h"
#include "sched.h"

struct cube_sum {
	u32 d, n;
	bool prefix;
	u32 slot[];		/* per processor its total; a prefix sum's prefixes follow */
};

static int sum_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	bool prefix = e->p.op == TXNET_OP_PREFIX_SUM;
	struct cube_sum *c;
	u32 v;

	if ((e->p.op != TXNET_OP_DATA_SUM && !prefix) || !txn_is_cube(g))
		return -EINVAL;
	c = txn_zalloc_array(1, sizeof(*c) + (u64)g->procs * (prefix ? 2 : 1) * sizeof(u32));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->d = g->ndims;
	c->n = g->procs;
	c->prefix = prefix;
	/* slot v is processor v's own value: its total, and a copy its prefix */
	for (v = 0; v < c->n; v++) {
		c->slot[v] = v;
		if (prefix) {
			c->slot[c->n + v] = txn_copy(e, v);
			if (c->slot[c->n + v] == TXN_NONE)
				return -EPROTO;
		}
	}
	return 0;
}

static void sum_choose(struct txn_engine *e)
{
	struct cube_sum *c = e->priv;
	u32 k = (u32)e->tick, v, cp;

	if (k >= c->d)
		return;
	for (v = 0; v < c->n; v++) {
		cp = txn_copy(e, c->slot[v]);
		if (cp == TXN_NONE)
			return;
		/* hypercube port k flips bit k (topo_impl.h) */
		txn_move(e, cp, e->g->first[v] + k);
	}
}

/* The partner's total reached @w: into @w's total, and its prefix if it came from below. */
static void sum_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct cube_sum *c = e->priv;
	u32 u = e->g->src[link], w = e->g->dst[link], cp;
	bool last = e->tick + 1 == c->d;

	if (c->prefix && u < w) {
		cp = txn_copy(e, pkt);
		if (cp == TXN_NONE || txn_merge(e, c->slot[c->n + w], cp))
			return;
	}
	if (txn_merge(e, c->slot[w], pkt) || !last)
		return;
	txn_fold(e, c->slot[c->prefix ? c->n + w : w]);
}

static void sum_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static u64 sum_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)port;
	(void)npkts;
	return sizeof(struct cube_sum) +
	       (u64)g->procs * (op == TXNET_OP_PREFIX_SUM ? 2 : 1) * sizeof(u32);
}

const struct txn_sched txn_sched_cube_sum = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = sum_start,
	.choose = sum_choose,
	.arrive = sum_arrive,
	.fini = sum_fini,
	.priv_bytes = sum_bytes,
};
