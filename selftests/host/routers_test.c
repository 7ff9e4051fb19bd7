// SPDX-License-Identifier: GPL-2.0
/*
 * The networks of routers (kmod/core/dragonfly.c, fattree.c, slimfly.c)
 * against their definitions, written here again from the sources:
 * the dragonfly's groups, local and global cables (Kim, Dally, Scott and
 * Abts, ISCA 2008) with BookSim2's choice of which router holds which
 * global cable (its min_dragonflynew routing), and the k-ary n-tree's
 * adjacency (Petrini and Vanneschi, IPPS 1997), the Slim Fly's MMS graph
 * (Besta and Hoefler, SC 2014); their counts, degrees and
 * diameters; and every operation on them verified under both port models,
 * never below its lower bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bounds.h"
#include "core/engine_impl.h"
#include "core/sched.h"

/* Links from @u to @v. */
static u32 links_between(const struct txn_graph *g, u32 u, u32 v)
{
	u32 l, n = 0;

	for (l = g->first[u]; l < g->first[u + 1]; l++)
		n += g->dst[l] == v;
	return n;
}

/* Largest distance between two vertices of [@lo, @hi). */
static u32 diameter_among(const struct txn_graph *g, u32 lo, u32 hi)
{
	u32 *dist = calloc(g->nodes, sizeof(u32)), u, v, best = 0;

	for (u = lo; u < hi; u++) {
		tg_bfs(g, u, dist);
		for (v = lo; v < hi; v++)
			if (dist[v] > best)
				best = dist[v];
	}
	free(dist);
	return best;
}

struct dfly {
	u32 p, a, h;
};

static const struct dfly dflys[] = {
	{ 1, 1, 1 }, { 1, 2, 1 }, { 2, 2, 1 }, { 2, 4, 2 }, { 1, 3, 2 }, { 3, 2, 3 }, { 2, 1, 4 },
};

/*
 * A dragonfly p a h: g = a h + 1 groups of a routers, p processors on a
 * router, the routers of a group joined pairwise, one global cable between
 * every two groups, h on each router.  BookSim2 sends a packet from group G
 * to group D over the router of G at index (D < G ? D : D - 1) / h.
 */
static void check_dragonfly(struct __test_metadata *_metadata, const struct dfly *d)
{
	u32 g = d->a * d->h + 1, R = d->a * g, N = d->p * R, r, s, x, G, D, want, global;
	char text[64];
	const char *why;
	struct tg t;

	snprintf(text, sizeof(text), "dragonfly %u %u %u", d->p, d->a, d->h);
	ASSERT_EQ(NULL, tg_make(&t, text));
	why = tg_check_basic(&t, false);
	EXPECT_EQ(NULL, why) TH_LOG("%s: %s", text, why);
	EXPECT_EQ(N, t.g.procs);
	EXPECT_EQ(N + R, t.g.nodes);
	EXPECT_EQ(R, t.c.switches);
	/* every processor's one cable, every router's local and global cables, both ways */
	EXPECT_EQ(2ULL * N + (u64)g * d->a * (d->a - 1) + (u64)g * d->a * d->h, t.g.links);
	for (x = 0; x < N; x++) {
		EXPECT_EQ(1, t.g.first[x + 1] - t.g.first[x]) TH_LOG("%s processor %u", text, x);
		EXPECT_EQ(1, links_between(&t.g, x, N + x / d->p)) TH_LOG("%s processor %u", text, x);
	}
	for (r = 0; r < R; r++) {
		global = 0;
		for (s = 0; s < R; s++) {
			if (s == r)
				continue;
			if (s / d->a != r / d->a) {
				global += links_between(&t.g, N + r, N + s);
				continue;
			}
			EXPECT_EQ(1, links_between(&t.g, N + r, N + s)) TH_LOG("%s %u-%u", text, r, s);
		}
		EXPECT_EQ(d->h, global) TH_LOG("%s router %u", text, r);
	}
	for (G = 0; G < g; G++) {
		for (D = 0; D < g; D++) {
			if (D == G)
				continue;
			want = G * d->a + (D < G ? D : D - 1) / d->h;
			for (r = G * d->a; r < (G + 1) * d->a; r++) {
				global = 0;
				for (s = D * d->a; s < (D + 1) * d->a; s++)
					global += links_between(&t.g, N + r, N + s);
				EXPECT_EQ((u32)(r == want), global) TH_LOG("%s group %u to %u router %u", text, G, D, r);
			}
		}
	}
	/* local, global, local between routers; a processor's cable at each end */
	EXPECT_EQ(d->a > 1 ? 3 : 1, diameter_among(&t.g, N, N + R)) TH_LOG("%s", text);
	EXPECT_EQ(d->a > 1 ? 5 : 3, tg_proc_diameter(&t.g)) TH_LOG("%s", text);
	EXPECT_EQ(t.c.diameter, tg_proc_diameter(&t.g));
	EXPECT_EQ(d->p + d->a - 1 + d->h, t.c.max_degree);
	tg_free(&t);
}

TEST(dragonfly_definition)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(dflys); i++)
		check_dragonfly(_metadata, &dflys[i]);
}

struct ftree {
	u32 k, n;
};

static const struct ftree ftrees[] = {
	{ 2, 1 }, { 4, 1 }, { 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 }, { 4, 3 }, { 2, 5 },
};

static u32 power(u32 k, u32 n)
{
	u32 r = 1;

	while (n--)
		r *= k;
	return r;
}

/* Digit @i (the first most significant) of @v's @len base-@k digits. */
static u32 digit(u32 v, u32 i, u32 len, u32 k)
{
	return v / power(k, len - 1 - i) % k;
}

/*
 * [Petrini97]'s adjacency: switches <w, l> and <w', l+1> when w and w'
 * agree but at digit l; processor p and switch <w, n-1> when w is p's
 * first n-1 digits.  Vertices as documented: processors, then the levels
 * top down.
 */
static bool tree_edge(const struct ftree *f, u32 u, u32 v)
{
	u32 P = power(f->k, f->n), S = P / f->k, lu, lv, wu, wv, i;

	if (u > v) {
		i = u;
		u = v;
		v = i;
	}
	if (v < P)
		return false;
	lv = (v - P) / S;
	wv = (v - P) % S;
	if (u < P)
		return lv == f->n - 1 && u / f->k == wv;
	lu = (u - P) / S;
	wu = (u - P) % S;
	if (lv != lu + 1)
		return false;
	for (i = 0; i + 1 < f->n; i++)
		if (i != lu && digit(wu, i, f->n - 1, f->k) != digit(wv, i, f->n - 1, f->k))
			return false;
	return true;
}

TEST(fattree_definition)
{
	char text[64];
	const char *why;
	struct tg t;
	u32 i, u, v, P;

	for (i = 0; i < ARRAY_SIZE(ftrees); i++) {
		const struct ftree *f = &ftrees[i];

		snprintf(text, sizeof(text), "fattree %u %u", f->k, f->n);
		ASSERT_EQ(NULL, tg_make(&t, text));
		why = tg_check_basic(&t, false);
		EXPECT_EQ(NULL, why) TH_LOG("%s: %s", text, why);
		P = power(f->k, f->n);
		EXPECT_EQ(P, t.g.procs);
		EXPECT_EQ(P + f->n * (P / f->k), t.g.nodes);
		EXPECT_EQ(2ULL * f->n * P, t.g.links);
		for (u = 0; u < t.g.nodes; u++)
			for (v = 0; v < t.g.nodes; v++)
				EXPECT_EQ(tree_edge(f, u, v), links_between(&t.g, u, v))
					TH_LOG("%s %u-%u", text, u, v);
		/* up n levels and down again between processors whose first digits differ */
		EXPECT_EQ(2 * f->n, tg_proc_diameter(&t.g)) TH_LOG("%s", text);
		EXPECT_EQ(t.c.diameter, 2 * f->n);
		EXPECT_EQ(f->n > 1 ? 2 * f->k : f->k, t.c.max_degree);
		tg_free(&t);
	}
}

/*
 * The Slim Fly q p ([Besta14], section 3): 2 q^2 routers of the MMS graph,
 * each with p processors and (3q - delta) / 2 router cables; router
 * (0, x, y) meets (1, m, c) exactly when y = m x + c (mod q); within a
 * column (side, first coordinate) the routers are joined by differences
 * that are the same set for every column of a side; and the routers'
 * diameter is 2, the property the construction exists for.
 */
TEST(slimfly_definition)
{
	static const u32 qs[] = { 3, 5, 7, 11, 13 };
	u32 i, q, p, R, N, r, s, side, a, b, a2, b2, radix, d, k, want;
	u32 diffs[2][16];
	char text[64];
	const char *why;
	struct tg t;

	for (i = 0; i < ARRAY_SIZE(qs); i++) {
		q = qs[i];
		p = 1 + i % 2;
		R = 2 * q * q;
		N = p * R;
		radix = q % 4 == 1 ? (3 * q - 1) / 2 : (3 * q + 1) / 2;
		snprintf(text, sizeof(text), "slimfly %u %u", q, p);
		ASSERT_EQ(NULL, tg_make(&t, text));
		why = tg_check_basic(&t, false);
		EXPECT_EQ(NULL, why) TH_LOG("%s: %s", text, why);
		EXPECT_EQ(N, t.g.procs);
		EXPECT_EQ(N + R, t.g.nodes);
		EXPECT_EQ(2ULL * N + (u64)R * radix, t.g.links);
		memset(diffs, 0, sizeof(diffs));
		for (r = 0; r < R; r++) {
			EXPECT_EQ(p + radix, t.g.first[N + r + 1] - t.g.first[N + r]) TH_LOG("%s %u", text, r);
			for (k = 0; k < p; k++)
				EXPECT_EQ(1, links_between(&t.g, N + r, r * p + k));
			side = r / (q * q);
			a = r / q % q;
			b = r % q;
			for (s = 0; s < R; s++) {
				if (s == r)
					continue;
				a2 = s / q % q;
				b2 = s % q;
				if (s / (q * q) != side) {
					/* (0, x, y) ~ (1, m, c) iff y = m x + c */
					want = side ? b2 == (a * a2 + b) % q : b == (a2 * a + b2) % q;
					EXPECT_EQ(want, links_between(&t.g, N + r, N + s))
						TH_LOG("%s %u-%u", text, r, s);
				} else if (a2 != a) {
					EXPECT_EQ(0, links_between(&t.g, N + r, N + s));
				} else {
					d = (b2 + q - b) % q;
					if (a == 0 && b == 0)
						diffs[side][d] = links_between(&t.g, N + r, N + s);
					else if (q <= 16)
						EXPECT_EQ(diffs[side][d], links_between(&t.g, N + r, N + s))
							TH_LOG("%s %u-%u", text, r, s);
				}
			}
		}
		EXPECT_EQ(2, diameter_among(&t.g, N, N + R)) TH_LOG("%s", text);
		EXPECT_EQ(4, tg_proc_diameter(&t.g)) TH_LOG("%s", text);
		EXPECT_EQ(t.c.diameter, 4);
		tg_free(&t);
	}
}

/* Refusals name the size; counts past max_nodes are E2BIG. */
TEST(refused_sizes)
{
	static const struct {
		const char *text;
		int ret, dim;
	} bad[] = {
		{ "dragonfly 2 4", -EINVAL, -1 },
		{ "dragonfly 2 4 2 1", -EINVAL, -1 },
		{ "dragonfly 0 4 2", -EINVAL, 0 },
		{ "dragonfly 2 0 2", -EINVAL, 1 },
		{ "dragonfly 2 4 0", -EINVAL, 2 },
		{ "fattree 4", -EINVAL, -1 },
		{ "fattree 1 3", -EINVAL, 0 },
		{ "fattree 4 0", -EINVAL, 1 },
		/* 4096 4096 4097 routers; 2^24 + 1 processors */
		{ "dragonfly 1 4096 4096", -E2BIG, -1 },
		{ "dragonfly 4294967295 4294967295 4294967295", -E2BIG, -1 },
		{ "fattree 2 21", -E2BIG, -1 },
		{ "fattree 4294967295 4294967295", -E2BIG, -1 },
		{ "slimfly 5", -EINVAL, -1 },
		{ "slimfly 4 1", -EINVAL, 0 },
		{ "slimfly 2 1", -EINVAL, 0 },
		{ "slimfly 9 1", -EINVAL, 0 },
		{ "slimfly 5 0", -EINVAL, 1 },
		/* 4093 is prime: 2 4093^2 routers is past 2^24 */
		{ "slimfly 4093 1", -E2BIG, -1 },
		{ "slimfly 4294967291 1", -E2BIG, -1 },
	};
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_spec s;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(0, tg_parse(bad[i].text, &s));
		EXPECT_EQ(bad[i].ret, txn_spec_validate(&s, 1u << 24, &c, &err)) TH_LOG("%s", bad[i].text);
		EXPECT_NE(NULL, err.msg) TH_LOG("%s", bad[i].text);
		EXPECT_EQ(bad[i].dim, err.dim) TH_LOG("%s: %s", bad[i].text, err.msg);
	}
	/* the largest binary tree that fits 2^24 vertices: 2^20 processors, 20 2^19 switches */
	ASSERT_EQ(0, tg_parse("fattree 2 20", &s));
	EXPECT_EQ(0, txn_spec_validate(&s, 1u << 24, &c, &err));
	EXPECT_EQ((1u << 20) + 20 * (1u << 19), c.nodes);
}

static const u32 ops[] = {
	TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_BROADCAST, TXNET_OP_SCATTER, TXNET_OP_GATHER,
	TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_ACCUMULATE, TXNET_OP_MULTINODE_ACCUMULATE,
	TXNET_OP_PREFIX_SUM, TXNET_OP_DATA_SUM,
};

static const char *const networks[] = {
	"dragonfly 1 2 1", "dragonfly 2 2 1", "dragonfly 2 4 2", "dragonfly 1 3 2",
	"fattree 2 3", "fattree 3 2", "fattree 4 2", "fattree 2 4", "slimfly 3 1", "slimfly 5 1",
};

/*
 * @p on @t under the auto schedule, ticked to its end and verified: 0, or
 * the engine's refusal (-100 with no schedule).  @e is the caller's to free
 * when it was started (every return but -100 and a failed init's).
 */
static int run_auto(struct tg *t, const struct txn_run_params *p, struct txn_engine *e,
		    bool *started)
{
	const struct txn_sched *s;
	const char *why;
	int ret;

	*started = false;
	s = txn_sched_pick(&t->spec, p->op, TXNET_ALGO_AUTO, p->port_model, &why);
	if (!s)
		return -100;
	ret = txn_engine_init(e, &t->g, s, p);
	if (ret)
		return ret;
	*started = true;
	while ((ret = txn_engine_tick(e)) == 0)
		;
	return ret == 1 ? txn_engine_verify(e) : ret;
}

/*
 * Every operation, both port models, the auto schedule: verified, never
 * below txn_bound()'s lower bound, and a data sum's results the sum of the
 * inputs the test gave.
 */
TEST(every_operation_verified_within_bounds)
{
	struct txn_run_params p;
	struct txn_engine e;
	struct txn_bound b;
	s64 values[128], sum, got;
	bool started;
	struct tg t;
	u32 i, k, port, v;
	int ret;

	for (i = 0; i < ARRAY_SIZE(networks); i++) {
		ASSERT_EQ(NULL, tg_make(&t, networks[i]));
		ASSERT_GE(128, t.g.procs);
		for (sum = 0, v = 0; v < t.g.procs; v++) {
			values[v] = (s64)v * v - 7;
			sum += values[v];
		}
		for (k = 0; k < ARRAY_SIZE(ops); k++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				memset(&p, 0, sizeof(p));
				p.op = ops[k];
				p.port_model = port;
				p.seed = 11;
				p.root = txn_op_has_root(ops[k]) ? t.g.procs / 2 : 0;
				p.payload = txn_op_combines(ops[k]) ? 0 : 8;
				if (ops[k] == TXNET_OP_DATA_SUM || ops[k] == TXNET_OP_PREFIX_SUM) {
					p.values = values;
					p.nvalues = t.g.procs;
				}
				ASSERT_EQ(0, txn_bound(&t.spec, &t.g, ops[k], port, p.root, &b));
				ret = run_auto(&t, &p, &e, &started);
				ASSERT_TRUE(started) TH_LOG("%s %s port %u: %d", networks[i],
							    txn_op_name(ops[k]), port, ret);
				EXPECT_EQ(0, ret) TH_LOG("%s %s port %u: %s", networks[i],
							 txn_op_name(ops[k]), port,
							 e.failed ? e.v.rule : "");
				EXPECT_LE(b.lower, e.tick) TH_LOG("%s %s port %u", networks[i],
								  txn_op_name(ops[k]), port);
				for (v = 0; !ret && ops[k] == TXNET_OP_DATA_SUM && v < t.g.procs; v++) {
					txn_engine_value(&e, v, &got);
					EXPECT_EQ(sum, got) TH_LOG("%s processor %u", networks[i], v);
				}
				txn_engine_free(&e);
			}
		}
		tg_free(&t);
	}
}

/*
 * The dragonfly's global cut: groups on two sides, only the A (g - A) global
 * cables between them, (a p)^2 ticks for the packets across whatever A is.
 * dragonfly 4 4 2: (4 4)^2 = 256.  The other bounds are below it: n - 1 + 1 =
 * 144; total distance at most 144 143 5 (the diameter) over 2 144 + 36 3 +
 * 36 2 = 468 links, 220.  The run verifies, at 256 ticks or more.
 */
TEST(dragonfly_global_cut)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .seed = 3, .payload = 8 };
	struct txn_engine e;
	struct txn_bound b;
	bool started;
	struct tg t;

	ASSERT_EQ(NULL, tg_make(&t, "dragonfly 4 4 2"));
	for (p.port_model = TXNET_PORT_ALL; p.port_model <= TXNET_PORT_SINGLE; p.port_model++) {
		ASSERT_EQ(0, txn_bound(&t.spec, &t.g, p.op, p.port_model, 0, &b));
		EXPECT_EQ(256, b.lower);
		EXPECT_STREQ("cut", b.name);
		EXPECT_EQ(0, run_auto(&t, &p, &e, &started));
		ASSERT_TRUE(started);
		EXPECT_LE(256, e.tick);
		txn_engine_free(&e);
	}
	tg_free(&t);
}

/* The examples of Documentation/txnet-topologies.rst, port by port. */
TEST(documented_ports)
{
	static const u32 dfly77[] = { 10, 11, 76, 78, 79, 84, 88 }, tree14[] = { 18, 19, 8, 10 };
	struct tg t;
	u32 i;

	ASSERT_EQ(NULL, tg_make(&t, "dragonfly 2 4 2"));
	ASSERT_EQ(ARRAY_SIZE(dfly77), t.g.first[78] - t.g.first[77]);
	for (i = 0; i < ARRAY_SIZE(dfly77); i++)
		EXPECT_EQ(dfly77[i], t.g.dst[t.g.first[77] + i]) TH_LOG("port %u", i);
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "fattree 2 3"));
	ASSERT_EQ(ARRAY_SIZE(tree14), t.g.first[15] - t.g.first[14]);
	for (i = 0; i < ARRAY_SIZE(tree14); i++)
		EXPECT_EQ(tree14[i], t.g.dst[t.g.first[14] + i]) TH_LOG("port %u", i);
	tg_free(&t);
}

TEST_HARNESS_MAIN
