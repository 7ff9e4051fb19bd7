// SPDX-License-Identifier: GPL-2.0
/*
 * Faults: links (and, through their links, nodes) that go down under a
 * run or under open traffic.  The engine keeps which links are down and
 * refuses every move over one; when the set changes, a schedule that
 * routes by searching (reroute(), way_from()) is asked to route around it
 * and the engine moves every queued packet to the queue it names now.  A
 * packet that can no longer arrive fails a run; in open traffic it is
 * dropped and handed back to the shell, which counts it.  Fixed schedules
 * (the papers' own) cannot reroute: their runs fail at once, naming the
 * link.
 */
#include "engine_impl.h"

bool txn_link_down(const struct txn_engine *vw, u32 link)
{
	const struct txn_engine *e = txn_trusted(vw);

	return link < e->g->links && txn_bit(e->ledger->down, link);
}

u32 txn_engine_links_down(const struct txn_engine *vw)
{
	const struct txn_engine *e = txn_trusted(vw);

	return e->ledger->ndown;
}

/* A schedule's own copy of the links down, for its searches (paths.c's P.down). */
void txn_engine_copy_down(const struct txn_engine *vw, u64 *to)
{
	const struct txn_engine *e = txn_trusted(vw);

	memcpy(to, e->ledger->down, (e->g->links + 63) / 64 * sizeof(u64));
}

u32 txn_engine_reroutes(const struct txn_engine *e)
{
	return e->ledger->reroutes;
}

/*
 * What routing around faults may allocate is charged the first time a run
 * has links down, not by every run: a run on a whole network keeps its
 * bytes a packet.  Once, however often links change; freed with the run.
 */
int txn_engine_charge_reroute(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u64 bytes;

	if (ledger->reroute_charged || !e->sched->reroute_bytes)
		return 0;
	bytes = e->sched->reroute_bytes(e->g, ledger->p.op, ledger->p.port_model);
	if (bytes && ledger->p.budget && ledger->p.budget->charge(bytes))
		return -ENOSPC;
	ledger->reroute_charged = bytes;
	return 0;
}

static int fault_fail(struct txn_engine *e, u32 node, u32 pkt, u32 link, const char *rule)
{
	txn_violate(e, e->ledger->tick, node, pkt, rule);
	e->v.link = link;
	return -EPROTO;
}

/* Every queued packet taken off its queue, in link order, chained through pk[].next. */
static u32 unqueue_all(struct txn_engine *e)
{
	struct txn_engine *vw = txn_view_of(e);
	struct txn_pkt *pk = e->ledger->pk;
	u32 head = TXN_NONE, tail = TXN_NONE, l, pkt;

	for (l = txn_next_active(e, 0); l != TXN_NONE; l = txn_next_active(e, l + 1)) {
		for (;;) {
			pkt = e->pq_keys ? txn_pq_pop_max(vw, l) : txn_q_pop(vw, l);
			if (pkt == TXN_NONE)
				break;
			pk[pkt].next = TXN_NONE;
			if (tail == TXN_NONE)
				head = pkt;
			else
				pk[tail].next = pkt;
			tail = pkt;
		}
	}
	return head;
}

/* Each packet to the queue way_from() names now, or dropped (open) or failed (closed). */
static int requeue_all(struct txn_engine *e, u32 first_down)
{
	struct txn_ledger *ledger = e->ledger;
	struct txn_engine *vw = txn_view_of(e);
	const struct txn_graph *g = e->g;
	struct txn_pkt *pk = ledger->pk;
	u32 pkt, next, v, l, key;
	u64 way;

	for (pkt = unqueue_all(e); pkt != TXN_NONE; pkt = next) {
		next = pk[pkt].next;
		v = txn_loc_uncounted(ledger, pk[pkt].loc);
		way = e->sched->way_from(vw, pkt, v, txn_slot_dest(ledger, pkt));
		l = (u32)way;
		if (l == TXN_WAY_KEEP)
			continue;
		if (l == TXN_WAY_DROP) {
			if (!txn_copy_spare(ledger, e->n, pkt))
				return fault_fail(e, v, pkt, TXN_NONE,
						  "dropped a packet that was still needed");
			txn_slot_free(ledger, pkt);
			continue;
		}
		if (l < g->links && g->src[l] == v && !txn_bit(ledger->down, l)) {
			key = (u32)(way >> 32);
			if (e->pq_keys)
				txn_pq_push(vw, l, key < e->pq_keys ? key : e->pq_keys - 1, pkt);
			else
				txn_q_push(vw, l, pkt);
			continue;
		}
		if (l != TXN_NO_LINK)
			return fault_fail(e, v, pkt, l < g->links ? l : TXN_NONE,
					  "rerouted over a link that is down or leaves another node");
		if (!ledger->open)
			return fault_fail(e, v, pkt, first_down,
					  "a packet can no longer reach its destination: the links and nodes that are down cut it off");
		pk[pkt].loc = TXN_LOC_GONE;
		ledger->dropped++;
		e->lost[e->nlost++] = pkt;
	}
	txn_engine_mirror(e);
	return txn_view_check(e, ledger->tick);
}

static const char *reroute_refusal(int err)
{
	switch (err) {
	case -EHOSTUNREACH:
		return "the links and nodes that are down cut a processor off from another";
	case -ENOMEM:
		return "no memory to route around the links that are down";
	case -ENOSPC:
		return "routing around the links that are down needs more memory than the mem_budget limit leaves";
	case -E2BIG:
		return "the network is too large to route around links that are down";
	default:
		return "this operation's schedule cannot route around links that are down";
	}
}

int txn_engine_set_down(struct txn_engine *e, const u64 *down)
{
	struct txn_ledger *ledger = e->ledger;
	const struct txn_graph *g = e->g;
	u32 words = (g->links + 63) / 64, w, went_down = TXN_NONE, any = TXN_NONE, n = 0;
	bool changed = false;
	u64 bits, went;
	int ret;

	e->nlost = 0;
	if (e->failed)
		return -EPROTO;
	for (w = 0; w < words; w++) {
		bits = down ? down[w] : 0;
		if (w == words - 1 && g->links % 64)
			bits &= (1ULL << (g->links % 64)) - 1;
		went = bits & ~ledger->down[w];
		if (went && went_down == TXN_NONE)
			went_down = w * 64 + (u32)__builtin_ctzll(went);
		if (bits && any == TXN_NONE)
			any = w * 64 + (u32)__builtin_ctzll(bits);
		changed |= bits != ledger->down[w];
		ledger->down[w] = bits;
		n += txn_popcount((u32)bits) + txn_popcount((u32)(bits >> 32));
	}
	ledger->ndown = n;
	if (!changed)
		return 0;
	if (went_down == TXN_NONE)
		went_down = any;
	/* Sorted queues keep their own order: the schedules that use them are fixed ones. */
	if (!e->sched->reroute || !e->sched->way_from || ledger->q.ahead) {
		if (went_down == TXN_NONE)
			return 0;	/* links came back: a fixed schedule goes on as it was */
		return fault_fail(e, g->src[went_down], TXN_NONE, went_down,
				  "a link went down under a fixed schedule, which cannot route around it");
	}
	ret = txn_engine_charge_reroute(e);
	if (!ret)
		ret = e->sched->reroute(txn_view_of(e));
	if (ret)
		return fault_fail(e, went_down == TXN_NONE ? TXN_NONE : g->src[went_down], TXN_NONE,
				  went_down, reroute_refusal(ret));
	ledger->reroutes++;
	return requeue_all(e, went_down);
}
