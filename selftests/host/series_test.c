// SPDX-License-Identifier: GPL-2.0
/*
 * A run's time series (kmod/core/series.c): links split by dimension and
 * direction as the factors' definitions say, every move counted once
 * however samples merge, and what nodes held read from where the engine
 * says the packets are.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"
#include "core/series.h"

#define SAMPLES TXNET_SERIES_SAMPLES

/* The direction of a step from @a to @b in a factor, from the uapi's words. */
static u32 dir_of(u32 kind, u32 k, u32 a, u32 b)
{
	if (kind == TXNET_DIM_RING && k > 2)
		return b == (a + 1) % k ? 0 : 1;
	return b > a ? 0 : 1;
}

static void check_classes(struct __test_metadata *_metadata, const char *topo)
{
	u32 coord_a[TXNET_MAX_DIMS], coord_b[TXNET_MAX_DIMS], dim, dir, l, t, c;
	u32 want[2 * TXNET_MAX_DIMS] = { 0 };
	struct txn_series s;
	struct tg tg;

	ASSERT_EQ(NULL, tg_make(&tg, topo));
	ASSERT_EQ(0, txn_series_init(&s, &tg.g));
	ASSERT_EQ(2 * tg.g.ndims, s.nclass);
	for (l = 0; l < tg.g.links; l++) {
		tg_decode(tg.g.src[l], tg.g.ndims, tg.g.fsize, coord_a);
		tg_decode(tg.g.dst[l], tg.g.ndims, tg.g.fsize, coord_b);
		for (t = 0; t < tg.g.ndims && coord_a[t] == coord_b[t]; t++)
			;
		ASSERT_LT(t, tg.g.ndims);
		c = 2 * t + dir_of(tg.g.fkind[t], tg.g.fsize[t], coord_a[t], coord_b[t]);
		EXPECT_EQ(c, s.class_of[l]) TH_LOG("%s link %u", topo, l);
		want[c]++;
	}
	for (c = 0; c < s.nclass; c++) {
		EXPECT_EQ(want[c], s.class_links[c]);
		ASSERT_TRUE(txn_series_class(&tg.g, c, &dim, &dir));
		EXPECT_EQ(c / 2, dim);
		EXPECT_EQ(c % 2, dir);
	}
	txn_series_free(&s);
	tg_free(&tg);
}

/* Mixed radix with dimension 0 most significant: tg_decode's order. */
TEST(links_by_dimension_and_direction)
{
	check_classes(_metadata, "torus 4 6");
	check_classes(_metadata, "mesh 3 4");
	check_classes(_metadata, "ghc 4 3");
	check_classes(_metadata, "product ring:5 linear:3 complete:3");
	check_classes(_metadata, "torus 2 3");
}

TEST(a_torus_ring_has_as_many_up_as_down)
{
	struct txn_series s;
	struct tg tg;
	u32 c;

	ASSERT_EQ(NULL, tg_make(&tg, "torus 5 7"));
	ASSERT_EQ(0, txn_series_init(&s, &tg.g));
	for (c = 0; c < s.nclass; c++)
		EXPECT_EQ(35, s.class_links[c]);	/* one link a node a way */
	txn_series_free(&s);
	tg_free(&tg);
}

TEST(other_topologies_have_one_row)
{
	struct txn_series s;
	u32 dim, dir;
	struct tg tg;

	ASSERT_EQ(NULL, tg_make(&tg, "butterfly 8"));
	ASSERT_EQ(0, txn_series_init(&s, &tg.g));
	EXPECT_EQ(1, s.nclass);
	EXPECT_EQ(tg.g.links, s.class_links[0]);
	EXPECT_FALSE(txn_series_class(&tg.g, 0, &dim, &dir));
	EXPECT_EQ(tg.g.nodes, s.rows);	/* switches hold packets too */
	txn_series_free(&s);
	tg_free(&tg);
}

TEST(many_nodes_share_rows)
{
	struct txn_series s;
	struct tg tg;

	ASSERT_EQ(NULL, tg_make(&tg, "ring 600"));
	ASSERT_EQ(0, txn_series_init(&s, &tg.g));
	EXPECT_EQ(3, s.group);		/* ceil(600 / TXNET_RES_QUEUE_MAX_NODES) */
	EXPECT_EQ(200, s.rows);
	txn_series_free(&s);
	tg_free(&tg);
}

struct recorded {
	u64 ticks, transmissions, unrecorded_ticks;
	struct txn_series s;
};

static int record(const char *topo, u32 algo, u32 port, struct recorded *r)
{
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port, .payload = 8, .seed = 7,
	};
	const struct txn_sched *sch;
	struct txn_engine e;
	const char *why;
	struct tg tg;
	int pass, ret = -1;

	if (tg_make(&tg, topo))
		return -1;
	sch = txn_sched_pick(&tg.spec, p.op, algo, port, &why);
	for (pass = 0; sch && pass < 2; pass++) {
		if (txn_engine_init(&e, &tg.g, sch, &p))
			break;
		if (pass == 1) {
			if (txn_series_init(&r->s, &tg.g))
				break;
			txn_engine_record(&e, &r->s);
		}
		while ((ret = txn_engine_tick(&e)) == 0)
			;
		if (ret == 1)
			ret = txn_engine_verify(&e);
		if (pass == 0)
			r->unrecorded_ticks = e.tick;
		r->ticks = e.tick;
		r->transmissions = e.transmissions;
		txn_engine_free(&e);
		if (ret)
			break;
	}
	tg_free(&tg);
	return ret;
}

static u64 busy_sum(const struct txn_series *s)
{
	u64 sum = 0;
	u32 c, i;

	for (c = 0; c < s->nclass; c++)
		for (i = 0; i < SAMPLES; i++)
			sum += s->busy[(size_t)c * SAMPLES + i];
	return sum;
}

/*
 * Every move counted once; nothing recorded past the run, and at its last
 * tick's end nothing held (all delivered): the last sample shows it
 * where it covers that tick alone.
 */
static void check_run(struct __test_metadata *_metadata, struct recorded *r)
{
	u32 row, i;

	EXPECT_EQ(r->unrecorded_ticks, r->ticks);	/* recording changes nothing */
	EXPECT_EQ(r->ticks, r->s.ticks);
	EXPECT_EQ((r->ticks + (1ULL << r->s.shift) - 1) >> r->s.shift, r->s.len);
	EXPECT_LE(r->s.len, SAMPLES);
	EXPECT_EQ(r->transmissions, busy_sum(&r->s));
	for (row = 0; row < r->s.rows; row++)
		for (i = r->s.len - (r->s.shift ? 0 : 1); i < SAMPLES; i++)
			EXPECT_EQ(0, r->s.held[(size_t)row * SAMPLES + i]);
}

TEST(a_run_is_recorded_as_the_engine_moved_it)
{
	struct recorded r = {};
	u32 v, c, i, most = 0;

	ASSERT_EQ(0, record("torus 4 4", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL, &r));
	check_run(_metadata, &r);
	EXPECT_EQ(0, r.s.shift);
	/* at the first tick's end no node holds more than it started with, n - 1, plus its in-links */
	for (v = 0; v < r.s.rows; v++)
		EXPECT_LE(r.s.held[(size_t)v * SAMPLES], 15 + 4);
	for (v = 0; v < r.s.rows; v++)
		for (i = 0; i < r.s.len; i++)
			most = r.s.held[(size_t)v * SAMPLES + i] > most ?
			       r.s.held[(size_t)v * SAMPLES + i] : most;
	EXPECT_GE(most, 15 - 4);	/* one packet a link left in tick 1 */
	/* a link carries at most a packet a tick */
	for (c = 0; c < r.s.nclass; c++)
		for (i = 0; i < r.s.len; i++)
			EXPECT_LE(r.s.busy[(size_t)c * SAMPLES + i], r.s.class_links[c]);
	txn_series_free(&r.s);
}

/*
 * Furthest-first on a linear array of 40 takes ceil((n^2-1)/4) = 400
 * ticks ([Dimakopoulos94], Theorem 1): past 256 samples, so each covers two.
 */
TEST(samples_widen_and_keep_every_move)
{
	struct recorded r = {};

	ASSERT_EQ(0, record("linear 40", TXNET_ALGO_FURTHEST_FIRST, TXNET_PORT_ALL, &r));
	EXPECT_EQ(400, r.ticks);
	EXPECT_EQ(1, r.s.shift);
	EXPECT_EQ(200, r.s.len);
	check_run(_metadata, &r);
	txn_series_free(&r.s);
}

TEST(single_port_and_a_min_are_recorded_too)
{
	struct recorded r = {};

	ASSERT_EQ(0, record("mesh 5 3", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_SINGLE, &r));
	check_run(_metadata, &r);
	txn_series_free(&r.s);
	memset(&r, 0, sizeof(r));
	ASSERT_EQ(0, record("omega 16", TXNET_ALGO_LATIN, TXNET_PORT_ALL, &r));
	check_run(_metadata, &r);
	EXPECT_EQ(1, r.s.nclass);
	txn_series_free(&r.s);
}

TEST_HARNESS_MAIN
