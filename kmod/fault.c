// SPDX-License-Identifier: GPL-2.0
/*
 * Faults (TXNET_CMD_FAULT): an administrator cuts the cable between two
 * vertices (both directed links go down) or takes a node down (every link
 * in or out of it) and brings them back.  The network keeps what was cut
 * and what is down, and from them one bitmap of links down that every
 * engine on the network reads: interface and port traffic at once, under
 * their locks, so that a frame sent the next moment is routed around the
 * fault; a run at the start of its next tick, when the tick thread sees
 * the generation change (engine_fault.c says what happens then).
 *
 * Writers hold txnet_lock; readers that do not (the tick thread, sysfs)
 * read word by word with READ_ONCE: a reader that sees half a change sees
 * the generation move again and reads once more.
 */
#include <linux/bitops.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "txnet.h"
#include "fault.h"

static u32 words_of(u32 bits)
{
	return (bits + 63) / 64;
}

int txnet_faults_init(struct txnet_faults *f, const struct txn_graph *g)
{
	f->words = words_of(g->links);
	f->cut = kvcalloc(f->words, sizeof(u64), GFP_KERNEL_ACCOUNT);
	f->down = kvcalloc(f->words, sizeof(u64), GFP_KERNEL_ACCOUNT);
	f->node_down = kvcalloc(words_of(g->nodes), sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!f->cut || !f->down || !f->node_down) {
		txnet_faults_free(f);
		return -ENOMEM;
	}
	return 0;
}

void txnet_faults_free(struct txnet_faults *f)
{
	kvfree(f->cut);
	kvfree(f->down);
	kvfree(f->node_down);
	f->cut = NULL;
	f->down = NULL;
	f->node_down = NULL;
}

static bool bit64(const u64 *map, u32 i)
{
	return READ_ONCE(map[i / 64]) >> (i % 64) & 1;
}

static void put_bit64(u64 *map, u32 i, bool on)
{
	u64 w = map[i / 64], b = 1ULL << (i % 64);

	WRITE_ONCE(map[i / 64], on ? w | b : w & ~b);
}

bool txnet_node_is_down(const struct txnet_faults *f, u32 v)
{
	return bit64(f->node_down, v);
}

bool txnet_link_is_down(const struct txnet_faults *f, u32 link)
{
	return bit64(f->down, link);
}

/* A cable is its two links, or a MIN's one: each counted and listed once. */
static bool cable_once(const struct txn_graph *g, u32 l)
{
	return g->src[l] < g->dst[l] || txn_link_between(g, g->dst[l], g->src[l]) == TXN_NO_LINK;
}

/* down = cut, and every link of a node that is down. */
static void recompute(struct txnet_faults *f, const struct txn_graph *g)
{
	u32 l, w;
	u64 bits;

	for (w = 0; w < f->words; w++) {
		bits = f->cut[w];
		for (l = w * 64; l < min_t(u32, (w + 1) * 64, g->links); l++)
			if (bit64(f->node_down, g->src[l]) || bit64(f->node_down, g->dst[l]))
				bits |= 1ULL << (l % 64);
		WRITE_ONCE(f->down[w], bits);
	}
}

int txnet_fault_set(struct txnet_net *tn, bool link, u32 u, u32 v, bool up, const char **why)
{
	struct txnet_faults *f = &tn->faults;
	const struct txn_graph *g = &tn->graph;
	u32 l, found = 0;

	lockdep_assert_held(&txnet_lock);
	if (link) {
		for (l = g->first[u]; l < g->first[u + 1]; l++)
			if (g->dst[l] == v)
				found++;
		for (l = g->first[v]; l < g->first[v + 1]; l++)
			if (g->dst[l] == u)
				found++;
		if (!found) {
			*why = "no link joins these two nodes";
			return -EINVAL;
		}
		for (l = g->first[u]; l < g->first[u + 1]; l++)
			if (g->dst[l] == v)
				put_bit64(f->cut, l, !up);
		for (l = g->first[v]; l < g->first[v + 1]; l++)
			if (g->dst[l] == u)
				put_bit64(f->cut, l, !up);
	} else {
		put_bit64(f->node_down, u, !up);
	}
	recompute(f, g);
	f->ncut = 0;
	for (l = 0; l < g->links; l++)
		f->ncut += bit64(f->cut, l) && cable_once(g, l);
	f->nnodes = 0;
	for (l = 0; l < words_of(g->nodes); l++)
		f->nnodes += hweight64(f->node_down[l]);
	/* Pairs with the tick thread's READ_ONCE: the bitmap first, then the news. */
	smp_store_release(&f->gen, f->gen + 1);
	txnet_fabric_faults(tn, link ? U32_MAX : u);
	txnet_ports_faults(tn);
	wake_up(&tn->wq);
	return 0;
}

void txnet_faults_copy(const struct txnet_faults *f, u64 *to)
{
	u32 w;

	for (w = 0; w < f->words; w++)
		to[w] = READ_ONCE(f->down[w]);
}

/* Cables in order of their first node, then their second: as a reader lists them. */
int txnet_faults_cables(const struct txnet_net *tn, u32 *pairs, u32 max)
{
	const struct txn_graph *g = &tn->graph;
	u32 l, n = 0, i, a, b;

	for (l = 0; l < g->links && n < max; l++) {
		if (!bit64(tn->faults.cut, l) || !cable_once(g, l))
			continue;
		a = min(g->src[l], g->dst[l]);
		b = max(g->src[l], g->dst[l]);
		for (i = n; i > 0 && (pairs[2 * i - 2] > a ||
				      (pairs[2 * i - 2] == a && pairs[2 * i - 1] > b)); i--) {
			pairs[2 * i] = pairs[2 * i - 2];
			pairs[2 * i + 1] = pairs[2 * i - 1];
		}
		pairs[2 * i] = a;
		pairs[2 * i + 1] = b;
		n++;
	}
	return n;
}

int txnet_faults_nodes(const struct txnet_net *tn, u32 *nodes, u32 max)
{
	u32 v, n = 0;

	for (v = 0; v < tn->graph.nodes && n < max; v++)
		if (bit64(tn->faults.node_down, v))
			nodes[n++] = v;
	return n;
}
