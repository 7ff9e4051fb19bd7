// SPDX-License-Identifier: GPL-2.0
/*
 * Why a move is refused: each rule's failure, recorded once with the
 * tick, node, packet and link it names.  Kept out of line, away from the
 * checks in engine_check.h, so that the common path of a move stays short.
 * Also the run beside a run: the lines and ports it holds this tick.
 */
#include "engine_check.h"
int txn_violate(struct txn_engine *e, u64 tick, u32 node, u32 pkt, const char *rule)
{
	if (e->failed)
		return -EPROTO;
	e->failed = true;
	e->v.tick = tick;
	e->v.node = node;
	e->v.pkt = pkt;
	e->v.rule = rule;
	e->v.link = TXN_NONE;
	e->v.other = TXN_NONE;
	e->v.move = e->ledger && e->ledger->choosing ? e->ledger->view.nmoves : TXN_NONE;
	if (e->ledger) {	/* the schedule sees the run fail at once */
		e->ledger->view.failed = true;
		e->ledger->view.v = e->v;
	}
	return -EPROTO;
}

int txn_violation_move(struct txn_engine *e, u32 i)
{
	e->v.move = i;
	if (e->ledger)
		e->ledger->view.v.move = i;
	return -EPROTO;
}

int txn_sched_refuse(struct txn_engine *vw, u32 node, u32 link, const char *rule)
{
	struct txn_engine *e = txn_trusted(vw);
	u64 t = e->ledger->tick + 1;	/* the tick being run */

	if (e->failed)
		return -EPROTO;
	txn_violate(e, t, node, TXN_NONE, rule);
	e->v.link = link < e->g->links ? link : TXN_NONE;
	e->ledger->view.v.link = e->v.link;
	return -EPROTO;
}

/*
 * Move @i of tick @t wants line @lid, which an earlier move of the tick
 * took: the failure names both packets and the link, so that a blocked
 * permutation can be reported by where it blocks ([Massini03]).
 */
noinline int txn_fail_line_conflict(struct txn_engine *e, u64 t, u32 i, u32 lid)
{
	const struct txn_graph *g = e->g;
	u32 link = e->moves[i].link, j, other = TXN_NONE;

	for (j = 0; j < i; j++)
		if ((g->line ? g->line[e->moves[j].link] : e->moves[j].link) == lid)
			other = e->moves[j].pkt;
	txn_violate(e, t, g->src[link], e->moves[i].pkt, "link carried two packets in one tick");
	e->v.link = link;
	e->v.other = other;
	return -EPROTO;
}

noinline int txn_fail_taken(struct txn_engine *e, u64 t, u32 pkt, u32 link,
				   const char *rule)
{
	txn_violate(e, t, e->g->src[link], pkt, rule);
	e->v.link = link;
	return -EPROTO;
}

void txn_engine_set_taken(struct txn_engine *e, const struct txn_taken *taken)
{
	e->ledger->taken = taken;
}

bool txn_line_taken(const struct txn_engine *vw, u32 lid)
{
	const struct txn_engine *e = txn_trusted(vw);

	return e->ledger->taken && lid < e->g->links && txn_bit(e->ledger->taken->lines, lid);
}

bool txn_sent_taken(const struct txn_engine *vw, u32 v)
{
	const struct txn_engine *e = txn_trusted(vw);

	return e->ledger->taken && v < e->n && txn_bit(e->ledger->taken->sent, v);
}

bool txn_recv_taken(const struct txn_engine *vw, u32 v)
{
	const struct txn_engine *e = txn_trusted(vw);

	return e->ledger->taken && v < e->n && txn_bit(e->ledger->taken->recv, v);
}

noinline int txn_fail_link_down(struct txn_engine *e, u64 t, u32 pkt, u32 link)
{
	txn_violate(e, t, e->g->src[link], pkt, "a packet was sent over a link that is down");
	e->v.link = link;
	return -EPROTO;
}

noinline int txn_fail_no_packet(struct txn_engine *e, u64 t, u32 pkt)
{
	return txn_violate(e, t, TXN_NONE, pkt, "no such packet: the scheduler made it up");
}

noinline int txn_fail_no_link(struct txn_engine *e, u64 t, u32 pkt, u32 loc)
{
	if (loc == TXN_LOC_FREE)
		return txn_fail_no_packet(e, t, pkt);
	return txn_violate(e, t, loc, pkt, "no such link");
}

/*
 * A move whose packet @loc is not at @from, the node its link leaves: why.
 * A mark of another tick is the tick of onward()'s, on a packet never taken
 * off the queue it joined (only a pop clears it): moving it would leave
 * it queued as well.
 */
noinline int txn_fail_not_here(struct txn_engine *e, u64 t, u32 pkt, u32 from, u32 loc)
{
	if (loc == TXN_LOC_FREE)
		return txn_fail_no_packet(e, t, pkt);
	if (loc == TXN_LOC_GONE)
		return txn_violate(e, t, from, pkt,
				   "packet moved after it was consumed, merged or folded");
	if ((loc & TXN_LOC_MARKS) == txn_loc_mark(t))
		return txn_violate(e, t, from, pkt,
				   "store-and-forward: packet moved twice in one tick");
	if (loc & TXN_LOC_MOVED)
		return txn_violate(e, t, from, pkt,
				   "packet moved without being taken off the queue it joined");
	return txn_violate(e, t, from, pkt, "packet is not at the node the link leaves");
}

noinline int txn_fail_port_twice(struct txn_engine *e, u64 t, u32 node, u32 pkt, bool sent)
{
	const char *rule;

	if (e->g->one_line)
		rule = sent ? "a MIN processor sent two packets in one tick: it has one line in" :
		       "a MIN processor received two packets in one tick: it has one line out";
	else
		rule = sent ? "single-port: node sent two packets in one tick" :
		       "single-port: node received two packets in one tick";
	return txn_violate(e, t, node, pkt, rule);
}

noinline int txn_fail_too_many_moves(struct txn_engine *e, u64 t)
{
	return txn_violate(e, t, TXN_NONE, TXN_NONE,
			   "more moves than links: a link carried two packets in one tick");
}
