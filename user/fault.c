// SPDX-License-Identifier: GPL-2.0
/* txctl link / node: take a cable or a node down, or bring it back up. */
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_link(FILE *f)
{
	fprintf(f, "Usage: txctl link NET { down | up } U V\n"
		   "       (U, V: the nodes the cable joins; both directions go down)\n");
}

void usage_node(FILE *f)
{
	fprintf(f, "Usage: txctl node NET { down | up } P\n"
		   "       (P: a processor; every link in or out of it goes down)\n");
}

static int fault(int argc, char **argv, bool link, void (*usage)(FILE *))
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	const char *name;
	uint32_t u, v = 0;
	bool up;

	if (wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage);
	if (!strcmp(*argv, "down"))
		up = false;
	else if (!strcmp(*argv, "up"))
		up = true;
	else
		invarg(*argv, "state", "is not \"down\" or \"up\"");
	NEXT_ARG(usage);
	u = get_u32_nonneg(*argv, link ? "U" : "P");
	if (link) {
		NEXT_ARG(usage);
		v = get_u32_nonneg(*argv, "V");
	}
	if (argc > 1)
		unknown_keyword(argv[1], usage);

	/* node numbers and the cable itself are checked by the kernel, which knows them */
	nlh = txnl_msg(tx.buf, TXNET_CMD_FAULT, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	if (link) {
		mnl_attr_put_u32(nlh, TXNET_A_SRC, u);
		mnl_attr_put_u32(nlh, TXNET_A_DST, v);
	} else {
		mnl_attr_put_u32(nlh, TXNET_A_NODE, u);
	}
	mnl_attr_put_u8(nlh, TXNET_A_UP, up);
	return txnl_ack_request(nlh);
}

int do_link(int argc, char **argv)
{
	return fault(argc, argv, true, usage_link);
}

int do_node(int argc, char **argv)
{
	return fault(argc, argv, false, usage_node);
}
