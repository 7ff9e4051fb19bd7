// SPDX-License-Identifier: GPL-2.0
/*
 * [Dimakopoulos98] on cartesian products: Algorithm A2 (section 4)
 * single-port and A3 (section 5)
 * all-port, run by the engine and checked against the paper's times,
 * which the test computes itself, and against the lower bounds, which it
 * computes by breadth-first search where the paper says they are met.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"
#include "core/bounds.h"

struct outcome {
	int ret;
	u64 steps;
	const char *sched;
	const char *rule;
};

static void run_te(struct tg *t, u32 algo, u32 port, struct outcome *o)
{
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port, .seed = 11, .payload = 8,
	};
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	int ret;

	memset(o, 0, sizeof(*o));
	s = txn_sched_pick(&t->spec, p.op, algo, port, &why);
	if (!s) {
		o->ret = -100;
		o->rule = why;
		return;
	}
	o->sched = s->name;
	ret = txn_engine_init(&e, &t->g, s, &p);
	if (ret) {
		o->ret = ret;
		return;
	}
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (ret == 1)
		ret = txn_engine_verify(&e);
	o->ret = ret;
	o->steps = e.tick;
	o->rule = e.failed ? e.v.rule : NULL;
	txn_engine_free(&e);
}

/* The factors of a product as the test reads them from the graph (port order). */
static u32 factors(const struct tg *t, u32 *size, u32 *kind)
{
	u32 i;

	for (i = 0; i < t->g.ndims; i++) {
		size[i] = t->g.fsize[i];
		kind[i] = t->g.fkind[i];
	}
	return t->g.ndims;
}

/* ceil(average status): [Dimakopoulos98], bound (3), by breadth-first search from every node. */
static u64 average_status(const struct txn_graph *g)
{
	u32 *dist = calloc(g->nodes, sizeof(u32)), s, v;
	u64 sum = 0;

	for (s = 0; s < g->procs; s++) {
		tg_bfs(g, s, dist);
		for (v = 0; v < g->procs; v++)
			sum += dist[v];
	}
	free(dist);
	return (sum + g->procs - 1) / g->procs;
}

/*
 * Single-port: a Cayley factor of k nodes exchanges by translation in its
 * status (section 4.1): 1 on two nodes, k-1 on a complete graph,
 * floor(k^2/4) on a ring; Corollary 2 sums (n/k) T over the dimensions.
 */
static u64 a2_time_cayley(const struct tg *t)
{
	u32 size[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], d = factors(t, size, kind), i;
	u64 sum = 0, k, T;

	for (i = 0; i < d; i++) {
		k = size[i];
		T = k == 2 ? 1 : kind[i] == TXNET_DIM_COMPLETE ? k - 1 : k * k / 4;
		sum += t->g.procs / k * T;
	}
	return sum;
}

/* Theorem 3: on products of Cayley graphs A2 takes the average-status bound. */
TEST(a2_meets_the_average_status_bound)
{
	static const char *const nets[] = {
		"torus 3 3", "torus 4 4", "torus 5 5", "torus 6 6", "torus 7 7", "torus 8 8",
		"torus 4 6", "torus 5 7", "torus 3 3 3", "torus 3 3 3 3", "torus 4 4 4 4",
		"hypercube 1", "hypercube 2", "hypercube 3", "hypercube 4", "hypercube 5",
		"hypercube 6", "hypercube 7", "hypercube 8", "ghc 3 4", "ghc 4 4", "ghc 2 3 4",
		"product ring:5 complete:4 ring:3", "complete 6", "ring 7", "torus 16 16",
		"torus 12 20", "torus 32 32",
	};
	struct outcome o;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		run_te(&t, TXNET_ALGO_A2, TXNET_PORT_SINGLE, &o);
		EXPECT_EQ(0, o.ret) TH_LOG("%s: %s", nets[i], o.rule);
		EXPECT_EQ(a2_time_cayley(&t), o.steps) TH_LOG("%s", nets[i]);
		EXPECT_EQ(average_status(&t.g), o.steps) TH_LOG("%s", nets[i]);
		/* hypercubes: d 2^(d-1) (section 4.1) */
		if (t.spec.topo == TXNET_TOPO_HYPERCUBE)
			EXPECT_EQ((u64)t.spec.size[0] << (t.spec.size[0] - 1), o.steps);
		tg_free(&t);
	}
}

/* The steps of a total exchange on @net alone under @algo, as the engine counts them. */
static u64 alone(struct __test_metadata *_metadata, const char *net, u32 algo, u32 port)
{
	struct outcome o;
	struct tg t;

	EXPECT_EQ(NULL, tg_make(&t, net));
	run_te(&t, algo, port, &o);
	EXPECT_EQ(0, o.ret) TH_LOG("%s: %s", net, o.rule);
	tg_free(&t);
	return o.steps;
}

/*
 * Theorem 2 with linear factors, which have no proven single-port time:
 * A2 takes the sum over the dimensions of (n/k) times what the factor's
 * own schedule takes alone.
 */
TEST(a2_takes_the_sum_of_its_dimensions)
{
	static const char *const nets[] = {
		"mesh 2 2", "mesh 3 3", "mesh 4 4", "mesh 5 5", "mesh 8 8", "mesh 3 5",
		"product ring:5 linear:3 complete:4", "product linear:4 ring:4",
	};
	u32 size[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], d, i, j;
	char one[32];
	struct outcome o;
	struct tg t;
	u64 want;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		d = factors(&t, size, kind);
		for (j = 0, want = 0; j < d; j++) {
			snprintf(one, sizeof(one), "%s %u", kind[j] == TXNET_DIM_LINEAR ? "linear" :
				 kind[j] == TXNET_DIM_RING ? "ring" : "complete", size[j]);
			want += t.g.procs / size[j] *
				alone(_metadata, one, size[j] == 2 || kind[j] != TXNET_DIM_LINEAR ?
					      TXNET_ALGO_A2 : TXNET_ALGO_FURTHEST_FIRST,
				      TXNET_PORT_SINGLE);
		}
		run_te(&t, TXNET_ALGO_AUTO, TXNET_PORT_SINGLE, &o);
		EXPECT_EQ(0, o.ret) TH_LOG("%s: %s", nets[i], o.rule);
		EXPECT_STREQ("a2", o.sched);
		EXPECT_EQ(want, o.steps) TH_LOG("%s", nets[i]);
		EXPECT_LE(average_status(&t.g), o.steps);
		tg_free(&t);
	}
}

/*
 * What the kernel charges before a run of a2 or a3 (txn_engine_bytes())
 * includes each factor's recorded run, estimated on a graph of counts
 * alone: the estimate must not read arrays that graph does not have
 * (under ASan a read through its NULL first[] aborts the test), and is
 * more than the product's own packet records, 12 bytes a slot.
 */
TEST(charged_before_the_run)
{
	static const char *const nets[] = { "torus 4 4", "mesh 3 5", "torus 4 4 4 4" };
	static const u32 algos[] = { TXNET_ALGO_A2, TXNET_ALGO_A3 };
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 1 };
	const struct txn_sched *s;
	u32 i, a, asked = 0;
	const char *why;
	struct tg t;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		for (a = 0; a < ARRAY_SIZE(algos); a++) {
			s = txn_sched_pick(&t.spec, p.op, algos[a], TXNET_PORT_ALL, &why);
			if (!s)
				continue;
			EXPECT_LT(12ULL * t.g.procs * (t.g.procs - 1), txn_engine_bytes(&t.g, s, &p))
				TH_LOG("%s %s", nets[i], s->name);
			asked++;
		}
		tg_free(&t);
	}
	EXPECT_LE(4U, asked);
}

/*
 * All-port, H^(2^m): A3 takes n_H^(2^m - 1) T_H (Theorem 4, Corollary 3),
 * T_H [Dimakopoulos94]'s ceil((k^2-1)/8) on a ring, ceil((k^2-1)/4) on a linear
 * array, 1 on two nodes or a complete graph.  Where T_H is H's bisection
 * bound |V1||V2|/C exactly (not rounded up: rings of k = 2 mod 4 miss it
 * by a half), that is the cut bound of the product too (Theorem 5), which
 * bounds.c computes over the dimension bisections; elsewhere no less.
 */
TEST(a3_meets_the_cut_bound)
{
	static const char *const nets[] = {
		"torus 3 3", "torus 4 4", "torus 5 5", "torus 6 6", "torus 7 7", "torus 8 8",
		"mesh 2 2", "mesh 3 3", "mesh 4 4", "mesh 5 5", "mesh 6 6", "mesh 7 7", "mesh 8 8",
		"torus 3 3 3 3", "torus 4 4 4 4", "mesh 3 3 3 3", "hypercube 2", "hypercube 4",
		"hypercube 8", "ghc 4 4", "ghc 3 3 3 3", "product ring:6 ring:6", "torus 16 16",
		"mesh 16 16", "torus 32 32", "mesh 32 32",
	};
	u32 size[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], d, i, j;
	struct txn_bound b;
	struct outcome o;
	struct tg t;
	u64 k, want, halves, cut, th;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		d = factors(&t, size, kind);
		k = size[0];
		want = k == 2 || kind[0] == TXNET_DIM_COMPLETE ? 1 :
		       (k * k - 1 + (kind[0] == TXNET_DIM_RING ? 7 : 3)) /
		       (kind[0] == TXNET_DIM_RING ? 8 : 4);
		for (j = 1; j < d; j++)
			want *= k;
		/* a3 asked for: auto picks [Bertsekas91]'s own schedule on hypercubes */
		run_te(&t, TXNET_ALGO_A3, TXNET_PORT_ALL, &o);
		EXPECT_EQ(0, o.ret) TH_LOG("%s: %s", nets[i], o.rule);
		EXPECT_STREQ("a3", o.sched);
		EXPECT_EQ(want, o.steps) TH_LOG("%s", nets[i]);
		txn_bound(&t.spec, &t.g, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, &b);
		/* H's bisection: |V1||V2| messages over C links, C = 2 on a ring of 3 or more */
		halves = (k / 2) * ((k + 1) / 2);
		cut = k == 2 ? 1 : kind[0] == TXNET_DIM_RING ? 2 :
		      kind[0] == TXNET_DIM_COMPLETE ? halves : 1;
		th = want;
		for (j = 1; j < d; j++)
			th /= k;
		if (th * cut == halves) {
			EXPECT_EQ(b.lower, o.steps) TH_LOG("%s: bound %s", nets[i], b.name);
		} else {
			EXPECT_LT(b.lower, o.steps) TH_LOG("%s: bound %s", nets[i], b.name);
		}
		/* hypercubes of 2^m dimensions: 2^(d-1) */
		if (t.spec.topo == TXNET_TOPO_HYPERCUBE)
			EXPECT_EQ(1ULL << (t.spec.size[0] - 1), o.steps);
		tg_free(&t);
	}
}

/* Where the papers' schedules do not apply, a clear refusal naming algo. */
TEST(refused_where_they_do_not_apply)
{
	static const struct {
		const char *net;
		u32 algo, port;
	} cases[] = {
		{ "torus 4 4", TXNET_ALGO_A3, TXNET_PORT_SINGLE },	/* both halves at once */
		{ "torus 4 6", TXNET_ALGO_A3, TXNET_PORT_ALL },		/* not homogeneous */
		{ "torus 3 3 3", TXNET_ALGO_A3, TXNET_PORT_ALL },	/* 3 is not 2^m */
		{ "butterfly 8", TXNET_ALGO_A2, TXNET_PORT_SINGLE },	/* not a product */
		{ "biswapped ring 3", TXNET_ALGO_A2, TXNET_PORT_SINGLE },
		{ "torus 65 2", TXNET_ALGO_A2, TXNET_PORT_SINGLE },	/* a factor past 64 */
	};
	struct outcome o;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(NULL, tg_make(&t, cases[i].net));
		run_te(&t, cases[i].algo, cases[i].port, &o);
		EXPECT_EQ(-100, o.ret) TH_LOG("%s", cases[i].net);
		EXPECT_EQ(0, strncmp(o.rule, "algo: ", 6)) TH_LOG("%s: %s", cases[i].net, o.rule);
		tg_free(&t);
	}
}

/* algo auto: a3 where it applies, a2 single-port, [Dimakopoulos94] on 1-D, else the general one. */
TEST(auto_picks_the_papers_schedules)
{
	static const struct {
		const char *net;
		u32 port;
		const char *sched;
	} cases[] = {
		{ "torus 8 8", TXNET_PORT_ALL, "a3" },
		{ "ghc 4 4", TXNET_PORT_ALL, "a3" },
		{ "torus 5 7", TXNET_PORT_SINGLE, "a2" },
		{ "ghc 2 3 4", TXNET_PORT_SINGLE, "a2" },
		/* [Bertsekas91], section 4: the d-cube's own, for every d */
		{ "hypercube 4", TXNET_PORT_ALL, "hypercube" },
		{ "hypercube 3", TXNET_PORT_ALL, "hypercube" },
		{ "hypercube 3", TXNET_PORT_SINGLE, "hypercube" },
		{ "torus 5 7", TXNET_PORT_ALL, "shortest-path" },
		{ "ring 8", TXNET_PORT_ALL, "message-shift" },
		{ "linear 8", TXNET_PORT_SINGLE, "furthest-first" },
		{ "omega 8", TXNET_PORT_SINGLE, "latin" },
		{ "butterfly 16", TXNET_PORT_ALL, "latin" },
	};
	const struct txn_sched *s;
	const char *why;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(NULL, tg_make(&t, cases[i].net));
		s = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_AUTO, cases[i].port,
				   &why);
		ASSERT_NE(NULL, s);
		EXPECT_STREQ(cases[i].sched, s->name) TH_LOG("%s port %u", cases[i].net, cases[i].port);
		tg_free(&t);
	}
}

TEST_HARNESS_MAIN
