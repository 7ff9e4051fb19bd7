// SPDX-License-Identifier: GPL-2.0
/*
 * Data and prefix sums on products, dimension by dimension
 * (kmod/core/sched_waves.c), run by the engine and checked against the
 * times the schedule's argument gives, which the test computes itself
 * from the factors, and against the lower bounds, which it computes by
 * breadth-first search where the argument says they are met.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"
#include "core/bounds.h"

static const char * const products[] = {
	"linear 2", "linear 3", "linear 8", "linear 9",
	"ring 3", "ring 4", "ring 7", "ring 10",
	"complete 2", "complete 3", "complete 4", "complete 8",
	"mesh 3 4", "mesh 2 5 3", "mesh 4 4",
	"torus 4 5", "torus 3 3 3", "torus 8 8", "torus 2 6",
	"ghc 3 4", "ghc 2 3 4", "ghc 4 4",
	"product ring:5 linear:3 complete:4", "product ring:4 linear:4 complete:2",
	"product linear:2 ring:6 complete:8", "product ring:6 ring:5 linear:3", "torus 6 4", "torus 5 6",
};

/* The factors of a product spec, read by the test. */
static u32 factors(const struct txn_spec *s, u32 *kind, u32 *size)
{
	u32 i, n = s->topo == TXNET_TOPO_LINEAR || s->topo == TXNET_TOPO_RING ||
		   s->topo == TXNET_TOPO_COMPLETE ? 1 : s->ndims;

	for (i = 0; i < n; i++) {
		size[i] = s->size[i];
		switch (s->topo) {
		case TXNET_TOPO_LINEAR:
		case TXNET_TOPO_MESH:
			kind[i] = TXNET_DIM_LINEAR;
			break;
		case TXNET_TOPO_RING:
		case TXNET_TOPO_TORUS:
			kind[i] = TXNET_DIM_RING;
			break;
		case TXNET_TOPO_COMPLETE:
		case TXNET_TOPO_GHC:
			kind[i] = TXNET_DIM_COMPLETE;
			break;
		default:
			kind[i] = s->kind[i];
		}
	}
	return n;
}

static bool pow2(u32 k)
{
	return !(k & (k - 1));
}

static u32 lg(u32 k)
{
	u32 m = 0;

	while ((1u << m) < k)
		m++;
	return m;
}

/*
 * The ticks of one factor's phase, sched_waves.c's argument: all-port the
 * factor's diameter (k-1, floor(k/2), 1), a ring k-1 for a prefix (its up
 * wave reaches the last node) but in the last phase, the most significant
 * dimension's, where the rest comes round the back; single-port an array k-1 when k is even
 * and k when odd, an even ring k/2 (k-1, prefix), a complete graph of 2^m
 * nodes m by recursive doubling; 0 where the waves do not run.  A factor
 * of two nodes is one cable, whatever its kind.
 */
static u32 factor_ticks(u32 kind, u32 k, bool single, bool prefix, bool last)
{
	if (k == 2)
		return 1;
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return single && k % 2 ? k : k - 1;
	case TXNET_DIM_RING:
		if (single && k % 2)
			return 0;
		return prefix && !last ? k - 1 : k / 2;
	default:
		return !single ? 1 : pow2(k) ? lg(k) : 0;
	}
}

/*
 * The phases one after another, the least significant dimension (the
 * last factor) first; all-port, a prefix's ring before the last phase
 * hands the next phase its totals at k/2 and runs on to k-1 alone.  0
 * where a factor does not run.
 */
static u32 phases(const u32 *kind, const u32 *size, u32 n, bool single, bool prefix)
{
	u32 f, len, tail, start = 0, ticks = 0;

	for (f = n; f-- > 0;) {
		len = factor_ticks(kind[f], size[f], single, prefix, f == 0);
		if (!len)
			return 0;
		tail = len;
		if (prefix && !single && f > 0 && kind[f] == TXNET_DIM_RING && size[f] > 2) {
			len = size[f] / 2;
			tail = size[f] - 1;
		}
		if (start + tail > ticks)
			ticks = start + tail;
		start += len;
	}
	return ticks;
}

/* The factors' diameters added up: the product's diameter, and its last processor's eccentricity. */
static u32 diameters(const u32 *kind, const u32 *size, u32 n)
{
	u32 f, d = 0;

	for (f = 0; f < n; f++)
		d += kind[f] == TXNET_DIM_LINEAR ? size[f] - 1 :
		     kind[f] == TXNET_DIM_RING ? size[f] / 2 : 1;
	return d;
}

/* Whether the argument says the sum meets its bound: no factor past its diameter or log2. */
static bool meets_bound(const u32 *kind, const u32 *size, u32 n, bool single, bool prefix)
{
	u32 i, arrays = 0, doubled = 0;

	for (i = 0; i < n; i++) {
		if (size[i] == 2)
			continue;
		if (prefix && single && kind[i] == TXNET_DIM_RING && i > 0)
			return false;
		if (single && kind[i] == TXNET_DIM_LINEAR && size[i] % 2)
			return false;
		if (kind[i] == TXNET_DIM_COMPLETE)
			doubled++;
		else
			arrays++;
	}
	/* single-port: the diameter where every factor is a line, log2 n where every one is doubled */
	return !single || !arrays || !doubled;
}

struct outcome {
	int ret, verify;
	u64 ticks, transmissions;
	const char *rule;
};

static void run(struct tg *t, const struct txn_sched *s, u32 op, u32 port, struct outcome *o)
{
	struct txn_run_params p = { .op = op, .port_model = port, .values_seed = 5 };
	struct txn_engine e;

	memset(o, 0, sizeof(*o));
	o->ret = txn_engine_init(&e, &t->g, s, &p);
	if (o->ret)
		return;
	while ((o->ret = txn_engine_tick(&e)) == 0)
		;
	o->verify = txn_engine_verify(&e);
	o->ticks = e.tick;
	o->transmissions = e.transmissions;
	o->rule = e.v.rule;
	txn_engine_free(&e);
}

TEST(sums_take_the_factors_phases_and_meet_the_bound_where_proven)
{
	static const u32 ops[] = { TXNET_OP_DATA_SUM, TXNET_OP_PREFIX_SUM };
	u32 kind[TXNET_MAX_DIMS], size[TXNET_MAX_DIMS], nf, i, j, port, ticks, *dist;
	const struct txn_sched *s;
	struct txn_bound b;
	struct outcome o;
	const char *why;
	bool single, prefix;
	u64 steps;
	struct tg t;

	for (i = 0; i < ARRAY_SIZE(products); i++) {
		ASSERT_EQ(NULL, tg_make(&t, products[i]));
		nf = factors(&t.spec, kind, size);
		dist = calloc(t.g.nodes, sizeof(*dist));
		ASSERT_NE(NULL, dist);
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++)
			for (j = 0; j < ARRAY_SIZE(ops); j++) {
				single = port == TXNET_PORT_SINGLE;
				prefix = ops[j] == TXNET_OP_PREFIX_SUM;
				ticks = phases(kind, size, nf, single, prefix);
				s = txn_sched_pick(&t.spec, ops[j], TXNET_ALGO_DIMENSION_WAVES, port, &why);
				if (!ticks) {
					/* an odd ring or an undoubled complete factor, single-port */
					EXPECT_EQ(NULL, s) TH_LOG("%s port %u", products[i], port);
					continue;
				}
				ASSERT_EQ(&txn_sched_waves, s) TH_LOG("%s: %s", products[i], why);
				ASSERT_EQ(s, txn_sched_pick(&t.spec, ops[j], TXNET_ALGO_AUTO, port, &why));
				run(&t, s, ops[j], port, &o);
				EXPECT_EQ(1, o.ret) TH_LOG("%s %s port %u: %s", products[i],
							  txn_op_name(ops[j]), port, o.rule);
				EXPECT_EQ(0, o.verify) TH_LOG("%s %s port %u: %s", products[i],
							     txn_op_name(ops[j]), port, o.rule);
				EXPECT_EQ(ticks, o.ticks) TH_LOG("%s %s port %u", products[i],
								 txn_op_name(ops[j]), port);
				{
					struct txn_run_params p = { .op = ops[j], .port_model = port };

					ASSERT_TRUE(txn_expected_steps(s, &t.spec, &p, &steps));
					EXPECT_EQ(ticks, steps);
				}
				ASSERT_EQ(0, txn_bound(&t.spec, &t.g, ops[j], port, 0, &b));
				EXPECT_LE(b.lower, o.ticks);
				/* all-port a prefix meets it where the rings' tails end in time */
				if (prefix && !single ? ticks != diameters(kind, size, nf) :
				    !meets_bound(kind, size, nf, single, prefix))
					continue;
				/*
				 * Every processor needs every value (the last one, for
				 * a prefix): the diameter, or the last processor's
				 * eccentricity, by breadth-first search; single-port
				 * at least ceil(log2 n), as values at most double a tick.
				 */
				if (prefix) {
					u32 v, ecc = 0;

					tg_bfs(&t.g, t.g.procs - 1, dist);
					for (v = 0; v < t.g.procs; v++)
						ecc = dist[v] > ecc ? dist[v] : ecc;
					steps = ecc;
				} else {
					steps = tg_proc_diameter(&t.g);
				}
				if (single && lg(t.g.procs) > steps)
					steps = lg(t.g.procs);
				EXPECT_EQ(steps, o.ticks) TH_LOG("%s %s port %u", products[i],
								txn_op_name(ops[j]), port);
				EXPECT_EQ(steps, b.lower) TH_LOG("%s %s port %u", products[i],
								txn_op_name(ops[j]), port);
			}
		free(dist);
		tg_free(&t);
	}
}

TEST(waves_run_sums_on_products_only)
{
	static const char * const others[] = {
		"hypercube 3", "butterfly 8", "biswapped ring 4", "fattree 2 2",
	};
	const char *why = NULL;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(others); i++) {
		ASSERT_EQ(NULL, tg_make(&t, others[i]));
		EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_DATA_SUM,
					       TXNET_ALGO_DIMENSION_WAVES, TXNET_PORT_ALL, &why))
			TH_LOG("%s", others[i]);
		EXPECT_NE(NULL, why);
		tg_free(&t);
	}
	ASSERT_EQ(NULL, tg_make(&t, "torus 4 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_BROADCAST, TXNET_ALGO_DIMENSION_WAVES,
				       TXNET_PORT_ALL, &why));
	EXPECT_NE(NULL, strstr(why, "dimension-waves"));
	tg_free(&t);
}

TEST_HARNESS_MAIN
