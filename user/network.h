/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: the full network description the kernel sends in replies to
 * NEW and GET and in the NEW/DEL notifications; parsed defensively and
 * printed the same way by create, show and monitor.  The RUN reply and
 * the RUN_DONE notification are parsed the same way (ID, NAME, RUN_ID,
 * RESULT).
 */
#ifndef TXCTL_NETWORK_H
#define TXCTL_NETWORK_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/txnet.h>

#include "result.h"

struct txnet_dim {
	uint32_t size;
	uint32_t kind;		/* enum txnet_dim_kind, 0 if absent */
};

struct txnet_info {
	uint8_t cmd;		/* genl command of the message */
	uint64_t present;	/* bit (1 << TXNET_A_x) per valid attribute */
	uint32_t id;
	char name[TXNET_NAME_LEN];
	uint32_t topology;
	uint32_t base;
	uint32_t ndims;
	struct txnet_dim dims[TXNET_MAX_DIMS];
	uint32_t port_model;
	uint64_t tick_ns;
	char spec[384];
	uint32_t nodes;
	uint32_t switches;
	uint32_t links;
	uint32_t diameter;
	uint32_t state;
	uint64_t ticks;
	uint64_t mem_bytes;
	uint32_t run_id;	/* runs so far; in RUN and RUN_DONE, the run */
	uint64_t run_ticks;	/* while running */
	uint64_t run_delivered;
	uint64_t run_expected;	/* ... of how many */
	uint32_t ports_in_flight;	/* once ports were used */
	uint32_t ports_unread;
	struct txnet_res result;	/* valid if network_has(TXNET_A_RESULT) */
	uint64_t total_distance, as_bound, cut_bound;	/* products */
	bool netdev;		/* an interface per processor */
	uint64_t ports_dropped;	/* port packets a fault cut off */
	uint64_t fabric_hops;	/* link-hops of the interfaces' frames */
	/* faults in force, as GET lists them (TXNET_FAULTS_LISTED at most) */
	uint32_t ncables, cables[2 * TXNET_FAULTS_LISTED];
	uint32_t nnodes_down, nodes_down[TXNET_FAULTS_LISTED];
	uint64_t graph_digest;	/* graphs */
	uint32_t vertex_id;	/* GET with TXNET_A_NODE: its file number */
	bool diameter_at_least;	/* graphs: diameter is a lower bound only */
};

/*
 * [Dimakopoulos98]'s total exchange figures: total distance (and the average
 * distance from it, text only), the average-status and cut bounds.
 * @cut 0: none.
 */
void te_figures_print(uint64_t total, uint64_t as, uint64_t cut, uint32_t nodes);

static inline bool network_has(const struct txnet_info *ni, int attr)
{
	return ni->present & (1ULL << attr);
}

/* 0, or -EBADMSG if the message is not a txnet genl message. */
int network_parse(const struct nlmsghdr *nlh, struct txnet_info *ni);
/*
 * One network: one text line (two with the last run's result), or one
 * JSON object; event may be NULL.
 */
void network_print(const struct txnet_info *ni, const char *event);

/*
 * Network @name described (GET) into @ni, with its spec, port model and
 * processors: 0, or an errno, printed.
 */
struct txnl;
int network_get(struct txnl *nl, const char *name, struct txnet_info *ni);
/* As network_get(), quietly: txnl_request()'s errno, and whether a description came. */
int network_query(struct txnl *nl, const char *name, struct txnet_info *ni, bool *seen);

const char *port_model_name(uint32_t model);
/* enum txnet_port_model from "all"/"single", 0 if unknown */
uint32_t port_model_by_name(const char *name);

#endif /* TXCTL_NETWORK_H */
