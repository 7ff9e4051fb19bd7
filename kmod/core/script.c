// SPDX-License-Identifier: GPL-2.0
/*
 * Scripts (script.h): the checks a script meets before it runs, and the
 * log a run's accepted moves are kept in.  The checks are the ones that
 * need no run: a script that passes them may still break every rule of
 * the engine, which judges it move by move as it replays.
 */
#include "script.h"

bool txn_script_saves(u32 op)
{
	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
	case TXNET_OP_PERMUTATION:
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		return true;
	default:
		return false;
	}
}

bool txn_script_op(u32 op)
{
	return txn_script_saves(op) || op == TXNET_OP_DATA_SUM;
}

u32 txn_script_link(const struct txn_graph *g, u32 from, u32 to)
{
	u32 l;

	if (from >= g->nodes || to >= g->nodes)
		return TXN_NO_LINK;
	for (l = g->first[from]; l < g->first[from + 1]; l++)
		if (g->dst[l] == to)
			return l;
	return TXN_NO_LINK;
}

/* Whether step @s names a message of a run of @p on @n processors: NULL, or why not. */
static const char *message_why(const struct txn_run_params *p, u32 n, const struct txn_step *s)
{
	switch (p->op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		if (s->a >= n || s->b >= n || s->a == s->b)
			return "no such message: a total exchange's go between two processors";
		return NULL;
	case TXNET_OP_SCATTER:
		if (s->a != p->root || s->b >= n || s->b == p->root)
			return "no such message: a scatter's go from the root to another processor";
		return NULL;
	case TXNET_OP_GATHER:
		if (s->b != p->root || s->a >= n || s->a == p->root)
			return "no such message: a gather's go from a processor to the root";
		return NULL;
	case TXNET_OP_PERMUTATION:
		/* whether b is a's destination is the engine's to say (txn_pkt_dst()) */
		if (s->a >= n || s->b >= n)
			return "no such message: a permutation's go from a processor to its destination";
		return NULL;
	case TXNET_OP_BROADCAST:
	case TXNET_OP_ACCUMULATE:
		if (s->a != p->root || s->b != TXN_NONE)
			return p->op == TXNET_OP_BROADCAST ?
			       "no such message: a broadcast has the root's alone" :
			       "no such result: an accumulation has the root's alone";
		return NULL;
	case TXNET_OP_DATA_SUM:
		if (s->a >= n || s->b >= n)
			return "no such partial: a data sum's are of an interval of processors";
		return NULL;
	default:
		if (s->a >= n || s->b != TXN_NONE)
			return p->op == TXNET_OP_MULTINODE_BROADCAST ?
			       "no such message: each processor originates one" :
			       "no such result: each processor ends with one";
		return NULL;
	}
}

const char *txn_script_move_why(const struct txn_graph *g, const struct txn_run_params *p,
				const struct txn_step *st, u32 *link)
{
	if (st->from >= g->nodes || st->to >= g->nodes)
		return "no such vertex";
	*link = txn_script_link(g, st->from, st->to);
	if (*link == TXN_NO_LINK)
		return "no cable from the move's first vertex to its second";
	return message_why(p, g->procs, st);
}

int txn_script_check(const struct txn_run_params *p,
		     const struct txn_script *s, const char **why, u64 *at)
{
	u64 i, tick = 0;

	*at = 0;
	if (!txn_script_op(p->op)) {
		*why = "schedule: a prefix sum has no moves a schedule file can name";
		return -EOPNOTSUPP;
	}
	if (s->nsteps > TXN_SCRIPT_MAX_STEPS) {
		*why = "schedule: more steps than a schedule may have";
		return -E2BIG;
	}
	if (!s->nsteps || s->steps[0].from != TXN_STEP_TICK) {
		*why = "schedule: the first step is not a tick";
		return -EINVAL;
	}
	for (i = 0; i < s->nsteps; i++) {
		const struct txn_step *st = &s->steps[i];

		*at = i;
		if (st->from != TXN_STEP_TICK)
			continue;
		/* ticks stay far below 2^63, where counts of them are safe to add */
		if (!st->to || st->a != TXN_NONE || st->b != TXN_NONE) {
			*why = "schedule: a tick mark must advance by one tick or more";
			return -EINVAL;
		}
		tick += st->to;
		if (tick >> 40) {
			*why = "schedule: a tick past 2^40";
			return -E2BIG;
		}
	}
	return 0;
}

u64 txn_script_ticks(const struct txn_script *s)
{
	u64 i, t = 0;

	for (i = 0; i < s->nsteps; i++)
		if (s->steps[i].from == TXN_STEP_TICK)
			t += s->steps[i].to;
	return t;
}

int txn_log_init(struct txn_log *log, u32 op, const struct txn_budget *budget)
{
	memset(log, 0, sizeof(*log));
	log->budget = budget;
	if (!txn_script_saves(op)) {
		log->err = -EOPNOTSUPP;
		return log->err;
	}
	return 0;
}

void txn_log_free(struct txn_log *log)
{
	txn_free(log->steps);
	if (log->budget && log->charged)
		log->budget->uncharge(log->charged);
	log->steps = NULL;
	log->nsteps = log->cap = log->charged = 0;
}

/*
 * The log doubles as it grows, so a run's moves are copied a few times
 * over in all, not once a tick: the price of not knowing in advance how
 * many moves a schedule makes.
 */
int txn_log_reserve(struct txn_log *log, u64 more)
{
	struct txn_step *to;
	u64 cap = log->cap, bytes;

	if (log->err)
		return log->err;
	if (log->nsteps + more <= cap)
		return 0;
	if (log->nsteps + more > TXN_SCRIPT_MAX_STEPS) {
		log->err = -E2BIG;
		return log->err;
	}
	cap = cap ? cap * 2 : 4096;
	if (cap < log->nsteps + more)
		cap = log->nsteps + more;
	if (cap > TXN_SCRIPT_MAX_STEPS)
		cap = TXN_SCRIPT_MAX_STEPS;
	bytes = cap * sizeof(*to);
	if (log->budget && log->budget->charge(bytes)) {
		log->err = -ENOSPC;
		return log->err;
	}
	to = txn_alloc_array(cap, sizeof(*to));
	if (!to) {
		if (log->budget)
			log->budget->uncharge(bytes);
		log->err = -ENOMEM;
		return log->err;
	}
	if (log->nsteps)
		memcpy(to, log->steps, log->nsteps * sizeof(*to));
	txn_free(log->steps);
	if (log->budget && log->charged)
		log->budget->uncharge(log->charged);
	log->steps = to;
	log->cap = cap;
	log->charged = log->budget ? bytes : 0;
	return 0;
}
