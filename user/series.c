// SPDX-License-Identifier: GPL-2.0
/*
 * txctl series: the last run's time series, printed (text or JSON) or
 * drawn as SVG; also what `txctl run ... plot FILE` draws with.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "output.h"
#include "plot.h"
#include "result.h"
#include "series_dump.h"
#include "txctl.h"

void usage_series(FILE *f)
{
	fprintf(f,
		"Usage: txctl series NET [ plot FILE ]\n"
		"       (the last run's time series; runs keep one with \"record\" or \"plot FILE\")\n"
		"FILE: an SVG picture; - for standard output\n");
}

struct one_net {
	struct txnet_info info;
	bool seen;
};

static int one_cb(const struct nlmsghdr *nlh, void *data)
{
	struct one_net *o = data;

	if (!network_parse(nlh, &o->info))
		o->seen = true;
	return 0;
}

static int get_one(struct txnl *nl, const char *name, struct one_net *o)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	int err;

	nlh = txnl_msg(tx.buf, TXNET_CMD_GET, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_request(nl, nlh, one_cb, o);
	if (!err && !o->seen) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "the kernel sent no description of %s", name);
		err = -ENODATA;
	}
	return err;
}

/* "torus 8 8 (net t): total-exchange, a3, all-port" and "run 2: 32 ticks, ..." */
static void titles(const struct txnet_info *ni, const struct series *s, char *title, size_t tlen,
		   char *sub, size_t slen)
{
	const struct txnet_res *r = &ni->result;
	int n;

	n = snprintf(title, tlen, "%s (%s)", ni->spec, ni->name);
	if (network_has(ni, TXNET_A_RESULT) && r->run_id == s->run_id && n >= 0 && (size_t)n < tlen)
		snprintf(title + n, tlen - (size_t)n, ": %s, %s, %s-port", op_name(r->op),
			 algo_name(r->algo), port_model_name(r->port_model));
	n = snprintf(sub, slen, "run %u: %" PRIu64 " ticks", s->run_id, s->ticks);
	if (network_has(ni, TXNET_A_RESULT) && r->run_id == s->run_id && n >= 0 &&
	    (size_t)n < slen)
		snprintf(sub + n, slen - (size_t)n, " (lower bound %" PRIu64 "), %s%s, %" PRIu64
			 " link traversals; %u tick%s a sample",
			 r->lower_bound, run_status_name(r->status),
			 r->verified ? " and verified" : "", r->transmissions, s->sample_ticks,
			 s->sample_ticks == 1 ? "" : "s");
}

int series_plot(struct txnl *nl, const char *name, const char *path)
{
	static struct one_net o;
	char title[512], sub[512];
	struct series s;
	FILE *f;
	int err;

	o.seen = false;
	err = series_fetch(nl, name, &s);
	if (!err)
		err = get_one(nl, name, &o);
	if (err) {
		txnl_perror(nl, err);
		series_free(&s);
		return EXIT_KERNEL;
	}
	titles(&o.info, &s, title, sizeof(title), sub, sizeof(sub));
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f) {
		fprintf(stderr, "Error: plot: cannot write \"%s\": %s.\n", path, strerror(errno));
		series_free(&s);
		return EXIT_USAGE;
	}
	err = plot_svg(f, &s, title, sub);
	if (f != stdout && fclose(f))
		err = -errno;
	series_free(&s);
	if (err) {
		fprintf(stderr, "Error: plot: writing \"%s\": %s.\n", path, strerror(-err));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int do_series(int argc, char **argv)
{
	const char *name, *plot = NULL;
	struct series s;
	struct txnl nl;
	int err, ret;

	if (wants_help(argc, argv)) {
		usage_series(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_series);
	name = get_name(*argv, "NET");
	argc--, argv++;
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "plot")) {
			NEXT_ARG(usage_series);
			if (plot)
				duparg("plot", *argv);
			plot = *argv;
		} else {
			unknown_keyword(*argv, usage_series);
		}
	}
	if (txnl_open(&nl))
		return EXIT_KERNEL;
	if (plot) {
		ret = series_plot(&nl, name, plot);
	} else {
		err = series_fetch(&nl, name, &s);
		if (err) {
			txnl_perror(&nl, err);
			ret = EXIT_KERNEL;
		} else {
			series_print(&s, name);
			series_free(&s);
			ret = EXIT_OK;
		}
	}
	txnl_close(&nl);
	return ret;
}
