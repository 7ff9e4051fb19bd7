// SPDX-License-Identifier: GPL-2.0
/* txctl: list arguments (values, permutations), inline or from a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "items.h"
#include "txctl.h"

void item_error(const char *field, const char *what, const char *where)
{
	fprintf(stderr, "Error: %s: %s%s%s.\n", field, what, where ? " " : "", where ? where : "");
	exit(EXIT_USAGE);
}

static void parse_list(const char *arg, item_fn fn, void *ctx)
{
	char item[64], where[96];
	const char *p = arg, *comma;
	unsigned int n = 0;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len >= sizeof(item))
			len = sizeof(item) - 1;
		memcpy(item, p, len);
		item[len] = '\0';
		snprintf(where, sizeof(where), "(item %u, \"%s\")", ++n, item);
		fn(item, where, ctx);
		if (!comma)
			return;
		p = comma + 1;
	}
}

static void parse_file(const char *path, const char *field, item_fn fn, void *ctx)
{
	char line[256], where[512];
	unsigned int lineno = 0, n = 0;
	const char *s;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		snprintf(where, sizeof(where), "%s: %s", path, strerror(errno));
		item_error(field, "cannot read", where);
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
			continue;
		snprintf(where, sizeof(where), "(%s, line %u)", path, lineno);
		fn(s, where, ctx);
		n++;
	}
	fclose(f);
	if (!n) {
		snprintf(where, sizeof(where), "in %s", path);
		item_error(field, "nothing", where);
	}
}

void items_parse(const char *arg, const char *field, item_fn fn, void *ctx)
{
	if (!strncmp(arg, "file:", 5))
		parse_file(arg + 5, field, fn, ctx);
	else
		parse_list(arg, fn, ctx);
}
