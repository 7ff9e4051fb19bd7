// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for txctl's schedule files (user/schedule_file.c): any
 * bytes become a file.  A file the parser accepts must keep the promises
 * of schedule_file.h: a tick mark first, marks that advance, moves of one
 * form with the words that form leaves unused set to none, lines in file
 * order; written back out it must parse to the very same steps.  A
 * refusal must name the file and leave nothing allocated.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule_file.h"

#define FNAME	"fuzz.sched"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_schedule_file: %s\n", what);
		abort();
	}
}

static void check_file(const struct schedule_file *sf)
{
	uint64_t tick = 0;
	size_t i;

	check(sf->nsteps && sf->step[0].from == SCHEDULE_TICK, "no first tick");
	check(sf->form != SCHEDULE_FORM_NONE, "no form");
	check(schedule_form_of(sf->operation) == sf->form, "form not the operation's");
	for (i = 0; i < sf->nsteps; i++) {
		const struct schedule_step *st = &sf->step[i];

		check(!i || sf->line[i - 1] <= sf->line[i], "lines out of order");
		if (st->from == SCHEDULE_TICK) {
			check(st->to >= 1 && st->a == SCHEDULE_NONE && st->b == SCHEDULE_NONE,
			      "a mark that does not advance");
			tick += st->to;
			continue;
		}
		check(st->to != SCHEDULE_NONE && st->a != SCHEDULE_NONE, "a none in a move");
		check((st->b == SCHEDULE_NONE) ==
		      (sf->form == SCHEDULE_FORM_BROADCAST || sf->form == SCHEDULE_FORM_TOWARD),
		      "b against the form");
	}
	check(tick == sf->ticks && tick < (1ULL << 40), "ticks");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct schedule_file sf, again;
	char msg[256], *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	ret = schedule_file_parse((const char *)data, size, FNAME, &sf, msg, sizeof(msg));
	if (ret) {
		check(ret == -EINVAL || ret == -E2BIG || ret == -ENOMEM, "an unexpected errno");
		check(!strncmp(msg, FNAME ":", strlen(FNAME ":")), "a refusal without the file's name");
		check(!sf.step && !sf.line && !sf.nsteps, "a refusal left something behind");
		return 0;
	}
	check_file(&sf);
	f = open_memstream(&text, &len);
	check(f != NULL, "open_memstream");
	check(!schedule_file_write(f, &sf), "write");
	fclose(f);
	ret = schedule_file_parse(text, len, "written", &again, msg, sizeof(msg));
	check(!ret, "what was written does not parse");
	check(again.nsteps == sf.nsteps &&
	      !memcmp(again.step, sf.step, sf.nsteps * sizeof(*sf.step)), "written, the steps differ");
	check(!strcmp(again.network, sf.network) && !strcmp(again.operation, sf.operation) &&
	      !strcmp(again.port_model, sf.port_model) && again.has_root == sf.has_root &&
	      (!sf.has_root || again.root == sf.root), "written, the header differs");
	free(text);
	schedule_file_free(&again);
	schedule_file_free(&sf);
	return 0;
}
