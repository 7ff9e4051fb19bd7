// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of kmod/core/spec.c: every refusal with its errno, field and
 * dimension; the max_nodes boundary; overflow-proof counting; kind
 * normalization; the normalized text form and the keyword tables.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"

struct refusal {
	struct txn_spec s;
	uint64_t max_nodes;
	int ret, field, dim;
	const char *word;	/* the message must contain this */
};

#define M	65536
#define BIG	UINT64_MAX
#define L	TXNET_DIM_LINEAR
#define R	TXNET_DIM_RING
#define C	TXNET_DIM_COMPLETE

static const struct refusal refusal_cases[] = {
	/* topology */
	{ { .topo = 0, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_TOPOLOGY, -1, "topology" },
	{ { .topo = TXNET_TOPO_MAX + 1, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_TOPOLOGY, -1, "topology" },
	{ { .topo = 12345, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_TOPOLOGY, -1, "topology" },
	/* dims count */
	{ { .topo = TXNET_TOPO_MESH, .ndims = 0 }, M, -EINVAL, TXNET_A_DIMS, -1, "dimension" },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 17 }, M, -EINVAL, TXNET_A_DIMS, -1, "too many" },
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 1000 }, M, -EINVAL, TXNET_A_DIMS, -1, "too many" },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 2, .size = { 3, 3 } }, M, -EINVAL, TXNET_A_DIMS, -1, "one dimension" },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 2, .size = { 3, 3 } }, M, -EINVAL, TXNET_A_DIMS, -1, "one dimension" },
	{ { .topo = TXNET_TOPO_OMEGA, .ndims = 2, .size = { 8, 8 } }, M, -EINVAL, TXNET_A_DIMS, -1, "one dimension" },
	/* sizes */
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 0 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "at least 2" },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "at least 2" },
	{ { .topo = TXNET_TOPO_RING, .ndims = 1, .size = { 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "at least 2" },
	{ { .topo = TXNET_TOPO_COMPLETE, .ndims = 1, .size = { 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "at least 2" },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 3, .size = { 3, 0, 4 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 1, "at least 2" },
	{ { .topo = TXNET_TOPO_TORUS, .ndims = 2, .size = { 3, 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 1, "at least 2" },
	{ { .topo = TXNET_TOPO_GHC, .ndims = 4, .size = { 2, 2, 2, 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 3, "at least 2" },
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 2, .size = { 5, 1 }, .kind = { R, L } }, M, -EINVAL, TXNET_A_DIM_SIZE, 1, "at least 2" },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 0 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "hypercube" },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 17 } }, BIG, -EINVAL, TXNET_A_DIM_SIZE, 0, "hypercube" },
	{ { .topo = TXNET_TOPO_BUTTERFLY, .ndims = 1, .size = { 6 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "power of two" },
	{ { .topo = TXNET_TOPO_OMEGA, .ndims = 1, .size = { 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "power of two" },
	{ { .topo = TXNET_TOPO_BASELINE, .ndims = 1, .size = { 0 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "power of two" },
	{ { .topo = TXNET_TOPO_RBASELINE, .ndims = 1, .size = { 12 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 0, "power of two" },
	{ { .topo = TXNET_TOPO_FLIP, .ndims = 1, .size = { 0xffffffffu } }, BIG, -EINVAL, TXNET_A_DIM_SIZE, 0, "power of two" },
	/* kinds */
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 3, .size = { 5, 3, 4 }, .kind = { R, L, 0 } }, M, -EINVAL, TXNET_A_DIM_KIND, 2, "kind is required" },
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 2, .size = { 5, 3 }, .kind = { 0, L } }, M, -EINVAL, TXNET_A_DIM_KIND, 0, "kind is required" },
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 2, .size = { 5, 3 }, .kind = { R, 4 } }, M, -EINVAL, TXNET_A_DIM_KIND, 1, "unknown dimension kind" },
	{ { .topo = TXNET_TOPO_PRODUCT, .ndims = 2, .size = { 5, 3 }, .kind = { 99, L } }, M, -EINVAL, TXNET_A_DIM_KIND, 0, "unknown dimension kind" },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 5, 3 }, .kind = { L, R } }, M, -EINVAL, TXNET_A_DIM_KIND, 1, "kind" },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 3 }, .kind = { L } }, M, -EINVAL, TXNET_A_DIM_KIND, 0, "kind" },
	{ { .topo = TXNET_TOPO_OMEGA, .ndims = 1, .size = { 8 }, .kind = { C } }, M, -EINVAL, TXNET_A_DIM_KIND, 0, "kind" },
	/* base */
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = 0, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_TORUS, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_GHC, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_PRODUCT, .ndims = 1, .size = { 4 }, .kind = { L } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_OMEGA, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_BISWAPPED, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = 999, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "biswapped base" },
	{ { .topo = TXNET_TOPO_RING, .base = TXNET_TOPO_RING, .ndims = 1, .size = { 4 } }, M, -EINVAL, TXNET_A_BASE, -1, "base" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH, .ndims = 2, .size = { 3, 1 } }, M, -EINVAL, TXNET_A_DIM_SIZE, 1, "at least 2" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, .ndims = 2, .size = { 3, 3 } }, M, -EINVAL, TXNET_A_DIMS, -1, "one dimension" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 17 } }, BIG, -EINVAL, TXNET_A_DIM_SIZE, 0, "hypercube" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, .ndims = 0 }, M, -EINVAL, TXNET_A_DIMS, -1, "dimension" },
	/* too big: vertices incl. switches, overflow, links */
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 65536, 65536 } }, M, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	/* the core's own limits (topology.h): 2^24 vertices, 2^29 - 1 links */
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 65536, 65536 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "2^24" },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { (1u << 24) + 1 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "2^24" },
	{ { .topo = TXNET_TOPO_TORUS, .ndims = 16, .size = { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "nodes" },
	{ { .topo = TXNET_TOPO_GHC, .ndims = 16, .size = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0x80000000u } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "nodes" },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 0xffffffffu } }, 1u << 20, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 256, 257 } }, M, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 256, 256 } }, M - 1, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 16 } }, M - 1, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 2 } }, 0, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	/* MIN 2^15: 32768 processors + 15 * 16384 switches */
	{ { .topo = TXNET_TOPO_BUTTERFLY, .ndims = 1, .size = { 32768 } }, M, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_FLIP, .ndims = 1, .size = { 0x80000000u } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "2^24" },
	/* biswapped: 2 * 182^2 = 66248 */
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, .ndims = 1, .size = { 182 } }, M, -E2BIG, TXNET_A_DIMS, -1, "max_nodes" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_COMPLETE, .ndims = 1, .size = { 0xffffffffu } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "nodes" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH, .ndims = 2, .size = { 65536, 65536 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "nodes" },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 16 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "nodes" },
	/* K_65537: 65537 * 65536 directed links > 2^32 - 1 */
	{ { .topo = TXNET_TOPO_COMPLETE, .ndims = 1, .size = { 65537 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "links" },
	{ { .topo = TXNET_TOPO_GHC, .ndims = 2, .size = { 2, 65537 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "links" },
	{ { .topo = TXNET_TOPO_TORUS, .ndims = 2, .size = { 65536, 32768 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "2^24" },
	/* K_23171: 23171 * 23170 = 536872070 > 2^29 - 1 */
	{ { .topo = TXNET_TOPO_COMPLETE, .ndims = 1, .size = { 23171 } }, BIG, -E2BIG, TXNET_A_DIMS, -1, "links" },
};

TEST(refusals)
{
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_spec s;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(refusal_cases) / sizeof(refusal_cases[0]); i++) {
		const struct refusal *r = &refusal_cases[i];

		s = r->s;
		memset(&err, 0x5a, sizeof(err));
		ret = txn_spec_validate(&s, r->max_nodes, &c, &err);
		EXPECT_EQ(r->ret, ret) TH_LOG("case %zu (%s)", i, err.msg);
		if (ret == 0)
			continue;
		EXPECT_EQ(r->field, err.field) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_EQ(r->dim, err.dim) TH_LOG("case %zu: %s", i, err.msg);
		ASSERT_NE(NULL, err.msg) TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(err.msg, r->word))
			TH_LOG("case %zu: \"%s\" lacks \"%s\"", i, err.msg, r->word);
		EXPECT_EQ(0, c.nodes) TH_LOG("case %zu: counts left set", i);
	}
}

struct accept {
	struct txn_spec s;
	uint64_t max_nodes, nodes, links;
};

/* The limits exactly: what is refused above one more vertex is taken here. */
static const struct accept accepts[] = {
	{ { .topo = TXNET_TOPO_MESH, .ndims = 2, .size = { 256, 256 } }, M, 65536, 4 * 255 * 256 },
	{ { .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1, .size = { 16 } }, M, 65536, 16 * 65536 },
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 2 } }, 2, 2, 2 },
	/* 14 stages; the 13 past stage 0 are vertices */
	{ { .topo = TXNET_TOPO_BUTTERFLY, .ndims = 1, .size = { 16384 } }, 16384 + 13 * 8192, 16384 + 13 * 8192, 16384 * 15 },
	{ { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, .ndims = 1, .size = { 181 } }, M, 2 * 181 * 181, 2 * 181 * 362 + 2 * 181 * 181 },
	/* K_23170: 23170 * 23169 = 536826730 links, within 2^29 - 1 */
	{ { .topo = TXNET_TOPO_COMPLETE, .ndims = 1, .size = { 23170 } }, BIG, 23170, 23170ull * 23169 },
	/* 2^24 is the largest vertex count */
	{ { .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { 1u << 24 } }, BIG, 1u << 24, 2 * ((1u << 24) - 1) },
	{ { .topo = TXNET_TOPO_MESH, .ndims = 16, .size = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 } }, M, 65536, 16 * 65536 },
};

TEST(accepts_at_the_limit)
{
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_spec s;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		s = accepts[i].s;
		ret = txn_spec_validate(&s, accepts[i].max_nodes, &c, &err);
		ASSERT_EQ(0, ret) TH_LOG("case %zu: %s", i, err.msg);
		EXPECT_EQ(NULL, err.msg);
		EXPECT_EQ(-1, err.dim);
		EXPECT_EQ(accepts[i].nodes, c.nodes) TH_LOG("case %zu", i);
		EXPECT_EQ(accepts[i].links, c.links) TH_LOG("case %zu", i);
	}
}

TEST(null_err_and_counts)
{
	struct txn_spec s = { .topo = TXNET_TOPO_RING, .ndims = 1, .size = { 1 } };

	EXPECT_EQ(-EINVAL, txn_spec_validate(&s, M, NULL, NULL));
	s.size[0] = 5;
	EXPECT_EQ(0, txn_spec_validate(&s, M, NULL, NULL));
}

TEST(kind_normalization)
{
	static const struct {
		const char *text;
		uint32_t kind;
	} l[] = {
		{ "linear 4", L }, { "ring 4", R }, { "complete 4", C },
		{ "mesh 3 4 5", L }, { "torus 3 4 5", R }, { "ghc 3 4 5", C },
		{ "hypercube 3", 0 }, { "omega 8", 0 }, { "flip 8", 0 },
		{ "biswapped mesh 3 3", L }, { "biswapped ring 5", R },
		{ "biswapped complete 5", C }, { "biswapped hypercube 3", 0 },
	};
	struct txn_spec_error err;
	struct txn_spec s, again;
	size_t i;
	uint32_t d;

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		ASSERT_EQ(0, tg_parse(l[i].text, &s));
		/* garbage past ndims is cleared */
		s.size[TXNET_MAX_DIMS - 1] = 77;
		ASSERT_EQ(0, txn_spec_validate(&s, M, NULL, &err))
			TH_LOG("%s: %s", l[i].text, err.msg);
		for (d = 0; d < s.ndims; d++)
			EXPECT_EQ(l[i].kind, s.kind[d]) TH_LOG("%s dim %u", l[i].text, d);
		for (; d < TXNET_MAX_DIMS; d++) {
			EXPECT_EQ(0, s.size[d]);
			EXPECT_EQ(0, s.kind[d]);
		}
		/* a normalized spec validates again, unchanged */
		again = s;
		ASSERT_EQ(0, txn_spec_validate(&again, M, NULL, &err));
		EXPECT_EQ(0, memcmp(&s, &again, sizeof(s))) TH_LOG("%s", l[i].text);
	}
}

TEST(format_exact)
{
	static const struct {
		const char *in, *out;
	} l[] = {
		{ "linear 5", "linear 5" }, { "ring 12", "ring 12" },
		{ "complete 4", "complete 4" }, { "mesh 3 4", "mesh 3 4" },
		{ "torus 8 8", "torus 8 8" }, { "hypercube 4", "hypercube 4" },
		{ "ghc 3 4", "ghc 3 4" },
		{ "product ring:5 linear:3 complete:4", "product ring:5 linear:3 complete:4" },
		{ "butterfly 8", "butterfly 8" }, { "omega 8", "omega 8" },
		{ "baseline 8", "baseline 8" }, { "rbaseline 8", "rbaseline 8" },
		{ "flip 8", "flip 8" }, { "biswapped ring 4", "biswapped ring 4" },
		{ "biswapped mesh 3 3", "biswapped mesh 3 3" },
		{ "biswapped hypercube 3", "biswapped hypercube 3" },
		{ "torus 4294967295", "torus 4294967295" },
	};
	struct txn_spec s;
	char buf[256];
	size_t i;
	int n;

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		ASSERT_EQ(0, tg_parse(l[i].in, &s));
		n = txn_spec_format(&s, buf, sizeof(buf));
		EXPECT_STREQ(l[i].out, buf);
		EXPECT_EQ((int)strlen(l[i].out), n);
	}
}

/* The longest spec there is fits TXN_SPEC_STR_MAX, as the kernel's buffer assumes. */
TEST(format_longest_fits)
{
	struct txn_spec s = { .topo = TXNET_TOPO_PRODUCT, .ndims = TXNET_MAX_DIMS };
	char buf[TXN_SPEC_STR_MAX];
	int i;

	for (i = 0; i < TXNET_MAX_DIMS; i++) {
		s.size[i] = 0xffffffffu;
		s.kind[i] = TXNET_DIM_COMPLETE;
	}
	EXPECT_EQ((int)TXN_SPEC_STR_MAX - 1, txn_spec_format(&s, buf, sizeof(buf)));
	EXPECT_EQ(TXN_SPEC_STR_MAX - 1, strlen(buf));
}

TEST(format_truncates_like_snprintf)
{
	struct txn_spec s;
	char buf[8];
	int n;

	ASSERT_EQ(0, tg_parse("torus 1000 2000", &s));
	memset(buf, 'x', sizeof(buf));
	n = txn_spec_format(&s, buf, sizeof(buf));
	EXPECT_EQ((int)strlen("torus 1000 2000"), n);
	EXPECT_STREQ("torus 1", buf);
	EXPECT_EQ(15, txn_spec_format(&s, NULL, 0));
	buf[0] = 'x';
	EXPECT_EQ(15, txn_spec_format(&s, buf, 1));
	EXPECT_EQ('\0', buf[0]);
}

/* Every valid spec formats to text that parses back to the same spec. */
TEST(format_round_trip)
{
	static const uint32_t topos[] = {
		TXNET_TOPO_LINEAR, TXNET_TOPO_RING, TXNET_TOPO_COMPLETE,
		TXNET_TOPO_MESH, TXNET_TOPO_TORUS, TXNET_TOPO_HYPERCUBE,
		TXNET_TOPO_GHC, TXNET_TOPO_PRODUCT, TXNET_TOPO_BUTTERFLY,
		TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE, TXNET_TOPO_RBASELINE,
		TXNET_TOPO_FLIP, TXNET_TOPO_BISWAPPED };
	struct txn_spec s, back;
	char buf[256];
	uint32_t seed = 12345, i, r, d, tries = 0, ok = 0;

	for (r = 0; r < 4000; r++) {
		memset(&s, 0, sizeof(s));
		seed = seed * 1103515245u + 12345u;
		s.topo = topos[(seed >> 8) % 14];
		if (s.topo == TXNET_TOPO_BISWAPPED) {
			static const uint32_t bases[] = {
				TXNET_TOPO_LINEAR, TXNET_TOPO_RING,
				TXNET_TOPO_COMPLETE, TXNET_TOPO_MESH,
				TXNET_TOPO_HYPERCUBE };

			seed = seed * 1103515245u + 12345u;
			s.base = bases[(seed >> 8) % 5];
		}
		seed = seed * 1103515245u + 12345u;
		s.ndims = 1 + (seed >> 8) % 4;
		for (d = 0; d < s.ndims; d++) {
			seed = seed * 1103515245u + 12345u;
			s.size[d] = 1u << (1 + (seed >> 8) % 3);
			s.kind[d] = 1 + (seed >> 12) % 3;
		}
		if (s.topo != TXNET_TOPO_PRODUCT)
			memset(s.kind, 0, sizeof(s.kind));
		tries++;
		if (txn_spec_validate(&s, 1u << 20, NULL, NULL))
			continue;
		ok++;
		txn_spec_format(&s, buf, sizeof(buf));
		ASSERT_EQ(0, tg_parse(buf, &back)) TH_LOG("%s", buf);
		ASSERT_EQ(0, txn_spec_validate(&back, 1u << 20, NULL, NULL)) TH_LOG("%s", buf);
		EXPECT_EQ(0, memcmp(&s, &back, sizeof(s))) TH_LOG("%s", buf);
		for (i = 0; buf[i]; i++)
			ASSERT_TRUE(buf[i] != ' ' || (buf[i + 1] && buf[i + 1] != ' '));
	}
	/* the generator must have produced a fair share of valid specs */
	EXPECT_GT(ok, tries / 4);
}

TEST(names)
{
	static const char *const topo[] = {
		NULL, "linear", "ring", "complete", "mesh", "torus", "hypercube",
		"ghc", "product", "butterfly", "omega", "baseline", "rbaseline",
		"flip", "biswapped", "dragonfly", "fattree", "slimfly", "graph" };
	static const char *const kind[] = { NULL, "linear", "ring", "complete" };
	uint32_t i;

	ASSERT_EQ(TXNET_TOPO_MAX + 1, sizeof(topo) / sizeof(topo[0]));
	for (i = 1; i <= TXNET_TOPO_MAX; i++) {
		EXPECT_EQ(i, txn_topo_from_name(topo[i]));
		EXPECT_STREQ(topo[i], txn_topo_name(i));
	}
	ASSERT_EQ(TXNET_DIM_MAX + 1, sizeof(kind) / sizeof(kind[0]));
	for (i = 1; i <= TXNET_DIM_MAX; i++) {
		EXPECT_EQ(i, txn_dim_kind_from_name(kind[i]));
		EXPECT_STREQ(kind[i], txn_dim_kind_name(i));
	}
	EXPECT_EQ(0, txn_topo_from_name("cube"));
	EXPECT_EQ(0, txn_topo_from_name(""));
	EXPECT_EQ(0, txn_topo_from_name("Ring"));
	EXPECT_EQ(0, txn_topo_from_name(NULL));
	EXPECT_EQ(0, txn_dim_kind_from_name("mesh"));
	EXPECT_EQ(0, txn_dim_kind_from_name(NULL));
	EXPECT_EQ(NULL, txn_topo_name(0));
	EXPECT_EQ(NULL, txn_topo_name(TXNET_TOPO_MAX + 1));
	EXPECT_EQ(NULL, txn_dim_kind_name(0));
	EXPECT_EQ(NULL, txn_dim_kind_name(TXNET_DIM_MAX + 1));
}

TEST_HARNESS_MAIN
