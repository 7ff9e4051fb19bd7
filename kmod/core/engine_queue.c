// SPDX-License-Identifier: GPL-2.0
/*
 * The queues as schedules call them: pushes and pops by link, and the
 * all-port pass that sends every queue's head.  The inline operations
 * they share with the tick are in engine_queue.h.
 */
#include "engine_queue.h"
/* Out of order: the tail is less urgent, so the walk ends before it. */
noinline void txn_lane_walk(const struct txn_engine *e, struct txn_pkt *pk, u32 head,
			       u32 link, u32 pkt, u32 k)
{
	txn_sq_key_fn *key = e->sched->sq_key;
	const struct txn_engine *vw = txn_view_of(e);
	u32 prev, cur;

	for (prev = head, cur = pk[prev].next; key(vw, link, txn_slot_dest(e->ledger, cur)) >= k;
	     prev = cur, cur = pk[cur].next)
		;
	pk[pkt].next = cur;
	pk[prev].next = pkt;
}

/*
 * What a schedule names when it queues: a link that exists, a packet
 * slot that does, resting at the link's tail on no queue (a packet on
 * two queues would chain them into one), a key below the run's.  A
 * failure names the rule, and nothing is written.
 */
static noinline bool bad_push(struct txn_engine *e, u32 link, u32 pkt)
{
	struct txn_ledger *ledger = e->ledger;
	u32 loc;

	if (link >= e->g->links) {
		txn_violate(e, ledger->tick + 1, TXN_NONE, pkt,
			    "queued on no such link: the scheduler made it up");
		return true;
	}
	if (pkt >= e->npkts) {
		txn_violate(e, ledger->tick + 1, e->g->src[link], pkt,
			    "no such packet: the scheduler made it up");
		return true;
	}
	loc = ledger->pk[pkt].loc;
	if (loc == TXN_LOC_FREE || loc == TXN_LOC_GONE) {
		txn_violate(e, ledger->tick + 1, e->g->src[link], pkt,
			    "packet used after it was consumed, merged or folded");
		return true;
	}
	return false;
}

/*
 * Queues of a kind the run does not have (priority buckets without
 * pq_keys, sorted lanes without sq_key): there are no arrays to name.
 */
static noinline bool no_queue(struct txn_engine *e)
{
	txn_violate(e, e->ledger->tick + 1, TXN_NONE, TXN_NONE,
		    "a queue of a kind this run does not have: the scheduler made it up");
	return false;
}

/* Whether @pkt may join @link's queue; @prio: under bucket @key. */
static __always_inline bool push_ok(struct txn_engine *e, u32 link, u32 pkt, bool prio, u32 key)
{
	if (e->failed)
		return false;
	if (unlikely(link >= e->g->links || pkt >= e->npkts ||
		     e->ledger->pk[pkt].loc >= TXN_LOC_FREE))
		return !bad_push(e, link, pkt);
	if (unlikely(prio && key >= e->pq_keys)) {
		if (!e->pq_keys)
			return no_queue(e);
		txn_violate(e, e->ledger->tick + 1, e->g->src[link], pkt,
			    "queued under a key past the run's: the scheduler made it up");
		return false;
	}
	return true;
}

/* Whether @link, whose queue a schedule pops, exists (@have: of a kind the run has). */
static __always_inline bool pop_ok(struct txn_engine *e, u32 link, bool have)
{
	if (unlikely(!have))
		return no_queue(e);
	if (likely(link < e->g->links))
		return true;
	txn_violate(e, e->ledger->tick + 1, TXN_NONE, TXN_NONE,
		    "popped no such link: the scheduler made it up");
	return false;
}

void txn_sq_push(struct txn_engine *vw, u32 link, u32 pkt, bool arrival)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	u32 k;

	if (!e->ledger->q.sqk) {
		no_queue(e);
		return;
	}
	if (!push_ok(e, link, pkt, false, 0))
		return;
	k = e->sched->sq_key(vw, link, txn_slot_dest(e->ledger, pkt));

	if (arrival) {
		sq_push_key(e, &q, pk, link, pkt, k);
		return;
	}
	lane_insert(e, pk, &q.qhead[link], &q.qtail[link], &e->ledger->q.sqk[2 * link], link, pkt,
		    k);
	queued(&q, link);
}

void txn_q_push(struct txn_engine *vw, u32 link, u32 pkt)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);

	if (push_ok(e, link, pkt, false, 0))
		q_push(&q, e->ledger->pk, link, pkt);
}

u32 txn_q_pop(struct txn_engine *vw, u32 link)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);

	if (!pop_ok(e, link, true))
		return TXN_NONE;
	return q_pop(&q, e->ledger->pk, link);
}

void txn_pq_push(struct txn_engine *vw, u32 link, u32 key, u32 pkt)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);

	if (push_ok(e, link, pkt, true, key))
		pq_push(&q, e->ledger->pk, link, key, pkt);
}

u32 txn_pq_pop_max(struct txn_engine *vw, u32 link)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);

	if (!pop_ok(e, link, e->pq_keys))
		return TXN_NONE;
	return pq_pop(&q, e->ledger->pk, link);
}

void txn_pq_send_top(struct txn_engine *vw, u32 link)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_qs q = qs_of(e);

	if (!pop_ok(e, link, e->pq_keys))
		return;
	e->nmoves = vw->nmoves;
	txn_move(e, pq_pop(&q, e->ledger->pk, link), link);
	vw->nmoves = e->nmoves;
}

u32 txn_queue_head(const struct txn_engine *vw, u32 link)
{
	const struct txn_engine *e = txn_trusted(vw);
	const struct txn_queues *eq = &e->ledger->q;

	if (link >= e->g->links)
		return TXN_NONE;
	if (e->pq_keys)
		return eq->pq_bits[link] ?
		       eq->pq[(u64)txn_pq_top(e, link) * e->g->links + link] : TXN_NONE;
	if (eq->sqk && eq->ahead[link] != TXN_NONE)
		return eq->qhead[link] == TXN_NONE ? eq->ahead[link] : eq->qhead[link];
	return eq->qhead[link];
}

/*
 * Every link with packets queued sends the head of its queue, in link
 * order; only those in the bitmap @only where it is not NULL.  @room: the
 * moves so far leave room for one a link (no more than TXN_MOVES_SLACK),
 * so that no move needs its own check.
 */
static __always_inline void send_all(struct txn_engine *vw, const int prio, const bool room,
				     const u64 *only)
{
	struct txn_engine *e = txn_trusted(vw);
	const struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	struct txn_move *moves = e->moves;
	u32 s, sums = (q.links + 4095) / 4096, w, l, pkt, n = vw->nmoves, max = e->max_moves;
	u64 sbits, bits;

	for (s = 0; s < sums; s++) {
		for (sbits = q.active_sum[s]; sbits; sbits &= sbits - 1) {
			w = s * 64 + (u32)__builtin_ctzll(sbits);
			for (bits = q.active[w] & (only ? only[w] : ~0ULL); bits;
			     bits &= bits - 1) {
				l = w * 64 + (u32)__builtin_ctzll(bits);
				if (prio == 2)
					pkt = sq_pop(e, &q, pk, l);
				else
					pkt = prio ? pq_pop(&q, pk, l) : q_pop(&q, pk, l);
				/* txn_move(), its count in a register */
				if (room || n < max) {
					moves[n].pkt = pkt;
					moves[n].link = l;
				}
				n++;
			}
		}
	}
	vw->nmoves = n;
}

/* Whether the run has the queues a pass over every link pops: @prio as send_all()'s. */
static bool pass_ok(struct txn_engine *vw, const int prio)
{
	struct txn_engine *e = txn_trusted(vw);

	if (e->failed)
		return false;
	if ((prio == 1 && !e->pq_keys) || (prio == 2 && !e->ledger->q.sqk))
		return no_queue(e);
	return true;
}

void txn_q_send_heads(struct txn_engine *e)
{
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 0, true, NULL);
	else
		send_all(e, 0, false, NULL);
}

void txn_q_send_heads_of(struct txn_engine *e, const u64 *only)
{
	send_all(e, 0, false, only);
}

void txn_pq_send_tops(struct txn_engine *e)
{
	if (!pass_ok(e, 1))
		return;
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 1, true, NULL);
	else
		send_all(e, 1, false, NULL);
}

void txn_sq_send_tops(struct txn_engine *e)
{
	if (!pass_ok(e, 2))
		return;
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 2, true, NULL);
	else
		send_all(e, 2, false, NULL);
}

void txn_sq_send_tops_of(struct txn_engine *e, const u64 *only)
{
	if (pass_ok(e, 2))
		send_all(e, 2, false, only);
}
