// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the kernel's engine and every schedule, built for user
 * space, timed on large collectives.  Engine time only: building the graph
 * and setting the run up are excluded from a run's rate, as is process
 * start-up; the set-up (the engine's and the schedule's start) is timed
 * on its own ("start ms"), since a user's run waits for it too.
 *
 * usage: bench [-p PAYLOAD] [-b BARELOOP] [-j JSON] [-f FILTER] [-c CPU] [-s]
 *        bench -1 NET OP ALGO PORT     (one run, timed once: for callgrind)
 *
 * Every (operation, schedule) that txn_sched_pick() accepts on each network
 * below runs in a child process of its own, so that its peak RSS is its
 * own.  Where bareloop.c, the plain C loop beside this file, has the same
 * work (total exchange on a ring or a 2-D torus), the child alternates its
 * reps with that loop's and the best of each gives the ratio: the same
 * work in the same run, so that the machine's noise falls on both alike.
 * One table is printed and written as JSON.  -s adds the scale case: a
 * total exchange on a 128x128 torus, 268,419,072 packets, once.
 *
 * Every case, and the plain C loop beside it, runs on one CPU (-c, or the
 * one the bench starts on): the CPUs of a shared machine need not run
 * alike, and a case timed on a slow one against its operation's fastest
 * timed on a fast one would be a ratio of CPUs, not of schedules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/sched.h"
#include "core/bounds.h"
#include "core/latin.h"
#include "core/cables.h"
#include "core/script.h"
#include "schedule_file.h"

struct bnet {
	const char *label;
	struct txn_spec spec;
	const char *bare;	/* bareloop's arguments for its total exchange */
};

#define SPEC(t, ...) { .topo = (t), .ndims = sizeof((u32[]){ __VA_ARGS__ }) / sizeof(u32), \
		       .size = { __VA_ARGS__ } }

static const struct bnet nets[] = {
	{ "ring 256", SPEC(TXNET_TOPO_RING, 256), "ring 256" },
	{ "ring 1024", SPEC(TXNET_TOPO_RING, 1024), "ring 1024" },
	{ "linear 256", SPEC(TXNET_TOPO_LINEAR, 256), NULL },
	{ "linear 1024", SPEC(TXNET_TOPO_LINEAR, 1024), NULL },
	{ "torus 16 16", SPEC(TXNET_TOPO_TORUS, 16, 16), "torus 16" },
	{ "torus 32 32", SPEC(TXNET_TOPO_TORUS, 32, 32), "torus 32" },
	{ "mesh 32 32", SPEC(TXNET_TOPO_MESH, 32, 32), NULL },
	{ "torus 8 8 8", SPEC(TXNET_TOPO_TORUS, 8, 8, 8), NULL },
	{ "hypercube 10", SPEC(TXNET_TOPO_HYPERCUBE, 10), NULL },
	{ "complete 64", SPEC(TXNET_TOPO_COMPLETE, 64), NULL },
	/* past MIN_HOPS: a single-port pick among 255 ports */
	{ "complete 256", SPEC(TXNET_TOPO_COMPLETE, 256), NULL },
	{ "butterfly 256", SPEC(TXNET_TOPO_BUTTERFLY, 256), NULL },
	{ "omega 256", SPEC(TXNET_TOPO_OMEGA, 256), NULL },
	{ "biswapped mesh 4 4", { .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH,
				  .ndims = 2, .size = { 4, 4 } }, NULL },
	/* 33 groups of 8 routers, 1,056 processors; the 4-ary 5-tree's 1,024 */
	{ "dragonfly 4 8 4", SPEC(TXNET_TOPO_DRAGONFLY, 4, 8, 4), NULL },
	{ "fattree 4 5", SPEC(TXNET_TOPO_FATTREE, 4, 5), NULL },
	/* 2 13^2 = 338 routers, 1,014 processors */
	{ "slimfly 13 3", SPEC(TXNET_TOPO_SLIMFLY, 13, 3), NULL },
};

/*
 * The scale case, only with -s, since its engine takes 3.2 GB and it runs
 * for more than an hour.  The shortest-path schedule runs it:
 * [Dimakopoulos98]'s A2 and A3 keep traces of factors of up to 64 nodes,
 * and its factors have 128.
 */
static const struct bnet scale_nets[] = {
	{ "torus 128 128", SPEC(TXNET_TOPO_TORUS, 128, 128), NULL },
};

/* What a child reports of one case. */
struct bres {
	u64 ticks, bound, hops, bytes, slots, expected;
	u64 sched_bytes;	/* of bytes, the schedule's own (priv_bytes) */
	u64 fabric;		/* links + nodes */
	double best, bare_best;
	double start;		/* the fastest txn_engine_init(): the schedule's start, not in best */
	int verified, expected_ok;
	char sched[32], bound_name[32];
};

static const char *bareloop;
static u32 payload;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

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

/* Bind the bench, and every child and loop it starts, to @cpu (-1: the one it is on). */
static int pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return cpu;
}

/* The scale case's run takes an hour and more: a line on stderr each minute shows it moves. */
static bool progress;

#ifndef PROGRESS_SECONDS
#define PROGRESS_SECONDS 60
#endif

/* The run's start (the engine's set-up and the schedule's), for callgrind as bench_ticks(). */
static noinline int bench_start(struct txn_engine *e, const struct txn_graph *g,
				const struct txn_sched *s, const struct txn_run_params *p)
{
	return txn_engine_init(e, g, s, p);
}

/* The tick loop alone, a function of its own so that callgrind can count just it. */
static noinline int bench_ticks(struct txn_engine *e)
{
	double start, last;
	int ret;

	if (!progress) {
		while ((ret = txn_engine_tick(e)) == 0)
			;
		return ret;
	}
	start = last = now();
	while ((ret = txn_engine_tick(e)) == 0) {
		if (e->tick % 1024 || now() - last < PROGRESS_SECONDS)
			continue;
		last = now();
		fprintf(stderr, "bench: tick %llu, %llu link-hops, %.1f M link-hops/s so far\n",
			(unsigned long long)e->tick, (unsigned long long)e->transmissions,
			e->transmissions / (last - start) / 1e6);
	}
	return ret;
}

static u32 dests[1 << 16];

static void params_for(const struct txn_graph *g, u32 op, u32 port, struct txn_run_params *p)
{
	u32 n = g->procs, i;

	memset(p, 0, sizeof(*p));
	p->op = op;
	p->port_model = port;
	p->payload = txn_op_combines(op) ? 0 : payload;
	p->seed = 1;
	p->values_seed = 1;
	if (op == TXNET_OP_PERMUTATION) {
		static u32 rows[1 << 15];
		u32 logn = 0;

		/* on a MIN, one it routes: what configuration M^{235,5} realizes ([Massini03]) */
		while ((1U << logn) < n)
			logn++;
		if (g->min_topo)
			txn_latin_config(n, 235, rows);
		for (i = 0; i < n; i++)
			dests[i] = g->min_topo ? txn_latin_route(g->min_topo, logn, rows, 5, i) :
				   (i + 1) % n;
		p->dests = dests;
		p->ndests = n;
	}
}

/* Set up and run @reps times (at least until 0.3 s of engine time); 0 or -1. */
static int run_case(const struct bnet *nt, u32 op, u32 algo, u32 port, int reps,
		    struct bres *r)
{
	struct txn_spec spec = nt->spec;
	struct txn_run_params p;
	const struct txn_sched *s;
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_engine e;
	struct txn_graph g;
	struct txn_bound b;
	double t0, t1, spent = 0, rate;
	const char *why;
	int ret = 0, rep;
	bool bare = bareloop && nt->bare && op == TXNET_OP_TOTAL_EXCHANGE && reps > 1;

	memset(r, 0, sizeof(*r));
	r->best = 1e30;
	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g))
		return -1;
	s = txn_sched_pick(&spec, op, algo, port, &why);
	if (!s)
		return -1;
	params_for(&g, op, port, &p);
	snprintf(r->sched, sizeof(r->sched), "%s", s->name);
	r->bytes = txn_engine_bytes(&g, s, &p);
	r->sched_bytes = s->priv_bytes ? s->priv_bytes(&g, op, port,
						       txn_op_slots(op, g.procs, txn_slot_links(&g))) : 0;
	r->fabric = (u64)g.links + g.nodes;
	for (rep = 0; rep < reps && (rep < 3 || spent < 0.3); rep++) {
		t0 = now();
		ret = bench_start(&e, &g, s, &p);
		if (ret) {
			fprintf(stderr, "bench: %s %s %s: no start: %d\n", nt->label,
				txn_op_name(op), s->name, ret);
			return -1;
		}
		t1 = now();
		if (!rep || t1 - t0 < r->start)
			r->start = t1 - t0;
		t0 = now();
		ret = bench_ticks(&e);
		t1 = now();
		if (ret == 1)
			ret = txn_engine_verify(&e);
		if (ret && e.failed)
			fprintf(stderr, "bench: %s %s %s: not verified: %s (tick %llu, node %u)\n",
				nt->label, txn_op_name(op), s->name, e.v.rule,
				(unsigned long long)e.v.tick, e.v.node);
		spent += t1 - t0;
		if (t1 - t0 < r->best)
			r->best = t1 - t0;
		r->ticks = e.tick;
		r->hops = e.transmissions;
		r->slots = e.npkts;
		if (rep + 1 < reps && (rep + 1 < 3 || spent < 0.3))
			txn_engine_free(&e);
		rate = bare ? bare_rate(nt->bare) : 0;
		if (rate > r->bare_best)
			r->bare_best = rate;
		if (ret)
			break;
	}
	r->verified = !ret;
	txn_bound(&spec, &g, op, port, 0, &b);
	r->bound = b.lower;
	snprintf(r->bound_name, sizeof(r->bound_name), "%s", b.name ? b.name : "");
	r->expected_ok = !txn_expected_steps(s, &spec, &p, &r->expected) || r->expected == r->ticks;
	txn_engine_free(&e);
	txn_graph_free(&g);
	return ret ? -1 : 0;
}

/* Run one case in a child; its peak RSS in KiB into *@rss. */
static int fork_case(const struct bnet *nt, u32 op, u32 algo, u32 port, int reps,
		     struct bres *r, long *rss)
{
	struct rusage ru;
	int fd[2], st;
	pid_t pid;
	ssize_t got;

	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(fd[0]);
		run_case(nt, op, algo, port, reps, r);
		if (write(fd[1], r, sizeof(*r)) != (ssize_t)sizeof(*r))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], r, sizeof(*r));
	close(fd[0]);
	if (wait4(pid, &st, 0, &ru) < 0 || got != (ssize_t)sizeof(*r))
		return -1;
	*rss = ru.ru_maxrss;
	return 0;
}

/*
 * A network's runs, for the lines after them: how much slower per hop each
 * is than the fastest schedule of the same operation there, under either
 * port model: a run more than SLOW times slower a hop than its
 * operation's fastest spends its time on something other than moving
 * packets, and is named.  Operations are not weighed against each
 * other: a combining run's hop is a merge the engine checks, a gather's a
 * replayed scatter's.  The fastest of all is printed as well, for scale.
 * Runs of under MIN_HOPS link-hops are left out: their time is mostly the
 * per-tick work.  A run past 3x is measured again, RECHECKS times,
 * alternated with its operation's fastest (a busy spell on a shared
 * machine can last a whole run, and slows a run of scattered reads more
 * than one that streams); the best of each decides.
 */
#define MIN_HOPS	10000
#define RECHECKS	3
#define REPS		20	/* a case's runs at most (at least 3, 0.3 s) */
#ifndef SLOW
#define SLOW		3.0	/* no run more than 3x slower a hop than its operation's fastest */
#endif
static struct seen {
	const struct bnet *nt;
	char sched[32];
	u32 op, algo, port;
	double ns;		/* the best of its runs */
	double first;		/* measured again: its first ratio to the fastest; else 0 */
	double bare;		/* its best ratio to the plain C loop beside it; 0: none */
	double bare_first;	/* measured again for that: its first ratio; else 0 */
} seen[64];
static u32 nseen;

/* Seen run @i timed once more: its best so far lowered, 0; -1 if it did not run. */
static int recheck(u32 i)
{
	struct bres r;
	long rss;

	if (fork_case(seen[i].nt, seen[i].op, seen[i].algo, seen[i].port, REPS, &r, &rss) ||
	    !r.verified || !r.hops)
		return -1;
	if (r.best / r.hops * 1e9 < seen[i].ns)
		seen[i].ns = r.best / r.hops * 1e9;
	if (seen[i].bare && r.bare_best > 0 && r.hops / r.best / r.bare_best > seen[i].bare)
		seen[i].bare = r.hops / r.best / r.bare_best;
	return 0;
}

/* The fastest seen run of operation @op (0: of any), its index in *@at. */
static double fastest_of(u32 op, u32 *at)
{
	double best = 0;
	u32 i;

	for (i = 0; i < nseen; i++)
		if ((!op || seen[i].op == op) && (!best || seen[i].ns < best)) {
			best = seen[i].ns;
			*at = i;
		}
	return best;
}

/* " sched op[ single]" of seen run @i, for the summary. */
static void name_run(u32 i)
{
	printf(" %s %s%s", seen[i].sched, txn_op_name(seen[i].op),
	       seen[i].port == TXNET_PORT_SINGLE ? " single" : "");
}

/*
 * Where the plain C loop has the same work (an all-port total exchange on
 * a ring or a 2-D torus: the loop is all-port, beside a single-port run its
 * ratio is only a scale), every run within 0.6x of its rate: the loop is
 * the memory traffic no engine can avoid, so a run far below it spends
 * most of its time on its checks and choices rather than on the packets.
 * A run below is measured again, RECHECKS times (each run alternates its
 * reps with the loop's), and its best ratio decides.
 */
#ifndef BARE_MIN
#define BARE_MIN	0.6
#endif
static int bare_line(const char *label)
{
	u32 i, k, under = 0, again = 0, anchored = 0;
	int ret = 0;

	for (i = 0; i < nseen && !ret; i++) {
		anchored += seen[i].bare > 0;
		if (!seen[i].bare || seen[i].bare >= BARE_MIN)
			continue;
		seen[i].bare_first = seen[i].bare;
		for (k = 0; k < RECHECKS && !ret; k++)
			ret = recheck(i);
	}
	if (!anchored)
		return ret;
	printf("%s: below %gx of the plain C loop on the same work:", label, BARE_MIN);
	for (i = 0; i < nseen; i++) {
		if (!seen[i].bare || seen[i].bare >= BARE_MIN) {
			again += seen[i].bare_first > 0;
			continue;
		}
		under++;
		name_run(i);
		printf(" %.2fx (%.2fx at first);", seen[i].bare, seen[i].bare_first);
	}
	printf("%s\n", under ? "" : " none");
	if (again) {
		printf("%s: at %gx or more when measured again, %d times beside the loop:", label,
		       BARE_MIN, RECHECKS);
		for (i = 0; i < nseen; i++)
			if (seen[i].bare_first && seen[i].bare >= BARE_MIN) {
				name_run(i);
				printf(" %.2fx (%.2fx at first);", seen[i].bare, seen[i].bare_first);
			}
		printf("\n");
	}
	return ret;
}

/*
 * The memory line: the engine's bytes (the run's less its schedule's own)
 * at most 16 a packet slot plus a constant a link and a node, 320 as the
 * host tests hold it (collective_test general_memory_linear_in_packets,
 * engine_memory_within_line), so that a run's memory grows with the
 * packets it holds and nothing else.  The runs of a network past it,
 * named after the network.
 */
#define MEM_SLOT	16
#define MEM_FABRIC	320
static struct { char sched[32]; u32 op, port; double per_slot; } fat[64];
static u32 nfat;

static void mem_note(u32 op, u32 port, const struct bres *r)
{
	u64 own = r->bytes - r->sched_bytes;

	if (own <= MEM_SLOT * r->slots + MEM_FABRIC * r->fabric || nfat >= ARRAY_SIZE(fat))
		return;
	snprintf(fat[nfat].sched, sizeof(fat[nfat].sched), "%s", r->sched);
	fat[nfat].op = op;
	fat[nfat].port = port;
	fat[nfat++].per_slot = (double)own / r->slots;
}

static void mem_line(const char *label)
{
	u32 i;

	printf("%s: engine past %d bytes a packet slot plus %d a link and node:", label, MEM_SLOT,
	       MEM_FABRIC);
	for (i = 0; i < nfat; i++)
		printf(" %s %s%s %.1f bytes a slot;", fat[i].sched, txn_op_name(fat[i].op),
		       fat[i].port == TXNET_PORT_SINGLE ? " single" : "", fat[i].per_slot);
	printf("%s\n", nfat ? "" : " none");
	nfat = 0;
}

/*
 * Each run past 3x measured again with its operation's fastest, until none
 * is past it that was not measured again (the fastest may have got faster);
 * then the runs still past 3x, and those that are not any more.
 */
static int slow_line(const char *label)
{
	u32 i, j = 0, at = 0, over = 0, again = 0, k;
	double best, all = fastest_of(0, &at);
	bool more = true;
	int ret = 0;

	if (!all)
		return 0;
	while (more && !ret) {
		more = false;
		for (i = 0; i < nseen && !ret; i++) {
			best = fastest_of(seen[i].op, &j);
			if (seen[i].ns <= SLOW * best || seen[i].first)
				continue;
			seen[i].first = seen[i].ns / best;
			for (k = 0; k < RECHECKS && !ret; k++) {
				ret = recheck(i);
				if (!ret)
					ret = recheck(j);
			}
			more = true;
		}
	}
	all = fastest_of(0, &at);
	printf("%s: fastest %.1f ns/hop (%s %s); more than %gx slower than its operation's fastest:",
	       label, all, seen[at].sched, txn_op_name(seen[at].op), SLOW);
	for (i = 0; i < nseen; i++) {
		best = fastest_of(seen[i].op, &j);
		if (seen[i].ns <= SLOW * best) {
			again += seen[i].first > 0;
			continue;
		}
		over++;
		name_run(i);
		printf(" %.1fx (%s %.1f ns", seen[i].ns / best, seen[j].sched, best);
		if (seen[i].first)
			printf("; %.1fx at first", seen[i].first);
		printf(");");
	}
	printf("%s\n", over ? "" : " none");
	if (again) {
		/* the table keeps each run's first figures: this says which moved */
		printf("%s: within %gx when measured again, %d times alternated with the fastest:",
		       label, SLOW, RECHECKS);
		for (i = 0; i < nseen; i++) {
			best = fastest_of(seen[i].op, &j);
			if (seen[i].first && seen[i].ns <= SLOW * best) {
				name_run(i);
				printf(" %.1fx (%s %.1f ns; %.1fx at first);", seen[i].ns / best,
				       seen[j].sched, best, seen[i].first);
			}
		}
		printf("\n");
	}
	nseen = 0;
	return ret;
}

/*
 * What making and checking a payload costs, per 8 bytes: a run with a
 * payload does both for every packet (engine_payload.c, engine_verify.c).
 */
static void payload_cost(double *fill, double *check)
{
	static u8 b[TXN_MAX_PAYLOAD];
	u32 i, reps = 20000, ok = 0;
	double t0, t1, t2;

	t0 = now();
	for (i = 0; i < reps; i++)
		txn_payload_fill(b, sizeof(b), 1, i, i + 1);
	t1 = now();
	for (i = 0; i < reps; i++)
		ok += txn_payload_ok(b, sizeof(b), 1, reps - 1, reps);
	t2 = now();
	*fill = (t1 - t0) / reps / (sizeof(b) / 8) * 1e9;
	*check = ok == reps ? (t2 - t1) / reps / (sizeof(b) / 8) * 1e9 : -1;
}

/*
 * Open traffic (ports) on a 16-cube, 65,536 nodes and 1,048,576 links:
 * one packet at a time from node i to its complement, each run to its
 * end.  The cost of an injection and of a tick with one packet in flight,
 * in microseconds: neither may grow with the network's size.
 */
static int open_cost(double *inject_us, double *tick_us)
{
	struct txn_spec spec = SPEC(TXNET_TOPO_HYPERCUBE, 16);
	struct txn_run_params p = { .port_model = TXNET_PORT_ALL, .payload = 64 };
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_engine e;
	struct txn_graph g;
	double t0, in = 0, ti = 0;
	u64 ticks = 0;
	u32 i, k, reps = 200;
	int ret = 0;

	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g))
		return -1;
	if (txn_engine_init_open(&e, &g, &txn_sched_route, &p, 16)) {
		txn_graph_free(&g);
		return -1;
	}
	for (i = 0; i < reps && !ret; i++) {
		t0 = now();
		ret = txn_engine_inject(&e, i * 97, (i * 97) ^ 0xffff, "open traffic", 12) < 0;
		in += now() - t0;
		t0 = now();
		while (!ret && e.delivered < e.injected) {
			ret = txn_engine_tick(&e) < 0;
			ticks++;
			for (k = 0; k < e.ndone; k++)
				txn_engine_release(&e, e.done[k]);
		}
		ti += now() - t0;
	}
	*inject_us = in / reps * 1e6;
	*tick_us = ti / ticks * 1e6;
	txn_engine_free(&e);
	txn_graph_free(&g);
	return ret ? -1 : 0;
}

/*
 * A replayed run beside the schedule it was saved from: the built-in run
 * logs what the engine accepted (txn_engine_save()), and the replay
 * (sched_replay.c) proposes those moves again to an engine that checks
 * them as it checks any schedule's.  The two are timed alternately, the
 * best of each kept, engine ticks only (the start apart, as in the
 * table); a replay must keep REPLAY_LINE of the built-in's rate, must
 * verify in the same ticks with the same transmissions, and its file's
 * bytes a move (schedule_file_write(), the text a user keeps) are printed.
 */
#define REPLAY_LINE	0.5

struct replay_case {
	const char *label;
	struct txn_spec spec;
	u32 op, algo, port;
};

static const struct replay_case replay_cases[] = {
	{ "torus 16 16", SPEC(TXNET_TOPO_TORUS, 16, 16), TXNET_OP_TOTAL_EXCHANGE,
	  TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL },
	{ "torus 16 16", SPEC(TXNET_TOPO_TORUS, 16, 16), TXNET_OP_TOTAL_EXCHANGE,
	  TXNET_ALGO_A3, TXNET_PORT_ALL },
	{ "ring 256", SPEC(TXNET_TOPO_RING, 256), TXNET_OP_TOTAL_EXCHANGE,
	  TXNET_ALGO_MESSAGE_SHIFT, TXNET_PORT_ALL },
	{ "hypercube 10", SPEC(TXNET_TOPO_HYPERCUBE, 10), TXNET_OP_MULTINODE_BROADCAST,
	  TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_ALL },
	{ "torus 16 16", SPEC(TXNET_TOPO_TORUS, 16, 16), TXNET_OP_MULTINODE_ACCUMULATE,
	  TXNET_ALGO_SHORTEST_PATH, TXNET_PORT_SINGLE },
};

/* One run of @s (replaying @script if given), its ticks timed into *@t; 0 verified. */
static int replay_run(const struct txn_graph *g, const struct txn_sched *s, struct txn_run_params p,
		      const struct txn_script *script, struct txn_log *log, double *t,
		      u64 *ticks, u64 *hops)
{
	struct txn_engine e;
	double t0;
	int ret;

	p.script = script;
	ret = txn_engine_init(&e, g, s, &p);
	if (ret)
		return ret;
	if (log)
		txn_engine_save(&e, log);
	t0 = now();
	ret = bench_ticks(&e);
	*t = now() - t0;
	if (ret == 1)
		ret = txn_engine_verify(&e);
	*ticks = e.tick;
	*hops = e.transmissions;
	txn_engine_free(&e);
	return ret;
}

/* The bytes of @log written as a schedule file; 0 if it cannot be. */
static u64 file_bytes(const struct replay_case *rc, const struct txn_log *log)
{
	struct schedule_file sf = { .nsteps = log->nsteps, .has_root = 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	_Static_assert(sizeof(struct txn_step) == sizeof(struct schedule_step),
		       "a script step is a schedule file's step");
	snprintf(sf.network, sizeof(sf.network), "%s", rc->label);
	snprintf(sf.operation, sizeof(sf.operation), "%s", txn_op_name(rc->op));
	snprintf(sf.port_model, sizeof(sf.port_model), "%s",
		 rc->port == TXNET_PORT_SINGLE ? "single-port" : "all-port");
	sf.form = schedule_form_of(sf.operation);
	sf.step = (struct schedule_step *)log->steps;
	f = open_memstream(&text, &len);
	if (!f)
		return 0;
	if (schedule_file_write(f, &sf))
		len = 0;
	fclose(f);
	free(text);
	return len;
}

/* What replay_cost() measured of a case, for the JSON. */
struct replay_res {
	u64 ticks, moves, bytes;
	double builtin_s, replay_s;
	int verified;
};

static struct replay_res replay_res[ARRAY_SIZE(replay_cases)];

static int replay_cost(void)
{
	size_t i;
	int fail = 0;

	printf("%-13s %-20s %-14s %-6s %6s %9s %10s %9s %9s %6s %8s %s\n", "replayed", "operation",
	       "saved from", "port", "ticks", "moves", "file MiB", "B/move", "built-in",
	       "replay", "ratio", "verified");
	for (i = 0; i < ARRAY_SIZE(replay_cases); i++) {
		const struct replay_case *rc = &replay_cases[i];
		struct txn_spec spec = rc->spec;
		double best_s = 1e30, best_r = 1e30, spent = 0, t, ratio;
		u64 ticks = 0, hops = 0, rticks = 0, rhops = 0, moves = 0, bytes, k;
		struct txn_spec_error err;
		struct txn_run_params p;
		const struct txn_sched *s;
		struct txn_script script;
		struct txn_counts c;
		struct txn_graph g;
		struct txn_log log;
		const char *why;
		int rep, ret;

		if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g))
			return 1;
		s = txn_sched_pick(&spec, rc->op, rc->algo, rc->port, &why);
		if (!s) {
			printf("%-13s %s: no schedule: %s: FAILED\n", rc->label, txn_op_name(rc->op), why);
			txn_graph_free(&g);
			fail = 1;
			continue;
		}
		params_for(&g, rc->op, rc->port, &p);
		txn_log_init(&log, rc->op, NULL);
		ret = replay_run(&g, s, p, NULL, &log, &t, &ticks, &hops) || log.err;
		script.steps = log.steps;
		script.nsteps = log.nsteps;
		for (rep = 0; !ret && (rep < 3 || spent < 0.6); rep++) {
			ret = replay_run(&g, s, p, NULL, NULL, &t, &ticks, &hops);
			best_s = t < best_s ? t : best_s;
			spent += t;
			ret = ret ?: replay_run(&g, &txn_sched_replay, p, &script, NULL, &t, &rticks,
						&rhops);
			best_r = t < best_r ? t : best_r;
			spent += t;
		}
		for (k = 0; k < log.nsteps; k++)
			moves += log.steps[k].from != TXN_STEP_TICK;
		bytes = file_bytes(rc, &log);
		ratio = ret ? 0 : best_s / best_r;
		ret = ret || rticks != ticks || rhops != hops || !bytes;
		printf("%-13s %-20s %-14s %-6s %6llu %9llu %10.1f %9.1f %7.1fms %4.1fms %7.2fx %s\n",
		       rc->label, txn_op_name(rc->op), s->name, rc->port == TXNET_PORT_SINGLE ?
		       "single" : "all", (unsigned long long)ticks, (unsigned long long)moves,
		       bytes / 1048576.0, moves ? (double)bytes / moves : 0, best_s * 1e3,
		       best_r * 1e3, ratio, ret ? "FAILED" : "yes");
		replay_res[i] = (struct replay_res){ ticks, moves, bytes, best_s, best_r, !ret };
		if (ret || ratio < REPLAY_LINE) {
			printf("%-13s %s %s: the replay %s\n", rc->label, txn_op_name(rc->op), s->name,
			       ret ? "differs from its run" : "is past the line");
			fail = 1;
		}
		txn_log_free(&log);
		txn_graph_free(&g);
	}
	printf("replay line: every replay at least %.1fx its built-in schedule's rate\n",
	       REPLAY_LINE);
	return fail;
}

/*
 * A graph from its cables (a user's file, as the kernel receives it)
 * against the closed-form builder of the same graph: the 512 x 512 torus,
 * 262,144 processors and 524,288 cables, listed in the builder's link
 * order.  Both make the same CSR; the list also checks every cable, looks
 * for duplicates and searches for reachability and the diameter (two
 * sweeps at this size), which the closed form knows.  Seconds each, and
 * the graph's bytes.
 */
static int cables_cost(double *list_s, double *rule_s, u64 *bytes)
{
	struct txn_spec spec = SPEC(TXNET_TOPO_TORUS, 512, 512);
	struct txn_cables_error cerr;
	struct txn_cables list = { 0 };
	struct txn_spec_error err;
	struct txn_counts c, lc;
	struct txn_graph g, h;
	u32 *pair, l, n = 0;
	double t0;
	bool exact;
	int ret = -1;

	t0 = now();
	if (txn_spec_validate(&spec, 1 << 24, &c, &err) || txn_graph_build(&spec, &c, &g))
		return -1;
	*rule_s = now() - t0;
	pair = malloc(g.links * sizeof(u32));
	if (!pair)
		goto out;
	for (l = 0; l < g.links; l++)
		if (g.src[l] < g.dst[l]) {
			pair[2 * n] = g.src[l];
			pair[2 * n + 1] = g.dst[l];
			n++;
		}
	list.procs = g.procs;
	list.n = n;
	list.pair = pair;
	t0 = now();
	if (!txn_cables_count(&list, 1 << 24, &lc, &cerr) &&
	    !txn_graph_from_cables(&list, &lc, &h, &exact, &cerr)) {
		*list_s = now() - t0;
		*bytes = txn_graph_bytes(&lc);
		ret = h.links == g.links && h.diameter == g.diameter ? 0 : -1;
		txn_graph_free(&h);
	}
	free(pair);
out:
	txn_graph_free(&g);
	return ret;
}

static const struct bnet *net_named(const char *label)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++)
		if (!strcmp(nets[i].label, label))
			return &nets[i];
	return NULL;
}

static u32 algo_named(const char *name)
{
	u32 a;

	for (a = 1; a <= TXNET_ALGO_MAX; a++)
		if (!strcmp(txn_algo_name(a), name))
			return a;
	return TXNET_ALGO_AUTO;
}

/* Cases a 1-second budget cannot afford: the single-port total exchanges of the large ones. */
static bool too_long(const struct bnet *nt, u32 op, u32 port)
{
	return port == TXNET_PORT_SINGLE &&
	       (op != TXNET_OP_TOTAL_EXCHANGE || !strcmp(nt->label, "ring 1024") ||
		!strcmp(nt->label, "linear 1024") || !strcmp(nt->label, "torus 32 32") ||
		!strcmp(nt->label, "mesh 32 32") || !strcmp(nt->label, "hypercube 10") ||
		!strcmp(nt->label, "torus 8 8 8"));
}

int main(int argc, char **argv)
{
	const char *json_path = NULL, *filter = NULL;
	const struct bnet *list = nets;
	u32 count = ARRAY_SIZE(nets);
	FILE *json = NULL;
	u32 i, op, algo, port;
	int opt, fail = 0, rows = 0, cpu = -1;
	char *end;
	double fill, check, open_in = 0, open_tick = 0, list_s = 0, rule_s = 1;
	u64 graph_bytes = 0;
	struct bres r;
	long rss;

	while ((opt = getopt(argc, argv, "p:b:j:f:c:s1")) != -1) {
		switch (opt) {
		case 'p':
			payload = (u32)strtoul(optarg, NULL, 0);
			break;
		case 'b':
			bareloop = optarg;
			break;
		case 'j':
			json_path = optarg;
			break;
		case 'f':
			filter = optarg;
			break;
		case 'c':
			errno = 0;
			cpu = (int)strtol(optarg, &end, 0);
			if (errno || end == optarg || *end || cpu < 0 || cpu >= CPU_SETSIZE) {
				fprintf(stderr, "bench: -c %s: a CPU number, 0 to %d\n", optarg,
					CPU_SETSIZE - 1);
				return 2;
			}
			break;
		case 's':
			list = scale_nets;
			count = ARRAY_SIZE(scale_nets);
			break;
		case '1':
			if (argc - optind != 4 || !net_named(argv[optind]))
				return 2;
			if (run_case(net_named(argv[optind]), txn_op_from_name(argv[optind + 1]),
				     algo_named(argv[optind + 2]),
				     strcmp(argv[optind + 3], "single") ? TXNET_PORT_ALL :
				     TXNET_PORT_SINGLE, 1, &r))
				return 1;
			printf("%s ticks %llu link-hops %llu ns/hop %.1f start ms %.1f\n", r.sched,
			       (unsigned long long)r.ticks, (unsigned long long)r.hops,
			       r.best / r.hops * 1e9, r.start * 1e3);
			return 0;
		default:
			fprintf(stderr,
				"usage: bench [-p PAYLOAD] [-b BARELOOP] [-j JSON] [-f FILTER] [-c CPU] [-s]\n");
			return 2;
		}
	}
	cpu = pin_cpu(cpu);
	if (cpu < 0) {
		perror("bench: cannot bind to one CPU");
		return 1;
	}
	printf("bench: every case and the plain C loop on cpu %d\n", cpu);
	if (json_path) {
		json = fopen(json_path, "w");
		if (!json) {
			perror(json_path);
			return 1;
		}
		fprintf(json, "{\"payload\": %u, \"cpu\": %d, \"runs\": [", payload, cpu);
	}
	printf("%-19s %-20s %-19s %-6s %8s %8s %11s %8s %6s %8s %8s %6s %6s %8s %s\n",
	       "network", "operation", "schedule", "port", "ticks", "bound", "link-hops",
	       "Mhops/s", "ns/hop", "start ms", "bare M/s", "ratio", "B/pkt", "RSS MiB",
	       "verified");
	for (i = 0; i < count; i++) {
		if (filter && !strstr(list[i].label, filter))
			continue;
		for (op = 1; op <= TXNET_OP_MAX; op++)
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++)
				for (algo = 1; algo <= TXNET_ALGO_MAX; algo++) {
					const char *why;
					double rate, ratio;

					if ((list == scale_nets && (op != TXNET_OP_TOTAL_EXCHANGE ||
								    port != TXNET_PORT_ALL)) ||
					    too_long(&list[i], op, port) ||
					    !txn_sched_pick(&list[i].spec, op, algo, port, &why))
						continue;
					progress = list == scale_nets;
					if (fork_case(&list[i], op, algo, port, list == scale_nets ? 1 : REPS,
						      &r, &rss)) {
						printf("%-19s %-20s %-19s: cannot run\n", list[i].label,
						       txn_op_name(op), txn_algo_name(algo));
						fail = 1;
						continue;
					}
					rate = r.hops / r.best;
					ratio = r.bare_best > 0 ? rate / r.bare_best : 0;
					printf("%-19s %-20s %-19s %-6s %8llu %8llu %11llu %8.1f %6.1f %8.2f ",
					       list[i].label, txn_op_name(op), r.sched,
					       port == TXNET_PORT_ALL ? "all" : "single",
					       (unsigned long long)r.ticks, (unsigned long long)r.bound,
					       (unsigned long long)r.hops, rate / 1e6,
					       r.hops ? 1e9 / rate : 0.0, r.start * 1e3);
					if (r.bare_best > 0)
						printf("%8.1f %6.2f ", r.bare_best / 1e6, ratio);
					else
						printf("%8s %6s ", "-", "-");
					printf("%6.1f %8.1f %s\n", (double)r.bytes / r.slots, rss / 1024.0,
					       !r.verified ? "NOT VERIFIED" :
					       !r.expected_ok ? "verified, NOT the paper's time" : "yes");
					fail |= !r.verified || !r.expected_ok;
					mem_note(op, port, &r);
					if (r.hops >= MIN_HOPS && nseen < ARRAY_SIZE(seen)) {
						seen[nseen].nt = &list[i];
						seen[nseen].op = op;
						seen[nseen].algo = algo;
						seen[nseen].first = 0;
						seen[nseen].bare = port == TXNET_PORT_ALL ? ratio : 0;
						seen[nseen].bare_first = 0;
						snprintf(seen[nseen].sched, sizeof(seen[nseen].sched), "%s",
							 r.sched);
						seen[nseen].port = port;
						seen[nseen++].ns = 1e9 / rate;
					}
					if (json)
						fprintf(json, "%s\n {\"network\": \"%s\", \"operation\": \"%s\", "
							"\"schedule\": \"%s\", \"port\": \"%s\", \"ticks\": %llu, "
							"\"bound\": %llu, \"bound_name\": \"%s\", "
							"\"link_hops\": %llu, \"seconds\": %.6f, \"start_seconds\": %.6f, "
							"\"link_hops_per_s\": %.0f, \"bareloop_link_hops_per_s\": %.0f, "
							"\"bareloop_ratio\": %.3f, \"engine_bytes\": %llu, "
							"\"schedule_bytes\": %llu, "
							"\"packet_slots\": %llu, \"bytes_per_packet\": %.2f, "
							"\"peak_rss_kib\": %ld, \"verified\": %s}",
							rows++ ? "," : "", list[i].label, txn_op_name(op), r.sched,
							port == TXNET_PORT_ALL ? "all" : "single",
							(unsigned long long)r.ticks, (unsigned long long)r.bound,
							r.bound_name, (unsigned long long)r.hops, r.best, r.start, rate,
							r.bare_best, ratio, (unsigned long long)r.bytes,
							(unsigned long long)r.sched_bytes,
							(unsigned long long)r.slots, (double)r.bytes / r.slots, rss,
							r.verified && r.expected_ok ? "true" : "false");
				}
		mem_line(list[i].label);
		fail |= bare_line(list[i].label) != 0;
		fail |= slow_line(list[i].label) != 0;
	}
	fail |= open_cost(&open_in, &open_tick) != 0;
	fail |= replay_cost() != 0;
	printf("open traffic on a 16-cube: %.2f us an injection, %.2f us a tick with one packet in flight\n",
	       open_in, open_tick);
	payload_cost(&fill, &check);
	printf("payload: made at %.2f ns and checked at %.2f ns per 8 bytes\n", fill, check);
	if (cables_cost(&list_s, &rule_s, &graph_bytes)) {
		printf("a graph from its cables: FAILED (torus 512 512 listed)\n");
		fail = 1;
	} else {
		printf("a graph from its 524,288 cables (torus 512 512): %.0f ms, %.2fx the torus builder's "
		       "%.0f ms; %llu bytes\n", list_s * 1e3, list_s / rule_s, rule_s * 1e3,
		       (unsigned long long)graph_bytes);
	}
	fail |= check < 0;
	if (json) {
		fprintf(json, "\n], \"payload_fill_ns_per_8_bytes\": %.3f, "
			"\"payload_check_ns_per_8_bytes\": %.3f, \"open_inject_us\": %.3f, "
			"\"open_tick_us\": %.3f, \"cables_build_ms\": %.1f, \"cables_build_ratio\": %.3f, "
			"\"cables_graph_bytes\": %llu", fill, check, open_in, open_tick, list_s * 1e3,
			list_s / rule_s, (unsigned long long)graph_bytes);
		fprintf(json, ", \"replays\": [");
		for (i = 0; i < ARRAY_SIZE(replay_cases); i++) {
			const struct replay_res *rr = &replay_res[i];

			fprintf(json, "%s\n {\"network\": \"%s\", \"operation\": \"%s\", "
				"\"schedule\": \"%s\", \"port_model\": \"%s\", \"ticks\": %llu, "
				"\"moves\": %llu, \"file_bytes\": %llu, \"builtin_ms\": %.3f, "
				"\"replay_ms\": %.3f, \"ratio\": %.3f, \"verified\": %s}", i ? "," : "",
				replay_cases[i].label, txn_op_name(replay_cases[i].op),
				txn_algo_name(replay_cases[i].algo),
				replay_cases[i].port == TXNET_PORT_SINGLE ? "single" : "all",
				(unsigned long long)rr->ticks, (unsigned long long)rr->moves,
				(unsigned long long)rr->bytes, rr->builtin_s * 1e3, rr->replay_s * 1e3,
				rr->replay_s > 0 ? rr->builtin_s / rr->replay_s : 0,
				rr->verified ? "true" : "false");
		}
		fprintf(json, "\n]}\n");
		fclose(json);
	}
	return fail;
}
