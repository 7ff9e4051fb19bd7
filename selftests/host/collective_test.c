// SPDX-License-Identifier: GPL-2.0
/*
 * Every operation on every topology family, both port models, with the
 * general schedule (sched_general.c): each run must verify, and under the
 * all-port model a broadcast or an accumulation on a topology without
 * switches must take exactly the root's eccentricity, which the test
 * computes itself by breadth-first search (the lower bound of [Bertsekas91],
 * section 3: the farthest processor cannot hear sooner).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/bounds.h"
#include "core/engine_impl.h"
#include "core/sched.h"

static const char *const topologies[] = {
	"linear 7", "ring 6", "ring 7", "complete 5", "mesh 3 4", "torus 4 4", "torus 6 6",
	"hypercube 4", "ghc 3 2", "product ring:3 linear:2 complete:2", "butterfly 8",
	"omega 8", "baseline 8", "rbaseline 8", "flip 8", "biswapped ring 3",
	"biswapped complete 3", "product ring:2 linear:3 complete:3", "torus 5 3",
	"dragonfly 1 2 1", "dragonfly 2 2 1", "fattree 2 3", "fattree 3 2", "slimfly 3 1",
};

static const u32 ops[] = {
	TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_BROADCAST, TXNET_OP_SCATTER, TXNET_OP_GATHER,
	TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_ACCUMULATE, TXNET_OP_MULTINODE_ACCUMULATE,
	TXNET_OP_PREFIX_SUM, TXNET_OP_DATA_SUM,
};

struct result {
	int ret;
	u64 steps, transmissions;
	const char *rule;
	u64 tick;
	u32 node;
	s64 value[64];
};

/* @op under schedule @s (the general one when NULL). */
static int run_sched(struct tg *t, const struct txn_sched *s, u32 op, u32 port, u32 root,
		     const s64 *values, u32 nvalues, struct result *r)
{
	struct txn_run_params p = {
		.op = op, .port_model = port, .seed = 7, .root = root,
		.values = values, .nvalues = nvalues, .values_seed = 42,
		.payload = txn_op_combines(op) ? 0 : 8,
	};
	struct txn_engine e;
	const char *why;
	u32 v;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!s)
		s = txn_sched_pick(&t->spec, op, TXNET_ALGO_SHORTEST_PATH, port, &why);
	if (!s)
		return -100;
	ret = txn_engine_init(&e, &t->g, s, &p);
	if (ret)
		return ret;
	while ((ret = txn_engine_tick(&e)) == 0)
		;
	if (ret == 1)
		ret = txn_engine_verify(&e);
	r->ret = ret;
	r->steps = e.tick;
	r->transmissions = e.transmissions;
	r->rule = e.failed ? e.v.rule : NULL;
	r->tick = e.v.tick;
	r->node = e.v.node;
	for (v = 0; v < t->g.procs && v < 64; v++)
		txn_engine_value(&e, v, &r->value[v]);
	txn_engine_free(&e);
	return 0;
}

static int run_op(struct tg *t, u32 op, u32 port, u32 root, const s64 *values, u32 nvalues,
		  struct result *r)
{
	return run_sched(t, NULL, op, port, root, values, nvalues, r);
}

/* Largest distance from @root to a processor (out) or to @root (in). */
static u32 ecc(const struct txn_graph *g, u32 root, bool in)
{
	u32 *dist = calloc(g->nodes, sizeof(u32)), v, best = 0;

	if (!in) {
		tg_bfs(g, root, dist);
		for (v = 0; v < g->procs; v++)
			if (dist[v] > best)
				best = dist[v];
	} else {
		for (v = 0; v < g->procs; v++) {
			tg_bfs(g, v, dist);
			if (dist[root] > best)
				best = dist[root];
		}
	}
	free(dist);
	return best;
}

TEST(every_op_every_topology_verifies)
{
	struct result r;
	struct tg t;
	u32 i, k, port, root;

	for (i = 0; i < ARRAY_SIZE(topologies); i++) {
		ASSERT_EQ(NULL, tg_make(&t, topologies[i]));
		for (k = 0; k < ARRAY_SIZE(ops); k++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				root = txn_op_has_root(ops[k]) ? t.g.procs / 2 : 0;
				ASSERT_EQ(0, run_op(&t, ops[k], port, root, NULL, 0, &r));
				EXPECT_EQ(0, r.ret) TH_LOG("%s %s port %u: %s (tick %llu node %u)",
							 topologies[i], txn_op_name(ops[k]), port,
							 r.rule, (unsigned long long)r.tick, r.node);
			}
		}
		tg_free(&t);
	}
}

/*
 * @op on @t, under @port, takes exactly its lower bound, which txn_bound()
 * names @name; the bound, or 0 where it could not run.
 */
static u64 at_bound(struct __test_metadata *_metadata, struct tg *t, const char *net, u32 op,
		    u32 port, const char *name)
{
	struct txn_bound b;
	struct result r;
	int ret;

	ret = txn_bound(&t->spec, &t->g, op, port, 0, &b);
	if (!ret)
		ret = run_op(t, op, port, 0, NULL, 0, &r);
	EXPECT_EQ(0, ret) TH_LOG("%s %s: no bound or no run", net, txn_op_name(op));
	if (ret)
		return 0;
	EXPECT_STREQ(name, b.name) TH_LOG("%s %s", net, txn_op_name(op));
	EXPECT_EQ(0, r.ret) TH_LOG("%s %s: %s", net, txn_op_name(op), r.rule);
	EXPECT_EQ(b.lower, r.steps) TH_LOG("%s %s", net, txn_op_name(op));
	return b.lower;
}

/*
 * A multinode broadcast or accumulation runs n trees at once, and the
 * general schedule re-chooses each tree's links against the others'
 * (sched_general.c, balance_from() and balance_toward()).  On these
 * networks that meets [Bertsekas91]'s degree bound (section 3: a processor
 * hears n-1 messages over its in-links, ceil((n-1)/indeg) ticks and the
 * shortest path's; txn_bound() names it "in-degree" or "out-degree"),
 * which one search a tree missed: mesh 4 4 took 9 and 11 ticks, ghc 4 4
 * 4 and 4, biswapped ring 4 15 and 15, torus 8 8 8's broadcast 126 (86).
 */
TEST(multinode_trees_balanced_meet_the_degree_bound)
{
	static const struct {
		const char *net;
		bool sums;	/* the accumulation too (torus 8 8 8's takes 91) */
	} nets[] = {
		{ "mesh 4 4", true }, { "ghc 4 4", true }, { "biswapped ring 4", true },
		{ "torus 8 8 8", false },
	};
	static const u32 multi[] = {
		TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_MULTINODE_ACCUMULATE,
	};
	struct tg t;
	u32 i, k;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i].net));
		for (k = 0; k < (nets[i].sums ? 2 : 1); k++)
			at_bound(_metadata, &t, nets[i].net, multi[k], TXNET_PORT_ALL,
				 k ? "out-degree" : "in-degree");
		tg_free(&t);
	}
}

/*
 * A linear array's multinode accumulation takes at least n-1 ticks
 * ([Bertsekas91] section 3: the diameter, as txn_bound() names it, and the
 * out-degree bound alike, an end sending n-1 partial sums over its one
 * link).  Past 64 processors the distances outnumber
 * the general schedule's 64 priority keys, and the ends' partials share
 * the last key's bucket: pushed in slot order, one end sent its nearest
 * first and the others waited for it, 135 ticks on linear 100 and 447 on
 * linear 256.  Pushed farthest last (sched_general.c, start_sums()), they
 * meet the bound.
 */
TEST(far_partials_go_farthest_first)
{
	static const char *const nets[] = { "linear 100", "linear 256" };
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		EXPECT_EQ(t.g.procs - 1, at_bound(_metadata, &t, nets[i],
						  TXNET_OP_MULTINODE_ACCUMULATE, TXNET_PORT_ALL,
						  "diameter"));
		tg_free(&t);
	}
}

/*
 * A single-port accumulation takes at least ceil(log2 n) ticks (bounds.c,
 * doubling(): the holders of a value at most double a tick, reversed).
 * The general schedule's breadth-first tree on a complete graph is a
 * star, whose root hears one partial a tick: n-1 ticks (15 on complete
 * 16, 63 on complete 64).  The tree is now a single-port broadcast's
 * spread reversed (sched_general.c, spread_reduction()), which meets the
 * bound there; the data sum's partials come up the same tree, and its
 * total goes back down it, deepest subtree first: a single-port broadcast
 * from the root, which meets the same bound, so 2 log2 n in all.  With
 * subtree heights past the keys ranked alike (a complete graph's two, its
 * diameter + 1), complete 64 took 17 ticks and complete 256 28.
 */
TEST(single_port_sums_come_up_a_spread)
{
	static const char *const nets[] = { "complete 16", "complete 64", "complete 256" };
	struct result r;
	struct tg t;
	u64 log2n;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		log2n = at_bound(_metadata, &t, nets[i], TXNET_OP_ACCUMULATE, TXNET_PORT_SINGLE,
				 "log2");
		ASSERT_EQ(0, run_op(&t, TXNET_OP_DATA_SUM, TXNET_PORT_SINGLE, 0, NULL, 0, &r));
		EXPECT_EQ(0, r.ret) TH_LOG("%s: %s", nets[i], r.rule);
		EXPECT_EQ(2 * log2n, r.steps) TH_LOG("%s", nets[i]);
		tg_free(&t);
	}
}

/*
 * The general schedule's arrival hints (arrive_ahead: prefetches of the
 * rows of n an arrival reads, the multinode operations') change nothing:
 * with them and without, every run takes the same ticks and transmissions
 * to the same values.  The engine hints only where a tick has more than
 * 18 arrivals, which these networks' multinode operations have.
 */
static u64 hints;

static bool count_hint(const struct txn_engine *e, const struct txn_move *far,
		       const struct txn_move *near)
{
	hints++;
	return txn_sched_general.arrive_ahead(e, far, near);
}

TEST(arrival_hints_change_nothing)
{
	/*
	 * rows past 1 MiB (sched_general.c, HINT_BYTES): hinted; the rest not
	 * (a 9-cube's reduction rows, 512 x 512 of 4 bytes, are 1 MiB)
	 */
	static const struct {
		const char *net;
		bool hinted;
	} nets[] = {
		{ "hypercube 10", true }, { "torus 24 24", true }, { "torus 6 6", false },
		{ "butterfly 16", false },
	};
	static const u32 hinted[] = {
		TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_MULTINODE_ACCUMULATE,
	};
	struct txn_sched plain = txn_sched_general, counted = txn_sched_general;
	struct result with, without;
	struct tg t;
	u32 i, k, port, v;

	ASSERT_NE(NULL, txn_sched_general.arrive_ahead);
	plain.arrive_ahead = NULL;
	counted.arrive_ahead = count_hint;
	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i].net));
		for (k = 0; k < ARRAY_SIZE(hinted); k++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				hints = 0;
				ASSERT_EQ(0, run_sched(&t, &counted, hinted[k], port, 0, NULL, 0,
						       &with));
				/*
				 * all-port, every arrival of a tick but the last 18 hinted
				 * (a tick has hundreds); rows in the caches, or a MIN's
				 * copies addressed (no rows): one hint, then none
				 */
				if (nets[i].hinted && port == TXNET_PORT_ALL)
					EXPECT_LT(with.transmissions / 2, hints) TH_LOG("%s", nets[i].net);
				if (!nets[i].hinted)
					EXPECT_GE(1, hints) TH_LOG("%s", nets[i].net);
				ASSERT_EQ(0, run_sched(&t, &plain, hinted[k], port, 0, NULL, 0,
						       &without));
				EXPECT_EQ(0, with.ret) TH_LOG("%s %s: %s", nets[i].net,
							     txn_op_name(hinted[k]), with.rule);
				EXPECT_EQ(0, without.ret);
				EXPECT_EQ(without.steps, with.steps) TH_LOG("%s %s port %u", nets[i].net,
									   txn_op_name(hinted[k]), port);
				EXPECT_EQ(without.transmissions, with.transmissions);
				for (v = 0; v < t.g.procs && v < 64; v++)
					EXPECT_EQ(without.value[v], with.value[v]);
			}
		}
		tg_free(&t);
	}
}

/*
 * Furthest-first on a ring holds every short trip back until the long
 * ones have passed: on rings of 61 and more it delivered nothing for
 * longer than the engine's fixed stall limit and was failed as a
 * livelock.  A sound schedule's quiet is not a livelock.
 */
TEST(long_quiet_of_a_sound_schedule_is_not_a_stall)
{
	static const char * const rings[] = { "ring 61", "ring 64", "ring 97", "ring 160" };
	struct result r;
	struct tg t;
	u32 i, port;

	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		ASSERT_EQ(NULL, tg_make(&t, rings[i]));
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
			ASSERT_EQ(0, run_op(&t, TXNET_OP_TOTAL_EXCHANGE, port, 0, NULL, 0, &r));
			EXPECT_EQ(0, r.ret) TH_LOG("%s port %u: %s (tick %llu)", rings[i], port,
						   r.rule, (unsigned long long)r.tick);
		}
		tg_free(&t);
	}
}

/* All-port broadcast and accumulation take exactly the root's eccentricity. */
TEST(broadcast_and_accumulate_take_the_eccentricity)
{
	struct result r;
	struct tg t;
	u32 i, root;

	for (i = 0; i < ARRAY_SIZE(topologies); i++) {
		ASSERT_EQ(NULL, tg_make(&t, topologies[i]));
		if (t.g.nodes > t.g.procs) {
			tg_free(&t);
			continue;
		}
		for (root = 0; root < t.g.procs; root += 3) {
			ASSERT_EQ(0, run_op(&t, TXNET_OP_BROADCAST, TXNET_PORT_ALL, root, NULL, 0, &r));
			ASSERT_EQ(0, r.ret);
			EXPECT_EQ(ecc(&t.g, root, false), r.steps) TH_LOG("%s root %u", topologies[i], root);
			EXPECT_EQ(t.g.procs - 1, r.transmissions);
			ASSERT_EQ(0, run_op(&t, TXNET_OP_ACCUMULATE, TXNET_PORT_ALL, root, NULL, 0, &r));
			ASSERT_EQ(0, r.ret);
			EXPECT_EQ(ecc(&t.g, root, true), r.steps) TH_LOG("%s root %u", topologies[i], root);
			EXPECT_EQ(t.g.procs - 1, r.transmissions);
		}
		tg_free(&t);
	}
}

/*
 * Unicast packets go on shortest paths only (by coordinates on products,
 * by tables elsewhere): a total exchange, a scatter and a gather make
 * exactly as many transmissions as the sum of their packets' distances,
 * which the test computes itself by breadth-first search.
 */
TEST(unicast_takes_shortest_paths)
{
	static const u32 unicast[] = { TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_SCATTER, TXNET_OP_GATHER };
	u32 *dist, i, k, port, s, d, root;
	struct result r;
	struct tg t;
	u64 want;

	for (i = 0; i < ARRAY_SIZE(topologies); i++) {
		ASSERT_EQ(NULL, tg_make(&t, topologies[i]));
		dist = calloc((size_t)t.g.nodes * t.g.procs, sizeof(u32));
		ASSERT_NE(NULL, dist);
		for (s = 0; s < t.g.procs; s++)
			tg_bfs(&t.g, s, dist + (size_t)s * t.g.nodes);
		root = t.g.procs / 2;
		for (k = 0; k < ARRAY_SIZE(unicast); k++) {
			want = 0;
			for (s = 0; s < t.g.procs; s++)
				for (d = 0; d < t.g.procs; d++)
					if (unicast[k] == TXNET_OP_TOTAL_EXCHANGE ||
					    (unicast[k] == TXNET_OP_SCATTER && s == root) ||
					    (unicast[k] == TXNET_OP_GATHER && d == root))
						want += dist[(size_t)s * t.g.nodes + d];
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				ASSERT_EQ(0, run_op(&t, unicast[k], port,
						    txn_op_has_root(unicast[k]) ? root : 0, NULL, 0, &r));
				ASSERT_EQ(0, r.ret);
				EXPECT_EQ(want, r.transmissions)
					TH_LOG("%s %s port %u", topologies[i], txn_op_name(unicast[k]), port);
			}
		}
		free(dist);
		tg_free(&t);
	}
}

/*
 * The engine's pass over the links with work (engine_queue.c, send_all) visits
 * the links whose bit is set in active[]: after every tick a link's bit
 * must be set exactly when something is queued on it, or a packet would
 * wait for ever (bit clear) or idle links would be visited (bit set).
 */
/*
 * A link's active bit is set exactly when something is queued on it, a
 * word's summary bit exactly when a bit of the word is, and
 * txn_next_active() visits exactly those links, in order: after every
 * tick, on networks of one summary word and of several (torus 40 40:
 * 6400 links, 100 words, 2 summary words), both port models.
 */
TEST(active_links_are_the_links_with_work)
{
	static const struct {
		const char *net;
		u32 op;
	} cases[] = {
		{ "torus 4 4", TXNET_OP_TOTAL_EXCHANGE }, { "ring 6", TXNET_OP_TOTAL_EXCHANGE },
		{ "linear 6", TXNET_OP_TOTAL_EXCHANGE }, { "hypercube 3", TXNET_OP_TOTAL_EXCHANGE },
		{ "torus 40 40", TXNET_OP_SCATTER },
	};
	struct txn_run_params p = { .seed = 3 };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	struct tg t;
	u32 i, l, w, port, next;
	bool busy, any;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(NULL, tg_make(&t, cases[i].net));
		p.op = cases[i].op;
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
			p.port_model = port;
			s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_AUTO, port, &why);
			ASSERT_NE(NULL, s);
			ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
			do {
				next = txn_next_active(&e, 0);
				for (l = 0; l < t.g.links; l++) {
					busy = txn_queue_head(txn_engine_view(&e), l) != TXN_NONE;
					ASSERT_EQ(busy, (bool)(e.active[l / 64] >> (l % 64) & 1))
						TH_LOG("%s %s link %u tick %llu", cases[i].net, s->name,
						       l, (unsigned long long)e.tick);
					if (!busy)
						continue;
					ASSERT_EQ(l, next) TH_LOG("%s tick %llu", cases[i].net,
								   (unsigned long long)e.tick);
					next = txn_next_active(&e, l + 1);
				}
				ASSERT_EQ(TXN_NONE, next);
				for (w = 0; w < (t.g.links + 63) / 64; w++) {
					any = e.active[w] != 0;
					ASSERT_EQ(any, (bool)(e.active_sum[w / 64] >> (w % 64) & 1));
				}
			} while ((ret = txn_engine_tick(&e)) == 0);
			EXPECT_EQ(1, ret);
			EXPECT_EQ(0, txn_engine_verify(&e));
			txn_engine_free(&e);
		}
		tg_free(&t);
	}
}

/*
 * A gather takes what the scatter from the same root takes, wherever links
 * run both ways: it is that scatter reversed ([Bertsekas91], section 1).
 */
TEST(gather_is_the_scatter_reversed)
{
	struct result sc, ga;
	struct tg t;
	u32 i, port, root;

	for (i = 0; i < ARRAY_SIZE(topologies); i++) {
		ASSERT_EQ(NULL, tg_make(&t, topologies[i]));
		if (t.g.nodes > t.g.procs) {
			tg_free(&t);
			continue;
		}
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
			for (root = 0; root < t.g.procs; root += 5) {
				ASSERT_EQ(0, run_op(&t, TXNET_OP_SCATTER, port, root, NULL, 0, &sc));
				ASSERT_EQ(0, run_op(&t, TXNET_OP_GATHER, port, root, NULL, 0, &ga));
				ASSERT_EQ(0, sc.ret);
				ASSERT_EQ(0, ga.ret) TH_LOG("%s: %s", topologies[i], ga.rule);
				EXPECT_EQ(sc.steps, ga.steps) TH_LOG("%s root %u port %u", topologies[i],
								    root, port);
				EXPECT_EQ(sc.transmissions, ga.transmissions);
			}
		}
		tg_free(&t);
	}
}

/* The values given come back summed as each operation defines. */
TEST(values_sum_as_defined)
{
	s64 v[9] = { 5, 1, 4, -7, 100, 0, 3, 3, 9 }, sum = 0, pre = 0;
	s64 mna[36];
	struct result r;
	struct tg t;
	u32 i, j;

	ASSERT_EQ(NULL, tg_make(&t, "mesh 3 3"));
	for (i = 0; i < 9; i++)
		sum += v[i];
	ASSERT_EQ(0, run_op(&t, TXNET_OP_ACCUMULATE, TXNET_PORT_ALL, 3, v, 9, &r));
	ASSERT_EQ(0, r.ret);
	EXPECT_EQ(sum, r.value[3]);
	ASSERT_EQ(0, run_op(&t, TXNET_OP_DATA_SUM, TXNET_PORT_SINGLE, 0, v, 9, &r));
	ASSERT_EQ(0, r.ret);
	for (i = 0; i < 9; i++)
		EXPECT_EQ(sum, r.value[i]);
	ASSERT_EQ(0, run_op(&t, TXNET_OP_PREFIX_SUM, TXNET_PORT_ALL, 0, v, 9, &r));
	ASSERT_EQ(0, r.ret);
	for (i = 0; i < 9; i++) {
		pre += v[i];
		EXPECT_EQ(pre, r.value[i]);
	}
	tg_free(&t);

	ASSERT_EQ(NULL, tg_make(&t, "ring 6"));
	for (i = 0; i < 36; i++)
		mna[i] = (s64)i * 3 - 50;
	ASSERT_EQ(0, run_op(&t, TXNET_OP_MULTINODE_ACCUMULATE, TXNET_PORT_ALL, 0, mna, 36, &r));
	ASSERT_EQ(0, r.ret);
	for (j = 0; j < 6; j++) {
		sum = 0;
		for (i = 0; i < 6; i++)
			sum += mna[i * 6 + j];
		EXPECT_EQ(sum, r.value[j]);
	}
	tg_free(&t);
}

/*
 * Memory linear in what is in flight, so that the largest networks fit: a
 * unicast run of the
 * general schedule costs at most 16 bytes a packet slot plus a constant a
 * link and a node (its 12-byte records, the priority queues' buckets, at
 * most 64 words a link, and per node and link state), with no table of
 * processors x vertices: MINs route by their tags, products by
 * coordinates, and the tables faults need are charged only when they come
 * (txn_engine_charge_reroute()).  The networks are large enough that such
 * a table (8 bytes an entry) would break the bound.  A multinode broadcast
 * down trees is held to it too: its n x n slots carry the copies in
 * flight, none kept for mending a tree (a mend copies a message afresh
 * where the ledger has it: txn_copy_msg()), and its trees are a row of 3
 * bytes a vertex for each message.
 */
/*
 * A data sum accumulates at a centre, a processor of least eccentricity,
 * and broadcasts the total back down the same tree (sched_general.c).
 * All-port, each half takes the centre's eccentricity ([Bertsekas91], section
 * 3: a tree from the root reaches every node at its distance), so the
 * whole takes twice the radius, which the test finds by its own search
 * from every processor.  On a product the centre comes from coordinates;
 * elsewhere, past 2^26 steps of searching, it is bounded by distances
 * (sched_general.c, center_bounded()): a processor taken without either,
 * such as a corner of mesh 64 64, would take nearly twice the ticks.
 */
TEST(data_sum_at_a_centre)
{
	static const char *const nets[] = {
		"mesh 64 64", "mesh 5 9", "linear 8", "product ring:5 linear:4 complete:3",
		"biswapped mesh 8 8",	/* not a product, past CENTER_STEPS: bounded */
	};
	struct result r;
	struct tg t;
	u32 i, v, rad, e;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		for (v = 0, rad = ~0U; v < t.g.procs; v++) {
			e = ecc(&t.g, v, false);
			rad = e < rad ? e : rad;
		}
		ASSERT_EQ(0, run_op(&t, TXNET_OP_DATA_SUM, TXNET_PORT_ALL, 0, NULL, 0, &r));
		EXPECT_EQ(0, r.ret) TH_LOG("%s: %s", nets[i], r.rule);
		EXPECT_EQ(2ULL * rad, r.steps) TH_LOG("%s: radius %u", nets[i], rad);
		tg_free(&t);
	}
}

TEST(general_memory_linear_in_packets)
{
	static const char *const nets[] = {
		"omega 256", "butterfly 256", "baseline 128", "torus 16 16", "ring 128",
	};
	static const char *const bnets[] = { "torus 16 16", "ring 128", "hypercube 10", "mesh 8 8" };
	static const char *const snets[] = { "hypercube 10", "torus 32 32", "mesh 16 16", "torus 8 8 8" };
	static const u32 uops[] = { TXNET_OP_TOTAL_EXCHANGE, TXNET_OP_SCATTER, TXNET_OP_GATHER };
	struct txn_run_params p = { .port_model = TXNET_PORT_ALL, .payload = 0, .seed = 1 };
	struct tg t;
	u64 bytes, slots, bound, table;
	u32 i, j;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		for (j = 0; j < ARRAY_SIZE(uops); j++) {
			p.op = uops[j];
			slots = uops[j] == TXNET_OP_TOTAL_EXCHANGE ?
				(u64)t.g.procs * (t.g.procs - 1) : t.g.procs;
			bytes = txn_engine_bytes(&t.g, &txn_sched_general, &p);
			bound = 16 * slots + 320 * ((u64)t.g.links + t.g.nodes);
			table = 8ULL * t.g.procs * t.g.nodes;
			EXPECT_LE(bytes, bound) TH_LOG("%s op %u: %llu bytes, %.1f a packet", nets[i],
						      uops[j], (unsigned long long)bytes,
						      (double)bytes / slots);
			/* the bound would not hold with a processor x vertex table */
			if (uops[j] == TXNET_OP_TOTAL_EXCHANGE)
				EXPECT_GT(bytes + table, bound) TH_LOG("%s: too small to tell", nets[i]);
		}
		tg_free(&t);
	}
	/*
	 * A MIN's partials cross its switches whole, straight to their
	 * result: its multinode accumulation keeps no reduction rows (a row
	 * over every vertex, switches too, for each result would pass the
	 * line), only the engine's 16 bytes a slot (engine_memory_within_line
	 * below).
	 */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		ASSERT_GT(t.g.nodes, t.g.procs);
		p.op = TXNET_OP_MULTINODE_ACCUMULATE;
		slots = (u64)t.g.procs * t.g.procs;
		bytes = txn_engine_bytes(&t.g, &txn_sched_general, &p);
		bound = 16 * slots + 320 * ((u64)t.g.links + t.g.nodes);
		table = 8ULL * t.g.procs * t.g.nodes;
		EXPECT_LE(bytes, bound) TH_LOG("%s multinode accumulation: %llu bytes, %.1f a slot",
					       nets[i], (unsigned long long)bytes,
					       (double)bytes / slots);
		EXPECT_GT(bytes + table, bound) TH_LOG("%s: too small to tell", nets[i]);
		tg_free(&t);
	}
	for (i = 0; i < ARRAY_SIZE(bnets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, bnets[i]));
		p.op = TXNET_OP_MULTINODE_BROADCAST;
		slots = (u64)t.g.procs * t.g.procs;
		bytes = txn_engine_bytes(&t.g, &txn_sched_general, &p);
		bound = 16 * slots + 320 * ((u64)t.g.links + t.g.nodes);
		EXPECT_LE(bytes, bound) TH_LOG("%s multinode broadcast: %llu bytes, %.1f a packet",
					       bnets[i], (unsigned long long)bytes,
					       (double)bytes / slots);
		tg_free(&t);
	}
	/*
	 * An all-port prefix sum on a product routes by coordinates and is
	 * charged no processor x vertex table; single-port keeps the table.
	 */
	for (i = 0; i < ARRAY_SIZE(snets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, snets[i]));
		p.op = TXNET_OP_PREFIX_SUM;
		p.port_model = TXNET_PORT_ALL;
		slots = txn_op_slots(p.op, t.g.procs, txn_slot_links(&t.g));
		bytes = txn_engine_bytes(&t.g, &txn_sched_general, &p);
		bound = 16 * slots + 320 * ((u64)t.g.links + t.g.nodes);
		table = 8ULL * t.g.procs * t.g.nodes;
		EXPECT_LE(bytes, bound) TH_LOG("%s prefix sum: %llu bytes, %.1f a packet", snets[i],
					       (unsigned long long)bytes, (double)bytes / slots);
		EXPECT_GT(bytes + table, bound) TH_LOG("%s: too small to tell", snets[i]);
		/* ... less the coordinates it does without */
		p.port_model = TXNET_PORT_SINGLE;
		EXPECT_LT(bytes + table / 2, txn_engine_bytes(&t.g, &txn_sched_general, &p));
		tg_free(&t);
	}
}

/*
 * A combining packet is 16 bytes: its 12-byte record, whose loc keeps the
 * count of its contributions above the vertex (where it goes is its
 * slot's), and the high word of its partial, whose low word is the
 * record's tag: their sum sealed with their contributors' hashes
 * (engine_impl.h, struct txn_pkt).  So a multinode accumulation, n x n
 * partials, costs the engine at most 16 bytes a slot plus a constant a
 * link and a node, beside what its schedule charges (priv_bytes); a whole
 * 8-byte partial beside the record (20 bytes a slot) would break it.
 * [Bertsekas91]'s schedule (sched_hypercube.c) keeps no copies for an
 * accumulation, so it is held to the line whole.
 */
TEST(engine_memory_within_line)
{
	static const char *const nets[] = { "torus 32 32", "ring 256", "hypercube 10",
					    "torus 64 64" };
	struct txn_run_params p = {
		.op = TXNET_OP_MULTINODE_ACCUMULATE, .port_model = TXNET_PORT_ALL, .seed = 1,
	};
	const struct txn_sched *s = &txn_sched_general;
	u64 bytes, slots, bound, priv;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		EXPECT_NE(0, txn_count_shift(&t.g)) TH_LOG("%s: no room for a count", nets[i]);
		slots = txn_op_slots(p.op, t.g.procs, txn_slot_links(&t.g));
		ASSERT_EQ((u64)t.g.procs * t.g.procs, slots);
		priv = s->priv_bytes ? s->priv_bytes(&t.g, p.op, p.port_model, slots) : 0;
		bytes = txn_engine_bytes(&t.g, s, &p);
		ASSERT_GT(bytes, priv);
		bound = 16 * slots + 320 * ((u64)t.g.links + t.g.nodes);
		EXPECT_LE(bytes - priv, bound) TH_LOG("%s: %llu engine bytes, %.1f a slot", nets[i],
						      (unsigned long long)(bytes - priv),
						      (double)(bytes - priv) / slots);
		/* ... which a 20-byte slot would break */
		EXPECT_GT(bytes - priv + 4 * slots, bound) TH_LOG("%s: too small to tell", nets[i]);
		if (!strcmp(nets[i], "hypercube 10")) {
			bytes = txn_engine_bytes(&t.g, &txn_sched_hypercube, &p);
			EXPECT_LE(bytes, bound) TH_LOG("paper 003's: %.1f a slot",
						       (double)bytes / slots);
		}
		tg_free(&t);
	}
}

/*
 * Where a network leaves loc no room for a count (txn_count_shift(): the
 * vertex's bits, then counts to n below the field's ones, under the two
 * marks), the count is kept apart, and the runs verify all the same: a
 * torus of 128 x 128 has room (15 bits and 15), a 16-cube's 2^16
 * processors have none (Documentation/txnet-engine.rst: up to 32,766
 * nodes where every node is a processor).
 */
TEST(combining_count_where_loc_has_no_room)
{
	static const char *const nets[] = { "torus 128 128", "hypercube 16" };
	static const u32 sops[] = { TXNET_OP_ACCUMULATE, TXNET_OP_DATA_SUM };
	struct result r;
	struct tg t;
	u32 i, j;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		EXPECT_EQ(i == 0, txn_count_shift(&t.g) != 0) TH_LOG("%s", nets[i]);
		for (j = 0; j < ARRAY_SIZE(sops); j++) {
			ASSERT_EQ(0, run_op(&t, sops[j], TXNET_PORT_ALL,
					    sops[j] == TXNET_OP_ACCUMULATE ? 5 : 0, NULL, 0, &r));
			EXPECT_EQ(0, r.ret) TH_LOG("%s op %u: %s", nets[i], sops[j], r.rule);
			EXPECT_LT(0, r.steps);
		}
		tg_free(&t);
	}
	/* the largest ring with room (15 bits of vertex, 15 of count to 32766), the next without */
	ASSERT_EQ(NULL, tg_make(&t, "ring 32766"));
	EXPECT_EQ(15, txn_count_shift(&t.g));
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "ring 32767"));
	EXPECT_EQ(0, txn_count_shift(&t.g));
	tg_free(&t);
}

/*
 * What the general schedule keeps a multinode accumulation's partials
 * with: per result and vertex a 4-byte entry (sched_general.c, struct
 * red: how many values merge there in 16 bits, as n^2 slots leave n
 * under 2^16, its port and distance up the result's tree in 16); the
 * partial a vertex collects is its own slot (txn_sum_slot()), so no entry
 * names it.  So the schedule's bytes are at most 4 a result and vertex
 * plus a constant a link and a node where every distance has its own key
 * (no far partials to sort at the start: start_sums()); an 8-byte entry
 * would break it.  A ring of 1024 sorts its far partials in lists of a
 * distance and processor, 2 bytes each while the run starts.
 */
TEST(general_accumulation_memory_within_line)
{
	static const char *const nets[] = { "torus 32 32", "hypercube 10", "mesh 32 32",
					    "ring 1024" };
	struct txn_run_params p = {
		.op = TXNET_OP_MULTINODE_ACCUMULATE, .port_model = TXNET_PORT_ALL, .seed = 1,
	};
	const struct txn_sched *s = &txn_sched_general;
	u64 priv, entries, bound, lists;
	struct tg t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		ASSERT_EQ(NULL, tg_make(&t, nets[i]));
		entries = (u64)t.g.procs * t.g.nodes;
		/* the lists: distances past the 64 keys (63 ranks), 2 bytes each processor */
		lists = t.g.diameter >= 64 ? (u64)(t.g.diameter - 62) * t.g.procs : 0;
		EXPECT_EQ(!strcmp(nets[i], "ring 1024"), lists > 0);
		priv = s->priv_bytes(&t.g, p.op, p.port_model,
				     txn_op_slots(p.op, t.g.procs, txn_slot_links(&t.g)));
		bound = 4 * entries + 2 * lists + 320 * ((u64)t.g.links + t.g.nodes);
		EXPECT_LE(priv, bound) TH_LOG("%s: %llu bytes, %.1f a result and vertex", nets[i],
					      (unsigned long long)priv, (double)priv / entries);
		/* ... which an 8-byte entry would break */
		EXPECT_GT(priv + 4 * entries, bound) TH_LOG("%s: too small to tell", nets[i]);
		tg_free(&t);
	}
}

TEST_HARNESS_MAIN
