/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: the result of a run (the TXNET_A_RESULT nest), sent in the
 * RUN_DONE notification and, for the last finished run, in every network
 * description; parsed defensively and printed the same way by run and
 * show.  Also the keywords of operations, schedules and statuses.
 */
#ifndef TXCTL_RESULT_H
#define TXCTL_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/txnet.h>

struct txnet_res {
	uint64_t present;	/* bit (1 << TXNET_A_RES_x) per valid attribute */
	uint32_t run_id;
	uint32_t status;	/* enum txnet_run_status */
	uint32_t op;
	uint32_t algo;
	uint32_t port_model;
	uint32_t nodes;
	uint32_t payload;
	uint64_t seed;
	uint64_t steps;
	uint64_t lower_bound;
	uint64_t expected_steps;
	uint64_t transmissions;
	uint64_t delivered;
	uint64_t expected_deliveries;
	bool verified;
	uint64_t wall_ns;
	uint64_t max_lateness_ns;
	uint64_t busy_ns;
	uint64_t tick_ns;
	uint32_t samples, sample_ticks;	/* a recorded run's series */
	uint32_t max_queue;
	uint32_t max_queue_node;
	uint64_t ticks;
	char error[128];
	uint64_t error_tick;
	uint32_t error_node;
	/* TXNET_A_RES_QUEUE_MAX: each node's largest queue */
	uint32_t nqueue_max;
	uint32_t queue_max[TXNET_RES_QUEUE_MAX_NODES];
	uint32_t root;
	char bound[64];
	uint64_t min_transmissions, values_seed, max_ticks, config;
	uint32_t config_x;
	/* TXNET_RUN_BLOCKED: where a permutation blocked */
	uint32_t block_stage, block_switch, block_inputs[2];
	/* faults: the link an error names, reroutes, links down at the end */
	uint32_t error_link[2], reroutes, links_down;
	uint64_t shared_hops;	/* traffic beside the run */
	uint64_t fault_free_ticks;	/* verified with links down: the same run without them */
	uint32_t error_move;		/* the move of its tick that broke the rule */
	uint64_t saved_steps;		/* run with save: the steps the kernel kept */
	/* TXNET_A_RES_VALUES: what each processor ended with */
	uint32_t nvalues;
	int64_t values[TXNET_RES_QUEUE_MAX_NODES];
};

static inline bool result_has(const struct txnet_res *r, int attr)
{
	return r->present & (1ULL << attr);
}

/* Parse a TXNET_A_RESULT nest (already validated as nested). */
void result_parse(const struct nlattr *nest, struct txnet_res *r);
/*
 * One result: in text, a line without its end, "NAME: total-exchange
 * message-shift port all nodes 12 steps 18 ..." (without "NAME:" when
 * name is NULL, each field starting with a blank); in JSON, an object
 * under key (NULL at top level), with "name" first when name is given.
 */
void result_print(const struct txnet_res *r, const char *key,
		  const char *name);

/* Keywords <-> enum values; *_by_name return -1 if unknown. */
const char *op_name(uint32_t op);
int op_by_name(const char *name);
const char *algo_name(uint32_t algo);
int algo_by_name(const char *name);
const char *run_status_name(uint32_t status);
/* Which operations have a root, which take values. */
bool op_has_root(int op);
bool op_combines(int op);

#endif /* TXCTL_RESULT_H */
