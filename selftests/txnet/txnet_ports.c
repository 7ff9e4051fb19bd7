// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_ports: packets sent from one processor's port to another's
 * (TXNET_CMD_SEND) cross the fabric on a shortest path under the timing
 * model of DESIGN.md (one packet per link per tick, store-and-forward,
 * consumed on arrival), and are read at the destination (TXNET_CMD_RECV):
 * transit times, a matrix transpose, bad input, the slot limit, and the
 * turns ports and exchanges take.
 */
#include <string.h>
#include <time.h>

#include "txnet_harness.h"

#define WAIT_MS	5000

FIXTURE(pt) {
	struct txnl t;
	struct txnl ev;
	struct txnl_pmsg *buf;
	struct txnl_pmsgs l;
};

FIXTURE_SETUP(pt)
{
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, txnl_events_open(&self->ev));
	self->buf = calloc(TXNET_PORT_SLOTS + 16, sizeof(*self->buf));
	ASSERT_NE(NULL, self->buf);
	self->l = (struct txnl_pmsgs){ .cap = TXNET_PORT_SLOTS + 16, .m = self->buf };
}

FIXTURE_TEARDOWN(pt)
{
	if (self->t.sk)
		txnl_del_all(&self->t);
	txnl_close(&self->t);
	txnl_close(&self->ev);
	free(self->buf);
}

static void reset(struct txnl_pmsgs *l)
{
	l->n = 0;
	l->replied = 0;
}

static int make_net(struct txnl *t, const char *name, uint32_t topo, uint32_t n,
		    uint32_t port_model, uint64_t tick_ns)
{
	struct txnet_req r = {
		.name = name, .topo = topo, .ndims = 1, .size = { n },
		.port_model = port_model, .has_tick = tick_ns != 0, .tick_ns = tick_ns,
	};

	return txnl_new(t, &r, NULL);
}

/* RECV at @node until @want packets are in @l or @ms pass: l->n or -errno. */
static int wait_recv(struct txnl *t, const char *net, uint32_t node, struct txnl_pmsgs *l,
		     int want, int ms)
{
	int ret;

	for (int waited = 0;; waited += 2) {
		ret = txnl_recv_all(t, net, node, l);
		if (ret < 0)
			return ret;
		if (l->n >= want || waited >= ms)
			return l->n;
		sleep_ms(2);
	}
}

/* CPU time (user + system) of the thread named @comm, in ms, or -1. */
static long thread_cpu_ms(const char *comm)
{
	char path[300], buf[512], name[64];
	unsigned long ut, st;
	struct dirent *de;
	long ms = -1;
	DIR *d = opendir("/proc");

	if (!d)
		return -1;
	while (ms < 0 && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (read_str(path, name, sizeof(name)) || strcmp(name, comm))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (read_str(path, buf, sizeof(buf)))
			continue;
		/* fields 14 and 15, after the ")" that ends the name */
		if (sscanf(strrchr(buf, ')') + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
			   &ut, &st) == 2)
			ms = (long)((ut + st) * 1000 / sysconf(_SC_CLK_TCK));
	}
	closedir(d);
	return ms;
}

/* Ring distance: the shorter way round. */
static uint32_t ring_dist(uint32_t n, uint32_t a, uint32_t b)
{
	uint32_t d = a > b ? a - b : b - a;

	return d < n - d ? d : n - d;
}

/*
 * One packet alone on the fabric moves one link per tick (DESIGN.md,
 * timing model) along a shortest path: it arrives exactly its distance
 * after it was sent.
 */
TEST_F(pt, ring9_single_packets)
{
	static const struct { uint32_t src, dst; } cases[] = {
		{ 0, 4 }, { 0, 5 }, { 0, 1 }, { 8, 0 }, { 3, 7 }, { 2, 6 },
	};
	struct txnl_netx x;

	ASSERT_EQ(0, make_net(&self->t, "r9", TXNET_TOPO_RING, 9, 0, 0));
	for (unsigned int c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char data[32];
		uint32_t src = cases[c].src, dst = cases[c].dst;
		int len = snprintf(data, sizeof(data), "hello %u->%u", src, dst);

		reset(&self->l);
		ASSERT_EQ(0, txnl_send(&self->t, "r9", src, dst, data, len)) TH_LOG("%s", self->t.msg);
		ASSERT_EQ(1, wait_recv(&self->t, "r9", dst, &self->l, 1, WAIT_MS))
			TH_LOG("%u->%u never arrived", src, dst);
		EXPECT_EQ(src, self->buf[0].src);
		EXPECT_EQ(dst, self->buf[0].dst);
		ASSERT_EQ(len, self->buf[0].len);
		EXPECT_EQ(0, memcmp(data, self->buf[0].data, len));
		EXPECT_EQ(ring_dist(9, src, dst), self->buf[0].recv_tick - self->buf[0].sent_tick)
			TH_LOG("%u->%u sent %llu recv %llu", src, dst,
			       (unsigned long long)self->buf[0].sent_tick,
			       (unsigned long long)self->buf[0].recv_tick);
	}
	EXPECT_EQ(4, ring_dist(9, 0, 4));
	/* nothing anywhere else */
	for (uint32_t v = 0; v < 9; v++) {
		reset(&self->l);
		EXPECT_EQ(0, txnl_recv(&self->t, "r9", v, &self->l)) TH_LOG("node %u", v);
		EXPECT_EQ(1, self->l.replied);
	}
	ASSERT_EQ(0, txnl_getx(&self->t, "r9", &x));
	EXPECT_TRUE(x.info.has[TXNET_A_PORTS_IN_FLIGHT] && x.info.has[TXNET_A_PORTS_UNREAD]);
	EXPECT_EQ(0, x.ports_in_flight);
	EXPECT_EQ(0, x.ports_unread);
}

/* Single-port does not slow a lone packet down. */
TEST_F(pt, ring9_single_port)
{
	ASSERT_EQ(0, make_net(&self->t, "s9", TXNET_TOPO_RING, 9, TXNET_PORT_SINGLE, 0));
	ASSERT_EQ(0, txnl_send(&self->t, "s9", 0, 4, "x", 1));
	ASSERT_EQ(1, wait_recv(&self->t, "s9", 4, &self->l, 1, WAIT_MS));
	EXPECT_EQ(4, self->buf[0].recv_tick - self->buf[0].sent_tick);
}

/*
 * butterfly 8: n = log2 8 = 3 stages, one a tick; every processor-to-
 * processor path crosses the n stages in n = 3 links ([Massini03] on
 * log N-stage MINs; Documentation/txnet-topologies.rst, "Multistage
 * networks").
 */
TEST_F_TIMEOUT(pt, butterfly8_transit, 120)
{
	ASSERT_EQ(0, make_net(&self->t, "bf", TXNET_TOPO_BUTTERFLY, 8, 0, 0));
	for (uint32_t s = 0; s < 8; s++) {
		for (uint32_t d = 0; d < 8; d++) {
			char data[8];

			if (s == d)
				continue;
			snprintf(data, sizeof(data), "%u%u", s, d);
			reset(&self->l);
			ASSERT_EQ(0, txnl_send(&self->t, "bf", s, d, data, 2)) TH_LOG("%s", self->t.msg);
			ASSERT_EQ(1, wait_recv(&self->t, "bf", d, &self->l, 1, WAIT_MS))
				TH_LOG("%u->%u never arrived", s, d);
			EXPECT_EQ(s, self->buf[0].src);
			EXPECT_EQ(0, memcmp(data, self->buf[0].data, 2));
			/* one stage a tick: log2(8) = 3 ([Massini03], section 2) */
			EXPECT_EQ(3, self->buf[0].recv_tick - self->buf[0].sent_tick)
				TH_LOG("%u->%u", s, d);
		}
	}
}

/*
 * A matrix transpose on ring 6: node i holds row i of M and sends element
 * (i,j) to node j; node j then holds column j of M, which is row j of M^T.
 */
TEST_F(pt, ring6_transpose)
{
	enum { N = 6 };
	char got[N][N][8];
	int seen[N][N] = { { 0 } };

	memset(got, 0, sizeof(got));
	ASSERT_EQ(0, make_net(&self->t, "tr", TXNET_TOPO_RING, N, 0, 0));
	for (uint32_t i = 0; i < N; i++)
		for (uint32_t j = 0; j < N; j++) {
			char e[8];

			if (i == j)
				continue;
			snprintf(e, sizeof(e), "%u,%u", i, j);
			ASSERT_EQ(0, txnl_send(&self->t, "tr", i, j, e, strlen(e)))
				TH_LOG("%s", self->t.msg);
		}
	for (uint32_t j = 0; j < N; j++) {
		reset(&self->l);
		ASSERT_EQ(N - 1, wait_recv(&self->t, "tr", j, &self->l, N - 1, WAIT_MS))
			TH_LOG("node %u", j);
		/* and then the port is empty */
		EXPECT_EQ(0, txnl_recv(&self->t, "tr", j, &self->l));
		for (int k = 0; k < self->l.n; k++) {
			struct txnl_pmsg *p = &self->buf[k];

			ASSERT_EQ(j, p->dst);
			ASSERT_GT(N, p->src);
			ASSERT_GT(sizeof(got[0][0]), p->len);
			seen[j][p->src]++;
			memcpy(got[j][p->src], p->data, p->len);
			/* never faster than one link per tick on a shortest path */
			EXPECT_LE(ring_dist(N, p->src, j), p->recv_tick - p->sent_tick);
		}
	}
	/* got is M^T: got[j][i] == M[i][j] == "i,j" */
	for (uint32_t j = 0; j < N; j++)
		for (uint32_t i = 0; i < N; i++) {
			char want[8];

			if (i == j)
				continue;
			snprintf(want, sizeof(want), "%u,%u", i, j);
			EXPECT_EQ(1, seen[j][i]) TH_LOG("(%u,%u)", i, j);
			EXPECT_STREQ(want, got[j][i]);
		}
}


TEST_F(pt, bad_input)
{
	struct txnl_send_offs o;
	struct txnl_netx x;
	uint8_t big[TXNET_PORT_DATA_MAX + 1];
	int off = -1;

	memset(big, 0xab, sizeof(big));
	ASSERT_EQ(0, make_net(&self->t, "pb", TXNET_TOPO_RING, 9, 0, 0));
	CALL_REFUSED(-EINVAL, txnl_send_at(&self->t, "pb", 9, 1, "a", 1, &o));
	EXPECT_EQ(o.src, self->t.off);
	CALL_REFUSED(-EINVAL, txnl_send_at(&self->t, "pb", 1, 9, "a", 1, &o));
	EXPECT_EQ(o.dst, self->t.off);
	CALL_REFUSED(-EINVAL, txnl_send_at(&self->t, "pb", 0xffffffffu, 1, "a", 1, &o));
	EXPECT_EQ(o.src, self->t.off);
	CALL_REFUSED(-EINVAL, txnl_send_at(&self->t, "pb", 3, 3, "a", 1, &o));
	EXPECT_EQ(o.dst, self->t.off);
	/* too long for the policy's NLA_BINARY .len: lib/nlattr.c says ERANGE */
	CALL_REFUSED(-ERANGE, txnl_send_at(&self->t, "pb", 0, 1, big, TXNET_PORT_DATA_MAX + 1, &o));
	EXPECT_EQ(o.data, self->t.off);
	CALL_REFUSED(-ENOENT, txnl_send_at(&self->t, "nosuch", 0, 1, "a", 1, &o));
	EXPECT_EQ(o.name, self->t.off);
	CALL_REFUSED(-EINVAL, txnl_recv_at(&self->t, "pb", 9, &self->l, &off));
	EXPECT_EQ(off, self->t.off);
	CALL_REFUSED(-ENOENT, txnl_recv(&self->t, "nosuch", 0, &self->l));
	/* the refusals set nothing up */
	ASSERT_EQ(0, txnl_getx(&self->t, "pb", &x));
	EXPECT_FALSE(x.info.has[TXNET_A_PORTS_IN_FLIGHT]);
	EXPECT_FALSE(x.info.has[TXNET_A_PORTS_UNREAD]);
	EXPECT_EQ(0, x.info.ticks);
	/* the limits themselves are fine: 256 bytes, and none */
	ASSERT_EQ(0, txnl_send(&self->t, "pb", 0, 1, big, TXNET_PORT_DATA_MAX)) TH_LOG("%s",
										self->t.msg);
	ASSERT_EQ(0, txnl_send(&self->t, "pb", 0, 1, NULL, 0)) TH_LOG("%s", self->t.msg);
	reset(&self->l);
	ASSERT_EQ(2, wait_recv(&self->t, "pb", 1, &self->l, 2, WAIT_MS));
	for (int k = 0; k < 2; k++) {
		if (self->buf[k].len == TXNET_PORT_DATA_MAX) {
			EXPECT_EQ(0, memcmp(big, self->buf[k].data, TXNET_PORT_DATA_MAX));
		} else {
			EXPECT_EQ(0, self->buf[k].len);
		}
	}
	EXPECT_NE(self->buf[0].len, self->buf[1].len);
}

/* In flight plus unread is capped at TXNET_PORT_SLOTS per network. */
TEST_F_TIMEOUT(pt, slots_limit, 180)
{
	bool seen[TXNET_PORT_SLOTS] = { false };
	struct txnl_netx x;
	int dup = 0;

	ASSERT_EQ(0, make_net(&self->t, "sl", TXNET_TOPO_RING, 9, 0, 0));
	for (uint32_t k = 0; k < TXNET_PORT_SLOTS; k++) {
		uint16_t v = (uint16_t)k;

		ASSERT_EQ(0, txnl_send(&self->t, "sl", 0, 1, &v, sizeof(v)))
			TH_LOG("packet %u: %s", k, self->t.msg);
	}
	CALL_REFUSED(-ENOBUFS, txnl_send(&self->t, "sl", 2, 3, "x", 1));
	ASSERT_EQ(0, txnl_getx(&self->t, "sl", &x));
	EXPECT_EQ(TXNET_PORT_SLOTS, x.ports_in_flight + x.ports_unread);
	reset(&self->l);
	ASSERT_EQ(TXNET_PORT_SLOTS, wait_recv(&self->t, "sl", 1, &self->l, TXNET_PORT_SLOTS,
					       30000));
	EXPECT_LT(1, self->l.replied);	/* more than one reply's worth */
	for (int k = 0; k < self->l.n; k++) {
		uint16_t v;

		ASSERT_EQ(2, self->buf[k].len);
		memcpy(&v, self->buf[k].data, 2);
		ASSERT_GT(TXNET_PORT_SLOTS, v);
		dup += seen[v];
		seen[v] = true;
	}
	EXPECT_EQ(0, dup);
	/* read: room again */
	ASSERT_EQ(0, txnl_send(&self->t, "sl", 2, 3, "x", 1)) TH_LOG("%s", self->t.msg);
	reset(&self->l);
	EXPECT_EQ(1, wait_recv(&self->t, "sl", 3, &self->l, 1, WAIT_MS));
}

/*
 * Ports and exchanges share the network; the run goes first.  A scatter
 * from 0 on linear 30 sends its 29 packets one a tick over 0 -> 1, at
 * 1 s a tick: it runs for at least 29 s, however fast the host, and never
 * uses a link towards 0.  A packet from 5 to 4 meanwhile takes 5 -> 4,
 * idle, and arrives in one tick, with the run still going; the result
 * counts that hop beside it.
 */
TEST_F_TIMEOUT(pt, send_while_running, 60)
{
	struct txnl_run_req q = { .name = "sr", .op = TXNET_OP_SCATTER, .has_root = true };
	struct txnl_result r;
	struct txnl_netx x;
	uint32_t id;

	ASSERT_EQ(0, make_net(&self->t, "sr", TXNET_TOPO_LINEAR, 30, 0, TXNET_TICK_NS_MAX));
	ASSERT_EQ(0, txnl_run(&self->t, &q, &id)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_send(&self->t, "sr", 5, 4, "x", 1)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, wait_recv(&self->t, "sr", 4, &self->l, 1, WAIT_MS));
	EXPECT_EQ(1, self->buf[0].recv_tick - self->buf[0].sent_tick);
	ASSERT_EQ(0, txnl_getx(&self->t, "sr", &x));
	EXPECT_EQ(TXNET_STATE_RUNNING, x.info.state);
	EXPECT_EQ(id, x.run_id);
	ASSERT_EQ(0, txnl_stop(&self->t, "sr"));
	ASSERT_EQ(1, txnl_run_done(&self->ev, "sr", id, WAIT_MS, &r));
	EXPECT_EQ(TXNET_RUN_STOPPED, r.status);
	ASSERT_TRUE(r.has[TXNET_A_RES_SHARED_HOPS]);
	EXPECT_EQ(1, r.shared_hops);
}

/*
 * A run starts while a port packet is in flight and goes first: message
 * shift on a ring of 9 uses every link every tick ([Dimakopoulos94] section 4.1)
 * and still takes its ceil((9^2-1)/8) = 10 ticks, Theorem 2; the packet
 * from 0 to 4 waits and arrives after the run, 4 hops after more than 4
 * ticks.
 */
TEST_F_TIMEOUT(pt, run_while_in_flight, 60)
{
	struct txnl_result r;
	uint32_t id;

	ASSERT_EQ(0, make_net(&self->t, "rf", TXNET_TOPO_RING, 9, 0, TXNET_TICK_NS_MAX));
	ASSERT_EQ(0, txnl_send(&self->t, "rf", 0, 4, "late", 4));
	ASSERT_EQ(0, txnl_set(&self->t, "rf", NULL, (uint64_t[]){ 0 }));
	ASSERT_EQ(0, txnl_run_algo(&self->t, "rf", TXNET_ALGO_AUTO, &id)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, txnl_run_done(&self->ev, "rf", id, WAIT_MS, &r));
	EXPECT_EQ(TXNET_RUN_DONE, r.status);
	EXPECT_EQ(10, r.steps);
	/* every link busy every tick: nothing moved beside it */
	ASSERT_TRUE(r.has[TXNET_A_RES_SHARED_HOPS]);
	EXPECT_EQ(0, r.shared_hops);
	ASSERT_EQ(1, wait_recv(&self->t, "rf", 4, &self->l, 1, WAIT_MS));
	EXPECT_LE(4, self->buf[0].recv_tick - self->buf[0].sent_tick);
	EXPECT_EQ(0, memcmp(self->buf[0].data, "late", 4));
}

/* Unread packets do not block an exchange, and survive it. */
TEST_F(pt, unread_survives_run)
{
	struct txnl_result r;
	uint32_t id;

	ASSERT_EQ(0, make_net(&self->t, "us", TXNET_TOPO_RING, 9, 0, 0));
	ASSERT_EQ(0, txnl_send(&self->t, "us", 2, 5, "keep", 4));
	for (int i = 0; i < 1000; i++) {
		struct txnl_netx x;

		ASSERT_EQ(0, txnl_getx(&self->t, "us", &x));
		if (x.ports_unread == 1)
			break;
		sleep_ms(2);
	}
	ASSERT_EQ(0, txnl_run_algo(&self->t, "us", TXNET_ALGO_AUTO, &id)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, txnl_run_done(&self->ev, "us", id, WAIT_MS, &r));
	EXPECT_EQ(TXNET_RUN_DONE, r.status);
	ASSERT_EQ(1, txnl_recv_all(&self->t, "us", 5, &self->l));
	EXPECT_EQ(0, memcmp("keep", self->buf[0].data, 4));
	EXPECT_EQ(3, self->buf[0].recv_tick - self->buf[0].sent_tick);
}

/*
 * A STOPped paced run must not leave the network unable to move port
 * packets afterwards.
 */
TEST_F_TIMEOUT(pt, ports_after_stopped_paced_run, 60)
{
	struct txnl_result r;
	uint32_t id;

	/*
	 * ring 9: 10 ticks ([Dimakopoulos94] Theorem 2) of 1 s, so that the run
	 * cannot end before the STOP; the ports then move at 1 ms a tick
	 */
	ASSERT_EQ(0, make_net(&self->t, "ps", TXNET_TOPO_RING, 9, 0, TXNET_TICK_NS_MAX));
	ASSERT_EQ(0, txnl_run_algo(&self->t, "ps", TXNET_ALGO_AUTO, &id));
	ASSERT_EQ(0, txnl_stop(&self->t, "ps")) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, txnl_run_done(&self->ev, "ps", id, WAIT_MS, &r));
	EXPECT_EQ(TXNET_RUN_STOPPED, r.status);
	for (int i = 0; i < 500; i++) {	/* until the thread has let go of the run */
		struct txnl_netx x;

		ASSERT_EQ(0, txnl_getx(&self->t, "ps", &x));
		if (x.info.state == TXNET_STATE_IDLE)
			break;
		sleep_ms(2);
	}
	ASSERT_EQ(0, txnl_set(&self->t, "ps", NULL, (uint64_t[]){ 1000000 })) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, txnl_send(&self->t, "ps", 0, 4, "after", 5)) TH_LOG("%s", self->t.msg);
	if (wait_recv(&self->t, "ps", 4, &self->l, 1, 2000) != 1) {
		long cpu0 = thread_cpu_ms("txnet/ps"), cpu1;

		sleep_ms(500);
		cpu1 = thread_cpu_ms("txnet/ps");
		TH_LOG("a packet sent after a STOPped paced run never arrived; "
		       "the tick thread used %ld ms of CPU in 500 ms", cpu1 - cpu0);
		ASSERT_TRUE(false);
	}
	EXPECT_EQ(4, self->buf[0].recv_tick - self->buf[0].sent_tick);
}

/* One row of a LINKS dump. */
struct link_row {
	uint32_t from, to;
	uint64_t hops;
	uint8_t down;
};

struct link_rows {
	struct link_row v[64];
	uint32_t n;
};

static int link_row_one(struct nlmsghdr *h, void *arg)
{
	struct nlattr *tb[TXNET_A_MAX + 1], *lb[TXNET_A_LINK_MAX + 1];
	struct link_rows *rows = arg;
	uint32_t id;

	if (genlmsg_parse(h, 0, tb, TXNET_A_MAX, NULL) || !tb[TXNET_A_LINK] ||
	    nla_parse_nested(lb, TXNET_A_LINK_MAX, tb[TXNET_A_LINK], NULL))
		return -EBADMSG;
	if (!lb[TXNET_A_LINK_ID] || !lb[TXNET_A_LINK_FROM] || !lb[TXNET_A_LINK_TO] ||
	    !lb[TXNET_A_LINK_HOPS] || !lb[TXNET_A_LINK_DOWN])
		return -ENODATA;
	id = nla_get_u32(lb[TXNET_A_LINK_ID]);
	/* a link a message, in link order */
	if (id != rows->n || id >= 64)
		return -ERANGE;
	rows->v[id] = (struct link_row){
		nla_get_u32(lb[TXNET_A_LINK_FROM]), nla_get_u32(lb[TXNET_A_LINK_TO]),
		nla_get_u64(lb[TXNET_A_LINK_HOPS]), nla_get_u8(lb[TXNET_A_LINK_DOWN]),
	};
	rows->n++;
	return 0;
}

static int links_dump(struct txnl *t, const char *name, struct link_rows *rows)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_LINKS, NLM_F_DUMP);

	rows->n = 0;
	if (!m)
		return -ENOMEM;
	if (name)
		nla_put_string(m, TXNET_A_NAME, name);
	return txnl_xfer_raw(t, m, link_row_one, rows);
}

static uint64_t hops_on(const struct link_rows *rows, uint32_t from, uint32_t to, uint8_t *down)
{
	for (uint32_t i = 0; i < rows->n; i++)
		if (rows->v[i].from == from && rows->v[i].to == to) {
			*down = rows->v[i].down;
			return rows->v[i].hops;
		}
	*down = 0xff;
	return UINT64_MAX;
}

static void cable(struct txnl *t, const char *name, uint32_t u, uint32_t v, uint8_t up)
{
	struct nl_msg *m = txnl_msg(t, TXNET_CMD_FAULT, 0);

	if (!m)
		return;
	nla_put_string(m, TXNET_A_NAME, name);
	nla_put_u32(m, TXNET_A_SRC, u);
	nla_put_u32(m, TXNET_A_DST, v);
	nla_put_u8(m, TXNET_A_UP, up);
	txnl_xfer(t, m, NULL, NULL);
}

/*
 * Per-link counters (TXNET_CMD_LINKS): a packet 0 -> 4 on a ring of 9
 * crosses the four links 0->1 .. 3->4, one hop each, and no other; with
 * the cable 1-2 cut, both its links report down and a packet 0 -> 2 takes
 * the other way round, 7 links (8->7 ... 3->2), in 7 ticks.
 */
TEST_F(pt, link_counters)
{
	struct link_rows rows;
	uint64_t sum = 0;
	uint8_t down;
	uint32_t v;

	ASSERT_EQ(0, make_net(&self->t, "lc", TXNET_TOPO_RING, 9, 0, 0));
	ASSERT_EQ(0, links_dump(&self->t, "lc", &rows)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(18, rows.n);
	for (v = 0; v < rows.n; v++)
		EXPECT_EQ(0, rows.v[v].hops + rows.v[v].down);
	reset(&self->l);
	ASSERT_EQ(0, txnl_send(&self->t, "lc", 0, 4, "four", 4)) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(1, wait_recv(&self->t, "lc", 4, &self->l, 1, WAIT_MS));
	ASSERT_EQ(0, links_dump(&self->t, "lc", &rows));
	for (v = 0; v < 4; v++) {
		EXPECT_EQ(1, hops_on(&rows, v, v + 1, &down)) TH_LOG("%u->%u", v, v + 1);
		EXPECT_EQ(0, down);
	}
	for (v = 0; v < rows.n; v++)
		sum += rows.v[v].hops;
	EXPECT_EQ(4, sum);

	cable(&self->t, "lc", 1, 2, 0);
	ASSERT_EQ(0, self->t.err) TH_LOG("%s", self->t.msg);
	ASSERT_EQ(0, links_dump(&self->t, "lc", &rows));
	EXPECT_EQ(1, hops_on(&rows, 1, 2, &down));
	EXPECT_EQ(1, down);
	EXPECT_EQ(0, hops_on(&rows, 2, 1, &down));
	EXPECT_EQ(1, down);
	EXPECT_EQ(0, hops_on(&rows, 0, 8, &down));
	EXPECT_EQ(0, down);
	reset(&self->l);
	ASSERT_EQ(0, txnl_send(&self->t, "lc", 0, 2, "around", 6));
	ASSERT_EQ(1, wait_recv(&self->t, "lc", 2, &self->l, 1, WAIT_MS));
	EXPECT_EQ(7, self->buf[0].recv_tick - self->buf[0].sent_tick);
	ASSERT_EQ(0, links_dump(&self->t, "lc", &rows));
	EXPECT_EQ(1, hops_on(&rows, 0, 8, &down));
	for (v = 8; v > 2; v--)
		EXPECT_EQ(1, hops_on(&rows, v, v - 1, &down)) TH_LOG("%u->%u", v, v - 1);
	for (v = 0, sum = 0; v < rows.n; v++)
		sum += rows.v[v].hops;
	EXPECT_EQ(4 + 7, sum);

	/* the dump names its network */
	EXPECT_EQ(-EINVAL, links_dump(&self->t, NULL, &rows));
	EXPECT_NE(NULL, strstr(self->t.msg, "TXNET_A_NAME"));
	EXPECT_EQ(-ENOENT, links_dump(&self->t, "nosuch", &rows));
	EXPECT_EQ(0, rows.n);
}

/* Destroying a network with packets in flight and unread frees them all. */
TEST_F(pt, destroy_with_packets)
{
	struct txnet_info i;
	char old[32], val[32];
	int ret;

	ASSERT_EQ(0, make_net(&self->t, "dp", TXNET_TOPO_RING, 9, 0, 0));
	ASSERT_EQ(0, txnl_get(&self->t, "dp", &i));
	ASSERT_EQ(0, txnl_send(&self->t, "dp", 0, 4, "unread", 6));
	ASSERT_EQ(1, wait_recv(&self->t, "dp", 4, &self->l, 1, WAIT_MS));
	ASSERT_EQ(0, txnl_send(&self->t, "dp", 0, 4, "unread", 6));
	ASSERT_EQ(0, txnl_set(&self->t, "dp", NULL, (uint64_t[]){ 100000000 }));
	ASSERT_EQ(0, txnl_send(&self->t, "dp", 1, 5, "in flight", 9));
	ASSERT_EQ(0, txnl_del(&self->t, "dp"));
	EXPECT_EQ(0, kthreads_become(0));
	/*
	 * Nothing charged is left: a budget of exactly one network's
	 * MEM_BYTES admits the same network again.
	 */
	ASSERT_EQ(0, txnl_count(&self->t));
	ASSERT_EQ(0, param_read("mem_budget", old, sizeof(old)));
	snprintf(val, sizeof(val), "%llu",
		 (unsigned long long)(i.mem_bytes < 4096 ? 4096 : i.mem_bytes));
	ASSERT_EQ(0, param_write("mem_budget", val));
	ret = make_net(&self->t, "dp", TXNET_TOPO_RING, 9, 0, 0);
	EXPECT_EQ(0, param_write("mem_budget", old));
	EXPECT_EQ(0, ret) TH_LOG("a leaked charge: %s", self->t.msg);
}

TEST_HARNESS_MAIN
