/* SPDX-License-Identifier: GPL-2.0 */
/* txctl run NET permutation DESTS: where each processor's message goes. */
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

#endif /* TXCTL_DESTS_H */
