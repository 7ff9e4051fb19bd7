// SPDX-License-Identifier: GPL-2.0
/*
 * Replay (sched_replay.c, script.c): every run make table makes, saved
 * as the engine accepted it and replayed, gives the same steps and
 * transmissions, verifies, and saves again as the very same moves; and a
 * script is an adversary like any schedule: each kind of forgery, written
 * as moves, fails its run with the rule it broke, never verifies.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"
#include "core/bounds.h"
#include "core/latin.h"
#include "core/script.h"
#include "../bench/table_nets.h"

struct outcome {
	int ret;		/* 0 verified, or what failed */
	u64 steps, transmissions;
	const char *rule;
	u64 tick;
	u32 move, node;
};

/* Run @s (with @script, for replay) on @g to the end, logging into @log when given. */
static void run(const struct txn_graph *g, const struct txn_sched *s, struct txn_run_params p,
		const struct txn_script *script, struct txn_log *log, struct outcome *o)
{
	struct txn_engine e;
	const char *why;
	u64 at;

	memset(o, 0, sizeof(*o));
	p.script = script;
	if (script) {
		o->ret = txn_script_check(&p, script, &why, &at);
		if (o->ret) {
			o->rule = why;
			o->move = (u32)at;
			return;
		}
	}
	o->ret = txn_engine_init(&e, g, s, &p);
	if (o->ret)
		return;
	if (log)
		txn_engine_save(&e, log);
	while ((o->ret = txn_engine_tick(&e)) == 0)
		;
	if (o->ret == 1)
		o->ret = txn_engine_verify(&e);
	if (!o->ret && script && e.tick != txn_script_ticks(script)) {
		o->ret = -EPROTO;
		e.v.rule = TXN_SCRIPT_PAST_DONE;
		e.failed = true;
	}
	o->steps = e.tick;
	o->transmissions = e.transmissions;
	o->rule = e.failed ? e.v.rule : NULL;
	o->tick = e.v.tick;
	o->move = e.v.move;
	o->node = e.v.node;
	txn_engine_free(&e);
}

/*
 * A permutation's: reversal, or on a MIN one wave of [Massini03]'s
 * Latin square, which each of them routes unblocked.
 */
static struct txn_run_params params(u32 op, u32 port, const struct txn_spec *spec,
				    const struct txn_graph *g, u32 *dests)
{
	u32 n = g ? g->procs : 0, rows[64];
	struct txn_run_params p = {
		.op = op, .port_model = port, .seed = 1, .values_seed = 1,
		.payload = txn_op_combines(op) ? 0 : 8,
	};
	u32 i;

	if (op == TXNET_OP_PERMUTATION) {
		if (g->min_topo && txn_latin_config(n, 0, rows))
			return p;
		for (i = 0; i < n; i++)
			dests[i] = g->min_topo ? txn_latin_route(spec->topo, (u32)__builtin_ctz(n), rows, 1, i) : n - 1 - i;
		p.dests = dests;
		p.ndests = n;
	}
	return p;
}

/*
 * Save, replay, compare: @nt's run of @op under @port by @algo.  1 when it
 * round-tripped, 0 when no schedule runs it there, -1 on a difference.
 */
static int round_trip(struct __test_metadata *_metadata, const struct net *nt, u32 op, u32 port,
		      u32 algo)
{
	struct txn_spec spec = nt->spec;
	struct txn_log log, again;
	struct outcome first, replay;
	struct txn_script script;
	const struct txn_sched *s;
	struct txn_run_params p;
	struct txn_counts c;
	struct txn_graph g;
	struct txn_bound b;
	const char *why;
	u32 dests[512];
	int ok = -1;

	if (table_build(&spec, &c, &g))
		return -1;
	s = txn_sched_pick(&spec, op, algo, port, &why);
	if (!s || g.procs > 512) {
		txn_graph_free(&g);
		return 0;
	}
	p = params(op, port, &spec, &g, dests);
	txn_log_init(&log, op, NULL);
	txn_log_init(&again, op, NULL);
	run(&g, s, p, NULL, &log, &first);
	EXPECT_EQ(0, first.ret) TH_LOG("%s %s port %u: %s", nt->label, txn_op_name(op), port,
				      first.rule);
	EXPECT_EQ(0, log.err);
	script.steps = log.steps;
	script.nsteps = log.nsteps;
	run(&g, &txn_sched_replay, p, &script, &again, &replay);
	EXPECT_EQ(0, replay.ret) TH_LOG("%s %s port %u, %s replayed: %s at tick %llu move %u",
				       nt->label, txn_op_name(op), port, s->name, replay.rule,
				       (unsigned long long)replay.tick, replay.move);
	EXPECT_EQ(first.steps, replay.steps) TH_LOG("%s %s", nt->label, txn_op_name(op));
	/* a replay that verifies meets the proven lower bound (bounds.h), as every run must */
	if (!txn_bound(&spec, &g, op, port, 0, &b) && !replay.ret)
		EXPECT_LE(b.lower, replay.steps) TH_LOG("%s %s", nt->label, txn_op_name(op));
	EXPECT_EQ(first.transmissions, replay.transmissions)
		TH_LOG("%s %s port %u", nt->label, txn_op_name(op), port);
	/* what the engine accepted from the replay is what it accepted the first time */
	EXPECT_EQ(log.nsteps, again.nsteps) TH_LOG("%s %s", nt->label, txn_op_name(op));
	if (log.nsteps && log.nsteps == again.nsteps)
		EXPECT_EQ(0, memcmp(log.steps, again.steps, log.nsteps * sizeof(*log.steps)))
			TH_LOG("%s %s port %u: saved again, the moves differ", nt->label,
			       txn_op_name(op), port);
	if (!first.ret && !replay.ret && first.steps == replay.steps &&
	    first.transmissions == replay.transmissions)
		ok = 1;
	txn_log_free(&log);
	txn_log_free(&again);
	txn_graph_free(&g);
	return ok;
}

/* Every run of make table, every operation a script names, both port models. */
TEST(every_table_run_round_trips)
{
	u32 i, op, port, done = 0, wanted = 0;
	int r;

	for (i = 0; i < ARRAY_SIZE(nets); i++)
		for (op = 1; op <= TXNET_OP_MAX; op++)
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				if (!txn_script_saves(op))
					continue;
				r = round_trip(_metadata, &nets[i], op, port, TXNET_ALGO_AUTO);
				wanted += r != 0;
				done += r == 1;
			}
	for (i = 0; i < ARRAY_SIZE(open_nets); i++) {
		r = round_trip(_metadata, &open_nets[i], TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL,
			       TXNET_ALGO_AUTO);
		wanted += r != 0;
		done += r == 1;
		r = round_trip(_metadata, &open_nets[i], TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL,
			       TXNET_ALGO_A2);
		wanted += r != 0;
		done += r == 1;
	}
	TH_LOG("%u runs saved and replayed", done);
	EXPECT_EQ(wanted, done);
	/* every network runs every operation under auto but a permutation on some */
	EXPECT_LE(ARRAY_SIZE(nets) * 2 * 7, wanted);
}

#define T(k)			{ TXN_STEP_TICK, (k), TXN_NONE, TXN_NONE }
#define M(from, to, a, b)	{ (from), (to), (a), (b) }
#define C(from, to, a)		{ (from), (to), (a), TXN_NONE }

/* @steps replayed on @topo: the outcome. */
static void replay_on(const char *topo, u32 op, u32 port, const struct txn_step *steps, u64 n,
		      struct outcome *o)
{
	struct txn_script script = { .steps = steps, .nsteps = n };
	struct txn_run_params p = params(op, port, NULL, NULL, NULL);
	struct tg t;

	if (tg_make(&t, topo)) {
		o->ret = -1;
		return;
	}
	run(&t.g, &txn_sched_replay, p, &script, NULL, o);
	tg_free(&t);
}

#define REPLAY(topo, op, port, o, ...) do {					\
	static const struct txn_step steps_[] = { __VA_ARGS__ };		\
	replay_on(topo, op, port, steps_, ARRAY_SIZE(steps_), &(o));		\
} while (0)

/* The run failed with a rule containing @words, at move @mv of tick @tk. */
#define EXPECT_REFUSED(o, words, tk, mv) do {					\
	TH_LOG("ret %d, rule \"%s\" at tick %llu move %u", (o).ret,		\
	       (o).rule ?: "(none)", (unsigned long long)(o).tick, (o).move);	\
	EXPECT_NE(0, (o).ret);							\
	ASSERT_NE(NULL, (o).rule);						\
	EXPECT_NE(NULL, strstr((o).rule, words));				\
	EXPECT_EQ((u64)(tk), (o).tick);						\
	EXPECT_EQ((u32)(mv), (o).move);						\
} while (0)

/*
 * Written by hand: on complete 4 every processor has a cable to every
 * other, so a total exchange takes one all-port tick, each of the 12
 * messages over the cable between its ends.
 */
TEST(hand_written_complete_exchange)
{
	struct outcome o;

	REPLAY("complete 4", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1),
	       M(0, 1, 0, 1), M(0, 2, 0, 2), M(0, 3, 0, 3), M(1, 0, 1, 0), M(1, 2, 1, 2),
	       M(1, 3, 1, 3), M(2, 0, 2, 0), M(2, 1, 2, 1), M(2, 3, 2, 3), M(3, 0, 3, 0),
	       M(3, 1, 3, 1), M(3, 2, 3, 2));
	EXPECT_EQ(0, o.ret) TH_LOG("%s", o.rule);
	EXPECT_EQ(1, o.steps);
	EXPECT_EQ(12, o.transmissions);
}

/*
 * On linear 3 (0 - 1 - 2): a broadcast from 0 in two ticks, the middle
 * forwarding the copy it received; idle ticks between are free: a mark
 * may skip them.
 */
TEST(hand_written_broadcast_with_idle_ticks)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_BROADCAST, TXNET_PORT_ALL, o, T(1), C(0, 1, 0), T(3),
	       C(1, 2, 0));
	EXPECT_EQ(0, o.ret) TH_LOG("%s", o.rule);
	EXPECT_EQ(4, o.steps);
	EXPECT_EQ(2, o.transmissions);
}

TEST(forged_teleport)
{
	struct outcome o;

	/* message 1 -> 2 starts at 1: it cannot leave 0 */
	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 1),
	       M(0, 1, 1, 2));
	EXPECT_REFUSED(o, "not", 1, 1);
}

TEST(forged_link_twice)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 1),
	       M(0, 1, 0, 2));
	EXPECT_REFUSED(o, "two packets", 1, 1);
}

TEST(forged_cut_through)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 2),
	       M(1, 2, 0, 2));
	EXPECT_REFUSED(o, "", 1, 1);
}

TEST(forged_single_port)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_SINGLE, o, T(1), M(1, 0, 1, 0),
	       M(1, 2, 1, 2));
	EXPECT_REFUSED(o, "single-port", 1, 1);
}

TEST(forged_short_schedule)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 1),
	       M(1, 0, 1, 0));
	EXPECT_REFUSED(o, "ended before", 2, 0);
}

TEST(forged_broadcast_twice)
{
	struct outcome o;

	REPLAY("ring 4", TXNET_OP_BROADCAST, TXNET_PORT_ALL, o, T(1), C(0, 1, 0), C(0, 3, 0),
	       T(1), C(1, 2, 0), C(3, 2, 0));
	EXPECT_REFUSED(o, "delivered twice", 2, 1);
}

/* Done at tick 1, the file says more: its time is not the run's, and it is refused. */
TEST(forged_moves_after_done)
{
	struct outcome o;

	REPLAY("ring 3", TXNET_OP_BROADCAST, TXNET_PORT_ALL, o, T(1), C(0, 1, 0), C(0, 2, 0),
	       T(1), C(1, 2, 0));
	EXPECT_NE(0, o.ret);
	EXPECT_NE(NULL, strstr(o.rule, "after every delivery"));
}

TEST(forged_copy_never_received)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_BROADCAST, TXNET_PORT_ALL, o, T(1), C(0, 1, 0), C(1, 2, 0));
	EXPECT_REFUSED(o, "never received", 1, 1);
}

TEST(forged_result_twice)
{
	struct outcome o;

	/* 1 sends its partial toward 0, then again what it no longer holds */
	REPLAY("linear 3", TXNET_OP_ACCUMULATE, TXNET_PORT_ALL, o, T(1), C(1, 0, 0), T(1),
	       C(1, 0, 0));
	EXPECT_REFUSED(o, "holds nothing", 2, 0);
}

/* The shape of a script, before it runs; where the step is, after. */
TEST(forged_script_shape)
{
	struct txn_step far[258];
	struct outcome o;
	u32 i;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, M(0, 1, 0, 1));
	EXPECT_EQ(-EINVAL, o.ret);
	EXPECT_NE(NULL, strstr(o.rule, "first step"));
	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), T(0));
	EXPECT_EQ(-EINVAL, o.ret);
	EXPECT_NE(NULL, strstr(o.rule, "advance"));
	EXPECT_EQ(1, o.move);
	/* 2^40 is 256 marks of 2^32 - 2 ticks, and a little more */
	for (i = 0; i < ARRAY_SIZE(far); i++)
		far[i] = (struct txn_step)T(i ? ~0U - 1 : 1);
	replay_on("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, far, ARRAY_SIZE(far), &o);
	EXPECT_EQ(-E2BIG, o.ret);
	EXPECT_NE(NULL, strstr(o.rule, "2^40"));
	REPLAY("linear 3", TXNET_OP_PREFIX_SUM, TXNET_PORT_ALL, o, T(1));
	EXPECT_EQ(-EOPNOTSUPP, o.ret);
}

/* What a move names is checked as it is replayed: the tick and the move are the refusal's. */
TEST(forged_moves_named_wrong)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 1), T(2),
	       M(0, 2, 0, 2));
	EXPECT_REFUSED(o, "no cable", 3, 0);
	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 1, 1));
	EXPECT_REFUSED(o, "no such message", 1, 0);
	REPLAY("linear 3", TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, o, T(1), M(0, 1, 0, 1),
	       M(0, 7, 0, 1));
	EXPECT_REFUSED(o, "no such vertex", 1, 1);
	REPLAY("linear 3", TXNET_OP_BROADCAST, TXNET_PORT_ALL, o, T(1), C(0, 1, 1));
	EXPECT_REFUSED(o, "root's alone", 1, 0);
	REPLAY("linear 3", TXNET_OP_MULTINODE_ACCUMULATE, TXNET_PORT_ALL, o, T(1), C(0, 1, 3));
	EXPECT_REFUSED(o, "no such result", 1, 0);
}

/* A data sum's move: a copy of the partial of processors lo .. hi (mod n). */
#define S(from, to, lo, hi)	{ (from), (to), (lo), (hi) }

/*
 * Recursive doubling on the 3-cube: in round k every processor sends its
 * partial (of the 2^k processors that agree with it above bit k) across
 * dimension k and joins the one it receives: every processor holds the sum
 * after log2 8 = 3 ticks, the diameter, with 8 moves a tick (Thakur,
 * Rabenseifner and Gropp, "Optimization of collective communication
 * operations in MPICH", IJHPCA 2005).
 */
TEST(hand_written_recursive_doubling_data_sum)
{
	static struct txn_step steps[3 * (1 + 8)];
	struct txn_script script = { .steps = steps };
	struct txn_run_params p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL, NULL, NULL, NULL);
	struct outcome o;
	struct tg t;
	u32 k, v, size, lo;

	for (k = 0; k < 3; k++) {
		size = 1u << k;
		steps[script.nsteps++] = (struct txn_step)T(1);
		for (v = 0; v < 8; v++) {
			lo = v & ~(size - 1);
			steps[script.nsteps++] = (struct txn_step)S(v, v ^ size, lo, lo + size - 1);
		}
	}
	ASSERT_EQ(0, tg_make(&t, "hypercube 3"));
	run(&t.g, &txn_sched_replay, p, &script, NULL, &o);
	tg_free(&t);
	EXPECT_EQ(0, o.ret) TH_LOG("%s at tick %llu move %u", o.rule, (unsigned long long)o.tick,
				   o.move);
	EXPECT_EQ(3, o.steps);
	EXPECT_EQ(3 * 8, o.transmissions);
}

/*
 * On linear 3: partials gathered at the middle and the sum sent back
 * out, each end's own partial giving way to the sum, which holds it: 2
 * ticks, the eccentricity of the middle.
 */
TEST(hand_written_data_sum_there_and_back)
{
	struct outcome o;

	REPLAY("linear 3", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(0, 1, 0, 0),
	       S(2, 1, 2, 2), T(1), S(1, 0, 0, 2), S(1, 2, 0, 2));
	EXPECT_EQ(0, o.ret) TH_LOG("%s", o.rule);
	EXPECT_EQ(2, o.steps);
	EXPECT_EQ(4, o.transmissions);
}

TEST(forged_data_sums)
{
	struct outcome o;

	/* 1 holds its own partial, of 1 alone, not of 0 .. 1 */
	REPLAY("linear 3", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(1, 0, 0, 1));
	EXPECT_REFUSED(o, "does not hold", 1, 0);
	/*
	 * 1 gathers every partial by tick 2 (0 and 1 swap theirs, then 1 and
	 * 2): at tick 3 what it holds is of 0 .. 2, and it no longer has the
	 * partial of 0 .. 1 it names
	 */
	REPLAY("linear 3", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(0, 1, 0, 0),
	       S(1, 0, 1, 1), T(1), S(1, 2, 0, 1), S(2, 1, 2, 2), T(1), S(1, 0, 0, 2),
	       S(1, 2, 0, 2), S(1, 0, 0, 1));
	EXPECT_REFUSED(o, "does not hold", 3, 2);
	/*
	 * on ring 4, 0 holds 0 .. 1 when 1 .. 3 reaches it: 1 would count
	 * twice.  An arrival is no move of the tick's: the refusal names the
	 * processor and no move.
	 */
	REPLAY("ring 4", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(1, 0, 1, 1),
	       S(3, 2, 3, 3), T(1), S(2, 1, 2, 3), T(1), S(1, 0, 1, 3));
	EXPECT_REFUSED(o, "neither joins it into one interval", 3, TXN_NONE);
	EXPECT_EQ(0, o.node);
	/* a sum that never reaches 2: the file ends with a result short */
	REPLAY("linear 3", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(0, 1, 0, 0),
	       S(2, 1, 2, 2), T(1), S(1, 0, 0, 2));
	EXPECT_REFUSED(o, "ended before every delivery", 3, 0);
	/* 0 sends a partial of 2, which it never received */
	REPLAY("linear 3", TXNET_OP_DATA_SUM, TXNET_PORT_ALL, o, T(1), S(0, 1, 2, 2));
	EXPECT_REFUSED(o, "does not hold", 1, 0);
}

TEST_HARNESS_MAIN
