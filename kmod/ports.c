// SPDX-License-Identifier: GPL-2.0
/*
 * Ports: every processor of a network is a port.  A packet sent to a port
 * is injected into an open-traffic engine that routes it on a shortest
 * path, tick by tick, under the same rules as an exchange; what arrives
 * waits in the destination's mailbox until it is read.
 *
 * Ports and exchanges take turns: a send while an exchange runs, and an
 * exchange while port packets are in flight, are refused with EBUSY.
 * In flight plus unread is capped at TXNET_PORT_SLOTS per network, so a
 * network's port memory is bounded and charged up front.
 */
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "txnet.h"
#include "core/sched.h"

static u64 ports_bytes(const struct txnet_net *tn)
{
	u64 slots = TXNET_PORT_SLOTS, v = tn->counts.nodes, links = tn->counts.links;

	/* engine: per slot loc/dst/next/src/len/sum + data; per link; per vertex */
	return slots * (6 * sizeof(u32) + TXNET_PORT_DATA_MAX) +
	       links * (2 * sizeof(u32) + sizeof(u64)) +
	       (links + TXN_MOVES_SLACK) * 4 * sizeof(u32) +
	       v * (2 * sizeof(u32) + 2 * sizeof(u64)) +
	       /* routes: per slot pointer, hop and at most diameter links; BFS */
	       slots * (sizeof(void *) + sizeof(u32) + tn->counts.diameter * sizeof(u32)) +
	       v * (2 * sizeof(u32) + 2 * sizeof(u64)) +
	       /* mailboxes and their messages */
	       tn->counts.procs * sizeof(struct list_head) +
	       slots * (sizeof(void *) + sizeof(struct txnet_msg) + TXNET_PORT_DATA_MAX) +
	       sizeof(struct txnet_ports);
}

static struct txnet_ports *ports_create(struct txnet_net *tn, const char **why)
{
	struct txn_run_params p = {
		.port_model = READ_ONCE(tn->port_model),
		.payload = TXNET_PORT_DATA_MAX,
	};
	struct txnet_ports *pt;
	u64 bytes = ports_bytes(tn);
	u32 i;

	if (txnet_mem_charge(bytes)) {
		*why = "ports need more memory than the mem_budget limit leaves";
		return ERR_PTR(-ENOSPC);
	}
	pt = kzalloc(sizeof(*pt), GFP_KERNEL_ACCOUNT);
	if (!pt)
		goto err;
	pt->charged = bytes;
	mutex_init(&pt->lock);
	pt->slot_msg = kvcalloc(TXNET_PORT_SLOTS, sizeof(*pt->slot_msg), GFP_KERNEL_ACCOUNT);
	pt->mbox = kvmalloc_array(tn->counts.procs, sizeof(*pt->mbox), GFP_KERNEL_ACCOUNT);
	if (!pt->slot_msg || !pt->mbox)
		goto err_free;
	for (i = 0; i < tn->counts.procs; i++)
		INIT_LIST_HEAD(&pt->mbox[i]);
	if (txn_engine_init_open(&pt->e, &tn->graph, &txn_sched_route, &p, TXNET_PORT_SLOTS))
		goto err_free;
	return pt;

err_free:
	kvfree(pt->slot_msg);
	kvfree(pt->mbox);
	kfree(pt);
err:
	txnet_mem_uncharge(bytes);
	*why = "could not set the ports up";
	return ERR_PTR(-ENOMEM);
}

void txnet_ports_free(struct txnet_net *tn)
{
	struct txnet_ports *pt = tn->ports;
	struct txnet_msg *m, *tmp;
	u32 i;

	if (!pt)
		return;
	for (i = 0; i < TXNET_PORT_SLOTS; i++)
		kfree(pt->slot_msg[i]);
	for (i = 0; i < tn->counts.procs; i++)
		list_for_each_entry_safe(m, tmp, &pt->mbox[i], node)
			kfree(m);
	txn_engine_free(&pt->e);
	kvfree(pt->slot_msg);
	kvfree(pt->mbox);
	txnet_mem_uncharge(pt->charged);
	kfree(pt);
	tn->ports = NULL;
}

int txnet_ports_send(struct txnet_net *tn, u32 src, u32 dst, const void *data, u32 len,
		     const char **why)
{
	struct txnet_ports *pt = tn->ports;
	struct txnet_msg *m;
	int pkt;

	lockdep_assert_held(&txnet_lock);
	if (READ_ONCE(tn->state) != TXNET_STATE_IDLE) {
		*why = "an exchange is running on this network";
		return -EBUSY;
	}
	if (!pt) {
		pt = ports_create(tn, why);
		if (IS_ERR(pt))
			return PTR_ERR(pt);
		/* Published set up: see txnet_ports_of(). */
		smp_store_release(&tn->ports, pt);
	}
	m = kzalloc(struct_size(m, data, TXNET_PORT_DATA_MAX), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;

	mutex_lock(&pt->lock);
	if (pt->e.failed) {
		mutex_unlock(&pt->lock);
		kfree(m);
		*why = "port traffic broke a rule earlier (see the kernel log)";
		return -EIO;
	}
	if (pt->in_flight + pt->unread >= TXNET_PORT_SLOTS) {
		mutex_unlock(&pt->lock);
		kfree(m);
		*why = "too many port packets in flight or unread: recv some first";
		return -ENOBUFS;
	}
	pkt = txn_engine_inject(&pt->e, src, dst, data, len);
	if (pkt < 0) {
		mutex_unlock(&pt->lock);
		kfree(m);
		*why = "could not route the packet";
		return pkt;
	}
	m->src = src;
	m->dst = dst;
	m->sent_tick = pt->e.tick;
	pt->slot_msg[pkt] = m;
	WRITE_ONCE(pt->in_flight, pt->in_flight + 1);
	mutex_unlock(&pt->lock);
	wake_up(&tn->wq);
	return 0;
}

bool txnet_ports_busy(struct txnet_net *tn)
{
	struct txnet_ports *pt = txnet_ports_of(tn);

	return pt && READ_ONCE(pt->in_flight);
}

/* Move what the last tick delivered into the mailboxes. */
static void collect(struct txnet_ports *pt)
{
	struct txn_engine *e = &pt->e;
	struct txnet_msg *m;
	u32 i, pkt;

	for (i = 0; i < e->ndone; i++) {
		pkt = e->done[i];
		m = pt->slot_msg[pkt];
		pt->slot_msg[pkt] = NULL;
		m->len = e->len[pkt];
		memcpy(m->data, e->payload + (size_t)pkt * e->p.payload, m->len);
		m->recv_tick = e->tick;
		list_add_tail(&m->node, &pt->mbox[m->dst]);
		txn_engine_release(e, pkt);
		pt->unread++;
		pt->in_flight--;
	}
}

void txnet_ports_exec(struct txnet_net *tn)
{
	struct txnet_ports *pt = tn->ports;
	u64 tick_ns = READ_ONCE(tn->tick_ns);
	ktime_t deadline = ktime_get();
	int ret;

	while (READ_ONCE(pt->in_flight) && !kthread_should_stop()) {
		if (tick_ns) {
			deadline = ktime_add_ns(deadline, tick_ns);
			if (!txnet_tick_pace(tn, deadline, 0))
				break;
		}
		mutex_lock(&pt->lock);
		pt->e.p.port_model = READ_ONCE(tn->port_model);
		ret = txn_engine_tick(&pt->e);
		if (ret < 0) {
			/* The route schedule broke a rule: nothing in flight can be trusted. */
			pr_err("txnet: %s: port traffic stopped at tick %llu: %s\n",
			       tn->name, pt->e.v.tick, pt->e.v.rule);
			WRITE_ONCE(pt->in_flight, 0);
		} else {
			collect(pt);
		}
		mutex_unlock(&pt->lock);
		WRITE_ONCE(tn->ticks, tn->ticks + 1);
		cond_resched();
	}
}
