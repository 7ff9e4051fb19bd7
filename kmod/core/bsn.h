/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Biswapped networks ([Wei07] section 2): 2n groups of the n-vertex base,
 * node <grp, p, c> numbered c*n^2 + grp*n + p, which is section 3.2's
 * labelling: groups of part 0
 * 0 .. n-1, of part 1 n .. 2n-1, processors 0 .. n-1 in each.  Its last
 * port is its swap link, to <p, grp, 1-c>.
 */
#ifndef TXN_CORE_BSN_H
#define TXN_CORE_BSN_H

#include "engine.h"

static inline u32 txn_bsn_vertex(u32 n, u32 grp, u32 p, u32 c)
{
	return c * n * n + grp * n + p;
}

static inline void txn_bsn_label(u32 n, u32 v, u32 *grp, u32 *p, u32 *c)
{
	*c = v / (n * n);
	*grp = v / n % n;
	*p = v % n;
}

/* <p, grp, 1-c> for @v = <grp, p, c> */
static inline u32 txn_bsn_swap(u32 n, u32 v)
{
	u32 grp, p, c;

	txn_bsn_label(n, v, &grp, &p, &c);
	return txn_bsn_vertex(n, p, grp, 1 - c);
}

static inline u32 txn_bsn_swap_link(const struct txn_graph *g, u32 v)
{
	return g->first[v + 1] - 1;
}

/* The node @steps along base dimension @d from @v, within its group (modulo the factor). */
static inline u32 txn_bsn_along(const struct txn_graph *g, u32 v, u32 d, int steps)
{
	u32 s = g->bstride[d], k = g->bsize[d], a = v % g->bsn_n / s % k;
	u32 to = (u32)(((int)a + steps) % (int)k + (int)k) % k;

	return v - a * s + to * s;
}

/* Base vertex @v's coordinate in base dimension @d. */
static inline u32 txn_bsn_coord(const struct txn_graph *g, u32 v, u32 d)
{
	return v % g->bsn_n / g->bstride[d] % g->bsize[d];
}

/*
 * The neighbour of base vertex @y one step closer to @r (@y != @r), on a
 * shortest path: in the first dimension where they differ, towards @r
 * (the shorter way round a ring, directly in a complete factor).
 */
u32 txn_bsn_toward(const struct txn_graph *g, u32 y, u32 r);

/*
 * An all-reduce along base dimension @d, in the factor's diameter: every
 * node's partial travels to every other node of its line, one per link a
 * tick: to both ends of an array, half way round a ring each way (k/2
 * forwards, the rest backwards), directly in a complete graph.
 * txn_bsn_line_first() is the @j-th node @v's own partial goes to first,
 * ~0U past the last; txn_bsn_line_next() where one that came from @u to
 * @v after @hops ticks goes on, or ~0U when it has gone far enough.
 */
u32 txn_bsn_line_first(const struct txn_graph *g, u32 v, u32 d, u32 j);
u32 txn_bsn_line_next(const struct txn_graph *g, u32 u, u32 v, u32 d, u32 hops);
/* The coordinate in dimension @d of the node a partial that came from @u to @v after @hops left. */
u32 txn_bsn_line_origin(const struct txn_graph *g, u32 u, u32 v, u32 d, u32 hops);

/* The diameter of one factor: the ticks an all-reduce along it takes. */
u32 txn_factor_diameter(u32 kind, u32 k);

/* Base vertex @p's eccentricity in the base, from its factors. */
u32 txn_bsn_ecc(const struct txn_graph *g, u32 p);

/* The base's diameter D: the sum of its factors'. */
u32 txn_bsn_base_diameter(const struct txn_graph *g);

/*
 * The times of the schedules of sched_bsn_*.c on the biswapped network
 * over @spec's base (all-port): the broadcast from @root, ecc(p) + ecc(g)
 * + 2 for root <g, p, c> (Table 1: 2 D + 2, the network's diameter, when
 * both are D, Theorem 1); the data sum, 2 D + 2 (Table 3, its local sum
 * costing no tick).  0 when @spec is not a biswapped network.
 */
u64 txn_bsn_bcast_steps(const struct txn_spec *spec, u32 root);
u64 txn_bsn_sum_steps(const struct txn_spec *spec);
/* The prefix sum (Table 2): 2 D + 2 e + 3, e the eccentricity of processor n-1. */
u64 txn_bsn_prefix_steps(const struct txn_spec *spec);

/*
 * Table 4's figure for @op (broadcast, prefix sum, data sum) over @spec's
 * base, counted as section 3 counts: every group broadcast, prefix sum and
 * data sum costs D, every swap 1, and nothing else is free or shared:
 * broadcast 2 D + 2, prefix sum 3 swaps + 2 broadcasts + 2 prefix sums =
 * 4 D + 3, data sum 2 swaps + 3 data sums = 3 D + 2 (on an array, a
 * square mesh and a complete graph exactly Table 4's formulas).  0 for
 * another operation or topology.
 */
u64 txn_bsn_paper_steps(const struct txn_spec *spec, u32 op);

/*
 * The group schedules (sched_bsn_sum.c, sched_bsn_prefix.c) run in
 * phases of fixed length, one after another: a step of the paper, or one
 * base dimension of a group-wide step.
 */
struct txn_bsn_phase {
	u8 step, dim;
	u32 start, len;		/* ticks start+1 .. start+len */
};

/* The phase tick @t (1-based) belongs to, or NULL past the last. */
const struct txn_bsn_phase *txn_bsn_phase_at(const struct txn_bsn_phase *ph, u32 nph, u64 t);

/* Queue a copy of @pkt (at @v) on the link to neighbour @w. */
void txn_bsn_push_copy(struct txn_engine *e, u32 pkt, u32 v, u32 w);

#endif /* TXN_CORE_BSN_H */
