// SPDX-License-Identifier: GPL-2.0
/*
 * Replay: a schedule that proposes what a script says (script.h), tick by
 * tick, and knows nothing else.  Where a script names a message rather
 * than a packet, this decides which packet it is, by rules a person can
 * predict (Documentation/txnet-schedule-format.rst):
 *
 * - a unicast message is one packet, wherever it is;
 * - a broadcast copy leaves a processor made afresh from the message it
 *   has (txn_copy_msg()), and a copy that reaches a processor is dropped
 *   there, the message kept; a switch holds the copies it received and
 *   sends each once (a switch cannot copy);
 * - toward an accumulation's result, a processor sends everything it
 *   holds toward it, merged into one partial; a switch (which cannot
 *   combine) holds its partials apart and sends one a move;
 * - in a data sum a processor holds one partial, of an interval of
 *   processors, and sends copies of it; a partial that reaches a
 *   processor joins the one it holds when the two make one interval,
 *   takes its place when it holds all of it, and is dropped when it
 *   holds nothing more; once a processor's partial is of every
 *   processor, a copy is folded into its result.  A switch holds the
 *   partials it received apart and sends each once.
 *
 * What a move means is the engine's to judge: a packet sent from where it
 * is not, a cable taken twice, a message copied where it never arrived
 * fails the run as it would any schedule's.  The replay refuses only what
 * it cannot even propose (a switch asked for a copy it does not hold),
 * and a script that ends before the run is done.
 */
#include "script.h"

struct replay {
	const struct txn_step *steps;
	u64 nsteps, pos;	/* the next step to read: a move of tick @at, or a mark */
	u64 at;
	u32 nid;		/* messages (broadcast) or results (accumulations): 1 or n */
	u32 *held;		/* per vertex and message or result: a chain of the packets there */
	u32 *next;		/* per slot: the chain on */
	/* data sums */
	u32 *mine;		/* per processor: the partial it holds */
	u32 *lo, *len;		/* per slot: its partial's first processor, and how many */
	u8 *folded;		/* per processor: whether its result has had its copy */
};

static bool held_kind(u32 op)
{
	return op == TXNET_OP_BROADCAST || op == TXNET_OP_MULTINODE_BROADCAST ||
	       op == TXNET_OP_ACCUMULATE || op == TXNET_OP_MULTINODE_ACCUMULATE ||
	       op == TXNET_OP_DATA_SUM;
}

static u32 ids_of(u32 op, u32 n)
{
	return op == TXNET_OP_MULTINODE_BROADCAST || op == TXNET_OP_MULTINODE_ACCUMULATE ? n : 1;
}

static u64 replay_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)port;
	if (!held_kind(op))
		return sizeof(struct replay);
	return sizeof(struct replay) + (u64)g->nodes * ids_of(op, g->procs) * sizeof(u32) +
	       npkts * sizeof(u32) + (op == TXNET_OP_DATA_SUM ?
	       npkts * 2 * sizeof(u32) + (u64)g->procs * (sizeof(u32) + sizeof(u8)) : 0);
}

/* The chain a packet bound for (or of) processor @a's message or result joins at @v. */
static u32 *chain(struct replay *r, u32 v, u32 a)
{
	return &r->held[(u64)v * r->nid + (r->nid == 1 ? 0 : a)];
}

static void hold(const struct txn_engine *e, struct replay *r, u32 v, u32 pkt)
{
	u32 *h = chain(r, v, r->nid == 1 ? 0 : txn_pkt_dst(e, pkt));

	r->next[pkt] = *h;
	*h = pkt;
}

static u32 take(struct replay *r, u32 v, u32 a)
{
	u32 *h = chain(r, v, a), pkt = *h;

	if (pkt != TXN_NONE)
		*h = r->next[pkt];
	return pkt;
}

static void replay_fini(struct txn_engine *e)
{
	struct replay *r = e->priv;

	if (!r)
		return;
	txn_free(r->held);
	txn_free(r->next);
	txn_free(r->mine);
	txn_free(r->lo);
	txn_free(r->len);
	txn_free(r->folded);
	txn_free(r);
	e->priv = NULL;
}

/* A data sum starts with each processor holding its own partial, of itself. */
static int start_sum(struct txn_engine *e, struct replay *r)
{
	u32 pkt, v;

	r->mine = txn_alloc_array(e->n, sizeof(u32));
	r->folded = txn_zalloc_array(e->n, sizeof(u8));
	r->lo = txn_alloc_array(e->npkts, sizeof(u32));
	r->len = txn_zalloc_array(e->npkts, sizeof(u32));
	if (!r->mine || !r->folded || !r->lo || !r->len)
		return -ENOMEM;
	for (v = 0; v < e->n; v++)
		r->mine[v] = TXN_NONE;
	for (pkt = 0; pkt < e->npkts; pkt++) {
		v = txn_pkt_loc(e, pkt);
		if (v >= e->n || txn_pkt_count(e, pkt) != 1 || r->mine[v] != TXN_NONE)
			continue;
		r->mine[v] = pkt;
		r->lo[pkt] = v;
		r->len[pkt] = 1;
	}
	for (v = 0; v < e->n; v++)
		if (r->mine[v] == TXN_NONE)
			return -EINVAL;
	return 0;
}

/* Whether interval (@lo2, @len2) of @n processors lies within (@lo, @len). */
static bool within(u32 n, u32 lo, u32 len, u32 lo2, u32 len2)
{
	return len == n || (lo2 + n - lo) % n + len2 <= len;
}

static void copy_interval(struct replay *r, u32 to, u32 from)
{
	r->lo[to] = r->lo[from];
	r->len[to] = r->len[from];
}

/* The copy of @st's partial that leaves @from, or TXN_NONE when the run failed. */
static u32 pick_sum(struct txn_engine *e, struct replay *r, const struct txn_step *st, u32 link)
{
	u32 n = e->n, len = (st->b + n - st->a) % n + 1, pkt, c, *h;

	if (st->from < n) {
		pkt = r->mine[st->from];
		if (r->len[pkt] != len || !within(n, r->lo[pkt], r->len[pkt], st->a, len)) {
			txn_sched_refuse(e, st->from, link,
					 "a processor sends a partial it does not hold: its own is of other processors");
			return TXN_NONE;
		}
		c = txn_copy(e, pkt);
		if (c != TXN_NONE)
			copy_interval(r, c, pkt);
		return c;
	}
	for (h = chain(r, st->from, 0); *h != TXN_NONE; h = &r->next[*h]) {
		pkt = *h;
		if (r->len[pkt] == len && within(n, r->lo[pkt], len, st->a, len)) {
			*h = r->next[pkt];
			return pkt;
		}
	}
	txn_sched_refuse(e, st->from, link, "a switch sends a partial it does not hold");
	return TXN_NONE;
}

/*
 * Partial @pkt has reached processor @v: it joins the one there when the
 * two make one interval, takes its place when it holds all of it, and is
 * dropped when it holds nothing more.  Any other meeting would count a
 * contribution twice or name a partial no interval names.
 */
static void arrive_sum(struct txn_engine *e, struct replay *r, u32 v, u32 pkt)
{
	u32 n = e->n, mine = r->mine[v], lo = r->lo[mine], len = r->len[mine];
	u32 plo = r->lo[pkt], plen = r->len[pkt], c;

	if (len + plen <= n && ((lo + len) % n == plo || (plo + plen) % n == lo)) {
		if (txn_merge(e, mine, pkt))
			return;
		r->lo[mine] = (plo + plen) % n == lo ? plo : lo;
		r->len[mine] = len + plen;
	} else if (within(n, plo, plen, lo, len)) {
		if (txn_drop_copy(e, mine))
			return;
		r->mine[v] = mine = pkt;
	} else if (within(n, lo, len, plo, plen)) {
		txn_drop_copy(e, pkt);
		return;
	} else {
		txn_sched_refuse(e, v, TXN_NONE,
				 "a partial reached a processor whose own neither joins it into one interval nor holds it all");
		return;
	}
	if (r->len[mine] == n && !r->folded[v]) {
		r->folded[v] = 1;
		c = txn_copy(e, mine);
		if (c != TXN_NONE)
			txn_fold(e, c);
	}
}

static int replay_start(struct txn_engine *e)
{
	const struct txn_script *s = e->p.script;
	struct replay *r;
	u64 i, nheld;
	u32 pkt, v;

	if (!s || !s->nsteps || s->steps[0].from != TXN_STEP_TICK)
		return -EINVAL;
	r = txn_zalloc_array(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	e->priv = r;
	r->steps = s->steps;
	r->nsteps = s->nsteps;
	r->at = s->steps[0].to;
	r->pos = 1;
	if (!held_kind(e->p.op))
		return 0;
	r->nid = ids_of(e->p.op, e->n);
	nheld = (u64)e->g->nodes * r->nid;
	r->held = txn_alloc_array(nheld, sizeof(u32));
	r->next = txn_alloc_array(e->npkts, sizeof(u32));
	if (!r->held || !r->next)
		return -ENOMEM;
	for (i = 0; i < nheld; i++)
		r->held[i] = TXN_NONE;
	if (e->p.op == TXNET_OP_DATA_SUM)
		return start_sum(e, r);
	/* what each processor holds as the run starts: its own partials, the root's copies */
	for (pkt = 0; pkt < e->npkts; pkt++) {
		v = txn_pkt_loc(e, pkt);
		if (v < e->g->nodes)
			hold(e, r, v, pkt);
	}
	return 0;
}

/* The slot of the unicast message from @a to @b, TXN_NONE when the run has none. */
static u32 message(const struct txn_engine *e, u32 a, u32 b)
{
	u32 pkt;

	if (a >= e->n || b >= e->n)
		return TXN_NONE;
	switch (e->p.op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		/* the engine's own layout of a total exchange's slots (engine.h) */
		return a == b ? TXN_NONE : txn_pkt_id(e, a, b);
	case TXNET_OP_SCATTER:
		pkt = b < e->p.root ? b : b - 1;
		break;
	case TXNET_OP_GATHER:
		pkt = a < e->p.root ? a : a - 1;
		break;
	default:
		pkt = a;
		break;
	}
	/* elsewhere the engine's own answer decides: a slot is the message it says it is */
	if (pkt >= e->npkts || txn_pkt_src(e, pkt) != a || txn_pkt_dst(e, pkt) != b)
		return TXN_NONE;
	return pkt;
}

/* The packet step @st moves out of @from, or TXN_NONE when the run failed. */
static u32 pick(struct txn_engine *e, struct replay *r, const struct txn_step *st, u32 link)
{
	u32 pkt, more;

	switch (e->p.op) {
	case TXNET_OP_TOTAL_EXCHANGE:
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
	case TXNET_OP_PERMUTATION:
		pkt = message(e, st->a, st->b);
		if (pkt == TXN_NONE)
			txn_sched_refuse(e, st->from, link, "no such message in this run");
		return pkt;
	case TXNET_OP_DATA_SUM:
		return pick_sum(e, r, st, link);
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		pkt = take(r, st->from, st->a);
		if (pkt == TXN_NONE && st->from < e->n)
			pkt = txn_copy_msg(e, st->from, r->nid == 1 ? 0 : st->a);
		else if (pkt == TXN_NONE)
			txn_sched_refuse(e, st->from, link,
					 "a switch sends a copy of a message it does not hold");
		return pkt;
	default:
		pkt = take(r, st->from, st->a);
		if (pkt == TXN_NONE) {
			txn_sched_refuse(e, st->from, link,
					 "a vertex sends toward a result it holds nothing toward");
			return TXN_NONE;
		}
		if (st->from >= e->n)
			return pkt;
		while ((more = take(r, st->from, st->a)) != TXN_NONE)
			if (txn_merge(e, pkt, more))
				return TXN_NONE;
		return pkt;
	}
}

static void replay_choose(struct txn_engine *e)
{
	struct replay *r = e->priv;
	const struct txn_step *st;
	const char *why;
	u32 link, pkt;

	if (r->pos >= r->nsteps) {
		txn_sched_refuse(e, TXN_NONE, TXN_NONE,
				 "the schedule ended before every delivery was made");
		return;
	}
	if (e->tick + 1 < r->at)
		return;
	for (; r->pos < r->nsteps; r->pos++) {
		st = &r->steps[r->pos];
		if (st->from == TXN_STEP_TICK) {
			r->at += st->to;
			r->pos++;
			return;
		}
		why = txn_script_move_why(e->g, &e->p, st, &link);
		if (why) {
			txn_sched_refuse(e, st->from < e->g->nodes ? st->from : TXN_NONE, TXN_NONE, why);
			return;
		}
		pkt = pick(e, r, st, link);
		if (e->failed)
			return;
		txn_move(e, pkt, link);
	}
}

/* A packet that did not end its way here: rest it, to be named by a later move. */
static void replay_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct replay *r = e->priv;
	u32 v = e->g->dst[link];

	switch (e->p.op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		if (v < e->n)
			txn_drop_copy(e, pkt);
		else
			hold(e, r, v, pkt);
		return;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		hold(e, r, v, pkt);
		return;
	case TXNET_OP_DATA_SUM:
		if (v < e->n)
			arrive_sum(e, r, v, pkt);
		else
			hold(e, r, v, pkt);
		return;
	default:
		return;
	}
}

const struct txn_sched txn_sched_replay = {
	.algo = TXNET_ALGO_REPLAY,
	.name = "replay",
	.start = replay_start,
	.choose = replay_choose,
	.arrive = replay_arrive,
	.fini = replay_fini,
	.priv_bytes = replay_bytes,
};
