// SPDX-License-Identifier: GPL-2.0
/*
 * The txnet generic netlink family: the only way to create, inspect,
 * change and destroy networks.  Every rejection carries an extack message
 * and points at the attribute at fault.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "txnet.h"
#include "core/series.h"

static struct genl_family txnet_family;

enum txnet_mcgrp { TXNET_MCGRP_EVENTS_ID };

static const struct genl_multicast_group txnet_mcgrps[] = {
	[TXNET_MCGRP_EVENTS_ID] = { .name = TXNET_MCGRP_EVENTS },
};

/*
 * Policies check types and ranges, so that `genl ctrl policy txnet` (and
 * any other reader of the policy dump) is the documentation of what is
 * accepted; the core's refusal then carries NLMSGERR_ATTR_OFFS and the
 * range in NLMSGERR_ATTR_POLICY.  What depends on the network (node
 * numbers, sizes) is checked in code, with messages naming the field.
 */
static const struct nla_policy txnet_dim_policy[TXNET_A_DIM_MAX + 1] = {
	[TXNET_A_DIM_SIZE] = { .type = NLA_U32 },
	[TXNET_A_DIM_KIND] = NLA_POLICY_RANGE(NLA_U32, TXNET_DIM_LINEAR, TXNET_DIM_MAX),
};

/* NLA_POLICY_RANGE() bounds are s16; 6.1's range pointer is not const. */
static struct netlink_range_validation txnet_tick_range = {
	.min = 0,
	.max = TXNET_TICK_NS_MAX,
};

#define TXNET_NAME_POLICY { .type = NLA_NUL_STRING, .len = TXNET_NAME_LEN - 1 }
#define TXNET_TOPO_POLICY NLA_POLICY_RANGE(NLA_U32, 1, TXNET_TOPO_MAX)
#define TXNET_PORT_POLICY NLA_POLICY_RANGE(NLA_U32, TXNET_PORT_ALL, TXNET_PORT_MAX)
#define TXNET_TICK_POLICY NLA_POLICY_FULL_RANGE(NLA_U64, &txnet_tick_range)
#define TXNET_READ_ONLY { .type = NLA_REJECT, .reject_message = "attribute is read-only" }

static const struct nla_policy txnet_new_policy[TXNET_A_LINK + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_TOPOLOGY] = TXNET_TOPO_POLICY,
	[TXNET_A_BASE] = TXNET_TOPO_POLICY,
	[TXNET_A_DIMS] = NLA_POLICY_NESTED_ARRAY(txnet_dim_policy),
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_TICK_NS] = TXNET_TICK_POLICY,
	[TXNET_A_SPEC ... TXNET_A_MEM_BYTES] = TXNET_READ_ONLY,
	[TXNET_A_NETDEV] = NLA_POLICY_MAX(NLA_U8, 1),
	[TXNET_A_CABLES_CUT ... TXNET_A_LINK] = TXNET_READ_ONLY,
};

static const struct nla_policy txnet_name_policy[TXNET_A_NAME + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
};

static const struct nla_policy txnet_run_policy[TXNET_A_SERIES + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_OP] = NLA_POLICY_RANGE(NLA_U32, 1, TXNET_OP_MAX),
	[TXNET_A_ALGO] = NLA_POLICY_MAX(NLA_U32, TXNET_ALGO_MAX),
	[TXNET_A_PAYLOAD] = NLA_POLICY_MAX(NLA_U32, TXNET_PAYLOAD_MAX),
	[TXNET_A_SEED] = { .type = NLA_U64 },
	[TXNET_A_UNUSED_21] = {
		.type = NLA_REJECT,
		.reject_message = "faults are test-only: debugfs txnet/<net>/fault",
	},
	[TXNET_A_ROOT] = { .type = NLA_U32 },
	/* s64 per value: checked against the operation and the nodes in txn_run_check() */
	[TXNET_A_VALUES] = { .type = NLA_BINARY },
	[TXNET_A_VALUES_SEED] = { .type = NLA_U64 },
	[TXNET_A_MAX_TICKS] = { .type = NLA_U64 },
	[TXNET_A_BOUNDS ... TXNET_A_CUT_BOUND] = TXNET_READ_ONLY,
	/* checked against the schedule and N in txnet_run_start() */
	[TXNET_A_CONFIG] = { .type = NLA_U64 },
	[TXNET_A_LATIN] = TXNET_READ_ONLY,
	/* u32 per processor: checked against the nodes in txn_run_check() */
	[TXNET_A_DESTS] = { .type = NLA_BINARY },
	/* u32 per switch row: checked against the schedule and N in txnet_run_start() */
	[TXNET_A_CONFIG_ROWS] = { .type = NLA_BINARY },
	[TXNET_A_RUN_EXPECTED] = TXNET_READ_ONLY,
	[TXNET_A_RECORD] = NLA_POLICY_MAX(NLA_U8, 1),
	[TXNET_A_SERIES] = TXNET_READ_ONLY,
};

static const struct nla_policy txnet_bounds_policy[TXNET_A_ROOT + 1] = {
	[TXNET_A_TOPOLOGY] = TXNET_TOPO_POLICY,
	[TXNET_A_BASE] = TXNET_TOPO_POLICY,
	[TXNET_A_DIMS] = NLA_POLICY_NESTED_ARRAY(txnet_dim_policy),
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_ROOT] = { .type = NLA_U32 },
};

static const struct nla_policy txnet_latin_policy[TXNET_A_CONFIG + 1] = {
	[TXNET_A_TOPOLOGY] = TXNET_TOPO_POLICY,
	[TXNET_A_BASE] = TXNET_TOPO_POLICY,
	[TXNET_A_DIMS] = NLA_POLICY_NESTED_ARRAY(txnet_dim_policy),
	[TXNET_A_CONFIG] = { .type = NLA_U64 },
};

static const struct nla_policy txnet_send_policy[TXNET_A_DATA + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_SRC] = { .type = NLA_U32 },
	[TXNET_A_DST] = { .type = NLA_U32 },
	[TXNET_A_DATA] = { .type = NLA_BINARY, .len = TXNET_PORT_DATA_MAX },
};

static const struct nla_policy txnet_recv_policy[TXNET_A_NODE + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_NODE] = { .type = NLA_U32 },
};

static const struct nla_policy txnet_fault_policy[TXNET_A_UP + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_SRC] = { .type = NLA_U32 },
	[TXNET_A_DST] = { .type = NLA_U32 },
	[TXNET_A_NODE] = { .type = NLA_U32 },
	[TXNET_A_UP] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy txnet_set_policy[TXNET_A_LINK + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_TICK_NS] = TXNET_TICK_POLICY,
	[TXNET_A_SPEC ... TXNET_A_MEM_BYTES] = TXNET_READ_ONLY,
	[TXNET_A_NETDEV] = NLA_POLICY_MAX(NLA_U8, 1),
	[TXNET_A_CABLES_CUT ... TXNET_A_LINK] = TXNET_READ_ONLY,
};

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
	    PUT_U64(TXNET_A_RES_FAULT_FREE_TICKS, r->fault_free_ticks))
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
static int put_ident(struct sk_buff *skb, const struct txnet_net *tn)
{
	return nla_put_u32(skb, TXNET_A_ID, tn->id) ||
	       nla_put_string(skb, TXNET_A_NAME, tn->name);
}

static int fill_net(struct sk_buff *skb, struct txnet_net *tn)
{
	if (put_ident(skb, tn) ||
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
static struct sk_buff *net_msg(struct txnet_net *tn, u8 cmd, u32 portid, u32 seq)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, portid, seq, &txnet_family, 0, cmd);
	if (!hdr || fill_net(skb, tn)) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	return skb;
}

static void notify(struct txnet_net *tn, u8 cmd)
{
	struct sk_buff *skb = net_msg(tn, cmd, 0, 0);

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
	ret = !hdr || put_ident(skb, tn) ||
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

/*
 * GENL_REQ_ATTR_CHECK() only marks the missing attribute; clients that
 * print the extack message need words too.
 */
static bool missing(struct genl_info *info, int type, const char *msg)
{
	if (!GENL_REQ_ATTR_CHECK(info, type))
		return false;
	if (info->extack)
		info->extack->_msg = msg;
	return true;
}

/*
 * What GENL_ADMIN_PERM checks (netlink_capable(skb, CAP_NET_ADMIN)), done
 * in the handler: genetlink's own check refuses without a message.
 */
static bool not_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return false;
	GENL_SET_ERR_MSG(info, "changing txnet networks needs CAP_NET_ADMIN");
	return true;
}

/* The network a request names, or an ERR_PTR with an extack message. */
static struct txnet_net *lookup(struct genl_info *info)
{
	struct txnet_net *tn;

	if (missing(info, TXNET_A_NAME, "network name (TXNET_A_NAME) is required"))
		return ERR_PTR(-EINVAL);
	tn = txnet_net_find(genl_info_net(info), nla_data(info->attrs[TXNET_A_NAME]));
	if (!tn) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TXNET_A_NAME],
				    "no network with this name in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	return tn;
}

/* Where each dimension's attributes are, to point errors at them. */
struct dim_attrs {
	struct nlattr *nest[TXNET_MAX_DIMS];
	struct nlattr *size[TXNET_MAX_DIMS];
	struct nlattr *kind[TXNET_MAX_DIMS];
};

static int parse_dims(struct genl_info *info, struct txn_spec *spec, struct dim_attrs *where)
{
	struct nlattr *tb[TXNET_A_DIM_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *dim;
	int rem, ret;

	if (missing(info, TXNET_A_DIMS, "dimensions (TXNET_A_DIMS) are required"))
		return -EINVAL;
	nla_for_each_nested(dim, info->attrs[TXNET_A_DIMS], rem) {
		if (spec->ndims == TXNET_MAX_DIMS) {
			NL_SET_ERR_MSG_ATTR(extack, dim, "too many dimensions (at most 16)");
			return -EINVAL;
		}
		ret = nla_parse_nested(tb, TXNET_A_DIM_MAX, dim, txnet_dim_policy, extack);
		if (ret)
			return ret;
		if (!tb[TXNET_A_DIM_SIZE]) {
			NL_SET_ERR_ATTR_MISS(extack, dim, TXNET_A_DIM_SIZE);
			NL_SET_ERR_MSG_ATTR(extack, dim, "dimension size is missing");
			return -EINVAL;
		}
		if (tb[TXNET_A_DIM_KIND] && spec->topo != TXNET_TOPO_PRODUCT) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TXNET_A_DIM_KIND],
					    "dimension kind is only for a product");
			return -EINVAL;
		}
		where->nest[spec->ndims] = dim;
		where->size[spec->ndims] = tb[TXNET_A_DIM_SIZE];
		where->kind[spec->ndims] = tb[TXNET_A_DIM_KIND];
		spec->size[spec->ndims] = nla_get_u32(tb[TXNET_A_DIM_SIZE]);
		spec->kind[spec->ndims] = tb[TXNET_A_DIM_KIND] ?
					  nla_get_u32(tb[TXNET_A_DIM_KIND]) : 0;
		spec->ndims++;
	}
	if (!spec->ndims) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[TXNET_A_DIMS],
				    "at least one dimension is required");
		return -EINVAL;
	}
	return 0;
}

static int parse_spec(struct genl_info *info, struct txn_spec *spec, struct dim_attrs *where)
{
	struct nlattr **attrs = info->attrs;

	if (missing(info, TXNET_A_TOPOLOGY, "topology (TXNET_A_TOPOLOGY) is required"))
		return -EINVAL;
	spec->topo = nla_get_u32(attrs[TXNET_A_TOPOLOGY]);
	if (spec->topo == TXNET_TOPO_BISWAPPED) {
		if (missing(info, TXNET_A_BASE, "a biswapped network needs a base (TXNET_A_BASE)"))
			return -EINVAL;
		spec->base = nla_get_u32(attrs[TXNET_A_BASE]);
	} else if (attrs[TXNET_A_BASE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_BASE],
				    "base is only for a biswapped network");
		return -EINVAL;
	}
	return parse_dims(info, spec, where);
}

/*
 * NL_SET_ERR_MSG_ATTR() wants a string literal; the core's messages are
 * static strings chosen at run time.
 */
static void set_err(struct netlink_ext_ack *extack, const struct nlattr *at, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = at;
}

/* Point the extack at the attribute a core or registry refusal names. */
static void report(struct genl_info *info, const struct dim_attrs *where,
		   const struct txnet_create_err *err)
{
	struct nlattr *at = NULL;
	int d = err->dim;

	if (d >= 0 && d < TXNET_MAX_DIMS) {
		at = where->nest[d];
		if (err->field == TXNET_A_DIM_SIZE)
			at = where->size[d];
		else if (err->field == TXNET_A_DIM_KIND && where->kind[d])
			at = where->kind[d];
	} else if (err->field > 0 && err->field <= TXNET_A_MAX) {
		at = info->attrs[err->field];
	}
	set_err(info->extack, at, err->msg);
}

static int txnet_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txnet_create_req req = { .spec.ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct sk_buff *reply, *event;
	struct txnet_net *tn;
	void *hdr;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;

	ret = parse_spec(info, &req.spec, &where);
	if (ret)
		return ret;
	if (info->attrs[TXNET_A_NAME])
		req.name = nla_data(info->attrs[TXNET_A_NAME]);
	if (info->attrs[TXNET_A_PORT_MODEL])
		req.port_model = nla_get_u32(info->attrs[TXNET_A_PORT_MODEL]);
	if (info->attrs[TXNET_A_TICK_NS])
		req.tick_ns = nla_get_u64(info->attrs[TXNET_A_TICK_NS]);
	req.netdev = info->attrs[TXNET_A_NETDEV] && nla_get_u8(info->attrs[TXNET_A_NETDEV]);

	/* Allocated first so that, once the network exists, answering cannot fail. */
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	event = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply || !event) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		ret = -ENOMEM;
		goto err_free;
	}

	/* The graph is built before the lock is taken: other requests go on meanwhile. */
	tn = txnet_net_prepare(genl_info_net(info), &req, &err);
	if (IS_ERR(tn)) {
		report(info, &where, &err);
		ret = PTR_ERR(tn);
		goto err_free;
	}
	mutex_lock(&txnet_lock);
	ret = txnet_net_register(tn, req.name, &err);
	if (ret) {
		mutex_unlock(&txnet_lock);
		report(info, &where, &err);
		goto err_free;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_NEW);
	if (!hdr || fill_net(reply, tn))
		goto err_fill;
	genlmsg_end(reply, hdr);
	hdr = genlmsg_put(event, 0, 0, &txnet_family, 0, TXNET_CMD_NEW);
	if (!hdr || fill_net(event, tn))
		goto err_fill;
	genlmsg_end(event, hdr);
	mutex_unlock(&txnet_lock);

	genlmsg_multicast_netns(&txnet_family, genl_info_net(info), event, 0,
				TXNET_MCGRP_EVENTS_ID, GFP_KERNEL);
	return genlmsg_reply(reply, info);

err_fill:
	/* Cannot happen with NLMSG_GOODSIZE; undo rather than leave a network nobody heard of. */
	txnet_net_destroy(tn);
	mutex_unlock(&txnet_lock);
	GENL_SET_ERR_MSG(info, "the network's description does not fit in one message");
	ret = -EMSGSIZE;
err_free:
	nlmsg_free(reply);
	nlmsg_free(event);
	return ret;
}

static int txnet_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *event;
	struct txnet_net *tn;

	if (not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		return PTR_ERR(tn);
	}
	/* The announcement first: a destroy nobody hears of is refused, not done. */
	event = net_msg(tn, TXNET_CMD_DEL, 0, 0);
	if (!event) {
		mutex_unlock(&txnet_lock);
		GENL_SET_ERR_MSG(info, "out of memory for the destroy notification");
		return -ENOMEM;
	}
	/* Before the destroy: a stopped run's RUN_DONE follows its DEL. */
	genlmsg_multicast_netns(&txnet_family, genl_info_net(info), event, 0,
				TXNET_MCGRP_EVENTS_ID, GFP_KERNEL);
	txnet_net_destroy(tn);
	mutex_unlock(&txnet_lock);
	return 0;
}

static int txnet_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *reply;
	struct txnet_net *tn;
	void *hdr;
	int ret;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto err;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_GET);
	ret = -EMSGSIZE;
	if (!hdr || fill_net(reply, tn)) {
		GENL_SET_ERR_MSG(info, "the network's description does not fit in one message");
		goto err;
	}
	genlmsg_end(reply, hdr);
	mutex_unlock(&txnet_lock);
	return genlmsg_reply(reply, info);
err:
	mutex_unlock(&txnet_lock);
	nlmsg_free(reply);
	return ret;
}

/*
 * Dumps resume by network id (ids only grow and the list is in id order).
 * A NAME in the request narrows the dump to that network.
 */
static int txnet_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *only = txnet_dump_attrs(cb)[TXNET_A_NAME];
	struct net *net = sock_net(skb->sk);
	u32 next = cb->args[0];
	struct txnet_net *tn;
	void *hdr;

	mutex_lock(&txnet_lock);
	cb->seq = txnet_generation;
	list_for_each_entry(tn, &txnet_nets, node) {
		if (tn->id < next || !net_eq(txnet_net_ns(tn), net) ||
		    (only && strcmp(tn->name, nla_data(only))))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &txnet_family, NLM_F_MULTI, TXNET_CMD_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (fill_net(skb, tn)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		next = tn->id + 1;
	}
	mutex_unlock(&txnet_lock);
	cb->args[0] = next;
	return skb->len;
}

static int txnet_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	u32 model, *pmodel = NULL;
	u64 ns, *pns = NULL;
	bool netdev, *pnetdev = NULL;
	struct txnet_net *tn;
	const char *why;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;

	if (attrs[TXNET_A_PORT_MODEL]) {
		model = nla_get_u32(attrs[TXNET_A_PORT_MODEL]);
		pmodel = &model;
	}
	if (attrs[TXNET_A_TICK_NS]) {
		ns = nla_get_u64(attrs[TXNET_A_TICK_NS]);
		pns = &ns;
	}
	if (attrs[TXNET_A_NETDEV]) {
		netdev = nla_get_u8(attrs[TXNET_A_NETDEV]);
		pnetdev = &netdev;
	}
	if (!pmodel && !pns && !pnetdev) {
		GENL_SET_ERR_MSG(info, "nothing to set: give port_model, tick_ns or netdev");
		return -EINVAL;
	}
	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		return PTR_ERR(tn);
	}
	ret = txnet_net_set(tn, pmodel, pns, pnetdev, &why);
	mutex_unlock(&txnet_lock);
	if (ret)
		set_err(info->extack, !strncmp(why, "netdev:", 7) ? attrs[TXNET_A_NETDEV] : NULL, why);
	return ret;
}

/* Root, values and tick limit of a RUN request. */
static int parse_collective(struct genl_info *info, struct txnet_run_req *req)
{
	struct nlattr **attrs = info->attrs, *vals = attrs[TXNET_A_VALUES];

	if (attrs[TXNET_A_ROOT] && !txn_op_has_root(req->op)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_ROOT],
				    "root: only broadcast, scatter, gather and accumulate have a root");
		return -EINVAL;
	}
	req->root = attrs[TXNET_A_ROOT] ? nla_get_u32(attrs[TXNET_A_ROOT]) : 0;
	if ((vals || attrs[TXNET_A_VALUES_SEED]) && !txn_op_combines(req->op)) {
		NL_SET_ERR_MSG_ATTR(info->extack, vals ? vals : attrs[TXNET_A_VALUES_SEED],
				    "values: only combining operations (accumulate, multinode-accumulate, prefix-sum, data-sum) take values");
		return -EINVAL;
	}
	if (vals && attrs[TXNET_A_VALUES_SEED]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_VALUES_SEED],
				    "values_seed: give values or values_seed, not both");
		return -EINVAL;
	}
	if (vals) {
		if (!nla_len(vals) || nla_len(vals) % sizeof(s64)) {
			NL_SET_ERR_MSG_ATTR(info->extack, vals,
					    "values: a non-empty array of s64, 8 bytes each");
			return -EINVAL;
		}
		req->values = nla_data(vals);
		req->nvalues = nla_len(vals) / sizeof(s64);
	}
	req->values_seed = attrs[TXNET_A_VALUES_SEED] ? nla_get_u64(attrs[TXNET_A_VALUES_SEED]) :
			   get_random_u64() % 1000000;
	req->max_ticks = attrs[TXNET_A_MAX_TICKS] ? nla_get_u64(attrs[TXNET_A_MAX_TICKS]) : 0;
	req->has_config = attrs[TXNET_A_CONFIG];
	req->config = req->has_config ? nla_get_u64(attrs[TXNET_A_CONFIG]) : 0;
	if (attrs[TXNET_A_CONFIG_ROWS]) {
		if (attrs[TXNET_A_CONFIG]) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_CONFIG_ROWS],
					    "config_rows: give config or config_rows, not both");
			return -EINVAL;
		}
		if (!nla_len(attrs[TXNET_A_CONFIG_ROWS]) ||
		    nla_len(attrs[TXNET_A_CONFIG_ROWS]) % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_CONFIG_ROWS],
					    "config_rows: a non-empty array of u32, 4 bytes each");
			return -EINVAL;
		}
		req->config_rows = nla_data(attrs[TXNET_A_CONFIG_ROWS]);
		req->nrows = nla_len(attrs[TXNET_A_CONFIG_ROWS]) / sizeof(u32);
	}
	if (attrs[TXNET_A_DESTS] && req->op != TXNET_OP_PERMUTATION) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_DESTS],
				    "dests: only a permutation takes destinations");
		return -EINVAL;
	}
	if (attrs[TXNET_A_DESTS]) {
		if (!nla_len(attrs[TXNET_A_DESTS]) || nla_len(attrs[TXNET_A_DESTS]) % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_DESTS],
					    "dests: a non-empty array of u32, 4 bytes each");
			return -EINVAL;
		}
		req->dests = nla_data(attrs[TXNET_A_DESTS]);
		req->ndests = nla_len(attrs[TXNET_A_DESTS]) / sizeof(u32);
	}
	return 0;
}

/* The attribute a refusal's message names ("root: ..."), for the extack offset. */
static const struct nlattr *refused_attr(struct nlattr **attrs, const char *why)
{
	static const struct {
		const char *prefix;
		int attr;
	} fields[] = {
		{ "root:", TXNET_A_ROOT }, { "values:", TXNET_A_VALUES },
		{ "payload:", TXNET_A_PAYLOAD }, { "op:", TXNET_A_OP }, { "algo:", TXNET_A_ALGO },
		{ "config:", TXNET_A_CONFIG }, { "dests:", TXNET_A_DESTS },
		{ "config_rows:", TXNET_A_CONFIG_ROWS }, { "record:", TXNET_A_RECORD },
	};
	u32 i;

	for (i = 0; why && i < ARRAY_SIZE(fields); i++)
		if (!strncmp(why, fields[i].prefix, strlen(fields[i].prefix)))
			return attrs[fields[i].attr];
	return NULL;
}

static int txnet_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct txnet_run_req req = {};
	struct txnet_net *tn;
	struct sk_buff *reply;
	const char *why = NULL;
	u32 run_id;
	void *hdr;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;

	if (missing(info, TXNET_A_OP, "operation (TXNET_A_OP) is required"))
		return -EINVAL;
	req.op = nla_get_u32(attrs[TXNET_A_OP]);
	req.algo = attrs[TXNET_A_ALGO] ? nla_get_u32(attrs[TXNET_A_ALGO]) : TXNET_ALGO_AUTO;
	/* Combining operations carry values, not payloads. */
	req.payload = attrs[TXNET_A_PAYLOAD] ? nla_get_u32(attrs[TXNET_A_PAYLOAD]) :
		      txn_op_combines(req.op) ? 0 : 8;
	req.seed = attrs[TXNET_A_SEED] ? nla_get_u64(attrs[TXNET_A_SEED]) : get_random_u64();
	req.record = attrs[TXNET_A_RECORD] && nla_get_u8(attrs[TXNET_A_RECORD]);
	ret = parse_collective(info, &req);
	if (ret)
		return ret;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		nlmsg_free(reply);
		return PTR_ERR(tn);
	}
	/* The run is set up outside txnet_lock: the reference keeps tn's memory. */
	txnet_net_get(tn);
	mutex_unlock(&txnet_lock);

	ret = txnet_run_start(tn, &req, &why, &run_id);
	if (ret) {
		set_err(info->extack, ret == -EOPNOTSUPP ? attrs[TXNET_A_ALGO] :
				      refused_attr(attrs, why), why);
		goto err;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_RUN);
	/* Cannot fail with NLMSG_GOODSIZE; the run goes on either way. */
	if (!hdr || put_ident(reply, tn) ||
	    nla_put_u32(reply, TXNET_A_RUN_ID, run_id)) {
		GENL_SET_ERR_MSG(info, "the run started but its reply did not fit");
		ret = -EMSGSIZE;
		goto err;
	}
	genlmsg_end(reply, hdr);
	txnet_net_put(tn);
	return genlmsg_reply(reply, info);
err:
	txnet_net_put(tn);
	nlmsg_free(reply);
	return ret;
}

static int txnet_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txnet_net *tn;
	int ret = 0;

	if (not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
	} else if (READ_ONCE(tn->state) != TXNET_STATE_RUNNING) {
		GENL_SET_ERR_MSG(info, "no exchange is running on this network");
		ret = -ENOENT;
	} else {
		txnet_run_stop(tn);
	}
	mutex_unlock(&txnet_lock);
	return ret;
}

/* A processor number of @tn, or an extack message naming the attribute. */
static int get_node(struct genl_info *info, struct txnet_net *tn, int type, u32 *node)
{
	static const char * const need[] = {
		[TXNET_A_SRC] = "source node (TXNET_A_SRC) is required",
		[TXNET_A_DST] = "destination node (TXNET_A_DST) is required",
		[TXNET_A_NODE] = "node (TXNET_A_NODE) is required",
	};
	static const char * const bad[] = {
		[TXNET_A_SRC] = "source node is not a processor of this network",
		[TXNET_A_DST] = "destination node is not a processor of this network",
		[TXNET_A_NODE] = "node is not a processor of this network",
	};

	if (missing(info, type, need[type]))
		return -EINVAL;
	*node = nla_get_u32(info->attrs[type]);
	if (*node >= tn->counts.procs) {
		set_err(info->extack, info->attrs[type], bad[type]);
		return -EINVAL;
	}
	return 0;
}

/* A vertex of @tn (switches too: a MIN's cables join them), or an extack naming @type. */
static int get_vertex(struct genl_info *info, struct txnet_net *tn, int type, u32 *v)
{
	*v = nla_get_u32(info->attrs[type]);
	if (*v >= tn->counts.nodes) {
		set_err(info->extack, info->attrs[type], "no such node in this network");
		return -EINVAL;
	}
	return 0;
}

/*
 * FAULT: a cable (SRC and DST) or a node (NODE) down or up.  Either one
 * or the other; UP is required, so that a request never means the
 * opposite of what a reader of it assumes.
 */
static int txnet_fault_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	bool link = a[TXNET_A_SRC] || a[TXNET_A_DST];
	struct txnet_net *tn;
	const char *why = NULL;
	u32 u = 0, v = 0;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;
	if (missing(info, TXNET_A_UP, "state (TXNET_A_UP: 0 down, 1 up) is required"))
		return -EINVAL;
	if (link && a[TXNET_A_NODE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[TXNET_A_NODE],
				    "a node (TXNET_A_NODE) or a cable (TXNET_A_SRC and TXNET_A_DST), not both");
		return -EINVAL;
	}
	if (!link && !a[TXNET_A_NODE]) {
		GENL_SET_ERR_MSG(info, "a node (TXNET_A_NODE) or a cable (TXNET_A_SRC and TXNET_A_DST) is required");
		return -EINVAL;
	}
	if (link && (missing(info, TXNET_A_SRC, "the cable's first node (TXNET_A_SRC) is required") ||
		     missing(info, TXNET_A_DST, "the cable's second node (TXNET_A_DST) is required")))
		return -EINVAL;

	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	if (link)
		ret = get_vertex(info, tn, TXNET_A_SRC, &u) ?: get_vertex(info, tn, TXNET_A_DST, &v);
	else
		ret = get_node(info, tn, TXNET_A_NODE, &u);
	if (ret)
		goto out;
	ret = txnet_fault_set(tn, link, u, v, nla_get_u8(a[TXNET_A_UP]), &why);
	if (ret)
		set_err(info->extack, a[TXNET_A_DST], why);
out:
	mutex_unlock(&txnet_lock);
	return ret;
}

static int txnet_send_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *data = info->attrs[TXNET_A_DATA];
	struct txnet_net *tn;
	const char *why = NULL;
	u32 src, dst;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	ret = get_node(info, tn, TXNET_A_SRC, &src);
	if (!ret)
		ret = get_node(info, tn, TXNET_A_DST, &dst);
	if (ret)
		goto out;
	if (src == dst) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TXNET_A_DST],
				    "source and destination are the same node");
		ret = -EINVAL;
		goto out;
	}
	ret = txnet_ports_send(tn, src, dst, data ? nla_data(data) : NULL,
			       data ? nla_len(data) : 0, &why);
	if (ret)
		set_err(info->extack, NULL, why);
out:
	mutex_unlock(&txnet_lock);
	return ret;
}

/* One element of TXNET_A_MSGS; non-zero when the reply is full. */
struct recv_ctx {
	struct sk_buff *skb;
	int idx;
};

static int put_msg(void *arg, const struct txnet_msg *m)
{
	struct recv_ctx *ctx = arg;
	struct sk_buff *skb = ctx->skb;
	struct nlattr *nest = nla_nest_start(skb, ctx->idx + 1);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TXNET_A_MSG_SRC, m->src) ||
	    nla_put_u32(skb, TXNET_A_MSG_DST, m->dst) ||
	    nla_put(skb, TXNET_A_MSG_DATA, m->len, m->data) ||
	    nla_put_u64_64bit(skb, TXNET_A_MSG_SENT_TICK, m->sent_tick, TXNET_A_MSG_PAD) ||
	    nla_put_u64_64bit(skb, TXNET_A_MSG_RECV_TICK, m->recv_tick, TXNET_A_MSG_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	ctx->idx++;
	return 0;
}

/*
 * RECV takes, oldest first, as many of a port's packets as fit in one
 * reply; a reply without TXNET_A_MSGS entries means the port is empty.
 */
static int txnet_recv_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct recv_ctx ctx = {};
	struct txnet_net *tn;
	struct sk_buff *reply;
	struct nlattr *msgs;
	u32 node;
	void *hdr;
	int ret;

	if (not_admin(skb, info))
		return -EPERM;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	mutex_lock(&txnet_lock);
	tn = lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto err;
	}
	ret = get_node(info, tn, TXNET_A_NODE, &node);
	if (ret)
		goto err;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_RECV);
	if (!hdr || put_ident(reply, tn) ||
	    nla_put_u32(reply, TXNET_A_NODE, node))
		goto err;
	msgs = nla_nest_start(reply, TXNET_A_MSGS);
	if (!msgs)
		goto err;
	ctx.skb = reply;
	txnet_ports_recv(tn, node, put_msg, &ctx);
	nla_nest_end(reply, msgs);
	genlmsg_end(reply, hdr);
	mutex_unlock(&txnet_lock);
	return genlmsg_reply(reply, info);
err:
	mutex_unlock(&txnet_lock);
	if (ret == -EMSGSIZE)
		GENL_SET_ERR_MSG(info, "the reply's header does not fit in one message");
	nlmsg_free(reply);
	return ret;
}

/* Open to everyone: it changes nothing and costs one graph, charged to mem_budget. */
static int txnet_bounds_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txn_spec spec = { .ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct nlattr **attrs = info->attrs;
	struct sk_buff *reply;
	u32 pm, root;
	void *hdr;
	int ret;

	ret = parse_spec(info, &spec, &where);
	if (ret)
		return ret;
	pm = attrs[TXNET_A_PORT_MODEL] ? nla_get_u32(attrs[TXNET_A_PORT_MODEL]) : 0;
	root = attrs[TXNET_A_ROOT] ? nla_get_u32(attrs[TXNET_A_ROOT]) : 0;
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_BOUNDS);
	if (!hdr) {
		nlmsg_free(reply);
		GENL_SET_ERR_MSG(info, "the reply's header does not fit in one message");
		return -EMSGSIZE;
	}
	ret = txnet_bounds_fill(reply, &spec, pm, root, &err);
	if (ret) {
		report(info, &where, &err);
		nlmsg_free(reply);
		return ret;
	}
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);
}

/* Open to everyone, like BOUNDS: a computation, nothing kept. */
static int txnet_latin_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txn_spec spec = { .ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct nlattr **attrs = info->attrs;
	struct sk_buff *reply;
	void *hdr;
	u64 l;
	int ret;

	ret = parse_spec(info, &spec, &where);
	if (ret)
		return ret;
	l = attrs[TXNET_A_CONFIG] ? nla_get_u64(attrs[TXNET_A_CONFIG]) : 0;
	/* N members of N + N/2 words each, and their attribute headers */
	reply = genlmsg_new(NLMSG_GOODSIZE + TXNET_LATIN_MAX_N * (TXNET_LATIN_MAX_N * 6 + 32),
			    GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_LATIN);
	if (!hdr) {
		nlmsg_free(reply);
		GENL_SET_ERR_MSG(info, "the reply's header does not fit in one message");
		return -EMSGSIZE;
	}
	ret = txnet_latin_fill(reply, &spec, l, &err);
	if (ret) {
		report(info, &where, &err);
		nlmsg_free(reply);
		return ret;
	}
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);
}

/* Row @row of series @s: its link rows first, then its node rows. */
static int fill_series_row(struct sk_buff *skb, const struct txnet_net *tn,
			   const struct txn_series *s, u32 row)
{
	const size_t n = s->len;
	struct nlattr *nest;
	u32 dim, dir, c;

	if (nla_put_string(skb, TXNET_A_NAME, tn->name) ||
	    nla_put_u32(skb, TXNET_A_RUN_ID, tn->last.run_id))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, TXNET_A_SERIES);
	if (!nest ||
	    nla_put_u32(skb, TXNET_A_SERIES_SAMPLE_TICKS, 1U << s->shift) ||
	    nla_put_u64_64bit(skb, TXNET_A_SERIES_TICKS, s->ticks, TXNET_A_SERIES_PAD))
		return -EMSGSIZE;
	if (row < s->nclass) {
		c = row;
		if (nla_put_u32(skb, TXNET_A_SERIES_KIND, TXNET_SERIES_LINKS) ||
		    nla_put_u32(skb, TXNET_A_SERIES_LINKS, s->class_links[c]) ||
		    (txn_series_class(&tn->graph, c, &dim, &dir) &&
		     (nla_put_u32(skb, TXNET_A_SERIES_DIM, dim) ||
		      nla_put_u32(skb, TXNET_A_SERIES_DIR, dir))) ||
		    nla_put(skb, TXNET_A_SERIES_BUSY, n * sizeof(u64),
			    s->busy + (size_t)c * TXNET_SERIES_SAMPLES))
			return -EMSGSIZE;
	} else {
		c = row - s->nclass;
		if (nla_put_u32(skb, TXNET_A_SERIES_KIND, TXNET_SERIES_HELD) ||
		    nla_put_u32(skb, TXNET_A_SERIES_NODE, c * s->group) ||
		    nla_put_u32(skb, TXNET_A_SERIES_NODES,
				min(s->group, s->nodes - c * s->group)) ||
		    nla_put(skb, TXNET_A_SERIES_HELD, n * sizeof(u32),
			    s->held + (size_t)c * TXNET_SERIES_SAMPLES))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Under txnet_lock: the network a per-network dump names, or an ERR_PTR with extack. */
static struct txnet_net *dump_net(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *name = txnet_dump_attrs(cb)[TXNET_A_NAME];
	struct txnet_net *tn;

	lockdep_assert_held(&txnet_lock);
	if (!name) {
		NL_SET_ERR_MSG(cb->extack, "network name (TXNET_A_NAME) is required");
		return ERR_PTR(-EINVAL);
	}
	tn = txnet_net_find(sock_net(skb->sk), nla_data(name));
	if (!tn) {
		NL_SET_ERR_MSG_ATTR(cb->extack, name,
				    "no network with this name in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	return tn;
}

/*
 * TXNET_CMD_SERIES: the last run's time series, a row a message, resumed
 * by row.  A run that ends between two parts of the dump replaces the
 * series: the run id marks the dump interrupted (NLM_F_DUMP_INTR); so
 * does the network's end, as in a LINKS dump.
 */
static int txnet_series_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *name = txnet_dump_attrs(cb)[TXNET_A_NAME];
	const struct txn_series *s;
	u32 row = cb->args[0];
	struct txnet_net *tn;
	void *hdr;
	int ret;

	mutex_lock(&txnet_lock);
	if (row && !txnet_net_find(sock_net(skb->sk), nla_data(name))) {
		/* destroyed between two parts: the dump ends, marked interrupted */
		cb->seq++;
		ret = 0;
		goto out;
	}
	tn = dump_net(skb, cb);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	mutex_lock(&tn->res_lock);
	cb->seq = tn->last.run_id;
	s = tn->last.series;
	ret = 0;
	if (!s && !row) {
		NL_SET_ERR_MSG_ATTR(cb->extack, name,
				    "the network's last run kept no time series (run it with TXNET_A_RECORD)");
		ret = -ENODATA;
	}
	for (; s && row < s->nclass + s->rows; row++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &txnet_family, NLM_F_MULTI, TXNET_CMD_SERIES);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (fill_series_row(skb, tn, s, row)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&tn->res_lock);
	cb->args[0] = row;
	if (!ret)
		ret = skb->len;
out:
	mutex_unlock(&txnet_lock);
	return ret;
}

static int fill_link(struct sk_buff *skb, struct txnet_net *tn, u32 l)
{
	const struct txn_graph *g = &tn->graph;
	struct nlattr *nest = nla_nest_start(skb, TXNET_A_LINK);

	if (!nest ||
	    nla_put_u32(skb, TXNET_A_LINK_ID, l) ||
	    nla_put_u32(skb, TXNET_A_LINK_FROM, g->src[l]) ||
	    nla_put_u32(skb, TXNET_A_LINK_TO, g->dst[l]) ||
	    nla_put_u64_64bit(skb, TXNET_A_LINK_HOPS, txnet_link_hops(tn, l), TXNET_A_LINK_PAD) ||
	    nla_put_u8(skb, TXNET_A_LINK_DOWN, txnet_link_is_down(&tn->faults, l)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * TXNET_CMD_LINKS: a network's links, a link a message, resumed by link.
 * Faults that change between two parts of the dump, or the network's end,
 * mark it interrupted (the faults' generation is the dump's sequence).
 */
static int txnet_links_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	u32 l = cb->args[0];
	struct txnet_net *tn;
	void *hdr;
	int ret;

	mutex_lock(&txnet_lock);
	if (l && !txnet_net_find(sock_net(skb->sk),
				 nla_data(txnet_dump_attrs(cb)[TXNET_A_NAME]))) {
		/* destroyed between two parts: the dump ends, marked interrupted */
		cb->seq++;
		ret = 0;
		goto out;
	}
	tn = dump_net(skb, cb);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	/* +1: a dump's first sequence 0 would never be compared */
	cb->seq = READ_ONCE(tn->faults.gen) + 1;
	for (; l < tn->graph.links; l++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &txnet_family, NLM_F_MULTI, TXNET_CMD_LINKS);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (fill_link(skb, tn, l)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = l;
	ret = skb->len;
out:
	mutex_unlock(&txnet_lock);
	return ret;
}

#define TXNET_OP(_cmd, _doit, _policy)				\
	.cmd = _cmd, .doit = _doit,					\
	.policy = _policy, .maxattr = ARRAY_SIZE(_policy) - 1

static const struct genl_ops txnet_ops[] = {
	{ TXNET_OP(TXNET_CMD_NEW, txnet_new_doit, txnet_new_policy) },
	{ TXNET_OP(TXNET_CMD_DEL, txnet_del_doit, txnet_name_policy) },
	{ TXNET_OP(TXNET_CMD_GET, txnet_get_doit, txnet_name_policy),
	  .dumpit = txnet_get_dumpit },
	{ TXNET_OP(TXNET_CMD_SET, txnet_set_doit, txnet_set_policy) },
	{ TXNET_OP(TXNET_CMD_RUN, txnet_run_doit, txnet_run_policy) },
	{ TXNET_OP(TXNET_CMD_STOP, txnet_stop_doit, txnet_name_policy) },
	{ TXNET_OP(TXNET_CMD_SEND, txnet_send_doit, txnet_send_policy) },
	{ TXNET_OP(TXNET_CMD_RECV, txnet_recv_doit, txnet_recv_policy) },
	{ TXNET_OP(TXNET_CMD_BOUNDS, txnet_bounds_doit, txnet_bounds_policy) },
	{ TXNET_OP(TXNET_CMD_LATIN, txnet_latin_doit, txnet_latin_policy) },
	{ TXNET_OP(TXNET_CMD_FAULT, txnet_fault_doit, txnet_fault_policy) },
	{ .cmd = TXNET_CMD_SERIES, .dumpit = txnet_series_dumpit,
	  .policy = txnet_name_policy, .maxattr = ARRAY_SIZE(txnet_name_policy) - 1 },
	{ .cmd = TXNET_CMD_LINKS, .dumpit = txnet_links_dumpit,
	  .policy = txnet_name_policy, .maxattr = ARRAY_SIZE(txnet_name_policy) - 1 },
};

static struct genl_family txnet_family __ro_after_init = {
	.name = TXNET_GENL_NAME,
	.version = TXNET_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = txnet_ops,
	.n_ops = ARRAY_SIZE(txnet_ops),
	.mcgrps = txnet_mcgrps,
	.n_mcgrps = ARRAY_SIZE(txnet_mcgrps),
};

int txnet_genl_init(void)
{
	return genl_register_family(&txnet_family);
}

void txnet_genl_exit(void)
{
	genl_unregister_family(&txnet_family);
}
