// SPDX-License-Identifier: GPL-2.0
/*
 * The tick thread: one kthread per network.
 *
 * One thread per network, rather than a shared worker, because a run is a
 * long CPU-bound loop: separate threads let independent networks advance
 * in parallel on separate CPUs, let the scheduler account each network's
 * cost to its own task (visible in top/perf as "txnet/<name>"), and give
 * each run a clean stop point through kthread_should_stop().  An idle
 * network's thread sleeps on its wait queue and costs nothing but a
 * task_struct.
 */
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/hrtimer.h>

#include "txnet.h"

static struct txnet_run *run_of(struct txnet_net *tn)
{
	/* Pairs with the release in txnet_run_start(): the run is set up. */
	return smp_load_acquire(&tn->run);
}

/*
 * Whether the thread must stop what it does: always when the network
 * goes away; for run @run_id also when STOP named it.  A STOP names a run
 * id, so one that comes late can never stop the next run, nor port
 * traffic (run_id 0).
 */
static bool must_stop(struct txnet_net *tn, u32 run_id)
{
	return kthread_should_stop() || (run_id && READ_ONCE(tn->stop_run) == run_id);
}

bool txnet_tick_halted(struct txnet_net *tn, u32 run_id)
{
	return must_stop(tn, run_id);
}

/* Sleep until @deadline, by hrtimer; false if asked to stop meanwhile. */
static bool pace(struct txnet_net *tn, ktime_t deadline, u32 run_id)
{
	while (ktime_before(ktime_get(), deadline)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (must_stop(tn, run_id)) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		schedule_hrtimeout(&deadline, HRTIMER_MODE_ABS);
	}
	return !must_stop(tn, run_id);
}

/*
 * Advance tick by tick until @step says it is done (non-zero) or the
 * thread must stop: every @tick_ns on absolute deadlines, or as fast as
 * the CPU allows.  True when stopped.  @max_late, if given, keeps the
 * worst lateness of a paced tick; @busy, if given, adds up the time spent
 * in @step, so that a run reports its ticks per second of engine work
 * whatever its pacing.
 */
static bool drive(struct txnet_net *tn, u64 tick_ns, u32 run_id,
		  int (*step)(struct txnet_net *tn, void *arg), void *arg, u64 *max_late,
		  u64 *busy)
{
	ktime_t deadline = ktime_get();
	s64 late;
	u64 t0;
	int done;

	for (;;) {
		if (tick_ns) {
			deadline = ktime_add_ns(deadline, tick_ns);
			if (!pace(tn, deadline, run_id))
				return true;
			late = ktime_to_ns(ktime_sub(ktime_get(), deadline));
			if (max_late && late > 0 && late > *max_late)
				*max_late = late;
		} else if (must_stop(tn, run_id)) {
			return true;
		}
		t0 = busy ? ktime_get_ns() : 0;
		done = step(tn, arg);
		if (busy)
			*busy += ktime_get_ns() - t0;
		WRITE_ONCE(tn->ticks, tn->ticks + 1);
		if (done)
			return false;
		/* Free-running: a long run must never starve the CPU (soft lockup, RCU). */
		cond_resched();
	}
}

/*
 * Port packets and interface frames: a tick of each that has any in
 * flight; done when none has, or when a run starts, which then ticks them
 * beside itself (run.c).
 */
static int traffic_step(struct txnet_net *tn, void *unused)
{
	if (txnet_ports_busy(tn))
		txnet_ports_step(tn, NULL);
	if (txnet_fabric_busy(tn))
		txnet_fabric_step(tn, NULL);
	return run_of(tn) || (!txnet_ports_busy(tn) && !txnet_fabric_busy(tn));
}

static void exec_run(struct txnet_net *tn, struct txnet_run *r)
{
	u64 t0 = ktime_get_ns(), busy = 0;
	bool stopped;

	stopped = drive(tn, r->tick_ns, r->res.run_id, txnet_run_step, r,
			&r->res.max_lateness_ns, &busy);
	txnet_run_end(tn, r, stopped, ktime_get_ns() - t0, busy);
	WRITE_ONCE(tn->run, NULL);
	txnet_run_free(r);
	/* Idle before the news: whoever hears RUN_DONE may start the next run. */
	smp_store_release(&tn->state, TXNET_STATE_IDLE);
	txnet_genl_notify_run(tn);
}

static int txnet_tick_thread(void *data)
{
	struct txnet_net *tn = data;
	struct txnet_run *r;

	for (;;) {
		wait_event_interruptible(tn->wq, kthread_should_stop() || run_of(tn) ||
					 txnet_ports_busy(tn) || txnet_fabric_busy(tn));
		if (kthread_should_stop())
			break;
		r = run_of(tn);
		if (r)
			exec_run(tn, r);
		else if (txnet_ports_busy(tn) || txnet_fabric_busy(tn))
			drive(tn, READ_ONCE(tn->tick_ns), 0, traffic_step, NULL, NULL, NULL);
		cond_resched();
	}
	return 0;
}

int txnet_tick_start(struct txnet_net *tn)
{
	struct task_struct *t;

	t = kthread_run(txnet_tick_thread, tn, "txnet/%s", tn->name);
	if (IS_ERR(t))
		return PTR_ERR(t);
	tn->thread = t;
	return 0;
}

/* A run in progress ends as stopped when the thread sees kthread_should_stop(). */
void txnet_tick_stop(struct txnet_net *tn)
{
	if (tn->thread) {
		kthread_stop(tn->thread);
		tn->thread = NULL;
	}
}
