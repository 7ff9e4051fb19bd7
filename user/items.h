/* SPDX-License-Identifier: GPL-2.0 */
/* txctl: a list argument, "A,B,C" or file:PATH, one item at a time. */
#ifndef TXCTL_ITEMS_H
#define TXCTL_ITEMS_H

/*
 * @where names the item for messages: (item 3, "x") or (PATH, line 7).
 * @item has its surrounding blanks and line end still on.
 */
typedef void (*item_fn)(const char *item, const char *where, void *ctx);

/*
 * Hand each item of @arg to @fn: a comma list, or with "file:" one item a
 * line, blank lines and lines starting with # skipped.  An unreadable or
 * empty file exits with "Error: @field: ..." (EXIT_USAGE).
 */
void items_parse(const char *arg, const char *field, item_fn fn, void *ctx);

/* Exit with "Error: @field: @what @where." (EXIT_USAGE). */
void __attribute__((noreturn)) item_error(const char *field, const char *what,
					  const char *where);

#endif /* TXCTL_ITEMS_H */
