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

/* Bytes txn_bound() allocates at most for a graph of @counts, to charge first. */
u64 txn_bound_bytes(const struct txn_counts *counts);

#endif /* TXN_CORE_BOUNDS_H */
