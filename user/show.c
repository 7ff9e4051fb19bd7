// SPDX-License-Identifier: GPL-2.0
/* txctl show: one network, or every network of this netns; show NET links is in show_links.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "array.h"
#include "network.h"
#include "nl.h"
#include "output.h"
#include "show_links.h"
#include "txctl.h"

void usage_show(FILE *f)
{
	fprintf(f, "Usage: txctl show [ NET [ node N | links [ all ] ] ]\n"
		   "       (links: what port packets and interface frames each link carried,\n"
		   "        the links that carried any or are down; all: every link)\n");
}

/* Dumps are collected, then printed: an interrupted dump starts over. */
struct netlist {
	struct txnet_info *v;
	size_t n, cap;
};

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	struct netlist *l = data;

	if (array_room(&l->v, &l->cap, l->n, sizeof(*l->v), 16))
		return -ENOMEM;
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

/*
 * A dragonfly's vertex (Documentation/txnet-topologies.rst): a processor's
 * router, or a router's group and index within it.
 */
static void print_dragonfly(const struct txnet_info *ni, uint32_t v)
{
	uint32_t p = ni->dims[0].size, a = ni->dims[1].size, procs = ni->nodes, r;

	if (!p || !a)
		return;
	if (v < procs) {
		print_uint(PRINT_ANY, "router", ": processor on router %u", v / p);
		print_uint(PRINT_ANY, "group", " group %u", v / p / a);
		return;
	}
	r = v - procs;
	print_uint(PRINT_ANY, "router", ": router %u", r);
	print_uint(PRINT_ANY, "group", " group %u", r / a);
	print_uint(PRINT_ANY, "index", " index %u", r % a);
}

/*
 * A k-ary n-tree's vertex as [Petrini97] labels it: a processor's n digits,
 * a switch's n-1 digits and level (0 the top), digits in 0 .. k-1.
 */
static void print_fattree(const struct txnet_info *ni, uint32_t v)
{
	uint32_t k = ni->dims[0].size, n = ni->dims[1].size, procs = ni->nodes;
	uint32_t len = n, level = n, i, w;
	char label[96];
	size_t off = 0;

	if (k < 2 || !n || n > 32)
		return;
	if (v >= procs) {
		w = (v - procs) % (procs / k);
		level = (v - procs) / (procs / k);
		v = w;
		len = n - 1;
	}
	label[off++] = '<';
	for (i = len; i-- > 0 && off + 12 < sizeof(label);) {
		uint32_t d = v, j;

		for (j = 0; j < i; j++)
			d /= k;
		off += (size_t)snprintf(label + off, sizeof(label) - off, "%s%u",
					i + 1 == len ? "" : ",", d % k);
	}
	if (level < n)
		off += (size_t)snprintf(label + off, sizeof(label) - off, "%s%u", len ? "; " : "", level);
	snprintf(label + off, sizeof(label) - off, ">");
	print_string(PRINT_ANY, "label", ": %s", label);
	if (level < n)
		print_uint(PRINT_ANY, "level", " level %u", level);
}

/*
 * A Slim Fly's vertex ([Besta14], section 3): a processor's router, a
 * router's label (side, x, y) or (side, m, c).
 */
static void print_slimfly(const struct txnet_info *ni, uint32_t v)
{
	uint32_t q = ni->dims[0].size, p = ni->dims[1].size, r;
	char label[48];

	if (!q || !p)
		return;
	if (v < ni->nodes) {
		print_uint(PRINT_ANY, "router", ": processor on router %u", v / p);
		return;
	}
	r = v - ni->nodes;
	snprintf(label, sizeof(label), "(%u,%u,%u)", r / q / q, r / q % q, r % q);
	print_uint(PRINT_ANY, "router", ": router %u", r);
	print_string(PRINT_ANY, "label", " %s", label);
}

/*
 * Where node @v sits: on a biswapped network its label <g,p,c> ([Wei07],
 * section 2) and group number (section 3.2: part 1's groups follow part
 * 0's); on a product its coordinates, the first dimension most
 * significant (a hypercube's: its bits); a dragonfly's router, a fat
 * tree's digits, a Slim Fly's router label; a graph's vertex, the node or
 * router number its file gave it; elsewhere the number alone.
 */
static void print_node(const struct txnet_info *ni, uint32_t v)
{
	uint32_t n = 0, grp, p, c, i, d, stride;
	char coord[256];
	size_t off = 0;

	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s", ni->name);
	print_uint(PRINT_ANY, "node", " node %u", v);
	if (ni->topology == TXNET_TOPO_BISWAPPED) {
		while ((uint64_t)(n + 1) * (n + 1) * 2 <= ni->nodes)
			n++;
		c = v / (n * n);
		grp = v / n % n;
		p = v % n;
		snprintf(coord, sizeof(coord), "<%u,%u,%u>", grp, p, c);
		print_string(PRINT_ANY, "label", ": %s", coord);
		print_uint(PRINT_ANY, "group", " group %u", c * n + grp);
		print_uint(PRINT_ANY, "processor", " processor %u", p);
		print_uint(PRINT_ANY, "part", " part %u", c);
	} else if (ni->topology == TXNET_TOPO_HYPERCUBE && ni->ndims == 1) {
		for (i = ni->dims[0].size; i-- > 0;)
			coord[off++] = (char)('0' + (v >> i & 1));
		coord[off] = 0;
		print_string(PRINT_ANY, "label", ": %s", coord);
	} else if (ni->topology == TXNET_TOPO_DRAGONFLY && ni->ndims == 3) {
		print_dragonfly(ni, v);
	} else if (ni->topology == TXNET_TOPO_FATTREE && ni->ndims == 2) {
		print_fattree(ni, v);
	} else if (ni->topology == TXNET_TOPO_SLIMFLY && ni->ndims == 2) {
		print_slimfly(ni, v);
	} else if (ni->topology == TXNET_TOPO_GRAPH && network_has(ni, TXNET_A_VERTEX_ID)) {
		/* the file's own name for it */
		print_string(PRINT_ANY, "kind", ": %s", v < ni->nodes ? "node" : "router");
		print_uint(PRINT_ANY, "id", " %u", ni->vertex_id);
	} else if (ni->ndims > 1 && ni->topology != TXNET_TOPO_BISWAPPED) {
		open_json_array("coordinates");
		print_string(PRINT_TEXT, NULL, "%s", ": (");
		for (d = 0; d < ni->ndims; d++) {
			for (i = d + 1, stride = 1; i < ni->ndims; i++)
				stride *= ni->dims[i].size;
			print_uint(PRINT_ANY, NULL, d ? ",%u" : "%u", v / stride % ni->dims[d].size);
		}
		print_string(PRINT_TEXT, NULL, "%s", ")");
		close_json_array();
	}
	print_nl();
	close_json_object();
}

static int show_one(struct txnl *nl, const char *name, const char *node)
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
	if (node) {
		const struct txnet_info *ni = &l.v[0];
		uint32_t v = get_u32_nonneg(node, "node");
		/* a router's place is a label too: its group, its level */
		bool routers = ni->topology == TXNET_TOPO_DRAGONFLY ||
			       ni->topology == TXNET_TOPO_FATTREE ||
			       ni->topology == TXNET_TOPO_SLIMFLY ||
			       ni->topology == TXNET_TOPO_GRAPH;
		uint32_t labelled = ni->nodes + (routers ? ni->switches : 0);

		if (v >= labelled) {
			fprintf(stderr, "Error: node: %u is not a %s of %s (0 .. %u).\n", v,
				routers ? "vertex" : "processor", name, labelled - 1);
			free(l.v);
			return EXIT_USAGE;
		}
		/* a graph's vertex: ask again, for the number its file gave it */
		if (ni->topology == TXNET_TOPO_GRAPH) {
			nlh = txnl_msg(tx.buf, TXNET_CMD_GET, 0);
			mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
			mnl_attr_put_u32(nlh, TXNET_A_NODE, v);
			l.n = 0;
			err = txnl_request(nl, nlh, collect_cb, &l);
			if (err || !l.n) {
				txnl_perror(nl, err ?: -ENODATA);
				free(l.v);
				return EXIT_KERNEL;
			}
			ni = &l.v[0];
		}
		print_node(ni, v);
	} else {
		network_print(&l.v[0], NULL);
	}
	free(l.v);
	return EXIT_OK;
}

int do_show(int argc, char **argv)
{
	const char *name = NULL, *node = NULL;
	bool links = false, all = false;
	struct txnl nl;
	int ret;

	if (wants_help(argc, argv)) {
		usage_show(stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		name = get_name(argv[1], "NET");
	if (argc > 2 && is_keyword(argv[2], "links")) {
		links = true;
		if (argc > 3 && !is_keyword(argv[3], "all"))
			unknown_keyword(argv[3], usage_show);
		all = argc > 3;
		if (argc > 4)
			unknown_keyword(argv[4], usage_show);
	} else if (argc > 2) {
		if (!is_keyword(argv[2], "node"))
			unknown_keyword(argv[2], usage_show);
		if (argc < 4)
			incomplete_command(usage_show);
		node = argv[3];
		get_u32_nonneg(node, "node");
		if (argc > 4)
			unknown_keyword(argv[4], usage_show);
	}

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	if (links)
		ret = show_links(&nl, name, all);
	else
		ret = name ? show_one(&nl, name, node) : show_all(&nl);
	txnl_close(&nl);
	return ret;
}
