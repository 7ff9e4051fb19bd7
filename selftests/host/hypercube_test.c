// SPDX-License-Identifier: GPL-2.0
/*
 * Paper 003 (shared/papers/003_3e5317fe762f918d.txt) on the d-cube: the
 * multinode broadcast of section 2, its construction checked for d up to
 * 16 and its runs against Tables 1 and 2, numbers the test computes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "topo_helpers.h"
#include "core/sched.h"

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

/* Not a hypercube, or not a multinode broadcast: refused naming algo. */
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
	EXPECT_EQ(NULL, txn_sched_pick(&t.spec, TXNET_OP_BROADCAST, TXNET_ALGO_HYPERCUBE,
				       TXNET_PORT_ALL, &why));
	tg_free(&t);
}

TEST_HARNESS_MAIN
