// SPDX-License-Identifier: GPL-2.0
/*
 * A network from a list of cables (kmod/core/cables.c): the graph it
 * builds against the list (both directions, rev, ports in list order),
 * the diameter exact by search or, past the budget, the double sweep's
 * lower bound, and every refusal with the cable or vertex it names.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/cables.h"

static int build(const u32 *pair, u32 n, u32 procs, u32 switches, u64 max_nodes,
		 struct txn_graph *g, bool *exact, struct txn_cables_error *err)
{
	struct txn_cables c = { .procs = procs, .switches = switches, .n = n, .pair = pair };
	struct txn_counts counts;
	int ret;

	ret = txn_cables_count(&c, max_nodes, &counts, err);
	if (ret)
		return ret;
	return txn_graph_from_cables(&c, &counts, g, exact, err);
}

/*
 * BookSim2's example shape: three routers in a triangle, three processors
 * on each.  Processors 0 .. 8 (processor 3r + i on router r), routers 9,
 * 10, 11: 9 + 3 = 12 cables, 24 links; processors on different routers are
 * 3 apart (processor, router, router, processor).
 */
TEST(routers_in_a_triangle)
{
	u32 pair[24], n = 0, r, i, l;
	struct txn_cables_error err;
	struct txn_graph g;
	struct tg t;
	bool exact;

	for (r = 0; r < 3; r++)
		for (i = 0; i < 3; i++) {
			pair[n++] = 3 * r + i;
			pair[n++] = 9 + r;
		}
	pair[n++] = 9, pair[n++] = 10;
	pair[n++] = 10, pair[n++] = 11;
	pair[n++] = 11, pair[n++] = 9;
	ASSERT_EQ(0, build(pair, n / 2, 9, 3, 1 << 24, &g, &exact, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(12, g.nodes);
	EXPECT_EQ(9, g.procs);
	EXPECT_EQ(24, g.links);
	EXPECT_TRUE(exact);
	EXPECT_EQ(3, g.diameter);
	EXPECT_EQ(3, tg_proc_diameter(&g));
	for (l = 0; l < g.links; l++) {
		EXPECT_EQ(l, g.rev[g.rev[l]]);
		EXPECT_EQ(g.src[l], g.dst[g.rev[l]]);
	}
	/* router 10's ports in list order: processors 3, 4, 5, then routers 9 and 11 */
	ASSERT_EQ(5, g.first[11] - g.first[10]);
	EXPECT_EQ(3, g.dst[g.first[10]]);
	EXPECT_EQ(5, g.dst[g.first[10] + 2]);
	EXPECT_EQ(9, g.dst[g.first[10] + 3]);
	EXPECT_EQ(11, g.dst[g.first[10] + 4]);
	memset(&t, 0, sizeof(t));
	t.g = g;
	t.c.nodes = g.nodes;
	t.c.procs = g.procs;
	t.c.switches = 3;
	t.c.links = g.links;
	t.c.diameter = 3;
	t.c.max_degree = 5;
	EXPECT_STREQ("", tg_check_basic(&t, false) ?: "");
	txn_graph_free(&g);
}

/*
 * A path of 20,000 processors: searching from each would cost 20,000 x
 * 60,000 visits, past the budget, so the double sweep runs; on a tree it
 * finds the diameter itself, 19,999 (from processor 0 the far end, from
 * there processor 0 again).
 */
TEST(long_path_by_double_sweep)
{
	u32 n = 20000, *pair = malloc(2 * (n - 1) * sizeof(u32)), i;
	struct txn_cables_error err;
	struct txn_graph g;
	bool exact;

	ASSERT_NE(NULL, pair);
	for (i = 0; i + 1 < n; i++) {
		pair[2 * i] = i;
		pair[2 * i + 1] = i + 1;
	}
	ASSERT_EQ(0, build(pair, n - 1, n, 0, 1 << 24, &g, &exact, &err)) TH_LOG("%s", err.msg);
	EXPECT_FALSE(exact);
	EXPECT_EQ(n - 1, g.diameter);
	/* the ends have one cable, the rest two: no common degree */
	EXPECT_EQ(0, g.degree);
	txn_graph_free(&g);
	free(pair);
}

TEST(refusals_name_the_cable_or_vertex)
{
	static const struct {
		const char *what;
		u32 pair[8], n, procs, switches;
		u64 max_nodes;
		int ret;
		u32 cable, vertex;
	} bad[] = {
		{ "one processor", { 0, 1 }, 1, 1, 1, 1 << 24, -EINVAL, TXN_CABLES_NONE, TXN_CABLES_NONE },
		{ "past the counts", { 0, 1, 1, 4 }, 2, 3, 0, 1 << 24, -EINVAL, 1, 4 },
		{ "self-loop", { 0, 1, 2, 2 }, 2, 3, 0, 1 << 24, -EINVAL, 1, 2 },
		{ "max_nodes", { 0, 1, 1, 2 }, 2, 3, 0, 2, -E2BIG, TXN_CABLES_NONE, TXN_CABLES_NONE },
		/* both ends of one cable: the second listing */
		{ "twice", { 0, 1, 1, 2, 2, 1 }, 3, 3, 0, 1 << 24, -EINVAL, TXN_CABLES_NONE, 1 },
		/* processors 2 and 3 apart from 0 and 1: 2 is the first unreached */
		{ "unreached processor", { 0, 1, 2, 3 }, 2, 4, 0, 1 << 24, -EINVAL, TXN_CABLES_NONE, 2 },
		/* a switch on no cable */
		{ "lone switch", { 0, 1 }, 1, 2, 1, 1 << 24, -EINVAL, TXN_CABLES_NONE, 2 },
	};
	struct txn_cables_error err;
	struct txn_graph g;
	bool exact;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(bad[i].ret, build(bad[i].pair, bad[i].n, bad[i].procs, bad[i].switches,
					    bad[i].max_nodes, &g, &exact, &err)) TH_LOG("%s", bad[i].what);
		EXPECT_NE(NULL, err.msg) TH_LOG("%s", bad[i].what);
		EXPECT_EQ(bad[i].cable, err.cable) TH_LOG("%s: %s", bad[i].what, err.msg);
		EXPECT_EQ(bad[i].vertex, err.vertex) TH_LOG("%s: %s", bad[i].what, err.msg);
	}
}

/*
 * The digest names the set of cables: reversing the list and each cable's
 * ends keeps it; dropping a cable, moving one, or telling a processor
 * from a switch changes it.
 */
TEST(digest_of_the_set)
{
	static const u32 ring[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
	static const u32 turned[] = { 0, 3, 3, 2, 2, 1, 1, 0 };
	static const u32 chord[] = { 0, 1, 1, 2, 2, 3, 1, 3 };
	struct txn_cables a = { .procs = 4, .n = 4, .pair = ring };
	struct txn_cables b = { .procs = 4, .n = 4, .pair = turned };
	struct txn_cables c = { .procs = 4, .n = 4, .pair = chord };
	struct txn_cables d = { .procs = 4, .n = 3, .pair = ring };
	struct txn_cables e = { .procs = 3, .switches = 1, .n = 4, .pair = ring };

	EXPECT_EQ(txn_cables_digest(&a), txn_cables_digest(&b));
	EXPECT_NE(txn_cables_digest(&a), txn_cables_digest(&c));
	EXPECT_NE(txn_cables_digest(&a), txn_cables_digest(&d));
	EXPECT_NE(txn_cables_digest(&a), txn_cables_digest(&e));
}

/* A graph has no closed form: its spec alone is refused, naming the attribute that carries it. */
TEST(spec_alone_refused)
{
	struct txn_spec s = { .topo = TXNET_TOPO_GRAPH, .ndims = 2, .size = { 4, 0 } };
	struct txn_spec_error err;
	struct txn_counts c;

	EXPECT_EQ(-EINVAL, txn_spec_validate(&s, 1 << 24, &c, &err));
	EXPECT_EQ(TXNET_A_TOPOLOGY, err.field);
	EXPECT_NE(NULL, strstr(err.msg, "TXNET_A_CABLES"));
}

TEST_HARNESS_MAIN
