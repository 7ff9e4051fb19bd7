// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_topology: create every topology family over netlink and check the
 * counts the kernel reports (TXNET_A_NODES, _SWITCHES, _LINKS, _DIAMETER)
 * against closed forms derived next to each assertion, and, for small
 * sizes, against a breadth-first search of the graph rebuilt here from the
 * definitions (independently of kmod/core).  Also the normalized spec
 * string, the echoed dimensions, and that GET and sysfs agree with NEW.
 */
#include <stdint.h>
#include <string.h>

#include "txnet_harness.h"

/* ---------- an independent graph model: products and biswapped ---------- */

#define MAXV 4096

struct graph {
	uint32_t n;
	uint64_t links;		/* directed */
	uint32_t deg[MAXV];
	uint32_t *adj[MAXV];
};

static void g_free(struct graph *g)
{
	for (uint32_t v = 0; v < g->n; v++)
		free(g->adj[v]);
	free(g);
}

static void g_add(struct graph *g, uint32_t u, uint32_t v)
{
	g->adj[u] = realloc(g->adj[u], (g->deg[u] + 1) * sizeof(uint32_t));
	g->adj[u][g->deg[u]++] = v;
	g->links++;
}

/* Is (a,b) an edge of the factor of @kind and size @k? */
static int factor_edge(uint32_t kind, uint32_t k, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return a + 1 == b || b + 1 == a;
	case TXNET_DIM_RING:
		return (a + 1) % k == b || (b + 1) % k == a;
	default:
		return 1;
	}
}

/*
 * Cartesian product: u ~ v iff they differ in exactly one coordinate i and
 * (u_i, v_i) is an edge of factor i (000_*.txt, section 2).
 */
static struct graph *g_product(uint32_t nd, const uint32_t *size, const uint32_t *kind)
{
	struct graph *g = calloc(1, sizeof(*g));
	uint32_t n = 1, u, v, i, cu[TXNL_MAX_DIMS], cv[TXNL_MAX_DIMS], diff, at = 0;

	for (i = 0; i < nd; i++)
		n *= size[i];
	if (!g || n > MAXV) {
		free(g);
		return NULL;
	}
	g->n = n;
	for (u = 0; u < n; u++) {
		for (v = 0; v < n; v++) {
			uint32_t x = u, y = v;

			diff = 0;
			for (i = nd; i-- > 0;) {
				cu[i] = x % size[i];
				cv[i] = y % size[i];
				x /= size[i];
				y /= size[i];
				if (cu[i] != cv[i]) {
					diff++;
					at = i;
				}
			}
			if (diff == 1 && factor_edge(kind[at], size[at], cu[at], cv[at]))
				g_add(g, u, v);
		}
	}
	return g;
}

/*
 * Biswapped network over @b (004_*.txt, Definition 1): vertices <g,p,c>,
 * numbered c*n^2 + g*n + p; intra-group arcs (<g,p1,c>,<g,p2,c>) for
 * (p1,p2) in E(base); swap arcs <g,p,c> -> <p,g,1-c>.
 */
static struct graph *g_biswapped(const struct graph *b)
{
	struct graph *g = calloc(1, sizeof(*g));
	uint32_t n = b->n, c, gr, p, j;

	if (!g || 2 * n * n > MAXV) {
		free(g);
		return NULL;
	}
	g->n = 2 * n * n;
	for (c = 0; c < 2; c++)
		for (gr = 0; gr < n; gr++)
			for (p = 0; p < n; p++) {
				uint32_t v = c * n * n + gr * n + p;

				for (j = 0; j < b->deg[p]; j++)
					g_add(g, v, c * n * n + gr * n + b->adj[p][j]);
				g_add(g, v, (1 - c) * n * n + p * n + gr);
			}
	return g;
}

/* Largest BFS distance over all pairs; UINT32_MAX if disconnected. */
static uint32_t g_diameter(const struct graph *g)
{
	uint32_t *dist = malloc(g->n * sizeof(uint32_t)), *q = malloc(g->n * sizeof(uint32_t));
	uint32_t s, h, tl, u, j, best = 0;

	for (s = 0; s < g->n; s++) {
		for (u = 0; u < g->n; u++)
			dist[u] = UINT32_MAX;
		dist[s] = 0;
		h = tl = 0;
		q[tl++] = s;
		while (h < tl) {
			u = q[h++];
			for (j = 0; j < g->deg[u]; j++)
				if (dist[g->adj[u][j]] == UINT32_MAX) {
					dist[g->adj[u][j]] = dist[u] + 1;
					q[tl++] = g->adj[u][j];
				}
		}
		for (u = 0; u < g->n; u++)
			if (dist[u] > best)
				best = dist[u];
	}
	free(dist);
	free(q);
	return best;
}

/* ---------------------------- the fixture ---------------------------- */

FIXTURE(topo) {
	struct txnl t;
};

FIXTURE_SETUP(topo)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_count(&self->t));
}

FIXTURE_TEARDOWN(topo)
{
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

/*
 * Create @r, check the reply against the expected values, GET and sysfs
 * against the reply, destroy.  @g (may be NULL) is the model graph, whose
 * link count and BFS diameter must match too.
 */
static void check(struct __test_metadata *_metadata, struct txnl *t, struct txnet_req *r,
		  const char *spec, uint64_t nodes, uint64_t switches, uint64_t links,
		  uint32_t diameter, struct graph *g)
{
	struct txnet_info a, b;
	char buf[256], want[64];
	uint32_t i;

	r->name = "topo";
	ASSERT_EQ(0, txnl_new(t, r, &a)) TH_LOG("%s: %s", spec, t->msg);
	EXPECT_EQ(TXNET_CMD_NEW, a.cmd);
	EXPECT_STREQ("topo", a.name);
	EXPECT_STREQ(spec, a.spec);
	EXPECT_EQ(r->topo, a.topo);
	EXPECT_EQ(r->base, a.base);
	EXPECT_EQ(r->topo == TXNET_TOPO_BISWAPPED, a.has[TXNET_A_BASE]);
	ASSERT_EQ(r->ndims, a.ndims);
	for (i = 0; i < r->ndims; i++) {
		EXPECT_EQ(r->size[i], a.size[i]);
		/* kinds are echoed for a product only */
		EXPECT_EQ(r->topo == TXNET_TOPO_PRODUCT ? r->kind[i] : 0, a.kind[i]);
	}
	EXPECT_EQ(nodes, a.nodes) TH_LOG("%s: nodes", spec);
	EXPECT_EQ(switches, a.switches) TH_LOG("%s: switches", spec);
	EXPECT_EQ(links, a.links) TH_LOG("%s: links", spec);
	EXPECT_EQ(diameter, a.diameter) TH_LOG("%s: diameter", spec);
	EXPECT_EQ(TXNET_PORT_ALL, a.port_model);
	EXPECT_EQ(0, a.tick_ns);
	EXPECT_EQ(TXNET_STATE_IDLE, a.state);
	EXPECT_TRUE(a.has[TXNET_A_ID] && a.has[TXNET_A_TICKS] && a.has[TXNET_A_MEM_BYTES]);
	/* The graph is CSR: first[V+1], src/dst/rev[L] of u32 (kmod/core/graph.c). */
	EXPECT_LE((nodes + switches + 1) * 4 + 3 * links * 4, a.mem_bytes);
	if (g) {
		EXPECT_EQ(g->n, nodes + switches);
		EXPECT_EQ(g->links, links) TH_LOG("%s: model links", spec);
		EXPECT_EQ(g_diameter(g), diameter) TH_LOG("%s: BFS diameter", spec);
		g_free(g);
	}

	ASSERT_EQ(0, txnl_get(t, "topo", &b));
	EXPECT_EQ(TXNET_CMD_GET, b.cmd);
	EXPECT_EQ(a.id, b.id);
	EXPECT_STREQ(a.spec, b.spec);
	EXPECT_EQ(a.nodes, b.nodes);
	EXPECT_EQ(a.switches, b.switches);
	EXPECT_EQ(a.links, b.links);
	EXPECT_EQ(a.diameter, b.diameter);
	EXPECT_EQ(a.mem_bytes, b.mem_bytes);

	ASSERT_EQ(0, net_file("topo", "topology", buf, sizeof(buf)));
	EXPECT_STREQ(spec, buf);
	ASSERT_EQ(0, net_file("topo", "nodes", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%llu", (unsigned long long)nodes);
	EXPECT_STREQ(want, buf);
	ASSERT_EQ(0, net_file("topo", "links", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%llu", (unsigned long long)links);
	EXPECT_STREQ(want, buf);

	ASSERT_EQ(0, txnl_del(t, "topo")) TH_LOG("%s", t->msg);
}

static struct txnet_req req(uint32_t topo, uint32_t nd, const uint32_t *size)
{
	struct txnet_req r = { .topo = topo, .ndims = nd };

	memcpy(r.size, size, nd * sizeof(uint32_t));
	return r;
}

static uint32_t ilog2(uint64_t x)
{
	uint32_t r = 0;

	while (x > 1) {
		x >>= 1;
		r++;
	}
	return r;
}

TEST_F(topo, linear)
{
	static const uint32_t sizes[] = { 2, 3, 7, 64 };
	uint32_t kind = TXNET_DIM_LINEAR;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t n = sizes[i];
		struct txnet_req r = req(TXNET_TOPO_LINEAR, 1, &n);
		char spec[32];

		snprintf(spec, sizeof(spec), "linear %u", n);
		/* path P_n: n nodes, n-1 edges = 2(n-1) directed links, diameter n-1 */
		check(_metadata, &self->t, &r, spec, n, 0, 2 * (n - 1), n - 1,
		      g_product(1, &n, &kind));
	}
}

TEST_F(topo, ring)
{
	static const uint32_t sizes[] = { 2, 3, 4, 9, 100 };
	uint32_t kind = TXNET_DIM_RING;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t n = sizes[i];
		struct txnet_req r = req(TXNET_TOPO_RING, 1, &n);
		char spec[32];

		snprintf(spec, sizeof(spec), "ring %u", n);
		/*
		 * cycle C_n: n edges = 2n directed links (n >= 3); C_2 is a
		 * single edge, 2 links.  Diameter floor(n/2).
		 */
		check(_metadata, &self->t, &r, spec, n, 0, n == 2 ? 2 : 2 * n, n / 2,
		      g_product(1, &n, &kind));
	}
}

TEST_F(topo, complete)
{
	static const uint32_t sizes[] = { 2, 3, 5, 32 };
	uint32_t kind = TXNET_DIM_COMPLETE;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t n = sizes[i];
		struct txnet_req r = req(TXNET_TOPO_COMPLETE, 1, &n);
		char spec[32];

		snprintf(spec, sizeof(spec), "complete %u", n);
		/* K_n: every ordered pair is a link, n(n-1); diameter 1 */
		check(_metadata, &self->t, &r, spec, n, 0, (uint64_t)n * (n - 1), 1,
		      g_product(1, &n, &kind));
	}
}

TEST_F(topo, mesh)
{
	static const uint32_t dims[][4] = { { 2, 2 }, { 3, 4 }, { 2, 3, 4 }, { 8, 8 }, { 5 } };
	static const uint32_t nds[] = { 2, 2, 3, 2, 1 };
	uint32_t kinds[4] = { 1, 1, 1, 1 };

	for (unsigned int c = 0; c < ARRAY_SIZE(nds); c++) {
		struct txnet_req r = req(TXNET_TOPO_MESH, nds[c], dims[c]);
		uint64_t nodes = 1, links = 0;
		uint32_t diam = 0, i;
		char spec[64] = "mesh";

		for (i = 0; i < nds[c]; i++) {
			nodes *= dims[c][i];
			diam += dims[c][i] - 1;
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), " %u", dims[c][i]);
		}
		/*
		 * Dimension i holds (k_i - 1) edges in each of the prod/k_i lines
		 * along it: 2 (k_i - 1) prod/k_i directed links.  Diameter: the
		 * sum of the path diameters, sum (k_i - 1).
		 */
		for (i = 0; i < nds[c]; i++)
			links += 2 * (dims[c][i] - 1) * (nodes / dims[c][i]);
		check(_metadata, &self->t, &r, spec, nodes, 0, links, diam,
		      g_product(nds[c], dims[c], kinds));
	}
}

TEST_F(topo, torus)
{
	static const uint32_t dims[][4] = { { 8, 8 }, { 3, 3, 3 }, { 4, 5 }, { 2, 5 }, { 2, 2, 2 },
					    { 16, 16 } };
	static const uint32_t nds[] = { 2, 3, 2, 2, 3, 2 };
	uint32_t kinds[4] = { 2, 2, 2, 2 };

	for (unsigned int c = 0; c < ARRAY_SIZE(nds); c++) {
		struct txnet_req r = req(TXNET_TOPO_TORUS, nds[c], dims[c]);
		uint64_t nodes = 1, links = 0;
		uint32_t diam = 0, i;
		bool all3 = true;
		char spec[64] = "torus";

		for (i = 0; i < nds[c]; i++) {
			nodes *= dims[c][i];
			diam += dims[c][i] / 2;
			all3 &= dims[c][i] >= 3;
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), " %u", dims[c][i]);
		}
		/*
		 * Dimension i: prod/k_i rings of k_i edges, 2 k_i prod/k_i =
		 * 2 prod directed links when k_i >= 3; a dimension of size 2 is
		 * one edge per line, 2 prod/2 = prod links.  So 2 d prod when
		 * every k_i >= 3.  Diameter: sum floor(k_i / 2).
		 */
		for (i = 0; i < nds[c]; i++)
			links += dims[c][i] == 2 ? nodes : 2 * nodes;
		if (all3)
			ASSERT_EQ(2 * nds[c] * nodes, links);
		check(_metadata, &self->t, &r, spec, nodes, 0, links, diam,
		      nodes <= 256 ? g_product(nds[c], dims[c], kinds) : NULL);
	}
}

TEST_F(topo, hypercube)
{
	uint32_t kinds[16];

	for (uint32_t d = 1; d <= 10; d++) {
		struct txnet_req r = req(TXNET_TOPO_HYPERCUBE, 1, &d);
		uint32_t twos[16];
		char spec[32];

		for (uint32_t i = 0; i < d; i++) {
			twos[i] = 2;
			kinds[i] = TXNET_DIM_LINEAR;
		}
		snprintf(spec, sizeof(spec), "hypercube %u", d);
		/* Q_d: 2^d nodes of degree d, d 2^d directed links, diameter d */
		check(_metadata, &self->t, &r, spec, 1ULL << d, 0, (uint64_t)d << d, d,
		      d <= 8 ? g_product(d, twos, kinds) : NULL);
	}
	/* the largest: Q_16 has 65536 nodes, the default max_nodes */
	uint32_t d = 16;
	struct txnet_req r = req(TXNET_TOPO_HYPERCUBE, 1, &d);

	check(_metadata, &self->t, &r, "hypercube 16", 65536, 0, 16ULL << 16, 16, NULL);
}

TEST_F(topo, ghc)
{
	static const uint32_t dims[][4] = { { 2, 3, 4 }, { 4, 4 }, { 3 }, { 2, 2, 2, 2 } };
	static const uint32_t nds[] = { 3, 2, 1, 4 };
	uint32_t kinds[4] = { 3, 3, 3, 3 };

	for (unsigned int c = 0; c < ARRAY_SIZE(nds); c++) {
		struct txnet_req r = req(TXNET_TOPO_GHC, nds[c], dims[c]);
		uint64_t nodes = 1, sum = 0;
		uint32_t i;
		char spec[64] = "ghc";

		for (i = 0; i < nds[c]; i++) {
			nodes *= dims[c][i];
			sum += dims[c][i] - 1;
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), " %u", dims[c][i]);
		}
		/*
		 * GHC(m_1..m_d) = K_m1 x ... x K_md: every node has sum (m_i - 1)
		 * neighbours, prod * sum (m_i - 1) directed links; one hop fixes
		 * one coordinate, diameter d.
		 */
		check(_metadata, &self->t, &r, spec, nodes, 0, nodes * sum, nds[c],
		      g_product(nds[c], dims[c], kinds));
	}
}

TEST_F(topo, product)
{
	/* ring:5 x linear:3 x complete:4 */
	struct txnet_req r = { .topo = TXNET_TOPO_PRODUCT, .ndims = 3,
			       .size = { 5, 3, 4 },
			       .kind = { TXNET_DIM_RING, TXNET_DIM_LINEAR, TXNET_DIM_COMPLETE } };
	uint32_t nodes = 5 * 3 * 4;

	/*
	 * Links: factor links times the other factors' sizes:
	 * C5 2*5 * 12 + P3 2*2 * 20 + K4 4*3 * 15 = 120 + 80 + 180 = 380.
	 * Diameter: sum of factor diameters, 2 + 2 + 1 = 5.
	 */
	check(_metadata, &self->t, &r, "product ring:5 linear:3 complete:4", nodes, 0,
	      380, 5, g_product(3, r.size, r.kind));

	/* ring:2 is one edge: ring:2 x ring:3 = 2*3 nodes, 2*3 + 6*2 = 18 links, 1 + 1 */
	struct txnet_req r2 = { .topo = TXNET_TOPO_PRODUCT, .ndims = 2, .size = { 2, 3 },
				.kind = { TXNET_DIM_RING, TXNET_DIM_RING } };

	check(_metadata, &self->t, &r2, "product ring:2 ring:3", 6, 0, 18, 2,
	      g_product(2, r2.size, r2.kind));
}

static const struct { uint32_t topo; const char *name; } mins[] = {
	{ TXNET_TOPO_BUTTERFLY, "butterfly" },
	{ TXNET_TOPO_OMEGA, "omega" },
	{ TXNET_TOPO_BASELINE, "baseline" },
	{ TXNET_TOPO_RBASELINE, "rbaseline" },
	{ TXNET_TOPO_FLIP, "flip" },
};

TEST_F(topo, mins)
{
	static const uint32_t sizes[] = { 2, 4, 8, 64, 1024 };

	for (unsigned int m = 0; m < ARRAY_SIZE(mins); m++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
			uint32_t N = sizes[i], n = ilog2(N);
			struct txnet_req r = req(mins[m].topo, 1, &N);
			char spec[32];

			snprintf(spec, sizeof(spec), "%s %u", mins[m].name, N);
			/*
			 * 002_*.txt, section 2: n = log2 N stages of N/2 2x2
			 * switches, a packet crossing one stage a tick.  Stage
			 * 0's switches are the processors' shared lines, not
			 * vertices (kmod/core/min.c): (N/2)(n-1) switches.
			 * One-way links: two per processor (the output lines of
			 * its stage-0 switch; N = 2: one each), N between each of
			 * the n-1 stage pairs, N out of the last: (n + 1) N, 2
			 * for N = 2.  Every processor path crosses all n stages
			 * in n links: diameter n.
			 */
			check(_metadata, &self->t, &r, spec, N, (uint64_t)(N / 2) * (n - 1),
			      n > 1 ? (uint64_t)(n + 1) * N : 2, n, NULL);
		}
	}
}

/*
 * Networks of routers (Documentation/txnet-topologies.rst), nodes being
 * the processors and switches the routers.  Dragonfly
 * p a h ([Kim08]): g = a h + 1 groups of a routers, p a g processors; cables
 * from each processor, between every two routers of a group, h from each
 * router: 2 p a g + g a (a - 1) + g a h links; router diameter 3 (1 when
 * a = 1) and a processor's cable at each end.  k-ary n-tree ([Petrini97]):
 * k^n processors, n k^(n-1) switches, k^n cables below each level:
 * 2 n k^n links; up n levels and down again: diameter 2n.
 */
TEST_F(topo, routers)
{
	static const uint32_t dfly[][3] = { { 1, 1, 1 }, { 2, 4, 2 }, { 4, 8, 4 }, { 3, 1, 5 } };
	static const uint32_t tree[][2] = { { 2, 1 }, { 4, 3 }, { 4, 5 }, { 8, 2 } };
	static const uint32_t slim[][2] = { { 3, 1 }, { 5, 3 }, { 7, 2 }, { 17, 1 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(dfly); i++) {
		uint64_t p = dfly[i][0], a = dfly[i][1], h = dfly[i][2], g = a * h + 1;
		struct txnet_req r = req(TXNET_TOPO_DRAGONFLY, 3, dfly[i]);
		char spec[48];

		snprintf(spec, sizeof(spec), "dragonfly %u %u %u", dfly[i][0], dfly[i][1], dfly[i][2]);
		check(_metadata, &self->t, &r, spec, p * a * g, a * g,
		      2 * p * a * g + g * a * (a - 1) + g * a * h, a > 1 ? 5 : 3, NULL);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(tree); i++) {
		uint64_t k = tree[i][0], n = tree[i][1], procs = 1;
		struct txnet_req r = req(TXNET_TOPO_FATTREE, 2, tree[i]);
		char spec[48];

		for (unsigned int j = 0; j < n; j++)
			procs *= k;
		snprintf(spec, sizeof(spec), "fattree %u %u", tree[i][0], tree[i][1]);
		check(_metadata, &self->t, &r, spec, procs, n * (procs / k),
		      2 * n * procs, (uint32_t)(2 * n), NULL);
	}
	/*
	 * Slim Fly q p ([Besta14]): 2 q^2 routers of (3q - delta) / 2 router
	 * cables, q = 4w + delta; p processors each; router diameter 2.
	 */
	for (unsigned int i = 0; i < ARRAY_SIZE(slim); i++) {
		uint64_t q = slim[i][0], p = slim[i][1], R = 2 * q * q;
		uint64_t radix = q % 4 == 1 ? (3 * q - 1) / 2 : (3 * q + 1) / 2;
		struct txnet_req r = req(TXNET_TOPO_SLIMFLY, 2, slim[i]);
		char spec[48];

		snprintf(spec, sizeof(spec), "slimfly %u %u", slim[i][0], slim[i][1]);
		check(_metadata, &self->t, &r, spec, p * R, R, 2 * p * R + R * radix, 4, NULL);
	}
}

TEST_F(topo, biswapped)
{
	static const struct {
		uint32_t base, nd, size[3];
		const char *spec;
		uint32_t kind;
	} c[] = {
		{ TXNET_TOPO_LINEAR, 1, { 2 }, "biswapped linear 2", TXNET_DIM_LINEAR },
		{ TXNET_TOPO_LINEAR, 1, { 5 }, "biswapped linear 5", TXNET_DIM_LINEAR },
		{ TXNET_TOPO_RING, 1, { 4 }, "biswapped ring 4", TXNET_DIM_RING },
		{ TXNET_TOPO_RING, 1, { 7 }, "biswapped ring 7", TXNET_DIM_RING },
		{ TXNET_TOPO_COMPLETE, 1, { 2 }, "biswapped complete 2", TXNET_DIM_COMPLETE },
		{ TXNET_TOPO_COMPLETE, 1, { 6 }, "biswapped complete 6", TXNET_DIM_COMPLETE },
		{ TXNET_TOPO_MESH, 2, { 3, 3 }, "biswapped mesh 3 3", TXNET_DIM_LINEAR },
		{ TXNET_TOPO_MESH, 2, { 2, 4 }, "biswapped mesh 2 4", TXNET_DIM_LINEAR },
		{ TXNET_TOPO_MESH, 3, { 2, 2, 3 }, "biswapped mesh 2 2 3", TXNET_DIM_LINEAR },
		{ TXNET_TOPO_HYPERCUBE, 1, { 1 }, "biswapped hypercube 1", 0 },
		{ TXNET_TOPO_HYPERCUBE, 1, { 3 }, "biswapped hypercube 3", 0 },
		{ TXNET_TOPO_HYPERCUBE, 1, { 4 }, "biswapped hypercube 4", 0 },
		{ TXNET_TOPO_HYPERCUBE, 1, { 7 }, "biswapped hypercube 7", 0 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		struct txnet_req r = { .topo = TXNET_TOPO_BISWAPPED, .base = c[i].base,
				       .ndims = c[i].nd };
		struct txnet_req br = { .topo = c[i].base, .ndims = c[i].nd };
		struct txnet_info b;
		struct graph *bg = NULL, *g = NULL;
		uint32_t kinds[16], sizes[16], nd = c[i].nd;
		uint64_t n, e;

		memcpy(r.size, c[i].size, sizeof(c[i].size));
		memcpy(br.size, c[i].size, sizeof(c[i].size));
		/* the base's own counts, from the kernel (checked by the tests above) */
		br.name = "base";
		ASSERT_EQ(0, txnl_new(&self->t, &br, &b)) TH_LOG("%s", self->t.msg);
		ASSERT_EQ(0, txnl_del(&self->t, "base"));
		n = b.nodes;
		e = b.links;

		/* the model: the base as a product, then Definition 1 */
		if (c[i].base == TXNET_TOPO_HYPERCUBE) {
			nd = c[i].size[0];
			for (uint32_t j = 0; j < nd; j++) {
				sizes[j] = 2;
				kinds[j] = TXNET_DIM_LINEAR;
			}
		} else {
			for (uint32_t j = 0; j < nd; j++) {
				sizes[j] = c[i].size[j];
				kinds[j] = c[i].kind;
			}
		}
		if (2 * n * n <= 1024) {
			bg = g_product(nd, sizes, kinds);
			ASSERT_NE(NULL, bg);
			ASSERT_EQ(n, bg->n);
			ASSERT_EQ(e, bg->links);
			ASSERT_EQ(b.diameter, g_diameter(bg));
			g = g_biswapped(bg);
			g_free(bg);
		}
		/*
		 * 004_*.txt, Definition 1: 2n groups (g, c) of n nodes, 2n^2
		 * nodes.  Every group is a copy of the base: 2n * e links; every
		 * node has one swap link <g,p,c> -> <p,g,1-c>: 2n^2 more.
		 * Diameter 2 D(base) + 2 (004_*.txt, proof of Theorem 1, citing
		 * its [3]): from <g,p,0> to <g',p',0> in the same part a path
		 * needs two swaps, <g,p,0> -> <g,x,0> -> <x,g,1> -> <x,g',1> ->
		 * <g',x,0> -> <g',p',0>, of length d(p,x) + d(x,p') + d(g,g') + 2
		 * >= d(p,p') + d(g,g') + 2, which is 2D + 2 when d(p,p') =
		 * d(g,g') = D; to the other part one swap gives at most 2D + 1.
		 * The BFS of the model (g) checks the value independently.
		 */
		check(_metadata, &self->t, &r, c[i].spec, 2 * n * n, 0, 2 * n * e + 2 * n * n,
		      2 * b.diameter + 2, g);
	}
}

TEST_HARNESS_MAIN
