// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_errors: every bad request is refused with the right errno, a
 * non-empty extack message that points at the attribute at fault, and
 * leaves nothing behind: no network in the dump, no sysfs directory, no
 * tick thread.  Also bad writes to the module parameters.
 *
 * errnos: policy violations come from lib/nlattr.c (length, type, unknown
 * attribute, NLA_REJECT: EINVAL) and the ranges in the family's policy
 * (ERANGE); the rest come from kmod/core/spec.c, kmod/net.c and
 * the kmod/netlink*.c files.
 */
#include <string.h>

#include "txnet_harness.h"

FIXTURE(err) {
	struct txnl t;
	int sysfs0, threads0;
	int miss;		/* missing attribute of the last refusal */
	char max_nodes[32], mem_budget[32];
};

FIXTURE_SETUP(err)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_count(&self->t));
	self->sysfs0 = sysfs_count();
	ASSERT_LE(0, self->sysfs0);
	self->threads0 = kthread_count();
	ASSERT_EQ(0, param_read("max_nodes", self->max_nodes, sizeof(self->max_nodes)));
	ASSERT_EQ(0, param_read("mem_budget", self->mem_budget, sizeof(self->mem_budget)));
}

FIXTURE_TEARDOWN(err)
{
	param_write("max_nodes", self->max_nodes);
	param_write("mem_budget", self->mem_budget);
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

/* Nothing left: no network in the dump, no new sysfs entry, no thread. */
#define NOTHING_LEFT() do {						\
		EXPECT_EQ(0, txnl_count(&self->t));			\
		EXPECT_EQ(self->sysfs0, sysfs_count());			\
		EXPECT_EQ(self->threads0, kthreads_become(self->threads0)); \
	} while (0)

static inline const char *needle_ok(const char *s)
{
	return s;
}

/* The last answer was -@eno with a message containing @needle (may be NULL). */
#define REFUSED(eno, needle) do {					\
		self->miss = self->t.miss_type;				\
		EXPECT_EQ(-(eno), self->t.err)				\
			TH_LOG("errno %d (%s), extack \"%s\"", -self->t.err, \
			       strerror(-self->t.err), self->t.msg);	\
		EXPECT_NE(0, self->t.msg[0])				\
			TH_LOG("no extack message (errno %d, missing attr %d)", \
			       -self->t.err, self->t.miss_type);	\
		if (needle_ok(needle))					\
			EXPECT_NE(NULL, strstr(self->t.msg, needle_ok(needle))) \
				TH_LOG("extack \"%s\" does not mention \"%s\"", \
				       self->t.msg, needle_ok(needle));	\
	} while (0)

/* Send NEW @r, expect -@eno, a message with @needle, blame at offset @off. */
#define REJECT(r, eno, needle, offp) do {				\
		txnl_new(&self->t, (r), NULL);				\
		REFUSED(eno, needle);					\
		if ((offp) >= 0)					\
			EXPECT_EQ((offp), self->t.off)			\
				TH_LOG("extack blames offset %d, not %d", self->t.off, (offp)); \
		NOTHING_LEFT();						\
	} while (0)

static struct txnet_req mk(uint32_t topo, uint32_t nd, const uint32_t *size)
{
	struct txnet_req r = { .topo = topo, .ndims = nd, .name = "bad" };

	memcpy(r.size, size, nd * sizeof(uint32_t));
	return r;
}

TEST_F(err, zero_dimension)
{
	struct txnet_req r = mk(TXNET_TOPO_MESH, 2, (uint32_t[]){ 4, 0 });

	REJECT(&r, EINVAL, "dimension size", r.off_size[1]);
	r = mk(TXNET_TOPO_TORUS, 1, (uint32_t[]){ 0 });
	REJECT(&r, EINVAL, "dimension size", r.off_size[0]);
}

TEST_F(err, dimension_one)
{
	static const uint32_t topos[] = { TXNET_TOPO_LINEAR, TXNET_TOPO_RING, TXNET_TOPO_COMPLETE,
					  TXNET_TOPO_MESH, TXNET_TOPO_TORUS, TXNET_TOPO_GHC };

	for (unsigned int i = 0; i < ARRAY_SIZE(topos); i++) {
		struct txnet_req r = mk(topos[i], 1, (uint32_t[]){ 1 });

		REJECT(&r, EINVAL, "dimension size", r.off_size[0]);
	}
	struct txnet_req r = mk(TXNET_TOPO_MESH, 3, (uint32_t[]){ 3, 1, 3 });

	REJECT(&r, EINVAL, "dimension size", r.off_size[1]);
}

TEST_F(err, negative_as_u32)
{
	struct txnet_req r = mk(TXNET_TOPO_MESH, 2, (uint32_t[]){ 0xffffffff, 2 });

	/* 2^32 - 1 nodes > max_nodes: the whole spec is too big */
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 0xffffffff });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_BUTTERFLY, 1, (uint32_t[]){ 0x80000000 });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_HYPERCUBE, 1, (uint32_t[]){ 0xffffffff });
	REJECT(&r, EINVAL, "hypercube", r.off_size[0]);
}

TEST_F(err, overflow)
{
	/* 65536 x 65536 = 2^32: wraps to 0 in u32 arithmetic */
	struct txnet_req r = mk(TXNET_TOPO_MESH, 2, (uint32_t[]){ 65536, 65536 });

	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 1u << 16, 1u << 16 });
	REJECT(&r, E2BIG, NULL, r.off_dims);
	/* 2^16 * 2^16 * 2^16 * 2^16 = 2^64: wraps to 0 in u64 arithmetic */
	r = mk(TXNET_TOPO_GHC, 4, (uint32_t[]){ 65536, 65536, 65536, 65536 });
	REJECT(&r, E2BIG, NULL, r.off_dims);
	r = mk(TXNET_TOPO_MESH, 16, (uint32_t[]){ 65535, 65535, 65535, 65535, 65535, 65535,
						  65535, 65535, 65535, 65535, 65535, 65535,
						  65535, 65535, 65535, 65535 });
	REJECT(&r, E2BIG, NULL, r.off_dims);
	/* biswapped: 2 n^2 with n = 2^16 */
	r = mk(TXNET_TOPO_BISWAPPED, 2, (uint32_t[]){ 256, 256 });
	r.base = TXNET_TOPO_MESH;
	REJECT(&r, E2BIG, NULL, r.off_dims);
}

TEST_F(err, links_overflow)
{
	/* K_65537: 65537 * 65536 = 2^32 + 2^16 directed links, more than a u32 */
	struct txnet_req r = mk(TXNET_TOPO_COMPLETE, 1, (uint32_t[]){ 65537 });

	ASSERT_EQ(0, param_write("max_nodes", "16777216"));
	REJECT(&r, E2BIG, "links", r.off_dims);
}

TEST_F(err, too_many_dims)
{
	struct txnet_req r = { .name = "bad", .topo = TXNET_TOPO_MESH, .ndims = 17 };

	for (int i = 0; i < 17; i++)
		r.size[i] = 2;
	REJECT(&r, EINVAL, "too many dimensions", r.off_dim[16]);
	/* 16 is allowed: mesh 2^16 = Q_16 */
	r.ndims = 16;
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
}

TEST_F(err, one_dim_topologies_take_one)
{
	static const uint32_t topos[] = { TXNET_TOPO_LINEAR, TXNET_TOPO_RING, TXNET_TOPO_COMPLETE,
					  TXNET_TOPO_HYPERCUBE, TXNET_TOPO_BUTTERFLY,
					  TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE,
					  TXNET_TOPO_RBASELINE, TXNET_TOPO_FLIP };

	for (unsigned int i = 0; i < ARRAY_SIZE(topos); i++) {
		struct txnet_req r = mk(topos[i], 2, (uint32_t[]){ 4, 4 });

		REJECT(&r, EINVAL, "one dimension", r.off_dims);
	}
}

TEST_F(err, min_not_power_of_two)
{
	static const uint32_t topos[] = { TXNET_TOPO_BUTTERFLY, TXNET_TOPO_OMEGA,
					  TXNET_TOPO_BASELINE, TXNET_TOPO_RBASELINE,
					  TXNET_TOPO_FLIP };
	static const uint32_t bad[] = { 0, 1, 3, 6, 12, 1000 };

	for (unsigned int i = 0; i < ARRAY_SIZE(topos); i++)
		for (unsigned int j = 0; j < ARRAY_SIZE(bad); j++) {
			struct txnet_req r = mk(topos[i], 1, &bad[j]);

			REJECT(&r, EINVAL, "power of two", r.off_size[0]);
		}
}

TEST_F(err, hypercube_dimension)
{
	struct txnet_req r = mk(TXNET_TOPO_HYPERCUBE, 1, (uint32_t[]){ 0 });

	REJECT(&r, EINVAL, "hypercube", r.off_size[0]);
	r = mk(TXNET_TOPO_HYPERCUBE, 1, (uint32_t[]){ 17 });
	REJECT(&r, EINVAL, "hypercube", r.off_size[0]);
}

/* A dragonfly takes p a h, a fat tree k n, a Slim Fly q p (Documentation/txnet-topologies.rst). */
TEST_F(err, routers_sizes)
{
	struct txnet_req r = mk(TXNET_TOPO_DRAGONFLY, 2, (uint32_t[]){ 2, 4 });

	REJECT(&r, EINVAL, "three sizes", r.off_dims);
	r = mk(TXNET_TOPO_DRAGONFLY, 3, (uint32_t[]){ 2, 0, 2 });
	REJECT(&r, EINVAL, "at least 1", r.off_size[1]);
	/* 4096 routers a group, 4096 global cables each: 4096 4097 groups */
	r = mk(TXNET_TOPO_DRAGONFLY, 3, (uint32_t[]){ 1, 4096, 4096 });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_FATTREE, 3, (uint32_t[]){ 4, 3, 1 });
	REJECT(&r, EINVAL, "two sizes", r.off_dims);
	r = mk(TXNET_TOPO_FATTREE, 2, (uint32_t[]){ 1, 3 });
	REJECT(&r, EINVAL, "arity", r.off_size[0]);
	r = mk(TXNET_TOPO_FATTREE, 2, (uint32_t[]){ 4, 0 });
	REJECT(&r, EINVAL, "levels", r.off_size[1]);
	/* 2^32 - 1 levels of 2: past any max_nodes at the 17th */
	r = mk(TXNET_TOPO_FATTREE, 2, (uint32_t[]){ 2, 0xffffffff });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_SLIMFLY, 1, (uint32_t[]){ 5 });
	REJECT(&r, EINVAL, "two sizes", r.off_dims);
	r = mk(TXNET_TOPO_SLIMFLY, 2, (uint32_t[]){ 9, 1 });
	REJECT(&r, EINVAL, "odd prime", r.off_size[0]);
	r = mk(TXNET_TOPO_SLIMFLY, 2, (uint32_t[]){ 5, 0 });
	REJECT(&r, EINVAL, "at least 1", r.off_size[1]);
	/* 181 is prime: 2 181^2 = 65522 routers and as many processors */
	r = mk(TXNET_TOPO_SLIMFLY, 2, (uint32_t[]){ 181, 1 });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
}

/*
 * A graph from its cables: the kernel checks again what txctl checked
 * (kmod/core/cables.c, kmod/net.c), whatever sent them.  The square 0 1 2
 * 3 with a switch 4 on processor 0 is the good list the bad ones spoil.
 */
TEST_F(err, graph_cables)
{
	static const uint32_t good[] = { 0, 1, 1, 2, 2, 3, 3, 0, 0, 4 };
	static const uint32_t loop[] = { 0, 1, 1, 2, 2, 3, 3, 3, 0, 4 };
	static const uint32_t twice[] = { 0, 1, 1, 2, 2, 3, 3, 0, 1, 0 };
	static const uint32_t past[] = { 0, 1, 1, 2, 2, 3, 3, 0, 0, 5 };
	static const uint32_t apart[] = { 0, 1, 2, 3 };
	static const uint32_t ids[] = { 10, 20, 30, 40, 7 };
	static const uint32_t unsorted[] = { 10, 30, 20, 40, 7 };
	struct txnet_req r = mk(TXNET_TOPO_GRAPH, 2, (uint32_t[]){ 4, 1 });
	struct txnet_info info;

	REJECT(&r, EINVAL, "needs its cables", -1);
	EXPECT_EQ(TXNET_A_CABLES, self->miss);
	r.cables = loop, r.ncables = 5;
	REJECT(&r, EINVAL, "to itself", r.off_cables);
	r.cables = twice;
	REJECT(&r, EINVAL, "listed twice", r.off_cables);
	r.cables = past;
	REJECT(&r, EINVAL, "past the counts", r.off_cables);
	r.cables = apart, r.ncables = 2;
	r.size[1] = 0;
	REJECT(&r, EINVAL, "cannot be reached", r.off_cables);
	r = mk(TXNET_TOPO_GRAPH, 1, (uint32_t[]){ 5 });
	r.cables = good, r.ncables = 5;
	REJECT(&r, EINVAL, "two sizes", r.off_dims);
	r = mk(TXNET_TOPO_GRAPH, 2, (uint32_t[]){ 1, 4 });
	r.cables = good, r.ncables = 5;
	REJECT(&r, EINVAL, "at least 2 processors", r.off_dims);
	r = mk(TXNET_TOPO_GRAPH, 2, (uint32_t[]){ 4, 1 });
	r.cables = good, r.ncables = 5;
	r.ids = unsorted, r.nids = 5;
	REJECT(&r, EINVAL, "ascend", r.off_ids);
	r.nids = 4;
	REJECT(&r, EINVAL, "every vertex", r.off_ids);
	/* cables on any other topology */
	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	r.cables = good, r.ncables = 4;
	REJECT(&r, EINVAL, "only for a graph", r.off_cables);
	/* and the good list, three attributes of two pairs at most, is a network */
	r = mk(TXNET_TOPO_GRAPH, 2, (uint32_t[]){ 4, 1 });
	r.cables = good, r.ncables = 5, r.chunk = 2;
	r.ids = ids, r.nids = 5;
	ASSERT_EQ(0, txnl_new(&self->t, &r, &info)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(4, info.nodes);
	EXPECT_EQ(1, info.switches);
	EXPECT_EQ(10, info.links);
	/* processors 0 and 2 are two apart; the switch is not a processor */
	EXPECT_EQ(2, info.diameter);
	EXPECT_NE(NULL, strstr(info.spec, "graph 4 1 cables 5 digest ")) TH_LOG("%s", info.spec);
	EXPECT_EQ(0, txnl_del(&self->t, "bad"));
}

/* A cable list's attribute is whole pairs: 12 bytes is a pair and a half. */
TEST_F(err, graph_ragged_cables)
{
	static const uint32_t three[] = { 0, 1, 1 };
	struct txnet_req r = mk(TXNET_TOPO_GRAPH, 2, (uint32_t[]){ 2, 0 });
	struct nl_msg *m;

	r.cables = three, r.ncables = 1;
	m = txnl_new_msg(&self->t, &r);
	ASSERT_NE(NULL, m);
	/* a pair and a half, after the good pair */
	ASSERT_EQ(0, nla_put(m, TXNET_A_CABLES, 12, three));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "whole pairs");
	NOTHING_LEFT();
}

TEST_F(err, unknown_topology)
{
	struct txnet_req r = mk(TXNET_TOPO_MAX + 1, 1, (uint32_t[]){ 4 });

	REJECT(&r, ERANGE, NULL, r.off_topo);
	r = mk(99, 1, (uint32_t[]){ 4 });
	REJECT(&r, ERANGE, NULL, r.off_topo);
	r = mk(0, 1, (uint32_t[]){ 4 });
	r.send_topo = true;
	REJECT(&r, ERANGE, NULL, r.off_topo);
}

TEST_F(err, missing_topology)
{
	struct txnet_req r = mk(0, 1, (uint32_t[]){ 4 });

	REJECT(&r, EINVAL, NULL, -1);
	EXPECT_EQ(TXNET_A_TOPOLOGY, self->miss);
}

TEST_F(err, missing_dims)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 0, NULL);

	r.no_dims = true;
	REJECT(&r, EINVAL, NULL, -1);
	EXPECT_EQ(TXNET_A_DIMS, self->miss);
}

TEST_F(err, empty_dims)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 0, NULL);

	REJECT(&r, EINVAL, "at least one dimension", r.off_dims);
}

TEST_F(err, missing_dim_size)
{
	struct txnet_req r = mk(TXNET_TOPO_MESH, 2, (uint32_t[]){ 4, 4 });

	r.no_size[1] = true;
	REJECT(&r, EINVAL, "size", r.off_dim[1]);
	EXPECT_EQ(TXNET_A_DIM_SIZE, self->miss);
}

/* Send NEW @r with one extra attribute from @put; expect -@eno blamed on it. */
#define REJECT_EXTRA(r, put, eno, needle) do {				\
		struct nl_msg *m = txnl_new_msg(&self->t, (r));		\
		int at;							\
									\
		ASSERT_NE(NULL, m);					\
		at = txnl_tail(m);					\
		ASSERT_LE(0, put);					\
		txnl_xfer(&self->t, m, NULL, NULL);			\
		REFUSED(eno, needle);					\
		EXPECT_EQ(at, self->t.off);				\
		NOTHING_LEFT();						\
	} while (0)

TEST_F(err, wrongly_typed)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	/* the topology as a u8 (strict validation: exact length) */
	r.topo = 0;
	REJECT_EXTRA(&r, nla_put_u8(m, TXNET_A_TOPOLOGY, TXNET_TOPO_RING), EINVAL, NULL);
	/* the port model as a u64, the tick as a u32 */
	r.topo = TXNET_TOPO_RING;
	REJECT_EXTRA(&r, nla_put_u64(m, TXNET_A_PORT_MODEL, 1), EINVAL, NULL);
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_TICK_NS, 1000), EINVAL, NULL);
	/* DIMS must be a nest of nests: a bare u32 there (blamed inside it) */
	r.no_dims = true;
	struct nl_msg *m = txnl_new_msg(&self->t, &r);

	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_DIMS, 0x12345678));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, NULL);
	NOTHING_LEFT();
}

TEST_F(err, name_too_long)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	/* 16 characters + NUL: one more than TXNET_NAME_LEN allows */
	r.name = "abcdefghijklmnop";
	REJECT(&r, EINVAL, NULL, r.off_name);
	r.name = "a-very-long-network-name-indeed-much-longer";
	REJECT(&r, EINVAL, NULL, r.off_name);
	/* 15 is the longest */
	r.name = "abcdefghijklmno";
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	EXPECT_TRUE(net_dir_exists("abcdefghijklmno"));
	ASSERT_EQ(0, txnl_del(&self->t, "abcdefghijklmno"));
}

TEST_F(err, name_not_terminated)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	r.name = NULL;
	REJECT_EXTRA(&r, nla_put(m, TXNET_A_NAME, 4, "abcd"), EINVAL, NULL);
}

TEST_F(err, bad_names)
{
	static const char *const bad[] = { "", ".", "..", "a/b", "a b", "tab\tx", "\x7f" };
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		r.name = bad[i];
		REJECT(&r, EINVAL, "name", r.off_name);
	}
}

TEST_F(err, duplicate_name)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	struct txnet_info a, b;

	ASSERT_EQ(0, txnl_new(&self->t, &r, &a));
	self->sysfs0++;
	self->threads0++;
	r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 3, 3 });
	txnl_new(&self->t, &r, NULL);
	REFUSED(EEXIST, "already exists");
	EXPECT_EQ(r.off_name, self->t.off);
	EXPECT_EQ(1, txnl_count(&self->t));
	EXPECT_EQ(self->sysfs0, sysfs_count());
	EXPECT_EQ(self->threads0, kthreads_become(self->threads0));
	/* the first is untouched */
	ASSERT_EQ(0, txnl_get(&self->t, "bad", &b));
	EXPECT_EQ(a.id, b.id);
	EXPECT_STREQ("ring 4", b.spec);
}

TEST_F(err, kind_on_non_product)
{
	struct txnet_req r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 4, 4 });

	r.kind[1] = TXNET_DIM_COMPLETE;
	REJECT(&r, EINVAL, "product", r.off_kind[1]);
	/* even the kind the topology implies */
	r.kind[1] = TXNET_DIM_RING;
	REJECT(&r, EINVAL, "product", r.off_kind[1]);
	r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 4 });
	r.base = TXNET_TOPO_RING;
	r.kind[0] = TXNET_DIM_RING;
	REJECT(&r, EINVAL, "product", r.off_kind[0]);
}

TEST_F(err, product_without_kind)
{
	struct txnet_req r = mk(TXNET_TOPO_PRODUCT, 2, (uint32_t[]){ 4, 4 });

	r.kind[0] = TXNET_DIM_RING;
	/* dimension 1 has no kind: blamed on its nest */
	REJECT(&r, EINVAL, "kind", r.off_dim[1]);
	r.kind[1] = TXNET_DIM_MAX + 1;
	REJECT(&r, ERANGE, NULL, r.off_kind[1]);
}

TEST_F(err, biswapped_without_base)
{
	struct txnet_req r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 4 });

	REJECT(&r, EINVAL, NULL, -1);
	EXPECT_EQ(TXNET_A_BASE, self->miss);
}

TEST_F(err, biswapped_bad_base)
{
	static const uint32_t bad[] = { TXNET_TOPO_TORUS, TXNET_TOPO_GHC, TXNET_TOPO_PRODUCT,
					TXNET_TOPO_BUTTERFLY, TXNET_TOPO_FLIP,
					TXNET_TOPO_BISWAPPED };
	struct txnet_req r;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 4 });
		r.base = bad[i];
		REJECT(&r, EINVAL, "base", r.off_base);
	}
	r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 4 });
	r.base = 99;
	REJECT(&r, ERANGE, NULL, r.off_base);
	/* a legal base with a bad size */
	r.base = TXNET_TOPO_RING;
	r.size[0] = 1;
	REJECT(&r, EINVAL, "dimension size", r.off_size[0]);
	/* base given for a non-biswapped topology */
	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	r.base = TXNET_TOPO_RING;
	REJECT(&r, EINVAL, "biswapped", r.off_base);
	/* too big: hypercube 8 has 256 nodes, 2 * 256^2 > 65536 */
	r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 8 });
	r.base = TXNET_TOPO_HYPERCUBE;
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
}

TEST_F(err, read_only_attrs)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_NODES, 4), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_LINKS, 8), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_SWITCHES, 0), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_DIAMETER, 2), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_STATE, 0), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_string(m, TXNET_A_SPEC, "ring 4"), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u64(m, TXNET_A_TICKS, 0), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u64(m, TXNET_A_MEM_BYTES, 0), EINVAL, "read-only");
	/* the faults in force are set by FAULT, the fabric's counters by traffic */
	REJECT_EXTRA(&r, nla_put(m, TXNET_A_CABLES_CUT, 8, (uint32_t[]){ 0, 1 }), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put(m, TXNET_A_NODES_DOWN, 4, (uint32_t[]){ 1 }), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u64(m, TXNET_A_PORTS_DROPPED, 0), EINVAL, "read-only");
	REJECT_EXTRA(&r, nla_put_u64(m, TXNET_A_FABRIC_HOPS, 0), EINVAL, "read-only");
	/* the id is assigned, never requested */
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_ID, 7), EINVAL, NULL);
	/* and an attribute type the family does not know */
	REJECT_EXTRA(&r, nla_put_u32(m, TXNET_A_MAX + 1, 7), EINVAL, NULL);
	/* NETDEV is a flag: 0 or 1 */
	REJECT_EXTRA(&r, nla_put_u8(m, TXNET_A_NETDEV, 2), ERANGE, NULL);
	/* ... and a run's attributes are not a network's */
	REJECT_EXTRA(&r, nla_put_u8(m, TXNET_A_RECORD, 1), EINVAL, NULL);
}

TEST_F(err, too_many_nodes)
{
	struct txnet_req r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 8, 8 });
	char buf[32];

	ASSERT_EQ(0, param_write("max_nodes", "64"));
	ASSERT_EQ(0, param_read("max_nodes", buf, sizeof(buf)));
	ASSERT_STREQ("64", buf);
	/* exactly max_nodes is allowed */
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 8, 9 });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	/*
	 * switches count: butterfly 16 has 16 + 8*3 = 40 vertices, 32 has
	 * 32 + 16*4 = 96 (stages 1 .. n-1 are vertices, kmod/core/min.c)
	 */
	r = mk(TXNET_TOPO_BUTTERFLY, 1, (uint32_t[]){ 16 });
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	r = mk(TXNET_TOPO_BUTTERFLY, 1, (uint32_t[]){ 32 });
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	/* biswapped ring 5: 2 * 25 = 50 nodes; ring 6: 72 */
	r = mk(TXNET_TOPO_BISWAPPED, 1, (uint32_t[]){ 6 });
	r.base = TXNET_TOPO_RING;
	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
}

TEST_F(err, too_much_memory)
{
	struct txnet_req r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 16, 16 });
	struct txnet_info a;
	char budget[32];

	/* the cost of one torus 16 16, then a budget one byte short of two */
	ASSERT_EQ(0, txnl_new(&self->t, &r, &a)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	ASSERT_LT(4096, a.mem_bytes);
	snprintf(budget, sizeof(budget), "%llu", (unsigned long long)(2 * a.mem_bytes - 1));
	ASSERT_EQ(0, param_write("mem_budget", budget));
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	self->sysfs0++;
	self->threads0++;
	r.name = "bad2";
	txnl_new(&self->t, &r, NULL);
	REFUSED(ENOSPC, "mem_budget");
	EXPECT_EQ(1, txnl_count(&self->t));
	EXPECT_EQ(self->sysfs0, sysfs_count());
	EXPECT_EQ(self->threads0, kthreads_become(self->threads0));
	/* freeing the first gives its memory back */
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "bad2"));
	self->sysfs0--;
	self->threads0--;
	/* a network bigger than the whole budget */
	ASSERT_EQ(0, param_write("mem_budget", "65536"));
	r = mk(TXNET_TOPO_TORUS, 2, (uint32_t[]){ 64, 64 });
	REJECT(&r, ENOSPC, "mem_budget", r.off_dims);
}

TEST_F(err, tick_ns_range)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	uint64_t ns;

	r.has_tick = true;
	r.tick_ns = TXNET_TICK_NS_MAX + 1;
	REJECT(&r, ERANGE, NULL, -1);
	r.tick_ns = ~0ULL;
	REJECT(&r, ERANGE, NULL, -1);
	r.tick_ns = TXNET_TICK_NS_MAX;
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	ns = TXNET_TICK_NS_MAX + 1;
	txnl_set(&self->t, "bad", NULL, &ns);
	REFUSED(ERANGE, NULL);
	struct txnet_info i;

	ASSERT_EQ(0, txnl_get(&self->t, "bad", &i));
	EXPECT_EQ(TXNET_TICK_NS_MAX, i.tick_ns);
}

TEST_F(err, port_model_range)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	uint32_t pm;
	struct txnet_info i;

	r.port_model = 3;
	REJECT(&r, ERANGE, NULL, -1);
	r.port_model = 0xffffffff;
	REJECT(&r, ERANGE, NULL, -1);
	r.port_model = TXNET_PORT_SINGLE;
	ASSERT_EQ(0, txnl_new(&self->t, &r, &i)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
	pm = 3;
	txnl_set(&self->t, "bad", &pm, NULL);
	REFUSED(ERANGE, NULL);
	pm = 0;
	txnl_set(&self->t, "bad", &pm, NULL);
	REFUSED(ERANGE, NULL);
	ASSERT_EQ(0, txnl_get(&self->t, "bad", &i));
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
}

TEST_F(err, destroy_missing)
{
	txnl_del(&self->t, "nosuchnet");
	REFUSED(ENOENT, "no network");
	txnl_get(&self->t, "nosuchnet", NULL);
	REFUSED(ENOENT, "no network");
	NOTHING_LEFT();
}

TEST_F(err, destroy_twice)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	txnl_del(&self->t, "bad");
	REFUSED(ENOENT, "no network");
	NOTHING_LEFT();
}

TEST_F(err, name_missing)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	uint32_t pm = TXNET_PORT_ALL;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	txnl_del(&self->t, NULL);
	REFUSED(EINVAL, NULL);
	EXPECT_EQ(TXNET_A_NAME, self->miss);
	txnl_set(&self->t, NULL, &pm, NULL);
	REFUSED(EINVAL, NULL);
	EXPECT_EQ(TXNET_A_NAME, self->miss);
	EXPECT_EQ(1, txnl_count(&self->t));
}

TEST_F(err, set_nothing)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	uint32_t pm = TXNET_PORT_SINGLE;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	txnl_set(&self->t, "bad", NULL, NULL);
	REFUSED(EINVAL, "nothing to set");
	txnl_set(&self->t, "nosuchnet", &pm, NULL);
	REFUSED(ENOENT, "no network");
	/* read-only attributes in a SET */
	struct nl_msg *m = txnl_msg(&self->t, TXNET_CMD_SET, 0);

	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_PORT_MODEL, TXNET_PORT_SINGLE));
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_NODES, 99));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "read-only");
	m = txnl_msg(&self->t, TXNET_CMD_SET, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	ASSERT_LE(0, nla_put(m, TXNET_A_CABLES_CUT, 8, (uint32_t[]){ 0, 1 }));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "read-only");
	/* NETDEV is a flag: 0 or 1, in SET as in NEW */
	m = txnl_msg(&self->t, TXNET_CMD_SET, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_NETDEV, 2));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ERANGE, NULL);
	/* and the topology cannot be changed by SET */
	m = txnl_msg(&self->t, TXNET_CMD_SET, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_TOPOLOGY, TXNET_TOPO_TORUS));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, NULL);
	struct txnet_info i;

	ASSERT_EQ(0, txnl_get(&self->t, "bad", &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
	EXPECT_STREQ("ring 4", i.spec);
}

/* A total exchange on network "bad", to add a refused attribute to. */
static struct nl_msg *te_on_bad(struct txnl *t)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_RUN, 0);

	if (m && (nla_put_string(m, TXNET_A_NAME, "bad") < 0 ||
		  nla_put_u32(m, TXNET_A_OP, TXNET_OP_TOTAL_EXCHANGE) < 0)) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

/*
 * RUN with a schedule: each refusal names its attribute (the extack
 * offset at it), runs nothing and gives its memory back; SAVE of a prefix
 * sum and the SCHEDULE dump before any save are refused too.
 */
TEST_F(err, schedule_refusals)
{
	static const uint32_t good[] = { 0xffffffffu, 1, 0xffffffffu, 0xffffffffu, 0, 1, 0, 1 };
	static const uint32_t zero_mark[] = { 0xffffffffu, 0, 0xffffffffu, 0xffffffffu };
	static const uint32_t no_mark[] = { 0, 1, 0, 1 };
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	char used[32], after[32];
	struct txnl_netx x;
	struct nl_msg *m;
	int at;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	ASSERT_EQ(0, param_read("mem_used", used, sizeof(used)));

	m = te_on_bad(&self->t);		/* a step and a half */
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, 24, good));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "whole number of steps");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, sizeof(no_mark), no_mark));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "first step is not a tick");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, sizeof(zero_mark), zero_mark));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "advance");

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, sizeof(good), good));
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_SCHEDULE_SPEC, "ring 5"));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "another network");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, sizeof(good), good));
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_PORT_MODEL, TXNET_PORT_SINGLE));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "other port model");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SCHEDULE, sizeof(good), good));
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_ALGO, TXNET_ALGO_SHORTEST_PATH));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "replayed as it is");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);		/* replay, but nothing to replay */
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_ALGO, TXNET_ALGO_REPLAY));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EOPNOTSUPP, "schedule file");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);		/* what describes a schedule, without one */
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_PORT_MODEL, TXNET_PORT_ALL));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "does not carry");
	EXPECT_EQ(at, self->t.off);

	m = txnl_msg(&self->t, TXNET_CMD_RUN, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_OP, TXNET_OP_PREFIX_SUM));
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_SAVE, 1));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "prefix or data sum");
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);		/* save is 0 or 1 */
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_SAVE, 2));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ERANGE, NULL);
	EXPECT_EQ(at, self->t.off);

	m = txnl_msg(&self->t, TXNET_CMD_SCHEDULE, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ENODATA, "saved no moves");

	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	EXPECT_EQ(0, x.run_id);		/* no run was handed out */
	EXPECT_EQ(TXNET_STATE_IDLE, x.info.state);
	ASSERT_EQ(0, param_read("mem_used", after, sizeof(after)));
	EXPECT_STREQ(used, after);
}

/* RUN_EXPECTED is the kernel's figure in GET, never a request's: RUN refuses it, runs nothing */
TEST_F(err, run_expected_is_read_only)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	struct txnl_netx x;
	struct nl_msg *m;
	int at;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u64(m, TXNET_A_RUN_EXPECTED, 12));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "read-only");
	EXPECT_EQ(at, self->t.off);
	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	EXPECT_EQ(0, x.run_id);		/* no run was handed out */
	EXPECT_EQ(TXNET_STATE_IDLE, x.info.state);
}

/*
 * RECORD is a flag; SERIES a reply's, never a request's; a series is
 * dumped by network name, of a run that kept one; and a run too large
 * to keep one (TXNET_SERIES_MAX_PACKETS) is refused at RECORD before
 * anything runs: a total exchange on a ring of 1100 has 1100 * 1099 =
 * 1208900 packets.
 */
TEST_F(err, record_and_series)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	struct txnl_netx x;
	struct nl_msg *m;
	int at;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_RECORD, 2));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ERANGE, NULL);
	EXPECT_EQ(at, self->t.off);

	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put(m, TXNET_A_SERIES, 0, NULL));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "read-only");
	EXPECT_EQ(at, self->t.off);

	m = txnl_msg(&self->t, TXNET_CMD_SERIES, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(EINVAL, "TXNET_A_NAME");

	m = txnl_msg(&self->t, TXNET_CMD_SERIES, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "nosuch"));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ENOENT, "no network with this name");

	m = txnl_msg(&self->t, TXNET_CMD_SERIES, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "bad"));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(ENODATA, "kept no time series");

	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 1100 });
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	m = te_on_bad(&self->t);
	ASSERT_NE(NULL, m);
	at = txnl_tail(m);
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_RECORD, 1));
	txnl_xfer(&self->t, m, NULL, NULL);
	REFUSED(E2BIG, "record:");
	EXPECT_EQ(at, self->t.off);
	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	EXPECT_EQ(0, x.run_id);		/* no run was handed out */
	EXPECT_EQ(TXNET_STATE_IDLE, x.info.state);
}

/* A FAULT for network "bad": @node, or the cable @u - @v (TXN_NONE: left out), @up (-1: left out). */
static void fault_req(struct txnl *t, int node, int u, int v, int up, int *at)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_FAULT, 0);

	if (!m)
		return;
	nla_put_string(m, TXNET_A_NAME, "bad");
	if (node >= 0)
		nla_put_u32(m, TXNET_A_NODE, node);
	if (u >= 0)
		nla_put_u32(m, TXNET_A_SRC, u);
	if (at)
		*at = txnl_tail(m);
	if (v >= 0)
		nla_put_u32(m, TXNET_A_DST, v);
	if (up >= 0)
		nla_put_u8(m, TXNET_A_UP, up);
	txnl_xfer(t, m, NULL, NULL);
}

/*
 * FAULT names what is wrong with it and changes nothing: the state is
 * required and is 0 or 1; a node or a cable, not both, not neither; a
 * cable is two nodes a link joins (0 and 2 are not neighbours on a ring
 * of 4), a node a processor.  Then one that is right, undone.
 */
TEST_F(err, fault_refusals)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 4 });
	struct txnl_netx x;
	int at;

	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	fault_req(&self->t, 1, -1, -1, -1, NULL);
	REFUSED(EINVAL, "TXNET_A_UP");
	EXPECT_EQ(TXNET_A_UP, self->miss);
	fault_req(&self->t, 1, -1, -1, 2, NULL);
	REFUSED(ERANGE, NULL);
	fault_req(&self->t, -1, -1, -1, 0, NULL);
	REFUSED(EINVAL, "a node (TXNET_A_NODE) or a cable");
	fault_req(&self->t, -1, 0, -1, 0, NULL);
	REFUSED(EINVAL, "TXNET_A_DST");
	EXPECT_EQ(TXNET_A_DST, self->miss);
	fault_req(&self->t, 1, 0, 1, 0, NULL);
	REFUSED(EINVAL, "not both");
	fault_req(&self->t, -1, 0, 2, 0, &at);
	REFUSED(EINVAL, "no link joins");
	EXPECT_EQ(at, self->t.off);
	fault_req(&self->t, -1, 0, 4, 0, &at);
	REFUSED(EINVAL, "no such node");
	EXPECT_EQ(at, self->t.off);
	fault_req(&self->t, 4, -1, -1, 0, NULL);
	REFUSED(EINVAL, "not a processor");
	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	EXPECT_EQ(0, x.ncables);
	EXPECT_EQ(0, x.nnodes_down);

	/* cut 3-0 (listed as 0-3), node 2 down: GET lists them; undone, nothing */
	fault_req(&self->t, -1, 3, 0, 0, NULL);
	ASSERT_EQ(0, self->t.err) TH_LOG("%s", self->t.msg);
	fault_req(&self->t, 2, -1, -1, 0, NULL);
	ASSERT_EQ(0, self->t.err) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	ASSERT_EQ(1, x.ncables);
	EXPECT_EQ(0, x.cables[0]);
	EXPECT_EQ(3, x.cables[1]);
	ASSERT_EQ(1, x.nnodes_down);
	EXPECT_EQ(2, x.nodes_down[0]);
	fault_req(&self->t, -1, 0, 3, 1, NULL);
	fault_req(&self->t, 2, -1, -1, 1, NULL);
	ASSERT_EQ(0, txnl_getx(&self->t, "bad", &x));
	EXPECT_EQ(0, x.ncables);
	EXPECT_EQ(0, x.nnodes_down);
	txnl_del(&self->t, "bad");
	NOTHING_LEFT();
}

TEST_F(err, module_params)
{
	static const char *const bad_nodes[] = { "0", "1", "garbage", "-1", "16777217", "\n",
						 "0x10" };
	/* the budget is bounded by the machine's RAM: 2^64 - 1 would reach kvmalloc's WARN */
	static const char *const bad_budget[] = { "0", "100", "4095", "lots", "-5", "0x100000",
						  "18446744073709551615", "1099511627776000" };
	char buf[32];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_nodes); i++) {
		EXPECT_NE(0, param_write("max_nodes", bad_nodes[i]))
			TH_LOG("max_nodes accepted \"%s\"", bad_nodes[i]);
		ASSERT_EQ(0, param_read("max_nodes", buf, sizeof(buf)));
		EXPECT_STREQ(self->max_nodes, buf);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_budget); i++) {
		EXPECT_NE(0, param_write("mem_budget", bad_budget[i]))
			TH_LOG("mem_budget accepted \"%s\"", bad_budget[i]);
		ASSERT_EQ(0, param_read("mem_budget", buf, sizeof(buf)));
		EXPECT_STREQ(self->mem_budget, buf);
	}
	/* the limits of the ranges are accepted */
	EXPECT_EQ(0, param_write("max_nodes", "2"));
	EXPECT_EQ(0, param_write("max_nodes", "16777216"));
	EXPECT_EQ(0, param_write("mem_budget", "4096"));
	/* decimal only: "010" is ten, not eight */
	EXPECT_EQ(0, param_write("max_nodes", "010"));
	ASSERT_EQ(0, param_read("max_nodes", buf, sizeof(buf)));
	EXPECT_STREQ("10", buf);
	/* mem_used is read-only, and 0 with no network */
	EXPECT_NE(0, param_write("mem_used", "0"));
	ASSERT_EQ(0, param_read("mem_used", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	/* with max_nodes 2, only 2-node networks */
	EXPECT_EQ(0, param_write("max_nodes", "2"));
	EXPECT_EQ(0, param_write("mem_budget", self->mem_budget));
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 3 });

	REJECT(&r, E2BIG, "max_nodes", r.off_dims);
	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 2 });
	struct txnet_info info;

	ASSERT_EQ(0, txnl_new(&self->t, &r, &info)) TH_LOG("%s", self->t.msg);
	/* the one network holds exactly what mem_used says */
	ASSERT_EQ(0, param_read("mem_used", buf, sizeof(buf)));
	EXPECT_EQ(info.mem_bytes, strtoull(buf, NULL, 10));
	ASSERT_EQ(0, txnl_del(&self->t, "bad"));
	ASSERT_EQ(0, param_read("mem_used", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
}

/* MemTotal in bytes: the largest mem_budget the module takes. */
static unsigned long long mem_total(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/*
 * No request reaches an allocation the kernel refuses with a WARN (which
 * panics this VM: panic_on_warn).  Once, a budget of 2^64 - 1 let
 * "complete 65536" (2^32 - 2^16 links) and a run on "ring 65536" reach
 * kvmalloc() with more than INT_MAX bytes.  Now the budget stops at the
 * machine's RAM, the core refuses graphs of more than 2^29 - 1 links
 * (kmod/core/topology.h), and the run is refused by the budget.
 */
TEST_F(err, limits_never_reach_the_allocator)
{
	char budget[32];
	struct txnl_run_req q = { .name = "big", .op = TXNET_OP_TOTAL_EXCHANGE };
	struct txnet_req r;

	ASSERT_LT(0, mem_total());
	snprintf(budget, sizeof(budget), "%llu", mem_total());
	ASSERT_EQ(0, param_write("mem_budget", budget)) TH_LOG("MemTotal %s refused", budget);
	snprintf(budget, sizeof(budget), "%llu", mem_total() + 4096);
	EXPECT_NE(0, param_write("mem_budget", budget)) TH_LOG("more than RAM accepted");

	r = mk(TXNET_TOPO_COMPLETE, 1, (uint32_t[]){ 65536 });
	REJECT(&r, E2BIG, "links", r.off_dims);

	r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 65536 });
	r.name = "big";
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL)) TH_LOG("%s", self->t.msg);
	/* 65536 * 65535 packets of 20 bytes: far past any VM's RAM */
	EXPECT_EQ(-ENOSPC, txnl_run(&self->t, &q, NULL));
	EXPECT_NE(NULL, strstr(self->t.msg, "mem_budget")) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_del(&self->t, "big"));
}

/*
 * The longest spec there is fits the reply: 14 dimensions "linear:2" and
 * two "complete:2" make 65536 nodes, the default max_nodes (once: "Message
 * too long" without a message, the network silently undone).
 */
TEST_F(err, longest_spec_is_answered)
{
	struct txnet_req r = { .name = "long", .topo = TXNET_TOPO_PRODUCT, .ndims = 16 };
	struct txnet_info info;
	char want[512] = "product";

	for (int i = 0; i < 16; i++) {
		r.size[i] = 2;
		r.kind[i] = i < 14 ? TXNET_DIM_LINEAR : TXNET_DIM_COMPLETE;
		strcat(want, i < 14 ? " linear:2" : " complete:2");
	}
	ASSERT_EQ(0, txnl_new(&self->t, &r, &info)) TH_LOG("%s", self->t.msg);
	EXPECT_STREQ(want, info.spec);
	ASSERT_EQ(0, net_file("long", "topology", want, sizeof(want)));
	EXPECT_EQ(0, txnl_get(&self->t, "long", &info));
	EXPECT_EQ(65536, info.nodes);
	ASSERT_EQ(0, txnl_del(&self->t, "long"));
}

static void collect_name(const struct txnet_info *info, void *arg)
{
	strcat(arg, info->name);
	strcat(arg, " ");
}

/*
 * Unnamed networks get the smallest free txnetN, as netdevs do; only the
 * spelling pick_name() gives holds a number ("txnet07" does not hold 7).
 * A GET dump with NAME lists that network only.
 */
TEST_F(err, names_picked_and_dump_filtered)
{
	struct txnet_req r = mk(TXNET_TOPO_RING, 1, (uint32_t[]){ 3 });
	struct txnet_info info;
	char names[256] = "";
	struct nl_msg *m;

	r.name = "txnet07";
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	r.name = "txnet1";
	ASSERT_EQ(0, txnl_new(&self->t, &r, NULL));
	r.name = NULL;
	ASSERT_EQ(0, txnl_new(&self->t, &r, &info));
	EXPECT_STREQ("txnet0", info.name);
	ASSERT_EQ(0, txnl_new(&self->t, &r, &info));
	EXPECT_STREQ("txnet2", info.name);
	ASSERT_EQ(0, txnl_del(&self->t, "txnet0"));
	ASSERT_EQ(0, txnl_new(&self->t, &r, &info));
	EXPECT_STREQ("txnet0", info.name);

	m = txnl_msg(&self->t, TXNET_CMD_GET, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, "txnet1"));
	ASSERT_EQ(0, txnl_xfer(&self->t, m, collect_name, names));
	EXPECT_STREQ("txnet1 ", names);
	EXPECT_EQ(4, txnl_del_all(&self->t));
}

TEST_HARNESS_MAIN
