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

	while (!kthread_should_stop()) {
		/* Exchanges (next issues) queue work here and wake tn->wq. */
		wait_event_interruptible(tn->wq, kthread_should_stop());
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

void txnet_tick_stop(struct txnet_net *tn)
{
	if (tn->thread) {
		kthread_stop(tn->thread);
		tn->thread = NULL;
	}
}
