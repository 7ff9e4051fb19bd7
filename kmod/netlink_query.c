// SPDX-License-Identifier: GPL-2.0
/*
 * The read-only queries: BOUNDS and LATIN (computed for a topology without
 * building a network) and the dumps of a run's time series and of a
 * network's links.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"
#include "core/series.h"

/* Open to everyone: it changes nothing and costs one graph, charged to mem_budget. */
int txnet_bounds_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txn_spec spec = { .ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct nlattr **attrs = info->attrs;
	struct sk_buff *reply = NULL;
	u32 pm, root, *cables, ncables;
	void *hdr;
	int ret;

	ret = txnet_nl_parse_spec(info, &spec, &where);
	if (ret)
		return ret;
	ret = txnet_nl_join_u32s(info, TXNET_A_CABLES, 2, "cables must be whole pairs of u32",
				 &cables, &ncables);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (spec.topo == TXNET_TOPO_GRAPH &&
	    txnet_nl_missing(info, TXNET_A_CABLES, "a graph needs its cables (TXNET_A_CABLES)"))
		goto out;
	if (spec.topo != TXNET_TOPO_GRAPH && cables) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[TXNET_A_CABLES],
				    "cables are only for a graph");
		goto out;
	}
	pm = attrs[TXNET_A_PORT_MODEL] ? nla_get_u32(attrs[TXNET_A_PORT_MODEL]) : 0;
	root = attrs[TXNET_A_ROOT] ? nla_get_u32(attrs[TXNET_A_ROOT]) : 0;
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		ret = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(reply, info, &txnet_family, 0, TXNET_CMD_BOUNDS);
	if (!hdr) {
		GENL_SET_ERR_MSG(info, "the reply's header does not fit in one message");
		ret = -EMSGSIZE;
		goto out;
	}
	ret = txnet_bounds_fill(reply, &spec, cables, ncables, pm, root, &err);
	if (ret) {
		txnet_nl_report(info, &where, &err);
		goto out;
	}
	txnet_nl_free_u32s(cables, ncables, 2);
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);
out:
	txnet_nl_free_u32s(cables, ncables, 2);
	nlmsg_free(reply);
	return ret;
}

/* Open to everyone, like BOUNDS: a computation, nothing kept. */
int txnet_latin_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct txn_spec spec = { .ndims = 0 };
	struct txnet_create_err err = {};
	struct dim_attrs where = { .nest = { NULL } };
	struct nlattr **attrs = info->attrs;
	struct sk_buff *reply;
	void *hdr;
	u64 l;
	int ret;

	ret = txnet_nl_parse_spec(info, &spec, &where);
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
		txnet_nl_report(info, &where, &err);
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
 * The network a dump of its last run's record (a series, saved moves)
 * reads, with txnet_lock and its res_lock held; the run's id marks the
 * dump, so that a run ending between two parts interrupts it.  NULL,
 * txnet_lock alone held, when it was destroyed since the dump's last part
 * (@resumed): the dump ends, marked interrupted, as a LINKS dump does; an
 * ERR_PTR, txnet_lock held, when there is none.
 */
static struct txnet_net *last_run_net(struct sk_buff *skb, struct netlink_callback *cb,
				      bool resumed)
{
	struct nlattr *name = txnet_dump_attrs(cb)[TXNET_A_NAME];
	struct txnet_net *tn;

	mutex_lock(&txnet_lock);
	if (resumed && !txnet_net_find(sock_net(skb->sk), nla_data(name))) {
		cb->seq++;
		return NULL;
	}
	tn = dump_net(skb, cb);
	if (IS_ERR(tn))
		return tn;
	mutex_lock(&tn->res_lock);
	cb->seq = tn->last.run_id;
	return tn;
}

static int last_run_done(struct txnet_net *tn, struct sk_buff *skb, int ret)
{
	if (!IS_ERR_OR_NULL(tn))
		mutex_unlock(&tn->res_lock);
	mutex_unlock(&txnet_lock);
	if (IS_ERR(tn))
		return PTR_ERR(tn);
	return tn && !ret ? skb->len : ret;
}

/*
 * TXNET_CMD_SERIES: the last run's time series, a row a message, resumed
 * by row.  A run that ends between two parts of the dump replaces the
 * series: the run id marks the dump interrupted (NLM_F_DUMP_INTR); so
 * does the network's end, as in a LINKS dump.
 */
int txnet_series_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *name = txnet_dump_attrs(cb)[TXNET_A_NAME];
	struct txnet_net *tn = last_run_net(skb, cb, cb->args[0]);
	const struct txn_series *s;
	u32 row = cb->args[0];
	void *hdr;
	int ret = 0;

	if (IS_ERR_OR_NULL(tn))
		return last_run_done(tn, skb, 0);
	s = tn->last.series;
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
	cb->args[0] = row;
	return last_run_done(tn, skb, ret);
}

/* Steps a SCHEDULE dump message carries: 4 KiB, several to a dump's buffer. */
#define SCHEDULE_PART_STEPS	256

/*
 * TXNET_CMD_SCHEDULE: the last run's saved moves, in parts of
 * SCHEDULE_PART_STEPS steps, each with the run's id, resumed by step,
 * interrupted as a SERIES dump is.
 */
int txnet_schedule_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *name = txnet_dump_attrs(cb)[TXNET_A_NAME];
	struct txnet_net *tn = last_run_net(skb, cb, cb->args[0]);
	const struct txn_log *log;
	u64 at = cb->args[0], n;
	void *hdr;
	int ret = 0;

	if (IS_ERR_OR_NULL(tn))
		return last_run_done(tn, skb, 0);
	log = tn->last.has_saved ? &tn->last.saved : NULL;
	if (!at && (!log || log->err)) {
		txnet_nl_set_err(cb->extack, name, !log ?
				 "the network's last run saved no moves (run it with TXNET_A_SAVE)" :
				 "the network's last run could not keep its moves within mem_budget");
		ret = log ? log->err : -ENODATA;
	}
	for (; !ret && log && at < log->nsteps; at += n) {
		n = min_t(u64, log->nsteps - at, SCHEDULE_PART_STEPS);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &txnet_family, NLM_F_MULTI, TXNET_CMD_SCHEDULE);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (nla_put_u32(skb, TXNET_A_RUN_ID, tn->last.run_id) ||
		    nla_put(skb, TXNET_A_SCHEDULE, n * sizeof(*log->steps), log->steps + at)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = at;
	return last_run_done(tn, skb, ret);
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
int txnet_links_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
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
