// SPDX-License-Identifier: GPL-2.0
/*
 * Open traffic over netlink: SEND injects one packet at a node, RECV hands
 * back what was delivered to one, with its source and checksum verified.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

int txnet_send_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *data = info->attrs[TXNET_A_DATA];
	struct txnet_net *tn;
	const char *why = NULL;
	u32 src, dst;
	int ret;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

	mutex_lock(&txnet_lock);
	tn = txnet_nl_lookup(info);
	if (IS_ERR(tn)) {
		ret = PTR_ERR(tn);
		goto out;
	}
	ret = txnet_nl_get_node(info, tn, TXNET_A_SRC, &src);
	if (!ret)
		ret = txnet_nl_get_node(info, tn, TXNET_A_DST, &dst);
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
		txnet_nl_set_err(info->extack, NULL, why);
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
int txnet_recv_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct recv_ctx ctx = {};
	struct txnet_net *tn;
	struct sk_buff *reply;
	struct nlattr *msgs;
	u32 node;
	void *hdr;
	int ret;

	if (txnet_nl_not_admin(skb, info))
		return -EPERM;

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
	ret = txnet_nl_get_node(info, tn, TXNET_A_NODE, &node);
	if (ret)
		goto err;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_RECV);
	if (!hdr || txnet_nl_put_ident(reply, tn) ||
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
