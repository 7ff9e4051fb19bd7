/* SPDX-License-Identifier: GPL-2.0 */
/* txctl run ... values: the inputs of a combining operation. */
#ifndef TXCTL_VALUES_H
#define TXCTL_VALUES_H

#include <stdbool.h>
#include <stdint.h>

/* What one netlink attribute can carry: 65535 bytes, less its header. */
#define VALUES_MAX	8000

struct values {
	bool random;		/* random:SEED */
	uint64_t seed;
	uint32_t n;
	int64_t v[VALUES_MAX];
};

/*
 * "5,1,-4", "file:PATH" (one integer a line; blank lines and lines
 * starting with # are skipped) or "random:SEED".  Exits with a message
 * naming the field, the file and the line on a bad value.
 */
void values_parse(const char *arg, struct values *out);

#endif /* TXCTL_VALUES_H */
