// SPDX-License-Identifier: GPL-2.0
/*
 * [Bertsekas91] on the d-cube: the constructions of sections 2 (multinode
 * broadcast), 3 (scatter) and 4
 * (total exchange) checked for d up to 16, and the runs of every
 * operation against Tables 1 and 2, numbers the test computes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/cube.h"
#include "core/sched.h"
#include "core/bounds.h"

/*
 * Figure 6's tree: the link sets A_i (the identities numbered (i-1)d+1 ..
 * id and the links into them) hold links of distinct types, d of them but
 * in the last; every identity hears from an earlier set, over one bit.
 */
TEST(multinode_broadcast_tree_is_the_papers)
{
	u32 d, n, q, t, x, i, k, seen, *num, *order;

	for (d = 1; d <= 16; d++) {
		n = 1U << d;
		q = (n - 1 + d - 1) / d;
		num = calloc(n, sizeof(u32));
		order = calloc(n, sizeof(u32));
		ASSERT_EQ(0, txn_cube_numbering(d, num, order)) TH_LOG("d=%u", d);
		EXPECT_EQ(0, num[0]);
		EXPECT_EQ(n - 1, num[n - 1]);
		for (k = 0; k < n; k++)
			ASSERT_EQ(k, num[order[k]]) TH_LOG("d=%u k=%u", d, k);
		for (i = 1; i <= q; i++) {
			seen = 0;
			for (k = (i - 1) * d + 1; k <= i * d && k < n; k++) {
				t = order[k];
				x = t & ~(1U << ((k - 1) % d));
				EXPECT_NE(t, x) TH_LOG("d=%u t=%u: bit m(t) is not a one", d, t);
				/* the parent heard in an earlier set */
				EXPECT_LT((num[x] + d - 1) / d, i) TH_LOG("d=%u t=%u", d, t);
				/* distinct types within A_i */
				EXPECT_EQ(0, seen & (x ^ t)) TH_LOG("d=%u i=%u", d, i);
				seen |= x ^ t;
			}
			if (i < q)
				EXPECT_EQ((1U << d) - 1, seen) TH_LOG("d=%u A_%u has fewer than d links", d, i);
		}
		free(num);
		free(order);
	}
}

/*
 * Table 1: ceil((2^d-1)/d) ticks all-port (MLA), 2^d-1 single-port (SLA);
 * Table 2: 2^d(2^d-1) transmissions; the accumulation, the dual, the
 * same.  Every run verified (every node has every message once, payload
 * intact; every node's sum is the sum of the values sent to it).
 */
TEST(multinode_broadcast_and_accumulation_meet_tables_1_and_2)
{
	static const u32 ops[] = { TXNET_OP_MULTINODE_BROADCAST, TXNET_OP_MULTINODE_ACCUMULATE };
	struct txn_run_params p = { .seed = 9, .values_seed = 4 };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	char net[32];
	struct tg t;
	u64 n, want;
	u32 d, port, k;
	int ret;

	for (k = 0; k < ARRAY_SIZE(ops) * 9 * 2; k++) {
		d = 1 + k / 2 % 9;
		port = TXNET_PORT_ALL + k % 2;
		p.op = ops[k / 18];
		p.payload = p.op == TXNET_OP_MULTINODE_BROADCAST ? 4 : 0;
		p.port_model = port;
		snprintf(net, sizeof(net), "hypercube %u", d);
		ASSERT_EQ(NULL, tg_make(&t, net));
		n = 1ULL << d;
		want = port == TXNET_PORT_SINGLE ? n - 1 : (n - 1 + d - 1) / d;
		s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_AUTO, port, &why);
		ASSERT_NE(NULL, s);
		EXPECT_STREQ("hypercube", s->name);
		ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
		while ((ret = txn_engine_tick(&e)) == 0)
			;
		EXPECT_EQ(1, ret) TH_LOG("%s d=%u port %u: %s", txn_op_name(p.op), d, port,
					 e.v.rule);
		EXPECT_EQ(0, txn_engine_verify(&e));
		EXPECT_EQ(want, e.tick) TH_LOG("%s d=%u port %u", txn_op_name(p.op), d, port);
		EXPECT_EQ(n * (n - 1), e.transmissions);
		txn_engine_free(&e);
		tg_free(&t);
	}
}

/*
 * Section 3's scatter tree: a shortest-path tree (each identity hangs off
 * one with one of its ones cleared), subtree T_i under 0..010..0 (bit
 * i-1), m constant down each subtree, and no subtree above
 * ceil((2^d-1)/d) nodes: what makes the all-port scatter optimal.
 */
TEST(scatter_tree_is_the_papers)
{
	u32 d, n, q, x, i, size[TXN_CUBE_DMAX + 1], *parent;
	u8 *m;

	for (d = 1; d <= 16; d++) {
		n = 1U << d;
		q = (n - 1 + d - 1) / d;
		parent = calloc(n, sizeof(u32));
		m = calloc(n, 1);
		ASSERT_EQ(0, txn_cube_scatter_tree(d, parent, m)) TH_LOG("d=%u", d);
		memset(size, 0, sizeof(size));
		for (x = 1; x < n; x++) {
			ASSERT_EQ(x, parent[x] | x) TH_LOG("d=%u x=%u", d, x);
			ASSERT_EQ(1, __builtin_popcount(x ^ parent[x])) TH_LOG("d=%u x=%u", d, x);
			ASSERT_TRUE(m[x] >= 1 && m[x] <= d) TH_LOG("d=%u x=%u", d, x);
			if (parent[x]) {
				ASSERT_EQ(m[parent[x]], m[x]) TH_LOG("d=%u x=%u", d, x);
			} else {
				ASSERT_EQ(1U << (m[x] - 1), x) TH_LOG("d=%u x=%u", d, x);
			}
			size[m[x]]++;
		}
		for (i = 1; i <= d; i++)
			EXPECT_LE(size[i], q) TH_LOG("d=%u T_%u has %u nodes", d, i, size[i]);
		free(parent);
		free(m);
	}
}

/*
 * Section 4's routes, from the construction's own offsets: every packet
 * (0, x) crosses each bit of x once, in order of increasing tick, and
 * ends at x by T_d = 2^(d-1) all-port (d 2^(d-1) single-port); no two
 * hops on one link (all-port: one dimension) in a tick, and every link
 * busy every tick, which is what the optimal time needs.
 */
TEST(total_exchange_routes_are_the_papers)
{
	u32 d, n, w, ticks, k, single, *crossed, *last;
	struct txn_cube_hop *hop;

	for (d = 1; d <= 16; d++) {
		for (single = 0; single < 2; single++) {
			n = 1U << d;
			w = single ? 1 : d;
			ticks = single ? d << (d - 1) : 1U << (d - 1);
			crossed = calloc(n, sizeof(u32));
			last = calloc(n, sizeof(u32));
			hop = calloc((size_t)ticks * w, sizeof(*hop));
			ASSERT_EQ(0, txn_cube_te_routes(d, single, hop))
				TH_LOG("d=%u single=%u", d, single);
			for (k = 0; k < ticks * w; k++) {
				struct txn_cube_hop *h = &hop[k];

				ASSERT_TRUE(h->x > 0 && h->x < n) TH_LOG("d=%u k=%u: an idle link", d, k);
				if (!single) {
					ASSERT_EQ(k % d, h->bit);
				}
				/* the bit is one of x's, not crossed yet, and pre is what was */
				ASSERT_TRUE(h->x >> h->bit & 1);
				ASSERT_EQ(crossed[h->x], h->pre) TH_LOG("d=%u x=%u", d, h->x);
				ASSERT_LT(last[h->x], k / w + 1) TH_LOG("d=%u x=%u", d, h->x);
				crossed[h->x] |= 1U << h->bit;
				last[h->x] = k / w + 1;
			}
			for (k = 1; k < n; k++)
				ASSERT_EQ(k, crossed[k]) TH_LOG("d=%u x=%u not delivered", d, k);
			free(crossed);
			free(last);
			free(hop);
		}
	}
}

/* Table 1's time and Table 2's transmissions, computed here from d. */
static void table(u32 d, u32 op, bool single, u64 *steps, u64 *tx)
{
	u64 n = 1ULL << d;

	switch (op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_ACCUMULATE:
		*steps = d;
		*tx = n - 1;
		break;
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
		*steps = single ? n - 1 : (n - 1 + d - 1) / d;
		*tx = d * n / 2;
		break;
	case TXNET_OP_MULTINODE_BROADCAST:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		*steps = single ? n - 1 : (n - 1 + d - 1) / d;
		*tx = n * (n - 1);
		break;
	default:	/* total exchange */
		*steps = single ? d * n / 2 : n / 2;
		*tx = d * n * n / 2;
	}
}

/*
 * Every operation of [Bertsekas91] on d = 1..10, both port models, from
 * several roots: algo auto picks the hypercube schedule, the run is
 * verified (every packet once, payload intact, every sum right), its
 * ticks are Table 1's and its transmissions Table 2's, and the schedule
 * reports Table 1 as its expected steps.
 */
TEST(every_operation_meets_tables_1_and_2)
{
	static const u32 ops[] = {
		TXNET_OP_BROADCAST, TXNET_OP_ACCUMULATE, TXNET_OP_SCATTER, TXNET_OP_GATHER,
		TXNET_OP_TOTAL_EXCHANGE,
	};
	struct txn_run_params p = { .seed = 3, .values_seed = 11 };
	const struct txn_sched *s;
	struct txn_engine e;
	const char *why;
	char net[32];
	struct tg t;
	u64 n, steps, tx, expected;
	u32 d, port, i, r;
	int ret;

	for (d = 1; d <= 10; d++) {
		snprintf(net, sizeof(net), "hypercube %u", d);
		ASSERT_EQ(NULL, tg_make(&t, net));
		n = 1ULL << d;
		for (i = 0; i < ARRAY_SIZE(ops); i++) {
			for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++) {
				/* roots 0, the last, and one between (total exchange has none) */
				for (r = 0; r < 3; r++) {
					if (ops[i] == TXNET_OP_TOTAL_EXCHANGE && r)
						break;
					p.op = ops[i];
					p.port_model = port;
					p.root = r == 0 ? 0 : r == 1 ? n - 1 : (u32)(n * 5 / 8);
					p.payload = txn_op_combines(p.op) ? 0 : 3;
					s = txn_sched_pick(&t.spec, p.op, TXNET_ALGO_AUTO, port, &why);
					ASSERT_NE(NULL, s);
					EXPECT_STREQ("hypercube", s->name);
					table(d, p.op, port == TXNET_PORT_SINGLE, &steps, &tx);
					ASSERT_TRUE(txn_expected_steps(s, &t.spec, &p, &expected));
					EXPECT_EQ(steps, expected);
					ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p))
						TH_LOG("%s d=%u", txn_op_name(p.op), d);
					while ((ret = txn_engine_tick(&e)) == 0)
						;
					EXPECT_EQ(1, ret) TH_LOG("%s d=%u port %u root %u: %s",
								 txn_op_name(p.op), d, port, p.root,
								 e.v.rule);
					EXPECT_EQ(0, txn_engine_verify(&e));
					EXPECT_EQ(steps, e.tick) TH_LOG("%s d=%u port %u root %u",
									txn_op_name(p.op), d, port, p.root);
					EXPECT_EQ(tx, e.transmissions) TH_LOG("%s d=%u port %u root %u",
									      txn_op_name(p.op), d, port,
									      p.root);
					txn_engine_free(&e);
				}
			}
		}
		tg_free(&t);
	}
}

/* Not a hypercube, or a permutation: refused naming algo. */
TEST(hypercube_refused_elsewhere)
{
	const char *why = NULL;
	struct tg t;

	ASSERT_EQ(NULL, tg_make(&t, "torus 4 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_MULTINODE_BROADCAST,
				       TXNET_ALGO_HYPERCUBE, TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	tg_free(&t);
	ASSERT_EQ(NULL, tg_make(&t, "hypercube 4"));
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_PERMUTATION, TXNET_ALGO_HYPERCUBE,
				       TXNET_PORT_ALL, &why));
	EXPECT_EQ(0, strncmp(why, "algo: ", 6));
	tg_free(&t);
}

/*
 * Data and prefix sums by recursive doubling: on the d-cube, d ticks under
 * either port model, a dimension a tick, and d n transmissions (one a
 * processor a tick); d is the diameter, and log2 n, which bound every
 * data and prefix sum (bounds.c): the schedule meets it, verified, for
 * d = 1 .. 8, with the values of our own checked by the engine.
 */
TEST(sums_by_recursive_doubling_take_d_ticks)
{
	static const u32 ops[] = { TXNET_OP_DATA_SUM, TXNET_OP_PREFIX_SUM };
	struct txn_engine e;
	struct txn_bound b;
	const struct txn_sched *s;
	const char *why;
	char spec[32];
	u32 d, port, i;
	struct tg t;
	int ret;

	for (d = 1; d <= 8; d++) {
		snprintf(spec, sizeof(spec), "hypercube %u", d);
		ASSERT_EQ(NULL, tg_make(&t, spec));
		for (port = TXNET_PORT_ALL; port <= TXNET_PORT_SINGLE; port++)
			for (i = 0; i < ARRAY_SIZE(ops); i++) {
				struct txn_run_params p = { .op = ops[i], .port_model = port,
							    .values_seed = d };

				s = txn_sched_pick(&t.spec, ops[i], TXNET_ALGO_AUTO, port, &why);
				ASSERT_EQ(&txn_sched_cube_sum, s);
				ASSERT_EQ(0, txn_engine_init(&e, &t.g, s, &p));
				while ((ret = txn_engine_tick(&e)) == 0)
					;
				EXPECT_EQ(1, ret) TH_LOG("d=%u %s: %s", d, txn_op_name(ops[i]),
							 e.v.rule);
				EXPECT_EQ(0, txn_engine_verify(&e)) TH_LOG("d=%u %s: %s", d,
									    txn_op_name(ops[i]), e.v.rule);
				EXPECT_EQ(d, e.tick);
				EXPECT_EQ((u64)d << d, e.transmissions);
				ASSERT_EQ(0, txn_bound(&t.spec, &t.g, ops[i], port, 0, &b));
				EXPECT_EQ(d, b.lower) TH_LOG("d=%u %s port %u", d, txn_op_name(ops[i]),
							     port);
				txn_engine_free(&e);
			}
		tg_free(&t);
	}
}

TEST_HARNESS_MAIN
