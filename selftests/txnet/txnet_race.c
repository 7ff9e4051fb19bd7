// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_race: sysfs readers, and LINKS dumps, racing a network's
 * destruction.
 *
 * One process creates a network ("race", ring 4), sends one port packet
 * (which allocates the network's ports) and destroys it, a fixed number
 * of times.  Meanwhile reader processes, one of them without any
 * privilege (sysfs files are 0444: any user may read them), read every
 * file under /sys/kernel/txnet/race/ and last/, over and over.  Every
 * read must either fail because the file went away (ENOENT, ENODEV) or
 * has no value (ENODATA), or give a sane value: ports_in_flight and
 * ports_unread at most TXNET_PORT_SLOTS, mem_bytes below mem_budget,
 * the ring's constant counts, and never SLUB's free poison 0x6b.
 *
 * The bug this catches: a destroy that frees the ports before the sysfs
 * files that read them without a lock (ports_in_flight, ports_unread,
 * mem_bytes) are gone; a reader then reads freed memory, which
 * slub_debug=FZPU (the VM runner's command line) has filled with 0x6b
 * (KASAN reports it instead).
 *
 * Bounded: TXNET_RACE_CYCLES (environment, default below) create/send/
 * destroy cycles, no time-based assertion; the writer stops early once
 * a bad read was seen, and the log says after how many cycles.
 */
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "txnet_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define NET		"race"
/*
 * Measured on today's kernel (ports freed before the sysfs files go) in
 * the TCG VM, 3 readers, 8 runs per kernel: the first poisoned read came
 * after 1, 7, 12, 13, 65, 66, 107 and 308 cycles on 6.1, after 10, 13, 17,
 * 22, 53, 63, 81 and 85 on 6.12 (16 of 16 runs caught it; the worst of 37
 * earlier runs, with readers that spun while the directory was absent,
 * was 1006).  With the fix, 1200 cycles took 51 s on 6.12 and 62 s on
 * 6.1 (other VMs sharing the host): 1000 keep it near 50 s.
 */
#define DEF_CYCLES	1000
#define NREADERS	3		/* the last one runs as nobody */
#define NOBODY		65534
#define HOT_REPEAT	8		/* extra reads of the three unlocked files per round */
#define LAST_EVERY	16		/* read last/ (mutex, ENODATA) every 16th pass */
#define POISON32	0x6b6b6b6bULL
#define POISON64	0x6b6b6b6b6b6b6b6bULL

enum check { C_ANY, C_EQ, C_MAX, C_LT_BUDGET, C_STR };

static const struct rfile {
	const char *path;	/* under /sys/kernel/txnet/NET/ */
	enum check check;
	uint64_t val;		/* C_EQ: the value; C_MAX: the largest sane value */
	const char *strs;	/* C_STR: accepted values, '|'-separated */
	bool hot;		/* read without a lock in today's kernel */
} files[] = {
	{ "id", C_MAX, UINT32_MAX, NULL, false },
	{ "topology", C_STR, 0, "ring 4", false },
	{ "nodes", C_EQ, 4, NULL, false },
	{ "switches", C_EQ, 0, NULL, false },
	{ "links", C_EQ, 8, NULL, false },
	{ "diameter", C_EQ, 2, NULL, false },
	{ "port_model", C_STR, 0, "all|single", false },
	{ "tick_ns", C_MAX, TXNET_TICK_NS_MAX, NULL, false },
	{ "state", C_STR, 0, "idle|running", false },
	{ "ticks", C_MAX, 1ULL << 40, NULL, false },
	{ "mem_bytes", C_LT_BUDGET, 0, NULL, true },
	{ "ports_in_flight", C_MAX, TXNET_PORT_SLOTS, NULL, true },
	{ "ports_unread", C_MAX, TXNET_PORT_SLOTS, NULL, true },
	/* no run ever ends here: ENODATA, but checked like any value */
#define LAST(f) { "last/" f, C_ANY, 0, NULL, false }
	LAST("run_id"), LAST("status"), LAST("op"), LAST("algo"), LAST("port_model"),
	LAST("nodes"), LAST("payload"), LAST("seed"), LAST("steps"), LAST("ticks"),
	LAST("lower_bound"), LAST("expected_steps"), LAST("transmissions"),
	LAST("delivered"), LAST("expected_deliveries"), LAST("verified"), LAST("wall_ns"),
	LAST("max_lateness_ns"), LAST("max_queue"), LAST("max_queue_node"), LAST("error"),
	LAST("error_tick"), LAST("error_node"),
#undef LAST
};
#define NFILES (sizeof(files) / sizeof(files[0]))

#define NBAD_KEPT 8

/* Shared between the writer and the readers (MAP_SHARED|MAP_ANONYMOUS). */
struct shared {
	volatile int done;		/* writer finished: readers stop */
	volatile int cycle;		/* the writer's current cycle, from 1 */
	volatile int bad;		/* bad reads, all readers */
	volatile int first_bad_cycle;	/* cycle of the first bad read, 0: none */
	struct rstats {
		unsigned long reads, values, gone, nodata, opens;
		int bad;
		bool ready;
		struct { int cycle, err; char file[32], val[64]; } kept[NBAD_KEPT];
	} r[NREADERS];
};

static uint64_t mem_budget;

static bool poisoned(const char *s)
{
	return strstr(s, "1802201963") ||		/* 0x6b6b6b6b */
	       strstr(s, "7740398493674204011") ||	/* 0x6b6b6b6b6b6b6b6b */
	       strstr(s, "6b6b6b6b") ||
	       strstr(s, "kkkk");			/* 0x6b bytes as text */
}

/* NULL when @s, read from @f, is sane; else why not. */
static const char *insane(const struct rfile *f, const char *s)
{
	unsigned long long v;
	char *end;

	if (poisoned(s))
		return "SLUB poison";
	if (f->check == C_ANY)
		return NULL;
	if (f->check == C_STR) {
		const char *p = f->strs;
		size_t n = strlen(s);

		while (p && *p) {
			const char *bar = strchr(p, '|');
			size_t len = bar ? (size_t)(bar - p) : strlen(p);

			if (len == n && !strncmp(p, s, n))
				return NULL;
			p = bar ? bar + 1 : NULL;
		}
		return "unexpected word";
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end)
		return "not a number";
	if (v == POISON32 || v == POISON64 || (v >> 32) == POISON32)
		return "SLUB poison";
	switch (f->check) {
	case C_EQ:
		return v == f->val ? NULL : "wrong constant";
	case C_MAX:
		return v <= f->val ? NULL : "too large";
	case C_LT_BUDGET:
		return v > 0 && v < mem_budget ? NULL : "not below mem_budget";
	default:
		return NULL;
	}
}

static void keep_bad(struct shared *sh, struct rstats *st, const struct rfile *f, int err,
		     const char *val)
{
	if (st->bad < NBAD_KEPT) {
		st->kept[st->bad].cycle = sh->cycle;
		st->kept[st->bad].err = err;
		snprintf(st->kept[st->bad].file, sizeof(st->kept[0].file), "%s", f->path);
		snprintf(st->kept[st->bad].val, sizeof(st->kept[0].val), "%s", val);
	}
	st->bad++;
	if (!__sync_fetch_and_add(&sh->bad, 1))
		sh->first_bad_cycle = sh->cycle;
}

/* pread one open file: true when the directory is still there. */
static bool read_one(struct shared *sh, struct rstats *st, const struct rfile *f, int fd)
{
	char buf[4096];
	const char *why;
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	st->reads++;
	if (n < 0) {
		int err = errno;

		if (err == ENOENT || err == ENODEV) {
			st->gone++;
			return false;
		}
		if (err == ENODATA) {
			st->nodata++;
			return true;
		}
		keep_bad(sh, st, f, err, "");
		return true;
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	st->values++;
	why = insane(f, buf);
	if (why) {
		char val[64];

		snprintf(val, sizeof(val), "%.30s (%.24s)", buf, why);
		keep_bad(sh, st, f, 0, val);
	}
	return true;
}

/*
 * Open every file of the current incarnation of the network, then read
 * them all (the three unlocked ones HOT_REPEAT more times, last/ only
 * every LAST_EVERY passes) until they are gone; again until the writer is
 * done.
 */
static void reader(struct shared *sh, int idx)
{
	struct rstats *st = &sh->r[idx];
	int fd[NFILES];
	unsigned int i, k, pass;

	if (idx == NREADERS - 1 && (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
		_exit(2);
	st->ready = true;
	while (!sh->done) {
		bool any = false, alive;

		for (i = 0; i < NFILES; i++) {
			char path[128];

			snprintf(path, sizeof(path), TXNET_SYSFS "/" NET "/%s", files[i].path);
			fd[i] = open(path, O_RDONLY);
			/* ENODEV: removed between the lookup and the open */
			if (fd[i] < 0 && errno != ENOENT && errno != ENODEV)
				keep_bad(sh, st, &files[i], errno, "open");
			any |= fd[i] >= 0;
		}
		st->opens++;
		alive = any;
		for (pass = 0; alive && !sh->done; pass++) {
			alive = false;
			for (i = 0; i < NFILES; i++) {
				if (fd[i] < 0)
					continue;
				/* last/ (no value here) every LAST_EVERY passes */
				if (!strncmp(files[i].path, "last/", 5) && pass % LAST_EVERY) {
					alive = true;
					continue;
				}
				if (!read_one(sh, st, &files[i], fd[i])) {
					close(fd[i]);
					fd[i] = -1;
					continue;
				}
				alive = true;
				for (k = 0; files[i].hot && k < HOT_REPEAT; k++)
					if (!read_one(sh, st, &files[i], fd[i]))
						break;
			}
		}
		for (i = 0; i < NFILES; i++)
			if (fd[i] >= 0)
				close(fd[i]);
		/* no directory: leave the CPU to the writer a moment */
		if (!any)
			usleep(200);
	}
	_exit(0);
}

#define CYCLE_BUDGET_NS	(150ULL * 1000000000ULL)

static int cycles_wanted(void)
{
	const char *e = getenv("TXNET_RACE_CYCLES");
	int n = e ? atoi(e) : 0;

	return n > 0 ? n : DEF_CYCLES;
}

FIXTURE(race) {
	struct txnl t;
	struct shared *sh;
	pid_t pid[NREADERS];
};

FIXTURE_SETUP(race)
{
	char buf[64];

	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, param_read("mem_budget", buf, sizeof(buf)));
	mem_budget = strtoull(buf, NULL, 10);
	ASSERT_LT(0, mem_budget);
	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->sh);
	memset(self->sh, 0, sizeof(*self->sh));
	for (int i = 0; i < NREADERS; i++)
		self->pid[i] = 0;
}

FIXTURE_TEARDOWN(race)
{
	if (self->sh && self->sh != MAP_FAILED) {
		self->sh->done = 1;
		for (int i = 0; i < NREADERS; i++)
			if (self->pid[i] > 0) {
				kill(self->pid[i], SIGKILL);
				waitpid(self->pid[i], NULL, 0);
			}
		munmap(self->sh, sizeof(*self->sh));
	}
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
}

TEST_F_TIMEOUT(race, destroy_vs_sysfs_readers, 300)
{
	struct shared *sh = self->sh;
	int cycles = cycles_wanted(), c, i, status, errs = 0;
	unsigned long reads = 0, values = 0, gone = 0, nodata = 0, opens = 0;
	uint64_t t0 = now_ns();

	for (i = 0; i < NREADERS; i++) {
		self->pid[i] = fork();
		ASSERT_LE(0, self->pid[i]);
		if (!self->pid[i]) {
			txnl_close(&self->t);
			reader(sh, i);
		}
	}
	for (i = 0; i < NREADERS; i++)
		while (!sh->r[i].ready)
			sleep_ms(1);

	/*
	 * The cycles wanted, or as many as fit in CYCLE_BUDGET_NS: how many
	 * races a run tries depends on the host's speed, what it asserts
	 * does not (under the debug kernel on a busy host 1000 cycles took
	 * most of the harness's timeout).
	 */
	for (c = 1; c <= cycles && !sh->bad && now_ns() - t0 < CYCLE_BUDGET_NS; c++) {
		sh->cycle = c;
		if (txnl_ring(&self->t, NET, 4, NULL)) {
			TH_LOG("cycle %d: create: %d '%s'", c, self->t.err, self->t.msg);
			errs++;
			break;
		}
		if (txnl_send(&self->t, NET, 0, 1, "x", 1)) {
			TH_LOG("cycle %d: send: %d '%s'", c, self->t.err, self->t.msg);
			errs++;
		}
		if (txnl_del(&self->t, NET)) {
			TH_LOG("cycle %d: destroy: %d '%s'", c, self->t.err, self->t.msg);
			errs++;
			break;
		}
	}
	sh->done = 1;
	for (i = 0; i < NREADERS; i++) {
		ASSERT_EQ(self->pid[i], waitpid(self->pid[i], &status, 0));
		self->pid[i] = 0;
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("reader %d: status 0x%x", i, status);
	}
	for (i = 0; i < NREADERS; i++) {
		struct rstats *st = &sh->r[i];

		reads += st->reads;
		values += st->values;
		gone += st->gone;
		nodata += st->nodata;
		opens += st->opens;
		for (int k = 0; k < st->bad && k < NBAD_KEPT; k++)
			TH_LOG("reader %d%s: cycle %d: %s: %s%s%s", i,
			       i == NREADERS - 1 ? " (nobody)" : "", st->kept[k].cycle,
			       st->kept[k].file, st->kept[k].val,
			       st->kept[k].err ? " errno " : "",
			       st->kept[k].err ? strerror(st->kept[k].err) : "");
	}
	TH_LOG("%d of %d cycles in %.1f s; %lu reads (%lu values, %lu gone, %lu ENODATA), "
	       "%lu directory opens; %d bad reads%s",
	       c - 1, cycles, (now_ns() - t0) / 1e9, reads, values, gone, nodata, opens, sh->bad,
	       sh->bad ? "" : " (none)");
	if (sh->bad)
		TH_LOG("first bad read in cycle %d", sh->first_bad_cycle);
	EXPECT_EQ(0, errs);
	EXPECT_EQ(0, sh->bad) TH_LOG("a reader saw freed memory or a wrong value");
	/* the readers did race the writer: some values, and directories that vanished */
	EXPECT_LT(0, values);
	EXPECT_LT(0, gone);
	EXPECT_FALSE(net_dir_exists(NET));
}

/*
 * LINKS dumps racing destroy: a dump holds txnet_lock for each part, so a
 * part sees the whole network or none.  A reader (with no privilege: the
 * dump needs none) dumps the links of "race" over and over while the
 * writer creates it, sends a packet 0 -> 1 and destroys it.  Every dump
 * must be ENOENT, interrupted (the network ended between two parts), or
 * the ring's 8 links, ids in order, each with at most the one hop the
 * packet makes and none down; never SLUB's poison.
 */
struct dump_stats {
	volatile int done, bad, oks, gone;
	char why[128];
};

static int link_check(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[TXNET_A_MAX + 1], *lb[TXNET_A_LINK_MAX + 1];
	uint32_t *next = arg, id;
	uint64_t hops;

	if (genlmsg_parse(h, 0, tb, TXNET_A_MAX, NULL) || !tb[TXNET_A_LINK] ||
	    nla_parse_nested(lb, TXNET_A_LINK_MAX, tb[TXNET_A_LINK], NULL) ||
	    !lb[TXNET_A_LINK_ID] || !lb[TXNET_A_LINK_HOPS] || !lb[TXNET_A_LINK_DOWN])
		return -EBADMSG;
	id = nla_get_u32(lb[TXNET_A_LINK_ID]);
	hops = nla_get_u64(lb[TXNET_A_LINK_HOPS]);
	if (id != *next || id >= 8 || hops > 1 || nla_get_u8(lb[TXNET_A_LINK_DOWN]))
		return -ERANGE;
	(*next)++;
	return 0;
}

static void dumper(struct dump_stats *ds)
{
	struct txnl t;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) || txnl_open(&t))
		_exit(2);
	while (!ds->done && !ds->bad) {
		struct nl_msg *m = txnl_msg(&t, TXNET_CMD_LINKS, NLM_F_DUMP);
		uint32_t next = 0;
		int ret;

		if (!m)
			_exit(3);
		nla_put_string(m, TXNET_A_NAME, NET);
		ret = txnl_xfer_raw(&t, m, link_check, &next);
		if (ret == -ENOENT || (!ret && t.dump_intr)) {
			ds->gone++;	/* no network, or it ended between two parts */
		} else if (!ret && next == 8) {
			ds->oks++;
		} else {
			snprintf(ds->why, sizeof(ds->why), "dump: %d after %u links ('%.60s')", ret,
				 next, t.msg);
			ds->bad++;
		}
	}
	txnl_close(&t);
	_exit(0);
}

TEST_F_TIMEOUT(race, destroy_vs_links_dumps, 300)
{
	struct dump_stats *ds = mmap(NULL, sizeof(*ds), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int cycles = cycles_wanted() / 4, c, status, waited;
	uint64_t t0 = now_ns();
	pid_t pid;

	ASSERT_NE(MAP_FAILED, ds);
	memset(ds, 0, sizeof(*ds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		txnl_close(&self->t);
		dumper(ds);
	}
	for (c = 1; c <= cycles && !ds->bad && now_ns() - t0 < CYCLE_BUDGET_NS; c++) {
		ASSERT_EQ(0, txnl_ring(&self->t, NET, 4, NULL)) TH_LOG("%s", self->t.msg);
		ASSERT_EQ(0, txnl_send(&self->t, NET, 0, 1, "x", 1)) TH_LOG("%s", self->t.msg);
		/* the first network stays until a dump has seen it whole (a hang guard of 60 s) */
		for (waited = 0; c == 1 && !ds->oks && !ds->bad && waited < 60000; waited++)
			sleep_ms(1);
		ASSERT_EQ(0, txnl_del(&self->t, NET)) TH_LOG("%s", self->t.msg);
	}
	ds->done = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("dumper status 0x%x", status);
	TH_LOG("%d cycles in %.1f s; %d whole dumps, %d of no network, %d bad%s%s", c - 1,
	       (now_ns() - t0) / 1e9, ds->oks, ds->gone, ds->bad, ds->bad ? ": " : "", ds->why);
	EXPECT_EQ(0, ds->bad);
	EXPECT_LT(0, ds->oks);
	munmap(ds, sizeof(*ds));
}

/*
 * A SERIES dump whose network is destroyed between two of its parts ends
 * marked interrupted (NLM_F_DUMP_INTR), as a LINKS dump does, not with an
 * error half-way (it answered ENOENT).  No race to win: the reader deletes
 * the network while it takes the dump's first row, and the kernel makes a
 * part only when the reader has taken the one before.  Ring 128's total
 * exchange keeps 2 link rows and 128 node rows of 256 samples ([Dimakopoulos94]'s
 * 2048 ticks, sampled every 8): 130 rows of a kilobyte or two, more parts
 * than the two the kernel has made by then.
 */
struct series_cut {
	struct txnl *del;
	int rows, del_err;
};

static int series_row_cut(struct nlmsghdr *h, void *arg)
{
	struct series_cut *c = arg;

	(void)h;
	if (!c->rows++)
		c->del_err = txnl_del(c->del, NET);
	return 0;
}

TEST_F(race, series_dump_of_a_destroyed_network)
{
	struct series_cut cut = { 0 };
	struct txnl_result res;
	struct txnl ev, del;
	struct nl_msg *m;

	ASSERT_EQ(0, txnl_events_open(&ev));
	ASSERT_EQ(0, txnl_open(&del));
	ASSERT_EQ(0, txnl_ring(&self->t, NET, 128, NULL)) TH_LOG("%s", self->t.msg);
	m = txnl_msg(&self->t, TXNET_CMD_RUN, 0);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, NET));
	ASSERT_LE(0, nla_put_u32(m, TXNET_A_OP, TXNET_OP_TOTAL_EXCHANGE));
	ASSERT_LE(0, nla_put_u8(m, TXNET_A_RECORD, 1));
	ASSERT_EQ(0, txnl_xfer(&self->t, m, NULL, NULL)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, txnl_run_done(&ev, NET, 0, 600000, &res));
	ASSERT_EQ(1, res.verified) TH_LOG("%s", res.error);

	cut.del = &del;
	m = txnl_msg(&self->t, TXNET_CMD_SERIES, NLM_F_DUMP);
	ASSERT_NE(NULL, m);
	ASSERT_LE(0, nla_put_string(m, TXNET_A_NAME, NET));
	EXPECT_EQ(0, txnl_xfer_raw(&self->t, m, series_row_cut, &cut)) TH_LOG("%s", self->t.msg);
	EXPECT_EQ(0, cut.del_err) TH_LOG("%s", del.msg);
	EXPECT_TRUE(self->t.dump_intr);
	EXPECT_LT(0, cut.rows);
	EXPECT_GT(130, cut.rows);	/* the rows of the parts made before the delete */
	TH_LOG("%d of 130 rows in %d datagrams, then the end marked interrupted", cut.rows,
	       self->t.batches);
	EXPECT_EQ(-ENOENT, txnl_get(&self->t, NET, NULL));
	txnl_close(&del);
	txnl_close(&ev);
}

TEST_HARNESS_MAIN
