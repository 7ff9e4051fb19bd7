// SPDX-License-Identifier: GPL-2.0
/* txctl stop: stop the exchange running on a network. */
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_stop(FILE *f)
{
	fprintf(f, "Usage: txctl stop NET\n");
}

int do_stop(int argc, char **argv)
{
	const char *name;

	if (wants_help(argc, argv)) {
		usage_stop(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_stop);
	name = get_name(*argv, "NET");
	if (argc > 1)
		unknown_keyword(argv[1], usage_stop);

	return txnl_name_cmd(TXNET_CMD_STOP, name);
}
