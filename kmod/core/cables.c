// SPDX-License-Identifier: GPL-2.0
/*
 * A network given as a list of cables (a user's file, sent over netlink):
 * checked again here, since the kernel trusts nothing txctl checked,
 * counted before anything is allocated, and built into the CSR graph.
 *
 * Vertices are processors 0 .. procs-1, then switches.  Each cable runs
 * both ways; a vertex's ports follow the order its cables are listed in.
 * Refused: fewer than 2 processors, a vertex past the counts, a self-loop,
 * a cable listed twice (txctl merges what a file repeats; the kernel takes
 * each cable once), a processor or switch that processor 0 cannot reach.
 *
 * The diameter: exact, by a search from every processor, while that costs
 * less than TXN_CABLES_SEARCH_BUDGET visits; beyond, the largest
 * eccentricity two sweeps find (from processor 0, then from the processor
 * farthest from it), which is at most the diameter.  Every reader of
 * txn_graph.diameter takes it as a lower bound or an estimate (bounds.c
 * bounds by it and clips distances at it), so a lower bound is sound where
 * an upper one would not be.
 */
#include "cables.h"
#include "topo_impl.h"

static int refuse(struct txn_cables_error *err, int ret, const char *msg, u32 cable, u32 vertex)
{
	err->msg = msg;
	err->cable = cable;
	err->vertex = vertex;
	return ret;
}

int txn_cables_count(const struct txn_cables *c, u64 max_nodes, struct txn_counts *counts,
		     struct txn_cables_error *err)
{
	u64 lim = max_nodes < TXN_MAX_VERTICES ? max_nodes : TXN_MAX_VERTICES;
	u64 nodes = (u64)c->procs + c->switches;
	u32 i, u, v;

	memset(counts, 0, sizeof(*counts));
	err->msg = NULL;
	err->cable = TXN_CABLES_NONE;
	err->vertex = TXN_CABLES_NONE;
	if (c->procs < 2)
		return refuse(err, -EINVAL, "a network needs at least 2 processors",
			      TXN_CABLES_NONE, TXN_CABLES_NONE);
	if (nodes > lim)
		return refuse(err, -E2BIG, max_nodes < TXN_MAX_VERTICES ?
			      "more vertices than the max_nodes limit" :
			      "more vertices than txnet supports (2^24)",
			      TXN_CABLES_NONE, TXN_CABLES_NONE);
	if (2 * (u64)c->n > TXN_MAX_LINKS)
		return refuse(err, -E2BIG, "more cables than txnet supports (2^28 - 1)",
			      TXN_CABLES_NONE, TXN_CABLES_NONE);
	for (i = 0; i < c->n; i++) {
		u = c->pair[2 * i];
		v = c->pair[2 * i + 1];
		if (u >= nodes || v >= nodes)
			return refuse(err, -EINVAL, "a cable names a vertex past the counts",
				      i, u >= nodes ? u : v);
		if (u == v)
			return refuse(err, -EINVAL, "a cable joins a vertex to itself", i, u);
	}
	counts->procs = c->procs;
	counts->switches = c->switches;
	counts->nodes = nodes;
	counts->links = 2 * (u64)c->n;
	counts->lines = false;
	return 0;
}

/* Distances from @s into @dist (TXN_NO_LINK: unreached), @queue as scratch; the farthest processor. */
static u32 sweep(const struct txn_graph *g, u32 s, u32 *dist, u32 *queue, u32 *ecc)
{
	u32 head = 0, tail = 0, v, l, w, far = s;

	for (v = 0; v < g->nodes; v++)
		dist[v] = TXN_NO_LINK;
	dist[s] = 0;
	queue[tail++] = s;
	*ecc = 0;
	while (head < tail) {
		v = queue[head++];
		if (v < g->procs && dist[v] > *ecc) {
			*ecc = dist[v];
			far = v;
		}
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			w = g->dst[l];
			if (dist[w] == TXN_NO_LINK) {
				dist[w] = dist[v] + 1;
				queue[tail++] = w;
			}
		}
		if (!(head & 4095))
			txn_cond_resched();
	}
	return far;
}

/* Connectivity from processor 0, then the diameter (exact or a lower bound, see above). */
static int measure(struct txn_graph *g, bool *exact, struct txn_cables_error *err)
{
	u32 *dist = txn_alloc_array(g->nodes, sizeof(u32));
	u32 *queue = txn_alloc_array(g->nodes, sizeof(u32));
	u32 v, far, ecc, best = 0;
	int ret = 0;

	if (!dist || !queue) {
		ret = -ENOMEM;
		goto out;
	}
	far = sweep(g, 0, dist, queue, &ecc);
	for (v = 0; v < g->nodes; v++)
		if (dist[v] == TXN_NO_LINK) {
			ret = refuse(err, -EINVAL, v < g->procs ?
				     "a processor cannot be reached from processor 0" :
				     "a switch cannot be reached from processor 0",
				     TXN_CABLES_NONE, v);
			goto out;
		}
	*exact = (u64)g->procs * ((u64)g->nodes + g->links) <= TXN_CABLES_SEARCH_BUDGET;
	if (*exact) {
		for (v = 0; v < g->procs; v++) {
			sweep(g, v, dist, queue, &ecc);
			if (ecc > best)
				best = ecc;
		}
	} else {
		best = ecc;
		sweep(g, far, dist, queue, &ecc);
		if (ecc > best)
			best = ecc;
	}
	g->diameter = best;
out:
	txn_free(dist);
	txn_free(queue);
	return ret;
}

int txn_graph_from_cables(const struct txn_cables *c, const struct txn_counts *counts,
			  struct txn_graph *g, bool *exact, struct txn_cables_error *err)
{
	u32 *fill = NULL, *seen = NULL, i, u, v, l, lu, lv, d;
	struct txn_counts again;
	int ret;

	memset(g, 0, sizeof(*g));
	/* the arrays are sized from @counts: refuse counts of another list */
	ret = txn_cables_count(c, counts->nodes, &again, err);
	if (ret)
		return ret;
	if (again.nodes != counts->nodes || again.links != counts->links)
		return -EINVAL;
	g->nodes = (u32)counts->nodes;
	g->procs = (u32)counts->procs;
	g->links = (u32)counts->links;
	g->first = txn_zalloc_array((size_t)g->nodes + 1, sizeof(u32));
	g->src = txn_alloc_array(g->links, sizeof(u32));
	g->dst = txn_alloc_array(g->links, sizeof(u32));
	g->rev = txn_alloc_array(g->links, sizeof(u32));
	fill = txn_alloc_array((size_t)g->nodes, sizeof(u32));
	if (!g->first || !g->src || !g->dst || !g->rev || !fill) {
		ret = -ENOMEM;
		goto fail;
	}
	/* degrees, then offsets; each cable is a link each way, rev[] known as they are placed */
	for (i = 0; i < c->n; i++) {
		g->first[c->pair[2 * i] + 1]++;
		g->first[c->pair[2 * i + 1] + 1]++;
	}
	for (v = 0; v < g->nodes; v++)
		g->first[v + 1] += g->first[v];
	memcpy(fill, g->first, (size_t)g->nodes * sizeof(u32));
	for (i = 0; i < c->n; i++) {
		u = c->pair[2 * i];
		v = c->pair[2 * i + 1];
		lu = fill[u]++;
		lv = fill[v]++;
		g->src[lu] = u;
		g->dst[lu] = v;
		g->rev[lu] = lv;
		g->src[lv] = v;
		g->dst[lv] = u;
		g->rev[lv] = lu;
		if (!(i & 4095))
			txn_cond_resched();
	}
	txn_free(fill);
	fill = NULL;
	/* a cable listed twice: the same neighbour twice among a vertex's links */
	seen = txn_alloc_array((size_t)g->nodes, sizeof(u32));
	if (!seen) {
		ret = -ENOMEM;
		goto fail;
	}
	for (v = 0; v < g->nodes; v++)
		seen[v] = TXN_NO_LINK;
	for (v = 0; v < g->nodes; v++) {
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			if (seen[g->dst[l]] == v) {
				ret = refuse(err, -EINVAL, "a cable is listed twice", TXN_CABLES_NONE, v);
				goto fail;
			}
			seen[g->dst[l]] = v;
		}
		d = g->first[v + 1] - g->first[v];
		if (!v)
			g->degree = d;
		else if (g->degree != d)
			g->degree = 0;
	}
	txn_free(seen);
	seen = NULL;
	ret = measure(g, exact, err);
	if (ret)
		goto fail;
	return 0;
fail:
	txn_free(seen);
	txn_free(fill);
	txn_graph_free(g);
	return ret;
}

/* SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): every input bit moves every output bit. */
static u64 mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

u64 txn_cables_digest(const struct txn_cables *c)
{
	u64 sum = 0, a, b, h;
	u32 i;

	/* a sum of the cables' hashes, which no reordering changes */
	for (i = 0; i < c->n; i++) {
		a = c->pair[2 * i];
		b = c->pair[2 * i + 1];
		if (a > b) {
			h = a;
			a = b;
			b = h;
		}
		sum += mix64((a << 32 | b) + 0x9e3779b97f4a7c15ULL);
	}
	h = mix64((u64)c->procs << 32 | c->switches);
	h = mix64(h ^ c->n);
	return mix64(h + sum);
}
