// SPDX-License-Identifier: GPL-2.0
/*
 * Time series of a run (series.h): link rows by dimension and direction,
 * node rows by groups of nodes, samples that widen as the run goes on.
 */
#include "series.h"
#include "engine_impl.h"

#define SAMPLES	TXNET_SERIES_SAMPLES

/* Node rows: every node its own up to TXNET_RES_QUEUE_MAX_NODES, then groups. */
static u32 group_of(const struct txn_graph *g)
{
	return (g->nodes + TXNET_RES_QUEUE_MAX_NODES - 1) / TXNET_RES_QUEUE_MAX_NODES;
}

static u32 rows_of(const struct txn_graph *g)
{
	return (g->nodes + group_of(g) - 1) / group_of(g);
}

static u32 classes_of(const struct txn_graph *g)
{
	return g->ndims ? 2 * g->ndims : 1;
}

u64 txn_series_kept_bytes(const struct txn_graph *g)
{
	return sizeof(u32) * classes_of(g) + (u64)SAMPLES * (classes_of(g) * sizeof(u64) +
							       rows_of(g) * sizeof(u32));
}

u64 txn_series_bytes(const struct txn_graph *g)
{
	return txn_series_kept_bytes(g) + g->links + (u64)g->nodes * sizeof(u32);
}

/*
 * Up is the way coordinates grow: +1 around a ring (of more than two),
 * to a larger value along an array or in a complete factor.
 */
static u8 class_of_link(const struct txn_graph *g, u32 l)
{
	u32 ca[TXNET_MAX_DIMS], cb[TXNET_MAX_DIMS], t, a, b, k;

	if (!g->ndims)
		return 0;
	txn_vertex_coords(g, g->src[l], ca);
	txn_vertex_coords(g, g->dst[l], cb);
	for (t = 0; t < g->ndims; t++) {
		a = ca[t];
		b = cb[t];
		if (a == b)
			continue;
		k = g->fsize[t];
		if (g->fkind[t] == TXNET_DIM_RING && k > 2)
			return 2 * t + (b == (a + 1) % k ? 0 : 1);
		return 2 * t + (b > a ? 0 : 1);
	}
	return 0;	/* not reached: a link changes one coordinate */
}

bool txn_series_class(const struct txn_graph *g, u32 c, u32 *dim, u32 *dir)
{
	if (!g->ndims || c >= 2 * g->ndims)
		return false;
	*dim = c / 2;
	*dir = c % 2;
	return true;
}

int txn_series_init(struct txn_series *s, const struct txn_graph *g)
{
	u32 l;

	memset(s, 0, sizeof(*s));
	s->nclass = classes_of(g);
	s->nodes = g->nodes;
	s->group = group_of(g);
	s->rows = rows_of(g);
	s->class_of = txn_alloc_array(g->links ? g->links : 1, sizeof(u8));
	s->count = txn_zalloc_array(g->nodes, sizeof(u32));
	s->class_links = txn_zalloc_array(s->nclass, sizeof(u32));
	s->busy = txn_zalloc_array((size_t)s->nclass * SAMPLES, sizeof(u64));
	s->held = txn_zalloc_array((size_t)s->rows * SAMPLES, sizeof(u32));
	if (!s->class_of || !s->count || !s->class_links || !s->busy || !s->held) {
		txn_series_free(s);
		return -ENOMEM;
	}
	for (l = 0; l < g->links; l++) {
		s->class_of[l] = class_of_link(g, l);
		s->class_links[s->class_of[l]]++;
	}
	return 0;
}

void txn_series_keep(struct txn_series *s)
{
	txn_free(s->class_of);
	txn_free(s->count);
	s->class_of = NULL;
	s->count = NULL;
}

void txn_series_free(struct txn_series *s)
{
	txn_series_keep(s);
	txn_free(s->class_links);
	txn_free(s->busy);
	txn_free(s->held);
	memset(s, 0, sizeof(*s));
}

/* Full: neighbours merge (links summed, nodes at their most), samples twice as wide. */
static void widen(struct txn_series *s)
{
	u32 r, i;

	for (r = 0; r < s->nclass; r++) {
		u64 *b = s->busy + (size_t)r * SAMPLES;

		for (i = 0; i < SAMPLES / 2; i++)
			b[i] = b[2 * i] + b[2 * i + 1];
		memset(b + SAMPLES / 2, 0, SAMPLES / 2 * sizeof(*b));
	}
	for (r = 0; r < s->rows; r++) {
		u32 *q = s->held + (size_t)r * SAMPLES;

		for (i = 0; i < SAMPLES / 2; i++)
			q[i] = q[2 * i] > q[2 * i + 1] ? q[2 * i] : q[2 * i + 1];
		memset(q + SAMPLES / 2, 0, SAMPLES / 2 * sizeof(*q));
	}
	s->shift++;
}

/* The sample tick @t falls in, widening first if it is past the last. */
static u32 sample_of(struct txn_series *s, u64 t)
{
	while ((t - 1) >> s->shift >= SAMPLES)
		widen(s);
	s->len = (u32)((t - 1) >> s->shift) + 1;
	if (t > s->ticks)
		s->ticks = t;
	return s->len - 1;
}

void txn_series_links(struct txn_series *s, u64 t, const struct txn_move *m, u32 n)
{
	u64 *col = s->busy + sample_of(s, t);
	u32 i;

	for (i = 0; i < n; i++)
		col[(size_t)s->class_of[m[i].link] * SAMPLES]++;
}

/*
 * Every slot's location, the engine's own record, counted: a schedule
 * may keep waiting packets in its own tables rather than the engine's
 * queues, and they are held all the same.  At a tick's end a location is
 * a vertex or a TXN_LOC_* mark.
 */
void txn_series_held(struct txn_series *s, u64 t, const struct txn_ledger *ledger, u32 npkts)
{
	u32 *col = s->held + sample_of(s, t);
	u32 v, p, loc, *h;

	memset(s->count, 0, s->nodes * sizeof(u32));
	for (p = 0; p < npkts; p++) {
		loc = txn_loc_unmarked(txn_loc_uncounted(ledger, ledger->pk[p].loc));
		if (loc < s->nodes)	/* GONE and FREE stay past */
			s->count[loc]++;
	}
	for (v = 0; v < s->nodes; v++) {
		h = col + (size_t)(v / s->group) * SAMPLES;
		*h = s->count[v] > *h ? s->count[v] : *h;
	}
}
