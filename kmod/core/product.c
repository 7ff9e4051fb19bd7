// SPDX-License-Identifier: GPL-2.0
/*
 * Cartesian products: linear, ring, complete, mesh, torus, hypercube,
 * generalized hypercube (GHC) and product all build through here.
 *
 * The product G1 x ... x Gd has vertex set V1 x ... x Vd and an edge between
 * two vertices iff they differ in exactly one coordinate i and that pair of
 * values is an edge of Gi (000_5fb507e944f3b43a.txt, section 2).
 */
#include "topo_impl.h"

int txn_prod_init(struct txn_prod *p, u32 topo, u32 ndims, const u32 *size,
		  const u32 *kind)
{
	u32 i, stride;

	memset(p, 0, sizeof(*p));
	switch (topo) {
	case TXNET_TOPO_LINEAR:
	case TXNET_TOPO_RING:
	case TXNET_TOPO_COMPLETE:
	case TXNET_TOPO_MESH:
	case TXNET_TOPO_TORUS:
	case TXNET_TOPO_GHC:
	case TXNET_TOPO_PRODUCT:
		if (!ndims || ndims > TXNET_MAX_DIMS)
			return -EINVAL;
		p->ndims = ndims;
		for (i = 0; i < ndims; i++) {
			p->size[i] = size[i];
			p->kind[i] = kind[i];
		}
		break;
	case TXNET_TOPO_HYPERCUBE:
		/* Q_d = K2 x ... x K2, port k flips bit k. */
		if (!size[0] || size[0] > TXNET_MAX_DIMS)
			return -EINVAL;
		p->ndims = size[0];
		p->lsb_first = true;
		for (i = 0; i < p->ndims; i++) {
			p->size[i] = 2;
			p->kind[i] = TXNET_DIM_LINEAR;
		}
		break;
	default:
		return -EINVAL;
	}

	stride = 1;
	for (i = p->ndims; i-- > 0;) {
		p->stride[i] = stride;
		stride *= p->size[i];
	}
	p->nodes = stride;
	return 0;
}

u32 txn_prod_degree(const struct txn_prod *p, const u32 *coord)
{
	u32 i, deg = 0;

	for (i = 0; i < p->ndims; i++)
		deg += txn_factor_degree(p->kind[i], p->size[i], coord[i]);
	return deg;
}

void txn_prod_next(const struct txn_prod *p, u32 *coord)
{
	u32 i;

	for (i = p->ndims; i-- > 0;) {
		if (++coord[i] < p->size[i])
			return;
		coord[i] = 0;
	}
}

/*
 * The local port (within its dimension) of the link back from value @b to
 * value @a in a factor; see the port order in topo_impl.h.
 */
static u32 factor_rev_port(u32 kind, u32 k, u32 a, u32 b)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		/* back to a smaller value is b's minus port, always port 0 */
		if (a < b)
			return 0;
		/* back to a larger value: the plus port, after minus if any */
		return b > 0 ? 1 : 0;
	case TXNET_DIM_RING:
		if (k == 2)
			return 0;
		/* a == b - 1 (mod k): b's minus port */
		return (b == 0 ? k - 1 : b - 1) == a ? 0 : 1;
	default:
		return a < b ? a : a - 1;
	}
}

u32 txn_prod_fill(const struct txn_prod *p, const u32 *coord, u32 idx,
		  u32 base, const u32 *first, u32 *dst, u32 *rev)
{
	u32 port = 0, off, t, i, a, b, k, kind, v, nb[2], nnb, j;

	for (t = 0; t < p->ndims; t++) {
		i = p->lsb_first ? p->ndims - 1 - t : t;
		k = p->size[i];
		kind = p->kind[i];
		a = coord[i];
		/*
		 * Ports of dimension i start at the same offset at both ends
		 * of a dimension-i link: the ends agree on every other
		 * coordinate.
		 */
		off = port;
		if (kind == TXNET_DIM_COMPLETE) {
			for (b = 0; b < k; b++) {
				if (b == a)
					continue;
				v = base + idx - a * p->stride[i] + b * p->stride[i];
				dst[port] = v;
				rev[port] = first[v] + off +
					    factor_rev_port(kind, k, a, b);
				port++;
			}
			continue;
		}
		nnb = 0;
		if (kind == TXNET_DIM_LINEAR) {
			if (a > 0)
				nb[nnb++] = a - 1;
			if (a < k - 1)
				nb[nnb++] = a + 1;
		} else {
			nb[nnb++] = a == 0 ? k - 1 : a - 1;
			if (k > 2)
				nb[nnb++] = a == k - 1 ? 0 : a + 1;
		}
		for (j = 0; j < nnb; j++) {
			b = nb[j];
			v = base + idx - a * p->stride[i] + b * p->stride[i];
			dst[port] = v;
			rev[port] = first[v] + off + factor_rev_port(kind, k, a, b);
			port++;
		}
	}
	return port;
}

void txn_build_product(const struct txn_prod *p, struct txn_graph *g)
{
	u32 coord[TXNET_MAX_DIMS] = { 0 };
	u32 v, l, d, j, work = 0;

	/* pass 1: offsets */
	l = 0;
	for (v = 0; v < p->nodes; v++) {
		g->first[v] = l;
		l += txn_prod_degree(p, coord);
		txn_prod_next(p, coord);
		if (++work >= 4096) {
			work = 0;
			txn_cond_resched();
		}
	}
	g->first[p->nodes] = l;

	/* pass 2: links */
	memset(coord, 0, sizeof(coord));
	for (v = 0; v < p->nodes; v++) {
		l = g->first[v];
		d = txn_prod_fill(p, coord, v, 0, g->first, g->dst + l, g->rev + l);
		for (j = 0; j < d; j++)
			g->src[l + j] = v;
		txn_prod_next(p, coord);
		work += d + 1;
		if (work >= 4096) {
			work = 0;
			txn_cond_resched();
		}
	}
}
