// SPDX-License-Identifier: GPL-2.0
/* txctl recv: print, and so remove, what arrived at a processor's port. */
#include <inttypes.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "txctl.h"

void usage_recv(FILE *f)
{
	fprintf(f, "Usage: txctl recv NET NODE\n"
		   "       (NODE: a processor number)\n");
}

/* One element of TXNET_A_MSGS. */
struct port_msg {
	uint32_t present;	/* bit (1 << TXNET_A_MSG_x) per valid attribute */
	uint32_t src;
	uint32_t dst;
	const void *data;	/* in the receive buffer: print before the next */
	uint16_t len;
	uint64_t sent_tick;
	uint64_t recv_tick;
};

_Static_assert(TXNET_A_MSG_MAX < 32, "port_msg.present is a u32 bitmap");

static bool msg_has(const struct port_msg *m, int attr)
{
	return m->present & (1U << attr);
}

struct recv_state {
	uint32_t node;		/* the port read */
	unsigned int nmsgs;	/* elements in the last reply */
	bool opened;		/* the JSON array is open */
};

/* The array opens with the first packet: an error alone prints nothing. */
static void open_list(struct recv_state *st)
{
	if (!st->opened)
		open_json_array(NULL);
	st->opened = true;
}

static void parse_u32(const struct nlattr *a, uint32_t *v, bool *ok)
{
	*ok = mnl_attr_validate(a, MNL_TYPE_U32) >= 0;
	if (*ok)
		*v = mnl_attr_get_u32(a);
}

static void parse_u64(const struct nlattr *a, uint64_t *v, bool *ok)
{
	*ok = mnl_attr_validate(a, MNL_TYPE_U64) >= 0;
	if (*ok)
		*v = mnl_attr_get_u64(a);
}

static void parse_msg(const struct nlattr *elem, struct port_msg *m)
{
	const struct nlattr *a;

	memset(m, 0, sizeof(*m));
	mnl_attr_for_each_nested(a, elem) {
		int type = mnl_attr_get_type(a);
		bool ok = false;

		switch (type) {
		case TXNET_A_MSG_SRC:	parse_u32(a, &m->src, &ok); break;
		case TXNET_A_MSG_DST:	parse_u32(a, &m->dst, &ok); break;
		case TXNET_A_MSG_SENT_TICK: parse_u64(a, &m->sent_tick, &ok); break;
		case TXNET_A_MSG_RECV_TICK: parse_u64(a, &m->recv_tick, &ok); break;
		case TXNET_A_MSG_DATA:
			ok = true;
			m->data = mnl_attr_get_payload(a);
			m->len = mnl_attr_get_payload_len(a);
			break;
		default:
			/* TXNET_A_MSG_PAD and attributes newer than this txctl */
			break;
		}
		if (ok && type < 32)
			m->present |= 1U << type;
	}
}

/*
 * Text:  4 <- 0: "hello" sent-tick 12 recv-tick 14      (one line)
 * JSON:  {"src":0,"dst":4,"sent_tick":12,"recv_tick":14,"data":"hello"}
 * A field the kernel did not send is left out.
 */
static void print_msg(const struct port_msg *m, uint32_t node)
{
	open_json_object(NULL);
	print_uint(PRINT_TEXT, NULL, "%u <-",
		   msg_has(m, TXNET_A_MSG_DST) ? m->dst : node);
	if (msg_has(m, TXNET_A_MSG_SRC))
		print_uint(PRINT_ANY, "src", " %u", m->src);
	print_string(PRINT_TEXT, NULL, "%s", ":");
	if (msg_has(m, TXNET_A_MSG_DST))
		print_uint(PRINT_JSON, "dst", NULL, m->dst);
	if (msg_has(m, TXNET_A_MSG_DATA))
		print_bytes(PRINT_TEXT, NULL, " \"%s\"", m->data, m->len);
	if (msg_has(m, TXNET_A_MSG_SENT_TICK))
		print_u64(PRINT_ANY, "sent_tick", " sent-tick %" PRIu64,
			  m->sent_tick);
	if (msg_has(m, TXNET_A_MSG_RECV_TICK))
		print_u64(PRINT_ANY, "recv_tick", " recv-tick %" PRIu64,
			  m->recv_tick);
	if (msg_has(m, TXNET_A_MSG_DATA))
		print_bytes(PRINT_JSON, "data", NULL, m->data, m->len);
	close_json_object();
	print_nl();
}

/* Print each packet as it comes: the kernel has already removed it. */
static int recv_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct recv_state *st = data;
	const struct nlattr *a, *elem;
	struct port_msg m;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) ||
	    genl->cmd != TXNET_CMD_RECV)
		return 0;
	mnl_attr_for_each(a, nlh, sizeof(*genl)) {
		if (mnl_attr_get_type(a) != TXNET_A_MSGS ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			continue;
		mnl_attr_for_each_nested(elem, a) {
			st->nmsgs++;
			if (mnl_attr_validate(elem, MNL_TYPE_NESTED) < 0)
				continue;
			parse_msg(elem, &m);
			open_list(st);
			print_msg(&m, st->node);
		}
	}
	return 0;
}

int do_recv(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct recv_state st = { 0, 0, false };
	struct nlmsghdr *nlh;
	const char *name;
	struct txnl nl;
	int err;

	if (wants_help(argc, argv)) {
		usage_recv(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_recv);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage_recv);
	st.node = get_u32_nonneg(*argv, "NODE");
	if (argc > 1)
		unknown_keyword(argv[1], usage_recv);

	nlh = txnl_msg(tx.buf, TXNET_CMD_RECV, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	mnl_attr_put_u32(nlh, TXNET_A_NODE, st.node);
	if (txnl_open(&nl))
		return EXIT_KERNEL;
	/* one reply holds what fits: ask again until the port is empty */
	do {
		st.nmsgs = 0;
		err = txnl_request(&nl, nlh, recv_cb, &st);
	} while (!err && st.nmsgs);
	/* what was taken is printed, even if a later request failed */
	if (!err)
		open_list(&st);
	if (st.opened)
		close_json_array();
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	return err ? EXIT_KERNEL : EXIT_OK;
}
