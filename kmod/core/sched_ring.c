// SPDX-License-Identifier: GPL-2.0
/*
 * Total exchange on a ring: message-shift ([Dimakopoulos94], section 4).
 *
 * Every packet takes a shortest way round and keeps its direction.  Each
 * node keeps one FIFO per direction; the initial packets are queued
 * furthest first, arrivals join the tail.  For odd n this is node
 * invariant, hence optimal (Theorem 2).  For even n the antipodal packet
 * must be given a direction: in the modified message-shift even nodes
 * send n/2 packets clockwise and n/2-1 counter-clockwise, odd nodes the
 * other way round (Theorem 3); the plain rule sends n/2 clockwise from
 * every node and loses O(n) (section 4.2).
 */
#include "sched.h"

static void queue_direction(struct txn_engine *e, u32 src, u32 count, bool cw)
{
	u32 link = txn_line_link(e, src, cw), k, to;

	for (k = count; k >= 1; k--) {
		to = cw ? (src + k) % e->n : (src + e->n - k) % e->n;
		txn_q_push(e, link, txn_pkt_id(e, src, to));
	}
}

static int start(struct txn_engine *e, bool plain)
{
	u32 n = e->n, half = n / 2, i, cw, ccw;
	int ret = txn_line_start(e);

	if (ret)
		return ret;

	for (i = 0; i < n; i++) {
		if (n & 1) {
			cw = half;
			ccw = half;
		} else if (plain || !(i & 1)) {
			cw = half;
			ccw = half - 1;
		} else {
			cw = half - 1;
			ccw = half;
		}
		queue_direction(e, i, cw, true);
		queue_direction(e, i, ccw, false);
	}
	return 0;
}

static int ms_start(struct txn_engine *e)
{
	return start(e, false);
}

static int plain_start(struct txn_engine *e)
{
	return start(e, true);
}

static void ms_choose(struct txn_engine *e)
{
	txn_line_choose(e, false);
}

static u64 ms_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	(void)pkt;
	(void)dst;
	return txn_way(txn_line_onward(e, link), 0);
}

const struct txn_sched txn_sched_message_shift = {
	.algo = TXNET_ALGO_MESSAGE_SHIFT,
	.name = "message-shift",
	.start = ms_start,
	.choose = ms_choose,
	.onward = ms_onward,
	.fini = txn_line_fini,
	.priv_bytes = txn_line_priv_bytes,
};

const struct txn_sched txn_sched_message_shift_plain = {
	.algo = TXNET_ALGO_MESSAGE_SHIFT_PLAIN,
	.name = "message-shift-plain",
	.start = plain_start,
	.choose = ms_choose,
	.onward = ms_onward,
	.fini = txn_line_fini,
	.priv_bytes = txn_line_priv_bytes,
};
