// SPDX-License-Identifier: GPL-2.0
/*
 * Adversarial schedulers: verification a schedule cannot fool, since a
 * step count is only worth what the check behind it is.
 *
 * Each adversary is an honest schedule that breaks exactly one rule of the
 * engine's contract (kmod/core/engine.h, Documentation/txnet-engine.rst)
 * once, in the tick adv.at, and records what it did (tick, node, packet).
 * Each test asserts the run fails with -EPROTO, with the rule's exact
 * message (copied from kmod/core/engine*.c), in the tick and at the node
 * where the break happened, worked out from what the adversary did; and
 * the same schedules run honestly verify, so every test can fail.
 *
 * The honest schedules are deliberately small:
 * - hop: unicast operations and accumulations on a linear array or a ring:
 *   every packet takes a shortest way, one FIFO per link, every link sends
 *   its head (single-port: every node its first head whose receiver is
 *   free);
 * - flood: data and prefix sums on a linear array: every value runs along
 *   the line both ways (prefix sum: rightwards only) and every processor
 *   it passes folds a copy; a value that reaches the end is folded there;
 * - echo: a data sum on two processors: 0 sends 1 a copy of its value, 1
 *   merges it into its own and sends the total back;
 * - the project's own message-shift ([Dimakopoulos94]) and general schedules,
 *   where a real schedule makes the point.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"

/* The rules, exactly as the engine words them. */
#define R_LINK_TWICE	"link carried two packets in one tick"
#define R_SENT_TWICE	"single-port: node sent two packets in one tick"
#define R_CUT_THROUGH	"store-and-forward: packet moved twice in one tick"
#define R_NOT_THERE	"packet is not at the node the link leaves"
#define R_MOVED_GONE	"packet moved after it was consumed, merged or folded"
#define R_USED_GONE	"packet used after it was consumed, merged or folded"
#define R_COUNTERS	"the scheduler rewrote the engine's counters"
#define R_PARAMS	"the scheduler rewrote the run's parameters"
#define R_MADE_UP	"no such packet: the scheduler made it up"
#define R_TWICE_SELF	"a contribution counted twice: packet merged with itself"
#define R_TWICE_MERGE	"a contribution counted twice: more contributions than processors"
#define R_TWICE_FOLD	"a contribution counted twice in a result"
#define R_WRONG_SET	"a result differs from its inputs: wrong contributions or values"
#define R_MISSING	"a contribution is missing from a result"
#define R_NO_COPIES	"copy in an operation that forbids copies"
#define R_NO_MERGES	"merge in an operation that does not combine"
#define R_AFRESH_OP	"a message copied afresh in an operation that is not a broadcast"
#define R_AFRESH_NEVER	"a message copied afresh at a processor that never received it"
#define R_AFRESH_MADE_UP "no such processor or message: the scheduler made it up"
#define R_DROP_OP	"a packet dropped in an operation that neither broadcasts nor copies"
#define R_SWITCH_COPY	"a switch cannot copy"
#define R_SWITCH_MERGE	"a switch cannot combine"
#define R_SWITCH_FOLD	"a switch has no result to fold into"
#define R_OTHER_RESULT	"merged packets belong to different results"
#define R_OUTSIDE	"a contribution from a processor outside the result's set"
#define R_NO_PROGRESS	"no progress: nothing was delivered for too many ticks (a livelock or a lost packet)"
#define R_TICK_LIMIT	"tick limit: the run reached max_ticks before it was done"

/* The tick being chosen, or whose arrivals are being handed over. */
#define NOW(e)		((e)->tick + 1)

static struct {
	const struct txn_sched *inner;	/* the honest schedule an adversary wraps */
	u64 at;				/* the tick in which it breaks its rule */
	u32 variant;			/* which form of the break */
	u32 echo;			/* which echo (ECHO_*) */
	u64 wait;			/* idle ticks before the schedule starts sending */
	u32 mute;			/* a packet never sent */
	u32 victim;			/* a packet bounced for ever */
	u32 node;			/* a processor singled out */
	/* what the adversary did */
	bool did;
	u64 did_tick;
	u32 did_node, did_pkt;
	/* what it saw: the last tick in which something was delivered */
	u64 seen, last_delivery;
} adv;

/* The adversary breaks its rule now, at @node, with @pkt. */
static void did(const struct txn_engine *e, u32 node, u32 pkt)
{
	adv.did = true;
	adv.did_tick = NOW(e);
	adv.did_node = node;
	adv.did_pkt = pkt;
}

static bool breaking(const struct txn_engine *e)
{
	return !adv.did && NOW(e) == adv.at;
}

/* The wrapped schedule's choice, after adv.wait idle ticks (idle ticks are legal). */
static void inner_choose(struct txn_engine *e)
{
	if (e->delivered > adv.seen) {
		adv.seen = e->delivered;
		adv.last_delivery = e->tick;
	}
	if (e->tick >= adv.wait)
		adv.inner->choose(e);
}

/* @inner with an adversary's choose and arrive (NULL: the honest ones). */
static struct txn_sched arm(const struct txn_sched *inner, void (*choose)(struct txn_engine *),
			    void (*arrive)(struct txn_engine *, u32, u32), u64 at, u32 variant)
{
	struct txn_sched s = *inner;

	memset(&adv, 0, sizeof(adv));
	adv.inner = inner;
	adv.at = at;
	adv.variant = variant;
	adv.mute = TXN_NONE;
	adv.victim = TXN_NONE;
	adv.node = TXN_NONE;
	s.name = "adversary";
	s.choose = choose ? choose : inner_choose;
	if (arrive)
		s.arrive = arrive;
	return s;
}

/* Whether a move this tick uses @link / ends at @v. */
static bool link_used(const struct txn_engine *e, u32 link)
{
	u32 i;

	for (i = 0; i < e->nmoves; i++)
		if (e->moves[i].link == link)
			return true;
	return false;
}

static bool receiving(const struct txn_engine *e, u32 v)
{
	u32 i;

	for (i = 0; i < e->nmoves; i++)
		if (e->g->dst[e->moves[i].link] == v)
			return true;
	return false;
}

/*
 * hop keeps FIFOs; hop_on and hop_all priority queues, one key (the
 * engine's tick of onward() is theirs): what a link holds, sends next and takes, either way.
 */
static void q_put(struct txn_engine *e, u32 link, u32 pkt)
{
	if (e->pq_keys)
		txn_pq_push(e, link, 0, pkt);
	else
		txn_q_push(e, link, pkt);
}

static u32 q_head(const struct txn_engine *e, u32 link)
{
	return txn_queue_head(e, link);
}

static u32 q_take(struct txn_engine *e, u32 link)
{
	return e->pq_keys ? txn_pq_pop_max(e, link) : txn_q_pop(e, link);
}

/* The first packet still waiting in a queue after this tick's choice, and its link. */
static u32 waiting(const struct txn_engine *e, u32 *link)
{
	u32 l;

	for (l = 0; l < e->g->links; l++) {
		if (q_head(e, l) != TXN_NONE) {
			*link = l;
			return q_head(e, l);
		}
	}
	return TXN_NONE;
}

/* The first packet alive at a processor past slot @after (TXN_NONE: from slot 0). */
static u32 alive(const struct txn_engine *e, u32 after)
{
	u32 pkt;

	for (pkt = after + 1; pkt < e->npkts; pkt++)
		if (txn_pkt_loc(e, pkt) < e->n)
			return pkt;
	return TXN_NONE;
}

/* ---------------------------------------------------------------- hop */

/* The link out of @v on a shortest way to @d on a linear array or a ring. */
static u32 toward(const struct txn_engine *e, u32 v, u32 d)
{
	u32 n = e->n, ahead = (d + n - v) % n;
	bool ring = e->g->links == 2 * n && n > 2;

	return txn_line_link(e, v, ring ? 2 * ahead <= n : d > v);
}

static int hop_start(struct txn_engine *e)
{
	u32 pkt, v;

	for (pkt = 0; pkt < e->npkts; pkt++) {
		v = txn_pkt_loc(e, pkt);
		if (v != TXN_NONE && pkt != adv.mute)
			q_put(e, toward(e, v, txn_pkt_dst(e, pkt)), pkt);
	}
	return 0;
}

static void hop_choose(struct txn_engine *e)
{
	bool single = e->p.port_model == TXNET_PORT_SINGLE, busy[64] = { false };
	const struct txn_graph *g = e->g;
	u32 v, l;

	for (v = 0; v < g->nodes; v++) {
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			if (q_head(e, l) == TXN_NONE || (single && busy[g->dst[l]]))
				continue;
			busy[g->dst[l]] = true;
			txn_move(e, q_take(e, l), l);
			if (single)
				break;
		}
	}
}

static void hop_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	txn_q_push(e, toward(e, e->g->dst[link], txn_pkt_dst(e, pkt)), pkt);
}

static const struct txn_sched hop = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "hop",
	.start = hop_start,
	.choose = hop_choose,
	.arrive = hop_arrive,
};

static u64 hop_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	(void)pkt;
	return txn_way(toward(e, e->g->dst[link], d), 0);
}

static u32 hop_keys(const struct txn_graph *g, const struct txn_run_params *p)
{
	(void)g;
	(void)p;
	return 1;
}

/*
 * hop whose arrivals the engine queues itself (onward()), on priority
 * queues: a unicast run then checks and makes the moves, asks the ways and
 * queues the packets in passes of its own (engine_tick.c, land()), which must
 * catch every break the arrive() path does.
 */
static const struct txn_sched hop_on = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "hop-onward",
	.start = hop_start,
	.choose = hop_choose,
	.onward = hop_onward,
	.pq_keys = hop_keys,
};

/* ... the tick's ways asked at once (onward_all()), as the general schedule does */
static void hop_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n,
			   u64 *ways)
{
	u32 i;

	for (i = 0; i < n; i++)
		ways[i] = hop_onward(e, a[i].pkt, a[i].link, a[i].dst);
}

static const struct txn_sched hop_all = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "hop-onward-all",
	.start = hop_start,
	.choose = hop_choose,
	.onward = hop_onward,
	.onward_all = hop_onward_all,
	.pq_keys = hop_keys,
};

static const struct txn_sched *const hops[] = { &hop, &hop_on, &hop_all };

/* -------------------------------------------------------------- flood */

/* Queue @pkt at @v onward (@right: towards n-1); false at the end of the line. */
static bool flood_on(struct txn_engine *e, u32 pkt, u32 v, bool right)
{
	if (right ? v + 1 >= e->n : v == 0)
		return false;
	txn_q_push(e, txn_line_link(e, v, right), pkt);
	return true;
}

static int flood_start(struct txn_engine *e)
{
	bool both = e->p.op == TXNET_OP_DATA_SUM;
	u32 v;

	for (v = 0; v < e->n; v++) {
		bool right = v + 1 < e->n, left = both && v > 0;

		if (!right && !left) {
			txn_fold(e, v);
			continue;
		}
		txn_fold(e, txn_copy(e, v));
		if (right && left)
			flood_on(e, txn_copy(e, v), v, false);
		flood_on(e, v, v, right);
	}
	return e->failed ? -EPROTO : 0;
}

static void flood_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	u32 v = e->g->dst[link];
	bool right = v > e->g->src[link];

	if (right ? v + 1 < e->n : v > 0) {
		txn_fold(e, txn_copy(e, pkt));
		flood_on(e, pkt, v, right);
	} else {
		txn_fold(e, pkt);
	}
}

static const struct txn_sched flood = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "flood",
	.start = flood_start,
	.choose = hop_choose,
	.arrive = flood_arrive,
};

/* --------------------------------------------------------------- echo */

enum { ECHO_HONEST, ECHO_MERGE_AGAIN, ECHO_FOLD_AGAIN, ECHO_MERGE_SELF };

static int echo_start(struct txn_engine *e)
{
	u32 c = txn_copy(e, 0);

	if (c == TXN_NONE)
		return -EPROTO;
	txn_q_push(e, txn_link_between(e->g, 0, 1), c);
	/* ECHO_FOLD_AGAIN: 0 folds its own value now (honest so far) ... */
	if (adv.echo == ECHO_FOLD_AGAIN)
		txn_fold(e, 0);
	return e->failed ? -EPROTO : 0;
}

static void echo_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	u32 v = e->g->dst[link];

	if (v == 1) {
		/* ECHO_MERGE_SELF: 1 merges its own value with itself. */
		if (adv.echo == ECHO_MERGE_SELF) {
			did(e, 1, 1);
			txn_merge(e, 1, 1);
			return;
		}
		txn_merge(e, 1, pkt);
		txn_fold(e, txn_copy(e, 1));
		txn_q_push(e, txn_link_between(e->g, 1, 0), 1);
		return;
	}
	/* The total, 0's value and 1's, is back at 0. */
	switch (adv.echo) {
	case ECHO_MERGE_AGAIN:
		/* 0 merges it with its own value: 0's value twice. */
		did(e, 0, pkt);
		txn_merge(e, 0, pkt);
		return;
	case ECHO_FOLD_AGAIN:
		/* ... and folds the total too: 0's value twice in its result. */
		did(e, 0, pkt);
		break;
	}
	txn_fold(e, pkt);
}

static const struct txn_sched echo = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "echo",
	.start = echo_start,
	.choose = hop_choose,
	.arrive = echo_arrive,
};

/* ------------------------------------------------------------- running */

struct outcome {
	int ret;			/* 0: verified; -EPROTO; else what init returned */
	u64 steps, delivered, expected, transmissions;
	const char *rule;
	u64 tick;
	u32 node, pkt;
	u32 procs, nodes, links;	/* the graph's */
	s64 value[64];
};

static struct txn_run_params params(u32 op, u32 port)
{
	struct txn_run_params p = {
		.op = op, .port_model = port, .seed = 11, .values_seed = 5,
		.payload = txn_op_combines(op) ? 0 : 8,
	};

	return p;
}

/* Run @s on @topo to the end, or for at most @stop ticks (0: no limit), then verify. */
static int go_for(const char *topo, const struct txn_sched *s, const struct txn_run_params *p,
		  u64 stop, struct outcome *o)
{
	struct txn_engine e;
	struct tg t;
	u32 v;
	int ret;

	memset(o, 0, sizeof(*o));
	if (tg_make(&t, topo))
		return -1;
	o->procs = t.g.procs;
	o->nodes = t.g.nodes;
	o->links = t.g.links;
	ret = txn_engine_init(&e, &t.g, s, p);
	if (ret) {
		o->ret = ret;
		tg_free(&t);
		return 0;
	}
	while ((ret = txn_engine_tick(&e)) == 0 && (!stop || e.tick < stop))
		;
	if (ret >= 0)
		ret = txn_engine_verify(&e);
	o->ret = ret;
	o->steps = e.tick;
	o->delivered = e.delivered;
	o->expected = e.expected;
	o->transmissions = e.transmissions;
	o->rule = e.failed ? e.v.rule : NULL;
	o->tick = e.v.tick;
	o->node = e.v.node;
	o->pkt = e.v.pkt;
	for (v = 0; v < t.g.procs && v < 64; v++)
		txn_engine_value(&e, v, &o->value[v]);
	txn_engine_free(&e);
	tg_free(&t);
	return 0;
}

static int go(const char *topo, const struct txn_sched *s, const struct txn_run_params *p,
	      struct outcome *o)
{
	return go_for(topo, s, p, 0, o);
}

/* engine_alloc.c: the ticks without a delivery a run may take before it counts as stuck. */
/* engine_alloc.c: 2(vertices + links) + 64 silent ticks, plus one per delivery outstanding */
static u64 stall_limit(const struct outcome *o)
{
	return 2 * ((u64)o->nodes + o->links) + 64 + (o->expected - o->delivered);
}

/* The run failed with @rule in tick @tick at @node; @ctx says which case. */
#define EXPECT_CAUGHT(o, want_rule, want_tick, want_node, ctx) do {		\
	EXPECT_EQ(-EPROTO, (o).ret) TH_LOG("%s", ctx);				\
	EXPECT_STREQ(want_rule, (o).rule ?: "(none)") TH_LOG("%s", ctx);	\
	EXPECT_EQ((u64)(want_tick), (o).tick) TH_LOG("%s", ctx);		\
	EXPECT_EQ((u32)(want_node), (o).node) TH_LOG("%s", ctx);		\
} while (0)

/* The run verified. */
#define EXPECT_VERIFIED(o, ctx) do {						\
	EXPECT_EQ(0, (o).ret) TH_LOG("%s: rule %s, tick %llu, node %u", ctx,	\
				     (o).rule, (unsigned long long)(o).tick,	\
				     (o).node);					\
	EXPECT_EQ((o).expected, (o).delivered) TH_LOG("%s", ctx);		\
} while (0)

/* ------------------------------------------------------------- control */

/* The honest schedules verify, so the tests below can fail. */
TEST(honest_schedules_verify)
{
	static const u32 unicast[] = {
		TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_SCATTER, TXNET_OP_GATHER,
		TXNET_OP_ACCUMULATE, TXNET_OP_MULTINODE_ACCUMULATE,
	};
	static const char *const lines[] = { "linear 2", "linear 5", "ring 6", "ring 7" };
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;
	s64 sum, pre;
	u32 i, k, port, v;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		for (k = 0; k < ARRAY_SIZE(unicast); k++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				s = arm(&hop, NULL, NULL, 0, 0);
				p = params(unicast[k], port);
				p.root = txn_op_has_root(unicast[k]) ? 1 : 0;
				ASSERT_EQ(0, go(lines[i], &s, &p, &o));
				EXPECT_VERIFIED(o, tg_msg("%s %s port %u", lines[i],
							  txn_op_name(unicast[k]), port));
			}
		}
	}
	/* The sums: every value of 0..p (prefix), or all (data), at p. */
	for (k = 0; k < 2; k++) {
		u32 op = k ? TXNET_OP_DATA_SUM : TXNET_OP_PREFIX_SUM;

		s = arm(&flood, NULL, NULL, 0, 0);
		p = params(op, TXNET_PORT_ALL);
		p.values = (const s64[]){ 3, -1, 40, 7, 100 };
		p.nvalues = 5;
		ASSERT_EQ(0, go("linear 5", &s, &p, &o));
		EXPECT_VERIFIED(o, "");
		EXPECT_EQ(4, o.steps);		/* the far end's value travels 4 hops */
		for (v = 0, sum = 0, pre = 0; v < 5; v++)
			sum += p.values[v];
		for (v = 0; v < 5; v++) {
			pre += p.values[v];
			EXPECT_EQ(op == TXNET_OP_DATA_SUM ? sum : pre, o.value[v]);
		}
	}
	s = arm(&echo, NULL, NULL, 0, 0);
	adv.echo = ECHO_HONEST;
	p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
	p.values = (const s64[]){ 20, 22 };
	p.nvalues = 2;
	ASSERT_EQ(0, go("linear 2", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(2, o.steps);
	EXPECT_EQ(42, o.value[0]);
	EXPECT_EQ(42, o.value[1]);
}

/* ------------------------------------------------------------- 1. link */

/* 1. A second packet from a link's queue rides with the one the link already carries. */
static void link_twice_choose(struct txn_engine *e)
{
	u32 l;

	inner_choose(e);
	if (!breaking(e))
		return;
	for (l = 0; l < e->g->links; l++) {
		if (q_head(e, l) != TXN_NONE && link_used(e, l)) {
			did(e, e->g->src[l], q_head(e, l));
			txn_move(e, q_take(e, l), l);
			return;
		}
	}
}

TEST(two_packets_on_one_link)
{
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;
	u32 h;

	for (h = 0; h < ARRAY_SIZE(hops); h++) {
		s = arm(hops[h], link_twice_choose, NULL, 2, 0);
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		/* 0 queues its three packets on its one link: one left after tick 2 */
		EXPECT_EQ(0, adv.did_node);
		EXPECT_CAUGHT(o, R_LINK_TWICE, adv.at, adv.did_node, hops[h]->name);
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
}

/* --------------------------------------------------------- 2. one port */

/* 2. Single-port: a node that sent this tick sends another packet on another link. */
static void send_twice_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 i, u, l;

	inner_choose(e);
	if (!breaking(e))
		return;
	for (i = 0; i < e->nmoves; i++) {
		u = g->src[e->moves[i].link];
		for (l = g->first[u]; l < g->first[u + 1]; l++) {
			/* a free link to a node nobody sends to: only the sender breaks a rule */
			if (q_head(e, l) == TXN_NONE || link_used(e, l) || receiving(e, g->dst[l]))
				continue;
			did(e, u, q_head(e, l));
			txn_move(e, q_take(e, l), l);
			return;
		}
	}
}

TEST(single_port_node_sends_twice)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_SINGLE);
	struct txn_sched s;
	struct outcome o;
	u32 h;

	/* scatter from the middle of linear 3: the root has a packet each way */
	p.root = 1;
	for (h = 0; h < ARRAY_SIZE(hops); h++) {
		s = arm(hops[h], send_twice_choose, NULL, 1, 0);
		ASSERT_EQ(0, go("linear 3", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_EQ(1, adv.did_node);
		EXPECT_CAUGHT(o, R_SENT_TWICE, adv.at, adv.did_node, hops[h]->name);
	}

	/* honest, it takes two ticks; under all-port it sends both at once, nothing to add */
	s = arm(&hop, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(2, o.steps);
	p.port_model = TXNET_PORT_ALL;
	s = arm(&hop, send_twice_choose, NULL, 1, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_FALSE(adv.did);		/* all-port: the honest schedule already sends both */
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(1, o.steps);
}

/*
 * hop_on choosing with the engine's single-port pick
 * (txn_pq_send_tops_single()), which proposes from the caller's recv[]:
 * what the caller keeps there must not get a move past the rule.
 */
static u64 pick_recv[64];

static void pick_choose(struct txn_engine *e)
{
	txn_pq_send_tops_single(e, 0, pick_recv);
}

static const struct txn_sched pick_on = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "pick-onward",
	.start = hop_start,
	.choose = pick_choose,
	.onward = hop_onward,
	.pq_keys = hop_keys,
};

/* 2. ... the pick asked again in the tick, its recv[] wiped: a node that sent proposes another. */
static void pick_twice_choose(struct txn_engine *e)
{
	u32 n0;

	inner_choose(e);
	if (!breaking(e))
		return;
	memset(pick_recv, 0, sizeof(pick_recv));
	n0 = e->nmoves;
	txn_pq_send_tops_single(e, 0, pick_recv);
	if (e->nmoves > n0)
		did(e, e->g->src[e->moves[n0].link], e->moves[n0].pkt);
}

TEST(single_port_pick_asked_twice)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_SINGLE);
	struct txn_sched s;
	struct outcome o;

	/* scatter from the middle of linear 3: the root has a packet each way */
	p.root = 1;
	memset(pick_recv, 0, sizeof(pick_recv));
	s = arm(&pick_on, pick_twice_choose, NULL, 1, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(1, adv.did_node);
	EXPECT_CAUGHT(o, R_SENT_TWICE, adv.at, adv.did_node, "pick asked twice");

	/*
	 * asked once a tick, it sends one a tick: two ticks, the root-degree
	 * bound max_k ceil(k/deg) - 1 + d_k with deg 1 and d = 1, 1
	 * ([Bertsekas91], section 3; Documentation/txnet-schedules.rst)
	 */
	memset(pick_recv, 0, sizeof(pick_recv));
	s = arm(&pick_on, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(2, o.steps);
}

/*
 * The pick from any link number: mid-node (odd, on rings) every other
 * tick, past the last now and then.  It starts at that node's first link:
 * begun mid-node, the node would be weighed in both halves of its round.
 */
static void pick_anywhere_choose(struct txn_engine *e)
{
	u32 from = (u32)(e->tick % 3 ? (2 * e->tick + 1) % e->g->links : e->g->links + e->tick);

	txn_pq_send_tops_single(e, from, pick_recv);
}

/*
 * From link 3, the root's second on ring 5 (each of its links has two
 * packets of a scatter): the root weighed again at the end of the round
 * would send on its other link too.
 */
static void pick_mid_root_choose(struct txn_engine *e)
{
	txn_pq_send_tops_single(e, 3, pick_recv);
}

TEST(single_port_pick_from_anywhere)
{
	static const char *const nets[] = { "ring 6", "ring 9", "linear 5" };
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_SINGLE);
	struct txn_sched s;
	struct outcome o;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		memset(pick_recv, 0, sizeof(pick_recv));
		s = arm(&pick_on, pick_anywhere_choose, NULL, 0, 0);
		ASSERT_EQ(0, go(nets[i], &s, &p, &o));
		EXPECT_VERIFIED(o, nets[i]);
	}

	p = params(TXNET_OP_SCATTER, TXNET_PORT_SINGLE);
	p.root = 1;
	memset(pick_recv, 0, sizeof(pick_recv));
	s = arm(&pick_on, pick_mid_root_choose, NULL, 0, 0);
	ASSERT_EQ(0, go("ring 5", &s, &p, &o));
	EXPECT_VERIFIED(o, "ring 5 from link 3");
}

/* ------------------------------------------------ 3. store-and-forward */

/* 3. A packet passing through a relay is sent on in the tick it arrives (cut-through). */
static void cut_through_choose(struct txn_engine *e)
{
	u32 i, pkt, v;

	inner_choose(e);
	if (!breaking(e))
		return;
	for (i = 0; i < e->nmoves; i++) {
		pkt = e->moves[i].pkt;
		v = e->g->dst[e->moves[i].link];
		if (v != txn_pkt_dst(e, pkt)) {
			did(e, v, pkt);
			txn_move(e, pkt, toward(e, v, txn_pkt_dst(e, pkt)));
			return;
		}
	}
}

TEST(store_and_forward)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;
	u32 h;

	/* scatter from 0 on linear 4: in tick 2 the packet for 2 crosses 0->1 */
	for (h = 0; h < ARRAY_SIZE(hops); h++) {
		s = arm(hops[h], cut_through_choose, NULL, 2, 0);
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_EQ(1, adv.did_node);
		EXPECT_CAUGHT(o, R_CUT_THROUGH, 2, 1, hops[h]->name);
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
}

/* ---------------------------------------------------- 4. wrong node */

/* 4. A waiting packet is moved over a link that leaves another node. */
static void teleport_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 pkt, l0, l;

	inner_choose(e);
	if (!breaking(e))
		return;
	pkt = waiting(e, &l0);
	if (pkt == TXN_NONE)
		return;
	for (l = 0; l < g->links; l++) {
		if (g->src[l] != txn_pkt_loc(e, pkt) && !link_used(e, l)) {
			did(e, g->src[l], pkt);
			txn_move(e, pkt, l);
			return;
		}
	}
}

TEST(move_from_the_wrong_node)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;
	u32 h;

	for (h = 0; h < ARRAY_SIZE(hops); h++) {
		s = arm(hops[h], teleport_choose, NULL, 1, 0);
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		/* the packets for 2 and 3 wait at the root, 0: the link leaves another node */
		EXPECT_NE(0, adv.did_node);
		EXPECT_CAUGHT(o, R_NOT_THERE, 1, adv.did_node, hops[h]->name);
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
}

/*
 * 4b. hop_on: a relay's packet, queued there by the engine when it
 * arrived last tick, is moved on without being taken off that queue.  The
 * tick of onward() leaves an arrival's mark until the pop (engine_tick.c,
 * land()), so the move is caught; the honest schedule pops first.
 */
static void unpopped_choose(struct txn_engine *e)
{
	u32 l, pkt;

	if (adv.did || NOW(e) < adv.at) {
		inner_choose(e);
		return;
	}
	for (l = 0; l < e->g->links; l++) {
		pkt = q_head(e, l);
		if (pkt != TXN_NONE && txn_pkt_loc(e, pkt) != txn_pkt_src(e, pkt)) {
			did(e, e->g->src[l], pkt);
			txn_move(e, pkt, l);
			return;
		}
	}
	inner_choose(e);
}

TEST(move_without_a_pop)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	struct txn_sched s = arm(&hop_on, unpopped_choose, NULL, 2, 0);
	struct outcome o;

	/* scatter from 0 on linear 4: a relay sends on the tick after a packet arrives */
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_NE(0, adv.did_node);
	EXPECT_CAUGHT(o, "packet moved without being taken off the queue it joined", adv.did_tick,
		      adv.did_node, "");
	EXPECT_EQ(adv.did_pkt, o.pkt);

	s = arm(&hop_on, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
}

/*
 * 4c. The way onward() or onward_all() names for a packet that landed:
 * a link that does not exist fails the run in that tick, at the node the
 * packet is at (engine_tick.c, queue_landed()); one that leaves another node
 * when the packet moves on it (its first pop: R_NOT_THERE).
 */
#define R_NO_LINK	"no such link"

static u64 astray_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	u32 v = e->g->dst[link], l;

	if (!breaking(e))
		return hop_onward(e, pkt, link, d);
	did(e, v, pkt);
	if (adv.variant == 0)
		return txn_way(e->g->links, 0);
	for (l = 0; l < e->g->links; l++)	/* a link of another node */
		if (e->g->src[l] != v)
			break;
	return txn_way(l, 0);
}

static void astray_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n,
			      u64 *ways)
{
	u32 i;

	for (i = 0; i < n; i++)
		ways[i] = astray_onward(e, a[i].pkt, a[i].link, a[i].dst);
}

TEST(way_astray)
{
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	const struct txn_sched *const ons[] = { &hop_on, &hop_all };
	struct txn_sched s;
	struct outcome o;
	u32 h;

	for (h = 0; h < ARRAY_SIZE(ons); h++) {
		s = arm(ons[h], NULL, NULL, 2, 0);
		s.onward = astray_onward;
		if (s.onward_all)
			s.onward_all = astray_onward_all;
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_CAUGHT(o, R_NO_LINK, 2, adv.did_node, ons[h]->name);
		EXPECT_EQ(adv.did_pkt, o.pkt);

		s = arm(ons[h], NULL, NULL, 2, 1);
		s.onward = astray_onward;
		if (s.onward_all)
			s.onward_all = astray_onward_all;
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_STREQ(R_NOT_THERE, o.rule ?: "(none)") TH_LOG("%s", ons[h]->name);
		EXPECT_LT(2ULL, o.tick) TH_LOG("%s", ons[h]->name);
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
}

/* ------------------------------------------------ 5. consumed packet */

/*
 * 5. A packet consumed at its destination is sent on from there (variant
 * 0); a partial already folded into its result is merged into another
 * (variant 1).
 */
static void consumed_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 pkt, d, l;

	inner_choose(e);
	if (!breaking(e))
		return;
	for (pkt = 0; pkt < e->npkts && txn_pkt_loc(e, pkt) != TXN_NONE; pkt++)
		;
	if (pkt == e->npkts)
		return;
	d = txn_pkt_dst(e, pkt);
	if (adv.variant == 0) {
		for (l = g->first[d]; l < g->first[d + 1] - 1 && link_used(e, l); l++)
			;
		did(e, d, pkt);
		txn_move(e, pkt, l);
		return;
	}
	did(e, TXN_NONE, pkt);
	txn_merge(e, alive(e, TXN_NONE), pkt);
}

TEST(move_of_a_consumed_packet)
{
	struct txn_run_params p = params(TXNET_OP_GATHER, TXNET_PORT_ALL);
	struct txn_sched s = arm(&hop, consumed_choose, NULL, 2, 0);
	struct outcome o;

	/* gather at 0 on linear 4: 1's packet was consumed at 0 in tick 1 */
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(0, adv.did_node);
	EXPECT_CAUGHT(o, R_MOVED_GONE, 2, 0, "");
	EXPECT_EQ(adv.did_pkt, o.pkt);

	/* accumulate at 0: 0's own partial was folded at the start */
	p = params(TXNET_OP_ACCUMULATE, TXNET_PORT_ALL);
	s = arm(&hop, consumed_choose, NULL, 2, 1);
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_USED_GONE, 2, TXN_NONE, "");
	EXPECT_EQ(adv.did_pkt, o.pkt);
}

/* ------------------------------------------------- 6. forged delivery */

enum { FORGE_DELIVERED, FORGE_EXPECTED, FORGE_TICK, FORGE_TRANSMISSIONS, FORGE_COPIES,
	FORGE_MERGES, FORGES };

static void forge(struct txn_engine *e)
{
	did(e, TXN_NONE, TXN_NONE);
	switch (adv.variant) {
	case FORGE_DELIVERED:
		e->delivered = e->expected;	/* "everything was delivered" */
		break;
	case FORGE_EXPECTED:
		e->expected = e->delivered;	/* "nothing more was due" */
		break;
	case FORGE_TICK:
		e->tick++;
		break;
	case FORGE_TRANSMISSIONS:
		e->transmissions++;
		break;
	case FORGE_COPIES:
		e->copies++;
		break;
	case FORGE_MERGES:
		e->merges++;
		break;
	}
}

/* 6. The schedule writes the engine's public counters while choosing ... */
static void forge_choose(struct txn_engine *e)
{
	inner_choose(e);
	if (breaking(e))
		forge(e);
}

/* ... or while taking an arrival. */
static void forge_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (breaking(e))
		forge(e);
	adv.inner->arrive(e, pkt, link);
}

/* ... or while naming an arrival's way on (hop_on). */
static u64 forge_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	if (breaking(e))
		forge((struct txn_engine *)e);
	return adv.inner->onward(e, pkt, link, d);
}

/* ... or while naming the tick's ways (hop_all). */
static void forge_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n,
			     u64 *ways)
{
	if (breaking(e))
		forge((struct txn_engine *)e);
	adv.inner->onward_all(e, a, n, ways);
}

/* ... or while setting up. */
static int forge_start(struct txn_engine *e)
{
	int ret = adv.inner->start(e);

	forge(e);
	return ret;
}

TEST(forged_counters)
{
	/* each followed by the schedule's own folds, copies and merges in arrive() */
	static const struct {
		const struct txn_sched *s;
		u32 op;
		const char *topo;
		u64 at;
	} runs[] = {
		{ &hop, TXNET_OP_TOTAL_EXCHANGE, "linear 4", 2 },
		{ &hop_on, TXNET_OP_TOTAL_EXCHANGE, "linear 4", 2 },
		{ &hop_all, TXNET_OP_TOTAL_EXCHANGE, "linear 4", 2 },
		{ &flood, TXNET_OP_DATA_SUM, "linear 4", 2 },
		{ &echo, TXNET_OP_DATA_SUM, "linear 2", 1 },
	};
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;
	u32 f, r;

	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		p = params(runs[r].op, TXNET_PORT_ALL);
		for (f = 0; f < FORGES; f++) {
			s = arm(runs[r].s, forge_choose, NULL, runs[r].at, f);
			ASSERT_EQ(0, go(runs[r].topo, &s, &p, &o));
			ASSERT_TRUE(adv.did);
			EXPECT_CAUGHT(o, R_COUNTERS, runs[r].at, TXN_NONE,
				      tg_msg("%s: forge %u in choose", runs[r].s->name, f));

			s = arm(runs[r].s, NULL, forge_arrive, runs[r].at, f);
			if (s.onward_all) {
				s.onward_all = forge_onward_all;
			} else if (s.onward) {
				s.arrive = NULL;
				s.onward = forge_onward;
			}
			ASSERT_EQ(0, go(runs[r].topo, &s, &p, &o));
			ASSERT_TRUE(adv.did);
			EXPECT_CAUGHT(o, R_COUNTERS, runs[r].at, TXN_NONE,
				      tg_msg("%s: forge %u in %s", runs[r].s->name, f, s.onward ? "onward" : "arrive"));

			/* in start: the run fails its first tick, the forgery dated tick 0 */
			s = arm(runs[r].s, NULL, NULL, 0, f);
			s.start = forge_start;
			ASSERT_EQ(0, go(runs[r].topo, &s, &p, &o));
			ASSERT_TRUE(adv.did);
			EXPECT_CAUGHT(o, R_COUNTERS, 0, TXN_NONE,
				      tg_msg("%s: forge %u in start", runs[r].s->name, f));
		}
	}
}

/*
 * A schedule that claims to be done before it is must not be reported
 * verified, in fewer ticks than a paper proves or at all.  Total exchange
 * on ring 9 by message-shift takes ceil((n^2 - 1) / 8) = 10 ticks
 * ([Dimakopoulos94] Theorem 2); whatever tick it forges completion in, a
 * forger is caught in that tick and no run of it verifies.
 */
TEST(forged_completion_never_verifies)
{
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	const struct txn_sched *ms;
	struct txn_sched s;
	struct outcome o;
	const char *why;
	struct tg t;
	u64 paper, f;

	ASSERT_EQ(NULL, tg_make(&t, "ring 9"));
	ms = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_MESSAGE_SHIFT, TXNET_PORT_ALL, &why);
	ASSERT_NE(NULL, ms);
	ASSERT_TRUE(txn_expected_steps(ms, &t.spec,
				       &(struct txn_run_params){ .op = TXNET_OP_TOTAL_EXCHANGE,
								 .port_model = TXNET_PORT_ALL },
				       &paper));
	tg_free(&t);
	EXPECT_EQ((9 * 9 - 1 + 7) / 8, paper);

	s = arm(ms, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("ring 9", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(paper, o.steps);

	for (f = 1; f <= paper; f++) {
		s = arm(ms, forge_choose, NULL, f, FORGE_DELIVERED);
		ASSERT_EQ(0, go("ring 9", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_CAUGHT(o, R_COUNTERS, f, TXN_NONE, tg_msg("tick %llu", (unsigned long long)f));
		EXPECT_EQ(f - 1, o.steps);	/* the forging tick never completed */
		s = arm(ms, forge_choose, NULL, f, FORGE_EXPECTED);
		ASSERT_EQ(0, go("ring 9", &s, &p, &o));
		EXPECT_CAUGHT(o, R_COUNTERS, f, TXN_NONE, tg_msg("tick %llu", (unsigned long long)f));
	}
}

/* --------------------------------------------- 7. rewritten parameters */

enum { REWRITE_ROOT, REWRITE_OP, REWRITE_VALUES, REWRITES };

/*
 * 7. The schedule rewrites the run's parameters: the root (a gather's
 * destination), the operation, or the values.
 */
static void rewrite_choose(struct txn_engine *e)
{
	static const s64 forged[4] = { 1000, 1000, 1000, 1000 };

	inner_choose(e);
	if (!breaking(e))
		return;
	did(e, TXN_NONE, TXN_NONE);
	switch (adv.variant) {
	case REWRITE_ROOT:
		e->p.root = e->n - 1;
		break;
	case REWRITE_OP:
		e->p.op = TXNET_OP_SCATTER;
		break;
	case REWRITE_VALUES:
		e->p.values = forged;
		break;
	}
}

TEST(rewritten_parameters)
{
	static const s64 values[4] = { 1, 2, 3, 4 };
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;
	u32 r;
	u64 at;

	for (r = 0; r < REWRITES; r++) {
		/* early, and in the last tick (gather at 0 on linear 4 takes 3) */
		for (at = 1; at <= 3; at += 2) {
			if (r == REWRITE_VALUES) {
				p = params(TXNET_OP_ACCUMULATE, TXNET_PORT_ALL);
				p.values = values;
				p.nvalues = 4;
			} else {
				p = params(TXNET_OP_GATHER, TXNET_PORT_ALL);
			}
			s = arm(&hop, rewrite_choose, NULL, at, r);
			ASSERT_EQ(0, go("linear 4", &s, &p, &o));
			ASSERT_TRUE(adv.did);
			EXPECT_CAUGHT(o, R_PARAMS, at, TXN_NONE,
				      tg_msg("rewrite %u in tick %llu", r, (unsigned long long)at));
		}
	}
}

/* ------------------------------------------------- 8. fabricated packet */

enum { MADE_UP_OUT_OF_RANGE, MADE_UP_MOVE, MADE_UP_COPY, MADE_UP_MERGE, MADE_UP_FOLD, MADE_UPS };

/* 8. The schedule names a packet the engine never made: a slot past the last, or a free one. */
static void made_up_choose(struct txn_engine *e)
{
	u32 slot = e->npkts;

	inner_choose(e);
	if (!breaking(e))
		return;
	/* in a data sum a slot with no packet alive is free: folds and merges give theirs back */
	if (adv.variant != MADE_UP_OUT_OF_RANGE)
		while (slot-- > 0 && txn_pkt_loc(e, slot) != TXN_NONE)
			;
	did(e, TXN_NONE, slot);
	switch (adv.variant) {
	case MADE_UP_OUT_OF_RANGE:
	case MADE_UP_MOVE:
		txn_move(e, slot, e->g->first[0]);
		break;
	case MADE_UP_COPY:
		txn_copy(e, slot);
		break;
	case MADE_UP_MERGE:
		txn_merge(e, alive(e, TXN_NONE), slot);
		break;
	case MADE_UP_FOLD:
		txn_fold(e, slot);
		break;
	}
}

TEST(fabricated_packet)
{
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;
	u32 f;

	for (f = 0; f < MADE_UPS; f++) {
		if (f == MADE_UP_OUT_OF_RANGE) {
			p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
			s = arm(&hop, made_up_choose, NULL, 2, f);
		} else {
			p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
			s = arm(&flood, made_up_choose, NULL, 2, f);
		}
		ASSERT_EQ(0, go("linear 4", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_CAUGHT(o, R_MADE_UP, 2, TXN_NONE, tg_msg("variant %u", f));
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
}

/* ------------------------------------------------ 9. counted twice */

/* 9. Node 0 folds the value that reaches it in tick adv.at twice. */
static void fold_twice_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->g->dst[link] == 0 && breaking(e)) {
		did(e, 0, pkt);
		txn_fold(e, txn_copy(e, pkt));
	}
	flood_arrive(e, pkt, link);
}

/*
 * 9 and 10 at once: node 0 folds the value that reaches it in tick adv.at
 * twice and, so that the counts balance, never folds the one that reaches
 * it next.
 */
static void instead_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->g->dst[link] == 0 && NOW(e) == adv.at + 1)
		return;
	fold_twice_arrive(e, pkt, link);
}

TEST(contribution_counted_twice)
{
	struct txn_run_params p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;

	/*
	 * Two processors by echo: 0's value comes back to 0 in the total,
	 * in tick 2, and 0 merges it with its own: three contributions in a
	 * partial of a two-processor run.
	 */
	s = arm(&echo, NULL, NULL, 0, 0);
	adv.echo = ECHO_MERGE_AGAIN;
	ASSERT_EQ(0, go("linear 2", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(2, adv.did_tick);
	EXPECT_CAUGHT(o, R_TWICE_MERGE, 2, 0, "");
	/* ... or 0 folded its own value at the start and folds the total too */
	s = arm(&echo, NULL, NULL, 0, 0);
	adv.echo = ECHO_FOLD_AGAIN;
	ASSERT_EQ(0, go("linear 2", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_TWICE_FOLD, 2, 0, "");
	/* ... or 1 merges its own value with itself as 0's arrives, in tick 1 */
	s = arm(&echo, NULL, NULL, 0, 0);
	adv.echo = ECHO_MERGE_SELF;
	ASSERT_EQ(0, go("linear 2", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_TWICE_SELF, 1, 1, "");
	EXPECT_EQ(1, o.pkt);

	/*
	 * Three processors: the engine keeps contribution sets as a count
	 * and a sum of hashes, not per-contributor bits, so a value folded
	 * twice is seen when the count overflows.  Node 0 folds 1's value
	 * twice in tick 1; its result is full (0, 1, 1) and 2's value,
	 * arriving in tick 2, is one too many.
	 */
	s = arm(&flood, NULL, fold_twice_arrive, 1, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(1, adv.did_tick);
	EXPECT_CAUGHT(o, R_TWICE_FOLD, adv.did_tick + 1, adv.did_node, "");
	/*
	 * ... and if node 0 drops 2's value, the counts balance and the run
	 * completes in tick 2: the hashes sealed into the sums tell 0's
	 * result holds 1's value in place of 2's ...
	 */
	s = arm(&flood, NULL, instead_arrive, 1, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(o.expected, o.delivered);
	EXPECT_CAUGHT(o, R_WRONG_SET, 2, 0, "");
	/* ... even where 1's input and 2's are equal: then only the hashes differ */
	s = arm(&flood, NULL, instead_arrive, 1, 0);
	p.values = (const s64[]){ 7, 5, 5 };
	p.nvalues = 3;
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(o.expected, o.delivered);
	EXPECT_CAUGHT(o, R_WRONG_SET, 2, 0, "");
	/* ... and the same run with nothing swapped is verified, its sums unsealed */
	s = arm(&flood, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(17, o.value[0]);
	EXPECT_EQ(17, o.value[2]);
}

/* ------------------------------------------------ 10. dropped */

/* 10. Node 0 never folds the value that reaches it in tick adv.at. */
static void drop_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->g->dst[link] == 0 && breaking(e)) {
		did(e, 0, pkt);
		return;
	}
	flood_arrive(e, pkt, link);
}

/*
 * A dropped contribution stalls the run: the engine counts contributions
 * as they are folded, a run completes only when the count reaches what
 * the operation delivers, and a dropped one never comes.  So the run
 * fails with "no progress" stall_limit + 1 ticks after its last
 * delivery; verify's "missing" rule is what a caller that stops the run
 * early sees.
 */
TEST(contribution_dropped)
{
	struct txn_run_params p = params(TXNET_OP_ACCUMULATE, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;
	u64 last;

	/*
	 * accumulate at 0 on linear 4, node 3's value never sent: 1's
	 * arrives in tick 1, 2's in tick 2, then nothing.
	 */
	s = arm(&hop, NULL, NULL, 0, 0);
	adv.mute = 3;			/* slot i: processor i's partial for root 0 */
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	last = 2;
	EXPECT_EQ(last, adv.last_delivery);
	EXPECT_CAUGHT(o, R_NO_PROGRESS, last + stall_limit(&o) + 1, TXN_NONE, "");
	EXPECT_EQ(o.expected - 1, o.delivered);
	/* stopped early and verified: the root's result lacks one */
	s = arm(&hop, NULL, NULL, 0, 0);
	adv.mute = 3;
	ASSERT_EQ(0, go_for("linear 4", &s, &p, 5, &o));
	EXPECT_CAUGHT(o, R_MISSING, 5, 0, "");

	/*
	 * data sum on linear 3, node 0 never folds 2's value (tick 2); the
	 * values of 0 reach 2 in the same tick: the last delivery.
	 */
	p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
	s = arm(&flood, NULL, drop_arrive, 2, 0);
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(adv.did_tick, adv.last_delivery);
	EXPECT_CAUGHT(o, R_NO_PROGRESS, adv.did_tick + stall_limit(&o) + 1, TXN_NONE, "");
	EXPECT_EQ(o.expected - 1, o.delivered);
	s = arm(&flood, NULL, drop_arrive, 2, 0);
	ASSERT_EQ(0, go_for("linear 3", &s, &p, 3, &o));
	EXPECT_CAUGHT(o, R_MISSING, 3, 0, "");
}

/* ------------------------------------------- 11. forbidden copy */

/* 11. A copy (variant 0) or a merge (variant 1) where the operation has none. */
static void copy_choose(struct txn_engine *e)
{
	u32 pkt;

	inner_choose(e);
	if (!breaking(e))
		return;
	pkt = alive(e, TXN_NONE);
	did(e, txn_pkt_loc(e, pkt), pkt);
	if (adv.variant == 0)
		txn_copy(e, pkt);
	else
		txn_merge(e, pkt, alive(e, pkt));
}

TEST(copy_where_copies_are_forbidden)
{
	static const u32 ops[] = { TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_SCATTER, TXNET_OP_GATHER,
				   TXNET_OP_ACCUMULATE, TXNET_OP_MULTINODE_ACCUMULATE };
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;
	u32 k;

	for (k = 0; k < ARRAY_SIZE(ops); k++) {
		p = params(ops[k], TXNET_PORT_ALL);
		s = arm(&hop, copy_choose, NULL, 1, 0);
		ASSERT_EQ(0, go("ring 6", &s, &p, &o));
		ASSERT_TRUE(adv.did);
		EXPECT_CAUGHT(o, R_NO_COPIES, 1, adv.did_node, txn_op_name(ops[k]));
		EXPECT_EQ(adv.did_pkt, o.pkt);
	}
	/* and a merge where nothing combines */
	p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	s = arm(&hop, copy_choose, NULL, 1, 1);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_NO_MERGES, 1, adv.did_node, "");
}

/* ------------------------------------- 11b. a message copied afresh */

enum { AFRESH_NEVER, AFRESH_MADE_UP, AFRESH_MSG_UP, AFRESH_UNICAST, DROP_UNICAST, AFRESH_HONEST };

/*
 * 11b. txn_copy_msg() where the ledger says the processor lacks the
 * message (the processor across the ring from the root, in tick 1), at a
 * processor or of a message that does not exist, in a total exchange;
 * txn_drop_copy() in a total exchange.  AFRESH_HONEST: the root makes a
 * copy afresh and drops it at once, which breaks no rule.
 */
static void afresh_choose(struct txn_engine *e)
{
	u32 far = e->n / 2, pkt;

	inner_choose(e);
	if (!breaking(e))
		return;
	switch (adv.variant) {
	case AFRESH_NEVER:
		did(e, far, TXN_NONE);
		txn_copy_msg(e, far, 0);
		break;
	case AFRESH_MADE_UP:
		did(e, e->g->nodes + 3, TXN_NONE);
		txn_copy_msg(e, e->g->nodes + 3, 0);
		break;
	case AFRESH_MSG_UP:
		did(e, e->p.root, TXN_NONE);
		txn_copy_msg(e, e->p.root, 1);	/* a broadcast has message 0 only */
		break;
	case AFRESH_UNICAST:
		did(e, 0, TXN_NONE);
		txn_copy_msg(e, 0, 1);
		break;
	case DROP_UNICAST:
		pkt = alive(e, TXN_NONE);
		did(e, txn_pkt_loc(e, pkt), pkt);
		txn_drop_copy(e, pkt);
		break;
	case AFRESH_HONEST:
		did(e, e->p.root, TXN_NONE);
		pkt = txn_copy_msg(e, e->p.root, 0);
		if (pkt != TXN_NONE)
			txn_drop_copy(e, pkt);
		break;
	}
}

TEST(message_copied_afresh)
{
	struct txn_run_params p = params(TXNET_OP_BROADCAST, TXNET_PORT_ALL);
	struct txn_sched s;
	struct outcome o;

	s = arm(&txn_sched_general, afresh_choose, NULL, 1, AFRESH_HONEST);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_VERIFIED(o, "honest");

	s = arm(&txn_sched_general, afresh_choose, NULL, 1, AFRESH_NEVER);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_AFRESH_NEVER, 1, 3, "never");

	s = arm(&txn_sched_general, afresh_choose, NULL, 1, AFRESH_MADE_UP);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	EXPECT_CAUGHT(o, R_AFRESH_MADE_UP, 1, adv.did_node, "node made up");

	s = arm(&txn_sched_general, afresh_choose, NULL, 1, AFRESH_MSG_UP);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	EXPECT_CAUGHT(o, R_AFRESH_MADE_UP, 1, 0, "message made up");

	p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	s = arm(&hop, afresh_choose, NULL, 1, AFRESH_UNICAST);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	EXPECT_CAUGHT(o, R_AFRESH_OP, 1, 0, "total exchange");

	s = arm(&hop, afresh_choose, NULL, 1, DROP_UNICAST);
	ASSERT_EQ(0, go("ring 6", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_DROP_OP, 1, adv.did_node, "drop in a total exchange");
	EXPECT_EQ(adv.did_pkt, o.pkt);
}

/* --------------------------------------------------- 12. switches */

enum { SWITCH_COPIES, SWITCH_MERGES, SWITCH_FOLDS };

/*
 * 12. The general schedule on a MIN, except that a switch copies the
 * first packet that reaches it, merges it with another there, or folds it.
 */
static void switch_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	u32 v = e->g->dst[link], q;

	if (v >= e->n && !adv.did) {
		switch (adv.variant) {
		case SWITCH_COPIES:
			did(e, v, pkt);
			txn_copy(e, pkt);
			return;
		case SWITCH_MERGES:
			for (q = 0; q < e->npkts; q++) {
				if (q != pkt && txn_pkt_loc(e, q) == v) {
					did(e, v, pkt);
					txn_merge(e, pkt, q);
					return;
				}
			}
			break;
		case SWITCH_FOLDS:
			did(e, v, pkt);
			txn_fold(e, pkt);
			return;
		}
	}
	adv.inner->arrive(e, pkt, link);
}

TEST(switch_copies_or_combines)
{
	struct txn_run_params p;
	struct txn_sched s;
	struct outcome o;

	/* control: the general schedule on butterfly 8 */
	p = params(TXNET_OP_BROADCAST, TXNET_PORT_ALL);
	s = arm(&txn_sched_general, NULL, NULL, 0, 0);
	ASSERT_EQ(0, go("butterfly 8", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
	ASSERT_EQ(0, go("butterfly 8", &s, &p, &o));
	EXPECT_VERIFIED(o, "");

	/* the root's first copy reaches a stage-0 switch in tick 1 */
	p = params(TXNET_OP_BROADCAST, TXNET_PORT_ALL);
	s = arm(&txn_sched_general, NULL, switch_arrive, 0, SWITCH_COPIES);
	ASSERT_EQ(0, go("butterfly 8", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(1, adv.did_tick);
	EXPECT_LE(o.procs, adv.did_node);		/* vertices >= procs are switches */
	EXPECT_CAUGHT(o, R_SWITCH_COPY, 1, adv.did_node, "");

	/*
	 * data sum: every processor but the centre sends its value in tick 1;
	 * a stage-0 switch has two processors' lines in, so two partials meet.
	 */
	p = params(TXNET_OP_DATA_SUM, TXNET_PORT_ALL);
	s = arm(&txn_sched_general, NULL, switch_arrive, 0, SWITCH_MERGES);
	ASSERT_EQ(0, go("butterfly 8", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(1, adv.did_tick);
	EXPECT_LE(o.procs, adv.did_node);
	EXPECT_CAUGHT(o, R_SWITCH_MERGE, 1, adv.did_node, "");
	EXPECT_EQ(adv.did_pkt, o.pkt);

	s = arm(&txn_sched_general, NULL, switch_arrive, 0, SWITCH_FOLDS);
	ASSERT_EQ(0, go("butterfly 8", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_LE(o.procs, adv.did_node);
	EXPECT_CAUGHT(o, R_SWITCH_FOLD, 1, adv.did_node, "");
}

/* ------------------------------------------ a merge across results */

/* Multinode accumulate: two partials at processor adv.node, for different results, merged. */
static void mix_choose(struct txn_engine *e)
{
	u32 a, b;

	if (breaking(e)) {
		for (a = 0; a < e->npkts; a++) {
			if (txn_pkt_loc(e, a) != adv.node)
				continue;
			for (b = a + 1; b < e->npkts; b++) {
				if (txn_pkt_loc(e, b) == adv.node &&
				    txn_pkt_dst(e, b) != txn_pkt_dst(e, a)) {
					did(e, adv.node, b);
					txn_merge(e, a, b);
					return;
				}
			}
		}
	}
	inner_choose(e);
}

TEST(merge_across_results)
{
	struct txn_run_params p = params(TXNET_OP_MULTINODE_ACCUMULATE, TXNET_PORT_ALL);
	struct txn_sched s = arm(&hop, mix_choose, NULL, 1, 0);
	struct outcome o;

	adv.node = 2;
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_CAUGHT(o, R_OTHER_RESULT, 1, 2, "");
	EXPECT_EQ(adv.did_pkt, o.pkt);
}

/* ------------------------------------------ a fold outside the set */

/* Prefix sum: processor adv.node sends its value left as well, and the next one folds it. */
static int left_start(struct txn_engine *e)
{
	u32 c = txn_copy(e, adv.node);

	if (c == TXN_NONE)
		return -EPROTO;
	txn_q_push(e, txn_line_link(e, adv.node, false), c);
	return flood_start(e);
}

static void left_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->g->dst[link] < e->g->src[link])
		did(e, e->g->dst[link], pkt);
	flood_arrive(e, pkt, link);
}

TEST(fold_outside_the_results_set)
{
	struct txn_run_params p = params(TXNET_OP_PREFIX_SUM, TXNET_PORT_ALL);
	struct txn_sched s = arm(&flood, NULL, left_arrive, 0, 0);
	struct outcome o;

	s.start = left_start;
	adv.node = 2;
	ASSERT_EQ(0, go("linear 4", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	/* 2's value reaches 1 in tick 1, and 1 folds a copy: 1's prefix is 0..1 */
	EXPECT_EQ(1, adv.did_node);
	EXPECT_CAUGHT(o, R_OUTSIDE, 1, 1, "");
}

/* --------------------------------------------- 13. livelock */

/* 13. One packet is bounced back over the link it came by, for ever. */
static int bounce_start(struct txn_engine *e)
{
	u32 pkt;

	for (pkt = 0; pkt < e->npkts && adv.victim == TXN_NONE; pkt++)
		if (txn_pkt_dst(e, pkt) == e->n - 1)
			adv.victim = pkt;
	return hop_start(e);
}

static void bounce_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (pkt == adv.victim) {
		if (!adv.did)
			did(e, e->g->dst[link], pkt);
		txn_q_push(e, e->g->rev[link], pkt);
		return;
	}
	hop_arrive(e, pkt, link);
}

TEST(livelock_and_tick_limit)
{
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	struct txn_sched s = arm(&hop, NULL, bounce_arrive, 0, 0);
	struct outcome o;
	u64 last;

	/*
	 * scatter from 0 on linear 3: the packet for 1 arrives in tick 1; the
	 * one for 2 reaches 1 in tick 2 and is bounced between 1 and 0.
	 */
	s.start = bounce_start;
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	ASSERT_TRUE(adv.did);
	EXPECT_EQ(2, adv.did_tick);
	last = 1;
	EXPECT_EQ(last, adv.last_delivery);
	EXPECT_CAUGHT(o, R_NO_PROGRESS, last + stall_limit(&o) + 1, TXN_NONE, "");
	/* bounded: engine_alloc.c's 2(vertices + links) + 64 silent ticks, one for the packet
	 * still out, and the one past them */
	EXPECT_LE(o.tick - last, 2 * ((u64)o.nodes + o.links) + 64 + 1 + 1);
	EXPECT_EQ(o.expected - 1, o.delivered);

	/*
	 * A per-run tick limit stops a slow honest schedule: this one waits
	 * 5 ticks and then takes 3 (see idle_ticks_are_legal).
	 */
	s = arm(&hop, NULL, NULL, 0, 0);
	adv.wait = 5;
	p.max_ticks = 6;
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_CAUGHT(o, R_TICK_LIMIT, 6, TXN_NONE, "");
	/* a limit it meets exactly is no failure */
	s = arm(&hop, NULL, NULL, 0, 0);
	adv.wait = 5;
	p.max_ticks = 8;
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_VERIFIED(o, "");
	EXPECT_EQ(8, o.steps);
}

/* ----------------------------------------------- 14. idle ticks */

TEST(idle_ticks_are_legal)
{
	static const u64 waits[] = { 0, 1, 7, 50 };
	struct txn_run_params p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	const struct txn_sched *ms;
	struct txn_sched s;
	struct outcome o;
	const char *why;
	struct tg t;
	u32 i;

	ASSERT_EQ(NULL, tg_make(&t, "ring 9"));
	ms = txn_sched_pick(&t.spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_MESSAGE_SHIFT, TXNET_PORT_ALL, &why);
	tg_free(&t);
	ASSERT_NE(NULL, ms);
	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		/* hop's scatter from 0 on linear 3: 1 tick to 1, 2 to 2 behind it */
		p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
		s = arm(&hop, NULL, NULL, 0, 0);
		adv.wait = waits[i];
		ASSERT_EQ(0, go("linear 3", &s, &p, &o));
		EXPECT_VERIFIED(o, "");
		EXPECT_EQ(waits[i] + 3, o.steps);
		/* message-shift on ring 9: [Dimakopoulos94]'s 10 ticks */
		p = params(TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
		s = arm(ms, NULL, NULL, 0, 0);
		adv.wait = waits[i];
		ASSERT_EQ(0, go("ring 9", &s, &p, &o));
		EXPECT_VERIFIED(o, "");
		EXPECT_EQ(waits[i] + 10, o.steps);
	}
	/* but waiting past the stall limit is a stall: nothing was ever delivered */
	p = params(TXNET_OP_SCATTER, TXNET_PORT_ALL);
	s = arm(&hop, NULL, NULL, 0, 0);
	adv.wait = 1000;
	ASSERT_EQ(0, go("linear 3", &s, &p, &o));
	EXPECT_CAUGHT(o, R_NO_PROGRESS, stall_limit(&o) + 1, TXN_NONE, "");
}

TEST_HARNESS_MAIN
