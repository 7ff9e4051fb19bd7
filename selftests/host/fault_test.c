// SPDX-License-Identifier: GPL-2.0
/*
 * Faults in the engine (engine_fault.c): links and nodes that go down
 * under open traffic and under runs.  Distances around a fault are the
 * test's own breadth-first search over the links that are not down
 * (tg_bfs_avoiding), never the engine's.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "open_net.h"
#include "core/sched.h"

#define SLOTS 256

static u64 down[64];

/*
 * The caller's budget the engine charges a run's tables for routing
 * around faults to: no limit while txn_host_budget is 0; txn_host_used is
 * what is charged now.
 */
static u64 txn_host_budget, txn_host_used;

static int host_charge(u64 bytes)
{
	if (txn_host_budget && bytes > txn_host_budget - txn_host_used)
		return -ENOSPC;
	txn_host_used += bytes;
	return 0;
}

static void host_uncharge(u64 bytes)
{
	txn_host_used -= bytes;
}

static const struct txn_budget host_budget = { .charge = host_charge, .uncharge = host_uncharge };

/* Both directed links between @u and @v down (a broken cable). */
static void cut(const struct txn_graph *g, u32 u, u32 v)
{
	u32 l;

	for (l = 0; l < g->links; l++)
		if ((g->src[l] == u && g->dst[l] == v) || (g->src[l] == v && g->dst[l] == u))
			down[l / 64] |= 1ULL << (l % 64);
}

/* Every link in or out of @v down. */
static void cut_node(const struct txn_graph *g, u32 v)
{
	u32 l;

	for (l = 0; l < g->links; l++)
		if (g->src[l] == v || g->dst[l] == v)
			down[l / 64] |= 1ULL << (l % 64);
}

static int open_faulty(struct open_net *o, const char *topo)
{
	memset(down, 0, sizeof(down));
	return open_net(o, topo, TXNET_PORT_ALL, 16, SLOTS);
}

/* Alone on the fabric, a packet takes the shortest way around the cut, as a BFS finds it. */
TEST(open_lone_packet_goes_around)
{
	static const struct { const char *topo; u32 u, v; } cases[] = {
		{ "ring 8", 0, 1 }, { "torus 4 4", 0, 1 }, { "mesh 3 4", 4, 5 },
		{ "hypercube 4", 0, 8 }, { "omega 8", 0, 8 },
	};
	struct open_net o;
	u32 dist[256], src, dst, i, l;
	u64 total, sum;
	const u64 *hops;
	long ticks;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, open_faulty(&o, cases[i].topo)) TH_LOG("%s", cases[i].topo);
		cut(&o.t.g, cases[i].u, cases[i].v);
		ASSERT_EQ(0, txn_engine_set_down(&o.e, down));
		ASSERT_LT(0U, txn_engine_links_down(txn_engine_view(&o.e))) TH_LOG("%s: no such link", cases[i].topo);
		total = 0;
		for (src = 0; src < o.t.g.procs; src++) {
			tg_bfs_avoiding(&o.t.g, src, dist, down);
			for (dst = 0; dst < o.t.g.procs; dst++) {
				if (dst == src)
					continue;
				ASSERT_LE(0, txn_engine_inject(&o.e, src, dst, "x", 1));
				ticks = open_drain(&o);
				EXPECT_EQ((long)dist[dst], ticks)
					TH_LOG("%s cut %u-%u: %u->%u", cases[i].topo, cases[i].u,
					       cases[i].v, src, dst);
				total += dist[dst];
			}
		}
		/* the per-link counters: every hop on a link up, summed to the distances */
		hops = txn_engine_link_hops(&o.e);
		ASSERT_NE(NULL, hops);
		for (l = 0, sum = 0; l < o.t.g.links; l++) {
			sum += hops[l];
			if (down[l / 64] >> (l % 64) & 1)
				EXPECT_EQ(0U, (u32)hops[l]);
		}
		EXPECT_EQ(total, sum) TH_LOG("%s", cases[i].topo);
		close_net(&o);
	}
}

/* Packets already queued when a link goes down are moved off it and all arrive. */
TEST(open_queued_packets_rerouted)
{
	struct open_net o;
	u32 k, l;

	ASSERT_EQ(0, open_faulty(&o, "torus 4 4"));
	for (k = 0; k < 40; k++)
		ASSERT_LE(0, txn_engine_inject(&o.e, 0, 10, &k, sizeof(k)));
	ASSERT_LE(0, open_step(&o));
	/* the link the packets queue on at 0, found from the engine's queues */
	l = txn_next_active(&o.e, 0);
	ASSERT_NE(TXN_NONE, l);
	cut(&o.t.g, o.t.g.src[l], o.t.g.dst[l]);
	ASSERT_EQ(0, txn_engine_set_down(&o.e, down));
	EXPECT_EQ(1U, txn_engine_reroutes(&o.e));
	EXPECT_EQ(0U, o.e.nlost);
	ASSERT_LT(0, open_drain(&o));
	EXPECT_EQ(40U, o.delivered);
	EXPECT_EQ(0U, (u32)o.e.dropped);
	/* the link back up: the next packet takes the short way again */
	memset(down, 0, sizeof(down));
	ASSERT_EQ(0, txn_engine_set_down(&o.e, down));
	EXPECT_EQ(0U, txn_engine_links_down(txn_engine_view(&o.e)));
	ASSERT_LE(0, txn_engine_inject(&o.e, o.t.g.src[l], o.t.g.dst[l], "y", 1));
	EXPECT_EQ(1, open_drain(&o));
	close_net(&o);
}

/* A node down: what was bound for it is dropped and handed back, the rest arrives around it. */
TEST(open_node_down_drops_its_packets)
{
	struct open_net o;
	u32 k, to5 = 0, others = 0;

	ASSERT_EQ(0, open_faulty(&o, "torus 4 4"));
	for (k = 0; k < 60; k++) {
		u32 dst = k % 3 ? 5 : 6;

		ASSERT_LE(0, txn_engine_inject(&o.e, k % 2 ? 0 : 15, dst, &k, sizeof(k)));
		to5 += dst == 5;
		others += dst != 5;
	}
	ASSERT_LE(0, open_step(&o));
	cut_node(&o.t.g, 5);
	ASSERT_EQ(0, txn_engine_set_down(&o.e, down));
	open_take_lost(&o);
	ASSERT_LT(0, open_drain(&o));
	/* the first tick may have delivered none to 5: none is a neighbour of 0 or 15 */
	EXPECT_EQ(to5, o.lost);
	EXPECT_EQ(others, o.delivered);
	EXPECT_EQ((u64)o.lost, o.e.dropped);
	EXPECT_EQ(-EHOSTUNREACH, txn_engine_inject(&o.e, 0, 5, "z", 1));
	EXPECT_EQ(-EHOSTUNREACH, txn_engine_inject(&o.e, 5, 0, "z", 1));
	close_net(&o);
}

struct closed {
	struct tg t;
	struct txn_engine e;
};

static int closed_init(struct closed *c, const char *topo, const struct txn_sched *s, u32 op)
{
	struct txn_run_params p = {
		.budget = &host_budget,
		.op = op, .port_model = TXNET_PORT_ALL, .payload = txn_op_combines(op) ? 0 : 8,
		.seed = 7,
	};

	memset(down, 0, sizeof(down));
	if (tg_make(&c->t, topo))
		return -1;
	return txn_engine_init(&c->e, &c->t.g, s, &p);
}

/* Ticks to the end, or -1 on a violation. */
static long finish_engine(struct txn_engine *e)
{
	int ret;

	do {
		ret = txn_engine_tick(e);
	} while (ret == 0);
	return ret < 0 ? -1 : (long)e->tick;
}

static long closed_finish(struct closed *c)
{
	return finish_engine(&c->e);
}

/* Total exchange by the general schedule around a cut, from the start and from mid-run. */
TEST(general_total_exchange_reroutes)
{
	static const char * const topos[] = { "torus 4 4", "ring 9", "hypercube 4", "omega 8" };
	struct closed c;
	long clean, ticks;
	u32 i, l, mid;

	for (i = 0; i < 4; i++) {
		for (mid = 0; mid < 2; mid++) {
			ASSERT_EQ(0, closed_init(&c, topos[i], &txn_sched_general,
						 TXNET_OP_TOTAL_EXCHANGE));
			clean = 0;
			if (mid) {
				ASSERT_EQ(0, txn_engine_tick(&c.e));
				ASSERT_EQ(0, txn_engine_tick(&c.e));
			}
			/* a link of processor 1, whichever it is */
			l = c.t.g.first[1];
			cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
			ASSERT_EQ(0, txn_engine_set_down(&c.e, down)) TH_LOG("%s: %s", topos[i], c.e.v.rule);
			EXPECT_EQ(1U, txn_engine_reroutes(&c.e));
			ticks = closed_finish(&c);
			ASSERT_LT(0, ticks) TH_LOG("%s mid %u: %s", topos[i], mid, c.e.v.rule);
			EXPECT_EQ(0, txn_engine_verify(&c.e)) TH_LOG("%s", topos[i]);
			/*
			 * The same run without the cut, for the result's comparison
			 * (RES_FAULT_FREE_TICKS): an engine like it, and one set up
			 * from scratch, take the same ticks.
			 */
			{
				struct txn_run_params p = {
					.budget = &host_budget,
					.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = TXNET_PORT_ALL,
					.payload = 8, .seed = 7,
				};
				struct txn_engine like;

				ASSERT_EQ(0, txn_engine_init_like(&like, &c.e));
				txn_engine_free(&c.e);
				EXPECT_EQ(0U, txn_engine_links_down(txn_engine_view(&like)));
				clean = finish_engine(&like);
				ASSERT_LT(0, clean);
				EXPECT_EQ(0, txn_engine_verify(&like));
				txn_engine_free(&like);
				ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, &txn_sched_general, &p));
				EXPECT_EQ(clean, closed_finish(&c)) TH_LOG("%s", topos[i]);
				txn_engine_free(&c.e);
			}
			TH_LOG("%s, link %u-%u down %s: %ld ticks, %ld without the fault", topos[i],
			       c.t.g.src[l], c.t.g.dst[l], mid ? "at tick 2" : "from the start",
			       ticks, clean);
			tg_free(&c.t);
		}
	}
}

/*
 * Routing around faults takes its tables when a run first has links down:
 * a run on the whole network charges nothing past its own bytes
 * (txn_engine_bytes()), a cut charges sched->reroute_bytes once, however
 * often links change, and the run gives it back when freed.  Past the
 * budget (the kernel's mem_budget, txn_host_budget here) the run fails
 * at the cut, naming the budget, from the start and mid-run alike.
 */
TEST(reroute_charged_at_the_first_fault)
{
	struct txn_run_params p = {
		.budget = &host_budget,
		.op = TXNET_OP_TOTAL_EXCHANGE, .port_model = TXNET_PORT_ALL, .payload = 8,
		.seed = 7, .down = down,
	};
	const struct txn_sched *s = &txn_sched_general;
	struct closed c;
	u64 need;
	u32 l;

	ASSERT_EQ(0, closed_init(&c, "torus 6 6", s, TXNET_OP_TOTAL_EXCHANGE));
	need = s->reroute_bytes(&c.t.g, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL);
	/* a table a processor at least: 36 x 36 hops */
	ASSERT_LE(36ULL * 36 * 4, need);
	ASSERT_EQ(0U, (u32)txn_host_used);
	ASSERT_EQ(0, txn_engine_tick(&c.e));
	EXPECT_EQ(0U, (u32)txn_host_used);
	l = c.t.g.first[1];
	cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
	ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
	EXPECT_EQ(need, txn_host_used);
	/* the link back up and down again: charged once */
	memset(down, 0, sizeof(down));
	ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
	cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
	ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
	EXPECT_EQ(need, txn_host_used);
	ASSERT_LT(0, closed_finish(&c)) TH_LOG("%s", c.e.v.rule);
	EXPECT_EQ(0, txn_engine_verify(&c.e));
	txn_engine_free(&c.e);
	EXPECT_EQ(0U, (u32)txn_host_used);

	/* a byte short of it: refused at the cut, mid-run */
	txn_host_budget = need - 1;
	memset(down, 0, sizeof(down));
	p.down = NULL;
	ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, s, &p));
	ASSERT_EQ(0, txn_engine_tick(&c.e));
	cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
	EXPECT_EQ(-EPROTO, txn_engine_set_down(&c.e, down));
	ASSERT_NE(NULL, c.e.v.rule);
	EXPECT_NE(NULL, strstr(c.e.v.rule, "mem_budget")) TH_LOG("%s", c.e.v.rule);
	EXPECT_EQ(l, c.e.v.link);
	txn_engine_free(&c.e);
	EXPECT_EQ(0U, (u32)txn_host_used);
	/* ... and from the start: the engine is not set up (the kernel then starts it whole) */
	p.down = down;
	EXPECT_EQ(-ENOSPC, txn_engine_init(&c.e, &c.t.g, s, &p));
	EXPECT_EQ(0U, (u32)txn_host_used);
	/* with it: from the start, verified, given back */
	txn_host_budget = need;
	ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, s, &p));
	EXPECT_EQ(need, txn_host_used);
	ASSERT_LT(0, closed_finish(&c)) TH_LOG("%s", c.e.v.rule);
	EXPECT_EQ(0, txn_engine_verify(&c.e));
	txn_engine_free(&c.e);
	EXPECT_EQ(0U, (u32)txn_host_used);
	txn_host_budget = 0;
	tg_free(&c.t);
}

/* Scatter, gather and a permutation go around too. */
TEST(general_unicast_ops_reroute)
{
	static const u32 ops[] = { TXNET_OP_SCATTER, TXNET_OP_GATHER };
	struct closed c;
	u32 i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, closed_init(&c, "mesh 4 4", &txn_sched_general, ops[i]));
		cut(&c.t.g, 0, 1);
		ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
		ASSERT_LT(0, closed_finish(&c)) TH_LOG("%s", c.e.v.rule);
		EXPECT_EQ(0, txn_engine_verify(&c.e));
		txn_engine_free(&c.e);
		tg_free(&c.t);
	}
}

/* Ticks to the end of @op by the general schedule with @down from the start; -1 on a violation. */
static long general_from_start(struct closed *c, u32 op, u32 port_model, const u64 *faults)
{
	struct txn_run_params p = {
		.budget = &host_budget,
		.op = op, .port_model = port_model, .payload = txn_op_combines(op) ? 0 : 8,
		.seed = 7, .down = faults,
	};
	int ret = txn_engine_init(&c->e, &c->t.g, &txn_sched_general, &p);

	if (ret)
		return ret;
	return closed_finish(c);
}

/*
 * Links down from the start: the general schedule's trees are searched
 * around them, so broadcasts and sums go around too.  All-port, a
 * broadcast down a shortest-path tree takes the root's eccentricity and
 * an accumulation that of its result's node (sched_general.c's header),
 * here the eccentricity around the cut, from the test's own search.
 */
TEST(general_trees_around_faults_from_the_start)
{
	static const u32 ops[] = {
		TXNET_OP_BROADCAST, TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_ACCUMULATE,
		TXNET_OP_MULTINODE_ACCUMULATE, TXNET_OP_DATA_SUM, TXNET_OP_PREFIX_SUM,
		TXNET_OP_TOTAL_EXCHANGE,
	};
	static const char * const topos[] = { "ring 8", "torus 4 4", "mesh 4 4", "hypercube 4", "omega 8" };
	u32 dist[64], i, k, port, v, ecc, ecc_whole;
	struct closed c;
	long ticks;

	for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				ASSERT_EQ(0, tg_make(&c.t, topos[i]) ? -1 : 0);
				memset(down, 0, sizeof(down));
				/* a cable at the root, 0, where it has two; else one at 1 */
				v = c.t.g.first[1] - c.t.g.first[0] > 1 ? 0 : 1;
				cut(&c.t.g, v, c.t.g.dst[c.t.g.first[v]]);
				ticks = general_from_start(&c, ops[k], port, down);
				if (c.t.g.nodes > c.t.g.procs && ops[k] != TXNET_OP_TOTAL_EXCHANGE) {
					/* a MIN's copies and partials would pass through processors */
					EXPECT_EQ(-EOPNOTSUPP, ticks);
					tg_free(&c.t);
					continue;
				}
				ASSERT_LT(0, ticks) TH_LOG("%s op %u port %u: %s", topos[i], ops[k], port,
							    c.e.v.rule ? c.e.v.rule : "no start");
				EXPECT_EQ(0, txn_engine_verify(&c.e)) TH_LOG("%s op %u", topos[i], ops[k]);
				EXPECT_EQ(c.t.g.nodes > c.t.g.procs ? 1U : 2U,
					  txn_engine_links_down(txn_engine_view(&c.e)));
				EXPECT_EQ(0U, txn_engine_reroutes(&c.e));
				if (port == TXNET_PORT_ALL && c.t.g.nodes == c.t.g.procs &&
				    (ops[k] == TXNET_OP_BROADCAST || ops[k] == TXNET_OP_ACCUMULATE)) {
					tg_bfs_avoiding(&c.t.g, 0, dist, down);
					for (v = 0, ecc = 0; v < c.t.g.procs; v++)
						ecc = dist[v] > ecc ? dist[v] : ecc;
					tg_bfs(&c.t.g, 0, dist);
					for (v = 0, ecc_whole = 0; v < c.t.g.procs; v++)
						ecc_whole = dist[v] > ecc_whole ? dist[v] : ecc_whole;
					EXPECT_EQ((long)ecc, ticks) TH_LOG("%s op %u", topos[i], ops[k]);
					TH_LOG("%s op %u from 0: %ld ticks around the cut, eccentricity %u whole",
					       topos[i], ops[k], ticks, ecc_whole);
				}
				txn_engine_free(&c.e);
				tg_free(&c.t);
			}
		}
	}
}

/* A processor cut off from the start: the schedule will not start around it. */
TEST(general_refuses_to_start_cut_off)
{
	struct closed c;

	ASSERT_EQ(0, tg_make(&c.t, "torus 4 4") ? -1 : 0);
	memset(down, 0, sizeof(down));
	cut_node(&c.t.g, 5);
	EXPECT_EQ(-EHOSTUNREACH, general_from_start(&c, TXNET_OP_BROADCAST, TXNET_PORT_ALL, down));
	EXPECT_EQ(-EHOSTUNREACH, general_from_start(&c, TXNET_OP_DATA_SUM, TXNET_PORT_ALL, down));
	EXPECT_EQ(-EHOSTUNREACH, general_from_start(&c, TXNET_OP_BROADCAST, TXNET_PORT_SINGLE, down));
	tg_free(&c.t);
}

/*
 * A MIN routes by its tags, no table; around a fault from the start it
 * would need one, processors x vertices: past REROUTE_BYTES_MAX (16 MiB,
 * sched_general.c) the start is refused, as on a product, and nothing is
 * charged (the kernel then starts it whole, and its first tick fails,
 * naming the link).  omega 1024: 1024 x 5632 vertices x 8 bytes, 46 MB,
 * which the start must not build, uncharged, before it finds the cut.
 */
TEST(general_min_refuses_a_table_too_large)
{
	static u64 big[(1024 * 2 + 9 * 512 * 2 + 63) / 64];
	struct closed c;
	u32 l;

	ASSERT_EQ(0, tg_make(&c.t, "omega 1024") ? -1 : 0);
	ASSERT_GE(sizeof(big) * 8, (size_t)c.t.g.links);
	memset(big, 0, sizeof(big));
	for (l = 0; l < c.t.g.links; l++)
		if (c.t.g.src[l] == 0)
			big[l / 64] |= 1ULL << (l % 64);
	EXPECT_EQ(-E2BIG, general_from_start(&c, TXNET_OP_TOTAL_EXCHANGE, TXNET_PORT_ALL, big));
	EXPECT_EQ(0U, (u32)txn_host_used);
	tg_free(&c.t);
}

/* A cut that leaves a processor alone fails the run, naming a link that is down. */
TEST(general_node_down_fails_naming_link)
{
	struct closed c;

	ASSERT_EQ(0, closed_init(&c, "torus 4 4", &txn_sched_general, TXNET_OP_TOTAL_EXCHANGE));
	cut_node(&c.t.g, 5);
	EXPECT_EQ(-EPROTO, txn_engine_set_down(&c.e, down));
	EXPECT_TRUE(c.e.failed);
	ASSERT_NE(TXN_NONE, c.e.v.link);
	EXPECT_TRUE(c.t.g.src[c.e.v.link] == 5 || c.t.g.dst[c.e.v.link] == 5);
	EXPECT_NE(NULL, strstr(c.e.v.rule, "cut"));
	EXPECT_EQ(-EPROTO, txn_engine_tick(&c.e));
	txn_engine_free(&c.e);
	tg_free(&c.t);
}

/*
 * A data sum around links down from the start accumulates at a centre of
 * the network as it is, a processor of least eccentricity around the cut,
 * and broadcasts the total back down the same tree: all-port, twice the
 * radius ([Bertsekas91], section 3: each half a tree's depth), which the test
 * finds by its own search from every processor.  Coordinates do not say
 * where the centre is with a cable cut, and mesh 64 64 is past the steps
 * a search from each processor may take (sched_general.c, CENTER_STEPS):
 * there the sum ran from processor 0, a corner, 252 ticks.
 */
TEST(general_data_sum_centre_around_faults)
{
	static u64 cuts[(64 * 63 * 4 + 63) / 64];
	struct closed c;
	u32 *dist, v, u, e, rad = ~0U;
	long ticks;

	ASSERT_EQ(0, tg_make(&c.t, "mesh 64 64") ? -1 : 0);
	ASSERT_LE(c.t.g.links, 64 * ARRAY_SIZE(cuts));
	/* the cable between the corner and its neighbour: a centre's distances stay */
	for (v = 0; v < c.t.g.links; v++)
		if ((c.t.g.src[v] == 0 && c.t.g.dst[v] == 1) || (c.t.g.src[v] == 1 && c.t.g.dst[v] == 0))
			cuts[v / 64] |= 1ULL << (v % 64);
	dist = calloc(c.t.g.nodes, sizeof(*dist));
	ASSERT_NE(NULL, dist);
	for (v = 0; v < c.t.g.procs; v++) {
		tg_bfs_avoiding(&c.t.g, v, dist, cuts);
		for (u = 0, e = 0; u < c.t.g.procs; u++)
			e = dist[u] > e ? dist[u] : e;
		rad = e < rad ? e : rad;
	}
	free(dist);
	ticks = general_from_start(&c, TXNET_OP_DATA_SUM, TXNET_PORT_ALL, cuts);
	ASSERT_LT(0, ticks) TH_LOG("%s", c.e.v.rule ? c.e.v.rule : "no start");
	EXPECT_EQ(0, txn_engine_verify(&c.e));
	EXPECT_EQ(2U, txn_engine_links_down(txn_engine_view(&c.e)));
	EXPECT_EQ(2L * rad, ticks) TH_LOG("radius %u around the cut", rad);
	txn_engine_free(&c.e);
	tg_free(&c.t);
}

/*
 * Broadcast and sum trees mended mid-run (sched_general.c, tree_reroute();
 * a prefix sum's addressed copies rerouted like unicast packets):
 * cut at ticks 1 to 5 (a data sum's total on its way down by then), a
 * link of the root or of processor 1, every
 * processor still gets every message exactly once, every result every
 * contribution once (the engine's verification).  On
 * a ring of 8 whose cable 1-2 is cut after tick 1, the message to 2 goes
 * the long way: 6 ticks, 0's eccentricity around the cut (the test's own
 * search), as if the tree had been searched around it from the start.
 */
TEST(general_trees_mend_mid_run)
{
	static const char * const topos[] = {
		"ring 8", "torus 4 4", "mesh 4 4", "hypercube 4", "complete 6", "torus 3 3 3",
		"complete 18",	/* 17 ports: trees kept as child and sibling lists */
	};
	static const u32 ops[] = {
		TXNET_OP_BROADCAST, TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_ACCUMULATE,
		TXNET_OP_MULTINODE_ACCUMULATE, TXNET_OP_PREFIX_SUM, TXNET_OP_DATA_SUM,
	};
	u32 i, k, port, at, who, l, v, dist[64], ecc;
	struct closed c;
	long ticks;
	int ret;

	for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++)
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
	for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++)
	for (at = 1; at <= 5; at++)
	for (who = 0; who <= 1; who++) {
		ASSERT_EQ(0, tg_make(&c.t, topos[i]) ? -1 : 0);
		memset(down, 0, sizeof(down));
		{
			struct txn_run_params p = {
				.budget = &host_budget,
				.op = ops[k], .port_model = port,
				.payload = txn_op_combines(ops[k]) ? 0 : 8, .seed = 7,
				.max_ticks = 1000,	/* a hang guard */
			};

			ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, &txn_sched_general, &p));
		}
		for (v = 0, ret = 0; v < at && !ret; v++)
			ret = txn_engine_tick(&c.e);
		ASSERT_LE(0, ret);
		if (ret) {
			/* over before the cut (a complete graph's broadcast takes a tick) */
			txn_engine_free(&c.e);
			tg_free(&c.t);
			continue;
		}
		l = c.t.g.first[who];
		cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
		ASSERT_EQ(0, txn_engine_set_down(&c.e, down))
			TH_LOG("%s op %u port %u tick %u: %s", topos[i], ops[k], port, at, c.e.v.rule);
		EXPECT_EQ(1U, txn_engine_reroutes(&c.e));
		ticks = closed_finish(&c);
		ASSERT_LT(0, ticks) TH_LOG("%s op %u port %u tick %u cut %u-%u: %s", topos[i],
					   ops[k], port, at, c.t.g.src[l], c.t.g.dst[l], c.e.v.rule);
		EXPECT_EQ(0, txn_engine_verify(&c.e)) TH_LOG("%s op %u", topos[i], ops[k]);
		txn_engine_free(&c.e);
		tg_free(&c.t);
	}

	/* the ring: 1-2 cut after tick 1 */
	ASSERT_EQ(0, tg_make(&c.t, "ring 8") ? -1 : 0);
	memset(down, 0, sizeof(down));
	{
		struct txn_run_params p = {
			.budget = &host_budget,
			.op = TXNET_OP_BROADCAST, .port_model = TXNET_PORT_ALL, .payload = 8, .seed = 7,
		};

		ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, &txn_sched_general, &p));
	}
	ASSERT_EQ(0, txn_engine_tick(&c.e));
	cut(&c.t.g, 1, 2);
	ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
	tg_bfs_avoiding(&c.t.g, 0, dist, down);
	for (v = 0, ecc = 0; v < 8; v++)
		ecc = dist[v] > ecc ? dist[v] : ecc;
	EXPECT_EQ(6U, ecc);
	EXPECT_EQ((long)ecc, closed_finish(&c)) TH_LOG("%s", c.e.v.rule ? c.e.v.rule : "");
	EXPECT_EQ(0, txn_engine_verify(&c.e));
	txn_engine_free(&c.e);
	tg_free(&c.t);
}

/*
 * Faults at random under the general schedule: links going down and
 * coming back at random ticks, every operation, several topologies, both
 * port models.  Every run either ends verified or fails with a rule (a
 * processor cut off); none hangs (max_ticks), none reads or writes what
 * it should not (the sanitizers of `make check`).  A fixed seed: the same
 * cases every run.
 */
static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u32 rnd(u32 below)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (u32)(rnd_state % below);
}

/* Whether every processor reaches every other over the links not down. */
static bool procs_connected(const struct txn_graph *g)
{
	u32 dist[256], s, t;

	for (s = 0; s < g->procs; s++) {
		tg_bfs_avoiding(g, s, dist, down);
		for (t = 0; t < g->procs; t++)
			if (dist[t] == UINT32_MAX)
				return false;
	}
	return true;
}

TEST(general_random_faults)
{
	static const char * const topos[] = {
		"ring 9", "torus 4 4", "mesh 3 5", "hypercube 4", "complete 5", "torus 3 3 3",
		"omega 8", "biswapped ring 3", "linear 6",
	};
	u32 k, op, port, l, v, events, verified = 0, failed = 0;
	struct closed c;
	int ret;

	for (k = 0; k < 400; k++) {
		struct txn_run_params p = { .budget = &host_budget, .seed = k, .max_ticks = 2000 };

		op = 1 + rnd(TXNET_OP_PERMUTATION);
		port = rnd(2) ? TXNET_PORT_ALL : TXNET_PORT_SINGLE;
		if (op == TXNET_OP_PERMUTATION)
			continue;	/* needs its destinations: covered above */
		ASSERT_EQ(0, tg_make(&c.t, topos[rnd(sizeof(topos) / sizeof(topos[0]))]) ? -1 : 0);
		p.op = op;
		p.port_model = port;
		p.payload = txn_op_combines(op) ? 0 : 8;
		p.root = txn_op_has_root(op) ? rnd(c.t.g.procs) : 0;
		memset(down, 0, sizeof(down));
		/* sometimes faults from the start */
		if (rnd(3) == 0) {
			l = rnd(c.t.g.links);
			cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
			p.down = down;
		}
		ret = txn_engine_init(&c.e, &c.t.g, &txn_sched_general, &p);
		if (ret) {
			/* refused to start around them: cut off, or a MIN's trees */
			EXPECT_TRUE(ret == -EHOSTUNREACH || ret == -EOPNOTSUPP || ret == -E2BIG)
				TH_LOG("case %u: %d", k, ret);
			tg_free(&c.t);
			continue;
		}
		events = 1 + rnd(3);
		do {
			ret = txn_engine_tick(&c.e);
			if (!ret && events && rnd(3) == 0) {
				events--;
				l = rnd(c.t.g.links);
				if (rnd(4) == 0)
					memset(down, 0, sizeof(down));	/* everything back up */
				else
					cut(&c.t.g, c.t.g.src[l], c.t.g.dst[l]);
				ret = txn_engine_set_down(&c.e, down) ? -1 : 0;
			}
		} while (!ret);
		if (ret > 0) {
			EXPECT_EQ(0, txn_engine_verify(&c.e)) TH_LOG("case %u: %s", k, c.e.v.rule);
			verified++;
		} else {
			/* a failure names its rule; never a hang */
			ASSERT_TRUE(c.e.failed) TH_LOG("case %u", k);
			ASSERT_NE(NULL, c.e.v.rule);
			EXPECT_EQ(NULL, strstr(c.e.v.rule, "tick limit")) TH_LOG("case %u: %s", k, c.e.v.rule);
			EXPECT_EQ(NULL, strstr(c.e.v.rule, "no progress")) TH_LOG("case %u: %s", k, c.e.v.rule);
			failed++;
			/* "cut off" is true: some processor cannot reach another (the test's search) */
			if (strstr(c.e.v.rule, "cut a processor off"))
				EXPECT_FALSE(procs_connected(&c.t.g)) TH_LOG("case %u: %s", k, c.e.v.rule);
			/* only MINs' trees cannot go around a fault */
			if (strstr(c.e.v.rule, "cannot route around"))
				EXPECT_LT(c.t.g.procs, c.t.g.nodes) TH_LOG("case %u: op %u", k, op);
		}
		for (v = 0; v < sizeof(down) / sizeof(down[0]); v++)
			down[v] = 0;
		txn_engine_free(&c.e);
		tg_free(&c.t);
	}
	TH_LOG("%u verified, %u failed with a rule", verified, failed);
	EXPECT_LT(100U, verified);
}

/* The papers' fixed schedules, and the trees of sums once built, cannot reroute: they fail at once. */
TEST(fixed_schedules_fail_at_once)
{
	static const struct {
		const char *topo;
		const struct txn_sched *s;
		u32 op;
	} cases[] = {
		{ "ring 8", &txn_sched_message_shift, TXNET_OP_TOTAL_EXCHANGE },
		{ "torus 4 4", &txn_sched_a2, TXNET_OP_TOTAL_EXCHANGE },
		{ "hypercube 4", &txn_sched_cube_te, TXNET_OP_TOTAL_EXCHANGE },
		{ "linear 6", &txn_sched_furthest_first, TXNET_OP_TOTAL_EXCHANGE },
	};
	struct closed c;
	u32 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, closed_init(&c, cases[i].topo, cases[i].s, cases[i].op))
			TH_LOG("%s %s", cases[i].topo, cases[i].s->name);
		ASSERT_EQ(0, txn_engine_tick(&c.e));
		cut(&c.t.g, 0, 1);
		EXPECT_EQ(-EPROTO, txn_engine_set_down(&c.e, down)) TH_LOG("%s", cases[i].topo);
		ASSERT_NE(TXN_NONE, c.e.v.link);
		EXPECT_EQ(1U, c.e.v.tick);
		EXPECT_TRUE((c.t.g.src[c.e.v.link] == 0 && c.t.g.dst[c.e.v.link] == 1) ||
			    (c.t.g.src[c.e.v.link] == 1 && c.t.g.dst[c.e.v.link] == 0));
		EXPECT_EQ(-EPROTO, txn_engine_tick(&c.e));
		txn_engine_free(&c.e);
		tg_free(&c.t);
	}
}

/*
 * A schedule that says it reroutes but keeps sending over the broken link
 * is caught by the engine, in the move and in the requeue.
 */
static u32 liar_link;

static int liar_start(struct txn_engine *e)
{
	u32 pkt;

	for (pkt = 0; pkt < e->npkts; pkt++)
		if (txn_pkt_loc(e, pkt) == 0 && txn_pkt_dst(e, pkt) == 1)
			txn_q_push(e, liar_link, pkt);
	return 0;
}

static void liar_choose(struct txn_engine *e)
{
	txn_q_send_heads(e);
}

static int liar_reroute(struct txn_engine *e)
{
	(void)e;
	return 0;
}

static u64 liar_way(const struct txn_engine *e, u32 pkt, u32 v, u32 dst)
{
	(void)e; (void)pkt; (void)v; (void)dst;
	return txn_way(liar_link, 0);
}

static const struct txn_sched liar = {
	.name = "liar", .start = liar_start, .choose = liar_choose,
	.reroute = liar_reroute, .way_from = liar_way,
};

TEST(engine_refuses_moves_over_links_down)
{
	struct closed c;

	ASSERT_EQ(0, closed_init(&c, "ring 4", &txn_sched_general, TXNET_OP_TOTAL_EXCHANGE));
	txn_engine_free(&c.e);
	liar_link = txn_link_between(&c.t.g, 0, 1);
	{
		struct txn_run_params p = { .budget = &host_budget, .op = TXNET_OP_TOTAL_EXCHANGE,
					    .port_model = TXNET_PORT_ALL };

		ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, &liar, &p));
	}
	cut(&c.t.g, 0, 1);
	/* the requeue names the broken link */
	EXPECT_EQ(-EPROTO, txn_engine_set_down(&c.e, down));
	EXPECT_EQ(liar_link, c.e.v.link);
	txn_engine_free(&c.e);
	/* a link down from the start of a run whose packets are not queued yet: the move is refused */
	{
		struct txn_run_params p = { .budget = &host_budget, .op = TXNET_OP_TOTAL_EXCHANGE,
					    .port_model = TXNET_PORT_ALL };
		static const struct txn_sched late = {
			.name = "late", .start = liar_reroute, .choose = liar_choose,
			.reroute = liar_reroute, .way_from = liar_way,
		};

		ASSERT_EQ(0, txn_engine_init(&c.e, &c.t.g, &late, &p));
		ASSERT_EQ(0, txn_engine_set_down(&c.e, down));
		txn_q_push(txn_engine_view(&c.e), liar_link, txn_pkt_id(&c.e, 0, 1));
		EXPECT_EQ(-EPROTO, txn_engine_tick(&c.e));
		EXPECT_EQ(liar_link, c.e.v.link);
		EXPECT_NE(NULL, strstr(c.e.v.rule, "down"));
		txn_engine_free(&c.e);
	}
	tg_free(&c.t);
}

TEST_HARNESS_MAIN
