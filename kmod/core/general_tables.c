// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule's tables, built at a run's start: which trees and
 * reductions an operation needs, a single-port broadcast's spread, and the
 * per-factor step tables by which unicast on a product routes without a
 * table of every processor's paths.
 */
#include "sched_general.h"

/*
 * A single-port data sum's total goes back down the spread its partials
 * came up (spread_reduction()): each node copies it to its children
 * deepest subtree first, as the spread gave them the message on a
 * complete graph (a binomial tree).  Heights are keys: the run has
 * log2 n more than the diameter needs (gen_keys()).  @order: every node
 * after its parent, whose link up is in via[].
 */
static void spread_tree(struct gen *s, u32 d, const u32 *order, u32 norder)
{
	const struct txn_graph *g = s->paths.g;
	u64 base = (u64)s->orow_of[d] * s->vertices;
	u32 i, v;

	memset(s->height + base, 0, s->vertices);
	gen_clear_kids(s, base);
	for (i = norder; i-- > 1;) {
		v = order[i];
		gen_hang_kid(s, g, base, txn_link_between(g, g->dst[s->via[v]], v));
	}
}

/*
 * A single-port accumulation's tree: the spread of a single-port broadcast
 * from @d (spread_step(): each node that has the message gives it, a tick,
 * to its farthest neighbour without it), reversed.  A node hears one
 * partial a tick, so the search's tree, whose root on a complete graph has
 * n-1 children, took n-1 ticks.  Reversed, the spread takes no longer than
 * the broadcast, log2 n there: a node's children were given the message a
 * tick apart, and each one's subtree is summed by the tick its turn comes.
 */
static int spread_reduction(struct gen *s, u32 d)
{
	const struct txn_graph *g = s->paths.g;
	u32 *order, *act, nact = 1, norder = 1, start, i, j, h, l, best, u;

	order = txn_alloc_array(s->vertices, sizeof(u32));
	act = txn_alloc_array(s->vertices, sizeof(u32));
	if (!order || !act) {
		txn_free(order);
		txn_free(act);
		return -ENOMEM;
	}
	/* the distances towards d, for the farthest neighbour and the keys */
	txn_paths_toward(&s->paths, d, s->via);
	for (u = 0; u < s->vertices; u++)
		s->via[u] = TXN_NO_LINK;
	order[0] = d;
	act[0] = d;
	while (nact) {
		/* a tick: each node that has it gives it on; those with none to give drop out */
		start = norder;
		for (i = 0, j = 0; i < nact; i++) {
			h = act[i];
			best = TXN_NO_LINK;
			for (l = g->first[h]; l < g->first[h + 1]; l++) {
				u = g->dst[l];
				if (u != d && s->via[u] == TXN_NO_LINK &&
				    (best == TXN_NO_LINK || s->paths.dist[u] > s->paths.dist[g->dst[best]]))
					best = l;
			}
			if (best == TXN_NO_LINK)
				continue;
			u = g->dst[best];
			s->via[u] = txn_link_between(g, u, h);
			if (s->via[u] == TXN_NO_LINK)
				goto one_way;
			order[norder++] = u;
			act[j++] = h;
		}
		for (i = start; i < norder; i++)
			act[j++] = order[i];
		nact = j;
	}
	gen_fill_row(s, red_row(s, d), order, norder);
	if (s->orows)
		spread_tree(s, d, order, norder);
	txn_free(order);
	txn_free(act);
	return 0;

one_way:
	/* a link with none back: the search's trees, whose links lead up */
	txn_free(order);
	txn_free(act);
	if (s->orows)
		gen_build_tree(s, d, false);
	gen_build_reduction(s, d, false);
	return 0;
}

/* Faults: the schedule's searches avoid the links down now (its own copy of them). */
int gen_take_down(struct txn_engine *e, struct gen *s)
{
	if (!s->down) {
		s->down = txn_zalloc_array((e->g->links + 63) / 64, sizeof(u64));
		if (!s->down)
			return -ENOMEM;
		s->paths.down = s->down;
	}
	txn_engine_copy_down(e, s->down);
	s->faulty = true;
	return 0;
}

/* Around faults from the start: every processor reached by the search just made. */
int gen_tree_reaches_all(const struct gen *s)
{
	u32 v;

	if (!s->faulty)
		return 0;
	for (v = 0; v < s->n; v++)
		if (s->paths.dist[v] == TXN_NO_LINK)
			return -EHOSTUNREACH;
	return 0;
}

int gen_tables(struct txn_engine *e, struct gen *s)
{
	u32 op = e->p.op, n = s->n, d, only = txn_op_has_root(op) ? e->p.root : s->center;
	bool few, spread;
	u32 entry = red_entry(s->paths.g, op);
	u64 rows;
	int ret;

	/* sums up trees keep their way on in their reduction rows */
	s->trows = s->coord || s->tag || tree_sum(s->paths.g, op) || tree_data_sum(s->paths.g, op) ? 0 :
		   all_toward(op, s->switches) ? n : 1;
	s->orows = orows_for(op, n, s->switches);
	s->crows = crows_for(op, n);
	/*
	 * a row each origin or result, past what a core's caches keep: an
	 * arrival's row is read from memory unless hinted
	 */
	if (!s->tag && s->orows > 1 && (u64)s->orows * s->vertices * TREE_ENTRY > HINT_BYTES)
		s->hinted = HINT_TREE;
	if (!s->tag && s->crows > 1 && !s->switches &&
	    (u64)s->crows * s->vertices * entry > HINT_BYTES)
		s->hinted = HINT_REDUCTION;
	s->row_of = gen_rows_map(n, s->trows, only);
	if (s->trows)
		s->route = txn_alloc_array((u64)s->trows * s->vertices, sizeof(struct hop));
	s->via = txn_alloc_array(s->vertices, sizeof(u32));
	if (!s->row_of || (s->trows && !s->route) || !s->via)
		return -ENOMEM;
	if (s->orows) {
		s->orow_of = gen_rows_map(n, s->orows, only);
		few = few_ports(s->paths.g);
		if (few) {
			s->kids = txn_alloc_array((u64)s->orows * s->vertices, sizeof(u16));
		} else {
			s->kid = txn_alloc_array((u64)s->orows * s->vertices, sizeof(u32));
			s->sib = txn_alloc_array((u64)s->orows * s->vertices, sizeof(u32));
		}
		s->height = txn_alloc_array((u64)s->orows * s->vertices, 1);
		if (!s->orow_of || (few ? !s->kids : !s->kid || !s->sib) || !s->height)
			return -ENOMEM;
	}
	if (s->crows) {
		/* red.up: no simple graph of 2^32 links has a node of more than 65,535 ports */
		if (max_degree(s->paths.g) > NO_PORT)
			return -E2BIG;
		s->crow_of = gen_rows_map(n, s->crows, only);
		rows = (u64)s->crows * s->vertices;
		if (!s->switches && entry == sizeof(struct red))
			s->red = txn_alloc_array(rows, sizeof(struct red));
		else if (!s->switches)
			s->red_wide = txn_alloc_array(rows, sizeof(struct red_wide));
		s->root_hold = txn_alloc_array(n, sizeof(u32));
		if (!s->crow_of || (!s->switches && !s->red && !s->red_wide) || !s->root_hold)
			return -ENOMEM;
		for (d = 0; d < n; d++)
			s->root_hold[d] = TXN_NONE;
		/* nothing of a data sum is folded from the start */
		if (op == TXNET_OP_DATA_SUM)
			s->root_hold[s->center] = txn_sum_slot(e, s->center, s->center);
	}
	if ((s->crows > 1 || s->orows > 1) && !s->switches) {
		s->load = txn_zalloc_array(s->paths.g->links, sizeof(u32));
		if (!s->load)
			return -ENOMEM;
	}
	/* a single-port one-result sum goes over a spread, not the search's tree */
	spread = s->crows == 1 && !s->switches && !s->faulty &&
		 e->p.port_model == TXNET_PORT_SINGLE;
	for (d = 0; d < n; d++) {
		if (s->row_of[d] != TXN_NONE) {
			ret = gen_build_toward(s, d);
			if (ret)
				return ret;
		}
		/* a spread's sum brings its total back down the spread (spread_tree()) */
		if (s->orows && s->orow_of[d] != TXN_NONE && !spread) {
			gen_build_tree(s, d, false);
			ret = gen_tree_reaches_all(s);
			if (ret)
				return ret;
		}
		if (s->crows && s->crow_of[d] != TXN_NONE) {
			if (spread) {
				ret = spread_reduction(s, d);
			} else if (!s->switches) {
				/* across switches partials go by route[] or tags, checked above */
				gen_build_reduction(s, d, false);
				ret = gen_tree_reaches_all(s);
			}
			if (ret)
				return ret;
		}
		txn_cond_resched();
	}
	/* an out-tree's current parent is not kept: one pass, from the searches' */
	for (d = 0; d < n && s->load && s->orows > 1; d++) {
		gen_build_tree(s, d, true);
		txn_cond_resched();
	}
	for (d = 0; d < BALANCE_PASSES * n && s->load && s->crows > 1; d++) {
		gen_build_reduction(s, d % n, true);
		txn_cond_resched();
	}
	txn_free(s->load);
	s->load = NULL;
	return 0;
}

/*
 * way_by_coord's steps, tabulated per factor for rings and arrays of up to
 * DTAB_K: from coordinate a towards b, the distance, which of a's ports
 * in the factor lie on a shortest path, and how many ports a has there.
 */
int gen_build_dtab(struct gen *s, const struct txn_graph *g)
{
	u32 t, a, b, k, fw, w, on0, on1, dist, v, at = 0, base[TXNET_MAX_DIMS];
	struct dstep *st;

	if (!tabled(g))
		return 0;
	s->dtab = txn_alloc_array(dtab_entries(g), sizeof(struct dstep));
	s->drow = txn_alloc_array((u64)s->vertices * g->ndims, sizeof(u32));
	if (!s->dtab || !s->drow)
		return -ENOMEM;
	for (t = 0; t < g->ndims; t++) {
		k = g->fsize[t];
		base[t] = at;
		for (a = 0; a < k; a++)
			for (b = 0; b < k; b++) {
				dist = 0;
				on0 = 0;
				on1 = 0;
				if (g->fkind[t] == TXNET_DIM_LINEAR) {
					w = (a > 0) + (a < k - 1);
					if (a != b) {
						dist = a < b ? b - a : a - b;
						on0 = b < a || !a;
						on1 = !on0;
					}
				} else {
					w = k == 2 ? 1 : 2;
					fw = b >= a ? b - a : b + k - a;
					if (a != b) {
						dist = fw < k - fw ? fw : k - fw;
						on0 = k == 2 || k - fw <= fw;
						on1 = k != 2 && fw <= k - fw;
					}
				}
				st = &s->dtab[at + a * k + b];
				st->dist = (u8)dist;
				st->not0 = on0 ? 0 : -1;
				st->not1 = on1 ? 0 : -1;
				st->width = (u8)w;
			}
		at += k * k;
	}
	for (v = 0; v < s->vertices; v++)
		for (t = 0; t < g->ndims; t++)
			s->drow[(u64)v * g->ndims + t] =
				base[t] + s->coord[(u64)v * g->ndims + t] * g->fsize[t];
	s->two_d = g->ndims == 2;
	return 0;
}
