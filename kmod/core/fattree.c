// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-tree (F. Petrini and M. Vanneschi, "k-ary n-trees: High
 * Performance Networks for Massively Parallel Architectures", IPPS 1997):
 * k^n processors, n levels of k^(n-1) switches, each switch with k ports
 * down and k up (the top level's up ports unused).
 *
 * Their definition: a processor is <p_0 ... p_{n-1}>, a switch
 * <w_0 ... w_{n-2}, l> with digits in 0 .. k-1 and level l in 0 .. n-1
 * (0 the top).  Switches <w, l> and <w', l + 1> are joined when w_i = w'_i
 * for every i but l; processor p and switch <w, n-1> when w_i = p_i for
 * i = 0 .. n-2.  So a switch's down ports run over digit l (over the
 * processor's last digit at the bottom level) and its up ports over digit
 * l - 1.
 *
 * Graph: processor p is vertex sum p_i k^(n-1-i); switch <w, l> is vertex
 * k^n + l k^(n-1) + sum w_i k^(n-2-i) (the first digit most significant).
 * A processor's one port leads to its switch; a switch's ports are down
 * x = 0 .. k-1, then (below the top) up x = 0 .. k-1, x the digit set.
 *
 * Counts: k^n + n k^(n-1) vertices; every level of switches has k^n cables
 * down (k from each of k^(n-1) switches), 2 n k^n links in all.  Two
 * processors whose digits first differ at digit j meet at level j at the
 * nearest, n - j links up and as many down: the diameter is 2n (j = 0).
 * The largest degree is 2k (k when n = 1: a single switch).  The host
 * tests check every count against the built graph and BFS.
 */
#include "topo_impl.h"

int txn_fattree_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c)
{
	u64 k = spec->size[0], n = spec->size[1], procs = 1, level = 1, i;

	/* k >= 2 and k^n <= lim <= 2^24, so n <= 24 and nothing overflows */
	for (i = 0; i < n; i++) {
		procs *= k;
		if (procs > lim)
			return TXN_TOO_MANY_NODES;
	}
	level = procs / k;
	if (procs + n * level > lim)
		return TXN_TOO_MANY_NODES;
	c->procs = procs;
	c->switches = n * level;
	c->nodes = procs + n * level;
	c->links = 2 * n * procs;
	c->diameter = (u32)(2 * n);
	c->max_degree = (u32)(n > 1 ? 2 * k : k);
	c->lines = false;
	return 0;
}

struct tree {
	u32 k, n, procs, level;
};

static struct tree tree_of(const struct txn_spec *spec)
{
	struct tree t = { .k = spec->size[0], .n = spec->size[1], .procs = 1 };
	u32 i;

	for (i = 0; i < t.n; i++)
		t.procs *= t.k;
	t.level = t.procs / t.k;
	return t;
}

/* k^(n-2-i): the weight of a switch's digit @i */
static u32 weight(const struct tree *t, u32 i)
{
	u32 w = 1, j;

	for (j = i + 2; j < t->n; j++)
		w *= t->k;
	return w;
}

/* Switch @w with its digit @i set to @x. */
static u32 with_digit(const struct tree *t, u32 w, u32 i, u32 x)
{
	u32 wt = weight(t, i);

	return w - (w / wt % t->k) * wt + x * wt;
}

static u32 fattree_degree(const void *ctx, u32 v)
{
	const struct txn_spec *spec = ctx;
	struct tree t = tree_of(spec);

	if (v < t.procs)
		return 1;
	return (v - t.procs) / t.level ? 2 * t.k : t.k;
}

static u32 fattree_neighbour(const void *ctx, u32 v, u32 port)
{
	const struct txn_spec *spec = ctx;
	struct tree t = tree_of(spec);
	u32 l, w;

	if (v < t.procs)
		return t.procs + (t.n - 1) * t.level + v / t.k;
	l = (v - t.procs) / t.level;
	w = (v - t.procs) % t.level;
	if (port < t.k) {
		if (l == t.n - 1)
			return w * t.k + port;
		return t.procs + (l + 1) * t.level + with_digit(&t, w, l, port);
	}
	return t.procs + (l - 1) * t.level + with_digit(&t, w, l - 1, port - t.k);
}

const struct txn_rule txn_fattree_rule = {
	.degree = fattree_degree,
	.neighbour = fattree_neighbour,
};
