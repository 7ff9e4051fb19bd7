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
	u32 prev, cur;

	for (prev = head, cur = pk[prev].next; key(e, link, txn_slot_dest(e->ledger, cur)) >= k;
	     prev = cur, cur = pk[cur].next)
		;
	pk[pkt].next = cur;
	pk[prev].next = pkt;
}

void txn_sq_push(struct txn_engine *e, u32 link, u32 pkt, bool arrival)
{
	struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	u32 k = e->sched->sq_key(e, link, txn_slot_dest(e->ledger, pkt));

	if (arrival) {
		sq_push_key(e, &q, pk, link, pkt, k);
		return;
	}
	lane_insert(e, pk, &e->qhead[link], &e->qtail[link], &e->sqk[2 * link], link, pkt, k);
	queued(&q, link);
}

void txn_q_push(struct txn_engine *e, u32 link, u32 pkt)
{
	struct txn_qs q = qs_of(e);

	q_push(&q, e->ledger->pk, link, pkt);
}

u32 txn_q_pop(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	return q_pop(&q, e->ledger->pk, link);
}

void txn_pq_push(struct txn_engine *e, u32 link, u32 key, u32 pkt)
{
	struct txn_qs q = qs_of(e);

	pq_push(&q, e->ledger->pk, link, key, pkt);
}

u32 txn_pq_pop_max(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	return pq_pop(&q, e->ledger->pk, link);
}

void txn_pq_send_top(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	txn_move(e, pq_pop(&q, e->ledger->pk, link), link);
}

/*
 * Every link with packets queued sends the head of its queue, in link
 * order; only those in the bitmap @only where it is not NULL.  @room: the
 * moves so far leave room for one a link (no more than TXN_MOVES_SLACK),
 * so that no move needs its own check.
 */
static __always_inline void send_all(struct txn_engine *e, const int prio, const bool room,
				     const u64 *only)
{
	const struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	struct txn_move *moves = e->moves;
	u32 s, sums = (q.links + 4095) / 4096, w, l, pkt, n = e->nmoves, max = e->max_moves;
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
	e->nmoves = n;
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
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 1, true, NULL);
	else
		send_all(e, 1, false, NULL);
}

void txn_sq_send_tops(struct txn_engine *e)
{
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 2, true, NULL);
	else
		send_all(e, 2, false, NULL);
}

void txn_sq_send_tops_of(struct txn_engine *e, const u64 *only)
{
	send_all(e, 2, false, only);
}
