// SPDX-License-Identifier: GPL-2.0
/*
 * txctl: schedule files read and written (schedule_file.h).  The reader
 * checks the file's words and their order, and the form of its moves
 * against its operation; nothing about the network, which the kernel
 * checks as it replays.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "schedule_file.h"

/* A number may not be 2^32 - 1: that word is the format's "none". */
#define NUMBER_MAX	(UINT32_MAX - 1ULL)
/* Ticks stay below 2^40, as the kernel's checks do. */
#define TICK_MAX	((1ULL << 40) - 1)
#define SHOW_MAX	32

static const struct {
	const char *name;
	enum schedule_form form;
} operations[] = {
	{ "total-exchange",		SCHEDULE_FORM_UNICAST },
	{ "scatter",			SCHEDULE_FORM_UNICAST },
	{ "gather",			SCHEDULE_FORM_UNICAST },
	{ "permutation",		SCHEDULE_FORM_UNICAST },
	{ "broadcast",			SCHEDULE_FORM_BROADCAST },
	{ "multinode-broadcast",	SCHEDULE_FORM_BROADCAST },
	{ "accumulate",			SCHEDULE_FORM_TOWARD },
	{ "multinode-accumulate",	SCHEDULE_FORM_TOWARD },
	{ "data-sum",			SCHEDULE_FORM_SUM },
};

static const char *const form_text[] = {
	[SCHEDULE_FORM_UNICAST] = "a message, SRC>DST",
	[SCHEDULE_FORM_BROADCAST] = "a copy of a message, SRC>*",
	[SCHEDULE_FORM_TOWARD] = "a partial toward a result, *>DST",
	[SCHEDULE_FORM_SUM] = "a copy of the partial of an interval of processors, +LO-HI",
};

enum schedule_form schedule_form_of(const char *operation)
{
	size_t i;

	for (i = 0; i < sizeof(operations) / sizeof(operations[0]); i++)
		if (!strcmp(operations[i].name, operation))
			return operations[i].form;
	return SCHEDULE_FORM_NONE;
}

struct word {
	const char *s;
	size_t n;
};

struct reader {
	const char *fname;
	char *msg;
	size_t msglen;
	uint32_t line;
	size_t cap;
	uint64_t tick;
	bool header_done, seen_version;
	bool seen[3];		/* network, operation, port-model */
};

static int fail(struct reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FNAME:LINE: ..." (or "FNAME: ..." for line 0) into the message, and @err. */
static int fail(struct reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->msglen)
		return err;
	if (r->line)
		n = snprintf(r->msg, r->msglen, "%s:%u: ", r->fname, r->line);
	else
		n = snprintf(r->msg, r->msglen, "%s: ", r->fname);
	if (n < 0 || (size_t)n >= r->msglen)
		return err;
	va_start(ap, fmt);
	vsnprintf(r->msg + n, r->msglen - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

/* A word as a message quotes it: SHOW_MAX bytes at most, what a terminal should not get as '?'. */
static const char *show(const struct word *w, char *buf)
{
	size_t i, k = w->n < SHOW_MAX ? w->n : SHOW_MAX;

	for (i = 0; i < k; i++) {
		unsigned char c = (unsigned char)w->s[i];

		buf[i] = c >= 0x20 && c < 0x7f && c != '"' ? (char)c : '?';
	}
	if (k < w->n)
		memcpy(buf + k, "...", 4);
	else
		buf[k] = '\0';
	return buf;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split [s, end) into at most @max words; the count, or max + 1 when there are more. */
static size_t split(const char *s, const char *end, struct word *w, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (s < end && is_blank(*s))
			s++;
		if (s == end)
			return n;
		if (n == max)
			return max + 1;
		w[n].s = s;
		while (s < end && !is_blank(*s))
			s++;
		w[n].n = (size_t)(s - w[n].s);
		n++;
	}
}

static bool is_word(const struct word *w, const char *kw)
{
	size_t n = strlen(kw);

	return w->n == n && !memcmp(w->s, kw, n);
}

/* A decimal number of @w, at most @max; false if it is not one. */
static bool number(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	size_t i;

	if (!n || n > 20)
		return false;
	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (*v > (max - (uint64_t)(s[i] - '0')) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return true;
}

static int add_step(struct reader *r, struct schedule_file *sf, struct schedule_step st)
{
	if (sf->nsteps == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct schedule_step *step;
		uint32_t *line;

		if (sf->nsteps >= SCHEDULE_MAX_STEPS)
			return fail(r, -E2BIG, "more than %llu steps", SCHEDULE_MAX_STEPS);
		step = realloc(sf->step, cap * sizeof(*step));
		if (!step)
			return fail(r, -ENOMEM, "out of memory");
		sf->step = step;
		line = realloc(sf->line, cap * sizeof(*line));
		if (!line)
			return fail(r, -ENOMEM, "out of memory");
		sf->line = line;
		r->cap = cap;
	}
	sf->step[sf->nsteps] = st;
	sf->line[sf->nsteps++] = r->line;
	return 0;
}

static int header(struct reader *r, struct schedule_file *sf, const struct word *w, size_t n,
		  const char *end)
{
	static const char *const keys[] = { "network", "operation", "port-model" };
	char buf[SHOW_MAX + 4];
	uint64_t v;
	size_t k, len;

	if (is_word(&w[0], "root")) {
		if (sf->has_root)
			return fail(r, -EINVAL, "a second root");
		if (n != 2 || !number(w[1].s, w[1].n, NUMBER_MAX, &v))
			return fail(r, -EINVAL, "expected \"root R\", R a processor's number");
		sf->has_root = 1;
		sf->root = (uint32_t)v;
		return 0;
	}
	for (k = 0; k < 3; k++)
		if (is_word(&w[0], keys[k]))
			break;
	if (k == 3)
		return fail(r, -EINVAL, "\"%s\" where the header's network, operation, "
			    "port-model, root or the first tick was expected", show(&w[0], buf));
	if (r->seen[k])
		return fail(r, -EINVAL, "a second %s", keys[k]);
	r->seen[k] = true;
	if (n < 2)
		return fail(r, -EINVAL, "%s without a value", keys[k]);
	if (k == 0) {
		/* the rest of the line, as txctl show prints a network: "torus 4 4" */
		while (end > w[1].s && is_blank(end[-1]))
			end--;
		len = (size_t)(end - w[1].s);
		if (len >= sizeof(sf->network))
			return fail(r, -EINVAL, "a network of more than %zu bytes",
				    sizeof(sf->network) - 1);
		/* as txctl show prints it: printable ASCII, which the kernel's spec is */
		for (k = 0; k < len; k++)
			if ((unsigned char)w[1].s[k] < 0x20 || (unsigned char)w[1].s[k] >= 0x7f)
				return fail(r, -EINVAL, "the network has a byte that is not printable ASCII");
		memcpy(sf->network, w[1].s, len);
		sf->network[len] = '\0';
		return 0;
	}
	if (n != 2)
		return fail(r, -EINVAL, "expected \"%s NAME\"", keys[k]);
	if (k == 1) {
		if (w[1].n < sizeof(sf->operation)) {
			memcpy(sf->operation, w[1].s, w[1].n);
			sf->operation[w[1].n] = '\0';
			sf->form = schedule_form_of(sf->operation);
		}
		if (sf->form == SCHEDULE_FORM_NONE)
			return fail(r, -EINVAL, "operation \"%s\": a schedule file has total-exchange, "
				    "scatter, gather, permutation, broadcast, multinode-broadcast, "
				    "accumulate, multinode-accumulate or data-sum", show(&w[1], buf));
		return 0;
	}
	if (!is_word(&w[1], "all-port") && !is_word(&w[1], "single-port"))
		return fail(r, -EINVAL, "port-model \"%s\": all-port or single-port",
			    show(&w[1], buf));
	memcpy(sf->port_model, w[1].s, w[1].n);
	sf->port_model[w[1].n] = '\0';
	return 0;
}

/* "+LO-HI" or "+P" (LO-HI being P-P) into @st, or why not. */
static int interval(struct reader *r, const struct schedule_file *sf, const struct word *w,
		    struct schedule_step *st)
{
	const char *dash = memchr(w->s, '-', w->n);
	char buf[SHOW_MAX + 4];
	uint64_t a = 0, b = 0;
	size_t ln;
	bool ok;

	ln = dash ? (size_t)(dash - w->s) - 1 : w->n - 1;
	ok = sf->form == SCHEDULE_FORM_SUM && number(w->s + 1, ln, NUMBER_MAX, &a);
	if (ok && dash)
		ok = number(dash + 1, w->n - ln - 2, NUMBER_MAX, &b);
	else
		b = a;
	if (!ok)
		return fail(r, -EINVAL, "\"%s\": a move of a %s carries %s", show(w, buf),
			    sf->operation, form_text[sf->form]);
	st->a = (uint32_t)a;
	st->b = (uint32_t)b;
	return 0;
}

/* "SRC>DST", "SRC>*", "*>DST" or "+LO-HI" into @st, or why not. */
static int message(struct reader *r, const struct schedule_file *sf, const struct word *w,
		   struct schedule_step *st)
{
	const char *gt = memchr(w->s, '>', w->n);
	char buf[SHOW_MAX + 4];
	enum schedule_form form;
	size_t ln, rn;
	uint64_t a = 0, b = 0;
	bool ok;

	if (w->s[0] == '+')
		return interval(r, sf, w, st);
	if (!gt)
		return fail(r, -EINVAL, "\"%s\": the third word of a move is %s", show(w, buf),
			    form_text[sf->form]);
	ln = (size_t)(gt - w->s);
	rn = w->n - ln - 1;
	if (ln == 1 && w->s[0] == '*') {
		form = SCHEDULE_FORM_TOWARD;
		ok = number(gt + 1, rn, NUMBER_MAX, &a);
		b = SCHEDULE_NONE;
	} else if (rn == 1 && gt[1] == '*') {
		form = SCHEDULE_FORM_BROADCAST;
		ok = number(w->s, ln, NUMBER_MAX, &a);
		b = SCHEDULE_NONE;
	} else {
		form = SCHEDULE_FORM_UNICAST;
		ok = number(w->s, ln, NUMBER_MAX, &a) && number(gt + 1, rn, NUMBER_MAX, &b);
	}
	if (!ok || form != sf->form)
		return fail(r, -EINVAL, "\"%s\": a move of a %s carries %s", show(w, buf),
			    sf->operation, form_text[sf->form]);
	st->a = (uint32_t)a;
	st->b = (uint32_t)b;
	return 0;
}

static int line_of(struct reader *r, struct schedule_file *sf, const char *s, const char *end)
{
	const char *hash = memchr(s, '#', (size_t)(end - s));
	struct schedule_step st;
	char buf[SHOW_MAX + 4];
	struct word w[4];
	uint64_t v, to;
	size_t n;

	if (hash)
		end = hash;
	n = split(s, end, w, 3);
	if (!n)
		return 0;
	if (!r->seen_version) {
		if (n != 2 || !is_word(&w[0], "txnet-schedule"))
			return fail(r, -EINVAL, "expected \"txnet-schedule %d\" first",
				    SCHEDULE_VERSION);
		if (!number(w[1].s, w[1].n, NUMBER_MAX, &v) || v != SCHEDULE_VERSION)
			return fail(r, -EINVAL, "format version \"%s\": this txctl reads version %d",
				    show(&w[1], buf), SCHEDULE_VERSION);
		r->seen_version = true;
		return 0;
	}
	if (is_word(&w[0], "tick")) {
		if (!r->header_done) {
			static const char *const keys[] = { "network", "operation", "port-model" };
			size_t k;

			for (k = 0; k < 3; k++)
				if (!r->seen[k])
					return fail(r, -EINVAL, "the first tick before the header's %s",
						    keys[k]);
			r->header_done = true;
		}
		if (n != 2 || !number(w[1].s, w[1].n, TICK_MAX, &v) || v <= r->tick)
			return fail(r, -EINVAL, "expected \"tick T\", T past the last tick (%llu) "
				    "and below 2^40", (unsigned long long)r->tick);
		to = v - r->tick;
		if (to > NUMBER_MAX)
			return fail(r, -EINVAL, "a tick more than 2^32 - 2 past the last");
		r->tick = v;
		sf->ticks = v;
		return add_step(r, sf, (struct schedule_step){ SCHEDULE_TICK, (uint32_t)to,
							       SCHEDULE_NONE, SCHEDULE_NONE });
	}
	if (!r->header_done)
		return header(r, sf, w, n > 3 ? 3 : n, end);
	if (n != 3 || !number(w[0].s, w[0].n, NUMBER_MAX, &v) ||
	    !number(w[1].s, w[1].n, NUMBER_MAX, &to))
		return fail(r, -EINVAL, "expected a move, \"FROM TO %s\", or \"tick T\"",
			    sf->form == SCHEDULE_FORM_UNICAST ? "SRC>DST" :
			    sf->form == SCHEDULE_FORM_BROADCAST ? "SRC>*" :
			    sf->form == SCHEDULE_FORM_SUM ? "+LO-HI" : "*>DST");
	st.from = (uint32_t)v;
	st.to = (uint32_t)to;
	if (message(r, sf, &w[2], &st))
		return -EINVAL;
	return add_step(r, sf, st);
}

int schedule_file_read(const char *path, struct schedule_file *sf, char *msg, size_t msglen)
{
	struct reader r = { .fname = path, .msg = msg, .msglen = msglen };
	size_t len;
	char *buf;
	int ret;

	memset(sf, 0, sizeof(*sf));
	ret = file_read(path, SCHEDULE_FILE_MAX, &buf, &len);
	if (ret == -E2BIG)
		return fail(&r, ret, "larger than %llu bytes", (unsigned long long)SCHEDULE_FILE_MAX);
	if (ret)
		return fail(&r, ret, "%s", strerror(-ret));
	ret = schedule_file_parse(buf, len, path, sf, msg, msglen);
	free(buf);
	return ret;
}

void schedule_file_free(struct schedule_file *sf)
{
	free(sf->step);
	free(sf->line);
	memset(sf, 0, sizeof(*sf));
}

int schedule_file_parse(const char *text, size_t len, const char *fname,
			struct schedule_file *sf, char *msg, size_t msglen)
{
	struct reader r = { .fname = fname, .msg = msg, .msglen = msglen };
	const char *s = text, *end = text + len, *nl;
	int ret = 0;

	memset(sf, 0, sizeof(*sf));
	if (msglen)
		msg[0] = '\0';
	while (s < end && !ret) {
		nl = memchr(s, '\n', (size_t)(end - s));
		r.line++;
		ret = line_of(&r, sf, s, nl ? nl : end);
		s = nl ? nl + 1 : end;
	}
	if (!ret && !r.header_done) {
		r.line = 0;
		ret = fail(&r, -EINVAL, "%s", !r.seen_version ? "empty: no \"txnet-schedule 1\"" :
		      "no tick: a schedule has a header and then its ticks");
	}
	if (ret)
		schedule_file_free(sf);
	return ret;
}

static int write_move(FILE *f, const struct schedule_file *sf, const struct schedule_step *st)
{
	switch (sf->form) {
	case SCHEDULE_FORM_UNICAST:
		return fprintf(f, "%" PRIu32 " %" PRIu32 " %" PRIu32 ">%" PRIu32 "\n", st->from,
			       st->to, st->a, st->b);
	case SCHEDULE_FORM_BROADCAST:
		return fprintf(f, "%" PRIu32 " %" PRIu32 " %" PRIu32 ">*\n", st->from, st->to,
			       st->a);
	case SCHEDULE_FORM_SUM:
		if (st->a == st->b)
			return fprintf(f, "%" PRIu32 " %" PRIu32 " +%" PRIu32 "\n", st->from, st->to,
				       st->a);
		return fprintf(f, "%" PRIu32 " %" PRIu32 " +%" PRIu32 "-%" PRIu32 "\n", st->from,
			       st->to, st->a, st->b);
	default:
		return fprintf(f, "%" PRIu32 " %" PRIu32 " *>%" PRIu32 "\n", st->from, st->to,
			       st->a);
	}
}

int schedule_file_write(FILE *f, const struct schedule_file *sf)
{
	uint64_t tick = 0;
	size_t i;

	fprintf(f, "txnet-schedule %d\nnetwork %s\noperation %s\nport-model %s\n",
		SCHEDULE_VERSION, sf->network, sf->operation, sf->port_model);
	if (sf->has_root)
		fprintf(f, "root %" PRIu32 "\n", sf->root);
	for (i = 0; i < sf->nsteps; i++) {
		if (sf->step[i].from == SCHEDULE_TICK) {
			tick += sf->step[i].to;
			fprintf(f, "tick %llu\n", (unsigned long long)tick);
		} else {
			write_move(f, sf, &sf->step[i]);
		}
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

uint32_t schedule_file_line(const struct schedule_file *sf, uint64_t tick, uint32_t move)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < sf->nsteps; i++) {
		if (sf->step[i].from == SCHEDULE_TICK) {
			t += sf->step[i].to;
			if (t > tick)
				return 0;
			continue;
		}
		if (t == tick && !move--)
			return sf->line[i];
	}
	return 0;
}
