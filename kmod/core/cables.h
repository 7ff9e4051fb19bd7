/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network given as a list of cables (kmod/core/cables.c): its counts and
 * its graph.  Portable C (see shim.h).
 */
#ifndef TXN_CORE_CABLES_H
#define TXN_CORE_CABLES_H

#include "topology.h"

/* No cable or no vertex to name in a refusal. */
#define TXN_CABLES_NONE		((u32)~0U)

/* Searches from every processor while they cost less than this many visits (bounds.c's budget). */
#define TXN_CABLES_SEARCH_BUDGET	(1ULL << 27)

struct txn_cables {
	u32 procs;		/* vertices 0 .. procs-1 */
	u32 switches;		/* vertices procs .. procs+switches-1 */
	u32 n;			/* cables */
	const u32 *pair;	/* 2n vertex numbers: cable i joins pair[2i] and pair[2i+1] */
};

/* Why a list was refused: a static message, the cable and the vertex at fault (or NONE). */
struct txn_cables_error {
	const char *msg;
	u32 cable;
	u32 vertex;
};

/*
 * Check what can be checked cable by cable (vertex range, self-loops) and
 * the limits, and fill @counts (not the diameter: the graph tells).  0,
 * -EINVAL or -E2BIG with @err filled in.
 */
int txn_cables_count(const struct txn_cables *c, u64 max_nodes, struct txn_counts *counts,
		     struct txn_cables_error *err);

/*
 * Build the graph of a counted list; refuse a cable listed twice and a
 * vertex processor 0 cannot reach.  *@exact says whether g->diameter is
 * the diameter or a lower bound on it.  Nothing is left allocated on
 * failure.
 */
int txn_graph_from_cables(const struct txn_cables *c, const struct txn_counts *counts,
			  struct txn_graph *g, bool *exact, struct txn_cables_error *err);

/*
 * A 64-bit digest of the counts and the set of cables, whatever the order
 * of the list or of each cable's ends: the same graph gets the same digest
 * whichever file described it, so that a user can tell which graph a
 * network was built from.
 */
u64 txn_cables_digest(const struct txn_cables *c);

#endif /* TXN_CORE_CABLES_H */
