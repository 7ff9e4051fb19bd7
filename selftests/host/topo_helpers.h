/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the host tests of kmod/core/ topologies. */
#ifndef TXN_TEST_TOPO_HELPERS_H
#define TXN_TEST_TOPO_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/topology.h"

/* A spec, its counts and its graph. */
struct tg {
	struct txn_spec spec;
	struct txn_counts c;
	struct txn_graph g;
};

/*
 * Parse the text form ("mesh 3 4", "product ring:5 linear:3",
 * "biswapped mesh 3 3") into @s.  The test's own parser, independent of
 * txn_spec_format().  0 or -1.
 */
int tg_parse(const char *text, struct txn_spec *s);

/* Parse, validate (max_nodes 1 << 24) and build; NULL or a reason. */
const char *tg_make(struct tg *t, const char *text);
void tg_free(struct tg *t);

/* Structural invariants: CSR shape, ids in range, no self-loops, no parallel
 * links, rev (or TXN_NO_LINK for @oneway), max degree.  NULL or a reason. */
const char *tg_check_basic(const struct tg *t, bool oneway);

/* Distances from @s (UINT32_MAX: unreachable); @dist has g->nodes entries. */
void tg_bfs(const struct txn_graph *g, uint32_t s, uint32_t *dist);
/* ... over the links whose bit in @down (64 a word) is clear. */
void tg_bfs_avoiding(const struct txn_graph *g, uint32_t s, uint32_t *dist, const uint64_t *down);

/* Largest distance between two processors; UINT32_MAX if disconnected. */
uint32_t tg_proc_diameter(const struct txn_graph *g);

/* Is there a link u -> v? */
bool tg_has_link(const struct txn_graph *g, uint32_t u, uint32_t v);

/* Mixed radix decode, dimension 0 most significant. */
void tg_decode(uint32_t v, uint32_t ndims, const uint32_t *size, uint32_t *coord);

/* Is (a, b) an edge of the factor of @kind and size @k? (the definitions) */
bool tg_factor_edge(uint32_t kind, uint32_t k, uint32_t a, uint32_t b);

/* The log2 N-stage MINs, and their names in a spec, in one order. */
extern const uint32_t tg_min_wirings[5];
extern const char *const tg_min_names[5];

/* Format a message into a static buffer (for the check functions). */
const char *tg_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
