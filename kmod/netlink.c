// SPDX-License-Identifier: GPL-2.0
/*
 * The txnet generic netlink family: the only way to create, inspect,
 * change and destroy networks.  This file holds the family, its policies
 * and ops, and what every request shares; each command is in the
 * netlink_*.c file of its kind.  Every rejection carries an extack message
 * and points at the attribute at fault.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

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

static const struct nla_policy txnet_new_policy[TXNET_A_DIAMETER_AT_LEAST + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_TOPOLOGY] = TXNET_TOPO_POLICY,
	[TXNET_A_BASE] = TXNET_TOPO_POLICY,
	[TXNET_A_DIMS] = NLA_POLICY_NESTED_ARRAY(txnet_dim_policy),
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_TICK_NS] = TXNET_TICK_POLICY,
	[TXNET_A_SPEC ... TXNET_A_MEM_BYTES] = TXNET_READ_ONLY,
	[TXNET_A_NETDEV] = NLA_POLICY_MAX(NLA_U8, 1),
	[TXNET_A_CABLES_CUT ... TXNET_A_LINK] = TXNET_READ_ONLY,
	/* repeated: checked attribute by attribute as netlink_net.c joins them */
	[TXNET_A_CABLES] = { .type = NLA_BINARY },
	[TXNET_A_VERTEX_IDS] = { .type = NLA_BINARY },
	[TXNET_A_GRAPH_DIGEST ... TXNET_A_DIAMETER_AT_LEAST] = TXNET_READ_ONLY,
};

static const struct nla_policy txnet_name_policy[TXNET_A_NAME + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
};

static const struct nla_policy txnet_get_policy[TXNET_A_NODE + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_NODE] = { .type = NLA_U32 },
};

static const struct nla_policy txnet_run_policy[TXNET_A_SAVE + 1] = {
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
	/* the schedule's: with TXNET_A_SCHEDULE only, checked in netlink_run.c */
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	/* repeated: checked attribute by attribute as netlink_run.c joins them */
	[TXNET_A_SCHEDULE] = { .type = NLA_BINARY },
	[TXNET_A_SCHEDULE_SPEC] = { .type = NLA_NUL_STRING, .len = TXN_SPEC_STR_MAX - 1 },
	[TXNET_A_SAVE] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy txnet_bounds_policy[TXNET_A_CABLES + 1] = {
	[TXNET_A_TOPOLOGY] = TXNET_TOPO_POLICY,
	[TXNET_A_BASE] = TXNET_TOPO_POLICY,
	[TXNET_A_DIMS] = NLA_POLICY_NESTED_ARRAY(txnet_dim_policy),
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_ROOT] = { .type = NLA_U32 },
	[TXNET_A_CABLES] = { .type = NLA_BINARY },
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

static const struct nla_policy txnet_set_policy[TXNET_A_DIAMETER_AT_LEAST + 1] = {
	[TXNET_A_NAME] = TXNET_NAME_POLICY,
	[TXNET_A_PORT_MODEL] = TXNET_PORT_POLICY,
	[TXNET_A_TICK_NS] = TXNET_TICK_POLICY,
	[TXNET_A_SPEC ... TXNET_A_MEM_BYTES] = TXNET_READ_ONLY,
	[TXNET_A_NETDEV] = NLA_POLICY_MAX(NLA_U8, 1),
	[TXNET_A_CABLES_CUT ... TXNET_A_DIAMETER_AT_LEAST] = TXNET_READ_ONLY,
};

/*
 * GENL_REQ_ATTR_CHECK() only marks the missing attribute; clients that
 * print the extack message need words too.
 */
bool txnet_nl_missing(struct genl_info *info, int type, const char *msg)
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
bool txnet_nl_not_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return false;
	GENL_SET_ERR_MSG(info, "changing txnet networks needs CAP_NET_ADMIN");
	return true;
}

/* The network a request names, or an ERR_PTR with an extack message. */
struct txnet_net *txnet_nl_lookup(struct genl_info *info)
{
	struct txnet_net *tn;

	if (txnet_nl_missing(info, TXNET_A_NAME, "network name (TXNET_A_NAME) is required"))
		return ERR_PTR(-EINVAL);
	tn = txnet_net_find(genl_info_net(info), nla_data(info->attrs[TXNET_A_NAME]));
	if (!tn) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TXNET_A_NAME],
				    "no network with this name in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	return tn;
}


static int parse_dims(struct genl_info *info, struct txn_spec *spec, struct dim_attrs *where)
{
	struct nlattr *tb[TXNET_A_DIM_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *dim;
	int rem, ret;

	if (txnet_nl_missing(info, TXNET_A_DIMS, "dimensions (TXNET_A_DIMS) are required"))
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

int txnet_nl_parse_spec(struct genl_info *info, struct txn_spec *spec, struct dim_attrs *where)
{
	struct nlattr **attrs = info->attrs;

	if (txnet_nl_missing(info, TXNET_A_TOPOLOGY, "topology (TXNET_A_TOPOLOGY) is required"))
		return -EINVAL;
	spec->topo = nla_get_u32(attrs[TXNET_A_TOPOLOGY]);
	if (spec->topo == TXNET_TOPO_BISWAPPED) {
		if (txnet_nl_missing(info, TXNET_A_BASE, "a biswapped network needs a base (TXNET_A_BASE)"))
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
 * Every @type attribute of the request, joined in order into one array of
 * u32 (*@n of them, in units of @unit), charged to the mem_budget: a
 * graph's cables and vertex ids, which a large graph spreads over many
 * attributes of 64 KiB at most.  *@out stays NULL when there are none.
 */
int txnet_nl_join_u32s(struct genl_info *info, int type, u32 unit, const char *ragged,
		     u32 **out, u32 *n)
{
	const struct nlattr *nla;
	u64 bytes = 0, off = 0;
	int rem, ret;
	u32 *v;

	*out = NULL;
	*n = 0;
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != type)
			continue;
		if (nla_len(nla) % (unit * sizeof(u32))) {
			txnet_nl_set_err(info->extack, nla, ragged);
			return -EINVAL;
		}
		bytes += nla_len(nla);
	}
	if (!bytes)
		return 0;
	if (bytes / sizeof(u32) > U32_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[type], "list is too long");
		return -E2BIG;
	}
	ret = txnet_mem_charge(bytes);
	if (ret) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[type],
				    "list needs more memory than the mem_budget limit leaves");
		return ret;
	}
	v = kvmalloc(bytes, GFP_KERNEL_ACCOUNT);
	if (!v) {
		txnet_mem_uncharge(bytes);
		GENL_SET_ERR_MSG(info, "out of memory for the list");
		return -ENOMEM;
	}
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != type)
			continue;
		memcpy((u8 *)v + off, nla_data(nla), nla_len(nla));
		off += nla_len(nla);
	}
	*out = v;
	*n = bytes / (unit * sizeof(u32));
	return 0;
}

void txnet_nl_free_u32s(u32 *v, u32 n, u32 unit)
{
	if (!v)
		return;
	kvfree(v);
	txnet_mem_uncharge((u64)n * unit * sizeof(u32));
}

/*
 * NL_SET_ERR_MSG_ATTR() wants a string literal; the core's messages are
 * static strings chosen at run time.
 */
void txnet_nl_set_err(struct netlink_ext_ack *extack, const struct nlattr *at, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = at;
}

/* Point the extack at the attribute a core or registry refusal names. */
void txnet_nl_report(struct genl_info *info, const struct dim_attrs *where,
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
	txnet_nl_set_err(info->extack, at, err->msg);
}

#define TXNET_OP(_cmd, _doit, _policy)				\
	.cmd = _cmd, .doit = _doit,					\
	.policy = _policy, .maxattr = ARRAY_SIZE(_policy) - 1

static const struct genl_ops txnet_ops[] = {
	{ TXNET_OP(TXNET_CMD_NEW, txnet_new_doit, txnet_new_policy) },
	{ TXNET_OP(TXNET_CMD_DEL, txnet_del_doit, txnet_name_policy) },
	{ TXNET_OP(TXNET_CMD_GET, txnet_get_doit, txnet_get_policy),
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
	{ .cmd = TXNET_CMD_SCHEDULE, .dumpit = txnet_schedule_dumpit,
	  .policy = txnet_name_policy, .maxattr = ARRAY_SIZE(txnet_name_policy) - 1 },
};

struct genl_family txnet_family __ro_after_init = {
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
