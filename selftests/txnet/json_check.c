// SPDX-License-Identifier: GPL-2.0
/*
 * json_check: a strict RFC 8259 JSON validator for the txctl shell test
 * (the test VM has no python or jq).  Not a test itself.
 *
 *   json_check [-l] [-k KEY]... [-g KEY] < input
 *
 * Exit 0 iff the input is one JSON value (with -l: every non-empty line is
 * one), every object at the top level or directly in a top-level array
 * has every KEY, and, with -g, prints the value of KEY in the first such
 * object (strings without quotes or escapes handling beyond \" \\).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;
static int depth;
static const char *keys[32];
static int nkeys;
static const char *getkey;
static bool got;

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
}

static bool value(bool top_level_item, bool *found);

static bool string(char *out, size_t len)
{
	size_t n = 0;

	if (*p != '"')
		return false;
	p++;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || !c)
			return false;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return false;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return false;
			}
		}
		if (out && n + 1 < len)
			out[n++] = *p;
		p++;
	}
	p++;
	if (out)
		out[n] = '\0';
	return true;
}

static bool number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return false;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return true;
}

static bool object(bool check)
{
	bool found[32] = { false };
	char key[128];

	p++;
	ws();
	if (*p != '}') {
		for (;;) {
			const char *v;

			ws();
			if (!string(key, sizeof(key)))
				return false;
			for (int i = 0; i < nkeys; i++)
				if (!strcmp(key, keys[i]))
					found[i] = true;
			ws();
			if (*p++ != ':')
				return false;
			ws();
			v = p;
			if (!value(false, NULL))
				return false;
			if (check && getkey && !got && !strcmp(key, getkey)) {
				int n = (int)(p - v);

				if (*v == '"')
					printf("%.*s\n", n - 2, v + 1);
				else
					printf("%.*s\n", n, v);
				got = true;
			}
			ws();
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p != '}')
				return false;
			break;
		}
	}
	p++;
	if (check)
		for (int i = 0; i < nkeys; i++)
			if (!found[i]) {
				fprintf(stderr, "json_check: key \"%s\" missing\n", keys[i]);
				return false;
			}
	return true;
}

static bool value(bool top, bool *unused)
{
	(void)unused;
	ws();
	if (++depth > 64)
		return false;
	switch (*p) {
	case '{':
		if (!object(top))
			return false;
		break;
	case '[':
		p++;
		ws();
		if (*p != ']') {
			for (;;) {
				/* items of a top-level array are checked like a top-level object */
				if (!value(top && depth == 1, NULL))
					return false;
				ws();
				if (*p == ',') {
					p++;
					continue;
				}
				if (*p != ']')
					return false;
				break;
			}
		}
		p++;
		break;
	case '"':
		if (!string(NULL, 0))
			return false;
		break;
	case 't':
		if (strncmp(p, "true", 4))
			return false;
		p += 4;
		break;
	case 'f':
		if (strncmp(p, "false", 5))
			return false;
		p += 5;
		break;
	case 'n':
		if (strncmp(p, "null", 4))
			return false;
		p += 4;
		break;
	default:
		if (!number())
			return false;
	}
	depth--;
	return true;
}

static bool document(const char *s)
{
	p = s;
	depth = 0;
	if (!value(true, NULL))
		return false;
	ws();
	return *p == '\0';
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	bool lines = false;
	size_t n;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l"))
			lines = true;
		else if (!strcmp(argv[i], "-k") && i + 1 < argc && nkeys < 32)
			keys[nkeys++] = argv[++i];
		else if (!strcmp(argv[i], "-g") && i + 1 < argc)
			getkey = argv[++i];
		else
			return 2;
	}
	n = fread(buf, 1, sizeof(buf) - 1, stdin);
	buf[n] = '\0';
	if (strlen(buf) != n)
		return 1;	/* NUL in the input */
	if (!lines)
		return document(buf) ? 0 : 1;
	int docs = 0;

	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!document(line))
			return 1;
		docs++;
	}
	return docs ? 0 : 1;
}
