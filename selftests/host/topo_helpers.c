// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_helpers.h"

const char *tg_msg(const char *fmt, ...)
{
	static char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

static const char *const topo_kw[] = {
	NULL, "linear", "ring", "complete", "mesh", "torus", "hypercube", "ghc",
	"product", "butterfly", "omega", "baseline", "rbaseline", "flip",
	"biswapped", "dragonfly", "fattree", "slimfly",
};

static uint32_t kw_topo(const char *w)
{
	uint32_t i;

	for (i = 1; i < sizeof(topo_kw) / sizeof(topo_kw[0]); i++)
		if (!strcmp(w, topo_kw[i]))
			return i;
	return 0;
}

int tg_parse(const char *text, struct txn_spec *s)
{
	char buf[512], *save = NULL, *w, *colon;
	uint32_t t;

	memset(s, 0, sizeof(*s));
	snprintf(buf, sizeof(buf), "%s", text);
	w = strtok_r(buf, " ", &save);
	if (!w)
		return -1;
	t = kw_topo(w);
	if (!t)
		return -1;
	s->topo = t;
	if (t == TXNET_TOPO_BISWAPPED) {
		w = strtok_r(NULL, " ", &save);
		if (!w || !kw_topo(w))
			return -1;
		s->base = kw_topo(w);
	}
	while ((w = strtok_r(NULL, " ", &save))) {
		if (s->ndims >= TXNET_MAX_DIMS)
			return -1;
		colon = strchr(w, ':');
		if (colon) {
			*colon = '\0';
			if (!strcmp(w, "linear"))
				s->kind[s->ndims] = TXNET_DIM_LINEAR;
			else if (!strcmp(w, "ring"))
				s->kind[s->ndims] = TXNET_DIM_RING;
			else if (!strcmp(w, "complete"))
				s->kind[s->ndims] = TXNET_DIM_COMPLETE;
			else
				return -1;
			w = colon + 1;
		}
		s->size[s->ndims++] = (uint32_t)strtoul(w, NULL, 10);
	}
	return 0;
}

const char *tg_make(struct tg *t, const char *text)
{
	struct txn_spec_error err;
	int ret;

	memset(t, 0, sizeof(*t));
	if (tg_parse(text, &t->spec))
		return tg_msg("%s: does not parse", text);
	ret = txn_spec_validate(&t->spec, 1u << 24, &t->c, &err);
	if (ret)
		return tg_msg("%s: validate %d: %s", text, ret,
			      err.msg ? err.msg : "(null)");
	if (err.msg)
		return tg_msg("%s: err->msg set on success", text);
	ret = txn_graph_build(&t->spec, &t->c, &t->g);
	if (ret)
		return tg_msg("%s: build %d", text, ret);
	return NULL;
}

void tg_free(struct tg *t)
{
	txn_graph_free(&t->g);
}

bool tg_has_link(const struct txn_graph *g, uint32_t u, uint32_t v)
{
	uint32_t l;

	for (l = g->first[u]; l < g->first[u + 1]; l++)
		if (g->dst[l] == v)
			return true;
	return false;
}

const char *tg_check_basic(const struct tg *t, bool oneway)
{
	const struct txn_graph *g = &t->g;
	uint32_t v, l, m, maxdeg = 0, *mark;
	const char *why = NULL;

	if (g->nodes != t->c.nodes || g->procs != t->c.procs ||
	    g->links != t->c.links)
		return tg_msg("graph %u/%u/%u vs counts %llu/%llu/%llu",
			      g->nodes, g->procs, g->links,
			      (unsigned long long)t->c.nodes,
			      (unsigned long long)t->c.procs,
			      (unsigned long long)t->c.links);
	if (t->c.nodes != t->c.procs + t->c.switches)
		return "nodes != procs + switches";
	if (g->first[0] != 0 || g->first[g->nodes] != g->links)
		return "first[] does not span the links";
	mark = calloc(g->nodes, sizeof(*mark));
	for (v = 0; v < g->nodes && !why; v++) {
		if (g->first[v] > g->first[v + 1]) {
			why = tg_msg("first[] decreases at %u", v);
			break;
		}
		if (g->first[v + 1] - g->first[v] > maxdeg)
			maxdeg = g->first[v + 1] - g->first[v];
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			if (g->src[l] != v) {
				why = tg_msg("src[%u] = %u, not %u", l, g->src[l], v);
				break;
			}
			if (g->dst[l] >= g->nodes) {
				why = tg_msg("dst[%u] out of range", l);
				break;
			}
			if (g->dst[l] == v) {
				why = tg_msg("self-loop at %u", v);
				break;
			}
			if (mark[g->dst[l]] == v + 1) {
				why = tg_msg("parallel links %u -> %u", v, g->dst[l]);
				break;
			}
			mark[g->dst[l]] = v + 1;
			m = g->rev[l];
			if (oneway) {
				if (m != TXN_NO_LINK) {
					why = tg_msg("one-way link %u has a rev", l);
					break;
				}
				continue;
			}
			if (m >= g->links || g->src[m] != g->dst[l] ||
			    g->dst[m] != v || g->rev[m] != l) {
				why = tg_msg("rev[%u] = %u is not %u -> %u", l, m,
					     g->dst[l], v);
				break;
			}
		}
	}
	free(mark);
	if (why)
		return why;
	if (maxdeg != t->c.max_degree)
		return tg_msg("max degree %u, counts say %u", maxdeg,
			      t->c.max_degree);
	/* first[], src[], dst[], rev[], and a MIN's line[] */
	if (txn_graph_bytes(&t->c) != 4ull * (g->nodes + 1ull) + (g->line ? 16ull : 12ull) * g->links)
		return "txn_graph_bytes";
	return NULL;
}

void tg_bfs(const struct txn_graph *g, uint32_t s, uint32_t *dist)
{
	tg_bfs_avoiding(g, s, dist, NULL);
}

void tg_bfs_avoiding(const struct txn_graph *g, uint32_t s, uint32_t *dist, const uint64_t *down)
{
	uint32_t *q = malloc(sizeof(*q) * g->nodes), head = 0, tail = 0, u, l;

	for (u = 0; u < g->nodes; u++)
		dist[u] = UINT32_MAX;
	dist[s] = 0;
	q[tail++] = s;
	while (head < tail) {
		u = q[head++];
		for (l = g->first[u]; l < g->first[u + 1]; l++) {
			if (dist[g->dst[l]] != UINT32_MAX || (down && (down[l / 64] >> (l % 64) & 1)))
				continue;
			dist[g->dst[l]] = dist[u] + 1;
			q[tail++] = g->dst[l];
		}
	}
	free(q);
}

uint32_t tg_proc_diameter(const struct txn_graph *g)
{
	uint32_t *dist = malloc(sizeof(*dist) * g->nodes), s, v, d = 0;

	for (s = 0; s < g->procs; s++) {
		tg_bfs(g, s, dist);
		for (v = 0; v < g->procs; v++) {
			if (dist[v] == UINT32_MAX) {
				free(dist);
				return UINT32_MAX;
			}
			if (dist[v] > d)
				d = dist[v];
		}
	}
	free(dist);
	return d;
}

void tg_decode(uint32_t v, uint32_t ndims, const uint32_t *size, uint32_t *coord)
{
	uint32_t i;

	for (i = ndims; i-- > 0;) {
		coord[i] = v % size[i];
		v /= size[i];
	}
}

bool tg_factor_edge(uint32_t kind, uint32_t k, uint32_t a, uint32_t b)
{
	if (a == b)
		return false;
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return a + 1 == b || b + 1 == a;
	case TXNET_DIM_RING:
		return (a + 1) % k == b || (b + 1) % k == a;
	case TXNET_DIM_COMPLETE:
		return true;
	}
	return false;
}

const uint32_t tg_min_wirings[5] = {
	TXNET_TOPO_BUTTERFLY, TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE, TXNET_TOPO_RBASELINE,
	TXNET_TOPO_FLIP,
};
const char *const tg_min_names[5] = {
	"butterfly", "omega", "baseline", "rbaseline", "flip",
};
