// SPDX-License-Identifier: GPL-2.0
/*
 * The dragonfly (J. Kim, W. J. Dally, S. Scott and D. Abts, "Technology-
 * Driven, Highly-Scalable Dragonfly Topology", ISCA 2008): groups of a
 * routers, the routers of a group fully connected by local cables, each
 * router with p processors and h global cables, and a h + 1 groups so that
 * one global cable joins every two groups.
 *
 * The paper leaves open which router of a group holds which global cable.
 * txnet takes BookSim2's (its dragonflynew network and min_dragonflynew
 * routing), the arrangement Camarero, Vallejo and Beivide ("Topological
 * Characterization of Hamming and Dragonfly Networks and Its Implications
 * on Routing", ACM TACO 2014) call absolute: group G's global ports are
 * numbered J = 0 .. a h - 1, router J / h holding port J as its
 * (J mod h)-th, and port J leads to group J when J < G, else J + 1.  The
 * cable back from group D to G is then D's port G (G < D) or G - 1.
 *
 * Graph: processors 0 .. N-1 (N = p a g), processor x on router x / p;
 * router r (group r / a, index r mod a within it) is vertex N + r.
 * A processor's one port leads to its router.  A router's ports: its p
 * processors in order, then the other a - 1 routers of its group in
 * increasing index, then its h global cables in order.
 *
 * Counts: N + a g vertices; links 2N (processors), g a (a - 1) (local),
 * g a h (global).  Between routers the distance is at most 3 (local,
 * global, local), and 3 is met when a > 1: a router not holding the cable
 * to a group, to a router of that group the cable does not land on; with
 * a = 1 the groups are single routers, fully connected.  A processor adds
 * one link at each end: diameter 5, or 3 when a = 1.  Documented in
 * Documentation/txnet-topologies.rst; the host tests check every count
 * against the built graph and BFS.
 */
#include "topo_impl.h"

int txn_dragonfly_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c)
{
	u64 p = spec->size[0], a = spec->size[1], h = spec->size[2], g, routers, procs;

	/* each size is at most 2^32 - 1 and each product is checked before the next */
	if (p > lim || a > lim || h > lim)
		return TXN_TOO_MANY_NODES;
	g = a * h + 1;
	if (g > lim)
		return TXN_TOO_MANY_NODES;
	routers = a * g;
	if (routers > lim)
		return TXN_TOO_MANY_NODES;
	procs = p * routers;
	if (procs > lim || procs + routers > lim)
		return TXN_TOO_MANY_NODES;
	c->procs = procs;
	c->switches = routers;
	c->nodes = procs + routers;
	c->links = 2 * procs + routers * (a - 1) + routers * h;
	c->diameter = a > 1 ? 5 : 3;
	c->max_degree = (u32)(p + a - 1 + h);
	c->lines = false;
	return 0;
}

static u32 dragonfly_degree(const void *ctx, u32 v)
{
	const struct txn_spec *spec = ctx;
	u32 p = spec->size[0], a = spec->size[1], h = spec->size[2];
	u32 procs = p * a * (a * h + 1);

	return v < procs ? 1 : p + a - 1 + h;
}

static u32 dragonfly_neighbour(const void *ctx, u32 v, u32 port)
{
	const struct txn_spec *spec = ctx;
	u32 p = spec->size[0], a = spec->size[1], h = spec->size[2];
	u32 procs = p * a * (a * h + 1), r, grp, i, j, d, back;

	if (v < procs)
		return procs + v / p;
	r = v - procs;
	grp = r / a;
	i = r % a;
	if (port < p)
		return r * p + port;
	port -= p;
	if (port < a - 1) {
		j = port < i ? port : port + 1;
		return procs + grp * a + j;
	}
	j = i * h + (port - (a - 1));
	d = j < grp ? j : j + 1;
	back = grp < d ? grp : grp - 1;
	return procs + d * a + back / h;
}

const struct txn_rule txn_dragonfly_rule = {
	.degree = dragonfly_degree,
	.neighbour = dragonfly_neighbour,
};
