// SPDX-License-Identifier: GPL-2.0
/* txctl: parse and print full network descriptions. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>

#include "network.h"
#include "nl.h"
#include "output.h"
#include "topology.h"

_Static_assert(TXNET_A_MAX < 64, "txnet_info.present is a u64 bitmap");

const char *port_model_name(uint32_t model)
{
	switch (model) {
	case TXNET_PORT_ALL:
		return "all";
	case TXNET_PORT_SINGLE:
		return "single";
	}
	return "unknown";
}

uint32_t port_model_by_name(const char *name)
{
	if (!strcmp(name, "all"))
		return TXNET_PORT_ALL;
	if (!strcmp(name, "single"))
		return TXNET_PORT_SINGLE;
	return 0;
}

static const char *state_name(uint32_t state)
{
	switch (state) {
	case TXNET_STATE_IDLE:
		return "idle";
	case TXNET_STATE_RUNNING:
		return "running";
	}
	return "unknown";
}

static void parse_dim(const struct nlattr *elem, struct txnet_dim *dim)
{
	const struct nlattr *a;

	memset(dim, 0, sizeof(*dim));
	mnl_attr_for_each_nested(a, elem) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_DIM_SIZE:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				dim->size = mnl_attr_get_u32(a);
			break;
		case TXNET_A_DIM_KIND:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				dim->kind = mnl_attr_get_u32(a);
			break;
		}
	}
}

/* Elements are numbered from 1; store them in that order. */
static void parse_dims(const struct nlattr *nest, struct txnet_info *ni)
{
	const struct nlattr *elem;
	uint32_t idx;

	ni->ndims = 0;
	mnl_attr_for_each_nested(elem, nest) {
		idx = mnl_attr_get_type(elem);
		if (idx < 1 || idx > TXNET_MAX_DIMS ||
		    mnl_attr_validate(elem, MNL_TYPE_NESTED) < 0)
			continue;
		parse_dim(elem, &ni->dims[idx - 1]);
		if (idx > ni->ndims)
			ni->ndims = idx;
	}
}

static int u32_attr(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return -1;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static int u64_attr(const struct nlattr *a, uint64_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return -1;
	*v = mnl_attr_get_u64(a);
	return 0;
}

static int str_attr(const struct nlattr *a, char *buf, size_t len)
{
	if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return -1;
	snprintf(buf, len, "%s", mnl_attr_get_str(a));
	return 0;
}

/* A binary attribute of u32s, at most @max of them. */
static int u32_list(const struct nlattr *a, uint32_t *to, uint32_t max, uint32_t *n)
{
	uint32_t len = mnl_attr_get_payload_len(a);

	if (len % sizeof(uint32_t) || len / sizeof(uint32_t) > max)
		return -1;
	memcpy(to, mnl_attr_get_payload(a), len);
	*n = len / sizeof(uint32_t);
	return 0;
}

static int network_attr_cb(const struct nlattr *a, void *data)
{
	struct txnet_info *ni = data;
	int type = mnl_attr_get_type(a);
	int err = -1;

	switch (type) {
	case TXNET_A_ID:	err = u32_attr(a, &ni->id); break;
	case TXNET_A_NAME:	err = str_attr(a, ni->name, sizeof(ni->name)); break;
	case TXNET_A_TOPOLOGY:	err = u32_attr(a, &ni->topology); break;
	case TXNET_A_BASE:	err = u32_attr(a, &ni->base); break;
	case TXNET_A_PORT_MODEL: err = u32_attr(a, &ni->port_model); break;
	case TXNET_A_TICK_NS:	err = u64_attr(a, &ni->tick_ns); break;
	case TXNET_A_NETDEV:
		err = mnl_attr_validate(a, MNL_TYPE_U8) < 0 ? -1 : 0;
		if (!err)
			ni->netdev = mnl_attr_get_u8(a) != 0;
		break;
	case TXNET_A_SPEC:	err = str_attr(a, ni->spec, sizeof(ni->spec)); break;
	case TXNET_A_NODES:	err = u32_attr(a, &ni->nodes); break;
	case TXNET_A_SWITCHES:	err = u32_attr(a, &ni->switches); break;
	case TXNET_A_LINKS:	err = u32_attr(a, &ni->links); break;
	case TXNET_A_DIAMETER:	err = u32_attr(a, &ni->diameter); break;
	case TXNET_A_STATE:	err = u32_attr(a, &ni->state); break;
	case TXNET_A_TICKS:	err = u64_attr(a, &ni->ticks); break;
	case TXNET_A_MEM_BYTES:	err = u64_attr(a, &ni->mem_bytes); break;
	case TXNET_A_RUN_ID:	err = u32_attr(a, &ni->run_id); break;
	case TXNET_A_RUN_TICKS:	err = u64_attr(a, &ni->run_ticks); break;
	case TXNET_A_RUN_DELIVERED: err = u64_attr(a, &ni->run_delivered); break;
	case TXNET_A_RUN_EXPECTED: err = u64_attr(a, &ni->run_expected); break;
	case TXNET_A_PORTS_IN_FLIGHT: err = u32_attr(a, &ni->ports_in_flight); break;
	case TXNET_A_PORTS_UNREAD: err = u32_attr(a, &ni->ports_unread); break;
	case TXNET_A_PORTS_DROPPED: err = u64_attr(a, &ni->ports_dropped); break;
	case TXNET_A_FABRIC_HOPS: err = u64_attr(a, &ni->fabric_hops); break;
	case TXNET_A_CABLES_CUT:
		err = u32_list(a, ni->cables, 2 * TXNET_FAULTS_LISTED, &ni->ncables);
		ni->ncables /= 2;
		break;
	case TXNET_A_NODES_DOWN:
		err = u32_list(a, ni->nodes_down, TXNET_FAULTS_LISTED, &ni->nnodes_down);
		break;
	case TXNET_A_TOTAL_DISTANCE: err = u64_attr(a, &ni->total_distance); break;
	case TXNET_A_AS_BOUND:	err = u64_attr(a, &ni->as_bound); break;
	case TXNET_A_CUT_BOUND:	err = u64_attr(a, &ni->cut_bound); break;
	case TXNET_A_GRAPH_DIGEST: err = u64_attr(a, &ni->graph_digest); break;
	case TXNET_A_VERTEX_ID:	err = u32_attr(a, &ni->vertex_id); break;
	case TXNET_A_DIAMETER_AT_LEAST:
		err = mnl_attr_validate(a, MNL_TYPE_U8) < 0 ? -1 : 0;
		if (!err)
			ni->diameter_at_least = mnl_attr_get_u8(a) != 0;
		break;
	case TXNET_A_RESULT:
		err = mnl_attr_validate(a, MNL_TYPE_NESTED) < 0 ? -1 : 0;
		if (!err)
			result_parse(a, &ni->result);
		break;
	case TXNET_A_DIMS:
		err = mnl_attr_validate(a, MNL_TYPE_NESTED) < 0 ? -1 : 0;
		if (!err)
			parse_dims(a, ni);
		break;
	default:
		/* TXNET_A_PAD and attributes newer than this txctl */
		break;
	}
	if (!err && type < 64)
		ni->present |= 1ULL << type;
	return MNL_CB_OK;
}

/* "torus 8 8" from TOPOLOGY/BASE/DIMS, for a kernel that sent no SPEC. */
static void spec_from_attrs(struct txnet_info *ni)
{
	const struct topo_info *t = topo_by_id(ni->topology);
	size_t len = sizeof(ni->spec), off = 0;
	uint32_t i;
	int n;

	if (!t) {
		snprintf(ni->spec, len, "topology-%u", ni->topology);
		return;
	}
	n = snprintf(ni->spec, len, "%s", t->name);
	if (t->args == TOPO_ARGS_BASE) {
		const struct topo_info *b = topo_by_id(ni->base);

		off += n > 0 ? (size_t)n : 0;
		if (off < len && b)
			n = snprintf(ni->spec + off, len - off, " %s", b->name);
		else if (off < len)
			n = snprintf(ni->spec + off, len - off, " topology-%u",
				     ni->base);
	}
	for (i = 0; i < ni->ndims; i++) {
		const char *kind = dim_kind_name(ni->dims[i].kind);

		off += n > 0 ? (size_t)n : 0;
		if (off >= len)
			break;
		if (t->args == TOPO_ARGS_PRODUCT)
			n = snprintf(ni->spec + off, len - off, " %s:%u",
				     kind ? kind : "unknown", ni->dims[i].size);
		else
			n = snprintf(ni->spec + off, len - off, " %u",
				     ni->dims[i].size);
	}
}

int network_parse(const struct nlmsghdr *nlh, struct txnet_info *ni)
{
	const struct genlmsghdr *genl;

	memset(ni, 0, sizeof(*ni));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return -EBADMSG;
	genl = mnl_nlmsg_get_payload(nlh);
	ni->cmd = genl->cmd;
	mnl_attr_parse(nlh, sizeof(*genl), network_attr_cb, ni);
	if (!network_has(ni, TXNET_A_SPEC) && network_has(ni, TXNET_A_TOPOLOGY)) {
		spec_from_attrs(ni);
		ni->present |= 1ULL << TXNET_A_SPEC;
	}
	return 0;
}

/*
 * Text:  txnet0: torus 8 8 nodes 64 links 256 diameter 8 port all
 *        tick-ns 0 state idle ticks 0 mem-bytes N        (one line)
 *          last run 3: total-exchange ...    (if a run has finished)
 * "switches S" follows "nodes" in text only when S > 0 (MINs); JSON
 * always has it.  A graph too large to search from every processor says
 * "diameter-at-least D" (JSON: "diameter_exact": false).  "run-ticks T run-delivered D" follow "ticks" while
 * running.  "runs" is in JSON only; the last result is "last" in JSON.
 * Attributes the kernel did not send are left out.
 */
void network_print(const struct txnet_info *ni, const char *event)
{
	open_json_object(NULL);
	if (event)
		print_string(PRINT_ANY, "event", "%s ", event);
	if (network_has(ni, TXNET_A_ID))
		print_uint(PRINT_JSON, "id", NULL, ni->id);
	print_string(PRINT_ANY, "name", "%s:",
		     network_has(ni, TXNET_A_NAME) ? ni->name : "");
	if (network_has(ni, TXNET_A_SPEC))
		print_string(PRINT_ANY, "topology", " %s", ni->spec);
	if (network_has(ni, TXNET_A_NODES))
		print_uint(PRINT_ANY, "nodes", " nodes %u", ni->nodes);
	if (network_has(ni, TXNET_A_SWITCHES)) {
		print_uint(PRINT_JSON, "switches", NULL, ni->switches);
		if (ni->switches)
			print_uint(PRINT_TEXT, NULL, " switches %u", ni->switches);
	}
	if (network_has(ni, TXNET_A_LINKS))
		print_uint(PRINT_ANY, "links", " links %u", ni->links);
	if (network_has(ni, TXNET_A_DIAMETER)) {
		/* a graph too large to search from every processor: what two sweeps found */
		print_uint(PRINT_ANY, "diameter", ni->diameter_at_least ? " diameter-at-least %u" :
			   " diameter %u", ni->diameter);
		print_bool(PRINT_JSON, "diameter_exact", NULL, !ni->diameter_at_least);
	}
	if (network_has(ni, TXNET_A_TOTAL_DISTANCE))
		te_figures_print(ni->total_distance, ni->as_bound,
				 network_has(ni, TXNET_A_CUT_BOUND) ? ni->cut_bound : 0, ni->nodes);
	if (network_has(ni, TXNET_A_PORT_MODEL))
		print_string(PRINT_ANY, "port_model", " port %s",
			     port_model_name(ni->port_model));
	if (network_has(ni, TXNET_A_TICK_NS))
		print_u64(PRINT_ANY, "tick_ns", " tick-ns %" PRIu64, ni->tick_ns);
	if (network_has(ni, TXNET_A_NETDEV) && ni->netdev)
		print_bool(PRINT_ANY, "netdev", " netdev", ni->netdev);
	if (network_has(ni, TXNET_A_FABRIC_HOPS))
		print_u64(PRINT_ANY, "fabric_hops", " fabric-hops %" PRIu64, ni->fabric_hops);
	if (network_has(ni, TXNET_A_STATE))
		print_string(PRINT_ANY, "state", " state %s",
			     state_name(ni->state));
	if (network_has(ni, TXNET_A_TICKS))
		print_u64(PRINT_ANY, "ticks", " ticks %" PRIu64, ni->ticks);
	if (network_has(ni, TXNET_A_RUN_TICKS))
		print_u64(PRINT_ANY, "run_ticks", " run-ticks %" PRIu64,
			  ni->run_ticks);
	if (network_has(ni, TXNET_A_RUN_DELIVERED))
		print_u64(PRINT_ANY, "run_delivered", " run-delivered %" PRIu64,
			  ni->run_delivered);
	if (network_has(ni, TXNET_A_RUN_EXPECTED))
		print_u64(PRINT_ANY, "run_expected", "/%" PRIu64, ni->run_expected);
	if (network_has(ni, TXNET_A_PORTS_IN_FLIGHT))
		print_uint(PRINT_ANY, "ports_in_flight", " ports-in-flight %u",
			   ni->ports_in_flight);
	if (network_has(ni, TXNET_A_PORTS_UNREAD))
		print_uint(PRINT_ANY, "ports_unread", " ports-unread %u",
			   ni->ports_unread);
	if (network_has(ni, TXNET_A_PORTS_DROPPED) && ni->ports_dropped)
		print_u64(PRINT_ANY, "ports_dropped", " ports-dropped %" PRIu64,
			  ni->ports_dropped);
	if (network_has(ni, TXNET_A_MEM_BYTES))
		print_u64(PRINT_ANY, "mem_bytes", " mem-bytes %" PRIu64,
			  ni->mem_bytes);
	if (network_has(ni, TXNET_A_CABLES_CUT)) {
		print_string(PRINT_TEXT, NULL, "%s", " links-down");
		open_json_array("links_down");
		for (uint32_t i = 0; i < ni->ncables; i++) {
			open_json_array(NULL);
			print_uint(PRINT_ANY, NULL, " %u", ni->cables[2 * i]);
			print_uint(PRINT_ANY, NULL, "-%u", ni->cables[2 * i + 1]);
			close_json_array();
		}
		close_json_array();
	}
	if (network_has(ni, TXNET_A_NODES_DOWN)) {
		print_string(PRINT_TEXT, NULL, "%s", " nodes-down");
		open_json_array("nodes_down");
		for (uint32_t i = 0; i < ni->nnodes_down; i++)
			print_uint(PRINT_ANY, NULL, " %u", ni->nodes_down[i]);
		close_json_array();
	}
	if (network_has(ni, TXNET_A_RUN_ID))
		print_uint(PRINT_JSON, "runs", NULL, ni->run_id);
	print_nl();
	if (network_has(ni, TXNET_A_RESULT)) {
		print_uint(PRINT_TEXT, NULL, "  last run %u:", ni->result.run_id);
		result_print(&ni->result, "last", NULL);
		print_nl();
	}
	close_json_object();
}

void te_figures_print(uint64_t total, uint64_t as, uint64_t cut, uint32_t nodes)
{
	char avg[32];

	print_u64(PRINT_JSON, "total_distance", NULL, total);
	if (nodes > 1) {
		snprintf(avg, sizeof(avg), "%.3f", (double)total / ((double)nodes * (nodes - 1)));
		print_string(PRINT_TEXT, NULL, " avg-distance %s", avg);
	}
	print_u64(PRINT_ANY, "as_bound", " as-bound %" PRIu64, as);
	if (cut)
		print_u64(PRINT_ANY, "cut_bound", " cut-bound %" PRIu64, cut);
}

struct get_reply {
	struct txnet_info *ni;
	bool seen;
};

static int get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct get_reply *r = data;

	if (!network_parse(nlh, r->ni))
		r->seen = true;
	return 0;
}

int network_query(struct txnl *nl, const char *name, struct txnet_info *ni, bool *seen)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh = txnl_msg(tx.buf, TXNET_CMD_GET, 0);
	struct get_reply r = { .ni = ni };
	int err;

	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_request(nl, nlh, get_cb, &r);
	*seen = r.seen;
	return err;
}

int network_get(struct txnl *nl, const char *name, struct txnet_info *ni)
{
	bool seen;
	int err;

	err = network_query(nl, name, ni, &seen);
	if (!err && (!seen || !network_has(ni, TXNET_A_SPEC) ||
		     !network_has(ni, TXNET_A_PORT_MODEL) || !network_has(ni, TXNET_A_NODES))) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "the kernel did not describe %s", name);
		err = -ENODATA;
	}
	if (err)
		txnl_perror(nl, err);
	return err;
}
