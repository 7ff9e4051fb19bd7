// SPDX-License-Identifier: GPL-2.0
/*
 * Single node scatter on a d-cube ([Bertsekas91] section 3), and gather as
 * its dual.
 *
 * The tree T out of node 0: the classes R_kn in the order of section 2,
 * n(t) and m(t) = 1 + (n(t) - 1) mod d as there, but the first element of
 * each class chosen by compatibility: R_11's first element is 0..01 and
 * its elements hang off 0; for each R_kn (2 <= k <= d-1) in order, a
 * compatible class R_(k-1)n' (d elements, one of them t' obtained from an
 * element of R_kn by clearing a one) is found, t' is its element with
 * m(t') = m_kn, R_kn's first element t is one that t' is t with a one
 * cleared, and each x = t rotated left j times hangs off x' = t' rotated
 * left j times, which has m(x') = m(x).  1..1 hangs off the element of
 * R_(d-1)1 with its m.  So every x is in the subtree T_m(x) under
 * neighbour 0..010..0 (bit m(x) - 1), each subtree holds at most
 * ceil((2^d - 1)/d) nodes, and T is a shortest-path tree.
 *
 * All-port (MLA) the root sends down each subtree one packet a tick,
 * furthest first, and each packet goes on one link a tick along T: the
 * packets of one subtree are never at the same depth at once, so none
 * waits, and the last arrives at tick max N_i <= ceil((2^d - 1)/d).
 * Single-port (SLA) the root sends one packet a tick, furthest first over
 * all subtrees: 2^d - 1 ticks.  Either way d 2^(d-1) transmissions, the
 * sum of the distances (Table 2, Eq. (2)).  A root r other than 0 uses T
 * translated by xor r.
 *
 * Gather: this scatter recorded and played backwards (sched_dual.c).
 */
#include "cube.h"
#include "sched.h"

struct cube_scatter {
	u32 d, n, root, ticks;
	u32 *parent;		/* T: the identity each one hangs off */
	u8 *m;			/* m(x): x is in T_m(x) */
	u32 *at;		/* ticks + 1 offsets into out, by the tick the root sends */
	u32 *out;		/* identities, in the order the root sends their packets */
	bool single;
};

/* The element of @t's class (d elements) whose m is @m, given m(t). */
static u32 with_m(u32 t, u32 mt, u32 m, u32 d)
{
	u32 j;

	for (j = (m + d - mt) % d; j; j--)
		t = txn_cube_rotl(t, d);
	return t;
}

/*
 * Hang the class named @rep (weight >= 2), whose first element gets
 * m = @m0, off a compatible class.  false when there is none (the paper
 * proves there always is).
 */
static bool hang_class(u32 *parent, u8 *m, u32 rep, u32 m0, u32 d)
{
	u32 p = txn_cube_class_size(rep, d), i, j, t, tp, x, xp, b, rest;

	for (i = 0, t = rep; i < p; i++, t = txn_cube_rotl(t, d)) {
		for (rest = t; rest; rest &= rest - 1) {
			b = (u32)__builtin_ctz(rest);
			tp = t ^ (1U << b);
			if (txn_cube_class_size(tp, d) != d)
				continue;
			/* t' of m_kn in that class, and the element of ours above it */
			tp = with_m(tp, m[tp], m0, d);
			x = t;
			do {
				if (txn_popcount(x & ~tp) == 1 && (x & tp) == tp)
					break;
				x = txn_cube_rotl(x, d);
			} while (x != t);
			if (txn_popcount(x & ~tp) != 1 || (x & tp) != tp)
				return false;
			for (j = 0, xp = tp; j < p; j++) {
				parent[x] = xp;
				m[x] = (u8)(1 + (m0 - 1 + j) % d);
				if (m[xp] != m[x])
					return false;
				x = txn_cube_rotl(x, d);
				xp = txn_cube_rotl(xp, d);
			}
			return true;
		}
	}
	return false;
}

int txn_cube_scatter_tree(u32 d, u32 *parent, u8 *m)
{
	u32 n = 1U << d, k = 1, i, j, nreps, p, x, mlast, *reps;
	int ret = -EINVAL;

	if (d < 1 || d > TXN_CUBE_DMAX)
		return -EINVAL;
	reps = txn_alloc_array(n, sizeof(u32));
	if (!reps)
		return -ENOMEM;
	parent[0] = 0;
	m[0] = 0;
	nreps = txn_cube_class_order(d, reps);
	for (i = 0; i < nreps; i++) {
		p = txn_cube_class_size(reps[i], d);
		if (reps[i] == 1) {
			/* R_11 from 0..01: its j-th element 0..010..0 (bit j) has m = j + 1 */
			for (j = 0; j < d; j++) {
				parent[1U << j] = 0;
				m[1U << j] = (u8)(1 + (k - 1 + j) % d);
			}
		} else if (!hang_class(parent, m, reps[i], 1 + (k - 1) % d, d)) {
			goto out;
		}
		k += p;
		txn_cond_resched();
	}
	/* 1..1: off the element of R_(d-1)1 with its m (d = 1: it is 0..01, off 0) */
	mlast = 1 + (k - 1) % d;
	m[n - 1] = (u8)mlast;
	parent[n - 1] = 0;
	for (j = 0; j < d && d > 1; j++) {
		x = (n - 1) ^ (1U << j);
		if (m[x] == mlast)
			parent[n - 1] = x;
	}
	ret = (k == n - 1 && (d == 1 || parent[n - 1])) ? 0 : -EINVAL;
out:
	txn_free(reps);
	return ret;
}

static void scatter_fini(struct txn_engine *e)
{
	struct cube_scatter *c = e->priv;

	if (!c)
		return;
	txn_free(c->parent);
	txn_free(c->m);
	txn_free(c->at);
	txn_free(c->out);
	txn_free(c);
	e->priv = NULL;
}

/*
 * The order the root sends in: all-port, down subtree i (m = i) at ticks
 * 1, 2, ... furthest first; single-port, one a tick, furthest first.
 * Counting sorts: by depth (popcount), then into the ticks.
 */
static int plan_sends(struct cube_scatter *c)
{
	u32 d = c->d, n = c->n, w, x, i, *tick, cnt[TXN_CUBE_DMAX + 2] = { 0 };
	u32 *by_depth;

	by_depth = txn_alloc_array(n, sizeof(u32));
	tick = txn_zalloc_array(n, sizeof(u32));
	if (!by_depth || !tick) {
		txn_free(by_depth);
		txn_free(tick);
		return -ENOMEM;
	}
	for (x = 1; x < n; x++)
		cnt[d - txn_popcount(x) + 1]++;
	for (w = 1; w <= d; w++)
		cnt[w] += cnt[w - 1];
	for (x = 1; x < n; x++)
		by_depth[cnt[d - txn_popcount(x)]++] = x;
	/* tick of each: its rank within its subtree, or overall */
	memset(cnt, 0, sizeof(cnt));
	c->ticks = 0;
	for (i = 0; i < n - 1; i++) {
		x = by_depth[i];
		tick[x] = c->single ? i + 1 : ++cnt[c->m[x]];
		if (tick[x] > c->ticks)
			c->ticks = tick[x];
	}
	/* at[t]: the packets sent before tick t + 1 */
	for (x = 1; x < n; x++)
		c->at[tick[x]]++;
	for (i = 1; i <= c->ticks; i++)
		c->at[i] += c->at[i - 1];
	for (i = 0; i < n - 1; i++) {
		x = by_depth[i];
		c->out[c->at[tick[x] - 1]++] = x;
	}
	/* placing tick t's moved at[t - 1] on to at[t]: shift back */
	for (i = c->ticks; i > 0; i--)
		c->at[i] = c->at[i - 1];
	c->at[0] = 0;
	txn_free(by_depth);
	txn_free(tick);
	return 0;
}

static int scatter_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	struct cube_scatter *c;
	int ret;

	if (e->p.op != TXNET_OP_SCATTER || !txn_is_cube(g))
		return -EINVAL;
	c = txn_zalloc_array(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->d = g->ndims;
	c->n = g->procs;
	c->root = e->p.root;
	c->single = e->p.port_model == TXNET_PORT_SINGLE;
	c->parent = txn_alloc_array(c->n, sizeof(u32));
	c->m = txn_alloc_array(c->n, sizeof(u8));
	c->at = txn_zalloc_array(c->n + 2, sizeof(u32));
	c->out = txn_alloc_array(c->n, sizeof(u32));
	if (!c->parent || !c->m || !c->at || !c->out)
		return -ENOMEM;
	ret = txn_cube_scatter_tree(c->d, c->parent, c->m);
	return ret ? ret : plan_sends(c);
}

/* Scatter packet k is for processor k, or k + 1 from the root on (ops.c). */
static u32 packet_for(const struct cube_scatter *c, u32 v)
{
	return v < c->root ? v : v - 1;
}

/* This tick's packets leave the root; those on their way are on the links' queues. */
static void scatter_choose(struct txn_engine *e)
{
	const struct cube_scatter *c = e->priv;
	u32 tick = (u32)e->tick + 1, q, x, first;

	txn_q_send_heads(e);
	if (tick > c->ticks)
		return;
	for (q = c->at[tick - 1]; q < c->at[tick]; q++) {
		x = c->out[q];
		/* down subtree m(x), whose top is 0..010..0 (bit m(x) - 1) */
		first = c->m[x] - 1U;
		/* hypercube port k flips bit k (topo_impl.h) */
		txn_move(e, packet_for(c, c->root ^ x), e->g->first[c->root] + first);
	}
}

/* On along T: to the child of the node it reached that lies on its way. */
static u64 scatter_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	const struct cube_scatter *c = e->priv;
	u32 v = e->g->dst[link], y = v ^ c->root, x = dst ^ c->root;

	(void)pkt;
	while (x && c->parent[x] != y)
		x = c->parent[x];
	return txn_way(e->g->first[v] + (u32)__builtin_ctz(x ^ y), 0);
}

static u64 scatter_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	/* parent, m, at, out; the tree's class order and the plan's two sorts */
	return sizeof(struct cube_scatter) + (u64)g->procs * (3 * sizeof(u32) + 1) +
	       2 * sizeof(u32) + 2 * (u64)g->procs * sizeof(u32);
}

const struct txn_sched txn_sched_cube_scatter = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = scatter_start,
	.choose = scatter_choose,
	.onward = scatter_onward,
	.fini = scatter_fini,
	.priv_bytes = scatter_bytes,
};

static int gather_start(struct txn_engine *e)
{
	return txn_dual_start(e, &txn_sched_cube_scatter);
}

static u64 gather_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)npkts;
	return txn_dual_bytes(g, &txn_sched_cube_scatter, port);
}

const struct txn_sched txn_sched_cube_gather = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = gather_start,
	.choose = txn_dual_choose,
	.fini = txn_dual_fini,
	.priv_bytes = gather_bytes,
};
