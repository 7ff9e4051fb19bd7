// SPDX-License-Identifier: GPL-2.0
/* txctl send: inject a packet at a processor's port. */
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "txctl.h"

void usage_send(FILE *f)
{
	fprintf(f, "Usage: txctl send NET SRC DST DATA\n"
		   "       (SRC, DST: processor numbers; DATA: at most %d bytes)\n",
		TXNET_PORT_DATA_MAX);
}

int do_send(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	const char *name, *data;
	struct nlmsghdr *nlh;
	uint32_t src, dst;
	size_t len;

	if (wants_help(argc, argv)) {
		usage_send(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_send);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage_send);
	src = get_u32_nonneg(*argv, "SRC");
	NEXT_ARG(usage_send);
	dst = get_u32_nonneg(*argv, "DST");
	NEXT_ARG(usage_send);
	data = *argv;
	len = strlen(data);
	if (len > TXNET_PORT_DATA_MAX) {
		char msg[64];

		snprintf(msg, sizeof(msg), "is longer than %d bytes",
			 TXNET_PORT_DATA_MAX);
		invarg(data, "DATA", msg);
	}
	if (argc > 1)
		unknown_keyword(argv[1], usage_send);

	/* processor numbers are checked by the kernel, which knows them */
	nlh = txnl_msg(tx.buf, TXNET_CMD_SEND, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	mnl_attr_put_u32(nlh, TXNET_A_SRC, src);
	mnl_attr_put_u32(nlh, TXNET_A_DST, dst);
	mnl_attr_put(nlh, TXNET_A_DATA, len, data);
	return txnl_ack_request(nlh);
}
