// SPDX-License-Identifier: GPL-2.0
/*
 * Biswapped networks ([Wei07]): the network's shape (section 2 and its
 * reference [3]: diameter 2 D + 2, degree
 * deg + 1, vertex-transitive over a Cayley base), and the broadcast
 * (Table 1, Theorem 1) and data sum (Table 3) schedules, measured by the
 * engine against figures derived here from breadth-first searches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bsn.h"
#include "core/sched.h"

struct base {
	const char *spec;	/* the base alone */
	bool cayley;
};

static const struct base bases[] = {
	{ "linear 2", false }, { "linear 3", false }, { "linear 5", false },
	{ "ring 3", true }, { "ring 4", true }, { "ring 5", true }, { "ring 6", true },
	{ "mesh 2 2", false }, { "mesh 3 3", false }, { "mesh 2 4", false },
	{ "complete 3", true }, { "complete 4", true }, { "complete 6", true },
	{ "hypercube 2", true }, { "hypercube 3", true }, { "hypercube 4", true },
};

static u32 *bfs_all(const struct txn_graph *g, u32 s)
{
	u32 *d = malloc(g->nodes * sizeof(u32));

	if (d)
		tg_bfs(g, s, d);
	return d;
}

static u32 ecc_of(const struct txn_graph *g, u32 s)
{
	u32 *d = bfs_all(g, s), v, e = 0;

	for (v = 0; d && v < g->procs; v++)
		if (d[v] > e)
			e = d[v];
	free(d);
	return e;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Shape: the diameter is 2 D + 2 and every node has the base degree of its
 * processor plus its swap link ([3], cited in section 3.1's proof); over a
 * Cayley base every node sees the same distances (a vertex-transitive
 * graph does), and the base's eccentricities from its factors match a
 * search.
 */
TEST(shape)
{
	struct tg b, t;
	char net[64];
	u32 i, v, D, n, *ref, *d, grp, p, c;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		ASSERT_EQ(NULL, tg_make(&b, bases[i].spec));
		snprintf(net, sizeof(net), "biswapped %s", bases[i].spec);
		ASSERT_EQ(NULL, tg_make(&t, net)) TH_LOG("%s", net);
		n = b.g.procs;
		ASSERT_EQ(n, t.g.bsn_n);
		ASSERT_EQ(2 * n * n, t.g.procs);
		D = tg_proc_diameter(&b.g);
		EXPECT_EQ(D, txn_bsn_base_diameter(&t.g)) TH_LOG("%s", net);
		EXPECT_EQ(2 * D + 2, tg_proc_diameter(&t.g)) TH_LOG("%s", net);
		for (p = 0; p < n; p++)
			EXPECT_EQ(ecc_of(&b.g, p), txn_bsn_ecc(&t.g, p)) TH_LOG("%s %u", net, p);
		ref = bfs_all(&t.g, 0);
		ASSERT_NE(NULL, ref);
		qsort(ref, t.g.nodes, sizeof(u32), cmp_u32);
		for (v = 0; v < t.g.procs; v++) {
			txn_bsn_label(n, v, &grp, &p, &c);
			EXPECT_EQ(v, txn_bsn_vertex(n, grp, p, c));
			EXPECT_EQ(txn_bsn_vertex(n, p, grp, 1 - c), txn_bsn_swap(n, v));
			EXPECT_EQ(txn_bsn_swap(n, v), t.g.dst[txn_bsn_swap_link(&t.g, v)]);
			EXPECT_EQ(b.g.first[p + 1] - b.g.first[p] + 1, t.g.first[v + 1] - t.g.first[v]);
			if (!bases[i].cayley)
				continue;
			d = bfs_all(&t.g, v);
			ASSERT_NE(NULL, d);
			qsort(d, t.g.nodes, sizeof(u32), cmp_u32);
			EXPECT_EQ(0, memcmp(ref, d, t.g.nodes * sizeof(u32))) TH_LOG("%s node %u", net, v);
			free(d);
		}
		free(ref);
		tg_free(&t);
		tg_free(&b);
	}
}

/*
 * An automorphism of @g that maps 0 to @v, by backtracking: vertices in
 * breadth-first order from 0, each mapped to a neighbour of its parent's
 * image at the same distance from @v, keeping every adjacency to the
 * vertices mapped so far both ways.  @adj is the adjacency matrix.
 */
struct auto_search {
	const struct txn_graph *g;
	const u8 *adj;
	u32 V, *order, *par, *dist0, *distv, *map, *used;
	u64 budget;
};

static bool extend(struct auto_search *a, u32 i)
{
	u32 x, px, l, cand, k, y;

	if (i == a->V)
		return true;
	if (!a->budget--)
		return false;
	x = a->order[i];
	px = a->map[a->par[x]];
	for (l = a->g->first[px]; l < a->g->first[px + 1]; l++) {
		cand = a->g->dst[l];
		if (a->used[cand] || a->distv[cand] != a->dist0[x] ||
		    a->g->first[cand + 1] - a->g->first[cand] != a->g->first[x + 1] - a->g->first[x])
			continue;
		for (k = 0; k < i; k++) {
			y = a->order[k];
			if (a->adj[(u64)x * a->V + y] != a->adj[(u64)cand * a->V + a->map[y]])
				break;
		}
		if (k < i)
			continue;
		a->map[x] = cand;
		a->used[cand] = 1;
		if (extend(a, i + 1))
			return true;
		a->used[cand] = 0;
	}
	return false;
}

static bool automorphism_to(const struct txn_graph *g, const u8 *adj, u32 v)
{
	struct auto_search a = { .g = g, .adj = adj, .V = g->nodes, .budget = 1U << 22 };
	u32 head = 0, tail = 0, x, l, w;
	bool ok;

	a.order = calloc(6 * (size_t)a.V, sizeof(u32));
	if (!a.order)
		return false;
	a.par = a.order + a.V;
	a.dist0 = a.par + a.V;
	a.distv = a.dist0 + a.V;
	a.map = a.distv + a.V;
	a.used = a.map + a.V;
	tg_bfs(g, 0, a.dist0);
	tg_bfs(g, v, a.distv);
	/* breadth-first order from 0, each vertex's parent before it */
	for (x = 0; x < a.V; x++)
		a.par[x] = ~0U;
	a.order[tail++] = 0;
	a.par[0] = 0;
	while (head < tail) {
		x = a.order[head++];
		for (l = g->first[x]; l < g->first[x + 1]; l++) {
			w = g->dst[l];
			if (a.par[w] == ~0U) {
				a.par[w] = x;
				a.order[tail++] = w;
			}
		}
	}
	a.map[0] = v;
	a.used[v] = 1;
	ok = tail == a.V && extend(&a, 1);
	free(a.order);
	return ok;
}

/*
 * Over a Cayley base the network is a Cayley graph ([3], section 1), so
 * vertex-transitive: for every node an automorphism takes node 0 to it.
 * Searched on the networks of at most 128 nodes.
 */
TEST(vertex_transitive)
{
	struct tg t;
	char net[64];
	u32 i, v, l, checked = 0;
	u8 *adj;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		if (!bases[i].cayley)
			continue;
		snprintf(net, sizeof(net), "biswapped %s", bases[i].spec);
		ASSERT_EQ(NULL, tg_make(&t, net)) TH_LOG("%s", net);
		if (t.g.nodes > 128) {
			tg_free(&t);
			continue;
		}
		adj = calloc((size_t)t.g.nodes * t.g.nodes, 1);
		ASSERT_NE(NULL, adj);
		for (v = 0; v < t.g.nodes; v++)
			for (l = t.g.first[v]; l < t.g.first[v + 1]; l++)
				adj[(u64)v * t.g.nodes + t.g.dst[l]] = 1;
		for (v = 0; v < t.g.nodes; v++)
			EXPECT_TRUE(automorphism_to(&t.g, adj, v)) TH_LOG("%s: none to node %u", net, v);
		free(adj);
		tg_free(&t);
		checked++;
	}
	EXPECT_LE(6, checked);
	/* and not over a base that is not: from the corner of an array to its middle */
	ASSERT_EQ(NULL, tg_make(&t, "biswapped linear 3"));
	adj = calloc((size_t)t.g.nodes * t.g.nodes, 1);
	ASSERT_NE(NULL, adj);
	for (v = 0; v < t.g.nodes; v++)
		for (l = t.g.first[v]; l < t.g.first[v + 1]; l++)
			adj[(u64)v * t.g.nodes + t.g.dst[l]] = 1;
	EXPECT_FALSE(automorphism_to(&t.g, adj, 1));
	free(adj);
	tg_free(&t);
}

static u64 run(struct __test_metadata *_metadata, const struct tg *t, u32 op, u32 root,
	       const char **name)
{
	struct txn_run_params p = { .op = op, .port_model = TXNET_PORT_ALL, .root = root,
				    .seed = 7, .values_seed = 11 + root };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	u64 want = 0, ticks;
	int ret;

	s = txn_sched_pick(&t->spec, op, TXNET_ALGO_AUTO, TXNET_PORT_ALL, &why);
	if (!s)
		return 0;
	*name = s->name;
	EXPECT_TRUE(txn_expected_steps(s, &t->spec, &p, &want));
	EXPECT_EQ(0, txn_engine_init(&e, &t->g, s, &p));
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	EXPECT_EQ(1, ret) TH_LOG("%s", e.v.rule);
	EXPECT_EQ(0, txn_engine_verify(&e)) TH_LOG("%s", e.v.rule);
	ticks = e.tick;
	EXPECT_EQ(want, ticks);
	txn_engine_free(&e);
	return ticks;
}

/*
 * Table 1: from <g, p, c> the broadcast takes ecc(p) + ecc(g) + 2 in the
 * base (searched here), the root's own eccentricity in the network: no
 * schedule is faster; 2 D + 2 when both are D (Theorem 1).
 */
TEST(broadcast)
{
	struct tg b, t;
	char net[64];
	u32 i, n, r, k, roots[4], grp, p, c;
	const char *name = NULL;
	u64 ticks;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		ASSERT_EQ(NULL, tg_make(&b, bases[i].spec));
		snprintf(net, sizeof(net), "biswapped %s", bases[i].spec);
		ASSERT_EQ(NULL, tg_make(&t, net)) TH_LOG("%s", net);
		n = b.g.procs;
		roots[0] = 0;
		roots[1] = t.g.procs - 1;
		roots[2] = n * n + n / 2;
		roots[3] = n * (n / 2) + n / 2;
		for (k = 0; k < 4; k++) {
			r = roots[k];
			ticks = run(_metadata, &t, TXNET_OP_BROADCAST, r, &name);
			EXPECT_STREQ("biswapped", name);
			txn_bsn_label(n, r, &grp, &p, &c);
			EXPECT_EQ(ecc_of(&b.g, p) + ecc_of(&b.g, grp) + 2, ticks) TH_LOG("%s root %u", net, r);
			EXPECT_EQ(ecc_of(&t.g, r), ticks) TH_LOG("%s root %u", net, r);
		}
		/* root 0 = <0,0,0>: corner of arrays and meshes, so 2 D + 2 */
		EXPECT_EQ(2 * tg_proc_diameter(&b.g) + 2,
			  run(_metadata, &t, TXNET_OP_BROADCAST, 0, &name));
		tg_free(&t);
		tg_free(&b);
	}
}

/* Table 3 in the model: 2 D + 2, the diameter, every node's total checked by the engine. */
TEST(data_sum)
{
	const char *name = NULL;
	struct tg b, t;
	char net[64];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		ASSERT_EQ(NULL, tg_make(&b, bases[i].spec));
		snprintf(net, sizeof(net), "biswapped %s", bases[i].spec);
		ASSERT_EQ(NULL, tg_make(&t, net)) TH_LOG("%s", net);
		EXPECT_EQ(2 * tg_proc_diameter(&b.g) + 2, run(_metadata, &t, TXNET_OP_DATA_SUM, 0, &name))
			TH_LOG("%s", net);
		EXPECT_STREQ("biswapped", name);
		tg_free(&t);
		tg_free(&b);
	}
}

/*
 * Table 2 in the model: 2 D + 2 e + 3 ticks, e the eccentricity of
 * processor n-1 (searched here), which is 4 D + 3 = Table 4 on every base
 * here; every node's prefix checked by the engine.
 */
TEST(prefix_sum)
{
	const char *name = NULL;
	struct tg b, t;
	char net[64];
	u32 i, D;

	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		ASSERT_EQ(NULL, tg_make(&b, bases[i].spec));
		snprintf(net, sizeof(net), "biswapped %s", bases[i].spec);
		ASSERT_EQ(NULL, tg_make(&t, net)) TH_LOG("%s", net);
		D = tg_proc_diameter(&b.g);
		EXPECT_EQ(2 * D + 2 * ecc_of(&b.g, b.g.procs - 1) + 3,
			  run(_metadata, &t, TXNET_OP_PREFIX_SUM, 0, &name)) TH_LOG("%s", net);
		EXPECT_EQ(4 * D + 3, run(_metadata, &t, TXNET_OP_PREFIX_SUM, 0, &name));
		EXPECT_STREQ("biswapped", name);
		tg_free(&t);
		tg_free(&b);
	}
}

/* Single-port, or operations [Wei07] gives no schedule for: not this schedule. */
TEST(refused)
{
	const char *why = NULL;
	struct tg t;

	ASSERT_EQ(NULL, tg_make(&t, "biswapped ring 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_BROADCAST, TXNET_ALGO_BISWAPPED,
				       TXNET_PORT_SINGLE, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_SCATTER, TXNET_ALGO_BISWAPPED,
				       TXNET_PORT_ALL, &why));
	EXPECT_STREQ("shortest-path", txn_sched_pick(&t.spec, TXNET_OP_BROADCAST, TXNET_ALGO_AUTO,
						     TXNET_PORT_SINGLE, &why)->name);
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "torus 4 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_DATA_SUM, TXNET_ALGO_BISWAPPED,
				       TXNET_PORT_ALL, &why));
	tg_free(&t);
}

TEST_HARNESS_MAIN
