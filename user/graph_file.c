// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: network description files, BookSim2 anynet files or plain edge
 * lists, parsed into a struct graph_file (the formats: graph_file.h).
 *
 * Beside BookSim2's own reader of anynet files (AnyNet::readFile in
 * src/networks/anynet.cpp), this one
 * - merges a cable between two routers listed from both ends, or twice
 *   from the same end, into one cable, as BookSim does: it keeps each
 *   router's neighbours in a map, so a second listing lands on the same
 *   entry and each pair of routers gets one channel each way;
 * - merges a node listed twice under the same router, as BookSim does,
 *   and refuses one under two routers, as BookSim does;
 * - accepts "#" comments, which BookSim does not know (a "#" is an
 *   unknown word to it, which stops it): an extension, so that a file
 *   can say what it describes;
 * - takes tabs and a carriage return before the newline as blanks, where
 *   BookSim splits at spaces only;
 * - numbers nodes and routers by rank, where BookSim indexes its arrays by
 *   the ids themselves and so needs them dense from 0;
 * - refuses a latency other than 1, as a txnet link takes one tick where
 *   BookSim gives its channel that many cycles;
 * - refuses what BookSim lets through: a number that is no id, a second
 *   latency for one entry (BookSim keeps the last), a router cabled to
 *   itself (BookSim builds a channel from it to itself), a line cut short
 *   (BookSim warns), and a router with no cables (BookSim builds it and
 *   warns; it could carry nothing);
 * - refuses a graph that is not connected, which BookSim only finds out
 *   when its routing table has no path.
 *
 * The lines are read in one pass that checks each line's words and
 * records every id as a mention, with its line, and every pair of
 * mentions a line joins.  Sorting the mentions by id then numbers the
 * vertices, and sorting the pairs merges the cables listed again: radix
 * sorts read and write memory in order, where a hash table of a million
 * ids would wait on memory at every look-up.  What the sorts find (a
 * limit crossed, a node on two routers) is blamed on the first line where
 * a reader going line by line would have found it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "graph_file.h"

#define NONE		UINT32_MAX
#define NO_LINE		UINT32_MAX
#define FILE_MAX	(1UL << 30)	/* graph_file_read(): bytes of one file */
#define SHOW_MAX	32		/* bytes of a word quoted in a message */
#define U32_TEXT	"a decimal number, 0 to 4294967295"
#define RADIX_BITS	11
/*
 * Fewer items take an insertion sort, and ids up to twice the mentions
 * plus this a table.  The fuzzer builds with 1, so that its small files
 * take the radix sorts and the numbering by sort too.
 */
#ifndef GRAPH_FILE_SMALL_SORT
#define GRAPH_FILE_SMALL_SORT	64
#endif
#define SMALL_SORT	GRAPH_FILE_SMALL_SORT

enum kind { NODE, ROUTER };
static const char *const kind_name[] = { "node", "router" };

/* The ids of one kind (anynet nodes or routers, edge-list processors), a mention each. */
struct mentions {
	uint32_t *id;		/* the id; once numbered, its rank among the kind's ids */
	uint32_t *line;
	size_t n, cap;
};

/* What lines join, as pairs of mentions: a node and its router, two routers, two processors. */
struct joins {
	uint32_t (*m)[2];
	size_t n, cap;
};

struct parser {
	const char *fname;
	char *msg;
	size_t msglen;
	uint32_t line;
	uint64_t max_vertices, max_cables;
	bool anynet;
	struct mentions kind[2];	/* NODE (also the edge list's processors), ROUTER */
	struct joins attach;		/* anynet: node mention, router mention */
	struct joins cab;		/* two router mentions, or two processor mentions */
};

static int fail(struct parser *p, uint32_t line, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Fill in the message, "FNAME:LINE: ..." (or "FNAME: ..." for line 0), and return @err. */
static int fail(struct parser *p, uint32_t line, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->msglen)
		return err;
	if (line)
		n = snprintf(p->msg, p->msglen, "%s:%u: ", p->fname, line);
	else
		n = snprintf(p->msg, p->msglen, "%s: ", p->fname);
	if (n < 0 || (size_t)n >= p->msglen)
		return err;
	va_start(ap, fmt);
	vsnprintf(p->msg + n, p->msglen - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

static int out_of_memory(struct parser *p)
{
	return fail(p, 0, -ENOMEM, "out of memory");
}

/*
 * A word of the file as a message may quote it: at most SHOW_MAX bytes,
 * then "...", with bytes a terminal should not get (and quotes) as '?'.
 * @buf holds SHOW_MAX + 4 bytes.
 */
static const char *show(const char *s, size_t n, char *buf)
{
	size_t i, k = n < SHOW_MAX ? n : SHOW_MAX;

	for (i = 0; i < k; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = c >= 0x20 && c < 0x7f && c != '"' ? (char)c : '?';
	}
	if (k < n)
		memcpy(buf + k, "...", 4);
	else
		buf[k] = '\0';
	return buf;
}

struct word {
	const char *s;
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next word of the line [*pp, end), advancing *pp past it; false at the end. */
static bool next_word(const char **pp, const char *end, struct word *w)
{
	const char *q = *pp;

	while (q < end && is_blank(*q))
		q++;
	w->s = q;
	while (q < end && !is_blank(*q))
		q++;
	w->n = (size_t)(q - w->s);
	*pp = q;
	return w->n > 0;
}

static bool is_word(const struct word *w, const char *kw)
{
	size_t n = strlen(kw);

	return w->n == n && !memcmp(w->s, kw, n);
}

static bool all_digits(const struct word *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->s[i] < '0' || w->s[i] > '9')
			return false;
	return w->n > 0;
}

/* Decimal digits only, no sign, at most 4294967295 (leading zeros are harmless). */
static bool word_u32(const struct word *w, uint32_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!all_digits(w))
		return false;
	for (i = 0; i < w->n; i++) {
		x = x * 10 + (uint64_t)(w->s[i] - '0');
		if (x > UINT32_MAX)
			return false;
	}
	*v = (uint32_t)x;
	return true;
}

static bool kind_of(const struct word *w, enum kind *k)
{
	if (is_word(w, "router"))
		*k = ROUTER;
	else if (is_word(w, "node"))
		*k = NODE;
	else
		return false;
	return true;
}

/* Record a mention of @id, of kind @k, on this line; *@m is its index. */
static int mention(struct parser *p, enum kind k, uint32_t id, uint32_t *m)
{
	struct mentions *v = &p->kind[k];

	/* indices are u32, NONE kept out of reach, and so is the vertex count */
	if (p->kind[NODE].n + p->kind[ROUTER].n >= UINT32_MAX - 1)
		return fail(p, p->line, -E2BIG, "more than %u ids in one file", UINT32_MAX - 2);
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		void *a;

		/* each array keeps the old cap at least, whichever realloc fails */
		a = realloc(v->id, cap * sizeof(*v->id));
		if (!a)
			return out_of_memory(p);
		v->id = a;
		a = realloc(v->line, cap * sizeof(*v->line));
		if (!a)
			return out_of_memory(p);
		v->line = a;
		v->cap = cap;
	}
	v->id[v->n] = id;
	v->line[v->n] = p->line;
	*m = (uint32_t)v->n++;
	return 0;
}

static int join(struct parser *p, struct joins *j, uint32_t a, uint32_t b)
{
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		void *m = realloc(j->m, cap * sizeof(*j->m));

		if (!m)
			return out_of_memory(p);
		j->m = m;
		j->cap = cap;
	}
	j->m[j->n][0] = a;
	j->m[j->n][1] = b;
	j->n++;
	return 0;
}

/* The id after a "node" or "router" of an anynet line. */
static int read_id(struct parser *p, const char **pp, const char *end, enum kind k, uint32_t *id)
{
	char buf[SHOW_MAX + 4];
	struct word w;

	if (!next_word(pp, end, &w))
		return fail(p, p->line, -EINVAL,
			    "expected a %s id after \"%s\", found the end of the line",
			    kind_name[k], kind_name[k]);
	if (!word_u32(&w, id))
		return fail(p, p->line, -EINVAL,
			    "expected a %s id (" U32_TEXT ") after \"%s\", found \"%s\"",
			    kind_name[k], kind_name[k], show(w.s, w.n, buf));
	return 0;
}

/* A word after an anynet entry that is neither "node" nor "router": its latency, or wrong. */
static int latency(struct parser *p, const struct word *w, bool after_latency, enum kind k,
		   uint32_t id)
{
	char buf[SHOW_MAX + 4];
	uint32_t lat;

	show(w->s, w->n, buf);
	if (after_latency)
		return fail(p, p->line, -EINVAL,
			    "expected \"node\" or \"router\" after the latency of %s %u, found \"%s\"",
			    kind_name[k], id, buf);
	if (!all_digits(w))
		return fail(p, p->line, -EINVAL,
			    "expected \"node\", \"router\" or a latency after %s %u, found \"%s\"",
			    kind_name[k], id, buf);
	if (!word_u32(w, &lat) || lat != 1)
		return fail(p, p->line, -EINVAL, "latency %s: txnet's links take one tick", buf);
	return 0;
}

/*
 * One anynet line, [s, end) with any comment cut off: "router R" or
 * "node N" (the head), then entries "router S" or "node M", each
 * optionally followed by its latency.
 */
static int anynet_line(struct parser *p, const char *s, const char *end)
{
	bool entry = false, after_latency = false;
	uint32_t hid, hm = 0, eid, em;
	char buf[SHOW_MAX + 4];
	enum kind hk, ek = NODE;
	struct word w;
	int ret;

	if (!next_word(&s, end, &w))
		return 0;
	if (!kind_of(&w, &hk))
		return fail(p, p->line, -EINVAL,
			    "expected \"router\" or \"node\" at the start of a line, found \"%s\"",
			    show(w.s, w.n, buf));
	ret = read_id(p, &s, end, hk, &hid);
	if (!ret)
		ret = mention(p, hk, hid, &hm);
	if (ret)
		return ret;
	eid = hid;
	while (next_word(&s, end, &w)) {
		if (!kind_of(&w, &ek)) {
			if (!entry)
				return fail(p, p->line, -EINVAL,
					    "expected \"node\" or \"router\" after %s %u, found \"%s\"",
					    kind_name[hk], hid, show(w.s, w.n, buf));
			ret = latency(p, &w, after_latency, ek, eid);
			if (ret)
				return ret;
			after_latency = true;
			continue;
		}
		ret = read_id(p, &s, end, ek, &eid);
		if (ret)
			return ret;
		if (hk == NODE && ek == NODE)
			return fail(p, p->line, -EINVAL,
				    "node %u cannot be cabled to node %u: a node attaches to a router",
				    hid, eid);
		if (hk == ROUTER && ek == ROUTER && hid == eid)
			return fail(p, p->line, -EINVAL, "router %u is cabled to itself", hid);
		ret = mention(p, ek, eid, &em);
		if (ret)
			return ret;
		if (hk == ROUTER && ek == ROUTER)
			ret = join(p, &p->cab, hm, em);
		else if (hk == ROUTER)
			ret = join(p, &p->attach, em, hm);
		else
			ret = join(p, &p->attach, hm, em);
		if (ret)
			return ret;
		entry = true;
		after_latency = false;
	}
	return 0;
}

/* One edge-list line, [s, end) with any comment cut off: "U V". */
static int edge_line(struct parser *p, const char *s, const char *end)
{
	char buf[SHOW_MAX + 4];
	uint32_t u, v, um = 0, vm = 0;
	struct word w;
	int ret;

	if (!next_word(&s, end, &w))
		return 0;
	if (!word_u32(&w, &u)) {
		show(w.s, w.n, buf);
		/* the first line is where a misspelt anynet head would land */
		if (!p->kind[NODE].n)
			return fail(p, p->line, -EINVAL,
				    "expected a processor id (" U32_TEXT ") or, for anynet, \"router\", found \"%s\"",
				    buf);
		return fail(p, p->line, -EINVAL,
			    "expected a processor id (" U32_TEXT "), found \"%s\"", buf);
	}
	if (!next_word(&s, end, &w))
		return fail(p, p->line, -EINVAL,
			    "expected a second processor id after %u, found the end of the line",
			    u);
	if (!word_u32(&w, &v))
		return fail(p, p->line, -EINVAL,
			    "expected a second processor id (" U32_TEXT ") after %u, found \"%s\"",
			    u, show(w.s, w.n, buf));
	if (next_word(&s, end, &w))
		return fail(p, p->line, -EINVAL,
			    "expected the end of the line after the cable %u %u, found \"%s\"",
			    u, v, show(w.s, w.n, buf));
	if (u == v)
		return fail(p, p->line, -EINVAL,
			    "cable %u %u joins processor %u to itself", u, v, u);
	ret = mention(p, NODE, u, &um);
	if (!ret)
		ret = mention(p, NODE, v, &vm);
	if (!ret)
		ret = join(p, &p->cab, um, vm);
	return ret;
}

/* The line at @s: where its comment (or the line) ends, and in *@next where the next starts. */
static const char *line_end(const char *s, const char *end, const char **next)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s)), *le = nl ? nl : end;
	const char *hash = memchr(s, '#', (size_t)(le - s));

	*next = nl ? nl + 1 : end;
	return hash ? hash : le;
}

/* Whether the first word outside comments is an anynet head. */
static bool is_anynet(const char *s, const char *end)
{
	const char *le, *next;
	struct word w;
	enum kind k;

	for (; s < end; s = next) {
		le = line_end(s, end, &next);
		if (next_word(&s, le, &w))
			return kind_of(&w, &k);
	}
	return false;
}

/* The bits a number below @n needs, at least 1. */
static unsigned int bits_for(uint64_t n)
{
	unsigned int b = 1;

	while (b < 64 && n > 1 && (n - 1) >> b)
		b++;
	return b;
}

/*
 * Sort the @n keys of @key, and @val beside them unless NULL, stably by
 * their bits @lo to @hi - 1; every key is below 2^@hi, and the bits below
 * @lo ascend with the position (an index packed in) or are all zero, so
 * that the order is also the keys' whole order.  A least-significant-digit
 * radix sort, RADIX_BITS a pass, skipping a digit all keys share, through
 * the scratch arrays @k2 (and @v2 if @val) of @n entries; an insertion
 * sort for a few.  The scratch is the caller's: memory the kernel has to
 * fault in afresh for every sort costs more than the sort.
 */
static void radix_sort(uint64_t *key, uint32_t *val, size_t n, unsigned int lo, unsigned int hi,
		       uint64_t *k2, uint32_t *v2)
{
	const size_t digits = (size_t)1 << RADIX_BITS, dmask = digits - 1;
	uint64_t *k = key, *kt, kx;
	uint32_t *v = val, *vt, vx = 0;
	size_t cnt[(size_t)1 << RADIX_BITS], i, j, sum, c;
	unsigned int shift;

	if (n < SMALL_SORT) {
		for (i = 1; i < n; i++) {
			kx = key[i];
			if (val)
				vx = val[i];
			for (j = i; j > 0 && key[j - 1] > kx; j--) {
				key[j] = key[j - 1];
				if (val)
					val[j] = val[j - 1];
			}
			key[j] = kx;
			if (val)
				val[j] = vx;
		}
		return;
	}
	for (shift = lo; shift < hi; shift += RADIX_BITS) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(k[i] >> shift) & dmask]++;
		if (cnt[(k[0] >> shift) & dmask] == n)
			continue;
		for (i = 0, sum = 0; i < digits; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			j = cnt[(k[i] >> shift) & dmask]++;
			k2[j] = k[i];
			if (val)
				v2[j] = v[i];
		}
		kt = k;
		k = k2;
		k2 = kt;
		vt = v;
		v = v2;
		v2 = vt;
	}
	if (k != key) {
		memcpy(key, k, n * sizeof(*key));
		if (val)
			memcpy(val, v, n * sizeof(*val));
	}
}

/*
 * Number the mentions of one kind by id: @ids gets the distinct ids in
 * ascending order, @first the line of each one's first mention, *@nd
 * their count, and each mention's id becomes its id's rank.  Ids up to
 * about twice the mentions (files often number from 0 up) take a table
 * indexed by id; others a sort of the mentions.
 */
static int number(struct mentions *v, uint64_t *key, uint64_t *tmp, uint32_t *ids,
		  uint32_t *first, uint32_t *nd)
{
	uint32_t max = 0, r = 0, *rank, k;
	uint64_t id;
	size_t i;

	*nd = 0;
	if (!v->n)
		return 0;
	for (i = 0; i < v->n; i++)
		if (v->id[i] > max)
			max = v->id[i];
	if (max <= 2 * (uint64_t)v->n + SMALL_SORT) {
		rank = calloc((size_t)max + 1, sizeof(*rank));
		if (!rank)
			return -ENOMEM;
		for (i = 0; i < v->n; i++)
			rank[v->id[i]] = 1;
		for (id = 0; id <= max; id++) {
			if (!rank[id])
				continue;
			ids[r] = (uint32_t)id;
			first[r] = 0;	/* no line 0: not seen yet */
			rank[id] = ++r;
		}
		for (i = 0; i < v->n; i++) {
			k = rank[v->id[i]] - 1;
			if (!first[k])
				first[k] = v->line[i];
			v->id[i] = k;
		}
		free(rank);
		*nd = r;
		return 0;
	}
	for (i = 0; i < v->n; i++)
		key[i] = (uint64_t)v->id[i] << 32 | i;
	radix_sort(key, NULL, v->n, 32, 64, tmp, NULL);
	/* stable: a group's first entry is the id's first mention */
	for (i = 0; i < v->n; i++) {
		k = (uint32_t)key[i];
		if (!i || key[i] >> 32 != key[i - 1] >> 32) {
			ids[r] = (uint32_t)(key[i] >> 32);
			first[r] = v->line[k];
			r++;
		}
		v->id[k] = r - 1;
	}
	*nd = r;
	return 0;
}

/*
 * Of the @n lines in @lines[] (each where something was first counted),
 * the (@limit + 1)-th smallest: where a count going line by line first
 * went over @limit (< @n).
 */
static uint32_t nth_line(const uint32_t *lines, size_t n, uint64_t limit, uint64_t *key,
			 uint64_t *tmp)
{
	size_t i;

	for (i = 0; i < n; i++)
		key[i] = lines[i];
	radix_sort(key, NULL, n, 0, 32, tmp, NULL);
	return (uint32_t)key[limit];
}

/* What the checks after the lines found, each with the first line a line-by-line reader blames. */
struct found {
	uint32_t vertices_line;	/* the vertex past max_vertices, or NO_LINE */
	uint32_t cables_line;	/* the cable past max_cables, or NO_LINE */
	uint32_t two_line;	/* a node on a second router, or NO_LINE */
	uint32_t two_node, two_router, two_earlier, two_first;	/* its ids and earlier line */
};

/* The graph of what the lines held, checked whole. */
struct graph_work {
	uint32_t nprocs, nswitches;
	uint32_t *pfirst, *sfirst;	/* each vertex's first line, by rank */
	uint32_t *router_of;		/* anynet: each processor's switch rank, or NONE */
	uint32_t *attach_line;		/* anynet: the line that attached it */
	uint32_t (*cab)[2];		/* the distinct cables of p->cab, ranks, ascending */
	uint32_t *cab_line;		/* where each was first listed */
	uint32_t ncab;
	uint32_t nattached;
	uint64_t *key, *tmp;		/* the sorts' keys and scratch, for the largest of them */
};

static void work_free(struct graph_work *w)
{
	free(w->pfirst);
	free(w->sfirst);
	free(w->router_of);
	free(w->attach_line);
	free(w->cab);
	free(w->cab_line);
	free(w->key);
	free(w->tmp);
}

/*
 * Each node's router, the first one listed, in the order of the file: so
 * the first node found on a different router is the first line to blame.
 */
static void attachments(struct parser *p, struct graph_work *w, const struct graph_file *g,
			struct found *f)
{
	struct joins *a = &p->attach;
	uint32_t node, router, line;
	size_t i;

	for (i = 0; i < w->nprocs; i++)
		w->router_of[i] = NONE;
	for (i = 0; i < a->n; i++) {
		node = p->kind[NODE].id[a->m[i][0]];
		router = p->kind[ROUTER].id[a->m[i][1]];
		line = p->kind[NODE].line[a->m[i][0]];
		if (w->router_of[node] == NONE) {
			w->router_of[node] = router;
			w->attach_line[node] = line;
			w->nattached++;
		} else if (w->router_of[node] != router && f->two_line == NO_LINE) {
			f->two_line = line;
			f->two_node = g->proc_id[node];
			f->two_router = g->switch_id[router];
			f->two_earlier = w->attach_line[node];
			f->two_first = g->switch_id[w->router_of[node]];
		}
	}
}

/*
 * The distinct cables of p->cab by rank, the smaller end first, ascending,
 * each with the line of its first listing.  The key is the pair of ranks
 * in as few bits as the vertex count needs, with the listing's index
 * packed below it when that fits in 64 bits: the sort then moves 8 bytes
 * an item, not 12.
 */
static int distinct_cables(struct parser *p, struct graph_work *w)
{
	struct mentions *v = &p->kind[p->anynet ? ROUTER : NODE];
	unsigned int vb = bits_for(p->anynet ? w->nswitches : w->nprocs), ib = bits_for(p->cab.n);
	bool packed = 2 * vb + ib <= 64;
	unsigned int shift = packed ? ib : 0;
	struct joins *c = &p->cab;
	uint32_t *val = NULL, *vtmp = NULL, a, b, m;
	uint64_t *key = w->key, pair;
	size_t i;
	int ret = -ENOMEM;

	if (!packed) {
		val = malloc((c->n + 1) * sizeof(*val));
		vtmp = malloc((c->n + 1) * sizeof(*vtmp));
	}
	w->cab = malloc((c->n + 1) * sizeof(*w->cab));
	w->cab_line = malloc((c->n + 1) * sizeof(*w->cab_line));
	if ((!packed && (!val || !vtmp)) || !w->cab || !w->cab_line)
		goto out;
	for (i = 0; i < c->n; i++) {
		a = v->id[c->m[i][0]];
		b = v->id[c->m[i][1]];
		pair = a < b ? (uint64_t)a << vb | b : (uint64_t)b << vb | a;
		key[i] = pair << shift | (packed ? i : 0);
		if (!packed)
			val[i] = (uint32_t)i;
	}
	radix_sort(key, val, c->n, shift, shift + 2 * vb, w->tmp, vtmp);
	/* stable: a cable's first entry is its first listing */
	for (i = 0; i < c->n; i++) {
		pair = key[i] >> shift;
		if (i && pair == key[i - 1] >> shift)
			continue;
		m = packed ? (uint32_t)(key[i] & (((uint64_t)1 << ib) - 1)) : val[i];
		w->cab[w->ncab][0] = (uint32_t)(pair >> vb);
		w->cab[w->ncab][1] = (uint32_t)(pair & (((uint64_t)1 << vb) - 1));
		w->cab_line[w->ncab] = v->line[c->m[m][0]];
		w->ncab++;
	}
	ret = 0;
out:
	free(val);
	free(vtmp);
	return ret;
}

/* The limits, against the counts: where a line-by-line count would first have crossed one. */
static int limits(struct parser *p, struct graph_work *w, struct found *f)
{
	uint32_t *lines, i, n = 0;

	if ((uint64_t)w->nprocs + w->nswitches > p->max_vertices) {
		lines = malloc(((size_t)w->nprocs + w->nswitches) * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		memcpy(lines, w->pfirst, w->nprocs * sizeof(*lines));
		memcpy(lines + w->nprocs, w->sfirst, w->nswitches * sizeof(*lines));
		f->vertices_line = nth_line(lines, (size_t)w->nprocs + w->nswitches,
					    p->max_vertices, w->key, w->tmp);
		free(lines);
	}
	if ((uint64_t)w->nattached + w->ncab > p->max_cables) {
		lines = malloc(((size_t)w->nattached + w->ncab) * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		for (i = 0; p->anynet && i < w->nprocs; i++)
			if (w->router_of[i] != NONE)
				lines[n++] = w->attach_line[i];
		memcpy(lines + n, w->cab_line, w->ncab * sizeof(*lines));
		f->cables_line = nth_line(lines, (size_t)n + w->ncab, p->max_cables, w->key,
					  w->tmp);
		free(lines);
	}
	return 0;
}

/* The root of @v's tree, halving the path on the way. */
static uint32_t root_of(uint32_t *up, uint32_t v)
{
	while (up[v] != v) {
		up[v] = up[up[v]];
		v = up[v];
	}
	return v;
}

/*
 * Every vertex connected to processor 0, else the smallest id that is
 * not, processors first: txnet's schedules move data between every pair
 * of processors, and a switch nothing reaches could carry nothing.  A
 * union-find over the cables, in one pass and one array: a search would
 * first have to build the adjacency lists.
 */
static int check_connected(struct parser *p, const struct graph_file *g,
			   const struct graph_work *w)
{
	uint32_t n = g->procs + g->switches, *up, v, a, b, c, r0;
	const char *pname = g->anynet ? "node" : "processor";
	uint8_t *height;
	int ret = 0;

	up = calloc(n, sizeof(*up));
	height = calloc(n, sizeof(*height));
	if (!up || !height) {
		ret = out_of_memory(p);
		goto out;
	}
	for (v = 0; v < n; v++)
		up[v] = v;
	for (c = 0; c < g->ncables; c++) {
		a = root_of(up, g->cable[c][0]);
		b = root_of(up, g->cable[c][1]);
		if (a == b)
			continue;
		/* the lower tree under the higher: heights stay below 33 */
		if (height[a] < height[b]) {
			up[a] = b;
		} else {
			up[b] = a;
			if (height[a] == height[b])
				height[a]++;
		}
	}
	r0 = root_of(up, 0);
	for (v = 1; v < n && root_of(up, v) == r0; v++)
		;
	if (v < g->procs)
		ret = fail(p, w->pfirst[v], -EINVAL, "%s %u cannot be reached from %s %u",
			   pname, g->proc_id[v], pname, g->proc_id[0]);
	else if (v < n)
		ret = fail(p, w->sfirst[v - g->procs], -EINVAL,
			   "router %u cannot be reached from node %u",
			   g->switch_id[v - g->procs], g->proc_id[0]);
out:
	free(up);
	free(height);
	return ret;
}

static void put_cable(struct graph_file *g, uint32_t a, uint32_t b)
{
	g->cable[g->ncables][0] = a < b ? a : b;
	g->cable[g->ncables][1] = a < b ? b : a;
	g->ncables++;
}

/* What no one line could refuse alone: unattached nodes, lone routers, too few processors. */
static int check_whole(struct parser *p, const struct graph_file *g, const struct graph_work *w)
{
	uint32_t i, best = NONE, *deg;

	for (i = 0; p->anynet && i < w->nprocs; i++)
		if (w->router_of[i] == NONE && (best == NONE || w->pfirst[i] < w->pfirst[best]))
			best = i;
	if (best != NONE)
		return fail(p, w->pfirst[best], -EINVAL, "node %u is attached to no router",
			    g->proc_id[best]);
	if (!w->nprocs)
		return fail(p, 0, -EINVAL, "no processors: %s", p->anynet ?
			    "no router has a \"node\"" : "no cable \"U V\" in the file");
	if (w->nprocs == 1)
		return fail(p, w->pfirst[0], -EINVAL,
			    "node %u is the only processor; a network needs two", g->proc_id[0]);
	if (!w->nswitches)
		return 0;
	deg = calloc(w->nswitches, sizeof(*deg));
	if (!deg)
		return out_of_memory(p);
	for (i = 0; i < w->nprocs; i++)
		deg[w->router_of[i]] = 1;
	for (i = 0; i < w->ncab; i++)
		deg[w->cab[i][0]] = deg[w->cab[i][1]] = 1;
	for (i = 0; i < w->nswitches; i++)
		if (!deg[i] && (best == NONE || w->sfirst[i] < w->sfirst[best]))
			best = i;
	free(deg);
	if (best != NONE)
		return fail(p, w->sfirst[best], -EINVAL,
			    "router %u has no cables, so it could carry nothing", g->switch_id[best]);
	return 0;
}

/*
 * The file read up to @err's line (0 if none; a line with an error leaves
 * no mentions): number the vertices and merge the cables, blame anything
 * found on the first line a line-by-line reader would have, and if all is
 * well check the graph whole and fill in @g.
 */
static int finish(struct parser *p, struct graph_file *g, int err)
{
	struct mentions *nm = &p->kind[NODE], *rm = &p->kind[ROUTER];
	struct found f = { NO_LINE, NO_LINE, NO_LINE, 0, 0, 0, 0 };
	size_t most = nm->n + rm->n, i;
	struct graph_work w = { 0 };
	int ret;

	/* no sort has more items than there are mentions, or joins */
	if (p->attach.n + p->cab.n > most)
		most = p->attach.n + p->cab.n;
	w.key = malloc((most + 1) * sizeof(*w.key));
	w.tmp = malloc((most + 1) * sizeof(*w.tmp));
	g->proc_id = malloc((nm->n + 1) * sizeof(*g->proc_id));
	g->switch_id = malloc((rm->n + 1) * sizeof(*g->switch_id));
	w.pfirst = malloc((nm->n + 1) * sizeof(*w.pfirst));
	w.sfirst = malloc((rm->n + 1) * sizeof(*w.sfirst));
	w.router_of = malloc((nm->n + 1) * sizeof(*w.router_of));
	w.attach_line = malloc((nm->n + 1) * sizeof(*w.attach_line));
	if (!w.key || !w.tmp || !g->proc_id || !g->switch_id || !w.pfirst || !w.sfirst ||
	    !w.router_of || !w.attach_line)
		goto out;
	if (number(nm, w.key, w.tmp, g->proc_id, w.pfirst, &w.nprocs) ||
	    number(rm, w.key, w.tmp, g->switch_id, w.sfirst, &w.nswitches))
		goto out;
	attachments(p, &w, g, &f);
	if (distinct_cables(p, &w) || limits(p, &w, &f))
		goto out;

	/* the earliest line wins; on one line, vertices, then routers, then cables */
	if (f.vertices_line != NO_LINE && f.vertices_line <= f.two_line &&
	    f.vertices_line <= f.cables_line) {
		ret = fail(p, f.vertices_line, -E2BIG, "more than max_nodes %llu vertices",
			   (unsigned long long)p->max_vertices);
		goto done;
	}
	if (f.two_line != NO_LINE && f.two_line <= f.cables_line) {
		ret = fail(p, f.two_line, -EINVAL,
			   "node %u attached to router %u, but line %u attached it to router %u",
			   f.two_node, f.two_router, f.two_earlier, f.two_first);
		goto done;
	}
	if (f.cables_line != NO_LINE) {
		ret = fail(p, f.cables_line, -E2BIG, "more than max_cables %llu cables",
			   (unsigned long long)p->max_cables);
		goto done;
	}
	ret = err;
	if (ret)
		goto done;
	ret = check_whole(p, g, &w);
	if (ret)
		goto done;

	g->anynet = p->anynet;
	g->procs = w.nprocs;
	g->switches = w.nswitches;
	g->cable = malloc(((size_t)w.nattached + w.ncab + 1) * sizeof(*g->cable));
	if (!g->cable)
		goto out;
	for (i = 0; p->anynet && i < g->procs; i++)
		put_cable(g, (uint32_t)i, g->procs + w.router_of[i]);
	for (i = 0; i < w.ncab; i++)
		put_cable(g, w.cab[i][0] + (p->anynet ? g->procs : 0),
			  w.cab[i][1] + (p->anynet ? g->procs : 0));
	ret = check_connected(p, g, &w);
	goto done;
out:
	ret = out_of_memory(p);
done:
	work_free(&w);
	return ret;
}

int graph_file_parse(const char *text, size_t len, const char *fname, uint64_t max_vertices,
		     uint64_t max_cables, struct graph_file *g, char *msg, size_t msglen)
{
	struct parser p = {
		.fname = fname ? fname : "(graph)",
		.msg = msg,
		.msglen = msg ? msglen : 0,
		.max_vertices = max_vertices,
		.max_cables = max_cables,
	};
	size_t nodes, routers, attach, cab;
	const char *s, *end, *le, *next;
	int k, ret = 0;

	memset(g, 0, sizeof(*g));
	if (p.msglen)
		msg[0] = '\0';
	if (!text) {
		text = "";
		len = 0;
	}
	end = text + len;
	p.anynet = is_anynet(text, end);
	for (s = text; s < end && !ret; s = next) {
		if (p.line == NO_LINE - 1) {
			ret = fail(&p, 0, -E2BIG, "more than %u lines", NO_LINE - 1);
			break;
		}
		p.line++;
		le = line_end(s, end, &next);
		nodes = p.kind[NODE].n;
		routers = p.kind[ROUTER].n;
		attach = p.attach.n;
		cab = p.cab.n;
		ret = p.anynet ? anynet_line(&p, s, le) : edge_line(&p, s, le);
		if (ret) {
			/* the line is wrong: what came before it may be wrong earlier */
			p.kind[NODE].n = nodes;
			p.kind[ROUTER].n = routers;
			p.attach.n = attach;
			p.cab.n = cab;
		}
	}
	/* out of memory has no line to blame, nor anything to look for before it */
	if (ret != -ENOMEM)
		ret = finish(&p, g, ret);
	for (k = NODE; k <= ROUTER; k++) {
		free(p.kind[k].id);
		free(p.kind[k].line);
	}
	free(p.attach.m);
	free(p.cab.m);
	if (ret)
		graph_file_free(g);
	return ret;
}

int graph_file_read(const char *path, uint64_t max_vertices, uint64_t max_cables,
		    struct graph_file *g, char *msg, size_t msglen)
{
	struct parser p = { .fname = path, .msg = msg, .msglen = msg ? msglen : 0 };
	size_t len;
	char *buf;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = file_read(path, FILE_MAX, &buf, &len);
	if (ret == -E2BIG)
		return fail(&p, 0, ret, "larger than 1 GiB");
	if (ret == -ENOMEM)
		return out_of_memory(&p);
	if (ret)
		return fail(&p, 0, ret, "%s", strerror(-ret));
	ret = graph_file_parse(buf, len, path, max_vertices, max_cables, g, msg, msglen);
	free(buf);
	return ret;
}

void graph_file_free(struct graph_file *g)
{
	free(g->cable);
	free(g->proc_id);
	free(g->switch_id);
	memset(g, 0, sizeof(*g));
}
