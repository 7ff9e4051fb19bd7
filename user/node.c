// SPDX-License-Identifier: GPL-2.0
/* txctl node: take a processor down, or bring it back up (TXNET_CMD_FAULT). */
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_node(FILE *f)
{
	fprintf(f, "Usage: txctl node NET { down | up } P\n"
		   "       (P: a processor; every link in or out of it goes down)\n");
}

int do_node(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	const char *name;
	uint32_t p;
	bool up;

	if (wants_help(argc, argv)) {
		usage_node(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_node);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage_node);
	up = get_up_down(*argv, "state");
	NEXT_ARG(usage_node);
	p = get_u32_nonneg(*argv, "P");
	if (argc > 1)
		unknown_keyword(argv[1], usage_node);

	/* the node number is checked by the kernel, which knows it */
	nlh = txnl_msg(tx.buf, TXNET_CMD_FAULT, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	mnl_attr_put_u32(nlh, TXNET_A_NODE, p);
	mnl_attr_put_u8(nlh, TXNET_A_UP, up);
	return txnl_ack_request(nlh);
}
