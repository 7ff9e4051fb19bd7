// SPDX-License-Identifier: GPL-2.0
/*
 * [Massini03]: the canonical partition of a MIN's configurations into
 * Latin squares (section 3) and
 * the pipelined complete exchange built on it (section 4).
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/latin.h"
#include "core/sched.h"

#define wirings		tg_min_wirings
#define wiring_names	tg_min_names

static u32 log2u(u32 N)
{
	return (u32)__builtin_ctz(N);
}

/* The permutation (input tags) and rows of M^{l,x}, printed as the paper does. */
static void column(u32 topo, u32 N, u64 l, u32 x, char *perm, char *rows)
{
	u32 n = log2u(N), rw[8], tag[16], i, k;

	if (txn_latin_config(N, l, rw))
		memset(rw, 0xff, sizeof(rw));	/* shows as a mismatch */
	txn_latin_perm(topo, N, rw, x, tag);
	for (i = 0; i < N; i++)
		perm[i] = (char)('0' + tag[i]);
	perm[N] = 0;
	for (i = 0; i < N / 2; i++) {
		for (k = 0; k < n; k++)
			*rows++ = (char)('0' + txn_latin_state(rw, n, i, k, x));
		*rows++ = i + 1 < N / 2 ? ' ' : 0;
	}
}

/* Example 1: the canonical partition (Partition 1) of the butterfly of 4. */
TEST(example_1)
{
	static const char * const want[4][4][2] = {
		{ { "0213", "00 00" }, { "2031", "01 01" }, { "1302", "10 10" }, { "3120", "11 11" } },
		{ { "0231", "00 01" }, { "2013", "01 00" }, { "1320", "10 11" }, { "3102", "11 10" } },
		{ { "0312", "00 10" }, { "3021", "01 11" }, { "1203", "10 00" }, { "2130", "11 01" } },
		{ { "0321", "00 11" }, { "3012", "01 10" }, { "1230", "10 01" }, { "2103", "11 00" } },
	};
	char perm[8], rows[16];
	u32 l, x;

	for (l = 0; l < 4; l++) {
		for (x = 0; x < 4; x++) {
			column(TXNET_TOPO_BUTTERFLY, 4, l, x, perm, rows);
			EXPECT_STREQ(want[l][x][0], perm) TH_LOG("l=%u x=%u", l, x);
			EXPECT_STREQ(want[l][x][1], rows) TH_LOG("l=%u x=%u", l, x);
		}
	}
	/* N^(N/2-1) = 4 sets: l = 4 is not an index */
	EXPECT_EQ(-ERANGE, txn_latin_config(4, 4, (u32[2]){ 0 }));
}

/* Example 2: P^18 and S^18, P^235 and S^235 on the butterfly of 8, as printed. */
TEST(example_2)
{
	static const char * const p18[8][2] = {
		{ "02465713", "000 000 010 010" }, { "20647531", "001 001 011 011" },
		{ "46021357", "010 010 000 000" }, { "64203175", "011 011 001 001" },
		{ "13574602", "100 100 110 110" }, { "31756420", "101 101 111 111" },
		{ "57130246", "110 110 100 100" }, { "75312064", "111 111 101 101" },
	};
	static const char * const p235[8][2] = {
		{ "06257134", "000 011 101 011" }, { "60521743", "001 010 100 010" },
		{ "52603471", "010 001 111 001" }, { "25064317", "011 000 110 000" },
		{ "17346025", "100 111 001 111" }, { "71430652", "101 110 000 110" },
		{ "43712560", "110 101 011 101" }, { "34175206", "111 100 010 100" },
	};
	char perm[16], rows[32];
	u32 x;

	for (x = 0; x < 8; x++) {
		column(TXNET_TOPO_BUTTERFLY, 8, 18, x, perm, rows);
		EXPECT_STREQ(p18[x][0], perm) TH_LOG("l=18 x=%u", x);
		EXPECT_STREQ(p18[x][1], rows) TH_LOG("l=18 x=%u", x);
		column(TXNET_TOPO_BUTTERFLY, 8, 235, x, perm, rows);
		EXPECT_STREQ(p235[x][0], perm) TH_LOG("l=235 x=%u", x);
		EXPECT_STREQ(p235[x][1], rows) TH_LOG("l=235 x=%u", x);
	}
}

/*
 * Lemma 3 on every wiring, N = 2..16, every l for N <= 8 and a spread of
 * them above: the N permutations of S^l (columns) form a Latin square, each
 * output hearing every input once over the N waves (rows).
 */
TEST(every_set_is_a_latin_square)
{
	u32 w, N, n, x, o, i, rows[8], tag[16], seen[16], col;
	u64 l, sets, step;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 16; N *= 2) {
			n = log2u(N);
			sets = 1ULL << (n * (N / 2 - 1));
			step = sets <= 4096 ? 1 : sets / 997;
			for (l = 0; l < sets; l += step) {
				ASSERT_EQ(0, txn_latin_config(N, l, rows));
				memset(seen, 0, sizeof(seen));
				for (x = 0; x < N; x++) {
					txn_latin_perm(wirings[w], N, rows, x, tag);
					for (o = 0, col = 0; o < N; o++) {
						col |= 1U << tag[o];
						seen[o] |= 1U << tag[o];
					}
					ASSERT_EQ((1U << N) - 1, col)
						TH_LOG("%s %u l=%llu x=%u: not a permutation",
						       wiring_names[w], N, (unsigned long long)l, x);
				}
				for (i = 0; i < N; i++)
					ASSERT_EQ((1U << N) - 1, seen[i])
						TH_LOG("%s %u l=%llu: output %u misses an input",
						       wiring_names[w], N, (unsigned long long)l, i);
			}
		}
	}
}

/*
 * Lemma 2 (N = 4 and 8) and Theorem 2: M^{l,x} over every l and x is every
 * configuration exactly once, and the index Theorem 2 recovers from any
 * member is l.
 */
TEST(sets_partition_every_configuration)
{
	u32 N, n, half, x, h, rows[4], m[4], code;
	u64 l, sets, back;
	u8 *hit;

	for (N = 4; N <= 8; N *= 2) {
		n = log2u(N);
		half = N / 2;
		sets = 1ULL << (n * (half - 1));
		hit = calloc(1ULL << (n * half), 1);
		ASSERT_NE(NULL, hit);
		for (l = 0; l < sets; l++) {
			ASSERT_EQ(0, txn_latin_config(N, l, rows));
			ASSERT_EQ(0, rows[0]);
			for (x = 0; x < N; x++) {
				for (h = 0, code = 0; h < half; h++) {
					m[h] = rows[h] ^ x;
					code = code << n | m[h];
				}
				EXPECT_EQ(0, hit[code]) TH_LOG("N=%u l=%llu x=%u twice", N,
							       (unsigned long long)l, x);
				hit[code] = 1;
				ASSERT_EQ(0, txn_latin_index(N, m, &back));
				EXPECT_EQ(l, back) TH_LOG("N=%u l=%llu x=%u", N, (unsigned long long)l, x);
			}
		}
		for (code = 0; code < 1U << (n * half); code++)
			ASSERT_EQ(1, hit[code]) TH_LOG("N=%u: configuration %u in no set", N, code);
		free(hit);
	}
}

/*
 * The identity.  With every switch of a stage in one state the MIN maps i
 * to Pi(i) xor c, Pi the composition of its interstage bit permutations:
 * n shuffles (omega) or unshuffles (flip) of n bits are the identity; the
 * butterfly's exchanges and the baselines' narrowing (un)shuffles are not
 * for n >= 2.  So S^0 holds the identity on omega and flip (and every
 * MIN of 2), and on butterfly, baseline and reverse baseline no member of
 * S^0 does; nor, checked here by routing, does any other configuration
 * of 4 or 8 there.
 */
static bool has_identity(u32 topo, u32 N)
{
	return N == 2 || topo == TXNET_TOPO_OMEGA || topo == TXNET_TOPO_FLIP;
}

TEST(identity_per_wiring)
{
	u32 w, N, rows[128] = { 0 }, x, n, i;
	u64 l, sets;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 256; N *= 2) {
			memset(rows, 0, sizeof(rows));
			x = txn_latin_identity_wave(wirings[w], N, rows);
			EXPECT_EQ(has_identity(wirings[w], N), x != ~0U)
				TH_LOG("%s %u", wiring_names[w], N);
			if (N > 8)
				continue;
			n = log2u(N);
			sets = 1ULL << (n * (N / 2 - 1));
			for (l = 0; l < sets; l++) {
				ASSERT_EQ(0, txn_latin_config(N, l, rows));
				x = txn_latin_identity_wave(wirings[w], N, rows);
				if (x == ~0U)
					continue;
				for (i = 0; i < N; i++)
					ASSERT_EQ(i, txn_latin_route(wirings[w], n, rows, x, i));
				/* omega and flip: only the all-straight configuration, l = 0 */
				EXPECT_TRUE(has_identity(wirings[w], N) && (N == 2 || (l == 0 && x == 0)))
					TH_LOG("%s %u l=%llu", wiring_names[w], N, (unsigned long long)l);
			}
		}
	}
}

/*
 * Section 4's exchange on every wiring, N = 2..256, from M^{l,0} for l =
 * 0, 1, 235 and the last index (where they are indices): verified; every
 * packet crosses the n = log2 N stages (N (N-1) n transmissions); the
 * waves take N + n - 1 ticks, N + n - 2 where the identity's wave is left
 * out, which is the lower bound of this model (each processor hears N - 1
 * packets one a tick, the first after n).  The identity has one
 * configuration (a banyan network realizes each permutation one way),
 * all straight on omega and flip (above): only S^0 holds it.
 */
TEST(complete_exchange_takes_n_plus_log_n)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 5, .payload = 2 };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	char net[40];
	struct tg t;
	u64 want, expected, bits, ls[4];
	u32 w, N, n, port, k;
	int ret;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 256; N *= 2) {
			for (k = 0; k < 2 * ARRAY_SIZE(ls); k++) {
				port = TXNET_PORT_ALL + k % 2;
				n = log2u(N);
				bits = (u64)n * (N / 2 - 1);
				ls[0] = 0;
				ls[1] = 1;
				ls[2] = 235;
				ls[3] = bits < 64 ? (1ULL << bits) - 1 : ~0ULL;
				p.config = ls[k / 2];
				if (!txn_latin_index_valid(N, p.config))
					continue;
				snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
				ASSERT_EQ(NULL, tg_make(&t, net));
				p.port_model = port;
				s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_AUTO, port, &why);
				ASSERT_NE(NULL, s);
				EXPECT_STREQ("latin", s->name);
				want = N + n - 1 - (has_identity(wirings[w], N) && !p.config);
				ASSERT_TRUE(txn_expected_steps(s, &t.spec, &p, &expected));
				EXPECT_EQ(want, expected) TH_LOG("%s", net);
				ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p)) TH_LOG("%s", net);
				while ((ret = txn_engine_tick(&e)) == 0)
					;
				EXPECT_EQ(1, ret) TH_LOG("%s: %s", net, e.v.rule);
				EXPECT_EQ(0, txn_engine_verify(&e)) TH_LOG("%s", net);
				EXPECT_EQ(want, e.tick) TH_LOG("%s port %u l=%llu", net, port,
							       (unsigned long long)p.config);
				EXPECT_EQ((u64)N * (N - 1) * n, e.transmissions) TH_LOG("%s", net);
				txn_engine_free(&e);
				tg_free(&t);
			}
		}
	}
}

/*
 * From any member M of a set (config_rows): the same waves in another
 * order, so the same time, and Theorem 2 names the set.  Example 2's
 * M^{235,3} of the butterfly of 8 is "011 000 110 000".
 */
TEST(complete_exchange_from_any_member)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 2,
				    .port_model = TXNET_PORT_ALL };
	u32 rows[128], w, N, h, k;
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	char net[40];
	struct tg t;
	u64 l, steps;
	int ret;

	rows[0] = 3;	/* 011 */
	rows[1] = 0;	/* 000 */
	rows[2] = 6;	/* 110 */
	rows[3] = 0;	/* 000 */
	ASSERT_EQ(0, txn_latin_index(8, rows, &l));
	EXPECT_EQ(235, l);
	EXPECT_EQ(txn_latin_steps(TXNET_TOPO_BUTTERFLY, 8, 235),
		  txn_latin_steps_rows(TXNET_TOPO_BUTTERFLY, 8, rows));
	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 256; N *= 4) {
			for (k = 0; k < 3; k++) {
				for (h = 0; h < N / 2; h++)
					rows[h] = (h * 2654435761U + k * 40503U) % N;
				if (!k && N == 8)
					rows[0] = 3, rows[1] = 0, rows[2] = 6, rows[3] = 0;
				ASSERT_TRUE(txn_latin_rows_valid(N, rows));
				snprintf(net, sizeof(net), "%s %u", wiring_names[w], N);
				ASSERT_EQ(NULL, tg_make(&t, net));
				p.config_rows = rows;
				s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_LATIN, p.port_model, &why);
				ASSERT_NE(NULL, s);
				ASSERT_TRUE(txn_expected_steps(s, &t.spec, &p, &steps));
				if (N <= 16 && !txn_latin_index(N, rows, &l))
					EXPECT_EQ(txn_latin_steps(wirings[w], N, l), steps);
				ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p)) TH_LOG("%s", net);
				EXPECT_EQ(NULL, e.p.config_rows);	/* the caller's array may go */
				while ((ret = txn_engine_tick(&e)) == 0)
					;
				EXPECT_EQ(1, ret) TH_LOG("%s: %s", net, e.v.rule);
				EXPECT_EQ(0, txn_engine_verify(&e));
				EXPECT_EQ(steps, e.tick) TH_LOG("%s", net);
				txn_engine_free(&e);
				tg_free(&t);
			}
		}
	}
	rows[0] = 8;
	EXPECT_FALSE(txn_latin_rows_valid(8, rows));
}

/* The rank of a permutation of 0..N-1 (N <= 8) among all N!, by its Lehmer code. */
static u32 perm_rank(const u32 *p, u32 N)
{
	u32 r = 0, i, j, c;

	for (i = 0; i < N; i++) {
		for (j = i + 1, c = 0; j < N; j++)
			c += p[j] < p[i];
		r = r * (N - i) + c;
	}
	return r;
}

/*
 * Self-routing, N = 2, 4, 8 on every wiring, against brute force: the
 * permutations some configuration realizes (all 2^(N/2 log N) routed) are
 * exactly those txn_latin_admit() admits, with that configuration; every
 * other one is blocked at a switch both named inputs pass; a list that is
 * not a permutation is refused.
 */
TEST(self_routing_admits_exactly_the_realizable)
{
	u32 w, N, n, code, h, i, p[8], rows[4], got[4], set[4], fact, r, k, tmp;
	struct txn_min_block blk;
	u8 *real;
	int ret;

	for (w = 0; w < ARRAY_SIZE(wirings); w++) {
		for (N = 2; N <= 8; N *= 2) {
			n = log2u(N);
			for (fact = 1, i = 2; i <= N; i++)
				fact *= i;
			real = calloc(fact, 1);
			ASSERT_NE(NULL, real);
			for (code = 0; code < 1U << (n * N / 2); code++) {
				for (h = 0; h < N / 2; h++)
					rows[h] = code >> (n * (N / 2 - 1 - h)) & ((1U << n) - 1);
				for (i = 0; i < N; i++)
					p[i] = txn_latin_route(wirings[w], n, rows, 0, i);
				real[perm_rank(p, N)] = 1;
				ASSERT_EQ(0, txn_latin_admit(wirings[w], N, p, got, set, &blk));
				for (h = 0; h < N / 2; h++)
					ASSERT_EQ(rows[h], got[h]) TH_LOG("%s %u code %u", wiring_names[w],
									 N, code);
			}
			/* every permutation, in rank order (Lehmer code decoded) */
			for (r = 0; r < fact; r++) {
				u32 pool[8];

				for (i = 0; i < N; i++)
					pool[i] = i;
				for (i = 0, tmp = r; i < N; i++) {
					u32 div = 1, j;

					for (j = 2; j < N - i; j++)
						div *= j;
					k = tmp / div;
					tmp %= div;
					p[i] = pool[k];
					for (j = k; j + 1 < N - i; j++)
						pool[j] = pool[j + 1];
				}
				ASSERT_EQ(r, perm_rank(p, N));
				ret = txn_latin_admit(wirings[w], N, p, got, set, &blk);
				if (real[r]) {
					ASSERT_EQ(0, ret);
					continue;
				}
				ASSERT_EQ(-EBUSY, ret) TH_LOG("%s %u rank %u", wiring_names[w], N, r);
				ASSERT_LT(blk.stage, n);
				ASSERT_LT(blk.sw, N / 2);
				ASSERT_LT(blk.first, blk.second);
				ASSERT_LT(blk.second, N);
			}
			free(real);
		}
	}
	p[0] = 1;
	p[1] = 1;
	EXPECT_EQ(-EINVAL, txn_latin_admit(TXNET_TOPO_BUTTERFLY, 2, p, got, set, &blk));
	p[1] = 2;
	EXPECT_EQ(-EINVAL, txn_latin_admit(TXNET_TOPO_BUTTERFLY, 2, p, got, set, &blk));
}

/* Indices: N^(N/2-1) sets, every u64 from N = 32 on. */
TEST(index_range)
{
	EXPECT_TRUE(txn_latin_index_valid(2, 0));
	EXPECT_FALSE(txn_latin_index_valid(2, 1));
	EXPECT_TRUE(txn_latin_index_valid(4, 3));
	EXPECT_FALSE(txn_latin_index_valid(4, 4));
	EXPECT_TRUE(txn_latin_index_valid(8, 511));
	EXPECT_FALSE(txn_latin_index_valid(8, 512));
	EXPECT_TRUE(txn_latin_index_valid(16, (1ULL << 28) - 1));
	EXPECT_FALSE(txn_latin_index_valid(16, 1ULL << 28));
	EXPECT_TRUE(txn_latin_index_valid(32, ~0ULL));
}

/* Anything but a total exchange on a MIN: refused naming algo. */
TEST(latin_refused_elsewhere)
{
	const char *why = NULL;
	struct tg t;

	ASSERT_EQ(NULL, tg_make(&t, "hypercube 3"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_LATIN,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "omega 8"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_BROADCAST, TXNET_ALGO_LATIN,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	tg_free(&t);
}

TEST_HARNESS_MAIN
