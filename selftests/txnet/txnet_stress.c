// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_stress: every request, concurrently, on a few shared networks,
 * while the module is unloaded and loaded again underneath.
 *
 * NWORKERS processes each make a fixed number of requests (bounded: no
 * wall-clock assertion, only a generous watchdog) on the networks s0..s3,
 * shared by all of them: NEW (several small topologies, port models and
 * tick periods), DEL, GET, GET dump, SET, RUN (total exchange, free-running
 * and paced), STOP, SEND, RECV, and writes to sysfs port_model/tick_ns.
 * A reader process reads every sysfs file of those networks meanwhile,
 * and a cycler process unloads the module (delete_module, retried while a
 * request holds it) and loads it again, a fixed number of times spread
 * over the workers' requests.
 *
 * What is checked: every answer of the txnet family is a success or an
 * error with an extended ack message (NLMSGERR_ATTR_MSG), except ENOMEM
 * and the family being gone (a stale family id after an unload: ENOENT
 * or EOPNOTSUPP without a message; the worker then resolves the family
 * again, which autoloads the module).  Sysfs reads and writes fail only
 * because the network went away or is busy.  Counts per (request, errno,
 * message) are logged.  At the end, with the module loaded: no network,
 * no sysfs directory, no "txnet/" thread, mem_used 0 (when the module has
 * that parameter); the VM runner checks the kernel log.
 *
 * TXNET_STRESS_OPS and TXNET_STRESS_RELOADS (environment) override the
 * requests per worker and the unload/load cycles.
 */
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "txnet_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define NWORKERS	4
#define DEF_OPS		600
#define DEF_RELOADS	10
#define NNAMES		4
#define MAXKEYS		128
#define NVIOL		8

static const char *const names[NNAMES] = { "s0", "s1", "s2", "s3" };

static const char *const rfiles[] = {
	"id", "topology", "nodes", "switches", "links", "diameter", "port_model",
	"tick_ns", "state", "ticks", "mem_bytes", "ports_in_flight", "ports_unread",
	"last/run_id", "last/status", "last/op", "last/algo", "last/port_model",
	"last/nodes", "last/payload", "last/seed", "last/steps", "last/ticks",
	"last/lower_bound", "last/expected_steps", "last/transmissions", "last/delivered",
	"last/expected_deliveries", "last/verified", "last/wall_ns", "last/max_lateness_ns",
	"last/max_queue", "last/max_queue_node", "last/error", "last/error_tick",
	"last/error_node",
};
#define NRFILES (sizeof(rfiles) / sizeof(rfiles[0]))

struct key {
	char cmd[12];
	int err;		/* positive errno, 0 for success */
	char msg[104];
	unsigned long n;
};

/* One process's counts, in shared memory. */
struct pstats {
	struct key k[MAXKEYS];
	int nkeys;
	unsigned long dropped;	/* keys that did not fit */
	unsigned long ops;
	int nviol;
	char viol[NVIOL][200];
};

enum { P_READER = NWORKERS, P_CYCLER, NPROCS };

struct shared {
	volatile unsigned long ops_total;	/* all workers' requests so far */
	volatile int workers_done;
	volatile int unloads, loads, rmmod_busy, rmmod_other;
	struct pstats p[NPROCS];
};

static struct shared *sh;
static uint64_t mem_budget;

static void count_n(struct pstats *ps, const char *cmd, int err, const char *msg,
		    unsigned long n)
{
	int i;

	for (i = 0; i < ps->nkeys; i++)
		if (ps->k[i].err == err && !strcmp(ps->k[i].cmd, cmd) &&
		    !strncmp(ps->k[i].msg, msg, sizeof(ps->k[i].msg) - 1))
			break;
	if (i == ps->nkeys) {
		if (i == MAXKEYS) {
			ps->dropped++;
			return;
		}
		snprintf(ps->k[i].cmd, sizeof(ps->k[i].cmd), "%s", cmd);
		snprintf(ps->k[i].msg, sizeof(ps->k[i].msg), "%s", msg);
		ps->k[i].err = err;
		ps->nkeys++;
	}
	ps->k[i].n += n;
}

static void count(struct pstats *ps, const char *cmd, int err, const char *msg)
{
	count_n(ps, cmd, err, msg, 1);
}

static void violation(struct pstats *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void violation(struct pstats *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->nviol < NVIOL) {
		va_start(ap, fmt);
		vsnprintf(ps->viol[ps->nviol], sizeof(ps->viol[0]), fmt, ap);
		va_end(ap);
	}
	ps->nviol++;
}

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/* Why the last request's family id was judged stale: 0, or the errno. */
static int stale_err;
static const char *stale_cmd;

/*
 * Judge the answer to a request: true when the family id went stale and
 * must be resolved again.
 */
static bool judge(struct pstats *ps, struct txnl *t, const char *cmd, int ret)
{
	stale_err = 0;
	stale_cmd = cmd;
	if (!ret) {
		count(ps, cmd, 0, "");
		return false;
	}
	if (ret == -ENOMEM) {
		count(ps, cmd, ENOMEM, t->msg);
		return false;
	}
	if (!t->msg[0] && (ret == -ENOENT || ret == -EOPNOTSUPP)) {
		/* the genetlink core's answer for a family id nobody has */
		count(ps, cmd, -ret, "(family gone: stale id)");
		stale_err = -ret;
		return true;
	}
	if (!t->msg[0] && ret == -EPROTONOSUPPORT && !strcmp(cmd, "DUMP")) {
		/* netlink_dump_start(): try_module_get() of a module being unloaded */
		count(ps, cmd, -ret, "(family going: module unloading)");
		return true;
	}
	count(ps, cmd, -ret, t->msg[0] ? t->msg : "(NO EXTACK MESSAGE)");
	if (ret == -EIO || ret == -EBADMSG)
		violation(ps, "%s: client-side error %d (%s)", cmd, -ret, strerror(-ret));
	else if (!t->msg[0])
		violation(ps, "%s: refused with %s (errno %d) and no extack message",
			  cmd, strerror(-ret), -ret);
	return false;
}

/*
 * Resolve the family again (autoloading the module) on a new socket: false
 * while it cannot be.  A new socket, because libnl's genl_ctrl_resolve()
 * on the old one kept failing once a resolve had failed (seen on 6.1).
 */
static bool resolve(struct pstats *ps, struct txnl *t)
{
	int ret;

	txnl_close(t);
	ret = txnl_open(t);
	count(ps, "resolve", -ret, ret ? "(family not found)" : "");
	return !ret;
}

static const struct topo {
	uint32_t topo, ndims, size[2];
} topos[] = {
	{ TXNET_TOPO_RING, 1, { 4 } }, { TXNET_TOPO_RING, 1, { 6 } },
	{ TXNET_TOPO_RING, 1, { 8 } }, { TXNET_TOPO_LINEAR, 1, { 3 } },
	{ TXNET_TOPO_LINEAR, 1, { 6 } }, { TXNET_TOPO_TORUS, 2, { 3, 3 } },
	{ TXNET_TOPO_HYPERCUBE, 1, { 3 } }, { TXNET_TOPO_COMPLETE, 1, { 4 } },
	{ TXNET_TOPO_MESH, 2, { 2, 3 } }, { TXNET_TOPO_BUTTERFLY, 1, { 8 } },
};

static const uint64_t ticks_ns[] = { 0, 0, 50000, 200000, 1000000 };

static void sysfs_write(struct pstats *ps, unsigned int *seed, const char *net)
{
	char val[32];
	const char *file;
	int ret;

	if (rnd(seed) & 1) {
		file = "port_model";
		snprintf(val, sizeof(val), "%s", rnd(seed) & 1 ? "all" : "single");
	} else {
		file = "tick_ns";
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)ticks_ns[rnd(seed) % ARRAY_SIZE(ticks_ns)]);
	}
	ret = net_file_write(net, file, val);
	count(ps, file[0] == 'p' ? "w-port_mod" : "w-tick_ns", -ret, "");
	if (ret && ret != -ENOENT && ret != -ENODEV && ret != -EBUSY)
		violation(ps, "write %s/%s '%s': %s", net, file, val, strerror(-ret));
}

/* Read every file of @net; values checked for sanity. */
static void sysfs_read(struct pstats *ps, const char *net)
{
	char buf[256];
	unsigned int i;
	int ret;

	for (i = 0; i < NRFILES; i++) {
		ret = net_file(net, rfiles[i], buf, sizeof(buf));
		if (ret) {
			if (ret != -ENOENT && ret != -ENODEV && ret != -ENODATA) {
				count(ps, "read", -ret, rfiles[i]);
				violation(ps, "read %s/%s: %s", net, rfiles[i], strerror(-ret));
			}
			continue;
		}
		if (strstr(buf, "1802201963") || strstr(buf, "7740398493674") ||
		    strstr(buf, "kkkk"))
			violation(ps, "read %s/%s: '%s': SLUB poison", net, rfiles[i], buf);
		else if (!strncmp(rfiles[i], "ports_", 6) &&
			 strtoull(buf, NULL, 10) > TXNET_PORT_SLOTS)
			violation(ps, "read %s/%s: '%s' > %d", net, rfiles[i], buf,
				  TXNET_PORT_SLOTS);
		else if (!strcmp(rfiles[i], "mem_bytes") && strtoull(buf, NULL, 10) >= mem_budget)
			violation(ps, "read %s/%s: '%s' >= mem_budget", net, rfiles[i], buf);
	}
	count(ps, "read", 0, "");
}

static int env_int(const char *name, int def)
{
	const char *e = getenv(name);
	int n = e ? atoi(e) : 0;

	return n > 0 ? n : def;
}

static void worker(int idx, int ops)
{
	struct pstats *ps = &sh->p[idx];
	unsigned int seed = 0x5eed0000u + (unsigned int)idx * 7919u;
	struct txnl_pmsg *pm = calloc(256, sizeof(*pm));
	bool stale = false;
	int old_family;
	struct txnl t;
	int op, ret, tries;

	for (tries = 0; txnl_open(&t); tries++) {
		count(ps, "open", ENOENT, "(family not found)");
		if (tries == 5000) {
			violation(ps, "worker %d: could not open the family", idx);
			_exit(1);
		}
		sleep_ms(1);
	}
	old_family = t.family;
	for (op = 0; op < ops; op++, ps->ops++, __sync_fetch_and_add(&sh->ops_total, 1)) {
		const char *net = names[rnd(&seed) % NNAMES];
		unsigned int a = rnd(&seed) % 100;

		/* resolving again autoloads the module, or waits for the cycler's modprobe */
		for (tries = 0; stale && !resolve(ps, &t); tries++) {
			if (tries == 20000) {
				violation(ps, "worker %d: the family did not come back", idx);
				__sync_fetch_and_add(&sh->workers_done, 1);
				_exit(1);
			}
			sleep_ms(1);
		}
		/*
		 * Family ids are allocated cyclically: a family that was
		 * really gone comes back under another id.  The same id means
		 * the family was there all along, and the ENOENT/EOPNOTSUPP
		 * without a message was txnet's own.
		 */
		if (stale && stale_err && t.family == old_family)
			violation(ps, "%s: refused with %s (errno %d), no extack message, "
				  "family id %d unchanged", stale_cmd, strerror(stale_err),
				  stale_err, old_family);
		stale = false;
		old_family = t.family;
		if (a < 18) {
			const struct topo *tp = &topos[rnd(&seed) % ARRAY_SIZE(topos)];
			struct txnet_req r = {
				.name = net, .topo = tp->topo, .ndims = tp->ndims,
				.size = { tp->size[0], tp->size[1] },
				.port_model = rnd(&seed) % 3,
			};
			uint64_t tk = ticks_ns[rnd(&seed) % ARRAY_SIZE(ticks_ns)];

			r.has_tick = tk != 0;
			r.tick_ns = tk;
			stale = judge(ps, &t, "NEW", txnl_new(&t, &r, NULL));
		} else if (a < 23) {
			stale = judge(ps, &t, "DEL", txnl_del(&t, net));
		} else if (a < 29) {
			stale = judge(ps, &t, "GET", txnl_get(&t, net, NULL));
		} else if (a < 35) {
			stale = judge(ps, &t, "DUMP", txnl_count(&t) < 0 ? t.err : 0);
		} else if (a < 43) {
			uint32_t pmod = 1 + rnd(&seed) % 2;
			uint64_t tk = ticks_ns[rnd(&seed) % ARRAY_SIZE(ticks_ns)];
			unsigned int which = 1 + rnd(&seed) % 3;

			stale = judge(ps, &t, "SET", txnl_set(&t, net, which & 1 ? &pmod : NULL,
							  which & 2 ? &tk : NULL));
		} else if (a < 56) {
			struct txnl_run_req r = {
				.name = net, .op = TXNET_OP_TOTAL_EXCHANGE,
				.has_payload = true, .payload = 1 + rnd(&seed) % 16,
				.has_seed = true, .seed = rnd(&seed),
			};

			if (rnd(&seed) % 4 == 0) {
				r.has_algo = true;
				r.algo = TXNET_ALGO_MESSAGE_SHIFT_PLAIN;
			}
			stale = judge(ps, &t, "RUN", txnl_run(&t, &r, NULL));
		} else if (a < 63) {
			stale = judge(ps, &t, "STOP", txnl_stop(&t, net));
		} else if (a < 76) {
			uint32_t src = rnd(&seed) % 4, dst = (src + 1 + rnd(&seed) % 3) % 4;
			char data[16];

			memset(data, 'a' + idx, sizeof(data));
			stale = judge(ps, &t, "SEND",
				      txnl_send(&t, net, src, dst, data, 1 + rnd(&seed) % 16));
		} else if (a < 84) {
			struct txnl_pmsgs l = { .cap = 256, .m = pm };

			ret = txnl_recv(&t, net, rnd(&seed) % 4, &l);
			stale = judge(ps, &t, "RECV", ret < 0 ? ret : 0);
		} else if (a < 92) {
			sysfs_write(ps, &seed, net);
		} else {
			sysfs_read(ps, net);
		}
	}
	txnl_close(&t);
	free(pm);
	__sync_fetch_and_add(&sh->workers_done, 1);
	_exit(0);
}

static void reader(void)
{
	struct pstats *ps = &sh->p[P_READER];
	unsigned int i;

	while (sh->workers_done < NWORKERS)
		for (i = 0; i < NNAMES; i++)
			sysfs_read(ps, names[i]);
	_exit(0);
}

static bool loaded(void)
{
	return access("/sys/module/txnet", F_OK) == 0;
}

static int sh_cmd(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Unload and load again @reloads times, the k-th unload once the workers
 * made k/(reloads+1) of their requests.  An unload is retried while the
 * module is in use (a request or a dump holds it) or still loading (an
 * autoload by a worker's resolve).
 */
static void cycler(int reloads, unsigned long total)
{
	struct pstats *ps = &sh->p[P_CYCLER];
	int k, tries, ret;

	for (k = 1; k <= reloads; k++) {
		while (sh->ops_total < total * k / (reloads + 1) && sh->workers_done < NWORKERS)
			sleep_ms(1);
		if (sh->workers_done == NWORKERS)
			break;
		for (tries = 0; tries < 20000; tries++) {
			ret = syscall(SYS_delete_module, "txnet", O_NONBLOCK) ? errno : 0;
			count(ps, "rmmod", ret, "");
			if (ret == 0) {
				sh->unloads++;
				break;
			}
			if (ret == EAGAIN || ret == EBUSY) {
				sh->rmmod_busy++;
				sleep_ms(1);
				continue;
			}
			if (ret == ENOENT) {	/* a worker's unload? only we unload */
				sh->rmmod_other++;
				break;
			}
			violation(ps, "delete_module: %s", strerror(ret));
			break;
		}
		/* let the workers meet the missing family (this only spaces events out) */
		sleep_ms(20);
		ret = sh_cmd("modprobe txnet");
		count(ps, "modprobe", ret, "");
		if (ret)
			violation(ps, "modprobe txnet: exit status %d", ret);
		else
			sh->loads++;
	}
	_exit(0);
}

FIXTURE(stress) {
	struct txnl t;
	pid_t pid[NPROCS];
};

FIXTURE_SETUP(stress)
{
	char buf[64];

	if (!loaded())
		ASSERT_EQ(0, sh_cmd("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(&self->t));
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, param_read("mem_budget", buf, sizeof(buf)));
	mem_budget = strtoull(buf, NULL, 10);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	memset(self->pid, 0, sizeof(self->pid));
}

FIXTURE_TEARDOWN(stress)
{
	for (int i = 0; i < NPROCS; i++)
		if (self->pid[i] > 0) {
			kill(self->pid[i], SIGKILL);
			waitpid(self->pid[i], NULL, 0);
		}
	if (sh && sh != MAP_FAILED)
		munmap(sh, sizeof(*sh));
	sh = NULL;
	txnl_close(&self->t);
	/* later tests need the module */
	if (!loaded())
		sh_cmd("modprobe txnet");
}

/* Merge every process's counts into @all. */
static void merge(struct pstats *all)
{
	memset(all, 0, sizeof(*all));
	for (int p = 0; p < NPROCS; p++)
		for (int i = 0; i < sh->p[p].nkeys; i++)
			count_n(all, sh->p[p].k[i].cmd, sh->p[p].k[i].err, sh->p[p].k[i].msg,
				sh->p[p].k[i].n);
}

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->cmd, y->cmd);

	return c ? c : x->err != y->err ? x->err - y->err : strcmp(x->msg, y->msg);
}

TEST_F_TIMEOUT(stress, shared_networks_and_reloads, 300)
{
	int ops = env_int("TXNET_STRESS_OPS", DEF_OPS);
	int reloads = env_int("TXNET_STRESS_RELOADS", DEF_RELOADS);
	static struct pstats all;
	uint64_t t0 = now_ns();
	int i, status, nviol = 0, left;
	char buf[64];

	txnl_close(&self->t);
	for (i = 0; i < NPROCS; i++) {
		self->pid[i] = fork();
		ASSERT_LE(0, self->pid[i]);
		if (self->pid[i])
			continue;
		if (i < NWORKERS)
			worker(i, ops);
		else if (i == P_READER)
			reader();
		else
			cycler(reloads, (unsigned long)ops * NWORKERS);
	}
	for (i = 0; i < NPROCS; i++) {
		ASSERT_EQ(self->pid[i], waitpid(self->pid[i], &status, 0));
		self->pid[i] = 0;
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("process %d: status 0x%x", i, status);
	}
	TH_LOG("%d workers x %d requests, %d unloads (%d refused as busy), %d loads: %.1f s",
	       NWORKERS, ops, sh->unloads, sh->rmmod_busy, sh->loads, (now_ns() - t0) / 1e9);

	merge(&all);
	qsort(all.k, all.nkeys, sizeof(all.k[0]), key_cmp);
	for (i = 0; i < all.nkeys; i++)
		TH_LOG("%-10s %-12s %6lu  %s", all.k[i].cmd,
		       all.k[i].err ? strerror(all.k[i].err) : "ok", all.k[i].n, all.k[i].msg);
	for (int p = 0; p < NPROCS; p++) {
		for (i = 0; i < sh->p[p].nviol && i < NVIOL; i++)
			TH_LOG("process %d: %s", p, sh->p[p].viol[i]);
		nviol += sh->p[p].nviol;
		EXPECT_EQ(0, sh->p[p].dropped);
	}
	for (i = 0; i < NWORKERS; i++)
		EXPECT_EQ(ops, sh->p[i].ops);
	EXPECT_EQ(0, nviol) TH_LOG("requests refused without a message, or bad sysfs answers");
	EXPECT_LT(0, sh->unloads) TH_LOG("the module was never unloaded");
	EXPECT_EQ(0, sh->rmmod_other);

	/* the module is loaded again, and nothing is left */
	if (!loaded())
		ASSERT_EQ(0, sh_cmd("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(&self->t));
	ASSERT_LE(0, txnl_del_all(&self->t)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(0, txnl_count(&self->t));
	EXPECT_EQ(0, sysfs_count());
	/*
	 * A DEL waits for its thread; an exiting thread may still be listed a
	 * moment.  The bound is a hang guard (60 s), not a speed assumption.
	 */
	for (left = 6000; kthread_count() && left; left--)
		sleep_ms(10);
	EXPECT_EQ(0, kthreads_become(0));
	if (param_read("mem_used", buf, sizeof(buf)) == -ENOENT)
		TH_LOG("no mem_used parameter in this module: memory accounting not checked");
	else
		EXPECT_STREQ("0", buf) TH_LOG("mem_used with no network left");
}

TEST_HARNESS_MAIN
