// SPDX-License-Identifier: GPL-2.0
/*
 * Runs: setting an exchange up on a network, driving its engine tick by
 * tick on the network's thread, and publishing the verified result.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "txnet.h"
#include "trace.h"
#include "core/latin.h"
#include "core/topo_impl.h"
#include "core/sched.h"
#include "core/bounds.h"
#include "core/series.h"

void txnet_run_free(struct txnet_run *r)
{
	if (!r)
		return;
	txn_engine_free(&r->e);
	kvfree(r->down);
	kvfree(r->took_lines);
	kvfree(r->took_sent);
	kvfree(r->took_recv);
	txnet_mem_uncharge(r->charged);
	kvfree(r->script.steps);
	txnet_mem_uncharge(r->script.nsteps * sizeof(*r->script.steps));
	txnet_result_release(&r->res);
	kfree(r);
}

void txnet_result_release(struct txnet_result *r)
{
	kfree(r->queue_max);
	kfree(r->values);
	r->queue_max = NULL;
	r->values = NULL;
	if (r->series) {
		txn_series_free(r->series);
		kfree(r->series);
		r->series = NULL;
		txnet_mem_uncharge(r->series_charged);
		r->series_charged = 0;
	}
	if (r->has_saved) {
		txn_log_free(&r->saved);
		r->has_saved = false;
	}
}

bool txnet_result_has(const struct txnet_result *r, int attr)
{
	switch (attr) {
	case TXNET_A_RES_STEPS:
		return r->verified;
	case TXNET_A_RES_EXPECTED_STEPS:
		return r->has_expected;
	case TXNET_A_RES_QUEUE_MAX:
		return r->queue_max;
	case TXNET_A_RES_MAX_QUEUE:
	case TXNET_A_RES_MAX_QUEUE_NODE:
		return r->status != TXNET_RUN_NONE && r->max_queue;
	case TXNET_A_RES_VALUES:
		return r->values;
	case TXNET_A_RES_SAMPLES:
	case TXNET_A_RES_SAMPLE_TICKS:
		return r->series;
	case TXNET_A_RES_ROOT:
		return r->status != TXNET_RUN_NONE && r->has_root;
	case TXNET_A_RES_VALUES_SEED:
		return r->status != TXNET_RUN_NONE && r->has_values_seed;
	case TXNET_A_RES_MAX_TICKS:
		return r->status != TXNET_RUN_NONE && r->max_ticks;
	case TXNET_A_RES_CONFIG:
		return r->status != TXNET_RUN_NONE && r->has_config;
	case TXNET_A_RES_CONFIG_X:
		return r->status != TXNET_RUN_NONE && r->has_config_x;
	case TXNET_A_RES_BLOCK_STAGE:
	case TXNET_A_RES_BLOCK_SWITCH:
	case TXNET_A_RES_BLOCK_INPUTS:
		return r->status == TXNET_RUN_BLOCKED;
	case TXNET_A_RES_ERROR:
		return r->error[0];
	case TXNET_A_RES_ERROR_LINK:
		return r->has_error_link;
	case TXNET_A_RES_FAULT_FREE_TICKS:
		return r->has_fault_free;
	case TXNET_A_RES_ERROR_MOVE:
		return r->status == TXNET_RUN_FAILED && r->error_move != TXN_NONE;
	case TXNET_A_RES_SAVED_STEPS:
		return r->status != TXNET_RUN_NONE && r->has_saved && !r->saved.err;
	case TXNET_A_RES_ERROR_TICK:
		return r->status == TXNET_RUN_FAILED || r->status == TXNET_RUN_BLOCKED;
	case TXNET_A_RES_ERROR_NODE:
		return (r->status == TXNET_RUN_FAILED || r->status == TXNET_RUN_BLOCKED) &&
		       r->error_node != TXN_NONE;
	default:
		return r->status != TXNET_RUN_NONE;
	}
}

/* What the run will be, decided under txnet_lock. */
struct run_plan {
	const struct txn_sched *s;
	struct txn_run_params p;
	u64 tick_ns;
	u32 run_id;
	bool record, save;
};

/* A schedule to replay: what it must agree with before it runs. */
static int plan_replay(struct txnet_net *tn, const struct txnet_run_req *req,
		       struct run_plan *plan, const char **why)
{
	struct txn_script script = { .steps = req->steps, .nsteps = req->nsteps };
	u64 at;
	int ret;

	if (req->algo != TXNET_ALGO_AUTO && req->algo != TXNET_ALGO_REPLAY) {
		*why = "algo: a schedule is replayed as it is (algo replay, or none)";
		return -EINVAL;
	}
	if (req->schedule_spec && strcmp(req->schedule_spec, tn->spec_str)) {
		*why = "schedule_spec: the schedule was made for another network";
		return -EINVAL;
	}
	if (req->has_port_model && req->port_model != tn->port_model) {
		*why = "port_model: the schedule was made for the other port model";
		return -EINVAL;
	}
	plan->s = &txn_sched_replay;
	/* an operation without moves to name is the schedule's fault, not the algo's */
	ret = txn_script_check(&plan->p, &script, why, &at);
	return ret == -EOPNOTSUPP ? -EINVAL : ret;
}

/* Claim the idle network for a run: it is RUNNING from here, for everyone. */
static int reserve(struct txnet_net *tn, const struct txnet_run_req *req,
		   struct run_plan *plan, const char **why)
{
	int ret;

	lockdep_assert_held(&txnet_lock);
	if (tn->dead) {
		*why = "the network was destroyed";
		return -ENOENT;
	}
	/* Acquire pairs with the thread's release of IDLE after it let go of its run. */
	if (smp_load_acquire(&tn->state) != TXNET_STATE_IDLE) {
		*why = "an exchange is already running on this network";
		return -EBUSY;
	}
	plan->p.op = req->op;
	if (req->steps) {
		ret = plan_replay(tn, req, plan, why);
		if (ret)
			return ret;
	} else {
		plan->s = txn_sched_pick(&tn->spec, req->op, req->algo, tn->port_model, why);
		if (!plan->s)
			return -EOPNOTSUPP;
	}
	/*
	 * With faults in force the papers' schedules, proven on the whole
	 * network, do not apply: auto takes the one that routes around them.
	 */
	if (req->algo == TXNET_ALGO_AUTO && !req->steps &&
	    (READ_ONCE(tn->faults.ncut) || READ_ONCE(tn->faults.nnodes)))
		plan->s = &txn_sched_general;
	plan->p.port_model = tn->port_model;
	plan->p.payload = req->payload;
	plan->p.seed = req->seed;
	plan->p.root = req->root;
	plan->p.values = req->values;
	plan->p.nvalues = req->nvalues;
	plan->p.values_seed = req->values_seed;
	plan->p.max_ticks = req->max_ticks;
	plan->p.budget = &txnet_mem_charger;
	if (req->has_config && plan->s->algo != TXNET_ALGO_LATIN) {
		*why = "config: only algo latin (a total exchange on a MIN) starts from a configuration";
		return -EINVAL;
	}
	if (req->has_config && !txn_latin_index_valid(tn->spec.size[0], req->config)) {
		*why = "config: not an index of the canonical Latin-square partition (0 .. N^(N/2-1)-1)";
		return -ERANGE;
	}
	if (req->config_rows && plan->s->algo != TXNET_ALGO_LATIN) {
		*why = "config_rows: only algo latin (a total exchange on a MIN) starts from a configuration";
		return -EINVAL;
	}
	if (req->config_rows && (req->nrows != tn->spec.size[0] / 2 ||
				 !txn_latin_rows_valid(tn->spec.size[0], req->config_rows))) {
		*why = "config_rows: N/2 rows of log2 N bits, one per switch row";
		return -EINVAL;
	}
	plan->p.config_rows = req->config_rows;
	plan->p.config = req->config;
	plan->p.dests = req->dests;
	plan->p.ndests = req->ndests;
	ret = txn_run_check(&tn->graph, &plan->p, why);
	if (ret)
		return ret;
	if (req->record && txn_op_slots(req->op, tn->counts.procs, txn_slot_links(&tn->graph)) >
			   TXNET_SERIES_MAX_PACKETS) {
		*why = "record: a run of more than TXNET_SERIES_MAX_PACKETS (1048576) packets keeps no series";
		return -E2BIG;
	}
	if (req->save && !txn_script_saves(req->op)) {
		*why = "save: the engine cannot name the moves of a prefix or data sum";
		return -EINVAL;
	}
	plan->p.fault = READ_ONCE(tn->fault);
	if (plan->p.fault == TXN_FAULT_SINGLE_PORT && plan->p.port_model != TXNET_PORT_SINGLE) {
		*why = "the single-port fault needs a single-port network";
		return -EINVAL;
	}
	/* A debugfs fault breaks one run, the next. */
	WRITE_ONCE(tn->fault, TXN_FAULT_NONE);
	plan->record = req->record;
	plan->save = req->save;
	plan->tick_ns = tn->tick_ns;
	plan->run_id = ++tn->runs;
	WRITE_ONCE(tn->run_ticks, 0);
	WRITE_ONCE(tn->run_delivered, 0);
	WRITE_ONCE(tn->run_expected, 0);
	/* Pairs with lockless readers' acquire (ports_busy, sysfs): RUNNING before the run. */
	smp_store_release(&tn->state, TXNET_STATE_RUNNING);
	return 0;
}

/*
 * A permutation on a MIN: the configuration that realizes it ([Massini03],
 * section 3), reported as the member M^{l,x} of the set S^l that holds it
 * (Theorem 2); or none, and the run must block.  Where l does not fit 64
 * bits (N >= 32 in general) only the run's outcome is reported.
 */
static void find_config(struct txnet_run *r, const struct txn_graph *g, const u32 *dests)
{
	u32 N = g->procs, *rows, *set;
	struct txn_min_block blk;
	u64 l;

	rows = kvcalloc(N, sizeof(u32), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!rows)
		return;
	set = rows + N / 2;
	r->admissible = !txn_latin_admit(g->min_topo, N, dests, rows, set, &blk);
	if (r->admissible && !txn_latin_index(N, rows, &l)) {
		r->res.has_config = true;
		r->res.config = l;
		r->res.has_config_x = true;
		r->res.config_x = rows[0];
	}
	kvfree(rows);
}

/*
 * The engine, built around the faults in force where its schedule can
 * route around them (the run then hears only of later changes).  Where
 * they cut a processor off, the tables would be too large or past what
 * mem_budget leaves, or the schedule cannot (a MIN's trees), it is built
 * as if nothing were down: its first tick hears of them and fails, naming
 * a link.
 */
static int start_engine(struct txnet_net *tn, struct txnet_run *r, const struct run_plan *plan)
{
	struct txn_run_params q = plan->p, whole = plan->p;
	u32 gen;
	int ret;

	if (r->script.steps)
		q.script = whole.script = &r->script;

	if (plan->s->reroute && (READ_ONCE(tn->faults.ncut) || READ_ONCE(tn->faults.nnodes))) {
		/* the generation before the copy: a change after it is heard at the first tick */
		gen = smp_load_acquire(&tn->faults.gen);
		txnet_faults_copy(&tn->faults, r->down);
		q.down = r->down;
		ret = txn_engine_init(&r->e, &tn->graph, plan->s, &q);
		if (ret != -EHOSTUNREACH && ret != -E2BIG && ret != -EOPNOTSUPP && ret != -ENOSPC) {
			r->fault_gen = gen;
			return ret;
		}
	}
	return txn_engine_init(&r->e, &tn->graph, plan->s, &whole);
}

/* The heavy part, without txnet_lock: charge, allocate, set the engine up. */
static struct txnet_run *prepare(struct txnet_net *tn, const struct run_plan *plan,
				 struct txnet_run_req *req, const char **why)
{
	const struct txn_run_params *p = &plan->p;
	struct txn_bound bound;
	struct txnet_run *r;
	u64 bytes;
	int ret;

	/* The engine, and the searches txn_bound() makes while setting up. */
	bytes = txn_engine_bytes(&tn->graph, plan->s, p) + txn_bound_bytes(&tn->counts) + sizeof(*r) +
		(2 * (u64)tn->faults.words + 2 * BITS_TO_U64(tn->counts.nodes)) * sizeof(u64);
	/* find_config(): rows and set, and txn_latin_admit()'s owners */
	if (plan->s->algo == TXNET_ALGO_SELF_ROUTING)
		bytes += (u64)tn->counts.procs * (2 + txn_min_log2(tn->counts.procs)) * sizeof(u32);
	if (plan->record)
		bytes += sizeof(struct txn_series) + txn_series_bytes(&tn->graph);
	if (txnet_mem_charge(bytes)) {
		*why = "the exchange needs more memory than the mem_budget limit leaves";
		return ERR_PTR(-ENOSPC);
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!r) {
		txnet_mem_uncharge(bytes);
		*why = "out of memory for the exchange";
		return ERR_PTR(-ENOMEM);
	}
	r->charged = bytes;
	/* the steps are the run's from here: it frees and uncharges them */
	r->script.steps = req->steps;
	r->script.nsteps = req->nsteps;
	req->steps = NULL;
	req->nsteps = 0;
	r->script_ticks = txn_script_ticks(&r->script);
	r->down = kvcalloc(tn->faults.words, sizeof(u64), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	r->took_lines = kvcalloc(tn->faults.words, sizeof(u64), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	r->took_sent = kvcalloc(BITS_TO_U64(tn->counts.nodes), sizeof(u64),
				GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	r->took_recv = kvcalloc(BITS_TO_U64(tn->counts.nodes), sizeof(u64),
				GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!r->down || !r->took_lines || !r->took_sent || !r->took_recv) {
		*why = "out of memory for the exchange";
		txnet_run_free(r);
		return ERR_PTR(-ENOMEM);
	}
	ret = start_engine(tn, r, plan);
	if (ret) {
		*why = ret == -ENOMEM ? "out of memory for the exchange's packets" :
		       ret == -E2BIG ? "the exchange needs an array larger than 2 GiB" :
				       "could not set the exchange up";
		txnet_run_free(r);
		return ERR_PTR(ret);
	}
	if (plan->record) {
		r->res.series = kzalloc(sizeof(*r->res.series), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		if (!r->res.series || txn_series_init(r->res.series, &tn->graph)) {
			*why = "out of memory for the exchange's time series";
			txnet_run_free(r);
			return ERR_PTR(-ENOMEM);
		}
		txn_engine_record(&r->e, r->res.series);
	}
	if (plan->save) {
		txn_log_init(&r->res.saved, p->op, &txnet_mem_charger);
		r->res.has_saved = true;
		txn_engine_save(&r->e, &r->res.saved);
	}
	r->res.error_move = TXN_NONE;

	r->tick_ns = plan->tick_ns;
	r->res.run_id = plan->run_id;
	r->res.op = p->op;
	r->res.algo = plan->s->algo;
	r->res.port_model = p->port_model;
	r->res.nodes = tn->counts.procs;
	r->res.payload = p->payload;
	r->res.seed = p->seed;
	if (p->op == TXNET_OP_PERMUTATION)
		txn_bound_perm(&tn->graph, p->dests, &bound);
	else
		txn_bound(&tn->spec, &tn->graph, p->op, p->port_model, p->root, &bound);
	r->res.lower_bound = bound.lower;
	r->res.bound = bound.name;
	r->res.min_transmissions = bound.min_transmissions;
	r->res.has_root = txn_op_has_root(p->op);
	r->res.root = p->root;
	r->res.has_values_seed = txn_op_combines(p->op) && !p->values;
	r->res.values_seed = p->values_seed;
	r->res.max_ticks = p->max_ticks;
	r->res.has_config = plan->s->algo == TXNET_ALGO_LATIN;
	r->res.config = p->config;
	/* M given: the set that holds it (Theorem 2), where its index fits */
	if (p->config_rows) {
		r->res.has_config = !txn_latin_index(tn->counts.procs, p->config_rows,
						     &r->res.config);
		r->res.has_config_x = r->res.has_config;
		r->res.config_x = p->config_rows[0];
	}
	if (plan->s->algo == TXNET_ALGO_SELF_ROUTING)
		find_config(r, &tn->graph, p->dests);
	r->res.has_expected = txn_expected_steps(plan->s, &tn->spec, p,
						 &r->res.expected_steps);
	r->res.expected_deliveries = r->e.expected;
	WRITE_ONCE(tn->run_expected, r->e.expected);
	return r;
}

void txnet_run_req_drop_steps(struct txnet_run_req *req)
{
	kvfree(req->steps);
	txnet_mem_uncharge(req->nsteps * sizeof(*req->steps));
	req->steps = NULL;
	req->nsteps = 0;
}

int txnet_run_start(struct txnet_net *tn, struct txnet_run_req *req,
		    const char **why, u32 *run_id)
{
	struct run_plan plan = {};
	struct txnet_run *r;
	int ret;

	mutex_lock(&txnet_lock);
	ret = reserve(tn, req, &plan, why);
	mutex_unlock(&txnet_lock);
	if (ret) {
		txnet_run_req_drop_steps(req);
		return ret;
	}

	r = prepare(tn, &plan, req, why);
	txnet_run_req_drop_steps(req);

	mutex_lock(&txnet_lock);
	if (tn->dead) {
		/* Destroyed meanwhile: its thread is gone, nothing may be published. */
		mutex_unlock(&txnet_lock);
		if (!IS_ERR(r))
			txnet_run_free(r);
		*why = "the network was destroyed while the exchange was set up";
		return -ENOENT;
	}
	if (IS_ERR(r)) {
		/*
		 * Nothing ran: give the run id back, and forget a STOP that
		 * named it, or it would stop the next run that gets it.
		 */
		if (READ_ONCE(tn->stop_run) == plan.run_id)
			WRITE_ONCE(tn->stop_run, 0);
		tn->runs--;
		/* As the thread's release of IDLE: the next reserve may claim it. */
		smp_store_release(&tn->state, TXNET_STATE_IDLE);
		mutex_unlock(&txnet_lock);
		return PTR_ERR(r);
	}
	*run_id = plan.run_id;
	/* Publishes the run, set up, to the thread's acquire in run_of(). */
	smp_store_release(&tn->run, r);
	wake_up(&tn->wq);
	mutex_unlock(&txnet_lock);
	return 0;
}

/* Ask the thread to stop the run in progress, by its id (see txnet_tick_must_stop()). */
void txnet_run_stop(struct txnet_net *tn)
{
	lockdep_assert_held(&txnet_lock);
	WRITE_ONCE(tn->stop_run, tn->runs);
	if (tn->thread)
		wake_up_process(tn->thread);
}

static u32 max_queue_now(const struct txn_engine *e)
{
	u32 v, m = 0;

	for (v = 0; v < e->g->nodes; v++)
		m = max(m, e->qlen[v]);
	return m;
}

/* What each processor ended with, for the first nodes of a combining run. */
static void keep_values(struct txnet_run *r)
{
	struct txnet_result *res = &r->res;
	u32 v, n = min_t(u32, r->e.n, TXNET_RES_QUEUE_MAX_NODES);

	if (!txn_op_combines(res->op))
		return;
	res->values = kcalloc(n, sizeof(s64), GFP_KERNEL_ACCOUNT);
	if (!res->values)
		return;
	res->values_len = n;
	for (v = 0; v < n; v++)
		if (!txn_engine_value(&r->e, v, &res->values[v]))
			res->values[v] = 0;
}

/*
 * Whether the run failed because its permutation is not admissible: the
 * engine stopped it at a line two messages needed at once, and no
 * configuration realizes the permutation.  Both must hold: a schedule
 * cannot pass an admissible permutation off as blocked.
 */
static bool blocked(struct txnet_run *r)
{
	struct txn_engine *e = &r->e;
	struct txnet_result *res = &r->res;

	if (res->algo != TXNET_ALGO_SELF_ROUTING || r->admissible || !e->failed ||
	    e->v.link == TXN_NONE || e->v.other == TXN_NONE)
		return false;
	txn_min_place(e->g, e->v.link, &res->block_stage, &res->block_switch);
	res->block_inputs[0] = txn_pkt_src(txn_engine_view(e), e->v.other);
	res->block_inputs[1] = txn_pkt_src(txn_engine_view(e), e->v.pkt);
	return true;
}

static void finish(struct txnet_run *r, int ret, bool stopped)
{
	struct txnet_result *res = &r->res;
	struct txn_engine *e = &r->e;
	u32 v;

	res->ticks = e->tick;
	res->reroutes = txn_engine_reroutes(e);
	res->links_down = txn_engine_links_down(txn_engine_view(e));
	if (e->failed && e->v.link < e->g->links) {
		res->has_error_link = true;
		res->error_link[0] = e->g->src[e->v.link];
		res->error_link[1] = e->g->dst[e->v.link];
	}
	res->transmissions = e->transmissions;
	res->delivered = e->delivered;
	for (v = 0; v < e->g->nodes; v++) {
		if (e->qmax[v] > res->max_queue) {
			res->max_queue = e->qmax[v];
			res->max_queue_node = v;
		}
	}
	/* every queued packet counts at its node: none counted, none queued */
	if (res->max_queue && e->g->nodes <= TXNET_RES_QUEUE_MAX_NODES) {
		res->queue_max = kmemdup(e->qmax, e->g->nodes * sizeof(u32), GFP_KERNEL_ACCOUNT);
		if (res->queue_max)
			res->queue_max_len = e->g->nodes;
	}
	if (stopped) {
		res->status = TXNET_RUN_STOPPED;
		strscpy(res->error, "stopped before every packet was delivered", sizeof(res->error));
		return;
	}
	if (ret == 1)
		ret = txn_engine_verify(e);
	if (!ret && r->script.steps && e->tick != r->script_ticks) {
		res->status = TXNET_RUN_FAILED;
		strscpy(res->error, TXN_SCRIPT_PAST_DONE, sizeof(res->error));
		res->error_tick = e->tick;
		res->error_node = TXN_NONE;
		return;
	}
	if (!ret)
		ret = txn_engine_check_bound(e, res->lower_bound);
	if (ret && blocked(r)) {
		res->status = TXNET_RUN_BLOCKED;
		snprintf(res->error, sizeof(res->error),
			 "blocked: stage %u switch %u, inputs %u and %u need it set both ways",
			 res->block_stage, res->block_switch, res->block_inputs[0],
			 res->block_inputs[1]);
		res->error_tick = e->v.tick;
		res->error_node = e->v.node;
		res->ticks = max(res->ticks, res->error_tick);
		return;
	}
	if (ret) {
		res->status = TXNET_RUN_FAILED;
		strscpy(res->error, e->failed ? e->v.rule : "engine error", sizeof(res->error));
		res->error_tick = e->v.tick;
		res->error_node = e->v.node;
		res->error_move = e->failed ? e->v.move : TXN_NONE;
		/* the tick that broke a rule was run, if not completed */
		res->ticks = max(res->ticks, res->error_tick);
		return;
	}
	res->status = TXNET_RUN_DONE;
	res->verified = true;
	res->steps = e->tick;
	keep_values(r);
}

static void mark(struct txnet_run *r, bool on)
{
	const struct txn_engine *e = &r->e;
	const struct txn_graph *g = e->g;
	u32 i, l, lid;

	for (i = 0; i < e->nmoves && i < e->max_moves; i++) {
		l = e->moves[i].link;
		lid = g->line ? g->line[l] : l;
		if (on) {
			r->took_lines[lid / 64] |= 1ULL << (lid % 64);
			r->took_sent[g->src[l] / 64] |= 1ULL << (g->src[l] % 64);
			r->took_recv[g->dst[l] / 64] |= 1ULL << (g->dst[l] % 64);
		} else {
			r->took_lines[lid / 64] = 0;
			r->took_sent[g->src[l] / 64] = 0;
			r->took_recv[g->dst[l] / 64] = 0;
		}
	}
}

/*
 * Port packets and interface frames in the tick the run just made, on the
 * links and ports it left idle: the run goes first, so its count of ticks
 * is what it would be alone; the result counts what moved beside it.
 */
static void traffic_beside(struct txnet_net *tn, struct txnet_run *r)
{
	struct txnet_ports *pt = txnet_ports_of(tn);
	struct txnet_fabric *f = txnet_fabric_of(tn);
	u64 before = (pt ? pt->e.transmissions : 0) + (f ? f->e.transmissions : 0);

	r->taken.lines = r->took_lines;
	r->taken.sent = r->took_sent;
	r->taken.recv = r->took_recv;
	mark(r, true);
	if (txnet_ports_busy(tn))
		txnet_ports_step(tn, &r->taken);
	if (txnet_fabric_busy(tn))
		txnet_fabric_step(tn, &r->taken);
	mark(r, false);
	r->res.shared_hops += (pt ? pt->e.transmissions : 0) + (f ? f->e.transmissions : 0) - before;
}

int txnet_run_step(struct txnet_net *tn, void *run)
{
	struct txnet_run *r = run;
	struct txn_engine *e = &r->e;

	u32 gen = smp_load_acquire(&tn->faults.gen);

	/* Faults changed since the last tick (or before the first): the run hears now. */
	if (gen != r->fault_gen) {
		r->fault_gen = gen;
		txnet_faults_copy(&tn->faults, r->down);
		r->engine_ret = txn_engine_set_down(e, r->down);
		if (r->engine_ret < 0)
			return r->engine_ret;
	}
	r->engine_ret = txn_engine_tick(e);
	if (r->engine_ret >= 0 && (txnet_ports_busy(tn) || txnet_fabric_busy(tn)))
		traffic_beside(tn, r);
	WRITE_ONCE(tn->run_ticks, e->tick);
	WRITE_ONCE(tn->run_delivered, e->delivered);
	if (trace_txnet_tick_enabled())
		trace_txnet_tick(tn->name, e->tick, e->nmoves, max_queue_now(e));
	return r->engine_ret;
}

/*
 * A run verified with links down: the same schedule, parameters and
 * inputs on the whole network, run to their end now (a computation, not
 * on the fabric), so that the result says what the faults cost.  Skipped
 * without the memory; abandoned when the thread must stop.
 */
static void fault_free(struct txnet_net *tn, struct txnet_run *r)
{
	u64 bytes = txn_engine_bytes_like(&r->e) + sizeof(struct txn_engine);
	struct txn_engine *b;
	int ret = 0;

	if (txnet_mem_charge(bytes))
		return;
	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (b && !txn_engine_init_like(b, &r->e)) {
		while (!ret && !txnet_tick_halted(tn, r->res.run_id)) {
			ret = txn_engine_tick(b);
			cond_resched();
		}
		if (ret == 1 && !txn_engine_verify(b)) {
			r->res.has_fault_free = true;
			r->res.fault_free_ticks = b->tick;
		}
		txn_engine_free(b);
	}
	kfree(b);
	txnet_mem_uncharge(bytes);
}

void txnet_run_end(struct txnet_net *tn, struct txnet_run *r, bool stopped, u64 wall_ns,
		   u64 busy_ns)
{
	r->res.wall_ns = wall_ns;
	r->res.busy_ns = busy_ns;
	finish(r, r->engine_ret, stopped);
	if (r->res.verified && (r->res.links_down || r->res.reroutes))
		fault_free(tn, r);
	r->res.tick_ns = r->res.ticks ? div64_u64(busy_ns, r->res.ticks) : 0;
	trace_txnet_run_done(tn->name, &r->res);
	if (r->res.series) {
		/* What recording alone needed goes; the rest stays charged with the result. */
		u64 kept = txn_series_kept_bytes(r->e.g);

		txn_series_keep(r->res.series);
		txnet_mem_uncharge(txn_series_bytes(r->e.g) - kept);
		r->res.series_charged = sizeof(*r->res.series) + kept;
		r->charged -= txn_series_bytes(r->e.g) + sizeof(*r->res.series);
		r->res.samples = r->res.series->len;
		r->res.sample_ticks = 1U << r->res.series->shift;
	}

	mutex_lock(&tn->res_lock);
	txnet_result_release(&tn->last);
	tn->last = r->res;
	mutex_unlock(&tn->res_lock);
	r->res.queue_max = NULL;
	r->res.values = NULL;
	r->res.series = NULL;
	r->res.series_charged = 0;
	r->res.has_saved = false;
	memset(&r->res.saved, 0, sizeof(r->res.saved));
}
