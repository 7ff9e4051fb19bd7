// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the portable core: any bytes become a topology
 * spec.  A spec the core accepts must build a graph whose shape matches
 * the counts it promised; a linear array or ring small enough must then
 * run total exchange to a verified end in exactly the paper's time.  A
 * spec it refuses must say why, naming a field.  The bytes past the spec
 * then become a script for the replay of the operation the input picks:
 * moves over cables of the graph naming whatever the bytes say, which the
 * engine must judge, and which may verify only in the script's own ticks
 * and never below the operation's lower bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "core/bounds.h"
#include "core/latin.h"
#include "core/script.h"

#define FUZZ_MAX_NODES	2048
#define FUZZ_MAX_RUN	24	/* processors, for a full exchange per input */

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_core: %s\n", what);
		abort();
	}
}

static void check_graph(const struct txn_counts *c, const struct txn_graph *g)
{
	u32 v, l;

	check(g->nodes == c->nodes && g->procs == c->procs && g->links == c->links,
	      "built graph differs from the counts");
	check(g->first[0] == 0 && g->first[g->nodes] == g->links, "CSR bounds");
	for (v = 0; v < g->nodes; v++) {
		check(g->first[v] <= g->first[v + 1], "CSR order");
		check(g->first[v + 1] - g->first[v] <= c->max_degree, "degree above max_degree");
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			check(g->src[l] == v && g->dst[l] < g->nodes && g->dst[l] != v, "link ends");
			if (g->rev[l] != TXN_NO_LINK)
				check(g->src[g->rev[l]] == g->dst[l] && g->dst[g->rev[l]] == v &&
				      g->rev[g->rev[l]] == l, "reverse link");
		}
	}
}

static void run_exchange(const struct txn_spec *s, const struct txn_graph *g, u32 algo, u32 port)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port,
				    .payload = 4, .seed = algo };
	const struct txn_sched *sc;
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	u64 expected;
	int ret;

	sc = txn_sched_pick(s, TXNET_OP_TOTAL_EXCHANGE, algo, port, &why);
	if (!sc)
		return;
	check(!txn_engine_init(&e, g, sc, &p), "engine init");
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	check(ret == 1 && !txn_engine_verify(&e), "exchange not verified");
	check(!txn_bound(s, g, p.op, port, 0, &b) && e.tick >= b.lower, "faster than the lower bound");
	if (txn_expected_steps(sc, s, &p, &expected))
		check(e.tick == expected, "steps differ from the paper's time");
	txn_engine_free(&e);
}

/* Any operation with the general schedule: it must verify and never beat its bound. */
static void run_collective(const struct txn_spec *s, const struct txn_graph *g, u32 op, u32 port,
			   u32 root)
{
	struct txn_run_params p = { .op = op, .port_model = port, .seed = op, .values_seed = op,
				    .root = txn_op_has_root(op) ? root % g->procs : 0 };
	const struct txn_sched *sc;
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	int ret;

	sc = txn_sched_pick(s, op, TXNET_ALGO_SHORTEST_PATH, port, &why);
	check(sc != NULL, "no general schedule");
	check(!txn_engine_init(&e, g, sc, &p), "engine init");
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (ret != 1 || txn_engine_verify(&e))
		fprintf(stderr, "fuzz_core: %s: %s\n", txn_op_name(op), e.v.rule);
	check(ret == 1 && !txn_engine_verify(&e), "collective not verified");
	check(!txn_bound(s, g, op, port, p.root, &b) && e.tick >= b.lower,
	      "faster than the lower bound");
	txn_engine_free(&e);
}

/*
 * A permutation drawn from @seed: delivered and verified off the MINs; on
 * a MIN delivered exactly when a configuration realizes it, else stopped
 * where two packets need one line.
 */
static void run_permutation(const struct txn_spec *s, const struct txn_graph *g, u32 port,
			    u32 seed)
{
	struct txn_run_params p = { .op = TXNET_OP_PERMUTATION, .port_model = port, .seed = seed };
	u32 n = g->procs, i, j, t, *d, *rows, moved = 0;
	u64 x = 0x9e3779b97f4a7c15ULL ^ seed;
	const struct txn_sched *sc;
	struct txn_min_block blk;
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	bool admissible = true;
	int ret;

	d = malloc(n * sizeof(u32));
	rows = malloc(n * sizeof(u32));
	check(d && rows, "out of memory");
	for (i = 0; i < n; i++)
		d[i] = i;
	for (i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (u32)(x % (i + 1));
		t = d[i];
		d[i] = d[j];
		d[j] = t;
	}
	for (i = 0; i < n; i++)
		moved += txn_perm_sends(g, i, d[i]);
	if (!moved)
		for (i = 0; i < n; i++)
			d[i] = (i + 1) % n;
	p.dests = d;
	p.ndests = n;
	sc = txn_sched_pick(s, p.op, TXNET_ALGO_AUTO, port, &why);
	check(sc != NULL, "no permutation schedule");
	check(!txn_engine_init(&e, g, sc, &p), "permutation init");
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (g->min_topo)
		admissible = !txn_latin_admit(g->min_topo, n, d, rows, rows + n / 2, &blk);
	check(admissible == (ret == 1), "permutation blocked iff not admissible");
	if (admissible) {
		check(!txn_engine_verify(&e), "permutation not verified");
		check(!txn_bound_perm(g, d, &b) && e.tick >= b.lower,
		      "permutation faster than its bound");
	} else {
		check(e.v.link != TXN_NONE && e.v.other != TXN_NONE, "blocked without a line");
	}
	txn_engine_free(&e);
	free(rows);
	free(d);
}

#define FUZZ_MAX_STEPS	256

/* Bytes from @data, four a move (a mark where the first is 0xff), replayed for @op. */
static void run_replay(const struct txn_spec *s, const struct txn_graph *g, u32 op, u32 port,
		       u32 root, const u8 *data, size_t size)
{
	struct txn_run_params p = { .op = op, .port_model = port, .seed = 1, .values_seed = 1,
				    .root = txn_op_has_root(op) ? root % g->procs : 0 };
	struct txn_step steps[FUZZ_MAX_STEPS + 1];
	struct txn_script script = { .steps = steps };
	struct txn_engine e;
	struct txn_bound b;
	const char *why;
	size_t i;
	u64 at;
	int ret;

	if (!txn_script_op(op) || op == TXNET_OP_PERMUTATION)
		return;
	steps[script.nsteps++] = (struct txn_step){ TXN_STEP_TICK, 1, TXN_NONE, TXN_NONE };
	for (i = 0; i + 4 <= size && script.nsteps < FUZZ_MAX_STEPS; i += 4) {
		u32 v = data[i] % g->nodes, deg = g->first[v + 1] - g->first[v], l;
		bool none = op == TXNET_OP_BROADCAST || op == TXNET_OP_MULTINODE_BROADCAST ||
			    op == TXNET_OP_ACCUMULATE || op == TXNET_OP_MULTINODE_ACCUMULATE;

		if (data[i] == 0xff || !deg) {
			steps[script.nsteps++] = (struct txn_step){ TXN_STEP_TICK, 1 + data[i + 1] % 3,
								    TXN_NONE, TXN_NONE };
			continue;
		}
		l = g->first[v] + data[i + 1] % deg;
		steps[script.nsteps++] = (struct txn_step){ v, g->dst[l], data[i + 2] % g->procs,
							    none ? TXN_NONE : data[i + 3] % g->procs };
	}
	p.script = &script;
	if (txn_script_check(&p, &script, &why, &at))
		return;
	check(!txn_engine_init(&e, g, &txn_sched_replay, &p), "replay init");
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (ret == 1 && !txn_engine_verify(&e)) {
		check(e.tick <= txn_script_ticks(&script), "a replay verified past its script");
		check(!txn_bound(s, g, op, port, p.root, &b) && e.tick >= b.lower,
		      "a replay faster than the lower bound");
	}
	txn_engine_free(&e);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct txn_spec s = { 0 };
	struct txn_spec_error err = { 0 };
	struct txn_counts c;
	struct txn_graph g;
	char text[256];
	size_t i;
	int ret;

	if (size < 3)
		return 0;
	s.topo = data[0] % (TXNET_TOPO_MAX + 2);
	s.base = data[1] % (TXNET_TOPO_MAX + 2);
	s.ndims = data[2] % (TXNET_MAX_DIMS + 2);
	for (i = 0; i < s.ndims && i < TXNET_MAX_DIMS; i++) {
		size_t at = 3 + 2 * i;

		s.size[i] = at < size ? data[at] % 40 : 2;
		s.kind[i] = at + 1 < size ? data[at + 1] % (TXNET_DIM_MAX + 2) : 0;
	}
	if (s.ndims > TXNET_MAX_DIMS)
		s.ndims = TXNET_MAX_DIMS + 1;

	ret = txn_spec_validate(&s, FUZZ_MAX_NODES, &c, &err);
	if (ret) {
		check(ret == -EINVAL || ret == -E2BIG, "refusal errno");
		check(err.msg && *err.msg && err.field, "refusal names no field");
		return 0;
	}
	check(c.nodes <= FUZZ_MAX_NODES && c.procs >= 2, "accepted counts out of range");
	check(txn_spec_format(&s, text, sizeof(text)) < (int)sizeof(text), "spec text too long");
	check(!txn_graph_build(&s, &c, &g), "graph build");
	check_graph(&c, &g);
	/* the papers' total exchanges: 001 on linear arrays and rings, 000 on products */
	if (c.procs <= FUZZ_MAX_RUN && (txn_shape(&s) != TXN_SHAPE_OTHER ||
					txn_product_fits(&s, TXNET_ALGO_A2, TXNET_PORT_SINGLE))) {
		for (u32 algo = 0; algo <= TXNET_ALGO_MAX; algo++) {
			run_exchange(&s, &g, algo, TXNET_PORT_ALL);
			run_exchange(&s, &g, algo, TXNET_PORT_SINGLE);
		}
	}
	if (c.procs <= FUZZ_MAX_RUN) {
		u32 op = 1 + data[size - 1] % TXNET_OP_MAX;

		if (op == TXNET_OP_PERMUTATION) {
			run_permutation(&s, &g, TXNET_PORT_ALL, data[size - 2]);
			run_permutation(&s, &g, TXNET_PORT_SINGLE, data[size - 2]);
		} else {
			run_collective(&s, &g, op, TXNET_PORT_ALL, data[size - 2]);
			run_collective(&s, &g, op, TXNET_PORT_SINGLE, data[size - 2]);
		}
		if (size > 3 + 2 * TXNET_MAX_DIMS + 2)
			run_replay(&s, &g, op, data[size - 3] & 1 ? TXNET_PORT_SINGLE : TXNET_PORT_ALL,
				   data[size - 2], data + 3 + 2 * TXNET_MAX_DIMS,
				   size - (3 + 2 * TXNET_MAX_DIMS) - 3);
	}
	txn_graph_free(&g);
	return 0;
}
