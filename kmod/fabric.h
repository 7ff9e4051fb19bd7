/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live fabric: one Ethernet interface per processor, whose frames
 * the engine carries hop by hop (fabric.c).
 */
#ifndef TXNET_FABRIC_H
#define TXNET_FABRIC_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include "core/engine.h"
#include "core/paths.h"

/* Frames in flight per network: what its interfaces may have on the fabric at once. */
#define TXNET_FABRIC_SLOTS	256
/* A frame is a packet: its payload limit, Ethernet header included. */
#define TXNET_FABRIC_FRAME	TXNET_PAYLOAD_MAX

struct txnet_net;

struct txnet_fabric {
	/*
	 * The engine, the interfaces' table and counters: transmits (softirq)
	 * and the tick thread both take it, with bottom halves off.
	 */
	spinlock_t lock;
	struct txn_engine e;		/* open traffic, the route schedule */
	u32 *slot_src;			/* per slot: the processor that sent it */
	u32 *slot_root;			/* per slot: a broadcast's sender, or TXN_NONE */
	/* broadcast trees (fabric_tree.c), where there are no switches */
	struct txn_paths paths;
	u32 *tree_par;			/* procs x V: per sender, each vertex's in-link from its parent */
	u8 *tree_ok;			/* per sender: its row is searched */
	struct net_device **dev;	/* per processor; NULL once unregistered */
	u32 procs;
	u32 in_flight;			/* WRITE_ONCE under lock: the thread reads it */
	bool stopped;			/* transmit queues stopped for lack of slots */
	u64 charged;
};

/* Where an interface's frames enter the fabric. */
struct txnet_port_dev {
	struct txnet_net *tn;
	struct txnet_fabric *f;
	u32 node;
};

/* Interface names: "tx" + the network's name + the processor: does it fit? */
bool txnet_fabric_names_fit(const char *name, u32 procs);
/* Whether @tn may have interfaces: 0, or -E2BIG / -ENAMETOOLONG with *@why. */
int txnet_fabric_check(const struct txnet_net *tn, const char **why);
/* At creation, under txnet_lock: the interfaces, registered in the network's netns. */
int txnet_fabric_create(struct txnet_net *tn, const char **why);
/* Interfaces gone (takes RTNL); the engine stays for the thread until txnet_fabric_free(). */
void txnet_fabric_unregister(struct txnet_net *tn);
void txnet_fabric_free(struct txnet_net *tn);
/* fabric_tree.c: the broadcast trees */
u64 txnet_fabric_tree_bytes(const struct txn_graph *g);
int txnet_fabric_tree_init(struct txnet_fabric *f, const struct txn_graph *g, const u64 *down);
void txnet_fabric_tree_free(struct txnet_fabric *f);
void txnet_fabric_tree_flush(struct txnet_fabric *f);
const u32 *txnet_fabric_tree(struct txnet_fabric *f, u32 root);
bool txnet_fabric_busy(struct txnet_net *tn);
/*
 * Under txnet_lock, after a fault changed: frames routed around it, those
 * that cannot arrive any more dropped; @node's carrier follows its state
 * (U32_MAX: a cable, no carrier changes).
 */
void txnet_fabric_faults(struct txnet_net *tn, u32 node);
/* The tick thread's part: one tick; non-zero once nothing is in flight. */
int txnet_fabric_step(struct txnet_net *tn, const struct txn_taken *taken);
int txnet_fabric_init(void);
void txnet_fabric_exit(void);

#endif /* TXNET_FABRIC_H */
