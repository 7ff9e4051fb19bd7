/* SPDX-License-Identifier: GPL-2.0 */
/* txctl show NET links (show_links.c), called by show.c. */
#ifndef TXCTL_SHOW_LINKS_H
#define TXCTL_SHOW_LINKS_H

#include <stdbool.h>

struct txnl;

/* Print @name's links that carried traffic or are down (@all: every link); an exit code. */
int show_links(struct txnl *nl, const char *name, bool all);

#endif /* TXCTL_SHOW_LINKS_H */
