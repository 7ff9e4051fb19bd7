/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TXCTL_LINKS_H
#define TXCTL_LINKS_H

#include <stdbool.h>

struct txnl;

/* Print @name's links that carried traffic or are down (@all: every link); an exit code. */
int show_links(struct txnl *nl, const char *name, bool all);

#endif
