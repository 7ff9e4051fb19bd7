// SPDX-License-Identifier: GPL-2.0
/*
 * What txnet's netlink replies and events carry: a network's attributes,
 * its last run's result with its proof of delivery, the ports and links
 * down, and the multicast events a deletion or a finished run sends.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

static int fill_dims(struct sk_buff *skb, const struct txn_spec *spec)
{
	struct nlattr *dims, *dim;
	u32 i;

	dims = nla_nest_start(skb, TXNET_A_DIMS);
	if (!dims)
		return -EMSGSIZE;
	for (i = 0; i < spec->ndims; i++) {
		dim = nla_nest_start(skb, i + 1);
		if (!dim ||
		    nla_put_u32(skb, TXNET_A_DIM_SIZE, spec->size[i]) ||
		    (spec->topo == TXNET_TOPO_PRODUCT &&
		     nla_put_u32(skb, TXNET_A_DIM_KIND, spec->kind[i])))
			return -EMSGSIZE;
		nla_nest_end(skb, dim);
	}
	nla_nest_end(skb, dims);
	return 0;
}

#define HAS(attr) txnet_result_has(r, attr)
#define PUT_U32(attr, v) (HAS(attr) && nla_put_u32(skb, attr, v))
#define PUT_U64(attr, v) (HAS(attr) && nla_put_u64_64bit(skb, attr, v, TXNET_A_RES_PAD))

static int fill_result(struct sk_buff *skb, const struct txnet_result *r)
{
	struct nlattr *nest;

	if (r->status == TXNET_RUN_NONE)
		return 0;
	nest = nla_nest_start(skb, TXNET_A_RESULT);
	if (!nest ||
	    PUT_U32(TXNET_A_RES_RUN_ID, r->run_id) ||
	    PUT_U32(TXNET_A_RES_STATUS, r->status) ||
	    PUT_U32(TXNET_A_RES_OP, r->op) ||
	    PUT_U32(TXNET_A_RES_ALGO, r->algo) ||
	    PUT_U32(TXNET_A_RES_PORT_MODEL, r->port_model) ||
	    PUT_U32(TXNET_A_RES_NODES, r->nodes) ||
	    PUT_U32(TXNET_A_RES_PAYLOAD, r->payload) ||
	    PUT_U64(TXNET_A_RES_SEED, r->seed) ||
	    PUT_U64(TXNET_A_RES_STEPS, r->steps) ||
	    PUT_U64(TXNET_A_RES_TICKS, r->ticks) ||
	    PUT_U64(TXNET_A_RES_LOWER_BOUND, r->lower_bound) ||
	    PUT_U64(TXNET_A_RES_EXPECTED_STEPS, r->expected_steps) ||
	    PUT_U64(TXNET_A_RES_TRANSMISSIONS, r->transmissions) ||
	    PUT_U64(TXNET_A_RES_DELIVERED, r->delivered) ||
	    PUT_U64(TXNET_A_RES_EXPECTED_DELIVERIES, r->expected_deliveries) ||
	    (HAS(TXNET_A_RES_VERIFIED) && nla_put_u8(skb, TXNET_A_RES_VERIFIED, r->verified)) ||
	    PUT_U64(TXNET_A_RES_WALL_NS, r->wall_ns) ||
	    PUT_U64(TXNET_A_RES_MAX_LATENESS_NS, r->max_lateness_ns) ||
	    PUT_U64(TXNET_A_RES_BUSY_NS, r->busy_ns) ||
	    PUT_U64(TXNET_A_RES_TICK_NS, r->tick_ns) ||
	    PUT_U32(TXNET_A_RES_SAMPLES, r->samples) ||
	    PUT_U32(TXNET_A_RES_SAMPLE_TICKS, r->sample_ticks) ||
	    PUT_U32(TXNET_A_RES_MAX_QUEUE, r->max_queue) ||
	    PUT_U32(TXNET_A_RES_MAX_QUEUE_NODE, r->max_queue_node) ||
	    (HAS(TXNET_A_RES_QUEUE_MAX) &&
	     nla_put(skb, TXNET_A_RES_QUEUE_MAX, r->queue_max_len * sizeof(u32), r->queue_max)) ||
	    (HAS(TXNET_A_RES_ERROR) && nla_put_string(skb, TXNET_A_RES_ERROR, r->error)) ||
	    PUT_U64(TXNET_A_RES_ERROR_TICK, r->error_tick) ||
	    PUT_U32(TXNET_A_RES_ERROR_NODE, r->error_node) ||
	    PUT_U32(TXNET_A_RES_ROOT, r->root) ||
	    (HAS(TXNET_A_RES_BOUND) && r->bound &&
	     nla_put_string(skb, TXNET_A_RES_BOUND, r->bound)) ||
	    PUT_U64(TXNET_A_RES_MIN_TRANSMISSIONS, r->min_transmissions) ||
	    (HAS(TXNET_A_RES_VALUES) &&
	     nla_put(skb, TXNET_A_RES_VALUES, r->values_len * sizeof(s64), r->values)) ||
	    PUT_U64(TXNET_A_RES_VALUES_SEED, r->values_seed) ||
	    PUT_U64(TXNET_A_RES_MAX_TICKS, r->max_ticks) ||
	    PUT_U64(TXNET_A_RES_CONFIG, r->config) ||
	    PUT_U32(TXNET_A_RES_CONFIG_X, r->config_x) ||
	    PUT_U32(TXNET_A_RES_BLOCK_STAGE, r->block_stage) ||
	    PUT_U32(TXNET_A_RES_BLOCK_SWITCH, r->block_switch) ||
	    (HAS(TXNET_A_RES_BLOCK_INPUTS) &&
	     nla_put(skb, TXNET_A_RES_BLOCK_INPUTS, sizeof(r->block_inputs), r->block_inputs)) ||
	    (HAS(TXNET_A_RES_ERROR_LINK) &&
	     nla_put(skb, TXNET_A_RES_ERROR_LINK, sizeof(r->error_link), r->error_link)) ||
	    PUT_U32(TXNET_A_RES_REROUTES, r->reroutes) ||
	    PUT_U32(TXNET_A_RES_LINKS_DOWN, r->links_down) ||
	    PUT_U64(TXNET_A_RES_SHARED_HOPS, r->shared_hops) ||
	    PUT_U64(TXNET_A_RES_FAULT_FREE_TICKS, r->fault_free_ticks) ||
	    PUT_U32(TXNET_A_RES_ERROR_MOVE, r->error_move) ||
	    PUT_U64(TXNET_A_RES_SAVED_STEPS, r->saved.nsteps))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

#undef PUT_U64
#undef PUT_U32
#undef HAS

static int fill_last(struct sk_buff *skb, struct txnet_net *tn)
{
	int ret;

	mutex_lock(&tn->res_lock);
	ret = fill_result(skb, &tn->last);
	mutex_unlock(&tn->res_lock);
	return ret;
}

static int fill_ports(struct sk_buff *skb, struct txnet_net *tn)
{
	struct txnet_ports *pt = txnet_ports_of(tn);

	if (!pt)
		return 0;
	return nla_put_u32(skb, TXNET_A_PORTS_IN_FLIGHT, READ_ONCE(pt->in_flight)) ||
	       nla_put_u32(skb, TXNET_A_PORTS_UNREAD, READ_ONCE(pt->unread)) ||
	       nla_put_u64_64bit(skb, TXNET_A_PORTS_DROPPED, READ_ONCE(pt->dropped), TXNET_A_PAD);
}

/* The faults in force, up to TXNET_FAULTS_LISTED of each kind; none: nothing. */
static int fill_faults(struct sk_buff *skb, struct txnet_net *tn)
{
	u32 *buf;
	int n, ret = 0;

	if (!READ_ONCE(tn->faults.ncut) && !READ_ONCE(tn->faults.nnodes))
		return 0;
	buf = kmalloc_array(2 * TXNET_FAULTS_LISTED, sizeof(u32), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = txnet_faults_cables(tn, buf, TXNET_FAULTS_LISTED);
	if (n && nla_put(skb, TXNET_A_CABLES_CUT, 2 * n * sizeof(u32), buf))
		ret = -EMSGSIZE;
	n = txnet_faults_nodes(tn, buf, TXNET_FAULTS_LISTED);
	if (!ret && n && nla_put(skb, TXNET_A_NODES_DOWN, n * sizeof(u32), buf))
		ret = -EMSGSIZE;
	kfree(buf);
	return ret;
}

/* Which network a message is about. */
int txnet_nl_put_ident(struct sk_buff *skb, const struct txnet_net *tn)
{
	return nla_put_u32(skb, TXNET_A_ID, tn->id) ||
	       nla_put_string(skb, TXNET_A_NAME, tn->name);
}

int txnet_nl_fill_net(struct sk_buff *skb, struct txnet_net *tn)
{
	if (txnet_nl_put_ident(skb, tn) ||
	    nla_put_u32(skb, TXNET_A_TOPOLOGY, tn->spec.topo) ||
	    (tn->spec.topo == TXNET_TOPO_BISWAPPED &&
	     nla_put_u32(skb, TXNET_A_BASE, tn->spec.base)) ||
	    fill_dims(skb, &tn->spec) ||
	    nla_put_u32(skb, TXNET_A_PORT_MODEL, READ_ONCE(tn->port_model)) ||
	    nla_put_u64_64bit(skb, TXNET_A_TICK_NS, READ_ONCE(tn->tick_ns), TXNET_A_PAD) ||
	    nla_put_string(skb, TXNET_A_SPEC, tn->spec_str) ||
	    nla_put_u32(skb, TXNET_A_NODES, tn->counts.procs) ||
	    nla_put_u32(skb, TXNET_A_SWITCHES, tn->counts.switches) ||
	    nla_put_u32(skb, TXNET_A_LINKS, tn->counts.links) ||
	    nla_put_u32(skb, TXNET_A_DIAMETER, tn->counts.diameter) ||
	    nla_put_u32(skb, TXNET_A_STATE, READ_ONCE(tn->state)) ||
	    nla_put_u64_64bit(skb, TXNET_A_TICKS, READ_ONCE(tn->ticks), TXNET_A_PAD) ||
	    nla_put_u64_64bit(skb, TXNET_A_MEM_BYTES, txnet_net_mem(tn), TXNET_A_PAD) ||
	    nla_put_u32(skb, TXNET_A_RUN_ID, tn->runs) ||
	    (READ_ONCE(tn->state) == TXNET_STATE_RUNNING &&
	     (nla_put_u64_64bit(skb, TXNET_A_RUN_TICKS, READ_ONCE(tn->run_ticks), TXNET_A_PAD) ||
	      nla_put_u64_64bit(skb, TXNET_A_RUN_DELIVERED, READ_ONCE(tn->run_delivered),
				TXNET_A_PAD) ||
	      (READ_ONCE(tn->run_expected) &&
	       nla_put_u64_64bit(skb, TXNET_A_RUN_EXPECTED, READ_ONCE(tn->run_expected),
				 TXNET_A_PAD)))))
		return -EMSGSIZE;
	if (tn->has_te && txnet_put_te_figures(skb, &tn->te))
		return -EMSGSIZE;
	if (tn->spec.topo == TXNET_TOPO_GRAPH &&
	    (nla_put_u64_64bit(skb, TXNET_A_GRAPH_DIGEST, tn->digest, TXNET_A_PAD) ||
	     (tn->diameter_at_least && nla_put_u8(skb, TXNET_A_DIAMETER_AT_LEAST, 1))))
		return -EMSGSIZE;
	if (txnet_fabric_of(tn) &&
	    (nla_put_u8(skb, TXNET_A_NETDEV, 1) ||
	     nla_put_u64_64bit(skb, TXNET_A_FABRIC_HOPS,
			       READ_ONCE(txnet_fabric_of(tn)->e.transmissions), TXNET_A_PAD)))
		return -EMSGSIZE;
	if (fill_ports(skb, tn) || fill_faults(skb, tn))
		return -EMSGSIZE;
	return fill_last(skb, tn);
}

/* A whole message describing @tn, or NULL. */
struct sk_buff *txnet_nl_net_msg(struct txnet_net *tn, u8 cmd, u32 portid, u32 seq)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, portid, seq, &txnet_family, 0, cmd);
	if (!hdr || txnet_nl_fill_net(skb, tn)) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	return skb;
}

static void notify(struct txnet_net *tn, u8 cmd)
{
	struct sk_buff *skb = txnet_nl_net_msg(tn, cmd, 0, 0);

	if (skb)
		genlmsg_multicast_netns(&txnet_family, txnet_net_ns(tn), skb, 0,
					TXNET_MCGRP_EVENTS_ID, GFP_KERNEL);
}

void txnet_genl_notify_del(struct txnet_net *tn)
{
	notify(tn, TXNET_CMD_DEL);
}

/* RUN_DONE: the last result, who ran it, without the network's details. */
void txnet_genl_notify_run(struct txnet_net *tn)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &txnet_family, 0, TXNET_CMD_RUN_DONE);
	mutex_lock(&tn->res_lock);
	ret = !hdr || txnet_nl_put_ident(skb, tn) ||
	      nla_put_u32(skb, TXNET_A_RUN_ID, tn->last.run_id) ||
	      fill_result(skb, &tn->last);
	mutex_unlock(&tn->res_lock);
	if (ret) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&txnet_family, txnet_net_ns(tn), skb, 0,
				TXNET_MCGRP_EVENTS_ID, GFP_KERNEL);
}
