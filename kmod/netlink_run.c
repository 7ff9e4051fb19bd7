// SPDX-License-Identifier: GPL-2.0
/*
 * The run commands: RUN (a collective, checked against the network before
 * the engine starts it), STOP, and FAULT (links and nodes taken down and
 * brought back up under a run or open traffic).
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

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

/*
 * A schedule to replay (TXNET_A_SCHEDULE), joined and charged, and what it
 * was made for; and whether to save the run's moves.
 */
static int parse_schedule(struct genl_info *info, struct txnet_run_req *req)
{
	struct nlattr **attrs = info->attrs;
	u32 *v, n;
	int ret;

	req->save = attrs[TXNET_A_SAVE] && nla_get_u8(attrs[TXNET_A_SAVE]);
	if (!attrs[TXNET_A_SCHEDULE]) {
		if (attrs[TXNET_A_SCHEDULE_SPEC] || attrs[TXNET_A_PORT_MODEL]) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_SCHEDULE_SPEC] ?:
					    attrs[TXNET_A_PORT_MODEL],
					    "schedule_spec and port_model describe a schedule (TXNET_A_SCHEDULE), which this request does not carry");
			return -EINVAL;
		}
		return 0;
	}
	ret = txnet_nl_join_u32s(info, TXNET_A_SCHEDULE, 4,
				 "schedule: each attribute a whole number of steps of four u32",
				 &v, &n);
	if (ret)
		return ret;
	if (!v || n > TXNET_SCHEDULE_MAX_STEPS) {
		txnet_nl_free_u32s(v, n, 4);
		txnet_nl_set_err(info->extack, attrs[TXNET_A_SCHEDULE],
				 v ? "schedule: more steps than TXNET_SCHEDULE_MAX_STEPS" :
				     "schedule: no steps");
		return v ? -E2BIG : -EINVAL;
	}
	req->steps = (struct txn_step *)v;
	req->nsteps = n;	/* charged as txnet_run_req_drop_steps() uncharges them */
	req->schedule_spec = attrs[TXNET_A_SCHEDULE_SPEC] ?
			     nla_data(attrs[TXNET_A_SCHEDULE_SPEC]) : NULL;
	req->has_port_model = attrs[TXNET_A_PORT_MODEL];
	req->port_model = req->has_port_model ? nla_get_u32(attrs[TXNET_A_PORT_MODEL]) : 0;
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
		{ "schedule:", TXNET_A_SCHEDULE }, { "schedule_spec:", TXNET_A_SCHEDULE_SPEC },
		{ "port_model:", TXNET_A_PORT_MODEL }, { "save:", TXNET_A_SAVE },
	};
	u32 i;

	for (i = 0; why && i < ARRAY_SIZE(fields); i++)
		if (!strncmp(why, fields[i].prefix, strlen(fields[i].prefix)))
			return attrs[fields[i].attr];
	return NULL;
}

int txnet_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct txnet_run_req req = {};
	struct txnet_net *tn;
	struct sk_buff *reply;
	const char *why = NULL;
	u32 run_id;
	void *hdr;
	int ret;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

	if (txnet_nl_missing(info, TXNET_A_OP, "operation (TXNET_A_OP) is required"))
		return -EINVAL;
	req.op = nla_get_u32(attrs[TXNET_A_OP]);
	req.algo = attrs[TXNET_A_ALGO] ? nla_get_u32(attrs[TXNET_A_ALGO]) : TXNET_ALGO_AUTO;
	/* Combining operations carry values, not payloads. */
	req.payload = attrs[TXNET_A_PAYLOAD] ? nla_get_u32(attrs[TXNET_A_PAYLOAD]) :
		      txn_op_combines(req.op) ? 0 : 8;
	req.seed = attrs[TXNET_A_SEED] ? nla_get_u64(attrs[TXNET_A_SEED]) : get_random_u64();
	req.record = attrs[TXNET_A_RECORD] && nla_get_u8(attrs[TXNET_A_RECORD]);
	ret = parse_collective(info, &req) ?: parse_schedule(info, &req);
	if (ret)
		return ret;

	/* the steps are this function's until txnet_run_start() takes them */
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		txnet_run_req_drop_steps(&req);
		return -ENOMEM;
	}
	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		nlmsg_free(reply);
		txnet_run_req_drop_steps(&req);
		return PTR_ERR(tn);
	}
	/* The run is set up outside txnet_lock: the reference keeps tn's memory. */
	txnet_net_get(tn);
	mutex_unlock(&txnet_lock);

	ret = txnet_run_start(tn, &req, &why, &run_id);
	if (ret) {
		txnet_nl_set_err(info->extack, ret == -EOPNOTSUPP ? attrs[TXNET_A_ALGO] :
				      refused_attr(attrs, why), why);
		goto err;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_RUN);
	/* Cannot fail with NLMSG_GOODSIZE; the run goes on either way. */
	if (!hdr || txnet_nl_put_ident(reply, tn) ||
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

int txnet_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txnet_net *tn;
	int ret = 0;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
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
int txnet_nl_get_node(struct genl_info *info, struct txnet_net *tn, int type, u32 *node)
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

	if (txnet_nl_missing(info, type, need[type]))
		return -EINVAL;
	*node = nla_get_u32(info->attrs[type]);
	if (*node >= tn->counts.procs) {
		txnet_nl_set_err(info->extack, info->attrs[type], bad[type]);
		return -EINVAL;
	}
	return 0;
}

/* A vertex of @tn (switches too: a MIN's cables join them), or an extack naming @type. */
static int get_vertex(struct genl_info *info, struct txnet_net *tn, int type, u32 *v)
{
	*v = nla_get_u32(info->attrs[type]);
	if (*v >= tn->counts.nodes) {
		txnet_nl_set_err(info->extack, info->attrs[type], "no such node in this network");
		return -EINVAL;
	}
	return 0;
}

/*
 * FAULT: a cable (SRC and DST) or a node (NODE) down or up.  Either one
 * or the other; UP is required, so that a request never means the
 * opposite of what a reader of it assumes.
 */
int txnet_fault_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	bool link = a[TXNET_A_SRC] || a[TXNET_A_DST];
	struct txnet_net *tn;
	const char *why = NULL;
	u32 u = 0, v = 0;
	int ret;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;
	if (txnet_nl_missing(info, TXNET_A_UP, "state (TXNET_A_UP: 0 down, 1 up) is required"))
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
	if (link && (txnet_nl_missing(info, TXNET_A_SRC, "the cable's first node (TXNET_A_SRC) is required") ||
		     txnet_nl_missing(info, TXNET_A_DST, "the cable's second node (TXNET_A_DST) is required")))
		return -EINVAL;

	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	if (link)
		ret = get_vertex(info, tn, TXNET_A_SRC, &u) ?: get_vertex(info, tn, TXNET_A_DST, &v);
	else
		ret = txnet_nl_get_node(info, tn, TXNET_A_NODE, &u);
	if (ret)
		goto out;
	ret = txnet_fault_set(tn, link, u, v, nla_get_u8(a[TXNET_A_UP]), &why);
	if (ret)
		txnet_nl_set_err(info->extack, a[TXNET_A_DST], why);
out:
	mutex_unlock(&txnet_lock);
	return ret;
}
