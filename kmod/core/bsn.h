/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Biswapped networks (paper 004, shared/papers/004_479a535e0b8bf657.txt,
 * section 2): 2n groups of the n-vertex base, node <grp, p, c> numbered
 * c*n^2 + grp*n + p, which is section 3.2's labelling: groups of part 0
 * 0 .. n-1, of part 1 n .. 2n-1, processors 0 .. n-1 in each.  Its last
 * port is its swap link, to <p, grp, 1-c>.
 */
#ifndef TXN_CORE_BSN_H
#define TXN_CORE_BSN_H

#include "topology.h"

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

#endif /* TXN_CORE_BSN_H */
