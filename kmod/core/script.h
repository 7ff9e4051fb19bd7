/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Schedules as data.  A script is a run's moves, tick by tick, naming
 * vertices and messages, never the engine's slots: what a user's file
 * says (Documentation/txnet-schedule-format.rst) once txctl has parsed
 * it, and what the engine accepted from any schedule when it was asked
 * to keep a log of the run (txn_engine_save()).  A script is untrusted:
 * the replay schedule (sched_replay.c) proposes its moves and the engine
 * judges them as it judges every schedule's.
 */
#ifndef TXN_CORE_SCRIPT_H
#define TXN_CORE_SCRIPT_H

#include "engine.h"

/*
 * One step of a script, four words.  A tick mark (from TXN_STEP_TICK)
 * starts the moves of a later tick: @to ticks after the last mark's (the
 * first mark's tick is @to itself), so that idle ticks cost nothing.  A
 * move sends, over the cable from vertex @from to vertex @to, what @a and
 * @b name:
 *
 * - unicast operations: the message from processor @a to processor @b;
 * - broadcasts: a copy of the message processor @a originated (@b unused);
 * - accumulations: what @from holds toward the result of processor @a,
 *   all of it merged into one partial at a processor (@b unused);
 * - data sums: a copy of the partial of processors @a, @a + 1, ..., @b
 *   (counted mod n: every processor when the interval has n of them).
 *
 * Unused words are TXN_NONE.
 */
#define TXN_STEP_TICK		((u32)~0U)
/* Steps a script may have: 512 MiB of them, far past what mem_budget lets a run keep. */
#define TXN_SCRIPT_MAX_STEPS	((u64)TXNET_SCHEDULE_MAX_STEPS)

struct txn_step {
	u32 from, to, a, b;
};

struct txn_script {
	const struct txn_step *steps;
	u64 nsteps;
};

/* Whether operation @op has moves a script can name (a replay runs them). */
bool txn_script_op(u32 op);
/*
 * Whether the engine can name operation @op's moves as a script's
 * (txn_engine_save()): not a data sum's, whose partials it knows by their
 * count and seal, not by the interval of processors a script names.
 */
bool txn_script_saves(u32 op);

/*
 * Check @s's shape for a run of @p before it starts: the operation
 * has moves a script names, it begins with a tick mark, every mark
 * advances and the last is below 2^40.  0, or -EINVAL / -EOPNOTSUPP /
 * -E2BIG with *@why the rule and *@at the step that breaks it.  What
 * each move names is checked as it is replayed, so that a refusal names
 * its tick and move, as the engine's do.
 */
int txn_script_check(const struct txn_run_params *p,
		     const struct txn_script *s, const char **why, u64 *at);

/*
 * Whether move @st names two vertices of @g a cable joins, from the first
 * to the second, and a message or result of a run of @p: NULL with
 * *@link that cable's link, or why not.
 */
const char *txn_script_move_why(const struct txn_graph *g, const struct txn_run_params *p,
				const struct txn_step *st, u32 *link);

/* The tick of @s's last mark: a replay of it that verifies ends there. */
u64 txn_script_ticks(const struct txn_script *s);
/*
 * A replay verified before its script's last tick: the moves after it
 * never ran, and the file's time is not the run's.  Its shell fails it.
 */
#define TXN_SCRIPT_PAST_DONE "the schedule has moves after every delivery was made"

/* The link from @from to @to on @g, or TXN_NO_LINK. */
u32 txn_script_link(const struct txn_graph *g, u32 from, u32 to);

/*
 * The record of a run's moves as a script, which the engine appends to
 * after each tick's moves were checked.  It grows as the run goes, each
 * growth charged to @budget first; when it cannot grow, @err says why and
 * the run goes on unrecorded: a failed save never fails a run.
 */
struct txn_log {
	struct txn_step *steps;
	u64 nsteps, cap;
	u64 last_tick;			/* the tick of the last mark */
	u64 charged;			/* bytes charged to @budget */
	const struct txn_budget *budget;
	int err;			/* 0, or why the log stopped: -ENOSPC, -ENOMEM, -E2BIG */
};

/* An empty log for a run of @op; -EOPNOTSUPP when a script cannot name its moves. */
int txn_log_init(struct txn_log *log, u32 op, const struct txn_budget *budget);
void txn_log_free(struct txn_log *log);
/* Room for @more steps past those logged: 0, or the error it also keeps in @log->err. */
int txn_log_reserve(struct txn_log *log, u64 more);

/* The engine keeps a log of this run's moves from now on into @log, the caller's. */
void txn_engine_save(struct txn_engine *e, struct txn_log *log);

/* The replay schedule (sched_replay.c): runs p.script. */
extern const struct txn_sched txn_sched_replay;

#endif /* TXN_CORE_SCRIPT_H */
