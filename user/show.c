// SPDX-License-Identifier: GPL-2.0
/* txctl show: one network, or every network of this netns. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "output.h"
#include "txctl.h"

void usage_show(FILE *f)
{
	fprintf(f, "Usage: txctl show [ NET ]\n");
}

/* Dumps are collected, then printed: an interrupted dump starts over. */
struct netlist {
	struct txnet_info *v;
	size_t n, cap;
};

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	struct netlist *l = data;
	struct txnet_info *v;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;

		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	if (network_parse(nlh, &l->v[l->n]))
		return 0;
	l->n++;
	return 0;
}

static void reset_list(void *data)
{
	struct netlist *l = data;

	l->n = 0;
}

static int show_all(struct txnl *nl)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct netlist l = { NULL, 0, 0 };
	struct nlmsghdr *nlh;
	size_t i;
	int err;

	nlh = txnl_msg(tx.buf, TXNET_CMD_GET, 0);
	err = txnl_dump(nl, nlh, collect_cb, reset_list, &l);
	if (err) {
		txnl_perror(nl, err);
		free(l.v);
		return EXIT_KERNEL;
	}
	open_json_array(NULL);
	for (i = 0; i < l.n; i++)
		network_print(&l.v[i], NULL);
	close_json_array();
	free(l.v);
	return EXIT_OK;
}

static int show_one(struct txnl *nl, const char *name)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct netlist l = { NULL, 0, 0 };
	struct nlmsghdr *nlh;
	int err;

	nlh = txnl_msg(tx.buf, TXNET_CMD_GET, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_request(nl, nlh, collect_cb, &l);
	if (!err && !l.n) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "the kernel sent no description of \"%s\"", name);
		err = -ENODATA;
	}
	if (err) {
		txnl_perror(nl, err);
		free(l.v);
		return EXIT_KERNEL;
	}
	network_print(&l.v[0], NULL);
	free(l.v);
	return EXIT_OK;
}

int do_show(int argc, char **argv)
{
	const char *name = NULL;
	struct txnl nl;
	int ret;

	if (wants_help(argc, argv)) {
		usage_show(stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		name = get_name(argv[1], "NET");
	if (argc > 2)
		unknown_keyword(argv[2], usage_show);

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	ret = name ? show_one(&nl, name) : show_all(&nl);
	txnl_close(&nl);
	return ret;
}
