// SPDX-License-Identifier: GPL-2.0
/*
 * What schedulers may ask about packets, and the copies, merges and folds
 * they may propose: each checked against the operation's rules the moment
 * it is proposed, and carried out by the engine, which alone computes
 * what the packets carry.
 */
#include "engine_impl.h"

static bool live(const struct txn_engine *e, u32 pkt)
{
	u32 loc;

	if (pkt >= e->npkts)
		return false;
	loc = e->ledger->pk[pkt].loc;
	return loc != TXN_LOC_GONE && loc != TXN_LOC_FREE;
}

static u32 pkt_loc(const struct txn_engine *e, u32 pkt)
{
	return live(e, pkt) ? txn_loc_vertex(e->ledger, e->ledger->pk[pkt].loc) : TXN_NONE;
}

u32 txn_sum_dest(const struct txn_ledger *ledger, u32 pkt)
{
	if (ledger->dest_by == TXN_DEST_SLOT)
		return txn_mod(pkt, ledger->dest_mul, ledger->dest_n);
	return ledger->dest_by == TXN_DEST_ROOT ? ledger->p.root : TXN_NONE;
}

u32 txn_pkt_dst(const struct txn_engine *vw, u32 pkt)
{
	const struct txn_engine *e = txn_trusted(vw);

	if (pkt >= e->npkts || e->ledger->pk[pkt].loc == TXN_LOC_FREE)
		return TXN_NONE;
	return txn_slot_dest(e->ledger, pkt);
}

u32 txn_slot_src(const struct txn_engine *e, u32 pkt)
{
	const struct txn_ledger *ledger = e->ledger;
	u32 r = ledger->p.root;

	if (pkt >= e->npkts)
		return TXN_NONE;
	if (ledger->src)
		return ledger->src[pkt];
	switch (ledger->kind) {
	case TXN_BROADCAST:
		return txn_msg_origin(ledger, ledger->pk[pkt].tag);
	case TXN_UNICAST:
		if (ledger->p.op == TXNET_OP_SCATTER)
			return r;
		if (ledger->p.op == TXNET_OP_GATHER)
			return pkt < r ? pkt : pkt + 1;
		if (ledger->p.op == TXNET_OP_PERMUTATION)
			return pkt;
		return pkt / (e->n - 1);
	}
	return TXN_NONE;
}

u32 txn_pkt_loc(const struct txn_engine *vw, u32 pkt)
{
	return pkt_loc(txn_trusted(vw), pkt);
}

u32 txn_pkt_src(const struct txn_engine *vw, u32 pkt)
{
	return txn_slot_src(txn_trusted(vw), pkt);
}

void txn_pkt_prefetch(const struct txn_engine *vw, u32 pkt)
{
	const struct txn_engine *e = txn_trusted(vw);

	if (pkt < e->npkts)
		txn_slot_prefetch(e->ledger, pkt);
}

u32 txn_pkt_count(const struct txn_engine *vw, u32 pkt)
{
	const struct txn_engine *e = txn_trusted(vw);

	return e->ledger->part_hi && live(e, pkt) ? txn_slot_count(e->ledger, pkt) : 0;
}

static bool has_msg(const struct txn_engine *e, u32 node, u32 msg)
{
	const struct txn_ledger *ledger = e->ledger;

	return ledger->have && node < e->n && msg < ledger->nmsgs &&
	       txn_bit(ledger->have, (u64)msg * e->n + node);
}

bool txn_has_msg(const struct txn_engine *vw, u32 node, u32 msg)
{
	return has_msg(txn_trusted(vw), node, msg);
}

u32 txn_result_missing(const struct txn_engine *vw, u32 node)
{
	const struct txn_engine *e = txn_trusted(vw);
	const struct txn_ledger *ledger = e->ledger;

	if (!ledger->res || node >= e->n)
		return 0;
	return txn_result_size(ledger, e->n, node) - ledger->res_count[node];
}

bool txn_engine_value(const struct txn_engine *e, u32 node, s64 *value)
{
	const struct txn_ledger *ledger = e->ledger;

	if (!ledger || !ledger->res || !ledger->unsealed || node >= e->n ||
	    !txn_result_size(ledger, e->n, node))
		return false;
	*value = (s64)ledger->res[node];
	return true;
}

/* The tick a proposal made now belongs to: the one being chosen. */
static u64 now(const struct txn_engine *e)
{
	return e->ledger->tick + 1;
}

/* A packet a scheduler names must be alive, at a processor, not in flight. */
static noinline int held_why(struct txn_engine *e, u32 pkt, const char *at_switch)
{
	u32 loc;

	if (!live(e, pkt))
		return txn_violate(e, now(e), TXN_NONE, pkt,
				   pkt < e->npkts && e->ledger->pk[pkt].loc == TXN_LOC_GONE ?
				   "packet used after it was consumed, merged or folded" :
				   "no such packet: the scheduler made it up");
	loc = txn_loc_uncounted(e->ledger, e->ledger->pk[pkt].loc);
	if (loc & TXN_LOC_MOVED)
		return txn_violate(e, now(e), txn_loc_unmarked(loc), pkt,
				   "packet used while it is crossing a link");
	if (loc >= e->n)
		return txn_violate(e, now(e), loc, pkt, at_switch);
	return 0;
}

/*
 * The common case in one test, inline: a live packet resting at a
 * processor (the sentinels and marks of loc are all past n, with or
 * without a count); else why not.
 */
static __always_inline int held(struct txn_engine *e, u32 pkt, const char *at_switch)
{
	if (pkt < e->npkts && txn_loc_strip(e->ledger->pk[pkt].loc, e->ledger->cbits) < e->n)
		return 0;
	return held_why(e, pkt, at_switch);
}

/*
 * A free slot for a copy at @node (TXN_NONE: where @pkt is) of @pkt (or
 * TXN_NONE), counted; TXN_NONE after a violation.
 */
static u32 take_slot(struct txn_engine *e, u32 node, u32 pkt)
{
	struct txn_ledger *ledger = e->ledger;
	u32 c = ledger->free;

	if (c == TXN_NONE) {
		txn_violate(e, now(e), node == TXN_NONE ? pkt_loc(e, pkt) : node, pkt,
			    "no free packet slot: more copies alive than the operation allows");
		return TXN_NONE;
	}
	ledger->free = ledger->pk[c].tag;
	ledger->copies_made++;
	/* by what changed, in both: a schedule's own write to its view stays visible */
	e->copies++;
	e->ledger->expect.copies++;
	txn_view_of(e)->copies++;
	return c;
}

u32 txn_copy(struct txn_engine *vw, u32 pkt)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_ledger *ledger = e->ledger;
	u32 c;

	if (e->failed)
		return TXN_NONE;
	if (!ledger->copies) {
		txn_violate(e, now(e), pkt_loc(e, pkt), pkt,
			    "copy in an operation that forbids copies");
		return TXN_NONE;
	}
	if (held(e, pkt, "a switch cannot copy"))
		return TXN_NONE;
	c = take_slot(e, TXN_NONE, pkt);
	if (c == TXN_NONE)
		return TXN_NONE;
	ledger->pk[c] = ledger->pk[pkt];		/* a combining slot's count and partial's low word too */
	ledger->pk[c].next = TXN_NONE;
	if (ledger->kind == TXN_COMBINE) {
		ledger->part_hi[c] = ledger->part_hi[pkt];
		if (ledger->cnt)
			ledger->cnt[c] = ledger->cnt[pkt];
	}
	if (ledger->maxid)
		ledger->maxid[c] = ledger->maxid[pkt];
	if (ledger->payload)
		memcpy(ledger->payload + (size_t)c * ledger->p.payload,
		       ledger->payload + (size_t)pkt * ledger->p.payload, ledger->p.payload);
	return c;
}

/*
 * A copy of broadcast message @msg made afresh at @node: a processor sends
 * again what it received, long after the packet that brought it has gone
 * (txn_drop_copy()).  The ledger says whether it has the message; the
 * payload is the message's own, written here.
 */
u32 txn_copy_msg(struct txn_engine *vw, u32 node, u32 msg)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_ledger *ledger = e->ledger;
	u32 c;

	if (e->failed)
		return TXN_NONE;
	if (ledger->kind != TXN_BROADCAST) {
		txn_violate(e, now(e), node, TXN_NONE,
			    "a message copied afresh in an operation that is not a broadcast");
		return TXN_NONE;
	}
	if (node >= e->n || msg >= ledger->nmsgs) {
		txn_violate(e, now(e), node, TXN_NONE,
			    node < e->g->nodes && msg < ledger->nmsgs ? "a switch cannot copy" :
			    "no such processor or message: the scheduler made it up");
		return TXN_NONE;
	}
	if (!has_msg(e, node, msg)) {
		txn_violate(e, now(e), node, TXN_NONE,
			    "a message copied afresh at a processor that never received it");
		return TXN_NONE;
	}
	c = take_slot(e, node, TXN_NONE);
	if (c == TXN_NONE)
		return TXN_NONE;
	ledger->pk[c] = (struct txn_pkt){ .next = TXN_NONE, .loc = node, .tag = msg };
	if (ledger->payload)
		txn_payload_fill(ledger->payload + (size_t)c * ledger->p.payload, ledger->p.payload,
				 ledger->p.seed, txn_msg_origin(ledger, msg), TXN_NONE);
	return c;
}

/*
 * A broadcast copy the processor holding it has no more use for: the
 * processor keeps the message (the ledger has it so), the network frees
 * the slot.  The copy must be on no queue.
 */
int txn_drop_copy(struct txn_engine *vw, u32 pkt)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_ledger *ledger = e->ledger;

	if (e->failed)
		return -EPROTO;
	/*
	 * A prefix or data sum's partial may be copied, so one may be
	 * dropped: the results are checked at the end, and no drop can make
	 * one right that is wrong.
	 */
	if (ledger->kind == TXN_COMBINE && ledger->copies) {
		if (held(e, pkt, "a switch cannot drop a partial: no processor there has it"))
			return -EPROTO;
		txn_slot_free(ledger, pkt);
		return 0;
	}
	if (ledger->kind != TXN_BROADCAST)
		return txn_violate(e, now(e), pkt_loc(e, pkt), pkt,
				   "a packet dropped in an operation that neither broadcasts nor copies");
	if (held(e, pkt, "a switch cannot drop a copy: no processor there has its message"))
		return -EPROTO;
	if (!txn_copy_spare(ledger, e->n, pkt))
		return txn_violate(e, now(e), pkt_loc(e, pkt), pkt,
				   "dropped a packet that was still needed");
	txn_slot_free(ledger, pkt);
	return 0;
}

/* Slots i n + r and j n + r' share a result if n divides their difference: one multiply. */
static inline bool same_result(const struct txn_ledger *ledger, u32 a, u32 b)
{
	if (ledger->dest_by == TXN_DEST_SLOT)
		return !txn_mod(a > b ? a - b : b - a, ledger->dest_mul, ledger->dest_n);
	return txn_slot_dest(ledger, a) == txn_slot_dest(ledger, b);
}

int txn_merge(struct txn_engine *vw, u32 into, u32 from)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_ledger *ledger = e->ledger;
	struct txn_pkt *pk = ledger->pk;
	u32 loc, at, cbits, count;

	if (e->failed)
		return -EPROTO;
	if (ledger->kind != TXN_COMBINE)
		return txn_violate(e, now(e), pkt_loc(e, into), from,
				   "merge in an operation that does not combine");
	if (held(e, into, "a switch cannot combine") || held(e, from, "a switch cannot combine"))
		return -EPROTO;
	/* both held: at a processor, unmarked; their locs differ in no more than their counts */
	cbits = ledger->cbits;
	loc = pk[into].loc;
	at = txn_loc_strip(loc, cbits);
	if (into == from)
		return txn_violate(e, now(e), at, from,
				   "a contribution counted twice: packet merged with itself");
	if (!txn_loc_same(pk[from].loc, loc, cbits))
		return txn_violate(e, now(e), at, from, "merged packets are at different nodes");
	if (!same_result(ledger, into, from))
		return txn_violate(e, now(e), at, from,
				   "merged packets belong to different results");
	count = txn_slot_count(ledger, into) + txn_slot_count(ledger, from);	/* each at most n < 2^24 */
	if (count > e->n)
		return txn_violate(e, now(e), at, from,
				   "a contribution counted twice: more contributions than processors");
	txn_slot_set_count(ledger, into, count);
	txn_slot_set_part(ledger, into, txn_slot_part(ledger, into) + txn_slot_part(ledger, from));
	if (ledger->maxid && ledger->maxid[from] > ledger->maxid[into])
		ledger->maxid[into] = ledger->maxid[from];
	if (ledger->tagged)
		pk[from].loc = TXN_LOC_GONE;
	else
		txn_slot_free(ledger, from);
	ledger->merges++;
	e->merges++;
	e->ledger->expect.merges++;
	txn_view_of(e)->merges++;
	return 0;
}

int txn_fold_part(struct txn_engine *e, u64 t, u32 node, u32 pkt)
{
	struct txn_ledger *ledger = e->ledger;
	u32 count = txn_slot_count(ledger, pkt);

	if (ledger->maxid && ledger->maxid[pkt] > node)
		return txn_violate(e, t, node, pkt,
				   "a contribution from a processor outside the result's set");
	if ((u64)ledger->res_count[node] + count > txn_result_size(ledger, e->n, node))
		return txn_violate(e, t, node, pkt, "a contribution counted twice in a result");
	ledger->res_count[node] += count;
	ledger->res[node] += txn_slot_part(ledger, pkt);
	ledger->delivered += count;
	return 0;
}

int txn_fold(struct txn_engine *vw, u32 pkt)
{
	struct txn_engine *e = txn_trusted(vw);
	struct txn_ledger *ledger = e->ledger;
	u32 loc;

	if (e->failed)
		return -EPROTO;
	if (ledger->kind != TXN_COMBINE || ledger->tagged)
		return txn_violate(e, now(e), pkt_loc(e, pkt), pkt,
				   "fold in an operation whose packets are folded on arrival");
	if (held(e, pkt, "a switch has no result to fold into"))
		return -EPROTO;
	loc = txn_loc_vertex(ledger, ledger->pk[pkt].loc);
	if (txn_fold_part(e, now(e), loc, pkt))
		return -EPROTO;
	e->delivered += txn_slot_count(ledger, pkt);
	e->ledger->expect.delivered += txn_slot_count(ledger, pkt);
	txn_view_of(e)->delivered += txn_slot_count(ledger, pkt);
	txn_slot_free(ledger, pkt);
	return 0;
}
