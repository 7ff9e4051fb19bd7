// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcast on a biswapped network ([Wei07] section 3.1, Table 1), all-port.
 * From u = <g, p, c>:
 *
 *   Step 1: u sends to v = <p, g, 1-c> over its swap link;
 *   Step 2: u and v broadcast within their groups;
 *   Step 3: every node of those two groups sends over its swap link;
 *   Step 4: every other group broadcasts from the node that received.
 *
 * A group broadcast runs down a shortest-path tree of the base, found from
 * its factors: each node hears from the neighbour one step closer to the
 * group's source in the first dimension where they differ.  Every node
 * sends on in the tick after it hears, so the steps overlap where they
 * can (Step 1 with Step 2 in u's group) and the time is the deepest node:
 * part 1-c hears after ecc(p) + 1 + ecc(g) ticks, part c after
 * 1 + ecc(g) + 1 + ecc(p).  When both eccentricities are the base's
 * diameter D that is 2 D + 2, the network's diameter (Theorem 1).
 */
#include "bsn.h"
#include "sched.h"

/* The node @w hears from, on the tree out of @root (TXN_NONE for the root). */
static u32 parent(const struct txn_graph *g, u32 root, u32 w)
{
	u32 n = g->bsn_n, rg, rp, rc, grp, y, c, src;

	txn_bsn_label(n, root, &rg, &rp, &rc);
	txn_bsn_label(n, w, &grp, &y, &c);
	/* part c's groups spread from processor p, part 1-c's from g */
	src = c == rc ? rp : rg;
	if (y != src)
		return w - y + txn_bsn_toward(g, y, src);
	if (w == root)
		return TXN_NONE;
	/* a group's source hears over its swap link (Steps 1 and 3) */
	return txn_bsn_swap(n, w);
}

/* @pkt is at @v: a copy to each child, the packet itself to the last. */
static void spread(struct txn_engine *e, u32 pkt, u32 v)
{
	const struct txn_graph *g = e->g;
	u32 l, last = TXN_NO_LINK, c, root = (u32)e->sched_state[0];

	for (l = g->first[v]; l < g->first[v + 1]; l++) {
		if (parent(g, root, g->dst[l]) != v)
			continue;
		if (last != TXN_NO_LINK) {
			c = txn_copy(e, pkt);
			if (c == TXN_NONE)
				return;
			txn_q_push(e, last, c);
		}
		last = l;
	}
	if (last != TXN_NO_LINK)
		txn_q_push(e, last, pkt);
}

static int bcast_start(struct txn_engine *e)
{
	if (e->p.op != TXNET_OP_BROADCAST || !e->g->bsn_n ||
	    e->p.port_model != TXNET_PORT_ALL)
		return -EINVAL;
	e->sched_state[0] = e->p.root;
	spread(e, 0, e->p.root);
	return e->failed ? -EPROTO : 0;
}

static void bcast_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	spread(e, pkt, e->g->dst[link]);
}

const struct txn_sched txn_sched_bsn_bcast = {
	.algo = TXNET_ALGO_BISWAPPED,
	.name = "biswapped",
	.start = bcast_start,
	.choose = txn_q_send_heads,
	.arrive = bcast_arrive,
};
