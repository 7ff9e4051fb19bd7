// SPDX-License-Identifier: GPL-2.0
/*
 * One permutation: processor i's message to dests[i].  On the log2 N-stage
 * MINs it is self-routed and either arrives in log2 N ticks or blocks where
 * two messages need one switch set both ways ([Massini03] section 3: a
 * permutation is admissible when a network configuration realizes it);
 * elsewhere the
 * general schedule routes it on shortest paths.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bounds.h"
#include "core/latin.h"
#include "core/sched.h"
#include "core/topo_impl.h"

#define wirings		tg_min_wirings
#define wiring_names	tg_min_names

static u32 log2u(u32 N)
{
	return (u32)__builtin_ctz(N);
}

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u32 next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(rng >> 16);
}

/* A random permutation of 0..N-1 (Fisher-Yates). */
static void shuffle_perm(u32 *p, u32 N)
{
	u32 i, j, t;

	for (i = 0; i < N; i++)
		p[i] = i;
	for (i = N - 1; i > 0; i--) {
		j = next_rand() % (i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

/* Mark in @set every output reachable from output line @x of stage @k. */
static void reach(u32 topo, u32 n, u32 k, u32 x, u8 *set)
{
	u32 y = txn_min_wire(topo, n, k, x);

	if (k + 1 == n) {
		set[y] = 1;
		return;
	}
	reach(topo, n, k + 1, y & ~1U, set);
	reach(topo, n, k + 1, y | 1, set);
}

/*
 * Destination tags (min.c): every output reachable through port b of a
 * switch of stage k has tag port b there, for every switch of every stage
 * of every wiring up to N = 1024; so following the tags is the one path.
 */
TEST(tag_port_is_the_one_path)
{
	u32 w, n, N, k, x, d;
	u8 *set;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (n = 1; n <= 10; n++) {
			N = 1U << n;
			set = malloc(N);
			ASSERT_NE(NULL, set);
			for (k = 0; k < n; k++) {
				for (x = 0; x < N; x++) {
					memset(set, 0, N);
					reach(wirings[w], n, k, x, set);
					for (d = 0; d < N; d++)
						if (set[d])
							ASSERT_EQ(x & 1, txn_min_tag_port(wirings[w], n, k, d))
								TH_LOG("%s %u stage %u line %u to %u",
								       wiring_names[w], N, k, x, d);
				}
			}
			free(set);
		}
	}
}

/* The switch input @i's path crosses at @stage towards @d, and the side it enters. */
static u32 path_switch(u32 topo, u32 n, u32 i, u32 d, u32 stage, u32 *side)
{
	u32 y = txn_min_in_line(topo, n, i), k;

	for (k = 0; k < stage; k++)
		y = txn_min_wire(topo, n, k, (y & ~1U) | txn_min_tag_port(topo, n, k, d));
	*side = y & 1;
	return y >> 1;
}

struct outcome {
	bool admissible, delivered;
};

/*
 * Run @dests on the MIN @net and check the outcome against
 * txn_latin_admit(): an admissible permutation is delivered, verified, in
 * log2 N ticks, one transmission per message and stage; any other is
 * stopped by the engine in the tick it blocks, at a switch both named
 * messages cross from different sides towards one output port.
 */
static struct outcome run_min(struct __test_metadata *_metadata, const struct tg *t,
			      const u32 *dests, u32 port)
{
	struct txn_run_params p = { .op = TXNET_OP_PERMUTATION, .port_model = port, .seed = 3,
				    .payload = 4, .dests = dests, .ndests = t->g.procs };
	u32 N = t->g.procs, n = log2u(N), topo = t->g.min_topo, *rows, *set, i, sent = 0;
	u32 stage, sw, a, b, sa, sb;
	struct txn_min_block blk;
	struct outcome o = {};
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why = NULL;
	int ret;

	rows = calloc(N, sizeof(u32));
	if (!rows)
		return o;
	set = rows + N / 2;
	o.admissible = !txn_latin_admit(topo, N, dests, rows, set, &blk);
	s = txn_sched_pick(&t->spec, p.op, TXNET_ALGO_AUTO, port, &why);
	EXPECT_NE(NULL, s);
	if (!s)
		goto out;
	EXPECT_STREQ("self-routing", s->name);
	EXPECT_EQ(0, txn_engine_init(&e, &t->g, s, &p));
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	for (i = 0; i < N; i++)
		sent += txn_perm_sends(&t->g, i, dests[i]);
	if (o.admissible) {
		EXPECT_EQ(1, ret) TH_LOG("%s", e.v.rule);
		EXPECT_EQ(0, txn_engine_verify(&e));
		EXPECT_EQ(n, e.tick);
		EXPECT_EQ((u64)sent * n, e.transmissions);
		/* the configuration found realizes it */
		for (i = 0; i < N; i++)
			if (txn_perm_sends(&t->g, i, dests[i]))
				EXPECT_EQ(dests[i], txn_latin_route(topo, n, rows, 0, i));
		o.delivered = ret == 1;
	} else {
		EXPECT_EQ(-EPROTO, ret);
		EXPECT_STREQ("link carried two packets in one tick", e.v.rule);
		ASSERT_NE(TXN_NONE, e.v.link);
		ASSERT_NE(TXN_NONE, e.v.other);
		txn_min_place(&t->g, e.v.link, &stage, &sw);
		EXPECT_EQ(e.v.tick - 1, stage);
		a = txn_pkt_src(txn_engine_view(&e), e.v.other);
		b = txn_pkt_src(txn_engine_view(&e), e.v.pkt);
		EXPECT_NE(a, b);
		EXPECT_EQ(sw, path_switch(topo, n, a, dests[a], stage, &sa));
		EXPECT_EQ(sw, path_switch(topo, n, b, dests[b], stage, &sb));
		EXPECT_NE(sa, sb);
		EXPECT_EQ(txn_min_tag_port(topo, n, stage, dests[a]),
			  txn_min_tag_port(topo, n, stage, dests[b]));
		EXPECT_EQ(0, e.delivered == e.expected);
	}
	txn_engine_free(&e);
out:
	free(rows);
	return o;
}

/* Every permutation of 4 and 8 on every wiring, both port models: routed or blocked. */
TEST(min_every_small_permutation)
{
	u32 w, N, r, i, j, k, p[8], pool[8], tmp, fact, div, admitted;
	char net[40];
	struct tg t;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 4; N <= 8; N *= 2) {
			snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
			ASSERT_EQ(NULL, tg_make(&t, net));
			for (fact = 1, i = 2; i <= N; i++)
				fact *= i;
			admitted = 0;
			for (r = 0; r < fact; r++) {
				for (i = 0; i < N; i++)
					pool[i] = i;
				for (i = 0, tmp = r; i < N; i++) {
					for (div = 1, j = 2; j < N - i; j++)
						div *= j;
					k = tmp / div;
					tmp %= div;
					p[i] = pool[k];
					for (j = k; j + 1 < N - i; j++)
						pool[j] = pool[j + 1];
				}
				admitted += run_min(_metadata, &t, p, TXNET_PORT_ALL + r % 2).delivered;
			}
			/*
			 * A banyan MIN has 2^(N/2 log2 N) configurations, each
			 * realizing a different permutation (one path per pair).
			 */
			EXPECT_EQ(1U << (N / 2 * log2u(N)), admitted) TH_LOG("%s", net);
			tg_free(&t);
		}
	}
}

/*
 * Section 3's remark on the identity: on this butterfly, baseline and
 * reverse baseline no configuration realizes it, on omega and flip one
 * does (derived for latin_test.c's identity_per_wiring); a self-routed
 * identity blocks or arrives accordingly, messages to oneself crossing the
 * network as every MIN message does.
 */
TEST(min_identity)
{
	static const bool realizable[] = { false, true, false, false, true };
	u32 w, N, i, p[64];
	struct outcome o;
	char net[40];
	struct tg t;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 4; N <= 64; N *= 2) {
			snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
			ASSERT_EQ(NULL, tg_make(&t, net));
			for (i = 0; i < N; i++)
				p[i] = i;
			o = run_min(_metadata, &t, p, TXNET_PORT_ALL);
			EXPECT_EQ(realizable[w], o.admissible) TH_LOG("%s", net);
			EXPECT_EQ(realizable[w], o.delivered) TH_LOG("%s", net);
			tg_free(&t);
		}
	}
}

/*
 * The members of a Latin set are admissible by construction: each M^{l,x}
 * routes its permutation in log2 N ticks, and the configuration found is
 * that member (Theorem 2 gives back l, and x is its first row).
 */
TEST(min_latin_members)
{
	static const u64 ls[] = { 0, 1, 235, 123456789 };
	u32 w, N, n, x, i, li, rows[32], found[32], set[32], p[64];
	struct txn_min_block blk;
	struct outcome o;
	char net[40];
	struct tg t;
	u64 l;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 4; N <= 64; N *= 2) {
			n = log2u(N);
			snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
			ASSERT_EQ(NULL, tg_make(&t, net));
			for (li = 0; li < ARRAY_SIZE(ls); li++) {
				if (txn_latin_config(N, ls[li], rows))
					continue;
				for (x = 0; x < N; x += 1 + N / 8) {
					for (i = 0; i < N; i++)
						p[i] = txn_latin_route(wirings[w], n, rows, x, i);
					o = run_min(_metadata, &t, p, TXNET_PORT_SINGLE);
					EXPECT_TRUE(o.delivered) TH_LOG("%s l %llu x %u", net,
									(unsigned long long)ls[li], x);
					ASSERT_EQ(0, txn_latin_admit(wirings[w], N, p, found, set, &blk));
					if (N <= 16) {
						ASSERT_EQ(0, txn_latin_index(N, found, &l));
						EXPECT_EQ(ls[li], l);
					}
					EXPECT_EQ(x, found[0]);
				}
			}
			tg_free(&t);
		}
	}
}

/* Random permutations of up to 1024 processors: routed or blocked, never anything else. */
TEST(min_random)
{
	u32 w, N, r, *p;
	char net[40];
	struct tg t;

	p = malloc(1024 * sizeof(u32));
	ASSERT_NE(NULL, p);
	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 1024; N *= 2) {
			snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
			ASSERT_EQ(NULL, tg_make(&t, net));
			for (r = 0; r < 40; r++) {
				shuffle_perm(p, N);
				if (N == 2 && !p[0])
					p[0] = 1, p[1] = 0;	/* the identity moves nothing there */
				run_min(_metadata, &t, p, TXNET_PORT_ALL);
			}
			tg_free(&t);
		}
	}
	free(p);
}

/*
 * Direct networks: the general schedule delivers every permutation,
 * verified; a message to its own sender is not sent; the bound is the
 * farthest message's distance (a breadth-first search here) and the
 * fewest transmissions their sum.
 */
TEST(direct_networks)
{
	static const char * const nets[] = {
		"linear 5", "ring 7", "mesh 3 4", "torus 4 4", "hypercube 4", "ghc 3 3",
		"complete 6", "product ring:3 linear:4", "biswapped mesh 3 3", "biswapped ring 4",
	};
	struct txn_run_params p = { .op = TXNET_OP_PERMUTATION, .seed = 9, .payload = 16 };
	u32 k, r, i, n, *dests, *dist, far, port;
	const struct txn_sched *s;
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	u64 sum;
	struct tg t;
	int ret;

	for (k = 0; k < ARRAY_SIZE(nets); k++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[k])) TH_LOG("%s", nets[k]);
		n = t.g.procs;
		dests = malloc(n * sizeof(u32));
		dist = malloc(t.g.nodes * sizeof(u32));
		ASSERT_NE(NULL, dests);
		ASSERT_NE(NULL, dist);
		for (r = 0; r < 8; r++) {
			port = TXNET_PORT_ALL + r % 2;
			shuffle_perm(dests, n);
			if (r == 0) {	/* a shift: nobody stays */
				for (i = 0; i < n; i++)
					dests[i] = (i + 1) % n;
			}
			for (i = far = 0, sum = 0; i < n; i++) {
				tg_bfs(&t.g, i, dist);
				sum += dist[dests[i]];
				if (dist[dests[i]] > far)
					far = dist[dests[i]];
			}
			if (!far)
				continue;
			p.dests = dests;
			p.ndests = n;
			p.port_model = port;
			ASSERT_EQ(0, txn_bound_perm(&t.g, dests, &b));
			EXPECT_EQ(far, b.lower) TH_LOG("%s", nets[k]);
			EXPECT_EQ(sum, b.min_transmissions) TH_LOG("%s", nets[k]);
			EXPECT_STREQ("distance", b.name);
			s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_AUTO, port, &why);
			ASSERT_NE(NULL, s);
			EXPECT_STREQ("shortest-path", s->name);
			ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p)) TH_LOG("%s", nets[k]);
			while ((ret = txn_engine_tick(&e)) == 0)
				;
			EXPECT_EQ(1, ret) TH_LOG("%s: %s", nets[k], e.v.rule);
			EXPECT_EQ(0, txn_engine_verify(&e)) TH_LOG("%s", nets[k]);
			EXPECT_LE(far, e.tick);
			EXPECT_LE(sum, e.transmissions);
			for (i = 0, sum = 0; i < n; i++)
				sum += dests[i] != i;
			EXPECT_EQ(sum, e.expected);
			EXPECT_EQ(sum, e.delivered);
			txn_engine_free(&e);
		}
		free(dests);
		free(dist);
		tg_free(&t);
	}
}

static int check(const char *net, u32 op, const u32 *dests, u32 ndests, const char **why)
{
	struct txn_run_params p = { .op = op, .port_model = TXNET_PORT_ALL, .dests = dests,
				    .ndests = ndests };
	struct tg t;
	int ret;

	if (tg_make(&t, net))
		return 1;
	*why = NULL;
	ret = txn_run_check(&t.g, &p, why);
	tg_free(&t);
	return ret;
}

/* Bad destinations are refused naming dests; schedules refuse where they do not run. */
TEST(refusals)
{
	static const u32 good[] = { 1, 2, 3, 0 }, dup[] = { 1, 1, 2, 3 }, big[] = { 0, 1, 2, 4 };
	static const u32 id[] = { 0, 1, 2, 3 }, swap[] = { 1, 0 }, id2[] = { 0, 1 };
	const char *why;
	struct txn_bound b;
	struct tg t;

	EXPECT_EQ(0, check("ring 4", TXNET_OP_PERMUTATION, good, 4, &why));
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_PERMUTATION, NULL, 0, &why));
	EXPECT_EQ(0, strncmp(why, "dests: ", 7));
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_PERMUTATION, good, 3, &why));
	EXPECT_STREQ("dests: one destination per processor (nodes of them)", why);
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_PERMUTATION, dup, 4, &why));
	EXPECT_STREQ("dests: not a permutation: a processor is the destination of two messages",
		     why);
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_PERMUTATION, big, 4, &why));
	EXPECT_STREQ("dests: not a processor of this network (0 .. nodes-1)", why);
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_PERMUTATION, id, 4, &why));
	EXPECT_STREQ("dests: every message is to its own sender: nothing would move", why);
	EXPECT_EQ(-EINVAL, check("ring 4", TXNET_OP_TOTAL_EXCHANGE, good, 4, &why));
	EXPECT_STREQ("dests: only a permutation takes destinations", why);
	/* a MIN's identity crosses the network; a MIN of two has no line back to oneself */
	EXPECT_EQ(0, check("butterfly 4", TXNET_OP_PERMUTATION, id, 4, &why));
	EXPECT_EQ(-EINVAL, check("butterfly 2", TXNET_OP_PERMUTATION, id2, 2, &why));
	EXPECT_EQ(0, check("butterfly 2", TXNET_OP_PERMUTATION, swap, 2, &why));

	ASSERT_EQ(NULL, tg_make(&t, "omega 8"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_PERMUTATION, TXNET_ALGO_SHORTEST_PATH,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_PERMUTATION, TXNET_ALGO_LATIN,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(-EOPNOTSUPP, txn_bound(&t.spec, &t.g, TXNET_OP_PERMUTATION, TXNET_PORT_ALL, 0,
					 &b));
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "torus 4 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_PERMUTATION, TXNET_ALGO_SELF_ROUTING,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_SELF_ROUTING,
				       TXNET_PORT_ALL, &why));
	tg_free(&t);
}

TEST_HARNESS_MAIN
