/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-link queues: FIFOs, priority buckets and sorted lanes, with the
 * active bits and per-node counts they keep.  Inline, because both the
 * schedules' calls (engine_queue.c) and the tick's landing (engine_tick.c)
 * push and pop on every hop.
 */
#ifndef TXN_CORE_ENGINE_QUEUE_H
#define TXN_CORE_ENGINE_QUEUE_H

#include "engine_impl.h"

void txn_lane_walk(const struct txn_engine *e, struct txn_pkt *pk, u32 head, u32 link, u32 pkt, u32 k);

/*
 * The queues' arrays, read once into a local for a pass of pushes and
 * pops: through @e, each store to a queue (a u32 like e's fields) would
 * make the compiler read every field again.
 */
struct txn_qs {
	u32 *qhead, *qtail, *pq, *pq_len, *qlen, *qmax;
	u64 *pq_bits, *pq_node_max, *active, *active_sum;
	const u32 *src;
	u32 links;
};

static __always_inline struct txn_qs qs_of(const struct txn_engine *e)
{
	const struct txn_queues *eq = &e->ledger->q;

	return (struct txn_qs){
		.qhead = eq->qhead, .qtail = eq->qtail, .pq = eq->pq, .pq_len = eq->pq_len,
		.qlen = eq->qlen, .qmax = eq->qmax, .pq_bits = eq->pq_bits,
		.pq_node_max = eq->pq_node_max, .active = eq->active,
		.active_sum = eq->active_sum, .src = e->g->src, .links = e->g->links,
	};
}

/*
 * A link with packets queued has its bit in active[], and a word of
 * active[] with a bit set has its bit in active_sum[], so that a pass over
 * the links with work skips 64 idle links a word and 4096 a summary word.
 * The bit is the queue's a schedule uses: FIFOs, priority or sorted
 * queues, never two kinds on one link.
 */
static __always_inline void set_active(const struct txn_qs *q, u32 link)
{
	u32 w = link / 64;

	if (!q->active[w])
		q->active_sum[w / 64] |= 1ULL << (w % 64);
	q->active[w] |= 1ULL << (link % 64);
}

static __always_inline void clear_active(const struct txn_qs *q, u32 link)
{
	u32 w = link / 64;

	q->active[w] &= ~(1ULL << (link % 64));
	if (!q->active[w])
		q->active_sum[w / 64] &= ~(1ULL << (w % 64));
}

/* @node holds one more packet: its queue and its largest. */
static __always_inline void node_count_in(u32 *qlen, u32 *qmax, u32 node)
{
	u32 len = ++qlen[node];

	if (len > qmax[node])
		qmax[node] = len;
}

static __always_inline void node_in(const struct txn_qs *q, u32 link)
{
	node_count_in(q->qlen, q->qmax, q->src[link]);
}

static __always_inline void node_out(const struct txn_qs *q, u32 link)
{
	q->qlen[q->src[link]]--;
}

/* One more packet on @link's queue; its node's count is the caller's. */
static __always_inline void link_queued(const struct txn_qs *q, u32 link)
{
	if (!q->pq_len[link]++)
		set_active(q, link);
}

static __always_inline void queued(const struct txn_qs *q, u32 link)
{
	link_queued(q, link);
	node_in(q, link);
}

static __always_inline void dequeued(const struct txn_qs *q, u32 link)
{
	if (!--q->pq_len[link])
		clear_active(q, link);
	node_out(q, link);
}

/* FIFOs: the branch on an empty queue sets and clears the active bit. */
static __always_inline void q_push(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 pkt)
{
	pk[pkt].next = TXN_NONE;
	if (q->qtail[link] == TXN_NONE) {
		q->qhead[link] = pkt;
		set_active(q, link);
	} else {
		pk[q->qtail[link]].next = pkt;
	}
	q->qtail[link] = pkt;
	node_in(q, link);
}

static __always_inline u32 q_pop(const struct txn_qs *q, struct txn_pkt *pk, u32 link)
{
	u32 pkt = q->qhead[link], next;

	if (pkt == TXN_NONE)
		return pkt;
	next = pk[pkt].next;
	q->qhead[link] = next;
	if (next == TXN_NONE) {
		q->qtail[link] = TXN_NONE;
		clear_active(q, link);
	} else {	/* the link's next packet: read a tick ahead */
		txn_prefetch(&pk[next]);
	}
	node_out(q, link);
	return pkt;
}

/* @pkt in @link's bucket @key; the node's count is the caller's. */
static __always_inline void pq_link(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 key,
				    u32 pkt)
{
	u32 *b = &q->pq[(u64)key * q->links + link];

	pk[pkt].next = *b;
	*b = pkt;
	q->pq_bits[link] |= 1ULL << key;
	link_queued(q, link);
}

/* Nodes of many ports: @link's node's pq_node_max kept at least its bits (send_wide()). */
static __always_inline void raise_node_max(const struct txn_qs *q, u32 link)
{
	u64 *m = &q->pq_node_max[q->src[link]];

	if (q->pq_bits[link] > *m)
		*m = q->pq_bits[link];
}

static __always_inline void pq_push(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 key,
				    u32 pkt)
{
	pq_link(q, pk, link, key, pkt);
	if (q->pq_node_max)
		raise_node_max(q, link);
	node_in(q, link);
}

/* The most urgent bucket is the highest bit set: no walk over empty ones. */
static __always_inline u32 pq_pop(const struct txn_qs *q, struct txn_pkt *pk, u32 link)
{
	u64 bits = q->pq_bits[link];
	u32 *b, key, pkt, next;

	if (!bits)
		return TXN_NONE;
	key = 63 - (u32)__builtin_clzll(bits);
	b = &q->pq[(u64)key * q->links + link];
	pkt = *b;
	next = pk[pkt].next;
	*b = next;
	/* the tick of onward()'s mark, left since the packet joined this queue */
	pk[pkt].loc = txn_loc_unmarked(pk[pkt].loc);
	if (next == TXN_NONE)
		q->pq_bits[link] = bits & ~(1ULL << key);
	else	/* the link's next packet, most likely: read a tick ahead */
		txn_prefetch(&pk[next]);
	dequeued(q, link);
	return pkt;
}

/*
 * A lane's new head, whose record was queued long ago and is out of the
 * caches on a large network: its key is asked when it is next weighed
 * (the next pop or push on the link, a tick or more later), its record
 * read ahead now.  A lane's head key is TXN_SQ_LATER until then (a key
 * of that value is only asked again each time).
 */
#define TXN_SQ_LATER	((u32)~0U)

static __always_inline void lane_head_later(struct txn_pkt *pk, u32 head,
					    struct txn_lane_keys *lk)
{
	txn_prefetch(&pk[head]);
	lk->head = TXN_SQ_LATER;
}

static __always_inline void lane_head_key(const struct txn_engine *e, u32 head, u32 link,
					  struct txn_lane_keys *lk)
{
	if (lk->head == TXN_SQ_LATER)
		lk->head = e->sched->sq_key(txn_view_of(e), link, txn_slot_dest(e->ledger, head));
}

/*
 * Into a lane of a sorted queue under key @k, after every packet at least
 * as urgent.  The keys of each lane's head and tail are kept (@lk), so
 * that appending asks the schedule for no key.  Keys are a function of
 * the link and the destination (sq_key()), so the walk asks them of the
 * tags.
 */
static __always_inline void lane_insert(const struct txn_engine *e, struct txn_pkt *pk, u32 *head,
					u32 *tail, struct txn_lane_keys *lk, u32 link, u32 pkt,
					u32 k)
{
	pk[pkt].next = TXN_NONE;
	if (*tail == TXN_NONE) {
		*head = pkt;
		*tail = pkt;
		lk->head = k;
		lk->tail = k;
		return;
	}
	if (k <= lk->tail) {
		pk[*tail].next = pkt;
		*tail = pkt;
		lk->tail = k;
		return;
	}
	lane_head_key(e, *head, link, lk);
	if (k > lk->head) {
		pk[pkt].next = *head;
		*head = pkt;
		lk->head = k;
		return;
	}
	txn_lane_walk(e, pk, *head, link, pkt, k);
}

/* An arrival under the key onward() gave: the arrivals' lane of @link. */
static __always_inline void sq_push_key(const struct txn_engine *e, const struct txn_qs *q,
					struct txn_pkt *pk, u32 link, u32 pkt, u32 k)
{
	const struct txn_queues *eq = &e->ledger->q;

	lane_insert(e, pk, &eq->ahead[link], &eq->atail[link], &eq->sqk[2 * link + 1], link, pkt,
		    k);
	queued(q, link);
}

static __always_inline u32 sq_pop(struct txn_engine *e, const struct txn_qs *q,
				  struct txn_pkt *pk, u32 link)
{
	const struct txn_queues *eq = &e->ledger->q;
	u32 own = eq->qhead[link], got = eq->ahead[link], pkt;
	u32 *head = &eq->qhead[link], *tail = &eq->qtail[link];
	struct txn_lane_keys *lk = &eq->sqk[2 * link];

	if (own == TXN_NONE && got == TXN_NONE)
		return TXN_NONE;
	if (own != TXN_NONE && got != TXN_NONE) {
		lane_head_key(e, own, link, &lk[0]);
		lane_head_key(e, got, link, &lk[1]);
	}
	/* ties: the packet that was there first */
	if (own == TXN_NONE || (got != TXN_NONE && lk[1].head > lk[0].head)) {
		head = &eq->ahead[link];
		tail = &eq->atail[link];
		lk++;
	}
	pkt = *head;
	*head = pk[pkt].next;
	if (*head == TXN_NONE)
		*tail = TXN_NONE;
	else if (*head == *tail)
		lk->head = lk->tail;
	else
		lane_head_later(pk, *head, lk);
	dequeued(q, link);
	return pkt;
}

#endif
