/* SPDX-License-Identifier: GPL-2.0 */
/* txctl run: a permutation's destinations (DESTS), a MIN configuration (ROWS). */
#ifndef TXCTL_DESTS_H
#define TXCTL_DESTS_H

#include <stdint.h>

/* What one netlink attribute can carry: 65535 bytes, less its header, in u32. */
#define DESTS_MAX	16382

struct dests {
	uint32_t n;
	uint32_t d[DESTS_MAX];
};

/*
 * "3,0,1,2" or "file:PATH" (one destination a line; blank lines and lines
 * starting with # are skipped): processor i's message goes to the i-th.
 * Exits with a message naming the item (or file and line) on a value that
 * is not a processor number, or one that appears twice; the kernel checks
 * the count against the network.
 */
void dests_parse(const char *arg, struct dests *out);

/* txctl run NET total-exchange matrix ROWS: a MIN configuration M. */
#define MATRIX_MAX	8192	/* rows: N/2 of a MIN that fits DESTS_MAX */

struct matrix {
	uint32_t n, bits;
	uint32_t row[MATRIX_MAX];	/* m_{h,k} at bit bits-1-k */
};

/*
 * "000,011,101,011" or "file:PATH": switch row h's states, stage 0 first,
 * every row as many digits (log2 N; the kernel checks N/2 rows).  Exits
 * naming the row on anything else.
 */
void matrix_parse(const char *arg, struct matrix *out);

#endif /* TXCTL_DESTS_H */
