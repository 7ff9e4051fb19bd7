// SPDX-License-Identifier: GPL-2.0
/*
 * log2 N-stage multistage interconnection networks (MINs): butterfly, omega,
 * baseline, reverse baseline and flip (002_f7491c23b3b301d5.txt, section 2:
 * n = log2 N stages of N/2 2x2 switches; stage 0 takes the inputs, stage
 * n-1 drives the outputs).
 *
 * The paper shows the interstage wiring only in figures, which the text
 * extraction lost, so the standard definitions (Wu & Feng, "On a class of
 * multistage interconnection networks", IEEE TC 1980) are used.  Lines are
 * numbered 0..N-1 with n-bit addresses; switch h of a stage has input lines
 * 2h, 2h+1 and output lines 2h (port 0), 2h+1 (port 1).  Writing sigma_m
 * for the perfect shuffle (rotate left) of the low m bits, sigma_m^-1 for
 * the unshuffle (rotate right) and beta_k for the exchange of bits 0 and k:
 *
 *   network    input -> stage 0   stage j -> j+1 (j = 0..n-2)   stage n-1 -> output
 *   butterfly  identity           beta_{n-1-j}                   identity
 *   omega      sigma_n            sigma_n                        identity
 *   baseline   identity           sigma_{n-j}^-1                 identity
 *   rbaseline  identity           sigma_{j+2}                    identity
 *   flip       identity           sigma_n^-1                     sigma_n^-1
 *
 * (Flip is the omega network traversed backwards; reverse baseline is the
 * baseline traversed backwards.)  Every one is banyan: one path from each
 * input to each output; the host tests check it.
 *
 * Timing (section 3's pipelined exchange): a packet crosses one stage a
 * tick, so a path between processors takes n ticks.  A processor's
 * packet crosses stage 0 in the tick it is sent: the stage-0 switches are
 * not vertices.  Processor i has two out-links (ports 0 and 1), the two
 * output lines 2h+b of its stage-0 switch h, to the stage-1 switches (for
 * N = 2, the processors) they are wired to; the other processor on that
 * switch has the same two lines, and a line carries one packet a tick
 * (graph->line).  A processor sends one packet a tick (its one line into
 * stage 0) and receives one (its one line out of stage n-1).
 *
 * Graph: processors 0..N-1, then the switches of stages 1..n-1, switch h
 * of stage k being vertex N + (k-1)*N/2 + h.  Links are one-way: switch
 * port b -> the switch (or processor) its output line 2h+b is wired to.
 * Lines: stage-0 output line x is line x; every other link its own line,
 * N upwards.
 */
#include "topo_impl.h"

u32 txn_min_log2(u32 n)
{
	u32 r = 0;

	while (n > 1) {
		n >>= 1;
		r++;
	}
	return r;
}

/* Rotate the low @m bits of @x left (shuffle) by one. */
static u32 shuffle(u32 x, u32 m)
{
	u32 mask = (m >= 32) ? ~0U : (1U << m) - 1;
	u32 low = x & mask;

	if (m < 2)
		return x;
	low = ((low << 1) | (low >> (m - 1))) & mask;
	return (x & ~mask) | low;
}

/* Rotate the low @m bits of @x right (unshuffle) by one. */
static u32 unshuffle(u32 x, u32 m)
{
	u32 mask = (m >= 32) ? ~0U : (1U << m) - 1;
	u32 low = x & mask;

	if (m < 2)
		return x;
	low = ((low >> 1) | ((low & 1) << (m - 1))) & mask;
	return (x & ~mask) | low;
}

/* Exchange bits 0 and @k of @x. */
static u32 exchange(u32 x, u32 k)
{
	u32 b0 = x & 1, bk = (x >> k) & 1;

	if (b0 == bk)
		return x;
	return x ^ 1U ^ (1U << k);
}

static u32 perm_in(u32 topo, u32 n, u32 x)
{
	return topo == TXNET_TOPO_OMEGA ? shuffle(x, n) : x;
}

static u32 perm_mid(u32 topo, u32 n, u32 j, u32 x)
{
	switch (topo) {
	case TXNET_TOPO_BUTTERFLY:
		return exchange(x, n - 1 - j);
	case TXNET_TOPO_OMEGA:
		return shuffle(x, n);
	case TXNET_TOPO_BASELINE:
		return unshuffle(x, n - j);
	case TXNET_TOPO_RBASELINE:
		return shuffle(x, j + 2);
	default: /* flip */
		return unshuffle(x, n);
	}
}

static u32 perm_out(u32 topo, u32 n, u32 x)
{
	return topo == TXNET_TOPO_FLIP ? unshuffle(x, n) : x;
}

/*
 * Destination-tag routing.  Every interstage permutation above puts the
 * port bit of a stage-k output line (bit 0) where no later one moves it
 * again: at bit n-1-k of the output on butterfly, omega, baseline and
 * reverse baseline, at bit k on flip (n-k unshuffles take bit 0 there).
 * So the port out of stage k towards processor @d is that bit of @d, on
 * the one path there is; the host tests check it against the wiring.
 */
u32 txn_min_tag_port(u32 topo, u32 n, u32 k, u32 d)
{
	return d >> (topo == TXNET_TOPO_FLIP ? k : n - 1 - k) & 1;
}

u32 txn_min_in_line(u32 topo, u32 n, u32 i)
{
	return perm_in(topo, n, i);
}

u32 txn_min_wire(u32 topo, u32 n, u32 k, u32 x)
{
	return k + 1 < n ? perm_mid(topo, n, k, x) : perm_out(topo, n, x);
}

void txn_build_min(const struct txn_spec *spec, struct txn_graph *g)
{
	u32 N = spec->size[0], n = txn_min_log2(N), half = N >> 1;
	u32 v, l = 0, k, h, b, x, w, work = 0;

	g->min_topo = spec->topo;
	/* processors: the two output lines of their stage-0 switch */
	for (v = 0; v < N; v++) {
		g->first[v] = l;
		h = perm_in(spec->topo, n, v) >> 1;
		for (b = 0; b < 2; b++) {
			x = 2 * h + b;
			w = n > 1 ? N + (perm_mid(spec->topo, n, 0, x) >> 1) :
				    perm_out(spec->topo, n, x);
			if (w == v)
				continue;	/* N = 2: nothing is sent to oneself */
			g->src[l] = v;
			g->dst[l] = w;
			g->rev[l] = TXN_NO_LINK;
			g->line[l] = x;
			l++;
		}
	}
	/* switches of stages 1 .. n-1: two out-links each */
	v = N;
	for (k = 1; k < n; k++) {
		for (h = 0; h < half; h++, v++) {
			g->first[v] = l;
			for (b = 0; b < 2; b++, l++) {
				x = 2 * h + b;
				g->src[l] = v;
				if (k + 1 < n)
					g->dst[l] = N + k * half +
						    (perm_mid(spec->topo, n, k, x) >> 1);
				else
					g->dst[l] = perm_out(spec->topo, n, x);
				g->rev[l] = TXN_NO_LINK;
				g->line[l] = N + (l - 2 * N);
			}
			if (++work >= 4096) {
				work = 0;
				txn_cond_resched();
			}
		}
	}
	g->first[v] = l;
}
