// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the topology graphs (kmod/core/{graph,product,min,
 * biswapped}.c): counts against closed formulas and against the built
 * graph, structure, diameters against BFS, the cartesian-product and
 * biswapped definitions edge by edge, the documented port order, the MINs'
 * wiring and banyan property.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"

/* Closed forms, derived by hand from the definitions. */
struct expect {
	uint64_t nodes, procs, links;
	uint32_t diameter, max_degree;
};

static uint32_t ilog2(uint32_t n)
{
	uint32_t r = 0;

	while ((1u << r) < n)
		r++;
	return r;
}

/* Factor: P_k has k-1 edges, C_k k edges (k >= 3; C_2 is one edge), K_k k(k-1)/2. */
static uint64_t f_edges(uint32_t kind, uint32_t k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR: return k - 1;
	case TXNET_DIM_RING: return k == 2 ? 1 : k;
	default: return (uint64_t)k * (k - 1) / 2;
	}
}

static uint32_t f_diam(uint32_t kind, uint32_t k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR: return k - 1;
	case TXNET_DIM_RING: return k / 2;
	default: return 1;
	}
}

static uint32_t f_deg(uint32_t kind, uint32_t k)
{
	if (kind == TXNET_DIM_COMPLETE)
		return k - 1;
	return k == 2 ? 1 : 2;
}

/*
 * A product G1 x ... x Gd: prod k_i nodes; each edge of G_i appears once per
 * combination of the other coordinates, so |E| = sum_i |E(G_i)| N / k_i;
 * distances add, so D = sum D(G_i); degrees add.
 */
static void product_expect(uint32_t nd, const uint32_t *k, const uint32_t *kind,
			   struct expect *e)
{
	uint64_t n = 1, edges = 0;
	uint32_t i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < nd; i++)
		n *= k[i];
	for (i = 0; i < nd; i++) {
		edges += f_edges(kind[i], k[i]) * (n / k[i]);
		e->diameter += f_diam(kind[i], k[i]);
		e->max_degree += f_deg(kind[i], k[i]);
	}
	e->nodes = e->procs = n;
	e->links = 2 * edges;
}

static void expect_of(const struct txn_spec *s, struct expect *e)
{
	uint32_t k[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], i, nd = s->ndims, t;
	uint32_t N, n;

	t = s->topo == TXNET_TOPO_BISWAPPED ? s->base : s->topo;
	for (i = 0; i < nd; i++) {
		k[i] = s->size[i];
		switch (t) {
		case TXNET_TOPO_LINEAR: case TXNET_TOPO_MESH:
			kind[i] = TXNET_DIM_LINEAR; break;
		case TXNET_TOPO_RING: case TXNET_TOPO_TORUS:
			kind[i] = TXNET_DIM_RING; break;
		case TXNET_TOPO_COMPLETE: case TXNET_TOPO_GHC:
			kind[i] = TXNET_DIM_COMPLETE; break;
		default:
			kind[i] = s->kind[i];
		}
	}
	if (t == TXNET_TOPO_HYPERCUBE) {
		/* Q_d: 2^d nodes, d 2^(d-1) edges, diameter d, degree d */
		uint32_t d = s->size[0];

		memset(e, 0, sizeof(*e));
		e->nodes = e->procs = 1ull << d;
		e->links = 2ull * d * (1ull << (d - 1));
		e->diameter = d;
		e->max_degree = d;
	} else if (t >= TXNET_TOPO_BUTTERFLY && t <= TXNET_TOPO_FLIP) {
		/*
		 * 002, section 2: log N stages of N/2 switches, one stage a
		 * tick; stage 0's switches are the processors' lines, not
		 * vertices (min.c).  Links: two per processor (N = 2: one),
		 * N between each pair of consecutive stages, N outputs.
		 */
		N = s->size[0];
		n = ilog2(N);
		e->procs = N;
		e->nodes = N + (uint64_t)(N / 2) * (n - 1);
		e->links = n > 1 ? (uint64_t)N * (n + 1) : 2;
		e->diameter = n;
		e->max_degree = n > 1 ? 2 : 1;
	} else {
		product_expect(nd, k, kind, e);
	}
	if (s->topo == TXNET_TOPO_BISWAPPED) {
		/*
		 * 004, Definition 1: 2n groups of n; base links per group +
		 * one swap per node.  Diameter 2D + 2: 004, proof of Theorem 1.
		 */
		uint64_t bn = e->nodes, bl = e->links;

		e->nodes = e->procs = 2 * bn * bn;
		e->links = 2 * bn * bl + 2 * bn * bn;
		e->diameter = 2 * e->diameter + 2;
		e->max_degree += 1;
	}
}

/* Everything that holds for every topology. */
static void check_spec(struct __test_metadata *_metadata, const char *text,
		       bool bfs)
{
	struct expect e;
	struct tg t;
	const char *why;
	bool oneway;
	uint32_t d;

	why = tg_make(&t, text);
	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
	oneway = t.spec.topo >= TXNET_TOPO_BUTTERFLY &&
		 t.spec.topo <= TXNET_TOPO_FLIP;
	expect_of(&t.spec, &e);
	EXPECT_EQ(e.nodes, t.c.nodes) TH_LOG("%s: nodes", text);
	EXPECT_EQ(e.procs, t.c.procs) TH_LOG("%s: procs", text);
	EXPECT_EQ(e.nodes - e.procs, t.c.switches) TH_LOG("%s: switches", text);
	EXPECT_EQ(e.links, t.c.links) TH_LOG("%s: links", text);
	EXPECT_EQ(e.diameter, t.c.diameter) TH_LOG("%s: diameter", text);
	EXPECT_EQ(e.max_degree, t.c.max_degree) TH_LOG("%s: max degree", text);
	why = tg_check_basic(&t, oneway);
	EXPECT_EQ(NULL, why) TH_LOG("%s: %s", text, why);
	if (bfs) {
		d = tg_proc_diameter(&t.g);
		EXPECT_EQ(t.c.diameter, d) TH_LOG("%s: BFS diameter %u", text, d);
	}
	tg_free(&t);
}

static void check_list(struct __test_metadata *_metadata,
		       const char *const *list, bool bfs)
{
	for (; *list; list++)
		check_spec(_metadata, *list, bfs);
}

TEST(linear_ring_complete)
{
	static const char *const l[] = {
		"linear 2", "linear 3", "linear 4", "linear 5", "linear 8",
		"linear 13", "linear 64",
		"ring 2", "ring 3", "ring 4", "ring 5", "ring 6", "ring 7",
		"ring 12", "ring 33",
		"complete 2", "complete 3", "complete 4", "complete 7",
		"complete 16", NULL };

	check_list(_metadata, l, true);
}

TEST(mesh_torus)
{
	static const char *const l[] = {
		"mesh 2", "mesh 2 2", "mesh 3 4", "mesh 4 3", "mesh 2 3 4",
		"mesh 5 5", "mesh 2 2 2 2 2", "mesh 3 3 3", "mesh 7 2",
		"torus 2", "torus 2 2", "torus 3 4", "torus 4 4", "torus 2 3",
		"torus 5 6", "torus 3 3 3", "torus 8 8", "torus 2 5 2",
		"torus 4 4 4", NULL };

	check_list(_metadata, l, true);
}

TEST(hypercube_ghc_product)
{
	static const char *const l[] = {
		"hypercube 1", "hypercube 2", "hypercube 3", "hypercube 4",
		"hypercube 5", "hypercube 6", "hypercube 8",
		"ghc 2", "ghc 2 2", "ghc 3 4", "ghc 4 4 2", "ghc 2 3 4",
		"ghc 5 5",
		"product ring:5 linear:3 complete:4", "product linear:7",
		"product linear:2 ring:2 complete:2", "product complete:3 ring:6",
		"product ring:3 ring:4 linear:5", "product complete:2 complete:5",
		NULL };

	check_list(_metadata, l, true);
}

TEST(mins)
{
	static const char *const names[] = {
		"butterfly", "omega", "baseline", "rbaseline", "flip" };
	char buf[64];
	uint32_t i, N;

	for (i = 0; i < 5; i++)
		for (N = 2; N <= 256; N *= 2) {
			snprintf(buf, sizeof(buf), "%s %u", names[i], N);
			check_spec(_metadata, buf, true);
		}
}

TEST(biswapped)
{
	static const char *const l[] = {
		"biswapped linear 2", "biswapped linear 3", "biswapped linear 5",
		"biswapped ring 2", "biswapped ring 3", "biswapped ring 4",
		"biswapped ring 5", "biswapped ring 7",
		"biswapped complete 2", "biswapped complete 3",
		"biswapped complete 6",
		"biswapped mesh 2 2", "biswapped mesh 3 3", "biswapped mesh 2 3",
		"biswapped mesh 3 4", "biswapped mesh 2 2 2",
		"biswapped hypercube 1", "biswapped hypercube 2",
		"biswapped hypercube 3", "biswapped hypercube 4", NULL };

	check_list(_metadata, l, true);
}

/* Large graphs: structure and counts only (no all-pairs BFS). */
TEST(large)
{
	static const char *const l[] = {
		"hypercube 16", "torus 256 256", "mesh 16 16 16 16",
		"complete 512", "butterfly 65536", "omega 4096",
		"biswapped ring 181", "biswapped hypercube 7",
		"product ring:64 complete:64 linear:16", NULL };

	check_list(_metadata, l, false);
}

/*
 * The cartesian-product definition, pair by pair: u -> v iff they differ in
 * exactly one coordinate and that pair of values is an edge of the factor;
 * and the documented port order.
 */
static void check_product_def(struct __test_metadata *_metadata, const char *text)
{
	uint32_t cu[TXNET_MAX_DIMS], cv[TXNET_MAX_DIMS], size[TXNET_MAX_DIMS];
	uint32_t kind[TXNET_MAX_DIMS], nd, u, v, i, diff, at, port, t, l, b, a, deg, deg0 = 0;
	bool hyper, want, regular = true;
	struct tg tg;
	const char *why;

	why = tg_make(&tg, text);
	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
	hyper = tg.spec.topo == TXNET_TOPO_HYPERCUBE;
	nd = hyper ? tg.spec.size[0] : tg.spec.ndims;
	for (i = 0; i < nd; i++) {
		size[i] = hyper ? 2 : tg.spec.size[i];
		kind[i] = hyper ? TXNET_DIM_LINEAR : tg.spec.kind[i];
	}
	for (u = 0; u < tg.g.nodes; u++) {
		tg_decode(u, nd, size, cu);
		for (v = 0; v < tg.g.nodes; v++) {
			tg_decode(v, nd, size, cv);
			diff = 0;
			at = 0;
			for (i = 0; i < nd; i++)
				if (cu[i] != cv[i]) {
					diff++;
					at = i;
				}
			want = diff == 1 &&
			       tg_factor_edge(kind[at], size[at], cu[at], cv[at]);
			ASSERT_EQ(want, tg_has_link(&tg.g, u, v))
				TH_LOG("%s: %u -> %u", text, u, v);
		}
		/* ports: dims in order (hypercube: port k flips bit k) */
		port = tg.g.first[u];
		for (t = 0; t < nd; t++) {
			uint32_t nb[2], nnb = 0, j, stride = 1;

			i = hyper ? nd - 1 - t : t;
			for (j = i + 1; j < nd; j++)
				stride *= size[j];
			a = cu[i];
			if (kind[i] == TXNET_DIM_COMPLETE) {
				for (b = 0; b < size[i]; b++) {
					if (b == a)
						continue;
					ASSERT_EQ(u - a * stride + b * stride,
						  tg.g.dst[port])
						TH_LOG("%s: vertex %u port %u", text,
						       u, port - tg.g.first[u]);
					port++;
				}
				continue;
			}
			if (kind[i] == TXNET_DIM_LINEAR) {
				if (a > 0)
					nb[nnb++] = a - 1;
				if (a + 1 < size[i])
					nb[nnb++] = a + 1;
			} else {
				nb[nnb++] = (a + size[i] - 1) % size[i];
				if (size[i] > 2)
					nb[nnb++] = (a + 1) % size[i];
			}
			for (j = 0; j < nnb; j++, port++)
				ASSERT_EQ(u - a * stride + nb[j] * stride,
					  tg.g.dst[port])
					TH_LOG("%s: vertex %u port %u", text, u,
					       port - tg.g.first[u]);
		}
		ASSERT_EQ(tg.g.first[u + 1], port) TH_LOG("%s: degree of %u", text, u);
		deg = port - tg.g.first[u];
		if (u == 0)
			deg0 = deg;
		regular &= deg == deg0;
	}
	/* topology.h: degree is every node's when they all have as many links, else 0 */
	EXPECT_EQ(regular ? deg0 : 0, tg.g.degree) TH_LOG("%s: regular degree", text);
	if (hyper)
		for (u = 0; u < tg.g.nodes; u++)
			for (l = 0; l < nd; l++)
				ASSERT_EQ(u ^ (1u << l), tg.g.dst[tg.g.first[u] + l]);
	tg_free(&tg);
}

TEST(product_definition_and_ports)
{
	static const char *const l[] = {
		"linear 2", "linear 6", "ring 2", "ring 3", "ring 8",
		"complete 5", "mesh 3 4", "mesh 2 3 2", "torus 3 4", "torus 2 4",
		"torus 3 3 3", "hypercube 1", "hypercube 3", "hypercube 5",
		"ghc 3 4", "ghc 2 2 3", "product ring:5 linear:3 complete:4",
		"product linear:2 ring:2 complete:2", "product complete:3 ring:6",
		"product ring:4 linear:4", NULL };
	const char *const *p;

	for (p = l; *p; p++)
		check_product_def(_metadata, *p);
}

/* Documented examples (Documentation/txnet-topologies.rst). */
TEST(documented_examples)
{
	struct tg t;
	const char *why;

	/* mesh 3 4: vertex 5 = (1,1); ports (0,1) (2,1) (1,0) (1,2) */
	why = tg_make(&t, "mesh 3 4");
	ASSERT_EQ(NULL, why);
	ASSERT_EQ(4, t.g.first[6] - t.g.first[5]);
	EXPECT_EQ(1, t.g.dst[t.g.first[5] + 0]);
	EXPECT_EQ(9, t.g.dst[t.g.first[5] + 1]);
	EXPECT_EQ(4, t.g.dst[t.g.first[5] + 2]);
	EXPECT_EQ(6, t.g.dst[t.g.first[5] + 3]);
	tg_free(&t);
	/* ring 5: vertex 0: port 0 -> 4, port 1 -> 1 */
	why = tg_make(&t, "ring 5");
	ASSERT_EQ(NULL, why);
	EXPECT_EQ(4, t.g.dst[t.g.first[0]]);
	EXPECT_EQ(1, t.g.dst[t.g.first[0] + 1]);
	tg_free(&t);
	/* biswapped ring 4: <g=1,p=2,c=0> = 6: ports 5, 7, swap -> <2,1,1> = 25 */
	why = tg_make(&t, "biswapped ring 4");
	ASSERT_EQ(NULL, why);
	ASSERT_EQ(3, t.g.first[7] - t.g.first[6]);
	EXPECT_EQ(5, t.g.dst[t.g.first[6]]);
	EXPECT_EQ(7, t.g.dst[t.g.first[6] + 1]);
	EXPECT_EQ(25, t.g.dst[t.g.first[6] + 2]);
	tg_free(&t);
}

/*
 * MINs: the stage structure, in/out degrees, N/2 2x2 switches per stage
 * (stage 0's are the processors' shared lines, min.c), and the banyan
 * property (exactly one path from each input processor to each output
 * processor, n = log2 N links long), by counting paths stage by stage.
 */
static void check_min(struct __test_metadata *_metadata, const char *text)
{
	uint32_t N, n, half, v, l, k, s, w, *indeg;
	uint64_t *paths, *next;
	struct tg t;
	const char *why;

	why = tg_make(&t, text);
	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
	N = t.g.procs;
	n = ilog2(N);
	half = N / 2;
	ASSERT_EQ(N + half * (n - 1), t.g.nodes);
	ASSERT_NE(NULL, t.g.line);
	EXPECT_TRUE(t.g.one_line);
	indeg = calloc(t.g.nodes, sizeof(*indeg));
	for (l = 0; l < t.g.links; l++)
		indeg[t.g.dst[l]]++;
	for (v = 0; v < t.g.nodes; v++) {
		uint32_t out = t.g.first[v + 1] - t.g.first[v];

		if (v < N) {
			/* the two lines of its stage-0 switch (N = 2: one, to the other) */
			EXPECT_EQ(N == 2 ? 1 : 2, out) TH_LOG("%s: processor %u", text, v);
			EXPECT_EQ(1, indeg[v]) TH_LOG("%s: processor %u", text, v);
			for (l = t.g.first[v]; l < t.g.first[v + 1]; l++) {
				EXPECT_TRUE(N == 2 ? t.g.dst[l] == 1 - v :
					    t.g.dst[l] >= N && t.g.dst[l] < N + half);
				/* a stage-0 output line, shared with the switch's other processor */
				EXPECT_LT(t.g.line[l], N);
			}
		} else {
			k = (v - N) / half + 1;
			EXPECT_EQ(2, out) TH_LOG("%s: switch %u", text, v);
			/* stage 1: each of its two input lines is two processors' links */
			EXPECT_EQ(k == 1 ? 4 : 2, indeg[v]) TH_LOG("%s: switch %u", text, v);
			for (l = t.g.first[v]; l < t.g.first[v + 1]; l++) {
				w = t.g.dst[l];
				EXPECT_GE(t.g.line[l], N);
				EXPECT_LT(t.g.line[l], t.g.links);
				if (k + 1 < n) {
					EXPECT_TRUE(w >= N + k * half &&
						    w < N + (k + 1) * half)
						TH_LOG("%s: %u -> %u", text, v, w);
				} else {
					EXPECT_TRUE(w < N)
						TH_LOG("%s: %u -> %u", text, v, w);
				}
			}
		}
	}
	free(indeg);

	paths = calloc(t.g.nodes, sizeof(*paths));
	next = calloc(t.g.nodes, sizeof(*next));
	for (s = 0; s < N; s++) {
		memset(paths, 0, t.g.nodes * sizeof(*paths));
		paths[s] = 1;
		/* n rounds of relaxation along the layered DAG */
		for (k = 0; k < n; k++) {
			memset(next, 0, t.g.nodes * sizeof(*next));
			for (v = 0; v < t.g.nodes; v++)
				for (l = t.g.first[v]; l < t.g.first[v + 1]; l++)
					next[t.g.dst[l]] += paths[v];
			memcpy(paths, next, t.g.nodes * sizeof(*paths));
		}
		for (v = 0; v < N; v++)
			ASSERT_EQ(N == 2 && v == s ? 0 : 1, paths[v])
				TH_LOG("%s: %lu paths %u -> %u", text,
				       (unsigned long)paths[v], s, v);
	}
	free(paths);
	free(next);
	tg_free(&t);
}

TEST(min_banyan)
{
	static const char *const names[] = {
		"butterfly", "omega", "baseline", "rbaseline", "flip" };
	char buf[64];
	uint32_t i, N;

	for (i = 0; i < 5; i++)
		for (N = 2; N <= 128; N *= 2) {
			snprintf(buf, sizeof(buf), "%s %u", names[i], N);
			check_min(_metadata, buf);
		}
}

/*
 * The wiring of each N = 8 MIN, worked out by hand from the standard
 * definitions in min.c: in[i] = stage-0 switch of processor i; mid[k][2h+b]
 * = switch of stage k+1 that port b of switch h of stage k reaches;
 * out[2h+b] = processor that port b of stage-2 switch h reaches.
 */
struct min8 {
	const char *name;
	uint32_t in[8], mid[2][8], out[8];
};

static const struct min8 min8[] = {
	{ "butterfly 8", { 0, 0, 1, 1, 2, 2, 3, 3 },
	  { { 0, 2, 1, 3, 0, 2, 1, 3 }, { 0, 1, 0, 1, 2, 3, 2, 3 } },
	  { 0, 1, 2, 3, 4, 5, 6, 7 } },
	{ "omega 8", { 0, 1, 2, 3, 0, 1, 2, 3 },
	  { { 0, 1, 2, 3, 0, 1, 2, 3 }, { 0, 1, 2, 3, 0, 1, 2, 3 } },
	  { 0, 1, 2, 3, 4, 5, 6, 7 } },
	{ "baseline 8", { 0, 0, 1, 1, 2, 2, 3, 3 },
	  { { 0, 2, 0, 2, 1, 3, 1, 3 }, { 0, 1, 0, 1, 2, 3, 2, 3 } },
	  { 0, 1, 2, 3, 4, 5, 6, 7 } },
	{ "rbaseline 8", { 0, 0, 1, 1, 2, 2, 3, 3 },
	  { { 0, 1, 0, 1, 2, 3, 2, 3 }, { 0, 1, 2, 3, 0, 1, 2, 3 } },
	  { 0, 1, 2, 3, 4, 5, 6, 7 } },
	{ "flip 8", { 0, 0, 1, 1, 2, 2, 3, 3 },
	  { { 0, 2, 0, 2, 1, 3, 1, 3 }, { 0, 2, 0, 2, 1, 3, 1, 3 } },
	  { 0, 4, 1, 5, 2, 6, 3, 7 } },
};

TEST(min_wiring_n8)
{
	uint32_t i, x, k;
	struct tg t;
	const char *why;

	for (i = 0; i < sizeof(min8) / sizeof(min8[0]); i++) {
		const struct min8 *m = &min8[i];

		why = tg_make(&t, m->name);
		ASSERT_EQ(NULL, why) TH_LOG("%s", why);
		/*
		 * Processor x sends on the lines 2 in[x] + b of its stage-0
		 * switch, to the stage-1 switches mid[0][...], vertices 8 + .
		 */
		for (x = 0; x < 8; x++)
			for (k = 0; k < 2; k++) {
				EXPECT_EQ(8 + m->mid[0][2 * m->in[x] + k],
					  t.g.dst[t.g.first[x] + k])
					TH_LOG("%s: processor %u port %u", m->name, x, k);
				EXPECT_EQ(2 * m->in[x] + k, t.g.line[t.g.first[x] + k]);
			}
		for (x = 0; x < 8; x++)
			EXPECT_EQ(8 + 4 + m->mid[1][x], t.g.dst[t.g.first[8 + x / 2] + x % 2])
				TH_LOG("%s: stage 1 line %u", m->name, x);
		for (x = 0; x < 8; x++)
			EXPECT_EQ(m->out[x], t.g.dst[t.g.first[12 + x / 2] + x % 2])
				TH_LOG("%s: output line %u", m->name, x);
		tg_free(&t);
	}
}

/*
 * The biswapped network, edge by edge against Definition 1 of 004 (the
 * base's edge set taken from its own definition, not from the builder),
 * and the port order: the base's ports, then the swap port.
 */
static void check_biswapped_def(struct __test_metadata *_metadata, const char *text)
{
	struct tg t, b;
	struct txn_spec bs;
	char btext[128];
	const char *why;
	uint32_t n, nn, u, v, c, g, p, c2, g2, p2, i, deg;
	uint32_t cu[TXNET_MAX_DIMS], cv[TXNET_MAX_DIMS], size[TXNET_MAX_DIMS];
	uint32_t kind[TXNET_MAX_DIMS], nd, diff, at;
	bool base_edge, want;

	why = tg_make(&t, text);
	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
	/* the base alone: "biswapped mesh 3 3" -> "mesh 3 3" */
	snprintf(btext, sizeof(btext), "%s", text + strlen("biswapped "));
	why = tg_make(&b, btext);
	ASSERT_EQ(NULL, why) TH_LOG("%s", why);
	bs = b.spec;
	n = b.g.nodes;
	nn = n * n;
	ASSERT_EQ(2 * nn, t.g.nodes);

	if (bs.topo == TXNET_TOPO_HYPERCUBE) {
		nd = bs.size[0];
		for (i = 0; i < nd; i++) {
			size[i] = 2;
			kind[i] = TXNET_DIM_LINEAR;
		}
	} else {
		nd = bs.ndims;
		for (i = 0; i < nd; i++) {
			size[i] = bs.size[i];
			kind[i] = bs.kind[i];
		}
	}

	for (u = 0; u < t.g.nodes; u++) {
		c = u / nn;
		g = u % nn / n;
		p = u % n;
		for (v = 0; v < t.g.nodes; v++) {
			c2 = v / nn;
			g2 = v % nn / n;
			p2 = v % n;
			tg_decode(p, nd, size, cu);
			tg_decode(p2, nd, size, cv);
			diff = 0;
			at = 0;
			for (i = 0; i < nd; i++)
				if (cu[i] != cv[i]) {
					diff++;
					at = i;
				}
			base_edge = diff == 1 &&
				    tg_factor_edge(kind[at], size[at], cu[at], cv[at]);
			/* (<g,p1,c>,<g,p2,c>) for (p1,p2) in E; (<g,p,c>,<p,g,1-c>) */
			want = (c == c2 && g == g2 && base_edge) ||
			       (c != c2 && g2 == p && p2 == g);
			ASSERT_EQ(want, tg_has_link(&t.g, u, v))
				TH_LOG("%s: %u -> %u", text, u, v);
		}
		deg = b.g.first[p + 1] - b.g.first[p];
		ASSERT_EQ(deg + 1, t.g.first[u + 1] - t.g.first[u]);
		for (i = 0; i < deg; i++)
			ASSERT_EQ(c * nn + g * n + b.g.dst[b.g.first[p] + i],
				  t.g.dst[t.g.first[u] + i])
				TH_LOG("%s: vertex %u port %u", text, u, i);
		ASSERT_EQ((1 - c) * nn + p * n + g, t.g.dst[t.g.first[u] + deg]);
	}
	tg_free(&b);
	tg_free(&t);
}

TEST(biswapped_definition)
{
	static const char *const l[] = {
		"biswapped linear 2", "biswapped linear 4", "biswapped ring 2",
		"biswapped ring 3", "biswapped ring 4", "biswapped ring 6",
		"biswapped complete 3", "biswapped complete 5",
		"biswapped mesh 2 3", "biswapped mesh 3 3", "biswapped mesh 2 2 2",
		"biswapped hypercube 1", "biswapped hypercube 2",
		"biswapped hypercube 3", NULL };
	const char *const *p;

	for (p = l; *p; p++)
		check_biswapped_def(_metadata, *p);
}

/* txn_graph_build refuses counts that are not the spec's own. */
TEST(build_checks_counts)
{
	struct tg t;
	struct txn_counts c;
	struct txn_graph g;
	const char *why;

	why = tg_make(&t, "torus 4 4");
	ASSERT_EQ(NULL, why);
	c = t.c;
	c.links += 2;
	EXPECT_EQ(-EINVAL, txn_graph_build(&t.spec, &c, &g));
	EXPECT_EQ(NULL, g.first);
	c = t.c;
	c.nodes = 8;
	EXPECT_EQ(-EINVAL, txn_graph_build(&t.spec, &c, &g));
	tg_free(&t);
}

TEST_HARNESS_MAIN
