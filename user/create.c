// SPDX-License-Identifier: GPL-2.0
/* txctl create: build a network; prints it as "show" does. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "graph_file.h"
#include "network.h"
#include "nl.h"
#include "topology.h"
#include "txctl.h"

void usage_create(FILE *f)
{
	fprintf(f,
		"Usage: txctl create TOPOLOGY ARGS... [ name NAME ] [ port { single | all } ]\n"
		"                    [ tick-ns N ] [ netdev ]\n"
		"TOPOLOGY ARGS := { linear N | ring N | complete N | hypercube D |\n"
		"                   butterfly N | omega N | baseline N | rbaseline N | flip N |\n"
		"                   mesh K1 ... Kd | torus K1 ... Kd | ghc M1 ... Md |\n"
		"                   product KIND:SIZE ... | biswapped BASE BASEARGS... |\n"
		"                   dragonfly P A H | fattree K N | slimfly Q P |\n"
		"                   graph file:PATH }\n"
		"KIND := { ring | linear | complete }\n"
		"BASE BASEARGS := { linear N | ring N | complete N | mesh K1 ... Kd | hypercube D }\n");
}

/* an attribute type has 14 bits (NLA_TYPE_MASK) */
#define MAX_DIM_INDEX	0x3fff

/* Where the dimensions end: the options of create and bounds. */
static bool is_option(const char *arg)
{
	return is_keyword(arg, "name") || is_keyword(arg, "port") ||
	       is_keyword(arg, "tick-ns") || is_keyword(arg, "root") ||
	       is_keyword(arg, "netdev");
}

static void __attribute__((noreturn)) too_big(void)
{
	fprintf(stderr, "Error: too many arguments for one request.\n");
	exit(EXIT_USAGE);
}

static void put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v)
{
	if (!mnl_attr_put_u32_check(nlh, TXNL_BUF_SIZE, type, v))
		too_big();
}

static struct nlattr *nest_start(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, TXNL_BUF_SIZE, type);

	if (!nest)
		too_big();
	return nest;
}

/* One element of TXNET_A_DIMS; elements are numbered from 1. */
static void put_dim(struct nlmsghdr *nlh, uint16_t index, uint32_t size,
		    uint32_t kind)
{
	struct nlattr *elem = nest_start(nlh, index);

	put_u32(nlh, TXNET_A_DIM_SIZE, size);
	if (kind)
		put_u32(nlh, TXNET_A_DIM_KIND, kind);
	mnl_attr_nest_end(nlh, elem);
}

/*
 * The graph the last topology_put() read from a file: its cables follow
 * the request in graph_request(), which no fixed buffer holds.
 */
static struct graph_file file_graph;

/* txnet's own limits (the kernel's max_nodes may be lower, and says so) */
#define FILE_MAX_VERTICES	(1u << 24)
#define FILE_MAX_CABLES		((1u << 28) - 1)

/* "file:PATH": the graph, its counts as the two sizes of TXNET_A_DIMS */
static void parse_graph_file(struct nlmsghdr *nlh, const char *arg)
{
	struct nlattr *dims;
	char msg[512];
	int ret;

	if (strncmp(arg, "file:", 5) || !arg[5])
		invarg(arg, "FILE", "must be file:PATH");
	graph_file_free(&file_graph);
	ret = graph_file_read(arg + 5, FILE_MAX_VERTICES, FILE_MAX_CABLES, &file_graph, msg,
			      sizeof(msg));
	if (ret) {
		fprintf(stderr, "Error: %s.\n", msg);
		exit(EXIT_USAGE);
	}
	dims = nest_start(nlh, TXNET_A_DIMS);
	put_dim(nlh, 1, file_graph.procs, 0);
	put_dim(nlh, 2, file_graph.switches, 0);
	mnl_attr_nest_end(nlh, dims);
}

static void put_list(struct nlmsghdr *nlh, size_t room, uint16_t type, const void *v, size_t bytes,
		     size_t unit)
{
	if (txnl_put_list(nlh, room, type, v, bytes, unit))
		too_big();
}

int topology_request(struct txnl *nl, struct nlmsghdr *nlh, bool ids,
		     int (*cb)(const struct nlmsghdr *nlh, void *data), void *data)
{
	struct nlmsghdr *graph;
	size_t room;
	int err;

	graph = graph_request(nlh, ids, &room);
	if (graph)
		err = txnl_room(nl, room) ?: txnl_request(nl, graph, cb, data);
	else
		err = txnl_request(nl, nlh, cb, data);
	free(graph);
	return err;
}

struct nlmsghdr *graph_request(const struct nlmsghdr *nlh, bool ids, size_t *room)
{
	const struct graph_file *g = &file_graph;
	size_t cables = (size_t)g->ncables * sizeof(*g->cable);
	size_t procs = (size_t)g->procs * sizeof(uint32_t);
	size_t switches = (size_t)g->switches * sizeof(uint32_t);
	struct nlmsghdr *big;
	uint32_t *id = NULL;

	if (!g->procs)
		return NULL;
	*room = nlh->nlmsg_len + txnl_list_room(cables, sizeof(*g->cable)) +
		(ids ? txnl_list_room(procs + switches, sizeof(uint32_t)) : 0);
	big = malloc(*room);
	if (ids)
		id = malloc(procs + switches);
	if (!big || (ids && !id)) {
		fprintf(stderr, "Error: out of memory for the graph's request.\n");
		exit(EXIT_USAGE);
	}
	memcpy(big, nlh, nlh->nlmsg_len);
	put_list(big, *room, TXNET_A_CABLES, g->cable, cables, sizeof(*g->cable));
	if (ids) {
		memcpy(id, g->proc_id, procs);
		memcpy(id + g->procs, g->switch_id, switches);
		put_list(big, *room, TXNET_A_VERTEX_IDS, id, procs + switches, sizeof(uint32_t));
		free(id);
	}
	graph_file_free(&file_graph);
	return big;
}

/* "ring:5" -> kind, size */
static void parse_factor(const char *arg, uint32_t *kind, uint32_t *size)
{
	const char *colon = strchr(arg, ':');
	char kw[16];
	size_t len;

	len = colon ? (size_t)(colon - arg) : 0;
	if (!colon || len >= sizeof(kw))
		invarg(arg, "KIND:SIZE", "must be ring:SIZE, linear:SIZE or complete:SIZE");
	memcpy(kw, arg, len);
	kw[len] = '\0';
	*kind = dim_kind_by_name(kw);
	if (!*kind)
		invarg(arg, "KIND", "must be ring, linear or complete");
	*size = get_u32_shown(colon + 1, arg, "SIZE");
}

/*
 * On entry argv[0] is the topology keyword; on return argv[0] is the
 * first argument not consumed (argc may be 0).  Puts TXNET_A_TOPOLOGY
 * (or TXNET_A_BASE for a biswapped base) and TXNET_A_DIMS.
 */
static void parse_topology(struct nlmsghdr *nlh, int *pargc, char ***pargv,
			   bool base, void (*usage)(FILE *f))
{
	int argc = *pargc;
	char **argv = *pargv;
	const struct topo_info *t = topo_by_name(argv[0]);
	struct nlattr *dims;
	uint32_t kind, size;
	const char *name;
	char field[32];
	size_t len;
	uint16_t i;

	if (base && (!t || !t->base_ok))
		invarg(argv[0], "BASE",
		       "must be linear, ring, complete, mesh or hypercube");
	if (!t)
		usage_error(usage, "unknown topology \"%s\".", argv[0]);
	put_u32(nlh, base ? TXNET_A_BASE : TXNET_A_TOPOLOGY, t->id);

	switch (t->args) {
	case TOPO_ARGS_ONE:
		if (argc < 2)
			usage_error(usage, "missing arguments: %s %s",
				    t->name, t->synopsis);
		argc--, argv++;
		size = get_u32(argv[0], t->field);
		dims = nest_start(nlh, TXNET_A_DIMS);
		put_dim(nlh, 1, size, 0);
		mnl_attr_nest_end(nlh, dims);
		break;
	case TOPO_ARGS_LIST:
	case TOPO_ARGS_PRODUCT:
		dims = nest_start(nlh, TXNET_A_DIMS);
		for (i = 0; argc > 1 && !is_option(argv[1]); ) {
			argc--, argv++;
			if (i == MAX_DIM_INDEX)
				too_big();
			i++;
			if (t->args == TOPO_ARGS_PRODUCT) {
				parse_factor(argv[0], &kind, &size);
			} else {
				snprintf(field, sizeof(field), "%s%u",
					 t->field, i);
				size = get_u32(argv[0], field);
				kind = 0;
			}
			put_dim(nlh, i, size, kind);
		}
		if (i == 0)
			usage_error(usage,
				    "%s needs at least one dimension: %s %s",
				    t->name, t->name, t->synopsis);
		mnl_attr_nest_end(nlh, dims);
		break;
	case TOPO_ARGS_FIXED:
		dims = nest_start(nlh, TXNET_A_DIMS);
		for (i = 0, name = t->synopsis; *name; i++) {
			len = strcspn(name, " ");
			if (argc < 2 || is_option(argv[1]))
				usage_error(usage, "missing arguments: %s %s", t->name, t->synopsis);
			argc--, argv++;
			snprintf(field, sizeof(field), "%.*s", (int)len, name);
			put_dim(nlh, i + 1, get_u32(argv[0], field), 0);
			name += len + (name[len] == ' ');
		}
		mnl_attr_nest_end(nlh, dims);
		break;
	case TOPO_ARGS_FILE:
		if (argc < 2 || is_option(argv[1]))
			usage_error(usage, "missing arguments: %s %s", t->name, t->synopsis);
		argc--, argv++;
		parse_graph_file(nlh, argv[0]);
		break;
	case TOPO_ARGS_BASE:
		if (argc < 2 || is_option(argv[1]))
			usage_error(usage, "missing arguments: %s %s",
				    t->name, t->synopsis);
		argc--, argv++;
		parse_topology(nlh, &argc, &argv, true, usage);
		*pargc = argc;
		*pargv = argv;
		return;
	}
	*pargc = argc - 1;
	*pargv = argv + 1;
}

void topology_put(struct nlmsghdr *nlh, int *pargc, char ***pargv, void (*usage)(FILE *f))
{
	parse_topology(nlh, pargc, pargv, false, usage);
}

struct create_reply {
	struct txnet_info info;
	bool seen;
};

static int create_cb(const struct nlmsghdr *nlh, void *data)
{
	struct create_reply *r = data;
	struct txnet_info ni;

	/* the reply is a TXNET_CMD_NEW; take any description of ours */
	if (network_parse(nlh, &ni))
		return 0;
	r->info = ni;
	r->seen = true;
	return 0;
}

int do_create(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct net_opts o = { NULL, NULL, 0, 0 };
	static struct create_reply reply;
	const char *name = NULL;
	struct nlmsghdr *nlh;
	bool netdev = false;
	struct txnl nl;
	int err;

	if (wants_help(argc, argv)) {
		usage_create(stdout);
		return EXIT_OK;
	}
	nlh = txnl_msg(tx.buf, TXNET_CMD_NEW, 0);
	NEXT_ARG(usage_create);
	topology_put(nlh, &argc, &argv, usage_create);

	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "name")) {
			NEXT_ARG(usage_create);
			if (name)
				duparg("name", *argv);
			name = get_name(*argv, "name");
		} else if (is_keyword(*argv, "netdev")) {
			if (netdev)
				duparg("netdev", *argv);
			netdev = true;
		} else if (!get_net_opt(&argc, &argv, &o, usage_create)) {
			unknown_keyword(*argv, usage_create);
		}
	}
	if (name && !mnl_attr_put_strz_check(nlh, TXNL_BUF_SIZE, TXNET_A_NAME, name))
		too_big();
	if (o.port_arg)
		put_u32(nlh, TXNET_A_PORT_MODEL, o.port);
	if (netdev)
		mnl_attr_put_u8(nlh, TXNET_A_NETDEV, 1);
	if (o.tick_arg &&
	    !mnl_attr_put_u64_check(nlh, TXNL_BUF_SIZE, TXNET_A_TICK_NS, o.tick_ns))
		too_big();

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = topology_request(&nl, nlh, true, create_cb, &reply);
	if (err) {
		txnl_perror(&nl, err);
		txnl_close(&nl);
		return EXIT_KERNEL;
	}
	txnl_close(&nl);
	if (reply.seen)
		network_print(&reply.info, NULL);
	return EXIT_OK;
}
