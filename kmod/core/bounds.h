/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lower bounds on the ticks of every operation, on every topology, under
 * both port models; and the fewest link traversals any schedule needs.
 * Each bound is cited where it is computed (bounds.c).
 */
#ifndef TXN_CORE_BOUNDS_H
#define TXN_CORE_BOUNDS_H

#include "topology.h"

struct txn_bound {
	u64 lower;			/* ticks no schedule can beat */
	const char *name;		/* the bound that gave it: "eccentricity", "cut", ... */
	u64 min_transmissions;		/* link traversals no schedule can do with fewer */
};

/*
 * The best bound the core knows for @op (enum txnet_op) under @port_model
 * on the built graph @g of the validated @spec.  @root is the root of the
 * operations that have one (ignored otherwise).  0, or -EINVAL for an
 * unknown op or port model or a root that is not a processor.
 */
int txn_bound(const struct txn_spec *spec, const struct txn_graph *g, u32 op,
	      u32 port_model, u32 root, struct txn_bound *b);

/*
 * A permutation's bound: its farthest message's distance ("distance"),
 * and the distances summed; @dests as in txn_run_params, already checked.
 * 0 or -ENOMEM (txn_bound_bytes() at most).  txn_bound() refuses a
 * permutation with -EOPNOTSUPP: its bound depends on the destinations.
 */
int txn_bound_perm(const struct txn_graph *g, const u32 *dests, struct txn_bound *b);

/* Bytes txn_bound() allocates at most for a graph of @counts, to charge first. */
u64 txn_bound_bytes(const struct txn_counts *counts);

/* What a total exchange on a topology must carry ([Dimakopoulos98], section 3). */
struct txn_te_figures {
	u64 total_distance;	/* over all ordered pairs of processors */
	u64 average_status;	/* bound (3), single-port: ceil(total_distance / n) */
	u64 cut;		/* bound (4), all-port: the best dimension cut; 0 off products */
};

/*
 * The figures of @spec's built graph @g: on products from the factors
 * alone (Theorem 1: s(v) = sum_i (n/n_i) s_i(v_i)), with nothing
 * allocated; elsewhere, when @search, by a breadth-first search from every
 * processor (txn_bound_bytes() of scratch).  0, -EOPNOTSUPP when not a
 * product and !@search or too large to search, -ENOMEM.
 */
int txn_te_figures(const struct txn_spec *spec, const struct txn_graph *g, bool search,
		   struct txn_te_figures *f);

#endif /* TXN_CORE_BOUNDS_H */
