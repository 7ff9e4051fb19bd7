// SPDX-License-Identifier: GPL-2.0
/*
 * make table: the table of Documentation/txnet-schedules.rst, measured.
 * For one network of each topology family, every operation under both
 * port models: the schedule `algo auto` picks, the steps the engine
 * counted, the lower bound (and which one) and their ratio.  Then the
 * all-port total exchanges [Dimakopoulos98] leaves open (products that are not
 * H^(2^m)): what auto runs there, and a2.  Last, the worst ratio of
 * each family (a topology, the open networks counted with theirs) and
 * operation under either port model, and how many of those pass 1.10.
 * Every run is verified; the program fails if one is not, or beats its
 * bound.
 */
#include <stdio.h>
#include <string.h>

#include "core/sched.h"
#include "core/bounds.h"
#include "core/cables.h"
#include "table_nets.h"

#define LINE		1.10
#define MAX_FAMILIES	32

/* Per family (its first word) and operation: the worst steps/bound of auto's runs. */
static struct {
	char name[16];
	double worst[TXNET_OP_MAX + 1];
} families[MAX_FAMILIES];
static u32 nfamilies;

static void note(const char *label, u32 op, double ratio)
{
	size_t n = strcspn(label, " :");
	u32 f;

	for (f = 0; f < nfamilies; f++)
		if (strlen(families[f].name) == n && !strncmp(families[f].name, label, n))
			break;
	if (f == nfamilies) {
		if (nfamilies == MAX_FAMILIES)
			return;
		snprintf(families[nfamilies++].name, sizeof(families[0].name), "%.*s", (int)n, label);
	}
	if (ratio > families[f].worst[op])
		families[f].worst[op] = ratio;
}

static int measure_algo(const struct net *nt, u32 op, u32 algo, u32 port, char *cell,
			size_t len);

static int measure(const struct net *nt, u32 op, u32 port, char *cell, size_t len)
{
	return measure_algo(nt, op, TXNET_ALGO_AUTO, port, cell, len);
}

/* The worst ratios, a row a family, and the count past LINE; 0 when none is. */
static u32 summary(void)
{
	u32 f, op, above = 0, cells = 0;

	/* the operations, short enough for a column each */
	static const char *const col[TXNET_OP_MAX + 1] = {
		[TXNET_OP_TOTAL_EXCHANGE] = "t-exch", [TXNET_OP_BROADCAST] = "bcast",
		[TXNET_OP_SCATTER] = "scatter", [TXNET_OP_GATHER] = "gather",
		[TXNET_OP_MULTINODE_BROADCAST] = "mn-bcast", [TXNET_OP_ACCUMULATE] = "accum",
		[TXNET_OP_MULTINODE_ACCUMULATE] = "mn-accum", [TXNET_OP_PREFIX_SUM] = "prefix",
		[TXNET_OP_DATA_SUM] = "data-sum",
	};

	printf("\nworst steps/bound per family and operation, either port model (auto)\n%-10s",
	       "family");
	for (op = 1; op <= TXNET_OP_MAX; op++)
		if (op != TXNET_OP_PERMUTATION)
			printf(" %8s", col[op] ? col[op] : txn_op_name(op));
	printf("\n");
	for (f = 0; f < nfamilies; f++) {
		printf("%-10s", families[f].name);
		for (op = 1; op <= TXNET_OP_MAX; op++) {
			if (op == TXNET_OP_PERMUTATION)
				continue;
			printf(" %8.2f", families[f].worst[op]);
			cells++;
			above += families[f].worst[op] > LINE;
		}
		printf("\n");
	}
	printf("families and operations past %.2fx the bound: %u of %u\n", LINE, above, cells);
	return above;
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

	if (table_build(&spec, &c, &g))
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
		if (!ret && algo == TXNET_ALGO_AUTO && b.lower)
			note(nt->label, op, (double)e.tick / b.lower);
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
	summary();
	return fail;
}
