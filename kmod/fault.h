/* SPDX-License-Identifier: GPL-2.0 */
/* Faults: cables cut and nodes down, and the links down they make (fault.c). */
#ifndef TXNET_FAULT_H
#define TXNET_FAULT_H

#include <linux/types.h>

struct txnet_net;
struct txn_graph;

struct txnet_faults {
	u64 *cut;		/* per directed link: its cable is cut */
	u64 *node_down;		/* per vertex */
	u64 *down;		/* per directed link: cut, or an end down; what engines read */
	u32 words;		/* of each link bitmap */
	u32 gen;		/* bumped on every change: runs compare it each tick */
	u32 ncut, nnodes;	/* cables cut, nodes down */
};

int txnet_faults_init(struct txnet_faults *f, const struct txn_graph *g);
void txnet_faults_free(struct txnet_faults *f);
/*
 * Under txnet_lock: the cable between vertices @u and @v (@link) or node
 * @u down or up; the engines of interface and port traffic follow at
 * once, a run at its next tick.  0, or -EINVAL with *@why.
 */
int txnet_fault_set(struct txnet_net *tn, bool link, u32 u, u32 v, bool up, const char **why);
/* The links down now, word by word, into @to (a run's own copy). */
void txnet_faults_copy(const struct txnet_faults *f, u64 *to);
bool txnet_node_is_down(const struct txnet_faults *f, u32 v);
bool txnet_link_is_down(const struct txnet_faults *f, u32 link);
/* Cables cut as "u-v" pairs (u < v), nodes down: lockless readers (sysfs, GET). */
int txnet_faults_cables(const struct txnet_net *tn, u32 *pairs, u32 max);
int txnet_faults_nodes(const struct txnet_net *tn, u32 *nodes, u32 max);

#endif /* TXNET_FAULT_H */
