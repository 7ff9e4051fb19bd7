// SPDX-License-Identifier: GPL-2.0
/*
 * What the linear-array and ring schedules share: both are one
 * dimension, node i next to i-1 and i+1, so every link runs "forward"
 * (towards i+1, clockwise) or "backward".  The two directions never
 * contend (paper 001, section 3: "messages that travel towards the right
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

static u32 pop(struct txn_engine *e, u32 link, bool prio)
{
	return prio ? txn_sq_pop(e, link) : txn_q_pop(e, link);
}

static void send_all(struct txn_engine *e, bool prio)
{
	if (prio)
		txn_sq_send_tops(e);
	else
		txn_q_send_heads(e);
}

static void send_direction(struct txn_engine *e, bool prio, bool forward)
{
	u32 l, pkt;

	for (l = 0; l < e->g->links; l++) {
		if (txn_line_forward(e, l) != forward)
			continue;
		pkt = pop(e, l, prio);
		if (pkt != TXN_NONE)
			txn_move(e, pkt, l);
	}
}

/*
 * All-port: every link sends the head of its queue.  Single-port: the
 * whole network uses one direction per tick, alternating, so each node
 * sends on one link and receives on one: the paper's "slowdown factor of
 * two" (paper 001, section 2).  A direction with nothing queued yields
 * its tick to the other.
 */
void txn_line_choose(struct txn_engine *e, bool prio)
{
	bool forward = !(e->tick & 1);

	if (e->p.port_model != TXNET_PORT_SINGLE) {
		send_all(e, prio);
		return;
	}
	send_direction(e, prio, forward);
	if (!e->nmoves)
		send_direction(e, prio, !forward);
}
