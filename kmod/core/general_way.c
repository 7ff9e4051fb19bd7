// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule's way on, hop by hop: the shortest-path link with the
 * shortest queue towards a packet's destination, from coordinates, step
 * tables, a MIN's tag or the route table; for every packet that landed in
 * a tick at once (onward), or for one (way_from).  The hot path of a
 * unicast run: branch-free where the data decides, and cloned per
 * topology family (WAYS) where the bench shows it pays.
 */
#include "sched_general.h"

/*
 * A hypercube's way on from @v towards processor @d: the dimensions to
 * cross are the bits they differ in, the distance is how many, and the
 * emptiest of their links is taken (the first of equals).  The walk of
 * the bits counts them, so no popcount is paid a hop.
 */
static __always_inline u32 way_on_cube(const struct txn_engine *e, const struct gen *s, u32 v,
				       u32 d, u32 *key)
{
	const u32 *q = e->pq_len;
	u32 first = e->g->first[v], diff = v ^ d, dist = 1, best, least, l;

	if (!diff) {
		*key = 0;
		return TXN_NO_LINK;
	}
	best = first + (u32)__builtin_ctz(diff);
	least = q[best];
	for (diff &= diff - 1; diff; diff &= diff - 1) {
		l = first + (u32)__builtin_ctz(diff);
		best = q[l] < least ? l : best;
		least = q[l] < least ? q[l] : least;
		dist++;
	}
	*key = key_of(s, dist);
	return best;
}

/*
 * The way on from @v towards processor @d on a product, from coordinates:
 * in each dimension where @v and @d differ, the ports that bring that
 * coordinate closer (both ways round a ring at half its length) are on a
 * shortest path, and the distance is the sum of the factors' distances.
 * Every shortest path is weighed, not only the first 8 ports, and nothing
 * but the coordinates is read: no table of n x V entries to miss in.
 */
static __always_inline u32 way_by_coord(const struct txn_engine *e, const struct gen *s, u32 v,
					u32 d, u32 *key)
{
	const struct txn_graph *g = e->g;
	const u32 *cv = s->coord + (u64)v * g->ndims, *cd = s->coord + (u64)d * g->ndims;
	u32 first = g->first[v], off = 0, dist = 0, best = TXN_NO_LINK, t, a, b, k, fw;

#define CONSIDER(port) do {							\
		u32 l_ = first + (port);					\
		if (best == TXN_NO_LINK || e->pq_len[l_] < e->pq_len[best])	\
			best = l_;						\
	} while (0)
	if (s->cube)
		return way_on_cube(e, s, v, d, key);
	for (t = 0; t < g->ndims; t++) {
		a = cv[t];
		b = cd[t];
		k = g->fsize[t];
		switch (g->fkind[t]) {
		case TXNET_DIM_LINEAR:
			if (a != b) {
				dist += a < b ? b - a : a - b;
				CONSIDER(off + (b < a ? 0 : a > 0));
			}
			off += (a > 0) + (a < k - 1);
			break;
		case TXNET_DIM_RING:
			if (a != b) {
				fw = b > a ? b - a : b + k - a;
				dist += fw < k - fw ? fw : k - fw;
				if (k == 2) {
					CONSIDER(off);
				} else {
					if (k - fw <= fw)
						CONSIDER(off);
					if (fw <= k - fw)
						CONSIDER(off + 1);
				}
			}
			off += k == 2 ? 1 : 2;
			break;
		default:
			if (a != b) {
				dist++;
				CONSIDER(off + (b < a ? b : b - 1));
			}
			off += k - 1;
			break;
		}
	}
#undef CONSIDER
	*key = key_of(s, dist);
	return best;
}

/* Port @c weighed: its queue, or ~0 when it is not on the way (@not ~0). */
static __always_inline void weigh_unless(const u32 *q, u32 c, u32 not, u32 *best, u32 *least)
{
	u32 len = q[c] | not;

	*best = len < *least ? c : *best;
	*least = len < *least ? len : *least;
}

/* ... @on 1 when it is on the way, 0 when not. */
static __always_inline void weigh(const u32 *q, u32 c, u32 on, u32 *best, u32 *least)
{
	weigh_unless(q, c, on - 1, best, least);
}

/*
 * One factor's step of the way from the node whose table rows are @rv to
 * processor coordinates @cd: its distance, and its ports weighed, the
 * second's index computed rather than chosen (a branch on it would be on
 * the traffic).  *@off moves past the factor's ports.
 */
static __always_inline void way_step(const struct txn_engine *e, const struct gen *s,
				     const u32 *rv, const u32 *cd, u32 t, u32 *off, u32 *dist,
				     u32 *best, u32 *least)
{
	const struct dstep *st = &s->dtab[rv[t] + cd[t]];

	*dist += st->dist;
	weigh_unless(e->pq_len, *off, (u32)(s32)st->not0, best, least);
	/* a's last port in the factor: its first again where it has one */
	weigh_unless(e->pq_len, *off + st->width - 1, (u32)(s32)st->not1, best, least);
	*off += st->width;
}

/*
 * way_step() computed, for factors past DTAB_K: a ring's or array's step
 * from coordinate @a towards @b (@k of them), its distance and its ports
 * on a shortest path weighed (a ring's backward one first, as
 * way_by_coord does).  The branches on @kind and @k go the same way every
 * hop.  *@off moves past the factor's ports.
 */
static __always_inline void ring_step(const u32 *q, u32 kind, u32 k, u32 a, u32 b, u32 *off,
				      u32 *dist, u32 *best, u32 *least)
{
	u32 ne = a != b, up = b > a, fw, bw;

	if (kind == TXNET_DIM_LINEAR) {
		*dist += up ? b - a : a - b;
		/* its ports: down where a > 0, then up where a < k - 1 */
		weigh(q, *off + (up & (a > 0)), ne, best, least);
		*off += (a > 0) + (a < k - 1);
		return;
	}
	if (k == 2) {
		*dist += ne;
		weigh(q, *off, ne, best, least);
		*off += 1;
		return;
	}
	fw = b >= a ? b - a : b + k - a;
	bw = k - fw;
	*dist += fw < bw ? fw : bw;
	weigh(q, *off, ne & (bw <= fw), best, least);
	weigh(q, *off + 1, ne & (fw <= bw), best, least);
	*off += 2;
}

/*
 * way_by_coord by steps, a factor at a time: from the tables (@table:
 * way_step()) or computed (ring_step()), without a branch on the data:
 * which ports lie on a shortest path, and which of them has the shortest
 * queue, are as random as the packets, and a mispredicted branch costs
 * more than the rest of the hop.  The same ports weighed in the same order.
 */
static __always_inline u32 way_by_steps_n(const struct txn_engine *e, const struct gen *s, u32 v,
					  u32 d, u32 *key, u32 nd, const bool table)
{
	const struct txn_graph *g = e->g;
	const u32 *cv = (table ? s->drow : s->coord) + (u64)v * nd, *cd = s->coord + (u64)d * nd;
	u32 first = g->first[v], off = first, dist = 0, best = first, least = ~0U, t;

	for (t = 0; t < nd; t++) {
		if (table)
			way_step(e, s, cv, cd, t, &off, &dist, &best, &least);
		else
			ring_step(e->pq_len, g->fkind[t], g->fsize[t], cv[t], cd[t], &off, &dist,
				  &best, &least);
	}
	*key = key_of(s, dist);
	return best;
}

/* Rings, 2-D and 3-D tori unrolled: the loop's exit is a branch too. */
static __always_inline u32 way_by_steps(const struct txn_engine *e, const struct gen *s, u32 v,
					u32 d, u32 *key, const bool table)
{
	switch (e->g->ndims) {
	case 1:
		return way_by_steps_n(e, s, v, d, key, 1, table);
	case 2:
		return way_by_steps_n(e, s, v, d, key, 2, table);
	case 3:
		return way_by_steps_n(e, s, v, d, key, 3, table);
	default:
		return way_by_steps_n(e, s, v, d, key, e->g->ndims, table);
	}
}

/*
 * The way on from @v towards processor @d: the shortest-path link with the
 * shortest queue (minimal adaptive routing), so that traffic spreads over
 * all the shortest paths instead of one tree's; *@key its distance.  Where
 * the distance is too large to be kept exactly, the tree's link.
 */
static __always_inline u32 way_toward(const struct txn_engine *e, const struct gen *s, u32 v,
				      u32 d, u32 *key)
{
	const struct hop *h;
	u32 best, first, l;
	u8 m;

	if (s->tag && !s->faulty)
		return way_by_tag(e, s, v, d, key);
	if (s->dtab && !s->faulty)
		return way_by_steps(e, s, v, d, key, true);
	if (s->ringed && !s->faulty)
		return way_by_steps(e, s, v, d, key, false);
	if (s->coord && !s->faulty)
		return way_by_coord(e, s, v, d, key);
	h = &s->route[(u64)s->row_of[d] * s->vertices + v];
	best = h->link;
	m = h->prod;

	/* More than one way on: the emptiest; ports past 7 are not weighed. */
	if (m & (m - 1)) {
		first = e->g->first[v];
		for (; m; m &= m - 1) {
			l = first + __builtin_ctz(m);
			if (e->pq_len[l] < e->pq_len[best])
				best = l;
		}
	}
	*key = h->dist;
	return best;
}

void gen_send_toward(struct txn_engine *e, u32 pkt, u32 v, u32 d)
{
	u32 key, l = way_toward(e, e->priv, v, d, &key);

	txn_pq_push(e, l, key, pkt);
}

/*
 * Tabled tori and meshes of @nd (2 or 3) factors: their steps unrolled and
 * the key left to the engine's cap.  way_by_steps_n() here instead, with
 * its loop and key_of(), does more work a hop on every tabled torus and
 * mesh make bench measures.
 */
static __always_inline u64 onward_tabled(const struct txn_engine *e, u32 v, u32 d, const u32 nd)
{
	const struct gen *s = e->priv;
	const u32 *rv = s->drow + nd * (u64)v, *cd = s->coord + nd * (u64)d;
	u32 first = e->g->first[v], off = first, dist = 0, best = first, least = ~0U;

	way_step(e, s, rv, cd, 0, &off, &dist, &best, &least);
	way_step(e, s, rv, cd, 1, &off, &dist, &best, &least);
	if (nd == 3)
		way_step(e, s, rv, cd, 2, &off, &dist, &best, &least);
	/* key_of()'s cap is the engine's: it keeps an onward() key below pq_keys (s->keys) */
	return txn_way(best, dist);
}

/*
 * Rings and linear arrays of any size: their one step computed, without
 * way_by_steps()'s dispatch on the factor count and the table's rows, and
 * without key_of(), which way_by_steps_n() with one factor would do each
 * hop.
 */
static __always_inline u64 onward_1d(const struct txn_engine *e, u32 v, u32 d)
{
	const struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u32 off = g->first[v], dist = 0, best = off, least = ~0U;

	ring_step(e->pq_len, g->fkind[0], g->fsize[0], s->coord[v], s->coord[d], &off, &dist,
		  &best, &least);
	return txn_way(best, dist);
}

/* The networks onward_all() has a loop of its own for. */
enum leaf {
	LEAF_ANY,	/* every other network, or faults: way_toward() */
	LEAF_1D,	/* rings and linear arrays */
	LEAF_2D,	/* 2-D tori and meshes of up to DTAB_K a side, the common case */
	LEAF_3D,	/* 3-D ones */
	LEAF_STEPS,	/* other tabled products */
	LEAF_RINGS,	/* rings, arrays and their products past DTAB_K a side */
	LEAF_CUBE,	/* hypercubes: way_on_cube() */
};

/* The loop that routes this run's unicast packets as it stands (faults change it). */
static enum leaf gen_leaf(const struct gen *s, const struct txn_graph *g)
{
	if (s->faulty || s->tag)
		return LEAF_ANY;
	if (s->one_d)
		return LEAF_1D;
	if (s->two_d)
		return LEAF_2D;
	if (s->dtab && g->ndims == 3)
		return LEAF_3D;
	if (s->dtab)
		return LEAF_STEPS;
	if (s->ringed)
		return LEAF_RINGS;
	if (s->cube)
		return LEAF_CUBE;
	return LEAF_ANY;
}

/* The way on from @v, where a packet bound for @d landed, by loop @k. */
static __always_inline u64 way_of(const struct txn_engine *e, u32 v, u32 d, const enum leaf k)
{
	u32 key, l;

	switch (k) {
	case LEAF_1D:
		return onward_1d(e, v, d);
	case LEAF_2D:
		return onward_tabled(e, v, d, 2);
	case LEAF_3D:
		return onward_tabled(e, v, d, 3);
	case LEAF_STEPS:
		l = way_by_steps(e, e->priv, v, d, &key, true);
		break;
	case LEAF_RINGS:
		l = way_by_steps(e, e->priv, v, d, &key, false);
		break;
	case LEAF_CUBE:
		l = way_on_cube(e, e->priv, v, d, &key);
		break;
	default:
		l = way_toward(e, e->priv, v, d, &key);
		break;
	}
	return txn_way(l, key);
}

static __always_inline void ways_of(const struct txn_engine *e, const struct txn_landed *a, u32 n,
				    u64 *ways, const enum leaf k)
{
	u32 i;

	for (i = 0; i < n; i++)
		ways[i] = way_of(e, a[i].at, a[i].dst, k);
}

/*
 * A loop of its own for each: registers allocated for it alone, and
 * nothing saved across a call each hop.
 */
#define WAYS(name, k)								\
static noinline void name(const struct txn_engine *e, const struct txn_landed *a, u32 n,	\
			  u64 *ways)						\
{										\
	ways_of(e, a, n, ways, k);						\
}

WAYS(ways_any, LEAF_ANY)
WAYS(ways_1d, LEAF_1D)
WAYS(ways_2d, LEAF_2D)
WAYS(ways_3d, LEAF_3D)
WAYS(ways_steps, LEAF_STEPS)
WAYS(ways_rings, LEAF_RINGS)
WAYS(ways_cube, LEAF_CUBE)
#undef WAYS

static void (*const ways_by_leaf[])(const struct txn_engine *e, const struct txn_landed *a,
				    u32 n, u64 *ways) = {
	[LEAF_ANY] = ways_any, [LEAF_1D] = ways_1d, [LEAF_2D] = ways_2d, [LEAF_3D] = ways_3d,
	[LEAF_STEPS] = ways_steps, [LEAF_RINGS] = ways_rings, [LEAF_CUBE] = ways_cube,
};

/* The tick's landed packets: the loop chosen once a tick, so that no hop pays for the choice. */
void gen_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n,
			   u64 *ways)
{
	ways_by_leaf[gen_leaf(e->priv, e->g)](e, a, n, ways);
}

/* One unicast packet's way (the engine asks onward_all() for a tick's). */
u64 gen_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	u32 key, l = way_toward(e, e->priv, e->g->dst[link], dst, &key);

	(void)pkt;
	return txn_way(l, key);
}

/*
 * A partial sum at @v after its tree towards @d was mended (sum_mend()):
 * complete there, it goes on to its parent; not yet, it rests where it is
 * until the others reach it, as does one at @d.
 */
static u64 sum_way(const struct txn_engine *e, const struct gen *s, u32 pkt, u32 v, u32 d)
{
	u64 at = red_row(s, d) + v;

	if (v == d || txn_pkt_count(e, pkt) != red_sub(s, at))
		return txn_way(TXN_WAY_KEEP, 0);
	return txn_way(red_link(e->g, s, at, v), red_dist(s, at));
}

u64 gen_way_from(const struct txn_engine *e, u32 pkt, u32 v, u32 dst)
{
	const struct gen *s = e->priv;
	u32 key, l;
	u64 base;

	if (s->tgt && s->tgt[pkt] != TXN_NONE) {
		/* an addressed copy: toward its processor */
		l = way_toward(e, s, v, s->tgt[pkt], &key);
		return txn_way(l, key);
	}
	/* a tree copy: its processor has the message and sends it down the mended tree */
	if (s->state)
		return txn_way(TXN_WAY_DROP, 0);
	if (s->first_of) {
		/* a partial sum on up its mended tree, or it rests */
		if (tree_sum(e->g, e->p.op) || txn_pkt_count(e, pkt) < s->n)
			return sum_way(e, s, pkt, v, sum_result(e, s, pkt));
		/* a data sum's total on to its child, or it rests */
		if (s->to[pkt] == TXN_NONE)
			return txn_way(TXN_WAY_KEEP, 0);
		base = (u64)s->orow_of[s->center] * s->vertices;
		return txn_way(txn_link_between(e->g, v, s->to[pkt]), s->height[base + s->to[pkt]]);
	}
	l = way_toward(e, s, v, dst, &key);
	return txn_way(l, key);
}
