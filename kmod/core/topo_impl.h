/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the topology builders (spec.c, graph.c, product.c,
 * min.c, biswapped.c).  Not for use outside kmod/core/.
 */
#ifndef TXN_CORE_TOPO_IMPL_H
#define TXN_CORE_TOPO_IMPL_H

#include "topology.h"

/* Vertex and link ids are u32, and ~0U is TXN_NO_LINK. */
#define TXN_U32_MAX	((u64)0xffffffffU)

/*
 * A cartesian product of factors, each a linear array, a ring or a complete
 * graph (enum txnet_dim_kind).  Mesh, torus, hypercube, GHC and product all
 * are one, and so is every biswapped base.
 *
 * Vertex numbering is mixed radix with dimension 0 most significant:
 * v = sum(coord[i] * stride[i]), stride[ndims-1] = 1.
 *
 * Ports: the dimensions in port order (0, 1, ..., ndims-1; or the reverse
 * when @lsb_first, used by the hypercube so that port k flips bit k), and
 * within one dimension the factor's ports:
 *   linear:   coord-1 (if coord > 0), then coord+1 (if coord < k-1)
 *   ring:     coord-1 mod k, then coord+1 mod k (one port when k == 2)
 *   complete: every other value in increasing order
 */
struct txn_prod {
	u32 ndims;
	u32 nodes;
	bool lsb_first;
	u32 size[TXNET_MAX_DIMS];
	u32 kind[TXNET_MAX_DIMS];
	u32 stride[TXNET_MAX_DIMS];
};

/*
 * Set @p up as the product a (validated, normalized) spec of topology
 * @topo describes: linear, ring, complete, mesh, torus, hypercube, ghc or
 * product.  Returns -EINVAL for any other topology.
 */
int txn_prod_init(struct txn_prod *p, u32 topo, u32 ndims, const u32 *size,
		  const u32 *kind);

/* Out-degree of the vertex with coordinates @coord. */
u32 txn_prod_degree(const struct txn_prod *p, const u32 *coord);

/* Advance @coord to the next vertex (mixed-radix increment). */
void txn_prod_next(const struct txn_prod *p, u32 *coord);

/*
 * Fill the out-links of vertex @idx (coordinates @coord) of a copy of the
 * product whose vertex 0 is graph vertex @base: dst[i] and rev[i] for its
 * ports i = 0 .. degree-1.  first[] must already hold the final CSR offsets
 * of every vertex of the copy.  Returns the degree.
 */
u32 txn_prod_fill(const struct txn_prod *p, const u32 *coord, u32 idx,
		  u32 base, const u32 *first, u32 *dst, u32 *rev);

/* Why closed-form counts refused a spec (spec.c turns them into messages). */
enum { TXN_TOO_MANY_NODES = 1, TXN_TOO_MANY_LINKS };

/*
 * A network of routers given by a rule (dragonfly.c, fattree.c, slimfly.c):
 * the out-degree of each vertex and the vertex each of its ports leads to,
 * asked of what prepare() made of the spec (the spec itself when there is
 * no prepare()).  Every cable runs both ways and no two ports of a vertex
 * lead to one vertex, so rev[] is found by looking.
 */
struct txn_rule {
	int (*prepare)(const struct txn_spec *spec, void **ctx);
	void (*release)(void *ctx);
	u32 (*degree)(const void *ctx, u32 v);
	u32 (*neighbour)(const void *ctx, u32 v, u32 port);
};

extern const struct txn_rule txn_dragonfly_rule, txn_fattree_rule, txn_slimfly_rule;

/* Closed-form counts of a checked spec, or TXN_TOO_MANY_NODES past @lim. */
int txn_dragonfly_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c);
int txn_fattree_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c);
int txn_slimfly_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c);
/* Whether @q is a prime (slimfly.c: the Slim Fly's field). */
bool txn_is_prime(u32 q);

/*
 * Builders: @g has its arrays allocated to the spec's counts.  A rule's
 * builder returns -EINVAL, having written nothing past them, when the rule
 * disagrees with the counts.
 */
int txn_build_rule(const struct txn_spec *spec, const struct txn_rule *r, struct txn_graph *g);
void txn_build_product(const struct txn_prod *p, struct txn_graph *g);
void txn_build_min(const struct txn_spec *spec, struct txn_graph *g);
void txn_build_biswapped(const struct txn_prod *base, struct txn_graph *g);

/* MIN line permutations (min.c); @n = log2 N stages. */
u32 txn_min_log2(u32 n);

/*
 * The MIN's wiring (min.c): the input line of stage 0 processor @i is on,
 * and where output line @x of stage @k (of @n) leads: the input line of
 * stage k+1, or past the last stage the processor.
 */
u32 txn_min_in_line(u32 topo, u32 n, u32 i);
u32 txn_min_wire(u32 topo, u32 n, u32 k, u32 x);
/* The port (0 or 1) out of stage @k a packet for processor @d takes. */
u32 txn_min_tag_port(u32 topo, u32 n, u32 k, u32 d);

#endif /* TXN_CORE_TOPO_IMPL_H */
