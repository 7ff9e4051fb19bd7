// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: a run's time series, TXNET_CMD_SERIES dumped, parsed and printed;
 * shared by the series command (series.c, also run ... plot) and plot.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

#include "nl.h"
#include "output.h"
#include "series_dump.h"

struct collect {
	struct series *s;
	size_t cap;
	bool mixed;		/* rows of two runs: the dump raced a run's end */
};

static void parse_row(const struct nlattr *nest, struct series *s, struct series_row *r)
{
	const struct nlattr *a;
	uint32_t len;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_SERIES_KIND:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->kind = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_DIM:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0) {
				r->dim = mnl_attr_get_u32(a);
				r->has_dim = true;
			}
			break;
		case TXNET_A_SERIES_DIR:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->dir = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_LINKS:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->links = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_NODE:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->node = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_NODES:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				r->nodes = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_SAMPLE_TICKS:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				s->sample_ticks = mnl_attr_get_u32(a);
			break;
		case TXNET_A_SERIES_TICKS:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				s->ticks = mnl_attr_get_u64(a);
			break;
		case TXNET_A_SERIES_BUSY:
			len = mnl_attr_get_payload_len(a) / sizeof(uint64_t);
			r->len = len < TXNET_SERIES_SAMPLES ? len : TXNET_SERIES_SAMPLES;
			memcpy(r->busy, mnl_attr_get_payload(a), r->len * sizeof(uint64_t));
			break;
		case TXNET_A_SERIES_HELD:
			len = mnl_attr_get_payload_len(a) / sizeof(uint32_t);
			r->len = len < TXNET_SERIES_SAMPLES ? len : TXNET_SERIES_SAMPLES;
			memcpy(r->held, mnl_attr_get_payload(a), r->len * sizeof(uint32_t));
			break;
		}
	}
}

static int row_cb(const struct nlmsghdr *nlh, void *data)
{
	struct collect *c = data;
	struct series *s = c->s;
	const struct nlattr *a;
	uint32_t run_id = 0;
	struct series_row *row;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == TXNET_A_RUN_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			run_id = mnl_attr_get_u32(a);
		if (mnl_attr_get_type(a) != TXNET_A_SERIES)
			continue;
		if (s->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 16;

			row = realloc(s->row, cap * sizeof(*row));
			if (!row)
				return -ENOMEM;
			s->row = row;
			c->cap = cap;
		}
		row = &s->row[s->n++];
		memset(row, 0, sizeof(*row));
		parse_row(a, s, row);
	}
	if (s->n > 1 && run_id != s->run_id)
		c->mixed = true;
	s->run_id = run_id;
	return 0;
}

static void restart(void *data)
{
	struct collect *c = data;

	c->s->n = 0;
	c->mixed = false;
}

int series_fetch(struct txnl *nl, const char *name, struct series *s)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct collect c = { .s = s };
	struct nlmsghdr *nlh;
	int err;

	memset(s, 0, sizeof(*s));
	nlh = txnl_msg(tx.buf, TXNET_CMD_SERIES, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_dump(nl, nlh, row_cb, restart, &c);
	if (!err && c.mixed) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "another run ended while the series was read: read it again");
		err = -EAGAIN;
	}
	if (!err && (!s->n || !s->sample_ticks)) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "the kernel sent an empty series");
		err = -ENODATA;
	}
	if (err)
		series_free(s);
	return err;
}

void series_free(struct series *s)
{
	free(s->row);
	s->row = NULL;
	s->n = 0;
}

uint64_t series_span(const struct series *s, uint32_t i)
{
	uint64_t from = (uint64_t)i * s->sample_ticks;

	if (from >= s->ticks)
		return 0;
	return s->ticks - from < s->sample_ticks ? s->ticks - from : s->sample_ticks;
}

void series_print(const struct series *s, const char *name)
{
	const struct series_row *r;
	uint32_t i, k;

	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s:", name);
	print_uint(PRINT_ANY, "run_id", " run %u", s->run_id);
	print_u64(PRINT_ANY, "ticks", ", %" PRIu64 " ticks", s->ticks);
	print_uint(PRINT_ANY, "sample_ticks", ", samples of %u", s->sample_ticks);
	print_nl();
	open_json_array("links");
	for (i = 0; i < s->n; i++) {
		r = &s->row[i];
		if (r->kind != TXNET_SERIES_LINKS)
			continue;
		open_json_object(NULL);
		if (r->has_dim) {
			print_uint(PRINT_ANY, "dim", "  links dim %u", r->dim);
			print_string(PRINT_ANY, "dir", " %s", r->dir ? "down" : "up");
		} else {
			print_string(PRINT_TEXT, NULL, "%s", "  links all");
		}
		print_uint(PRINT_ANY, "links", " (%u links), busy:", r->links);
		open_json_array("busy");
		for (k = 0; k < r->len; k++)
			print_u64(PRINT_ANY, NULL, " %" PRIu64, r->busy[k]);
		close_json_array();
		print_nl();
		close_json_object();
	}
	close_json_array();
	open_json_array("held");
	for (i = 0; i < s->n; i++) {
		r = &s->row[i];
		if (r->kind != TXNET_SERIES_HELD)
			continue;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "node", "  held node %u", r->node);
		print_uint(PRINT_ANY, "nodes", " (%u), most:", r->nodes);
		open_json_array("most");
		for (k = 0; k < r->len; k++)
			print_uint(PRINT_ANY, NULL, " %u", r->held[k]);
		close_json_array();
		print_nl();
		close_json_object();
	}
	close_json_array();
	close_json_object();
}
