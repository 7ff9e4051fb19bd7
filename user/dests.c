// SPDX-License-Identifier: GPL-2.0
/* txctl: the destinations of a permutation; a MIN configuration. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dests.h"
#include "items.h"

/* One decimal processor number, nothing else (surrounding blanks allowed). */
static bool parse_dest(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || x >= DESTS_MAX)
		return false;
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	*v = (uint32_t)x;
	return !*end;
}

/* One item of the list: processor n's destination, a processor not named before. */
static void add(const char *item, const char *where, void *ctx)
{
	static int16_t seen_at[DESTS_MAX];	/* position + 1 of each value seen */
	struct dests *out = ctx;
	char msg[64];
	uint32_t v;

	if (!parse_dest(item, &v))
		item_error("permutation", "not a processor number (0 .. 16381)", where);
	if (!out->n)
		memset(seen_at, 0, sizeof(seen_at));
	if (out->n == DESTS_MAX)
		item_error("permutation", "more than 16382 destinations do not fit in one request",
			   NULL);
	if (seen_at[v]) {
		snprintf(msg, sizeof(msg), "%u is already the destination of processor %d", v,
			 seen_at[v] - 1);
		item_error("permutation", msg, where);
	}
	seen_at[v] = (int16_t)(out->n + 1);
	out->d[out->n++] = v;
}

void dests_parse(const char *arg, struct dests *out)
{
	out->n = 0;
	items_parse(arg, "permutation", add, out);
}

/* One row of switch states: binary digits, as many as every other row. */
static void add_row(const char *item, const char *where, void *ctx)
{
	struct matrix *out = ctx;
	uint32_t v = 0, bits = 0;
	const char *s = item;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s == '0' || *s == '1'; s++, bits++)
		v = v << 1 | (uint32_t)(*s - '0');
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (*s || !bits || bits > 16)
		item_error("matrix", "not a row of 1 to 16 switch states (0 straight, 1 cross)", where);
	if (out->n && bits != out->bits)
		item_error("matrix", "rows of different lengths", where);
	if (out->n == MATRIX_MAX)
		item_error("matrix", "more than 8192 rows do not fit in one request", NULL);
	out->bits = bits;
	out->row[out->n++] = v;
}

void matrix_parse(const char *arg, struct matrix *out)
{
	out->n = 0;
	items_parse(arg, "matrix", add_row, out);
}
