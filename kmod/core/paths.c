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

/*
 * A search's one step over neighbour list entry @i (@inward: of in-links,
 * @lst, else of out-links; @ends: their other ends).  The arrays are the
 * caller's locals: written through P, dist[] may alias them for all the
 * compiler knows, and each would be loaded again every step.
 */
static __always_inline void bfs_step(u32 i, const bool inward, const u32 *lst, const u32 *ends,
				     u32 *dist, const u64 *down, u32 du, u32 *via, u32 *queue,
				     u32 *tail)
{
	u32 l = inward ? lst[i] : i, w = ends[i];

	if (dist[w] != TXN_NO_LINK || (down && txn_link_down_in(down, l)))
		return;
	dist[w] = du;
	via[w] = l;
	queue[(*tail)++] = w;
}

/*
 * Breadth first from @start, over in-links (@inward) or out-links: made
 * twice, each with its arrays fixed (the callers below), so that the loop
 * over a vertex's links does not choose between them at every link.
 */
static __always_inline void bfs(struct txn_paths *P, u32 start, const bool inward, u32 *via)
{
	const struct txn_graph *g = P->g;
	const u32 *first = inward ? P->in_first : g->first;
	const u32 *lst = inward ? P->in_link : NULL;
	const u32 *ends = inward ? P->in_src : g->dst;
	const u64 *down = P->down;
	u32 *dist = P->dist, *queue = P->queue;
	u32 nodes = g->nodes, head = 0, tail = 0, u, i, k, lo, hi, du, deg = 0, rot = 0;

	memset(dist, 0xff, (size_t)nodes * sizeof(u32));
	for (u = 0; u < nodes; u++)
		via[u] = TXN_NO_LINK;
	dist[start] = 0;
	queue[tail++] = start;
	/* once every vertex is reached, the rest of the queue finds none new */
	while (head < tail && tail < nodes) {
		u = queue[head++];
		lo = first[u];
		hi = first[u + 1];
		if (lo == hi)
			continue;
		/*
		 * Each search starts its neighbour lists elsewhere, so the
		 * trees of different roots use different links.
		 */
		if (hi - lo != deg) {
			/* a division a vertex is most of a ring's step: one a degree met */
			deg = hi - lo;
			rot = start % deg;
		}
		k = lo + rot;
		du = dist[u] + 1;
		for (i = k; i < hi; i++)
			bfs_step(i, inward, lst, ends, dist, down, du, via, queue, &tail);
		for (i = lo; i < k; i++)
			bfs_step(i, inward, lst, ends, dist, down, du, via, queue, &tail);
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
