// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule's trees: shortest-path trees out of a broadcast's
 * origin and into an accumulation's result, and the reduction rows that
 * say what a partial does at each vertex.  A multinode accumulation's n
 * trees are re-chosen against each other so that their partials do not
 * queue on the same links.
 */
#include "sched_general.h"

int gen_build_toward(struct gen *s, u32 d)
{
	const struct txn_graph *g = s->paths.g;
	u64 base = (u64)s->row_of[d] * s->vertices;
	u32 v, p, dv;
	u8 m;

	txn_paths_toward(&s->paths, d, s->via);
	for (v = 0; v < s->vertices; v++) {
		dv = s->paths.dist[v];
		m = 0;
		for (p = 0; p < 8 && g->first[v] + p < g->first[v + 1]; p++)
			if (dv != TXN_NO_LINK && dv && s->paths.dist[g->dst[g->first[v] + p]] == dv - 1 &&
			    !(s->paths.down && txn_link_down_in(s->paths.down, g->first[v] + p)))
				m |= 1U << p;
		s->route[base + v] = (struct hop){ s->via[v], key_of(s, dv), m, 0 };
	}
	/* Every processor must reach d; MINs' and others' graphs are strongly connected. */
	for (v = 0; v < s->n; v++)
		if (s->paths.dist[v] == TXN_NO_LINK)
			return -EHOSTUNREACH;
	return 0;
}

/* Row @base's tree emptied: no vertex has children. */
void gen_clear_kids(struct gen *s, u64 base)
{
	u32 v;

	if (s->kids) {
		memset(s->kids + base, 0, s->vertices * sizeof(u16));
		return;
	}
	for (v = 0; v < s->vertices; v++)
		s->kid[base + v] = TXN_NO_LINK;
}

/*
 * Link @l added to row @base's tree, ahead of its source's children: a
 * tree added deepest first has each node's children in the order the
 * search reached them (for its own tree, its port order from where it
 * started the node's list).
 */
void gen_add_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l)
{
	u32 v = g->src[l];

	if (s->kids) {
		s->kids[base + v] |= 1U << (l - g->first[v]);
		return;
	}
	s->sib[base + g->dst[l]] = s->kid[base + v];
	s->kid[base + v] = l;
}

/*
 * Link @l (from a parent to its child) hung in the tree at @base, children
 * before their parents, so that a parent's height is one more than its
 * highest child's (deepest subtree first).
 */
void gen_hang_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l)
{
	u8 *h = s->height + base;
	u32 v = g->dst[l], up = g->src[l];

	if (h[up] < key_of(s, h[v] + 1U))
		h[up] = key_of(s, h[v] + 1U);
	gen_add_kid(s, g, base, l);
}

static inline void red_set_way(struct gen *s, u64 at, u32 up, u32 dist)
{
	if (s->red) {
		s->red[at].way = (u16)((up == NO_PORT ? RED_NO_UP : up) | dist << RED_PORT_BITS);
	} else {
		s->red_wide[at].up = (u16)up;
		s->red_wide[at].dist = (u8)dist;
		s->red_wide[at].pad = 0;
	}
}

/*
 * Each vertex of the search just made (P->queue) re-chooses its link on
 * its tree, among those on a shortest path, as the one the fewest trees
 * use, its own use not counted: the tree's link unless another is less
 * used.  @inward: a tree out of its origin, over the links into each
 * vertex (its parent's), starting from via[]; else a tree towards its
 * result, over the links out of each vertex, starting from row @row's.
 * The loop is one for both, made twice with its arrays fixed (as bfs()).
 */
static __always_inline void rebalance(struct gen *s, u64 row, const bool inward)
{
	const struct txn_paths *P = &s->paths;
	const struct txn_graph *g = P->g;
	const u32 *dist = P->dist, *queue = P->queue, *in_link = P->in_link;
	const u32 *first = inward ? P->in_first : g->first;
	const u32 *other = inward ? P->in_src : g->dst;	/* the link's far end */
	const u64 *down = P->down;
	u32 *load = s->load, *via = s->via;
	u32 i, j, v, l, hi, best, least, dv, ok;

	/* locals: load[] and via[] are written, and might alias the rest */
	for (i = 1; i < P->reached; i++) {
		v = queue[i];
		dv = dist[v];
		best = inward ? via[v] : red_link(g, s, row + v, v);
		least = --load[best];
		for (j = first[v], hi = first[v + 1]; j < hi; j++) {
			l = inward ? in_link[j] : j;
			/* weighed without a branch: which wins is as random as the loads */
			ok = (dist[other[j]] == dv - 1) & (load[l] < least);
			if (down)
				ok &= !txn_link_down_in(down, l);
			best = ok ? l : best;
			least = ok ? load[l] : least;
		}
		via[v] = best;
		load[best]++;
	}
}

/*
 * A multinode broadcast's trees, one an origin, re-chosen as the
 * accumulation's are (balance_toward()): each vertex's parent the one
 * on a shortest path whose link the fewest trees use, every tree counted
 * first, the search's own parent unless another's link is less used.
 */
static void balance_from(struct gen *s)
{
	rebalance(s, 0, true);
}

/* Vertex @w reached over link @l from its parent, in search_again()'s walk. */
static __always_inline void reach(struct gen *s, u32 l, u32 du, u32 *tail)
{
	u32 w = s->paths.g->dst[l];

	s->paths.dist[w] = du;
	s->via[w] = l;
	s->paths.queue[(*tail)++] = w;
}

/*
 * The search out of @r made again from the tree it left in row @base (not
 * yet balanced): the same queue, distances and parents, from a walk of the
 * tree instead of every link.  The search reached a node's children in
 * port order from r mod its degree on (bfs()), which is the order of the
 * kids word from that port, and of the list (gen_add_kid()).
 */
static void search_again(struct gen *s, u32 r, u64 base)
{
	const struct txn_graph *g = s->paths.g;
	struct txn_paths *P = &s->paths;
	u32 head = 0, tail = 0, u, l, k, m, du;

	memset(P->dist, 0xff, s->vertices * sizeof(u32));
	for (u = 0; u < s->vertices; u++)
		s->via[u] = TXN_NO_LINK;
	P->dist[r] = 0;
	P->queue[tail++] = r;
	while (head < tail) {
		u = P->queue[head++];
		du = P->dist[u] + 1;
		if (!s->kids) {
			for (l = s->kid[base + u]; l != TXN_NO_LINK; l = s->sib[base + g->dst[l]])
				reach(s, l, du, &tail);
			continue;
		}
		m = s->kids[base + u];
		if (!m)
			continue;
		k = r % (g->first[u + 1] - g->first[u]);
		for (m = m >> k << k; m; m &= m - 1)
			reach(s, g->first[u] + (u32)__builtin_ctz(m), du, &tail);
		for (m = s->kids[base + u] & ((1U << k) - 1); m; m &= m - 1)
			reach(s, g->first[u] + (u32)__builtin_ctz(m), du, &tail);
	}
	P->reached = tail;
}

/*
 * The tree out of @r: a search's, or (@balance) the one the search left
 * there re-chosen against the others'.
 */
void gen_build_tree(struct gen *s, u32 r, bool balance)
{
	const struct txn_graph *g = s->paths.g;
	u64 base = (u64)s->orow_of[r] * s->vertices;
	u32 *par = s->via, i, v;
	u8 *h = s->height + base;

	if (balance) {
		search_again(s, r, base);
		balance_from(s);
	} else {
		txn_paths_from(&s->paths, r, par);
	}
	memset(h, 0, s->vertices);
	gen_clear_kids(s, base);
	for (i = s->paths.reached; i-- > 1;) {
		v = s->paths.queue[i];
		gen_hang_kid(s, g, base, par[v]);
		if (s->load && !balance)
			s->load[par[v]]++;
	}
}

/* Row @row's way on from each vertex: the search towards its result just made (via[]). */
void gen_set_ups(struct gen *s, u64 row)
{
	const struct txn_graph *g = s->paths.g;
	u32 v;

	for (v = 0; v < s->vertices; v++)
		red_set_way(s, row + v,
			    s->via[v] == TXN_NO_LINK ? NO_PORT : s->via[v] - g->first[v],
			    key_of(s, s->paths.dist[v]));
}

/*
 * A multinode accumulation's trees, one a result, each a search from it:
 * searches alike put their links alike, so that the partials of many
 * results would queue on a few links.  Once every tree is built (and
 * counted in load[]), each is searched again and each vertex's link up
 * re-chosen, among those on a shortest path, as the one the fewest trees
 * use, its own use not counted: the BFS's own link unless another is
 * less used.  With every tree counted first, a link is weighed by all
 * the trees, not by those built before it (weighed as they were built,
 * a ring of 1024's antipodes all took the way the earlier trees left:
 * 960 ticks instead of 514).
 */
static void balance_toward(struct gen *s, u64 row)
{
	rebalance(s, row, false);
}

/*
 * Row @row's counts added up its tree (via[]) over @order (@count
 * vertices, each after its parent): each vertex's added to its parent's.
 */
void gen_add_up(struct gen *s, u64 row, const u32 *order, u32 count)
{
	u64 up;
	u32 i, v;

	for (i = count; i-- > 1;) {
		v = order[i];
		up = row + s->paths.g->dst[s->via[v]];
		red_set_sub(s, up, red_sub(s, up) + red_sub(s, row + v));
	}
}

/*
 * Row @row from a tree towards its result: each vertex's link up (via[]),
 * nothing collected yet, and the processors whose partials merge there,
 * added up over @order (@count vertices, each after its parent).
 */
void gen_fill_row(struct gen *s, u64 row, const u32 *order, u32 count)
{
	u32 v;

	gen_set_ups(s, row);
	for (v = 0; v < s->vertices; v++)
		red_set_sub(s, row + v, v < s->n);
	gen_add_up(s, row, order, count);
}

/*
 * The processors whose partial sums merge at each vertex on their way to
 * @d, up the tree searched towards it (@balance: and re-chosen).
 */
void gen_build_reduction(struct gen *s, u32 d, bool balance)
{
	u64 row = red_row(s, d);
	u32 i;

	txn_paths_toward(&s->paths, d, s->via);
	if (balance)
		balance_toward(s, row);
	gen_fill_row(s, row, s->paths.queue, s->paths.reached);
	for (i = 1; i < s->paths.reached && s->load && !balance; i++)
		s->load[s->via[s->paths.queue[i]]]++;
}
