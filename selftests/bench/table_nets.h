/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The networks of make table (table.c), which the host tests also run
 * every operation on (selftests/host/replay_test.c): one list, so that a
 * network added to the table is tested too.
 */
#ifndef TXN_TABLE_NETS_H
#define TXN_TABLE_NETS_H

#include "core/cables.h"
#include "core/topology.h"

struct net {
	const char *label;
	struct txn_spec spec;
};

/*
 * BookSim2's src/examples/anynet/anynet_file: three routers in a
 * triangle, three nodes on each; nodes 0 .. 8, routers vertices 9 .. 11.
 */
static const u32 booksim_anynet[] = {
	0, 9, 1, 9, 2, 9, 3, 10, 4, 10, 5, 10, 6, 11, 7, 11, 8, 11, 9, 10, 9, 11, 10, 11,
};

#define SPEC(t, ...) { .topo = (t), .ndims = sizeof((u32[]){ __VA_ARGS__ }) / sizeof(u32), \
		       .size = { __VA_ARGS__ } }

static const struct net nets[] = {
	{ "linear 16", SPEC(TXNET_TOPO_LINEAR, 16) },
	{ "ring 16", SPEC(TXNET_TOPO_RING, 16) },
	{ "complete 16", SPEC(TXNET_TOPO_COMPLETE, 16) },
	{ "mesh 4 4", SPEC(TXNET_TOPO_MESH, 4, 4) },
	{ "torus 8 8", SPEC(TXNET_TOPO_TORUS, 8, 8) },
	{ "hypercube 6", SPEC(TXNET_TOPO_HYPERCUBE, 6) },
	{ "ghc 4 4", SPEC(TXNET_TOPO_GHC, 4, 4) },
	{ "product ring:4 linear:4 complete:2",
	  { .topo = TXNET_TOPO_PRODUCT, .ndims = 3, .size = { 4, 4, 2 },
	    .kind = { TXNET_DIM_RING, TXNET_DIM_LINEAR, TXNET_DIM_COMPLETE } } },
	{ "butterfly 16", SPEC(TXNET_TOPO_BUTTERFLY, 16) },
	{ "omega 16", SPEC(TXNET_TOPO_OMEGA, 16) },
	{ "baseline 16", SPEC(TXNET_TOPO_BASELINE, 16) },
	{ "rbaseline 16", SPEC(TXNET_TOPO_RBASELINE, 16) },
	{ "flip 16", SPEC(TXNET_TOPO_FLIP, 16) },
	{ "biswapped ring 4", { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING,
				.ndims = 1, .size = { 4 } } },
	{ "biswapped mesh 3 3", { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH,
				  .ndims = 2, .size = { 3, 3 } } },
	{ "dragonfly 2 4 2", SPEC(TXNET_TOPO_DRAGONFLY, 2, 4, 2) },
	{ "fattree 4 3", SPEC(TXNET_TOPO_FATTREE, 4, 3) },
	{ "slimfly 5 2", SPEC(TXNET_TOPO_SLIMFLY, 5, 2) },
	{ "graph: BookSim2's anynet example", SPEC(TXNET_TOPO_GRAPH, 9, 3) },
};

static const struct net open_nets[] = {
	{ "torus 4 6", SPEC(TXNET_TOPO_TORUS, 4, 6) },
	{ "torus 5 7", SPEC(TXNET_TOPO_TORUS, 5, 7) },
	{ "torus 6 8", SPEC(TXNET_TOPO_TORUS, 6, 8) },
	{ "torus 8 16", SPEC(TXNET_TOPO_TORUS, 8, 16) },
	{ "torus 3 3 3", SPEC(TXNET_TOPO_TORUS, 3, 3, 3) },
	{ "torus 4 4 4", SPEC(TXNET_TOPO_TORUS, 4, 4, 4) },
	{ "torus 8 8 8", SPEC(TXNET_TOPO_TORUS, 8, 8, 8) },
	{ "mesh 3 5", SPEC(TXNET_TOPO_MESH, 3, 5) },
	{ "mesh 4 6", SPEC(TXNET_TOPO_MESH, 4, 6) },
	{ "mesh 4 4 4", SPEC(TXNET_TOPO_MESH, 4, 4, 4) },
	{ "hypercube 3", SPEC(TXNET_TOPO_HYPERCUBE, 3) },
	{ "hypercube 6", SPEC(TXNET_TOPO_HYPERCUBE, 6) },
	{ "ghc 3 4", SPEC(TXNET_TOPO_GHC, 3, 4) },
	{ "ghc 4 4 4", SPEC(TXNET_TOPO_GHC, 4, 4, 4) },
	{ "product ring:5 linear:3 complete:4",
	  { .topo = TXNET_TOPO_PRODUCT, .ndims = 3, .size = { 5, 3, 4 },
	    .kind = { TXNET_DIM_RING, TXNET_DIM_LINEAR, TXNET_DIM_COMPLETE } } },
};

/* The network's graph: from its spec, or a graph's from its cables. */
static inline int table_build(struct txn_spec *spec, struct txn_counts *c, struct txn_graph *g)
{
	/* the one graph of the table; its cables as a file's reach the kernel */
	struct txn_cables list = {
		.procs = spec->size[0], .switches = spec->size[1],
		.n = ARRAY_SIZE(booksim_anynet) / 2, .pair = booksim_anynet,
	};
	struct txn_cables_error cerr;
	struct txn_spec_error err;
	bool exact;

	if (spec->topo == TXNET_TOPO_GRAPH)
		return txn_cables_count(&list, 1 << 24, c, &cerr) ?:
		       txn_graph_from_cables(&list, c, g, &exact, &cerr);
	return txn_spec_validate(spec, 1 << 24, c, &err) ?: txn_graph_build(spec, c, g);
}

#endif
