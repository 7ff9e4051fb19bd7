// SPDX-License-Identifier: GPL-2.0
/*
 * Total exchange on a d-cube ([Bertsekas91] section 4), all-port in
 * 2^(d-1) ticks for every d and single-port in d 2^(d-1), both with the fewest
 * transmissions, d 2^(2d-1) (Tables 1 and 2).
 *
 * The recursive construction of Figure 8: the (D)-cube is two (D-1)-cubes
 * C_1, C_2 split on the top bit.  Phase one, a total exchange inside each
 * of them; phase two, every node sends its counterpart across the top
 * bit the 2^(D-1) packets bound for the other half; phase three, a total
 * exchange inside each half of what crossed, each node forwarding what
 * it received as if it were its own.  All-port (MLA), phase two overlaps
 * both others and phase three starts right after phase one, so
 * T_D = 2 T_(D-1) = 2^(D-1): rule (a), a node sends across in the order
 * its counterpart forwards in phase three (by s(i, j, D-1), the tick the
 * (D-1)-cube algorithm sends i's own packet for j), ties broken by the
 * destination; rule (b), the packet for the counterpart itself last.
 * Condition (6), N_D(i, n) <= 2^(D-1) + n - 1, makes every packet cross
 * before phase three needs it.  Single-port (SLA, MTADEA of [SaS85] as
 * the paper builds it) the three phases run one after the other,
 * T_D = 2 T_(D-1) + 2^(D-1) = D 2^(D-1).
 *
 * Everything depends on the offset x = i xor j alone (the construction
 * is the same from every node): packet (i, i xor x) crosses the set bits
 * of x from the highest down, its first hop at the rank above (phase two
 * of the cube of its highest bit, or phase one of a smaller cube), the
 * rest the route of x without its top bit h, shifted by that cube's
 * T_h (MLA) or T_h + 2^h (SLA).  The routes are built once per run and
 * checked against the model before the run starts: every (tick, link
 * type) used by exactly one (offset, hop) all-port, every tick by exactly
 * one single-port, which is what makes every link busy every tick, and
 * the hops of each packet in increasing ticks.
 */
#include "cube.h"
#include "sched.h"

struct cube_te {
	u32 d, n, ticks, width;	/* width: hops a tick, d all-port, 1 single-port */
	struct txn_cube_hop hop[];	/* ticks * width, by tick */
};

/* T_h, the time of the h-cube's total exchange, and what phase three adds after hop 1. */
static u32 te_time(u32 h, bool single)
{
	if (!h)
		return 0;
	return single ? h << (h - 1) : 1U << (h - 1);
}

static u32 te_shift(u32 h, bool single)
{
	return te_time(h, single) + (single ? 1U << h : 0);
}

/*
 * s[x] for every offset x (1 .. 2^d - 1): the tick of its first hop.
 * Offsets whose top bit is D - 1 cross it in phase two of the D-cube, in
 * the order of rules (a) and (b), ranked after the phase-one ticks
 * single-port; @cnt is scratch of 2^(d-1) + 2 entries.
 */
static void first_hops(u32 d, bool single, u32 *s, u32 *cnt)
{
	u32 D, half, xp, t, tmax, rank;

	for (D = 1; D <= d; D++) {
		half = 1U << (D - 1);
		tmax = te_time(D - 1, single);
		/* counting sort of 1 .. half - 1 by (s, offset), 0 last */
		memset(cnt, 0, (tmax + 2) * sizeof(u32));
		for (xp = 1; xp < half; xp++)
			cnt[s[xp]]++;
		for (t = 1, rank = 1; t <= tmax; t++) {
			u32 c = cnt[t];

			cnt[t] = rank;
			rank += c;
		}
		for (xp = 1; xp < half; xp++)
			s[half + xp] = cnt[s[xp]]++ + (single ? tmax : 0);
		s[half] = half + (single ? tmax : 0);
		txn_cond_resched();
	}
}

/* cnt entries first_hops needs: the ticks of the (d-1)-cube's exchange, and two */
static u64 cnt_len(u32 d, bool single)
{
	return (u64)te_time(d - 1, single) + 2;
}

int txn_cube_te_routes(u32 d, bool single, struct txn_cube_hop *hop)
{
	u32 n = 1U << d, w = single ? 1 : d, ticks = te_time(d, single), x, t, h, base, pre, last;
	u32 *s, *cnt;
	u64 slot, filled = 0;
	int ret = -EINVAL;

	if (d < 1 || d > TXN_CUBE_DMAX)
		return -EINVAL;
	s = txn_alloc_array(n, sizeof(u32));
	cnt = txn_alloc_array(cnt_len(d, single), sizeof(u32));
	if (!s || !cnt) {
		ret = -ENOMEM;
		goto out;
	}
	memset(hop, 0xff, (u64)ticks * w * sizeof(*hop));
	first_hops(d, single, s, cnt);
	for (x = 1; x < n; x++) {
		for (t = x, base = 0, pre = 0, last = 0; t; t ^= 1U << h) {
			h = txn_cube_top(t);
			if (base + s[t] <= last || base + s[t] > ticks)
				goto out;	/* a hop before the last, or past T_d */
			last = base + s[t];
			slot = (u64)(last - 1) * w + (single ? 0 : h);
			if (hop[slot].x != ~0U)
				goto out;	/* two hops on one link a tick */
			hop[slot].x = x;
			hop[slot].pre = pre;
			hop[slot].bit = h;
			filled++;
			pre |= 1U << h;
			base += te_shift(h, single);
		}
		if (!(x & 1023))
			txn_cond_resched();
	}
	/* d 2^(d-1) hops from each node in d 2^(d-1) link-ticks of it: all busy */
	if (filled == (u64)ticks * w)
		ret = 0;
out:
	txn_free(s);
	txn_free(cnt);
	return ret;
}

static void te_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static u64 te_hops(u32 d)
{
	return (u64)d << (d - 1);
}

static int te_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	bool single = e->p.port_model == TXNET_PORT_SINGLE;
	struct cube_te *c;
	u32 d = g->ndims;

	if (e->p.op != TXNET_OP_TOTAL_EXCHANGE || !txn_is_cube(g))
		return -EINVAL;
	c = txn_alloc_array(1, sizeof(*c) + te_hops(d) * sizeof(struct txn_cube_hop));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->d = d;
	c->n = g->procs;
	c->width = single ? 1 : d;
	c->ticks = te_time(d, single);
	return txn_cube_te_routes(d, single, c->hop);
}

/* This tick's hops, from every node: packet (a, a xor x) is at a xor pre. */
static void te_choose(struct txn_engine *e)
{
	const struct cube_te *c = e->priv;
	const struct txn_cube_hop *h;
	u32 tick = (u32)e->tick + 1, k, a;

	if (tick > c->ticks)
		return;
	for (k = 0; k < c->width; k++) {
		h = &c->hop[(u64)(tick - 1) * c->width + k];
		for (a = 0; a < c->n; a++)
			/* hypercube port k flips bit k (topo_impl.h) */
			txn_move(e, txn_pkt_id(e, a, a ^ h->x), e->g->first[a ^ h->pre] + h->bit);
	}
}

static u64 te_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	/* the hops, and the offsets and counts while they are built */
	return sizeof(struct cube_te) + te_hops(g->ndims) * sizeof(struct txn_cube_hop) +
	       ((u64)g->procs + cnt_len(g->ndims, true)) * sizeof(u32);
}

const struct txn_sched txn_sched_cube_te = {
	.algo = TXNET_ALGO_HYPERCUBE,
	.name = "hypercube",
	.start = te_start,
	.choose = te_choose,
	.fini = te_fini,
	.priv_bytes = te_bytes,
};
