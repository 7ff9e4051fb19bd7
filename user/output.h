/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: one set of print calls serves text and JSON output, in the
 * style of iproute2's lib/json_print.c.  In text mode a call prints its
 * printf format (PRINT_ANY/PRINT_TEXT); in JSON mode it emits its key
 * and value (PRINT_ANY/PRINT_JSON).  Objects and arrays are no-ops in
 * text mode.  A top-level value is followed by a newline and a flush.
 */
#ifndef TXCTL_OUTPUT_H
#define TXCTL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum output_type {
	PRINT_ANY,
	PRINT_TEXT,
	PRINT_JSON,
};

void output_init(bool json, bool pretty);
bool output_json(void);

void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *val);
/*
 * Binary data as a string.  JSON: escaped, with bytes >= 0x80 as \u00XX
 * (the code point of the same value).  Text: fmt gets it escaped as in a
 * C string literal (\", \\, \n, \ooo...).
 */
void print_bytes(enum output_type t, const char *key, const char *fmt,
		 const void *data, size_t len);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val);
void print_s64(enum output_type t, const char *key, const char *fmt,
	       int64_t val);
/* JSON true/false; in text, fmt gets the string "yes" or "no". */
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool val);
/* JSON null; in text, fmt is printed as is (no conversions). */
void print_null(enum output_type t, const char *key, const char *fmt);
/* End a text line (text mode only). */
void print_nl(void);

#endif /* TXCTL_OUTPUT_H */
