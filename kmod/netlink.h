/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the txnet generic netlink files share: the family, the helpers
 * every request uses to find its network and refuse with an extack
 * message, the reply builders, and each command's handler for the ops
 * table in netlink.c.
 */
#ifndef TXNET_NETLINK_H
#define TXNET_NETLINK_H

#include <net/genetlink.h>
#include <net/netlink.h>

#include "txnet.h"

extern struct genl_family txnet_family;

enum txnet_mcgrp { TXNET_MCGRP_EVENTS_ID };

/* Where each dimension's attributes are, to point errors at them. */
struct dim_attrs {
	struct nlattr *nest[TXNET_MAX_DIMS];
	struct nlattr *size[TXNET_MAX_DIMS];
	struct nlattr *kind[TXNET_MAX_DIMS];
};

/* netlink.c: requests */
bool txnet_nl_not_admin(struct sk_buff *skb, struct genl_info *info);
void txnet_nl_set_err(struct netlink_ext_ack *extack, const struct nlattr *at, const char *msg);
struct txnet_net *txnet_nl_lookup(struct genl_info *info);
int txnet_nl_parse_spec(struct genl_info *info, struct txn_spec *spec, struct dim_attrs *where);
void txnet_nl_report(struct genl_info *info, const struct dim_attrs *where,
                     const struct txnet_create_err *err);
bool txnet_nl_missing(struct genl_info *info, int type, const char *msg);
int txnet_nl_join_u32s(struct genl_info *info, int type, u32 unit, const char *ragged,
		       u32 **out, u32 *n);
void txnet_nl_free_u32s(u32 *v, u32 n, u32 unit);

/* netlink_reply.c: replies and events */
struct sk_buff *txnet_nl_net_msg(struct txnet_net *tn, u8 cmd, u32 portid, u32 seq);
int txnet_nl_put_ident(struct sk_buff *skb, const struct txnet_net *tn);
int txnet_nl_fill_net(struct sk_buff *skb, struct txnet_net *tn);

/* netlink_net.c */
int txnet_set_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int txnet_new_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_get_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_del_doit(struct sk_buff *skb, struct genl_info *info);

/* netlink_run.c */
int txnet_nl_get_node(struct genl_info *info, struct txnet_net *tn, int type, u32 *node);
int txnet_fault_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_run_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_stop_doit(struct sk_buff *skb, struct genl_info *info);

/* netlink_ports.c */
int txnet_send_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_recv_doit(struct sk_buff *skb, struct genl_info *info);

/* netlink_query.c */
int txnet_latin_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_links_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int txnet_bounds_doit(struct sk_buff *skb, struct genl_info *info);
int txnet_series_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int txnet_schedule_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif
