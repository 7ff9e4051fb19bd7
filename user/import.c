// SPDX-License-Identifier: GPL-2.0
/*
 * txctl import: an algorithm written for another tool, as a txnet
 * schedule file on standard output.  MSCCL-IR is the format read
 * (msccl_import.h).  The network is a topology, which the module names
 * and counts the processors of without creating it (TXNET_CMD_BOUNDS),
 * or an existing network, with its port model.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "run_schedule.h"
#include "schedule_file.h"
#include "topology.h"
#include "txctl.h"

void usage_import(FILE *f)
{
	fprintf(f,
		"Usage: txctl import msccl FILE on TOPOLOGY ARGS... [ port { single | all } ]\n"
		"                                  [ root N ]\n"
		"       txctl import msccl FILE on NET [ root N ]\n"
		"TOPOLOGY ARGS: as for txctl create; the network's port model is all unless given\n"
		"root N: of a broadcast, scatter, gather or reduce (default 0)\n");
}

static int spec_cb(const struct nlmsghdr *nlh, void *data)
{
	struct txnet_info *ni = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == TXNET_A_SPEC &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0) {
			snprintf(ni->spec, sizeof(ni->spec), "%s", mnl_attr_get_str(a));
			ni->present |= 1ULL << TXNET_A_SPEC;
		}
		if (mnl_attr_get_type(a) == TXNET_A_NODES &&
		    mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
			ni->nodes = mnl_attr_get_u32(a);
			ni->present |= 1ULL << TXNET_A_NODES;
		}
	}
	return MNL_CB_OK;
}

/* The topology's name and processors, as the module would create it: 0, or an errno printed. */
static int topology_describe(struct txnl *nl, struct nlmsghdr *nlh, struct txnet_info *ni)
{
	int err;

	err = topology_request(nl, nlh, false, spec_cb, ni);
	if (!err && (!network_has(ni, TXNET_A_SPEC) || !network_has(ni, TXNET_A_NODES))) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "the kernel did not describe the topology");
		err = -ENODATA;
	}
	if (err)
		txnl_perror(nl, err);
	return err;
}

int do_import(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	static struct txnet_info ni;
	struct net_opts o = { NULL, NULL, 0, 0 };
	const char *path, *net = NULL, *root_arg = NULL;
	struct schedule_file sf;
	struct nlmsghdr *nlh;
	struct txnl nl;
	uint32_t root = 0;
	int err;

	if (wants_help(argc, argv)) {
		usage_import(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_import);
	if (strcmp(*argv, "msccl"))
		invarg(*argv, "format", "the format txctl imports is msccl (MSCCL-IR XML)");
	NEXT_ARG(usage_import);
	path = *argv;
	NEXT_ARG(usage_import);
	if (strcmp(*argv, "on"))
		invarg(*argv, "on", "expected \"on\" and the network or topology it runs on");
	NEXT_ARG(usage_import);
	nlh = txnl_msg(tx.buf, TXNET_CMD_BOUNDS, 0);
	if (topo_by_name(*argv)) {
		topology_put(nlh, &argc, &argv, usage_import);
	} else {
		net = get_name(*argv, "NET");
		argc--, argv++;
	}
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "root")) {
			NEXT_ARG(usage_import);
			if (root_arg)
				duparg("root", *argv);
			root_arg = *argv;
			root = get_u32_nonneg(*argv, "root");
		} else if (net && is_keyword(*argv, "port")) {
			invarg(*argv, "port", "a network's algorithm is imported for its own port model");
		} else if (is_keyword(*argv, "tick-ns") ||
			   !get_net_opt(&argc, &argv, &o, usage_import)) {
			unknown_keyword(*argv, usage_import);
		}
	}

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	if (net) {
		err = network_get(&nl, net, &ni);
	} else {
		ni.port_model = o.port_arg ? o.port : TXNET_PORT_ALL;
		err = topology_describe(&nl, nlh, &ni);
	}
	txnl_close(&nl);
	if (err)
		return EXIT_KERNEL;
	if (msccl_for_network(path, &ni, root, &sf))
		return EXIT_USAGE;
	if (root_arg && !sf.has_root) {
		fprintf(stderr, "Error: %s: a %s has no root: give no root.\n", path, sf.operation);
		schedule_file_free(&sf);
		return EXIT_USAGE;
	}
	err = schedule_file_write(stdout, &sf);
	schedule_file_free(&sf);
	if (err || fflush(stdout)) {
		fprintf(stderr, "Error: writing the schedule: %s.\n", strerror(EIO));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
