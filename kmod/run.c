// SPDX-License-Identifier: GPL-2.0
/*
 * Runs: setting an exchange up on a network, driving its engine tick by
 * tick on the network's thread, and publishing the verified result.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "txnet.h"
#include "trace.h"
#include "core/sched.h"

void txnet_run_free(struct txnet_run *r)
{
	if (!r)
		return;
	txn_engine_free(&r->e);
	txnet_mem_uncharge(r->charged);
	kfree(r->res.queue_max);
	kfree(r);
}

int txnet_run_start(struct txnet_net *tn, const struct txnet_run_req *req,
		    const char **why, u32 *run_id)
{
	const struct txn_sched *s;
	struct txn_run_params p;
	struct txnet_run *r;
	u64 bytes;
	int ret;

	lockdep_assert_held(&txnet_lock);
	/* Acquire pairs with the thread's release of IDLE after it let go of its run. */
	if (smp_load_acquire(&tn->state) != TXNET_STATE_IDLE) {
		*why = "an exchange is already running on this network";
		return -EBUSY;
	}
	if (txnet_ports_busy(tn)) {
		*why = "port packets are in flight on this network";
		return -EBUSY;
	}
	if (req->fault == TXNET_FAULT_SINGLE_PORT && tn->port_model != TXNET_PORT_SINGLE) {
		*why = "the single-port fault needs a single-port network";
		return -EINVAL;
	}
	s = txn_sched_pick(&tn->spec, req->op, req->algo, why);
	if (!s)
		return -EOPNOTSUPP;
	if (tn->counts.procs * (tn->counts.procs - 1) > 0xfffffff0ULL) {
		*why = "too many nodes for a total exchange: n(n-1) packets must fit in 32 bits";
		return -E2BIG;
	}

	bytes = txn_engine_bytes(&tn->graph, s, req->payload) + sizeof(*r);
	if (txnet_mem_charge(bytes)) {
		*why = "the exchange needs more memory than the mem_budget limit leaves";
		return -ENOSPC;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r) {
		txnet_mem_uncharge(bytes);
		return -ENOMEM;
	}
	r->charged = bytes;

	p.op = req->op;
	p.port_model = READ_ONCE(tn->port_model);
	p.payload = req->payload;
	p.seed = req->seed;
	p.fault = req->fault;
	ret = txn_engine_init(&r->e, &tn->graph, s, &p);
	if (ret) {
		*why = "could not set the exchange up";
		txnet_run_free(r);
		return ret;
	}

	r->tick_ns = READ_ONCE(tn->tick_ns);
	r->res.run_id = ++tn->runs;
	r->res.op = p.op;
	r->res.algo = s->algo;
	r->res.port_model = p.port_model;
	r->res.nodes = tn->counts.procs;
	r->res.payload = p.payload;
	r->res.seed = p.seed;
	r->res.lower_bound = txn_lower_bound(&tn->spec, &tn->counts, p.op, p.port_model);
	r->res.has_expected = txn_expected_steps(s, &tn->spec, p.port_model,
						 &r->res.expected_steps);
	r->res.expected_deliveries = r->e.npkts;
	*run_id = r->res.run_id;

	WRITE_ONCE(tn->run_ticks, 0);
	WRITE_ONCE(tn->run_delivered, 0);
	/* The state first: the thread may finish and set it idle at once. */
	smp_store_release(&tn->state, TXNET_STATE_RUNNING);
	/* Publishes the run, set up, to the thread's acquire in txnet_tick_thread(). */
	smp_store_release(&tn->run, r);
	wake_up(&tn->wq);
	return 0;
}

/* Ask the thread to stop the run in progress, by its id (see txnet_tick_must_stop()). */
void txnet_run_stop(struct txnet_net *tn)
{
	lockdep_assert_held(&txnet_lock);
	WRITE_ONCE(tn->stop_run, tn->runs);
	if (tn->thread)
		wake_up_process(tn->thread);
}

static u32 max_queue_now(const struct txn_engine *e)
{
	u32 v, m = 0;

	for (v = 0; v < e->g->nodes; v++)
		m = max(m, e->qlen[v]);
	return m;
}

static void finish(struct txnet_run *r, int ret, bool stopped)
{
	struct txnet_result *res = &r->res;
	struct txn_engine *e = &r->e;
	u32 v;

	res->ticks = e->tick;
	res->transmissions = e->transmissions;
	res->delivered = e->delivered;
	for (v = 0; v < e->g->nodes; v++) {
		if (e->qmax[v] > res->max_queue) {
			res->max_queue = e->qmax[v];
			res->max_queue_node = v;
		}
	}
	if (e->g->nodes <= TXNET_RES_QUEUE_MAX_NODES) {
		res->queue_max = kmemdup(e->qmax, e->g->nodes * sizeof(u32), GFP_KERNEL_ACCOUNT);
		if (res->queue_max)
			res->queue_max_len = e->g->nodes;
	}
	if (stopped) {
		res->status = TXNET_RUN_STOPPED;
		strscpy(res->error, "stopped before every packet was delivered", sizeof(res->error));
		return;
	}
	if (ret == 1)
		ret = txn_engine_verify(e);
	if (ret) {
		res->status = TXNET_RUN_FAILED;
		strscpy(res->error, e->failed ? e->v.rule : "engine error", sizeof(res->error));
		res->error_tick = e->v.tick;
		res->error_node = e->v.node;
		/* the tick that broke a rule was run, if not completed */
		res->ticks = max(res->ticks, res->error_tick);
		return;
	}
	res->status = TXNET_RUN_DONE;
	res->verified = true;
	res->steps = e->tick;
}

void txnet_run_exec(struct txnet_net *tn, struct txnet_run *r)
{
	struct txn_engine *e = &r->e;
	u64 t0 = ktime_get_ns();
	ktime_t deadline = ns_to_ktime(t0);
	bool stopped = false;
	s64 late;
	int ret;

	for (;;) {
		if (r->tick_ns) {
			deadline = ktime_add_ns(deadline, r->tick_ns);
			if (!txnet_tick_pace(tn, deadline, r->res.run_id)) {
				stopped = true;
				break;
			}
			late = ktime_to_ns(ktime_sub(ktime_get(), deadline));
			if (late > 0 && late > r->res.max_lateness_ns)
				r->res.max_lateness_ns = late;
		} else if (txnet_tick_must_stop(tn, r->res.run_id)) {
			stopped = true;
			break;
		}
		ret = txn_engine_tick(e);
		WRITE_ONCE(tn->ticks, tn->ticks + 1);
		WRITE_ONCE(tn->run_ticks, e->tick);
		WRITE_ONCE(tn->run_delivered, e->delivered);
		if (trace_txnet_tick_enabled())
			trace_txnet_tick(tn->name, e->tick, e->nmoves, max_queue_now(e));
		if (ret)
			break;
		/* Free-running: a long run must never starve the CPU (soft lockup, RCU). */
		cond_resched();
	}
	r->res.wall_ns = ktime_get_ns() - t0;
	finish(r, ret, stopped);
	trace_txnet_run_done(tn->name, &r->res);

	mutex_lock(&tn->res_lock);
	kfree(tn->last.queue_max);
	tn->last = r->res;
	mutex_unlock(&tn->res_lock);
	r->res.queue_max = NULL;
}
