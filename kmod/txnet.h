/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel shell's private header: the network object and the entry
 * points each file of kmod/ offers the others.
 */
#ifndef TXNET_H
#define TXNET_H

#include <linux/kobject.h>
#include <linux/ktime.h>
#include "fabric.h"
#include "fault.h"
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <net/net_namespace.h>
#include <uapi/linux/txnet.h>

#include "core/topology.h"
#include "core/bounds.h"
#include "run.h"
#include "ports.h"

/*
 * One network.  Lifetime (net.c): registered and destroyed under
 * txnet_lock; txnet_net_destroy() alone tears it down, in the order its
 * readers need: unpublish (netlink list, debugfs, sysfs), stop the thread,
 * free the run and the ports.  The struct, its graph and its charge go
 * with the kobject's last reference (sysfs, or a run being set up).
 */
struct txnet_net {
	struct list_head node;		/* txnet_nets, under txnet_lock */
	struct kobject kobj;		/* /sys/kernel/txnet/<name> */
	struct dentry *debugfs;		/* txnet/<name>/ in debugfs: test knobs */
	possible_net_t pnet;		/* the netns that created it */
	u32 id;
	char name[TXNET_NAME_LEN];
	bool dead;			/* destroyed: unlisted, under txnet_lock */

	struct txn_spec spec;
	char spec_str[TXN_SPEC_STR_MAX];	/* "torus 8 8" */
	struct txn_counts counts;
	struct txn_graph graph;
	struct txn_te_figures te;	/* products: set at creation */
	bool has_te;
	u64 digest;			/* graphs: txn_cables_digest() */
	u32 *vertex_id;			/* graphs: each vertex's file number, or NULL */
	bool diameter_at_least;		/* graphs: counts.diameter is a lower bound only */
	u64 mem_bytes;			/* charged to the mem_budget */

	/* settings, written under txnet_lock, read locklessly by sysfs */
	u32 port_model;
	u64 tick_ns;
	u32 fault;			/* debugfs, test-only: the next run's fault */

	/* the tick thread and what it publishes */
	struct task_struct *thread;
	wait_queue_head_t wq;
	u32 state;			/* enum txnet_state */
	u64 ticks;

	/*
	 * The run in progress: set by txnet_run_start() under txnet_lock
	 * while idle, owned by the tick thread from then on until it clears
	 * it and sets the state back to idle.
	 */
	struct txnet_run *run;
	u32 stop_run;			/* run id TXNET_CMD_STOP asked to stop */
	u32 runs;			/* run ids handed out */
	u64 run_ticks, run_delivered;	/* progress of the run in progress */
	u64 run_expected;		/* ... and the deliveries it must make, 0 until known */

	struct txnet_ports *ports;	/* created by the first send */
	struct txnet_fabric *fabric;	/* TXNET_A_NETDEV: the interfaces, set at creation */
	bool want_netdev;		/* ... asked for: txnet_net_register() makes them */
	struct txnet_faults faults;	/* cables cut, nodes down: fault.c */

	struct mutex res_lock;		/* guards last */
	struct txnet_result last;
};

/* main.c: module parameters */
extern unsigned int txnet_max_nodes;
extern unsigned long txnet_mem_budget;

/* net.c: the registry of networks, all under txnet_lock */
extern struct mutex txnet_lock;
extern struct list_head txnet_nets;
extern u32 txnet_generation;		/* bumped on every create/destroy, for dumps */

struct txnet_create_req {
	struct txn_spec spec;
	const char *name;		/* NULL: pick txnetN */
	u32 port_model;
	u64 tick_ns;
	bool netdev;			/* an interface per processor */
	/* TXNET_TOPO_GRAPH: spec.size[] holds the processors and switches */
	const u32 *cables;		/* ncables u32 pairs */
	u32 ncables;
	const u32 *vertex_ids;		/* nvertex_ids u32, NULL: none given */
	u32 nvertex_ids;
};

struct txnet_create_err {
	const char *msg;
	int dim;			/* as txn_spec_error */
	int field;
};

/*
 * Creation in two halves, so that the heavy part (validating, charging,
 * building the graph) runs without txnet_lock: txnet_net_prepare()
 * unlocked, then txnet_net_register() under txnet_lock, which publishes
 * the network or, on failure, frees it.
 */
struct txnet_net *txnet_net_prepare(struct net *net, const struct txnet_create_req *req,
				    struct txnet_create_err *err);
int txnet_net_register(struct txnet_net *tn, const char *name, struct txnet_create_err *err);

/* A spec's counts (core/spec.c) under max_nodes; a refusal fills @err. */
int txnet_spec_counts(struct txn_spec *spec, struct txn_counts *counts,
		      struct txnet_create_err *err);

/*
 * A graph from its list of cables (TXNET_TOPO_GRAPH, NEW and BOUNDS): its
 * counts (refusing what core/cables.c refuses, naming the attribute), the
 * scratch its building takes, then its graph.
 */
int txnet_cables_count(const struct txn_spec *spec, const u32 *cables, u32 ncables,
		       struct txn_counts *counts, struct txnet_create_err *err);
u64 txnet_cables_search_bytes(const struct txn_counts *counts);
int txnet_cables_graph(const struct txn_spec *spec, const u32 *cables, u32 ncables,
		       struct txn_counts *counts, struct txn_graph *g, bool *exact,
		       struct txnet_create_err *err);
void txnet_net_destroy(struct txnet_net *tn);

struct sk_buff;

/*
 * TXNET_CMD_BOUNDS (bounds.c): TXNET_A_SPEC and TXNET_A_BOUNDS of @spec
 * (validated here; a graph's from its @ncables @cables) into @skb; every
 * port model when @port_model is 0.
 */
/* TXNET_A_TOTAL_DISTANCE, _AS_BOUND and _CUT_BOUND (when nonzero). */
int txnet_put_te_figures(struct sk_buff *skb, const struct txn_te_figures *f);
/* TXNET_CMD_LATIN's reply (latin.c): S^@l of the MIN @spec. */
int txnet_latin_fill(struct sk_buff *skb, struct txn_spec *spec, u64 l,
		     struct txnet_create_err *err);
int txnet_bounds_fill(struct sk_buff *skb, struct txn_spec *spec, const u32 *cables, u32 ncables,
		      u32 port_model, u32 root, struct txnet_create_err *err);
void txnet_net_free(struct txnet_net *tn);
struct txnet_net *txnet_net_find(struct net *net, const char *name);

/* A reference that keeps the struct (not the network) alive outside txnet_lock. */
static inline void txnet_net_get(struct txnet_net *tn)
{
	kobject_get(&tn->kobj);
}

static inline void txnet_net_put(struct txnet_net *tn)
{
	kobject_put(&tn->kobj);
}
/* SET: each setting that is not NULL; NETDEV adds interfaces, never takes them away. */
int txnet_net_set(struct txnet_net *tn, const u32 *port_model, const u64 *tick_ns,
		  const bool *netdev, const char **why);
int txnet_pernet_init(void);
void txnet_pernet_exit(void);
void txnet_shutdown(void);

/* The ports, if a send created them. */
static inline struct txnet_ports *txnet_ports_of(struct txnet_net *tn)
{
	/* Pairs with the release in txnet_ports_send(): the ports are set up. */
	return smp_load_acquire(&tn->ports);
}

/* The interfaces' fabric, once published: the tick thread reads it without txnet_lock. */
static inline struct txnet_fabric *txnet_fabric_of(const struct txnet_net *tn)
{
	return smp_load_acquire(&tn->fabric);
}

/* What the network holds of mem_budget: itself, its interfaces' fabric and, once used, its ports. */
static inline u64 txnet_net_mem(struct txnet_net *tn)
{
	struct txnet_ports *pt = txnet_ports_of(tn);
	struct txnet_fabric *f = txnet_fabric_of(tn);

	return tn->mem_bytes + (pt ? pt->charged : 0) + (f ? f->charged : 0);
}

static inline struct net *txnet_net_ns(const struct txnet_net *tn)
{
	return read_pnet(&tn->pnet);
}

/* net.c: the memory budget */
int txnet_mem_charge(u64 bytes);
void txnet_mem_uncharge(u64 bytes);
u64 txnet_mem_used(void);
/* ... as the core charges a run's tables for routing around faults */
extern const struct txn_budget txnet_mem_charger;

/* debugfs.c: test-only knobs, not ABI */
void txnet_debugfs_init(void);
void txnet_debugfs_exit(void);
void txnet_debugfs_add(struct txnet_net *tn);
void txnet_debugfs_del(struct txnet_net *tn);

/* sysfs.c */
int txnet_sysfs_init(void);
void txnet_sysfs_exit(void);
int txnet_sysfs_add(struct txnet_net *tn);
void txnet_sysfs_del(struct txnet_net *tn);
void txnet_sysfs_put(struct txnet_net *tn);

/* links.c: what open traffic each link carried */
u64 txnet_link_hops(struct txnet_net *tn, u32 link);

/* tick.c: the one loop that advances a network, for runs and ports alike */
int txnet_tick_start(struct txnet_net *tn);
void txnet_tick_stop(struct txnet_net *tn);
/* In the tick thread: whether it must stop (destroy, or STOP of run @run_id). */
bool txnet_tick_halted(struct txnet_net *tn, u32 run_id);

/* netlink.c */
int txnet_genl_init(void);
void txnet_genl_exit(void);
void txnet_genl_notify_del(struct txnet_net *tn);
void txnet_genl_notify_run(struct txnet_net *tn);

/* names of enum values, for sysfs and messages */
const char *txnet_port_model_name(u32 model);
const char *txnet_state_name(u32 state);

#endif /* TXNET_H */
