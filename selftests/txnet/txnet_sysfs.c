// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_sysfs: /sys/kernel/txnet/<net>/ has exactly the documented files,
 * each with the value netlink reports; port_model and tick_ns can be
 * written, bad writes fail and change nothing; read-only files refuse
 * writes; the directory follows the network's life.
 */
#include <string.h>
#include <sys/stat.h>

#include "txnet_harness.h"

/* Subdirectories: last/ holds the last finished run (run tests cover it). */
static const char *const subdirs[] = { "last" };

static const char *const files[] = {
	"id", "topology", "nodes", "switches", "links", "diameter",
	"port_model", "tick_ns", "state", "ticks", "mem_bytes",
	"ports_in_flight", "ports_unread",
};

FIXTURE(sys) {
	struct txnl t;
	struct txnet_info i;
};

FIXTURE_SETUP(sys)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_create(&self->t, "sy", TXNET_TOPO_TORUS, 2, (uint32_t[]){ 8, 8 },
				 &self->i)) TH_LOG("%s", self->t.msg);
}

FIXTURE_TEARDOWN(sys)
{
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

#define FILE_IS(file, fmt, ...) do {					\
		char _got[256], _want[256];				\
									\
		ASSERT_EQ(0, net_file("sy", file, _got, sizeof(_got))) TH_LOG("%s", file); \
		snprintf(_want, sizeof(_want), fmt, ##__VA_ARGS__);	\
		EXPECT_STREQ(_want, _got) TH_LOG("file %s", file);	\
	} while (0)

TEST_F(sys, root_directory)
{
	struct stat st;

	ASSERT_EQ(0, stat(TXNET_SYSFS, &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, stat(TXNET_SYSFS "/sy", &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(1, sysfs_count());
}

TEST_F(sys, exactly_the_documented_files)
{
	struct dirent *de;
	DIR *d = opendir(TXNET_SYSFS "/sy");
	int n = 0;

	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		bool known = false;
		char path[300];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), TXNET_SYSFS "/sy/%s", de->d_name);
		ASSERT_EQ(0, stat(path, &st));
		if (S_ISDIR(st.st_mode)) {
			for (unsigned int k = 0; k < ARRAY_SIZE(subdirs); k++)
				known |= !strcmp(subdirs[k], de->d_name);
			EXPECT_TRUE(known) TH_LOG("undocumented directory %s", de->d_name);
			continue;
		}
		for (unsigned int k = 0; k < ARRAY_SIZE(files); k++)
			known |= !strcmp(files[k], de->d_name);
		EXPECT_TRUE(known) TH_LOG("undocumented file %s", de->d_name);
		n++;
	}
	closedir(d);
	EXPECT_EQ(ARRAY_SIZE(files), n);
}

TEST_F(sys, modes)
{
	char path[256];
	struct stat st;

	for (unsigned int k = 0; k < ARRAY_SIZE(files); k++) {
		bool rw = !strcmp(files[k], "port_model") || !strcmp(files[k], "tick_ns");

		snprintf(path, sizeof(path), TXNET_SYSFS "/sy/%s", files[k]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", files[k]);
		EXPECT_EQ(rw ? 0644 : 0444, st.st_mode & 0777) TH_LOG("%s", files[k]);
	}
}

TEST_F(sys, values)
{
	struct txnet_info *i = &self->i;

	FILE_IS("id", "%u", i->id);
	FILE_IS("topology", "torus 8 8");
	/* torus 8 8: 64 nodes, 2*2*64 = 256 links, diameter 4 + 4 */
	FILE_IS("nodes", "64");
	FILE_IS("switches", "0");
	FILE_IS("links", "256");
	FILE_IS("diameter", "8");
	FILE_IS("port_model", "all");
	FILE_IS("tick_ns", "0");
	FILE_IS("state", "idle");
	FILE_IS("ticks", "%llu", (unsigned long long)i->ticks);
	FILE_IS("mem_bytes", "%llu", (unsigned long long)i->mem_bytes);
	FILE_IS("ports_in_flight", "%u", 0U);
	FILE_IS("ports_unread", "%u", 0U);
	/*
	 * CSR graph: (64 + 1) * 4 + 3 * 256 * 4 bytes, plus the network struct
	 * and the tick thread's stack (THREAD_SIZE, 16 KiB on x86-64, 32 KiB
	 * with KASAN: the debug kernel)
	 */
	EXPECT_LE(65 * 4 + 3 * 256 * 4 + 16384, i->mem_bytes);
	EXPECT_GT(65 * 4 + 3 * 256 * 4 + 16384 + 32768, i->mem_bytes);
}

TEST_F(sys, min_values)
{
	ASSERT_EQ(0, txnl_del(&self->t, "sy"));
	ASSERT_EQ(0, txnl_create(&self->t, "sy", TXNET_TOPO_BASELINE, 1, (uint32_t[]){ 16 },
				 &self->i));
	FILE_IS("topology", "baseline 16");
	/*
	 * 16 processors, 8 * 3 switches (stage 0's are the processors' lines,
	 * kmod/core/min.c), 5 * 16 one-way links, a path crosses 4 stages in 4
	 */
	FILE_IS("nodes", "16");
	FILE_IS("switches", "24");
	FILE_IS("links", "80");
	FILE_IS("diameter", "4");
	ASSERT_EQ(0, txnl_del(&self->t, "sy"));
	struct txnet_req r = { .name = "sy", .topo = TXNET_TOPO_PRODUCT, .ndims = 2,
			       .size = { 3, 4 }, .kind = { TXNET_DIM_COMPLETE, TXNET_DIM_LINEAR } };

	ASSERT_EQ(0, txnl_new(&self->t, &r, &self->i));
	FILE_IS("topology", "product complete:3 linear:4");
	ASSERT_EQ(0, txnl_del(&self->t, "sy"));
	r = (struct txnet_req){ .name = "sy", .topo = TXNET_TOPO_BISWAPPED,
				.base = TXNET_TOPO_MESH, .ndims = 2, .size = { 3, 3 } };
	ASSERT_EQ(0, txnl_new(&self->t, &r, &self->i));
	FILE_IS("topology", "biswapped mesh 3 3");
	FILE_IS("nodes", "162");
}

TEST_F(sys, port_model_write)
{
	struct txnet_info i;

	ASSERT_EQ(0, net_file_write("sy", "port_model", "single"));
	FILE_IS("port_model", "single");
	ASSERT_EQ(0, txnl_get(&self->t, "sy", &i));
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
	/* with and without the newline echo adds */
	ASSERT_EQ(0, net_file_write("sy", "port_model", "all\n"));
	FILE_IS("port_model", "all");
	ASSERT_EQ(0, txnl_get(&self->t, "sy", &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
}

TEST_F(sys, port_model_bad_writes)
{
	static const char *const bad[] = { "bogus", "", "\n", "1", "2", "All", "singlex", "al",
					   "single single", "-1" };

	ASSERT_EQ(0, net_file_write("sy", "port_model", "single"));
	for (unsigned int k = 0; k < ARRAY_SIZE(bad); k++) {
		int ret = net_file_write("sy", "port_model", bad[k]);

		/* a zero-length write() never reaches the kernel's store */
		if (!bad[k][0])
			continue;
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\" gave %d", bad[k], ret);
		FILE_IS("port_model", "single");
	}
}

TEST_F(sys, tick_ns_write)
{
	struct txnet_info i;

	ASSERT_EQ(0, net_file_write("sy", "tick_ns", "5000"));
	FILE_IS("tick_ns", "5000");
	ASSERT_EQ(0, txnl_get(&self->t, "sy", &i));
	EXPECT_EQ(5000, i.tick_ns);
	ASSERT_EQ(0, net_file_write("sy", "tick_ns", "1000000000\n"));
	FILE_IS("tick_ns", "1000000000");
	ASSERT_EQ(0, net_file_write("sy", "tick_ns", "0"));
	FILE_IS("tick_ns", "0");
}

TEST_F(sys, tick_ns_bad_writes)
{
	static const struct { const char *val; int err; } bad[] = {
		{ "bogus", -EINVAL }, { "-1", -EINVAL }, { "12abc", -EINVAL }, { "\n", -EINVAL },
		{ "1.5", -EINVAL }, { "2000000000", -ERANGE }, { "1000000001", -ERANGE },
		{ "18446744073709551615", -ERANGE }, { "18446744073709551616", -ERANGE },
	};

	ASSERT_EQ(0, net_file_write("sy", "tick_ns", "42"));
	for (unsigned int k = 0; k < ARRAY_SIZE(bad); k++) {
		int ret = net_file_write("sy", "tick_ns", bad[k].val);

		EXPECT_EQ(bad[k].err, ret) TH_LOG("\"%s\" gave %d", bad[k].val, ret);
		FILE_IS("tick_ns", "42");
	}
	struct txnet_info i;

	ASSERT_EQ(0, txnl_get(&self->t, "sy", &i));
	EXPECT_EQ(42, i.tick_ns);
}

TEST_F(sys, read_only_files)
{
	for (unsigned int k = 0; k < ARRAY_SIZE(files); k++) {
		if (!strcmp(files[k], "port_model") || !strcmp(files[k], "tick_ns"))
			continue;
		/* even root cannot open a file without a store method for writing */
		EXPECT_EQ(-EACCES, net_file_write("sy", files[k], "1")) TH_LOG("%s", files[k]);
	}
	FILE_IS("nodes", "64");
}

TEST_F(sys, follows_the_network)
{
	ASSERT_TRUE(net_dir_exists("sy"));
	ASSERT_EQ(0, txnl_ring(&self->t, "sy2", 3, NULL));
	EXPECT_TRUE(net_dir_exists("sy2"));
	EXPECT_EQ(2, sysfs_count());
	ASSERT_EQ(0, txnl_del(&self->t, "sy"));
	EXPECT_FALSE(net_dir_exists("sy"));
	EXPECT_EQ(1, sysfs_count());
	ASSERT_EQ(0, txnl_del(&self->t, "sy2"));
	EXPECT_EQ(0, sysfs_count());
}

TEST_F(sys, open_file_survives_destroy)
{
	char buf[64];
	int fd, n;

	/* a reader holding a file open while the network dies: no crash, no UAF */
	fd = open(TXNET_SYSFS "/sy/nodes", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, txnl_del(&self->t, "sy"));
	n = (int)pread(fd, buf, sizeof(buf), 0);
	EXPECT_TRUE(n < 0 && errno == ENODEV) TH_LOG("read after destroy gave %d", n);
	close(fd);
	fd = open(TXNET_SYSFS "/sy/nodes", O_RDONLY);
	EXPECT_GT(0, fd);
}

TEST_HARNESS_MAIN
