// SPDX-License-Identifier: GPL-2.0
/*
 * Single node broadcast and accumulation on a d-cube ([Bertsekas91]
 * section 2, Figure 4): the spanning
 * tree in which identity y hears from y with its lowest one cleared, so
 * that a node sends on the dimensions below its lowest one.  All-port
 * (MLA) a node sends to all its children the tick after it heard, and y
 * hears at tick popcount(y); single-port (SLA) "priority to neighbors
 * with larger identity numbers": node 0 sends to 10..0 at tick 1, 010..0
 * at tick 2, ..., and node 10..0 to 110..0 at tick 2, to 1010..0 at tick
 * 3, so y hears at tick d - (index of its lowest one), one child a tick.
 * Both take d ticks, the longest path, and 2^d - 1 transmissions, one a
 * tree link (Tables 1 and 2).  A root r other than 0 uses the tree
 * translated by xor r (section 2: (t xor x, t xor y) is a link whenever
 * (x, y) is).
 *
 * The accumulation is the dual (section 1, Figure 2): the same tree,
 * every link crossed the other way at tick d + 1 - t, each node merging
 * what its children sent into its own partial before it sends it on.
 */
#include "cube.h"
#include "sched.h"

struct cube_bcast {
	u32 d, n, root;
	bool single, accumulate;
	u32 held[];		/* broadcast: the copy node v keeps */
};

/* The tick at which identity @y (nonzero) hears from its parent. */
static u32 heard(const struct cube_bcast *c, u32 y)
{
	return c->single ? c->d - (u32)__builtin_ctz(y) : txn_popcount(y);
}

static void bcast_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static int bcast_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	struct cube_bcast *c;

	if ((e->p.op != TXNET_OP_BROADCAST && e->p.op != TXNET_OP_ACCUMULATE) || !txn_is_cube(g))
		return -EINVAL;
	c = txn_zalloc_array(1, sizeof(*c) + (u64)g->procs * sizeof(u32));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->d = g->ndims;
	c->n = g->procs;
	c->root = e->p.root;
	c->single = e->p.port_model == TXNET_PORT_SINGLE;
	c->accumulate = e->p.op == TXNET_OP_ACCUMULATE;
	/* the root starts with the message, packet 0 */
	c->held[c->root] = 0;
	return 0;
}

/*
 * Broadcast tick @tick: every y heard then gets a copy from its parent.
 * Accumulation: the links of broadcast tick d + 1 - @tick, reversed, each
 * carrying the partial of node r xor y (its slot: accumulation slots are
 * the processors', ops.c) with its subtree merged in.
 */
static void bcast_choose(struct txn_engine *e)
{
	struct cube_bcast *c = e->priv;
	u32 tick = (u32)e->tick + 1, y, u, v, bit, pkt, at;

	if (tick > c->d)
		return;
	at = c->accumulate ? c->d + 1 - tick : tick;
	for (y = 1; y < c->n; y++) {
		if (heard(c, y) != at)
			continue;
		bit = (u32)__builtin_ctz(y);
		u = c->root ^ (y & (y - 1));
		v = c->root ^ y;
		if (c->accumulate) {
			/* hypercube port k flips bit k (topo_impl.h) */
			txn_move(e, v, e->g->first[v] + bit);
			continue;
		}
		pkt = txn_copy(e, c->held[u]);
		if (pkt == TXN_NONE)
			return;
		txn_move(e, pkt, e->g->first[u] + bit);
		c->held[v] = pkt;
	}
}

/* A partial reached its parent: merged into the parent's own (the root folds it). */
static void bcast_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	const struct cube_bcast *c = e->priv;
	u32 w = e->g->dst[link];

	if (c->accumulate && w != c->root)
		txn_merge(e, w, pkt);
}

static u64 bcast_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return sizeof(struct cube_bcast) + (u64)g->procs * sizeof(u32);
}

const struct txn_sched txn_sched_cube_bcast = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = bcast_start,
	.choose = bcast_choose,
	.arrive = bcast_arrive,
	.fini = bcast_fini,
	.priv_bytes = bcast_bytes,
};
