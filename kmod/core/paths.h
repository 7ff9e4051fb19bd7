/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shortest paths over directed links, for schedulers: breadth-first search
 * towards a processor (the in-tree every packet for it can follow) and out
 * of one (the tree a broadcast from it can follow).
 */
#ifndef TXN_CORE_PATHS_H
#define TXN_CORE_PATHS_H

#include "topology.h"

struct txn_paths {
	const struct txn_graph *g;
	u32 *in_first;		/* reverse CSR: in-links of vertex v are */
	u32 *in_link;		/* in_link[in_first[v] .. in_first[v+1]-1] */
	u32 *in_src;		/* in_src[i]: in_link[i]'s source, read without a miss */
	u32 *queue;		/* BFS order of the last search */
	u32 *dist;		/* distances of the last search, TXN_NO_LINK: unreached */
	u32 reached;		/* vertices the last search reached */
	const u64 *down;	/* the caller's: a bit per link that searches avoid, or NULL */
};

static inline bool txn_link_down_in(const u64 *down, u32 l)
{
	return down[l / 64] >> (l % 64) & 1;
}

u64 txn_paths_bytes(const struct txn_graph *g);
int txn_paths_init(struct txn_paths *P, const struct txn_graph *g);
void txn_paths_free(struct txn_paths *P);

/*
 * toward[v] = the out-link of v that starts a shortest path to @d
 * (TXN_NO_LINK at @d and where @d cannot be reached); P->dist[v] = its length.
 */
void txn_paths_toward(struct txn_paths *P, u32 d, u32 *toward);

/* par[v] = the in-link from v's parent in a shortest-path tree out of @r. */
void txn_paths_from(struct txn_paths *P, u32 r, u32 *par);

#endif /* TXN_CORE_PATHS_H */
