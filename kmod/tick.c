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

#include "txnet.h"

static int txnet_tick_thread(void *data)
{
	struct txnet_net *tn = data;
	struct txnet_run *r;

	for (;;) {
		wait_event_interruptible(tn->wq, kthread_should_stop() ||
					 smp_load_acquire(&tn->run));
		if (kthread_should_stop())
			break;
		r = smp_load_acquire(&tn->run);
		if (!r)
			continue;
		txnet_run_exec(tn, r);
		WRITE_ONCE(tn->run, NULL);
		txnet_run_free(r);
		smp_store_release(&tn->state, TXNET_STATE_IDLE);
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
}
