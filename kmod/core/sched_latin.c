// SPDX-License-Identifier: GPL-2.0
/*
 * Complete exchange on a log2 N-stage MIN by a Latin square of
 * configurations ([Massini03] sections 3.1 and 4).
 *
 * From an initial configuration M (M^{l,0} of the canonical partition,
 * latin.h), wave x (x = 0 .. N-1) is the permutation that M XOR x
 * realizes: column j of M flipped where bit n-1-j of x is 1.  The N waves
 * form a Latin square (Lemma 3): every input meets every output once, so
 * together they are the complete exchange.  They are pipelined, one wave
 * a tick: the wave sent at tick s crosses stage k at tick s + k, so in one
 * tick each stage holds one wave and carries one packet a line.  No table
 * of the square is kept: "when information passes through a node ... the
 * switch is set ... according to the XOR between the binary value
 * associated with the switch itself and the [wave's] bit", and the wave a
 * packet belongs to is the tick it reaches that stage, less the stage.
 *
 * A total exchange sends nothing to oneself: a wave's messages from i to
 * i are not sent, and a wave that holds only such messages (a member of
 * the set that realizes the identity) is left out, so the waves take
 * N + n - 1 ticks, or N + n - 2 without the identity (latin.h).
 */
#include "latin.h"
#include "sched.h"
#include "topo_impl.h"

struct latin {
	u32 topo, N, n, half;
	u32 skip;		/* the wave left out (the identity), or ~0U */
	u32 waves;
	u32 rows[];		/* M, as latin.h keeps it */
};

/* The x of the wave sent at tick @s (1-based). */
static u32 wave_x(const struct latin *c, u32 s)
{
	u32 w = s - 1;

	return c->skip != ~0U && w >= c->skip ? w + 1 : w;
}

/* Processor @i's link onto output line 2h+@b of its stage-0 switch (N = 2: its one link). */
static u32 proc_link(const struct txn_graph *g, u32 i, u32 b)
{
	return g->first[i + 1] - g->first[i] == 2 ? g->first[i] + b : g->first[i];
}

static void latin_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static int latin_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	struct latin *c;
	u32 N = g->procs;

	if (e->p.op != TXNET_OP_TOTAL_EXCHANGE || !g->min_topo)
		return -EINVAL;
	c = txn_zalloc_array(1, sizeof(*c) + (u64)(N / 2) * sizeof(u32));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	c->topo = g->min_topo;
	c->N = N;
	c->n = txn_min_log2(N);
	c->half = N / 2;
	/* M^{l,0}, l = 0 (every switch straight) unless the run names another, or M */
	if (e->p.config_rows)
		memcpy(c->rows, e->p.config_rows, (N / 2) * sizeof(u32));
	else if (txn_latin_config(N, e->p.config, c->rows))
		return -ERANGE;
	c->skip = txn_latin_identity_wave(c->topo, N, c->rows);
	c->waves = c->skip == ~0U ? N : N - 1;
	return 0;
}

/* Tick s: wave s leaves every processor across stage 0. */
static void latin_choose(struct txn_engine *e)
{
	const struct latin *c = e->priv;
	const struct txn_graph *g = e->g;
	u32 s = (u32)e->tick + 1, x, i, j, y;

	txn_q_send_heads(e);
	if (s > c->waves)
		return;
	x = wave_x(c, s);
	for (i = 0; i < c->N; i++) {
		j = txn_latin_route(c->topo, c->n, c->rows, x, i);
		if (j == i)
			continue;
		y = txn_min_in_line(c->topo, c->n, i);
		txn_move(e, txn_pkt_id(e, i, j),
			 proc_link(g, i, (y & 1) ^ txn_latin_state(c->rows, c->n, y >> 1, 0, x)));
	}
}

/*
 * A packet reached the switch at stage k >= 1 over @link in this tick
 * (e->tick + 1): its wave was sent k - 1 ticks before, and the switch's
 * state for that wave sends it on.
 */
static u64 latin_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	const struct latin *c = e->priv;
	const struct txn_graph *g = e->g;
	u32 u = g->src[link], v = g->dst[link], k, out, y, h;

	(void)pkt;
	(void)dst;
	k = 1 + (v - c->N) / c->half;
	/* the output line of stage k-1 the link is */
	out = u < c->N ? g->line[link] : 2 * ((u - c->N) % c->half) + (link - g->first[u]);
	y = txn_min_wire(c->topo, c->n, k - 1, out);
	h = y >> 1;
	return txn_way(g->first[v] +
		       ((y & 1) ^ txn_latin_state(c->rows, c->n, h, k,
						  wave_x(c, (u32)e->tick + 2 - k))), 0);
}

static u64 latin_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return sizeof(struct latin) + (u64)(g->procs / 2) * sizeof(u32);
}

const struct txn_sched txn_sched_latin = {
	.algo = TXNET_ALGO_LATIN,
	.name = "latin",
	.start = latin_start,
	.choose = latin_choose,
	.onward = latin_onward,
	.fini = latin_fini,
	.priv_bytes = latin_bytes,
};
