// SPDX-License-Identifier: GPL-2.0
/*
 * The collective operations: what each one moves, who contributes to
 * which result, and what a run of it needs before it starts.
 */
#include "engine_impl.h"

struct op_info {
	const char *name;
	u8 kind;		/* enum txn_kind */
	bool root;
	bool copies;
	bool tagged;
};

/*
 * Copies are what broadcasting is; prefix and data sums need them too, as
 * one node's value belongs to many results.  Accumulations send each
 * contribution to one result, so a copy there could only count it twice.
 */
static const struct op_info ops[] = {
	[TXNET_OP_TOTAL_EXCHANGE]	= { "total-exchange", TXN_UNICAST, false, false, false },
	[TXNET_OP_BROADCAST]		= { "broadcast", TXN_BROADCAST, true, true, false },
	[TXNET_OP_SCATTER]		= { "scatter", TXN_UNICAST, true, false, false },
	[TXNET_OP_GATHER]		= { "gather", TXN_UNICAST, true, false, false },
	[TXNET_OP_MULTINODE_BROADCAST]	= { "multinode-broadcast", TXN_BROADCAST, false, true, false },
	[TXNET_OP_ACCUMULATE]		= { "accumulate", TXN_COMBINE, true, false, true },
	[TXNET_OP_MULTINODE_ACCUMULATE]	= { "multinode-accumulate", TXN_COMBINE, false, false, true },
	[TXNET_OP_PREFIX_SUM]		= { "prefix-sum", TXN_COMBINE, false, true, false },
	[TXNET_OP_DATA_SUM]		= { "data-sum", TXN_COMBINE, false, true, false },
	[TXNET_OP_PERMUTATION]		= { "permutation", TXN_UNICAST, false, false, false },
};

bool txn_op_valid(u32 op)
{
	return op < ARRAY_SIZE(ops) && ops[op].name;
}

const char *txn_op_name(u32 op)
{
	return txn_op_valid(op) ? ops[op].name : "unknown";
}

u32 txn_op_from_name(const char *name)
{
	u32 op;

	for (op = 1; op < ARRAY_SIZE(ops); op++)
		if (ops[op].name && !strcmp(ops[op].name, name))
			return op;
	return TXNET_OP_UNSPEC;
}

bool txn_op_has_root(u32 op)
{
	return txn_op_valid(op) && ops[op].root;
}

bool txn_op_combines(u32 op)
{
	return txn_op_valid(op) && ops[op].kind == TXN_COMBINE;
}

bool txn_op_copies(u32 op)
{
	return txn_op_valid(op) && ops[op].copies;
}

u64 txn_op_nvalues(u32 op, u32 n)
{
	if (!txn_op_combines(op))
		return 0;
	return op == TXNET_OP_MULTINODE_ACCUMULATE ? (u64)n * n : n;
}

static u32 log2_up(u32 n)
{
	u32 r = 0;

	while ((1ULL << r) < n)
		r++;
	return r;
}

u64 txn_op_slots(u32 op, u32 n, u32 plinks)
{
	u64 s;

	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		s = (u64)n * (n - 1);
		break;
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
		s = n - 1;
		break;
	case TXNET_OP_BROADCAST:
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_PERMUTATION:
		/* a broadcast: one copy kept by each processor; a permutation: slot i is i's */
		s = n;
		break;
	case TXNET_OP_MULTINODE_BROADCAST:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		s = (u64)n * n;
		break;
	case TXNET_OP_PREFIX_SUM:
	case TXNET_OP_DATA_SUM:
		/*
		 * Partial sums alive at once (the engine's rule, stated in
		 * Documentation/txnet-engine.rst): a processor's partial and one
		 * copy for each of the ceil(log2 n) steps of a scan, which tree
		 * and doubling schedules keep, and one in flight on every one of
		 * the @plinks links out of processors, which is the most a tick
		 * can carry: so a tick in which every processor sends a copy on
		 * each of its links (a data sum on a complete graph in one) fits.
		 * A schedule that keeps more alive runs out with a clear
		 * violation.
		 */
		s = (u64)n * (log2_up(n) + 2) + 16 + plinks;
		break;
	default:
		return 0;
	}
	return s > 0xfffffff0ULL ? 0 : s;
}

u32 txn_slot_links(const struct txn_graph *g)
{
	/*
	 * Every link leaves a processor where every node is one; a graph of
	 * counts alone (a memory estimate's) has no first[], and all its
	 * links are an upper bound.
	 */
	if (g->nodes == g->procs || !g->first)
		return g->links;
	return g->first[g->procs] - g->first[0];
}

u64 txn_op_units(u32 op, u32 n)
{
	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
	case TXNET_OP_MULTINODE_BROADCAST:
		return (u64)n * (n - 1);
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
	case TXNET_OP_BROADCAST:
		return n - 1;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_PERMUTATION:	/* at most: messages to oneself are not always sent */
		return n;
	case TXNET_OP_MULTINODE_ACCUMULATE:
	case TXNET_OP_DATA_SUM:
		return (u64)n * n;
	case TXNET_OP_PREFIX_SUM:
		return (u64)n * (n + 1) / 2;
	}
	return 0;
}

u32 txn_result_size(const struct txn_ledger *ledger, u32 n, u32 r)
{
	switch (ledger->p.op) {
	case TXNET_OP_ACCUMULATE:
		return r == ledger->p.root ? n : 0;
	case TXNET_OP_PREFIX_SUM:
		return r + 1;
	default:
		return n;
	}
}

bool txn_contributes(const struct txn_ledger *ledger, u32 i, u32 r)
{
	switch (ledger->p.op) {
	case TXNET_OP_ACCUMULATE:
		return r == ledger->p.root;
	case TXNET_OP_PREFIX_SUM:
		return i <= r;
	default:
		return true;
	}
}

s64 txn_input_value(const struct txn_run_params *p, u32 n, u32 i, u32 r)
{
	bool per_result = p->op == TXNET_OP_MULTINODE_ACCUMULATE;
	u64 key = (u64)i << 32 | (per_result ? r : 0);

	if (p->values)
		return p->values[per_result ? (u64)i * n + r : i];
	return (s64)(txn_mix64(p->values_seed ^ txn_mix64(key)) % 1000);
}

/* A permutation of the processors, one that moves something. */
static int check_dests(const struct txn_graph *g, const struct txn_run_params *p,
		       const char **why)
{
	u32 n = g->procs, i, moved = 0;
	u64 *seen;
	int ret = 0;

	if (!p->dests) {
		*why = "dests: a permutation needs each processor's destination";
		return -EINVAL;
	}
	if (p->ndests != n) {
		*why = "dests: one destination per processor (nodes of them)";
		return -EINVAL;
	}
	seen = txn_zalloc_array((n + 63) / 64, sizeof(u64));
	if (!seen)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (p->dests[i] >= n) {
			*why = "dests: not a processor of this network (0 .. nodes-1)";
			ret = -EINVAL;
			break;
		}
		if (seen[p->dests[i] / 64] & 1ULL << (p->dests[i] % 64)) {
			*why = "dests: not a permutation: a processor is the destination of two messages";
			ret = -EINVAL;
			break;
		}
		seen[p->dests[i] / 64] |= 1ULL << (p->dests[i] % 64);
		moved += txn_perm_sends(g, i, p->dests[i]);
	}
	txn_free(seen);
	if (!ret && !moved) {
		*why = "dests: every message is to its own sender: nothing would move";
		ret = -EINVAL;
	}
	return ret;
}

int txn_run_check(const struct txn_graph *g, const struct txn_run_params *p, const char **why)
{
	u32 n = g->procs;
	u64 want;

	if (!txn_op_valid(p->op)) {
		*why = "op: unknown operation";
		return -EINVAL;
	}
	if (p->port_model != TXNET_PORT_ALL && p->port_model != TXNET_PORT_SINGLE) {
		*why = "port model: must be all or single";
		return -EINVAL;
	}
	if (n < 2) {
		*why = "the network needs at least two processors";
		return -EINVAL;
	}
	if (txn_op_has_root(p->op) && p->root >= n) {
		*why = "root: not a processor of this network (0 .. nodes-1)";
		return -EINVAL;
	}
	if (!txn_op_has_root(p->op) && p->root) {
		*why = "root: only broadcast, scatter, gather and accumulate have a root";
		return -EINVAL;
	}
	want = txn_op_nvalues(p->op, n);
	if (p->values && !want) {
		*why = "values: only combining operations (accumulate, multinode-accumulate, prefix-sum, data-sum) take values";
		return -EINVAL;
	}
	if (p->values && p->nvalues != want) {
		*why = p->op == TXNET_OP_MULTINODE_ACCUMULATE ?
		       "values: multinode-accumulate takes nodes*nodes values (node i's value for j at i*nodes+j)" :
		       "values: the operation takes one value per processor";
		return -EINVAL;
	}
	if (p->dests && p->op != TXNET_OP_PERMUTATION) {
		*why = "dests: only a permutation takes destinations";
		return -EINVAL;
	}
	if (p->op == TXNET_OP_PERMUTATION) {
		int ret = check_dests(g, p, why);

		if (ret)
			return ret;
	}
	if (p->payload > TXN_MAX_PAYLOAD) {
		*why = "payload: larger than 4096 bytes";
		return -EINVAL;
	}
	if (p->payload && txn_op_combines(p->op)) {
		*why = "payload: combining operations carry values, not payloads";
		return -EINVAL;
	}
	if (!txn_op_slots(p->op, n, txn_slot_links(g))) {
		*why = "too many processors for this operation: its packets must fit in 32 bits";
		return -E2BIG;
	}
	return 0;
}
