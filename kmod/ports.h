/* SPDX-License-Identifier: GPL-2.0 */
/* Ports: user packets sent from one processor to another over the fabric. */
#ifndef TXNET_PORTS_H
#define TXNET_PORTS_H

#include <linux/list.h>
#include <linux/mutex.h>
#include "core/engine.h"

/* A packet that arrived at a port, waiting to be read. */
struct txnet_msg {
	struct list_head node;
	u32 src, dst, len;
	u64 sent_tick, recv_tick;
	u8 data[];
};

struct txnet_ports {
	struct mutex lock;		/* the engine, mailboxes, counters */
	struct txn_engine e;		/* open traffic, shortest paths */
	struct txnet_msg **slot_msg;	/* per slot: where it will be read */
	struct list_head *mbox;		/* per processor */
	u32 in_flight, unread;		/* WRITE_ONCE under lock: sysfs reads them */
	u64 dropped;			/* cut off by a fault: no way to their port */
	u64 charged;
};

struct txnet_net;

int txnet_ports_send(struct txnet_net *tn, u32 src, u32 dst, const void *data, u32 len,
		     const char **why);
/*
 * The tick thread's part: one tick; non-zero once nothing is in flight.
 * @taken (struct txn_taken): beside a run, what the run took this tick.
 */
int txnet_ports_step(struct txnet_net *tn, void *taken);
bool txnet_ports_busy(struct txnet_net *tn);
/* Under txnet_lock, after a fault changed: port packets routed around it, or dropped. */
void txnet_ports_faults(struct txnet_net *tn);
/*
 * Hand @node's packets, oldest first, to @put until it refuses one (non-zero);
 * the ones it took are gone from the mailbox.  Returns how many it took.
 */
int txnet_ports_recv(struct txnet_net *tn, u32 node,
		     int (*put)(void *ctx, const struct txnet_msg *m), void *ctx);
void txnet_ports_free(struct txnet_net *tn);

#endif /* TXNET_PORTS_H */
