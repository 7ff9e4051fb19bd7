// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for txctl's MSCCL-IR import (user/msccl_ir.c,
 * msccl_import.c): any bytes become an XML file, imported for a ring of
 * its ranks under the port model and root the last byte picks.  A file
 * the import accepts must become a schedule file whose promises hold (a
 * tick mark first, moves of its operation's form, between ranks, on
 * lines of the file, no two over one cable in a tick, none from or to a
 * single-port rank twice in a tick); written out, it must parse back to
 * the same steps.  A refusal must name the file and leave nothing
 * allocated.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msccl_import.h"

#define FNAME	"fuzz.xml"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_msccl: %s\n", what);
		abort();
	}
}

static int move_cmp(const void *pa, const void *pb)
{
	const struct schedule_step *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* The moves of one tick: no cable twice, and under single-port no rank sending or receiving twice. */
static void check_tick(struct schedule_step *m, size_t n, int single)
{
	size_t i, j;

	qsort(m, n, sizeof(*m), move_cmp);
	for (i = 1; i < n; i++)
		check(m[i].from != m[i - 1].from || m[i].to != m[i - 1].to, "a cable twice in a tick");
	if (!single)
		return;
	for (i = 1; i < n; i++)
		check(m[i].from != m[i - 1].from, "a single-port rank sends twice in a tick");
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			check(m[i].to != m[j].to, "a single-port rank receives twice in a tick");
}

static void check_file(const struct schedule_file *sf, const struct msccl_algo *a, int single,
		       uint32_t lines)
{
	struct schedule_step *tick = malloc((sf->nsteps + 1) * sizeof(*tick));
	uint64_t t = 0;
	size_t i, n = 0;

	check(tick != NULL, "malloc");
	check(sf->nsteps && sf->step[0].from == SCHEDULE_TICK, "no first tick");
	check(schedule_form_of(sf->operation) == sf->form && sf->form != SCHEDULE_FORM_NONE,
	      "no form, or not the operation's");
	for (i = 0; i < sf->nsteps; i++) {
		const struct schedule_step *st = &sf->step[i];

		check(sf->line[i] >= 1 && sf->line[i] <= lines, "a line not of the file");
		if (st->from == SCHEDULE_TICK) {
			check(st->to >= 1, "a mark that does not advance");
			check_tick(tick, n, single);
			n = 0;
			t += st->to;
			continue;
		}
		check(st->from < a->ngpus && st->to < a->ngpus && st->from != st->to,
		      "a move not between two ranks");
		check(st->a < a->ngpus && (st->b == SCHEDULE_NONE || st->b < a->ngpus),
		      "a move naming no rank");
		check((st->b == SCHEDULE_NONE) ==
		      (sf->form == SCHEDULE_FORM_BROADCAST || sf->form == SCHEDULE_FORM_TOWARD),
		      "b against the form");
		tick[n++] = *st;
	}
	check_tick(tick, n, single);
	check(t == sf->ticks, "ticks");
	free(tick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct msccl_target t = { .network = "ring 4" };
	struct schedule_file sf, again;
	struct msccl_algo a;
	char msg[1024], *text = NULL;
	uint32_t lines = 1;
	size_t len = 0, i;
	FILE *f;
	int ret;

	if (size) {
		t.single_port = data[size - 1] & 1;
		t.root = (data[size - 1] >> 1) & 7;
	}
	/* XML ends a line at a line feed, a carriage return, or both */
	for (i = 0; i < size; i++)
		lines += data[i] == '\n' || (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n'));
	ret = msccl_parse((const char *)data, size, FNAME, &a, msg, sizeof(msg));
	if (ret) {
		check(ret == -EINVAL || ret == -E2BIG || ret == -ENOMEM, "parse: an unexpected errno");
		check(!strncmp(msg, FNAME ":", strlen(FNAME ":")), "parse: a refusal without the name");
		check(!a.gpu && !a.ngpus, "parse: a refusal left something behind");
		return 0;
	}
	ret = msccl_import(&a, FNAME, &t, &sf, msg, sizeof(msg));
	if (ret) {
		check(ret == -EINVAL || ret == -E2BIG || ret == -ENOMEM, "import: an unexpected errno");
		check(!strncmp(msg, FNAME ":", strlen(FNAME ":")), "import: a refusal without the name");
		check(!sf.step && !sf.line && !sf.nsteps, "import: a refusal left something behind");
		msccl_free(&a);
		return 0;
	}
	check_file(&sf, &a, t.single_port, lines);
	f = open_memstream(&text, &len);
	check(f != NULL, "open_memstream");
	check(!schedule_file_write(f, &sf), "write");
	fclose(f);
	ret = schedule_file_parse(text, len, "written", &again, msg, sizeof(msg));
	check(!ret, "what was written does not parse");
	check(again.nsteps == sf.nsteps && !memcmp(again.step, sf.step, sf.nsteps * sizeof(*sf.step)),
	      "written, the steps differ");
	free(text);
	schedule_file_free(&again);
	schedule_file_free(&sf);
	msccl_free(&a);
	return 0;
}
