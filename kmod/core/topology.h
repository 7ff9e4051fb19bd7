/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topologies: validating a spec, counting it before anything is allocated,
 * building its exact graph, naming it.  Portable C (see shim.h).
 *
 * Node and port numbering is documented in Documentation/txnet-topologies.rst
 * and is part of the user-visible contract (txctl send SRC DST uses it).
 */
#ifndef TXN_CORE_TOPOLOGY_H
#define TXN_CORE_TOPOLOGY_H

#include "shim.h"
#include "../../include/uapi/linux/txnet.h"

#define TXN_NO_LINK	((u32)~0U)

/*
 * What the core can represent, whatever the caller's limits: a packet's
 * location is a vertex number with TXN_LOC_* flags in the high bits
 * (engine.h); a per-link array of u32 must stay within the allocator's
 * INT_MAX bytes (shim.h), which also keeps links + TXN_MOVES_SLACK in a u32.
 */
#define TXN_MAX_VERTICES	(1U << 24)
#define TXN_MAX_LINKS		((1U << 29) - 1)

/*
 * Longest txn_spec_format() output, NUL included: "product" and 16
 * dimensions of " complete:4294967295".
 */
#define TXN_SPEC_STR_MAX	(sizeof("product") - 1 + TXNET_MAX_DIMS * (sizeof(" complete:4294967295") - 1) + 1)

/*
 * A topology as the user asked for it.  size[] holds what the user gave:
 * dimension sizes; for a hypercube the single value d; for a MIN the single
 * value N.  kind[] is meaningful for PRODUCT (and for BISWAPPED whose base is
 * a PRODUCT-like base: it mirrors the base's kinds after txn_spec_validate).
 */
struct txn_spec {
	u32 topo;			/* enum txnet_topology */
	u32 base;			/* enum txnet_topology, BISWAPPED only */
	u32 ndims;
	u32 size[TXNET_MAX_DIMS];
	u32 kind[TXNET_MAX_DIMS];	/* enum txnet_dim_kind */
};

/* Everything about a spec that is known before building it. */
struct txn_counts {
	u64 nodes;		/* all vertices: processors then switches */
	u64 procs;		/* processors are vertices 0 .. procs-1 */
	u64 switches;
	u64 links;		/* directed links */
	u32 diameter;		/* processor-to-processor, in links */
	u32 max_degree;		/* largest out-degree */
	bool lines;		/* MIN: links share lines (struct txn_graph) */
};

/* Why a spec was refused: a static message and the offending dimension. */
struct txn_spec_error {
	const char *msg;	/* names the field, e.g. "dimension size must be >= 2" */
	int dim;		/* index into size[]/kind[], or -1 for the spec itself */
	/* TXNET_A_TOPOLOGY, TXNET_A_BASE, TXNET_A_DIM_SIZE, TXNET_A_DIM_KIND or TXNET_A_DIMS */
	int field;
};

/*
 * The graph: CSR of out-links.  The out-links of vertex v are link ids
 * first[v] .. first[v+1]-1, and port p of v is link first[v] + p.
 * dst[l] is the head of link l, src[l] its tail, rev[l] the link from dst[l]
 * back to src[l] (TXN_NO_LINK where the topology is one-way: MINs).
 */
struct txn_graph {
	u32 nodes;
	u32 procs;
	u32 links;
	u32 diameter;		/* processor-to-processor, as counted */
	u32 *first;		/* nodes + 1 entries */
	u32 *src;		/* links entries */
	u32 *dst;		/* links entries */
	u32 *rev;		/* links entries */
	/*
	 * MINs only, else NULL: the line each link is.  Two processors on one
	 * stage-0 switch share its two output lines, so their links to the
	 * same stage-1 switch are one line, one packet a tick between them.
	 * Line numbers are below links.
	 */
	u32 *line;
	/* MINs: a processor has one line in and one out, one packet a tick each */
	bool one_line;
	/* links each node has when every node has as many (rings, tori, cubes), else 0 */
	u32 degree;
	/* MINs: the wiring (enum txnet_topology), else 0 */
	u32 min_topo;
	/*
	 * Cartesian products (every topology but the MINs and biswapped
	 * networks), else ndims 0: the factors in port order (topo_impl.h),
	 * so that a schedule can route by coordinates instead of tables.
	 * Vertex numbers are mixed radix in port order, the last factor
	 * least significant, or the first when @flsb (hypercubes).
	 */
	u32 ndims;
	bool flsb;
	u8 fkind[TXNET_MAX_DIMS];	/* enum txnet_dim_kind */
	u32 fsize[TXNET_MAX_DIMS];
	/*
	 * Biswapped networks, else bsn_n 0: the base's n vertices and its
	 * factors (bkind, bsize, and bstride, the step of a base vertex
	 * number along each), so that a schedule can work within the groups
	 * dimension by dimension (kmod/core/bsn.h).
	 */
	u32 bsn_n;
	u32 bndims;
	u8 bkind[TXNET_MAX_DIMS];
	u32 bsize[TXNET_MAX_DIMS];
	u32 bstride[TXNET_MAX_DIMS];
};

/*
 * Check a spec against the limits and fill in @counts.  Arithmetic cannot
 * overflow: sizes are checked one by one against max_nodes.  Returns 0, or
 * -EINVAL (malformed) / -E2BIG (over max_nodes, TXN_MAX_VERTICES or
 * TXN_MAX_LINKS) with @err filled in.
 * Normalizes kind[] for every topology (mesh -> linear, torus -> ring, ...).
 */
int txn_spec_validate(struct txn_spec *spec, u64 max_nodes,
		      struct txn_counts *counts, struct txn_spec_error *err);

/* Bytes txn_graph_build() will allocate for a validated spec. */
u64 txn_graph_bytes(const struct txn_counts *counts);

/*
 * Build the graph of a validated spec.  0, -ENOMEM, or -EINVAL when @counts
 * are not the spec's own (the arrays are sized from them); nothing is left
 * allocated on failure.
 */
int txn_graph_build(const struct txn_spec *spec, const struct txn_counts *counts,
		    struct txn_graph *g);
void txn_graph_free(struct txn_graph *g);

/* The link from @u to @v, or TXN_NO_LINK. */
u32 txn_link_between(const struct txn_graph *g, u32 u, u32 v);

/*
 * A product's coordinates (g->ndims of them, in port order) of vertex @v
 * into @coord; of every vertex into @coord, V x ndims, so that schedules
 * can route by them.
 */
void txn_vertex_coords(const struct txn_graph *g, u32 v, u32 *coord);
void txn_graph_coords(const struct txn_graph *g, u32 *coord);

/* The ports a factor of @kind and size @k gives the vertex at coordinate @a (topo_impl.h). */
static inline u32 txn_factor_degree(u32 kind, u32 k, u32 a)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return (a > 0) + (a < k - 1);
	case TXNET_DIM_RING:
		return k == 2 ? 1 : 2;
	default:
		return k - 1;
	}
}

/* "torus 8 8", "product ring:5 linear:3", "biswapped mesh 3 3"; returns length as snprintf. */
int txn_spec_format(const struct txn_spec *spec, char *buf, size_t len);

/* A multistage network (butterfly ... flip): switches, one-way links. */
bool txn_topo_is_min(u32 topo);

/* A cartesian product of linear arrays, rings and complete graphs (linear ... product). */
static inline bool txn_topo_is_product(u32 topo)
{
	return topo >= TXNET_TOPO_LINEAR && topo <= TXNET_TOPO_PRODUCT;
}

/* Topology keyword ("torus") to enum and back; 0 / NULL when unknown. */
u32 txn_topo_from_name(const char *name);
const char *txn_topo_name(u32 topo);
u32 txn_dim_kind_from_name(const char *name);
const char *txn_dim_kind_name(u32 kind);

#endif /* TXN_CORE_TOPOLOGY_H */
