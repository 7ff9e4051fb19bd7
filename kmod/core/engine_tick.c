// SPDX-License-Identifier: GPL-2.0
/*
 * The tick: every move the schedule proposed checked and applied, the
 * packets that landed queued where the schedule says they go next, and
 * the tick's end, where counters are mirrored and a run that touched
 * the engine's own state is failed.
 */
#include "engine_check.h"
#include "engine_queue.h"
#include "script.h"
#include "series.h"

void txn_engine_save(struct txn_engine *e, struct txn_log *log)
{
	e->ledger->log = log;
}

/*
 * Tick @t's moves, as checked, into the log: each named by what it
 * carries (script.h), read before arrive() may drop a copy or merge a
 * partial away.
 */
static noinline void log_moves(struct txn_engine *e, u64 t)
{
	struct txn_ledger *ledger = e->ledger;
	struct txn_log *log = ledger->log;
	const struct txn_graph *g = e->g;
	u32 i;

	if (!e->nmoves || txn_log_reserve(log, e->nmoves + 1))
		return;
	if ((t - log->last_tick) >> 32) {
		log->err = -E2BIG;
		return;
	}
	log->steps[log->nsteps++] = (struct txn_step){ TXN_STEP_TICK, (u32)(t - log->last_tick),
						       TXN_NONE, TXN_NONE };
	log->last_tick = t;
	for (i = 0; i < e->nmoves; i++) {
		u32 pkt = e->moves[i].pkt, link = e->moves[i].link;
		struct txn_step *st = &log->steps[log->nsteps++];

		st->from = g->src[link];
		st->to = g->dst[link];
		st->b = TXN_NONE;
		switch (ledger->kind) {
		case TXN_UNICAST:
			st->a = txn_slot_src(e, pkt);
			st->b = ledger->pk[pkt].tag;
			break;
		case TXN_BROADCAST:
			st->a = txn_msg_origin(ledger, ledger->pk[pkt].tag);
			break;
		default:
			st->a = txn_slot_dest(ledger, pkt);
			break;
		}
	}
}

/*
 * Check and apply every move of tick @t in one pass.  A packet that moved
 * this tick carries txn_loc_mark(@t) until the tick ends, so a second move
 * of it is caught; arrivals are handed to the schedule only after the pass.
 * @plain: a closed unicast run, the common case, handled in line;
 * @counted: a combining run, whose locs carry counts (struct txn_pkt).
 * The function is compiled once for each case.
 */
static __always_inline int move_all(struct txn_engine *e, u64 t, u32 *narr, const bool plain,
				    const bool counted)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_mv mv = mv_of(e);
	const u32 cbits = counted ? ledger->cbits : 0;
	const bool single = single_ported(e);
	struct txn_pkt *pk = ledger->pk;
	struct txn_move *arrivals = ledger->arrivals;
	u32 *recvd = ledger->recvd;
	const struct txn_move *moves = e->moves;
	const u32 nmoves = e->nmoves;
	u64 *hops = ledger->hops;
	u32 i, pkt, link, to = 0, n = 0, got = 0, na = *narr;
	int ret = 0;

	if (nmoves > e->max_moves)
		return txn_fail_too_many_moves(e, t);
	for (i = 0; i < nmoves; i++) {
		pkt = moves[i].pkt;
		link = moves[i].link;
		ret = check_move(e, &mv, t, i, pkt, link, &to, cbits, false, single);
		if (ret)
			return txn_violation_move(e, i);
		if (hops)
			hops[link]++;
		n++;
		if (plain) {
			if (to == pk[pkt].tag) {
				pk[pkt].loc = TXN_LOC_GONE;
				recvd[to]++;
				got++;
			} else {
				pk[pkt].loc = to | txn_loc_mark(t);
				arrivals[na].pkt = pkt;
				arrivals[na++].link = link;
			}
			continue;
		}
		pk[pkt].loc = txn_loc_moved(pk[pkt].loc, cbits, to, t);
		ret = arrive_at(e, t, pkt, to);
		if (ret < 0) {
			txn_violation_move(e, i);
			break;
		}
		if (ret) {
			arrivals[na].pkt = pkt;
			arrivals[na++].link = link;
		}
	}
	*narr = na;
	ledger->transmissions += n;
	ledger->delivered += got;
	return ret < 0 ? ret : 0;
}

/* Each case a function of its own, registers allocated for it alone. */
static noinline int move_plain(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, true, false);
}

static noinline int move_counted(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, false, true);
}

/* A broadcast's, or open traffic's. */
static noinline int move_other(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, false, false);
}

/*
 * A way onward() or onward_all() named: a link that exists (one that
 * leaves another node is caught when the packet moves on it), and its key,
 * past the last of @keys taken as the last.
 */
static __always_inline bool way_link(u64 way, u32 links, u32 *link)
{
	*link = (u32)way;
	return *link < links;
}

static __always_inline u32 way_key(u64 way, u32 keys)
{
	u32 key = (u32)(way >> 32);

	return key < keys ? key : keys - 1;
}

/*
 * Unicast arrivals of a schedule with onward(): each joins the queue of the
 * link onward() names (@prio 1: its priority queue, 2: its sorted queue's
 * arrivals' lane), in line, one call a hop.
 */
static __always_inline int send_on(struct txn_engine *e, u64 t, u32 narr, const int prio)
{
	txn_onward_fn *onward = e->sched->onward;
	const struct txn_engine *vw = txn_view_of(e);
	const struct txn_graph *g = e->g;
	const struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	const struct txn_move *arrivals = e->ledger->arrivals;
	u32 i, next;
	u64 way;

	for (i = 0; i < narr; i++) {
		const struct txn_move *m = &arrivals[i];

		pk[m->pkt].loc = g->dst[m->link];
		way = onward(vw, m->pkt, m->link, pk[m->pkt].tag);
		if (!way_link(way, g->links, &next))
			return txn_violate(e, t, g->dst[m->link], m->pkt, "no such link");
		if (prio == 2) {
			/* the sorted lane takes any key */
			sq_push_key(e, &q, pk, next, m->pkt, (u32)(way >> 32));
		} else if (prio) {
			pq_push(&q, pk, next, way_key(way, e->pq_keys), m->pkt);
		} else {
			q_push(&q, pk, next, m->pkt);
		}
	}
	return 0;
}

/*
 * A closed unicast run on priority queues whose schedule has onward(), the
 * general schedule's case, in three passes.  land(): each move checked and
 * made; a packet home is delivered, one not yet home is written to
 * landed[].  Then the schedule names every landed packet's way at once
 * (onward_all(), or onward() for each), all weighed on the queues as the
 * tick's pops left them, as routers that decide in the same tick would;
 * and queue_landed() checks each way and queues the packet on it.  Every
 * pop was before the passes, so nothing leaves in the tick it arrived.
 * The moved mark, with the tick's parity, still catches a second move of
 * a packet this tick; it is not cleared by another pass but by the pop
 * that takes the packet off the queue it joined (pq_pop()), and every
 * reader of a location masks it (TXN_LOC_MARKS).  The passes are short
 * loops without a call: a hop's loads do not wait on the hop before, and
 * no base pointer is saved across a call each hop (one pass calling
 * onward() each hop is slower than the three: the call makes each hop
 * wait on the one before).  @simple: no link down, no lines, no switches, no run beside:
 * nothing of theirs to check; @single: the single-port rule.  The counters
 * are left to the caller, which checks that the schedule wrote none of
 * the scheduler's copies first.
 */
static __always_inline int land(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland,
				const bool simple, const bool single, const bool ahead)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_mv mv = mv_of(e);
	const struct txn_move *moves = e->moves;
	const u32 nmoves = e->nmoves;
	struct txn_pkt *pk = ledger->pk;
	struct txn_landed *landed = ledger->landed;
	u32 *recvd = ledger->recvd, *qlen = ledger->q.qlen, *qmax = ledger->q.qmax;
	u32 mark = txn_loc_mark(t);
	u32 i, pkt, link, to = 0, home = 0, n = 0;
	int ret = 0;

	if (nmoves > e->max_moves)
		return txn_fail_too_many_moves(e, t);
	for (i = 0; i < nmoves; i++) {
		/*
		 * The choose pass popped these records a whole pass ago, out of
		 * the caches on a large network: read them again a few moves
		 * ahead: past the last move, an old one or zeros.  A prefetch
		 * never faults, so a move that names no packet costs a wasted
		 * read here, and check_move() refuses it.
		 */
		if (ahead)
			txn_prefetch(&pk[moves[i + MOVES_AHEAD].pkt]);
		pkt = moves[i].pkt;
		link = moves[i].link;
		ret = check_move(e, &mv, t, i, pkt, link, &to, 0, simple, single);
		if (ret)
			break;
		if (to == pk[pkt].tag) {
			pk[pkt].loc = TXN_LOC_GONE;
			recvd[to]++;
			home++;
			continue;
		}
		pk[pkt].loc = to | mark;
		landed[n].pkt = pkt;
		landed[n].link = link;
		landed[n].at = to;
		landed[n].dst = pk[pkt].tag;
		n++;
		/*
		 * It is queued at @to (a way that leaves another node fails
		 * the run when the packet moves on it): counted here, where
		 * @to is at hand, and every pop of the tick came first, so
		 * the node's largest queue is as pq_push() would find it.
		 */
		node_count_in(qlen, qmax, to);
	}
	*sent = i;
	*got = home;
	*nland = n;
	return ret;
}

/*
 * Each case a function of its own: registers allocated for it alone.
 * The common ones twice: with the read ahead, for records past the
 * caches, and without, for those the pops left warm, where the read
 * ahead would only add work to each hop.
 */
static noinline int land_all(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, false, false);
}

static noinline int land_all_ahead(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, false, true);
}

static noinline int land_single(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, true, false);
}

static noinline int land_single_ahead(struct txn_engine *e, u64 t, u32 *sent, u32 *got,
				      u32 *nland)
{
	return land(e, t, sent, got, nland, true, true, true);
}

static noinline int land_any(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland,
			     bool single)
{
	return land(e, t, sent, got, nland, false, single, true);
}

/*
 * The landed packets queued where the schedule's ways[] say.  A way to a
 * link that does not exist fails the run; one that leaves another node is
 * caught when the packet moves on it.
 */
static __always_inline int queue_landed(struct txn_engine *e, u64 t, u32 n, const bool ahead)
{
	const struct txn_qs q = qs_of(e);
	const struct txn_landed *landed = e->ledger->landed;
	const u64 *ways = e->ways;
	struct txn_pkt *pk = e->ledger->pk;
	const u32 keys = e->pq_keys;
	u32 i, next;

	for (i = 0; i < n; i++) {
		/* land() read them, but a pass ago: past the caches on a large network */
		if (ahead)
			txn_prefetch(&pk[landed[i + MOVES_AHEAD].pkt]);
		if (!way_link(ways[i], q.links, &next))
			return txn_violate(e, t, landed[i].at, landed[i].pkt, "no such link");
		pq_link(&q, pk, next, way_key(ways[i], keys), landed[i].pkt);
	}
	return 0;
}

/* The nodes of many ports that queue_landed() queued on: their pq_node_max raised. */
static noinline void raise_landed(struct txn_engine *e, u32 n)
{
	const struct txn_qs q = qs_of(e);
	u32 i;

	for (i = 0; i < n; i++)
		raise_node_max(&q, (u32)e->ways[i]);
}

void txn_engine_record(struct txn_engine *e, struct txn_series *s)
{
	e->ledger->series = s;
}

static int tick_end(struct txn_engine *e, u64 t, u64 before);

/*
 * The arrivals pass reads tables at random for each arrival (a tree's
 * row, a partial waiting at the node): a pipeline of hints ahead of it,
 * the packet record first, then the schedule's two steps.
 */
#define ARRIVE_AHEAD 6

static void hint_arrivals(const struct txn_engine *e, u32 i)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_move *a = ledger->arrivals + i;

	txn_slot_prefetch(ledger, a[3 * ARRIVE_AHEAD].pkt);
	if (!e->sched->arrive_ahead(&ledger->view, &a[2 * ARRIVE_AHEAD], &a[ARRIVE_AHEAD]))
		ledger->hints = false;
}

static noinline int queue_landed_near(struct txn_engine *e, u64 t, u32 n)
{
	return queue_landed(e, t, n, false);
}

static noinline int queue_landed_far(struct txn_engine *e, u64 t, u32 n)
{
	return queue_landed(e, t, n, true);
}

/*
 * The rest of a tick of a closed unicast run with onward() and priority
 * queues: the moves made (land(), compiled for the common cases: no
 * faults, lines, switches or run beside; all ports or one; and for the
 * rest), the landed packets routed and queued.  Schedules on FIFOs keep
 * the tick of move_all() and send_on() instead: a FIFO push writes the
 * old tail's record, and among the checks of a move those stores made
 * message-shift's single-port hop 40% slower.
 */
static noinline int tick_onward(struct txn_engine *e, u64 t, u64 before)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_sched *s = e->sched;
	bool simple = !ledger->ndown && !e->g->line && !ledger->taken && e->g->nodes == e->g->procs;
	bool single = single_ported(e);
	bool ahead = (u64)e->npkts * sizeof(struct txn_pkt) > MOVES_AHEAD_BYTES;
	u32 sent = 0, got = 0, n = 0, i;
	int ret;

	if (!simple)
		ret = land_any(e, t, &sent, &got, &n, single);
	else if (single)
		ret = ahead ? land_single_ahead(e, t, &sent, &got, &n) :
			      land_single(e, t, &sent, &got, &n);
	else
		ret = ahead ? land_all_ahead(e, t, &sent, &got, &n) :
			      land_all(e, t, &sent, &got, &n);
	if (ret || e->failed)
		return -EPROTO;
	/* Every move checked and made: the picture shows what the engine did. */
	if (ledger->series)
		txn_series_links(ledger->series, t, e->moves, e->nmoves);
	if (ledger->log)
		log_moves(e, t);
	if (s->onward_all) {
		s->onward_all(&ledger->view, ledger->landed, n, e->ways);
	} else {
		for (i = 0; i < n; i++)
			e->ways[i] = s->onward(&ledger->view, ledger->landed[i].pkt,
					       ledger->landed[i].link, ledger->landed[i].dst);
	}
	/* before the counters move: a write of the schedule's to its copies of them shows */
	if (e->failed || txn_view_check(e, t))
		return -EPROTO;
	if (ahead ? queue_landed_far(e, t, n) : queue_landed_near(e, t, n))
		return -EPROTO;
	if (ledger->q.pq_node_max)
		raise_landed(e, n);
	ledger->transmissions += sent;
	ledger->delivered += got;
	return tick_end(e, t, before);
}

int txn_engine_tick(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_graph *g = e->g;
	u64 t = ledger->tick + 1, before = ledger->delivered;
	u32 i, narr = 0;
	int ret;

	if (e->failed)
		return -EPROTO;
	e->ndone = 0;
	ledger->view.ndone = 0;
	ledger->view.nmoves = 0;
	ledger->choosing = true;
	e->sched->choose(&ledger->view);
	ledger->choosing = false;
	/*
	 * The moves are the view's count of the owner's array, whose room the
	 * engine alone knows.  The rest of the view the engine never reads:
	 * it is checked once the schedule has run for the last time this
	 * tick, before the tick is counted, so that a write in choose() (or
	 * in any call of the tick) fails this tick, and nothing it wrote is
	 * overwritten unseen: the counters the moves change are mirrored into
	 * the view as they were into what the view must be.
	 */
	e->nmoves = ledger->view.nmoves;
	if (e->failed)
		return -EPROTO;
	if (ledger->p.fault)
		txn_inject_fault(e);
	if (ledger->kind == TXN_UNICAST && !ledger->open && e->sched->onward && e->pq_keys)
		return tick_onward(e, t, before);
	if (ledger->kind == TXN_UNICAST && !ledger->open)
		ret = move_plain(e, t, &narr);
	else if (ledger->kind == TXN_COMBINE)
		ret = move_counted(e, t, &narr);
	else
		ret = move_other(e, t, &narr);
	if (ret)
		return ret;
	/* Every move checked and made: the picture shows what the engine did. */
	if (ledger->series)
		txn_series_links(ledger->series, t, e->moves, e->nmoves);
	if (ledger->log)
		log_moves(e, t);
	/* The counters as the moves left them, for arrive() to read. */
	txn_view_mirror(e);
	/*
	 * Only now may arrivals join queues: nothing leaves in the tick it
	 * arrived.  Where copies and merges may name any packet at a node,
	 * every arrival is in place before the scheduler hears of the first,
	 * and one merged away by then is not handed over; unicast packets
	 * are only ever named by their own arrival.
	 */
	if (ledger->kind == TXN_UNICAST && e->sched->onward && e->pq_keys) {
		ret = send_on(e, t, narr, 1);
	} else if (ledger->kind == TXN_UNICAST && e->sched->onward && ledger->q.sqk) {
		ret = send_on(e, t, narr, 2);
	} else if (ledger->kind == TXN_UNICAST && e->sched->onward) {
		ret = send_on(e, t, narr, 0);
	} else if (ledger->kind == TXN_UNICAST) {
		for (i = 0; i < narr; i++) {
			const struct txn_move *m = &ledger->arrivals[i];

			ledger->pk[m->pkt].loc = g->dst[m->link];
			/* A schedule without arrive() keeps its own account of where packets are. */
			if (e->sched->arrive)
				e->sched->arrive(&ledger->view, m->pkt, m->link);
		}
	} else {
		for (i = 0; i < narr; i++) {
			const struct txn_move *m = &ledger->arrivals[i];

			ledger->pk[m->pkt].loc = txn_loc_unmarked(ledger->pk[m->pkt].loc);
		}
		for (i = 0; i < narr && !e->failed; i++) {
			const struct txn_move *m = &ledger->arrivals[i];

			if (ledger->hints && i + 3 * ARRIVE_AHEAD < narr)
				hint_arrivals(e, i);
			if (txn_loc_uncounted(ledger, ledger->pk[m->pkt].loc) == g->dst[m->link] &&
			    e->sched->arrive)
				e->sched->arrive(&ledger->view, m->pkt, m->link);
		}
	}
	if (ret || e->failed || txn_view_check(e, t))
		return -EPROTO;
	return tick_end(e, t, before);
}

static int tick_end(struct txn_engine *e, u64 t, u64 before)
{
	struct txn_ledger *ledger = e->ledger;

	ledger->tick = t;
	txn_engine_mirror(e);
	if (ledger->series)
		txn_series_held(ledger->series, t, ledger, e->npkts);
	if (ledger->open)
		return ledger->delivered + ledger->dropped == ledger->injected;
	if (ledger->delivered == ledger->expected)
		return 1;
	if (ledger->delivered != before)
		ledger->progress_tick = t;
	else if (t - ledger->progress_tick >
		 ledger->stall_limit + (ledger->expected - ledger->delivered))
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "no progress: nothing was delivered for too many ticks (a livelock or a lost packet)");
	if (ledger->p.max_ticks && t >= ledger->p.max_ticks)
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "tick limit: the run reached max_ticks before it was done");
	return 0;
}
