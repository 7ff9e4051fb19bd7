// SPDX-License-Identifier: GPL-2.0
/*
 * Open traffic (user ports) in the engine: packets injected one by one,
 * routed on shortest paths, delivered once with their bytes intact.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "open_net.h"
#include "core/sched.h"

#define SLOTS 64

/* One packet alone takes exactly its shortest distance, found independently by BFS. */
TEST(lone_packet_takes_its_distance)
{
	static const char * const topos[] = {
		"ring 9", "linear 7", "torus 4 5", "hypercube 4", "butterfly 8",
		"omega 16", "flip 8", "biswapped ring 4", "product ring:3 complete:4",
	};
	struct open_net o;
	unsigned int i;
	u32 dist[1024], src, dst;
	long ticks;

	for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++) {
		ASSERT_EQ(0, open_net(&o, topos[i], TXNET_PORT_ALL, 32, SLOTS)) TH_LOG("%s", topos[i]);
		for (src = 0; src < o.t.g.procs; src += 3) {
			tg_bfs(&o.t.g, src, dist);
			for (dst = 0; dst < o.t.g.procs; dst++) {
				if (dst == src)
					continue;
				ASSERT_LE(0, txn_engine_inject(&o.e, src, dst, "x", 1));
				o.delivered = 0;
				ticks = open_drain(&o);
				EXPECT_EQ((long)dist[dst], ticks) TH_LOG("%s %u->%u", topos[i], src, dst);
				EXPECT_EQ(1U, o.delivered);
			}
		}
		close_net(&o);
	}
}

/*
 * Past the route cache (sched_route.c keeps 2 MiB of in-trees: 455 of
 * 1152 here), trees are evicted and searched again: still the shortest
 * distance, from every source to every destination of a sample.
 */
TEST(route_cache_evicts_and_still_routes_shortest)
{
	struct open_net o;
	u32 dist[1152], src, dst;
	long ticks;

	ASSERT_EQ(0, open_net(&o, "biswapped ring 24", TXNET_PORT_ALL, 32, SLOTS));
	ASSERT_EQ(1152U, o.t.g.procs);
	for (src = 0; src < o.t.g.procs; src += 97) {
		tg_bfs(&o.t.g, src, dist);
		for (dst = src % 5; dst < o.t.g.procs; dst += 5) {
			if (dst == src)
				continue;
			ASSERT_LE(0, txn_engine_inject(&o.e, src, dst, "y", 1));
			o.delivered = 0;
			ticks = open_drain(&o);
			ASSERT_EQ((long)dist[dst], ticks) TH_LOG("%u->%u", src, dst);
			ASSERT_EQ(1U, o.delivered);
		}
	}
	close_net(&o);
}

/* A transpose: node i sends element (i, j) to node j; all arrive, intact. */
TEST(transpose_through_ports)
{
	struct open_net o;
	u32 n, i, j;
	char cell[24];

	ASSERT_EQ(0, open_net(&o, "ring 8", TXNET_PORT_ALL, 32, SLOTS));
	n = o.t.g.procs;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			snprintf(cell, sizeof(cell), "%u,%u", i, j);
			ASSERT_LE(0, txn_engine_inject(&o.e, i, j, cell, sizeof(cell)));
		}
	}
	ASSERT_LT(0, open_drain(&o));
	EXPECT_EQ(n * (n - 1), o.delivered);
	close_net(&o);
}

TEST(single_port_is_respected)
{
	struct open_net o;
	u32 i;

	ASSERT_EQ(0, open_net(&o, "torus 4 4", TXNET_PORT_SINGLE, 32, SLOTS));
	for (i = 1; i < 16; i++)
		ASSERT_LE(0, txn_engine_inject(&o.e, 0, i, &i, sizeof(i)));
	/* node 0 may send one packet a tick: 15 packets need 15 ticks at least */
	EXPECT_LE(15, open_drain(&o));
	EXPECT_EQ(15U, o.delivered);
	close_net(&o);
}

TEST(bad_injections)
{
	struct open_net o;
	u32 i;

	ASSERT_EQ(0, open_net(&o, "ring 5", TXNET_PORT_ALL, 32, SLOTS));
	EXPECT_EQ(-EINVAL, txn_engine_inject(&o.e, 0, 0, "x", 1));
	EXPECT_EQ(-EINVAL, txn_engine_inject(&o.e, 0, 5, "x", 1));
	EXPECT_EQ(-EINVAL, txn_engine_inject(&o.e, 5, 0, "x", 1));
	EXPECT_EQ(-EINVAL, txn_engine_inject(&o.e, 0, 1, "x", 33));
	for (i = 0; i < SLOTS; i++)
		ASSERT_LE(0, txn_engine_inject(&o.e, 0, 1 + i % 4, "x", 1));
	EXPECT_EQ(-ENOBUFS, txn_engine_inject(&o.e, 0, 1, "x", 1));
	close_net(&o);
}

TEST(corruption_in_flight_is_caught)
{
	struct open_net o;
	int pkt;

	ASSERT_EQ(0, open_net(&o, "ring 9", TXNET_PORT_ALL, 32, SLOTS));
	pkt = txn_engine_inject(&o.e, 0, 4, "hello", 5);
	ASSERT_LE(0, pkt);
	ASSERT_EQ(0, txn_engine_tick(&o.e));
	/* A bit flips in the engine's own memory: not something a scheduler can reach. */
	o.e.ledger->payload[(size_t)pkt * o.e.p.payload] ^= 1;
	EXPECT_EQ(-1, open_drain(&o));
	ASSERT_NE(NULL, o.e.v.rule);
	EXPECT_STREQ("payload corrupted", o.e.v.rule);
	close_net(&o);
}

/*
 * Beside a run, traffic takes only what the run left: a link the run had
 * this tick (or, single-port, a port) holds the packet back a tick.
 */
TEST(yields_to_a_run)
{
	static const u32 ports[] = { TXNET_PORT_ALL, TXNET_PORT_SINGLE };
	u64 lines[1] = { 0 }, sent[1] = { 0 }, recv[1] = { 0 };
	struct txn_taken taken = { lines, sent, recv };
	struct open_net o;
	u32 l, i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, open_net(&o, "ring 8", ports[i], 32, SLOTS));
		l = txn_link_between(&o.t.g, 0, 1);
		ASSERT_LE(0, txn_engine_inject(&o.e, 0, 1, "x", 1));
		lines[0] = i ? 0 : 1ULL << l;
		sent[0] = i ? 1ULL << 0 : 0;
		txn_engine_set_taken(&o.e, &taken);
		ASSERT_EQ(0, txn_engine_tick(&o.e));
		EXPECT_EQ(0U, o.e.ndone);
		/* single-port: 1's receiving taken instead */
		sent[0] = 0;
		recv[0] = i ? 1ULL << 1 : 0;
		ASSERT_EQ(0, txn_engine_tick(&o.e));
		EXPECT_EQ(0U, o.e.ndone);
		txn_engine_set_taken(&o.e, NULL);
		EXPECT_EQ(1, open_drain(&o));
		EXPECT_EQ(1U, o.delivered);
		close_net(&o);
	}
}

TEST_HARNESS_MAIN
