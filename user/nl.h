/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: the generic netlink client of the txnet family (libmnl).
 *
 * Every function returns 0 or a negative errno; the kernel's extended
 * ack message, if any, is kept in txnl.errmsg and printed by
 * txnl_perror() as "Error: <msg>." (or "Error: <strerror>.").
 */
#ifndef TXCTL_NL_H
#define TXCTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* Large enough for any dump part the kernel sends (32 KiB). */
#define TXNL_BUF_SIZE	32768

/* Called for every message of the txnet family; < 0 stops with that error. */
typedef int (*txnl_cb)(const struct nlmsghdr *nlh, void *data);

struct txnl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;		/* resolved id of "txnet" */
	uint32_t version;		/* the family's version */
	uint32_t events_group;		/* id of the "events" group, 0 if none */
	char errmsg[256];		/* extack message of the last error */
	/* what the last error blamed, to name it when the core's message does not */
	const struct nlmsghdr *req;	/* the request in flight */
	uint32_t bad_off;		/* NLMSGERR_ATTR_OFFS, 0 if none */
	bool has_range;			/* NLMSGERR_ATTR_POLICY gave a range */
	uint64_t range_min, range_max;
};

/*
 * Start a request in buf (TXNL_BUF_SIZE bytes): netlink header with
 * NLM_F_REQUEST | flags, genl header with cmd and version.  The family
 * id and sequence number are filled in when it is sent.
 */
struct nlmsghdr *txnl_msg(void *buf, uint8_t cmd, uint16_t flags);

/*
 * Open a socket and resolve the family, loading the txnet module with
 * libkmod if the family is missing.  Prints its own errors.
 */
int txnl_open(struct txnl *nl);
void txnl_close(struct txnl *nl);

/* Send nlh with NLM_F_ACK, pass replies to cb, wait for the ack. */
int txnl_request(struct txnl *nl, struct nlmsghdr *nlh, txnl_cb cb,
		 void *data);
/*
 * Dump with nlh (NLM_F_DUMP is added).  If the kernel flags the dump as
 * inconsistent (NLM_F_DUMP_INTR), reset(data) is called and the dump is
 * restarted from scratch.
 */
int txnl_dump(struct txnl *nl, struct nlmsghdr *nlh, txnl_cb cb,
	      void (*reset)(void *data), void *data);
/* Join the "events" multicast group. */
int txnl_subscribe(struct txnl *nl);
/* Receive notifications until cb fails, an error, or *stop is set. */
int txnl_listen(struct txnl *nl, txnl_cb cb, void *data,
		volatile int *stop);

/* The socket's descriptor, to poll(2) it. */
int txnl_fd(const struct txnl *nl);
/*
 * Receive one batch of notifications (blocks unless txnl_fd() polls
 * readable) and pass them to cb.  0, -ENOBUFS if notifications were
 * lost, or another negative errno.  A subscribed socket should not send
 * requests too: a queue full of notifications would drop the replies.
 */
int txnl_recv_events(struct txnl *nl, txnl_cb cb, void *data);

void txnl_perror(const struct txnl *nl, int err);

/*
 * Let the socket send a request of @len bytes (a graph's cables): the
 * send buffer raised past the system's default cap where the caller may
 * (CAP_NET_ADMIN, which creating a network needs anyway).
 */
int txnl_room(struct txnl *nl, size_t len);

/*
 * A list too long for one attribute (a length is 16 bits) as repeated
 * attributes of @type, each a whole number of @unit-byte items, which
 * the kernel joins in order: the room it takes, and its attributes put
 * in @nlh (of @room bytes): 0, or -EMSGSIZE.
 */
size_t txnl_list_room(size_t bytes, size_t unit);
int txnl_put_list(struct nlmsghdr *nlh, size_t room, uint16_t type, const void *v, size_t bytes,
		  size_t unit);

/*
 * Whole commands that print nothing on success (destroy, stop, set,
 * send): open a socket, send nlh (built with txnl_msg()), wait for the
 * ack, print any error, close.  These return an exit status (EXIT_OK or
 * EXIT_KERNEL), not an errno.
 */
int txnl_ack_request(struct nlmsghdr *nlh);
/* txnl_ack_request() of cmd with TXNET_A_NAME = name only. */
int txnl_name_cmd(uint8_t cmd, const char *name);

#endif /* TXCTL_NL_H */
