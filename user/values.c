// SPDX-License-Identifier: GPL-2.0
/* txctl: the values a combining operation runs on. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "txctl.h"
#include "values.h"

static void __attribute__((noreturn)) bad(const char *what, const char *where)
{
	fprintf(stderr, "Error: values: %s%s%s.\n", what, where ? " " : "", where ? where : "");
	exit(EXIT_USAGE);
}

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

static void add(struct values *out, int64_t v)
{
	if (out->n == VALUES_MAX)
		bad("more than 8000 values do not fit in one request", NULL);
	out->v[out->n++] = v;
}

static void parse_list(const char *arg, struct values *out)
{
	char item[64], where[96];
	const char *p = arg, *comma;
	size_t len;
	int64_t v;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len >= sizeof(item))
			len = sizeof(item) - 1;
		memcpy(item, p, len);
		item[len] = '\0';
		snprintf(where, sizeof(where), "(item %u, \"%s\")", out->n + 1, item);
		if (!parse_s64(item, &v))
			bad("not a 64-bit integer", where);
		add(out, v);
		if (!comma)
			return;
		p = comma + 1;
	}
}

static void parse_file(const char *path, struct values *out)
{
	char line[256], where[512];
	unsigned int lineno = 0;
	const char *s;
	int64_t v;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		snprintf(where, sizeof(where), "%s: %s", path, strerror(errno));
		bad("cannot read", where);
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
			continue;
		if (!parse_s64(s, &v)) {
			snprintf(where, sizeof(where), "(%s, line %u)", path, lineno);
			bad("not a 64-bit integer", where);
		}
		add(out, v);
	}
	fclose(f);
	if (!out->n) {
		snprintf(where, sizeof(where), "in %s", path);
		bad("no values", where);
	}
}

void values_parse(const char *arg, struct values *out)
{
	memset(out, 0, sizeof(*out));
	if (!strncmp(arg, "random:", 7)) {
		out->random = true;
		out->seed = get_u64_nonneg(arg + 7, "values random:SEED");
		return;
	}
	if (!strncmp(arg, "file:", 5)) {
		parse_file(arg + 5, out);
		return;
	}
	parse_list(arg, out);
}
