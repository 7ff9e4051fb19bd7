/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: a schedule file (Documentation/txnet-schedule-format.rst) read
 * into its header and its moves, and written from them.  The moves are
 * the kernel's script steps (TXNET_A_SCHEDULE): four words each, a tick
 * mark (from SCHEDULE_TICK, to the ticks it advances) or a move over the
 * cable from vertex @from to vertex @to of what @a and @b name: the
 * message from processor a to b ("a>b"), a copy of processor a's message
 * ("a>*", b unused), what the sender holds toward processor a's result
 * ("*>a", b unused), or a copy of the partial of processors a to b, mod
 * n ("+a-b", "+a" when b is a).  Unused words are SCHEDULE_NONE.  What a move means,
 * and whether the network has its vertices and cable, is the kernel's to
 * judge; this reads the words, their order and their form.
 */
#ifndef TXCTL_SCHEDULE_FILE_H
#define TXCTL_SCHEDULE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCHEDULE_VERSION	1
#define SCHEDULE_TICK		UINT32_MAX
#define SCHEDULE_NONE		UINT32_MAX
/* The most steps a file may have: the kernel's TXN_SCRIPT_MAX_STEPS. */
#define SCHEDULE_MAX_STEPS	(1ULL << 25)
#define SCHEDULE_NAME_MAX	384	/* as the kernel's TXNET_A_SPEC */
/* Bytes of one file at most: 4 GiB, past what SCHEDULE_MAX_STEPS moves are written in. */
#define SCHEDULE_FILE_MAX	(1ULL << 32)

/* What a file's moves carry; every move of a file has one form. */
enum schedule_form {
	SCHEDULE_FORM_NONE,		/* no moves yet */
	SCHEDULE_FORM_UNICAST,		/* "a>b" */
	SCHEDULE_FORM_BROADCAST,	/* "a>*" */
	SCHEDULE_FORM_TOWARD,		/* "*>a" */
	SCHEDULE_FORM_SUM,		/* "+a-b" */
};

struct schedule_step {
	uint32_t from, to, a, b;
};

struct schedule_file {
	char network[SCHEDULE_NAME_MAX];	/* "network ...": the rest of its line */
	char operation[64];			/* "operation NAME", as written */
	char port_model[64];			/* "port-model NAME", as written */
	int has_root;
	uint32_t root;
	enum schedule_form form;
	struct schedule_step *step;
	uint32_t *line;				/* per step, the file's line it came from */
	size_t nsteps;
	uint64_t ticks;				/* the last tick */
};

/*
 * Parse @len bytes of @text named @fname in messages.  0 with @sf filled
 * in (free with schedule_file_free()), or -EINVAL (a line out of place,
 * with "FNAME:LINE: reason" in @msg), -E2BIG (past SCHEDULE_MAX_STEPS
 * steps), -ENOMEM; @sf zeroed then, nothing left allocated.
 */
int schedule_file_parse(const char *text, size_t len, const char *fname,
			struct schedule_file *sf, char *msg, size_t msglen);
/* The file at @path read and parsed as schedule_file_parse() does; -errno when it cannot be read. */
int schedule_file_read(const char *path, struct schedule_file *sf, char *msg, size_t msglen);
void schedule_file_free(struct schedule_file *sf);

/* The form a move of operation @name takes, SCHEDULE_FORM_NONE for one without moves. */
enum schedule_form schedule_form_of(const char *operation);

/*
 * Write @sf to @f in the format: its header, then "tick T" and the moves
 * of each tick.  0, or -EIO when @f failed.
 */
int schedule_file_write(FILE *f, const struct schedule_file *sf);

/* The line of move @move (from 0) of tick @tick, 0 when the file has no such move. */
uint32_t schedule_file_line(const struct schedule_file *sf, uint64_t tick, uint32_t move);

#endif
