// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a run: what every processor received and holds is compared
 * with what the operation and its inputs alone say it must be, computed
 * afresh here, not taken from the counters the run kept.
 */
#include "engine_impl.h"

static int verify_unicast(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u32 pkt, v, src, n = e->n, want;
	const u8 *b;

	for (pkt = 0; pkt < e->npkts; pkt++) {
		if (ledger->pk[pkt].loc != TXN_LOC_GONE)
			return txn_violate(e, ledger->tick, txn_loc_unmarked(ledger->pk[pkt].loc),
					   pkt, "packet never reached its destination");
		if (!ledger->payload)
			continue;
		src = txn_slot_src(e, pkt);
		b = ledger->payload + (size_t)pkt * ledger->p.payload;
		if (!txn_payload_ok(b, ledger->p.payload, ledger->p.seed, src, ledger->pk[pkt].tag))
			return txn_violate(e, ledger->tick, ledger->pk[pkt].tag, pkt,
					   "payload corrupted");
		if (!(pkt & 4095))
			txn_cond_resched();
	}
	for (v = 0; v < n; v++) {
		switch (ledger->p.op) {
		case TXNET_OP_SCATTER:
			want = v != ledger->p.root;
			break;
		case TXNET_OP_GATHER:
			want = v == ledger->p.root ? n - 1 : 0;
			break;
		case TXNET_OP_PERMUTATION:
			/* v hears from the one i with dests[i] = v: itself iff dests[v] = v */
			want = txn_perm_sends(e->g, v, ledger->dests[v]);
			break;
		default:
			want = n - 1;
		}
		if (ledger->recvd[v] != want)
			return txn_violate(e, ledger->tick, v, TXN_NONE,
					   "a processor received a different number of packets than it must");
	}
	return 0;
}

static int verify_broadcast(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u32 m, v, n = e->n, got;

	for (v = 0; v < n; v++) {
		for (m = 0, got = 0; m < ledger->nmsgs; m++) {
			if (!txn_bit(ledger->have, (u64)m * n + v))
				return txn_violate(e, ledger->tick, v, TXN_NONE,
						   "a processor never received a message");
			got += txn_msg_origin(ledger, m) != v;
		}
		if (ledger->recvd[v] != got)
			return txn_violate(e, ledger->tick, v, TXN_NONE,
					   "a processor received a message more than once");
		if (!(v & 255))
			txn_cond_resched();
	}
	return 0;
}

/* What a result must be: its inputs' sum, their contributors' hashes, and how many. */
struct expect {
	u64 value, hashes;
	u32 count;
};

/*
 * What @r's result must be.  But for a multinode accumulation's, an input
 * does not depend on its result and a result's inputs are those of
 * processors 0 .. size-1 (all, none or a prefix: txn_contributes()), so
 * the totals over [0, *@next) carry from one result to the next and each
 * input is read once, not n times.
 */
static void expected_result(const struct txn_ledger *ledger, u32 n, u32 r, u32 *next,
			    struct expect *x)
{
	u32 size = txn_result_size(ledger, n, r), i;

	if (ledger->p.op == TXNET_OP_MULTINODE_ACCUMULATE || size < *next) {
		memset(x, 0, sizeof(*x));
		*next = 0;
	}
	if (ledger->p.op == TXNET_OP_MULTINODE_ACCUMULATE)
		size = n;
	for (i = *next; i < size; i++) {
		x->value += (u64)txn_input_value(&ledger->p, n, i, r);
		x->hashes += txn_contrib_hash(ledger, i);
	}
	x->count = size;
	*next = size;
}

/*
 * Each result checked, then unsealed (its contributors' hashes taken
 * out); a run that fails shows no value (txn_engine_value()), one
 * verified again is checked unsealed.
 */
static int verify_combine(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	struct expect x = { 0 };
	u32 r, n = e->n, next = 0;

	for (r = 0; r < n; r++) {
		expected_result(ledger, n, r, &next, &x);
		if (ledger->res_count[r] > x.count)
			return txn_violate(e, ledger->tick, r, TXN_NONE,
					   "a contribution counted twice in a result");
		if (ledger->res_count[r] < x.count)
			return txn_violate(e, ledger->tick, r, TXN_NONE, "a contribution is missing from a result");
		if (!ledger->unsealed)
			ledger->res[r] -= x.hashes;
		if (ledger->res[r] != x.value)
			return txn_violate(e, ledger->tick, r, TXN_NONE,
					   "a result differs from its inputs: wrong contributions or values");
		if (!(r & 255))
			txn_cond_resched();
	}
	ledger->unsealed = true;
	return 0;
}

int txn_engine_verify(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	int ret;

	if (e->failed)
		return -EPROTO;
	if (txn_view_check(e, ledger->tick) || txn_view_check_graph(e, ledger->tick))
		return -EPROTO;
	switch (ledger->kind) {
	case TXN_UNICAST:
		ret = verify_unicast(e);
		break;
	case TXN_BROADCAST:
		ret = verify_broadcast(e);
		break;
	default:
		ret = verify_combine(e);
	}
	if (ret)
		return ret;
	if (ledger->delivered != ledger->expected)
		return txn_violate(e, ledger->tick, TXN_NONE, TXN_NONE,
				   "delivery count differs from what the operation delivers");
	return 0;
}

/*
 * The second line: a verified run in fewer ticks than a lower bound
 * proven for it cannot have kept the rules, so whatever let it through
 * is an engine failure, and the run is not a result.
 */
int txn_engine_check_bound(struct txn_engine *e, u64 lower)
{
	if (e->failed)
		return -EPROTO;
	if (e->ledger->tick < lower)
		return txn_violate(e, e->ledger->tick, TXN_NONE, TXN_NONE,
				   "below the proven lower bound: an engine failure, not a result");
	return 0;
}
