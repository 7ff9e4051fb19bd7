// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_collective: every collective operation on every topology family,
 * both port models, run by the module and verified by its engine.
 *
 * What is asserted comes from the definitions, not from earlier runs:
 * - every run verifies and never beats its own lower bound;
 * - under the all-port model a broadcast and an accumulation on a
 *   topology without switches take exactly the root's eccentricity (the
 *   general schedule runs them on a shortest-path tree; the bound is
 *   [Bertsekas91] section 3: the farthest processor cannot hear sooner, for any
 *   graph), with n-1 transmissions; the eccentricity is computed here from
 *   the topology's definition (Documentation/txnet-topologies.rst);
 * - the values a combining operation ends with are the sums its
 *   definition says, computed here from the values sent;
 * - bad roots, value lists of the wrong length, values where none are
 *   taken, payloads on combining operations and unknown operations are
 *   refused with a message naming the field and the extack pointing at it;
 * - a run past its tick limit fails with "tick limit".
 */
#include <string.h>

#include "txnet_harness.h"

#define RUN_MS	120000	/* watchdog for one RUN_DONE, not a speed claim */

struct topo {
	const char *label;
	struct txnet_req req;
	uint32_t ecc0;		/* eccentricity of processor 0; 0: has switches, not asserted */
};

#define DIMS(...) .ndims = sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), \
		  .size = { __VA_ARGS__ }

/*
 * Eccentricity of processor 0 (coordinates all 0): a linear factor of k
 * nodes contributes k-1, a ring floor(k/2), a complete graph 1, a
 * hypercube dimension 1; a product adds its factors' (the distance in a
 * cartesian product is the sum over the factors).
 */
static const struct topo topos[] = {
	{ "linear 7", { .topo = TXNET_TOPO_LINEAR, DIMS(7) }, 6 },
	{ "ring 8", { .topo = TXNET_TOPO_RING, DIMS(8) }, 4 },
	{ "ring 7", { .topo = TXNET_TOPO_RING, DIMS(7) }, 3 },
	{ "complete 6", { .topo = TXNET_TOPO_COMPLETE, DIMS(6) }, 1 },
	{ "mesh 3 4", { .topo = TXNET_TOPO_MESH, DIMS(3, 4) }, 2 + 3 },
	{ "torus 6 6", { .topo = TXNET_TOPO_TORUS, DIMS(6, 6) }, 3 + 3 },
	{ "torus 3 4 2", { .topo = TXNET_TOPO_TORUS, DIMS(3, 4, 2) }, 1 + 2 + 1 },
	{ "hypercube 4", { .topo = TXNET_TOPO_HYPERCUBE, DIMS(4) }, 4 },
	{ "ghc 3 4", { .topo = TXNET_TOPO_GHC, DIMS(3, 4) }, 2 },
	{ "product ring:5 linear:3 complete:2",
	  { .topo = TXNET_TOPO_PRODUCT, DIMS(5, 3, 2),
	    .kind = { TXNET_DIM_RING, TXNET_DIM_LINEAR, TXNET_DIM_COMPLETE } }, 2 + 2 + 1 },
	{ "butterfly 8", { .topo = TXNET_TOPO_BUTTERFLY, DIMS(8) }, 0 },
	{ "omega 16", { .topo = TXNET_TOPO_OMEGA, DIMS(16) }, 0 },
	{ "baseline 8", { .topo = TXNET_TOPO_BASELINE, DIMS(8) }, 0 },
	{ "rbaseline 8", { .topo = TXNET_TOPO_RBASELINE, DIMS(8) }, 0 },
	{ "flip 8", { .topo = TXNET_TOPO_FLIP, DIMS(8) }, 0 },
	{ "biswapped ring 4", { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, DIMS(4) }, 0 },
	{ "biswapped mesh 2 2",
	  { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH, DIMS(2, 2) }, 0 },
};

static const uint32_t ops[] = {
	TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_BROADCAST, TXNET_OP_SCATTER, TXNET_OP_GATHER,
	TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_ACCUMULATE, TXNET_OP_MULTINODE_ACCUMULATE,
	TXNET_OP_PREFIX_SUM, TXNET_OP_DATA_SUM,
};

static bool has_root(uint32_t op)
{
	return op == TXNET_OP_BROADCAST || op == TXNET_OP_SCATTER || op == TXNET_OP_GATHER ||
	       op == TXNET_OP_ACCUMULATE;
}

static bool combines(uint32_t op)
{
	return op >= TXNET_OP_ACCUMULATE && op <= TXNET_OP_DATA_SUM;
}

FIXTURE(co) {
	struct txnl t;
	struct txnl ev;
};

FIXTURE_SETUP(co)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_events_open(&self->ev));
}

FIXTURE_TEARDOWN(co)
{
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
	txnl_close(&self->ev);
}

/* RUN and wait for its RUN_DONE: 0, -errno of the RUN, or -ETIMEDOUT. */
static int collective(struct txnl *t, struct txnl *ev, struct txnl_run_req *r,
		      struct txnl_result *res)
{
	uint32_t id = 0;
	int ret = txnl_run(t, r, &id);

	if (ret)
		return ret;
	ret = txnl_run_done(ev, r->name, id, RUN_MS, res);
	return ret < 0 ? ret : ret == 0 ? -ETIMEDOUT : 0;
}

static int make(struct txnl *t, const struct topo *tp, uint32_t port, struct txnet_info *info)
{
	struct txnet_req r = tp->req;

	r.name = "co0";
	r.port_model = port;
	return txnl_new(t, &r, info);
}

TEST_F_TIMEOUT(co, every_operation_on_every_topology, 1200)
{
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint32_t i, k, port;

	for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
			ASSERT_EQ(0, make(&self->t, &topos[i], port, &info)) TH_LOG("%s: %s",
				topos[i].label, self->t.msg);
			for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
				memset(&r, 0, sizeof(r));
				r.name = "co0";
				r.op = ops[k];
				r.has_root = has_root(ops[k]);
				r.root = 0;
				r.has_values_seed = combines(ops[k]);
				r.values_seed = 1000 + k;
				ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
					TH_LOG("%s op %u: %s", topos[i].label, ops[k], self->t.msg);
				EXPECT_EQ(TXNET_RUN_DONE, res.status)
					TH_LOG("%s op %u port %u: %s at tick %llu node %u",
					       topos[i].label, ops[k], port, res.error,
					       (unsigned long long)res.error_tick, res.error_node);
				EXPECT_EQ(1, res.verified);
				EXPECT_TRUE(res.has[TXNET_A_RES_BOUND]);
				EXPECT_GE(res.steps, res.lower_bound)
					TH_LOG("%s op %u port %u: %llu steps under the bound %llu (%s)",
					       topos[i].label, ops[k], port,
					       (unsigned long long)res.steps,
					       (unsigned long long)res.lower_bound, res.bound);
				EXPECT_GE(res.transmissions, res.min_transmissions);
				EXPECT_EQ(res.expected_deliveries, res.delivered);
				if (port == TXNET_PORT_ALL && topos[i].ecc0 &&
				    (ops[k] == TXNET_OP_BROADCAST || ops[k] == TXNET_OP_ACCUMULATE)) {
					EXPECT_EQ(topos[i].ecc0, res.steps) TH_LOG("%s op %u",
						topos[i].label, ops[k]);
					EXPECT_EQ(info.nodes - 1, res.transmissions);
				}
			}
			ASSERT_EQ(0, txnl_del(&self->t, "co0"));
		}
	}
}

/*
 * [Dimakopoulos98] on cartesian products,
 * its times computed here from its theorems:
 * - single-port, Algorithm A2: the sum over the dimensions of (n/k) T_k
 *   (Theorem 2, Corollary 2), T_k the status of a Cayley factor (section
 *   4.1): 1 on two nodes, k-1 on a complete graph, floor(k^2/4) on a ring;
 *   that is the average-status bound (3) (Theorem 3);
 * - all-port, Algorithm A3 on H^(2^m): k^(2^m - 1) T_H (Theorem 4,
 *   Corollary 3), T_H [Dimakopoulos94]'s ceil((k^2-1)/8) on a ring, ceil((k^2-1)/4)
 *   on a linear array, 1 on two nodes or a complete graph; that is the cut
 *   bound (4) where T_H is H's bisection bound exactly (Theorem 5).
 */
struct pcase {
	const char *label;
	struct txnet_req req;
	uint32_t port;
	const char *algo;
	bool optimal;		/* the bound is met (Theorems 3 and 5) */
};

static uint64_t a2_time(const struct txnet_req *r)
{
	uint32_t d = r->topo == TXNET_TOPO_HYPERCUBE ? r->size[0] : r->ndims, i;
	uint64_t n = 1, sum = 0, k, t;

	for (i = 0; i < d; i++)
		n *= r->topo == TXNET_TOPO_HYPERCUBE ? 2 : r->size[i];
	for (i = 0; i < d; i++) {
		k = r->topo == TXNET_TOPO_HYPERCUBE ? 2 : r->size[i];
		t = k == 2 ? 1 : r->topo == TXNET_TOPO_GHC ||
			(r->topo == TXNET_TOPO_PRODUCT && r->kind[i] == TXNET_DIM_COMPLETE) ?
			k - 1 : k * k / 4;
		sum += n / k * t;
	}
	return sum;
}

static uint64_t a3_time(const struct txnet_req *r)
{
	uint32_t d = r->topo == TXNET_TOPO_HYPERCUBE ? r->size[0] : r->ndims, i;
	uint64_t k = r->topo == TXNET_TOPO_HYPERCUBE ? 2 : r->size[0], t;

	t = k == 2 || r->topo == TXNET_TOPO_GHC ? 1 :
	    r->topo == TXNET_TOPO_MESH ? (k * k - 1 + 3) / 4 : (k * k - 1 + 7) / 8;
	for (i = 1; i < d; i++)
		t *= k;
	return t;
}

#define TOR(...)	{ .topo = TXNET_TOPO_TORUS, DIMS(__VA_ARGS__) }
#define MESH(...)	{ .topo = TXNET_TOPO_MESH, DIMS(__VA_ARGS__) }
#define CUBE(d)		{ .topo = TXNET_TOPO_HYPERCUBE, DIMS(d) }
#define GHC(...)	{ .topo = TXNET_TOPO_GHC, DIMS(__VA_ARGS__) }
#define S	TXNET_PORT_SINGLE
#define A	TXNET_PORT_ALL

static const struct pcase pcases[] = {
	{ "torus 3 3", TOR(3, 3), S, "a2", true }, { "torus 4 4", TOR(4, 4), S, "a2", true },
	{ "torus 5 7", TOR(5, 7), S, "a2", true }, { "torus 4 6", TOR(4, 6), S, "a2", true },
	{ "torus 8 8", TOR(8, 8), S, "a2", true }, { "torus 3 3 3 3", TOR(3, 3, 3, 3), S, "a2", true },
	{ "torus 5 5", TOR(5, 5), S, "a2", true }, { "torus 6 6", TOR(6, 6), S, "a2", true },
	{ "torus 7 7", TOR(7, 7), S, "a2", true },
	{ "hypercube 1", CUBE(1), S, "a2", true }, { "hypercube 2", CUBE(2), S, "a2", true },
	{ "hypercube 3", CUBE(3), S, "a2", true }, { "hypercube 4", CUBE(4), S, "a2", true },
	{ "hypercube 5", CUBE(5), S, "a2", true }, { "hypercube 6", CUBE(6), S, "a2", true },
	{ "hypercube 7", CUBE(7), S, "a2", true }, { "hypercube 8", CUBE(8), S, "a2", true },
	{ "ghc 3 4", GHC(3, 4), S, "a2", true },
	{ "product ring:5 complete:4", { .topo = TXNET_TOPO_PRODUCT, DIMS(5, 4),
	  .kind = { TXNET_DIM_RING, TXNET_DIM_COMPLETE } }, S, "a2", true },
	/* a linear dimension has no proven single-port time: verified, no expected_steps */
	{ "product ring:5 linear:3 complete:4", { .topo = TXNET_TOPO_PRODUCT, DIMS(5, 3, 4),
	  .kind = { TXNET_DIM_RING, TXNET_DIM_LINEAR, TXNET_DIM_COMPLETE } }, S, "a2", false },
	{ "mesh 4 4", MESH(4, 4), S, "a2", false },
	{ "torus 3 3", TOR(3, 3), A, "a3", true }, { "torus 4 4", TOR(4, 4), A, "a3", true },
	{ "torus 5 5", TOR(5, 5), A, "a3", true }, { "torus 6 6", TOR(6, 6), A, "a3", false },
	{ "torus 7 7", TOR(7, 7), A, "a3", true }, { "torus 8 8", TOR(8, 8), A, "a3", true },
	{ "mesh 2 2", MESH(2, 2), A, "a3", true }, { "mesh 3 3", MESH(3, 3), A, "a3", true },
	{ "mesh 4 4", MESH(4, 4), A, "a3", true }, { "mesh 5 5", MESH(5, 5), A, "a3", true },
	{ "mesh 6 6", MESH(6, 6), A, "a3", true }, { "mesh 7 7", MESH(7, 7), A, "a3", true },
	{ "mesh 8 8", MESH(8, 8), A, "a3", true },
	{ "torus 3 3 3 3", TOR(3, 3, 3, 3), A, "a3", true },
	{ "mesh 3 3 3 3", MESH(3, 3, 3, 3), A, "a3", true },
	{ "hypercube 2", CUBE(2), A, "a3", true }, { "hypercube 4", CUBE(4), A, "a3", true },
	{ "hypercube 8", CUBE(8), A, "a3", true }, { "ghc 4 4", GHC(4, 4), A, "a3", true },
};

TEST_F_TIMEOUT(co, products_a2_and_a3_take_their_times, 1200)
{
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	struct txnet_req q;
	uint64_t want;
	uint32_t i;

	for (i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++) {
		q = pcases[i].req;
		q.name = "co0";
		q.port_model = pcases[i].port;
		ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s: %s", pcases[i].label,
								   self->t.msg);
		memset(&r, 0, sizeof(r));
		r.name = "co0";
		r.op = TXNET_OP_TOTAL_EXCHANGE;
		/* auto runs [Bertsekas91]'s own schedule on a hypercube: ask for [Dimakopoulos98]'s */
		if (q.topo == TXNET_TOPO_HYPERCUBE) {
			r.has_algo = true;
			r.algo = pcases[i].port == S ? TXNET_ALGO_A2 : TXNET_ALGO_A3;
		}
		ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
			TH_LOG("%s: %s", pcases[i].label, self->t.msg);
		EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s: %s", pcases[i].label, res.error);
		EXPECT_EQ(1, res.verified);
		EXPECT_STREQ(pcases[i].algo, res.algo == TXNET_ALGO_A2 ? "a2" :
					      res.algo == TXNET_ALGO_A3 ? "a3" : "other")
			TH_LOG("%s", pcases[i].label);
		/* a2 and a3 hold packets in tables of their own: no queue of the engine's to report */
		EXPECT_FALSE(res.has[TXNET_A_RES_MAX_QUEUE] || res.has[TXNET_A_RES_MAX_QUEUE_NODE] ||
			     res.has[TXNET_A_RES_QUEUE_MAX]) TH_LOG("%s", pcases[i].label);
		if (pcases[i].port == S && !pcases[i].optimal) {
			EXPECT_FALSE(res.has[TXNET_A_RES_EXPECTED_STEPS]) TH_LOG("%s", pcases[i].label);
			EXPECT_LE(res.lower_bound, res.steps) TH_LOG("%s", pcases[i].label);
			ASSERT_EQ(0, txnl_del(&self->t, "co0"));
			continue;
		}
		want = pcases[i].port == S ? a2_time(&pcases[i].req) : a3_time(&pcases[i].req);
		EXPECT_EQ(want, res.steps) TH_LOG("%s", pcases[i].label);
		EXPECT_EQ(want, res.expected_steps) TH_LOG("%s", pcases[i].label);
		if (pcases[i].optimal) {
			EXPECT_EQ(res.lower_bound, res.steps) TH_LOG("%s: bound %s", pcases[i].label,
								     res.bound);
			/* the network's own figures (Theorem 1): the bound met is bound (3) or (4) */
			ASSERT_TRUE(info.has[TXNET_A_TOTAL_DISTANCE]);
			EXPECT_EQ(res.steps, pcases[i].port == S ? info.as_bound : info.cut_bound)
				TH_LOG("%s", pcases[i].label);
		} else {
			EXPECT_LT(res.lower_bound, res.steps) TH_LOG("%s", pcases[i].label);
		}
		ASSERT_EQ(0, txnl_del(&self->t, "co0"));
	}
}

#undef S
#undef A

/*
 * [Bertsekas91], multinode broadcast
 * and its dual the multinode accumulation on the d-cube, section 2: Table
 * 1, ceil((2^d-1)/d) ticks all-port (MLA) and 2^d-1 single-port (SLA);
 * Table 2, 2^d(2^d-1) transmissions.
 */
TEST_F_TIMEOUT(co, hypercube_multinode_broadcast_meets_tables_1_and_2, 1200)
{
	struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1 };
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint64_t n, want;
	uint32_t d, port, k;

	for (k = 0; k < 2 * 10 * 2; k++) {
		d = 1 + k / 2 % 10;
		port = TXNET_PORT_ALL + k % 2;
		q.size[0] = d;
		q.port_model = port;
		ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("d=%u: %s", d, self->t.msg);
		memset(&r, 0, sizeof(r));
		r.name = "co0";
		/* the accumulation is the dual: the same ticks and transmissions */
		r.op = k < 20 ? TXNET_OP_MULTINODE_BROADCAST : TXNET_OP_MULTINODE_ACCUMULATE;
		r.has_values_seed = r.op == TXNET_OP_MULTINODE_ACCUMULATE;
		r.values_seed = 77;
		ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
			TH_LOG("d=%u: %s", d, self->t.msg);
		EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("d=%u: %s", d, res.error);
		EXPECT_EQ(1, res.verified);
		EXPECT_EQ(TXNET_ALGO_HYPERCUBE, res.algo);
		n = 1ULL << d;
		want = port == TXNET_PORT_SINGLE ? n - 1 : (n - 1 + d - 1) / d;
		EXPECT_EQ(want, res.steps) TH_LOG("d=%u port %u", d, port);
		EXPECT_EQ(want, res.expected_steps) TH_LOG("d=%u port %u", d, port);
		EXPECT_EQ(want, res.lower_bound) TH_LOG("d=%u port %u: %s", d, port, res.bound);
		EXPECT_EQ(n * (n - 1), res.transmissions);
		EXPECT_EQ(n * (n - 1), res.min_transmissions);
		ASSERT_EQ(0, txnl_del(&self->t, "co0"));
	}
}

/*
 * [Bertsekas91] Table 1 (time) and Table 2 (transmissions) for @op on the
 * d-cube, from the paper's formulas: broadcast and accumulation d and
 * 2^d-1 (section 2); scatter and gather ceil((2^d-1)/d) all-port, 2^d-1
 * single-port, d 2^(d-1) (section 3); total exchange 2^(d-1) all-port,
 * d 2^(d-1) single-port, d 2^(2d-1) (section 4).
 */
static void cube_table(uint32_t d, uint32_t op, bool single, uint64_t *steps, uint64_t *tx)
{
	uint64_t n = 1ULL << d;

	switch (op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_ACCUMULATE:
		*steps = d;
		*tx = n - 1;
		break;
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
		*steps = single ? n - 1 : (n - 1 + d - 1) / d;
		*tx = d * n / 2;
		break;
	default:	/* total exchange */
		*steps = single ? d * n / 2 : n / 2;
		*tx = d * n * n / 2;
	}
}

/*
 * [Bertsekas91], sections 2 to 4: broadcast, accumulation, scatter, gather and
 * total exchange on the d-cube for d = 1..10, both port models, from a
 * root that is not 0 where there is one.  algo auto runs the paper's
 * schedule; the run verifies (every packet delivered once; the
 * accumulation's sum, checked here too against the values sent); its
 * ticks are Table 1's and its transmissions Table 2's, which are also
 * its expected steps and the fewest transmissions.
 */
TEST_F_TIMEOUT(co, hypercube_every_operation_meets_tables_1_and_2, 2400)
{
	static const uint32_t cops[] = {
		TXNET_OP_BROADCAST, TXNET_OP_ACCUMULATE, TXNET_OP_SCATTER, TXNET_OP_GATHER,
		TXNET_OP_TOTAL_EXCHANGE,
	};
	struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_HYPERCUBE, .ndims = 1 };
	static int64_t v[256];
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint64_t n, steps, tx;
	uint32_t d, port, i, j;
	int64_t sum;

	for (d = 1; d <= 10; d++) {
		n = 1ULL << d;
		for (j = 0, sum = 0; j < n && j < 256; j++)
			sum += v[j] = (int64_t)(j * 37 % 101) - 50;
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
			q.size[0] = d;
			q.port_model = port;
			ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("d=%u: %s", d, self->t.msg);
			for (i = 0; i < sizeof(cops) / sizeof(cops[0]); i++) {
				memset(&r, 0, sizeof(r));
				r.name = "co0";
				r.op = cops[i];
				r.has_root = has_root(r.op);
				r.root = (uint32_t)(n * 5 / 8);
				/*
				 * values of our own where the reply carries them back (the
				 * first 256 processors), a seed past that: the engine checks
				 * the sum either way
				 */
				if (r.op == TXNET_OP_ACCUMULATE && n <= 256) {
					r.values = v;
					r.nvalues = (uint32_t)n;
				} else if (r.op == TXNET_OP_ACCUMULATE) {
					r.has_values_seed = true;
					r.values_seed = d;
				}
				ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
					TH_LOG("op %u d=%u: %s", r.op, d, self->t.msg);
				EXPECT_EQ(TXNET_RUN_DONE, res.status)
					TH_LOG("op %u d=%u port %u: %s", r.op, d, port, res.error);
				EXPECT_EQ(1, res.verified);
				EXPECT_EQ(TXNET_ALGO_HYPERCUBE, res.algo) TH_LOG("op %u", r.op);
				cube_table(d, r.op, port == TXNET_PORT_SINGLE, &steps, &tx);
				EXPECT_EQ(steps, res.steps)
					TH_LOG("op %u d=%u port %u", r.op, d, port);
				EXPECT_EQ(steps, res.expected_steps)
					TH_LOG("op %u d=%u port %u", r.op, d, port);
				EXPECT_EQ(tx, res.transmissions)
					TH_LOG("op %u d=%u port %u", r.op, d, port);
				EXPECT_EQ(tx, res.min_transmissions)
					TH_LOG("op %u d=%u port %u", r.op, d, port);
				EXPECT_LE(res.lower_bound, res.steps);
				if (r.values) {
					ASSERT_EQ(n, res.nvalues);
					EXPECT_EQ(sum, res.values[r.root]) TH_LOG("d=%u", d);
				}
			}
			ASSERT_EQ(0, txnl_del(&self->t, "co0"));
		}
	}
}

/*
 * [Massini03], section 4: the
 * complete exchange by the N configurations M XOR x of a Latin square,
 * pipelined one wave a tick, on all five wirings for N = 2..256.  One tick
 * a stage: the last of N waves arrives at N + log2 N - 1 (the paper's
 * N + log N - 1 pipeline), one tick sooner where a member of the set
 * realizes the identity, whose wave holds only messages to oneself and
 * is left out: with every switch straight (M^{0,0}) omega and flip map i
 * to i after n shuffles or unshuffles of n bits, the other wirings do not
 * (and on N = 2 every wiring does).  N + log2 N - 2 is the lower bound:
 * a processor hears N - 1 packets, one a tick, the first after log2 N.
 * Every packet crosses log2 N stages: N (N-1) log2 N transmissions.
 * From the other sets of the canonical partition too (config l = 1 and
 * the last index below 2^64): the identity has one configuration (a
 * banyan network realizes each permutation one way), all straight, in
 * S^0 alone, so there every wiring takes N + log2 N - 1.
 */
TEST_F_TIMEOUT(co, min_complete_exchange_by_latin_squares, 1200)
{
	static const uint32_t wiring[] = {
		TXNET_TOPO_BUTTERFLY, TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE,
		TXNET_TOPO_RBASELINE, TXNET_TOPO_FLIP,
	};
	struct txnet_req q = { .name = "co0", .ndims = 1 };
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint64_t N, n, want, bits, ls[3];
	uint32_t w, k;

	for (w = 0; w < sizeof(wiring) / sizeof(wiring[0]); w++) {
		for (N = 2, n = 1; N <= 256; N *= 2, n++) {
			bits = n * (N / 2 - 1);
			ls[0] = 0;
			ls[1] = 1;
			ls[2] = bits < 64 ? (1ULL << bits) - 1 : ~0ULL;
			q.topo = wiring[w];
			q.size[0] = (uint32_t)N;
			ASSERT_EQ(0, txnl_new(&self->t, &q, &info))
				TH_LOG("wiring %u N=%llu: %s", wiring[w], (unsigned long long)N,
				       self->t.msg);
			for (k = 0; k < 3; k++) {
				if (k && bits == 0)
					break;	/* N = 2: one set */
				memset(&r, 0, sizeof(r));
				r.name = "co0";
				r.op = TXNET_OP_TOTAL_EXCHANGE;
				r.has_config = k > 0;
				r.config = ls[k];
				ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
					TH_LOG("%s", self->t.msg);
				EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
				EXPECT_EQ(1, res.verified);
				EXPECT_EQ(TXNET_ALGO_LATIN, res.algo);
				EXPECT_EQ(ls[k], res.config);
				want = N + n - 1 - (!ls[k] && (N == 2 || wiring[w] == TXNET_TOPO_OMEGA ||
								 wiring[w] == TXNET_TOPO_FLIP));
				EXPECT_EQ(want, res.steps)
					TH_LOG("wiring %u N=%llu l=%llu", wiring[w],
					       (unsigned long long)N, (unsigned long long)ls[k]);
				EXPECT_EQ(want, res.expected_steps);
				EXPECT_EQ(N * (N - 1) * n, res.transmissions);
				/* the n-1 bound: N-1 sends of one's own, the last log2 N from home */
				EXPECT_EQ(N + n - 2, res.lower_bound);
			}
			ASSERT_EQ(0, txnl_del(&self->t, "co0"));
		}
	}
}

/*
 * [Massini03], section 3: one
 * permutation through a MIN, routed when a configuration realizes it and
 * reported blocked, with where, when none does.
 *
 * - Example 2's tables list the permutations P^18 and P^235 of the
 *   butterfly of 8 (input tags per output) and the configurations realizing
 *   them: each is routed in log2 8 = 3 ticks, and the configuration found is
 *   M^{l,x} (config l, x the column).
 * - Flipping every switch of one stage flips one bit of every output, so
 *   the permutations i -> i XOR c are all realizable or none is: all on
 *   omega and flip, where the identity is (section 3's remark), none on
 *   butterfly, baseline and reverse baseline, where it is not.
 */
TEST_F_TIMEOUT(co, min_permutations_routed_or_blocked, 1200)
{
	static const char * const p18[8] = {
		"02465713", "20647531", "46021357", "64203175",
		"13574602", "31756420", "57130246", "75312064",
	};
	static const char * const p235[8] = {
		"06257134", "60521743", "52603471", "25064317",
		"17346025", "71430652", "43712560", "34175206",
	};
	static const uint32_t wiring[] = {
		TXNET_TOPO_BUTTERFLY, TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE,
		TXNET_TOPO_RBASELINE, TXNET_TOPO_FLIP,
	};
	static const bool xor_realizable[] = { false, true, false, false, true };
	struct txnet_req q = { .name = "co0", .ndims = 1 };
	uint32_t dests[256], w, N, n, x, o, c, k, cs[4];
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;

	q.topo = TXNET_TOPO_BUTTERFLY;
	q.size[0] = 8;
	ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
	for (k = 0; k < 16; k++) {
		x = k % 8;
		for (o = 0; o < 8; o++)
			dests[(k < 8 ? p18 : p235)[x][o] - '0'] = o;
		r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION,
					   .dests = dests, .ndests = 8 };
		ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
		EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
		EXPECT_EQ(1, res.verified);
		EXPECT_EQ(TXNET_ALGO_SELF_ROUTING, res.algo);
		EXPECT_EQ(3, res.steps);
		EXPECT_EQ(3, res.expected_steps);
		EXPECT_EQ(3, res.lower_bound);
		EXPECT_EQ(8 * 3, res.transmissions);
		EXPECT_EQ(8, res.delivered);
		EXPECT_EQ(k < 8 ? 18 : 235, res.config);
		EXPECT_TRUE(res.has[TXNET_A_RES_CONFIG_X]);
		EXPECT_EQ(x, res.config_x);
		EXPECT_FALSE(res.has[TXNET_A_RES_BLOCK_STAGE]);
	}
	ASSERT_EQ(0, txnl_del(&self->t, "co0"));

	for (w = 0; w < sizeof(wiring) / sizeof(wiring[0]); w++) {
		for (N = 4, n = 2; N <= 256; N *= 2, n++) {
			q.topo = wiring[w];
			q.size[0] = N;
			ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
			cs[0] = 0;
			cs[1] = 1;
			cs[2] = N - 1;
			cs[3] = (N / 2) | 1;
			for (k = 0; k < 4; k++) {
				c = cs[k];
				for (o = 0; o < N; o++)
					dests[o] = o ^ c;
				r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION,
							   .dests = dests, .ndests = N };
				ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
					TH_LOG("%s", self->t.msg);
				EXPECT_EQ(N, res.expected_deliveries);
				if (xor_realizable[w]) {
					EXPECT_EQ(TXNET_RUN_DONE, res.status)
						TH_LOG("wiring %u N=%u c=%u: %s", wiring[w], N, c,
						       res.error);
					EXPECT_EQ(1, res.verified);
					EXPECT_EQ(n, res.steps);
					EXPECT_EQ((uint64_t)N * n, res.transmissions);
					continue;
				}
				EXPECT_EQ(TXNET_RUN_BLOCKED, res.status)
					TH_LOG("wiring %u N=%u c=%u", wiring[w], N, c);
				EXPECT_EQ(0, res.verified);
				EXPECT_FALSE(res.has[TXNET_A_RES_STEPS]);
				EXPECT_TRUE(res.has[TXNET_A_RES_BLOCK_INPUTS]);
				EXPECT_LT(res.block_stage, n);
				EXPECT_LT(res.block_switch, N / 2);
				EXPECT_LT(res.block_inputs[0], N);
				EXPECT_LT(res.block_inputs[1], N);
				EXPECT_NE(res.block_inputs[0], res.block_inputs[1]);
				/* every message crosses stage k in tick k + 1 */
				EXPECT_EQ(res.block_stage + 1, res.error_tick);
				EXPECT_EQ(res.error_tick, res.ticks);
				EXPECT_EQ(0, strncmp(res.error, "blocked: ", 9)) TH_LOG("%s", res.error);
				EXPECT_LT(res.delivered, N);
			}
			ASSERT_EQ(0, txnl_del(&self->t, "co0"));
		}
	}
}

/*
 * A permutation on a direct network: the general schedule, verified; a
 * message to its own sender is not sent; the bound is the farthest
 * message's distance, here on the torus 4 4 (two rings of 4).
 */
TEST_F(co, permutation_on_a_torus)
{
	struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_TORUS, .ndims = 2,
			       .size = { 4, 4 } };
	uint32_t dests[16], i, far, sent, d0, d1;
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;

	ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
	/* i -> 5i + 3 mod 16: odd multiplier, a permutation; 3 -> 2, 15 -> 14, ... */
	for (i = 0, far = 0, sent = 0; i < 16; i++) {
		dests[i] = (5 * i + 3) % 16;
		d0 = (dests[i] / 4 + 4 - i / 4) % 4;
		d1 = (dests[i] % 4 + 4 - i % 4) % 4;
		d0 = d0 > 2 ? 4 - d0 : d0;
		d1 = d1 > 2 ? 4 - d1 : d1;
		if (d0 + d1 > far)
			far = d0 + d1;
		sent += dests[i] != i;
	}
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = dests,
				   .ndests = 16, .has_payload = true, .payload = 64 };
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	EXPECT_EQ(1, res.verified);
	EXPECT_EQ(TXNET_ALGO_SHORTEST_PATH, res.algo);
	EXPECT_EQ(far, res.lower_bound);
	EXPECT_STREQ("distance", res.bound);
	EXPECT_LE(far, res.steps);
	EXPECT_EQ(sent, res.delivered);
	EXPECT_EQ(sent, res.expected_deliveries);
	EXPECT_FALSE(res.has[TXNET_A_RES_CONFIG]);
}

/* Destinations that are not a permutation of this network's processors, refused naming dests. */
TEST_F(co, bad_permutation)
{
	uint32_t d[17], i, id;
	struct txnet_info info;
	struct txnl_run_req r;
	struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_OMEGA, .ndims = 1,
			       .size = { 16 } };

	ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
	for (i = 0; i < 17; i++)
		d[i] = (i + 1) % 16;
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "dests:")) TH_LOG("%s", self->t.msg);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = d,
				   .ndests = 15 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "one destination per processor")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_dests, self->t.off);

	d[3] = d[4];
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = d,
				   .ndests = 16 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "not a permutation")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_dests, self->t.off);

	d[3] = 16;
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "not a processor")) TH_LOG("%s", self->t.msg);
	d[3] = 4;

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE, .dests = d,
				   .ndests = 16 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "dests:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_dests, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = d,
				   .ndests = 16, .has_algo = true,
				   .algo = TXNET_ALGO_SHORTEST_PATH };
	EXPECT_EQ(-EOPNOTSUPP, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "algo:")) TH_LOG("%s", self->t.msg);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = d,
				   .ndests = 16, .has_config = true };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "config:")) TH_LOG("%s", self->t.msg);

	/* nothing was left running */
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PERMUTATION, .dests = d,
				   .ndests = 16 };
	EXPECT_EQ(0, txnl_run(&self->t, &r, &id)) TH_LOG("%s", self->t.msg);
}

/*
 * [Massini03], section 3.1: the exchange runs from any initial
 * configuration M, given as its matrix.  Example 2's S^235 of the
 * butterfly of 8 has M^{235,3} = 011 000 110 000: the run names that set
 * and member (Theorem 2) and takes 8 + 3 - 1 = 10 ticks (butterfly:
 * no member realizes the identity).  Rows that are not a configuration of
 * this network are refused naming config_rows.
 */
TEST_F(co, min_latin_from_a_matrix)
{
	static const uint32_t m235_3[4] = { 3, 0, 6, 0 }, bad[4] = { 3, 0, 8, 0 };
	struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_BUTTERFLY, .ndims = 1,
			       .size = { 8 } };
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint32_t id;

	ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE,
				   .config_rows = m235_3, .nrows = 4 };
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	EXPECT_EQ(1, res.verified);
	EXPECT_EQ(TXNET_ALGO_LATIN, res.algo);
	EXPECT_EQ(235, res.config);
	EXPECT_EQ(3, res.config_x);
	EXPECT_EQ(10, res.steps);
	EXPECT_EQ(10, res.expected_steps);

	r.nrows = 3;
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "config_rows:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_config_rows, self->t.off);
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE,
				   .config_rows = bad, .nrows = 4 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "config_rows:")) TH_LOG("%s", self->t.msg);
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE,
				   .config_rows = m235_3, .nrows = 4, .has_config = true };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "not both")) TH_LOG("%s", self->t.msg);
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE,
				   .config_rows = m235_3, .nrows = 4, .has_algo = true,
				   .algo = TXNET_ALGO_SHORTEST_PATH };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "config_rows:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_config_rows, self->t.off);
}

/*
 * [Wei07] on biswapped networks,
 * all-port, for bases linear, ring, mesh, complete and hypercube of several
 * sizes, D the base's diameter (a linear array of k: k-1, a ring k/2, a
 * mesh the sum of its sides less one each, a complete graph 1, the d-cube
 * d):
 * - broadcast from <0,0,0> and from the last node (Table 1): 2 D + 2 ticks,
 *   the network's diameter (Theorem 1), which is also its lower bound;
 * - data sum (Table 3) on the values given: 2 D + 2 ticks in the timing
 *   model (its Step 5 adds two values at each node and costs no tick),
 *   every node's total checked here against the sum of the values sent;
 * - prefix sum (Table 2) on the same values: 4 D + 3 ticks (two group
 *   prefix sums and two group broadcasts of D each, three swaps: Table
 *   4's count), node p's result checked against the sum of values 0..p.
 */
TEST_F_TIMEOUT(co, biswapped_broadcast_and_sums_take_their_times, 1200)
{
	static const struct {
		uint32_t base, ndims, size[2], D;
	} cases[] = {
		{ TXNET_TOPO_LINEAR, 1, { 2 }, 1 }, { TXNET_TOPO_LINEAR, 1, { 5 }, 4 },
		{ TXNET_TOPO_RING, 1, { 3 }, 1 }, { TXNET_TOPO_RING, 1, { 4 }, 2 },
		{ TXNET_TOPO_RING, 1, { 7 }, 3 },
		{ TXNET_TOPO_MESH, 2, { 2, 2 }, 2 }, { TXNET_TOPO_MESH, 2, { 3, 3 }, 4 },
		{ TXNET_TOPO_MESH, 2, { 2, 4 }, 4 },
		{ TXNET_TOPO_COMPLETE, 1, { 3 }, 1 }, { TXNET_TOPO_COMPLETE, 1, { 6 }, 1 },
		{ TXNET_TOPO_HYPERCUBE, 1, { 2 }, 2 }, { TXNET_TOPO_HYPERCUBE, 1, { 3 }, 3 },
	};
	static int64_t v[2 * 36 * 36];
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r;
	uint32_t i, k, N, n;
	int64_t sum;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct txnet_req q = { .name = "co0", .topo = TXNET_TOPO_BISWAPPED,
				       .base = cases[k].base, .ndims = cases[k].ndims,
				       .size = { cases[k].size[0], cases[k].size[1] },
				       .port_model = TXNET_PORT_ALL };

		ASSERT_EQ(0, txnl_new(&self->t, &q, &info)) TH_LOG("%s", self->t.msg);
		N = info.nodes;
		n = cases[k].base == TXNET_TOPO_HYPERCUBE ? 1U << cases[k].size[0] :
		    cases[k].size[0] * (cases[k].ndims > 1 ? cases[k].size[1] : 1);
		ASSERT_EQ(2 * n * n, N);
		for (i = 0; i < 2; i++) {
			r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_BROADCAST,
						   .has_root = true, .root = i ? N - 1 : 0 };
			ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res))
				TH_LOG("%s", self->t.msg);
			EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
			EXPECT_EQ(1, res.verified);
			EXPECT_EQ(TXNET_ALGO_BISWAPPED, res.algo);
			EXPECT_EQ(2 * cases[k].D + 2, res.steps) TH_LOG("case %u root %u", k, r.root);
			EXPECT_EQ(2 * cases[k].D + 2, res.expected_steps);
			EXPECT_EQ(2 * cases[k].D + 2, res.lower_bound);
		}
		for (i = 0, sum = 0; i < N; i++) {
			v[i] = (int64_t)(i * 37 % 101) - 50;
			sum += v[i];
		}
		r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_DATA_SUM, .values = v,
					   .nvalues = N };
		ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
		EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
		EXPECT_EQ(1, res.verified);
		EXPECT_EQ(TXNET_ALGO_BISWAPPED, res.algo);
		EXPECT_EQ(2 * cases[k].D + 2, res.steps) TH_LOG("case %u", k);
		EXPECT_EQ(2 * cases[k].D + 2, res.expected_steps);
		ASSERT_EQ(N < 256 ? N : 256, res.nvalues);
		for (i = 0; i < res.nvalues; i++)
			EXPECT_EQ(sum, res.values[i]) TH_LOG("case %u node %u", k, i);
		r.op = TXNET_OP_PREFIX_SUM;
		ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
		EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
		EXPECT_EQ(1, res.verified);
		EXPECT_EQ(TXNET_ALGO_BISWAPPED, res.algo);
		EXPECT_EQ(4 * cases[k].D + 3, res.steps) TH_LOG("case %u", k);
		EXPECT_EQ(4 * cases[k].D + 3, res.expected_steps);
		ASSERT_EQ(N < 256 ? N : 256, res.nvalues);
		for (i = 0, sum = 0; i < res.nvalues; i++) {
			sum += v[i];
			EXPECT_EQ(sum, res.values[i]) TH_LOG("case %u node %u", k, i);
		}
		ASSERT_EQ(0, txnl_del(&self->t, "co0"));
	}
}

/* The sums each combining operation defines, from the values sent. */
TEST_F(co, values_come_back_summed)
{
	const struct topo *mesh = &topos[4];	/* mesh 3 4: 12 processors */
	int64_t v[12] = { 5, 1, 4, -7, 100, 0, 3, 3, 9, -2, 11, 6 }, mna[144], sum = 0, pre = 0;
	struct txnl_result res;
	struct txnet_info info;
	struct txnl_run_req r = { .name = "co0" };
	uint32_t i, j;

	ASSERT_EQ(0, make(&self->t, mesh, TXNET_PORT_ALL, &info));
	ASSERT_EQ(12, info.nodes);
	for (i = 0; i < 12; i++)
		sum += v[i];

	r.op = TXNET_OP_ACCUMULATE;
	r.has_root = true;
	r.root = 3;
	r.values = v;
	r.nvalues = 12;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	EXPECT_EQ(3, res.root);
	ASSERT_EQ(12, res.nvalues);
	EXPECT_EQ(sum, res.values[3]);
	EXPECT_FALSE(res.has[TXNET_A_RES_VALUES_SEED]);

	r.op = TXNET_OP_DATA_SUM;
	r.has_root = false;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	for (i = 0; i < 12; i++)
		EXPECT_EQ(sum, res.values[i]) TH_LOG("node %u", i);

	r.op = TXNET_OP_PREFIX_SUM;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	for (i = 0; i < 12; i++) {
		pre += v[i];
		EXPECT_EQ(pre, res.values[i]) TH_LOG("node %u", i);
	}

	/* node i's value for j at i*n+j; node j ends with the column sum */
	for (i = 0; i < 144; i++)
		mna[i] = (int64_t)i * 7 - 500;
	r.op = TXNET_OP_MULTINODE_ACCUMULATE;
	r.values = mna;
	r.nvalues = 144;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	for (j = 0; j < 12; j++) {
		sum = 0;
		for (i = 0; i < 12; i++)
			sum += mna[i * 12 + j];
		EXPECT_EQ(sum, res.values[j]) TH_LOG("node %u", j);
	}

	/* random values are reported with their seed */
	r.values = NULL;
	r.has_values_seed = true;
	r.values_seed = 42;
	r.op = TXNET_OP_DATA_SUM;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	EXPECT_EQ(42, res.values_seed);
	for (i = 1; i < 12; i++)
		EXPECT_EQ(res.values[0], res.values[i]);
}

/* Each refusal names its field, and the extack points at the attribute. */
TEST_F(co, bad_collective_input)
{
	int64_t v[12] = { 0 };
	struct txnet_info info;
	struct txnl_run_req r;
	uint32_t id;

	ASSERT_EQ(0, make(&self->t, &topos[4], TXNET_PORT_ALL, &info));

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_BROADCAST, .has_root = true,
				   .root = 12 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "root:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_root, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE, .has_root = true };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "root:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_root, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_DATA_SUM, .values = v,
				   .nvalues = 11 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "values:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_values, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_MULTINODE_ACCUMULATE,
				   .values = v, .nvalues = 12 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "nodes*nodes")) TH_LOG("%s", self->t.msg);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_BROADCAST, .values = v,
				   .nvalues = 12 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "values:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_values, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_DATA_SUM, .values = v,
				   .nvalues = 12, .has_values_seed = true };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "values_seed:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_values_seed, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_PREFIX_SUM, .has_payload = true,
				   .payload = 8 };
	EXPECT_EQ(-EINVAL, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "payload:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_payload, self->t.off);

	/* past the last operation: the policy's range, pointing at TXNET_A_OP */
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_MAX + 1 };
	EXPECT_EQ(-ERANGE, txnl_run(&self->t, &r, &id));
	EXPECT_EQ(r.off_op, self->t.off);

	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_SCATTER, .has_algo = true,
				   .algo = TXNET_ALGO_FURTHEST_FIRST };
	EXPECT_EQ(-EOPNOTSUPP, txnl_run(&self->t, &r, &id));
	EXPECT_NE(NULL, strstr(self->t.msg, "algo:")) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(r.off_algo, self->t.off);

	/* nothing was left running */
	r = (struct txnl_run_req){ .name = "co0", .op = TXNET_OP_BROADCAST };
	EXPECT_EQ(0, txnl_run(&self->t, &r, &id)) TH_LOG("%s", self->t.msg);
}

/* A total exchange on a ring of 16 needs ceil((16^2-1)/8) = 32 ticks ([Dimakopoulos94], bound (2)). */
TEST_F(co, tick_limit_stops_a_run)
{
	struct txnet_req nr = { .name = "co0", .topo = TXNET_TOPO_RING, DIMS(16) };
	struct txnl_result res;
	struct txnl_run_req r = { .name = "co0", .op = TXNET_OP_TOTAL_EXCHANGE,
				  .has_max_ticks = true, .max_ticks = 10 };

	ASSERT_EQ(0, txnl_new(&self->t, &nr, NULL));
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(TXNET_RUN_FAILED, res.status);
	EXPECT_NE(NULL, strstr(res.error, "tick limit")) TH_LOG("%s", res.error);
	EXPECT_EQ(10, res.error_tick);
	EXPECT_EQ(10, res.max_ticks);
	EXPECT_FALSE(res.has[TXNET_A_RES_STEPS]);

	r.max_ticks = 32;
	ASSERT_EQ(0, collective(&self->t, &self->ev, &r, &res)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s", res.error);
	EXPECT_EQ(32, res.steps);
}

TEST_HARNESS_MAIN
