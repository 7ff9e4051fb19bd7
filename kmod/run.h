/* SPDX-License-Identifier: GPL-2.0 */
/* Exchanges: one run of a schedule on a network, and what it reports. */
#ifndef TXNET_RUN_H
#define TXNET_RUN_H

#include <linux/types.h>
#include "core/engine.h"
#include "core/script.h"

#define TXNET_ERROR_LEN	128

/* What a finished run reports: netlink TXNET_A_RESULT and sysfs last/. */
struct txnet_result {
	u32 run_id;
	u32 status;			/* enum txnet_run_status */
	u32 op, algo, port_model, nodes, payload;
	u64 seed;
	bool has_root, has_values_seed;
	u32 root;
	u64 values_seed, max_ticks;
	bool has_config;
	u64 config;			/* algo latin: the index l of S^l; self-routing: */
	bool has_config_x;
	u32 config_x;			/* ... the configuration M^{l,x} that routes it */
	u32 block_stage, block_switch;	/* TXNET_RUN_BLOCKED: where */
	u32 block_inputs[2];
	const char *bound;		/* static: which bound gave lower_bound */
	u64 min_transmissions;
	u64 steps;			/* valid when verified */
	u64 ticks;			/* ticks run, whatever the outcome */
	u64 lower_bound;
	bool has_expected;
	u64 expected_steps;
	u64 transmissions, delivered, expected_deliveries;
	bool verified;
	u64 wall_ns, max_lateness_ns;
	u64 busy_ns, tick_ns;
	/*
	 * 0: no packet joined the engine's queues, and both are absent: a
	 * schedule that keeps them in tables of its own (a2, a3, hypercube)
	 * is not seen queueing, and a 0 would be made up.
	 */
	u32 max_queue, max_queue_node;
	/* per node, nodes <= TXNET_RES_QUEUE_MAX_NODES; owned by whoever holds the result */
	u32 *queue_max, queue_max_len;
	s64 *values;			/* what each processor ended with, likewise */
	u32 values_len;
	struct txn_series *series;	/* TXNET_A_RECORD: the run over time, likewise */
	u64 series_charged;		/* ... the bytes of it charged to mem_budget, once kept */
	u32 samples, sample_ticks;	/* ... its length */
	char error[TXNET_ERROR_LEN];
	u64 error_tick;
	u32 error_node;
	bool has_error_link;
	u32 error_link[2];		/* the link the error names: from, to */
	u32 reroutes, links_down;	/* faults: routed around them, links down at the end */
	u64 shared_hops;		/* link-hops of port and interface traffic beside it */
	bool has_fault_free;
	u64 fault_free_ticks;		/* verified with links down: the same run without them */
	u32 error_move;			/* the move of its tick that broke the rule, or TXN_NONE */
	/*
	 * TXNET_A_SAVE: the moves the engine accepted (TXNET_CMD_SCHEDULE),
	 * charged to mem_budget as it grew; owned by whoever holds the result
	 */
	bool has_saved;
	struct txn_log saved;
};

struct txnet_run {
	struct txn_engine e;
	struct txnet_result res;	/* filled in as the run goes */
	u64 tick_ns;
	u64 charged;			/* bytes charged to mem_budget */
	int engine_ret;			/* the last txn_engine_tick() */
	bool admissible;		/* self-routing: txn_latin_admit() found a configuration */
	u64 *down;			/* the network's links down, as this run last read them */
	/* what the run took in a tick, for traffic beside it: lines, senders, receivers */
	u64 *took_lines, *took_sent, *took_recv;
	struct txn_taken taken;
	u32 fault_gen;			/* ... at this generation of its faults */
	/* algo replay: the request's steps, the run's from txnet_run_start() on, charged */
	struct txn_script script;
	u64 script_ticks;
};

struct txnet_net;

struct txnet_run_req {
	u32 op, algo, payload;
	u64 seed;
	u32 root;
	const s64 *values;		/* the request's, valid until txnet_run_start() returns */
	u32 nvalues;
	u64 values_seed, max_ticks;
	bool has_config;
	u64 config;
	const u32 *dests;		/* the request's, valid until txnet_run_start() returns */
	u32 ndests;
	const u32 *config_rows;		/* likewise */
	u32 nrows;
	bool record;			/* keep a time series of the run */
	bool save;			/* keep the moves the engine accepted */
	/*
	 * A schedule to replay: steps joined from the request and charged to
	 * mem_budget; txnet_run_start() takes them, whatever it returns, and
	 * txnet_run_req_drop_steps() frees them before that.
	 */
	struct txn_step *steps;
	u64 nsteps;
	const char *schedule_spec;	/* the network it was made for, or NULL */
	bool has_port_model;
	u32 port_model;			/* ... and its port model */
};

/* A request's steps, and their charge, given back. */
void txnet_run_req_drop_steps(struct txnet_run_req *req);

/* Free what a result owns. */
void txnet_result_release(struct txnet_result *r);

/*
 * Whether a result has field @attr (enum txnet_res_attr): the one place
 * that decides, for netlink and sysfs alike.  A field a run does not have
 * (steps of an unverified run, expected_steps where the paper gives none)
 * is left out rather than made up.
 */
bool txnet_result_has(const struct txnet_result *r, int attr);

/*
 * Set up a run on an idle network and hand it to its tick thread.  Called
 * without txnet_lock, with a reference on @tn: the engine is set up and
 * the payloads hashed outside the lock, which is taken only to reserve the
 * network and to publish the run.
 */
int txnet_run_start(struct txnet_net *tn, struct txnet_run_req *req,
		    const char **why, u32 *run_id);
void txnet_run_stop(struct txnet_net *tn);
/* The tick thread's part: one tick (non-zero when the run is over), then the end. */
int txnet_run_step(struct txnet_net *tn, void *run);
void txnet_run_end(struct txnet_net *tn, struct txnet_run *r, bool stopped, u64 wall_ns,
		   u64 busy_ns);
void txnet_run_free(struct txnet_run *r);

#endif /* TXNET_RUN_H */
