// SPDX-License-Identifier: GPL-2.0
/*
 * txctl latin: the set S^l of [Massini03]'s canonical partition on a MIN,
 * each member M^{l,x} beside the permutation it realizes, as the paper's
 * Examples 1 and 2 print them; computed by the module (TXNET_CMD_LATIN)
 * with the wiring its networks use.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "nl.h"
#include "output.h"
#include "txctl.h"

void usage_latin(FILE *f)
{
	fprintf(f,
		"Usage: txctl latin WIRING N [ L | config L ]\n"
		"WIRING := { butterfly | omega | baseline | rbaseline | flip }\n"
		"N: 2 .. %d, a power of two; L: the set's index, 0 .. N^(N/2-1)-1 (default 0)\n",
		TXNET_LATIN_MAX_N);
}

struct member {
	uint32_t x;
	uint32_t perm[TXNET_LATIN_MAX_N];
	uint32_t rows[TXNET_LATIN_MAX_N / 2];
	uint32_t nperm, nrows;
};

struct latin_reply {
	char spec[160];
	uint64_t config;
	uint32_t n;
	struct member m[TXNET_LATIN_MAX_N];
};

static void parse_words(const struct nlattr *a, uint32_t *dst, uint32_t max, uint32_t *n)
{
	uint32_t len = mnl_attr_get_payload_len(a) / sizeof(uint32_t);

	*n = len < max ? len : max;
	memcpy(dst, mnl_attr_get_payload(a), *n * sizeof(uint32_t));
}

static void parse_member(const struct nlattr *nest, struct member *m)
{
	const struct nlattr *a;

	memset(m, 0, sizeof(*m));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_LATIN_X:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				m->x = mnl_attr_get_u32(a);
			break;
		case TXNET_A_LATIN_PERM:
			parse_words(a, m->perm, TXNET_LATIN_MAX_N, &m->nperm);
			break;
		case TXNET_A_LATIN_ROWS:
			parse_words(a, m->rows, TXNET_LATIN_MAX_N / 2, &m->nrows);
			break;
		}
	}
}

static int latin_cb(const struct nlmsghdr *nlh, void *data)
{
	struct latin_reply *r = data;
	const struct nlattr *a, *e;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case TXNET_A_SPEC:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				snprintf(r->spec, sizeof(r->spec), "%s", mnl_attr_get_str(a));
			break;
		case TXNET_A_CONFIG:
			if (mnl_attr_validate(a, MNL_TYPE_U64) >= 0)
				r->config = mnl_attr_get_u64(a);
			break;
		case TXNET_A_LATIN:
			mnl_attr_for_each_nested(e, a)
				if (r->n < TXNET_LATIN_MAX_N)
					parse_member(e, &r->m[r->n++]);
			break;
		}
	}
	return MNL_CB_OK;
}

/* A row as the paper prints it: bit log2 N - 1 first. */
static void row_text(uint32_t row, uint32_t bits, char *buf)
{
	uint32_t k;

	for (k = 0; k < bits; k++)
		buf[k] = (char)('0' + (row >> (bits - 1 - k) & 1));
	buf[bits] = 0;
}

int do_latin(int argc, char **argv)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	static struct latin_reply r;
	const char *config_arg = NULL;
	struct nlmsghdr *nlh;
	uint32_t i, k, bits;
	uint64_t config = 0;
	struct txnl nl;
	char word[40];
	int err;

	if (wants_help(argc, argv)) {
		usage_latin(stdout);
		return EXIT_OK;
	}
	nlh = txnl_msg(tx.buf, TXNET_CMD_LATIN, 0);
	NEXT_ARG(usage_latin);
	topology_put(nlh, &argc, &argv, usage_latin);
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "config")) {
			NEXT_ARG(usage_latin);
		} else if (config_arg) {
			unknown_keyword(*argv, usage_latin);
		}
		if (config_arg)
			duparg("config", *argv);
		config_arg = *argv;
		config = get_u64_nonneg(*argv, "config");
	}
	if (config_arg)
		mnl_attr_put_u64(nlh, TXNET_A_CONFIG, config);

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	err = txnl_request(&nl, nlh, latin_cb, &r);
	if (err)
		txnl_perror(&nl, err);
	txnl_close(&nl);
	if (err)
		return EXIT_KERNEL;
	/* the rows' width: log2 N */
	for (bits = 0; r.n && (1U << bits) < r.m[0].nperm; bits++)
		;
	open_json_object(NULL);
	print_string(PRINT_ANY, "spec", "%s", r.spec);
	print_u64(PRINT_ANY, "config", " l %" PRIu64, r.config);
	print_nl();
	open_json_array("members");
	for (i = 0; i < r.n; i++) {
		const struct member *m = &r.m[i];

		open_json_object(NULL);
		print_uint(PRINT_JSON, "x", NULL, m->x);
		open_json_array("permutation");
		for (k = 0; k < m->nperm; k++) {
			/* one digit a tag as in the paper below 10, spaced above */
			print_uint(PRINT_ANY, NULL, m->nperm <= 10 ? "%u" : k ? " %u" : "%u",
				   m->perm[k]);
		}
		close_json_array();
		open_json_array("rows");
		for (k = 0; k < m->nrows; k++) {
			row_text(m->rows[k], bits, word);
			print_string(PRINT_ANY, NULL, " %s", word);
		}
		close_json_array();
		close_json_object();
		print_nl();
	}
	close_json_array();
	close_json_object();
	return EXIT_OK;
}
