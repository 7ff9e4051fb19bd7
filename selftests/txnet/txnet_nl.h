/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txnet_nl.h: the one netlink client of the txnet selftests, on libnl-genl-3
 * (independent of txctl, which uses libmnl).  Header-only: every test
 * program includes it once.
 *
 * Replies are read with nl_recv() and walked by hand rather than through
 * libnl's callbacks: libnl-genl 3.7's nl_send_sync() leaves the ack of a
 * request that also gets a reply queued on the socket, which shifts every
 * later answer by one; and a test must see every message, including how
 * many datagrams a dump took.
 *
 * Every request records the kernel's answer in struct txnl: errno, the
 * extack message (NLMSGERR_ATTR_MSG), the offset of the attribute it
 * blames (NLMSGERR_ATTR_OFFS) and the missing attribute
 * (NLMSGERR_ATTR_MISS_TYPE).
 */
#ifndef TXNET_SELFTEST_NL_H
#define TXNET_SELFTEST_NL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/capability.h>

#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <linux/txnet.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Drop CAP_NET_ADMIN from this process (every set); 0 or -1. */
static inline int drop_net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
	d[CAP_NET_ADMIN / 32].permitted &= ~(1u << (CAP_NET_ADMIN % 32));
	d[CAP_NET_ADMIN / 32].inheritable &= ~(1u << (CAP_NET_ADMIN % 32));
	return (int)syscall(SYS_capset, &h, d);
}

/* Time helpers the tests share. */
static inline void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#define TXNET_SYSFS	"/sys/kernel/txnet"
#define TXNET_PARAMS	"/sys/module/txnet/parameters"
#define TXNL_MAX_DIMS	24	/* more than TXNET_MAX_DIMS, to send too many */

struct txnl {
	struct nl_sock *sk;
	int family;
	/* the kernel's answer to the last request */
	int err;		/* 0 or -errno */
	char msg[256];		/* extack message, "" when none */
	int off;		/* offset of the blamed attribute, -1 when none */
	int miss_type;		/* missing attribute type, -1 when none */
	int batches;		/* datagrams the last request's answer took */
	bool dump_intr;		/* the last dump saw NLM_F_DUMP_INTR */
};

/* A network as the kernel describes it (GET/NEW reply, dump, event). */
struct txnet_info {
	uint8_t cmd;
	bool has[TXNET_A_MAX + 1];
	uint32_t id;
	char name[TXNET_NAME_LEN + 8];
	uint32_t topo, base;
	uint32_t ndims;
	uint32_t size[TXNL_MAX_DIMS], kind[TXNL_MAX_DIMS];
	uint32_t port_model;
	uint64_t tick_ns;
	char spec[160];
	uint32_t nodes, switches, links, diameter, state;
	uint64_t ticks, mem_bytes;
	uint64_t total_distance, as_bound, cut_bound;	/* products */
};

/*
 * A NEW request.  Zero fields are left out, except that ndims sizes are
 * always sent (so size 0 can be sent) and the no_* flags leave out parts
 * that are normally sent.  After sending, off_* hold where each attribute
 * sat in the message, to compare with the extack's NLMSGERR_ATTR_OFFS.
 */
struct txnet_req {
	const char *name;
	uint32_t topo, base;
	bool send_topo;		/* send TXNET_A_TOPOLOGY even when 0 */
	uint32_t ndims;
	uint32_t size[TXNL_MAX_DIMS], kind[TXNL_MAX_DIMS];
	bool no_size[TXNL_MAX_DIMS];
	bool no_dims;		/* leave TXNET_A_DIMS out */
	uint32_t port_model;
	bool has_tick;
	uint64_t tick_ns;
	/* a graph: @ncables pairs, @chunk pairs an attribute (0: one attribute); vertex ids */
	const uint32_t *cables;
	uint32_t ncables, chunk;
	const uint32_t *ids;
	uint32_t nids;
	int off_name, off_topo, off_base, off_dims;
	int off_cables;		/* the first TXNET_A_CABLES */
	int off_ids;
	int off_dim[TXNL_MAX_DIMS], off_size[TXNL_MAX_DIMS], off_kind[TXNL_MAX_DIMS];
};

static inline int txnl_attr_off(struct nl_msg *m, const void *attr)
{
	return (int)((const char *)attr - (const char *)nlmsg_hdr(m));
}

static inline void txnl_reset(struct txnl *t)
{
	t->err = 0;
	t->msg[0] = '\0';
	t->off = -1;
	t->miss_type = -1;
	t->batches = 0;
	t->dump_intr = false;
}

static inline int txnl_open(struct txnl *t)
{
	int one = 1, ret;

	memset(t, 0, sizeof(*t));
	txnl_reset(t);
	t->sk = nl_socket_alloc();
	if (!t->sk)
		return -ENOMEM;
	ret = genl_connect(t->sk);
	if (ret < 0)
		goto err;
	nl_socket_enable_msg_peek(t->sk);
	nl_socket_set_msg_buf_size(t->sk, 65536);
	if (setsockopt(nl_socket_get_fd(t->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(nl_socket_get_fd(t->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one))) {
		ret = -errno;
		nl_socket_free(t->sk);
		t->sk = NULL;
		return ret;
	}
	t->family = genl_ctrl_resolve(t->sk, TXNET_GENL_NAME);
	if (t->family < 0) {
		ret = t->family;
		goto err;
	}
	return 0;
err:
	nl_socket_free(t->sk);
	t->sk = NULL;
	return ret == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
}

static inline void txnl_close(struct txnl *t)
{
	if (t->sk)
		nl_socket_free(t->sk);
	t->sk = NULL;
}

static inline struct nl_msg *txnl_msg(struct txnl *t, uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc();

	if (m && !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, flags, cmd,
			      TXNET_GENL_VERSION)) {
		nlmsg_free(m);
		m = NULL;
	}
	return m;
}

/* Parse one txnet message into @info; 0 or -EINVAL when it is malformed. */
static inline int txnl_parse(struct nlmsghdr *h, struct txnet_info *info)
{
	struct nlattr *tb[TXNET_A_MAX + 1], *dim, *dtb[TXNET_A_DIM_MAX + 1];
	struct genlmsghdr *g = nlmsg_data(h);
	int i, rem;

	memset(info, 0, sizeof(*info));
	info->cmd = g->cmd;
	if (genlmsg_parse(h, 0, tb, TXNET_A_MAX, NULL) < 0)
		return -EINVAL;
	for (i = 0; i <= TXNET_A_MAX; i++)
		info->has[i] = tb[i] != NULL;
#define U32(a, f) do { if (tb[a]) info->f = nla_get_u32(tb[a]); } while (0)
#define U64(a, f) do { if (tb[a]) info->f = nla_get_u64(tb[a]); } while (0)
	U32(TXNET_A_ID, id);
	U32(TXNET_A_TOPOLOGY, topo);
	U32(TXNET_A_BASE, base);
	U32(TXNET_A_PORT_MODEL, port_model);
	U64(TXNET_A_TICK_NS, tick_ns);
	U32(TXNET_A_NODES, nodes);
	U32(TXNET_A_SWITCHES, switches);
	U32(TXNET_A_LINKS, links);
	U32(TXNET_A_DIAMETER, diameter);
	U32(TXNET_A_STATE, state);
	U64(TXNET_A_TICKS, ticks);
	U64(TXNET_A_MEM_BYTES, mem_bytes);
	U64(TXNET_A_TOTAL_DISTANCE, total_distance);
	U64(TXNET_A_AS_BOUND, as_bound);
	U64(TXNET_A_CUT_BOUND, cut_bound);
#undef U32
#undef U64
	if (tb[TXNET_A_NAME])
		nla_strlcpy(info->name, tb[TXNET_A_NAME], sizeof(info->name));
	if (tb[TXNET_A_SPEC])
		nla_strlcpy(info->spec, tb[TXNET_A_SPEC], sizeof(info->spec));
	if (tb[TXNET_A_DIMS]) {
		nla_for_each_nested(dim, tb[TXNET_A_DIMS], rem) {
			if (info->ndims == TXNL_MAX_DIMS)
				return -EINVAL;
			if (nla_parse_nested(dtb, TXNET_A_DIM_MAX, dim, NULL) < 0)
				return -EINVAL;
			if (dtb[TXNET_A_DIM_SIZE])
				info->size[info->ndims] = nla_get_u32(dtb[TXNET_A_DIM_SIZE]);
			if (dtb[TXNET_A_DIM_KIND])
				info->kind[info->ndims] = nla_get_u32(dtb[TXNET_A_DIM_KIND]);
			info->ndims++;
		}
	}
	return 0;
}

/* Record the error/ack message @h into @t. */
/* The extack attributes from @tlv to @end into @t. */
static inline void txnl_take_tlvs(struct txnl *t, char *tlv, char *end)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (tlv >= end)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)tlv, (int)(end - tlv), NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(t->msg, tb[NLMSGERR_ATTR_MSG], sizeof(t->msg));
	if (tb[NLMSGERR_ATTR_OFFS])
		t->off = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		t->miss_type = (int)nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
}

static inline void txnl_take_err(struct txnl *t, struct nlmsghdr *h)
{
	struct nlmsgerr *e = nlmsg_data(h);
	size_t skip;

	t->err = e->error;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	skip = (h->nlmsg_flags & NLM_F_CAPPED) ? sizeof(e->msg) : e->msg.nlmsg_len;
	txnl_take_tlvs(t, (char *)&e->msg + NLMSG_ALIGN(skip), (char *)h + h->nlmsg_len);
}

/* A dump's end: its error, and the extack that follows it (NLM_F_ACK_TLVS). */
static inline void txnl_take_done(struct txnl *t, struct nlmsghdr *h)
{
	if (nlmsg_datalen(h) < (int)sizeof(int))
		return;
	t->err = *(int *)nlmsg_data(h);
	if (h->nlmsg_flags & NLM_F_ACK_TLVS)
		txnl_take_tlvs(t, (char *)nlmsg_data(h) + NLMSG_ALIGN(sizeof(int)),
			       (char *)h + h->nlmsg_len);
}

typedef void (*txnl_each_fn)(const struct txnet_info *info, void *arg);

typedef int (*txnl_raw_fn)(struct nlmsghdr *h, void *arg);

/*
 * Send @m (freed here) and read the answer: until the ack/error for a
 * request, until NLMSG_DONE (or an error) for a dump.  Each txnet message
 * is handed raw to @each, which returns 0 or -errno; the first such error
 * is kept (and later messages skipped) unless the kernel reports one.
 * Returns t->err.
 */
static inline int txnl_xfer_raw(struct txnl *t, struct nl_msg *m, txnl_raw_fn each, void *arg)
{
	struct sockaddr_nl who;
	unsigned char *buf;
	struct nlmsghdr *h;
	int n, ret, cb_err = 0;
	uint32_t seq;

	txnl_reset(t);
	ret = nl_send_auto(t->sk, m);
	seq = nlmsg_hdr(m)->nlmsg_seq;
	nlmsg_free(m);
	if (ret < 0)
		return t->err = -EIO;
	for (;;) {
		buf = NULL;
		n = nl_recv(t->sk, &who, &buf, NULL);
		if (n <= 0) {
			free(buf);
			return t->err = -EIO;
		}
		t->batches++;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;	/* not ours */
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				t->dump_intr = true;
			if (h->nlmsg_type == NLMSG_ERROR) {
				txnl_take_err(t, h);
				free(buf);
				if (!t->err && cb_err)
					t->err = cb_err;
				return t->err;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				txnl_take_done(t, h);
				free(buf);
				if (!t->err && cb_err)
					t->err = cb_err;
				return t->err;
			}
			if (h->nlmsg_type == t->family && each && !cb_err)
				cb_err = each(h, arg);
		}
		free(buf);
	}
}

struct txnl_each_ctx {
	txnl_each_fn each;
	void *arg;
};

static inline int txnl_each_parsed(struct nlmsghdr *h, void *arg)
{
	struct txnl_each_ctx *c = arg;
	struct txnet_info info;

	if (txnl_parse(h, &info))
		return -EBADMSG;
	if (c->each)
		c->each(&info, c->arg);
	return 0;
}

/* txnl_xfer_raw() with each txnet message parsed into a struct txnet_info. */
static inline int txnl_xfer(struct txnl *t, struct nl_msg *m, txnl_each_fn each, void *arg)
{
	struct txnl_each_ctx c = { each, arg };

	return txnl_xfer_raw(t, m, txnl_each_parsed, &c);
}

static inline void txnl_copy_one(const struct txnet_info *info, void *arg)
{
	memcpy(arg, info, sizeof(*info));
}

/* Build the NEW message of @r, recording attribute offsets into @r. */
static inline struct nl_msg *txnl_new_msg(struct txnl *t, struct txnet_req *r)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_NEW, 0);
	struct nlattr *dims, *dim, *a;
	uint32_t i;

	if (!m)
		return NULL;
	r->off_name = r->off_topo = r->off_base = r->off_dims = -1;
	for (i = 0; i < TXNL_MAX_DIMS; i++)
		r->off_dim[i] = r->off_size[i] = r->off_kind[i] = -1;
#define PUT(field, call) do {						\
		a = (struct nlattr *)((char *)nlmsg_hdr(m) + nlmsg_hdr(m)->nlmsg_len); \
		if (call < 0)						\
			goto fail;					\
		field = txnl_attr_off(m, a);				\
	} while (0)
	if (r->name)
		PUT(r->off_name, nla_put_string(m, TXNET_A_NAME, r->name));
	if (r->topo || r->send_topo)
		PUT(r->off_topo, nla_put_u32(m, TXNET_A_TOPOLOGY, r->topo));
	if (r->base)
		PUT(r->off_base, nla_put_u32(m, TXNET_A_BASE, r->base));
	if (!r->no_dims) {
		dims = nla_nest_start(m, TXNET_A_DIMS);
		if (!dims)
			goto fail;
		r->off_dims = txnl_attr_off(m, dims);
		for (i = 0; i < r->ndims && i < TXNL_MAX_DIMS; i++) {
			dim = nla_nest_start(m, i + 1);
			if (!dim)
				goto fail;
			r->off_dim[i] = txnl_attr_off(m, dim);
			if (!r->no_size[i])
				PUT(r->off_size[i], nla_put_u32(m, TXNET_A_DIM_SIZE, r->size[i]));
			if (r->kind[i])
				PUT(r->off_kind[i], nla_put_u32(m, TXNET_A_DIM_KIND, r->kind[i]));
			/* libnl drops empty nests unless told not to */
			nla_nest_end_keep_empty(m, dim);
		}
		nla_nest_end_keep_empty(m, dims);
	}
#undef PUT
	if (r->port_model && nla_put_u32(m, TXNET_A_PORT_MODEL, r->port_model) < 0)
		goto fail;
	if (r->has_tick && nla_put_u64(m, TXNET_A_TICK_NS, r->tick_ns) < 0)
		goto fail;
	r->off_cables = r->off_ids = -1;
	for (i = 0; i < r->ncables; ) {
		uint32_t n = r->chunk && r->ncables - i > r->chunk ? r->chunk : r->ncables - i;

		a = (struct nlattr *)((char *)nlmsg_hdr(m) + nlmsg_hdr(m)->nlmsg_len);
		if (nla_put(m, TXNET_A_CABLES, n * 8, r->cables + 2 * i) < 0)
			goto fail;
		if (!i)
			r->off_cables = txnl_attr_off(m, a);
		i += n;
	}
	if (r->ids) {
		a = (struct nlattr *)((char *)nlmsg_hdr(m) + nlmsg_hdr(m)->nlmsg_len);
		if (nla_put(m, TXNET_A_VERTEX_IDS, r->nids * 4, r->ids) < 0)
			goto fail;
		r->off_ids = txnl_attr_off(m, a);
	}
	return m;
fail:
	nlmsg_free(m);
	return NULL;
}

/* Create; @out (may be NULL) receives the reply.  Returns 0 or -errno. */
static inline int txnl_new(struct txnl *t, struct txnet_req *r, struct txnet_info *out)
{
	struct txnet_info dummy;
	struct nl_msg *m = txnl_new_msg(t, r);

	if (!m)
		return t->err = -ENOMEM;
	memset(out ? out : &dummy, 0, sizeof(dummy));
	return txnl_xfer(t, m, txnl_copy_one, out ? out : &dummy);
}

/* Shorthand: create topology @topo with @ndims sizes, no name. */
static inline int txnl_create(struct txnl *t, const char *name, uint32_t topo, uint32_t ndims,
			      const uint32_t *size, struct txnet_info *out)
{
	struct txnet_req r = { .name = name, .topo = topo, .ndims = ndims };
	uint32_t i;

	for (i = 0; i < ndims && i < TXNL_MAX_DIMS; i++)
		r.size[i] = size[i];
	return txnl_new(t, &r, out);
}

static inline int txnl_ring(struct txnl *t, const char *name, uint32_t n, struct txnet_info *out)
{
	return txnl_create(t, name, TXNET_TOPO_RING, 1, &n, out);
}

static inline int txnl_named(struct txnl *t, uint8_t cmd, const char *name, struct txnet_info *out)
{
	struct txnet_info dummy;
	struct nl_msg *m = txnl_msg(t, cmd, 0);

	if (!m)
		return t->err = -ENOMEM;
	if (name && nla_put_string(m, TXNET_A_NAME, name) < 0) {
		nlmsg_free(m);
		return t->err = -ENOMEM;
	}
	memset(out ? out : &dummy, 0, sizeof(dummy));
	return txnl_xfer(t, m, txnl_copy_one, out ? out : &dummy);
}

static inline int txnl_get(struct txnl *t, const char *name, struct txnet_info *out)
{
	return txnl_named(t, TXNET_CMD_GET, name, out);
}

static inline int txnl_del(struct txnl *t, const char *name)
{
	return txnl_named(t, TXNET_CMD_DEL, name, NULL);
}

/* SET; NULL leaves a setting out. */
static inline int txnl_set(struct txnl *t, const char *name, const uint32_t *port_model,
			   const uint64_t *tick_ns)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_SET, 0);

	if (!m)
		return t->err = -ENOMEM;
	if ((name && nla_put_string(m, TXNET_A_NAME, name) < 0) ||
	    (port_model && nla_put_u32(m, TXNET_A_PORT_MODEL, *port_model) < 0) ||
	    (tick_ns && nla_put_u64(m, TXNET_A_TICK_NS, *tick_ns) < 0)) {
		nlmsg_free(m);
		return t->err = -ENOMEM;
	}
	return txnl_xfer(t, m, NULL, NULL);
}

/* Dump every network of this netns through @each; returns 0 or -errno. */
static inline int txnl_dump(struct txnl *t, txnl_each_fn each, void *arg)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_GET, NLM_F_DUMP);

	if (!m)
		return t->err = -ENOMEM;
	return txnl_xfer(t, m, each, arg);
}

static inline void txnl_count_one(const struct txnet_info *info, void *arg)
{
	(void)info;
	(*(int *)arg)++;
}

/* Networks in this netns, or -errno. */
static inline int txnl_count(struct txnl *t)
{
	int n, ret, tries = 0;

	/*
	 * A dump that raced with creates and destroys is flagged
	 * NLM_F_DUMP_INTR and may count a network twice or miss one: start
	 * it again, as a real client would.
	 */
	do {
		n = 0;
		ret = txnl_dump(t, txnl_count_one, &n);
	} while (!ret && t->dump_intr && ++tries < 100);
	return ret ? ret : n;
}

struct txnl_names {
	int n;
	char name[1024][TXNET_NAME_LEN + 8];
};

static inline void txnl_name_one(const struct txnet_info *info, void *arg)
{
	struct txnl_names *l = arg;

	if (l->n < 1024)
		snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", info->name);
}

/* Destroy every network of this netns; returns how many, or -errno. */
static inline int txnl_del_all(struct txnl *t)
{
	struct txnl_names *l = calloc(1, sizeof(*l));
	int i, ret;

	if (!l)
		return -ENOMEM;
	ret = txnl_dump(t, txnl_name_one, l);
	for (i = 0; !ret && i < l->n; i++)
		ret = txnl_del(t, l->name[i]);
	ret = ret ? ret : l->n;
	free(l);
	return ret;
}

static inline int read_str(const char *path, char *buf, size_t len);

/* A socket subscribed to the "events" multicast group; 0 or -errno. */
static inline int txnl_events_open(struct txnl *t)
{
	int ret, grp;

	memset(t, 0, sizeof(*t));
	txnl_reset(t);
	t->sk = nl_socket_alloc();
	if (!t->sk)
		return -ENOMEM;
	nl_socket_disable_seq_check(t->sk);
	nl_socket_enable_msg_peek(t->sk);
	ret = genl_connect(t->sk);
	if (ret < 0)
		goto err;
	t->family = genl_ctrl_resolve(t->sk, TXNET_GENL_NAME);
	grp = genl_ctrl_resolve_grp(t->sk, TXNET_GENL_NAME, TXNET_MCGRP_EVENTS);
	if (t->family < 0 || grp < 0)
		goto err;
	if (nl_socket_add_membership(t->sk, grp) < 0)
		goto err;
	return 0;
err:
	nl_socket_free(t->sk);
	t->sk = NULL;
	return -EIO;
}

/*
 * The next txnet message on an events socket, waiting up to @ms
 * milliseconds: 1 (in @info), 0 on timeout, or -errno.
 */
static inline int txnl_event(struct txnl *t, struct txnet_info *info, int ms)
{
	static unsigned char *buf;	/* datagram being walked */
	static struct nlmsghdr *h;
	static int left;
	struct pollfd p = { .fd = nl_socket_get_fd(t->sk), .events = POLLIN };
	struct sockaddr_nl who;

	for (;;) {
		for (; buf && nlmsg_ok(h, left); h = nlmsg_next(h, &left)) {
			if (h->nlmsg_type != t->family)
				continue;
			if (txnl_parse(h, info))
				return -EBADMSG;
			h = nlmsg_next(h, &left);
			return 1;
		}
		free(buf);
		buf = NULL;
		if (poll(&p, 1, ms) <= 0)
			return 0;
		left = nl_recv(t->sk, &who, &buf, NULL);
		if (left <= 0) {
			free(buf);
			buf = NULL;
			return -EIO;
		}
		h = (struct nlmsghdr *)buf;
	}
}

/* Offset at which the next attribute appended to @m will start. */
static inline int txnl_tail(struct nl_msg *m)
{
	return (int)NLMSG_ALIGN(nlmsg_hdr(m)->nlmsg_len);
}

/* ---- sysfs, threads and module parameters ---- */

/* Tick threads alive ("txnet/<name>" kthreads), or -errno. */
static inline int kthread_count(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	char path[300], comm[64];
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (!read_str(path, comm, sizeof(comm)) && !strncmp(comm, "txnet/", 6))
			n++;
	}
	closedir(d);
	return n;
}

/*
 * kthread_count() once it is @want, or what it is after 6 s: a stopped
 * thread has returned when kthread_stop() does, but its task is reaped a
 * moment later and shows in /proc until then.  Awaits that event; the 6 s
 * are a hang guard.
 */
static inline int kthreads_become(int want)
{
	int n = kthread_count(), tries;

	for (tries = 0; tries < 600 && n != want; tries++) {
		usleep(10000);
		n = kthread_count();
	}
	return n;
}

/* Entries under /sys/kernel/txnet, or -errno. */
static inline int sysfs_count(void)
{
	struct dirent *de;
	DIR *d = opendir(TXNET_SYSFS);
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Read @path into @buf without its trailing newline; 0 or -errno. */
static inline int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = (int)read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Write @val in one write(); 0 or -errno (of open or write). */
static inline int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

static inline int net_file(const char *net, const char *file, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), TXNET_SYSFS "/%s/%s", net, file);
	return read_str(path, buf, len);
}

static inline int net_file_write(const char *net, const char *file, const char *val)
{
	char path[256];

	errno = 0;
	snprintf(path, sizeof(path), TXNET_SYSFS "/%s/%s", net, file);
	return write_str(path, val);
}

static inline bool net_dir_exists(const char *net)
{
	char path[256];

	snprintf(path, sizeof(path), TXNET_SYSFS "/%s", net);
	return access(path, F_OK) == 0;
}

static inline int param_write(const char *param, const char *val)
{
	char path[256];

	errno = 0;
	snprintf(path, sizeof(path), TXNET_PARAMS "/%s", param);
	return write_str(path, val);
}

static inline int param_read(const char *param, char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), TXNET_PARAMS "/%s", param);
	return read_str(path, buf, len);
}


/* ---- exchanges and ports: RUN, STOP, RUN_DONE, SEND, RECV ---- */

/* TXNET_A_RESULT, parsed.  has[] says which TXNET_A_RES_* were present. */
struct txnl_result {
	bool present;		/* the nest itself was there */
	bool has[TXNET_A_RES_MAX + 1];
	uint32_t run_id, status, op, algo, port_model, nodes, payload;
	uint64_t seed, steps, ticks, lower_bound, expected_steps;
	uint64_t transmissions, delivered, expected_deliveries;
	uint8_t verified;
	uint64_t wall_ns, max_lateness_ns, busy_ns, tick_ns;
	uint32_t max_queue, max_queue_node;
	char error[128];
	uint64_t error_tick;
	uint32_t error_node;
	uint32_t root;
	char bound[64];
	uint64_t min_transmissions, values_seed, max_ticks, config;
	int64_t values[TXNET_RES_QUEUE_MAX_NODES];
	uint32_t nvalues;
	uint32_t config_x, block_stage, block_switch, block_inputs[2];
	uint32_t reroutes, links_down;
	uint64_t shared_hops;
};

/* Parse a TXNET_A_RESULT nest into @r; 0 or -EINVAL. */
static inline int txnl_parse_result(struct nlattr *nest, struct txnl_result *r)
{
	struct nlattr *tb[TXNET_A_RES_MAX + 1];
	int i;

	memset(r, 0, sizeof(*r));
	if (!nest)
		return 0;
	if (nla_parse_nested(tb, TXNET_A_RES_MAX, nest, NULL) < 0)
		return -EINVAL;
	r->present = true;
	for (i = 0; i <= TXNET_A_RES_MAX; i++)
		r->has[i] = tb[i] != NULL;
#define R32(a, f) do { if (tb[a]) r->f = nla_get_u32(tb[a]); } while (0)
#define R64(a, f) do { if (tb[a]) r->f = nla_get_u64(tb[a]); } while (0)
	R32(TXNET_A_RES_RUN_ID, run_id);
	R32(TXNET_A_RES_STATUS, status);
	R32(TXNET_A_RES_OP, op);
	R32(TXNET_A_RES_ALGO, algo);
	R32(TXNET_A_RES_PORT_MODEL, port_model);
	R32(TXNET_A_RES_NODES, nodes);
	R32(TXNET_A_RES_PAYLOAD, payload);
	R64(TXNET_A_RES_SEED, seed);
	R64(TXNET_A_RES_STEPS, steps);
	R64(TXNET_A_RES_TICKS, ticks);
	R64(TXNET_A_RES_LOWER_BOUND, lower_bound);
	R64(TXNET_A_RES_EXPECTED_STEPS, expected_steps);
	R64(TXNET_A_RES_TRANSMISSIONS, transmissions);
	R64(TXNET_A_RES_DELIVERED, delivered);
	R64(TXNET_A_RES_EXPECTED_DELIVERIES, expected_deliveries);
	R64(TXNET_A_RES_WALL_NS, wall_ns);
	R64(TXNET_A_RES_MAX_LATENESS_NS, max_lateness_ns);
	R64(TXNET_A_RES_BUSY_NS, busy_ns);
	R64(TXNET_A_RES_TICK_NS, tick_ns);
	R32(TXNET_A_RES_MAX_QUEUE, max_queue);
	R32(TXNET_A_RES_MAX_QUEUE_NODE, max_queue_node);
	R64(TXNET_A_RES_ERROR_TICK, error_tick);
	R32(TXNET_A_RES_ERROR_NODE, error_node);
	R32(TXNET_A_RES_ROOT, root);
	R64(TXNET_A_RES_MIN_TRANSMISSIONS, min_transmissions);
	R64(TXNET_A_RES_VALUES_SEED, values_seed);
	R64(TXNET_A_RES_MAX_TICKS, max_ticks);
	R64(TXNET_A_RES_CONFIG, config);
	R32(TXNET_A_RES_CONFIG_X, config_x);
	R32(TXNET_A_RES_BLOCK_STAGE, block_stage);
	R32(TXNET_A_RES_BLOCK_SWITCH, block_switch);
	R32(TXNET_A_RES_REROUTES, reroutes);
	R32(TXNET_A_RES_LINKS_DOWN, links_down);
	R64(TXNET_A_RES_SHARED_HOPS, shared_hops);
#undef R32
#undef R64
	if (tb[TXNET_A_RES_VERIFIED])
		r->verified = nla_get_u8(tb[TXNET_A_RES_VERIFIED]);
	if (tb[TXNET_A_RES_ERROR])
		nla_strlcpy(r->error, tb[TXNET_A_RES_ERROR], sizeof(r->error));
	if (tb[TXNET_A_RES_BOUND])
		nla_strlcpy(r->bound, tb[TXNET_A_RES_BOUND], sizeof(r->bound));
	if (tb[TXNET_A_RES_BLOCK_INPUTS]) {
		if (nla_len(tb[TXNET_A_RES_BLOCK_INPUTS]) != sizeof(r->block_inputs))
			return -EINVAL;
		memcpy(r->block_inputs, nla_data(tb[TXNET_A_RES_BLOCK_INPUTS]),
		       sizeof(r->block_inputs));
	}
	if (tb[TXNET_A_RES_VALUES]) {
		r->nvalues = nla_len(tb[TXNET_A_RES_VALUES]) / sizeof(int64_t);
		if (r->nvalues > TXNET_RES_QUEUE_MAX_NODES)
			return -EINVAL;
		memcpy(r->values, nla_data(tb[TXNET_A_RES_VALUES]), r->nvalues * sizeof(int64_t));
	}
	return 0;
}

/*
 * Everything a txnet message may carry beyond struct txnet_info: run
 * progress, ports counters, the last result (GET), the run id (GET, RUN
 * reply, RUN_DONE).
 */
struct txnl_netx {
	struct txnet_info info;
	uint32_t run_id;		/* TXNET_A_RUN_ID */
	uint64_t run_ticks, run_delivered, run_expected;
	uint32_t ports_in_flight, ports_unread;
	struct txnl_result res;		/* TXNET_A_RESULT (res.present) */
	/* TXNET_A_CABLES_CUT: pairs; TXNET_A_NODES_DOWN */
	uint32_t ncables, cables[2 * TXNET_FAULTS_LISTED];
	uint32_t nnodes_down, nodes_down[TXNET_FAULTS_LISTED];
};

/* A binary attribute of at most @max u32s into @to (none: 0 of them); -EINVAL if malformed. */
static inline int txnl_u32s(const struct nlattr *a, uint32_t *to, uint32_t max, uint32_t *n)
{
	int len = a ? nla_len(a) : 0;

	if (len % 4 || len > (int)(max * sizeof(uint32_t)))
		return -EINVAL;
	if (len)
		memcpy(to, nla_data(a), len);
	*n = len / 4;
	return 0;
}

static inline int txnl_parse_netx(struct nlmsghdr *h, struct txnl_netx *x)
{
	struct nlattr *tb[TXNET_A_MAX + 1];

	memset(x, 0, sizeof(*x));
	if (txnl_parse(h, &x->info))
		return -EINVAL;
	if (genlmsg_parse(h, 0, tb, TXNET_A_MAX, NULL) < 0)
		return -EINVAL;
	if (tb[TXNET_A_RUN_ID])
		x->run_id = nla_get_u32(tb[TXNET_A_RUN_ID]);
	if (tb[TXNET_A_RUN_TICKS])
		x->run_ticks = nla_get_u64(tb[TXNET_A_RUN_TICKS]);
	if (tb[TXNET_A_RUN_DELIVERED])
		x->run_delivered = nla_get_u64(tb[TXNET_A_RUN_DELIVERED]);
	if (tb[TXNET_A_RUN_EXPECTED])
		x->run_expected = nla_get_u64(tb[TXNET_A_RUN_EXPECTED]);
	if (tb[TXNET_A_PORTS_IN_FLIGHT])
		x->ports_in_flight = nla_get_u32(tb[TXNET_A_PORTS_IN_FLIGHT]);
	if (tb[TXNET_A_PORTS_UNREAD])
		x->ports_unread = nla_get_u32(tb[TXNET_A_PORTS_UNREAD]);
	if (txnl_u32s(tb[TXNET_A_CABLES_CUT], x->cables, 2 * TXNET_FAULTS_LISTED, &x->ncables) ||
	    txnl_u32s(tb[TXNET_A_NODES_DOWN], x->nodes_down, TXNET_FAULTS_LISTED, &x->nnodes_down))
		return -EINVAL;
	x->ncables /= 2;
	return txnl_parse_result(tb[TXNET_A_RESULT], &x->res);
}

static inline int txnl_netx_one(struct nlmsghdr *h, void *arg)
{
	return txnl_parse_netx(h, arg) ? -EBADMSG : 0;
}

/* GET with everything: progress, ports, last result. */
static inline int txnl_getx(struct txnl *t, const char *name, struct txnl_netx *out)
{
	struct txnl_netx dummy;
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_GET, 0);

	if (!m)
		return t->err = -ENOMEM;
	if (name && nla_put_string(m, TXNET_A_NAME, name) < 0) {
		nlmsg_free(m);
		return t->err = -ENOMEM;
	}
	memset(out ? out : &dummy, 0, sizeof(dummy));
	return txnl_xfer_raw(t, m, txnl_netx_one, out ? out : &dummy);
}

/*
 * A RUN request.  op 0 leaves TXNET_A_OP out; the has_* flags send the
 * optional attributes.
 */
struct txnl_run_req {
	const char *name;
	uint32_t op;
	bool has_algo, has_payload, has_seed;
	uint32_t algo, payload;
	uint64_t seed;
	/* test-only: written to debugfs txnet/<name>/fault before the request */
	const char *fault;
	/* sends the retired TXNET_A_UNUSED_21 (once the fault), which must be refused */
	bool has_unused21;
	/* collectives */
	bool has_root, has_values_seed, has_max_ticks, has_config;
	uint32_t root;
	const int64_t *values;		/* sent when non-NULL */
	uint32_t nvalues;
	uint64_t values_seed, max_ticks, config;
	const uint32_t *dests;		/* permutation: sent when non-NULL */
	uint32_t ndests;
	const uint32_t *config_rows;	/* latin's M: sent when non-NULL */
	uint32_t nrows;
	/* a schedule to replay (four u32 a step), sent when non-NULL, with what it was made for */
	const uint32_t *schedule;
	uint32_t nsteps;
	const char *schedule_spec;
	bool save;			/* keep the moves the engine accepts */
	/* filled in by txnl_run(): where each attribute sat, -1 if not sent */
	int off_name, off_op, off_algo, off_payload, off_seed, off_unused21;
	int off_root, off_values, off_values_seed, off_dests, off_config_rows;
};

#define TXNET_DEBUGFS	"/sys/kernel/debug/txnet"

/* Arm debugfs txnet/<net>/fault for the next run; 0 or -errno. */
static inline int set_fault(const char *net, const char *fault)
{
	char path[128];

	snprintf(path, sizeof(path), TXNET_DEBUGFS "/%s/fault", net);
	return write_str(path, fault);
}

/* RUN; on success *run_id (may be NULL) is the reply's TXNET_A_RUN_ID. */
static inline int txnl_run(struct txnl *t, struct txnl_run_req *r, uint32_t *run_id)
{
	struct txnl_netx x;
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_RUN, 0);
	int ret;

	if (!m)
		return t->err = -ENOMEM;
	r->off_name = r->off_op = r->off_algo = r->off_payload = r->off_seed = r->off_unused21 = -1;
	r->off_root = r->off_values = r->off_values_seed = r->off_dests = r->off_config_rows = -1;
	if (r->fault) {
		ret = set_fault(r->name, r->fault);
		if (ret) {
			nlmsg_free(m);
			return t->err = ret;
		}
	}
#define RPUT(cond, field, call) do {					\
		if (cond) {						\
			field = txnl_tail(m);				\
			if (call < 0) {					\
				nlmsg_free(m);				\
				return t->err = -ENOMEM;		\
			}						\
		}							\
	} while (0)
	RPUT(r->name, r->off_name, nla_put_string(m, TXNET_A_NAME, r->name));
	RPUT(r->op, r->off_op, nla_put_u32(m, TXNET_A_OP, r->op));
	RPUT(r->has_algo, r->off_algo, nla_put_u32(m, TXNET_A_ALGO, r->algo));
	RPUT(r->has_payload, r->off_payload, nla_put_u32(m, TXNET_A_PAYLOAD, r->payload));
	RPUT(r->has_seed, r->off_seed, nla_put_u64(m, TXNET_A_SEED, r->seed));
	RPUT(r->has_unused21, r->off_unused21, nla_put_u32(m, TXNET_A_UNUSED_21, 1));
	RPUT(r->has_root, r->off_root, nla_put_u32(m, TXNET_A_ROOT, r->root));
	RPUT(r->values, r->off_values,
	     nla_put(m, TXNET_A_VALUES, r->nvalues * sizeof(int64_t), r->values));
	RPUT(r->has_values_seed, r->off_values_seed,
	     nla_put_u64(m, TXNET_A_VALUES_SEED, r->values_seed));
	RPUT(r->dests, r->off_dests,
	     nla_put(m, TXNET_A_DESTS, r->ndests * sizeof(uint32_t), r->dests));
	RPUT(r->config_rows, r->off_config_rows,
	     nla_put(m, TXNET_A_CONFIG_ROWS, r->nrows * sizeof(uint32_t), r->config_rows));
	if ((r->has_max_ticks && nla_put_u64(m, TXNET_A_MAX_TICKS, r->max_ticks) < 0) ||
	    (r->has_config && nla_put_u64(m, TXNET_A_CONFIG, r->config) < 0) ||
	    (r->schedule && nla_put(m, TXNET_A_SCHEDULE, r->nsteps * 16, r->schedule) < 0) ||
	    (r->schedule_spec && nla_put_string(m, TXNET_A_SCHEDULE_SPEC, r->schedule_spec) < 0) ||
	    (r->save && nla_put_u8(m, TXNET_A_SAVE, 1) < 0)) {
		nlmsg_free(m);
		return t->err = -ENOMEM;
	}
#undef RPUT
	memset(&x, 0, sizeof(x));
	ret = txnl_xfer_raw(t, m, txnl_netx_one, &x);
	if (!ret && !x.run_id)
		ret = t->err = -EBADMSG;	/* a RUN reply always carries the run id */
	if (!ret && run_id)
		*run_id = x.run_id;
	return ret;
}

/* RUN total exchange with @algo (TXNET_ALGO_AUTO included). */
static inline int txnl_run_algo(struct txnl *t, const char *name, uint32_t algo,
				uint32_t *run_id)
{
	struct txnl_run_req r = {
		.name = name, .op = TXNET_OP_TOTAL_EXCHANGE, .has_algo = true, .algo = algo,
	};

	return txnl_run(t, &r, run_id);
}

static inline int txnl_stop(struct txnl *t, const char *name)
{
	return txnl_named(t, TXNET_CMD_STOP, name, NULL);
}

/*
 * The next txnet message on an events socket (NEW, DEL, RUN_DONE), waiting
 * up to @ms: 1 (in @x), 0 on timeout, or -errno.  Unlike txnl_event() it
 * keeps no state between calls: a multicast datagram holds one message.
 * Do not mix the two on one socket.
 */
static inline int txnl_event_x(struct txnl *t, struct txnl_netx *x, int ms)
{
	struct pollfd p = { .fd = nl_socket_get_fd(t->sk), .events = POLLIN };
	struct sockaddr_nl who;
	struct timespec t0, now;
	unsigned char *buf;
	struct nlmsghdr *h;
	int n, left = ms, ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = poll(&p, 1, left);
		if (ret < 0)
			return -errno;
		if (!ret)
			return 0;
		buf = NULL;
		n = nl_recv(t->sk, &who, &buf, NULL);
		if (n <= 0) {
			free(buf);
			return n == -NLE_NOMEM ? -ENOBUFS : -EIO;
		}
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_type != t->family)
				continue;
			ret = txnl_parse_netx(h, x) ? -EBADMSG : 1;
			free(buf);
			return ret;
		}
		free(buf);
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - (int)((now.tv_sec - t0.tv_sec) * 1000 +
				  (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return 0;
	}
}

/*
 * Wait up to @ms for the RUN_DONE of run @run_id (0: any run) of network
 * @name, skipping every other event: 1 (result in @res), 0 on timeout, or
 * -errno.
 */
static inline int txnl_run_done(struct txnl *ev, const char *name, uint32_t run_id, int ms,
				struct txnl_result *res)
{
	struct timespec t0, now;
	struct txnl_netx x;
	int ret, left = ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = txnl_event_x(ev, &x, left);
		if (ret <= 0)
			return ret;
		if (x.info.cmd == TXNET_CMD_RUN_DONE && !strcmp(x.info.name, name) &&
		    (!run_id || x.run_id == run_id)) {
			*res = x.res;
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - (int)((now.tv_sec - t0.tv_sec) * 1000 +
				  (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			return 0;
	}
}

/* Where the attributes of the last txnl_send_at() sat; -1 if not sent. */
struct txnl_send_offs {
	int name, src, dst, data;
};

/*
 * SEND @len bytes of @data (NULL: no TXNET_A_DATA) from @src to @dst;
 * @offs (may be NULL) receives the attributes' offsets.
 */
static inline int txnl_send_at(struct txnl *t, const char *name, uint32_t src, uint32_t dst,
			       const void *data, size_t len, struct txnl_send_offs *offs)
{
	struct txnl_send_offs o = { -1, -1, -1, -1 };
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_SEND, 0);

	if (!m)
		return t->err = -ENOMEM;
	if (name) {
		o.name = txnl_tail(m);
		if (nla_put_string(m, TXNET_A_NAME, name) < 0)
			goto fail;
	}
	o.src = txnl_tail(m);
	if (nla_put_u32(m, TXNET_A_SRC, src) < 0)
		goto fail;
	o.dst = txnl_tail(m);
	if (nla_put_u32(m, TXNET_A_DST, dst) < 0)
		goto fail;
	if (data) {
		o.data = txnl_tail(m);
		if (nla_put(m, TXNET_A_DATA, (int)len, data) < 0)
			goto fail;
	}
	if (offs)
		*offs = o;
	return txnl_xfer_raw(t, m, NULL, NULL);
fail:
	nlmsg_free(m);
	return t->err = -ENOMEM;
}

static inline int txnl_send(struct txnl *t, const char *name, uint32_t src, uint32_t dst,
			    const void *data, size_t len)
{
	return txnl_send_at(t, name, src, dst, data, len, NULL);
}

/* One packet read from a port. */
struct txnl_pmsg {
	uint32_t src, dst, len;
	uint64_t sent_tick, recv_tick;
	uint8_t data[TXNET_PORT_DATA_MAX];
};

struct txnl_pmsgs {
	int n, cap;
	struct txnl_pmsg *m;	/* cap entries, caller's */
	int replied;		/* RECV replies seen */
};

static inline int txnl_pmsgs_one(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[TXNET_A_MAX + 1], *mtb[TXNET_A_MSG_MAX + 1], *a;
	struct txnl_pmsgs *l = arg;
	struct txnl_pmsg *p;
	int rem;

	if (genlmsg_parse(h, 0, tb, TXNET_A_MAX, NULL) < 0)
		return -EBADMSG;
	l->replied++;
	if (!tb[TXNET_A_MSGS])
		return -EBADMSG;	/* the nest is always there, empty when nothing came */
	nla_for_each_nested(a, tb[TXNET_A_MSGS], rem) {
		if (nla_parse_nested(mtb, TXNET_A_MSG_MAX, a, NULL) < 0 ||
		    !mtb[TXNET_A_MSG_SRC] || !mtb[TXNET_A_MSG_DST] || !mtb[TXNET_A_MSG_DATA] ||
		    !mtb[TXNET_A_MSG_SENT_TICK] || !mtb[TXNET_A_MSG_RECV_TICK] ||
		    nla_len(mtb[TXNET_A_MSG_DATA]) > TXNET_PORT_DATA_MAX)
			return -EBADMSG;
		if (l->n == l->cap)
			return -ENOSPC;
		p = &l->m[l->n++];
		p->src = nla_get_u32(mtb[TXNET_A_MSG_SRC]);
		p->dst = nla_get_u32(mtb[TXNET_A_MSG_DST]);
		p->sent_tick = nla_get_u64(mtb[TXNET_A_MSG_SENT_TICK]);
		p->recv_tick = nla_get_u64(mtb[TXNET_A_MSG_RECV_TICK]);
		p->len = (uint32_t)nla_len(mtb[TXNET_A_MSG_DATA]);
		memcpy(p->data, nla_data(mtb[TXNET_A_MSG_DATA]), p->len);
	}
	return 0;
}

/*
 * One RECV at @node: the packets it returned are appended to @l.  Returns
 * the number appended (0: the port was empty) or -errno.
 */
static inline int txnl_recv_at(struct txnl *t, const char *name, uint32_t node,
			       struct txnl_pmsgs *l, int *off_node)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_RECV, 0);
	int before = l->n, ret, off;

	if (!m)
		return t->err = -ENOMEM;
	if (name && nla_put_string(m, TXNET_A_NAME, name) < 0)
		goto fail;
	off = txnl_tail(m);
	if (nla_put_u32(m, TXNET_A_NODE, node) < 0)
		goto fail;
	if (off_node)
		*off_node = off;
	ret = txnl_xfer_raw(t, m, txnl_pmsgs_one, l);
	return ret ? ret : l->n - before;
fail:
	nlmsg_free(m);
	return t->err = -ENOMEM;
}

static inline int txnl_recv(struct txnl *t, const char *name, uint32_t node,
			    struct txnl_pmsgs *l)
{
	return txnl_recv_at(t, name, node, l, NULL);
}

/* RECV at @node until a reply comes back empty: total appended or -errno. */
static inline int txnl_recv_all(struct txnl *t, const char *name, uint32_t node,
				struct txnl_pmsgs *l)
{
	int ret, total = 0;

	while ((ret = txnl_recv(t, name, node, l)) > 0)
		total += ret;
	return ret < 0 ? ret : total;
}

#endif /* TXNET_SELFTEST_NL_H */
