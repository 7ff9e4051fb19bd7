// SPDX-License-Identifier: GPL-2.0
/*
 * The biswapped network Sigma(Omega) over an n-vertex base Omega
 * (004_479a535e0b8bf657.txt, section 2, Definition 1):
 *
 *   V = { <g,p,c> : g, p in V(Omega), c in {0,1} }
 *   E = { (<g,p1,c>, <g,p2,c>) : (p1,p2) in E(Omega) }        intra-group
 *     u { (<g,p,0>, <p,g,1>), (<g,p,1>, <p,g,0>) }             swap
 *
 * 2n groups of n vertices, 2n^2 vertices.  Vertex <g,p,c> is numbered
 * c*n^2 + g*n + p.  Its ports: the base's ports of p, in the base's port
 * order (links to <g,p',c>), then one swap port (to <p,g,1-c>).
 */
#include "topo_impl.h"

void txn_build_biswapped(const struct txn_prod *bp, struct txn_graph *g)
{
	u32 coord[TXNET_MAX_DIMS];
	u32 n = bp->nodes, nn = n * n;
	u32 c, grp, p, v, l, d, j, w, work = 0;

	/* pass 1: offsets; the degree of <g,p,c> is deg(p) + 1 */
	l = 0;
	v = 0;
	for (c = 0; c < 2; c++) {
		for (grp = 0; grp < n; grp++) {
			memset(coord, 0, sizeof(coord));
			for (p = 0; p < n; p++, v++) {
				g->first[v] = l;
				l += txn_prod_degree(bp, coord) + 1;
				txn_prod_next(bp, coord);
			}
			work += n;
			if (work >= 4096) {
				work = 0;
				txn_cond_resched();
			}
		}
	}
	g->first[v] = l;

	/* pass 2: links */
	v = 0;
	for (c = 0; c < 2; c++) {
		for (grp = 0; grp < n; grp++) {
			memset(coord, 0, sizeof(coord));
			for (p = 0; p < n; p++, v++) {
				l = g->first[v];
				d = txn_prod_fill(bp, coord, p, c * nn + grp * n,
						  g->first, g->dst + l, g->rev + l);
				/* swap port: to <p,grp,1-c>, whose swap port is its last */
				w = (1 - c) * nn + p * n + grp;
				g->dst[l + d] = w;
				g->rev[l + d] = g->first[w + 1] - 1;
				for (j = 0; j <= d; j++)
					g->src[l + j] = v;
				txn_prod_next(bp, coord);
				work += d + 2;
			}
			if (work >= 4096) {
				work = 0;
				txn_cond_resched();
			}
		}
	}
}
