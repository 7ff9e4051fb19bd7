// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: MSCCL-IR read with libexpat (msccl_ir.h).  The elements are
 * msccl-tools' "old format", the one MSCCL executes: <algo> holding a
 * <gpu> a rank, each holding its <tb>s, each its <step>s.  Attributes
 * txnet has no use for (proto, nchannels, nchunksperloop, hasdep, and any
 * a newer MSCCL adds) are read past; every one txnet uses is checked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "file_read.h"
#include "msccl_ir.h"

enum level { IN_NONE, IN_ALGO, IN_GPU, IN_TB, IN_STEP };

struct reader {
	XML_Parser p;
	const char *fname;
	char *msg;
	size_t msglen;
	int err;
	enum level level;
	bool seen_algo;
	struct msccl_algo *a;
	struct msccl_gpu *gpu;		/* the <gpu> being read */
	struct msccl_tb *tb;		/* the <tb> being read */
	size_t ntbs, nsteps, nchunks;	/* of the file so far */
};

static const char *const type_names[] = {
	[MSCCL_NOP] = "nop", [MSCCL_SEND] = "s", [MSCCL_RECV] = "r", [MSCCL_RCS] = "rcs",
	[MSCCL_RRS] = "rrs", [MSCCL_RRC] = "rrc", [MSCCL_RRCS] = "rrcs", [MSCCL_CPY] = "cpy",
	[MSCCL_RE] = "re",
};

const char *msccl_type_name(enum msccl_type type)
{
	return type_names[type];
}

static void fail_at(struct reader *r, int err, unsigned long line, const char *fmt, va_list ap)
{
	int n;

	if (r->err)
		return;
	r->err = err;
	if (r->msglen) {
		n = snprintf(r->msg, r->msglen, "%s:%lu: ", r->fname, line);
		if (n >= 0 && (size_t)n < r->msglen)
			vsnprintf(r->msg + n, r->msglen - n, fmt, ap);
	}
	XML_StopParser(r->p, XML_FALSE);
}

static void fail(struct reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail_line(struct reader *r, int err, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The first refusal is kept, as "FNAME:LINE: ...", and the parse stops. */
static void fail(struct reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(r, err, (unsigned long)XML_GetCurrentLineNumber(r->p), fmt, ap);
	va_end(ap);
}

/* As fail(), for an element read earlier, on @line. */
static void fail_line(struct reader *r, int err, uint32_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(r, err, line, fmt, ap);
	va_end(ap);
}

static const char *attr(const char **atts, const char *name)
{
	for (; *atts; atts += 2)
		if (!strcmp(atts[0], name))
			return atts[1];
	return NULL;
}

/*
 * Attribute @name of element @el as a decimal integer in [@min, @max]
 * (-1 written "-1"), or @dflt when it is absent and @dflt is not
 * MISSING.  0, or the refusal made.
 */
#define MISSING		INT64_MIN
static int number(struct reader *r, const char *el, const char **atts, const char *name,
		  int64_t min, int64_t max, int64_t dflt, int64_t *out)
{
	const char *s = attr(atts, name), *p;
	int64_t v = 0;
	bool neg;

	if (!s) {
		if (dflt == MISSING) {
			fail(r, -EINVAL, "<%s> has no %s", el, name);
			return -1;
		}
		*out = dflt;
		return 0;
	}
	neg = *s == '-';
	p = s + neg;
	if (!*p)
		goto bad;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
			goto bad;
		v = v * 10 + (*p - '0');
	}
	if (neg)
		v = -v;
	if (v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	fail(r, -EINVAL, "<%s> %s=\"%.32s\": expected a number from %" PRId64 " to %" PRId64,
	     el, name, s, min, max);
	return -1;
}

static int text_attr(struct reader *r, const char *el, const char **atts, const char *name,
		     bool required, char *out, size_t size)
{
	const char *s = attr(atts, name);
	const unsigned char *c;

	if (!s) {
		if (required)
			fail(r, -EINVAL, "<%s> has no %s", el, name);
		return required ? -1 : 0;
	}
	for (c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			break;
	if (*c || strlen(s) >= size) {
		fail(r, -EINVAL, "<%s> %s: at most %zu printable characters", el, name, size - 1);
		return -1;
	}
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int buffer(struct reader *r, const char **atts, const char *name, enum msccl_buf *out)
{
	static const char names[MSCCL_NBUF] = { 'i', 'o', 's' };
	const char *s = attr(atts, name);
	int b;

	if (!s) {
		fail(r, -EINVAL, "<step> has no %s", name);
		return -1;
	}
	for (b = 0; b < MSCCL_NBUF; b++)
		if (s[0] == names[b] && !s[1]) {
			*out = b;
			return 0;
		}
	fail(r, -EINVAL, "<step> %s=\"%.32s\": expected i, o or s", name, s);
	return -1;
}

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 8;
	void *nv;

	if (n < *cap)
		return v;
	nv = realloc(v, c * size);
	if (nv)
		*cap = c;
	return nv;
}

static void start_algo(struct reader *r, const char **atts)
{
	struct msccl_algo *a = r->a;
	int64_t v;

	if (r->seen_algo) {
		fail(r, -EINVAL, "a second <algo>: a file holds one");
		return;
	}
	r->seen_algo = true;
	a->line = (uint32_t)XML_GetCurrentLineNumber(r->p);
	if (text_attr(r, "algo", atts, "name", false, a->name, sizeof(a->name)) ||
	    text_attr(r, "algo", atts, "coll", true, a->coll, sizeof(a->coll)) ||
	    number(r, "algo", atts, "ngpus", 1, MSCCL_RANKS_MAX, MISSING, &v))
		return;
	a->ngpus = (uint32_t)v;
	if (number(r, "algo", atts, "inplace", 0, 1, 0, &v))
		return;
	a->inplace = v;
	a->gpu = calloc(a->ngpus, sizeof(*a->gpu));
	if (!a->gpu)
		fail(r, -ENOMEM, "out of memory for %" PRIu32 " ranks", a->ngpus);
}

static void start_gpu(struct reader *r, const char **atts)
{
	static const char *const names[MSCCL_NBUF] = { "i_chunks", "o_chunks", "s_chunks" };
	struct msccl_gpu *g;
	int64_t v;
	int b;

	if (number(r, "gpu", atts, "id", 0, r->a->ngpus - 1, MISSING, &v))
		return;
	g = &r->a->gpu[v];
	if (g->line) {
		fail(r, -EINVAL, "a second <gpu id=\"%" PRId64 "\">, the first on line %" PRIu32,
		     v, g->line);
		return;
	}
	g->line = (uint32_t)XML_GetCurrentLineNumber(r->p);
	for (b = 0; b < MSCCL_NBUF; b++) {
		if (number(r, "gpu", atts, names[b], 0, MSCCL_CHUNKS_MAX, MISSING, &v))
			return;
		g->chunks[b] = (uint32_t)v;
		r->nchunks += (size_t)v;
	}
	if (r->nchunks > MSCCL_CHUNKS_MAX) {
		fail(r, -E2BIG, "more than %u chunks in the ranks' buffers", MSCCL_CHUNKS_MAX);
		return;
	}
	r->gpu = g;
}

static void start_tb(struct reader *r, const char **atts)
{
	struct msccl_gpu *g = r->gpu;
	int64_t id, send, recv, chan;
	struct msccl_tb *tb;
	int64_t self = g - r->a->gpu;

	if (number(r, "tb", atts, "id", 0, MSCCL_TBS_MAX, MISSING, &id) ||
	    number(r, "tb", atts, "send", -1, r->a->ngpus - 1, MISSING, &send) ||
	    number(r, "tb", atts, "recv", -1, r->a->ngpus - 1, MISSING, &recv) ||
	    number(r, "tb", atts, "chan", 0, MSCCL_CHANNELS_MAX - 1, 0, &chan))
		return;
	if ((size_t)id != g->ntbs) {
		fail(r, -EINVAL, "<tb id=\"%" PRId64 "\"> out of order: rank %" PRId64
		     "'s threadblocks are numbered from 0, and this is its %zu", id, self, g->ntbs);
		return;
	}
	if (send == self || recv == self) {
		fail(r, -EINVAL, "<tb> of rank %" PRId64 " %s itself", self,
		     send == self ? "sends to" : "receives from");
		return;
	}
	if (++r->ntbs > MSCCL_TBS_MAX) {
		fail(r, -E2BIG, "more than %u threadblocks", MSCCL_TBS_MAX);
		return;
	}
	tb = grow(g->tb, &g->cap, g->ntbs, sizeof(*g->tb));
	if (!tb) {
		fail(r, -ENOMEM, "out of memory for threadblocks");
		return;
	}
	g->tb = tb;
	tb = &g->tb[g->ntbs++];
	memset(tb, 0, sizeof(*tb));
	tb->line = (uint32_t)XML_GetCurrentLineNumber(r->p);
	tb->send = (int32_t)send;
	tb->recv = (int32_t)recv;
	tb->chan = (uint32_t)chan;
	r->tb = tb;
}

static void start_step(struct reader *r, const char **atts)
{
	struct msccl_tb *tb = r->tb;
	const char *type = attr(atts, "type");
	struct msccl_step st = { 0 }, *v;
	int64_t s, off[2], cnt, depid, deps;
	size_t t;

	if (number(r, "step", atts, "s", 0, MSCCL_STEPS_MAX, MISSING, &s))
		return;
	if ((size_t)s != tb->nsteps) {
		fail(r, -EINVAL, "<step s=\"%" PRId64 "\"> out of order: a threadblock's steps"
		     " are numbered from 0, and this is its %zu", s, tb->nsteps);
		return;
	}
	if (!type) {
		fail(r, -EINVAL, "<step> has no type");
		return;
	}
	for (t = 0; t < sizeof(type_names) / sizeof(type_names[0]); t++)
		if (!strcmp(type, type_names[t]))
			break;
	if (t == sizeof(type_names) / sizeof(type_names[0])) {
		fail(r, -EINVAL, "<step> type=\"%.32s\": expected s, r, rcs, rrs, rrc, rrcs, cpy,"
		     " re or nop", type);
		return;
	}
	st.type = t;
	if (buffer(r, atts, "srcbuf", &st.srcbuf) || buffer(r, atts, "dstbuf", &st.dstbuf) ||
	    number(r, "step", atts, "srcoff", -1, MSCCL_CHUNKS_MAX, MISSING, &off[0]) ||
	    number(r, "step", atts, "dstoff", -1, MSCCL_CHUNKS_MAX, MISSING, &off[1]) ||
	    number(r, "step", atts, "cnt", 0, MSCCL_CHUNKS_MAX, MISSING, &cnt) ||
	    number(r, "step", atts, "depid", -1, MSCCL_TBS_MAX, -1, &depid) ||
	    number(r, "step", atts, "deps", -1, MSCCL_STEPS_MAX, -1, &deps))
		return;
	if ((depid < 0) != (deps < 0)) {
		fail(r, -EINVAL, "<step> depid=\"%" PRId64 "\" deps=\"%" PRId64 "\": a dependency"
		     " names both its threadblock and its step, or neither", depid, deps);
		return;
	}
	st.line = (uint32_t)XML_GetCurrentLineNumber(r->p);
	st.srcoff = off[0];
	st.dstoff = off[1];
	st.cnt = (uint32_t)cnt;
	st.depid = (int32_t)depid;
	st.deps = (int32_t)deps;
	if (++r->nsteps > MSCCL_STEPS_MAX) {
		fail(r, -E2BIG, "more than %u steps", MSCCL_STEPS_MAX);
		return;
	}
	v = grow(tb->step, &tb->cap, tb->nsteps, sizeof(*tb->step));
	if (!v) {
		fail(r, -ENOMEM, "out of memory for steps");
		return;
	}
	tb->step = v;
	tb->step[tb->nsteps++] = st;
}

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts)
{
	static const char *const names[] = { "algo", "gpu", "tb", "step" };
	struct reader *r = data;

	if (r->err)
		return;
	if (r->level == IN_STEP || strcmp(el, names[r->level])) {
		if (!strcmp(el, "op") && r->level == IN_TB)
			fail(r, -EINVAL, "<op> is msccl-tools' newer format: emit the <step>s MSCCL"
			     " executes (ir_to_xml's old_format)");
		else if (r->level == IN_STEP)
			fail(r, -EINVAL, "<%.32s> inside a <step>, which holds nothing", el);
		else
			fail(r, -EINVAL, "<%.32s> where a <%s> belongs", el, names[r->level]);
		return;
	}
	switch (r->level) {
	case IN_NONE:
		start_algo(r, atts);
		break;
	case IN_ALGO:
		start_gpu(r, atts);
		break;
	case IN_GPU:
		start_tb(r, atts);
		break;
	case IN_TB:
		start_step(r, atts);
		break;
	case IN_STEP:
		break;
	}
	r->level++;
}

static void XMLCALL on_end(void *data, const XML_Char *el)
{
	struct reader *r = data;

	(void)el;
	if (!r->err)
		r->level--;
}

/* After the last element: every rank described, every dependency one of its rank's steps. */
static void check_all(struct reader *r)
{
	const struct msccl_algo *a = r->a;
	uint32_t g;
	size_t t, s;

	if (!r->seen_algo) {
		fail(r, -EINVAL, "no <algo>");
		return;
	}
	for (g = 0; g < a->ngpus; g++) {
		const struct msccl_gpu *gpu = &a->gpu[g];

		if (!gpu->line) {
			fail_line(r, -EINVAL, a->line, "<algo ngpus=\"%" PRIu32 "\"> has no <gpu id=\"%" PRIu32 "\">",
			     a->ngpus, g);
			return;
		}
		for (t = 0; t < gpu->ntbs; t++)
			for (s = 0; s < gpu->tb[t].nsteps; s++) {
				const struct msccl_step *st = &gpu->tb[t].step[s];

				if (st->depid < 0)
					continue;
				if ((size_t)st->depid >= gpu->ntbs ||
				    (size_t)st->deps >= gpu->tb[st->depid].nsteps) {
					fail_line(r, -EINVAL, st->line, "<step> depends on step %"
						  PRId32 " of threadblock %" PRId32 ", which rank %"
						  PRIu32 " does not have", st->deps, st->depid, g);
					return;
				}
			}
	}
}

void msccl_free(struct msccl_algo *a)
{
	uint32_t g;
	size_t t;

	if (a->gpu)
		for (g = 0; g < a->ngpus; g++) {
			for (t = 0; t < a->gpu[g].ntbs; t++)
				free(a->gpu[g].tb[t].step);
			free(a->gpu[g].tb);
		}
	free(a->gpu);
	memset(a, 0, sizeof(*a));
}

int msccl_parse(const char *text, size_t len, const char *fname, struct msccl_algo *a,
		char *msg, size_t msglen)
{
	struct reader r = { .fname = fname, .msg = msg, .msglen = msglen, .a = a };
	enum XML_Status st;

	memset(a, 0, sizeof(*a));
	if (msglen)
		msg[0] = '\0';
	if (len > MSCCL_FILE_MAX || len > INT32_MAX) {
		snprintf(msg, msglen, "%s: more than %llu bytes", fname, MSCCL_FILE_MAX);
		return -E2BIG;
	}
	/* no external entities or DTDs are read: a file is what it says */
	r.p = XML_ParserCreate("UTF-8");
	if (!r.p) {
		snprintf(msg, msglen, "%s: out of memory for the XML parser", fname);
		return -ENOMEM;
	}
	XML_SetUserData(r.p, &r);
	XML_SetElementHandler(r.p, on_start, on_end);
	st = XML_Parse(r.p, text, (int)len, XML_TRUE);
	if (st == XML_STATUS_ERROR && !r.err) {
		r.err = XML_GetErrorCode(r.p) == XML_ERROR_NO_MEMORY ? -ENOMEM : -EINVAL;
		snprintf(msg, msglen, "%s:%lu: not well-formed XML: %s", fname,
			 (unsigned long)XML_GetCurrentLineNumber(r.p),
			 XML_ErrorString(XML_GetErrorCode(r.p)));
	}
	if (!r.err)
		check_all(&r);
	XML_ParserFree(r.p);
	if (r.err)
		msccl_free(a);
	return r.err;
}

int msccl_read(const char *path, struct msccl_algo *a, char *msg, size_t msglen)
{
	size_t len;
	char *text;
	int err;

	memset(a, 0, sizeof(*a));
	err = file_read(path, MSCCL_FILE_MAX, &text, &len);
	if (err) {
		snprintf(msg, msglen, "%s: %s", path, strerror(-err));
		return err;
	}
	err = msccl_parse(text, len, path, a, msg, msglen);
	free(text);
	return err;
}
