// SPDX-License-Identifier: GPL-2.0
/* txctl link: take the cable between two nodes down, or bring it back up (TXNET_CMD_FAULT). */
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_link(FILE *f)
{
	fprintf(f, "Usage: txctl link NET { down | up } U V\n"
		   "       (U, V: the nodes the cable joins; both directions go down)\n");
}

int do_link(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	const char *name;
	uint32_t u, v;
	bool up;

	if (wants_help(argc, argv)) {
		usage_link(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_link);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage_link);
	up = get_up_down(*argv, "state");
	NEXT_ARG(usage_link);
	u = get_u32_nonneg(*argv, "U");
	NEXT_ARG(usage_link);
	v = get_u32_nonneg(*argv, "V");
	if (argc > 1)
		unknown_keyword(argv[1], usage_link);

	/* node numbers and the cable itself are checked by the kernel, which knows them */
	nlh = txnl_msg(tx.buf, TXNET_CMD_FAULT, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	mnl_attr_put_u32(nlh, TXNET_A_SRC, u);
	mnl_attr_put_u32(nlh, TXNET_A_DST, v);
	mnl_attr_put_u8(nlh, TXNET_A_UP, up);
	return txnl_ack_request(nlh);
}
