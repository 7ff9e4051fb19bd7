// SPDX-License-Identifier: GPL-2.0
/*
 * txctl show NET links: the per-link counters of a network (TXNET_CMD_LINKS);
 * show.c parses the command line and calls show_links().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "array.h"
#include "nl.h"
#include "output.h"
#include "show_links.h"
#include "txctl.h"

struct link_row {
	uint32_t id, from, to;
	uint64_t hops;
	bool down;
};

/* Collected, then printed: a dump the faults interrupted starts over. */
struct link_list {
	struct link_row *v;
	size_t n, cap;
};

static void parse_link(const struct nlattr *nest, struct link_row *r)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_LINK_ID:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->id = mnl_attr_get_u32(a);
			break;
		case TXNET_A_LINK_FROM:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->from = mnl_attr_get_u32(a);
			break;
		case TXNET_A_LINK_TO:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->to = mnl_attr_get_u32(a);
			break;
		case TXNET_A_LINK_HOPS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				r->hops = mnl_attr_get_u64(a);
			break;
		case TXNET_A_LINK_DOWN:
			if (mnl_attr_validate(a, MNL_TYPE_U8) >= 0)
				r->down = mnl_attr_get_u8(a);
			break;
		}
	}
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_list *l = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != TXNET_A_LINK)
			continue;
		if (array_room(&l->v, &l->cap, l->n, sizeof(*l->v), 64))
			return -ENOMEM;
		l->v[l->n] = (struct link_row){ 0 };
		parse_link(a, &l->v[l->n++]);
	}
	return 0;
}

static void reset_links(void *data)
{
	((struct link_list *)data)->n = 0;
}

static void print_links(const char *name, const struct link_list *l, bool all)
{
	size_t i, busy = 0, down = 0;

	for (i = 0; i < l->n; i++) {
		busy += l->v[i].hops > 0;
		down += l->v[i].down;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s:", name);
	print_u64(PRINT_ANY, "links", " %" PRIu64 " links", (uint64_t)l->n);
	print_u64(PRINT_ANY, "carrying", ", %" PRIu64 " carried traffic", (uint64_t)busy);
	print_u64(PRINT_ANY, "links_down", ", %" PRIu64 " down", (uint64_t)down);
	print_nl();
	open_json_array("link");
	for (i = 0; i < l->n; i++) {
		const struct link_row *r = &l->v[i];

		if (!all && !r->hops && !r->down)
			continue;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "id", NULL, r->id);
		print_uint(PRINT_ANY, "from", "  %u", r->from);
		print_uint(PRINT_ANY, "to", "-%u", r->to);
		print_u64(PRINT_ANY, "hops", " hops %" PRIu64, r->hops);
		print_bool(PRINT_JSON, "down", NULL, r->down);
		if (r->down)
			print_string(PRINT_TEXT, NULL, "%s", " down");
		print_nl();
		close_json_object();
	}
	close_json_array();
	close_json_object();
}

int show_links(struct txnl *nl, const char *name, bool all)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct link_list l = { NULL, 0, 0 };
	struct nlmsghdr *nlh;
	int err;

	nlh = txnl_msg(tx.buf, TXNET_CMD_LINKS, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_dump(nl, nlh, link_cb, reset_links, &l);
	if (err) {
		txnl_perror(nl, err);
		free(l.v);
		return EXIT_KERNEL;
	}
	print_links(name, &l, all);
	free(l.v);
	return EXIT_OK;
}
