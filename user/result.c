// SPDX-License-Identifier: GPL-2.0
/* txctl: parse and print run results; run keywords. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "network.h"
#include "output.h"
#include "result.h"

_Static_assert(TXNET_A_RES_MAX < 64, "txnet_res.present is a u64 bitmap");

struct keyword {
	const char *name;
	uint32_t value;
};

static const struct keyword ops[] = {
	{ "total-exchange",		TXNET_OP_TOTAL_EXCHANGE },
	{ "broadcast",			TXNET_OP_BROADCAST },
	{ "scatter",			TXNET_OP_SCATTER },
	{ "gather",			TXNET_OP_GATHER },
	{ "multinode-broadcast",	TXNET_OP_MULTINODE_BROADCAST },
	{ "accumulate",			TXNET_OP_ACCUMULATE },
	{ "multinode-accumulate",	TXNET_OP_MULTINODE_ACCUMULATE },
	{ "prefix-sum",			TXNET_OP_PREFIX_SUM },
	{ "data-sum",			TXNET_OP_DATA_SUM },
	{ "permutation",		TXNET_OP_PERMUTATION },
};

static const struct keyword algos[] = {
	{ "auto",			TXNET_ALGO_AUTO },
	{ "furthest-first",		TXNET_ALGO_FURTHEST_FIRST },
	{ "scatterings",		TXNET_ALGO_SCATTERINGS },
	{ "message-shift",		TXNET_ALGO_MESSAGE_SHIFT },
	{ "message-shift-plain",	TXNET_ALGO_MESSAGE_SHIFT_PLAIN },
	{ "shortest-path",		TXNET_ALGO_SHORTEST_PATH },
	{ "a2",				TXNET_ALGO_A2 },
	{ "a3",				TXNET_ALGO_A3 },
	{ "hypercube",			TXNET_ALGO_HYPERCUBE },
	{ "latin",			TXNET_ALGO_LATIN },
	{ "self-routing",		TXNET_ALGO_SELF_ROUTING },
	{ "biswapped",			TXNET_ALGO_BISWAPPED },
	{ "replay",			TXNET_ALGO_REPLAY },
	{ "dimension-waves",		TXNET_ALGO_DIMENSION_WAVES },
};

static const struct keyword statuses[] = {
	{ "none",			TXNET_RUN_NONE },
	{ "done",			TXNET_RUN_DONE },
	{ "failed",			TXNET_RUN_FAILED },
	{ "stopped",			TXNET_RUN_STOPPED },
	{ "blocked",			TXNET_RUN_BLOCKED },
};

#define KW(table)	table, sizeof(table) / sizeof(table[0])

static const char *kw_name(const struct keyword *t, size_t n, uint32_t value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return "unknown";
}

static int kw_value(const struct keyword *t, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return (int)t[i].value;
	return -1;
}

const char *op_name(uint32_t op)		{ return kw_name(KW(ops), op); }
int op_by_name(const char *name)		{ return kw_value(KW(ops), name); }
const char *algo_name(uint32_t algo)		{ return kw_name(KW(algos), algo); }
int algo_by_name(const char *name)		{ return kw_value(KW(algos), name); }
const char *run_status_name(uint32_t status)	{ return kw_name(KW(statuses), status); }

bool op_has_root(int op)
{
	return op == TXNET_OP_BROADCAST || op == TXNET_OP_SCATTER || op == TXNET_OP_GATHER ||
	       op == TXNET_OP_ACCUMULATE;
}

bool op_combines(int op)
{
	return op == TXNET_OP_ACCUMULATE || op == TXNET_OP_MULTINODE_ACCUMULATE ||
	       op == TXNET_OP_PREFIX_SUM || op == TXNET_OP_DATA_SUM;
}

static void parse_u32(const struct nlattr *a, uint32_t *v, bool *ok)
{
	*ok = mnl_attr_validate(a, MNL_TYPE_U32) >= 0;
	if (*ok)
		*v = mnl_attr_get_u32(a);
}

static void parse_u64(const struct nlattr *a, uint64_t *v, bool *ok)
{
	*ok = mnl_attr_validate(a, MNL_TYPE_U64) >= 0;
	if (*ok)
		*v = mnl_attr_get_u64(a);
}

/* One s64 per node; refused if its length is not whole s64s or too long. */
static void parse_values(const struct nlattr *a, struct txnet_res *r, bool *ok)
{
	uint16_t len = mnl_attr_get_payload_len(a);

	*ok = len % sizeof(int64_t) == 0 && len <= sizeof(r->values);
	if (!*ok)
		return;
	memcpy(r->values, mnl_attr_get_payload(a), len);
	r->nvalues = len / sizeof(int64_t);
}

/* One u32 per node; refused if its length is not whole u32s or too long. */
static void parse_queue_max(const struct nlattr *a, struct txnet_res *r,
			    bool *ok)
{
	uint16_t len = mnl_attr_get_payload_len(a);

	*ok = len % sizeof(uint32_t) == 0 &&
	      len <= sizeof(r->queue_max);
	if (!*ok)
		return;
	memcpy(r->queue_max, mnl_attr_get_payload(a), len);
	r->nqueue_max = len / sizeof(uint32_t);
}

void result_parse(const struct nlattr *nest, struct txnet_res *r)
{
	const struct nlattr *a;

	memset(r, 0, sizeof(*r));
	mnl_attr_for_each_nested(a, nest) {
		int type = mnl_attr_get_type(a);
		bool ok = false;

		switch (type) {
		case TXNET_A_RES_RUN_ID:	parse_u32(a, &r->run_id, &ok); break;
		case TXNET_A_RES_STATUS:	parse_u32(a, &r->status, &ok); break;
		case TXNET_A_RES_OP:		parse_u32(a, &r->op, &ok); break;
		case TXNET_A_RES_ALGO:		parse_u32(a, &r->algo, &ok); break;
		case TXNET_A_RES_PORT_MODEL:	parse_u32(a, &r->port_model, &ok); break;
		case TXNET_A_RES_NODES:		parse_u32(a, &r->nodes, &ok); break;
		case TXNET_A_RES_PAYLOAD:	parse_u32(a, &r->payload, &ok); break;
		case TXNET_A_RES_SEED:		parse_u64(a, &r->seed, &ok); break;
		case TXNET_A_RES_STEPS:		parse_u64(a, &r->steps, &ok); break;
		case TXNET_A_RES_LOWER_BOUND:	parse_u64(a, &r->lower_bound, &ok); break;
		case TXNET_A_RES_EXPECTED_STEPS: parse_u64(a, &r->expected_steps, &ok); break;
		case TXNET_A_RES_TRANSMISSIONS:	parse_u64(a, &r->transmissions, &ok); break;
		case TXNET_A_RES_DELIVERED:	parse_u64(a, &r->delivered, &ok); break;
		case TXNET_A_RES_EXPECTED_DELIVERIES:
			parse_u64(a, &r->expected_deliveries, &ok);
			break;
		case TXNET_A_RES_VERIFIED:
			ok = mnl_attr_validate(a, MNL_TYPE_U8) >= 0;
			if (ok)
				r->verified = mnl_attr_get_u8(a) != 0;
			break;
		case TXNET_A_RES_WALL_NS:	parse_u64(a, &r->wall_ns, &ok); break;
		case TXNET_A_RES_MAX_LATENESS_NS: parse_u64(a, &r->max_lateness_ns, &ok); break;
		case TXNET_A_RES_BUSY_NS:	parse_u64(a, &r->busy_ns, &ok); break;
		case TXNET_A_RES_TICK_NS:	parse_u64(a, &r->tick_ns, &ok); break;
		case TXNET_A_RES_SAMPLES:	parse_u32(a, &r->samples, &ok); break;
		case TXNET_A_RES_SAMPLE_TICKS:	parse_u32(a, &r->sample_ticks, &ok); break;
		case TXNET_A_RES_MAX_QUEUE:	parse_u32(a, &r->max_queue, &ok); break;
		case TXNET_A_RES_MAX_QUEUE_NODE: parse_u32(a, &r->max_queue_node, &ok); break;
		case TXNET_A_RES_TICKS:		parse_u64(a, &r->ticks, &ok); break;
		case TXNET_A_RES_ERROR:
			ok = mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0;
			if (ok)
				snprintf(r->error, sizeof(r->error), "%s",
					 mnl_attr_get_str(a));
			break;
		case TXNET_A_RES_ERROR_TICK:	parse_u64(a, &r->error_tick, &ok); break;
		case TXNET_A_RES_ERROR_NODE:	parse_u32(a, &r->error_node, &ok); break;
		case TXNET_A_RES_QUEUE_MAX:	parse_queue_max(a, r, &ok); break;
		case TXNET_A_RES_ROOT:		parse_u32(a, &r->root, &ok); break;
		case TXNET_A_RES_BOUND:
			ok = mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0;
			if (ok)
				snprintf(r->bound, sizeof(r->bound), "%s", mnl_attr_get_str(a));
			break;
		case TXNET_A_RES_MIN_TRANSMISSIONS:
			parse_u64(a, &r->min_transmissions, &ok);
			break;
		case TXNET_A_RES_VALUES:	parse_values(a, r, &ok); break;
		case TXNET_A_RES_VALUES_SEED:	parse_u64(a, &r->values_seed, &ok); break;
		case TXNET_A_RES_MAX_TICKS:	parse_u64(a, &r->max_ticks, &ok); break;
		case TXNET_A_RES_CONFIG:	parse_u64(a, &r->config, &ok); break;
		case TXNET_A_RES_CONFIG_X:	parse_u32(a, &r->config_x, &ok); break;
		case TXNET_A_RES_BLOCK_STAGE:	parse_u32(a, &r->block_stage, &ok); break;
		case TXNET_A_RES_BLOCK_SWITCH:	parse_u32(a, &r->block_switch, &ok); break;
		case TXNET_A_RES_REROUTES:	parse_u32(a, &r->reroutes, &ok); break;
		case TXNET_A_RES_SHARED_HOPS:	parse_u64(a, &r->shared_hops, &ok); break;
		case TXNET_A_RES_FAULT_FREE_TICKS:
			parse_u64(a, &r->fault_free_ticks, &ok);
			break;
		case TXNET_A_RES_LINKS_DOWN:	parse_u32(a, &r->links_down, &ok); break;
		case TXNET_A_RES_ERROR_MOVE:	parse_u32(a, &r->error_move, &ok); break;
		case TXNET_A_RES_SAVED_STEPS:	parse_u64(a, &r->saved_steps, &ok); break;
		case TXNET_A_RES_ERROR_LINK:
			ok = mnl_attr_get_payload_len(a) == sizeof(r->error_link);
			if (ok)
				memcpy(r->error_link, mnl_attr_get_payload(a), sizeof(r->error_link));
			break;
		case TXNET_A_RES_BLOCK_INPUTS:
			ok = mnl_attr_get_payload_len(a) == sizeof(r->block_inputs);
			if (ok)
				memcpy(r->block_inputs, mnl_attr_get_payload(a),
				       sizeof(r->block_inputs));
			break;
		default:
			/* TXNET_A_RES_PAD and attributes newer than this txctl */
			break;
		}
		if (ok && type < 64)
			r->present |= 1ULL << type;
	}
}

/* error_node of a rule no single node broke, from older kernels */
#define NO_NODE		UINT32_MAX

/* 850ns, 12.3us, 1.2ms, 2.35s */
static void format_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

/*
 * Text:  NAME: total-exchange message-shift port all nodes 12 steps 18
 *        lower-bound 18 expected 18 transmissions 432 delivered 132/132
 *        verified yes wall 1.2ms max-queue 6                 (one line)
 * A run without steps (not verified) shows "ticks T" in their place; a
 * paced run adds "max-lateness X" when it fell behind; a failed run ends
 * with: error "RULE" at tick T node N (a stopped one without "at ...",
 * a rule no single node broke without "node N").  JSON has the same
 * fields, and "queue_max" (one number per node) when the kernel sent it.
 */
void result_print(const struct txnet_res *r, const char *key,
		  const char *name)
{
	char buf[64];
	uint32_t i;

	open_json_object(key);
	if (name)
		print_string(PRINT_ANY, "name", "%s:", name);
	if (result_has(r, TXNET_A_RES_RUN_ID))
		print_uint(PRINT_JSON, "run_id", NULL, r->run_id);
	if (result_has(r, TXNET_A_RES_STATUS))
		print_string(PRINT_JSON, "status", NULL,
			     run_status_name(r->status));
	if (result_has(r, TXNET_A_RES_OP))
		print_string(PRINT_ANY, "op", " %s", op_name(r->op));
	if (result_has(r, TXNET_A_RES_ALGO))
		print_string(PRINT_ANY, "algo", " %s", algo_name(r->algo));
	if (result_has(r, TXNET_A_RES_PORT_MODEL))
		print_string(PRINT_ANY, "port_model", " port %s",
			     port_model_name(r->port_model));
	if (result_has(r, TXNET_A_RES_ROOT))
		print_uint(PRINT_ANY, "root", " root %u", r->root);
	if (result_has(r, TXNET_A_RES_NODES))
		print_uint(PRINT_ANY, "nodes", " nodes %u", r->nodes);
	if (result_has(r, TXNET_A_RES_PAYLOAD))
		print_uint(PRINT_JSON, "payload", NULL, r->payload);
	if (result_has(r, TXNET_A_RES_SEED))
		print_u64(PRINT_JSON, "seed", NULL, r->seed);
	if (result_has(r, TXNET_A_RES_STEPS))
		print_u64(PRINT_ANY, "steps", " steps %" PRIu64, r->steps);
	else
		print_null(PRINT_JSON, "steps", NULL);
	if (result_has(r, TXNET_A_RES_TICKS)) {
		print_u64(PRINT_JSON, "ticks", NULL, r->ticks);
		if (!result_has(r, TXNET_A_RES_STEPS))
			print_u64(PRINT_TEXT, NULL, " ticks %" PRIu64, r->ticks);
	}
	if (result_has(r, TXNET_A_RES_LOWER_BOUND))
		print_u64(PRINT_ANY, "lower_bound", " lower-bound %" PRIu64,
			  r->lower_bound);
	if (result_has(r, TXNET_A_RES_BOUND))
		print_string(PRINT_ANY, "bound", " (%s)", r->bound);
	if (result_has(r, TXNET_A_RES_EXPECTED_STEPS))
		print_u64(PRINT_ANY, "expected_steps", " expected %" PRIu64,
			  r->expected_steps);
	else
		print_null(PRINT_JSON, "expected_steps", NULL);
	if (result_has(r, TXNET_A_RES_TRANSMISSIONS))
		print_u64(PRINT_ANY, "transmissions", " transmissions %" PRIu64,
			  r->transmissions);
	if (result_has(r, TXNET_A_RES_MIN_TRANSMISSIONS))
		print_u64(PRINT_ANY, "min_transmissions", " min-transmissions %" PRIu64,
			  r->min_transmissions);
	if (result_has(r, TXNET_A_RES_DELIVERED))
		print_u64(PRINT_JSON, "delivered", NULL, r->delivered);
	if (result_has(r, TXNET_A_RES_EXPECTED_DELIVERIES))
		print_u64(PRINT_JSON, "expected_deliveries", NULL,
			  r->expected_deliveries);
	if (result_has(r, TXNET_A_RES_DELIVERED)) {
		if (result_has(r, TXNET_A_RES_EXPECTED_DELIVERIES))
			snprintf(buf, sizeof(buf), "%" PRIu64 "/%" PRIu64,
				 r->delivered, r->expected_deliveries);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, r->delivered);
		print_string(PRINT_TEXT, NULL, " delivered %s", buf);
	}
	if (result_has(r, TXNET_A_RES_VERIFIED))
		print_bool(PRINT_ANY, "verified", " verified %s", r->verified);
	if (result_has(r, TXNET_A_RES_WALL_NS)) {
		format_ns(buf, sizeof(buf), r->wall_ns);
		print_u64(PRINT_JSON, "wall_ns", NULL, r->wall_ns);
		print_string(PRINT_TEXT, NULL, " wall %s", buf);
	}
	if (result_has(r, TXNET_A_RES_MAX_LATENESS_NS)) {
		print_u64(PRINT_JSON, "max_lateness_ns", NULL,
			  r->max_lateness_ns);
		if (r->max_lateness_ns) {
			format_ns(buf, sizeof(buf), r->max_lateness_ns);
			print_string(PRINT_TEXT, NULL, " max-lateness %s", buf);
		}
	}
	if (result_has(r, TXNET_A_RES_BUSY_NS))
		print_u64(PRINT_JSON, "busy_ns", NULL, r->busy_ns);
	if (result_has(r, TXNET_A_RES_TICK_NS)) {
		print_u64(PRINT_JSON, "tick_ns", NULL, r->tick_ns);
		/* what a user wants of the tick's wall time: simulated ticks per second */
		if (r->tick_ns) {
			print_u64(PRINT_ANY, "ticks_per_s", " ticks/s %" PRIu64,
				  1000000000ULL / r->tick_ns);
		}
	}
	if (result_has(r, TXNET_A_RES_MAX_QUEUE))
		print_uint(PRINT_ANY, "max_queue", " max-queue %u", r->max_queue);
	if (result_has(r, TXNET_A_RES_SAMPLES))
		print_uint(PRINT_ANY, "samples", " series %u", r->samples);
	if (result_has(r, TXNET_A_RES_SAMPLE_TICKS))
		print_uint(PRINT_ANY, "sample_ticks", "x%u", r->sample_ticks);
	if (result_has(r, TXNET_A_RES_MAX_QUEUE_NODE))
		print_uint(PRINT_JSON, "max_queue_node", NULL, r->max_queue_node);
	if (result_has(r, TXNET_A_RES_QUEUE_MAX)) {
		open_json_array("queue_max");
		for (i = 0; i < r->nqueue_max; i++)
			print_uint(PRINT_JSON, NULL, NULL, r->queue_max[i]);
		close_json_array();
	}
	if (result_has(r, TXNET_A_RES_VALUES_SEED))
		print_u64(PRINT_ANY, "values_seed", " values-seed %" PRIu64, r->values_seed);
	if (result_has(r, TXNET_A_RES_MAX_TICKS))
		print_u64(PRINT_ANY, "max_ticks", " max-ticks %" PRIu64, r->max_ticks);
	if (result_has(r, TXNET_A_RES_CONFIG))
		print_u64(PRINT_ANY, "config", " config %" PRIu64, r->config);
	if (result_has(r, TXNET_A_RES_CONFIG_X))
		print_uint(PRINT_ANY, "config_x", " x %u", r->config_x);
	/* the text has them in the error */
	if (result_has(r, TXNET_A_RES_BLOCK_STAGE))
		print_uint(PRINT_JSON, "block_stage", NULL, r->block_stage);
	if (result_has(r, TXNET_A_RES_BLOCK_SWITCH))
		print_uint(PRINT_JSON, "block_switch", NULL, r->block_switch);
	if (result_has(r, TXNET_A_RES_BLOCK_INPUTS)) {
		open_json_array("block_inputs");
		print_uint(PRINT_JSON, NULL, NULL, r->block_inputs[0]);
		print_uint(PRINT_JSON, NULL, NULL, r->block_inputs[1]);
		close_json_array();
	}
	if (result_has(r, TXNET_A_RES_SHARED_HOPS)) {
		if (r->shared_hops)
			print_u64(PRINT_ANY, "shared_hops", " shared-hops %" PRIu64, r->shared_hops);
		else
			print_u64(PRINT_JSON, "shared_hops", NULL, r->shared_hops);
	}
	/* faults: only when there were any, the text stays as it was without them */
	if (result_has(r, TXNET_A_RES_LINKS_DOWN) &&
	    (r->links_down || (result_has(r, TXNET_A_RES_REROUTES) && r->reroutes))) {
		print_uint(PRINT_ANY, "links_down", " links-down %u", r->links_down);
		if (result_has(r, TXNET_A_RES_REROUTES))
			print_uint(PRINT_ANY, "reroutes", " reroutes %u", r->reroutes);
		/* what the faults cost: the same run without them */
		if (result_has(r, TXNET_A_RES_FAULT_FREE_TICKS))
			print_u64(PRINT_ANY, "fault_free_ticks", " fault-free-ticks %" PRIu64,
				  r->fault_free_ticks);
	} else {
		if (result_has(r, TXNET_A_RES_LINKS_DOWN))
			print_uint(PRINT_JSON, "links_down", NULL, r->links_down);
		if (result_has(r, TXNET_A_RES_REROUTES))
			print_uint(PRINT_JSON, "reroutes", NULL, r->reroutes);
	}
	if (result_has(r, TXNET_A_RES_SAVED_STEPS))
		print_u64(PRINT_ANY, "saved_steps", " saved-steps %" PRIu64, r->saved_steps);
	if (result_has(r, TXNET_A_RES_VALUES)) {
		print_string(PRINT_TEXT, NULL, "%s", " values");
		open_json_array("values");
		for (i = 0; i < r->nvalues; i++)
			print_s64(PRINT_ANY, NULL, " %" PRId64, r->values[i]);
		close_json_array();
	}
	if (result_has(r, TXNET_A_RES_ERROR)) {
		/*
		 * The kernel sends ERROR_TICK only for a failed run, and
		 * ERROR_NODE only when one node broke the rule; older ones
		 * sent 0 and 0 for a stopped run and NO_NODE: leave those
		 * out too.
		 */
		bool where = !result_has(r, TXNET_A_RES_STATUS) ||
			     r->status != TXNET_RUN_STOPPED;

		print_string(PRINT_ANY, "error", " error \"%s\"", r->error);
		if (where && result_has(r, TXNET_A_RES_ERROR_TICK))
			print_u64(PRINT_ANY, "error_tick", " at tick %" PRIu64,
				  r->error_tick);
		if (where && result_has(r, TXNET_A_RES_ERROR_MOVE))
			print_uint(PRINT_ANY, "error_move", " move %u", r->error_move);
		if (where && result_has(r, TXNET_A_RES_ERROR_NODE) &&
		    r->error_node != NO_NODE)
			print_uint(PRINT_ANY, "error_node", " node %u",
				   r->error_node);
		if (result_has(r, TXNET_A_RES_ERROR_LINK)) {
			print_uint(PRINT_TEXT, NULL, " link %u", r->error_link[0]);
			print_uint(PRINT_TEXT, NULL, "-%u", r->error_link[1]);
			open_json_array("error_link");
			print_uint(PRINT_JSON, NULL, NULL, r->error_link[0]);
			print_uint(PRINT_JSON, NULL, NULL, r->error_link[1]);
			close_json_array();
		}
	}
	close_json_object();
}
