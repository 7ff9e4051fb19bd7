// SPDX-License-Identifier: GPL-2.0
/*
 * txnet_nlfuzz: a netlink fuzzer of the txnet family, run inside the VM.
 *
 * Sends COUNT messages (-n COUNT or $TXNET_NLFUZZ_COUNT) drawn from a
 * seeded PRNG (-s SEED or $TXNET_NLFUZZ_SEED, printed first so any failure
 * can be replayed): half as root, half from an unprivileged child, both at
 * once.  A message is either random (any command, 0 and out-of-range ones
 * included, any nlmsg flags, a random attribute stream with random types,
 * lengths and nesting, truncated headers and bad nla_len), or a valid
 * request of one of the commands (NEW of every topology, DEL, GET, the GET
 * dump, SET, RUN, STOP, SEND, RECV), mutated or not: bits flipped, an
 * attribute's type or length changed, attributes dropped or duplicated,
 * integers replaced by boundary values, strings made too long, names with
 * '/' or empty.  Every message is sent on a raw NETLINK_GENERIC socket and
 * every answer read back (genetlink answers synchronously, so the answer
 * is in the socket when send() returns; dumps go on in recv()).
 *
 * Failures:
 *  - an answer that is not well formed: not an NLMSG_ERROR, NLMSG_DONE or
 *    txnet message, a bad length, bad attributes, a reply with the wrong
 *    command, a NEW reply beyond max_nodes;
 *  - the unprivileged child succeeding at an admin command (NEW, DEL, SET,
 *    RUN, STOP, SEND, RECV): an ack of 0, a reply, or no answer at all to a
 *    well-formed request without NLM_F_ACK, which means the handler
 *    returned 0; or an admin command refused with an errno that only the
 *    handler, past its CAP_NET_ADMIN check, could have given;
 *  - a refusal by a txnet handler (EINVAL, ERANGE, ENOENT, EEXIST, EBUSY,
 *    ENOSPC, E2BIG, EOPNOTSUPP, EPERM on a command of the family that
 *    reached its handler) without an extack message.  The genetlink core
 *    refuses without a message an unknown command or a dump of a command
 *    without dumpit (EOPNOTSUPP) and a message shorter than the genetlink
 *    header (EINVAL): those are not counted.  Every other error without a
 *    message (but ENOMEM) is listed as a diagnostic;
 *  - afterwards, anything left: a network in the dump, a directory under
 *    /sys/kernel/txnet, a txnet/ kthread, mem_used not 0; or rmmod txnet
 *    and modprobe txnet failing.
 *
 * The outcome of every message is counted by sender, command and outcome,
 * and printed at the end.
 */
#define _GNU_SOURCE	/* strerrorname_np() */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "txnet_harness.h"

/* See txnet_unload.c: a false positive of gcc 12 in the harness's wrapper. */
#pragma GCC diagnostic ignored "-Wclobbered"

#define DEFAULT_COUNT	30000
#define NAME_POOL	8
#define MAX_ATTR_TYPE	(TXNET_A_MAX + 3)
#define CMD_BUCKETS	(TXNET_CMD_MAX + 2)	/* 0..MAX, then "out of range" */
#define ERRNOS		136
/* outcomes after the errnos */
#define OUT_ACK		(ERRNOS + 0)	/* NLMSG_ERROR 0 */
#define OUT_REPLY	(ERRNOS + 1)	/* a txnet message (doit reply) */
#define OUT_DONE	(ERRNOS + 2)	/* a dump, ended by NLMSG_DONE */
#define OUT_NONE	(ERRNOS + 3)	/* nothing came back */
#define OUTCOMES	(ERRNOS + 4)
#define MAX_REPORTS	25

static uint64_t opt_count = DEFAULT_COUNT;
static uint64_t opt_seed;
static bool opt_seed_set;

/* ---- PRNG: splitmix64, one state per sender ---- */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rs;	/* the current sender's state (each process its own) */

static uint32_t rnd(uint32_t n)	/* 0..n-1 */
{
	return n ? (uint32_t)(rnd_next(&rs) % n) : 0;
}

static bool chance(uint32_t one_in)
{
	return rnd(one_in) == 0;
}

static const uint64_t boundary[] = {
	0, 1, 2, 3, 0x7f, 0xff, 0x100, 0xffff, 0x10000, 0x10001, 1u << 24, (1u << 24) + 1,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL, 1000000000, 1000000001,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
	TXNET_TOPO_MAX, TXNET_TOPO_MAX + 1, TXNET_ALGO_MAX, TXNET_ALGO_MAX + 1,
	TXNET_PAYLOAD_MAX, TXNET_PAYLOAD_MAX + 1, TXNET_PORT_DATA_MAX, 65536, 65537,
};

static uint64_t rnd_boundary(void)
{
	uint64_t v = boundary[rnd(ARRAY_SIZE(boundary))];

	if (chance(4))
		v += rnd(3) - 1;
	return v;
}

/* ---- shared statistics (MAP_SHARED: root and child write their own half) ---- */

struct fz_stats {
	uint64_t sent[2];
	uint64_t out[2][CMD_BUCKETS][OUTCOMES];
	uint64_t nomsg[2][CMD_BUCKETS][ERRNOS];		/* errors without extack message */
	uint64_t nomsg_core[2];				/* of which the core's (exempt) */
	uint64_t fail_nomsg;		/* txnet handler refusals without a message */
	uint64_t fail_malformed;	/* answers that are not well formed */
	uint64_t fail_priv;		/* unprivileged admin command succeeded */
	uint64_t fail_priv_errno;	/* ... or got past the capability check */
	uint64_t fail_limits;		/* a network beyond max_nodes was created */
	uint64_t created, huge_tries, huge_created, cleanups, stray;
	uint64_t reports;
	bool child_done;
	double secs[2];
};

static struct fz_stats *st;
static int who;			/* 0 root, 1 unprivileged */
static uint32_t max_nodes = 65536;

static const char * const cmd_names[] = {
	"UNSPEC", "NEW", "DEL", "GET", "SET", "RUN", "STOP", "RUN_DONE", "SEND", "RECV",
	"BOUNDS", "LATIN", "SERIES", "FAULT", "LINKS", "SCHEDULE",
};

static const char *cmd_name(int b)
{
	return b < (int)ARRAY_SIZE(cmd_names) ? cmd_names[b] : "cmd>MAX";
}

static int cmd_bucket(int cmd)
{
	return cmd <= TXNET_CMD_MAX ? cmd : TXNET_CMD_MAX + 1;
}

static bool is_op(int cmd)	/* the family has an op for it */
{
	return (cmd >= TXNET_CMD_NEW && cmd <= TXNET_CMD_RECV && cmd != TXNET_CMD_RUN_DONE) ||
	       cmd == TXNET_CMD_FAULT;
}

static bool is_admin(int cmd)
{
	return is_op(cmd) && cmd != TXNET_CMD_GET;
}

/* Counters both senders write. */
#define INC(x) __atomic_fetch_add(&(x), 1, __ATOMIC_RELAXED)

#define fz_log(fmt, ...) fprintf(stderr, "# nlfuzz[%s]: " fmt "\n", who ? "user" : "root", \
				 ##__VA_ARGS__)

/* ---- messages: attribute trees, serialized, then byte-mutated ---- */

#define MAX_NODES_T	96
#define MAX_KIDS	24
#define MAX_DATA	320

struct fnode {
	uint16_t type;		/* with NLA_F_NESTED for nests */
	bool nest;
	uint16_t len;
	uint8_t data[MAX_DATA];
	int nkids;
	int kid[MAX_KIDS];
};

struct ftree {
	int cnt;		/* node 0 is the message's attribute list */
	struct fnode n[MAX_NODES_T];
};

static int tnew(struct ftree *t, int parent, uint16_t type, bool nest)
{
	struct fnode *p = &t->n[parent], *c;

	if (t->cnt == MAX_NODES_T || p->nkids == MAX_KIDS)
		return -1;
	c = &t->n[t->cnt];
	memset(c, 0, sizeof(*c));
	c->type = type | (nest ? NLA_F_NESTED : 0);
	c->nest = nest;
	p->kid[p->nkids++] = t->cnt;
	return t->cnt++;
}

static int tput(struct ftree *t, int parent, uint16_t type, const void *data, int len)
{
	int i = tnew(t, parent, type, false);

	if (i >= 0) {
		if (len > MAX_DATA)
			len = MAX_DATA;
		memcpy(t->n[i].data, data, len);
		t->n[i].len = len;
	}
	return i;
}

static int tu32(struct ftree *t, int parent, uint16_t type, uint32_t v)
{
	return tput(t, parent, type, &v, 4);
}

static int tu64(struct ftree *t, int parent, uint16_t type, uint64_t v)
{
	return tput(t, parent, type, &v, 8);
}

static int tstr(struct ftree *t, int parent, uint16_t type, const char *s)
{
	return tput(t, parent, type, s, (int)strlen(s) + 1);
}

struct fmsg {
	uint8_t buf[16384];
	int len;		/* bytes sent */
	int attr_off[512];	/* header offset of serialized attributes (the first 512) */
	int nattr;
};

static int ser(struct ftree *t, int i, struct fmsg *m)
{
	struct fnode *n = &t->n[i];
	struct nlattr *a;
	int start = m->len, k;

	if (m->len + NLA_HDRLEN + MAX_DATA + 4 > (int)sizeof(m->buf))
		return -1;
	a = (struct nlattr *)(m->buf + m->len);
	a->nla_type = n->type;
	if (m->nattr < (int)ARRAY_SIZE(m->attr_off))
		m->attr_off[m->nattr++] = m->len;
	m->len += NLA_HDRLEN;
	if (n->nest) {
		for (k = 0; k < n->nkids; k++)
			if (ser(t, n->kid[k], m)) {
				/* full: close this nest where it stands */
				a->nla_len = (uint16_t)(m->len - start);
				return -1;
			}
	} else {
		memcpy(m->buf + m->len, n->data, n->len);
		m->len += n->len;
	}
	a->nla_len = (uint16_t)(m->len - start);
	while (m->len % 4)
		m->buf[m->len++] = 0;
	return 0;
}

/* What we told the kernel, to judge its answer. */
struct fsent {
	int cmd;
	uint16_t flags;
	bool framed;		/* nlmsg_len is sane: the kernel parses the message */
	int payload;		/* nlmsg_len - NLMSG_HDRLEN */
	int kind;		/* 0 random, 1 valid, 2 mutated */
	const char *what;
	const char *name;	/* of a valid request: the network it names */
};

/* @noisy: a random version (ignored) and now and then a reserved field (refused). */
static void build_msg(struct ftree *t, struct fmsg *m, int family, int cmd, uint16_t flags,
		      uint32_t seq, bool noisy)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);
	int k;

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nattr = 0;
	g->cmd = (uint8_t)cmd;
	g->version = noisy && chance(16) ? (uint8_t)rnd(256) : TXNET_GENL_VERSION;
	if (noisy && chance(32))
		g->reserved = (uint16_t)rnd(65536);
	for (k = 0; k < t->n[0].nkids; k++)
		if (ser(t, t->n[0].kid[k], m))
			break;
	h->nlmsg_type = (uint16_t)family;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = 0;
	h->nlmsg_len = m->len;
}

/* ---- the network names in play ---- */

static char pool[NAME_POOL][8];
static uint32_t pool_nodes[NAME_POOL];	/* 0: unknown / not created by us */

static const char *special_name(char *buf, size_t len)
{
	static const char * const names[] = {
		"", "/", "a/b", "fz0/", ".", "..", "fz 0", "fz\t0", "\x7f", "\xff\xfe",
		"txnet0", "txnet1", "123456789012345", "1234567890123456",
		"12345678901234567", "-", "fz0\n",
	};
	int i;

	switch (rnd(4)) {
	case 0: {	/* too long */
		int n = (int)rnd(len - 1) + 1;

		for (i = 0; i < n; i++)
			buf[i] = (char)('a' + rnd(26));
		buf[n] = '\0';
		return buf;
	}
	case 1:
		snprintf(buf, len, "%s", pool[rnd(NAME_POOL)]);
		buf[rnd(3)] = (char)(1 + rnd(255));
		return buf;
	default:
		return names[rnd(ARRAY_SIZE(names))];
	}
}

static int pick_pool(void)
{
	return (int)rnd(NAME_POOL);
}

/* ---- valid requests ---- */

struct spec {
	uint32_t topo, base, nd, size[20], kind[20];
	bool huge;
};

static void plausible_spec(struct spec *s)
{
	static const uint32_t weights[] = {	/* ring and linear run exchanges: more of them */
		TXNET_TOPO_RING, TXNET_TOPO_RING, TXNET_TOPO_RING, TXNET_TOPO_LINEAR,
		TXNET_TOPO_LINEAR, TXNET_TOPO_COMPLETE, TXNET_TOPO_MESH, TXNET_TOPO_TORUS,
		TXNET_TOPO_HYPERCUBE, TXNET_TOPO_GHC, TXNET_TOPO_PRODUCT, TXNET_TOPO_BUTTERFLY,
		TXNET_TOPO_OMEGA, TXNET_TOPO_BASELINE, TXNET_TOPO_RBASELINE, TXNET_TOPO_FLIP,
		TXNET_TOPO_BISWAPPED, TXNET_TOPO_DRAGONFLY, TXNET_TOPO_FATTREE, TXNET_TOPO_SLIMFLY,
		TXNET_TOPO_GRAPH, TXNET_TOPO_GRAPH,
	};
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->topo = weights[rnd(ARRAY_SIZE(weights))];
	switch (s->topo) {
	case TXNET_TOPO_LINEAR:
	case TXNET_TOPO_RING:
		s->nd = 1;
		s->size[0] = 2 + rnd(chance(8) ? 200 : 31);
		break;
	case TXNET_TOPO_COMPLETE:
		s->nd = 1;
		s->size[0] = 2 + rnd(40);
		break;
	case TXNET_TOPO_MESH:
	case TXNET_TOPO_TORUS:
		s->nd = 1 + rnd(3);
		for (i = 0; i < s->nd; i++)
			s->size[i] = 2 + rnd(s->nd == 1 ? 60 : s->nd == 2 ? 14 : 6);
		break;
	case TXNET_TOPO_HYPERCUBE:
		s->nd = 1;
		s->size[0] = 1 + rnd(10);
		break;
	case TXNET_TOPO_GHC:
	case TXNET_TOPO_PRODUCT:
		s->nd = 1 + rnd(3);
		for (i = 0; i < s->nd; i++) {
			s->size[i] = 2 + rnd(6);
			if (s->topo == TXNET_TOPO_PRODUCT)
				s->kind[i] = 1 + rnd(TXNET_DIM_MAX);
		}
		break;
	case TXNET_TOPO_BISWAPPED:
		s->base = 1 + rnd(TXNET_TOPO_MAX - 1);
		s->nd = s->base == TXNET_TOPO_MESH || s->base == TXNET_TOPO_TORUS ||
			s->base == TXNET_TOPO_GHC || s->base == TXNET_TOPO_PRODUCT ? 1 + rnd(2) : 1;
		for (i = 0; i < s->nd; i++) {
			s->size[i] = 2 + rnd(s->base == TXNET_TOPO_HYPERCUBE ? 3 : 5);
			if (s->base == TXNET_TOPO_PRODUCT)
				s->kind[i] = 1 + rnd(TXNET_DIM_MAX);
		}
		if (s->base >= TXNET_TOPO_BUTTERFLY)
			s->size[0] = 1u << (1 + rnd(3));
		break;
	case TXNET_TOPO_DRAGONFLY:
		s->nd = chance(16) ? 2 + rnd(3) : 3;
		for (i = 0; i < s->nd; i++)
			s->size[i] = rnd(5);
		break;
	case TXNET_TOPO_FATTREE:
		s->nd = chance(16) ? 1 + rnd(3) : 2;
		s->size[0] = 1 + rnd(5);
		s->size[1] = rnd(5);
		s->size[2] = 2;
		break;
	case TXNET_TOPO_SLIMFLY:
		s->nd = chance(16) ? 1 + rnd(3) : 2;
		s->size[0] = 1 + rnd(12);	/* primes and not */
		s->size[1] = rnd(3);
		s->size[2] = 1;
		break;
	case TXNET_TOPO_GRAPH:		/* processors and switches; the cables follow (put_cables) */
		s->nd = chance(16) ? 1 + rnd(3) : 2;
		s->size[0] = rnd(24);
		s->size[1] = rnd(6);
		s->size[2] = 1;
		break;
	default:	/* the MINs: N = 2^k */
		s->nd = 1;
		s->size[0] = 1u << (1 + rnd(8));
		break;
	}
}

static void huge_spec(struct spec *s)
{
	static const struct spec h[] = {
		{ .topo = TXNET_TOPO_RING, .base = 0, .nd = 1, .size = { 65536 } },
		{ .topo = TXNET_TOPO_RING, .base = 0, .nd = 1, .size = { 65537 } },
		{ .topo = TXNET_TOPO_LINEAR, .base = 0, .nd = 1, .size = { 1u << 24 } },
		{ .topo = TXNET_TOPO_LINEAR, .base = 0, .nd = 1, .size = { 0xffffffff } },
		{ .topo = TXNET_TOPO_COMPLETE, .base = 0, .nd = 1, .size = { 5000 } },
		{ .topo = TXNET_TOPO_COMPLETE, .base = 0, .nd = 1, .size = { 65536 } },
		{ .topo = TXNET_TOPO_MESH, .base = 0, .nd = 2, .size = { 256, 256 } },
		{ .topo = TXNET_TOPO_MESH, .base = 0, .nd = 2, .size = { 300, 300 } },
		{ .topo = TXNET_TOPO_TORUS, .base = 0, .nd = 2, .size = { 1024, 1024 } },
		{ .topo = TXNET_TOPO_TORUS, .base = 0, .nd = 3, .size = { 40, 40, 40 } },
		{ .topo = TXNET_TOPO_HYPERCUBE, .base = 0, .nd = 1, .size = { 16 } },
		{ .topo = TXNET_TOPO_HYPERCUBE, .base = 0, .nd = 1, .size = { 17 } },
		{ .topo = TXNET_TOPO_HYPERCUBE, .base = 0, .nd = 1, .size = { 32 } },
		{ .topo = TXNET_TOPO_HYPERCUBE, .base = 0, .nd = 1, .size = { 64 } },
		{ .topo = TXNET_TOPO_GHC, .base = 0, .nd = 4, .size = { 16, 16, 16, 16 } },
		{ .topo = TXNET_TOPO_GHC, .base = 0, .nd = 2, .size = { 256, 256 } },
		{ .topo = TXNET_TOPO_BUTTERFLY, .base = 0, .nd = 1, .size = { 1u << 13 } },
		{ .topo = TXNET_TOPO_OMEGA, .base = 0, .nd = 1, .size = { 1u << 16 } },
		{ .topo = TXNET_TOPO_FLIP, .base = 0, .nd = 1, .size = { 1u << 31 } },
		{ .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_RING, .nd = 1, .size = { 181 } },
		{ .topo = TXNET_TOPO_BISWAPPED, .base = TXNET_TOPO_MESH, .nd = 2, .size = { 256, 256 } },
		{ TXNET_TOPO_PRODUCT, 0, 16, { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 },
		  .kind = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 } },
		{ .topo = TXNET_TOPO_DRAGONFLY, .base = 0, .nd = 3, .size = { 4, 16, 8 } },
		{ .topo = TXNET_TOPO_DRAGONFLY, .base = 0, .nd = 3, .size = { 1, 4096, 4096 } },
		{ .topo = TXNET_TOPO_DRAGONFLY, .base = 0, .nd = 3, .size = { 0xffffffff, 2, 2 } },
		{ .topo = TXNET_TOPO_FATTREE, .base = 0, .nd = 2, .size = { 16, 4 } },
		{ .topo = TXNET_TOPO_FATTREE, .base = 0, .nd = 2, .size = { 2, 0xffffffff } },
		{ .topo = TXNET_TOPO_SLIMFLY, .base = 0, .nd = 2, .size = { 4294967291u, 1 } },
		{ .topo = TXNET_TOPO_SLIMFLY, .base = 0, .nd = 2, .size = { 31, 4 } },
		{ .topo = TXNET_TOPO_MESH, .base = 0, .nd = 16, .size = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 } },
		{ .topo = TXNET_TOPO_MESH, .base = 0, .nd = 17, .size = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 } },
	};

	*s = h[rnd(ARRAY_SIZE(h))];
	s->huge = true;
}

/*
 * A graph's cables: a path through every vertex in a random order (so
 * connected), then random cables, now and then one the kernel must
 * refuse (a loop, a vertex past the counts, a cable twice, none at all),
 * spread over attributes of a few pairs; sometimes vertex ids, ascending
 * or not.
 */
static void put_cables(struct ftree *t, const struct spec *sp)
{
	uint32_t v = sp->size[0] + sp->size[1], pair[2 * 64], perm[32], ids[32], n = 0, i, j, c;

	if (v > 30 || chance(32))
		return;
	for (i = 0; i < v; i++)
		perm[i] = i;
	for (i = v; i > 1; i--) {
		j = (uint32_t)rnd(i);
		c = perm[i - 1], perm[i - 1] = perm[j], perm[j] = c;
	}
	for (i = 1; i < v; i++)
		pair[n++] = perm[i - 1], pair[n++] = perm[i];
	for (c = (uint32_t)rnd(8); c-- && v && n + 2 <= ARRAY_SIZE(pair);) {
		pair[n] = (uint32_t)rnd(v);
		pair[n + 1] = (uint32_t)rnd(v);
		if (pair[n] != pair[n + 1] || chance(8))
			n += 2;
	}
	if (chance(16) && n)
		pair[rnd(n)] = v + (uint32_t)rnd(3);
	for (i = 0; i < n; i += 2 * j) {
		j = 1 + (uint32_t)rnd(4);
		if (i + 2 * j > n)
			j = (n - i) / 2;
		if (!j)
			break;
		tput(t, 0, TXNET_A_CABLES, pair + i, (int)(8 * j));
	}
	if (chance(3) && v) {
		for (i = 0, c = 0; i < v; i++)
			ids[i] = c += 1 + (uint32_t)rnd(chance(8) ? 0xffff : 3);
		if (chance(8))
			ids[rnd(v)] = 0;
		tput(t, 0, TXNET_A_VERTEX_IDS, ids, (int)(4 * (v - chance(16))));
	}
}

/*
 * A schedule to replay on a network of about @nodes vertices: tick marks
 * (now and then one that does not advance, or none first) and moves
 * between random vertices of random messages, some past the network,
 * spread over attributes of a few steps; now and then what it was made
 * for, and a request to save the run.
 */
static void put_schedule(struct ftree *t, uint32_t nodes)
{
	uint32_t step[4 * 48], n = 0, i, j;
	uint8_t one = 1;

	if (!chance(16)) {
		step[n++] = ~0u, step[n++] = chance(16) ? 0 : 1 + (uint32_t)rnd(3);
		step[n++] = ~0u, step[n++] = ~0u;
	}
	while (n + 4 <= ARRAY_SIZE(step) && !chance(12)) {
		if (chance(4)) {
			step[n++] = ~0u, step[n++] = 1 + (uint32_t)rnd(chance(16) ? ~0u - 1 : 3);
			step[n++] = ~0u, step[n++] = ~0u;
			continue;
		}
		step[n++] = (uint32_t)rnd(nodes + 2);
		step[n++] = (uint32_t)rnd(nodes + 2);
		step[n++] = chance(16) ? ~0u : (uint32_t)rnd(nodes + 1);
		step[n++] = chance(3) ? ~0u : (uint32_t)rnd(nodes + 1);
	}
	for (i = 0; i < n; i += 4 * j) {
		j = 1 + (uint32_t)rnd(6);
		if (i + 4 * j > n)
			j = (n - i) / 4;
		if (!j)
			break;
		/* now and then a step and a half, which the kernel must refuse */
		tput(t, 0, TXNET_A_SCHEDULE, step + i, (int)(16 * j - (chance(32) ? 8 : 0)));
	}
	if (chance(4))
		tstr(t, 0, TXNET_A_SCHEDULE_SPEC, chance(2) ? "ring 8" : "torus 4 4");
	if (chance(4))
		tu32(t, 0, TXNET_A_PORT_MODEL, 1 + rnd(TXNET_PORT_MAX));
	if (chance(4))
		tput(t, 0, TXNET_A_SAVE, &one, 1);
}

static int put_name(struct ftree *t, char *buf, size_t len, int *pidx)
{
	*pidx = -1;
	if (chance(12))
		return tstr(t, 0, TXNET_A_NAME, special_name(buf, len));
	*pidx = pick_pool();
	return tstr(t, 0, TXNET_A_NAME, pool[*pidx]);
}

/* A valid request of @cmd into @t; returns the nlmsg flags to use. */
static uint16_t valid_request(struct ftree *t, int cmd, struct spec *sp, int *pidx, char *nb,
			      size_t nblen)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	uint8_t data[TXNET_PORT_DATA_MAX + 8];
	uint32_t i, nodes;
	int dims, dim;

	memset(t, 0, sizeof(*t));
	t->cnt = 1;
	t->n[0].nest = true;
	*pidx = -1;
	if ((cmd == TXNET_CMD_GET && chance(2)) || cmd == TXNET_CMD_SCHEDULE) {
		flags |= NLM_F_DUMP;
		if (chance(4))
			put_name(t, nb, nblen, pidx);
		return flags;
	}
	if (cmd == TXNET_CMD_NEW) {
		if (chance(100))
			huge_spec(sp);
		else
			plausible_spec(sp);
		if (!chance(20))
			put_name(t, nb, nblen, pidx);
		tu32(t, 0, TXNET_A_TOPOLOGY, sp->topo);
		if (sp->base)
			tu32(t, 0, TXNET_A_BASE, sp->base);
		dims = tnew(t, 0, TXNET_A_DIMS, true);
		for (i = 0; dims >= 0 && i < sp->nd; i++) {
			dim = tnew(t, dims, (uint16_t)(i + 1), true);
			if (dim < 0)
				break;
			tu32(t, dim, TXNET_A_DIM_SIZE, sp->size[i]);
			if (sp->kind[i])
				tu32(t, dim, TXNET_A_DIM_KIND, sp->kind[i]);
		}
		if (sp->topo == TXNET_TOPO_GRAPH || chance(200))
			put_cables(t, sp);
		if (chance(3))
			tu32(t, 0, TXNET_A_PORT_MODEL, 1 + rnd(TXNET_PORT_MAX));
		if (chance(4))
			tu64(t, 0, TXNET_A_TICK_NS, chance(2) ? 0 : chance(8) ? TXNET_TICK_NS_MAX :
			     1000 + rnd(1000000));
		return flags;
	}
	put_name(t, nb, nblen, pidx);
	nodes = *pidx >= 0 && pool_nodes[*pidx] ? pool_nodes[*pidx] : 8;
	switch (cmd) {
	case TXNET_CMD_SET:
		if (!chance(3))
			tu32(t, 0, TXNET_A_PORT_MODEL, 1 + rnd(TXNET_PORT_MAX));
		if (chance(2) || t->n[0].nkids == 1)
			tu64(t, 0, TXNET_A_TICK_NS, chance(2) ? 0 : 1000 + rnd(100000));
		break;
	case TXNET_CMD_RUN:
		tu32(t, 0, TXNET_A_OP, TXNET_OP_TOTAL_EXCHANGE);
		if (chance(2))
			tu32(t, 0, TXNET_A_ALGO, rnd(TXNET_ALGO_MAX + 1));
		if (chance(2))
			tu32(t, 0, TXNET_A_PAYLOAD, chance(8) ? TXNET_PAYLOAD_MAX : rnd(64));
		if (chance(2))
			tu64(t, 0, TXNET_A_SEED, rnd_next(&rs));
		if (chance(4))
			put_schedule(t, nodes);
		else if (chance(8))
			tput(t, 0, TXNET_A_SAVE, (uint8_t[]){ 1 }, 1);
		break;
	case TXNET_CMD_SEND:
		tu32(t, 0, TXNET_A_SRC, rnd(nodes));
		tu32(t, 0, TXNET_A_DST, rnd(nodes));
		if (!chance(8)) {
			uint32_t n = chance(8) ? TXNET_PORT_DATA_MAX : rnd(32);

			for (i = 0; i < n; i++)
				data[i] = (uint8_t)rnd(256);
			tput(t, 0, TXNET_A_DATA, data, (int)n);
		}
		break;
	case TXNET_CMD_RECV:
		tu32(t, 0, TXNET_A_NODE, rnd(nodes));
		break;
	case TXNET_CMD_FAULT:
		if (chance(2)) {
			tu32(t, 0, TXNET_A_NODE, rnd(nodes));
		} else {
			tu32(t, 0, TXNET_A_SRC, rnd(nodes));
			tu32(t, 0, TXNET_A_DST, rnd(nodes));
		}
		{
			uint8_t up = (uint8_t)rnd(2);

			tput(t, 0, TXNET_A_UP, &up, 1);
		}
		break;
	case TXNET_CMD_GET:
		if (chance(4))
			tu32(t, 0, TXNET_A_NODE, rnd(nodes + 2));
		break;
	default:	/* DEL, STOP: the name only */
		break;
	}
	return flags;
}

/* ---- random requests ---- */

static void random_attrs(struct ftree *t, int parent, int depth)
{
	int n = (int)rnd(depth ? 4 : 9), i, k;
	uint8_t d[MAX_DATA];
	uint16_t type;

	for (i = 0; i < n; i++) {
		type = (uint16_t)(chance(16) ? rnd(0x4000) : rnd(MAX_ATTR_TYPE + 1));
		if (depth < 3 && chance(5)) {
			k = tnew(t, parent, type, !chance(8));
			if (k < 0)
				return;
			random_attrs(t, k, depth + 1);
			continue;
		}
		switch (rnd(4)) {
		case 0:
			tu32(t, parent, type, (uint32_t)rnd_boundary());
			break;
		case 1:
			tu64(t, parent, type, rnd_boundary());
			break;
		case 2: {
			char nb[64];

			tstr(t, parent, type, chance(2) ? pool[pick_pool()] :
			     special_name(nb, sizeof(nb)));
			break;
		}
		default: {
			int len = chance(4) ? (int)rnd(MAX_DATA) : (int)rnd(13);

			for (k = 0; k < len; k++)
				d[k] = (uint8_t)rnd(256);
			tput(t, parent, type, d, len);
		}
		}
	}
}

static uint16_t random_flags(void)
{
	static const uint16_t f[] = {
		NLM_F_REQUEST | NLM_F_ACK, NLM_F_REQUEST | NLM_F_ACK, NLM_F_REQUEST | NLM_F_ACK,
		NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_DUMP, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
		NLM_F_REQUEST | NLM_F_ROOT, NLM_F_REQUEST | NLM_F_MATCH | NLM_F_ACK,
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_EXCL | NLM_F_CREATE,
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO, NLM_F_ACK, 0,
		NLM_F_REQUEST | NLM_F_MULTI | NLM_F_ACK,
	};

	if (chance(16))
		return (uint16_t)rnd(65536);
	return f[rnd(ARRAY_SIZE(f))];
}

static int random_cmd(void)
{
	if (chance(8))
		return chance(2) ? (int)rnd(256) : TXNET_CMD_MAX + 1 + (int)rnd(4);
	return (int)rnd(TXNET_CMD_MAX + 1);
}

/* ---- mutations ---- */

static int pick_node(struct ftree *t)
{
	return t->cnt > 1 ? 1 + (int)rnd(t->cnt - 1) : -1;
}

static int parent_of(struct ftree *t, int c, int *slot)
{
	int i, k;

	for (i = 0; i < t->cnt; i++)
		for (k = 0; k < t->n[i].nkids; k++)
			if (t->n[i].kid[k] == c) {
				*slot = k;
				return i;
			}
	return -1;
}

static void mutate_tree(struct ftree *t)
{
	int i = pick_node(t), p, slot, k;
	struct fnode *n;
	uint64_t v;
	char nb[320];

	if (i < 0) {
		random_attrs(t, 0, 1);
		return;
	}
	n = &t->n[i];
	switch (rnd(10)) {
	case 0:		/* another type, in range or not */
		n->type = (uint16_t)((chance(8) ? rnd(0x4000) : rnd(MAX_ATTR_TYPE + 1)) |
				     (n->type & NLA_F_NESTED));
		break;
	case 1:		/* nested flag toggled, or the byte-order flag set */
		n->type ^= chance(2) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		break;
	case 2:		/* another length */
		if (n->nest)
			break;
		k = chance(2) ? (int)rnd(10) : (int)rnd(MAX_DATA);
		if (k > n->len)
			memset(n->data + n->len, chance(2) ? 0 : (int)rnd(256), k - n->len);
		n->len = (uint16_t)k;
		break;
	case 3:		/* dropped */
		p = parent_of(t, i, &slot);
		if (p < 0)
			break;
		memmove(&t->n[p].kid[slot], &t->n[p].kid[slot + 1],
			(t->n[p].nkids - slot - 1) * sizeof(int));
		t->n[p].nkids--;
		break;
	case 4:		/* duplicated */
		p = parent_of(t, i, &slot);
		if (p >= 0 && t->n[p].nkids < MAX_KIDS)
			t->n[p].kid[t->n[p].nkids++] = i;
		break;
	case 5:
	case 6:		/* a boundary value, 4 or 8 bytes or the same width */
		if (n->nest)
			break;
		v = rnd_boundary();
		if (n->len != 4 && n->len != 8)
			n->len = chance(2) ? 4 : 8;
		if (chance(8))
			n->len = n->len == 4 ? 8 : 4;
		memcpy(n->data, &v, n->len);
		break;
	case 7:		/* a string: a bad name */
		if (n->nest)
			break;
		snprintf(nb, sizeof(nb), "%s", special_name(nb, sizeof(nb)));
		n->len = (uint16_t)(strlen(nb) + (chance(4) ? 0 : 1));
		memcpy(n->data, nb, n->len);
		break;
	case 8:		/* new random attributes inside a nest or beside */
		random_attrs(t, n->nest ? i : 0, 2);
		break;
	default:	/* a single bit of the payload */
		if (n->len)
			n->data[rnd(n->len)] ^= (uint8_t)(1u << rnd(8));
		break;
	}
}

/* Byte-level damage after serialization; may make the message unframed. */
static void mutate_bytes(struct fmsg *m, struct fsent *s)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct nlattr *a;
	int k, n;

	switch (rnd(6)) {
	case 0:		/* bit flips in the attributes */
		n = 1 + (int)rnd(4);
		if (m->len > NLMSG_HDRLEN + GENL_HDRLEN)
			for (k = 0; k < n; k++) {
				int at = NLMSG_HDRLEN + GENL_HDRLEN +
					 (int)rnd(m->len - NLMSG_HDRLEN - GENL_HDRLEN);

				m->buf[at] ^= (uint8_t)(1u << rnd(8));
			}
		break;
	case 1:		/* a bad nla_len */
		if (!m->nattr)
			break;
		a = (struct nlattr *)(m->buf + m->attr_off[rnd(m->nattr)]);
		switch (rnd(5)) {
		case 0: a->nla_len = 0; break;
		case 1: a->nla_len = (uint16_t)rnd(4); break;
		case 2: a->nla_len += 1 + rnd(8); break;
		case 3: a->nla_len -= (uint16_t)(1 + rnd(a->nla_len ? a->nla_len : 1)); break;
		default: a->nla_len = 0xffff; break;
		}
		break;
	case 2:		/* truncated: the last attribute (or header) cut */
		if (m->len > NLMSG_HDRLEN)
			m->len -= 1 + (int)rnd(chance(4) ? m->len - NLMSG_HDRLEN : 8);
		if (m->len < NLMSG_HDRLEN)
			m->len = NLMSG_HDRLEN;
		h->nlmsg_len = m->len;
		break;
	case 3:		/* garbage appended, odd sizes */
		n = 1 + (int)rnd(15);
		for (k = 0; k < n; k++)
			m->buf[m->len + k] = (uint8_t)rnd(256);
		m->len += n;
		h->nlmsg_len = m->len;
		break;
	case 4:		/* the genetlink header: command or version */
		if (chance(2))
			m->buf[NLMSG_HDRLEN] = (uint8_t)rnd(256);
		else
			m->buf[NLMSG_HDRLEN + 1] = (uint8_t)rnd(256);
		s->cmd = m->buf[NLMSG_HDRLEN];
		break;
	default:	/* a lying nlmsg_len: never short enough to expose a second header */
		switch (rnd(3)) {
		case 0: h->nlmsg_len = rnd(NLMSG_HDRLEN); break;
		case 1: h->nlmsg_len = m->len + 1 + rnd(64); break;
		default:
			k = 1 + (int)rnd(NLMSG_HDRLEN - 1);
			if (m->len - k >= NLMSG_HDRLEN)
				h->nlmsg_len = m->len - k;
			break;
		}
		break;
	}
}

/* ---- sending and judging answers ---- */

struct fsock {
	int fd;
	uint32_t portid;
};

static int fsock_open(struct fsock *s)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	socklen_t alen = sizeof(a);
	int one = 1, sz = 1 << 20;

	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s->fd < 0)
		return -errno;
	setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)) ||
	    bind(s->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(s->fd, (struct sockaddr *)&a, &alen)) {
		close(s->fd);
		return -errno;
	}
	s->portid = a.nl_pid;
	return 0;
}

struct answer {
	int n;			/* messages */
	bool err_seen;
	int err;		/* of the NLMSG_ERROR */
	bool has_msg;
	char msg[160];
	int replies, reply_cmd;
	bool done;
	int done_err;
	uint32_t reply_nodes, reply_switches;
	char reply_name[32];
	const char *bad;	/* why the answer is malformed */
};

/* Attributes in [p, p+len): well formed, nests too (recursively). */
static bool attrs_ok(const uint8_t *p, int len, int depth)
{
	const struct nlattr *a;

	while (len >= NLA_HDRLEN) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return false;
		if ((a->nla_type & NLA_F_NESTED) && depth < 8 &&
		    !attrs_ok(p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN, depth + 1))
			return false;
		if (NLA_ALIGN(a->nla_len) >= len)
			return true;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	return len == 0;
}

/* The extack TLVs after an NLMSG_ERROR or NLMSG_DONE header. */
static const char *take_tlvs(const uint8_t *p, int len, struct answer *an)
{
	const struct nlattr *a;

	if (len <= 0)
		return NULL;
	if (!attrs_ok(p, len, 0))
		return "bad extack attributes";
	while (len >= NLA_HDRLEN) {
		a = (const struct nlattr *)p;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			int l = a->nla_len - NLA_HDRLEN;
			const char *s = (const char *)(p + NLA_HDRLEN);

			if (l < 1 || s[l - 1] != '\0')
				return "extack message not NUL-terminated";
			an->has_msg = l > 1;
			snprintf(an->msg, sizeof(an->msg), "%s", s);
		}
		if (NLA_ALIGN(a->nla_len) >= len)
			break;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/* The width of each attribute in the kernel's messages: 4, 8, 's'tring, 'n'est, 'b'inary. */
static const char reply_kind[TXNET_A_MAX + 1] = {
	[TXNET_A_PAD] = 'b', [TXNET_A_ID] = 4, [TXNET_A_NAME] = 's', [TXNET_A_TOPOLOGY] = 4,
	[TXNET_A_BASE] = 4, [TXNET_A_DIMS] = 'n', [TXNET_A_PORT_MODEL] = 4, [TXNET_A_TICK_NS] = 8,
	[TXNET_A_SPEC] = 's', [TXNET_A_NODES] = 4, [TXNET_A_SWITCHES] = 4, [TXNET_A_LINKS] = 4,
	[TXNET_A_DIAMETER] = 4, [TXNET_A_STATE] = 4, [TXNET_A_TICKS] = 8, [TXNET_A_MEM_BYTES] = 8,
	[TXNET_A_OP] = 4, [TXNET_A_ALGO] = 4, [TXNET_A_PAYLOAD] = 4, [TXNET_A_SEED] = 8,
	[TXNET_A_RUN_ID] = 4, [TXNET_A_RESULT] = 'n', [TXNET_A_RUN_TICKS] = 8,
	[TXNET_A_RUN_DELIVERED] = 8, [TXNET_A_SRC] = 4, [TXNET_A_DST] = 4, [TXNET_A_DATA] = 'b',
	[TXNET_A_NODE] = 4, [TXNET_A_MSGS] = 'n', [TXNET_A_PORTS_IN_FLIGHT] = 4,
	[TXNET_A_PORTS_UNREAD] = 4, [TXNET_A_TOTAL_DISTANCE] = 8, [TXNET_A_AS_BOUND] = 8,
	[TXNET_A_CUT_BOUND] = 8, [TXNET_A_RUN_EXPECTED] = 8, [TXNET_A_NETDEV] = 'b',
	[TXNET_A_CABLES_CUT] = 'b', [TXNET_A_NODES_DOWN] = 'b', [TXNET_A_PORTS_DROPPED] = 8,
	[TXNET_A_FABRIC_HOPS] = 8, [TXNET_A_LINK] = 'n', [TXNET_A_SERIES] = 'n',
	[TXNET_A_GRAPH_DIGEST] = 8, [TXNET_A_VERTEX_ID] = 4, [TXNET_A_DIAMETER_AT_LEAST] = 'b',
	[TXNET_A_SCHEDULE] = 'b', [TXNET_A_SCHEDULE_SPEC] = 's', [TXNET_A_SAVE] = 'b',
	/* the answers to BOUNDS and LATIN, rare from mutated messages */
	[TXNET_A_BOUNDS] = 'n', [TXNET_A_CONFIG] = 8, [TXNET_A_LATIN] = 'n',
};

/* What each reply must hold (a network's description, the RUN and RECV replies). */
static const int need_desc[] = {
	TXNET_A_ID, TXNET_A_NAME, TXNET_A_TOPOLOGY, TXNET_A_DIMS, TXNET_A_PORT_MODEL,
	TXNET_A_TICK_NS, TXNET_A_SPEC, TXNET_A_NODES, TXNET_A_SWITCHES, TXNET_A_LINKS,
	TXNET_A_DIAMETER, TXNET_A_STATE, TXNET_A_TICKS, TXNET_A_MEM_BYTES, TXNET_A_RUN_ID, 0,
};
static const int need_run[] = { TXNET_A_ID, TXNET_A_NAME, TXNET_A_RUN_ID, 0 };
static const int need_recv[] = { TXNET_A_ID, TXNET_A_NAME, TXNET_A_NODE, TXNET_A_MSGS, 0 };
/* ... the answers about a topology, no network's */
static const int need_bounds[] = { TXNET_A_SPEC, TXNET_A_NODES, TXNET_A_BOUNDS, 0 };
static const int need_latin[] = { TXNET_A_SPEC, TXNET_A_CONFIG, TXNET_A_LATIN, 0 };
/* ... and the rows of the dumps of one network: a link, a series row */
static const int need_link[] = { TXNET_A_LINK, 0 };
static const int need_series[] = { TXNET_A_NAME, TXNET_A_RUN_ID, TXNET_A_SERIES, 0 };
static const int need_schedule[] = { TXNET_A_RUN_ID, TXNET_A_SCHEDULE, 0 };

static void take_reply(const struct nlmsghdr *h, struct answer *an)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN;
	int len = (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, type, alen;
	bool seen[TXNET_A_MAX + 1] = { false };
	const struct nlattr *a;
	const int *need;

	if (!attrs_ok(p, len, 0)) {
		an->bad = "reply attributes malformed";
		return;
	}
	while (len >= NLA_HDRLEN) {
		a = (const struct nlattr *)p;
		type = a->nla_type & NLA_TYPE_MASK;
		alen = a->nla_len - NLA_HDRLEN;
		if (type < 1 || type > TXNET_A_MAX || !reply_kind[type]) {
			an->bad = "reply attribute of an unknown type";
			return;
		}
		if ((reply_kind[type] == 4 || reply_kind[type] == 8) && alen != reply_kind[type]) {
			an->bad = "reply integer attribute of the wrong size";
			return;
		}
		if (reply_kind[type] == 's' &&
		    (alen < 1 || p[NLA_HDRLEN + alen - 1] != '\0' ||
		     (type == TXNET_A_NAME && alen > TXNET_NAME_LEN))) {
			an->bad = "reply string not NUL-terminated or too long";
			return;
		}
		if ((reply_kind[type] == 'n') != !!(a->nla_type & NLA_F_NESTED)) {
			an->bad = "reply nest without NLA_F_NESTED, or the flag on a leaf";
			return;
		}
		seen[type] = true;
		switch (type) {
		case TXNET_A_NODES:
			memcpy(&an->reply_nodes, p + NLA_HDRLEN, 4);
			break;
		case TXNET_A_SWITCHES:
			memcpy(&an->reply_switches, p + NLA_HDRLEN, 4);
			break;
		case TXNET_A_NAME:
			snprintf(an->reply_name, sizeof(an->reply_name), "%s",
				 (const char *)(p + NLA_HDRLEN));
			break;
		}
		if (NLA_ALIGN(a->nla_len) >= len)
			break;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	switch (g->cmd) {
	case TXNET_CMD_NEW:
	case TXNET_CMD_GET:
		need = need_desc;
		break;
	case TXNET_CMD_RUN:
		need = need_run;
		break;
	case TXNET_CMD_RECV:
		need = need_recv;
		break;
	case TXNET_CMD_BOUNDS:
		need = need_bounds;
		break;
	case TXNET_CMD_LATIN:
		need = need_latin;
		break;
	case TXNET_CMD_LINKS:
		need = need_link;
		break;
	case TXNET_CMD_SERIES:
		need = need_series;
		break;
	case TXNET_CMD_SCHEDULE:
		need = need_schedule;
		break;
	default:
		an->bad = "a reply of a command that has none";
		return;
	}
	for (; *need; need++)
		if (!seen[*need]) {
			an->bad = "a reply without an attribute it always carries";
			return;
		}
}

static uint8_t rbuf[1 << 18];

/* Everything the kernel answered to message @seq. */
static void read_answer(struct fsock *s, uint32_t seq, int family, struct answer *an)
{
	struct nlmsghdr *h;
	int n, left;

	memset(an, 0, sizeof(*an));
	for (;;) {
		n = (int)recv(s->fd, rbuf, sizeof(rbuf), MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				an->bad = "receive queue overrun (ENOBUFS)";
				continue;
			}
			return;		/* EAGAIN: everything is read */
		}
		if (n > (int)sizeof(rbuf)) {
			an->bad = "datagram larger than 256 KiB";
			continue;
		}
		left = n;
		for (h = (struct nlmsghdr *)rbuf; left > 0; h = NLMSG_NEXT(h, left)) {
			if (!NLMSG_OK(h, left)) {
				an->bad = "answer with a bad nlmsg_len";
				break;
			}
			if (h->nlmsg_seq != seq || h->nlmsg_pid != s->portid) {
				INC(st->stray);
				continue;
			}
			an->n++;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				int hl = (int)h->nlmsg_len - NLMSG_HDRLEN, skip;
				const char *why;

				if (hl < (int)sizeof(*e)) {
					an->bad = "NLMSG_ERROR too short";
					continue;
				}
				if (an->err_seen)
					an->bad = "two NLMSG_ERROR answers";
				if (e->error > 0 || e->error < -4095)
					an->bad = "NLMSG_ERROR errno out of range";
				an->err_seen = true;
				an->err = e->error;
				if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
					continue;
				skip = (h->nlmsg_flags & NLM_F_CAPPED) ? (int)sizeof(*e) :
				       (int)(sizeof(int) + NLMSG_ALIGN(e->msg.nlmsg_len));
				why = take_tlvs((const uint8_t *)e + skip, hl - skip, an);
				if (why)
					an->bad = why;
			} else if (h->nlmsg_type == NLMSG_DONE) {
				int hl = (int)h->nlmsg_len - NLMSG_HDRLEN;
				const char *why;

				if (hl < (int)sizeof(int)) {
					an->bad = "NLMSG_DONE too short";
					continue;
				}
				an->done = true;
				memcpy(&an->done_err, NLMSG_DATA(h), sizeof(int));
				if (an->done_err > 0 || an->done_err < -4095)
					an->bad = "NLMSG_DONE errno out of range";
				if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
					why = take_tlvs((const uint8_t *)NLMSG_DATA(h) + sizeof(int),
							hl - (int)sizeof(int), an);
					if (why)
						an->bad = why;
				}
			} else if (h->nlmsg_type == family) {
				const struct genlmsghdr *g = NLMSG_DATA(h);

				if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
					an->bad = "txnet message shorter than its genetlink header";
					continue;
				}
				if ((h->nlmsg_flags & NLM_F_MULTI) && an->done)
					an->bad = "a dump entry after NLMSG_DONE";
				if (an->replies && an->reply_cmd != g->cmd)
					an->bad = "replies with different commands";
				an->replies++;
				an->reply_cmd = g->cmd;
				take_reply(h, an);
			} else {
				an->bad = "answer of a foreign type";
			}
		}
	}
}

static void hexdump(const uint8_t *p, int len)
{
	char line[3 * 32 + 1];
	int i, k;

	for (i = 0; i < len && i < 256; i += 32) {
		for (k = 0; k < 32 && i + k < len; k++)
			sprintf(line + 3 * k, " %02x", p[i + k]);
		fprintf(stderr, "#   %04x:%s\n", i, line);
	}
}

static void report(uint64_t idx, const struct fsent *s, const struct fmsg *m,
		   const struct answer *an, const char *why)
{
	if (__atomic_fetch_add(&st->reports, 1, __ATOMIC_RELAXED) >= MAX_REPORTS)
		return;
	fz_log("FAIL message %llu (%s, cmd %d %s, flags 0x%x, %d bytes): %s; answer: %d message(s), "
	       "errno %d%s%s%s, %d replies (cmd %d)%s", (unsigned long long)idx, s->what, s->cmd,
	       cmd_name(cmd_bucket(s->cmd)), s->flags, m->len, why, an->n, an->err_seen ? -an->err : 0,
	       an->has_msg ? " \"" : "", an->has_msg ? an->msg : "", an->has_msg ? "\"" : "",
	       an->replies, an->reply_cmd, an->done ? ", done" : "");
	hexdump(m->buf, m->len);
}

static bool handler_errno(int e)
{
	switch (e) {
	case EINVAL: case ERANGE: case ENOENT: case EEXIST: case EBUSY: case ENOSPC:
	case E2BIG: case EOPNOTSUPP: case EPERM:
		return true;
	}
	return false;
}

/* Judge the answer to one message and count it. */
static void judge(uint64_t idx, const struct fsent *s, const struct fmsg *m,
		  const struct answer *an)
{
	int b = cmd_bucket(s->cmd), out, e = 0;
	bool dump = (s->flags & NLM_F_DUMP) == NLM_F_DUMP;
	bool processed = s->framed && (s->flags & NLM_F_REQUEST);
	bool core;

	if (an->err_seen && an->err < 0)
		e = -an->err;
	else if (an->done && an->done_err < 0)
		e = -an->done_err;
	if (e)
		out = e < ERRNOS ? e : ERRNOS - 1;
	else if (an->replies)
		out = OUT_REPLY;
	else if (an->done)
		out = OUT_DONE;
	else if (an->err_seen)
		out = OUT_ACK;
	else
		out = OUT_NONE;
	st->out[who][b][out]++;

	if (an->bad) {
		INC(st->fail_malformed);
		report(idx, s, m, an, an->bad);
		return;
	}
	/*
	 * A message whose nlmsg_len is off is dropped silently; one without
	 * NLM_F_REQUEST is only acked, and only if it asks for it.
	 */
	if ((!s->framed && an->n) ||
	    (s->framed && !(s->flags & NLM_F_REQUEST) &&
	     (an->replies || an->done || (an->err_seen && an->err) ||
	      (an->err_seen != !!(s->flags & NLM_F_ACK))))) {
		INC(st->fail_malformed);
		report(idx, s, m, an, "an answer to a message the kernel must only ack or ignore");
		return;
	}
	if (an->replies) {
		bool want = (s->cmd == TXNET_CMD_NEW || s->cmd == TXNET_CMD_RUN ||
			     s->cmd == TXNET_CMD_RECV || s->cmd == TXNET_CMD_GET ||
			     s->cmd == TXNET_CMD_BOUNDS || s->cmd == TXNET_CMD_LATIN) && !dump;

		if (dump && (s->cmd == TXNET_CMD_GET || s->cmd == TXNET_CMD_LINKS ||
			     s->cmd == TXNET_CMD_SERIES || s->cmd == TXNET_CMD_SCHEDULE)) {
			if (an->reply_cmd != s->cmd) {
				INC(st->fail_malformed);
				report(idx, s, m, an, "a dump entry of another command than the dump's");
			}
		} else if (!want || an->reply_cmd != s->cmd) {
			INC(st->fail_malformed);
			report(idx, s, m, an, "a reply with the wrong command");
		}
		if (!dump && s->name && s->cmd != TXNET_CMD_BOUNDS && s->cmd != TXNET_CMD_LATIN &&
		    strcmp(an->reply_name, s->name)) {
			INC(st->fail_malformed);
			report(idx, s, m, an, "a reply about another network than the one named");
		}
		if (an->reply_cmd == TXNET_CMD_NEW && !dump &&
		    (uint64_t)an->reply_nodes + an->reply_switches > max_nodes) {
			INC(st->fail_limits);
			report(idx, s, m, an, "a network with more nodes than max_nodes");
		}
	}
	if (dump && (s->cmd == TXNET_CMD_GET || s->cmd == TXNET_CMD_LINKS) && processed && !e &&
	    !an->done) {
		INC(st->fail_malformed);
		report(idx, s, m, an, "a dump without NLMSG_DONE");
	}

	/* the unprivileged sender must never get an admin command through */
	if (who && processed && is_admin(s->cmd)) {
		if (!e) {
			INC(st->fail_priv);
			report(idx, s, m, an, an->n ? "an unprivileged admin command succeeded" :
			       "an unprivileged admin command was not refused (no answer)");
		} else if (e != EPERM && e != EINVAL && e != ERANGE && e != EOPNOTSUPP &&
			   e != EMSGSIZE) {
			INC(st->fail_priv_errno);
			report(idx, s, m, an, "an unprivileged admin command reached past the "
			       "CAP_NET_ADMIN check");
		}
	}

	/* every refusal but ENOMEM carries a message, or it is the core's */
	if (e && e != ENOMEM && !an->has_msg) {
		core = !is_op(s->cmd) || (dump && s->cmd != TXNET_CMD_GET) ||
		       s->payload < GENL_HDRLEN;
		st->nomsg[who][b][out]++;
		if (core) {
			st->nomsg_core[who]++;
		} else if (handler_errno(e)) {
			INC(st->fail_nomsg);
			report(idx, s, m, an, "a txnet refusal without an extack message");
		}
	}
}

/* ---- the sender loop ---- */

static void note_created(int pidx, const struct answer *an)
{
	int i;

	st->created++;
	if (pidx >= 0 && !strcmp(an->reply_name, pool[pidx])) {
		pool_nodes[pidx] = an->reply_nodes;
		return;
	}
	for (i = 0; i < NAME_POOL; i++)
		if (!strcmp(an->reply_name, pool[i]))
			pool_nodes[i] = an->reply_nodes;
}

/* One message, judged and counted (plus the DEL of a huge network it created). */
static void fuzz_one(struct fsock *s, int family, uint64_t idx, uint32_t seq)
{
	static struct ftree t;
	static struct fmsg m;
	struct fsent sent = { 0 };
	struct answer an;
	struct spec sp = { 0 };
	int pidx = -1, k, nmut;
	char nb[320];
	uint16_t flags;

	if (chance(5)) {
		memset(&t, 0, sizeof(t));
		t.cnt = 1;
		t.n[0].nest = true;
		sent.cmd = random_cmd();
		flags = random_flags();
		random_attrs(&t, 0, 0);
		sent.what = "random";
	} else {
		sent.cmd = 1 + (int)rnd(TXNET_CMD_MAX);
		if (sent.cmd == TXNET_CMD_RUN_DONE)
			sent.cmd = chance(4) ? TXNET_CMD_RUN_DONE : TXNET_CMD_NEW;
		flags = valid_request(&t, sent.cmd, &sp, &pidx, nb, sizeof(nb));
		sent.what = sp.huge ? "huge NEW" : "valid";
		if (chance(2)) {
			nmut = 1 + (int)rnd(3);
			for (k = 0; k < nmut; k++)
				mutate_tree(&t);
			sent.what = sp.huge ? "mutated huge NEW" : "mutated";
			sent.kind = 2;
		} else {
			sent.kind = 1;
			sent.name = pidx >= 0 ? pool[pidx] : NULL;
		}
		if (chance(10))
			flags = random_flags();
		else if (chance(4))
			flags &= ~NLM_F_ACK;
	}
	if (sp.huge)
		INC(st->huge_tries);
	build_msg(&t, &m, family, sent.cmd, flags, seq, sent.kind != 1);
	if (sent.kind != 1 && chance(4)) {
		mutate_bytes(&m, &sent);
		sent.what = "byte-mutated";
	}
	{
		struct nlmsghdr *h = (struct nlmsghdr *)m.buf;

		sent.flags = h->nlmsg_flags;
		sent.framed = h->nlmsg_len >= NLMSG_HDRLEN && (int)h->nlmsg_len <= m.len;
		sent.payload = (int)h->nlmsg_len - NLMSG_HDRLEN;
		sent.cmd = sent.payload >= 1 ? m.buf[NLMSG_HDRLEN] : sent.cmd;
	}
	{
		struct sockaddr_nl k0 = { .nl_family = AF_NETLINK };

		if (sendto(s->fd, m.buf, m.len, 0, (struct sockaddr *)&k0, sizeof(k0)) < 0) {
			/* refused at the socket layer: counted under its errno */
			st->out[who][cmd_bucket(sent.cmd)][errno < ERRNOS ? errno : ERRNOS - 1]++;
			st->sent[who]++;
			return;
		}
	}
	st->sent[who]++;
	read_answer(s, seq, family, &an);
	judge(idx, &sent, &m, &an);

	if (!who && an.replies && an.reply_cmd == TXNET_CMD_NEW &&
	    (sent.flags & NLM_F_DUMP) != NLM_F_DUMP) {
		note_created(pidx, &an);
		if (sp.huge || an.reply_nodes > 5000) {
			char huge[32];

			/* a huge one was accepted within the limits: do not keep it */
			snprintf(huge, sizeof(huge), "%s", an.reply_name);
			st->huge_created++;
			memset(&t, 0, sizeof(t));
			t.cnt = 1;
			t.n[0].nest = true;
			tstr(&t, 0, TXNET_A_NAME, an.reply_name);
			build_msg(&t, &m, family, TXNET_CMD_DEL, NLM_F_REQUEST | NLM_F_ACK, seq + 1,
				  false);
			if (send(s->fd, m.buf, m.len, 0) == m.len) {
				read_answer(s, seq + 1, family, &an);
				if (an.err)
					fz_log("could not delete the huge network %s: errno %d %s",
					       huge, -an.err, an.msg);
				for (k = 0; k < NAME_POOL; k++)
					if (!strcmp(huge, pool[k]))
						pool_nodes[k] = 0;
			}
		}
	}
}

static bool loaded(void)
{
	return access("/sys/module/txnet", F_OK) == 0;
}

static int sh(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Root, every so often: too many networks (auto-named ones pile up) go. */
static void housekeeping(struct txnl *t)
{
	int n = txnl_count(t);

	if (n > 16) {
		txnl_del_all(t);
		memset(pool_nodes, 0, sizeof(pool_nodes));
		st->cleanups++;
	}
}

/* The unprivileged sender: three sockets of decreasing privilege. */
static void child_run(int family, uint64_t count, uint64_t seed)
{
	struct fsock socks[3];
	int nsocks = 0;
	uint64_t i;
	uint64_t t0 = now_ns();

	who = 1;
	rs = seed ^ 0x5bd1e9955bd1e995ULL;
	/* opened as root, used without CAP_NET_ADMIN */
	if (!fsock_open(&socks[nsocks]))
		nsocks++;
	if (drop_net_admin()) {
		fz_log("drop_net_admin failed: %s", strerror(errno));
		_exit(2);
	}
	if (!fsock_open(&socks[nsocks]))
		nsocks++;
	if (setgid(65534) || setuid(65534)) {
		fz_log("setuid(65534) failed: %s", strerror(errno));
		_exit(2);
	}
	if (!fsock_open(&socks[nsocks]))
		nsocks++;
	if (nsocks < 3) {
		fz_log("only %d sockets", nsocks);
		_exit(2);
	}
	for (i = 0; i < count; i++)
		fuzz_one(&socks[rnd(3)], family, i, (uint32_t)(2 * i + 1));
	st->secs[1] = (double)(now_ns() - t0) / 1e9;
	st->child_done = true;
	_exit(0);
}

FIXTURE(nlfuzz) {
	struct txnl t;
};

FIXTURE_SETUP(nlfuzz)
{
	if (!loaded())
		ASSERT_EQ(0, sh("modprobe txnet"));
	ASSERT_EQ(0, txnl_open(&self->t)) TH_LOG("txnet family not found: is the module loaded?");
}

FIXTURE_TEARDOWN(nlfuzz)
{
	txnl_close(&self->t);
	if (!loaded())
		sh("modprobe txnet");
}

static void print_stats(struct __test_metadata *_metadata)
{
	static const char * const whos[] = { "root", "user" };
	char name[32];
	int w, b, o;

	for (w = 0; w < 2; w++) {
		ksft_print_msg("%s: %llu messages in %.1f s\n", whos[w],
			       (unsigned long long)st->sent[w], st->secs[w]);
		for (b = 0; b < CMD_BUCKETS; b++) {
			char line[1024];
			int len = 0;

			for (o = 0; o < OUTCOMES; o++) {
				if (!st->out[w][b][o])
					continue;
				if (o == OUT_ACK)
					snprintf(name, sizeof(name), "ack");
				else if (o == OUT_REPLY)
					snprintf(name, sizeof(name), "reply");
				else if (o == OUT_DONE)
					snprintf(name, sizeof(name), "done");
				else if (o == OUT_NONE)
					snprintf(name, sizeof(name), "none");
				else
					snprintf(name, sizeof(name), "%s", strerrorname_np(o) ?: "E?");
				len += snprintf(line + len, sizeof(line) - len, " %s=%llu", name,
						(unsigned long long)st->out[w][b][o]);
				if (len >= (int)sizeof(line) - 40)
					break;
			}
			if (len)
				ksft_print_msg("  %s %-8s%s\n", whos[w], cmd_name(b), line);
		}
	}
	for (w = 0; w < 2; w++)
		for (b = 0; b < CMD_BUCKETS; b++)
			for (o = 0; o < ERRNOS; o++)
				if (st->nomsg[w][b][o])
					TH_LOG("no extack message: %s %s %s x%llu%s", whos[w], cmd_name(b),
					       strerrorname_np(o) ?: "E?",
					       (unsigned long long)st->nomsg[w][b][o],
					       !is_op(b) ? " (core: no such op)" :
					       o == EOPNOTSUPP ? " (core: dump of a doit-only op?)" :
					       o == EINVAL ? " (core if shorter than the genl header)" : "");
	ksft_print_msg("networks created %llu; huge NEWs tried %llu, created (and deleted) %llu; "
		       "cleanups %llu; stray answers %llu\n",
		       (unsigned long long)st->created, (unsigned long long)st->huge_tries,
		       (unsigned long long)st->huge_created, (unsigned long long)st->cleanups,
		       (unsigned long long)st->stray);
}

TEST_F_TIMEOUT(nlfuzz, fuzz, 600)
{
	struct fsock s;
	uint64_t half = opt_count / 2, i, t0;
	char buf[32];
	pid_t child;
	int status, k;

	for (k = 0; k < NAME_POOL; k++)
		snprintf(pool[k], sizeof(pool[k]), "fz%d", k);
	if (!param_read("max_nodes", buf, sizeof(buf)))
		max_nodes = (uint32_t)strtoul(buf, NULL, 0);
	ksft_print_msg("txnet_nlfuzz: seed=%llu count=%llu (replay: txnet_nlfuzz -s %llu -n %llu)\n",
		       (unsigned long long)opt_seed, (unsigned long long)opt_count,
		       (unsigned long long)opt_seed, (unsigned long long)opt_count);
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	memset(st, 0, sizeof(*st));
	ASSERT_LE(0, txnl_del_all(&self->t));
	ASSERT_EQ(0, fsock_open(&s));

	fflush(NULL);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		child_run(self->t.family, opt_count - half, opt_seed);

	who = 0;
	rs = opt_seed;
	t0 = now_ns();
	for (i = 0; i < half; i++) {
		fuzz_one(&s, self->t.family, i, (uint32_t)(2 * i + 2));
		if (i % 512 == 511)
			housekeeping(&self->t);
		if (i % 100000 == 99999)
			ksft_print_msg("root: %llu messages, %.0f/s\n", (unsigned long long)i + 1,
				       (double)(i + 1) * 1e9 / (double)(now_ns() - t0));
	}
	st->secs[0] = (double)(now_ns() - t0) / 1e9;
	close(s.fd);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0 && st->child_done)
		TH_LOG("unprivileged child: status 0x%x", status);

	print_stats(_metadata);
	EXPECT_EQ(0, st->fail_malformed) TH_LOG("malformed answers");
	EXPECT_EQ(0, st->fail_priv) TH_LOG("unprivileged admin commands that succeeded");
	EXPECT_EQ(0, st->fail_priv_errno)
		TH_LOG("unprivileged admin commands refused past the capability check");
	EXPECT_EQ(0, st->fail_nomsg) TH_LOG("txnet refusals without an extack message");
	EXPECT_EQ(0, st->fail_limits) TH_LOG("networks beyond max_nodes");
	munmap(st, sizeof(*st));
}

/* After the fuzzing: delete everything, nothing may be left, the module must cycle. */
TEST_F_TIMEOUT(nlfuzz, leaves_nothing, 120)
{
	char buf[64];
	int n, tries;

	for (tries = 0; tries < 10; tries++) {
		n = txnl_del_all(&self->t);
		ASSERT_LE(0, n) TH_LOG("del_all: errno %d %s", -n, self->t.msg);
		if (!txnl_count(&self->t))
			break;
	}
	EXPECT_EQ(0, txnl_count(&self->t));
	/*
	 * The tick threads are stopped synchronously by DEL, but may still be
	 * listed a moment: wait, with a hang guard (60 s), not a speed bound.
	 */
	for (tries = 0; tries < 600 && kthread_count() > 0; tries++)
		sleep_ms(100);
	EXPECT_EQ(0, kthreads_become(0)) TH_LOG("txnet/ kthreads left");
	EXPECT_EQ(0, sysfs_count()) TH_LOG("network directories left under " TXNET_SYSFS);
	if (param_read("mem_used", buf, sizeof(buf)) == -ENOENT) {
		TH_LOG("note: no " TXNET_PARAMS "/mem_used in this module: check skipped");
	} else {
		/* memory may go with the last reference, a moment after DEL */
		for (tries = 0; tries < 600 && strcmp(buf, "0"); tries++) {
			sleep_ms(100);
			param_read("mem_used", buf, sizeof(buf));
		}
		EXPECT_STREQ("0", buf) TH_LOG("mem_used is not 0 with no network left");
	}
	txnl_close(&self->t);
	EXPECT_EQ(0, sh("rmmod txnet"));
	EXPECT_FALSE(loaded());
	EXPECT_EQ(0, sh("modprobe txnet"));
	EXPECT_TRUE(loaded());
	ASSERT_EQ(0, txnl_open(&self->t));
	EXPECT_EQ(0, txnl_count(&self->t));
}

static void usage(const char *prog)
{
	fprintf(stderr, "Usage: %s [-n COUNT] [-s SEED] [harness options]\n"
		"  -n COUNT  messages to send, half as root, half unprivileged (default %d,\n"
		"            or $TXNET_NLFUZZ_COUNT)\n"
		"  -s SEED   PRNG seed (default: from the clock, or $TXNET_NLFUZZ_SEED)\n",
		prog, DEFAULT_COUNT);
}

int main(int argc, char **argv)
{
	const char *env;
	char *end;
	int i, out = 1;

	env = getenv("TXNET_NLFUZZ_COUNT");
	if (env && *env)
		opt_count = strtoull(env, NULL, 0);
	env = getenv("TXNET_NLFUZZ_SEED");
	if (env && *env) {
		opt_seed = strtoull(env, NULL, 0);
		opt_seed_set = true;
	}
	/* our options out, the harness's stay */
	for (i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "-s")) && i + 1 < argc) {
			uint64_t v = strtoull(argv[i + 1], &end, 0);

			if (*end) {
				usage(argv[0]);
				return KSFT_FAIL;
			}
			if (argv[i][1] == 'n') {
				opt_count = v;
			} else {
				opt_seed = v;
				opt_seed_set = true;
			}
			i++;
			continue;
		}
		if (!strcmp(argv[i], "-h"))
			usage(argv[0]);
		argv[out++] = argv[i];
	}
	argv[out] = NULL;
	if (!opt_seed_set) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		opt_seed = (uint64_t)ts.tv_sec * 1000003ULL ^ (uint64_t)ts.tv_nsec ^
			   ((uint64_t)getpid() << 32);
	}
	/* the harness kills a test after its timeout: scale it with the count */
	_nlfuzz_fuzz_object->timeout = 300 + (int)(opt_count / 200);
	return test_harness_run(out, argv);
}
