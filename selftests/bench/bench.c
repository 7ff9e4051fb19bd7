// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the kernel's engine and schedules, built for user space,
 * timed on large total exchanges.  Engine time only: building the graph
 * and setting the run up are excluded, as is process start-up.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/sched.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The best of @reps runs: a small run is over before the CPU settles. */
static int bench(u32 topo, u32 n, u32 payload, int reps)
{
	struct txn_spec spec = { .topo = topo, .ndims = 1, .size = { n } };
	struct txn_run_params p = {
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = TXNET_PORT_ALL,
		.payload = payload, .seed = 1,
	};
	const struct txn_sched *s;
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_engine e;
	struct txn_graph g;
	double t0, t1, best = 1e30;
	const char *why;
	u64 bytes, lb, exp = 0;
	int ret;

	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g)) {
		fprintf(stderr, "bench: cannot build %s %u\n", txn_topo_name(topo), n);
		return 1;
	}
	s = txn_sched_pick(&spec, TXNET_OP_TOTAL_EXCHANGE, TXNET_ALGO_AUTO, &why);
	if (!s)
		return 1;
	bytes = txn_engine_bytes(&g, s, &p);
	while (reps--) {
		if (txn_engine_init(&e, &g, s, &p)) {
			fprintf(stderr, "bench: cannot set up %s %u\n", txn_topo_name(topo), n);
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
	t0 = 0;
	t1 = best;
	lb = txn_lower_bound(&spec, &c, p.op, p.port_model);
	txn_expected_steps(s, &spec, p.port_model, &exp);
	printf("%-7s %5u  %-15s ticks %7llu (bound %llu)  hops %10llu  %7.1f M link-hops/s  "
	       "%5.2f s  engine %6.1f MiB = %4.1f B/packet + %u payload  %s\n",
	       txn_topo_name(topo), n, s->name, (unsigned long long)e.tick,
	       (unsigned long long)lb, (unsigned long long)e.transmissions,
	       e.transmissions / (t1 - t0) / 1e6, t1 - t0, bytes / 1048576.0,
	       (double)(bytes - (u64)e.npkts * payload) / e.npkts, payload,
	       ret ? "NOT VERIFIED" : "verified");
	ret = ret || (exp && e.tick != exp);
	txn_engine_free(&e);
	txn_graph_free(&g);
	return ret;
}

int main(int argc, char **argv)
{
	u32 payload = argc > 1 ? (u32)strtoul(argv[1], NULL, 0) : 0;
	struct rusage ru;
	int fail = 0;

	fail |= bench(TXNET_TOPO_RING, 256, payload, 20);
	fail |= bench(TXNET_TOPO_RING, 1024, payload, 1);
	fail |= bench(TXNET_TOPO_LINEAR, 1024, payload, 1);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
	return fail;
}
