/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: MSCCL-IR, the XML of collective algorithms that msccl-tools'
 * MSCCLang emits and MSCCL executes, read into its ranks, their
 * threadblocks and their steps, each with the line it came from.  What
 * the steps mean, and when they run, is msccl_import.c's.
 */
#ifndef TXCTL_MSCCL_IR_H
#define TXCTL_MSCCL_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of a file at most. */
#define MSCCL_FILE_MAX		(1ULL << 30)
/* Ranks at most: txnet's default max_nodes. */
#define MSCCL_RANKS_MAX		(1U << 16)
/* Chunks of one buffer, and of every buffer of every rank together. */
#define MSCCL_CHUNKS_MAX	(1U << 24)
/* Threadblocks and steps of a file, every rank's together. */
#define MSCCL_TBS_MAX		(1U << 20)
#define MSCCL_STEPS_MAX		(1U << 24)
/* Channels: MSCCL's own bound is lower (MSCCL_MAX_NUM_CHANNELS). */
#define MSCCL_CHANNELS_MAX	256

enum msccl_type {
	MSCCL_NOP,	/* "nop": waits for its dependency */
	MSCCL_SEND,	/* "s" */
	MSCCL_RECV,	/* "r" */
	MSCCL_RCS,	/* "rcs": receive, copy, send on */
	MSCCL_RRS,	/* "rrs": receive, reduce, send on */
	MSCCL_RRC,	/* "rrc": receive, reduce, copy */
	MSCCL_RRCS,	/* "rrcs": receive, reduce, copy, send on */
	MSCCL_CPY,	/* "cpy": a local copy */
	MSCCL_RE,	/* "re": a local reduce */
};

enum msccl_buf { MSCCL_BUF_IN, MSCCL_BUF_OUT, MSCCL_BUF_SCRATCH, MSCCL_NBUF };

struct msccl_step {
	uint32_t line;
	enum msccl_type type;
	enum msccl_buf srcbuf, dstbuf;
	int64_t srcoff, dstoff;		/* -1: none */
	uint32_t cnt;
	int32_t depid, deps;		/* the threadblock and step it waits for; -1: none */
};

struct msccl_tb {
	uint32_t line;
	int32_t send, recv;		/* the ranks it sends to and receives from; -1: none */
	uint32_t chan;
	struct msccl_step *step;
	size_t nsteps, cap;
};

struct msccl_gpu {
	uint32_t line;			/* 0 until its <gpu> is read */
	uint32_t chunks[MSCCL_NBUF];	/* i_chunks, o_chunks, s_chunks */
	struct msccl_tb *tb;
	size_t ntbs, cap;
};

struct msccl_algo {
	char name[128];
	char coll[32];
	uint32_t ngpus;
	bool inplace;
	uint32_t line;			/* of <algo> */
	struct msccl_gpu *gpu;		/* ngpus, by rank */
};

/*
 * Parse @len bytes of @text named @fname in messages: 0 with @a filled in
 * (free with msccl_free()), or -EINVAL with "FNAME:LINE: reason" in @msg,
 * -E2BIG past a limit above, -ENOMEM; nothing left allocated then.
 * Threadblocks and steps are numbered from 0 in the order written, as
 * msccl-tools writes them; every rank has its <gpu>, and a step's
 * dependency names a threadblock and step of its rank.
 */
int msccl_parse(const char *text, size_t len, const char *fname, struct msccl_algo *a,
		char *msg, size_t msglen);
/* The file at @path read and parsed as msccl_parse() does; -errno when it cannot be read. */
int msccl_read(const char *path, struct msccl_algo *a, char *msg, size_t msglen);
void msccl_free(struct msccl_algo *a);

/* "s", "rrc", ... of a step type. */
const char *msccl_type_name(enum msccl_type type);

#endif
