// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_lifecycle: names and ids, get/dump/destroy, dumps that resume
 * across messages, SET read back, NEW/DEL events, admin-only commands,
 * network namespaces, concurrent creators.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "txnet_harness.h"

FIXTURE(life) {
	struct txnl t;
};

FIXTURE_SETUP(life)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_count(&self->t));
	ASSERT_EQ(0, sysfs_count()) TH_LOG("networks of another netns are alive");
}

FIXTURE_TEARDOWN(life)
{
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

TEST_F(life, default_names)
{
	struct txnet_info i;

	/* like netdevs: the smallest free txnetN */
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i)) TH_LOG("%s", self->t.msg);
	EXPECT_STREQ("txnet0", i.name);
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet1", i.name);
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet2", i.name);
	EXPECT_TRUE(net_dir_exists("txnet0") && net_dir_exists("txnet1") &&
		    net_dir_exists("txnet2"));
	ASSERT_EQ(0, txnl_del(&self->t, "txnet1"));
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet1", i.name);
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet3", i.name);
	/* a user-given txnetN is skipped by later picks */
	ASSERT_EQ(0, txnl_ring(&self->t, "txnet4", 4, &i));
	ASSERT_EQ(0, txnl_ring(&self->t, NULL, 4, &i));
	EXPECT_STREQ("txnet5", i.name);
	EXPECT_EQ(6, txnl_count(&self->t));
}

TEST_F(life, user_name)
{
	struct txnet_info a, b;

	ASSERT_EQ(0, txnl_ring(&self->t, "mynet", 5, &a)) TH_LOG("%s", self->t.msg);
	EXPECT_STREQ("mynet", a.name);
	ASSERT_EQ(0, txnl_get(&self->t, "mynet", &b));
	EXPECT_STREQ("mynet", b.name);
	EXPECT_EQ(a.id, b.id);
	EXPECT_TRUE(net_dir_exists("mynet"));
	/* names are case-sensitive and exact: no prefix matching */
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, "MYNET", NULL));
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, "mynet0", NULL));
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, "myne", NULL));
	ASSERT_EQ(0, txnl_del(&self->t, "mynet"));
	EXPECT_FALSE(net_dir_exists("mynet"));
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, "mynet", NULL));
}

TEST_F(life, ids_unique_and_growing)
{
	struct txnet_info a, b, c;

	ASSERT_EQ(0, txnl_ring(&self->t, "a", 3, &a));
	ASSERT_EQ(0, txnl_ring(&self->t, "b", 3, &b));
	EXPECT_LT(a.id, b.id);
	ASSERT_EQ(0, txnl_del(&self->t, "b"));
	/* an id is never reused while the module is loaded */
	ASSERT_EQ(0, txnl_ring(&self->t, "b", 3, &c));
	EXPECT_LT(b.id, c.id);
	char buf[32], want[32];

	ASSERT_EQ(0, net_file("b", "id", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u", c.id);
	EXPECT_STREQ(want, buf);
}

struct seen {
	int n;
	struct txnet_info net[400];
};

static void collect(const struct txnet_info *info, void *arg)
{
	struct seen *s = arg;

	if (s->n < 400)
		s->net[s->n] = *info;
	s->n++;
}

TEST_F(life, get_dump_destroy)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct txnet_info a[3];

	ASSERT_EQ(0, txnl_ring(&self->t, "n0", 3, &a[0]));
	ASSERT_EQ(0, txnl_create(&self->t, "n1", TXNET_TOPO_TORUS, 2, (uint32_t[]){ 4, 4 }, &a[1]));
	ASSERT_EQ(0, txnl_create(&self->t, "n2", TXNET_TOPO_OMEGA, 1, (uint32_t[]){ 8 }, &a[2]));
	ASSERT_EQ(0, txnl_dump(&self->t, collect, s));
	ASSERT_EQ(3, s->n);
	for (int i = 0; i < 3; i++) {
		/* in id order, with every attribute of the GET reply */
		EXPECT_EQ(TXNET_CMD_GET, s->net[i].cmd);
		EXPECT_EQ(a[i].id, s->net[i].id);
		EXPECT_STREQ(a[i].name, s->net[i].name);
		EXPECT_STREQ(a[i].spec, s->net[i].spec);
		EXPECT_EQ(a[i].nodes, s->net[i].nodes);
		EXPECT_EQ(a[i].links, s->net[i].links);
		EXPECT_EQ(a[i].mem_bytes, s->net[i].mem_bytes);
		EXPECT_TRUE(s->net[i].has[TXNET_A_STATE] && s->net[i].has[TXNET_A_TICKS] &&
			    s->net[i].has[TXNET_A_DIMS] && s->net[i].has[TXNET_A_TICK_NS]);
	}
	ASSERT_EQ(0, txnl_del(&self->t, "n1"));
	s->n = 0;
	ASSERT_EQ(0, txnl_dump(&self->t, collect, s));
	ASSERT_EQ(2, s->n);
	EXPECT_STREQ("n0", s->net[0].name);
	EXPECT_STREQ("n2", s->net[1].name);
	EXPECT_EQ(2, sysfs_count());
	EXPECT_EQ(2, kthreads_become(2));
	free(s);
}

TEST_F_TIMEOUT(life, dump_many, 300)
{
	struct seen *s = calloc(1, sizeof(*s));
	static uint32_t id[300];
	char name[16];
	int i, j, found;

	for (i = 0; i < 300; i++) {
		struct txnet_info info;

		snprintf(name, sizeof(name), "d%03d", i);
		ASSERT_EQ(0, txnl_ring(&self->t, name, 3, &info)) TH_LOG("%s: %s", name, self->t.msg);
		id[i] = info.id;
	}
	ASSERT_EQ(0, txnl_dump(&self->t, collect, s));
	/* ~300 bytes a network: one datagram cannot hold them all */
	EXPECT_LE(2, self->t.batches) TH_LOG("dump took %d datagrams", self->t.batches);
	EXPECT_FALSE(self->t.dump_intr);
	ASSERT_EQ(300, s->n);
	for (i = 0; i < 300; i++) {
		found = 0;
		for (j = 0; j < 300; j++)
			found += s->net[j].id == id[i];
		EXPECT_EQ(1, found) TH_LOG("id %u seen %d times", id[i], found);
		/* and in id order */
		if (i)
			EXPECT_LT(s->net[i - 1].id, s->net[i].id);
	}
	EXPECT_EQ(300, sysfs_count());
	TH_LOG("300 networks dumped in %d datagrams", self->t.batches);
	/* delete every other one, dump again */
	for (i = 0; i < 300; i += 2) {
		snprintf(name, sizeof(name), "d%03d", i);
		ASSERT_EQ(0, txnl_del(&self->t, name));
	}
	s->n = 0;
	ASSERT_EQ(0, txnl_dump(&self->t, collect, s));
	ASSERT_EQ(150, s->n);
	for (i = 0; i < 150; i++) {
		snprintf(name, sizeof(name), "d%03d", 2 * i + 1);
		EXPECT_STREQ(name, s->net[i].name);
	}
	free(s);
}

TEST_F(life, set_read_back)
{
	struct txnet_info i;
	uint32_t pm = TXNET_PORT_SINGLE;
	uint64_t ns = 12345;
	char buf[64];

	ASSERT_EQ(0, txnl_ring(&self->t, "s", 4, &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
	EXPECT_EQ(0, i.tick_ns);
	ASSERT_EQ(0, txnl_set(&self->t, "s", &pm, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_get(&self->t, "s", &i));
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
	EXPECT_EQ(0, i.tick_ns);
	ASSERT_EQ(0, net_file("s", "port_model", buf, sizeof(buf)));
	EXPECT_STREQ("single", buf);
	ASSERT_EQ(0, txnl_set(&self->t, "s", NULL, &ns));
	ASSERT_EQ(0, txnl_get(&self->t, "s", &i));
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
	EXPECT_EQ(12345, i.tick_ns);
	ASSERT_EQ(0, net_file("s", "tick_ns", buf, sizeof(buf)));
	EXPECT_STREQ("12345", buf);
	pm = TXNET_PORT_ALL;
	ns = TXNET_TICK_NS_MAX;
	ASSERT_EQ(0, txnl_set(&self->t, "s", &pm, &ns));
	ASSERT_EQ(0, txnl_get(&self->t, "s", &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
	EXPECT_EQ(TXNET_TICK_NS_MAX, i.tick_ns);
	ns = 0;
	ASSERT_EQ(0, txnl_set(&self->t, "s", NULL, &ns));
	ASSERT_EQ(0, txnl_get(&self->t, "s", &i));
	EXPECT_EQ(0, i.tick_ns);
	/* NEW takes them too */
	struct txnet_req r = { .name = "s2", .topo = TXNET_TOPO_RING, .ndims = 1, .size = { 4 },
			       .port_model = TXNET_PORT_SINGLE, .has_tick = true, .tick_ns = 777 };

	ASSERT_EQ(0, txnl_new(&self->t, &r, &i));
	EXPECT_EQ(TXNET_PORT_SINGLE, i.port_model);
	EXPECT_EQ(777, i.tick_ns);
}

TEST_F(life, events)
{
	struct txnl ev;
	struct txnet_info a, e;
	uint32_t pm = TXNET_PORT_SINGLE;

	ASSERT_EQ(0, txnl_events_open(&ev));
	ASSERT_EQ(0, txnl_create(&self->t, "evt", TXNET_TOPO_TORUS, 2, (uint32_t[]){ 3, 5 }, &a));
	ASSERT_EQ(1, txnl_event(&ev, &e, 2000)) TH_LOG("no NEW event");
	EXPECT_EQ(TXNET_CMD_NEW, e.cmd);
	EXPECT_STREQ("evt", e.name);
	EXPECT_EQ(a.id, e.id);
	EXPECT_STREQ("torus 3 5", e.spec);
	EXPECT_EQ(15, e.nodes);
	/* a refused request announces nothing */
	EXPECT_EQ(-EEXIST, txnl_ring(&self->t, "evt", 4, NULL));
	EXPECT_EQ(-EINVAL, txnl_ring(&self->t, "evt2", 1, NULL));
	ASSERT_EQ(0, txnl_set(&self->t, "evt", &pm, NULL));
	ASSERT_EQ(0, txnl_del(&self->t, "evt"));
	ASSERT_EQ(1, txnl_event(&ev, &e, 2000)) TH_LOG("no DEL event");
	EXPECT_EQ(TXNET_CMD_DEL, e.cmd);
	EXPECT_STREQ("evt", e.name);
	EXPECT_EQ(a.id, e.id);
	EXPECT_EQ(0, txnl_event(&ev, &e, 200)) TH_LOG("unexpected event cmd %u", e.cmd);
	/* every create and destroy, in order */
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(0, txnl_ring(&self->t, NULL, 3, NULL));
	ASSERT_EQ(10, txnl_del_all(&self->t));
	for (int i = 0; i < 20; i++) {
		char want[16];

		snprintf(want, sizeof(want), "txnet%d", i % 10);
		ASSERT_EQ(1, txnl_event(&ev, &e, 2000)) TH_LOG("event %d missing", i);
		EXPECT_EQ(i < 10 ? TXNET_CMD_NEW : TXNET_CMD_DEL, e.cmd);
		EXPECT_STREQ(want, e.name);
	}
	txnl_close(&ev);
}

/* ---- privileges ---- */

/* Bits of the child's verdict */
enum { P_NEW = 1, P_DEL = 2, P_SET = 4, P_GET = 8, P_DUMP = 16, P_SYSFS = 32, P_OPEN = 64,
       P_GONE = 128 };

static int unprivileged_checks(void)
{
	struct txnl t;
	uint32_t pm = TXNET_PORT_SINGLE;
	int bad = 0;

	if (txnl_open(&t))
		return P_OPEN;
	if (txnl_ring(&t, "rogue", 4, NULL) != -EPERM)
		bad |= P_NEW;
	if (txnl_del(&t, "priv") != -EPERM)
		bad |= P_DEL;
	if (txnl_set(&t, "priv", &pm, NULL) != -EPERM)
		bad |= P_SET;
	if (txnl_get(&t, "priv", NULL) != 0)
		bad |= P_GET;
	if (txnl_count(&t) != 1)
		bad |= P_DUMP;
	txnl_close(&t);
	return bad;
}

static int run_child(int (*fn)(int), int arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int as_nobody(int arg)
{
	int bad;

	(void)arg;
	if (setgid(65534) || setuid(65534))
		return P_OPEN;
	bad = unprivileged_checks();
	/* sysfs settings are root's (0644) */
	if (net_file_write("priv", "port_model", "single") != -EACCES)
		bad |= P_SYSFS;
	return bad;
}

static int without_cap(int arg)
{
	(void)arg;
	if (drop_net_admin())
		return P_OPEN;
	return unprivileged_checks();
}

TEST_F(life, unprivileged_uid)
{
	struct txnet_info i;

	ASSERT_EQ(0, txnl_ring(&self->t, "priv", 4, NULL));
	EXPECT_EQ(0, run_child(as_nobody, 0));
	/* untouched */
	EXPECT_EQ(1, txnl_count(&self->t));
	ASSERT_EQ(0, txnl_get(&self->t, "priv", &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
	EXPECT_FALSE(net_dir_exists("rogue"));
}

TEST_F(life, unprivileged_no_cap_net_admin)
{
	struct txnet_info i;

	ASSERT_EQ(0, txnl_ring(&self->t, "priv", 4, NULL));
	EXPECT_EQ(0, run_child(without_cap, 0));
	EXPECT_EQ(1, txnl_count(&self->t));
	ASSERT_EQ(0, txnl_get(&self->t, "priv", &i));
	EXPECT_EQ(TXNET_PORT_ALL, i.port_model);
	EXPECT_FALSE(net_dir_exists("rogue"));
}

/* ---- network namespaces ---- */

enum { NS_UNSHARE = 1, NS_OPEN = 2, NS_CREATE = 4, NS_COUNT = 8, NS_INIT_HIDDEN = 16 };

TEST_F(life, netns)
{
	int to_child[2], to_parent[2], status, bad = 0, threads0;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, txnl_ring(&self->t, "initnet", 4, NULL));
	threads0 = kthread_count();
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct txnl t;

		if (unshare(CLONE_NEWNET)) {
			bad |= NS_UNSHARE;
		} else if (txnl_open(&t)) {
			bad |= NS_OPEN;
		} else {
			if (txnl_ring(&t, "nsnet", 6, NULL))
				bad |= NS_CREATE;
			/* only its own network: initnet is invisible here */
			if (txnl_count(&t) != 1 || txnl_get(&t, "initnet", NULL) != -ENOENT)
				bad |= NS_COUNT;
			/* names are global (one sysfs tree): initnet is taken */
			if (txnl_ring(&t, "initnet", 6, NULL) != -EEXIST)
				bad |= NS_COUNT;
			txnl_close(&t);
		}
		c = (char)bad;
		if (write(to_parent[1], &c, 1) != 1)
			_exit(100);
		/* keep the netns alive until the parent has looked */
		if (read(to_child[0], &c, 1) != 1)
			_exit(101);
		_exit(bad);
	}
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	EXPECT_EQ(0, c) TH_LOG("child failed: %d", c);
	/* invisible from the init netns, but it has its sysfs directory */
	EXPECT_EQ(1, txnl_count(&self->t));
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, "nsnet", NULL));
	EXPECT_EQ(-ENOENT, txnl_del(&self->t, "nsnet"));
	EXPECT_TRUE(net_dir_exists("nsnet"));
	EXPECT_EQ(-EEXIST, txnl_ring(&self->t, "nsnet", 4, NULL));
	EXPECT_EQ(threads0 + 1, kthreads_become(threads0 + 1));
	/* let the child and its netns go */
	ASSERT_EQ(1, write(to_child[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* netns teardown is asynchronous (cleanup_net): wait up to 10 s */
	for (int i = 0; i < 100 && net_dir_exists("nsnet"); i++)
		sleep_ms(100);
	EXPECT_FALSE(net_dir_exists("nsnet")) TH_LOG("network outlived its netns");
	EXPECT_EQ(threads0, kthreads_become(threads0));
	EXPECT_EQ(1, sysfs_count());
	/* the name is free again */
	ASSERT_EQ(0, txnl_ring(&self->t, "nsnet", 4, NULL));
}

/* ---- concurrency ---- */

#define ITER 200

static int churn(int who)
{
	struct txnl t;
	char name[16];
	int bad = 0;

	if (txnl_open(&t))
		return 1;
	for (int i = 0; i < ITER; i++) {
		snprintf(name, sizeof(name), "c%d_%d", who, i % 7);
		if (txnl_create(&t, name, TXNET_TOPO_TORUS, 2, (uint32_t[]){ 4, 4 }, NULL))
			bad++;
		if (i % 7 == 6 || i == ITER - 1) {
			for (int j = 0; j <= i % 7; j++) {
				snprintf(name, sizeof(name), "c%d_%d", who, j);
				if (txnl_del(&t, name))
					bad++;
			}
		}
	}
	txnl_close(&t);
	return bad > 100 ? 100 : bad;
}

static int dumper(int rounds)
{
	struct txnl t;
	int bad = 0;

	if (txnl_open(&t))
		return 1;
	for (int i = 0; i < rounds; i++) {
		int n = txnl_count(&t);

		/* at most 7 live networks per churner */
		if (n < 0 || n > 14) {
			fprintf(stderr, "dumper: %d networks (%s)\n", n, n < 0 ? t.msg : "");
			bad++;
		}
	}
	txnl_close(&t);
	return bad > 100 ? 100 : bad;
}

static int race_same_name(int who)
{
	struct txnl t;
	int bad = 0, ret;

	if (txnl_open(&t))
		return 1;
	for (int i = 0; i < ITER; i++) {
		ret = txnl_ring(&t, "contended", 3, NULL);
		if (ret && ret != -EEXIST)
			bad++;
		ret = txnl_del(&t, "contended");
		if (ret && ret != -ENOENT)
			bad++;
	}
	(void)who;
	txnl_close(&t);
	return bad > 100 ? 100 : bad;
}

static pid_t spawn(int (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (!pid)
		_exit(fn(arg));
	return pid;
}

TEST_F_TIMEOUT(life, concurrent_create_destroy, 300)
{
	pid_t p[3];
	int status;

	p[0] = spawn(churn, 0);
	p[1] = spawn(churn, 1);
	p[2] = spawn(dumper, 300);
	for (int i = 0; i < 3; i++) {
		ASSERT_LT(0, p[i]);
		ASSERT_EQ(p[i], waitpid(p[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child %d: %d failures", i,
							 WEXITSTATUS(status));
	}
	EXPECT_EQ(0, txnl_count(&self->t));
	EXPECT_EQ(0, sysfs_count());
	EXPECT_EQ(0, kthreads_become(0));
}

TEST_F_TIMEOUT(life, concurrent_same_name, 300)
{
	pid_t p[2];
	int status;

	p[0] = spawn(race_same_name, 0);
	p[1] = spawn(race_same_name, 1);
	for (int i = 0; i < 2; i++) {
		ASSERT_LT(0, p[i]);
		ASSERT_EQ(p[i], waitpid(p[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	EXPECT_EQ(0, txnl_count(&self->t));
	EXPECT_EQ(0, sysfs_count());
	EXPECT_EQ(0, kthreads_become(0));
}

TEST_HARNESS_MAIN
