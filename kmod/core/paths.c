// SPDX-License-Identifier: GPL-2.0
/*
 * Breadth-first search over the directed links, both ways.  MINs' links
 * run one way only, so searching towards a vertex uses the in-links.
 */
#include "paths.h"
#include "shim.h"

u64 txn_paths_bytes(const struct txn_graph *g)
{
	return ((u64)g->nodes + 1 + 2 * (u64)g->links + 2 * (u64)g->nodes) * sizeof(u32);
}

void txn_paths_free(struct txn_paths *P)
{
	txn_free(P->in_first);
	txn_free(P->in_link);
	txn_free(P->in_src);
	txn_free(P->queue);
	txn_free(P->dist);
	memset(P, 0, sizeof(*P));
}

int txn_paths_init(struct txn_paths *P, const struct txn_graph *g)
{
	u32 v, l;

	memset(P, 0, sizeof(*P));
	P->g = g;
	P->in_first = txn_zalloc_array((size_t)g->nodes + 1, sizeof(u32));
	P->in_link = txn_alloc_array(g->links ? g->links : 1, sizeof(u32));
	P->in_src = txn_alloc_array(g->links ? g->links : 1, sizeof(u32));
	P->queue = txn_alloc_array(g->nodes, sizeof(u32));
	P->dist = txn_alloc_array(g->nodes, sizeof(u32));
	if (!P->in_first || !P->in_link || !P->in_src || !P->queue || !P->dist) {
		txn_paths_free(P);
		return -ENOMEM;
	}
	/* Counting sort of the links by head: in-links in link order. */
	for (l = 0; l < g->links; l++)
		P->in_first[g->dst[l] + 1]++;
	for (v = 0; v < g->nodes; v++)
		P->in_first[v + 1] += P->in_first[v];
	memset(P->queue, 0, (size_t)g->nodes * sizeof(u32));
	for (l = 0; l < g->links; l++)
		P->in_link[P->in_first[g->dst[l]] + P->queue[g->dst[l]]++] = l;
	for (l = 0; l < g->links; l++)
		P->in_src[l] = g->src[P->in_link[l]];
	return 0;
}

static void bfs(struct txn_paths *P, u32 start, bool inward, u32 *via)
{
	const struct txn_graph *g = P->g;
	u32 head = 0, tail = 0, u, w, i, j, k, l, lo, deg, du;

	memset(P->dist, 0xff, (size_t)g->nodes * sizeof(u32));
	for (u = 0; u < g->nodes; u++)
		via[u] = TXN_NO_LINK;
	P->dist[start] = 0;
	P->queue[tail++] = start;
	/* once every vertex is reached, the rest of the queue finds none new */
	while (head < tail && tail < g->nodes) {
		u = P->queue[head++];
		lo = inward ? P->in_first[u] : g->first[u];
		deg = (inward ? P->in_first[u + 1] : g->first[u + 1]) - lo;
		if (!deg)
			continue;
		/*
		 * Each search starts its neighbour lists elsewhere, so the
		 * trees of different roots use different links.
		 */
		k = start % deg;
		du = P->dist[u] + 1;
		for (j = 0; j < deg; j++) {
			i = lo + k;
			k = k + 1 == deg ? 0 : k + 1;
			l = inward ? P->in_link[i] : i;
			w = inward ? P->in_src[i] : g->dst[l];
			if (P->dist[w] != TXN_NO_LINK ||
			    (P->down && txn_link_down_in(P->down, l)))
				continue;
			P->dist[w] = du;
			via[w] = l;
			P->queue[tail++] = w;
		}
	}
	P->reached = tail;
}

void txn_paths_toward(struct txn_paths *P, u32 d, u32 *toward)
{
	bfs(P, d, true, toward);
}

void txn_paths_from(struct txn_paths *P, u32 r, u32 *par)
{
	bfs(P, r, false, par);
}
