// SPDX-License-Identifier: GPL-2.0
/*
 * What the linear-array and ring schedules share: both are one
 * dimension, node i next to i-1 and i+1, so every link runs "forward"
 * (towards i+1, clockwise) or "backward".  The two directions never
 * contend ([Dimakopoulos94], section 3: "messages that travel towards the right
 * end of the array do not interfere with messages traveling towards its
 * left end").
 */
#include "sched.h"

bool txn_line_forward(const struct txn_engine *e, u32 link)
{
	u32 s = e->g->src[link], d = e->g->dst[link];

	/* A ring of 2 has one link each way: 0->1 forward, 1->0 backward. */
	return d == s + 1 || (s == e->n - 1 && d == 0 && e->n > 2);
}

u32 txn_line_link(const struct txn_engine *e, u32 node, bool forward)
{
	u32 n = e->n, to;

	if (forward)
		to = node + 1 == n ? 0 : node + 1;
	else
		to = node == 0 ? n - 1 : node - 1;
	return txn_link_between(e->g, node, to);
}

/* Bitmap words over the links: each direction's, in e->priv. */
static u32 dir_words(const struct txn_graph *g)
{
	return (g->links + 63) / 64;
}

u64 txn_line_priv_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return 2 * (u64)dir_words(g) * sizeof(u64);
}

/*
 * Single-port runs send in one direction a tick: each direction's links
 * as a bitmap, so that the engine's pass over the links with work takes
 * that direction's alone (txn_*_send_*_of()) instead of a walk over all.
 */
int txn_line_start(struct txn_engine *e)
{
	u32 words = dir_words(e->g), l;
	u64 *dirs;

	if (e->p.port_model != TXNET_PORT_SINGLE)
		return 0;
	dirs = txn_zalloc_array(2 * (u64)words, sizeof(u64));
	if (!dirs)
		return -ENOMEM;
	for (l = 0; l < e->g->links; l++)
		dirs[(txn_line_forward(e, l) ? 0 : words) + l / 64] |= 1ULL << (l % 64);
	e->priv = dirs;
	return 0;
}

void txn_line_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static void send_links(struct txn_engine *e, bool prio, const u64 *only)
{
	if (prio)
		txn_sq_send_tops_of(e, only);
	else
		txn_q_send_heads_of(e, only);
}

/*
 * All-port: every link sends the head of its queue.  Single-port: the
 * whole network uses one direction per tick, alternating, so each node
 * sends on one link and receives on one: the paper's "slowdown factor of
 * two" ([Dimakopoulos94], section 2).  A direction with nothing queued yields
 * its tick to the other.
 */
void txn_line_choose(struct txn_engine *e, bool prio)
{
	const u64 *fwd, *bwd;
	bool forward = !(e->tick & 1);

	if (e->p.port_model != TXNET_PORT_SINGLE) {
		if (prio)
			txn_sq_send_tops(e);
		else
			txn_q_send_heads(e);
		return;
	}
	fwd = e->priv;	/* txn_line_start()'s: single-port runs have them */
	bwd = fwd + dir_words(e->g);
	send_links(e, prio, forward ? fwd : bwd);
	if (!e->nmoves)
		send_links(e, prio, forward ? bwd : fwd);
}
