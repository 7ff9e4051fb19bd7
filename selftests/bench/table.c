// SPDX-License-Identifier: GPL-2.0
/*
 * make table: the table of Documentation/txnet-schedules.rst, measured.
 * For one network of each topology family, every operation under both
 * port models: the schedule `algo auto` picks, the steps the engine
 * counted, the lower bound (and which one) and their ratio.  Then the
 * all-port total exchanges [Dimakopoulos98] leaves open (products that are not
 * H^(2^m)): what auto runs there, and a2.  Every run is verified; the
 * program fails if one is not, or beats its bound.
 */
#include <stdio.h>
#include <string.h>

#include "core/sched.h"
#include "core/bounds.h"
#include "core/cables.h"

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

static int measure_algo(const struct net *nt, u32 op, u32 algo, u32 port, char *cell,
			size_t len);

static int measure(const struct net *nt, u32 op, u32 port, char *cell, size_t len)
{
	return measure_algo(nt, op, TXNET_ALGO_AUTO, port, cell, len);
}

/* The network's graph: from its spec, or a graph's from its cables. */
static int build(struct txn_spec *spec, struct txn_counts *c,
		 struct txn_graph *g)
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

static int measure_algo(const struct net *nt, u32 op, u32 algo, u32 port, char *cell,
			size_t len)
{
	struct txn_run_params p = { .op = op, .port_model = port, .seed = 1, .values_seed = 1 };
	struct txn_spec spec = nt->spec;
	const struct txn_sched *s;
	struct txn_counts c;
	struct txn_engine e;
	struct txn_graph g;
	struct txn_bound b;
	const char *why;
	int ret;

	if (build(&spec, &c, &g))
		return -1;
	s = txn_sched_pick(&spec, op, algo, port, &why);
	ret = s ? txn_engine_init(&e, &g, s, &p) : -1;
	if (!ret) {
		while ((ret = txn_engine_tick(&e)) == 0)
			;
		if (ret == 1)
			ret = txn_engine_verify(&e);
		txn_bound(&spec, &g, op, port, 0, &b);
		if (!ret && e.tick < b.lower)
			ret = -1;
		snprintf(cell, len, "%llu/%llu = %.2f (%s%s%s)", (unsigned long long)e.tick,
			 (unsigned long long)b.lower, b.lower ? (double)e.tick / b.lower : 0.0,
			 b.name, algo == TXNET_ALGO_AUTO ? "" : ", ",
			 algo == TXNET_ALGO_AUTO ? "" : s->name);
		if (ret)
			fprintf(stderr, "table: %s %s port %u: %s\n", nt->label, txn_op_name(op),
				port, e.failed ? e.v.rule : "below its bound");
		txn_engine_free(&e);
	}
	txn_graph_free(&g);
	return ret;
}

int main(void)
{
	char cell[2][80];
	u32 i, op;
	int fail = 0;

	printf("%-34s %-20s %-36s %-36s\n", "network", "operation", "all-port steps/bound",
	       "single-port steps/bound");
	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		for (op = 1; op <= TXNET_OP_MAX; op++) {
			/* a permutation's time is its own permutation's */
			if (op == TXNET_OP_PERMUTATION)
				continue;
			fail |= measure(&nets[i], op, TXNET_PORT_ALL, cell[0], sizeof(cell[0])) != 0;
			fail |= measure(&nets[i], op, TXNET_PORT_SINGLE, cell[1], sizeof(cell[1])) != 0;
			printf("%-34s %-20s %-36s %-36s\n", op == 1 ? nets[i].label : "",
			       txn_op_name(op), cell[0], cell[1]);
		}
	}
	printf("\nall-port total exchange where paper 000's a3 does not apply\n");
	printf("%-35s %-44s %-36s\n", "network", "auto steps/bound (schedule)", "a2 steps/bound");
	for (i = 0; i < ARRAY_SIZE(open_nets); i++) {
		const struct txn_sched *s;
		const char *why;

		fail |= measure(&open_nets[i], TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, cell[0],
				sizeof(cell[0])) != 0;
		s = txn_sched_pick(&open_nets[i].spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_AUTO,
				   TXNET_PORT_ALL, &why);
		fail |= measure_algo(&open_nets[i], TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_A2,
				     TXNET_PORT_ALL, cell[1], sizeof(cell[1])) != 0;
		snprintf(cell[0] + strlen(cell[0]), sizeof(cell[0]) - strlen(cell[0]), " %s",
			 s ? s->name : "-");
		printf("%-35s %-44s %-36s\n", open_nets[i].label, cell[0], cell[1]);
	}
	return fail;
}
