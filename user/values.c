// SPDX-License-Identifier: GPL-2.0
/* txctl: the values a combining operation runs on. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "items.h"
#include "txctl.h"
#include "values.h"

/* One decimal s64, nothing else (surrounding blanks allowed); false if not. */
static bool parse_s64(const char *s, int64_t *v)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (errno || end == s)
		return false;
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	return !*end;
}

/* One item of the list: a value. */
static void add(const char *item, const char *where, void *ctx)
{
	struct values *out = ctx;
	int64_t v;

	if (!parse_s64(item, &v))
		item_error("values", "not a 64-bit integer", where);
	if (out->n == VALUES_MAX)
		item_error("values", "more than 8000 values do not fit in one request", NULL);
	out->v[out->n++] = v;
}

void values_parse(const char *arg, struct values *out)
{
	memset(out, 0, sizeof(*out));
	if (!strncmp(arg, "random:", 7)) {
		out->random = true;
		out->seed = get_u64_nonneg(arg + 7, "values random:SEED");
		return;
	}
	items_parse(arg, "values", add, out);
}
