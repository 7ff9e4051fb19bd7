// SPDX-License-Identifier: GPL-2.0
/*
 * A randomized adversary: the engine must be a referee no schedule can
 * fool, whatever it proposes and whatever it writes to the view it is
 * handed (kmod/core/engine.h, engine_view.c).  adversary_test.c and
 * forgery_test.c break one rule at a time, by hand; here a seeded PRNG
 * chooses, tens of thousands of times, on small networks, for five
 * operations under both port models.  The schedule routes honestly along
 * shortest ways (trees for broadcast and the sums) and, by the run's
 * mode, also makes random proposals, legal and not, in range and not
 * (moves, queue pushes and pops, copies, merges, folds, the helpers'
 * passes) and, as the last thing a callback does, writes to what it was
 * handed: a scalar of the view, an entry of the graph or of moves[], or
 * a pointer (after which it never reads the view again).  Its own code
 * reads only private copies.  Every run must end verified (no faster
 * than txn_bound(), with the sums computed here) or failed with -EPROTO
 * and a rule: never a crash or a sanitizer report.  Honest runs, and
 * runs that write only what the engine never reads back, must verify; a
 * run that wrote a compared field must fail; both outcomes must occur.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bounds.h"
#include "core/engine.h"

#define R_GRAPH	"the scheduler rewrote the engine's graph"
#define MAXV	16
#define MAXL	64
#define TICKS	400
#define SEEDS	800		/* runs per network, operation and port model */

enum { M_HONEST, M_BENIGN, M_CHAOS };
enum { W_START, W_CHOOSE, W_ARRIVE, W_ONWARD };

static struct {
	u64 rng;
	int mode;
	u32 kinds;			/* the kinds of proposal this run makes */
	u32 act, wr, wild;		/* per mille: a random proposal, a write, an index out of range */
	bool pq, blind, strict;		/* blind: a pointer written; strict: a compared field */
	bool gwrote;			/* an entry of the graph's arrays written */
	int start_err;
	u32 keys;
	u32 n, nodes, links, npkts, max_moves, op, root, port;
	u32 first[MAXV + 1], src[MAXL], dst[MAXL];
	u8 dist[MAXV][MAXV], par[MAXV][MAXV];
	u32 *orig;			/* sums: the processor whose value a slot carries */
	bool sent[MAXV], recv[MAXV];
	u64 recv_at[MAXV];
	const struct txn_graph *other;
} ra;

/* The run under way, for a sanitizer report that kills the binary first. */
static char now_running[160];

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

static void say_run(void)
{
	fprintf(stderr, "# random_adversary: died in %s\n", now_running);
}
#endif

static struct txn_move fake_moves[MAXL];
static u64 fake_words[MAXL];

static u64 rnd(void)
{
	u64 x = ra.rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return ra.rng = x;
}

static bool chance(u32 permille)
{
	return rnd() % 1000 < permille;
}

/* An index below @lim; in some runs sometimes just past it, TXN_NONE or anything. */
static u32 rnd_idx(u32 lim)
{
	u32 r = (u32)rnd();

	if (!chance(ra.wild))
		return lim ? r % lim : 0;
	return r % 3 == 0 ? TXN_NONE : r % 3 == 1 ? lim + r / 3 % 4 : (u32)rnd();
}

static bool combining(void)
{
	return ra.op == TXNET_OP_DATA_SUM || ra.op == TXNET_OP_PREFIX_SUM;
}

/* txn_move() bounded by the room the view had at the start, not by what it says now. */
static void mv(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->nmoves < ra.max_moves)
		e->moves[e->nmoves] = (struct txn_move){ pkt, link };
	e->nmoves++;
}

static void put(struct txn_engine *e, u32 link, u32 pkt)
{
	if (ra.pq)
		txn_pq_push(e, link, (u32)(rnd() % ra.keys), pkt);
	else
		txn_q_push(e, link, pkt);
}

static u32 take(struct txn_engine *e, u32 link)
{
	return ra.pq ? txn_pq_pop_max(e, link) : txn_q_pop(e, link);
}

/* A link out of @v one step closer to @d, at random among them; TXN_NONE if none. */
static u32 next_hop(u32 v, u32 d)
{
	u32 l, got = TXN_NONE, k = 0;

	if (v >= ra.nodes || d >= ra.nodes || v == d)
		return TXN_NONE;
	for (l = ra.first[v]; l < ra.first[v + 1]; l++)
		if (ra.dist[ra.dst[l]][d] + 1 == ra.dist[v][d] && rnd() % ++k == 0)
			got = l;
	return got;
}

/* Unicast and accumulate: on toward the packet's destination. */
static void route(struct txn_engine *e, u32 pkt, u32 v)
{
	u32 l = next_hop(v, txn_pkt_dst(e, pkt));

	if (l != TXN_NONE)
		put(e, l, pkt);
}

/* Broadcast and sums: fold here where the result wants it, send on down the tree. */
static void spread(struct txn_engine *e, u32 pkt, u32 v)
{
	u32 s, l, c, uses = 0, kids[MAXV], nk = 0, i;
	bool fold;

	if (pkt >= ra.npkts || v >= ra.n)
		return;
	s = ra.op == TXNET_OP_BROADCAST ? ra.root : ra.orig[pkt];
	if (s >= ra.n)
		return;
	fold = combining() && (ra.op == TXNET_OP_DATA_SUM || v >= s);
	for (l = ra.first[v]; l < ra.first[v + 1]; l++)
		if (ra.dst[l] != s && ra.par[s][ra.dst[l]] == v)
			kids[nk++] = l;
	uses = nk + fold;
	for (i = 0; i < uses; i++) {
		c = pkt;
		if (i + 1 < uses) {
			c = txn_copy(e, pkt);
			if (c >= ra.npkts)
				return;
			ra.orig[c] = ra.orig[pkt];
		}
		if (i < nk)
			put(e, kids[i], c);
		else
			txn_fold(e, c);
	}
}

/* One random proposal: legal or not, in range or not. */
static void proposal(struct txn_engine *e)
{
	u32 l = rnd_idx(ra.links), p = rnd_idx(ra.npkts), c;
	u64 bits[(MAXL + 63) / 64] = { rnd() };
	u32 kind = (u32)(rnd() % 17);

	if (!(ra.kinds >> kind & 1))	/* each run its own few kinds: deeper runs */
		return;
	switch (kind) {
	case 0: case 1: mv(e, p, l); break;
	case 2: txn_q_push(e, l, p); break;
	case 3: if ((c = txn_q_pop(e, l)) != TXN_NONE && chance(500)) mv(e, c, l); break;
	case 4: txn_pq_push(e, l, rnd_idx(ra.keys), p); break;
	case 5: if ((c = txn_pq_pop_max(e, l)) != TXN_NONE && chance(500)) mv(e, c, l); break;
	case 6:
		c = txn_copy(e, p);
		if (c < ra.npkts && p < ra.npkts) {
			ra.orig[c] = ra.orig[p];
			if (chance(500) && l < ra.links)
				put(e, l, c);
		}
		break;
	case 7: txn_merge(e, p, chance(300) ? p : rnd_idx(ra.npkts)); break;
	case 8: txn_fold(e, p); break;
	case 9: txn_copy_msg(e, rnd_idx(ra.n), rnd_idx(2)); break;
	case 10: txn_drop_copy(e, p); break;
	case 11:	/* questions, their answers used whatever they are */
		txn_pkt_prefetch(e, p);
		c = txn_pkt_loc(e, p) ^ txn_pkt_dst(e, p) ^ txn_pkt_src(e, p) ^ txn_pkt_count(e, p) ^
		    txn_queue_head(e, l) ^ txn_result_missing(e, rnd_idx(ra.n)) ^
		    txn_has_msg(e, rnd_idx(ra.n), rnd_idx(2));
		if (c == 0x5eed && l < ra.links)
			put(e, l, p);
		break;
	case 12: txn_q_send_heads(e); break;
	case 13: txn_q_send_heads_of(e, bits); break;
	case 14: txn_pq_send_top(e, l); break;
	case 15: txn_pq_send_tops(e); break;
	default: txn_pq_send_tops_single(e, l, ra.recv_at); break;
	}
}

static void proposals(struct txn_engine *e, u32 most)
{
	while (ra.mode == M_CHAOS && most-- && chance(ra.act))
		proposal(e);
}

/* Flip bits of the 4- or 8-byte field at @off of the view: a value it did not have. */
static void flip(struct txn_engine *e, size_t off, size_t size)
{
	u64 x = rnd() | 1, v = 0;

	memcpy(&v, (u8 *)e + off, size);	/* little-endian: the low bits either way */
	v ^= size == 4 ? (u32)x : x;
	memcpy((u8 *)e + off, &v, size);
}

#define F(field)	{ offsetof(struct txn_engine, field), sizeof(((struct txn_engine *)0)->field) }
static const struct { size_t off, size; } scalars[] = {
	F(n), F(npkts), F(pq_keys), F(max_moves), F(tick), F(delivered), F(expected),
	F(transmissions), F(copies), F(merges), F(injected), F(dropped), F(p.op),
	F(p.port_model), F(p.payload), F(p.seed), F(p.fault), F(p.root), F(p.nvalues),
	F(p.values_seed), F(p.max_ticks), F(p.config), F(p.ndests),
}, pointers[] = {
	F(g), F(sched), F(p.values), F(p.dests), F(p.budget), F(pq_bits), F(pq_len), F(active),
	F(active_sum), F(qlen), F(qmax), F(moves), F(ways), F(done), F(lost), F(ledger),
};

/*
 * What the engine never reads back (v, failed, ndone, nlost, the
 * schedule's own fields, active[] and qlen[], the moves once checked)
 * and the graph, which is either the caller's, never read back, or the
 * schedule's own copy, compared with the network's: a write to it may
 * fail the run, but only as a rewritten graph.
 */
static void write_benign(struct txn_engine *e, int where)
{
	const struct txn_graph *g = e->g;
	u32 x = (u32)rnd(), k = (u32)(rnd() % (where == W_CHOOSE || where == W_START ? 11 : 12));

	ra.gwrote |= k < 6;
	switch (k) {
	case 0: g->src[rnd() % ra.links] = rnd_idx(ra.nodes); break;
	case 1: g->dst[rnd() % ra.links] = rnd_idx(ra.nodes); break;
	case 2: g->first[rnd() % (ra.nodes + 1)] = rnd_idx(ra.links); break;
	case 3: g->rev[rnd() % ra.links] = x; break;
	case 4: if (g->line) g->line[rnd() % ra.links] = x; break;
	case 5: g->dst[rnd() % ra.links] = g->src[rnd() % ra.links]; break;
	case 6: e->failed = !e->failed; e->v.rule = chance(500) ? NULL : "forged"; break;
	case 7: e->ndone = x; e->nlost = x; break;
	case 8: e->sched_state[x % 4] = rnd(); e->priv = fake_words; break;
	case 9: e->v.tick = x; e->v.node = x; break;
	case 10: e->v.link = x; e->v.other = x; break;
	/* moves already checked: never in choose(), whose moves are this tick's */
	default: e->moves[x % ra.max_moves] = (struct txn_move){ rnd_idx(ra.npkts), x };
	}
}

/* Maybe, as the last thing a callback does, a write to what it was handed. */
static void write_view(struct txn_engine *e, int where)
{
	void *bad[] = { NULL, fake_moves, fake_words, (void *)ra.other, (void *)1 }, *old, *to;
	void *fake = &fake_words[1];
	u32 i;

	if (ra.mode == M_HONEST || !chance(ra.wr))
		return;
	if (ra.mode == M_BENIGN) {
		write_benign(e, where);
		return;
	}
	switch (rnd() % 8) {
	case 0: case 1: write_benign(e, W_START); break;
	case 2: e->moves[rnd() % ra.max_moves] = (struct txn_move){ rnd_idx(ra.npkts),
								   rnd_idx(ra.links) }; break;
	case 3: e->moves[rnd() % ra.max_moves].link = (u32)rnd(); break;
	case 4: e->nmoves = (u32)rnd() % (ra.max_moves + 4); break;	/* the schedule's own */
	case 5: case 6:
		i = (u32)(rnd() % ARRAY_SIZE(scalars));
		flip(e, scalars[i].off, scalars[i].size);
		ra.strict = true;
		break;
	default:
		i = (u32)(rnd() % ARRAY_SIZE(pointers));
		memcpy(&old, (u8 *)e + pointers[i].off, sizeof(old));
		to = bad[rnd() % ARRAY_SIZE(bad)];
		memcpy((u8 *)e + pointers[i].off, to == old ? &fake : &to, sizeof(to));
		ra.strict = ra.blind = true;	/* never to be read again */
	}
}

static int ra_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 s, v, l, pkt, *at;
	bool more;

	ra.n = e->n, ra.npkts = e->npkts, ra.max_moves = e->max_moves, ra.op = e->p.op;
	ra.root = e->p.root, ra.port = e->p.port_model, ra.nodes = g->nodes, ra.links = g->links;
	if (ra.nodes > MAXV || ra.links > MAXL || ra.n != ra.nodes)
		return -EINVAL;
	memcpy(ra.first, g->first, (ra.nodes + 1) * sizeof(u32));
	memcpy(ra.src, g->src, ra.links * sizeof(u32));
	memcpy(ra.dst, g->dst, ra.links * sizeof(u32));
	memset(ra.dist, 0xff, sizeof(ra.dist));
	for (s = 0; s < ra.nodes; s++)		/* Bellman-Ford: tiny graphs */
		for (ra.dist[s][s] = 0, more = true; more;)
			for (more = false, l = 0; l < ra.links; l++)
				if (ra.dist[s][ra.src[l]] + 1 < ra.dist[s][ra.dst[l]]) {
					ra.dist[s][ra.dst[l]] = ra.dist[s][ra.src[l]] + 1;
					more = true;
				}
	for (s = 0; s < ra.nodes; s++)		/* tree s: each node's parent toward s */
		for (v = 0; v < ra.nodes; v++)
			for (ra.par[s][v] = 0xff, l = ra.first[v]; l < ra.first[v + 1]; l++)
				if (ra.dist[s][ra.dst[l]] + 1 == ra.dist[s][v]) {
					ra.par[s][v] = (u8)ra.dst[l];
					break;
				}
	ra.orig = malloc(ra.npkts * sizeof(u32));
	at = malloc(ra.npkts * sizeof(u32));
	if (!ra.orig || !at || ra.start_err) {
		free(at);
		return ra.start_err ? ra.start_err : -ENOMEM;
	}
	memset(ra.orig, 0xff, ra.npkts * sizeof(u32));
	for (pkt = 0; pkt < ra.npkts; pkt++)	/* where packets start, before any copy */
		at[pkt] = txn_pkt_loc(e, pkt);
	for (pkt = 0; pkt < ra.npkts; pkt++) {
		if ((v = at[pkt]) >= ra.n)
			continue;
		ra.orig[pkt] = v;
		if (combining() || ra.op == TXNET_OP_BROADCAST)
			spread(e, pkt, v);
		else
			route(e, pkt, v);
	}
	free(at);
	proposals(e, 4);
	write_view(e, W_START);
	return 0;
}

static void ra_choose(struct txn_engine *e)
{
	u32 i, l, off = (u32)(rnd() % ra.links), pkt;
	bool single = ra.port == TXNET_PORT_SINGLE;

	if (ra.blind)
		return;
	memset(ra.sent, 0, sizeof(ra.sent));
	memset(ra.recv, 0, sizeof(ra.recv));
	for (i = 0; i < ra.links; i++) {
		l = (off + i) % ra.links;
		if (single && (ra.sent[ra.src[l]] || ra.recv[ra.dst[l]]))
			continue;
		pkt = take(e, l);
		if (pkt == TXN_NONE)
			continue;
		mv(e, pkt, l);
		ra.sent[ra.src[l]] = ra.recv[ra.dst[l]] = single;
	}
	proposals(e, 6);
	write_view(e, W_CHOOSE);
}

static void ra_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	u32 v;

	if (ra.blind || link >= ra.links)
		return;
	v = ra.dst[link];
	if (ra.op == TXNET_OP_TOTAL_EXCHANGE || ra.op == TXNET_OP_ACCUMULATE)
		route(e, pkt, v);
	else
		spread(e, pkt, v);
	proposals(e, 1);
	write_view(e, W_ARRIVE);
}

static u64 ra_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 d)
{
	u32 l, key = (u32)(rnd() % ra.keys);

	(void)pkt;
	/* onward() is handed its view as const: a schedule changes nothing through it */
	if (ra.blind || link >= ra.links || txn_link_down(e, link))
		return txn_way(0, 0);
	l = next_hop(ra.dst[link], d);
	if (ra.mode == M_CHAOS && chance(ra.act / 4)) {
		l = rnd_idx(ra.links);
		key = rnd_idx(ra.keys + 2);
	}
	return txn_way(l, key);
}

static u32 ra_keys(const struct txn_graph *g, const struct txn_run_params *p)
{
	return (void)g, (void)p, ra.keys;
}

static void ra_fini(struct txn_engine *e)
{
	(void)e;	/* the view may be anything by now: not read */
}

#define SCHED(...) { .algo = TXNET_ALGO_SHORTEST_PATH, .name = "random-adversary", \
		     .start = ra_start, .choose = ra_choose, .fini = ra_fini, __VA_ARGS__ }
static const struct txn_sched scheds[] = {
	SCHED(.arrive = ra_arrive),			/* FIFOs */
	SCHED(.arrive = ra_arrive, .pq_keys = ra_keys),	/* priority queues */
	SCHED(.onward = ra_onward),			/* unicast: the engine queues arrivals ... */
	SCHED(.onward = ra_onward, .pq_keys = ra_keys),	/* ... on priority queues (tick_onward) */
};

static const char *const nets[] = {
	"linear 5", "ring 6", "ring 7", "torus 3 3", "hypercube 3", "complete 5", };
static const u32 ops[] = {
	TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_BROADCAST, TXNET_OP_DATA_SUM, TXNET_OP_PREFIX_SUM,
	TXNET_OP_ACCUMULATE,
};
static const char *const mode_names[] = { "honest", "benign", "chaos" };

struct tally {
	u32 runs, verified, failed, init_err, by_mode[3][2];
};

/* The caller's graph as it was: the schedule may have written it. */
static void restore(struct txn_graph *g, const struct txn_graph *was)
{
	struct txn_graph arrays = *g;

	*g = *was;
	g->first = arrays.first, g->src = arrays.src, g->dst = arrays.dst, g->rev = arrays.rev;
	memcpy(g->first, was->first, (g->nodes + 1) * sizeof(u32));
	memcpy(g->src, was->src, g->links * sizeof(u32));
	memcpy(g->dst, was->dst, g->links * sizeof(u32));
	memcpy(g->rev, was->rev, g->links * sizeof(u32));
}

#define WHY	"%s", now_running

/* One seeded run of @op under @port on @t; outcomes into @c. */
static void one_run(struct __test_metadata *_metadata, struct tg *t, const struct tg *pristine,
		    const char *net, u32 op, u32 port, u64 seed, struct tally *c)
{
	struct txn_run_params p = { .op = op, .port_model = port, .max_ticks = TICKS };
	const struct txn_sched *s;
	struct txn_engine e;
	struct txn_bound b;
	s64 vals[MAXV], got;
	u64 sum = 0, total = 0;
	u32 i, n = t->g.procs, ticks, which;
	int ret;

	memset(&ra, 0, sizeof(ra));
	ra.rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	ra.other = &pristine->g;
	i = (u32)(rnd() % 10);
	ra.mode = i < 3 ? M_HONEST : i < 5 ? M_BENIGN : M_CHAOS;
	ra.act = (u32)(rnd() % 400);
	ra.kinds = (u32)(rnd() & rnd());
	ra.wild = (u32[]){ 0, 0, 5, 30, 300 }[rnd() % 5];
	ra.wr = ra.mode == M_BENIGN ? 50 + (u32)(rnd() % 200) : (u32)(rnd() % 60);
	ra.keys = 1 + (u32)(rnd() % 4);
	ra.start_err = ra.mode == M_CHAOS && chance(20) ? -ENOMEM : 0;
	which = (u32)(rnd() % (op == TXNET_OP_TOTAL_EXCHANGE ? 4 : 2));
	s = &scheds[which];
	ra.pq = s->pq_keys;
	p.root = txn_op_has_root(op) ? (u32)(rnd() % n) : 0;
	p.payload = txn_op_combines(op) ? 0 : (u32)(rnd() % 3) * 8;
	p.seed = rnd();
	for (i = 0; i < n; i++)
		total += (u64)(vals[i] = (s64)(rnd() % 2000001) - 1000000);
	if (txn_op_combines(op))
		p.values = vals, p.nvalues = n;
	snprintf(now_running, sizeof(now_running), "seed %llu: %s %s %s, %s, %s queues",
		 (unsigned long long)seed, net, txn_op_name(op),
		 port == TXNET_PORT_ALL ? "all-port" : "single-port", mode_names[ra.mode],
		 (const char *[]){ "fifo", "priority", "onward fifo", "onward priority" }[which]);
	if (getenv("RA_TRACE"))		/* UBSan's reports do not call say_run() */
		fprintf(stderr, "# %s\n", now_running);
	ASSERT_EQ(0, txn_bound(&t->spec, &t->g, op, port, p.root, &b)) TH_LOG(WHY);

	c->runs++;
	ret = txn_engine_init(&e, &t->g, s, &p);
	if (ret) {
		ASSERT_TRUE(ret < 0 && ret == ra.start_err) TH_LOG("%s: init %d", now_running, ret);
		c->init_err++;
		goto out;
	}
	for (ticks = 0; (ret = txn_engine_tick(&e)) == 0; ticks++)
		ASSERT_LT(ticks, TICKS + 2) TH_LOG("%s: past max_ticks", now_running);
	if (ret == 1)
		ret = txn_engine_verify(&e);
	if (ret) {
		ASSERT_EQ(-EPROTO, ret) TH_LOG(WHY);
		ASSERT_TRUE(e.failed && e.v.rule) TH_LOG(WHY);
		/* honest runs verify; benign ones too, or fail as a rewritten graph */
		ASSERT_TRUE(ra.mode == M_CHAOS ||
			    (ra.mode == M_BENIGN && ra.gwrote && !strcmp(e.v.rule, R_GRAPH)))
			TH_LOG("%s: failed: %s (tick %llu node %u pkt %u)", now_running, e.v.rule,
			       (unsigned long long)e.v.tick, e.v.node, e.v.pkt);
		c->failed++;
		c->by_mode[ra.mode][1]++;
		goto free;
	}
	ASSERT_FALSE(ra.strict) TH_LOG("%s: verified after a forged view", now_running);
	ASSERT_GE(e.tick, b.lower) TH_LOG("%s: %llu ticks, below the %s bound %llu", now_running,
					  (unsigned long long)e.tick, b.name,
					  (unsigned long long)b.lower);
	ASSERT_EQ(0, txn_engine_check_bound(&e, b.lower)) TH_LOG(WHY);
	for (i = 0; txn_op_combines(op) && i < n; i++) {
		sum += (u64)vals[i];
		if (op == TXNET_OP_ACCUMULATE && i != p.root) {
			ASSERT_FALSE(txn_engine_value(&e, i, &got)) TH_LOG(WHY);
			continue;
		}
		ASSERT_TRUE(txn_engine_value(&e, i, &got)) TH_LOG(WHY);
		ASSERT_EQ((s64)(op == TXNET_OP_PREFIX_SUM ? sum : total), got)
			TH_LOG("%s: node %u verified a wrong value", now_running, i);
	}
	c->verified++;
	c->by_mode[ra.mode][0]++;
free:
	txn_engine_free(&e);
out:
	free(ra.orig);
	ra.orig = NULL;
	restore(&t->g, &pristine->g);
}

static u64 env(const char *name, u64 dflt)
{
	const char *v = getenv(name);

	return v ? strtoull(v, NULL, 0) : dflt;
}

/* RA_SEED=s replays one run, RA_FIRST and RA_SEEDS widen the search, RA_TRACE names each. */
TEST(random_adversary)
{
	u64 seed = env("RA_FIRST", 1), only = env("RA_SEED", 0), seeds = env("RA_SEEDS", SEEDS), k;
	struct tally c = { 0 };
	u32 ni, oi, port;

#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(say_run);
#endif
	for (ni = 0; ni < ARRAY_SIZE(nets); ni++) {
		struct tg t, pristine;

		ASSERT_EQ(NULL, tg_make(&t, nets[ni]));
		ASSERT_EQ(NULL, tg_make(&pristine, nets[ni]));
		for (oi = 0; oi < ARRAY_SIZE(ops); oi++)
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++)
				for (k = 0; k < seeds; k++, seed++)
					if (!only || seed == only)
						one_run(_metadata, &t, &pristine, nets[ni],
							ops[oi], port, seed, &c);
		tg_free(&t);
		tg_free(&pristine);
	}
	printf("# %u runs: %u verified, %u failed, %u refused at start; "
	       "verified/failed: honest %u/%u, benign %u/%u, chaos %u/%u\n",
	       c.runs, c.verified, c.failed, c.init_err, c.by_mode[0][0], c.by_mode[0][1],
	       c.by_mode[1][0], c.by_mode[1][1], c.by_mode[2][0], c.by_mode[2][1]);
	if (only)	/* one run replayed, checked above */
		return;
	ASSERT_GT(c.verified, 0);
	ASSERT_GT(c.failed, 0);
	ASSERT_GT(c.by_mode[2][0], 0);	/* chaos that happened to keep the rules ... */
	ASSERT_GT(c.by_mode[2][1], 0);	/* ... and that did not */
}

TEST_HARNESS_MAIN
