/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: an MSCCL algorithm (msccl_ir.h) timed as txnet moves, the
 * schedule file (schedule_file.h) it proposes.  Ranks are processors; a
 * threadblock's send and receive peers are cables; each chunk a step
 * moves is one packet over its cable in one tick, and a step that moves
 * nothing over a cable takes no tick.  Every step runs as soon as its
 * threadblock's previous step and its dependency are done and the cable
 * and the port model allow (Documentation/txnet-schedule-format.rst,
 * "MSCCL algorithms").  The import never judges or repairs the
 * algorithm's moves: the engine does, when the file is replayed.
 */
#ifndef TXCTL_MSCCL_IMPORT_H
#define TXCTL_MSCCL_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msccl_ir.h"
#include "schedule_file.h"

struct msccl_target {
	const char *network;		/* the file's "network" line */
	bool single_port;
	uint32_t root;			/* of a broadcast, scatter, gather or reduce */
};

/*
 * @a, read from @fname, as the schedule file @sf (free it with
 * schedule_file_free()) for @t; each move's line is its step's line.  0,
 * or -EINVAL with "FNAME:LINE: reason" in @msg (a collective txnet has no
 * operation for, a buffer or peer a step does not have, a chunk that
 * holds nothing sent, steps that wait for each other in a loop, a chunk
 * sent that is never received), -E2BIG past SCHEDULE_MAX_STEPS, -ENOMEM;
 * nothing left allocated then.
 */
int msccl_import(const struct msccl_algo *a, const char *fname, const struct msccl_target *t,
		 struct schedule_file *sf, char *msg, size_t msglen);

#endif
