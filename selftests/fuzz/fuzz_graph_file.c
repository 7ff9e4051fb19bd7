// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for txctl's network description files
 * (user/graph_file.c): any bytes become a file.  A file the parser accepts
 * must give a graph txnet can build: two processors at least, cables
 * between vertices that exist, no loops, no cable twice, in the documented
 * order, every vertex connected; written back out in its own format it
 * must parse to the same graph, and the limits must refuse it exactly
 * when it is one vertex or one cable over them.  A refusal must name the
 * file and leave nothing allocated.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_file.h"

#define FUZZ_MAX_VERTICES	4096
#define FUZZ_MAX_CABLES		8192
#define FNAME			"fuzz.net"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_graph_file: %s\n", what);
		abort();
	}
}

static uint32_t root_of(uint32_t *up, uint32_t v)
{
	while (up[v] != v)
		v = up[v] = up[up[v]];
	return v;
}

/* What graph_file.h promises of an accepted graph. */
static void check_graph(const struct graph_file *g, uint64_t max_vertices, uint64_t max_cables)
{
	uint32_t n = g->procs + g->switches, c, v, *up;

	check(g->procs >= 2, "fewer than two processors");
	check(n <= max_vertices && g->ncables <= max_cables, "over a limit");
	check(g->anynet || !g->switches, "switches in an edge list");
	for (v = 1; v < g->procs; v++)
		check(g->proc_id[v - 1] < g->proc_id[v], "processor ids not ascending");
	for (v = 1; v < g->switches; v++)
		check(g->switch_id[v - 1] < g->switch_id[v], "switch ids not ascending");
	for (c = 0; c < g->ncables; c++) {
		check(g->cable[c][0] < g->cable[c][1], "a loop, or the larger end first");
		check(g->cable[c][1] < n, "a cable to no vertex");
	}
	/* anynet: processor i's one cable first, to a switch; then ascending, so no two alike */
	if (g->anynet) {
		check(g->ncables >= g->procs, "a processor without its cable");
		for (v = 0; v < g->procs; v++)
			check(g->cable[v][0] == v && g->cable[v][1] >= g->procs,
			      "processor cables out of order");
	}
	for (c = g->anynet ? g->procs : 0; c < g->ncables; c++) {
		check(!g->anynet || g->cable[c][0] >= g->procs, "a processor's second cable");
		if (c > (g->anynet ? g->procs : 0))
			check(g->cable[c - 1][0] < g->cable[c][0] ||
			      (g->cable[c - 1][0] == g->cable[c][0] &&
			       g->cable[c - 1][1] < g->cable[c][1]),
			      "cables not ascending, or one twice");
	}
	up = malloc(n * sizeof(*up));
	check(up != NULL, "out of memory");
	for (v = 0; v < n; v++)
		up[v] = v;
	for (c = 0; c < g->ncables; c++)
		up[root_of(up, g->cable[c][0])] = root_of(up, g->cable[c][1]);
	for (v = 1; v < n; v++)
		check(root_of(up, v) == root_of(up, 0), "not connected");
	free(up);
}

/* The refusal contract: an errno it documents, the file named, nothing left in @g. */
static void check_refusal(int ret, const struct graph_file *g, const char *msg)
{
	check(ret == -EINVAL || ret == -E2BIG, "refusal errno");
	check(!strncmp(msg, FNAME ":", strlen(FNAME ":")) && strlen(msg) > strlen(FNAME ": "),
	      "refusal message names no file or no reason");
	check(!g->cable && !g->proc_id && !g->switch_id && !g->procs && !g->switches &&
	      !g->ncables, "refusal left a graph");
}

/* @g written in its own format, with the file's ids. */
static char *write_back(const struct graph_file *g, size_t *len)
{
	size_t cap = 64 + 48 * (size_t)g->ncables, n = 0;
	char *t = malloc(cap);
	uint32_t c, a, b;

	check(t != NULL, "out of memory");
	for (c = 0; c < g->ncables; c++) {
		a = g->cable[c][0];
		b = g->cable[c][1];
		if (!g->anynet)
			n += (size_t)snprintf(t + n, cap - n, "%u %u\n", g->proc_id[a],
					      g->proc_id[b]);
		else if (a < g->procs)
			n += (size_t)snprintf(t + n, cap - n, "router %u node %u\n",
					      g->switch_id[b - g->procs], g->proc_id[a]);
		else
			n += (size_t)snprintf(t + n, cap - n, "router %u router %u 1\n",
					      g->switch_id[a - g->procs], g->switch_id[b - g->procs]);
	}
	*len = n;
	return t;
}

static bool same_graph(const struct graph_file *a, const struct graph_file *b)
{
	return a->procs == b->procs && a->switches == b->switches && a->ncables == b->ncables &&
	       a->anynet == b->anynet &&
	       !memcmp(a->proc_id, b->proc_id, a->procs * sizeof(*a->proc_id)) &&
	       !memcmp(a->switch_id, b->switch_id, a->switches * sizeof(*a->switch_id)) &&
	       !memcmp(a->cable, b->cable, a->ncables * sizeof(*a->cable));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct graph_file g, h;
	char msg[256], small[24], *back;
	size_t blen;
	int ret;

	ret = graph_file_parse(text, size, FNAME, FUZZ_MAX_VERTICES, FUZZ_MAX_CABLES, &g, msg,
			       sizeof(msg));
	/* the same answer into a message buffer too short for it, cut, still a string */
	check(graph_file_parse(text, size, FNAME, FUZZ_MAX_VERTICES, FUZZ_MAX_CABLES, &h, small,
			       1 + size % sizeof(small)) == ret, "answer depends on the buffer");
	check(strlen(small) < 1 + size % sizeof(small), "message past its buffer");
	check(!ret || !strncmp(msg, small, strlen(small)), "short message not a prefix");
	if (ret) {
		check_refusal(ret, &g, msg);
		return 0;
	}
	graph_file_free(&h);
	check_graph(&g, FUZZ_MAX_VERTICES, FUZZ_MAX_CABLES);

	/* the graph, written back out, is the same graph */
	back = write_back(&g, &blen);
	ret = graph_file_parse(back, blen, FNAME, FUZZ_MAX_VERTICES, FUZZ_MAX_CABLES, &h, msg,
			       sizeof(msg));
	if (ret)
		fprintf(stderr, "fuzz_graph_file: written back: %s\n", msg);
	check(!ret && same_graph(&g, &h), "written back, a different graph");
	graph_file_free(&h);
	free(back);

	/* the limits: exactly the graph's counts pass, one less is E2BIG */
	ret = graph_file_parse(text, size, FNAME, g.procs + g.switches, g.ncables, &h, msg,
			       sizeof(msg));
	check(!ret && same_graph(&g, &h), "refused at its own counts");
	graph_file_free(&h);
	ret = graph_file_parse(text, size, FNAME, g.procs + g.switches - 1, FUZZ_MAX_CABLES, &h,
			       msg, sizeof(msg));
	check(ret == -E2BIG && strstr(msg, "max_nodes"), "one vertex over max_nodes passed");
	check_refusal(ret, &h, msg);
	ret = graph_file_parse(text, size, FNAME, FUZZ_MAX_VERTICES, g.ncables - 1, &h, msg,
			       sizeof(msg));
	check(ret == -E2BIG && strstr(msg, "max_cables"), "one cable over max_cables passed");
	check_refusal(ret, &h, msg);
	graph_file_free(&g);
	return 0;
}
