// SPDX-License-Identifier: GPL-2.0
/*
 * Multinode broadcast on a d-cube ([Bertsekas91] section 2): every node
 * broadcasts at once, each along a translate t xor A_i of one spanning tree
 * A_1 .. A_q out of
 * node 0 whose link sets A_i hold links of distinct types (bits), so
 * that the translates never share a link in a tick.
 *
 * The tree (Figure 6): the nonzero identities are numbered n(t) in the
 * order 0, R_11, R_21 .. R_2n2, ..., R_(d-1)1, 1..1, where R_kn are the
 * classes of the weight-k identities under a one-bit left rotation and
 * R_k1 is the class of the identity whose k rightmost bits are ones;
 * m(t) = 1 + (n(t) - 1) mod d; the first element of each class has a one
 * in position m(t) (and, in R_k1, a zero just right of it, cyclically),
 * the next ones are its left rotations.  E_i holds the identities
 * numbered (i-1)d+1 .. id, and t in E_i hears from t with bit m(t)
 * cleared, at tick i: q = ceil((2^d-1)/d) ticks under the all-port model
 * (MLA), the bound, with 2^d(2^d-1) transmissions (Table 2).  Under the
 * single-port model (SLA) the packet of every node t crosses (t xor x,
 * t xor y) at tick n(y) instead: each node sends one and receives one a
 * tick, 2^d - 1 ticks (Table 1).
 *
 * Multinode accumulation is the dual (section 1): the same trees, the
 * schedule reversed in time and the links in direction, each node merging
 * what its children send for result t into its own partial before it
 * sends: the same ticks, 2^d(2^d-1) transmissions.
 */
#include "cube.h"
#include "sched.h"

struct cube {
	u32 d, n, last;		/* last: the tick of the last tree link */
	u32 *num;		/* n(t) */
	u32 *order;		/* the identity numbered k */
	u32 *held;		/* n x n: node u's copy of message t, at t * n + u */
	bool single, accumulate;
};

/*
 * Number the class of @rep from *@k on: its first element has a one at
 * bit m-1 (m = 1 + (k-1) mod d) and, in R_k1 (@first), a zero at bit m-2
 * cyclically; the rest follow by left rotation.  false if no rotation
 * fits (the construction's property (1) fails).
 */
static bool number_class(struct cube *c, u32 rep, bool first, u32 *k)
{
	u32 d = c->d, m = 1 + (*k - 1) % d, t = rep, i, p;

	p = txn_cube_class_size(rep, d);
	for (i = 0, t = rep; i < p; i++, t = txn_cube_rotl(t, d)) {
		if (!(t >> (m - 1) & 1))
			continue;
		if (first && (t >> ((m + d - 2) % d) & 1))
			continue;
		break;
	}
	if (i == p)
		return false;
	for (i = 0; i < p; i++, t = txn_cube_rotl(t, d)) {
		c->num[t] = *k;
		c->order[(*k)++] = t;
	}
	return true;
}

/*
 * n(t) for every identity, in the order of Figure 6; -EINVAL if it fails.
 * @reps: 2^d entries of scratch for the class order.
 */
static int number_all(struct cube *c, u32 *reps)
{
	u32 n = c->n, k = 1, i, nreps = txn_cube_class_order(c->d, reps);

	c->num[0] = 0;
	c->order[0] = 0;
	for (i = 0; i < nreps; i++) {
		/* R_w1 is the class of 0..01..1 (its own name), the first of weight w */
		if (!number_class(c, reps[i], reps[i] == (1U << txn_popcount(reps[i])) - 1, &k))
			return -EINVAL;
	}
	c->num[n - 1] = k;
	c->order[k++] = n - 1;
	return k == n ? 0 : -EINVAL;
}

/* The tree's parent of @t (nonzero): t with bit m(t) cleared. */
static u32 parent(const struct cube *c, u32 t)
{
	return t & ~(1U << ((c->num[t] - 1) % c->d));
}

/*
 * The identities that hear at @tick, order[*lo .. *hi - 1]: E_tick
 * (all-port), or the one numbered @tick (single-port).
 */
static void heard_at(const struct cube *c, u32 tick, u32 *lo, u32 *hi)
{
	u32 w = c->single ? 1 : c->d;

	*lo = (tick - 1) * w + 1;
	*hi = *lo + w;
	if (*lo > c->n)
		*lo = c->n;
	if (*hi > c->n)
		*hi = c->n;
}

static void cube_fini(struct txn_engine *e)
{
	struct cube *c = e->priv;

	if (!c)
		return;
	txn_free(c->num);
	txn_free(c->order);
	txn_free(c->held);
	txn_free(c);
	e->priv = NULL;
}

int txn_cube_numbering(u32 d, u32 *num, u32 *order)
{
	struct cube c = { .d = d, .n = 1U << d, .num = num, .order = order };
	u32 *reps;
	int ret;

	if (d < 1 || d > TXN_CUBE_DMAX)
		return -EINVAL;
	reps = txn_alloc_array(c.n, sizeof(u32));
	if (!reps)
		return -ENOMEM;
	ret = number_all(&c, reps);
	txn_free(reps);
	return ret;
}

static int cube_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	struct cube *c;
	u32 t;
	int ret;

	if ((e->p.op != TXNET_OP_MULTINODE_BROADCAST &&
	     e->p.op != TXNET_OP_MULTINODE_ACCUMULATE) || !txn_is_cube(g))
		return -EINVAL;
	c = txn_zalloc_array(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->d = g->ndims;
	c->n = g->procs;
	c->single = e->p.port_model == TXNET_PORT_SINGLE;
	c->accumulate = e->p.op == TXNET_OP_MULTINODE_ACCUMULATE;
	c->last = c->single ? c->n - 1 : (c->n - 1 + c->d - 1) / c->d;
	c->num = txn_alloc_array(c->n, sizeof(u32));
	c->order = txn_alloc_array(c->n, sizeof(u32));
	if (!c->num || !c->order)
		return -ENOMEM;
	ret = txn_cube_numbering(c->d, c->num, c->order);
	if (ret)
		return ret;
	if (c->accumulate)
		return 0;	/* node u's partial for result t is slot u * n + t throughout */
	c->held = txn_alloc_array((u64)c->n * c->n, sizeof(u32));
	if (!c->held)
		return -ENOMEM;
	/* every node starts with its own message: slot t at node t */
	for (t = 0; t < c->n; t++)
		c->held[(u64)t * c->n + t] = t;
	return 0;
}

/*
 * The dual, at the tick the broadcast used tick @fwd: for each tree link
 * (x, y) of that tick and each result t, node t xor y sends its partial,
 * with its subtree merged in, to t xor x.
 */
static void accumulate_step(struct txn_engine *e, const struct cube *c, u32 fwd)
{
	u32 k, y, x, t, u, bit, lo, hi;

	heard_at(c, fwd, &lo, &hi);
	for (k = lo; k < hi; k++) {
		y = c->order[k];
		x = parent(c, y);
		bit = (u32)__builtin_ctz(x ^ y);
		for (t = 0; t < c->n; t++) {
			u = t ^ y;
			txn_move(e, u * c->n + t, e->g->first[u] + bit);
		}
	}
}

/* A partial reached a node on its way: merged into that node's own (the result's node folds). */
static void cube_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	const struct cube *c = e->priv;
	u32 w = e->g->dst[link], t = txn_pkt_dst(e, pkt);

	if (c->accumulate && w != t)
		txn_merge(e, w * c->n + t, pkt);
}

/* Every node t sends its message along t xor (x, y) for each tree link (x, y) of this tick. */
static void cube_choose(struct txn_engine *e)
{
	struct cube *c = e->priv;
	u32 tick = (u32)e->tick + 1, k, y, x, t, u, v, pkt, bit, lo, hi;

	if (tick > c->last)
		return;
	if (c->accumulate) {
		accumulate_step(e, c, c->last + 1 - tick);
		return;
	}
	heard_at(c, tick, &lo, &hi);
	for (k = lo; k < hi; k++) {
		y = c->order[k];
		x = parent(c, y);
		bit = (u32)__builtin_ctz(x ^ y);
		for (t = 0; t < c->n; t++) {
			u = t ^ x;
			v = t ^ y;
			/* hypercube port k flips bit k (topo_impl.h) */
			pkt = txn_copy(e, c->held[(u64)t * c->n + u]);
			if (pkt == TXN_NONE)
				return;
			txn_move(e, pkt, e->g->first[u] + bit);
			c->held[(u64)t * c->n + v] = pkt;
		}
	}
}

static u64 cube_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	/* an accumulation's partials are its slots (cube_start()): no copies held */
	u64 held = op == TXNET_OP_MULTINODE_BROADCAST ? (u64)g->procs * g->procs : 0;

	(void)port;
	(void)npkts;
	/* num, order, and the class order's scratch while they are built */
	return sizeof(struct cube) + (3 * (u64)g->procs + held) * sizeof(u32);
}

const struct txn_sched txn_sched_hypercube = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = cube_start,
	.choose = cube_choose,
	.arrive = cube_arrive,
	.fini = cube_fini,
	.priv_bytes = cube_bytes,
};
