// SPDX-License-Identifier: GPL-2.0
/* txctl set: change the port model or tick period of an idle network, or give it interfaces. */
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_set(FILE *f)
{
	fprintf(f, "Usage: txctl set NET [ port { single | all } ] [ tick-ns N ] [ netdev on ]\n"
		   "       (at least one of port, tick-ns, netdev)\n");
}

int do_set(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct net_opts o = { NULL, NULL, 0, 0 };
	struct nlmsghdr *nlh;
	const char *name, *netdev = NULL;

	if (wants_help(argc, argv)) {
		usage_set(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_set);
	name = get_name(*argv, "NET");
	argc--, argv++;
	for (; argc > 0; argc--, argv++) {
		if (get_net_opt(&argc, &argv, &o, usage_set))
			continue;
		if (!is_keyword(*argv, "netdev"))
			unknown_keyword(*argv, usage_set);
		if (netdev)
			duparg("netdev", argv[1] ? argv[1] : "");
		NEXT_ARG(usage_set);
		if (strcmp(*argv, "on") && strcmp(*argv, "off"))
			invarg(*argv, "netdev", "is not \"on\" or \"off\"");
		netdev = *argv;
	}
	if (!o.port_arg && !o.tick_arg && !netdev)
		usage_error(usage_set, "nothing to set: give port, tick-ns or netdev.");

	nlh = txnl_msg(tx.buf, TXNET_CMD_SET, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	if (o.port_arg)
		mnl_attr_put_u32(nlh, TXNET_A_PORT_MODEL, o.port);
	if (o.tick_arg)
		mnl_attr_put_u64(nlh, TXNET_A_TICK_NS, o.tick_ns);
	/* off is the kernel's to refuse: interfaces go only with their network */
	if (netdev)
		mnl_attr_put_u8(nlh, TXNET_A_NETDEV, !strcmp(netdev, "on"));
	return txnl_ack_request(nlh);
}
