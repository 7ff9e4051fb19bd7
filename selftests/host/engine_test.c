// SPDX-License-Identifier: GPL-2.0
/*
 * The tick engine and the [Dimakopoulos94] schedules, at host speed: every step
 * count asserted here is a formula from the paper, cited beside it.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"
#include "core/bounds.h"
#include "core/engine_impl.h"

struct outcome {
	int ret;			/* 0: verified; else -EPROTO */
	u64 steps, transmissions, delivered, lower_bound;
	bool has_expected;
	u64 expected;
	const char *rule;
	u64 err_tick;
};

static int run(const char *topo, u32 algo, u32 port, u32 fault, struct outcome *o)
{
	const struct txn_sched *s;
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port,
		.payload = 16, .seed = 0x5eed, .fault = fault,
	};
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	struct tg t;
	int ret;

	memset(o, 0, sizeof(*o));
	if (tg_make(&t, topo))
		return -1;
	s = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, algo, port, &why);
	if (!s) {
		tg_free(&t);
		return -2;
	}
	if (txn_engine_init(&e, &t.g, s, &p)) {
		tg_free(&t);
		return -3;
	}
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (ret == 1)
		ret = txn_engine_verify(&e);
	o->ret = ret;
	o->steps = e.tick;
	o->transmissions = e.transmissions;
	o->delivered = e.delivered;
	txn_bound(&t.spec, &t.g, TXNET_OP_TOTAL_EXCHANGE, port, 0, &b);
	o->lower_bound = b.lower;
	o->has_expected = txn_expected_steps(s, &t.spec, &p, &o->expected);
	o->rule = e.failed ? e.v.rule : NULL;
	o->err_tick = e.v.tick;
	txn_engine_free(&e);
	tg_free(&t);
	return 0;
}

static u64 ceil_div(u64 a, u64 b)
{
	return (a + b - 1) / b;
}

static void spec_of(char *buf, size_t len, const char *topo, u32 n)
{
	snprintf(buf, len, "%s %u", topo, n);
}

/* [Dimakopoulos94], bound (1) and Theorem 1: furthest-first takes ceil((n^2-1)/4). */
TEST(linear_furthest_first_is_optimal)
{
	struct outcome o;
	char spec[32];
	u64 n;

	for (n = 2; n <= 40; n++) {
		spec_of(spec, sizeof(spec), "linear", n);
		ASSERT_EQ(0, run(spec, TXNET_ALGO_FURTHEST_FIRST, TXNET_PORT_ALL, 0, &o));
		ASSERT_EQ(0, o.ret) TH_LOG("n=%llu rule %s", (unsigned long long)n, o.rule);
		EXPECT_EQ(ceil_div(n * n - 1, 4), o.steps) TH_LOG("n=%llu", (unsigned long long)n);
		EXPECT_EQ(ceil_div(n * n - 1, 4), o.lower_bound);
		EXPECT_EQ(n * (n - 1), o.delivered);
		/* every packet on its one path: sum of |i-j| over ordered pairs = n(n^2-1)/3 */
		EXPECT_EQ(n * (n * n - 1) / 3, o.transmissions);
	}
}

static const struct txn_sched *counted;
static u64 key_calls;

static u32 counting_key(const struct txn_engine *e, u32 link, u32 dst)
{
	key_calls++;
	return counted->sq_key(e, link, dst);
}

/*
 * sched_linear.c: furthest-first's arrivals come furthest first, so its
 * sorted queues never walk: a push at the source asks the key of the new
 * packet only (the lanes keep their heads' and tails' keys; a relay's key
 * is onward()'s), a pop that of the new head at most.  A walk would ask
 * one more for every packet it passes.  Both port models, n up to 64,
 * still [Dimakopoulos94]'s time
 * (single-port: one direction a tick, its "slowdown factor of two",
 * section 2).
 */
TEST(furthest_first_only_appends)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 1 };
	struct txn_sched s;
	struct txn_engine e;
	const char *why;
	struct tg t;
	char spec[32];
	u64 n, pushes;
	int ret;

	for (p.port_model = TXNET_PORT_ALL; p.port_model <= TXNET_PORT_SINGLE; p.port_model++) {
		for (n = 3; n <= 64; n++) {
			spec_of(spec, sizeof(spec), "linear", n);
			ASSERT_EQ(NULL, tg_make(&t, spec));
			counted = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_FURTHEST_FIRST,
						 p.port_model, &why);
			ASSERT_NE(NULL, counted);
			s = *counted;
			s.sq_key = counting_key;
			key_calls = 0;
			ASSERT_EQ(0, txn_engine_init(&e, &t.g, &s, &p));
			while ((ret = txn_engine_tick(&e)) == 0)
				;
			ASSERT_EQ(1, ret);
			ASSERT_EQ(0, txn_engine_verify(&e));
			/* one a push at the source, one a pop */
			pushes = n * (n - 1);
			EXPECT_GE(pushes + e.transmissions, key_calls)
				TH_LOG("n=%llu port %u: %llu key calls for %llu hops", n,
				       p.port_model, (unsigned long long)key_calls,
				       (unsigned long long)e.transmissions);
			EXPECT_EQ((p.port_model == TXNET_PORT_ALL ? 1 : 2) * ceil_div(n * n - 1, 4),
				  e.tick) TH_LOG("n=%llu", n);
			txn_engine_free(&e);
			tg_free(&t);
		}
	}
}

/* [Dimakopoulos94], section 2: n consecutive scatterings take 3 T_opt - floor(n/2). */
TEST(linear_scatterings_take_three_times)
{
	struct outcome o;
	char spec[32];
	u64 n;

	for (n = 2; n <= 40; n++) {
		spec_of(spec, sizeof(spec), "linear", n);
		ASSERT_EQ(0, run(spec, TXNET_ALGO_SCATTERINGS, TXNET_PORT_ALL, 0, &o));
		ASSERT_EQ(0, o.ret);
		EXPECT_EQ(3 * ceil_div(n * n - 1, 4) - n / 2, o.steps) TH_LOG("n=%llu", (unsigned long long)n);
	}
}

/* [Dimakopoulos94], bound (2), Theorems 2 (odd n) and 3 (even n): ceil((n^2-1)/8). */
TEST(ring_message_shift_is_optimal)
{
	struct outcome o;
	char spec[32];
	u64 n;

	for (n = 2; n <= 40; n++) {
		spec_of(spec, sizeof(spec), "ring", n);
		ASSERT_EQ(0, run(spec, TXNET_ALGO_AUTO, TXNET_PORT_ALL, 0, &o));
		ASSERT_EQ(0, o.ret) TH_LOG("n=%llu rule %s", (unsigned long long)n, o.rule);
		EXPECT_EQ(ceil_div(n * n - 1, 8), o.steps) TH_LOG("n=%llu", (unsigned long long)n);
		EXPECT_EQ(n * (n - 1), o.delivered);
		/* shortest ways round: each node's distances sum to floor(n^2/4) */
		EXPECT_EQ(n * (n * n / 4), o.transmissions);
	}
}

/*
 * [Dimakopoulos94], section 4.2: n/2 clockwise from every node is suboptimal for
 * even n.  Derived bound: each node's n/2 clockwise packets travel
 * 1+...+n/2, so the n clockwise links carry n(n+2)/8 ticks of work each.
 */
TEST(ring_plain_rule_loses_for_even_n)
{
	struct outcome o;
	char spec[32];
	u64 n;

	for (n = 4; n <= 40; n += 2) {
		spec_of(spec, sizeof(spec), "ring", n);
		ASSERT_EQ(0, run(spec, TXNET_ALGO_MESSAGE_SHIFT_PLAIN, TXNET_PORT_ALL, 0, &o));
		ASSERT_EQ(0, o.ret);
		EXPECT_GE(o.steps, n * (n + 2) / 8);
		EXPECT_GT(o.steps, ceil_div(n * n - 1, 8)) TH_LOG("n=%llu", (unsigned long long)n);
		EXPECT_FALSE(o.has_expected);
	}
	/* odd n: node invariant, so optimal (Theorem 2) */
	for (n = 3; n <= 39; n += 2) {
		spec_of(spec, sizeof(spec), "ring", n);
		ASSERT_EQ(0, run(spec, TXNET_ALGO_MESSAGE_SHIFT_PLAIN, TXNET_PORT_ALL, 0, &o));
		EXPECT_EQ(ceil_div(n * n - 1, 8), o.steps);
	}
}

/* Single-port: the engine enforces the port rule, so a verified run obeyed it. */
TEST(single_port_runs_verify)
{
	static const char * const topos[] = { "linear", "ring" };
	struct outcome o;
	char spec[32];
	unsigned int i;
	u64 n;

	for (i = 0; i < 2; i++) {
		for (n = 2; n <= 40; n++) {
			spec_of(spec, sizeof(spec), topos[i], n);
			ASSERT_EQ(0, run(spec, TXNET_ALGO_AUTO, TXNET_PORT_SINGLE, 0, &o));
			ASSERT_EQ(0, o.ret) TH_LOG("%s rule %s", spec, o.rule);
			EXPECT_GE(o.steps, o.lower_bound);
			EXPECT_FALSE(o.has_expected);
		}
	}
}

/* Packets queued on link @l: its priority or sorted queue, or its FIFO (walked). */
static u64 link_queue(const struct txn_engine *e, u32 l)
{
	u64 n = 0;
	u32 p;

	if (e->pq_len)
		return e->pq_len[l];
	for (p = e->ledger->q.qhead[l]; p != TXN_NONE; p = e->ledger->pk[p].next)
		n++;
	return n;
}

/* Whether qlen[] is what the node's links hold; *peak[] raised to it. */
static bool nodes_counted(const struct txn_engine *e, u64 *peak)
{
	const struct txn_graph *g = e->g;
	u32 v, l;
	u64 sum;

	for (v = 0; v < g->nodes; v++) {
		sum = 0;
		for (l = g->first[v]; l < g->first[v + 1]; l++)
			sum += link_queue(e, l);
		if (sum != e->qlen[v])
			return false;
		if (sum > peak[v])
			peak[v] = sum;
	}
	return true;
}

/*
 * A node's queue (qlen[]) is what its links hold after every tick, and its
 * largest (qmax[], the result's max-queue) the largest of those: every
 * schedule here pops a tick's packets before it queues its arrivals, so
 * no peak falls between two ticks.  The general schedule counts its
 * arrivals as the moves are made (engine_tick.c, land()), the rest as pushed.
 */
TEST(node_queues_are_counted)
{
	static const struct {
		const char *topo;
		u32 algo, port;
	} runs[] = {
		{ "torus 4 4", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL },
		{ "torus 4 4", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_SINGLE },
		{ "mesh 3 5", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL },
		{ "hypercube 4", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL },
		{ "ring 9", TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_SINGLE },
		{ "ring 9", TXNET_ALGO_MESSAGE_SHIFT, TXNET_PORT_ALL },
		{ "linear 8", TXNET_ALGO_FURTHEST_FIRST, TXNET_PORT_ALL },
	};
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 1 };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	u64 *peak, most;
	struct tg t;
	u32 r, v;
	int ret;

	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		ASSERT_EQ(NULL, tg_make(&t, runs[r].topo));
		p.port_model = runs[r].port;
		s = txn_sched_pick(&t.spec, p.op, runs[r].algo, p.port_model, &why);
		ASSERT_NE(NULL, s) TH_LOG("%s: %s", runs[r].topo, why);
		ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
		peak = calloc(t.g.nodes, sizeof(*peak));
		ASSERT_NE(NULL, peak);
		ASSERT_TRUE(nodes_counted(&e, peak)) TH_LOG("%s %s at the start",
							     runs[r].topo, s->name);
		while ((ret = txn_engine_tick(&e)) == 0)
			ASSERT_TRUE(nodes_counted(&e, peak))
				TH_LOG("%s %s port %u tick %llu", runs[r].topo, s->name,
				       p.port_model, (unsigned long long)e.tick);
		ASSERT_EQ(1, ret);
		ASSERT_EQ(0, txn_engine_verify(&e));
		most = 0;
		for (v = 0; v < t.g.nodes; v++) {
			EXPECT_EQ(peak[v], e.qmax[v]) TH_LOG("%s %s port %u node %u",
							     runs[r].topo, s->name,
							     p.port_model, v);
			most = peak[v] > most ? peak[v] : most;
		}
		/* a total exchange starts with n - 1 packets at every node */
		EXPECT_LE(t.g.procs - 1, most) TH_LOG("%s", runs[r].topo);
		free(peak);
		txn_engine_free(&e);
		tg_free(&t);
	}
}

/* Each deliberate rule break is caught, at tick 1 or at the end, by name. */
TEST(faults_are_caught)
{
	static const struct {
		u32 fault, port;
		const char *rule;
	} cases[] = {
		{ TXN_FAULT_LINK_TWICE, TXNET_PORT_ALL, "link carried two packets in one tick" },
		{ TXN_FAULT_SINGLE_PORT, TXNET_PORT_SINGLE, "single-port: node sent two packets in one tick" },
		/* single-port: a processor's link's two packets are its two sendings (engine.rst) */
		{ TXN_FAULT_LINK_TWICE, TXNET_PORT_SINGLE, "single-port: node sent two packets in one tick" },
		{ TXN_FAULT_CUT_THROUGH, TXNET_PORT_ALL, "store-and-forward: packet moved twice in one tick" },
		{ TXN_FAULT_TELEPORT, TXNET_PORT_ALL, "packet is not at the node the link leaves" },
		{ TXN_FAULT_DROP, TXNET_PORT_ALL,
		  "no progress: nothing was delivered for too many ticks (a livelock or a lost packet)" },
		{ TXN_FAULT_CORRUPT, TXNET_PORT_ALL, "payload corrupted" },
	};
	struct outcome o;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, run("ring 9", TXNET_ALGO_AUTO, cases[i].port, cases[i].fault, &o));
		EXPECT_EQ(-EPROTO, o.ret) TH_LOG("fault %u not caught", cases[i].fault);
		ASSERT_NE(NULL, o.rule);
		EXPECT_STREQ(cases[i].rule, o.rule);
	}
}

/* The [Dimakopoulos94] schedules run where the paper puts them; elsewhere auto is the general one. */
TEST(furthest_first_and_message_shift_only_on_their_shapes)
{
	struct outcome o;

	EXPECT_EQ(0, run("torus 4 4", TXNET_ALGO_AUTO, TXNET_PORT_ALL, 0, &o));
	EXPECT_EQ(0, o.ret);
	EXPECT_EQ(-2, run("torus 4 4", TXNET_ALGO_FURTHEST_FIRST, TXNET_PORT_ALL, 0, &o));
	EXPECT_EQ(-2, run("ring 8", TXNET_ALGO_FURTHEST_FIRST, TXNET_PORT_ALL, 0, &o));
	EXPECT_EQ(-2, run("linear 8", TXNET_ALGO_MESSAGE_SHIFT, TXNET_PORT_ALL, 0, &o));
}

/*
 * An array past the allocator's limit is refused before anything is
 * allocated (the kernel's kvmalloc() would WARN), and the byte count the
 * shell charges says so too: ring 1000 with 4096-byte payloads needs
 * 999000 * 4096 bytes in one array.
 */
TEST(oversized_arrays_are_refused_before_allocating)
{
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = TXNET_PORT_ALL, .payload = 4096,
	};
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	struct tg t;

	ASSERT_EQ(0, tg_make(&t, "ring 1000"));
	s = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_AUTO, TXNET_PORT_ALL, &why);
	ASSERT_NE(NULL, s);
	EXPECT_LT(TXN_ARRAY_MAX, txn_engine_bytes(&t.g, s, &p));
	EXPECT_EQ(-E2BIG, txn_engine_init(&e, &t.g, s, &p));
	EXPECT_EQ(NULL, e.ledger);
	p.payload = 8;
	ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
	txn_engine_free(&e);
	tg_free(&t);
}

/*
 * Arrays of 2 MiB or more come on huge-page boundaries (advised), as the
 * kernel's kvmalloc() maps them (VM_ALLOW_HUGE_VMAP), so that the host
 * bench pays no TLB miss a packet the kernel does not: ring 1000's total
 * exchange holds 999000 packet records in one array.
 */
TEST(large_arrays_are_huge_page_aligned)
{
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = TXNET_PORT_ALL,
	};
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	struct tg t;
	u8 *z;
	size_t i;

	z = txn_zalloc_array(3, TXN_HUGE_BYTES / 2);
	ASSERT_NE(NULL, z);
	EXPECT_EQ(0, (uintptr_t)z % TXN_HUGE_BYTES);
	for (i = 0; i < 3 * TXN_HUGE_BYTES / 2 && !z[i]; i++)
		;
	EXPECT_EQ(3 * TXN_HUGE_BYTES / 2, i);	/* zeroed, as kvcalloc() */
	txn_free(z);
	ASSERT_EQ(0, tg_make(&t, "ring 1000"));
	s = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_AUTO, TXNET_PORT_ALL, &why);
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
	EXPECT_LE(TXN_HUGE_BYTES, (size_t)e.npkts * sizeof(*e.ledger->pk));
	EXPECT_EQ(0, (uintptr_t)e.ledger->pk % TXN_HUGE_BYTES);
	txn_engine_free(&e);
	tg_free(&t);
}

/* Every fault has a name and back: debugfs takes them by name. */
TEST(fault_names_round_trip)
{
	u32 f;

	for (f = 0; f <= TXN_FAULT_MAX; f++)
		EXPECT_EQ((int)f, txn_fault_from_name(txn_fault_name(f)));
	EXPECT_EQ(NULL, txn_fault_name(TXN_FAULT_MAX + 1));
	EXPECT_EQ(-EINVAL, txn_fault_from_name("nonsense"));
}

/*
 * A multinode accumulation's slot i n + r goes to r, found by txn_mod()'s
 * multiply (engine_impl.h), not a division: it must be the remainder for
 * every divisor a run can have (processors < 2^24) and every slot, the
 * extremes included.  A mod by the high half of the product alone, or a
 * multiplier rounded down, is wrong for some of these.
 */
TEST(slot_mod_is_the_remainder)
{
	u32 d, k, a, x = 12345, bad = 0;
	u64 mul;

	for (d = 1; d < (1U << 24); d += d < (1U << 17) ? 1 : 997) {
		const u32 edge[] = { 0, 1, d - 1, d, d + 1, 0xffffffffU, 0xfffffff0U,
				     (u32)((u64)d * d - 1) };

		mul = ~0ULL / d + 1;
		for (k = 0; k < ARRAY_SIZE(edge) + 16; k++) {
			x = x * 1664525U + 1013904223U;
			a = k < ARRAY_SIZE(edge) ? edge[k] : x;
			if (txn_mod(a, mul, d) != a % d && bad++ < 5)
				TH_LOG("%u mod %u: %u, not %u", a, d, txn_mod(a, mul, d), a % d);
		}
	}
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
