// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_failslab: every allocation txnet makes while handling a request can
 * fail, one at a time, and the request then either still succeeds or fails
 * cleanly: an errno with an extack message, nothing left behind (no extra
 * /sys/kernel/txnet entry, no extra tick thread, mem_used back where it
 * was), and the module keeps working.
 *
 * How: failslab and fail_page_alloc (debugfs) with /proc/thread-self/fail-nth.
 * Writing N there makes the Nth allocation of this thread that passes the
 * filters fail; the genetlink doit runs in the sender's context, so the
 * request's own allocations are counted.  Reading it back gives 0 once the
 * failure was injected, the remaining count when the request never reached
 * the Nth allocation: that ends the sweep.  The stack-trace filter
 * (require-start/require-end) limits counting to allocations made with
 * txnet's code on the stack, so netlink's own (the request skb, the ack)
 * never fail here.  verbose is 0: a forced failure must not print a stack
 * (the VM runner fails on "Call Trace").  To see where each failure was
 * injected, run it by hand with TXNET_FAILSLAB_VERBOSE=2 (a stack per
 * failure in the kernel log; the run then fails, on purpose).
 *
 * SKIPs on kernels without fault injection (Debian's); runs on the debug
 * kernel (selftests/vm/kernels).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "txnet_harness.h"

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define MAX_NTH		1000	/* a request making more allocations is a bug of its own */
#define RUN_MS		60000
#define WAIT_MS		20000

/* What a request may leave behind. */
struct footprint {
	int sysfs;		/* entries under /sys/kernel/txnet */
	int kthreads;		/* txnet/<name> threads */
	long long mem_used;	/* -1: no mem_used parameter */
	int nets;		/* networks in this netns */
};

FIXTURE(fs) {
	struct txnl t;
	bool filtered;		/* stack-trace filter on txnet's text */
	bool have_mem_used;
	int injected, ok_despite, failed;
};

static int write_dbg(const char *dir, const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_str(path, val);
}

static long long mem_used(void)
{
	char buf[64];

	if (param_read("mem_used", buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 0);
}

static void footprint(struct txnl *t, struct footprint *f)
{
	f->sysfs = sysfs_count();
	f->kthreads = kthread_count();
	f->mem_used = mem_used();
	f->nets = txnl_count(t);
}

/* The address range of txnet's code: [start, end); 0 or -errno. */
static int txnet_text(unsigned long long *start, unsigned long long *end)
{
	char buf[256], line[512];
	unsigned long long size = 0;
	FILE *f;
	int ret;

	ret = read_str("/sys/module/txnet/sections/.text", buf, sizeof(buf));
	if (ret)
		return ret;
	*start = strtoull(buf, NULL, 16);
	if (!*start)
		return -EPERM;	/* addresses hidden (kptr_restrict) */
	f = fopen("/proc/modules", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "txnet ", 6)) {
			size = strtoull(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	if (!size)
		return -ENOENT;
	/*
	 * /proc/modules gives the size of all of the module's memory, of
	 * which .text is the first part: the range may reach past the code,
	 * into txnet's own data, never into another module's code (the test
	 * VM loads no other module).
	 */
	*end = *start + size;
	return 0;
}

/* Configure failslab and fail_page_alloc for fail-nth only; 0 or -errno. */
static int setup_inject(const char *dir, bool filter, unsigned long long start,
			unsigned long long end)
{
	char val[64];
	int ret = 0;

	/* probability 0: nothing fails but through fail-nth */
	ret = ret ?: write_dbg(dir, "probability", "0");
	ret = ret ?: write_dbg(dir, "interval", "1");
	ret = ret ?: write_dbg(dir, "times", "-1");
	ret = ret ?: write_dbg(dir, "space", "0");
	ret = ret ?: write_dbg(dir, "verbose", getenv("TXNET_FAILSLAB_VERBOSE") ?: "0");
	ret = ret ?: write_dbg(dir, "task-filter", "N");
	/* GFP_KERNEL allocations are the ones txnet makes */
	ret = ret ?: write_dbg(dir, "ignore-gfp-wait", "N");
	if (!strcmp(dir, FAILPAGE)) {
		ret = ret ?: write_dbg(dir, "min-order", "0");
		ret = ret ?: write_dbg(dir, "ignore-gfp-highmem", "N");
	}
	if (filter) {
		ret = ret ?: write_dbg(dir, "stacktrace-depth", "32");
		snprintf(val, sizeof(val), "%llu", start);
		ret = ret ?: write_dbg(dir, "require-start", val);
		snprintf(val, sizeof(val), "%llu", end);
		ret = ret ?: write_dbg(dir, "require-end", val);
		ret = ret ?: write_dbg(dir, "reject-start", "0");
		ret = ret ?: write_dbg(dir, "reject-end", "0");
	}
	return ret;
}

static void reset_inject(const char *dir)
{
	write_dbg(dir, "require-start", "0");
	write_dbg(dir, "require-end", "18446744073709551615");
	write_dbg(dir, "stacktrace-depth", "32");
}

/*
 * Out of line: inlined into the harness's wrapper, a larger setup makes gcc
 * warn that the wrapper's setjmp may clobber its 'child' variable.
 */
static __attribute__((noinline)) void fs_do_setup(struct __test_metadata *_metadata,
					       FIXTURE_DATA(fs) *self)
{
	unsigned long long start = 0, end = 0;
	int ret;

	if (access(FAILSLAB, F_OK) || access(FAIL_NTH, F_OK))
		SKIP(return, "no failslab or fail-nth (kernel without CONFIG_FAILSLAB, "
		     "CONFIG_FAULT_INJECTION_DEBUG_FS)");
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	self->filtered = !access(FAILSLAB "/require-start", F_OK);
	if (self->filtered) {
		ret = txnet_text(&start, &end);
		ASSERT_EQ(0, ret) TH_LOG("txnet's text range: %s", strerror(-ret));
	} else {
		TH_LOG("no stack-trace filter: allocations outside txnet fail too");
	}
	ASSERT_EQ(0, setup_inject(FAILSLAB, self->filtered, start, end));
	if (!access(FAILPAGE, F_OK))
		ASSERT_EQ(0, setup_inject(FAILPAGE, self->filtered, start, end));
	self->have_mem_used = mem_used() >= 0;
	if (!self->have_mem_used)
		TH_LOG("no " TXNET_PARAMS "/mem_used: memory accounting not checked");
}

FIXTURE_SETUP(fs)
{
	fs_do_setup(_metadata, self);
}

static __attribute__((noinline)) void fs_do_teardown(FIXTURE_DATA(fs) *self)
{
	write_str(FAIL_NTH, "0");
	if (self->filtered) {
		reset_inject(FAILSLAB);
		if (!access(FAILPAGE, F_OK))
			reset_inject(FAILPAGE);
	}
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

FIXTURE_TEARDOWN(fs)
{
	fs_do_teardown(self);
}

/* Arm the Nth allocation of this thread to fail. */
static int arm(int n)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", n);
	return write_str(FAIL_NTH, val);
}

/* Disarm; true when the armed failure was injected. */
static bool disarm(void)
{
	char buf[32] = "";
	bool hit;

	read_str(FAIL_NTH, buf, sizeof(buf));
	hit = !strcmp(buf, "0");
	write_str(FAIL_NTH, "0");
	return hit;
}

/*
 * The outcome of one request with the Nth allocation failed: success, or an
 * errno with an extack message.  Returns false (and records a failure) when
 * it was neither.
 */
static bool outcome_ok(struct __test_metadata *_metadata, FIXTURE_DATA(fs) *self,
		       const char *op, int n, int ret, bool hit)
{
	if (!hit) {
		EXPECT_EQ(0, ret) TH_LOG("%s: no injection at %d, yet %d '%s'", op, n, ret,
					 self->t.msg);
		return ret == 0;
	}
	self->injected++;
	if (!ret) {
		self->ok_despite++;
		return true;
	}
	self->failed++;
	EXPECT_GT(0, ret) TH_LOG("%s: allocation %d failed: bad return %d", op, n, ret);
	EXPECT_NE(-EIO, ret) TH_LOG("%s: allocation %d failed: no answer from the kernel", op, n);
	if (self->filtered || self->t.msg[0]) {
		EXPECT_NE(0, self->t.msg[0])
			TH_LOG("%s: allocation %d failed with %d (%s) and no extack message",
			       op, n, ret, strerror(-ret));
	} else {
		TH_LOG("%s: allocation %d: %d without extack (unfiltered: may be outside txnet)",
		       op, n, ret);
	}
	return ret < 0 && ret != -EIO && (self->t.msg[0] || !self->filtered);
}

static void expect_footprint(struct __test_metadata *_metadata, const char *op, int n,
			     const struct footprint *want, const struct footprint *got)
{
	EXPECT_EQ(want->sysfs, got->sysfs) TH_LOG("%s %d: /sys/kernel/txnet entries", op, n);
	EXPECT_EQ(want->kthreads, got->kthreads) TH_LOG("%s %d: txnet threads", op, n);
	EXPECT_EQ(want->nets, got->nets) TH_LOG("%s %d: networks", op, n);
	if (want->mem_used >= 0)
		EXPECT_EQ(want->mem_used, got->mem_used)
			TH_LOG("%s %d: mem_used %lld, was %lld", op, n, got->mem_used,
			       want->mem_used);
}

/*
 * The RUN_DONE of @run_id.  An event the kernel could not copy to the
 * events socket (an injected failure in a request's multicast) shows up
 * there as ENOBUFS: keep listening.
 */
static int wait_done(struct txnl *ev, const char *net, uint32_t run_id, struct txnl_result *res)
{
	int ret, tries = 0;

	do
		ret = txnl_run_done(ev, net, run_id, RUN_MS, res);
	while (ret == -ENOBUFS && ++tries < 100);
	return ret;
}

/* A full create, run, destroy cycle works. */
static void still_works(struct __test_metadata *_metadata, FIXTURE_DATA(fs) *self)
{
	struct txnl_result res;
	struct footprint f0, f1;
	uint32_t run_id = 0;
	struct txnl ev;

	footprint(&self->t, &f0);
	ASSERT_EQ(0, txnl_events_open(&ev));
	ASSERT_EQ(0, txnl_ring(&self->t, "fsok", 6, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_run_algo(&self->t, "fsok", TXNET_ALGO_AUTO, &run_id))
		TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, wait_done(&ev, "fsok", run_id, &res));
	txnl_close(&ev);
	EXPECT_EQ(TXNET_RUN_DONE, res.status);
	EXPECT_EQ(1, res.verified);
	ASSERT_EQ(0, txnl_del(&self->t, "fsok")) TH_LOG("%s", self->t.msg);
	footprint(&self->t, &f1);
	expect_footprint(_metadata, "afterwards", 0, &f0, &f1);
}

static void summary(struct __test_metadata *_metadata, FIXTURE_DATA(fs) *self, const char *op,
		    int n)
{
	TH_LOG("%s: %d allocations failed in turn: %d requests failed cleanly, %d succeeded anyway",
	       op, n - 1, self->failed, self->ok_despite);
	EXPECT_LT(0, self->injected) TH_LOG("%s: no allocation was ever failed", op);
}

/* A ring of 8, fsnew. */
static int create_ring(struct txnl *t)
{
	return txnl_ring(t, "fsnew", 8, NULL);
}

/* fsnew from its cables: processors 0 .. 3 round switch 4, file numbers given. */
static int create_graph(struct txnl *t)
{
	static const uint32_t cables[] = { 0, 4, 1, 4, 2, 4, 3, 4, 0, 1 };
	static const uint32_t ids[] = { 2, 3, 5, 7, 11 };
	struct txnet_req r = {
		.name = "fsnew", .topo = TXNET_TOPO_GRAPH, .ndims = 2, .size = { 4, 1 },
		.cables = cables, .ncables = 5, .chunk = 2, .ids = ids, .nids = 5,
	};

	return txnl_new(t, &r, NULL);
}

/* NEW by @create: a failed create leaves nothing; a successful one is destroyed. */
static void sweep_create(struct __test_metadata *_metadata, FIXTURE_DATA(fs) *self,
			 const char *op, int (*create)(struct txnl *t))
{
	struct footprint f0, f1;
	bool hit;
	int n, ret;

	footprint(&self->t, &f0);
	for (n = 1; n <= MAX_NTH; n++) {
		ASSERT_EQ(0, arm(n));
		ret = create(&self->t);
		hit = disarm();
		if (!outcome_ok(_metadata, self, op, n, ret, hit) && !hit)
			break;
		if (!ret) {
			EXPECT_TRUE(net_dir_exists("fsnew"));
			ASSERT_EQ(0, txnl_del(&self->t, "fsnew")) TH_LOG("%s", self->t.msg);
		}
		footprint(&self->t, &f1);
		expect_footprint(_metadata, op, n, &f0, &f1);
		if (!hit)
			break;
	}
	EXPECT_GE(MAX_NTH, n);
	summary(_metadata, self, op, n);
	still_works(_metadata, self);
}

TEST_F_TIMEOUT(fs, create, 900)
{
	sweep_create(_metadata, self, "create", create_ring);
}

/* A graph's lists, joined and charged, then its graph and searches, fail in turn too. */
TEST_F_TIMEOUT(fs, create_graph, 900)
{
	sweep_create(_metadata, self, "create graph", create_graph);
}

/*
 * @r on a ring of @size named r->name, each allocation failed in turn: a
 * failed start leaves the network idle and nothing charged; a started run
 * completes, verified (in @steps ticks, when not 0).
 */
static void sweep_run(struct __test_metadata *_metadata, FIXTURE_DATA(fs) *self,
		      const char *op, struct txnl_run_req *r, uint32_t size, uint64_t steps)
{
	struct footprint f0, f1;
	struct txnl_result res;
	struct txnl_netx x;
	uint32_t run_id;
	struct txnl ev;
	bool hit;
	int n, ret;

	ASSERT_EQ(0, txnl_ring(&self->t, r->name, size, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_events_open(&ev));
	footprint(&self->t, &f0);
	for (n = 1; n <= MAX_NTH; n++) {
		run_id = 0;
		ASSERT_EQ(0, arm(n));
		ret = txnl_run(&self->t, r, &run_id);
		hit = disarm();
		if (!outcome_ok(_metadata, self, op, n, ret, hit) && !hit)
			break;
		if (!ret) {
			ASSERT_EQ(1, wait_done(&ev, r->name, run_id, &res))
				TH_LOG("%s %d: no RUN_DONE for run %u", op, n, run_id);
			EXPECT_EQ(TXNET_RUN_DONE, res.status) TH_LOG("%s %d: %s", op, n, res.error);
			EXPECT_EQ(1, res.verified);
			if (steps)
				EXPECT_EQ(steps, res.steps);
		} else {
			ASSERT_EQ(0, txnl_getx(&self->t, r->name, &x)) TH_LOG("%s", self->t.msg);
			EXPECT_EQ(TXNET_STATE_IDLE, x.info.state)
				TH_LOG("%s %d: failed, yet running", op, n);
			footprint(&self->t, &f1);
			expect_footprint(_metadata, op, n, &f0, &f1);
		}
		if (!hit)
			break;
		/* the successful runs' results (and saved moves) may be charged: compare from here */
		footprint(&self->t, &f0);
	}
	EXPECT_GE(MAX_NTH, n);
	summary(_metadata, self, op, n);
	txnl_close(&ev);
	ASSERT_EQ(0, txnl_del(&self->t, r->name)) TH_LOG("%s", self->t.msg);
	still_works(_metadata, self);
}

/* RUN: a failed start leaves the network idle; a started run completes. */
TEST_F_TIMEOUT(fs, run, 1800)
{
	struct txnl_run_req r = {
		.name = "fsrun", .op = TXNET_OP_TOTAL_EXCHANGE, .has_algo = true,
		.algo = TXNET_ALGO_AUTO,
	};

	sweep_run(_metadata, self, "run", &r, 4, 0);
}

/*
 * RUN of a schedule, saved: the steps joined and charged, the replay's
 * start and the log of what the engine accepts fail in turn; a started
 * run replays a broadcast from 0 on ring 4 in its 2 ticks (the root's
 * eccentricity).
 */
TEST_F_TIMEOUT(fs, run_schedule, 1800)
{
	static const uint32_t steps[] = {
		0xffffffffu, 1, 0xffffffffu, 0xffffffffu,	/* tick 1 */
		0, 1, 0, 0xffffffffu,				/* 0 1 0>* */
		0, 3, 0, 0xffffffffu,				/* 0 3 0>* */
		0xffffffffu, 1, 0xffffffffu, 0xffffffffu,	/* tick 2 */
		1, 2, 0, 0xffffffffu,				/* 1 2 0>* */
	};
	struct txnl_run_req r = {
		.name = "fssched", .op = TXNET_OP_BROADCAST, .has_root = true, .root = 0,
		.schedule = steps, .nsteps = sizeof(steps) / 16, .schedule_spec = "ring 4",
		.save = true,
	};

	sweep_run(_metadata, self, "run schedule", &r, 4, 2);
}

/* SEND: a failed send puts nothing on the fabric; a sent packet arrives. */
/*
 * SEND, each time as the first send on a fresh network: that send also
 * creates the ports, so every allocation of both is swept.  A refused
 * send leaves nothing (not even the ports); one that succeeds delivers.
 */
TEST_F_TIMEOUT(fs, send, 900)
{
	struct txnl_pmsg *buf = calloc(4, sizeof(*buf));	/* not on the stack: see fs_do_setup */
	struct txnl_pmsgs l = { .cap = 4, .m = buf };
	struct footprint f0, f1;
	struct txnl_netx x;
	bool hit;
	int n, ret, waited;

	ASSERT_NE(NULL, buf);
	for (n = 1; n <= MAX_NTH; n++) {
		ASSERT_EQ(0, txnl_ring(&self->t, "fssend", 4, NULL)) TH_LOG("%s", self->t.msg);
		footprint(&self->t, &f0);
		ASSERT_EQ(0, arm(n));
		ret = txnl_send(&self->t, "fssend", 0, 2, "failslab", 8);
		hit = disarm();
		if (!outcome_ok(_metadata, self, "send", n, ret, hit) && !hit)
			break;
		if (!ret) {
			l.n = 0;
			for (waited = 0; l.n < 1 && waited < WAIT_MS; waited += 5) {
				ASSERT_LE(0, txnl_recv_all(&self->t, "fssend", 2, &l))
					TH_LOG("%s", self->t.msg);
				if (l.n < 1)
					sleep_ms(5);
			}
			ASSERT_EQ(1, l.n) TH_LOG("send %d: the packet never arrived", n);
			EXPECT_EQ(0, memcmp(buf[0].data, "failslab", 8));
		}
		ASSERT_EQ(0, txnl_getx(&self->t, "fssend", &x)) TH_LOG("%s", self->t.msg);
		EXPECT_EQ(0, x.ports_in_flight) TH_LOG("send %d: packets left in flight", n);
		EXPECT_EQ(0, x.ports_unread) TH_LOG("send %d: packets left unread", n);
		if (ret) {
			footprint(&self->t, &f1);
			expect_footprint(_metadata, "send", n, &f0, &f1);
		}
		ASSERT_EQ(0, txnl_del(&self->t, "fssend")) TH_LOG("%s", self->t.msg);
		if (!hit)
			break;
	}
	EXPECT_GE(MAX_NTH, n);
	summary(_metadata, self, "send", n);
	free(buf);
	still_works(_metadata, self);
}

/* Send one packet 0 -> 2 on @net and wait until it is unread at node 2. */
static int deliver_one(struct txnl *t, const char *net)
{
	struct txnl_netx x;
	int waited, ret;

	ret = txnl_send(t, net, 0, 2, "failslab", 8);
	if (ret)
		return ret;
	for (waited = 0; waited < WAIT_MS; waited += 5) {
		ret = txnl_getx(t, net, &x);
		if (ret)
			return ret;
		if (x.ports_unread == 1 && !x.ports_in_flight)
			return 0;
		sleep_ms(5);
	}
	return -ETIMEDOUT;
}

/* RECV: a failed read loses no packet; a successful one returns it. */
TEST_F_TIMEOUT(fs, recv, 900)
{
	struct txnl_pmsg *buf = calloc(4, sizeof(*buf));	/* not on the stack: see fs_do_setup */
	struct txnl_pmsgs l = { .cap = 4, .m = buf };
	struct footprint f0, f1;
	struct txnl_netx x;
	bool hit;
	int n, ret;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, txnl_ring(&self->t, "fsrecv", 4, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, deliver_one(&self->t, "fsrecv")) TH_LOG("%s", self->t.msg);
	footprint(&self->t, &f0);
	for (n = 1; n <= MAX_NTH; n++) {
		l.n = 0;
		l.replied = 0;
		ASSERT_EQ(0, arm(n));
		ret = txnl_recv(&self->t, "fsrecv", 2, &l);
		hit = disarm();
		if (!outcome_ok(_metadata, self, "recv", n, ret < 0 ? ret : 0, hit) && !hit)
			break;
		ASSERT_EQ(0, txnl_getx(&self->t, "fsrecv", &x)) TH_LOG("%s", self->t.msg);
		if (ret >= 0) {
			EXPECT_EQ(1, ret) TH_LOG("recv %d: the packet was lost", n);
			EXPECT_EQ(0, x.ports_unread);
			if (!hit)
				break;
			ASSERT_EQ(0, deliver_one(&self->t, "fsrecv")) TH_LOG("%s", self->t.msg);
		} else {
			EXPECT_EQ(1, x.ports_unread) TH_LOG("recv %d: failed, and the packet is gone", n);
			footprint(&self->t, &f1);
			expect_footprint(_metadata, "recv", n, &f0, &f1);
		}
	}
	EXPECT_GE(MAX_NTH, n);
	summary(_metadata, self, "recv", n);
	free(buf);
	ASSERT_EQ(0, txnl_del(&self->t, "fsrecv")) TH_LOG("%s", self->t.msg);
	still_works(_metadata, self);
}

/* DEL: a failed destroy leaves a working network; a successful one, nothing. */
TEST_F_TIMEOUT(fs, destroy, 900)
{
	struct footprint f0, f1, f2;
	struct txnet_info info;
	bool hit;
	int n, ret;

	footprint(&self->t, &f0);
	for (n = 1; n <= MAX_NTH; n++) {
		ASSERT_EQ(0, txnl_ring(&self->t, "fsdel", 8, NULL)) TH_LOG("%s", self->t.msg);
		footprint(&self->t, &f1);
		ASSERT_EQ(0, arm(n));
		ret = txnl_del(&self->t, "fsdel");
		hit = disarm();
		if (!outcome_ok(_metadata, self, "destroy", n, ret, hit) && !hit)
			break;
		if (ret) {
			ASSERT_EQ(0, txnl_get(&self->t, "fsdel", &info))
				TH_LOG("destroy %d failed, and the network is gone", n);
			footprint(&self->t, &f2);
			expect_footprint(_metadata, "destroy (failed)", n, &f1, &f2);
			ASSERT_EQ(0, txnl_del(&self->t, "fsdel")) TH_LOG("%s", self->t.msg);
		}
		footprint(&self->t, &f2);
		expect_footprint(_metadata, "destroy", n, &f0, &f2);
		if (!hit)
			break;
	}
	EXPECT_GE(MAX_NTH, n);
	if (self->injected)
		summary(_metadata, self, "destroy", n);
	else
		TH_LOG("destroy: makes no allocation with txnet's code on the stack");
	still_works(_metadata, self);
}

TEST_HARNESS_MAIN
