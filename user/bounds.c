// SPDX-License-Identifier: GPL-2.0
/*
 * txctl bounds: every operation's lower bound on a topology, both port
 * models unless one is given, computed by the module (TXNET_CMD_BOUNDS)
 * without creating a network.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "output.h"
#include "result.h"
#include "txctl.h"

void usage_bounds(FILE *f)
{
	fprintf(f,
		"Usage: txctl bounds TOPOLOGY ARGS... [ port { single | all } ] [ root N ]\n"
		"TOPOLOGY ARGS: as for txctl create\n");
}

struct bound {
	uint32_t op, port_model, root, algo;
	bool has_root, has_expected, has_paper;
	uint64_t lower, min_transmissions, expected_steps, paper_steps, slots;
	char name[64];
};

struct bounds_reply {
	char spec[160];
	uint64_t total_distance, as_bound, cut_bound;
	bool has_te;
	uint32_t nodes;
	uint32_t n;
	struct bound b[2 * (TXNET_OP_MAX + 1)];
};

static void parse_bound(const struct nlattr *nest, struct bound *b)
{
	const struct nlattr *a;

	memset(b, 0, sizeof(*b));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_BOUND_OP:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				b->op = mnl_attr_get_u32(a);
			break;
		case TXNET_A_BOUND_PORT_MODEL:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				b->port_model = mnl_attr_get_u32(a);
			break;
		case TXNET_A_BOUND_ROOT:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
				b->root = mnl_attr_get_u32(a);
				b->has_root = true;
			}
			break;
		case TXNET_A_BOUND_LOWER:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				b->lower = mnl_attr_get_u64(a);
			break;
		case TXNET_A_BOUND_MIN_TRANSMISSIONS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				b->min_transmissions = mnl_attr_get_u64(a);
			break;
		case TXNET_A_BOUND_ALGO:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				b->algo = mnl_attr_get_u32(a);
			break;
		case TXNET_A_BOUND_EXPECTED_STEPS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0) {
				b->expected_steps = mnl_attr_get_u64(a);
				b->has_expected = true;
			}
			break;
		case TXNET_A_BOUND_PAPER_STEPS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0) {
				b->paper_steps = mnl_attr_get_u64(a);
				b->has_paper = true;
			}
			break;
		case TXNET_A_BOUND_SLOTS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				b->slots = mnl_attr_get_u64(a);
			break;
		case TXNET_A_BOUND_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				snprintf(b->name, sizeof(b->name), "%s", mnl_attr_get_str(a));
			break;
		}
	}
}

static int bounds_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bounds_reply *r = data;
	const struct nlattr *a, *e;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == TXNET_A_SPEC &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(r->spec, sizeof(r->spec), "%s", mnl_attr_get_str(a));
		if (mnl_attr_get_type(a) == TXNET_A_NODES &&
		    mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			r->nodes = mnl_attr_get_u32(a);
		if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0) {
			switch (mnl_attr_get_type(a)) {
			case TXNET_A_TOTAL_DISTANCE:
				r->total_distance = mnl_attr_get_u64(a);
				r->has_te = true;
				break;
			case TXNET_A_AS_BOUND:
				r->as_bound = mnl_attr_get_u64(a);
				break;
			case TXNET_A_CUT_BOUND:
				r->cut_bound = mnl_attr_get_u64(a);
				break;
			}
		}
		if (mnl_attr_get_type(a) != TXNET_A_BOUNDS)
			continue;
		mnl_attr_for_each_nested(e, a)
			if (r->n < sizeof(r->b) / sizeof(r->b[0]))
				parse_bound(e, &r->b[r->n++]);
	}
	return MNL_CB_OK;
}

int do_bounds(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	static struct bounds_reply r;
	struct net_opts o = { NULL, NULL, 0, 0 };
	const char *root_arg = NULL;
	struct nlmsghdr *nlh;
	struct txnl nl;
	uint32_t i, root = 0;
	char line[32];
	int err;

	if (wants_help(argc, argv)) {
		usage_bounds(stdout);
		return EXIT_OK;
	}
	nlh = txnl_msg(tx.buf, TXNET_CMD_BOUNDS, 0);
	NEXT_ARG(usage_bounds);
	topology_put(nlh, &argc, &argv, usage_bounds);
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "root")) {
			NEXT_ARG(usage_bounds);
			if (root_arg)
				duparg("root", *argv);
			root_arg = *argv;
			root = get_u32_nonneg(*argv, "root");
		} else if (is_keyword(*argv, "tick-ns") ||
			   !get_net_opt(&argc, &argv, &o, usage_bounds)) {
			unknown_keyword(*argv, usage_bounds);
		}
	}
	if (o.port_arg)
		mnl_attr_put_u32(nlh, TXNET_A_PORT_MODEL, o.port);
	if (root_arg)
		mnl_attr_put_u32(nlh, TXNET_A_ROOT, root);

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = topology_request(&nl, nlh, false, bounds_cb, &r);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	if (err)
		return EXIT_KERNEL;
	open_json_object(NULL);
	print_string(PRINT_ANY, "spec", "%s", r.spec);
	print_nl();
	/* [Dimakopoulos98], section 3: what a total exchange must carry, where the module has it */
	if (r.has_te) {
		print_string(PRINT_TEXT, NULL, "%s", "total exchange:");
		print_u64(PRINT_TEXT, NULL, " total-distance %" PRIu64, r.total_distance);
		te_figures_print(r.total_distance, r.as_bound, r.cut_bound, r.nodes);
		print_nl();
	}
	print_string(PRINT_TEXT, NULL, "%s", "operation            port   lower-bound  bound                min-transmissions  algo (auto)     its-steps");
	print_nl();
	open_json_array("bounds");
	for (i = 0; i < r.n; i++) {
		const struct bound *b = &r.b[i];

		open_json_object(NULL);
		snprintf(line, sizeof(line), "%-20s", op_name(b->op));
		print_string(PRINT_JSON, "op", NULL, op_name(b->op));
		print_string(PRINT_TEXT, NULL, "%s", line);
		print_string(PRINT_ANY, "port_model", " %-6s", port_model_name(b->port_model));
		if (b->has_root)
			print_uint(PRINT_JSON, "root", NULL, b->root);
		print_u64(PRINT_ANY, "lower_bound", " %11" PRIu64, b->lower);
		print_string(PRINT_ANY, "bound", "  %-20s", b->name);
		/* the schedule auto runs, where a paper proves its time ([Bertsekas91], Table 1) */
		if (b->has_expected) {
			snprintf(line, sizeof(line), " %17" PRIu64, b->min_transmissions);
			print_string(PRINT_TEXT, NULL, "%s", line);
			print_u64(PRINT_JSON, "min_transmissions", NULL, b->min_transmissions);
			print_string(PRINT_ANY, "algo", "  %-15s", algo_name(b->algo));
			print_u64(PRINT_ANY, "expected_steps", " %9" PRIu64, b->expected_steps);
			/* where the paper counts otherwise ([Wei07], Table 4) */
			if (b->has_paper)
				print_u64(PRINT_ANY, "paper_steps", "  paper %" PRIu64,
					  b->paper_steps);
		} else {
			print_u64(PRINT_ANY, "min_transmissions", " %" PRIu64,
				  b->min_transmissions);
			if (b->has_paper)
				print_u64(PRINT_ANY, "paper_steps", "  paper %" PRIu64,
					  b->paper_steps);
		}
		/* the engine's limit on what is alive at once (Documentation/txnet-engine.rst) */
		print_u64(PRINT_ANY, "slots", "  slots %" PRIu64, b->slots);
		close_json_object();
		print_nl();
	}
	close_json_array();
	close_json_object();
	return EXIT_OK;
}
