// SPDX-License-Identifier: GPL-2.0
/* txctl set: change the port model or tick period of an idle network. */
#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "txctl.h"

void usage_set(FILE *f)
{
	fprintf(f, "Usage: txctl set NET [ port { single | all } ] [ tick-ns N ]\n"
		   "       (at least one of port, tick-ns)\n");
}

int do_set(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	const char *name, *port_arg = NULL, *tick_arg = NULL;
	struct nlmsghdr *nlh;
	uint64_t tick_ns = 0;
	uint32_t port = 0;
	struct txnl nl;
	int err;

	if (wants_help(argc, argv)) {
		usage_set(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_set);
	name = get_name(*argv, "NET");
	argc--, argv++;
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "port")) {
			NEXT_ARG(usage_set);
			if (port_arg)
				duparg("port", *argv);
			port_arg = *argv;
			port = port_model_by_name(*argv);
			if (!port)
				invarg(*argv, "port", "must be \"single\" or \"all\"");
		} else if (is_keyword(*argv, "tick-ns")) {
			NEXT_ARG(usage_set);
			if (tick_arg)
				duparg("tick-ns", *argv);
			tick_arg = *argv;
			tick_ns = get_u64_nonneg(*argv, "tick-ns");
		} else {
			unknown_keyword(*argv, usage_set);
		}
	}
	if (!port_arg && !tick_arg)
		usage_error(usage_set, "nothing to set: give port or tick-ns.");

	nlh = txnl_msg(tx.buf, TXNET_CMD_SET, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	if (port_arg)
		mnl_attr_put_u32(nlh, TXNET_A_PORT_MODEL, port);
	if (tick_arg)
		mnl_attr_put_u64(nlh, TXNET_A_TICK_NS, tick_ns);
	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = txnl_request(&nl, nlh, NULL, NULL);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	return err ? EXIT_KERNEL : EXIT_OK;
}
