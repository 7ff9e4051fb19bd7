// SPDX-License-Identifier: GPL-2.0
/*
 * The CSR graph of a validated spec: allocation, dispatch to the builders,
 * release.
 */
#include "topo_impl.h"

u64 txn_graph_bytes(const struct txn_counts *counts)
{
	/* first[nodes + 1], then src[], dst[], rev[] (and line[]) of links entries each */
	return (counts->nodes + 1) * (u64)sizeof(u32) +
	       (counts->lines ? 4 : 3) * counts->links * (u64)sizeof(u32);
}

void txn_vertex_coords(const struct txn_graph *g, u32 v, u32 *coord)
{
	u32 k, d;

	for (k = 0; k < g->ndims; k++) {
		d = g->flsb ? k : g->ndims - 1 - k;
		coord[d] = v % g->fsize[d];
		v /= g->fsize[d];
	}
}

void txn_graph_coords(const struct txn_graph *g, u32 *coord)
{
	u32 v;

	for (v = 0; v < g->nodes; v++)
		txn_vertex_coords(g, v, coord + (u64)v * g->ndims);
}

void txn_graph_free(struct txn_graph *g)
{
	txn_free(g->first);
	txn_free(g->src);
	txn_free(g->dst);
	txn_free(g->rev);
	txn_free(g->line);
	memset(g, 0, sizeof(*g));
}

/* The factors of a product, in port order, for routing by coordinates. */
static void factors_of(const struct txn_prod *p, struct txn_graph *g)
{
	u32 t, i;

	g->ndims = p->ndims;
	g->flsb = p->lsb_first;
	for (t = 0; t < p->ndims; t++) {
		i = p->lsb_first ? p->ndims - 1 - t : t;
		g->fsize[t] = p->size[i];
		g->fkind[t] = (u8)p->kind[i];
	}
}

static void base_of(const struct txn_prod *p, struct txn_graph *g)
{
	u32 t;

	g->bsn_n = p->nodes;
	g->bndims = p->ndims;
	for (t = 0; t < p->ndims; t++) {
		g->bkind[t] = (u8)p->kind[t];
		g->bsize[t] = p->size[t];
		g->bstride[t] = p->stride[t];
	}
}

static u32 regular_degree(const struct txn_graph *g)
{
	u32 v, d = g->first[1] - g->first[0];

	for (v = 1; v < g->nodes; v++)
		if (g->first[v + 1] - g->first[v] != d)
			return 0;
	return d;
}

/* The CSR of @r's graph into @g, from @ctx (see txn_build_rule()). */
static int fill_rule(const struct txn_rule *r, const void *ctx, struct txn_graph *g)
{
	u64 total = 0;
	u32 v, l, p, d, w;

	for (v = 0; v < g->nodes; v++) {
		g->first[v] = (u32)total;
		total += r->degree(ctx, v);
		if (total > g->links)
			return -EINVAL;
	}
	if (total != g->links)
		return -EINVAL;
	g->first[v] = g->links;
	for (v = 0; v < g->nodes; v++) {
		d = g->first[v + 1] - g->first[v];
		for (p = 0; p < d; p++) {
			w = r->neighbour(ctx, v, p);
			if (w >= g->nodes || w == v)
				return -EINVAL;
			g->src[g->first[v] + p] = v;
			g->dst[g->first[v] + p] = w;
		}
		if (!(v & 1023))
			txn_cond_resched();
	}
	for (l = 0; l < g->links; l++) {
		g->rev[l] = txn_link_between(g, g->dst[l], g->src[l]);
		if (g->rev[l] == TXN_NO_LINK)
			return -EINVAL;
		if (!(l & 4095))
			txn_cond_resched();
	}
	return 0;
}

int txn_build_rule(const struct txn_spec *spec, const struct txn_rule *r, struct txn_graph *g)
{
	const void *ctx = spec;
	void *made = NULL;
	int ret;

	if (r->prepare) {
		ret = r->prepare(spec, &made);
		if (ret)
			return ret;
		ctx = made;
	}
	ret = fill_rule(r, ctx, g);
	if (r->release)
		r->release(made);
	return ret;
}

int txn_graph_build(const struct txn_spec *spec, const struct txn_counts *counts,
		    struct txn_graph *g)
{
	struct txn_spec s = *spec;
	struct txn_counts c;
	struct txn_spec_error err;
	struct txn_prod p;
	int ret;

	memset(g, 0, sizeof(*g));
	/* The arrays are sized from @counts: refuse counts of another spec. */
	ret = txn_spec_validate(&s, counts->nodes, &c, &err);
	if (ret || c.nodes != counts->nodes || c.links != counts->links ||
	    c.procs != counts->procs)
		return -EINVAL;

	g->nodes = (u32)counts->nodes;
	g->procs = (u32)counts->procs;
	g->links = (u32)counts->links;
	g->diameter = counts->diameter;
	g->first = txn_alloc_array((size_t)counts->nodes + 1, sizeof(u32));
	g->src = txn_alloc_array((size_t)counts->links, sizeof(u32));
	g->dst = txn_alloc_array((size_t)counts->links, sizeof(u32));
	g->rev = txn_alloc_array((size_t)counts->links, sizeof(u32));
	if (counts->lines) {
		g->line = txn_alloc_array((size_t)counts->links, sizeof(u32));
		g->one_line = true;
	}
	if (!g->first || !g->src || !g->dst || !g->rev || (counts->lines && !g->line)) {
		txn_graph_free(g);
		return -ENOMEM;
	}

	spec = &s;
	switch (spec->topo) {
	case TXNET_TOPO_BUTTERFLY:
	case TXNET_TOPO_OMEGA:
	case TXNET_TOPO_BASELINE:
	case TXNET_TOPO_RBASELINE:
	case TXNET_TOPO_FLIP:
		txn_build_min(spec, g);
		break;
	case TXNET_TOPO_DRAGONFLY:
		ret = txn_build_rule(spec, &txn_dragonfly_rule, g);
		break;
	case TXNET_TOPO_FATTREE:
		ret = txn_build_rule(spec, &txn_fattree_rule, g);
		break;
	case TXNET_TOPO_SLIMFLY:
		ret = txn_build_rule(spec, &txn_slimfly_rule, g);
		break;
	case TXNET_TOPO_BISWAPPED:
		ret = txn_prod_init(&p, spec->base, spec->ndims, spec->size,
				    spec->kind);
		if (!ret)
			txn_build_biswapped(&p, g);
		if (!ret)
			base_of(&p, g);
		break;
	default:
		ret = txn_prod_init(&p, spec->topo, spec->ndims, spec->size,
				    spec->kind);
		if (!ret)
			txn_build_product(&p, g);
		if (!ret)
			factors_of(&p, g);
		break;
	}
	if (ret) {
		txn_graph_free(g);
		return ret;
	}
	g->degree = regular_degree(g);
	return 0;
}

u32 txn_link_between(const struct txn_graph *g, u32 u, u32 v)
{
	u32 l;

	for (l = g->first[u]; l < g->first[u + 1]; l++)
		if (g->dst[l] == v)
			return l;
	return TXN_NO_LINK;
}
