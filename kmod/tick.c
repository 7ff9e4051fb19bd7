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

static int txnet_tick_thread(void *data)
{
	struct txnet_net *tn = data;
	struct txnet_run *r;

	for (;;) {
		wait_event_interruptible(tn->wq, kthread_should_stop() ||
					 run_of(tn) || txnet_ports_busy(tn));
		if (kthread_should_stop())
			break;
		if (txnet_ports_busy(tn))
			txnet_ports_exec(tn);
		cond_resched();
		r = run_of(tn);
		if (!r)
			continue;
		txnet_run_exec(tn, r);
		WRITE_ONCE(tn->run, NULL);
		txnet_run_free(r);
		/* Idle before the news: whoever hears RUN_DONE may start the next run. */
		smp_store_release(&tn->state, TXNET_STATE_IDLE);
		txnet_genl_notify_run(tn);
	}
	return 0;
}

/*
 * Whether the thread must stop what it does: always when the network
 * goes away; for run @run_id also when STOP named it.  A STOP names a run
 * id, so one that comes late can never stop the next run, nor port
 * traffic (run_id 0).
 */
bool txnet_tick_must_stop(struct txnet_net *tn, u32 run_id)
{
	return kthread_should_stop() || (run_id && READ_ONCE(tn->stop_run) == run_id);
}

/* Sleep until @deadline, by hrtimer; false if asked to stop meanwhile. */
bool txnet_tick_pace(struct txnet_net *tn, ktime_t deadline, u32 run_id)
{
	while (ktime_before(ktime_get(), deadline)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (txnet_tick_must_stop(tn, run_id)) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		schedule_hrtimeout(&deadline, HRTIMER_MODE_ABS);
	}
	return !txnet_tick_must_stop(tn, run_id);
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

/*
 * A run in progress ends as stopped when the thread sees
 * kthread_should_stop(); a run the thread never picked up is freed here.
 */
void txnet_tick_stop(struct txnet_net *tn)
{
	if (tn->thread) {
		kthread_stop(tn->thread);
		tn->thread = NULL;
	}
	txnet_run_free(tn->run);
	tn->run = NULL;
	txnet_ports_free(tn);
}
