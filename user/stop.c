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
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	const char *name;
	struct txnl nl;
	int err;

	if (wants_help(argc, argv)) {
		usage_stop(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_stop);
	name = get_name(*argv, "NET");
	if (argc > 1)
		unknown_keyword(argv[1], usage_stop);

	nlh = txnl_msg(tx.buf, TXNET_CMD_STOP, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = txnl_request(&nl, nlh, NULL, NULL);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	return err ? EXIT_KERNEL : EXIT_OK;
}
