// SPDX-License-Identifier: GPL-2.0
/*
 * Biswapped networks: labels, and the base's distances from its factors
 * (bsn.h).
 */
#include "bsn.h"
#include "topo_impl.h"

u32 txn_factor_diameter(u32 kind, u32 k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return k - 1;
	case TXNET_DIM_RING:
		return k / 2;
	default:
		return 1;
	}
}

/* The eccentricity of value @a in a factor. */
static u32 factor_ecc(u32 kind, u32 k, u32 a)
{
	if (kind == TXNET_DIM_LINEAR)
		return a > k - 1 - a ? a : k - 1 - a;
	return txn_factor_diameter(kind, k);
}

u32 txn_bsn_ecc(const struct txn_graph *g, u32 p)
{
	u32 t, e = 0;

	for (t = 0; t < g->bndims; t++)
		e += factor_ecc(g->bkind[t], g->bsize[t], p / g->bstride[t] % g->bsize[t]);
	return e;
}

u32 txn_bsn_base_diameter(const struct txn_graph *g)
{
	u32 t, d = 0;

	for (t = 0; t < g->bndims; t++)
		d += txn_factor_diameter(g->bkind[t], g->bsize[t]);
	return d;
}

u32 txn_bsn_toward(const struct txn_graph *g, u32 y, u32 r)
{
	u32 t, a, b, k, s, to, fw;

	for (t = 0; t < g->bndims; t++) {
		s = g->bstride[t];
		k = g->bsize[t];
		a = y / s % k;
		b = r / s % k;
		if (a == b)
			continue;
		switch (g->bkind[t]) {
		case TXNET_DIM_LINEAR:
			to = a < b ? a + 1 : a - 1;
			break;
		case TXNET_DIM_RING:
			fw = (b + k - a) % k;
			to = fw <= k - fw ? (a + 1) % k : (a + k - 1) % k;
			break;
		default:
			to = b;
		}
		return y - a * s + to * s;
	}
	return ~0U;
}

u32 txn_bsn_line_first(const struct txn_graph *g, u32 v, u32 d, u32 j)
{
	u32 k = g->bsize[d], a = txn_bsn_coord(g, v, d);

	switch (g->bkind[d]) {
	case TXNET_DIM_LINEAR:
		/* forwards unless at the end, then backwards unless at the start */
		if (j == 0 && a + 1 < k)
			return txn_bsn_along(g, v, d, 1);
		if (j == (u32)(a + 1 < k) && a > 0)
			return txn_bsn_along(g, v, d, -1);
		return ~0U;
	case TXNET_DIM_RING:
		if (j == 0)
			return txn_bsn_along(g, v, d, 1);
		return j == 1 && k - 1 - k / 2 ? txn_bsn_along(g, v, d, -1) : ~0U;
	default:
		return j + 1 < k ? txn_bsn_along(g, v, d, (int)j + 1) : ~0U;
	}
}

u32 txn_bsn_line_next(const struct txn_graph *g, u32 u, u32 v, u32 d, u32 hops)
{
	u32 k = g->bsize[d], a = txn_bsn_coord(g, v, d), from = txn_bsn_coord(g, u, d);
	bool fwd;

	switch (g->bkind[d]) {
	case TXNET_DIM_LINEAR:
		fwd = a > from;
		if (fwd ? a + 1 < k : a > 0)
			return txn_bsn_along(g, v, d, fwd ? 1 : -1);
		return ~0U;
	case TXNET_DIM_RING:
		fwd = (from + 1) % k == a;
		if (hops < (fwd ? k / 2 : k - 1 - k / 2))
			return txn_bsn_along(g, v, d, fwd ? 1 : -1);
		return ~0U;
	default:
		return ~0U;
	}
}

u32 txn_bsn_line_origin(const struct txn_graph *g, u32 u, u32 v, u32 d, u32 hops)
{
	u32 k = g->bsize[d], a = txn_bsn_coord(g, v, d), from = txn_bsn_coord(g, u, d);

	if (g->bkind[d] == TXNET_DIM_COMPLETE)
		return from;
	/* it came the way @u -> @v points, @hops links */
	if ((g->bkind[d] == TXNET_DIM_LINEAR && a > from) ||
	    (g->bkind[d] == TXNET_DIM_RING && (from + 1) % k == a))
		return (a + k - hops % k) % k;
	return (a + hops) % k;
}

const struct txn_bsn_phase *txn_bsn_phase_at(const struct txn_bsn_phase *ph, u32 nph, u64 t)
{
	u32 i;

	for (i = 0; i < nph; i++)
		if (t > ph[i].start && t <= (u64)ph[i].start + ph[i].len)
			return &ph[i];
	return NULL;
}

void txn_bsn_push_copy(struct txn_engine *e, u32 pkt, u32 v, u32 w)
{
	u32 c = txn_copy(e, pkt);

	if (c != TXN_NONE)
		txn_q_push(e, txn_link_between(e->g, v, w), c);
}

static int base_of(const struct txn_spec *spec, struct txn_prod *p)
{
	if (spec->topo != TXNET_TOPO_BISWAPPED)
		return -EINVAL;
	return txn_prod_init(p, spec->base, spec->ndims, spec->size, spec->kind);
}

u64 txn_bsn_bcast_steps(const struct txn_spec *spec, u32 root)
{
	u32 n, grp, p, t, e = 2;
	struct txn_prod b;

	if (base_of(spec, &b))
		return 0;
	n = b.nodes;
	grp = root / n % n;
	p = root % n;
	for (t = 0; t < b.ndims; t++)
		e += factor_ecc(b.kind[t], b.size[t], p / b.stride[t] % b.size[t]) +
		     factor_ecc(b.kind[t], b.size[t], grp / b.stride[t] % b.size[t]);
	return e;
}

/* The base's diameter D, 0 when @spec is not a biswapped network. */
static u64 base_diameter(const struct txn_spec *spec)
{
	struct txn_prod b;
	u32 t, d = 0;

	if (base_of(spec, &b))
		return 0;
	for (t = 0; t < b.ndims; t++)
		d += txn_factor_diameter(b.kind[t], b.size[t]);
	return d;
}

u64 txn_bsn_sum_steps(const struct txn_spec *spec)
{
	u64 d = base_diameter(spec);

	return d ? 2 * d + 2 : 0;
}

u64 txn_bsn_prefix_steps(const struct txn_spec *spec)
{
	u64 d = base_diameter(spec);
	struct txn_prod b;
	u32 t, e = 0;

	if (!d || base_of(spec, &b))
		return 0;
	/* processor n-1: every coordinate at its largest */
	for (t = 0; t < b.ndims; t++)
		e += factor_ecc(b.kind[t], b.size[t], b.size[t] - 1);
	return 2 * d + 2 * (u64)e + 3;
}

u64 txn_bsn_paper_steps(const struct txn_spec *spec, u32 op)
{
	u64 d = base_diameter(spec);

	if (!d)
		return 0;
	switch (op) {
	case TXNET_OP_BROADCAST:
		return 2 * d + 2;
	case TXNET_OP_PREFIX_SUM:
		return 4 * d + 3;
	case TXNET_OP_DATA_SUM:
		return 3 * d + 2;
	}
	return 0;
}
