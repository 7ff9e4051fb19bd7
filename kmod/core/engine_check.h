/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules every move obeys, checked before it is made, and what an
 * arrival means for its packet: inline, because the tick applies them to
 * every move (engine_tick.c); the failures they report are out of line
 * (engine_check.c).
 */
#ifndef TXN_CORE_ENGINE_CHECK_H
#define TXN_CORE_ENGINE_CHECK_H

#include "engine_impl.h"

int txn_fail_line_conflict(struct txn_engine *e, u64 t, u32 i, u32 lid);
int txn_fail_taken(struct txn_engine *e, u64 t, u32 pkt, u32 link, const char *rule);
int txn_fail_link_down(struct txn_engine *e, u64 t, u32 pkt, u32 link);
int txn_fail_no_packet(struct txn_engine *e, u64 t, u32 pkt);
int txn_fail_no_link(struct txn_engine *e, u64 t, u32 pkt, u32 loc);
int txn_fail_not_here(struct txn_engine *e, u64 t, u32 pkt, u32 from, u32 loc);
int txn_fail_port_twice(struct txn_engine *e, u64 t, u32 node, u32 pkt, bool sent);
int txn_fail_too_many_moves(struct txn_engine *e, u64 t);

static inline void set_bit64(u64 *bits, u64 i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

/*
 * What arriving at @to means for @pkt: consumed (unicast at its
 * destination, an accumulation's partial at its result's node: 0), or
 * still there for the scheduler to send on (1): a relay, or a broadcast
 * copy, which the processor receives and keeps.  -EPROTO on a violation.
 */
static __always_inline int arrive_at(struct txn_engine *e, u64 t, u32 pkt, u32 to)
{
	struct txn_ledger *ledger = e->ledger;
	u32 tag = txn_slot_dest(ledger, pkt);
	u64 bit;

	switch (ledger->kind) {
	case TXN_UNICAST:
		if (to != tag)
			return 1;
		ledger->pk[pkt].loc = TXN_LOC_GONE;
		ledger->recvd[to]++;
		ledger->delivered++;
		if (ledger->open) {
			if (txn_checksum(ledger->payload + (size_t)pkt * ledger->p.payload, ledger->len[pkt]) != ledger->sum[pkt])
				return txn_violate(e, t, to, pkt, "payload corrupted");
			e->done[e->ndone++] = pkt;
		}
		return 0;
	case TXN_BROADCAST:
		if (to >= e->n)
			return 1;
		bit = (u64)tag * e->n + to;
		if (txn_bit(ledger->have, bit))
			return txn_violate(e, t, to, pkt, "message delivered twice to a processor");
		if (ledger->p.payload) {
			if (!txn_payload_ok(ledger->payload + (size_t)pkt * ledger->p.payload,
					    ledger->p.payload, ledger->p.seed,
					    txn_msg_origin(ledger, tag), TXN_NONE))
				return txn_violate(e, t, to, pkt, "payload corrupted");
		}
		set_bit64(ledger->have, bit);
		ledger->recvd[to]++;
		ledger->delivered++;
		return 1;
	default:
		if (!ledger->tagged || to != tag)
			return 1;
		if (txn_fold_part(e, t, to, pkt))
			return -EPROTO;
		ledger->pk[pkt].loc = TXN_LOC_GONE;
		return 0;
	}
}

/*
 * What the checks read of the engine, in a local: the passes' stores
 * (records, stamps, queues) could alias the fields, which would be read
 * again each move.
 */
struct txn_mv {
	struct txn_pkt *pk;
	const u32 *src, *dst, *line;
	const u64 *down;
	const struct txn_taken *taken;
	u64 *stamp, *sent_at, *recv_at;
	u32 npkts, links, procs;
};

static __always_inline struct txn_mv mv_of(const struct txn_engine *e)
{
	const struct txn_ledger *ledger = e->ledger;

	return (struct txn_mv){
		.pk = ledger->pk, .src = e->g->src, .dst = e->g->dst, .line = e->g->line,
		.down = ledger->ndown ? ledger->down : NULL, .taken = ledger->taken,
		.stamp = ledger->stamp,
		.sent_at = ledger->sent_at, .recv_at = ledger->recv_at, .npkts = e->npkts,
		.links = e->g->links, .procs = e->g->procs,
	};
}

/* Whether the run has the single-port rule: MIN processors have one line each way, always. */
static inline bool single_ported(const struct txn_engine *e)
{
	return e->ledger->p.port_model == TXNET_PORT_SINGLE || e->g->one_line;
}

/*
 * The single-port rule (and a MIN processor's one line each way): the
 * processors'; switches have their lines.  @simple: no run beside, and
 * every node a processor (no lines: no MIN).
 */
static __always_inline int single_port(struct txn_engine *e, const struct txn_mv *mv, u64 t,
				       u32 pkt, u32 link, u32 from, u32 to, const bool simple)
{
	const struct txn_taken *taken = simple ? NULL : mv->taken;

	if ((simple || from < mv->procs) && mv->sent_at[from] == t)
		return txn_fail_port_twice(e, t, from, pkt, true);
	if ((simple || to < mv->procs) && mv->recv_at[to] == t)
		return txn_fail_port_twice(e, t, to, pkt, false);
	mv->sent_at[from] = t;
	mv->recv_at[to] = t;
	if (taken && from < mv->procs && txn_bit(taken->sent, from))
		return txn_fail_taken(e, t, pkt, link,
				      "single-port: the run beside it had the node's sending");
	if (taken && to < mv->procs && txn_bit(taken->recv, to))
		return txn_fail_taken(e, t, pkt, link,
				      "single-port: the run beside it had the node's receiving");
	return 0;
}

/*
 * The rules move @i of tick @t (@pkt over @link) obeys, checked before it
 * is made: a real packet at the node a real link leaves, the link up,
 * carrying nothing else this tick and not the run beside's, and the
 * single-port rule (@single); the line is stamped.  *@to: where the link
 * goes.  @cbits: where a combining run's locs keep counts (0 in any
 * other).  @simple: a run with no link down, no lines, no switches and no
 * run beside, where none of those can apply.  Under the single-port
 * model a processor's link with no shared line is not stamped: the link
 * is the processor's, so its sending once a tick is the link carrying one
 * packet, and a second packet on it is failed as its second sending (a
 * stamp a hop, read from far apart, saved).
 */
static __always_inline int check_move(struct txn_engine *e, const struct txn_mv *mv, u64 t,
				      u32 i, u32 pkt, u32 link, u32 *to, const u32 cbits,
				      const bool simple, const bool single)
{
	u32 loc, from, lid;

	if (pkt >= mv->npkts)
		return txn_fail_no_packet(e, t, pkt);
	loc = mv->pk[pkt].loc;
	if (link >= mv->links)
		return txn_fail_no_link(e, t, pkt, loc);
	from = mv->src[link];
	*to = mv->dst[link];
	if (txn_loc_strip(loc, cbits) != from)	/* a sentinel or a mark stays past every vertex */
		return txn_fail_not_here(e, t, pkt, from, loc);
	if (!simple && mv->down && txn_bit(mv->down, link))
		return txn_fail_link_down(e, t, pkt, link);
	lid = simple || !mv->line ? link : mv->line[link];
	if (!single || mv->line || (!simple && from >= mv->procs)) {
		if (mv->stamp[lid] == t)
			return txn_fail_line_conflict(e, t, i, lid);
		mv->stamp[lid] = t;
	}
	if (!simple && mv->taken && txn_bit(mv->taken->lines, lid))
		return txn_fail_taken(e, t, pkt, link, "a link the run beside it had this tick");
	return single ? single_port(e, mv, t, pkt, link, from, *to, simple) : 0;
}

#endif
