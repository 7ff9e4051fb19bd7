// SPDX-License-Identifier: GPL-2.0
/*
 * Ports: every processor of a network is a port.  A packet sent to a port
 * is injected into an open-traffic engine that routes it on a shortest
 * path, tick by tick, under the same rules as an exchange; what arrives
 * waits in the destination's mailbox until it is read.
 *
 * Ports and exchanges share the network: while a run goes on, port
 * packets move in the same ticks on what the run left idle (it goes
 * first, so its count of ticks is its own).
 * In flight plus unread is capped at TXNET_PORT_SLOTS per network, so a
 * network's port memory is bounded and charged up front.
 */
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "txnet.h"
#include "core/sched.h"

/* The engine's and the route schedule's own count, plus the mailboxes. */
static u64 ports_bytes(const struct txnet_net *tn)
{
	return txn_engine_open_bytes(&tn->graph, &txn_sched_route, TXNET_PORT_DATA_MAX,
				     TXNET_PORT_SLOTS) +
	       tn->counts.procs * sizeof(struct list_head) +
	       TXNET_PORT_SLOTS * (sizeof(struct txnet_msg *) +
				   sizeof(struct txnet_msg) + TXNET_PORT_DATA_MAX) +
	       sizeof(struct txnet_ports);
}

static struct txnet_ports *ports_create(struct txnet_net *tn, const char **why)
{
	struct txn_run_params p = {
		.port_model = READ_ONCE(tn->port_model),
		.payload = TXNET_PORT_DATA_MAX,
		.budget = &txnet_mem_charger,
	};
	struct txnet_ports *pt;
	u64 bytes = ports_bytes(tn);
	u32 i;
	int ret;

	if (txnet_mem_charge(bytes)) {
		*why = "ports need more memory than the mem_budget limit leaves";
		return ERR_PTR(-ENOSPC);
	}
	ret = -ENOMEM;
	pt = kzalloc(sizeof(*pt), TXN_GFP);
	if (!pt)
		goto err;
	pt->charged = bytes;
	mutex_init(&pt->lock);
	pt->slot_msg = kvcalloc(TXNET_PORT_SLOTS, sizeof(*pt->slot_msg), TXN_GFP);
	pt->mbox = kvmalloc_array(tn->counts.procs, sizeof(*pt->mbox), TXN_GFP);
	if (!pt->slot_msg || !pt->mbox)
		goto err_free;
	for (i = 0; i < tn->counts.procs; i++)
		INIT_LIST_HEAD(&pt->mbox[i]);
	ret = txn_engine_init_open(&pt->e, &tn->graph, &txn_sched_route, &p, TXNET_PORT_SLOTS);
	if (ret)
		goto err_free;
	/* the faults so far, under txnet_lock: nothing in flight yet, nothing to drop */
	txn_engine_set_down(&pt->e, tn->faults.down);
	return pt;

err_free:
	kvfree(pt->slot_msg);
	kvfree(pt->mbox);
	kfree(pt);
err:
	txnet_mem_uncharge(bytes);
	*why = ret == -E2BIG ? "the ports need an array larger than 2 GiB" :
	       "out of memory for the ports";
	return ERR_PTR(ret);
}

static void ports_destroy(struct txnet_ports *pt, u32 procs)
{
	struct txnet_msg *m, *tmp;
	u32 i;

	for (i = 0; i < TXNET_PORT_SLOTS; i++)
		kfree(pt->slot_msg[i]);
	for (i = 0; i < procs; i++)
		list_for_each_entry_safe(m, tmp, &pt->mbox[i], node)
			kfree(m);
	txn_engine_free(&pt->e);
	kvfree(pt->slot_msg);
	kvfree(pt->mbox);
	txnet_mem_uncharge(pt->charged);
	kfree(pt);
}

/* Only txnet_net_destroy() calls this: sysfs is gone, the thread stopped. */
void txnet_ports_free(struct txnet_net *tn)
{
	if (!tn->ports)
		return;
	ports_destroy(tn->ports, tn->counts.procs);
	tn->ports = NULL;
}

static int send_on(struct txnet_ports *pt, struct txnet_msg *m, u32 src, u32 dst,
		   const void *data, u32 len, const char **why)
{
	int pkt;

	mutex_lock(&pt->lock);
	if (pt->e.failed) {
		mutex_unlock(&pt->lock);
		*why = "port traffic broke a rule earlier (see the kernel log)";
		return -EIO;
	}
	if (pt->in_flight + pt->unread >= TXNET_PORT_SLOTS) {
		mutex_unlock(&pt->lock);
		*why = "too many port packets in flight or unread: recv some first";
		return -ENOBUFS;
	}
	pkt = txn_engine_inject(&pt->e, src, dst, data, len);
	if (pkt < 0) {
		mutex_unlock(&pt->lock);
		*why = pkt == -ENOMEM ? "out of memory for the packet's route" :
		       pkt == -EHOSTUNREACH ? "no path from the source to the destination" :
					      "could not route the packet";
		return pkt;
	}
	m->src = src;
	m->dst = dst;
	m->sent_tick = pt->e.tick;
	pt->slot_msg[pkt] = m;
	WRITE_ONCE(pt->in_flight, pt->in_flight + 1);
	mutex_unlock(&pt->lock);
	return 0;
}

/*
 * The first send creates the ports, and publishes them only once it
 * succeeded: a refused first send leaves nothing behind, and what was
 * never published has no reader to wait for.
 */
int txnet_ports_send(struct txnet_net *tn, u32 src, u32 dst, const void *data, u32 len,
		     const char **why)
{
	struct txnet_ports *pt = tn->ports;
	struct txnet_msg *m;
	bool fresh = false;
	int ret;

	lockdep_assert_held(&txnet_lock);
	m = kzalloc(struct_size(m, data, TXNET_PORT_DATA_MAX), TXN_GFP);
	if (!m) {
		*why = "out of memory for the packet";
		return -ENOMEM;
	}
	if (!pt) {
		pt = ports_create(tn, why);
		if (IS_ERR(pt)) {
			kfree(m);
			return PTR_ERR(pt);
		}
		fresh = true;
	}
	ret = send_on(pt, m, src, dst, data, len, why);
	if (ret) {
		kfree(m);
		if (fresh)
			ports_destroy(pt, tn->counts.procs);
		return ret;
	}
	if (fresh)
		/* Published set up: see txnet_ports_of(). */
		smp_store_release(&tn->ports, pt);
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
	const u8 *data;
	u32 i, pkt;

	for (i = 0; i < e->ndone; i++) {
		pkt = e->done[i];
		m = pt->slot_msg[pkt];
		pt->slot_msg[pkt] = NULL;
		data = txn_engine_data(e, pkt, &m->len);
		memcpy(m->data, data, m->len);
		m->recv_tick = e->tick;
		list_add_tail(&m->node, &pt->mbox[m->dst]);
		txn_engine_release(e, pkt);
		WRITE_ONCE(pt->unread, pt->unread + 1);
		WRITE_ONCE(pt->in_flight, pt->in_flight - 1);
	}
}

void txnet_ports_faults(struct txnet_net *tn)
{
	struct txnet_ports *pt = txnet_ports_of(tn);
	struct txn_engine *e;
	u32 i, pkt;

	if (!pt)
		return;
	e = &pt->e;
	mutex_lock(&pt->lock);
	if (txn_engine_set_down(e, tn->faults.down) < 0) {
		pr_err("txnet: %s: port traffic stopped: %s\n", tn->name, e->v.rule);
		WRITE_ONCE(pt->in_flight, 0);
	}
	for (i = 0; i < e->nlost; i++) {
		pkt = e->lost[i];
		kfree(pt->slot_msg[pkt]);
		pt->slot_msg[pkt] = NULL;
		txn_engine_release(e, pkt);
		WRITE_ONCE(pt->dropped, pt->dropped + 1);
		WRITE_ONCE(pt->in_flight, pt->in_flight - 1);
	}
	e->nlost = 0;
	mutex_unlock(&pt->lock);
}

/* One tick of port traffic (@taken: beside a run, what it took); non-zero once nothing is in flight. */
int txnet_ports_step(struct txnet_net *tn, void *taken)
{
	struct txnet_ports *pt = tn->ports;
	int ret;

	mutex_lock(&pt->lock);
	txn_engine_set_port_model(&pt->e, READ_ONCE(tn->port_model));
	txn_engine_set_taken(&pt->e, taken);
	ret = txn_engine_tick(&pt->e);
	txn_engine_set_taken(&pt->e, NULL);
	if (ret < 0) {
		/* The route schedule broke a rule: nothing in flight can be trusted. */
		pr_err("txnet: %s: port traffic stopped at tick %llu: %s\n",
		       tn->name, pt->e.v.tick, pt->e.v.rule);
		WRITE_ONCE(pt->in_flight, 0);
	} else {
		collect(pt);
	}
	ret = !pt->in_flight;
	mutex_unlock(&pt->lock);
	return ret;
}

int txnet_ports_recv(struct txnet_net *tn, u32 node,
		     int (*put)(void *ctx, const struct txnet_msg *m), void *ctx)
{
	struct txnet_ports *pt = txnet_ports_of(tn);
	struct txnet_msg *m, *tmp;
	int n = 0;

	if (!pt)
		return 0;
	mutex_lock(&pt->lock);
	list_for_each_entry_safe(m, tmp, &pt->mbox[node], node) {
		if (put(ctx, m))
			break;
		list_del(&m->node);
		kfree(m);
		WRITE_ONCE(pt->unread, pt->unread - 1);
		n++;
	}
	mutex_unlock(&pt->lock);
	return n;
}
