// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: an MSCCL algorithm timed as txnet moves (msccl_import.h).  The
 * ranks' buffers are followed chunk by chunk, each holding what txnet
 * would name it by (a copy of a rank's message, the message from one rank
 * to another, a partial toward a rank's result), so that a chunk a step
 * sends becomes a move that names what it carries.  Time is ticks: the
 * threadblocks advance together, a tick at a time, as the engine does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msccl_import.h"

#define NOT_DONE	UINT64_MAX
#define NONE		SIZE_MAX
/* A loop of waiting steps is named up to this many steps. */
#define LOOP_SHOWN	6

enum kind { HOLDS_NOTHING, COPY_OF, MESSAGE, TOWARD, SUM_OF };

/*
 * What a chunk holds: a copy of a's message; the message from a to b; a
 * partial toward a's result; the sum of the b ranks a, a + 1, ... (mod n).
 */
struct chunk {
	enum kind kind;
	uint32_t a, b;
};

/* The one-way connection of threadblock @sender of rank @from to @receiver of rank @to on @chan. */
struct conn {
	uint32_t from, to, chan;
	uint32_t cable;			/* one for each (from, to): channels share it */
	size_t sender, receiver;	/* threadblocks, by index into sim.tb */
	struct chunk *fifo;		/* the chunks sent, in order */
	uint64_t *arrived;		/* the tick each arrived at @to */
	size_t n, head, cap;		/* sent, received, room */
};

/* An allreduce's chunk that reached @rank in the tick, sent by the step on @line. */
struct landed {
	uint32_t rank, line;
	struct chunk c;
};

struct tb_state {
	uint32_t rank;
	uint32_t id;
	const struct msccl_tb *tb;
	size_t cur;			/* the step it is on; nsteps when done */
	uint32_t moved;			/* chunks of the current step moved */
	uint64_t *done;			/* per step, the tick it finished (0: before the first) */
	size_t out, in;			/* its connections, or NONE */
};

struct sim {
	const struct msccl_algo *a;
	const struct msccl_target *t;
	const char *fname;
	char *msg;
	size_t msglen;
	int err;
	const struct coll *coll;
	struct chunk *slots;		/* every rank's buffers */
	size_t *base;			/* per rank and buffer, its first slot */
	struct tb_state *tb;
	size_t ntb, nleft;
	size_t *first_tb;		/* per rank, its first threadblock in tb */
	struct conn *conn;
	size_t nconn;
	uint64_t *cable_used;		/* per cable, the last tick it carried a chunk */
	uint64_t *sent_at, *recv_at;	/* per rank, the last tick it sent, received (single-port) */
	struct schedule_file *sf;
	size_t cap;
	uint64_t last_tick;
	/* an allreduce: each rank's one partial, and the tick's arrivals, applied as it ends */
	struct chunk *held;
	struct landed *landed;
	size_t nlanded;
};

/* The MSCCL collectives txnet has an operation for, and the chunks a rank each needs. */
struct coll {
	const char *coll;
	const char *op;
	enum kind kind;
	bool rooted;
	bool n_chunks;			/* a chunk for each rank; else one */
};

static const struct coll colls[] = {
	{ "allgather",		"multinode-broadcast",	COPY_OF,	false,	false },
	{ "alltoall",		"total-exchange",	MESSAGE,	false,	true },
	{ "broadcast",		"broadcast",		COPY_OF,	true,	false },
	{ "gather",		"gather",		MESSAGE,	true,	false },
	{ "scatter",		"scatter",		MESSAGE,	true,	true },
	{ "reduce",		"accumulate",		TOWARD,		true,	false },
	{ "reduce_scatter",	"multinode-accumulate",	TOWARD,		false,	true },
	{ "allreduce",		"data-sum",		SUM_OF,		false,	false },
};

static const struct coll *coll_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(colls) / sizeof(colls[0]); i++)
		if (!strcmp(colls[i].coll, name))
			return &colls[i];
	return NULL;
}

static int fail(struct sim *s, int err, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "FNAME:LINE: ..." ("FNAME: ..." for line 0), once; @err back. */
static int fail(struct sim *s, int err, uint32_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->err)
		return s->err;
	s->err = err;
	if (!s->msglen)
		return err;
	if (line)
		n = snprintf(s->msg, s->msglen, "%s:%" PRIu32 ": ", s->fname, line);
	else
		n = snprintf(s->msg, s->msglen, "%s: ", s->fname);
	if (n >= 0 && (size_t)n < s->msglen) {
		va_start(ap, fmt);
		vsnprintf(s->msg + n, s->msglen - n, fmt, ap);
		va_end(ap);
	}
	return err;
}

/*
 * Where chunk @off of buffer @b of @rank really is: an in-place
 * collective's input and output share memory as msccl-tools lays them
 * out (an allgather's input is its rank's part of the output; an
 * alltoall's or an allreduce's output is its input; a reduce_scatter's
 * output is its rank's part of the input).
 */
static void resolve(const struct sim *s, uint32_t rank, enum msccl_buf *b, int64_t *off)
{
	const char *c = s->a->coll;

	if (!s->a->inplace)
		return;
	if (!strcmp(c, "allgather") && *b == MSCCL_BUF_IN) {
		*b = MSCCL_BUF_OUT;
		*off += rank;
	} else if ((!strcmp(c, "alltoall") || !strcmp(c, "allreduce")) && *b == MSCCL_BUF_OUT) {
		*b = MSCCL_BUF_IN;
	} else if (!strcmp(c, "reduce_scatter") && *b == MSCCL_BUF_OUT) {
		*b = MSCCL_BUF_IN;
		*off += rank;
	}
}

static struct chunk *slot(struct sim *s, uint32_t rank, enum msccl_buf b, int64_t off, uint32_t k)
{
	resolve(s, rank, &b, &off);
	return &s->slots[s->base[rank * MSCCL_NBUF + b] + (size_t)off + k];
}

/* Whether buffer @b at @off holds @cnt chunks of @rank: 0, or the refusal. */
static int check_range(struct sim *s, uint32_t rank, const struct msccl_step *st, bool src)
{
	static const char names[MSCCL_NBUF] = { 'i', 'o', 's' };
	enum msccl_buf b = src ? st->srcbuf : st->dstbuf, r = b;
	int64_t off = src ? st->srcoff : st->dstoff, roff = off;
	uint32_t size;

	resolve(s, rank, &r, &roff);
	size = s->a->gpu[rank].chunks[r];
	if (off < 0 || roff + st->cnt > size)
		return fail(s, -EINVAL, st->line, "%s %c[%" PRId64 "] and %" PRIu32 " chunks on: rank"
			    " %" PRIu32 "'s buffer %c holds %" PRIu32 " chunks", src ? "srcbuf" :
			    "dstbuf", names[b], off, st->cnt, rank, names[r], size);
	return 0;
}

static bool sends(enum msccl_type t)
{
	return t == MSCCL_SEND || t == MSCCL_RCS || t == MSCCL_RRS || t == MSCCL_RRCS;
}

static bool receives(enum msccl_type t)
{
	return t == MSCCL_RECV || t == MSCCL_RCS || t == MSCCL_RRS || t == MSCCL_RRC ||
	       t == MSCCL_RRCS;
}

/* Each step's buffers, count and peers: what it names exists. */
static int check_steps(struct sim *s)
{
	size_t i, k;

	for (i = 0; i < s->ntb; i++) {
		const struct tb_state *tb = &s->tb[i];

		for (k = 0; k < tb->tb->nsteps; k++) {
			const struct msccl_step *st = &tb->tb->step[k];
			enum msccl_type t = st->type;

			if (t == MSCCL_NOP)
				continue;
			if (!st->cnt)
				return fail(s, -EINVAL, st->line, "a %s step of no chunks",
					    msccl_type_name(t));
			if (sends(t) && tb->tb->send < 0)
				return fail(s, -EINVAL, st->line, "a %s step on a threadblock that"
					    " sends to no one (send=\"-1\")", msccl_type_name(t));
			if (receives(t) && tb->tb->recv < 0)
				return fail(s, -EINVAL, st->line, "a %s step on a threadblock that"
					    " receives from no one (recv=\"-1\")", msccl_type_name(t));
			if ((t == MSCCL_SEND || t == MSCCL_CPY || t == MSCCL_RE) &&
			    check_range(s, tb->rank, st, true))
				return s->err;
			if (t != MSCCL_SEND && check_range(s, tb->rank, st, false))
				return s->err;
		}
	}
	return 0;
}

static int conn_cmp(const void *pa, const void *pb)
{
	const struct conn *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return a->chan < b->chan ? -1 : a->chan > b->chan;
}

static bool any_step(const struct msccl_tb *tb, bool (*is)(enum msccl_type))
{
	size_t k;

	for (k = 0; k < tb->nsteps; k++)
		if (is(tb->step[k].type))
			return true;
	return false;
}

/*
 * A connection for each threadblock that sends, matched with the one
 * threadblock of its peer that receives from it on its channel, as MSCCL
 * pairs them; channels between the same two ranks share one cable.
 */
static int connect(struct sim *s)
{
	struct conn key, *c;
	size_t i, k;

	for (i = 0; i < s->ntb; i++)
		if (s->tb[i].tb->send >= 0)
			s->nconn++;
	s->conn = calloc(s->nconn ? s->nconn : 1, sizeof(*s->conn));
	if (!s->conn)
		return fail(s, -ENOMEM, 0, "out of memory for connections");
	for (i = 0, k = 0; i < s->ntb; i++) {
		const struct tb_state *tb = &s->tb[i];

		if (tb->tb->send < 0)
			continue;
		s->conn[k].from = tb->rank;
		s->conn[k].to = (uint32_t)tb->tb->send;
		s->conn[k].chan = tb->tb->chan;
		s->conn[k].sender = i;
		s->conn[k].receiver = NONE;
		k++;
	}
	qsort(s->conn, s->nconn, sizeof(*s->conn), conn_cmp);
	for (k = 0; k < s->nconn; k++) {
		c = &s->conn[k];
		if (k && !conn_cmp(c, c - 1))
			return fail(s, -EINVAL, s->tb[c->sender].tb->line, "threadblocks %" PRIu32
				    " and %" PRIu32 " of rank %" PRIu32 " both send to rank %" PRIu32
				    " on channel %" PRIu32 ": MSCCL gives a connection one",
				    s->tb[c[-1].sender].id, s->tb[c->sender].id, c->from, c->to,
				    c->chan);
		c->cable = k && c->from == c[-1].from && c->to == c[-1].to ? c[-1].cable :
			   (k ? c[-1].cable + 1 : 0);
		s->tb[c->sender].out = k;
	}
	for (i = 0; i < s->ntb; i++) {
		struct tb_state *tb = &s->tb[i];

		if (tb->tb->recv < 0)
			continue;
		key.from = (uint32_t)tb->tb->recv;
		key.to = tb->rank;
		key.chan = tb->tb->chan;
		c = bsearch(&key, s->conn, s->nconn, sizeof(*s->conn), conn_cmp);
		if (!c) {
			if (any_step(tb->tb, receives))
				return fail(s, -EINVAL, tb->tb->line, "threadblock %" PRIu32 " of rank"
					    " %" PRIu32 " receives from rank %" PRIu32 " on channel"
					    " %" PRIu32 ", where no threadblock sends to it", tb->id,
					    tb->rank, key.from, key.chan);
			continue;
		}
		if (c->receiver != NONE)
			return fail(s, -EINVAL, tb->tb->line, "threadblocks %" PRIu32 " and %" PRIu32
				    " of rank %" PRIu32 " both receive from rank %" PRIu32 " on"
				    " channel %" PRIu32 ": MSCCL gives a connection one",
				    s->tb[c->receiver].id, tb->id, tb->rank, key.from, key.chan);
		c->receiver = i;
		tb->in = (size_t)(c - s->conn);
	}
	for (k = 0; k < s->nconn; k++) {
		const struct msccl_tb *tb;

		c = &s->conn[k];
		tb = s->tb[c->sender].tb;
		if (c->receiver == NONE && any_step(tb, sends))
			return fail(s, -EINVAL, tb->line, "threadblock %" PRIu32 " of rank %" PRIu32
				    " sends to rank %" PRIu32 " on channel %" PRIu32 ", where no"
				    " threadblock receives from it", s->tb[c->sender].id, c->from,
				    c->to, c->chan);
		for (i = 0; i < tb->nsteps; i++)
			if (sends(tb->step[i].type))
				c->cap += tb->step[i].cnt;
		c->fifo = calloc(c->cap ? c->cap : 1, sizeof(*c->fifo));
		c->arrived = calloc(c->cap ? c->cap : 1, sizeof(*c->arrived));
		if (!c->fifo || !c->arrived)
			return fail(s, -ENOMEM, 0, "out of memory for connections");
	}
	s->cable_used = calloc(s->nconn ? s->conn[s->nconn - 1].cable + 1 : 1,
			       sizeof(*s->cable_used));
	if (!s->cable_used)
		return fail(s, -ENOMEM, 0, "out of memory for cables");
	if (s->coll->kind == SUM_OF) {
		s->landed = calloc(s->nconn ? s->nconn : 1, sizeof(*s->landed));
		if (!s->held || !s->landed)
			return fail(s, -ENOMEM, 0, "out of memory for partials");
	}
	return 0;
}

/* Each rank's buffers, holding what the collective starts with. */
static int fill(struct sim *s)
{
	const struct msccl_algo *a = s->a;
	const struct coll *c = s->coll;
	uint32_t n = a->ngpus, r, k, root = s->t->root;
	size_t total = 0;
	int b;

	s->base = calloc((size_t)n * MSCCL_NBUF, sizeof(*s->base));
	if (!s->base)
		return fail(s, -ENOMEM, 0, "out of memory for buffers");
	for (r = 0; r < n; r++)
		for (b = 0; b < MSCCL_NBUF; b++) {
			s->base[r * MSCCL_NBUF + b] = total;
			total += a->gpu[r].chunks[b];
		}
	s->slots = calloc(total ? total : 1, sizeof(*s->slots));
	if (!s->slots)
		return fail(s, -ENOMEM, 0, "out of memory for buffers");
	for (r = 0; r < n; r++) {
		if (c->rooted && r != root && (c->kind == COPY_OF || c->n_chunks))
			continue;	/* a broadcast's or a scatter's data is the root's */
		for (k = 0; k < (c->n_chunks ? n : 1); k++) {
			enum msccl_buf in = MSCCL_BUF_IN;
			int64_t off = k;
			struct chunk *ch;

			resolve(s, r, &in, &off);
			if (off >= a->gpu[r].chunks[in])
				return fail(s, -EINVAL, a->gpu[r].line, "rank %" PRIu32 " has no"
					    " %s chunk %" PRIu32 ", where the %s starts", r,
					    in == MSCCL_BUF_IN ? "input" : "output", k, a->coll);
			ch = slot(s, r, MSCCL_BUF_IN, 0, k);

			ch->kind = c->kind;
			ch->a = c->kind == TOWARD ? (c->rooted ? root : k) : r;
			ch->b = c->kind == SUM_OF ? 1 : c->rooted ? (c->n_chunks ? k : root) : k;
		}
	}
	return 0;
}

/*
 * The operation the algorithm's collective is.  MSCCL sizes a rank's
 * buffers in chunks, and txnet's operations move one message a rank, or
 * one from each rank to each: an algorithm that splits them finer is
 * another collective.  0 with the operation, or the refusal.
 */
static int find_operation(struct sim *s)
{
	const struct msccl_algo *a = s->a;
	const struct coll *c = coll_by_name(a->coll);
	uint32_t r, chunks, n = a->ngpus, need;
	bool allgather;

	if (!c)
		return fail(s, -EINVAL, a->line, "coll \"%s\": txnet has an operation for"
			    " allgather, alltoall, broadcast, gather, scatter, reduce,"
			    " reduce_scatter and allreduce", a->coll);
	if (c->rooted && s->t->root >= n)
		return fail(s, -EINVAL, a->line, "root %" PRIu32 ": the algorithm has %" PRIu32
			    " ranks", s->t->root, n);
	allgather = !strcmp(c->coll, "allgather");
	need = c->n_chunks ? n : 1;
	for (r = 0; r < n; r++) {
		const struct msccl_gpu *g = &a->gpu[r];

		if (c->rooted && r != s->t->root && (c->kind == COPY_OF || c->n_chunks))
			continue;	/* a broadcast's or a scatter's data is the root's */
		chunks = g->chunks[allgather ? MSCCL_BUF_OUT : MSCCL_BUF_IN];
		if (allgather ? chunks != n : chunks != need)
			return fail(s, -EINVAL, g->line, "coll \"%s\" with rank %" PRIu32 "'s %s %"
				    PRIu32 ": txnet's %s moves %s (%s = %" PRIu32 ")", c->coll, r,
				    allgather ? "o_chunks" : "i_chunks", chunks, c->op,
				    c->n_chunks ? "one message from each rank to each" :
				    "one message a rank", allgather ? "o_chunks" : "i_chunks",
				    allgather ? n : need);
	}
	s->coll = c;
	return 0;
}

/*
 * An allreduce's partials @x and @y reduced, in @out: one interval of
 * ranks when they meet end to end, as a schedule file names partials;
 * any other pair counts a rank twice or is no interval.
 */
static bool meet(uint32_t n, struct chunk x, struct chunk y, struct chunk *out)
{
	if (x.b + y.b > n || ((x.a + x.b) % n != y.a && (y.a + y.b) % n != x.a))
		return false;
	/* every rank's is named 0-(n-1) */
	*out = (struct chunk){ SUM_OF, x.b + y.b == n ? 0 : (y.a + y.b) % n == x.a ? y.a : x.a,
			       x.b + y.b };
	return true;
}

static int join(struct sim *s, const struct msccl_step *st, struct chunk x, struct chunk y,
		struct chunk *out)
{
	uint32_t n = s->a->ngpus;

	if (meet(n, x, y, out))
		return 0;
	return fail(s, -EINVAL, st->line, "a %s step reduces the sum of ranks %" PRIu32 "-%" PRIu32
		    " with that of ranks %" PRIu32 "-%" PRIu32 ": not two intervals meeting end to"
		    " end (a rank counted twice, or a sum no interval names)",
		    msccl_type_name(st->type), x.a, (x.a + x.b - 1) % n, y.a, (y.a + y.b - 1) % n);
}

/* Whether sum @y's ranks are all of sum @x's. */
static bool within(uint32_t n, struct chunk x, struct chunk y)
{
	return x.b == n || (y.a + n - x.a) % n + y.b <= x.b;
}

/*
 * A data sum's processor holds one partial, and what reaches it joins it
 * (Documentation/txnet-schedule-format.rst): the partial the replay will
 * hold at @rank once @c has arrived, mirrored here so that an algorithm
 * that sends another is refused at its step, not at its run.
 */
static int arrive_sum(struct sim *s, uint32_t line, uint32_t rank, struct chunk c)
{
	struct chunk *h = &s->held[rank];
	uint32_t n = s->a->ngpus;

	if (meet(n, *h, c, h))
		return 0;
	if (within(n, c, *h))
		*h = c;
	else if (!within(n, *h, c))
		return fail(s, -EINVAL, line, "the sum of ranks %" PRIu32 "-%" PRIu32 " reaches rank"
			    " %" PRIu32 ", whose partial (ranks %" PRIu32 "-%" PRIu32 ") it neither"
			    " meets end to end nor holds", c.a, (c.a + c.b - 1) % n, rank, h->a,
			    (h->a + h->b - 1) % n);
	return 0;
}

/* @x and @y combined by a reduce, in @out: 0, or the refusal for what does not combine. */
static int reduce(struct sim *s, const struct msccl_step *st, struct chunk x, struct chunk y,
		  struct chunk *out)
{
	if (x.kind == HOLDS_NOTHING || y.kind == HOLDS_NOTHING) {
		*out = x.kind == HOLDS_NOTHING ? y : x;
		return 0;
	}
	if (x.kind == SUM_OF && y.kind == SUM_OF)
		return join(s, st, x, y, out);
	if (x.kind != TOWARD || y.kind != TOWARD)
		return fail(s, -EINVAL, st->line, "a %s step reduces a %s's messages: only partials"
			    " of a reduction combine", msccl_type_name(st->type), s->a->coll);
	if (x.a != y.a)
		return fail(s, -EINVAL, st->line, "a %s step reduces a partial toward rank %" PRIu32
			    "'s result with one toward rank %" PRIu32 "'s", msccl_type_name(st->type),
			    x.a, y.a);
	*out = x;
	return 0;
}

static bool dep_done(const struct sim *s, const struct tb_state *tb, const struct msccl_step *st,
		     uint64_t by)
{
	const struct tb_state *d;

	if (st->depid < 0)
		return true;
	d = &s->tb[s->first_tb[tb->rank] + (size_t)st->depid];
	return d->done[st->deps] != NOT_DONE && d->done[st->deps] <= by;
}

static void finish_step(struct sim *s, struct tb_state *tb, uint64_t tick)
{
	tb->done[tb->cur++] = tick;
	tb->moved = 0;
	if (tb->cur == tb->tb->nsteps)
		s->nleft--;
}

/*
 * Threadblock @tb's step, if it moves nothing over a cable and can finish
 * by the end of tick @by: done then, and true.
 */
static bool settle(struct sim *s, struct tb_state *tb, uint64_t by)
{
	const struct msccl_step *st = &tb->tb->step[tb->cur];
	struct conn *in = tb->in == NONE ? NULL : &s->conn[tb->in];
	uint32_t k;

	if (sends(st->type) || !dep_done(s, tb, st, by))
		return false;
	if (st->type == MSCCL_RECV || st->type == MSCCL_RRC) {
		if (in->n - in->head < st->cnt || in->arrived[in->head + st->cnt - 1] > by)
			return false;
		for (k = 0; k < st->cnt; k++) {
			struct chunk *d = slot(s, tb->rank, st->dstbuf, st->dstoff, k);
			struct chunk got = in->fifo[in->head++];

			if (st->type == MSCCL_RECV)
				*d = got;
			else if (reduce(s, st, got, *d, d))
				return false;
		}
	} else if (st->type == MSCCL_CPY || st->type == MSCCL_RE) {
		for (k = 0; k < st->cnt; k++) {
			struct chunk *d = slot(s, tb->rank, st->dstbuf, st->dstoff, k);
			struct chunk src = *slot(s, tb->rank, st->srcbuf, st->srcoff, k);

			if (st->type == MSCCL_CPY)
				*d = src;
			else if (reduce(s, st, src, *d, d))
				return false;
		}
	}
	finish_step(s, tb, by);
	return true;
}

static int emit(struct sim *s, uint64_t tick, uint32_t from, uint32_t to, struct chunk c,
		uint32_t line)
{
	struct schedule_file *sf = s->sf;
	bool mark = tick != s->last_tick;

	if (sf->nsteps + 1 + mark > SCHEDULE_MAX_STEPS)
		return fail(s, -E2BIG, line, "past %llu steps, txnet's most",
			    (unsigned long long)SCHEDULE_MAX_STEPS);
	if (sf->nsteps + 2 > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct schedule_step *step = realloc(sf->step, cap * sizeof(*step));
		uint32_t *lines;

		if (!step)
			return fail(s, -ENOMEM, 0, "out of memory for moves");
		sf->step = step;
		lines = realloc(sf->line, cap * sizeof(*lines));
		if (!lines)
			return fail(s, -ENOMEM, 0, "out of memory for moves");
		sf->line = lines;
		s->cap = cap;
	}
	if (mark) {
		sf->step[sf->nsteps] = (struct schedule_step){ SCHEDULE_TICK,
			(uint32_t)(tick - s->last_tick), SCHEDULE_NONE, SCHEDULE_NONE };
		sf->line[sf->nsteps++] = line;
		s->last_tick = tick;
	}
	sf->step[sf->nsteps] = (struct schedule_step){ from, to, c.a,
		c.kind == MESSAGE ? c.b : c.kind == SUM_OF ? (c.a + c.b - 1) % s->a->ngpus :
		SCHEDULE_NONE };
	sf->line[sf->nsteps++] = line;
	return 0;
}

/* Threadblock @tb's next chunk over its cable in tick @tick, if it can go: 1 sent, 0 not, or -errno. */
static int transmit(struct sim *s, struct tb_state *tb, uint64_t tick)
{
	const struct msccl_step *st = &tb->tb->step[tb->cur];
	struct conn *out, *in = tb->in == NONE ? NULL : &s->conn[tb->in];
	uint32_t k = tb->moved, to;
	struct chunk c, got = { 0 }, *d = NULL;

	if (!sends(st->type) || !dep_done(s, tb, st, tick - 1))
		return 0;
	out = &s->conn[tb->out];
	to = out->to;
	if (st->type == MSCCL_SEND) {
		c = *slot(s, tb->rank, st->srcbuf, st->srcoff, k);
	} else {
		if (in->head == in->n || in->arrived[in->head] >= tick)
			return 0;	/* store and forward: it leaves the tick after it arrived */
		got = in->fifo[in->head];
		d = slot(s, tb->rank, st->dstbuf, st->dstoff, k);
		c = got;
		if (st->type != MSCCL_RCS && reduce(s, st, got, *d, &c))
			return s->err;
	}
	if (s->cable_used[out->cable] == tick)
		return 0;
	if (s->t->single_port && (s->sent_at[tb->rank] == tick || s->recv_at[to] == tick))
		return 0;
	if (c.kind == HOLDS_NOTHING)
		return fail(s, -EINVAL, st->line, "rank %" PRIu32 " sends chunk %" PRIu32 " of this"
			    " %s step, which holds nothing: no chunk of the %s's was put there",
			    tb->rank, k, msccl_type_name(st->type), s->a->coll);
	if (c.kind == SUM_OF && (s->held[tb->rank].a != c.a || s->held[tb->rank].b != c.b) &&
	    !(c.b == s->a->ngpus && s->held[tb->rank].b == c.b))
		return fail(s, -EINVAL, st->line, "rank %" PRIu32 " sends the sum of ranks %" PRIu32
			    "-%" PRIu32 ", and holds that of ranks %" PRIu32 "-%" PRIu32 ": a data"
			    " sum's processor holds one partial, which what reaches it joins",
			    tb->rank, c.a, (c.a + c.b - 1) % s->a->ngpus, s->held[tb->rank].a,
			    (s->held[tb->rank].a + s->held[tb->rank].b - 1) % s->a->ngpus);
	if (emit(s, tick, tb->rank, to, c, st->line))
		return s->err;
	s->cable_used[out->cable] = tick;
	s->sent_at[tb->rank] = tick;
	s->recv_at[to] = tick;
	out->fifo[out->n] = c;
	out->arrived[out->n++] = tick;
	if (c.kind == SUM_OF)
		s->landed[s->nlanded++] = (struct landed){ to, st->line, c };
	if (st->type != MSCCL_SEND) {
		in->head++;
		if (st->type != MSCCL_RRS)
			*d = c;
	}
	if (++tb->moved == st->cnt)
		finish_step(s, tb, tick);
	return 1;
}

static int describe(const struct sim *s, size_t i, char *buf, size_t len)
{
	const struct tb_state *tb = &s->tb[i];

	return snprintf(buf, len, "rank %" PRIu32 " threadblock %" PRIu32 " step %zu (line %"
			PRIu32 ")", tb->rank, tb->id, tb->cur, tb->tb->step[tb->cur].line);
}

/*
 * Nothing moved in a tick and steps are left: each waits for another
 * threadblock's step, or for a chunk no one will send.  Follow the waits
 * from the first threadblock left until one repeats, and name the loop.
 */
static int stuck(struct sim *s)
{
	size_t *seen_at = calloc(s->ntb, sizeof(*seen_at)), *path = calloc(s->ntb, sizeof(*path));
	size_t i, n = 0, j, start;
	char text[1024];
	int len = 0;

	if (!seen_at || !path) {
		free(seen_at);
		free(path);
		return fail(s, -ENOMEM, 0, "out of memory for the steps' waits");
	}
	for (i = 0; i < s->ntb && s->tb[i].cur == s->tb[i].tb->nsteps; i++)
		;
	while (!seen_at[i]) {
		const struct tb_state *tb = &s->tb[i];
		const struct msccl_step *st = &tb->tb->step[tb->cur];

		seen_at[i] = ++n;
		path[n - 1] = i;
		if (!dep_done(s, tb, st, NOT_DONE - 1)) {
			j = s->first_tb[tb->rank] + (size_t)st->depid;
		} else if (tb->in != NONE && receives(st->type)) {
			const struct conn *in = &s->conn[tb->in];

			j = in->sender;
			if (s->tb[j].cur == s->tb[j].tb->nsteps) {
				free(seen_at);
				free(path);
				return fail(s, -EINVAL, st->line, "this %s step of rank %" PRIu32
					    " waits for a chunk rank %" PRIu32 " never sends it on"
					    " channel %" PRIu32, msccl_type_name(st->type), tb->rank,
					    in->from, in->chan);
			}
		} else {
			free(seen_at);
			free(path);
			return fail(s, -EINVAL, st->line, "this step cannot go on");
		}
		i = j;
	}
	start = seen_at[i] - 1;
	for (j = start; j < n && j < start + LOOP_SHOWN; j++) {
		len += describe(s, path[j], text + len, sizeof(text) - len);
		len += snprintf(text + len, sizeof(text) - len, " waits for ");
	}
	if (n - start > LOOP_SHOWN)
		len += snprintf(text + len, sizeof(text) - len, "... ");
	describe(s, path[start], text + len, sizeof(text) - len);
	i = path[start];
	free(seen_at);
	free(path);
	return fail(s, -EINVAL, s->tb[i].tb->step[s->tb[i].cur].line,
		    "steps wait for each other in a loop: %s", text);
}

static int setup(struct sim *s)
{
	const struct msccl_algo *a = s->a;
	uint32_t r;
	size_t t, i = 0;

	s->first_tb = calloc(a->ngpus, sizeof(*s->first_tb));
	s->sent_at = calloc(a->ngpus, sizeof(*s->sent_at));
	s->recv_at = calloc(a->ngpus, sizeof(*s->recv_at));
	if (!s->first_tb || !s->sent_at || !s->recv_at)
		return fail(s, -ENOMEM, 0, "out of memory for ranks");
	if (s->coll->kind == SUM_OF) {
		/* a tick lands at most a chunk a connection, and a rank starts with its own */
		s->held = calloc(a->ngpus, sizeof(*s->held));
		for (r = 0; s->held && r < a->ngpus; r++)
			s->held[r] = (struct chunk){ SUM_OF, r, 1 };
	}
	for (r = 0; r < a->ngpus; r++)
		s->ntb += a->gpu[r].ntbs;
	s->tb = calloc(s->ntb ? s->ntb : 1, sizeof(*s->tb));
	if (!s->tb)
		return fail(s, -ENOMEM, 0, "out of memory for threadblocks");
	for (r = 0; r < a->ngpus; r++) {
		s->first_tb[r] = i;
		for (t = 0; t < a->gpu[r].ntbs; t++, i++) {
			struct tb_state *tb = &s->tb[i];

			tb->rank = r;
			tb->id = (uint32_t)t;
			tb->tb = &a->gpu[r].tb[t];
			tb->out = tb->in = NONE;
			tb->done = malloc((tb->tb->nsteps ? tb->tb->nsteps : 1) * sizeof(*tb->done));
			if (!tb->done)
				return fail(s, -ENOMEM, 0, "out of memory for steps");
			memset(tb->done, 0xff, tb->tb->nsteps * sizeof(*tb->done));
			if (tb->tb->nsteps)
				s->nleft++;
		}
	}
	return 0;
}

static int simulate(struct sim *s)
{
	uint64_t tick;
	bool changed;
	size_t i, k;
	int sent, ret;

	for (tick = 1; s->nleft; tick++) {
		do {
			changed = false;
			for (i = 0; i < s->ntb; i++)
				if (s->tb[i].cur < s->tb[i].tb->nsteps && settle(s, &s->tb[i], tick - 1))
					changed = true;
			if (s->err)
				return s->err;
		} while (changed);
		if (!s->nleft)
			break;
		for (i = 0, sent = 0; i < s->ntb; i++) {
			if (s->tb[i].cur == s->tb[i].tb->nsteps)
				continue;
			ret = transmit(s, &s->tb[i], tick);
			if (ret < 0)
				return ret;
			sent += ret;
		}
		if (!sent)
			return stuck(s);
		for (k = 0; k < s->nlanded; k++)
			if (arrive_sum(s, s->landed[k].line, s->landed[k].rank, s->landed[k].c))
				return s->err;
		s->nlanded = 0;
	}
	for (k = 0; k < s->nconn; k++) {
		const struct conn *c = &s->conn[k];

		if (c->head < c->n)
			return fail(s, -EINVAL, s->tb[c->sender].tb->line, "threadblock %" PRIu32
				    " of rank %" PRIu32 " sends %zu chunks to rank %" PRIu32 " on"
				    " channel %" PRIu32 " that it never receives",
				    s->tb[c->sender].id, c->from, c->n - c->head, c->to, c->chan);
	}
	return 0;
}

static void sim_free(struct sim *s)
{
	size_t i;

	for (i = 0; s->tb && i < s->ntb; i++)
		free(s->tb[i].done);
	for (i = 0; s->conn && i < s->nconn; i++) {
		free(s->conn[i].fifo);
		free(s->conn[i].arrived);
	}
	free(s->tb);
	free(s->conn);
	free(s->first_tb);
	free(s->sent_at);
	free(s->recv_at);
	free(s->cable_used);
	free(s->base);
	free(s->slots);
	free(s->held);
	free(s->landed);
}

int msccl_import(const struct msccl_algo *a, const char *fname, const struct msccl_target *t,
		 struct schedule_file *sf, char *msg, size_t msglen)
{
	struct sim s = { .a = a, .t = t, .fname = fname, .msg = msg, .msglen = msglen, .sf = sf };
	memset(sf, 0, sizeof(*sf));
	if (msglen)
		msg[0] = '\0';
	if (!find_operation(&s)) {
		snprintf(sf->network, sizeof(sf->network), "%s", t->network);
		snprintf(sf->operation, sizeof(sf->operation), "%s", s.coll->op);
		snprintf(sf->port_model, sizeof(sf->port_model), "%s",
			 t->single_port ? "single-port" : "all-port");
		sf->has_root = s.coll->rooted;
		sf->root = s.coll->rooted ? t->root : 0;
		sf->form = schedule_form_of(s.coll->op);
	}
	if (!s.err && !setup(&s) && !check_steps(&s) && !connect(&s) && !fill(&s) &&
	    !simulate(&s) && !sf->nsteps)
		fail(&s, -EINVAL, a->line, "the algorithm moves no chunk between ranks");
	sim_free(&s);
	sf->ticks = s.last_tick;
	if (s.err)
		schedule_file_free(sf);
	return s.err;
}
