// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_unload: rmmod while exchanges run (paced and free-running) and
 * port packets are in flight: no hang, every run announced as stopped and
 * every network as destroyed, no thread or sysfs entry left, and after a
 * modprobe the same networks cost the same.  Runs just before
 * txnet_module (both unload the module); every test leaves it loaded.
 */
#include <string.h>
#include <time.h>

#include "txnet_harness.h"

/*
 * gcc 12 -O2 inlines these tests into the harness's wrapper, which calls
 * setjmp(), and then warns that the wrapper's own 'child' might be
 * clobbered: a false positive in kselftest_harness.h's code, not ours.
 */
#pragma GCC diagnostic ignored "-Wclobbered"

static bool loaded(void)
{
	return access("/sys/module/txnet", F_OK) == 0;
}

static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int make_net(struct txnl *t, const char *name, uint32_t topo, uint32_t n,
		    uint64_t tick_ns, struct txnet_info *out)
{
	struct txnet_req r = {
		.name = name, .topo = topo, .ndims = 1, .size = { n },
		.has_tick = tick_ns != 0, .tick_ns = tick_ns,
	};

	return txnl_new(t, &r, out);
}

FIXTURE(unl) {
	struct txnl t;
};

FIXTURE_SETUP(unl)
{
	if (!loaded())
		ASSERT_EQ(0, sh("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(&self->t));
	ASSERT_LE(0, txnl_del_all(&self->t));
}

FIXTURE_TEARDOWN(unl)
{
	txnl_close(&self->t);
	if (!loaded())
		sh("modprobe txnet");
}

static const struct {
	const char *name;
	uint32_t topo, n;
	uint64_t tick_ns;
	bool run;
} nets[] = {
	/*
	 * paced: linear 30 runs 225 ticks ([Dimakopoulos94] Theorem 1) of 1 s: still
	 * running at the rmmod, however slow the host
	 */
	{ "paced", TXNET_TOPO_LINEAR, 30, TXNET_TICK_NS_MAX, true },
	/*
	 * free-running: ring 200 runs 5000 ticks (Theorem 3); a fast host may
	 * finish it before the rmmod (its RUN_DONE then says done)
	 */
	{ "free", TXNET_TOPO_RING, 200, 0, true },
	/* a port packet in flight: 0 to 100 on ring 200 is 100 ticks of 1 s */
	{ "ports", TXNET_TOPO_RING, 200, TXNET_TICK_NS_MAX, false },
	/* idle */
	{ "idle", TXNET_TOPO_RING, 5, 0, false },
};
#define NNETS (sizeof(nets) / sizeof(nets[0]))

static void rmmod_during_runs(struct __test_metadata *_metadata,
							struct txnl *t)
{
	struct txnet_info info[NNETS], again;
	uint32_t id[NNETS] = { 0 };
	int dels[NNETS] = { 0 }, dones[NNETS] = { 0 };
	struct txnl_result r;
	struct txnl_netx x;
	struct txnl ev;
	uint64_t t0, dt;
	uint32_t rid;

	ASSERT_EQ(0, txnl_events_open(&ev));
	for (unsigned int k = 0; k < NNETS; k++) {
		ASSERT_EQ(0, make_net(t, nets[k].name, nets[k].topo, nets[k].n,
				      nets[k].tick_ns, &info[k])) TH_LOG("%s", t->msg);
		if (nets[k].run)
			ASSERT_EQ(0, txnl_run_algo(t, nets[k].name, TXNET_ALGO_AUTO, &id[k]))
				TH_LOG("%s: %s", nets[k].name, t->msg);
	}
	ASSERT_EQ(0, txnl_send(t, "ports", 0, 100, "bye", 3));
	sleep_ms(50);
	for (unsigned int k = 0; k < NNETS; k++) {
		ASSERT_EQ(0, txnl_getx(t, nets[k].name, &x));
		if (nets[k].run && nets[k].tick_ns) {
			EXPECT_EQ(TXNET_STATE_RUNNING, x.info.state) TH_LOG("%s", nets[k].name);
		} else if (nets[k].run && x.info.state != TXNET_STATE_RUNNING) {
			TH_LOG("%s: the free-running run ended before the rmmod", nets[k].name);
		}
	}
	ASSERT_EQ(0, txnl_getx(t, "ports", &x));
	EXPECT_EQ(1, x.ports_in_flight);
	EXPECT_EQ((int)NNETS, kthread_count());
	txnl_close(t);

	t0 = now_ns();
	ASSERT_EQ(0, sh("rmmod txnet"));
	dt = now_ns() - t0;
	EXPECT_GT(20000000000ULL, dt) TH_LOG("rmmod took %llu ns", (unsigned long long)dt);
	EXPECT_FALSE(loaded());
	EXPECT_NE(0, access(TXNET_SYSFS, F_OK));
	EXPECT_EQ(0, kthreads_become(0));
	/* every run ended as stopped and was announced; every network's end too */
	while (txnl_event_x(&ev, &x, 1000) == 1) {
		for (unsigned int k = 0; k < NNETS; k++) {
			if (strcmp(x.info.name, nets[k].name))
				continue;
			if (x.info.cmd == TXNET_CMD_DEL) {
				dels[k]++;
			} else if (x.info.cmd == TXNET_CMD_RUN_DONE) {
				dones[k]++;
				EXPECT_EQ(id[k], x.run_id);
				if (!nets[k].tick_ns && x.res.status == TXNET_RUN_DONE)
					continue;	/* finished before the rmmod */
				EXPECT_EQ(TXNET_RUN_STOPPED, x.res.status) TH_LOG("%s", nets[k].name);
				EXPECT_FALSE(x.res.has[TXNET_A_RES_STEPS]);
			}
		}
	}
	txnl_close(&ev);
	for (unsigned int k = 0; k < NNETS; k++) {
		EXPECT_EQ(1, dels[k]) TH_LOG("%s: DEL events", nets[k].name);
		EXPECT_EQ(nets[k].run ? 1 : 0, dones[k]) TH_LOG("%s: RUN_DONE events",
								nets[k].name);
	}

	ASSERT_EQ(0, sh("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(t));
	EXPECT_EQ(0, txnl_count(t));
	EXPECT_EQ(0, sysfs_count());
	/* the same networks cost the same, and run to the end */
	for (unsigned int k = 0; k < NNETS; k++) {
		ASSERT_EQ(0, make_net(t, nets[k].name, nets[k].topo, nets[k].n, 0, &again));
		EXPECT_EQ(info[k].mem_bytes, again.mem_bytes) TH_LOG("%s", nets[k].name);
	}
	ASSERT_EQ(0, txnl_events_open(&ev));
	ASSERT_EQ(0, txnl_run_algo(t, "paced", TXNET_ALGO_AUTO, &rid));
	ASSERT_EQ(1, txnl_run_done(&ev, "paced", rid, 30000, &r));
	EXPECT_EQ(TXNET_RUN_DONE, r.status);
	/* [Dimakopoulos94] section 3, Theorem 1: ceil((30^2-1)/4) = 225 */
	EXPECT_EQ(225, r.steps);
	txnl_close(&ev);
	EXPECT_EQ((int)NNETS, txnl_del_all(t));
}

TEST_F_TIMEOUT(unl, rmmod_during_runs, 120)
{
	rmmod_during_runs(_metadata, &self->t);
}

/* Unload while a paced run sleeps on its hrtimer with a very long tick. */
TEST_F_TIMEOUT(unl, rmmod_during_long_tick, 60)
{
	uint64_t t0, dt;
	uint32_t id;

	/* one tick per second: the run would take 225 s */
	ASSERT_EQ(0, make_net(&self->t, "slow", TXNET_TOPO_LINEAR, 30, TXNET_TICK_NS_MAX, NULL));
	ASSERT_EQ(0, txnl_run_algo(&self->t, "slow", TXNET_ALGO_AUTO, &id));
	sleep_ms(20);
	txnl_close(&self->t);
	t0 = now_ns();
	ASSERT_EQ(0, sh("rmmod txnet"));
	dt = now_ns() - t0;
	/* not held up by the tick's deadline */
	EXPECT_GT(900000000ULL, dt) TH_LOG("rmmod took %llu ns", (unsigned long long)dt);
	EXPECT_FALSE(loaded());
	EXPECT_EQ(0, kthreads_become(0));
	ASSERT_EQ(0, sh("modprobe txnet"));
}

TEST_HARNESS_MAIN
