// SPDX-License-Identifier: GPL-2.0
/*
 * The network commands: NEW (validate a spec, build the network, name it),
 * DEL, GET and its dump, SET (port model, tick length, the net device).
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

int txnet_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txnet_create_req req = { .spec.ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct sk_buff *reply = NULL, *event = NULL;
	u32 *cables, *ids = NULL;
	struct txnet_net *tn;
	void *hdr;
	int ret;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

	ret = txnet_nl_parse_spec(info, &req.spec, &where);
	if (ret)
		return ret;
	ret = txnet_nl_join_u32s(info, TXNET_A_CABLES, 2, "cables must be whole pairs of u32",
			&cables, &req.ncables);
	if (ret)
		return ret;
	ret = txnet_nl_join_u32s(info, TXNET_A_VERTEX_IDS, 1, "vertex ids must be whole u32",
			&ids, &req.nvertex_ids);
	if (ret)
		goto err_free;
	if (req.spec.topo == TXNET_TOPO_GRAPH &&
	    txnet_nl_missing(info, TXNET_A_CABLES, "a graph needs its cables (TXNET_A_CABLES)")) {
		ret = -EINVAL;
		goto err_free;
	}
	req.cables = cables;
	req.vertex_ids = ids;
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
	/* the graph holds what it needs of the lists */
	txnet_nl_free_u32s(ids, req.nvertex_ids, 1);
	txnet_nl_free_u32s(cables, req.ncables, 2);
	ids = NULL;
	cables = NULL;
	if (IS_ERR(tn)) {
		txnet_nl_report(info, &where, &err);
		ret = PTR_ERR(tn);
		goto err_free;
	}
	mutex_lock(&txnet_lock);
	ret = txnet_net_register(tn, req.name, &err);
	if (ret) {
		mutex_unlock(&txnet_lock);
		txnet_nl_report(info, &where, &err);
		goto err_free;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_NEW);
	if (!hdr || txnet_nl_fill_net(reply, tn))
		goto err_fill;
	genlmsg_end(reply, hdr);
	hdr = genlmsg_put(event, 0, 0, &txnet_family, 0, TXNET_CMD_NEW);
	if (!hdr || txnet_nl_fill_net(event, tn))
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
	txnet_nl_free_u32s(ids, req.nvertex_ids, 1);
	txnet_nl_free_u32s(cables, req.ncables, 2);
	return ret;
}

int txnet_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *event;
	struct txnet_net *tn;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		return PTR_ERR(tn);
	}
	/* The announcement first: a destroy nobody hears of is refused, not done. */
	event = txnet_nl_net_msg(tn, TXNET_CMD_DEL, 0, 0);
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

int txnet_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *node = info->attrs[TXNET_A_NODE];
	struct sk_buff *reply;
	struct txnet_net *tn;
	void *hdr;
	u32 v = 0;
	int ret;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto err;
	}
	/* a vertex, processor or switch: the number its file gave it */
	if (node) {
		v = nla_get_u32(node);
		ret = -EINVAL;
		if (v >= tn->counts.nodes) {
			NL_SET_ERR_MSG_ATTR(info->extack, node, "node is not a vertex of this network");
			goto err;
		}
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_GET);
	ret = -EMSGSIZE;
	if (!hdr || txnet_nl_fill_net(reply, tn) ||
	    (node && (nla_put_u32(reply, TXNET_A_NODE, v) ||
		      nla_put_u32(reply, TXNET_A_VERTEX_ID,
				  tn->vertex_id ? tn->vertex_id[v] : v)))) {
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
int txnet_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
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
		if (txnet_nl_fill_net(skb, tn)) {
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

int txnet_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	u32 model, *pmodel = NULL;
	u64 ns, *pns = NULL;
	bool netdev, *pnetdev = NULL;
	struct txnet_net *tn;
	const char *why;
	int ret;

	if (txnet_nl_not_admin(skb, info))
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
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		mutex_unlock(&txnet_lock);
		return PTR_ERR(tn);
	}
	ret = txnet_net_set(tn, pmodel, pns, pnetdev, &why);
	mutex_unlock(&txnet_lock);
	if (ret)
		txnet_nl_set_err(info->extack, !strncmp(why, "netdev:", 7) ? attrs[TXNET_A_NETDEV] : NULL, why);
	return ret;
}
