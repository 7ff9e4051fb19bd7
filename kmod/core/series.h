/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run over time, for pictures: how many links of each dimension and
 * direction carried a packet, and how many packets each node held.
 * At most TXNET_SERIES_SAMPLES samples: when a run outgrows them,
 * neighbours merge and each sample covers twice the ticks, so a run of
 * any length costs the same memory (txn_series_bytes()).  The engine
 * records it (txn_engine_record()); a scheduler cannot.
 */
#ifndef TXN_CORE_SERIES_H
#define TXN_CORE_SERIES_H

#include "shim.h"
#include "topology.h"

struct txn_series {
	u32 nclass;		/* link rows: 2 a dimension of a product, else 1 */
	u32 rows;		/* node rows, each of @group consecutive nodes */
	u32 group;
	u32 nodes;
	u32 shift;		/* a sample covers 1 << shift ticks */
	u32 len;		/* samples begun */
	u64 ticks;		/* ticks recorded */
	u8 *class_of;		/* per link, while recording; NULL once kept */
	u32 *count;		/* per node, while recording: packets there this tick */
	u32 *class_links;	/* per link row: its links */
	u64 *busy;		/* nclass x TXNET_SERIES_SAMPLES: links that carried a packet, summed */
	u32 *held;		/* rows x TXNET_SERIES_SAMPLES: the most packets a node held */
};

/* Bytes txn_series_init() allocates for @g, and what is left after txn_series_keep(). */
u64 txn_series_bytes(const struct txn_graph *g);
u64 txn_series_kept_bytes(const struct txn_graph *g);
int txn_series_init(struct txn_series *s, const struct txn_graph *g);
/* The run is over: drop what only recording needs. */
void txn_series_keep(struct txn_series *s);
void txn_series_free(struct txn_series *s);

/* Link row @c: its dimension (port order) and direction (0 up, 1 down); false when it has none. */
bool txn_series_class(const struct txn_graph *g, u32 c, u32 *dim, u32 *dir);

/*
 * The engine's part, tick @t (from 1): the links the tick's moves took,
 * then where its @npkts packet slots are at the tick's end.
 */
struct txn_move;
struct txn_ledger;
void txn_series_links(struct txn_series *s, u64 t, const struct txn_move *m, u32 n);
void txn_series_held(struct txn_series *s, u64 t, const struct txn_ledger *ledger, u32 npkts);

#endif /* TXN_CORE_SERIES_H */
