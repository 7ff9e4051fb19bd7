// SPDX-License-Identifier: GPL-2.0
/*
 * A run's memory: the one table of every array it allocates, which both
 * predicts the charge before the run (txn_engine_bytes()) and allocates it
 * (engine_alloc()), so that the two cannot disagree; and the release.
 */
#include "engine_impl.h"
/*
 * Every array a run allocates, with its element count and size: one table
 * that both allocates (engine_alloc) and tells the shell beforehand what
 * it will cost (txn_engine_bytes), so that the two never disagree.
 * Arrays of the scheduler's view live in struct txn_engine, the engine's
 * own in struct txn_ledger.
 */
struct txn_array {
	u64 count;
	u32 where;			/* offsetof the pointer */
	u32 size;
	bool ledger;			/* in struct txn_ledger, not txn_engine */
	bool zero;
};

#define TXN_ENGINE_ARRAYS	32	/* more than engine_layout() ever fills (30) */
#define PUB(field, n, sz, z) \
	((struct txn_array){ (n), offsetof(struct txn_engine, field), (sz), false, (z) })
#define OWN(field, n, sz, z) \
	((struct txn_array){ (n), offsetof(struct txn_ledger, field), (sz), true, (z) })


/*
 * Vertices of more ports than this (complete graphs) keep pq_node_max, so
 * that a single-port pick need not weigh every port (send_wide()).
 */
#define TXN_WIDE_PORTS	16

/*
 * Where a combining slot's count goes in its loc (struct txn_pkt): above
 * the vertices, g->nodes included (a dropped packet's: txn_inject_fault()),
 * with counts to n below the field's ones; 0 where the network leaves no
 * room (cnt[] keeps them).
 */
u32 txn_count_shift(const struct txn_graph *g)
{
	u32 shift = 1;

	while (shift < 30 && g->nodes >> shift)
		shift++;
	if (shift >= 30 || (u64)g->procs + 1 >= 1ULL << (30 - shift))
		return 0;
	return shift;
}

struct layout_args {
	u32 pq_keys, payload, op, port;
	bool sq;
	bool wide;		/* priority queues on a vertex of more than TXN_WIDE_PORTS links */
	bool landed;		/* a closed run with onward() on priority queues: tick_onward() */
	u64 npkts, nvalues;
	bool open;
};

static u32 engine_layout(const struct txn_graph *g, const struct layout_args *la,
			 struct txn_array *a)
{
	u64 links = g->links, v = g->nodes, moves = links + TXN_MOVES_SLACK, n = g->procs;
	u64 npkts = la->npkts;
	u32 k = 0;

	a[k++] = OWN(q.qhead, links, sizeof(u32), false);
	a[k++] = OWN(q.qtail, links, sizeof(u32), false);
	a[k++] = OWN(q.qlen, v, sizeof(u32), true);
	a[k++] = OWN(q.qmax, v, sizeof(u32), true);
	a[k++] = OWN(q.active, (links + 63) / 64, sizeof(u64), true);
	a[k++] = OWN(q.active_sum, (links + 4095) / 4096, sizeof(u64), true);
	a[k++] = PUB(moves, moves + MOVES_AHEAD, sizeof(struct txn_move), true);
	if (la->pq_keys) {
		a[k++] = OWN(q.pq, links * la->pq_keys, sizeof(u32), false);
		a[k++] = OWN(q.pq_bits, links, sizeof(u64), true);
		a[k++] = OWN(q.pq_len, links, sizeof(u32), true);
		if (la->wide)
			a[k++] = OWN(q.pq_node_max, v, sizeof(u64), true);
	} else if (la->sq) {
		a[k++] = OWN(q.pq_len, links, sizeof(u32), true);
		a[k++] = OWN(q.ahead, links, sizeof(u32), false);
		a[k++] = OWN(q.atail, links, sizeof(u32), false);
		a[k++] = OWN(q.sqk, 2 * links, sizeof(struct txn_lane_keys), false);
	}
	a[k++] = OWN(gfirst, v + 1, sizeof(u32), false);
	a[k++] = OWN(gsrc, links, sizeof(u32), false);
	a[k++] = OWN(gdst, links, sizeof(u32), false);
	/* by what a graph has, not by its arrays: an estimate's graph of counts alone has none */
	a[k++] = OWN(grev, links, sizeof(u32), false);
	if (g->line || g->min_topo)
		a[k++] = OWN(gline, links, sizeof(u32), false);
	a[k++] = OWN(pk, npkts, sizeof(struct txn_pkt), false);
	if (la->payload)
		a[k++] = OWN(payload, npkts, la->payload, false);
	a[k++] = OWN(stamp, links, sizeof(u64), true);
	a[k++] = OWN(sent_at, v, sizeof(u64), true);
	a[k++] = OWN(recv_at, v, sizeof(u64), true);
	a[k++] = OWN(arrivals, moves, sizeof(struct txn_move), false);
	if (la->landed) {
		a[k++] = OWN(landed, moves + MOVES_AHEAD, sizeof(struct txn_landed), true);
		a[k++] = PUB(ways, moves, sizeof(u64), false);
	}
	a[k++] = OWN(recvd, n, sizeof(u32), true);
	a[k++] = OWN(down, (links + 63) / 64, sizeof(u64), true);
	if (txn_op_combines(la->op)) {
		a[k++] = OWN(part_hi, npkts, sizeof(u32), true);
		if (!txn_count_shift(g))
			a[k++] = OWN(cnt, npkts, sizeof(u32), true);
		a[k++] = OWN(res, n, sizeof(u64), true);
		a[k++] = OWN(res_count, n, sizeof(u32), true);
		if (la->op == TXNET_OP_PREFIX_SUM)
			a[k++] = OWN(maxid, npkts, sizeof(u32), false);
		if (la->nvalues)
			a[k++] = OWN(vals, la->nvalues, sizeof(s64), false);
	}
	if (la->op == TXNET_OP_PERMUTATION)
		a[k++] = OWN(dests, n, sizeof(u32), false);
	if (la->op == TXNET_OP_BROADCAST || la->op == TXNET_OP_MULTINODE_BROADCAST)
		a[k++] = OWN(have, (la->npkts + 63) / 64, sizeof(u64), true);
	if (la->open) {
		a[k++] = OWN(src, npkts, sizeof(u32), false);
		a[k++] = OWN(len, npkts, sizeof(u32), false);
		a[k++] = OWN(sum, npkts, sizeof(u32), false);
		a[k++] = PUB(done, moves, sizeof(u32), false);
		a[k++] = PUB(lost, npkts, sizeof(u32), false);
		a[k++] = OWN(hops, links, sizeof(u64), true);
	}
	return k;
}

static u64 run_bytes(const struct txn_graph *g, const struct txn_sched *s,
		     const struct layout_args *la)
{
	struct txn_array a[TXN_ENGINE_ARRAYS];
	u32 k = engine_layout(g, la, a), i;
	u64 sum = sizeof(struct txn_ledger);

	if (s->priv_bytes)
		sum += s->priv_bytes(g, la->op, la->port, la->npkts);
	for (i = 0; i < k; i++)
		sum += a[i].count * a[i].size;
	return sum;
}

/* Whether some vertex has more than TXN_WIDE_PORTS links. */
static bool wide_ports(const struct txn_graph *g)
{
	u32 v;

	if (g->degree)
		return g->degree > TXN_WIDE_PORTS;
	for (v = 0; v < g->nodes; v++)
		if (g->first[v + 1] - g->first[v] > TXN_WIDE_PORTS)
			return true;
	return false;
}

/* What a run's queues and one of open traffic's have alike: the schedule's keys. */
static void queue_args_of(const struct txn_graph *g, const struct txn_sched *s,
			  const struct txn_run_params *p, struct layout_args *la)
{
	memset(la, 0, sizeof(*la));
	la->pq_keys = s->pq_keys ? s->pq_keys(g, p) : 0;
	la->wide = la->pq_keys && wide_ports(g);
}

static void layout_args_of(const struct txn_graph *g, const struct txn_sched *s,
			   const struct txn_run_params *p, struct layout_args *la)
{
	queue_args_of(g, s, p, la);
	la->sq = !la->pq_keys && s->sq_key;
	la->landed = la->pq_keys && s->onward;
	la->payload = p->payload;
	la->op = p->op;
	la->port = p->port_model;
	la->npkts = txn_op_slots(p->op, g->procs, txn_slot_links(g));
	la->nvalues = p->values ? txn_op_nvalues(p->op, g->procs) : 0;
}

/* Open traffic (ports): packets injected and delivered one by one, @slots at once. */
static void open_args_of(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
			 u32 slots, struct layout_args *la)
{
	queue_args_of(g, s, NULL, la);
	la->payload = payload;
	la->op = TXNET_OP_TOTAL_EXCHANGE;
	la->port = TXNET_PORT_ALL;
	la->npkts = slots;
	la->open = true;
}

u64 txn_engine_bytes(const struct txn_graph *g, const struct txn_sched *s,
		     const struct txn_run_params *p)
{
	struct layout_args la;

	layout_args_of(g, s, p, &la);
	return run_bytes(g, s, &la);
}

u64 txn_engine_open_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
			  u32 slots)
{
	struct layout_args la;

	open_args_of(g, s, payload, slots, &la);
	return run_bytes(g, s, &la);
}

static void **array_at(struct txn_engine *e, const struct txn_array *a)
{
	return (void **)((a->ledger ? (char *)e->ledger : (char *)e) + a->where);
}

/* Every array pointer engine_layout() may set. */
static const struct txn_array engine_arrays[] = {
	OWN(q.qhead, 0, 0, 0), OWN(q.qtail, 0, 0, 0), OWN(q.qlen, 0, 0, 0),
	OWN(q.qmax, 0, 0, 0), OWN(q.pq_len, 0, 0, 0), OWN(q.active, 0, 0, 0), OWN(q.active_sum, 0, 0, 0),
	PUB(moves, 0, 0, 0), OWN(q.pq, 0, 0, 0),
	OWN(q.pq_bits, 0, 0, 0), OWN(q.pq_node_max, 0, 0, 0), PUB(done, 0, 0, 0),
	OWN(q.ahead, 0, 0, 0), OWN(q.atail, 0, 0, 0),
	OWN(q.sqk, 0, 0, 0),
	OWN(gfirst, 0, 0, 0), OWN(gsrc, 0, 0, 0), OWN(gdst, 0, 0, 0), OWN(grev, 0, 0, 0),
	OWN(gline, 0, 0, 0),
	OWN(pk, 0, 0, 0), OWN(payload, 0, 0, 0), OWN(stamp, 0, 0, 0), OWN(sent_at, 0, 0, 0),
	OWN(recv_at, 0, 0, 0), OWN(arrivals, 0, 0, 0), OWN(recvd, 0, 0, 0), OWN(part_hi, 0, 0, 0),
	OWN(cnt, 0, 0, 0), OWN(maxid, 0, 0, 0), OWN(res, 0, 0, 0), OWN(res_count, 0, 0, 0),
	OWN(vals, 0, 0, 0),
	OWN(have, 0, 0, 0),
	OWN(src, 0, 0, 0), OWN(len, 0, 0, 0), OWN(sum, 0, 0, 0), OWN(dests, 0, 0, 0),
	OWN(down, 0, 0, 0),
	PUB(lost, 0, 0, 0), OWN(hops, 0, 0, 0), OWN(landed, 0, 0, 0), PUB(ways, 0, 0, 0),
};

/* Whether txn_engine_free() frees the array @a: an array it would leak is refused. */
static bool freed_later(const struct txn_array *a)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(engine_arrays); i++)
		if (engine_arrays[i].where == a->where && engine_arrays[i].ledger == a->ledger)
			return true;
	return false;
}

void txn_engine_free(struct txn_engine *e)
{
	u32 i;

	if (e->sched && e->sched->fini && e->ledger)
		e->sched->fini(txn_view_of(e));
	if (e->ledger && e->ledger->reroute_charged && e->ledger->p.budget)
		e->ledger->p.budget->uncharge(e->ledger->reroute_charged);
	if (e->ledger)
		for (i = 0; i < ARRAY_SIZE(engine_arrays); i++)
			txn_free(*array_at(e, &engine_arrays[i]));
	txn_free(e->ledger);
	memset(e, 0, sizeof(*e));
}

const u64 *txn_engine_link_hops(const struct txn_engine *e)
{
	return e->ledger ? e->ledger->hops : NULL;
}

static void fill_none(u32 *a, u64 count)
{
	u64 i;

	for (i = 0; i < count; i++)
		a[i] = TXN_NONE;
}

/*
 * The schedule's graph: @g's numbers and a copy of its arrays, so that a
 * schedule that writes them changes neither what its moves are checked
 * against (the engine reads @g) nor the network, whose graph the next run
 * and the traffic beside this one read.
 */
static noinline void view_graph(struct txn_ledger *ledger, const struct txn_graph *g)
{
	struct txn_graph *o = &ledger->graph;

	*o = *g;
	memcpy(ledger->gfirst, g->first, ((size_t)g->nodes + 1) * sizeof(u32));
	memcpy(ledger->gsrc, g->src, (size_t)g->links * sizeof(u32));
	memcpy(ledger->gdst, g->dst, (size_t)g->links * sizeof(u32));
	if (g->rev)
		memcpy(ledger->grev, g->rev, (size_t)g->links * sizeof(u32));
	if (g->line)
		memcpy(ledger->gline, g->line, (size_t)g->links * sizeof(u32));
	o->first = ledger->gfirst;
	o->src = ledger->gsrc;
	o->dst = ledger->gdst;
	o->rev = g->rev ? ledger->grev : NULL;
	o->line = g->line ? ledger->gline : NULL;
}

/* Out of line: the secret's buffer adds to no frame that already holds the array table. */
static noinline u64 run_secret(void)
{
	return txn_secret();
}

/* What every kind of run allocates: packet slots, per-link and per-vertex state. */
static int engine_alloc(struct txn_engine *e, const struct txn_graph *g,
			const struct txn_sched *s, const struct txn_run_params *p,
			const struct layout_args *la)
{
	struct txn_array a[TXN_ENGINE_ARRAYS];
	u32 links = g->links, k, i;
	void **ptr;

	memset(e, 0, sizeof(*e));
	if (g->procs < 2 || !la->npkts || la->npkts > 0xfffffff0ULL ||
	    p->payload > TXN_MAX_PAYLOAD || la->pq_keys > TXN_PQ_KEYS_MAX)
		return -EINVAL;
	k = engine_layout(g, la, a);
	/* Sizes first: an array no allocator can give is a refusal, not a failure. */
	for (i = 0; i < k; i++) {
		if (a[i].count > TXN_ARRAY_MAX / a[i].size)
			return -E2BIG;
		if (!freed_later(&a[i]))
			return -EINVAL;
	}
	e->ledger = txn_zalloc_array(1, sizeof(*e->ledger));
	if (!e->ledger)
		return -ENOMEM;
	e->sched = s;
	e->p = *p;
	e->n = g->procs;
	e->npkts = (u32)la->npkts;
	/* Room past one per link, so an extra move is caught by the rule it breaks. */
	e->max_moves = links + TXN_MOVES_SLACK;
	e->pq_keys = la->pq_keys;
	for (i = 0; i < k; i++) {
		ptr = array_at(e, &a[i]);
		*ptr = a[i].zero ? txn_zalloc_array(a[i].count, a[i].size) :
				   txn_alloc_array(a[i].count, a[i].size);
		if (!*ptr) {
			txn_engine_free(e);
			return -ENOMEM;
		}
	}
	view_graph(e->ledger, g);
	e->g = g;
	for (i = 0; i < la->npkts; i++)
		e->ledger->pk[i].next = TXN_NONE;
	fill_none(e->ledger->q.qhead, links);
	fill_none(e->ledger->q.qtail, links);
	if (e->pq_keys)	/* every bucket's head */
		fill_none(e->ledger->q.pq, (u64)links * e->pq_keys);
	if (e->ledger->q.ahead) {
		fill_none(e->ledger->q.ahead, links);
		fill_none(e->ledger->q.atail, links);
	}
	e->pq_bits = e->ledger->q.pq_bits;
	e->pq_len = e->ledger->q.pq_len;
	e->active = e->ledger->q.active;
	e->active_sum = e->ledger->q.active_sum;
	e->qlen = e->ledger->q.qlen;
	e->qmax = e->ledger->q.qmax;
	e->ledger->p = *p;
	e->ledger->open = la->open;
	/* drawn afresh for each run, and kept where no schedule can read it */
	e->ledger->salt = run_secret();
	/*
	 * Ticks without a delivery before a run counts as stuck: more than any
	 * path, queue or wait of a sound schedule takes between two deliveries,
	 * plus, in txn_engine_tick(), one tick per delivery still to come: a
	 * priority schedule may hold every short trip back until the long
	 * ones have passed (furthest-first on a ring of 61 delivers nothing
	 * for 430 ticks).
	 */
	e->ledger->stall_limit = 2 * ((u64)g->nodes + g->links) + 64;
	e->ledger->owner = e;
	txn_view_refresh(e);
	return 0;
}

int txn_engine_alloc_run(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p)
{
	struct layout_args la;

	layout_args_of(g, s, p, &la);
	return engine_alloc(e, g, s, p, &la);
}

int txn_engine_alloc_open(struct txn_engine *e, const struct txn_graph *g,
			  const struct txn_sched *s, const struct txn_run_params *p, u32 slots)
{
	struct layout_args la;

	open_args_of(g, s, p->payload, slots, &la);
	return engine_alloc(e, g, s, p, &la);
}
