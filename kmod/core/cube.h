/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The d-cube as [Bertsekas91] takes it apart: identities t of d bits,
 * grouped (section 2) into the classes
 * R_kn of the weight-k identities under a one-bit left rotation, ordered
 * 0, R_11, R_21 .. R_2n2, ..., R_(d-1)1, 1..1 with R_k1 the class of the
 * identity whose k rightmost bits are ones; and the time and transmission
 * count each operation needs (Tables 1 and 2).  Shared by the schedules
 * of sched_hypercube.c and sched_cube_*.c.
 */
#ifndef TXN_CORE_CUBE_H
#define TXN_CORE_CUBE_H

#include "shim.h"
#include "topology.h"

/* The largest d the [Bertsekas91] schedules build their tables for. */
#define TXN_CUBE_DMAX	16

/* Whether @g is a d-cube these schedules run on: hypercube port k flips bit k. */
static inline bool txn_is_cube(const struct txn_graph *g)
{
	return g->flsb && g->ndims >= 1 && g->ndims <= TXN_CUBE_DMAX && g->procs == 1U << g->ndims;
}

static inline u32 txn_cube_rotl(u32 t, u32 d)
{
	return ((t << 1) | (t >> (d - 1))) & ((1U << d) - 1);
}

/* The smallest rotation of @t: its class's name. */
u32 txn_cube_class(u32 t, u32 d);

/* Elements of @t's class: d, or a divisor of d for a periodic identity. */
u32 txn_cube_class_size(u32 t, u32 d);

/*
 * The names of R_11 .. R_(d-1)1 and the other classes, in the paper's
 * order (R_k1 first among weight k, the others by name), in @reps, which
 * holds 2^d entries; returns how many.  0 and 1..1 are not classes here.
 */
u32 txn_cube_class_order(u32 d, u32 *reps);

/* The highest bit set in @x (nonzero). */
static inline u32 txn_cube_top(u32 x)
{
	return 31 - (u32)__builtin_clz(x);
}

/*
 * [Bertsekas91], Tables 1 and 2: the optimal time of @op (enum txnet_op) on a
 * d-cube under @port_model, and the fewest transmissions; false when the
 * paper gives none (prefix and data sums) or d is out of 1..16.
 */
bool txn_cube_optimum(u32 d, u32 op, u32 port_model, u64 *steps, u64 *transmissions);

/*
 * Section 2, Figure 6: n(t) of every identity in @num and the identity
 * numbered k in @order (2^d entries each); t hears from t with bit
 * (n(t)-1) mod d cleared.  0, or -EINVAL when the construction fails.
 */
int txn_cube_numbering(u32 d, u32 *num, u32 *order);

/*
 * Section 3: the scatter tree out of 0, @parent of every identity and the
 * subtree m(x) (1..d) it lies in (2^d entries each); 0 or -errno.
 */
int txn_cube_scatter_tree(u32 d, u32 *parent, u8 *m);

/* One hop of section 4's total exchange, the same from every node. */
struct txn_cube_hop {
	u32 x;			/* the offset i xor j of the packets that cross */
	u32 pre;		/* the bits of x they crossed before */
	u32 bit;		/* the dimension they cross */
};

/*
 * Section 4: the total exchange's hops, @hop[(tick - 1) * w + k] with w =
 * d all-port (k the dimension) and 1 single-port, T_d ticks.  0, -ENOMEM,
 * or -EINVAL when two hops would share a link in a tick, a packet's hops
 * are out of order, or a link would idle (the construction is not the
 * paper's).
 */
int txn_cube_te_routes(u32 d, bool single, struct txn_cube_hop *hop);

#endif /* TXN_CORE_CUBE_H */
