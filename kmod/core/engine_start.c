// SPDX-License-Identifier: GPL-2.0
/*
 * A run's start: the packet slots of each kind of operation placed at
 * their origins, links down from the start, and open traffic, whose
 * packets the shell injects one by one and the engine releases on
 * delivery.
 */
#include "engine_impl.h"
static void slot_init(struct txn_ledger *ledger, u32 pkt, u32 loc, u32 tag)
{
	ledger->pk[pkt].loc = loc;
	ledger->pk[pkt].tag = tag;
}

static void fill_payload(struct txn_engine *e, u32 pkt, u32 src, u32 dst)
{
	struct txn_ledger *ledger = e->ledger;

	txn_payload_fill(ledger->payload + (size_t)pkt * ledger->p.payload, ledger->p.payload,
			 ledger->p.seed, src, dst);
}

/* Chain slots @from .. npkts-1 into the free list. */
static void free_from(struct txn_engine *e, u32 from)
{
	struct txn_ledger *ledger = e->ledger;
	u32 pkt;

	ledger->free = TXN_NONE;
	for (pkt = e->npkts; pkt-- > from;)
		txn_slot_free(ledger, pkt);
}

void txn_slot_free(struct txn_ledger *ledger, u32 pkt)
{
	ledger->pk[pkt].loc = TXN_LOC_FREE;
	ledger->pk[pkt].tag = ledger->free;
	ledger->free = pkt;
}

static void start_unicast(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u32 n = e->n, r = ledger->p.root, src, dst, k, pkt = 0;

	switch (ledger->p.op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		for (src = 0; src < n; src++)
			for (k = 0; k < n - 1; k++, pkt++)
				slot_init(ledger, pkt, src, k < src ? k : k + 1);
		break;
	case TXNET_OP_SCATTER:
		for (k = 0; k < n - 1; k++)
			slot_init(ledger, k, r, k < r ? k : k + 1);
		break;
	case TXNET_OP_GATHER:
		for (k = 0; k < n - 1; k++)
			slot_init(ledger, k, k < r ? k : k + 1, r);
		break;
	case TXNET_OP_PERMUTATION:
		/*
		 * Slot i is processor i's message.  The caller's array may go
		 * once the run is set up; schedulers ask txn_pkt_dst().  A
		 * message that is not sent is where it goes from the start.
		 */
		memcpy(ledger->dests, ledger->p.dests, n * sizeof(u32));
		ledger->p.dests = ledger->dests;
		e->p.dests = NULL;
		ledger->expected = 0;
		for (src = 0; src < n; src++) {
			slot_init(ledger, src, src, ledger->dests[src]);
			if (txn_perm_sends(e->g, src, ledger->dests[src]))
				ledger->expected++;
			else
				ledger->pk[src].loc = TXN_LOC_GONE;
		}
		break;
	}
	if (!ledger->p.payload)
		return;
	for (pkt = 0; pkt < e->npkts; pkt++) {
		src = txn_slot_src(e, pkt);
		dst = ledger->pk[pkt].tag;
		fill_payload(e, pkt, src, dst);
		if (!(pkt & 4095))
			txn_cond_resched();
	}
}

/* One packet per message at its origin, which has it from the start. */
static void start_broadcast(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u32 m, origin;
	u64 bit;

	ledger->nmsgs = ledger->p.op == TXNET_OP_BROADCAST ? 1 : e->n;
	for (m = 0; m < ledger->nmsgs; m++) {
		origin = txn_msg_origin(ledger, m);
		slot_init(ledger, m, origin, m);
		bit = (u64)m * e->n + origin;
		ledger->have[bit / 64] |= 1ULL << (bit % 64);
		if (ledger->p.payload)
			fill_payload(e, m, origin, TXN_NONE);
	}
	free_from(e, ledger->nmsgs);
}

/* Slot @pkt: processor @i's input for result @r, at @i. */
static void part_init(struct txn_engine *e, u32 pkt, u32 i, u32 r)
{
	struct txn_ledger *ledger = e->ledger;

	slot_init(ledger, pkt, i, 0);
	txn_slot_set_count(ledger, pkt, 1);
	txn_slot_set_part(ledger, pkt, (u64)txn_input_value(&ledger->p, e->n, i, r) +
			  txn_contrib_hash(ledger, i));
	if (ledger->maxid)
		ledger->maxid[pkt] = i;
}

/*
 * Every processor starts with a packet of its own value for each result
 * it contributes to; one already at its result's node is folded there.
 */
static int start_combine(struct txn_engine *e)
{
	struct txn_ledger *ledger = e->ledger;
	u32 n = e->n, i, r, lo, hi, pkt = 0;
	int ret;

	if (ledger->p.values) {
		/* The caller's array may go once the run is set up. */
		memcpy(ledger->vals, ledger->p.values,
		       txn_op_nvalues(ledger->p.op, n) * sizeof(s64));
		ledger->p.values = ledger->vals;
		e->p.values = ledger->vals;
	}
	ledger->tagged = ledger->p.op == TXNET_OP_ACCUMULATE ||
			 ledger->p.op == TXNET_OP_MULTINODE_ACCUMULATE;
	if (!ledger->tagged) {
		ledger->dest_by = TXN_DEST_NONE;
		for (i = 0; i < n; i++)
			part_init(e, i, i, 0);
		free_from(e, n);
		return 0;
	}
	/*
	 * an accumulation's only result is its root's: no n x n walk for it;
	 * slots in (i, r) order, as txn_sum_slot() finds them
	 */
	ledger->dest_by = ledger->p.op == TXNET_OP_ACCUMULATE ? TXN_DEST_ROOT : TXN_DEST_SLOT;
	ledger->dest_n = n;
	ledger->dest_mul = ~0ULL / n + 1;
	lo = ledger->p.op == TXNET_OP_ACCUMULATE ? ledger->p.root : 0;
	hi = ledger->p.op == TXNET_OP_ACCUMULATE ? ledger->p.root + 1 : n;
	for (i = 0; i < n; i++) {
		for (r = lo; r < hi; r++) {
			if (!txn_contributes(ledger, i, r) ||
			    (ledger->p.op == TXNET_OP_ACCUMULATE && pkt >= e->npkts))
				continue;
			part_init(e, pkt, i, r);
			if (i == r) {
				ret = txn_fold_part(e, 0, r, pkt);
				if (ret)
					return ret;
				ledger->pk[pkt].loc = TXN_LOC_GONE;
			}
			pkt++;
		}
		if (!(i & 255))
			txn_cond_resched();
	}
	return 0;
}

/* The engine's counters where @e's reader looks. */
static void mirror_into(const struct txn_ledger *ledger, struct txn_engine *e)
{
	e->tick = ledger->tick;
	e->delivered = ledger->delivered;
	e->expected = ledger->expected;
	e->transmissions = ledger->transmissions;
	e->copies = ledger->copies_made;
	e->merges = ledger->merges;
	e->injected = ledger->injected;
	e->dropped = ledger->dropped;
}

/* What changed in the counters since what the view must be was last told, added to both. */
#define MIRROR_DELTA(x, v, field, now) do {	\
	u64 d_ = (now) - (x)->field;		\
						\
	(x)->field += d_;			\
	(v)->field += d_;			\
} while (0)

void txn_view_mirror(struct txn_engine *e)
{
	const struct txn_ledger *l = e->ledger;
	struct txn_engine *x = &e->ledger->expect, *v = &e->ledger->view;

	/*
	 * By what changed, not by what is: between two checks a schedule's
	 * write to its copies stays visible (engine_view.c).
	 */
	MIRROR_DELTA(x, v, tick, l->tick);
	MIRROR_DELTA(x, v, delivered, l->delivered);
	MIRROR_DELTA(x, v, expected, l->expected);
	MIRROR_DELTA(x, v, transmissions, l->transmissions);
	MIRROR_DELTA(x, v, copies, l->copies_made);
	MIRROR_DELTA(x, v, merges, l->merges);
	MIRROR_DELTA(x, v, injected, l->injected);
	MIRROR_DELTA(x, v, dropped, l->dropped);
	v->ndone = e->ndone;
	v->nlost = e->nlost;
}

/*
 * The engine's counters as the shell (the owner) and the schedule (its
 * view) read them: only once the view was checked, since this overwrites
 * what the schedule may have written to its copies.
 */
void txn_engine_mirror(struct txn_engine *e)
{
	mirror_into(e->ledger, e);
	mirror_into(e->ledger, &e->ledger->expect);
	mirror_into(e->ledger, &e->ledger->view);
	e->ledger->view.ndone = e->ndone;
	e->ledger->view.nlost = e->nlost;
}

/*
 * Links down from the start: only a schedule that can route around them
 * is built around them; a fixed one hears of them at its first tick
 * (txn_engine_set_down()) and fails there, naming one.
 */
static int start_down(struct txn_engine *e, const u64 *down)
{
	struct txn_ledger *ledger = e->ledger;
	u32 words = (e->g->links + 63) / 64, w;
	u64 bits;

	if (!e->sched->reroute || !e->sched->way_from)
		return 0;
	ledger->ndown = 0;
	for (w = 0; w < words; w++) {
		bits = down[w];
		if (w == words - 1 && e->g->links % 64)
			bits &= (1ULL << (e->g->links % 64)) - 1;
		ledger->down[w] = bits;
		ledger->ndown += txn_popcount((u32)bits) + txn_popcount((u32)(bits >> 32));
	}
	return 0;
}

int txn_engine_init(struct txn_engine *e, const struct txn_graph *g,
		    const struct txn_sched *s, const struct txn_run_params *p)
{
	const char *why;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = txn_run_check(g, p, &why);
	if (ret)
		return ret;
	ret = txn_engine_alloc_run(e, g, s, p);
	if (ret)
		return ret;
	e->ledger->expected = txn_op_units(p->op, e->n);	/* a permutation's: start_unicast */
	e->ledger->copies = txn_op_copies(p->op);
	e->ledger->hints = s->arrive_ahead;
	if (txn_op_combines(p->op)) {
		e->ledger->kind = TXN_COMBINE;
		if (!e->ledger->cnt) {
			e->ledger->cshift = txn_count_shift(g);
			e->ledger->cbits = (TXN_LOC_PARITY - 1) & ~((1U << e->ledger->cshift) - 1);
		}
		ret = start_combine(e);
	} else if (p->op == TXNET_OP_BROADCAST || p->op == TXNET_OP_MULTINODE_BROADCAST) {
		e->ledger->kind = TXN_BROADCAST;
		start_broadcast(e);
	} else {
		e->ledger->kind = TXN_UNICAST;
		start_unicast(e);
	}
	txn_engine_mirror(e);
	if (!ret && p->down)
		ret = start_down(e, p->down);
	if (!ret && e->ledger->ndown)
		ret = txn_engine_charge_reroute(e);
	if (!ret) {
		txn_view_refresh(e);
		ret = s->start(txn_view_of(e));
	}
	if (ret) {
		txn_engine_free(e);
		return ret;
	}
	/* A schedule that wrote what is not its own while starting fails its first tick. */
	txn_view_check(e, 0);
	/* The caller's arrays may go once the run is set up. */
	e->p.config_rows = NULL;
	e->ledger->p.config_rows = NULL;
	e->p.down = NULL;
	e->ledger->p.down = NULL;
	txn_view_refresh(e);
	return 0;
}

static void params_like(const struct txn_engine *e, struct txn_run_params *q)
{
	*q = e->ledger->p;
	q->down = NULL;
	q->config_rows = NULL;	/* gone after the start: only the index l is kept */
}

u64 txn_engine_bytes_like(const struct txn_engine *e)
{
	struct txn_run_params q;

	params_like(e, &q);
	return txn_engine_bytes(e->g, e->sched, &q);
}

int txn_engine_init_like(struct txn_engine *b, const struct txn_engine *e)
{
	struct txn_run_params q;

	params_like(e, &q);
	return txn_engine_init(b, e->g, e->sched, &q);
}

/*
 * Open traffic: @slots packet slots that user packets of up to @p->payload
 * bytes take and give back.
 */
int txn_engine_init_open(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p, u32 slots)
{
	int ret;

	ret = txn_engine_alloc_open(e, g, s, p, slots);
	if (ret)
		return ret;
	e->ledger->kind = TXN_UNICAST;
	free_from(e, 0);
	txn_view_refresh(e);
	ret = s->start(txn_view_of(e));
	if (ret)
		txn_engine_free(e);
	else
		txn_view_check(e, 0);
	return ret;
}

struct txn_engine *txn_engine_view(struct txn_engine *e)
{
	return txn_view_of(e);
}

int txn_engine_inject(struct txn_engine *e, u32 src, u32 dst, const void *data, u32 len)
{
	struct txn_ledger *ledger = e->ledger;
	u32 pkt = ledger->free;
	int ret;

	if (!ledger->open || src >= e->n || dst >= e->n || src == dst || len > ledger->p.payload)
		return -EINVAL;
	if (pkt == TXN_NONE)
		return -ENOBUFS;
	ledger->free = ledger->pk[pkt].tag;
	e->ledger->pk[pkt].next = TXN_NONE;
	slot_init(ledger, pkt, src, dst);
	ledger->src[pkt] = src;
	ledger->len[pkt] = len;
	if (len)
		memcpy(ledger->payload + (size_t)pkt * ledger->p.payload, data, len);
	ledger->sum[pkt] = txn_checksum(ledger->payload + (size_t)pkt * ledger->p.payload, len);
	ret = e->sched->inject(txn_view_of(e), pkt);
	if (!ret && txn_view_check(e, ledger->tick))
		ret = -EPROTO;
	if (ret) {
		txn_slot_free(ledger, pkt);
		return ret;
	}
	ledger->injected++;
	txn_engine_mirror(e);
	return (int)pkt;
}

const u8 *txn_engine_data(const struct txn_engine *e, u32 pkt, u32 *len)
{
	*len = e->ledger->len[pkt];
	return e->ledger->payload + (size_t)pkt * e->ledger->p.payload;
}

void txn_engine_release(struct txn_engine *e, u32 pkt)
{
	txn_slot_free(e->ledger, pkt);
}

void txn_engine_set_port_model(struct txn_engine *e, u32 port_model)
{
	e->p.port_model = port_model;
	e->ledger->p.port_model = port_model;
	e->ledger->view.p.port_model = port_model;
	e->ledger->expect.p.port_model = port_model;
}
