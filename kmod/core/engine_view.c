// SPDX-License-Identifier: GPL-2.0
/*
 * The view: the struct txn_engine a schedule is handed.  The caller's
 * struct (the owner) is the engine's and no schedule sees it; the view
 * lives in the ledger, is refreshed from the owner before the schedule
 * runs and compared with it after, field by field, so that a schedule
 * that writes what is not its own fails the run, naming what it wrote,
 * before the tick is counted.  Nothing the engine checks or counts is
 * read from the view: comparing it is how a forgery is named, not what
 * stops it.
 */
#include "engine_impl.h"

/* A field of the view that the schedule must leave as the engine made it. */
struct view_field {
	u32 off, size;
	const char *rule;
};

#define R_GRAPH		"the scheduler rewrote the engine's graph"
#define R_PARAMS	"the scheduler rewrote the run's parameters"
#define R_COUNTERS	"the scheduler rewrote the engine's counters"
#define R_SIZES		"the scheduler rewrote the run's sizes"
#define R_ARRAYS	"the scheduler rewrote the engine's arrays"
#define VF(field, rule) \
	{ offsetof(struct txn_engine, field), sizeof(((struct txn_engine *)NULL)->field), rule }

static const struct view_field view_fields[] = {
	VF(p, R_PARAMS),
	VF(tick, R_COUNTERS), VF(delivered, R_COUNTERS), VF(expected, R_COUNTERS),
	VF(transmissions, R_COUNTERS), VF(copies, R_COUNTERS), VF(merges, R_COUNTERS),
	VF(injected, R_COUNTERS), VF(dropped, R_COUNTERS),
	VF(g, R_GRAPH), VF(sched, R_SIZES), VF(n, R_SIZES), VF(npkts, R_SIZES),
	VF(pq_keys, R_SIZES), VF(max_moves, R_SIZES),
	VF(moves, R_ARRAYS), VF(pq_bits, R_ARRAYS), VF(pq_len, R_ARRAYS),
	VF(active, R_ARRAYS), VF(active_sum, R_ARRAYS), VF(qlen, R_ARRAYS),
	VF(qmax, R_ARRAYS), VF(ways, R_ARRAYS), VF(done, R_ARRAYS), VF(lost, R_ARRAYS),
	VF(ledger, R_ARRAYS),
};

/*
 * What the view must be: the owner on its own copy of the graph, without
 * the arrays only the engine and the shell use (the ways, the deliveries
 * and losses of open traffic, the ledger).  Kept in the ledger (expect)
 * and changed where the engine changes the owner, so that a check is one
 * sweep over the fields from g to v.
 */
static void view_expected(const struct txn_engine *e, struct txn_engine *x)
{
	const struct txn_ledger *ledger = e->ledger;

	memcpy(x, e, sizeof(*x));
	x->g = &ledger->graph;
	x->ways = NULL;
	x->done = NULL;
	x->lost = NULL;
	x->ledger = NULL;
}

#define VIEW_COMPARED	offsetof(struct txn_engine, v)

void txn_view_refresh(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	struct txn_engine *vw = &ledger->view;

	view_expected(e, &ledger->expect);
	memcpy(vw, &ledger->expect, VIEW_COMPARED);
	vw->v = e->v;
	vw->failed = e->failed;
	vw->ndone = e->ndone;
	vw->nlost = e->nlost;
}

/* The field of the view a schedule wrote, named: the sweep found one. */
static noinline int view_written(struct txn_engine *e, u64 t)
{
	const char *a = (const char *)&e->ledger->view, *b = (const char *)&e->ledger->expect;
	const char *rule = R_ARRAYS;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(view_fields); i++) {
		const struct view_field *f = &view_fields[i];

		if (memcmp(a + f->off, b + f->off, f->size)) {
			rule = f->rule;
			break;
		}
	}
	return txn_violate(e, t, TXN_NONE, TXN_NONE, rule);
}

int txn_view_check(struct txn_engine *e, u64 t)
{
	const struct txn_ledger *ledger = e->ledger;

	if (likely(!memcmp(&ledger->view, &ledger->expect, VIEW_COMPARED)))
		return 0;
	return view_written(e, t);
}

static bool same_u32s(const u32 *a, const u32 *b, u64 count)
{
	return !count || (a && b && !memcmp(a, b, count * sizeof(u32)));
}

int txn_view_check_graph(struct txn_engine *e, u64 t)
{
	const struct txn_graph *g = e->g, *o = &e->ledger->graph;

	if (!same_u32s(g->first, o->first, (u64)g->nodes + 1) ||
	    !same_u32s(g->src, o->src, g->links) || !same_u32s(g->dst, o->dst, g->links) ||
	    (g->rev && !same_u32s(g->rev, o->rev, g->links)) ||
	    (g->line && !same_u32s(g->line, o->line, g->links)))
		return txn_violate(e, t, TXN_NONE, TXN_NONE, R_GRAPH);
	return 0;
}
