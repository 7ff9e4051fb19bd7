// SPDX-License-Identifier: GPL-2.0
/* txctl destroy: remove a network. */
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_destroy(FILE *f)
{
	fprintf(f, "Usage: txctl destroy NET\n");
}

int do_destroy(int argc, char **argv)
{
	const char *name;

	if (wants_help(argc, argv)) {
		usage_destroy(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_destroy);
	name = get_name(*argv, "NET");
	if (argc > 1)
		unknown_keyword(argv[1], usage_destroy);

	return txnl_name_cmd(TXNET_CMD_DEL, name);
}
