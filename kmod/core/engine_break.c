// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only rule breaking: a fault a test sets (debugfs) makes the engine
 * itself break one rule in the next tick, so that a test can prove the
 * check for that rule fires and the run is failed, not counted.
 */
#include "engine_impl.h"
static const char *const fault_names[] = {
	[TXN_FAULT_NONE]	= "none",
	[TXN_FAULT_LINK_TWICE]	= "link-twice",
	[TXN_FAULT_SINGLE_PORT]	= "single-port",
	[TXN_FAULT_CUT_THROUGH]	= "cut-through",
	[TXN_FAULT_TELEPORT]	= "teleport",
	[TXN_FAULT_DROP]	= "drop",
	[TXN_FAULT_CORRUPT]	= "corrupt",
};

const char *txn_fault_name(u32 fault)
{
	return fault <= TXN_FAULT_MAX ? fault_names[fault] : NULL;
}

int txn_fault_from_name(const char *name)
{
	u32 f;

	for (f = 0; f <= TXN_FAULT_MAX; f++)
		if (!strcmp(name, fault_names[f]))
			return (int)f;
	return -EINVAL;
}

/* Test-only rule breaking, so that tests can prove the checks fire. */
void txn_inject_fault(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	struct txn_move *m = e->moves;
	u32 pkt, node;

	if (ledger->tick != 0 || !e->nmoves)
		return;
	node = e->g->src[m[0].link];
	switch (ledger->p.fault) {
	case TXN_FAULT_LINK_TWICE:
	case TXN_FAULT_SINGLE_PORT:
		/* A second packet of the same node: on the same link, or on another. */
		for (pkt = 0; pkt < e->npkts; pkt++) {
			u32 i, l;

			if (txn_loc_uncounted(ledger, ledger->pk[pkt].loc) != node ||
			    pkt == m[0].pkt)
				continue;
			for (i = 0; i < e->nmoves && m[i].pkt != pkt; i++)
				;
			if (i < e->nmoves)
				continue;
			l = m[0].link;
			if (ledger->p.fault == TXN_FAULT_SINGLE_PORT) {
				l = e->g->first[node];
				if (l == m[0].link)
					l++;
				if (l >= e->g->first[node + 1])
					return;
			}
			txn_move(e, pkt, l);
			return;
		}
		break;
	case TXN_FAULT_CUT_THROUGH:
		txn_move(e, m[0].pkt, m[0].link);
		break;
	case TXN_FAULT_TELEPORT:
		m[0].link = e->g->first[e->g->dst[m[0].link]];
		break;
	case TXN_FAULT_DROP:
		/* Popped from its queue and never sent again: lost. */
		ledger->pk[m[0].pkt].loc = e->g->nodes;
		m[0] = m[--e->nmoves];
		break;
	case TXN_FAULT_CORRUPT:
		if (ledger->payload)
			ledger->payload[0] ^= 0x5a;
		break;
	}
}
