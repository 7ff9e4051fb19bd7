// SPDX-License-Identifier: GPL-2.0
/* txctl: generic netlink client of the txnet family (libmnl, libkmod). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include <libkmod.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/txnet.h>

#include "nl.h"
#include "txctl.h"

#define TXNET_MODULE_ALIAS	"net-pf-16-proto-16-family-" TXNET_GENL_NAME
#define TXNET_MODULE_NAME	"txnet"
/* A dump restarted this often is given up. */
#define DUMP_RETRIES		16

/* The receive buffer; aligned for struct nlmsghdr. */
static union {
	char buf[TXNL_BUF_SIZE];
	struct nlmsghdr align;
} rx;

struct nlmsghdr *txnl_msg(void *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = TXNET_GENL_VERSION;
	return nlh;
}

/* ---- errors and extended acks ---- */

static int policy_attr_cb(const struct nlattr *attr, void *data)
{
	struct txnl *nl = data;

	if (mnl_attr_validate(attr, MNL_TYPE_U64) < 0)
		return MNL_CB_OK;
	switch (mnl_attr_get_type(attr)) {
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		nl->range_min = mnl_attr_get_u64(attr);
		nl->has_range = true;
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		nl->range_max = mnl_attr_get_u64(attr);
		nl->has_range = true;
		break;
	}
	return MNL_CB_OK;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct txnl *nl = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
				 mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			nl->bad_off = mnl_attr_get_u32(attr);
		break;
	case NLMSGERR_ATTR_POLICY:
		mnl_attr_parse_nested(attr, policy_attr_cb, nl);
		break;
	}
	return MNL_CB_OK;
}

/* txctl's words for the attributes a request carries (TXNET_A_*). */
static const char *const attr_names[TXNET_A_MAX + 1] = {
	[TXNET_A_NAME] = "name", [TXNET_A_TOPOLOGY] = "topology", [TXNET_A_BASE] = "base",
	[TXNET_A_DIMS] = "dimensions", [TXNET_A_PORT_MODEL] = "port",
	[TXNET_A_TICK_NS] = "tick-ns", [TXNET_A_OP] = "operation", [TXNET_A_ALGO] = "algo",
	[TXNET_A_PAYLOAD] = "payload", [TXNET_A_SEED] = "seed", [TXNET_A_SRC] = "source",
	[TXNET_A_DST] = "destination", [TXNET_A_DATA] = "data", [TXNET_A_NODE] = "node",
};

/*
 * The netlink core's policy messages ("integer out of range") do not say
 * which field: name the attribute the ack points at, and the range the
 * policy gave, from the request txctl sent.
 */
static void name_the_field(struct txnl *nl)
{
	const struct nlmsghdr *req = nl->req;
	const struct nlattr *a;
	const char *what = NULL;
	size_t len = strlen(nl->errmsg);

	if (!req || !nl->bad_off || !nl->has_range || nl->bad_off >= req->nlmsg_len)
		return;
	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		uint16_t type = mnl_attr_get_type(a);
		uint32_t start = (uint32_t)((const char *)a - (const char *)req);

		if (nl->bad_off < start || nl->bad_off >= start + a->nla_len)
			continue;
		if (type == TXNET_A_DIMS && nl->bad_off != start)
			what = "dimension kind";
		else if (type <= TXNET_A_MAX)
			what = attr_names[type];
		break;
	}
	if (what && len + 1 < sizeof(nl->errmsg))
		snprintf(nl->errmsg + len, sizeof(nl->errmsg) - len,
			 ": %s must be %llu..%llu", what,
			 (unsigned long long)nl->range_min, (unsigned long long)nl->range_max);
}

/* TLVs start hlen bytes (aligned) into the payload of nlh. */
static void parse_extack(struct txnl *nl, const struct nlmsghdr *nlh,
			 size_t hlen)
{
	nl->bad_off = 0;
	nl->has_range = false;
	nl->range_min = nl->range_max = 0;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (MNL_ALIGN(hlen) >= mnl_nlmsg_get_payload_len(nlh))
		return;
	mnl_attr_parse(nlh, hlen, extack_attr_cb, nl);
	name_the_field(nl);
}

static void print_msg(const char *prefix, const char *msg)
{
	size_t len = strlen(msg);

	/* one line ending in one newline, whatever the message ends with */
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	fprintf(stderr, "%s: %.*s%s\n", prefix, (int)len, msg,
		len && msg[len - 1] == '.' ? "" : ".");
}

/* NLMSG_ERROR: 0 for an ack, else the negative errno. */
static int parse_error(struct txnl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	size_t hlen = sizeof(*e);
	int err;

	if (plen < sizeof(int))
		return -EBADMSG;
	err = e->error;
	if (plen >= sizeof(*e)) {
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e->msg.nlmsg_len < sizeof(struct nlmsghdr) ||
			    e->msg.nlmsg_len > plen)
				return err > 0 ? -err : err;
			hlen += mnl_nlmsg_get_payload_len(&e->msg);
		}
		parse_extack(nl, nlh, hlen);
	}
	if (err == 0 && nl->errmsg[0]) {
		print_msg("Warning", nl->errmsg);
		nl->errmsg[0] = '\0';
	}
	return err > 0 ? -err : err;
}

/* NLMSG_DONE of a dump: an int, negative on error, then maybe extack. */
static int parse_done(struct txnl *nl, const struct nlmsghdr *nlh)
{
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int))
		return 0;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err < 0)
		parse_extack(nl, nlh, sizeof(int));
	return err > 0 ? -err : err;
}

static int get_family(struct txnl *nl);

/*
 * Whether the txnet family is gone: a request to a family id that no
 * longer exists fails without an extack message, so ask the controller.
 */
static bool family_gone(void)
{
	struct txnl probe;
	bool gone;

	memset(&probe, 0, sizeof(probe));
	probe.sk = mnl_socket_open(NETLINK_GENERIC);
	if (!probe.sk)
		return false;
	if (mnl_socket_bind(probe.sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(probe.sk);
		return false;
	}
	probe.portid = mnl_socket_get_portid(probe.sk);
	gone = get_family(&probe) == -ENOENT;
	mnl_socket_close(probe.sk);
	return gone;
}

void txnl_perror(const struct txnl *nl, int err)
{
	if (err > 0)
		err = -err;
	if (nl && nl->errmsg[0])
		print_msg("Error", nl->errmsg);
	else if ((err == -ENOENT || err == -EOPNOTSUPP || err == -EPROTONOSUPPORT) &&
		 family_gone())
		print_msg("Error", "txnet was unloaded (its generic netlink family is gone)");
	else
		print_msg("Error", strerror(-err));
}

int txnl_room(struct txnl *nl, size_t len)
{
	int fd = mnl_socket_get_fd(nl->sk), want;

	/* the kernel doubles the value; a message must fit in it less 32 bytes */
	if (len > INT_MAX / 2 - 64) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "request of %zu bytes is too large", len);
		return -EMSGSIZE;
	}
	want = (int)len + 64;
	if (!setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want)) ||
	    !setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)))
		return 0;
	return -errno;
}

/* ---- send and receive ---- */

static int send_msg(struct txnl *nl, struct nlmsghdr *nlh, uint16_t type)
{
	nl->req = nlh;
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = ++nl->seq;
	nl->errmsg[0] = '\0';
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	return 0;
}

/*
 * Receive the replies to request seq until its ack, error or
 * NLMSG_DONE.  Messages of the given type go to cb; others (stale
 * sequence numbers, other types) are skipped.
 */
static int recv_replies(struct txnl *nl, uint32_t seq, uint16_t type,
			txnl_cb cb, void *data, bool *intr)
{
	for (;;) {
		const struct nlmsghdr *nlh = &rx.align;
		ssize_t n;
		int len, err;

		n = mnl_socket_recvfrom(nl->sk, rx.buf, sizeof(rx.buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len = (int)n;
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid)
				continue;
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				*intr = true;
			switch (nlh->nlmsg_type) {
			case NLMSG_NOOP:
				continue;
			case NLMSG_ERROR:
				return parse_error(nl, nlh);
			case NLMSG_DONE:
				return parse_done(nl, nlh);
			case NLMSG_OVERRUN:
				return -ENOBUFS;
			}
			if (nlh->nlmsg_type != type || !cb)
				continue;
			err = cb(nlh, data);
			if (err < 0)
				return err;
		}
	}
}

int txnl_request(struct txnl *nl, struct nlmsghdr *nlh, txnl_cb cb,
		 void *data)
{
	bool intr = false;
	int err;

	nlh->nlmsg_flags |= NLM_F_ACK;
	err = send_msg(nl, nlh, nl->family);
	if (err)
		return err;
	return recv_replies(nl, nl->seq, nl->family, cb, data, &intr);
}

int txnl_dump(struct txnl *nl, struct nlmsghdr *nlh, txnl_cb cb,
	      void (*reset)(void *data), void *data)
{
	int i, err;

	nlh->nlmsg_flags |= NLM_F_DUMP;
	for (i = 0; i < DUMP_RETRIES; i++) {
		bool intr = false;

		err = send_msg(nl, nlh, nl->family);
		if (err)
			return err;
		err = recv_replies(nl, nl->seq, nl->family, cb, data, &intr);
		if (err || !intr)
			return err;
		/* the set changed under the dump: start over */
		if (reset)
			reset(data);
	}
	snprintf(nl->errmsg, sizeof(nl->errmsg),
		 "dump interrupted by concurrent changes %d times",
		 DUMP_RETRIES);
	return -EINTR;
}

/* ---- family resolution ---- */

static int mcast_grp_cb(const struct nlattr *attr, void *data)
{
	struct txnl *nl = data;
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, attr) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				name = mnl_attr_get_str(a);
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				id = mnl_attr_get_u32(a);
			break;
		}
	}
	if (name && !strcmp(name, TXNET_MCGRP_EVENTS))
		nl->events_group = id;
	return MNL_CB_OK;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct txnl *nl = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			nl->family = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_VERSION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			nl->version = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			mnl_attr_parse_nested(attr, mcast_grp_cb, nl);
		break;
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, data);
	return 0;
}

static int get_family(struct txnl *nl)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	bool intr = false;
	int err;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, TXNET_GENL_NAME);

	nl->family = 0;
	nl->events_group = 0;
	err = send_msg(nl, nlh, GENL_ID_CTRL);
	if (err)
		return err;
	err = recv_replies(nl, nl->seq, GENL_ID_CTRL, family_cb, nl, &intr);
	if (!err && !nl->family)
		return -ENOENT;
	return err;
}

static void kmod_quiet(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data; (void)priority; (void)file; (void)line; (void)fn;
	(void)format; (void)args;
}

/* kmod_module_probe_insert_module() returns > 0 when a blacklist refused */
#define PROBE_BLACKLISTED	1

static int probe(struct kmod_module *mod, unsigned int flags)
{
	int err = kmod_module_probe_insert_module(mod, flags, NULL, NULL,
						  NULL, NULL);

	return err > 0 ? PROBE_BLACKLISTED : err;
}

/*
 * Load txnet as modprobe would: by the genetlink family alias, then by
 * name.  On failure, reason says why.
 */
static int load_module(char *reason, size_t len)
{
	struct kmod_list *list = NULL, *it;
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	int err = -ENOENT;

	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		snprintf(reason, len, "cannot initialize libkmod");
		return -ENOMEM;
	}
	kmod_set_log_fn(ctx, kmod_quiet, NULL);

	if (kmod_module_new_from_lookup(ctx, TXNET_MODULE_ALIAS, &list) == 0) {
		kmod_list_foreach(it, list) {
			mod = kmod_module_get_module(it);
			err = probe(mod, KMOD_PROBE_APPLY_BLACKLIST_ALIAS_ONLY);
			kmod_module_unref(mod);
			if (!err)
				break;
		}
		kmod_module_unref_list(list);
	}
	if (err && kmod_module_new_from_name(ctx, TXNET_MODULE_NAME, &mod) == 0) {
		err = probe(mod, 0);
		kmod_module_unref(mod);
	}

	if (err == -ENOENT)
		snprintf(reason, len, "module %s not found in %s",
			 TXNET_MODULE_NAME, kmod_get_dirname(ctx));
	else if (err == PROBE_BLACKLISTED)
		snprintf(reason, len, "module %s is blacklisted",
			 TXNET_MODULE_NAME);
	else if (err)
		snprintf(reason, len, "loading module %s: %s",
			 TXNET_MODULE_NAME, strerror(-err));
	kmod_unref(ctx);
	return err ? (err > 0 ? -EPERM : err) : 0;
}

int txnl_open(struct txnl *nl)
{
	char reason[512];
	int one = 1;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk) {
		err = -errno;
		fprintf(stderr, "Error: cannot open a generic netlink socket: %s.\n",
			strerror(-err));
		return err;
	}
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		fprintf(stderr, "Error: cannot bind the netlink socket: %s.\n",
			strerror(-err));
		txnl_close(nl);
		return err;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);
	/* best effort: old kernels lack them */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));

	err = get_family(nl);
	if (err == -ENOENT) {
		err = load_module(reason, sizeof(reason));
		if (!err) {
			err = get_family(nl);
			if (err == -ENOENT) {
				snprintf(reason, sizeof(reason),
					 "module %s is loaded but registers no generic netlink family \"%s\"",
					 TXNET_MODULE_NAME, TXNET_GENL_NAME);
			} else if (err) {
				txnl_perror(nl, err);
				txnl_close(nl);
				return err;
			}
		}
		if (err) {
			fprintf(stderr, "Error: %s module not available: %s.\n",
				TXNET_MODULE_NAME, reason);
			txnl_close(nl);
			return err;
		}
	} else if (err) {
		txnl_perror(nl, err);
		txnl_close(nl);
		return err;
	}
	return 0;
}

void txnl_close(struct txnl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	nl->sk = NULL;
}

int txnl_subscribe(struct txnl *nl)
{
	uint32_t grp = nl->events_group;

	if (!grp) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "family \"%s\" has no \"%s\" multicast group",
			 TXNET_GENL_NAME, TXNET_MCGRP_EVENTS);
		return -ENOENT;
	}
	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0)
		return -errno;
	/*
	 * nlctrl's "notify" group, to hear when the family goes away
	 * (rmmod): its id is GENL_ID_CTRL, fixed by the kernel
	 * (genl_validate_assign_mc_groups()).
	 */
	grp = GENL_ID_CTRL;
	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0)
		return -errno;
	return 0;
}

static int delfamily_attr_cb(const struct nlattr *attr, void *data)
{
	bool *ours = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_NAME &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0 &&
	    !strcmp(mnl_attr_get_str(attr), TXNET_GENL_NAME))
		*ours = true;
	return MNL_CB_OK;
}

/* Whether @nlh is nlctrl announcing that the txnet family is gone. */
static bool is_txnet_gone(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	bool ours = false;

	if (nlh->nlmsg_type != GENL_ID_CTRL ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) ||
	    genl->cmd != CTRL_CMD_DELFAMILY)
		return false;
	mnl_attr_parse(nlh, sizeof(*genl), delfamily_attr_cb, &ours);
	return ours;
}

int txnl_fd(const struct txnl *nl)
{
	return mnl_socket_get_fd(nl->sk);
}

int txnl_recv_events(struct txnl *nl, txnl_cb cb, void *data)
{
	const struct nlmsghdr *nlh = &rx.align;
	ssize_t n;
	int len, err;

	n = mnl_socket_recvfrom(nl->sk, rx.buf, sizeof(rx.buf));
	if (n < 0)
		return -errno;
	len = (int)n;
	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		if (is_txnet_gone(nlh)) {
			snprintf(nl->errmsg, sizeof(nl->errmsg), "txnet was unloaded");
			return -ENODEV;
		}
		if (nlh->nlmsg_type != nl->family)
			continue;
		err = cb(nlh, data);
		if (err < 0)
			return err;
	}
	return 0;
}

int txnl_listen(struct txnl *nl, txnl_cb cb, void *data, volatile int *stop)
{
	int err;

	while (!*stop) {
		err = txnl_recv_events(nl, cb, data);
		if (err == -EINTR)
			continue;
		if (err == -ENOBUFS) {
			fprintf(stderr, "Warning: events lost (socket receive buffer overrun).\n");
			continue;
		}
		if (err < 0)
			return err;
	}
	return 0;
}

/* ---- whole commands ---- */

int txnl_ack_request(struct nlmsghdr *nlh)
{
	struct txnl nl;
	int err;

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = txnl_request(&nl, nlh, NULL, NULL);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	return err ? EXIT_KERNEL : EXIT_OK;
}

int txnl_name_cmd(uint8_t cmd, const char *name)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;

	nlh = txnl_msg(tx.buf, cmd, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	return txnl_ack_request(nlh);
}

/* An attribute's payload at most: 64 KiB less its header, less what does not make a whole item. */
static size_t list_chunk(size_t unit)
{
	return (65535 - MNL_ALIGN(sizeof(struct nlattr))) / unit * unit;
}

size_t txnl_list_room(size_t bytes, size_t unit)
{
	return bytes + (bytes / list_chunk(unit) + 1) * MNL_ALIGN(sizeof(struct nlattr));
}

int txnl_put_list(struct nlmsghdr *nlh, size_t room, uint16_t type, const void *v, size_t bytes,
		  size_t unit)
{
	size_t off, n, chunk = list_chunk(unit);

	for (off = 0; off < bytes; off += n) {
		n = bytes - off < chunk ? bytes - off : chunk;
		if (!mnl_attr_put_check(nlh, room, type, n, (const char *)v + off))
			return -EMSGSIZE;
	}
	return 0;
}
