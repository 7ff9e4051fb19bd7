// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric's broadcast: a broadcast or multicast frame runs down the
 * shortest-path tree out of the processor that sent it, as a switched
 * network floods it: every processor the copy reaches receives it and
 * sends one copy a hop to each of its children.  n - 1 hops a frame in
 * all, each processor reached at its distance from the sender, rather
 * than n - 1 copies queued at the sender's links.
 *
 * Trees are searched once per sender, around the links that are down, and
 * kept (n x V in-links, at most 256 KiB) until the faults change.  MINs,
 * whose switches cannot copy, send n - 1 copies instead.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "txnet.h"
#include "fabric.h"

u64 txnet_fabric_tree_bytes(const struct txn_graph *g)
{
	if (g->nodes != g->procs)
		return 0;
	return txn_paths_bytes(g) + (u64)g->procs * g->nodes * sizeof(u32) + g->procs;
}

int txnet_fabric_tree_init(struct txnet_fabric *f, const struct txn_graph *g, const u64 *down)
{
	if (g->nodes != g->procs)
		return 0;
	f->tree_par = kvmalloc_array((size_t)g->procs * g->nodes, sizeof(u32), TXN_GFP);
	f->tree_ok = kvzalloc(g->procs, TXN_GFP);
	if (!f->tree_par || !f->tree_ok || txn_paths_init(&f->paths, g))
		return -ENOMEM;
	f->paths.down = down;
	return 0;
}

void txnet_fabric_tree_free(struct txnet_fabric *f)
{
	txn_paths_free(&f->paths);
	kvfree(f->tree_par);
	kvfree(f->tree_ok);
}

/* Under f->lock, after the faults changed: every tree searched afresh when next used. */
void txnet_fabric_tree_flush(struct txnet_fabric *f)
{
	if (f->tree_ok)
		memset(f->tree_ok, 0, f->procs);
}

/* The tree out of @root: per vertex, the in-link from its parent; NULL where there are no trees. */
const u32 *txnet_fabric_tree(struct txnet_fabric *f, u32 root)
{
	u32 *par;

	if (!f->tree_ok)
		return NULL;
	par = f->tree_par + (size_t)root * f->paths.g->nodes;
	if (!f->tree_ok[root]) {
		txn_paths_from(&f->paths, root, par);
		f->tree_ok[root] = 1;
	}
	return par;
}
