// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the kernel's engine and schedules, built for user space,
 * timed on large collectives.  Engine time only: building the graph and
 * setting the run up are excluded, as is process start-up.
 *
 * usage: bench [PAYLOAD [BARELOOP]]: with the path of ../shared/perf/
 * bareloop.c built (a plain C queue-move loop, no checks), each run that
 * has an equivalent there (rings, 2-D tori) alternates with it, rep by
 * rep, and the best of each gives the ratio: the same work in the same
 * run, so that the machine's noise falls on both alike.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/sched.h"
#include "core/bounds.h"

static const char *bareloop;

/* One run of the plain C loop on @args ("torus 16"): its link-hops/s, 0 if none. */
static double bare_rate(const char *args)
{
	char cmd[512], line[256];
	double rate = 0;
	FILE *f;
	char *at;

	snprintf(cmd, sizeof(cmd), "%s %s", bareloop, args);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		at = strstr(line, "link-hops/s ");
		if (at)
			rate = strtod(at + strlen("link-hops/s "), NULL) * 1e6;
	}
	pclose(f);
	return rate;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The best of @reps runs: a small run is over before the CPU settles. */
static int bench(const char *label, struct txn_spec spec, u32 op, u32 payload, int reps,
		 const char *bare)
{
	struct txn_run_params p = {
		.op = op, .port_model = TXNET_PORT_ALL, .payload = payload, .seed = 1,
		.values_seed = 1,
	};
	const struct txn_sched *s;
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_engine e;
	struct txn_graph g;
	struct txn_bound b;
	double t0, t1, best = 1e30, bare_best = 0, rate;
	const char *why;
	u64 bytes, exp = 0;
	int ret;

	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g)) {
		fprintf(stderr, "bench: cannot build %s\n", label);
		return 1;
	}
	s = txn_sched_pick(&spec, op, TXNET_ALGO_AUTO, p.port_model, &why);
	if (!s)
		return 1;
	bytes = txn_engine_bytes(&g, s, &p);
	while (reps--) {
		if (txn_engine_init(&e, &g, s, &p)) {
			fprintf(stderr, "bench: cannot set up %s\n", label);
			return 1;
		}
		t0 = now();
		while ((ret = txn_engine_tick(&e)) == 0)
			;
		t1 = now();
		if (ret == 1)
			ret = txn_engine_verify(&e);
		if (t1 - t0 < best)
			best = t1 - t0;
		if (reps)
			txn_engine_free(&e);
		rate = bareloop && bare ? bare_rate(bare) : 0;
		if (rate > bare_best)
			bare_best = rate;
	}
	txn_bound(&spec, &g, op, p.port_model, 0, &b);
	txn_expected_steps(s, &spec, &p, &exp);
	printf("%-12s %-20s %-14s ticks %7llu (bound %llu)  hops %10llu  %7.1f M link-hops/s  "
	       "%6.3f s  engine %7.1f MiB = %5.1f B/message  %s\n",
	       label, txn_op_name(op), s->name, (unsigned long long)e.tick,
	       (unsigned long long)b.lower, (unsigned long long)e.transmissions,
	       e.transmissions / best / 1e6, best, bytes / 1048576.0,
	       (double)bytes / txn_op_units(op, g.procs), ret ? "NOT VERIFIED" : "verified");
	if (bare_best > 0)
		printf("%-12s bareloop %-10s %7.1f M link-hops/s  ratio %.2f (engine / bare loop, best of each)\n",
		       label, bare, bare_best / 1e6, e.transmissions / best / bare_best);
	ret = ret || (exp && e.tick != exp);
	txn_engine_free(&e);
	txn_graph_free(&g);
	return ret;
}

#define LINE(n)		{ .topo = TXNET_TOPO_RING, .ndims = 1, .size = { n } }
#define ARRAY(n)	{ .topo = TXNET_TOPO_LINEAR, .ndims = 1, .size = { n } }
#define TORUS(k)	{ .topo = TXNET_TOPO_TORUS, .ndims = 2, .size = { k, k } }

int main(int argc, char **argv)
{
	u32 payload = argc > 1 ? (u32)strtoul(argv[1], NULL, 0) : 0;

	bareloop = argc > 2 ? argv[2] : NULL;
	struct rusage ru;
	int fail = 0;

	fail |= bench("ring 256", (struct txn_spec)LINE(256), TXNET_OP_TOTAL_EXCHANGE, payload, 20,
		      "ring 256");
	fail |= bench("torus 16 16", (struct txn_spec)TORUS(16), TXNET_OP_TOTAL_EXCHANGE, payload, 20,
		      "torus 16");
	fail |= bench("torus 32 32", (struct txn_spec)TORUS(32), TXNET_OP_TOTAL_EXCHANGE, payload, 3,
		      "torus 32");
	fail |= bench("torus 64 64", (struct txn_spec)TORUS(64), TXNET_OP_MULTINODE_BROADCAST,
		      payload, 1, NULL);
	fail |= bench("ring 1024", (struct txn_spec)LINE(1024), TXNET_OP_TOTAL_EXCHANGE, payload, 1,
		      "ring 1024");
	fail |= bench("linear 1024", (struct txn_spec)ARRAY(1024), TXNET_OP_TOTAL_EXCHANGE,
		      payload, 1, NULL);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
	return fail;
}
