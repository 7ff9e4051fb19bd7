// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule's centre: the processor of least eccentricity, where
 * a data sum gathers and from where its total is broadcast back, found on
 * a product from its factors and elsewhere by bounded searches.
 */
#include "sched_general.h"

u32 *gen_rows_map(u32 n, u32 rows, u32 only)
{
	u32 *map = txn_alloc_array(n, sizeof(u32)), i;

	if (!map)
		return NULL;
	for (i = 0; i < n; i++)
		map[i] = rows == n ? i : TXN_NONE;
	if (rows == 1)
		map[only] = 0;
	return map;
}

/*
 * On a product a vertex's eccentricity is the sum of its factors', from
 * its coordinates: an array's is the farther end, a ring's half round, a
 * complete graph's one step.  The first of least, as gen_find_center() takes.
 */
static u32 product_center(const struct txn_graph *g)
{
	u32 best = 0, best_ecc = TXN_NO_LINK, v, t, a, k, ecc, c[TXNET_MAX_DIMS];

	for (v = 0; v < g->nodes; v++) {
		txn_vertex_coords(g, v, c);
		for (t = 0, ecc = 0; t < g->ndims; t++) {
			a = c[t];
			k = g->fsize[t];
			if (g->fkind[t] == TXNET_DIM_LINEAR)
				ecc += a > k - 1 - a ? a : k - 1 - a;
			else if (g->fkind[t] == TXNET_DIM_RING)
				ecc += k / 2;
			else
				ecc += k > 1;
		}
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = v;
		}
	}
	return best;
}

/* Steps of searching from every processor for a centre, past which it is bounded instead. */
#define CENTER_STEPS	(1ULL << 26)

/* Processor @v's eccentricity, by a search from it; @far: a vertex that far. */
static u32 ecc_from(struct gen *s, u32 v, u32 *scratch, u32 *far)
{
	txn_paths_from(&s->paths, v, scratch);
	*far = s->paths.queue[s->paths.reached - 1];
	return s->paths.dist[*far];
}

/*
 * A processor of least eccentricity where a search from each would cost
 * too much: a processor's distance to any vertex is a lower bound of its
 * eccentricity.  The candidate of least bound is searched from; where
 * its farthest vertex is farther than its bound, a search toward that
 * vertex raises every bound, and the next candidate is taken.  Once a
 * candidate's eccentricity is its bound, or no bound is below the least
 * eccentricity found, that least is the radius: no processor's is below
 * its bound.  Exact, in 2 rounds of two searches on butterfly 4096 and
 * 32 on biswapped mesh 8 8 (many alike); within 4 x CENTER_STEPS of
 * searching, else the best searched.
 */
static u32 center_bounded(struct gen *s, u32 *scratch)
{
	u64 steps = 0, search = (u64)s->vertices + s->paths.g->links;
	u32 c = 0, best = 0, best_ecc = TXN_NO_LINK, ecc, far, v, d, *lb;

	lb = txn_zalloc_array(s->n, sizeof(u32));
	if (!lb)
		return 0;
	while (steps + 2 * search <= 4 * CENTER_STEPS) {
		steps += 2 * search;
		ecc = ecc_from(s, c, scratch, &far);
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = c;
		}
		if (ecc <= lb[c])
			break;
		/* a processor that cannot reach @far: TXN_NO_LINK, never taken */
		txn_paths_toward(&s->paths, far, scratch);
		for (v = 0, c = 0; v < s->n; v++) {
			d = s->paths.dist[v];
			lb[v] = d > lb[v] ? d : lb[v];
			c = lb[v] < lb[c] ? v : c;
		}
		if (lb[c] >= best_ecc)
			break;
		txn_cond_resched();
	}
	txn_free(lb);
	return best;
}

/*
 * A processor of least eccentricity: from coordinates on a product with
 * every link up, else by a search from each when that costs little, else
 * bounded (center_bounded()).
 */
u32 gen_find_center(struct gen *s)
{
	u32 best = 0, best_ecc = TXN_NO_LINK, v, ecc, far, *scratch;

	if (product_of_factors(s->paths.g) && !s->faulty)
		return product_center(s->paths.g);
	scratch = txn_alloc_array(s->vertices, sizeof(u32));
	if (!scratch)
		return 0;
	if ((u64)s->n * (s->vertices + s->paths.g->links) > CENTER_STEPS) {
		best = center_bounded(s, scratch);
		txn_free(scratch);
		return best;
	}
	for (v = 0; v < s->n; v++) {
		ecc = ecc_from(s, v, scratch, &far);
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = v;
		}
		txn_cond_resched();
	}
	txn_free(scratch);
	return best;
}
