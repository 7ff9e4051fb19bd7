// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_module: unloading with networks alive, readers of a dead network's
 * sysfs files, and autoload of the module by a genetlink family lookup
 * (MODULE_ALIAS_GENL_FAMILY).  Runs last: it unloads and reloads txnet.
 * Every test leaves the module loaded.
 */
#include <string.h>
#include <sys/stat.h>

#include "txnet_harness.h"

static bool loaded(void)
{
	return access("/sys/module/txnet", F_OK) == 0;
}

static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

FIXTURE(mod) {
	struct txnl t;
};

FIXTURE_SETUP(mod)
{
	if (!loaded())
		ASSERT_EQ(0, sh("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(&self->t));
	ASSERT_LE(0, txnl_del_all(&self->t));
}

FIXTURE_TEARDOWN(mod)
{
	txnl_close(&self->t);
	if (!loaded())
		sh("modprobe txnet");
}

TEST_F_TIMEOUT(mod, rmmod_with_networks, 120)
{
	struct txnl ev;
	struct txnet_info e;
	char name[16];
	int fd, n, dels = 0;

	ASSERT_EQ(0, txnl_events_open(&ev));
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "rm%d", i);
		ASSERT_EQ(0, txnl_create(&self->t, name, TXNET_TOPO_HYPERCUBE, 1,
					 (uint32_t[]){ (uint32_t)(i + 2) }, NULL));
	}
	ASSERT_EQ(0, txnl_create(&self->t, "rmbig", TXNET_TOPO_TORUS, 2,
				 (uint32_t[]){ 128, 128 }, NULL));
	for (int i = 0; i < 6; i++)
		ASSERT_EQ(1, txnl_event(&ev, &e, 2000));
	EXPECT_EQ(6, kthreads_become(6));
	/* a reader with a file open across the unload */
	fd = open(TXNET_SYSFS "/rm0/nodes", O_RDONLY);
	ASSERT_LE(0, fd);
	txnl_close(&self->t);

	ASSERT_EQ(0, sh("rmmod txnet"));
	EXPECT_FALSE(loaded());
	EXPECT_NE(0, access(TXNET_SYSFS, F_OK)) TH_LOG("/sys/kernel/txnet outlived the module");
	EXPECT_EQ(0, kthreads_become(0));
	n = (int)pread(fd, name, sizeof(name), 0);
	EXPECT_TRUE(n < 0) TH_LOG("read of a dead file gave %d bytes", n);
	close(fd);
	/* every network was announced as destroyed */
	while (txnl_event(&ev, &e, 500) == 1) {
		EXPECT_EQ(TXNET_CMD_DEL, e.cmd);
		dels++;
	}
	EXPECT_EQ(6, dels);
	txnl_close(&ev);

	ASSERT_EQ(0, sh("modprobe txnet"));
	ASSERT_TRUE(loaded());
	ASSERT_EQ(0, txnl_open(&self->t));
	EXPECT_EQ(0, txnl_count(&self->t));
	EXPECT_EQ(0, sysfs_count());
	/* and it works again, with default parameters */
	char buf[32];

	ASSERT_EQ(0, param_read("max_nodes", buf, sizeof(buf)));
	EXPECT_STREQ("65536", buf);
	ASSERT_EQ(0, param_read("mem_budget", buf, sizeof(buf)));
	EXPECT_STREQ("268435456", buf);
	struct txnet_info i;

	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet0", i.name);
	ASSERT_EQ(0, txnl_del(&self->t, "txnet0"));
}

TEST(rmmod_empty_and_reload_loop)
{
	struct txnl t;

	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(0, sh("rmmod txnet")) TH_LOG("round %d", i);
		ASSERT_FALSE(loaded());
		ASSERT_EQ(0, sh("modprobe txnet"));
		ASSERT_TRUE(loaded());
		ASSERT_EQ(0, txnl_open(&t));
		ASSERT_EQ(0, txnl_ring(&t, "loop", 3, NULL));
		txnl_close(&t);
	}
	/* the last "loop" dies with the next unload; remove it now */
	ASSERT_EQ(0, txnl_open(&t));
	ASSERT_EQ(0, txnl_del(&t, "loop"));
	txnl_close(&t);
}

TEST(autoload_by_family_lookup)
{
	struct txnl t;

	ASSERT_EQ(0, sh("rmmod txnet"));
	ASSERT_FALSE(loaded());
	/* CTRL_CMD_GETFAMILY "txnet" -> request_module("net-pf-16-proto-16-family-txnet") */
	ASSERT_EQ(0, txnl_open(&t)) TH_LOG("family lookup did not load the module");
	EXPECT_TRUE(loaded());
	EXPECT_EQ(0, txnl_count(&t));
	ASSERT_EQ(0, txnl_ring(&t, "auto", 3, NULL));
	ASSERT_EQ(0, txnl_del(&t, "auto"));
	txnl_close(&t);
}

TEST(autoload_by_txctl)
{
	ASSERT_EQ(0, sh("rmmod txnet"));
	ASSERT_FALSE(loaded());
	if (sh("command -v txctl >/dev/null") != 0) {
		sh("modprobe txnet");
		SKIP(return, "txctl not on PATH");
	}
	EXPECT_EQ(0, sh("txctl show >/dev/null"));
	EXPECT_TRUE(loaded());
}

TEST_HARNESS_MAIN
