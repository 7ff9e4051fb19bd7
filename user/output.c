// SPDX-License-Identifier: GPL-2.0
/* txctl: text and JSON output through one set of calls. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define MAX_DEPTH	32

static bool json;
static bool pretty;
static int depth;
/* has_items[d]: the container at depth d already holds an element */
static bool has_items[MAX_DEPTH + 1];

void output_init(bool j, bool p)
{
	json = j;
	pretty = p;
}

bool output_json(void)
{
	return json;
}

static void json_indent(void)
{
	int i;

	if (!pretty)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

/*
 * Bytes >= 0x80 pass through (a UTF-8 name stays readable) unless high:
 * then they become \u00XX, the code point of the same value, so that
 * binary data round-trips.
 */
static void json_escape_mem(const unsigned char *p, size_t len, bool high)
{
	const unsigned char *end = p + len;

	putchar('"');
	for (; p < end; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '\b': fputs("\\b", stdout); break;
		case '\f': fputs("\\f", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\r': fputs("\\r", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		default:
			if (*p < 0x20 || *p == 0x7f || (high && *p >= 0x80))
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

static void json_escape(const char *s)
{
	json_escape_mem((const unsigned char *)s, strlen(s), false);
}

/*
 * C string literal contents: \" \\ \a \b \f \n \r \t \v, other bytes
 * outside 0x20..0x7e as three octal digits (unambiguous whatever follows).
 * buf holds 4 * len + 1 bytes.
 */
static void c_escape(char *buf, const unsigned char *p, size_t len)
{
	static const char from[] = "\"\\\a\b\f\n\r\t\v";
	static const char to[] = "\"\\abfnrtv";
	const char *c;
	size_t i;

	for (i = 0; i < len; i++) {
		c = p[i] ? strchr(from, p[i]) : NULL;
		if (c) {
			*buf++ = '\\';
			*buf++ = to[c - from];
		} else if (p[i] < 0x20 || p[i] > 0x7e) {
			buf += sprintf(buf, "\\%03o", p[i]);
		} else {
			*buf++ = (char)p[i];
		}
	}
	*buf = '\0';
}

/* Start an element of the current container: comma, indent, key. */
static void json_element(const char *key)
{
	if (depth > 0) {
		if (has_items[depth])
			putchar(',');
		has_items[depth] = true;
		json_indent();
	}
	if (key && depth > 0) {
		json_escape(key);
		fputs(pretty ? ": " : ":", stdout);
	}
}

static void json_value_end(void)
{
	if (depth == 0) {
		putchar('\n');
		fflush(stdout);
	}
}

static void json_open(const char *key, char c)
{
	if (!json)
		return;
	json_element(key);
	putchar(c);
	if (depth < MAX_DEPTH)
		depth++;
	has_items[depth] = false;
}

static void json_close(char c)
{
	bool items;

	if (!json)
		return;
	items = has_items[depth];
	if (depth > 0)
		depth--;
	if (items)
		json_indent();
	putchar(c);
	json_value_end();
}

void open_json_object(const char *key)
{
	json_open(key, '{');
}

void close_json_object(void)
{
	json_close('}');
}

void open_json_array(const char *key)
{
	json_open(key, '[');
}

void close_json_array(void)
{
	json_close(']');
}

static bool want(enum output_type t)
{
	return json ? t != PRINT_TEXT : t != PRINT_JSON;
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *val)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		json_escape(val);
		json_value_end();
	} else {
		printf(fmt, val);
	}
}

void print_bytes(enum output_type t, const char *key, const char *fmt,
		 const void *data, size_t len)
{
	char *buf;

	if (!want(t))
		return;
	if (json) {
		json_element(key);
		json_escape_mem(data, len, true);
		json_value_end();
		return;
	}
	buf = malloc(4 * len + 1);
	if (!buf) {
		fputs("(out of memory)", stdout);
		return;
	}
	c_escape(buf, data, len);
	printf(fmt, buf);
	free(buf);
}

void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		printf("%u", val);
		json_value_end();
	} else {
		printf(fmt, val);
	}
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		printf("%" PRIu64, val);
		json_value_end();
	} else {
		printf(fmt, val);
	}
}

void print_s64(enum output_type t, const char *key, const char *fmt,
	       int64_t val)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		printf("%" PRId64, val);
		json_value_end();
	} else {
		printf(fmt, val);
	}
}

void print_bool(enum output_type t, const char *key, const char *fmt,
		bool val)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		fputs(val ? "true" : "false", stdout);
		json_value_end();
	} else {
		printf(fmt, val ? "yes" : "no");
	}
}

void print_null(enum output_type t, const char *key, const char *fmt)
{
	if (!want(t))
		return;
	if (json) {
		json_element(key);
		fputs("null", stdout);
		json_value_end();
	} else {
		fputs(fmt, stdout);
	}
}

void print_nl(void)
{
	if (!json) {
		putchar('\n');
		fflush(stdout);
	}
}
