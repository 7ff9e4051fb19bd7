// SPDX-License-Identifier: GPL-2.0
/*
 * One permutation through a log2 N-stage MIN by self-routing ([Massini03]
 * section 3: a permutation is admissible when one network configuration
 * realizes it, found "by using
 * a self-routing algorithm").
 *
 * Every processor sends its message in the first tick and every message
 * crosses one stage a tick, leaving each switch by the port its
 * destination's tag bit names (txn_min_tag_port()): the one path there
 * is.  Nothing waits, so two messages that need one output line of a
 * switch in the same tick are both proposed on it, and the engine stops
 * the run there: a permutation that no configuration realizes is reported
 * where it blocks, never buffered into a different network's behaviour
 * and never delivered wrongly.  An admissible one arrives after log2 N
 * ticks, the configuration realizing it being the switch states the
 * messages took (the shell reports it, from txn_latin_admit()).
 */
#include "sched.h"
#include "topo_impl.h"

/* The port out of the stage-0 switch the message @pkt (at processor @i) takes. */
static u32 first_link(const struct txn_engine *e, u32 pkt, u32 i)
{
	const struct txn_graph *g = e->g;
	u32 n = txn_min_log2(g->procs);

	/* N = 2: a processor's one link, to the other */
	if (g->first[i + 1] - g->first[i] == 1)
		return g->first[i];
	return g->first[i] + txn_min_tag_port(g->min_topo, n, 0, txn_pkt_dst(e, pkt));
}

static int self_start(struct txn_engine *e)
{
	if (e->p.op != TXNET_OP_PERMUTATION || !e->g->min_topo)
		return -EINVAL;
	return 0;
}

/*
 * Tick 1: every message leaves its processor.  After that: every message
 * queued at a switch goes on, all of them, so that a line two need is
 * proposed twice and the engine sees it.
 */
static void self_choose(struct txn_engine *e)
{
	u32 link, pkt, i;

	if (!e->tick) {
		for (i = 0; i < e->n; i++)
			if (txn_pkt_loc(e, i) == i)
				txn_move(e, i, first_link(e, i, i));
		return;
	}
	for (link = txn_next_active(e, 0); link != TXN_NONE; link = txn_next_active(e, link + 1))
		while ((pkt = txn_q_pop(e, link)) != TXN_NONE)
			txn_move(e, pkt, link);
}

/* A message reached the switch at stage k >= 1: the port its tag bit names. */
static u64 self_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	const struct txn_graph *g = e->g;
	u32 v = g->dst[link], N = g->procs, k = 1 + (v - N) / (N / 2);

	(void)pkt;
	return txn_way(g->first[v] + txn_min_tag_port(g->min_topo, txn_min_log2(N), k, dst), 0);
}

const struct txn_sched txn_sched_self_route = {
	.algo = TXNET_ALGO_SELF_ROUTING,
	.name = "self-routing",
	.start = self_start,
	.choose = self_choose,
	.onward = self_onward,
};
