// SPDX-License-Identifier: GPL-2.0
/*
 * txctl run: start an exchange on a network, wait for its RUN_DONE
 * notification and print the result.  SIGINT stops the run (and still
 * prints its result).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "nl.h"
#include "output.h"
#include "result.h"
#include "txctl.h"
#include "dests.h"
#include "run_schedule.h"
#include "values.h"

void usage_run(FILE *f)
{
	fprintf(f,
		"Usage: txctl run NET OP [ root N ] [ values VALUES ] [ algo ALGO ]\n"
		"                 [ payload BYTES ] [ seed N ] [ max-ticks N ]\n"
		"                 [ config L | matrix ROWS ] [ record | plot FILE ]\n"
		"                 [ schedule file:PATH | msccl file:PATH ] [ save FILE ]\n"
		"                 [ --no-wait ]\n"
		"       txctl run NET permutation DESTS [ algo ALGO ] [ payload BYTES ] ...\n"
		"OP := { total-exchange | broadcast | scatter | gather | multinode-broadcast |\n"
		"        accumulate | multinode-accumulate | prefix-sum | data-sum }\n"
		"VALUES := { V1,V2,... | file:PATH | random:SEED }\n"
		"DESTS := { D0,D1,... | file:PATH }   (processor i's message goes to Di)\n"
		"ROWS := { 000,011,... | file:PATH }  (switch row h's states, stage 0 first)\n"
		"ALGO := { auto | shortest-path | furthest-first | scatterings | message-shift |\n"
		"          message-shift-plain | a2 | a3 | hypercube | latin | self-routing |\n"
		"          biswapped | dimension-waves }\n"
		"record: keep the run's time series (txctl series); plot FILE: and draw it\n"
		"        as an SVG picture in FILE\n"
		"schedule file:PATH: replay the schedule file PATH (algo replay)\n"
		"msccl file:PATH: replay the MSCCL-IR algorithm PATH, imported for NET\n"
		"save FILE: write the moves the engine accepted to FILE, a schedule file\n");
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* What is known of our run, from the reply and the notifications. */
struct run_wait {
	uint32_t id;
	uint32_t run_id;
	char name[TXNET_NAME_LEN];
	bool started;		/* the RUN reply came: id and run_id are known */
	bool done;		/* its RUN_DONE came */
	bool has_result;
	bool destroyed;		/* the network's DEL came first */
	struct txnet_res res;
	bool progress;		/* a progress line on the terminal (stderr) */
	bool shown;		/* ... it is on the screen */
	struct timespec start;
};

static int reply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct run_wait *w = data;
	struct txnet_info ni;

	if (network_parse(nlh, &ni) || ni.cmd != TXNET_CMD_RUN ||
	    !network_has(&ni, TXNET_A_ID) || !network_has(&ni, TXNET_A_RUN_ID))
		return 0;
	w->id = ni.id;
	w->run_id = ni.run_id;
	if (network_has(&ni, TXNET_A_NAME))
		snprintf(w->name, sizeof(w->name), "%s", ni.name);
	w->started = true;
	return 0;
}

/* Notifications: only our network's DEL and our run's RUN_DONE count. */
static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct run_wait *w = data;
	struct txnet_info ni;

	if (network_parse(nlh, &ni) || w->done || w->destroyed ||
	    !network_has(&ni, TXNET_A_ID) || ni.id != w->id)
		return 0;
	if (ni.cmd == TXNET_CMD_DEL) {
		w->destroyed = true;
	} else if (ni.cmd == TXNET_CMD_RUN_DONE &&
		   network_has(&ni, TXNET_A_RUN_ID) && ni.run_id == w->run_id) {
		w->done = true;
		w->has_result = network_has(&ni, TXNET_A_RESULT);
		w->res = ni.result;
	}
	return 0;
}

/* SIGINT: ask the kernel to stop; the RUN_DONE (stopped) follows. */
static void stop_run(struct txnl *nl, struct run_wait *w)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	struct nlmsghdr *nlh;
	int err;

	nlh = txnl_msg(tx.buf, TXNET_CMD_STOP, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, w->name);
	err = txnl_request(nl, nlh, NULL, NULL);
	/* ENOENT: the run has just ended, or the network is gone */
	if (err && err != -ENOENT)
		txnl_perror(nl, err);
}

struct get_reply {
	struct txnet_info info;
	bool seen;
};

/* Our network's description into @g. */
static int get_net(struct txnl *nl, const struct run_wait *w, struct get_reply *g)
{
	return network_query(nl, w->name, &g->info, &g->seen);
}

/*
 * Notifications were lost (receive buffer overrun): ours may be among
 * them, so ask for the network and look at its last result.
 */
static int recover(struct txnl *nl, struct run_wait *w)
{
	static struct get_reply g;
	const struct txnet_info *ni = &g.info;
	int err;

	err = get_net(nl, w, &g);
	if (err == -ENOENT || (!err && (!g.seen || ni->id != w->id))) {
		w->destroyed = true;
		return 0;
	}
	if (err)
		return err;
	if (network_has(ni, TXNET_A_RESULT) && ni->result.run_id == w->run_id) {
		w->done = true;
		w->has_result = true;
		w->res = ni->result;
		return 0;
	}
	if (ni->run_id == w->run_id && ni->state == TXNET_STATE_RUNNING)
		return 0;	/* still running: keep waiting */
	snprintf(nl->errmsg, sizeof(nl->errmsg),
		 "the result of run %u was lost (notifications overran the socket buffer)",
		 w->run_id);
	return -ENOBUFS;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * The progress line: the run's tick and delivery counters (GET), its
 * simulated ticks a second and, from the deliveries' rate, the time
 * left.  Overwritten in place; a run under a second never shows one.
 */
static void show_progress(struct txnl *nl, struct run_wait *w)
{
	static struct get_reply g;
	const struct txnet_info *ni = &g.info;
	double secs = since(&w->start), left;
	char eta[32] = "--";

	if (secs < 1.0)
		return;
	if (get_net(nl, w, &g) || !g.seen || ni->id != w->id ||
	    ni->run_id != w->run_id || !network_has(ni, TXNET_A_RUN_TICKS))
		return;
	if (network_has(ni, TXNET_A_RUN_EXPECTED) && ni->run_delivered &&
	    ni->run_expected >= ni->run_delivered) {
		left = secs * (double)(ni->run_expected - ni->run_delivered) /
		       (double)ni->run_delivered;
		snprintf(eta, sizeof(eta), "%" PRIu64 "m%02us", (uint64_t)left / 60,
			 (unsigned int)((uint64_t)left % 60));
	}
	fprintf(stderr, "\r\033[K%s: run %u: tick %" PRIu64 ", delivered %" PRIu64, w->name,
		w->run_id, ni->run_ticks, ni->run_delivered);
	if (network_has(ni, TXNET_A_RUN_EXPECTED))
		fprintf(stderr, "/%" PRIu64 " (%.1f%%)", ni->run_expected,
			ni->run_expected ? 100.0 * (double)ni->run_delivered /
					   (double)ni->run_expected : 0.0);
	fprintf(stderr, ", %.0f ticks/s, ETA %s", (double)ni->run_ticks / secs, eta);
	w->shown = true;
}

static void clear_progress(struct run_wait *w)
{
	if (w->shown)
		fprintf(stderr, "\r\033[K");
	w->shown = false;
}

/*
 * Requests go on nl, notifications come on ev: a queue full of
 * notifications cannot crowd out a reply.
 */
static int wait_run(struct txnl *nl, struct txnl *ev, struct run_wait *w,
		    const sigset_t *unblocked)
{
	struct pollfd pfd = { .fd = txnl_fd(ev), .events = POLLIN };
	const struct timespec tick = { .tv_nsec = 250000000 };
	int err, n;

	clock_gettime(CLOCK_MONOTONIC, &w->start);
	while (!w->done && !w->destroyed) {
		if (interrupted) {
			interrupted = 0;
			clear_progress(w);
			fprintf(stderr, "%s: interrupted: stopping run %u\n", w->name, w->run_id);
			stop_run(nl, w);
			continue;
		}
		/* SIGINT is blocked but here: no wakeup is missed */
		n = ppoll(&pfd, 1, w->progress ? &tick : NULL, unblocked);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n) {
			show_progress(nl, w);
			continue;
		}
		err = txnl_recv_events(ev, event_cb, w);
		if (err == -ENOBUFS)
			err = recover(nl, w);
		if (err)
			return err;
	}
	return 0;
}

int do_run(int argc, char **argv)
{
	/* room for VALUES_MAX values, DESTS_MAX destinations, MATRIX_MAX rows */
	static union {
		char buf[TXNL_BUF_SIZE + VALUES_MAX * sizeof(int64_t) +
			 (DESTS_MAX + MATRIX_MAX) * sizeof(uint32_t)];
		struct nlmsghdr align;
	} tx;
	const char *name, *algo_arg = NULL, *payload_arg = NULL,
		   *seed_arg = NULL, *root_arg = NULL, *values_arg = NULL, *ticks_arg = NULL,
		   *config_arg = NULL, *matrix_arg = NULL, *plot_arg = NULL,
		   *schedule_arg = NULL, *save_arg = NULL, *msccl_arg = NULL;
	static struct values vals;
	static struct dests dests;
	static struct matrix matrix;
	uint32_t root = 0;
	uint64_t max_ticks = 0, config = 0;
	static struct run_wait w;
	sigset_t block, unblocked;
	struct sigaction sa;
	int op, algo = 0;
	uint32_t payload = 0;
	struct nlmsghdr *nlh;
	bool no_wait = false, record = false;
	struct nlmsghdr *big = NULL;
	struct txnl nl, ev;
	uint64_t seed = 0;
	size_t room = 0;
	int err, ret;

	if (wants_help(argc, argv)) {
		usage_run(stdout);
		return EXIT_OK;
	}
	NEXT_ARG(usage_run);
	name = get_name(*argv, "NET");
	NEXT_ARG(usage_run);
	op = op_by_name(*argv);
	if (op < 0)
		invarg(*argv, "OP",
		       "must be total-exchange, broadcast, scatter, gather, multinode-broadcast, accumulate, multinode-accumulate, prefix-sum, data-sum or permutation");
	if (op == TXNET_OP_PERMUTATION) {
		NEXT_ARG(usage_run);
		dests_parse(*argv, &dests);
	}
	argc--, argv++;
	for (; argc > 0; argc--, argv++) {
		if (is_keyword(*argv, "algo")) {
			NEXT_ARG(usage_run);
			if (algo_arg)
				duparg("algo", *argv);
			algo_arg = *argv;
			algo = algo_by_name(*argv);
			if (algo < 0)
				invarg(*argv, "algo",
				       "must be auto, shortest-path, furthest-first, scatterings, message-shift, message-shift-plain, a2, a3, hypercube, latin, self-routing, biswapped or dimension-waves");
		} else if (is_keyword(*argv, "root")) {
			NEXT_ARG(usage_run);
			if (root_arg)
				duparg("root", *argv);
			if (!op_has_root(op))
				invarg(*argv, "root",
				       "only broadcast, scatter, gather and accumulate have a root");
			root_arg = *argv;
			root = get_u32_nonneg(*argv, "root");
		} else if (is_keyword(*argv, "values")) {
			NEXT_ARG(usage_run);
			if (values_arg)
				duparg("values", *argv);
			if (!op_combines(op))
				invarg(*argv, "values",
				       "only accumulate, multinode-accumulate, prefix-sum and data-sum take values");
			values_arg = *argv;
			values_parse(*argv, &vals);
		} else if (is_keyword(*argv, "max-ticks")) {
			NEXT_ARG(usage_run);
			if (ticks_arg)
				duparg("max-ticks", *argv);
			ticks_arg = *argv;
			max_ticks = get_u64_nonneg(*argv, "max-ticks");
		} else if (is_keyword(*argv, "config")) {
			NEXT_ARG(usage_run);
			if (config_arg)
				duparg("config", *argv);
			if (matrix_arg)
				invarg(*argv, "config", "give config or matrix, not both");
			config_arg = *argv;
			config = get_u64_nonneg(*argv, "config");
		} else if (is_keyword(*argv, "matrix")) {
			NEXT_ARG(usage_run);
			if (matrix_arg)
				duparg("matrix", *argv);
			if (config_arg)
				invarg(*argv, "matrix", "give config or matrix, not both");
			matrix_arg = *argv;
			matrix_parse(*argv, &matrix);
		} else if (is_keyword(*argv, "payload")) {
			NEXT_ARG(usage_run);
			if (payload_arg)
				duparg("payload", *argv);
			payload_arg = *argv;
			payload = get_u32_nonneg(*argv, "payload");
		} else if (is_keyword(*argv, "seed")) {
			NEXT_ARG(usage_run);
			if (seed_arg)
				duparg("seed", *argv);
			seed_arg = *argv;
			seed = get_u64_nonneg(*argv, "seed");
		} else if (is_keyword(*argv, "record")) {
			if (record)
				duparg("record", *argv);
			record = true;
		} else if (is_keyword(*argv, "plot")) {
			NEXT_ARG(usage_run);
			if (plot_arg)
				duparg("plot", *argv);
			plot_arg = *argv;
		} else if (is_keyword(*argv, "schedule")) {
			NEXT_ARG(usage_run);
			if (schedule_arg)
				duparg("schedule", *argv);
			schedule_arg = *argv;
		} else if (is_keyword(*argv, "msccl")) {
			NEXT_ARG(usage_run);
			if (msccl_arg)
				duparg("msccl", *argv);
			msccl_arg = *argv;
		} else if (is_keyword(*argv, "save")) {
			NEXT_ARG(usage_run);
			if (save_arg)
				duparg("save", *argv);
			save_arg = *argv;
		} else if (is_keyword(*argv, "--no-wait")) {
			no_wait = true;
		} else {
			unknown_keyword(*argv, usage_run);
		}
	}

	if (plot_arg && no_wait)
		invarg(plot_arg, "plot", "draws the run when it ends: not with --no-wait (record, then txctl series NET plot FILE)");
	if (plot_arg && !strcmp(plot_arg, "-"))
		invarg(plot_arg, "plot", "standard output carries the result: name a file");
	if (save_arg && no_wait)
		invarg(save_arg, "save", "writes the run's moves when it ends: not with --no-wait");
	if (save_arg && (!strcmp(save_arg, "-") || !*save_arg))
		invarg(save_arg, "save", "standard output carries the result: name a file");
	if (schedule_arg && algo_arg)
		invarg(algo_arg, "algo", "a schedule file is replayed as it is: give no algo");
	if (msccl_arg && algo_arg)
		invarg(algo_arg, "algo", "an MSCCL algorithm is replayed as it is: give no algo");
	if (msccl_arg && schedule_arg)
		invarg(msccl_arg, "msccl", "give a schedule file or an MSCCL algorithm, not both");
	if (msccl_arg && !op_has_root(op) && root_arg)
		invarg(root_arg, "root", "only broadcast, scatter, gather and accumulate have a root");
	if (msccl_arg && op_has_root(op))
		root_arg = msccl_arg;	/* the root the algorithm is imported with, 0 by default */
	if (schedule_arg) {
		root = run_schedule_load(schedule_arg, op, root_arg != NULL, root);
		root_arg = op_has_root(op) ? schedule_arg : NULL;
	}

	nlh = txnl_msg(tx.buf, TXNET_CMD_RUN, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	mnl_attr_put_u32(nlh, TXNET_A_OP, (uint32_t)op);
	if (algo_arg)
		mnl_attr_put_u32(nlh, TXNET_A_ALGO, (uint32_t)algo);
	if (payload_arg)
		mnl_attr_put_u32(nlh, TXNET_A_PAYLOAD, payload);
	if (seed_arg)
		mnl_attr_put_u64(nlh, TXNET_A_SEED, seed);
	if (root_arg)
		mnl_attr_put_u32(nlh, TXNET_A_ROOT, root);
	if (values_arg && vals.random)
		mnl_attr_put_u64(nlh, TXNET_A_VALUES_SEED, vals.seed);
	else if (values_arg)
		mnl_attr_put(nlh, TXNET_A_VALUES, vals.n * sizeof(int64_t), vals.v);
	if (ticks_arg)
		mnl_attr_put_u64(nlh, TXNET_A_MAX_TICKS, max_ticks);
	if (config_arg)
		mnl_attr_put_u64(nlh, TXNET_A_CONFIG, config);
	if (matrix_arg)
		mnl_attr_put(nlh, TXNET_A_CONFIG_ROWS, matrix.n * sizeof(uint32_t), matrix.row);
	if (op == TXNET_OP_PERMUTATION)
		mnl_attr_put(nlh, TXNET_A_DESTS, dests.n * sizeof(uint32_t), dests.d);
	if (record || plot_arg)
		mnl_attr_put_u8(nlh, TXNET_A_RECORD, 1);
	if (save_arg)
		mnl_attr_put_u8(nlh, TXNET_A_SAVE, 1);
	snprintf(w.name, sizeof(w.name), "%s", name);

	if (txnl_open(&nl))
		return EXIT_KERNEL;
	if (msccl_arg) {
		ret = run_schedule_msccl(&nl, name, msccl_arg, op, root);
		if (ret != EXIT_OK) {
			txnl_close(&nl);
			return ret;
		}
	}
	if (schedule_arg || msccl_arg) {
		ret = run_schedule_check_net(&nl, name);
		if (ret != EXIT_OK) {
			txnl_close(&nl);
			return ret;
		}
		big = run_schedule_request(nlh, &room);
		err = txnl_room(&nl, room);
		if (err) {
			txnl_perror(&nl, err);
			free(big);
			txnl_close(&nl);
			return EXIT_KERNEL;
		}
		nlh = big;
	}
	memset(&ev, 0, sizeof(ev));
	if (!no_wait) {
		/* join the events group before the run starts, or its end may be missed */
		if (txnl_open(&ev)) {
			free(big);
			txnl_close(&nl);
			return EXIT_KERNEL;
		}
		err = txnl_subscribe(&ev);
		if (err) {
			txnl_perror(&ev, err);
			ret = EXIT_KERNEL;
			goto out;
		}
		/*
		 * SIGINT is blocked except while waiting in ppoll(), so that
		 * one arriving before the wait still stops the run.
		 */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigint;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigprocmask(SIG_BLOCK, &block, &unblocked);
		sigdelset(&unblocked, SIGINT);
	}

	err = txnl_request(&nl, nlh, reply_cb, &w);
	if (!err && !w.started) {
		snprintf(nl.errmsg, sizeof(nl.errmsg),
			 "the kernel sent no run number");
		err = -ENODATA;
	}
	if (err) {
		txnl_perror(ev.errmsg[0] ? &ev : &nl, err);
		ret = EXIT_KERNEL;
		goto out;
	}
	if (no_wait) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "%s:", w.name);
		print_uint(PRINT_ANY, "run_id", " run %u started", w.run_id);
		print_nl();
		close_json_object();
		ret = EXIT_OK;
		goto out;
	}

	/* on a terminal only: nothing extra on pipes, in files or with -j */
	w.progress = isatty(STDERR_FILENO) && !output_json();
	err = wait_run(&nl, &ev, &w, &unblocked);
	clear_progress(&w);
	if (!err && w.done && !w.has_result) {
		snprintf(nl.errmsg, sizeof(nl.errmsg),
			 "the kernel sent no result for run %u", w.run_id);
		err = -ENODATA;
	}
	if (err) {
		/* ev's message: the family went away ("txnet was unloaded") */
		txnl_perror(ev.errmsg[0] ? &ev : &nl, err);
		ret = EXIT_KERNEL;
	} else if (w.destroyed) {
		fprintf(stderr, "Error: network destroyed during the run.\n");
		ret = EXIT_KERNEL;
	} else {
		ret = plot_arg ? series_plot(&nl, w.name, plot_arg) : EXIT_OK;
		if (ret == EXIT_OK && save_arg)
			ret = run_save(&nl, w.name, &w.res, save_arg);
		result_print(&w.res, NULL, w.name);
		print_nl();
		run_schedule_blame(&w.res);
		if (ret == EXIT_OK)
			ret = w.res.status == TXNET_RUN_DONE && w.res.verified ?
			      EXIT_OK : EXIT_RUN;
	}
out:
	free(big);
	txnl_close(&ev);
	txnl_close(&nl);
	return ret;
}
