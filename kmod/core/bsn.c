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
