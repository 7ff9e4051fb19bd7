// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/core/bounds.c against brute force on small graphs and against the
 * papers' numbers.  Distances come from the test's own breadth-first
 * search (topo_helpers.c), cuts from enumerating every subset.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bounds.h"
#include "core/engine.h"

static u64 bound_of(struct tg *t, u32 op, u32 port, u32 root, const char **name)
{
	struct txn_bound b;

	if (txn_bound(&t->spec, &t->g, op, port, root, &b))
		return ~0ULL;
	if (name)
		*name = b.name;
	return b.lower;
}

static u64 ceil_div(u64 a, u64 b)
{
	return (a + b - 1) / b;
}

static const char *const small[] = {
	"linear 5", "linear 6", "ring 6", "ring 7", "complete 5", "mesh 3 3", "torus 3 4",
	"hypercube 3", "ghc 2 3", "product ring:3 linear:2", "biswapped ring 3",
	"biswapped complete 2", "product ring:3 linear:2 complete:3", "torus 2 3 4", "mesh 2 5",
	"ghc 2 3 4", "product complete:3 ring:5", "hypercube 4", "torus 3 3 3",
	"product linear:4 ring:2 complete:2",
};

/* Eccentricities and the sum of all distances, from the test's BFS. */
TEST(distances_match_bfs)
{
	u32 i, r, v, *dist, ecc;
	u64 sum;
	struct txn_bound b;
	struct tg t;

	for (i = 0; i < ARRAY_SIZE(small); i++) {
		ASSERT_EQ(NULL, tg_make(&t, small[i]));
		dist = calloc(t.g.nodes, sizeof(u32));
		sum = 0;
		for (r = 0; r < t.g.procs; r++) {
			tg_bfs(&t.g, r, dist);
			for (v = 0, ecc = 0; v < t.g.procs; v++) {
				sum += dist[v];
				if (dist[v] > ecc)
					ecc = dist[v];
			}
			/* all-port broadcast: exactly the root's eccentricity ([Bertsekas91], section 3) */
			ASSERT_EQ(0, txn_bound(&t.spec, &t.g, TXNET_OP_BROADCAST, TXNET_PORT_ALL, r, &b));
			EXPECT_EQ(ecc, b.lower) TH_LOG("%s root %u", small[i], r);
			EXPECT_EQ(t.g.procs - 1, b.min_transmissions);
		}
		ASSERT_EQ(0, txn_bound(&t.spec, &t.g, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, &b));
		/* products: the sum of the statuses by [Dimakopoulos98] Theorem 1, not by search */
		EXPECT_EQ(sum, b.min_transmissions) TH_LOG("%s", small[i]);
		EXPECT_GE(b.lower, ceil_div(sum, t.g.links)) TH_LOG("%s", small[i]);
		/* single-port: at least the average status, bound (3) */
		ASSERT_EQ(0, txn_bound(&t.spec, &t.g, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_SINGLE, 0,
				       &b));
		if (t.g.nodes == t.g.procs)
			EXPECT_GE(b.lower, ceil_div(sum, t.g.procs)) TH_LOG("%s", small[i]);
		free(dist);
		tg_free(&t);
	}
}

/* The best bound over every cut (A, B) of the processors: |A||B| / links A->B. */
static u64 best_cut(const struct txn_graph *g)
{
	u64 best = 0, a, cross, t;
	u32 mask, full = (1U << g->procs) - 1, l, sa, sb;

	for (mask = 1; mask < full; mask++) {
		a = __builtin_popcount(mask);
		for (l = 0, cross = 0; l < g->links; l++) {
			sa = mask >> g->src[l] & 1;
			sb = mask >> g->dst[l] & 1;
			cross += sa && !sb;
		}
		t = ceil_div(a * (g->procs - a), cross);
		if (t > best)
			best = t;
	}
	return best;
}

/* A cut bound the core reports is no better than the best cut there is. */
TEST(cut_bound_is_a_cut)
{
	const char *name;
	struct tg t;
	u64 lower, best;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(small); i++) {
		ASSERT_EQ(NULL, tg_make(&t, small[i]));
		if (t.g.procs > 16) {
			tg_free(&t);
			continue;
		}
		best = best_cut(&t.g);
		lower = bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, &name);
		if (!strcmp(name, "cut"))
			EXPECT_LE(lower, best) TH_LOG("%s", small[i]);
		tg_free(&t);
	}
}

/* [Dimakopoulos94], bounds (1) and (2); the single-port linear bound of bounds.c. */
TEST(linear_and_ring_total_exchange_bounds)
{
	char spec[32];
	struct tg t;
	u64 n;

	for (n = 2; n <= 30; n++) {
		snprintf(spec, sizeof(spec), "linear %llu", (unsigned long long)n);
		ASSERT_EQ(NULL, tg_make(&t, spec));
		EXPECT_EQ(ceil_div(n * n - 1, 4),
			  bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, NULL));
		if (n & 1)
			EXPECT_EQ((n * n - 1) / 2,
				  bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_SINGLE, 0, NULL));
		tg_free(&t);
		snprintf(spec, sizeof(spec), "ring %llu", (unsigned long long)n);
		ASSERT_EQ(NULL, tg_make(&t, spec));
		EXPECT_EQ(ceil_div(n * n - 1, 8),
			  bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, NULL))
			TH_LOG("ring %llu", (unsigned long long)n);
		tg_free(&t);
	}
}

/*
 * [Bertsekas91], Tables 1 and 2 (d-cube, MLA = all-port, SLA = single-port):
 * broadcast d; scatter and multinode broadcast ceil((2^d-1)/d) all-port,
 * 2^d-1 single-port; total exchange 2^(d-1) all-port, d 2^(d-1)
 * single-port.
 */
TEST(hypercube_bounds_are_the_optimal_times)
{
	char spec[32];
	struct tg t;
	u64 d, n;

	for (d = 1; d <= 8; d++) {
		n = 1ULL << d;
		snprintf(spec, sizeof(spec), "hypercube %llu", (unsigned long long)d);
		ASSERT_EQ(NULL, tg_make(&t, spec));
		EXPECT_EQ(d, bound_of(&t, TXNET_OP_BROADCAST, TXNET_PORT_ALL, 0, NULL));
		EXPECT_EQ(d, bound_of(&t, TXNET_OP_BROADCAST, TXNET_PORT_SINGLE, 0, NULL));
		EXPECT_EQ(ceil_div(n - 1, d), bound_of(&t, TXNET_OP_SCATTER, TXNET_PORT_ALL, 0, NULL));
		EXPECT_EQ(n - 1, bound_of(&t, TXNET_OP_SCATTER, TXNET_PORT_SINGLE, 0, NULL));
		EXPECT_EQ(ceil_div(n - 1, d),
			  bound_of(&t, TXNET_OP_MULTINODE_BROADCAST, TXNET_PORT_ALL, 0, NULL));
		EXPECT_EQ(n - 1, bound_of(&t, TXNET_OP_MULTINODE_BROADCAST, TXNET_PORT_SINGLE, 0, NULL));
		EXPECT_EQ(n / 2, bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, 0, NULL));
		EXPECT_EQ(d * n / 2, bound_of(&t, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_SINGLE, 0, NULL));
		tg_free(&t);
	}
}

TEST(refusals)
{
	struct txn_bound b;
	struct tg t;

	ASSERT_EQ(NULL, tg_make(&t, "torus 6 6"));
	EXPECT_EQ(-EINVAL, txn_bound(&t.spec, &t.g, TXNET_OP_BROADCAST, TXNET_PORT_ALL, 36, &b));
	EXPECT_EQ(-EINVAL, txn_bound(&t.spec, &t.g, TXNET_OP_MAX + 1, TXNET_PORT_ALL, 0, &b));
	EXPECT_EQ(-EINVAL, txn_bound(&t.spec, &t.g, TXNET_OP_BROADCAST, 0, 0, &b));
	/* torus 6 6, root 0: eccentricity 3 + 3, 35 transmissions */
	ASSERT_EQ(0, txn_bound(&t.spec, &t.g, TXNET_OP_BROADCAST, TXNET_PORT_ALL, 0, &b));
	EXPECT_EQ(6, b.lower);
	EXPECT_EQ(35, b.min_transmissions);
	tg_free(&t);
}

TEST_HARNESS_MAIN
