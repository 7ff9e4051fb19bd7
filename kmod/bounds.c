// SPDX-License-Identifier: GPL-2.0
/*
 * TXNET_CMD_BOUNDS: the lower bound of every operation on a topology,
 * computed by the core (core/bounds.c) on a graph built for the question
 * and freed with the answer; no network is created.
 */
#include <linux/sched.h>
#include <net/netlink.h>

#include "txnet.h"
#include "core/bounds.h"
#include "core/bsn.h"
#include "core/paths.h"
#include "core/sched.h"

/*
 * The schedule auto picks and its proven time, where it has one; the
 * paper's own figure where it counts otherwise (all-port, as it assumes).
 */
static int put_expected(struct sk_buff *skb, const struct txn_spec *spec, u32 op, u32 pm,
			u32 root)
{
	struct txn_run_params p = { .op = op, .port_model = pm, .root = root };
	u64 steps, paper = pm == TXNET_PORT_ALL ? txn_bsn_paper_steps(spec, op) : 0;
	const struct txn_sched *s;
	const char *why;

	if (paper && nla_put_u64_64bit(skb, TXNET_A_BOUND_PAPER_STEPS, paper, TXNET_A_BOUND_PAD))
		return -EMSGSIZE;
	s = txn_sched_pick(spec, op, TXNET_ALGO_AUTO, pm, &why);
	if (!s || !txn_expected_steps(s, spec, &p, &steps))
		return 0;
	if (nla_put_u32(skb, TXNET_A_BOUND_ALGO, s->algo) ||
	    nla_put_u64_64bit(skb, TXNET_A_BOUND_EXPECTED_STEPS, steps, TXNET_A_BOUND_PAD))
		return -EMSGSIZE;
	return 0;
}

static int put_bound(struct sk_buff *skb, int i, const struct txn_spec *spec,
		     const struct txn_graph *g, u32 op, u32 pm, bool has_root, u32 root,
		     const struct txn_bound *b)
{
	struct nlattr *nest = nla_nest_start(skb, i);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TXNET_A_BOUND_OP, op) ||
	    nla_put_u32(skb, TXNET_A_BOUND_PORT_MODEL, pm) ||
	    (has_root && nla_put_u32(skb, TXNET_A_BOUND_ROOT, root)) ||
	    nla_put_u64_64bit(skb, TXNET_A_BOUND_LOWER, b->lower, TXNET_A_BOUND_PAD) ||
	    nla_put_string(skb, TXNET_A_BOUND_NAME, b->name) ||
	    nla_put_u64_64bit(skb, TXNET_A_BOUND_MIN_TRANSMISSIONS, b->min_transmissions,
			      TXNET_A_BOUND_PAD) ||
	    nla_put_u64_64bit(skb, TXNET_A_BOUND_SLOTS,
			      txn_op_slots(op, g->procs, txn_slot_links(g)), TXNET_A_BOUND_PAD) ||
	    put_expected(skb, spec, op, pm, has_root ? root : 0)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int put_bounds(struct sk_buff *skb, const struct txn_spec *spec,
		      const struct txn_graph *g, u32 port_model, u32 root)
{
	struct nlattr *nest = nla_nest_start(skb, TXNET_A_BOUNDS);
	struct txn_bound b;
	u32 op, pm, i = 0;
	int ret;

	if (!nest)
		return -EMSGSIZE;
	for (op = 1; op <= TXNET_OP_MAX; op++) {
		/* a permutation's bound is its own: in the run's result */
		if (op == TXNET_OP_PERMUTATION)
			continue;
		for (pm = TXNET_PORT_ALL; pm <= TXNET_PORT_SINGLE; pm++) {
			if (port_model && pm != port_model)
				continue;
			ret = txn_bound(spec, g, op, pm, txn_op_has_root(op) ? root : 0, &b);
			if (!ret)
				ret = put_bound(skb, ++i, spec, g, op, pm, txn_op_has_root(op),
						root, &b);
			if (ret)
				return ret;
			cond_resched();
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

int txnet_put_te_figures(struct sk_buff *skb, const struct txn_te_figures *f)
{
	if (nla_put_u64_64bit(skb, TXNET_A_TOTAL_DISTANCE, f->total_distance, TXNET_A_PAD) ||
	    nla_put_u64_64bit(skb, TXNET_A_AS_BOUND, f->average_status, TXNET_A_PAD) ||
	    (f->cut && nla_put_u64_64bit(skb, TXNET_A_CUT_BOUND, f->cut, TXNET_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* The reply, in a frame of its own: the debug kernel's frames are 1024 bytes. */
static noinline_for_stack int put_answer(struct sk_buff *skb, const struct txn_spec *spec,
					 const struct txn_graph *g, u32 port_model, u32 root)
{
	struct txn_te_figures te;
	char str[TXN_SPEC_STR_MAX];
	int ret;

	txn_spec_format(spec, str, sizeof(str));
	ret = nla_put_string(skb, TXNET_A_SPEC, str) ?:
	      nla_put_u32(skb, TXNET_A_NODES, g->procs) ?:
	      put_bounds(skb, spec, g, port_model, root);
	/* the total exchange figures where they can be had (a search within its budget) */
	if (!ret && !txn_te_figures(spec, g, true, &te))
		ret = txnet_put_te_figures(skb, &te);
	return ret;
}

int txnet_bounds_fill(struct sk_buff *skb, struct txn_spec *spec, const u32 *cables, u32 ncables,
		      u32 port_model, u32 root, struct txnet_create_err *err)
{
	bool graph = spec->topo == TXNET_TOPO_GRAPH, exact;
	struct txn_counts counts;
	struct txn_graph g;
	u64 cost;
	int ret;

	err->dim = -1;
	err->field = 0;
	if (graph) {
		ret = txnet_cables_count(spec, cables, ncables, &counts, err);
		if (ret)
			return ret;
	} else {
		ret = txnet_spec_counts(spec, &counts, err);
		if (ret)
			return ret;
	}
	if (root >= counts.procs) {
		err->msg = "root: not a processor of this topology (0 .. nodes-1)";
		err->field = TXNET_A_ROOT;
		return -EINVAL;
	}
	/* The graph, and the searches the bounds (and a graph's building) make over it. */
	cost = txn_graph_bytes(&counts) + txn_bound_bytes(&counts) +
	       (graph ? txnet_cables_search_bytes(&counts) : 0);
	ret = txnet_mem_charge(cost);
	if (ret) {
		err->msg = "the topology needs more memory than the mem_budget limit leaves";
		err->field = TXNET_A_DIMS;
		return ret;
	}
	if (graph) {
		ret = txnet_cables_graph(spec, cables, ncables, &counts, &g, &exact, err);
	} else {
		ret = txn_graph_build(spec, &counts, &g);
		if (ret)
			err->msg = "out of memory for the topology's graph";
	}
	if (ret)
		goto out;
	ret = put_answer(skb, spec, &g, port_model, root);
	if (ret)
		err->msg = "the bounds do not fit in one message";
	txn_graph_free(&g);
out:
	txnet_mem_uncharge(cost);
	return ret;
}
