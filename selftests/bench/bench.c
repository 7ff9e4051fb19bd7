// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the kernel's engine and schedules, built for user space,
 * timed on large collectives.  Engine time only: building the graph and
 * setting the run up are excluded, as is process start-up.  The Makefile
 * runs ../shared/perf/bareloop.c (a plain C queue-move loop, no checks)
 * beside it on the same work and prints the ratio.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/sched.h"
#include "core/bounds.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The best of @reps runs: a small run is over before the CPU settles. */
static int bench(const char *label, struct txn_spec spec, u32 op, u32 payload, int reps)
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
	double t0, t1, best = 1e30;
	const char *why;
	u64 bytes, exp = 0;
	int ret;

	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g)) {
		fprintf(stderr, "bench: cannot build %s\n", label);
		return 1;
	}
	s = txn_sched_pick(&spec, op, TXNET_ALGO_AUTO, &why);
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
	}
	txn_bound(&spec, &g, op, p.port_model, 0, &b);
	txn_expected_steps(s, &spec, p.port_model, &exp);
	printf("%-12s %-20s %-14s ticks %7llu (bound %llu)  hops %10llu  %7.1f M link-hops/s  "
	       "%6.3f s  engine %7.1f MiB = %5.1f B/message  %s\n",
	       label, txn_op_name(op), s->name, (unsigned long long)e.tick,
	       (unsigned long long)b.lower, (unsigned long long)e.transmissions,
	       e.transmissions / best / 1e6, best, bytes / 1048576.0,
	       (double)bytes / txn_op_units(op, g.procs), ret ? "NOT VERIFIED" : "verified");
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
	struct rusage ru;
	int fail = 0;

	fail |= bench("ring 256", (struct txn_spec)LINE(256), TXNET_OP_TOTAL_EXCHANGE, payload, 20);
	fail |= bench("torus 16 16", (struct txn_spec)TORUS(16), TXNET_OP_TOTAL_EXCHANGE, payload, 10);
	fail |= bench("torus 32 32", (struct txn_spec)TORUS(32), TXNET_OP_TOTAL_EXCHANGE, payload, 2);
	fail |= bench("torus 64 64", (struct txn_spec)TORUS(64), TXNET_OP_MULTINODE_BROADCAST,
		      payload, 1);
	fail |= bench("ring 1024", (struct txn_spec)LINE(1024), TXNET_OP_TOTAL_EXCHANGE, payload, 1);
	fail |= bench("linear 1024", (struct txn_spec)ARRAY(1024), TXNET_OP_TOTAL_EXCHANGE,
		      payload, 1);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
	return fail;
}
