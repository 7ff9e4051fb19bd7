// SPDX-License-Identifier: GPL-2.0
/*
 * Forgeries: schedules that try to forge a verdict by going around the
 * scheduler API, not by breaking a rule through it (adversary_test.c does
 * that): they write what a schedule can merely reach, the graph's arrays,
 * the engine's moves, sizes and ledger pointer, the helpers' indices, or
 * lean on the seal of a combined value.  Each must end in a failed run,
 * never in a verified one, and never in one verified faster than the
 * lower bound cited.  Plain C, as a hostile schedule author writes it: no
 * cast drops const.  Each test keeps an honest control, the same schedule
 * without the forgery, which verifies, so that each test can fail.  hop
 * and flood are adversary_test.c's, copied (tests are separate binaries).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"

/* What a forger keeps: reset before each run. */
static struct {
	u32 variant;
	u32 *wired, wiring[64];		/* graph_rewired: the dst[] written, and what it was */
	const struct txn_graph *real;	/* graph_swapped: the graph the run was given */
	struct tg t2;			/* ... the one swapped in; ledger_swapped: the private one */
	bool have_t2, have_priv;
	struct txn_engine priv;		/* ledger_swapped: the honest run beside */
	struct txn_ledger *own;		/* ... and the ledger the run was given */
	bool swapped;
	u32 holding[64];		/* broadcast: the copy each processor keeps */
} fg;

#define SCHED(nm, ...) { .algo = TXNET_ALGO_SHORTEST_PATH, .name = nm, __VA_ARGS__ }

/* ------------------------------------------------------ hop (copied) */

static void q_put(struct txn_engine *e, u32 link, u32 pkt)
{
	if (e->pq_keys)
		txn_pq_push(e, link, 0, pkt);
	else
		txn_q_push(e, link, pkt);
}

/* @link's head, taken off its queue, or TXN_NONE: the queues' arrays are the engine's. */
static u32 q_take(struct txn_engine *e, u32 link)
{
	return e->pq_keys ? txn_pq_pop_max(e, link) : txn_q_pop(e, link);
}

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
		if (v != TXN_NONE)
			q_put(e, toward(e, v, txn_pkt_dst(e, pkt)), pkt);
	}
	return 0;
}

/* All-port: every link sends its head. */
static void hop_choose(struct txn_engine *e)
{
	u32 l, pkt;

	for (l = 0; l < e->g->links; l++)
		if ((pkt = q_take(e, l)) != TXN_NONE)
			txn_move(e, pkt, l);
}

static void hop_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	txn_q_push(e, toward(e, e->g->dst[link], txn_pkt_dst(e, pkt)), pkt);
}

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

static const struct txn_sched hop = SCHED("hop", .start = hop_start, .choose = hop_choose,
					  .arrive = hop_arrive);
/* the engine queues the arrivals itself: on FIFOs (engine_tick.c, send_on()) ... */
static const struct txn_sched hop_fifo_on = SCHED("hop-fifo-onward", .start = hop_start,
						  .choose = hop_choose, .onward = hop_onward);
/* ... on priority queues (engine_tick.c, land() and queue_landed()) */
static const struct txn_sched hop_on = SCHED("hop-onward", .start = hop_start,
					     .choose = hop_choose, .onward = hop_onward,
					     .pq_keys = hop_keys);

/* ---------------------------------------------------- flood (copied) */

static void flood_on(struct txn_engine *e, u32 pkt, u32 v, bool right)
{
	if (right ? v + 1 < e->n : v > 0)
		txn_q_push(e, txn_line_link(e, v, right), pkt);
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

static const struct txn_sched flood = SCHED("flood", .start = flood_start, .choose = hop_choose,
					    .arrive = flood_arrive);

/* ------------------------------------------------------------- running */

struct outcome {
	int ret;			/* 0: verified; -EPROTO; else what init returned */
	u64 steps, delivered, expected, tick;
	const char *rule;
	s64 value[64];
	bool has_value[64];
};

static struct txn_run_params params(u32 op)
{
	struct txn_run_params p = {
		.op = op, .port_model = TXNET_PORT_ALL, .seed = 11, .values_seed = 5,
		.payload = txn_op_combines(op) ? 0 : 8, .max_ticks = 100000,
	};

	return p;
}

/*
 * Run @s on @topo to the end, then verify, the forger's state fresh for
 * its @variant; what a forger left behind put back.
 */
static int go(const char *topo, const struct txn_sched *s, const struct txn_run_params *p,
	      u32 variant, struct outcome *o)
{
	struct txn_engine e;
	struct tg t;
	u32 v;
	int ret;

	memset(o, 0, sizeof(*o));
	memset(&fg, 0, sizeof(fg));
	fg.variant = variant;
	memset(fg.holding, 0xff, sizeof(fg.holding));
	if (tg_make(&t, topo))
		return -1;
	ret = txn_engine_init(&e, &t.g, s, p);
	if (!ret) {
		while ((ret = txn_engine_tick(&e)) == 0)
			;
		if (ret >= 0)
			ret = txn_engine_verify(&e);
		o->steps = e.tick;
		o->delivered = e.delivered;
		o->expected = e.expected;
		o->rule = e.failed ? e.v.rule : NULL;
		o->tick = e.v.tick;
		for (v = 0; v < t.g.procs && v < 64; v++)
			o->has_value[v] = txn_engine_value(&e, v, &o->value[v]);
		if (fg.wired)
			memcpy(fg.wired, fg.wiring, t.g.links * sizeof(u32));
		e.g = &t.g;
		txn_engine_free(&e);
	}
	o->ret = ret;
	if (fg.have_t2)
		tg_free(&fg.t2);
	fg.have_t2 = false;
	fg.wired = NULL;
	tg_free(&t);
	return 0;
}

#define RUN(topo, s, p, variant, o) ASSERT_EQ(0, go(topo, s, p, variant, &(o)))

#define EXPECT_VERIFIED(o, ctx) do {						\
	EXPECT_EQ(0, (o).ret) TH_LOG("%s: rule %s, tick %llu", ctx, (o).rule,	\
				     (unsigned long long)(o).tick);		\
	EXPECT_EQ((o).expected, (o).delivered) TH_LOG("%s", ctx);		\
} while (0)

/* Honest @s verifies on @topo in @lo .. @hi ticks. */
#define HONEST(topo, s, p, o, lo, hi) do {					\
	RUN(topo, s, p, 0, o);							\
	EXPECT_VERIFIED(o, (s)->name);						\
	EXPECT_LE((u64)(lo), (o).steps) TH_LOG("%s on %s", (s)->name, topo);	\
	EXPECT_GE((u64)(hi), (o).steps) TH_LOG("%s on %s", (s)->name, topo);	\
} while (0)

/*
 * The forgery failed the run with a rule the engine names (logged); or,
 * @refused, the run may instead have been refused by init: never verified.
 */
#define EXPECT_CAUGHT(o, ctx, refused) do {					\
	TH_LOG("%s: ret %d after %llu ticks, rule \"%s\" (tick %llu)", ctx,	\
	       (o).ret, (unsigned long long)(o).steps, (o).rule ?: "(none)",	\
	       (unsigned long long)(o).tick);					\
	EXPECT_NE(0, (o).ret) TH_LOG("%s: verified", ctx);			\
	if (!(refused) || (o).ret == -EPROTO) {					\
		EXPECT_EQ(-EPROTO, (o).ret);					\
		EXPECT_NE(NULL, (o).rule) TH_LOG("%s: no rule named", ctx);	\
	}									\
} while (0)

/* ------------------------------------------------- 1. graph rewired */

/*
 * The graph is const to a schedule, its arrays are not: dst, read through
 * a const struct txn_graph, is still a u32 * to write through.
 */
static void wiring_back(const struct txn_engine *e)
{
	if (fg.wired)
		memcpy(fg.wired, fg.wiring, e->g->links * sizeof(u32));
}

/* Each link that sends is first pointed at its packet's destination ... */
static void rewired_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 l, pkt;

	if (!fg.wired && g->links <= ARRAY_SIZE(fg.wiring)) {
		memcpy(fg.wiring, g->dst, g->links * sizeof(u32));
		fg.wired = g->dst;
	}
	wiring_back(e);
	for (l = 0; l < g->links; l++) {
		if ((pkt = q_take(e, l)) == TXN_NONE)
			continue;
		txn_move(e, pkt, l);
		g->dst[l] = txn_pkt_dst(e, pkt);
	}
}

/* ... and the wiring put back before anyone looks at an arrival. */
static void rewired_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	wiring_back(e);
	hop_arrive(e, pkt, link);
}

static u64 rewired_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	wiring_back(e);
	return hop_onward(e, pkt, link, d);
}

/* An honest choice, and a write to the reverse links' table, which hop never reads. */
static void rev_choose(struct txn_engine *e)
{
	hop_choose(e);
	e->g->rev[0] = e->g->rev[1];
}

/*
 * A total exchange on a linear array of n all-port needs n^2/4 ticks for
 * n even, the bisection argument: the n/2 processors on each side have
 * n/2 packets each for the other side, n^2/4 packets that cross the
 * middle link pair each way, one per tick.  64 on linear 16; rewired,
 * every packet goes in one hop, in 15 ticks.
 */
TEST(graph_rewired)
{
	static const struct txn_sched *const inner[] = { &hop, &hop_on };
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE);
	const u64 bound = 16 * 16 / 4;
	struct txn_sched s;
	struct outcome o;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(inner); i++) {
		HONEST("linear 16", inner[i], &p, o, bound, ~0ULL);

		s = *inner[i];
		s.name = "rewired";
		s.choose = rewired_choose;
		if (s.arrive)
			s.arrive = rewired_arrive;
		else
			s.onward = rewired_onward;
		RUN("linear 16", &s, &p, 0, o);
		TH_LOG("rewired %s: ret %d after %llu ticks, rule \"%s\"", inner[i]->name, o.ret,
		       (unsigned long long)o.steps, o.rule ?: "(none)");
		/* the rewrite caught, or without effect: never verified below the bound */
		EXPECT_TRUE(o.ret ? o.rule != NULL : o.steps >= bound) TH_LOG("%s", inner[i]->name);

		/*
		 * An array the schedule does not route by, left rewritten: the
		 * run is honest, but the network's graph is not the schedule's
		 * to change, and the end of the run says so.
		 */
		s = *inner[i];
		s.name = "rev-rewritten";
		s.choose = rev_choose;
		RUN("linear 16", &s, &p, 0, o);
		EXPECT_CAUGHT(o, tg_msg("rev rewritten %s", inner[i]->name), false);
		EXPECT_STREQ("the scheduler rewrote the engine's graph", o.rule ?: "(none)");
	}
}

/* ------------------------------------------------- 2. graph swapped */

/*
 * A flooding broadcast: a processor that keeps a copy sends one on each
 * link to a processor that lacks the message and that no one else sends
 * to this tick, the kept copy itself on the last; arrivals are kept.
 */
static int bc_start(struct txn_engine *e)
{
	u32 pkt, v;

	for (pkt = 0; pkt < e->npkts; pkt++)
		if ((v = txn_pkt_loc(e, pkt)) < 64)
			fg.holding[v] = pkt;
	return 0;
}

static void bc_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	bool taken[64] = { false };
	u32 v, l, u, last;

	for (v = 0; v < e->n && v < 64; v++) {
		for (l = g->first[v], last = TXN_NONE; l < g->first[v + 1] &&
		     fg.holding[v] != TXN_NONE; l++) {
			u = g->dst[l];
			if (u >= 64 || taken[u] || txn_has_msg(e, u, 0))
				continue;
			taken[u] = true;
			if (last != TXN_NONE)
				txn_move(e, txn_copy(e, fg.holding[v]), last);
			last = l;
		}
		if (last != TXN_NONE) {
			txn_move(e, fg.holding[v], last);
			fg.holding[v] = TXN_NONE;
		}
	}
}

static void bc_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	u32 v = txn_pkt_loc(e, pkt);

	(void)link;
	if (v < 64)
		fg.holding[v] = pkt;
}

static const struct txn_sched bc = SCHED("flood-broadcast", .start = bc_start,
					 .choose = bc_choose, .arrive = bc_arrive);

/* The run's graph swapped for a complete one (fg.t2) while choosing ... */
static void swapped_choose(struct txn_engine *e)
{
	if (!fg.real)
		fg.real = e->g;
	if (!fg.have_t2 && tg_make(&fg.t2, "complete 8"))
		return;
	fg.have_t2 = true;
	e->g = &fg.t2.g;
	bc_choose(e);
}

/* ... and back as the arrivals are handed over. */
static void swapped_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (fg.real)
		e->g = fg.real;
	bc_arrive(e, pkt, link);
}

/*
 * Broadcast from 0 on linear 8 takes 7 ticks, the distance to 7; over
 * complete 8's links (0's are links 0..6, numbers linear 8 has too, so
 * nothing is indexed past its arrays) it takes one.
 */
TEST(graph_swapped)
{
	struct txn_run_params p = params(TXNET_OP_BROADCAST);
	struct txn_sched s = bc;
	struct outcome o;

	HONEST("linear 8", &bc, &p, o, 7, 7);

	s.name = "swapped";
	s.choose = swapped_choose;
	s.arrive = swapped_arrive;
	RUN("linear 8", &s, &p, 0, o);
	EXPECT_CAUGHT(o, "swapped for complete 8", false);
	EXPECT_FALSE(o.ret == 0 && o.steps < 7);
}

/* ------------------------------------------------ 3. moves rewritten */

/*
 * As an arrival is handed over, every later move of the tick that ends
 * more than a hop from its packet's destination is rewritten to a link
 * into the destination's neighbour: the engine may read e->moves[] again
 * to place the later arrivals.
 */
static void teleport_later(const struct txn_engine *e, u32 pkt, u32 link)
{
	const struct txn_graph *g = e->g;
	u32 i, d, at;

	for (i = 0; i < e->nmoves && (e->moves[i].pkt != pkt || e->moves[i].link != link); i++)
		;
	while (++i < e->nmoves) {
		struct txn_move *m = &e->moves[i];

		if (m->link >= g->links)
			continue;
		d = txn_pkt_dst(e, m->pkt);
		at = g->dst[m->link];
		if (d < e->n && at != d && at + 1 != d && d + 1 != at)
			m->link = txn_link_between(g, d, at < d ? d - 1 : d + 1);
	}
}

static void teleport_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	teleport_later(e, pkt, link);
	hop_arrive(e, pkt, link);
}

static u64 teleport_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	teleport_later(e, pkt, link);
	return hop_onward(e, pkt, link, d);
}

/* The bisection bound on linear 32 (graph_rewired): 32^2 / 4 = 256 ticks. */
TEST(moves_rewritten)
{
	static const struct txn_sched *const inner[] = { &hop, &hop_fifo_on, &hop_on };
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE);
	const u64 bound = 32 * 32 / 4;
	struct txn_sched s;
	struct outcome o;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(inner); i++) {
		HONEST("linear 32", inner[i], &p, o, bound, ~0ULL);

		s = *inner[i];
		s.name = "teleport";
		if (s.arrive)
			s.arrive = teleport_arrive;
		else
			s.onward = teleport_onward;
		RUN("linear 32", &s, &p, 0, o);
		TH_LOG("teleport %s: ret %d after %llu ticks, rule \"%s\"", inner[i]->name, o.ret,
		       (unsigned long long)o.steps, o.rule ?: "(none)");
		/* the rewrite caught, or without effect: never verified below the bound */
		EXPECT_TRUE(o.ret ? o.rule != NULL : o.steps >= bound) TH_LOG("%s", inner[i]->name);
	}
}

/* ------------------------------------------------ 4. counters zeroed */

enum { ZERO_N, ZERO_NPKTS, ZERO_BOTH, ZEROS };

/*
 * In tick 1 every processor folds n - 1 more copies of its own value
 * (flood_start() folded one): the count a result must have, of the wrong
 * contributions.  Then the sizes verification walks are zeroed: with no
 * processors there is no result to check.
 */
static void zeroed_choose(struct txn_engine *e)
{
	u32 v, k, n = e->n;

	if (e->tick) {
		hop_choose(e);
		return;
	}
	for (v = 0; v < n; v++)
		for (k = 1; k < n; k++)
			txn_fold(e, txn_copy(e, v));
	if (fg.variant != ZERO_NPKTS)
		e->n = 0;
	if (fg.variant != ZERO_N)
		e->npkts = 0;
}

TEST(counters_zeroed)
{
	static const char *const what[] = { "n", "npkts", "n and npkts" };
	static const s64 values[] = { 3, -1, 40, 7, 100, 0, 12, 9 };
	struct txn_run_params p = params(TXNET_OP_DATA_SUM);
	struct txn_sched s = flood;
	struct outcome o;
	u32 v, z;

	p.values = values;
	p.nvalues = 8;
	HONEST("linear 8", &flood, &p, o, 7, 7);
	for (v = 0; v < 8; v++)
		EXPECT_EQ(170, o.value[v]);

	s.name = "zeroed";
	s.choose = zeroed_choose;
	for (z = 0; z < ZEROS; z++) {
		RUN("linear 8", &s, &p, z, o);
		EXPECT_CAUGHT(o, tg_msg("%s zeroed", what[z]), false);
		EXPECT_FALSE(o.has_value[0]);
	}
}

/* ------------------------------------------------------- 5. the seal */

/*
 * Node 0 folds 1's value twice as it comes, in tick 1, and never 2's,
 * which comes in tick 2: with 1's input equal to 2's, the count and the
 * sum of values are right, and only the hashes sealed into the sums differ.
 */
static void seal_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->g->dst[link] == 0 && e->tick + 1 == 2)
		return;
	if (e->g->dst[link] == 0 && e->tick + 1 == 1)
		txn_fold(e, txn_copy(e, pkt));
	flood_arrive(e, pkt, link);
}

TEST(seal_not_public)
{
	static const s64 values[] = { 3, 5, 5, 11, -2, 8, 40, 1 };
	struct txn_run_params p = params(TXNET_OP_DATA_SUM);
	struct txn_sched s = flood;
	struct outcome o;
	u32 seed;

	p.values = values;
	p.nvalues = 8;
	HONEST("linear 8", &flood, &p, o, 7, 7);
	EXPECT_EQ(71, o.value[0]);

	s.name = "seal";
	s.arrive = seal_arrive;
	for (seed = 1; seed <= 3; seed++) {
		p.seed = seed;
		RUN("linear 8", &s, &p, 0, o);
		EXPECT_EQ(o.expected, o.delivered);	/* the counts balance */
		EXPECT_CAUGHT(o, tg_msg("seed %u", seed), false);
		EXPECT_NE(NULL, strstr(o.rule ?: "", "result")) TH_LOG("rule %s", o.rule);
		EXPECT_FALSE(o.has_value[0]);	/* a failed run shows no value */
	}
}

/* ------------------------------------------------ 6. ledger swapped */

/* Total exchange on a complete graph: every packet on its one link, in one tick. */
static int direct_start(struct txn_engine *e)
{
	u32 pkt, v;

	for (pkt = 0; pkt < e->npkts; pkt++)
		if ((v = txn_pkt_loc(e, pkt)) != TXN_NONE)
			txn_q_push(e, txn_link_between(e->g, v, txn_pkt_dst(e, pkt)), pkt);
	return 0;
}

static const struct txn_sched direct = SCHED("direct", .start = direct_start,
					     .choose = txn_q_send_heads);

/*
 * start() runs the same exchange honestly on a private complete 8 and
 * hands the run that finished there to the engine as this one: its
 * ledger, and the counters mirrored from it.
 */
static int swap_ledger_start(struct txn_engine *e)
{
	int ret;

	if (tg_make(&fg.t2, "complete 8"))
		return -ENOMEM;
	fg.have_t2 = true;
	if (txn_engine_init(&fg.priv, &fg.t2.g, &direct, &e->p))
		return -ENOMEM;
	fg.have_priv = true;
	while ((ret = txn_engine_tick(&fg.priv)) == 0)
		;
	if (ret != 1 || txn_engine_verify(&fg.priv))
		return -EPROTO;
	fg.own = e->ledger;
	fg.swapped = true;
	e->ledger = fg.priv.ledger;
	e->tick = fg.priv.tick;
	e->delivered = fg.priv.delivered;
	e->expected = fg.priv.expected;
	e->transmissions = fg.priv.transmissions;
	e->copies = fg.priv.copies;
	e->merges = fg.priv.merges;
	return 0;
}

/* Everything put back, for the engine to free. */
static void swap_ledger_fini(struct txn_engine *e)
{
	if (fg.swapped)
		e->ledger = fg.own;
	fg.swapped = false;
	if (fg.have_priv)
		txn_engine_free(&fg.priv);
	fg.have_priv = false;
}

/*
 * Total exchange on ring 8 all-port: each processor's 7 packets travel
 * 1+1+2+2+3+3+4 = 16 hops, 128 in all over 16 links: at least 8 ticks.
 */
TEST(ledger_swapped)
{
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE);
	struct txn_sched s = hop;
	struct outcome o;

	HONEST("complete 8", &direct, &p, o, 1, 1);
	HONEST("ring 8", &hop, &p, o, 8, ~0ULL);

	s.name = "ledger-swapped";
	s.start = swap_ledger_start;
	s.fini = swap_ledger_fini;
	RUN("ring 8", &s, &p, 0, o);
	EXPECT_CAUGHT(o, "ledger of a run on complete 8", true);
	EXPECT_FALSE(o.ret == 0 && o.steps < 8)
		TH_LOG("verified in %llu ticks", (unsigned long long)o.steps);
	EXPECT_FALSE(fg.have_priv);	/* fini ran */
}

/* -------------------------------------------------- 7. helper bounds */

enum {
	CALL_Q_PUSH_SLOT, CALL_Q_PUSH_LINK, CALL_PQ_PUSH_KEY, CALL_PQ_PUSH_LINK,
	CALL_COPY_SLOT, CALL_MERGE_INTO, CALL_MERGE_FROM, CALL_FOLD_SLOT, CALL_FOLD_NONE,
	CALL_Q_POP_LINK, CALL_PQ_POP_LINK, CALL_PQ_SEND_TOP_LINK,
};

/* In tick 2 a helper is called once with an index one past its array (or ~0). */
static void bad_call_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 l, pkt = TXN_NONE;
	bool put = true;	/* the packet taken goes back on its queue */

	if (e->tick + 1 == 2) {
		for (l = 0; l < g->links && pkt == TXN_NONE; l++)
			pkt = q_take(e, l);
		l = pkt == TXN_NONE ? 0 : l - 1;
		switch (fg.variant) {
		case CALL_Q_PUSH_SLOT:
			txn_q_push(e, l, e->npkts);
			break;
		case CALL_Q_PUSH_LINK:
			txn_q_push(e, g->links, pkt);
			put = false;
			break;
		case CALL_PQ_PUSH_KEY:
			txn_pq_push(e, l, e->pq_keys, pkt);
			put = false;
			break;
		case CALL_PQ_PUSH_LINK:
			txn_pq_push(e, g->links, 0, pkt);
			put = false;
			break;
		case CALL_COPY_SLOT:
			txn_copy(e, e->npkts);
			break;
		case CALL_MERGE_INTO:
			txn_merge(e, e->npkts, pkt);
			break;
		case CALL_MERGE_FROM:
			txn_merge(e, pkt, e->npkts);
			break;
		case CALL_FOLD_SLOT:
			txn_fold(e, e->npkts);
			break;
		case CALL_FOLD_NONE:
			txn_fold(e, TXN_NONE);
			break;
		case CALL_Q_POP_LINK:
			txn_q_pop(e, g->links);
			break;
		case CALL_PQ_POP_LINK:
			txn_pq_pop_max(e, g->links);
			break;
		case CALL_PQ_SEND_TOP_LINK:
			txn_pq_send_top(e, g->links);
			break;
		}
		if (put && pkt != TXN_NONE)
			q_put(e, l, pkt);
	}
	hop_choose(e);
}

FIXTURE(helper_bounds) {};
FIXTURE_SETUP(helper_bounds) {}
FIXTURE_TEARDOWN(helper_bounds) {}

FIXTURE_VARIANT(helper_bounds) {
	u32 call;
	bool sum;		/* a data sum (flood), else a total exchange (hop) */
	bool pq;		/* ... on priority queues (hop_on) */
};

FIXTURE_VARIANT_ADD(helper_bounds, q_push_slot_npkts) { .call = CALL_Q_PUSH_SLOT };
FIXTURE_VARIANT_ADD(helper_bounds, q_push_link_links) { .call = CALL_Q_PUSH_LINK };
FIXTURE_VARIANT_ADD(helper_bounds, pq_push_key_pq_keys) { .call = CALL_PQ_PUSH_KEY, .pq = true };
FIXTURE_VARIANT_ADD(helper_bounds, pq_push_link_links) { .call = CALL_PQ_PUSH_LINK, .pq = true };
FIXTURE_VARIANT_ADD(helper_bounds, copy_slot_npkts) { .call = CALL_COPY_SLOT, .sum = true };
FIXTURE_VARIANT_ADD(helper_bounds, merge_into_npkts) { .call = CALL_MERGE_INTO, .sum = true };
FIXTURE_VARIANT_ADD(helper_bounds, merge_from_npkts) { .call = CALL_MERGE_FROM, .sum = true };
FIXTURE_VARIANT_ADD(helper_bounds, fold_slot_npkts) { .call = CALL_FOLD_SLOT, .sum = true };
FIXTURE_VARIANT_ADD(helper_bounds, fold_slot_none) { .call = CALL_FOLD_NONE, .sum = true };
FIXTURE_VARIANT_ADD(helper_bounds, q_pop_link_links) { .call = CALL_Q_POP_LINK };
FIXTURE_VARIANT_ADD(helper_bounds, pq_pop_link_links) { .call = CALL_PQ_POP_LINK, .pq = true };
FIXTURE_VARIANT_ADD(helper_bounds, pq_send_top_link_links) {
	.call = CALL_PQ_SEND_TOP_LINK, .pq = true
};

/*
 * Each call must fail the run, naming a rule, in the tick it was made.
 * Under ASan a write or read past an array aborts the test instead, so
 * it passes only if none happens.
 */
TEST_F(helper_bounds, fails_the_run)
{
	const struct txn_sched *inner = variant->sum ? &flood : variant->pq ? &hop_on : &hop;
	struct txn_run_params p = params(variant->sum ? TXNET_OP_DATA_SUM :
					 TXNET_OP_TOTAL_EXCHANGE);
	struct txn_sched s = *inner;
	struct outcome o;

	(void)self;
	HONEST("linear 6", inner, &p, o, 1, ~0ULL);

	s.name = "bad-call";
	s.choose = bad_call_choose;
	RUN("linear 6", &s, &p, variant->call, o);
	EXPECT_CAUGHT(o, tg_msg("call %u on %s", variant->call, inner->name), false);
	EXPECT_EQ(2, o.tick);
}

/* ------------------------------------------------ 8. a sum in one tick */

/*
 * All-port on a complete graph: every processor copies its value once for
 * each link it sends on (prefix sum: those to higher processors), sends
 * the copies and folds its own value; each arrival is folded.  Each link
 * carries one packet one hop, in tick 1: the timing model allows it.
 */
static void burst_choose(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	bool prefix = e->p.op == TXNET_OP_PREFIX_SUM;
	u32 v, l, c;

	if (e->tick)
		return;
	for (v = 0; v < e->n; v++) {
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			if (prefix && g->dst[l] < v)
				continue;
			c = txn_copy(e, v);
			if (c == TXN_NONE)
				return;
			txn_move(e, c, l);
		}
		txn_fold(e, v);
	}
}

static int burst_start(struct txn_engine *e)
{
	(void)e;
	return 0;
}

static void burst_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	(void)link;
	txn_fold(e, pkt);
}

static const struct txn_sched burst = SCHED("burst", .start = burst_start,
					    .choose = burst_choose, .arrive = burst_arrive);

/* complete 4 is the control: its runs have slots to spare today. */
TEST(complete_graph_one_tick_sum)
{
	static const u32 sizes[] = { 4, 8, 16 };
	static const u32 ops[] = { TXNET_OP_DATA_SUM, TXNET_OP_PREFIX_SUM };
	struct txn_run_params p;
	struct outcome o;
	s64 values[16], sum, pre;
	u32 i, k, v, n;

	for (v = 0; v < 16; v++)
		values[v] = (s64)v * v - 7 * (s64)v + 3;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (k = 0, n = sizes[i]; k < ARRAY_SIZE(ops); k++) {
			char net[32], ctx[64];

			snprintf(net, sizeof(net), "complete %u", n);
			snprintf(ctx, sizeof(ctx), "%s %s", net, txn_op_name(ops[k]));
			p = params(ops[k]);
			p.values = values;
			p.nvalues = n;
			RUN(net, &burst, &p, 0, o);
			EXPECT_VERIFIED(o, ctx);
			EXPECT_EQ(1, o.steps) TH_LOG("%s", ctx);
			for (v = 0, sum = 0; v < n; v++)
				sum += values[v];
			for (v = 0, pre = 0; v < n; v++) {
				pre += values[v];
				EXPECT_TRUE(o.has_value[v]) TH_LOG("%s: node %u", ctx, v);
				EXPECT_EQ(ops[k] == TXNET_OP_DATA_SUM ? sum : pre, o.value[v])
					TH_LOG("%s: node %u", ctx, v);
			}
		}
	}
}

TEST_HARNESS_MAIN

/* ------------------------------------------ 8. below the lower bound */

/*
 * The second line, apart from every check above: a verified run that
 * took fewer ticks than a bound proven for it fails, an engine failure.
 * An honest total exchange on linear 8 verifies in at least 8^2/4 = 16
 * ticks (the bisection argument above): it passes its bound and fails
 * one tick past what it took, which no proof could have given.
 */
TEST(below_the_lower_bound)
{
	struct txn_run_params p = params(TXNET_OP_TOTAL_EXCHANGE);
	struct txn_engine e;
	struct tg t;
	int ret;

	ASSERT_EQ(0, tg_make(&t, "linear 8"));
	ASSERT_EQ(0, txn_engine_init(&e, &t.g, &hop, &p));
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	ASSERT_EQ(1, ret);
	ASSERT_EQ(0, txn_engine_verify(&e));
	EXPECT_LE(16U, e.tick);
	EXPECT_EQ(0, txn_engine_check_bound(&e, 16));
	EXPECT_EQ(0, txn_engine_check_bound(&e, e.tick));
	EXPECT_EQ(-EPROTO, txn_engine_check_bound(&e, e.tick + 1));
	EXPECT_STREQ("below the proven lower bound: an engine failure, not a result",
		     e.v.rule ?: "(none)");
	txn_engine_free(&e);
	tg_free(&t);
}
