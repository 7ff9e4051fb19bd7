// SPDX-License-Identifier: GPL-2.0
/*
 * The tick engine: setting a run up and advancing it (see engine.h for the
 * rules it enforces; engine_verify.c checks the end, engine_pkt.c the
 * copies, merges and folds schedulers propose).
 */
#include "engine_impl.h"
#include "series.h"

u32 txn_link_between(const struct txn_graph *g, u32 u, u32 v)
{
	u32 l;

	for (l = g->first[u]; l < g->first[u + 1]; l++)
		if (g->dst[l] == v)
			return l;
	return TXN_NO_LINK;
}

/* splitmix64: cheap, and every (seed, src, dst, word) gives unrelated bits. */
u64 txn_mix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The payload of packet (src, dst) in a run seeded @seed: word j of it is
 * mix64(key + j), key mixed once per packet, so that making and checking
 * it costs one mix per 8 bytes, not one per byte.
 */
static __always_inline u64 payload_key(u64 seed, u32 src, u32 dst)
{
	return txn_mix64(seed ^ txn_mix64((u64)src << 32 | dst));
}

void txn_payload_fill(u8 *b, u32 len, u64 seed, u32 src, u32 dst)
{
	u64 key = payload_key(seed, src, dst), w;
	u32 i;

	for (i = 0; i + 8 <= len; i += 8) {
		w = txn_mix64(key + i / 8);
		memcpy(b + i, &w, 8);
	}
	if (i < len) {
		w = txn_mix64(key + i / 8);
		memcpy(b + i, &w, len - i);
	}
}

bool txn_payload_ok(const u8 *b, u32 len, u64 seed, u32 src, u32 dst)
{
	u64 key = payload_key(seed, src, dst), w, got;
	u32 i;

	for (i = 0; i + 8 <= len; i += 8) {
		w = txn_mix64(key + i / 8);
		memcpy(&got, b + i, 8);
		if (got != w)
			return false;
	}
	if (i < len) {
		w = txn_mix64(key + i / 8);
		got = 0;
		memcpy(&got, b + i, len - i);
		/* the tail's bytes are the low ones of its word on every host alike */
		if (memcmp(&got, &w, len - i))
			return false;
	}
	return true;
}

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

#define TXN_ENGINE_ARRAYS	32	/* more than engine_layout() ever fills */
#define PUB(field, n, sz, z) \
	((struct txn_array){ (n), offsetof(struct txn_engine, field), (sz), false, (z) })
#define OWN(field, n, sz, z) \
	((struct txn_array){ (n), offsetof(struct txn_ledger, field), (sz), true, (z) })

/*
 * The moves array's entries past its room (max_moves), zeroed, that
 * land() reads ahead into without a check on each move.
 */
#define MOVES_AHEAD 8
/* ... where the packet records pass a core's cache (1 MiB here); smaller ones the pops left warm */
#define MOVES_AHEAD_BYTES (1ULL << 20)

/*
 * Vertices of more ports than this (complete graphs) keep pq_node_max, so
 * that a single-port pick need not weigh every port (send_wide()).
 */
#define TXN_WIDE_PORTS	16

/*
 * Where a combining slot's count goes in its loc (struct txn_pkt): above
 * the vertices, g->nodes included (a dropped packet's: inject_fault()),
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

	a[k++] = PUB(qhead, links, sizeof(u32), false);
	a[k++] = PUB(qtail, links, sizeof(u32), false);
	a[k++] = PUB(qlen, v, sizeof(u32), true);
	a[k++] = PUB(qmax, v, sizeof(u32), true);
	a[k++] = PUB(active, (links + 63) / 64, sizeof(u64), true);
	a[k++] = PUB(active_sum, (links + 4095) / 4096, sizeof(u64), true);
	a[k++] = PUB(moves, moves + MOVES_AHEAD, sizeof(struct txn_move), true);
	if (la->pq_keys) {
		a[k++] = PUB(pq, links * la->pq_keys, sizeof(u32), false);
		a[k++] = PUB(pq_bits, links, sizeof(u64), true);
		a[k++] = PUB(pq_len, links, sizeof(u32), true);
		if (la->wide)
			a[k++] = PUB(pq_node_max, v, sizeof(u64), true);
	} else if (la->sq) {
		a[k++] = PUB(pq_len, links, sizeof(u32), true);
		a[k++] = PUB(ahead, links, sizeof(u32), false);
		a[k++] = PUB(atail, links, sizeof(u32), false);
		a[k++] = PUB(sqk, 2 * links, sizeof(struct txn_lane_keys), false);
	}
	a[k++] = OWN(pk, npkts, sizeof(struct txn_pkt), false);
	if (la->payload)
		a[k++] = OWN(payload, npkts, la->payload, false);
	a[k++] = OWN(stamp, links, sizeof(u64), true);
	a[k++] = OWN(sent_at, v, sizeof(u64), true);
	a[k++] = OWN(recv_at, v, sizeof(u64), true);
	a[k++] = OWN(arrivals, moves, sizeof(u32), false);
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
	return (void **)((a->ledger ? (char *)e->L : (char *)e) + a->where);
}

/* Every array pointer engine_layout() may set. */
static const struct txn_array engine_arrays[] = {
	PUB(qhead, 0, 0, 0), PUB(qtail, 0, 0, 0), PUB(qlen, 0, 0, 0),
	PUB(qmax, 0, 0, 0), PUB(pq_len, 0, 0, 0), PUB(active, 0, 0, 0), PUB(active_sum, 0, 0, 0),
	PUB(moves, 0, 0, 0), PUB(pq, 0, 0, 0),
	PUB(pq_bits, 0, 0, 0), PUB(pq_node_max, 0, 0, 0), PUB(done, 0, 0, 0),
	PUB(ahead, 0, 0, 0), PUB(atail, 0, 0, 0),
	PUB(sqk, 0, 0, 0),
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

	if (e->sched && e->sched->fini)
		e->sched->fini(e);
	if (e->L && e->L->reroute_charged)
		txn_mem_uncharge(e->L->reroute_charged);
	if (e->L)
		for (i = 0; i < ARRAY_SIZE(engine_arrays); i++)
			txn_free(*array_at(e, &engine_arrays[i]));
	txn_free(e->L);
	memset(e, 0, sizeof(*e));
}

const u64 *txn_engine_link_hops(const struct txn_engine *e)
{
	return e->L ? e->L->hops : NULL;
}

static void fill_none(u32 *a, u64 count)
{
	u64 i;

	for (i = 0; i < count; i++)
		a[i] = TXN_NONE;
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
	e->L = txn_zalloc_array(1, sizeof(*e->L));
	if (!e->L)
		return -ENOMEM;
	e->g = g;
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
	for (i = 0; i < la->npkts; i++)
		e->L->pk[i].next = TXN_NONE;
	fill_none(e->qhead, links);
	fill_none(e->qtail, links);
	if (e->pq_keys)	/* every bucket's head */
		fill_none(e->pq, (u64)links * e->pq_keys);
	if (e->ahead) {
		fill_none(e->ahead, links);
		fill_none(e->atail, links);
	}
	e->L->p = *p;
	e->L->pub = *p;
	e->L->open = la->open;
	e->L->salt = txn_mix64(p->seed ^ 0x7478656e6574ULL);
	/*
	 * Ticks without a delivery before a run counts as stuck: more than any
	 * path, queue or wait of a sound schedule takes between two deliveries,
	 * plus, in txn_engine_tick(), one tick per delivery still to come: a
	 * priority schedule may hold every short trip back until the long
	 * ones have passed (furthest-first on a ring of 61 delivers nothing
	 * for 430 ticks).
	 */
	e->L->stall_limit = 2 * ((u64)g->nodes + g->links) + 64;
	return 0;
}

static void slot_init(struct txn_ledger *L, u32 pkt, u32 loc, u32 tag)
{
	L->pk[pkt].loc = loc;
	L->pk[pkt].tag = tag;
}

static void fill_payload(struct txn_engine *e, u32 pkt, u32 src, u32 dst)
{
	txn_payload_fill(e->L->payload + (size_t)pkt * e->L->p.payload, e->L->p.payload,
			 e->L->p.seed, src, dst);
}

/* Chain slots @from .. npkts-1 into the free list. */
static void free_from(struct txn_engine *e, u32 from)
{
	struct txn_ledger *L = e->L;
	u32 pkt;

	L->free = TXN_NONE;
	for (pkt = e->npkts; pkt-- > from;)
		txn_slot_free(L, pkt);
}

void txn_slot_free(struct txn_ledger *L, u32 pkt)
{
	L->pk[pkt].loc = TXN_LOC_FREE;
	L->pk[pkt].tag = L->free;
	L->free = pkt;
}

static void start_unicast(struct txn_engine *e)
{
	struct txn_ledger *L = e->L;
	u32 n = e->n, r = L->p.root, src, dst, k, pkt = 0;

	switch (L->p.op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		for (src = 0; src < n; src++)
			for (k = 0; k < n - 1; k++, pkt++)
				slot_init(L, pkt, src, k < src ? k : k + 1);
		break;
	case TXNET_OP_SCATTER:
		for (k = 0; k < n - 1; k++)
			slot_init(L, k, r, k < r ? k : k + 1);
		break;
	case TXNET_OP_GATHER:
		for (k = 0; k < n - 1; k++)
			slot_init(L, k, k < r ? k : k + 1, r);
		break;
	case TXNET_OP_PERMUTATION:
		/*
		 * Slot i is processor i's message.  The caller's array may go
		 * once the run is set up; schedulers ask txn_pkt_dst().  A
		 * message that is not sent is where it goes from the start.
		 */
		memcpy(L->dests, L->p.dests, n * sizeof(u32));
		L->p.dests = L->dests;
		L->pub.dests = NULL;
		e->p.dests = NULL;
		L->expected = 0;
		for (src = 0; src < n; src++) {
			slot_init(L, src, src, L->dests[src]);
			if (txn_perm_sends(e->g, src, L->dests[src]))
				L->expected++;
			else
				L->pk[src].loc = TXN_LOC_GONE;
		}
		break;
	}
	if (!L->p.payload)
		return;
	for (pkt = 0; pkt < e->npkts; pkt++) {
		src = txn_pkt_src(e, pkt);
		dst = L->pk[pkt].tag;
		fill_payload(e, pkt, src, dst);
		if (!(pkt & 4095))
			txn_cond_resched();
	}
}

/* One packet per message at its origin, which has it from the start. */
static void start_broadcast(struct txn_engine *e)
{
	struct txn_ledger *L = e->L;
	u32 m, origin;

	L->nmsgs = L->p.op == TXNET_OP_BROADCAST ? 1 : e->n;
	for (m = 0; m < L->nmsgs; m++) {
		origin = txn_msg_origin(L, m);
		slot_init(L, m, origin, m);
		L->have[((u64)m * e->n + origin) / 64] |= 1ULL << (((u64)m * e->n + origin) % 64);
		if (L->p.payload)
			fill_payload(e, m, origin, TXN_NONE);
	}
	free_from(e, L->nmsgs);
}

/* Slot @pkt: processor @i's input for result @r, at @i. */
static void part_init(struct txn_engine *e, u32 pkt, u32 i, u32 r)
{
	struct txn_ledger *L = e->L;

	slot_init(L, pkt, i, 0);
	txn_slot_set_count(L, pkt, 1);
	txn_slot_set_part(L, pkt, (u64)txn_input_value(&L->p, e->n, i, r) +
			  txn_contrib_hash(L, i));
	if (L->maxid)
		L->maxid[pkt] = i;
}

/*
 * Every processor starts with a packet of its own value for each result
 * it contributes to; one already at its result's node is folded there.
 */
static int start_combine(struct txn_engine *e)
{
	struct txn_ledger *L = e->L;
	u32 n = e->n, i, r, lo, hi, pkt = 0;
	int ret;

	if (L->p.values) {
		/* The caller's array may go once the run is set up. */
		memcpy(L->vals, L->p.values, txn_op_nvalues(L->p.op, n) * sizeof(s64));
		L->p.values = L->vals;
		L->pub.values = L->vals;
		e->p.values = L->vals;
	}
	L->tagged = L->p.op == TXNET_OP_ACCUMULATE || L->p.op == TXNET_OP_MULTINODE_ACCUMULATE;
	if (!L->tagged) {
		L->dest_by = TXN_DEST_NONE;
		for (i = 0; i < n; i++)
			part_init(e, i, i, 0);
		free_from(e, n);
		return 0;
	}
	/*
	 * an accumulation's only result is its root's: no n x n walk for it;
	 * slots in (i, r) order, as txn_sum_slot() finds them
	 */
	L->dest_by = L->p.op == TXNET_OP_ACCUMULATE ? TXN_DEST_ROOT : TXN_DEST_SLOT;
	L->dest_n = n;
	L->dest_mul = ~0ULL / n + 1;
	lo = L->p.op == TXNET_OP_ACCUMULATE ? L->p.root : 0;
	hi = L->p.op == TXNET_OP_ACCUMULATE ? L->p.root + 1 : n;
	for (i = 0; i < n; i++) {
		for (r = lo; r < hi; r++) {
			if (!txn_contributes(L, i, r) ||
			    (L->p.op == TXNET_OP_ACCUMULATE && pkt >= e->npkts))
				continue;
			part_init(e, pkt, i, r);
			if (i == r) {
				ret = txn_fold_part(e, 0, r, pkt);
				if (ret)
					return ret;
				L->pk[pkt].loc = TXN_LOC_GONE;
			}
			pkt++;
		}
		if (!(i & 255))
			txn_cond_resched();
	}
	return 0;
}

/* The engine's counters as schedulers and the shell may read them. */
static void mirror(struct txn_engine *e)
{
	const struct txn_ledger *L = e->L;

	e->tick = L->tick;
	e->delivered = L->delivered;
	e->expected = L->expected;
	e->transmissions = L->transmissions;
	e->copies = L->copies_made;
	e->merges = L->merges;
	e->injected = L->injected;
	e->dropped = L->dropped;
}

/*
 * Links down from the start: only a schedule that can route around them
 * is built around them; a fixed one hears of them at its first tick
 * (txn_engine_set_down()) and fails there, naming one.
 */
static int start_down(struct txn_engine *e, const u64 *down)
{
	struct txn_ledger *L = e->L;
	u32 words = (e->g->links + 63) / 64, w;
	u64 bits;

	if (!e->sched->reroute || !e->sched->way_from)
		return 0;
	L->ndown = 0;
	for (w = 0; w < words; w++) {
		bits = down[w];
		if (w == words - 1 && e->g->links % 64)
			bits &= (1ULL << (e->g->links % 64)) - 1;
		L->down[w] = bits;
		L->ndown += txn_popcount((u32)bits) + txn_popcount((u32)(bits >> 32));
	}
	return 0;
}

int txn_engine_init(struct txn_engine *e, const struct txn_graph *g,
		    const struct txn_sched *s, const struct txn_run_params *p)
{
	struct layout_args la;
	const char *why;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = txn_run_check(g, p, &why);
	if (ret)
		return ret;
	layout_args_of(g, s, p, &la);
	ret = engine_alloc(e, g, s, p, &la);
	if (ret)
		return ret;
	e->L->expected = txn_op_units(p->op, e->n);	/* a permutation's: start_unicast */
	e->L->copies = txn_op_copies(p->op);
	e->L->hints = s->arrive_ahead;
	if (txn_op_combines(p->op)) {
		e->L->kind = TXN_COMBINE;
		if (!e->L->cnt) {
			e->L->cshift = txn_count_shift(g);
			e->L->cbits = (TXN_LOC_PARITY - 1) & ~((1U << e->L->cshift) - 1);
		}
		ret = start_combine(e);
	} else if (p->op == TXNET_OP_BROADCAST || p->op == TXNET_OP_MULTINODE_BROADCAST) {
		e->L->kind = TXN_BROADCAST;
		start_broadcast(e);
	} else {
		e->L->kind = TXN_UNICAST;
		start_unicast(e);
	}
	mirror(e);
	if (!ret && p->down)
		ret = start_down(e, p->down);
	if (!ret && e->L->ndown)
		ret = txn_engine_charge_reroute(e);
	if (!ret)
		ret = s->start(e);
	if (ret) {
		txn_engine_free(e);
		return ret;
	}
	/* The caller's arrays may go once the run is set up. */
	e->p.config_rows = NULL;
	e->L->p.config_rows = NULL;
	e->L->pub.config_rows = NULL;
	e->p.down = NULL;
	e->L->p.down = NULL;
	e->L->pub.down = NULL;
	/* A schedule that wrote e->p or the counters while starting fails its first tick. */
	txn_check_untouched(e, 0);
	mirror(e);
	return 0;
}

static void params_like(const struct txn_engine *e, struct txn_run_params *q)
{
	*q = e->L->p;
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
	struct layout_args la;
	int ret;

	open_args_of(g, s, p->payload, slots, &la);
	ret = engine_alloc(e, g, s, p, &la);
	if (ret)
		return ret;
	e->L->kind = TXN_UNICAST;
	free_from(e, 0);
	ret = s->start(e);
	if (ret)
		txn_engine_free(e);
	return ret;
}

/* FNV-1a: enough to catch a changed byte, cheap to compute twice. */
static u32 checksum(const u8 *b, u32 len)
{
	u32 h = 2166136261U, i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 16777619U;
	return h;
}

int txn_engine_inject(struct txn_engine *e, u32 src, u32 dst, const void *data, u32 len)
{
	struct txn_ledger *L = e->L;
	u32 pkt = L->free;
	int ret;

	if (!L->open || src >= e->n || dst >= e->n || src == dst || len > L->p.payload)
		return -EINVAL;
	if (pkt == TXN_NONE)
		return -ENOBUFS;
	L->free = L->pk[pkt].tag;
	e->L->pk[pkt].next = TXN_NONE;
	slot_init(L, pkt, src, dst);
	L->src[pkt] = src;
	L->len[pkt] = len;
	if (len)
		memcpy(L->payload + (size_t)pkt * L->p.payload, data, len);
	L->sum[pkt] = checksum(L->payload + (size_t)pkt * L->p.payload, len);
	ret = e->sched->inject(e, pkt);
	if (ret) {
		txn_slot_free(L, pkt);
		return ret;
	}
	L->injected++;
	mirror(e);
	return (int)pkt;
}

const u8 *txn_engine_data(const struct txn_engine *e, u32 pkt, u32 *len)
{
	*len = e->L->len[pkt];
	return e->L->payload + (size_t)pkt * e->L->p.payload;
}

void txn_engine_release(struct txn_engine *e, u32 pkt)
{
	txn_slot_free(e->L, pkt);
}

void txn_engine_set_port_model(struct txn_engine *e, u32 port_model)
{
	e->p.port_model = port_model;
	e->L->p.port_model = port_model;
	e->L->pub.port_model = port_model;
}

/*
 * The queues' arrays, read once into a local for a pass of pushes and
 * pops: through @e, each store to a queue (a u32 like e's fields) would
 * make the compiler read every field again.
 */
struct txn_qs {
	u32 *qhead, *qtail, *pq, *pq_len, *qlen, *qmax;
	u64 *pq_bits, *pq_node_max, *active, *active_sum;
	const u32 *src;
	u32 links;
};

static __always_inline struct txn_qs qs_of(const struct txn_engine *e)
{
	return (struct txn_qs){
		.qhead = e->qhead, .qtail = e->qtail, .pq = e->pq, .pq_len = e->pq_len,
		.qlen = e->qlen, .qmax = e->qmax, .pq_bits = e->pq_bits,
		.pq_node_max = e->pq_node_max, .active = e->active,
		.active_sum = e->active_sum, .src = e->g->src, .links = e->g->links,
	};
}

/*
 * A link with packets queued has its bit in active[], and a word of
 * active[] with a bit set has its bit in active_sum[], so that a pass over
 * the links with work skips 64 idle links a word and 4096 a summary word.
 * The bit is the queue's a schedule uses: FIFOs, priority or sorted
 * queues, never two kinds on one link.
 */
static __always_inline void set_active(const struct txn_qs *q, u32 link)
{
	u32 w = link / 64;

	if (!q->active[w])
		q->active_sum[w / 64] |= 1ULL << (w % 64);
	q->active[w] |= 1ULL << (link % 64);
}

static __always_inline void clear_active(const struct txn_qs *q, u32 link)
{
	u32 w = link / 64;

	q->active[w] &= ~(1ULL << (link % 64));
	if (!q->active[w])
		q->active_sum[w / 64] &= ~(1ULL << (w % 64));
}

/* @node holds one more packet: its queue and its largest. */
static __always_inline void node_count_in(u32 *qlen, u32 *qmax, u32 node)
{
	u32 len = ++qlen[node];

	if (len > qmax[node])
		qmax[node] = len;
}

static __always_inline void node_in(const struct txn_qs *q, u32 link)
{
	node_count_in(q->qlen, q->qmax, q->src[link]);
}

static __always_inline void node_out(const struct txn_qs *q, u32 link)
{
	q->qlen[q->src[link]]--;
}

/* One more packet on @link's queue; its node's count is the caller's. */
static __always_inline void link_queued(const struct txn_qs *q, u32 link)
{
	if (!q->pq_len[link]++)
		set_active(q, link);
}

static __always_inline void queued(const struct txn_qs *q, u32 link)
{
	link_queued(q, link);
	node_in(q, link);
}

static __always_inline void dequeued(const struct txn_qs *q, u32 link)
{
	if (!--q->pq_len[link])
		clear_active(q, link);
	node_out(q, link);
}

/* FIFOs: the branch on an empty queue sets and clears the active bit. */
static __always_inline void q_push(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 pkt)
{
	pk[pkt].next = TXN_NONE;
	if (q->qtail[link] == TXN_NONE) {
		q->qhead[link] = pkt;
		set_active(q, link);
	} else {
		pk[q->qtail[link]].next = pkt;
	}
	q->qtail[link] = pkt;
	node_in(q, link);
}

static __always_inline u32 q_pop(const struct txn_qs *q, struct txn_pkt *pk, u32 link)
{
	u32 pkt = q->qhead[link], next;

	if (pkt == TXN_NONE)
		return pkt;
	next = pk[pkt].next;
	q->qhead[link] = next;
	if (next == TXN_NONE) {
		q->qtail[link] = TXN_NONE;
		clear_active(q, link);
	} else {	/* the link's next packet: read a tick ahead */
		txn_prefetch(&pk[next]);
	}
	node_out(q, link);
	return pkt;
}

/* @pkt in @link's bucket @key; the node's count is the caller's. */
static __always_inline void pq_link(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 key,
				    u32 pkt)
{
	u32 *b = &q->pq[(u64)key * q->links + link];

	pk[pkt].next = *b;
	*b = pkt;
	q->pq_bits[link] |= 1ULL << key;
	link_queued(q, link);
}

/* Nodes of many ports: @link's node's pq_node_max kept at least its bits (send_wide()). */
static __always_inline void raise_node_max(const struct txn_qs *q, u32 link)
{
	u64 *m = &q->pq_node_max[q->src[link]];

	if (q->pq_bits[link] > *m)
		*m = q->pq_bits[link];
}

static __always_inline void pq_push(const struct txn_qs *q, struct txn_pkt *pk, u32 link, u32 key,
				    u32 pkt)
{
	pq_link(q, pk, link, key, pkt);
	if (q->pq_node_max)
		raise_node_max(q, link);
	node_in(q, link);
}

/* The most urgent bucket is the highest bit set: no walk over empty ones. */
static __always_inline u32 pq_pop(const struct txn_qs *q, struct txn_pkt *pk, u32 link)
{
	u64 bits = q->pq_bits[link];
	u32 *b, key, pkt, next;

	if (!bits)
		return TXN_NONE;
	key = 63 - (u32)__builtin_clzll(bits);
	b = &q->pq[(u64)key * q->links + link];
	pkt = *b;
	next = pk[pkt].next;
	*b = next;
	/* the tick of onward()'s mark, left since the packet joined this queue */
	pk[pkt].loc &= ~TXN_LOC_MARKS;
	if (next == TXN_NONE)
		q->pq_bits[link] = bits & ~(1ULL << key);
	else	/* the link's next packet, most likely: read a tick ahead */
		txn_prefetch(&pk[next]);
	dequeued(q, link);
	return pkt;
}

/*
 * A lane's new head, whose record was queued long ago and is out of the
 * caches on a large network: its key is asked when it is next weighed
 * (the next pop or push on the link, a tick or more later), its record
 * read ahead now.  A lane's head key is TXN_SQ_LATER until then (a key
 * of that value is only asked again each time).
 */
#define TXN_SQ_LATER	((u32)~0U)

static __always_inline void lane_head_later(struct txn_pkt *pk, u32 head,
					    struct txn_lane_keys *lk)
{
	txn_prefetch(&pk[head]);
	lk->head = TXN_SQ_LATER;
}

static __always_inline void lane_head_key(const struct txn_engine *e, u32 head, u32 link,
					  struct txn_lane_keys *lk)
{
	if (lk->head == TXN_SQ_LATER)
		lk->head = e->sched->sq_key(e, link, txn_slot_dest(e->L, head));
}

/* Out of order: the tail is less urgent, so the walk ends before it. */
static noinline void lane_walk(const struct txn_engine *e, struct txn_pkt *pk, u32 head,
			       u32 link, u32 pkt, u32 k)
{
	txn_sq_key_fn *key = e->sched->sq_key;
	u32 prev, cur;

	for (prev = head, cur = pk[prev].next; key(e, link, txn_slot_dest(e->L, cur)) >= k;
	     prev = cur, cur = pk[cur].next)
		;
	pk[pkt].next = cur;
	pk[prev].next = pkt;
}

/*
 * Into a lane of a sorted queue under key @k, after every packet at least
 * as urgent.  The keys of each lane's head and tail are kept (@lk), so
 * that appending asks the schedule for no key.  Keys are a function of
 * the link and the destination (sq_key()), so the walk asks them of the
 * tags.
 */
static __always_inline void lane_insert(const struct txn_engine *e, struct txn_pkt *pk, u32 *head,
					u32 *tail, struct txn_lane_keys *lk, u32 link, u32 pkt,
					u32 k)
{
	pk[pkt].next = TXN_NONE;
	if (*tail == TXN_NONE) {
		*head = pkt;
		*tail = pkt;
		lk->head = k;
		lk->tail = k;
		return;
	}
	if (k <= lk->tail) {
		pk[*tail].next = pkt;
		*tail = pkt;
		lk->tail = k;
		return;
	}
	lane_head_key(e, *head, link, lk);
	if (k > lk->head) {
		pk[pkt].next = *head;
		*head = pkt;
		lk->head = k;
		return;
	}
	lane_walk(e, pk, *head, link, pkt, k);
}

/* An arrival under the key onward() gave: the arrivals' lane of @link. */
static __always_inline void sq_push_key(const struct txn_engine *e, const struct txn_qs *q,
					struct txn_pkt *pk, u32 link, u32 pkt, u32 k)
{
	lane_insert(e, pk, &e->ahead[link], &e->atail[link], &e->sqk[2 * link + 1], link, pkt, k);
	queued(q, link);
}

void txn_sq_push(struct txn_engine *e, u32 link, u32 pkt, bool arrival)
{
	struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->L->pk;
	u32 k = e->sched->sq_key(e, link, txn_slot_dest(e->L, pkt));

	if (arrival) {
		sq_push_key(e, &q, pk, link, pkt, k);
		return;
	}
	lane_insert(e, pk, &e->qhead[link], &e->qtail[link], &e->sqk[2 * link], link, pkt, k);
	queued(&q, link);
}

static __always_inline u32 sq_pop(struct txn_engine *e, const struct txn_qs *q,
				  struct txn_pkt *pk, u32 link)
{
	u32 own = e->qhead[link], got = e->ahead[link], pkt;
	u32 *head = &e->qhead[link], *tail = &e->qtail[link];
	struct txn_lane_keys *lk = &e->sqk[2 * link];

	if (own == TXN_NONE && got == TXN_NONE)
		return TXN_NONE;
	if (own != TXN_NONE && got != TXN_NONE) {
		lane_head_key(e, own, link, &lk[0]);
		lane_head_key(e, got, link, &lk[1]);
	}
	/* ties: the packet that was there first */
	if (own == TXN_NONE || (got != TXN_NONE && lk[1].head > lk[0].head)) {
		head = &e->ahead[link];
		tail = &e->atail[link];
		lk++;
	}
	pkt = *head;
	*head = pk[pkt].next;
	if (*head == TXN_NONE)
		*tail = TXN_NONE;
	else if (*head == *tail)
		lk->head = lk->tail;
	else
		lane_head_later(pk, *head, lk);
	dequeued(q, link);
	return pkt;
}

void txn_q_push(struct txn_engine *e, u32 link, u32 pkt)
{
	struct txn_qs q = qs_of(e);

	q_push(&q, e->L->pk, link, pkt);
}

u32 txn_q_pop(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	return q_pop(&q, e->L->pk, link);
}

void txn_pq_push(struct txn_engine *e, u32 link, u32 key, u32 pkt)
{
	struct txn_qs q = qs_of(e);

	pq_push(&q, e->L->pk, link, key, pkt);
}

u32 txn_pq_pop_max(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	return pq_pop(&q, e->L->pk, link);
}

void txn_pq_send_top(struct txn_engine *e, u32 link)
{
	struct txn_qs q = qs_of(e);

	txn_move(e, pq_pop(&q, e->L->pk, link), link);
}

/*
 * Every link with packets queued sends the head of its queue, in link
 * order; only those in the bitmap @only where it is not NULL.  @room: the
 * moves so far leave room for one a link (no more than TXN_MOVES_SLACK),
 * so that no move needs its own check.
 */
static __always_inline void send_all(struct txn_engine *e, const int prio, const bool room,
				     const u64 *only)
{
	const struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->L->pk;
	struct txn_move *moves = e->moves;
	u32 s, sums = (q.links + 4095) / 4096, w, l, pkt, n = e->nmoves, max = e->max_moves;
	u64 sbits, bits;

	for (s = 0; s < sums; s++) {
		for (sbits = q.active_sum[s]; sbits; sbits &= sbits - 1) {
			w = s * 64 + (u32)__builtin_ctzll(sbits);
			for (bits = q.active[w] & (only ? only[w] : ~0ULL); bits;
			     bits &= bits - 1) {
				l = w * 64 + (u32)__builtin_ctzll(bits);
				if (prio == 2)
					pkt = sq_pop(e, &q, pk, l);
				else
					pkt = prio ? pq_pop(&q, pk, l) : q_pop(&q, pk, l);
				/* txn_move(), its count in a register */
				if (room || n < max) {
					moves[n].pkt = pkt;
					moves[n].link = l;
				}
				n++;
			}
		}
	}
	e->nmoves = n;
}

void txn_q_send_heads(struct txn_engine *e)
{
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 0, true, NULL);
	else
		send_all(e, 0, false, NULL);
}

void txn_q_send_heads_of(struct txn_engine *e, const u64 *only)
{
	send_all(e, 0, false, only);
}

void txn_pq_send_tops(struct txn_engine *e)
{
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 1, true, NULL);
	else
		send_all(e, 1, false, NULL);
}

void txn_sq_send_tops(struct txn_engine *e)
{
	if (e->nmoves <= TXN_MOVES_SLACK)
		send_all(e, 2, true, NULL);
	else
		send_all(e, 2, false, NULL);
}

void txn_sq_send_tops_of(struct txn_engine *e, const u64 *only)
{
	send_all(e, 2, false, only);
}

/*
 * Link @l weighed against its node's best so far, without a branch on the
 * queues (which link is busy or most urgent is as random as the traffic).
 * Of two priority queues the one with the larger key bits has the higher
 * top key (a tie goes to the next key down); an empty link or one whose
 * head has received this tick weighs 0.
 */
static __always_inline void weigh_port(const struct txn_qs *q, const u32 *dst, const u64 *recv,
				       u64 t, u32 l, u32 *best, u64 *most)
{
	u64 bits = q->pq_bits[l] & -(u64)(recv[dst[l]] != t);

	*best = bits > *most ? l : *best;
	*most = bits > *most ? bits : *most;
	/*
	 * kept as it stands: knowing that a later port's win makes this
	 * choice dead, gcc would branch round it, on the traffic
	 */
	OPTIMIZER_HIDE_VAR(*best);
}

/*
 * What the single-port pick reads besides the queues, in a local: each
 * store to a move (u32s like e's fields) would make every field be read
 * again through @e.
 */
struct txn_pick {
	const u32 *dst;
	u64 *recv;
	struct txn_move *moves;
	u32 max;
	u64 t;
};

/* A node's choice @best (TXN_NONE: none) popped as move @n: the moves after it. */
static __always_inline u32 send_pick(const struct txn_pick *p, const struct txn_qs *q,
				     struct txn_pkt *pk, u32 best, u32 n)
{
	if (best == TXN_NONE)
		return n;
	p->recv[p->dst[best]] = p->t;
	if (n < p->max) {
		p->moves[n].pkt = pq_pop(q, pk, best);
		p->moves[n].link = best;
	} else {
		pq_pop(q, pk, best);
	}
	return n + 1;
}

/* The node whose links are [@l, @l + @links) (@deg, if all alike): weighed, its choice popped. */
static __always_inline u32 send_node(const struct txn_pick *p, const struct txn_qs *q,
				     struct txn_pkt *pk, u32 l, u32 links, u32 n, const u32 deg)
{
	u32 k, best = TXN_NONE;
	u64 most = 0;

	if (deg == 4) {		/* unrolled: -O2 keeps even a known count's loop */
		weigh_port(q, p->dst, p->recv, p->t, l, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 1, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 2, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 3, &best, &most);
	} else if (deg == 2) {
		weigh_port(q, p->dst, p->recv, p->t, l, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 1, &best, &most);
	} else {
		for (k = 0; k < links; k++)	/* as many each time: no misprediction */
			weigh_port(q, p->dst, p->recv, p->t, l + k, &best, &most);
	}
	return send_pick(p, q, pk, best, n);
}

/* Links [@lo, @hi) on node boundaries, any degree: the nodes with work, by txn_next_active(). */
static __always_inline u32 send_single(struct txn_engine *e, const struct txn_pick *p,
				       const struct txn_qs *q, struct txn_pkt *pk, u32 lo, u32 hi,
				       u32 n)
{
	const u32 *first = e->g->first;
	u32 l, v;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, first[v + 1])) {
		v = q->src[l];
		n = send_node(p, q, pk, first[v], first[v + 1] - first[v], n, 0);
	}
	return n;
}

/*
 * send_wide()'s weighing of a node's links with work in [@l, @end): true
 * at the first whose head is free and whose bits are @top.
 */
static __always_inline bool weigh_wide(struct txn_engine *e, const struct txn_pick *p,
				       const struct txn_qs *q, u32 l, u32 end, u64 top, u32 *best,
				       u64 *most, u64 *all)
{
	u64 bits;

	for (l = txn_next_active(e, l); l < end; l = txn_next_active(e, l + 1)) {
		bits = q->pq_bits[l];
		*all = bits > *all ? bits : *all;
		if (p->recv[p->dst[l]] == p->t)
			continue;
		if (bits == top) {
			*best = l;
			return true;
		}
		if (bits > *most) {
			*most = bits;
			*best = l;
		}
	}
	return false;
}

/* Port (node + tick) mod degree of node @v, which has links: where its weighing starts at @t. */
static __always_inline u32 wide_rot(const u32 *first, u64 t, u32 v)
{
	return (u32)((t + v) % (first[v + 1] - first[v]));
}

/* @k ports on from port @rot of @deg (@k < @deg). */
static __always_inline u32 rot_on(u32 rot, u32 k, u32 deg)
{
	return rot + k >= deg ? rot + k - deg : rot + k;
}

/*
 * Where all nodes have @deg ports: the records the next nodes' picks
 * will most likely read, read ahead (node @v + 1's bucket needs its bits,
 * read ahead a node before); a pick alone is a chain of reads from far
 * apart, a few instructions each.
 */
static __always_inline void wide_ahead(const struct txn_pick *p, const struct txn_qs *q,
				       const u32 *first, u32 v, u32 rot, u32 deg)
{
	u32 l = first[v + 2] + rot_on(rot, 2, deg);
	u64 bits;

	txn_prefetch(&q->pq_bits[l]);
	txn_prefetch(&p->dst[l]);
	l = first[v + 1] + rot_on(rot, 1, deg);
	bits = q->pq_bits[l];
	if (bits)
		txn_prefetch(&q->pq[(u64)(63 - __builtin_clzll(bits)) * q->links + l]);
}

/*
 * Links [@lo, @hi) on node boundaries, where a node may have hundreds of
 * links (a complete graph): only its links with work are weighed, from
 * port (node + tick) mod degree on, round to the one before, and the
 * first whose head is free and whose bits are pq_node_max's is taken at
 * once: no link can outweigh it.  Weighing every port, and from the same
 * one each tick, would cost the degree a packet: every node would try
 * the heads the nodes before it took.  A node that takes none so weighs
 * them all (ties to the first from that port on), and its pq_node_max is
 * made exact: a pop may have left it above every link.  The start port
 * is tried before any walk (in a total exchange it is nearly always
 * taken), and where all nodes have the same degree it is one on from the
 * node before's: no division a node.
 */
static u32 send_wide(struct txn_engine *e, const struct txn_pick *p, const struct txn_qs *q,
		     struct txn_pkt *pk, u32 lo, u32 hi, u32 n)
{
	const u32 *first = e->g->first, deg = e->g->degree, nodes = e->g->nodes;
	u32 l, v = nodes, start, best, rot = 0;
	u64 most, all, top;
	bool after;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, first[v + 1])) {
		/* the node with work after @v's is most often the next one: src[] not read */
		after = v + 1 < nodes && l < first[v + 2];
		v = after ? v + 1 : q->src[l];
		rot = deg && after ? rot_on(rot, 1, deg) : wide_rot(first, p->t, v);
		if (deg && v + 2 < nodes)
			wide_ahead(p, q, first, v, rot, deg);
		start = first[v] + rot;
		top = q->pq_node_max[v];
		best = start;
		if (q->pq_bits[start] != top || p->recv[p->dst[start]] == p->t) {
			best = TXN_NONE;
			most = 0;
			all = 0;
			if (!weigh_wide(e, p, q, start, first[v + 1], top, &best, &most, &all) &&
			    !weigh_wide(e, p, q, first[v], start, top, &best, &most, &all))
				q->pq_node_max[v] = all;
		}
		n = send_pick(p, q, pk, best, n);
	}
	return n;
}

/*
 * The same where every node has @deg links, 2 or 4: a node's links are
 * @deg bits of one word of active[], so the words with work are walked
 * (the all-port pass's way) and each of their nodes looked at in turn;
 * a walk of the lowest bits would end each word where the traffic says.
 */
static __always_inline u32 send_single_words(const struct txn_pick *p, const struct txn_qs *q,
					     struct txn_pkt *pk, u32 lo, u32 hi, u32 n,
					     const u32 deg)
{
	u32 w, l, words = (hi + 63) / 64;
	u64 bits;

	for (w = txn_next_word(q->active_sum, lo / 64, words); w < words;
	     w = txn_next_word(q->active_sum, w + 1, words)) {
		bits = q->active[w];
		if (w == lo / 64)
			bits &= ~0ULL << (lo % 64);
		if (w == words - 1 && hi % 64)
			bits &= (1ULL << (hi % 64)) - 1;
		for (l = 0; l < 64; l += deg)	/* as many each time: no misprediction */
			if ((bits >> l) & ((1ULL << deg) - 1))
				n = send_node(p, q, pk, w * 64 + l, deg, n, deg);
	}
	return n;
}

void txn_pq_send_tops_single(struct txn_engine *e, u32 from, u64 *recv)
{
	const struct txn_qs q = qs_of(e);
	const struct txn_pick p = {
		.dst = e->g->dst, .recv = recv, .moves = e->moves, .max = e->max_moves,
		.t = e->tick + 1,
	};
	struct txn_pkt *pk = e->L->pk;
	u32 n = e->nmoves;

	/* from a node's first link: no node is cut in two, weighed in both halves */
	from = from < q.links ? e->g->first[q.src[from]] : 0;
	/* the common degrees, their loops unrolled */
	switch (e->g->degree) {
	case 4:
		n = send_single_words(&p, &q, pk, from, q.links, n, 4);
		n = send_single_words(&p, &q, pk, 0, from, n, 4);
		break;
	case 2:
		n = send_single_words(&p, &q, pk, from, q.links, n, 2);
		n = send_single_words(&p, &q, pk, 0, from, n, 2);
		break;
	default:
		if (q.pq_node_max) {
			n = send_wide(e, &p, &q, pk, from, q.links, n);
			n = send_wide(e, &p, &q, pk, 0, from, n);
			break;
		}
		n = send_single(e, &p, &q, pk, from, q.links, n);
		n = send_single(e, &p, &q, pk, 0, from, n);
		break;
	}
	e->nmoves = n;
}

int txn_violate(struct txn_engine *e, u64 tick, u32 node, u32 pkt, const char *rule)
{
	if (e->failed)
		return -EPROTO;
	e->failed = true;
	e->v.tick = tick;
	e->v.node = node;
	e->v.pkt = pkt;
	e->v.rule = rule;
	e->v.link = TXN_NONE;
	e->v.other = TXN_NONE;
	return -EPROTO;
}

/*
 * Move @i of tick @t wants line @lid, which an earlier move of the tick
 * took: the failure names both packets and the link, so that a blocked
 * permutation can be reported by where it blocks (paper 002).
 */
static noinline int line_conflict(struct txn_engine *e, u64 t, u32 i, u32 lid)
{
	const struct txn_graph *g = e->g;
	u32 link = e->moves[i].link, j, other = TXN_NONE;

	for (j = 0; j < i; j++)
		if ((g->line ? g->line[e->moves[j].link] : e->moves[j].link) == lid)
			other = e->moves[j].pkt;
	txn_violate(e, t, g->src[link], e->moves[i].pkt, "link carried two packets in one tick");
	e->v.link = link;
	e->v.other = other;
	return -EPROTO;
}

static void set_bit64(u64 *bits, u64 i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

/*
 * What arriving at @to means for @pkt: consumed (unicast at its
 * destination, an accumulation's partial at its result's node: 0), or
 * still there for the scheduler to send on (1): a relay, or a broadcast
 * copy, which the processor receives and keeps.  -EPROTO on a violation.
 */
static __always_inline int arrive_at(struct txn_engine *e, u64 t, u32 pkt, u32 to)
{
	struct txn_ledger *L = e->L;
	u32 tag = txn_slot_dest(L, pkt);
	u64 bit;

	switch (L->kind) {
	case TXN_UNICAST:
		if (to != tag)
			return 1;
		L->pk[pkt].loc = TXN_LOC_GONE;
		L->recvd[to]++;
		L->delivered++;
		if (L->open) {
			if (checksum(L->payload + (size_t)pkt * L->p.payload, L->len[pkt]) != L->sum[pkt])
				return txn_violate(e, t, to, pkt, "payload corrupted");
			e->done[e->ndone++] = pkt;
		}
		return 0;
	case TXN_BROADCAST:
		if (to >= e->n)
			return 1;
		bit = (u64)tag * e->n + to;
		if (txn_bit(L->have, bit))
			return txn_violate(e, t, to, pkt, "message delivered twice to a processor");
		if (L->p.payload) {
			if (!txn_payload_ok(L->payload + (size_t)pkt * L->p.payload, L->p.payload,
					    L->p.seed, txn_msg_origin(L, tag), TXN_NONE))
				return txn_violate(e, t, to, pkt, "payload corrupted");
		}
		set_bit64(L->have, bit);
		L->recvd[to]++;
		L->delivered++;
		return 1;
	default:
		if (!L->tagged || to != tag)
			return 1;
		if (txn_fold_part(e, t, to, pkt))
			return -EPROTO;
		L->pk[pkt].loc = TXN_LOC_GONE;
		return 0;
	}
}

static noinline int taken_conflict(struct txn_engine *e, u64 t, u32 pkt, u32 link,
				   const char *rule)
{
	txn_violate(e, t, e->g->src[link], pkt, rule);
	e->v.link = link;
	return -EPROTO;
}

void txn_engine_set_taken(struct txn_engine *e, const struct txn_taken *taken)
{
	e->L->taken = taken;
}

bool txn_line_taken(const struct txn_engine *e, u32 lid)
{
	return e->L->taken && txn_bit(e->L->taken->lines, lid);
}

bool txn_sent_taken(const struct txn_engine *e, u32 v)
{
	return e->L->taken && v < e->n && txn_bit(e->L->taken->sent, v);
}

bool txn_recv_taken(const struct txn_engine *e, u32 v)
{
	return e->L->taken && v < e->n && txn_bit(e->L->taken->recv, v);
}

static noinline int link_down(struct txn_engine *e, u64 t, u32 pkt, u32 link)
{
	txn_violate(e, t, e->g->src[link], pkt, "a packet was sent over a link that is down");
	e->v.link = link;
	return -EPROTO;
}

static noinline int no_such_packet(struct txn_engine *e, u64 t, u32 pkt)
{
	return txn_violate(e, t, TXN_NONE, pkt, "no such packet: the scheduler made it up");
}

static noinline int no_such_link(struct txn_engine *e, u64 t, u32 pkt, u32 loc)
{
	if (loc == TXN_LOC_FREE)
		return no_such_packet(e, t, pkt);
	return txn_violate(e, t, loc, pkt, "no such link");
}

/*
 * A move whose packet @loc is not at @from, the node its link leaves: why.
 * A mark of another tick is the tick of onward()'s, on a packet never taken
 * off the queue it joined (only a pop clears it): moving it would leave
 * it queued as well.
 */
static noinline int not_here(struct txn_engine *e, u64 t, u32 pkt, u32 from, u32 loc)
{
	if (loc == TXN_LOC_FREE)
		return no_such_packet(e, t, pkt);
	if (loc == TXN_LOC_GONE)
		return txn_violate(e, t, from, pkt,
				   "packet moved after it was consumed, merged or folded");
	if ((loc & TXN_LOC_MARKS) == txn_loc_mark(t))
		return txn_violate(e, t, from, pkt,
				   "store-and-forward: packet moved twice in one tick");
	if (loc & TXN_LOC_MOVED)
		return txn_violate(e, t, from, pkt,
				   "packet moved without being taken off the queue it joined");
	return txn_violate(e, t, from, pkt, "packet is not at the node the link leaves");
}

/*
 * What the checks read of the engine, in a local: the passes' stores
 * (records, stamps, queues) could alias the fields, which would be read
 * again each move.
 */
struct txn_mv {
	struct txn_pkt *pk;
	const u32 *src, *dst, *line;
	const u64 *down;
	const struct txn_taken *taken;
	u64 *stamp, *sent_at, *recv_at;
	u32 npkts, links, procs;
};

static __always_inline struct txn_mv mv_of(const struct txn_engine *e)
{
	const struct txn_ledger *L = e->L;

	return (struct txn_mv){
		.pk = L->pk, .src = e->g->src, .dst = e->g->dst, .line = e->g->line,
		.down = L->ndown ? L->down : NULL, .taken = L->taken, .stamp = L->stamp,
		.sent_at = L->sent_at, .recv_at = L->recv_at, .npkts = e->npkts,
		.links = e->g->links, .procs = e->g->procs,
	};
}

/* Whether the run has the single-port rule: MIN processors have one line each way, always. */
static bool single_ported(const struct txn_engine *e)
{
	return e->L->p.port_model == TXNET_PORT_SINGLE || e->g->one_line;
}

static noinline int port_twice(struct txn_engine *e, u64 t, u32 node, u32 pkt, bool sent)
{
	const char *rule;

	if (e->g->one_line)
		rule = sent ? "a MIN processor sent two packets in one tick: it has one line in" :
		       "a MIN processor received two packets in one tick: it has one line out";
	else
		rule = sent ? "single-port: node sent two packets in one tick" :
		       "single-port: node received two packets in one tick";
	return txn_violate(e, t, node, pkt, rule);
}

/*
 * The single-port rule (and a MIN processor's one line each way): the
 * processors'; switches have their lines.  @simple: no run beside, and
 * every node a processor (no lines: no MIN).
 */
static __always_inline int single_port(struct txn_engine *e, const struct txn_mv *mv, u64 t,
				       u32 pkt, u32 link, u32 from, u32 to, const bool simple)
{
	const struct txn_taken *taken = simple ? NULL : mv->taken;

	if ((simple || from < mv->procs) && mv->sent_at[from] == t)
		return port_twice(e, t, from, pkt, true);
	if ((simple || to < mv->procs) && mv->recv_at[to] == t)
		return port_twice(e, t, to, pkt, false);
	mv->sent_at[from] = t;
	mv->recv_at[to] = t;
	if (taken && from < mv->procs && txn_bit(taken->sent, from))
		return taken_conflict(e, t, pkt, link,
				      "single-port: the run beside it had the node's sending");
	if (taken && to < mv->procs && txn_bit(taken->recv, to))
		return taken_conflict(e, t, pkt, link,
				      "single-port: the run beside it had the node's receiving");
	return 0;
}

static noinline int too_many_moves(struct txn_engine *e, u64 t)
{
	return txn_violate(e, t, TXN_NONE, TXN_NONE,
			   "more moves than links: a link carried two packets in one tick");
}

/*
 * The rules move @i of tick @t (@pkt over @link) obeys, checked before it
 * is made: a real packet at the node a real link leaves, the link up,
 * carrying nothing else this tick and not the run beside's, and the
 * single-port rule (@single); the line is stamped.  *@to: where the link
 * goes.  @cbits: where a combining run's locs keep counts (0 in any
 * other).  @simple: a run with no link down, no lines, no switches and no
 * run beside, where none of those can apply.  Under the single-port
 * model a processor's link with no shared line is not stamped: the link
 * is the processor's, so its sending once a tick is the link carrying one
 * packet, and a second packet on it is failed as its second sending (a
 * stamp a hop, read from far apart, saved).
 */
static __always_inline int check_move(struct txn_engine *e, const struct txn_mv *mv, u64 t,
				      u32 i, u32 pkt, u32 link, u32 *to, const u32 cbits,
				      const bool simple, const bool single)
{
	u32 loc, from, lid;

	if (pkt >= mv->npkts)
		return no_such_packet(e, t, pkt);
	loc = mv->pk[pkt].loc;
	if (link >= mv->links)
		return no_such_link(e, t, pkt, loc);
	from = mv->src[link];
	*to = mv->dst[link];
	if ((loc & ~cbits) != from)	/* a sentinel or a mark stays past every vertex */
		return not_here(e, t, pkt, from, loc);
	if (!simple && mv->down && txn_bit(mv->down, link))
		return link_down(e, t, pkt, link);
	lid = simple || !mv->line ? link : mv->line[link];
	if (!single || mv->line || (!simple && from >= mv->procs)) {
		if (mv->stamp[lid] == t)
			return line_conflict(e, t, i, lid);
		mv->stamp[lid] = t;
	}
	if (!simple && mv->taken && txn_bit(mv->taken->lines, lid))
		return taken_conflict(e, t, pkt, link, "a link the run beside it had this tick");
	return single ? single_port(e, mv, t, pkt, link, from, *to, simple) : 0;
}

/*
 * Check and apply every move of tick @t in one pass.  A packet that moved
 * this tick carries txn_loc_mark(@t) until the tick ends, so a second move
 * of it is caught; arrivals are handed to the schedule only after the pass.
 * @plain: a closed unicast run, the common case, handled in line;
 * @counted: a combining run, whose locs carry counts (struct txn_pkt).
 * The function is compiled once for each case.
 */
static __always_inline int move_all(struct txn_engine *e, u64 t, u32 *narr, const bool plain,
				    const bool counted)
{
	struct txn_ledger *L = e->L;
	const struct txn_mv mv = mv_of(e);
	const u32 cbits = counted ? L->cbits : 0;
	const bool single = single_ported(e);
	struct txn_pkt *pk = L->pk;
	u32 *arrivals = L->arrivals, *recvd = L->recvd;
	const struct txn_move *moves = e->moves;
	const u32 nmoves = e->nmoves;
	u64 *hops = L->hops;
	u32 i, pkt, link, to = 0, n = 0, got = 0, na = *narr;
	int ret = 0;

	if (nmoves > e->max_moves)
		return too_many_moves(e, t);
	for (i = 0; i < nmoves; i++) {
		pkt = moves[i].pkt;
		link = moves[i].link;
		ret = check_move(e, &mv, t, i, pkt, link, &to, cbits, false, single);
		if (ret)
			return ret;
		if (hops)
			hops[link]++;
		n++;
		if (plain) {
			if (to == pk[pkt].tag) {
				pk[pkt].loc = TXN_LOC_GONE;
				recvd[to]++;
				got++;
			} else {
				pk[pkt].loc = to | txn_loc_mark(t);
				arrivals[na++] = i;
			}
			continue;
		}
		pk[pkt].loc = (pk[pkt].loc & cbits) | to | txn_loc_mark(t);
		ret = arrive_at(e, t, pkt, to);
		if (ret < 0)
			break;
		if (ret)
			arrivals[na++] = i;
	}
	*narr = na;
	L->transmissions += n;
	L->delivered += got;
	return ret < 0 ? ret : 0;
}

/* Each case a function of its own, registers allocated for it alone. */
static noinline int move_plain(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, true, false);
}

static noinline int move_counted(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, false, true);
}

/* A broadcast's, or open traffic's. */
static noinline int move_other(struct txn_engine *e, u64 t, u32 *narr)
{
	return move_all(e, t, narr, false, false);
}

static const char *const fault_names[] = {
	[TXN_FAULT_NONE]	= "none",
	[TXN_FAULT_LINK_TWICE]	= "link-twice",
	[TXN_FAULT_SINGLE_PORT]	= "single-port",
	[TXN_FAULT_CUT_THROUGH]	= "cut-through",
	[TXN_FAULT_TELEPORT]	= "teleport",
	[TXN_FAULT_DROP]	= "drop",
	[TXN_FAULT_CORRUPT]	= "corrupt",
};

const char *txn_fault_name(u32 fault)
{
	return fault <= TXN_FAULT_MAX ? fault_names[fault] : NULL;
}

int txn_fault_from_name(const char *name)
{
	u32 f;

	for (f = 0; f <= TXN_FAULT_MAX; f++)
		if (!strcmp(name, fault_names[f]))
			return (int)f;
	return -EINVAL;
}

/* Test-only rule breaking, so that tests can prove the checks fire. */
static void inject_fault(struct txn_engine *e)
{
	struct txn_ledger *L = e->L;
	struct txn_move *m = e->moves;
	u32 pkt, node;

	if (L->tick != 0 || !e->nmoves)
		return;
	node = e->g->src[m[0].link];
	switch (L->p.fault) {
	case TXN_FAULT_LINK_TWICE:
	case TXN_FAULT_SINGLE_PORT:
		/* A second packet of the same node: on the same link, or on another. */
		for (pkt = 0; pkt < e->npkts; pkt++) {
			u32 i, l;

			if (txn_loc_uncounted(L, L->pk[pkt].loc) != node || pkt == m[0].pkt)
				continue;
			for (i = 0; i < e->nmoves && m[i].pkt != pkt; i++)
				;
			if (i < e->nmoves)
				continue;
			l = m[0].link;
			if (L->p.fault == TXN_FAULT_SINGLE_PORT) {
				l = e->g->first[node];
				if (l == m[0].link)
					l++;
				if (l >= e->g->first[node + 1])
					return;
			}
			txn_move(e, pkt, l);
			return;
		}
		break;
	case TXN_FAULT_CUT_THROUGH:
		txn_move(e, m[0].pkt, m[0].link);
		break;
	case TXN_FAULT_TELEPORT:
		m[0].link = e->g->first[e->g->dst[m[0].link]];
		break;
	case TXN_FAULT_DROP:
		/* Popped from its queue and never sent again: lost. */
		L->pk[m[0].pkt].loc = e->g->nodes;
		m[0] = m[--e->nmoves];
		break;
	case TXN_FAULT_CORRUPT:
		if (L->payload)
			L->payload[0] ^= 0x5a;
		break;
	}
}

/*
 * A way onward() or onward_all() named: a link that exists (one that
 * leaves another node is caught when the packet moves on it), and its key,
 * past the last of @keys taken as the last.
 */
static __always_inline bool way_link(u64 way, u32 links, u32 *link)
{
	*link = (u32)way;
	return *link < links;
}

static __always_inline u32 way_key(u64 way, u32 keys)
{
	u32 key = (u32)(way >> 32);

	return key < keys ? key : keys - 1;
}

/*
 * Unicast arrivals of a schedule with onward(): each joins the queue of the
 * link onward() names (@prio 1: its priority queue, 2: its sorted queue's
 * arrivals' lane), in line, one call a hop.
 */
static __always_inline int send_on(struct txn_engine *e, u64 t, u32 narr, const int prio)
{
	txn_onward_fn *onward = e->sched->onward;
	const struct txn_graph *g = e->g;
	const struct txn_qs q = qs_of(e);
	struct txn_pkt *pk = e->L->pk;
	const u32 *arrivals = e->L->arrivals;
	u32 i, next;
	u64 way;

	for (i = 0; i < narr; i++) {
		struct txn_move *m = &e->moves[arrivals[i]];

		pk[m->pkt].loc = g->dst[m->link];
		way = onward(e, m->pkt, m->link, pk[m->pkt].tag);
		if (!way_link(way, g->links, &next))
			return txn_violate(e, t, g->dst[m->link], m->pkt, "no such link");
		if (prio == 2) {
			/* the sorted lane takes any key */
			sq_push_key(e, &q, pk, next, m->pkt, (u32)(way >> 32));
		} else if (prio) {
			pq_push(&q, pk, next, way_key(way, e->pq_keys), m->pkt);
		} else {
			q_push(&q, pk, next, m->pkt);
		}
	}
	return 0;
}

/*
 * A closed unicast run on priority queues whose schedule has onward(), the
 * general schedule's case, in three passes.  land(): each move checked and
 * made; a packet home is delivered, one not yet home is written to
 * landed[].  Then the schedule names every landed packet's way at once
 * (onward_all(), or onward() for each), all weighed on the queues as the
 * tick's pops left them, as routers that decide in the same tick would;
 * and queue_landed() checks each way and queues the packet on it.  Every
 * pop was before the passes, so nothing leaves in the tick it arrived.
 * The moved mark, with the tick's parity, still catches a second move of
 * a packet this tick; it is not cleared by another pass but by the pop
 * that takes the packet off the queue it joined (pq_pop()), and every
 * reader of a location masks it (TXN_LOC_MARKS).  The passes are short
 * loops without a call: a hop's loads do not wait on the hop before, and
 * no base pointer is saved across a call each hop (one pass calling
 * onward() each hop took 15.1 ns a hop on the 16x16 torus, the three
 * 12.2).  @simple: no link down, no lines, no switches, no run beside:
 * nothing of theirs to check; @single: the single-port rule.  The counters
 * are left to the caller, which checks that the schedule wrote none of
 * the scheduler's copies first.
 */
static __always_inline int land(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland,
				const bool simple, const bool single, const bool ahead)
{
	struct txn_ledger *L = e->L;
	const struct txn_mv mv = mv_of(e);
	const struct txn_move *moves = e->moves;
	const u32 nmoves = e->nmoves;
	struct txn_pkt *pk = L->pk;
	struct txn_landed *landed = L->landed;
	u32 *recvd = L->recvd, *qlen = e->qlen, *qmax = e->qmax, mark = txn_loc_mark(t);
	u32 i, pkt, link, to = 0, home = 0, n = 0;
	int ret = 0;

	if (nmoves > e->max_moves)
		return too_many_moves(e, t);
	for (i = 0; i < nmoves; i++) {
		/*
		 * The choose pass popped these records a whole pass ago, out of
		 * the caches on a large network: read them again a few moves
		 * ahead: past the last move, an old one or zeros.  A prefetch
		 * never faults, so a move that names no packet costs a wasted
		 * read here, and check_move() refuses it.
		 */
		if (ahead)
			txn_prefetch(&pk[moves[i + MOVES_AHEAD].pkt]);
		pkt = moves[i].pkt;
		link = moves[i].link;
		ret = check_move(e, &mv, t, i, pkt, link, &to, 0, simple, single);
		if (ret)
			break;
		if (to == pk[pkt].tag) {
			pk[pkt].loc = TXN_LOC_GONE;
			recvd[to]++;
			home++;
			continue;
		}
		pk[pkt].loc = to | mark;
		landed[n].pkt = pkt;
		landed[n].link = link;
		landed[n].at = to;
		landed[n].dst = pk[pkt].tag;
		n++;
		/*
		 * It is queued at @to (a way that leaves another node fails
		 * the run when the packet moves on it): counted here, where
		 * @to is at hand, and every pop of the tick came first, so
		 * the node's largest queue is as pq_push() would find it.
		 */
		node_count_in(qlen, qmax, to);
	}
	*sent = i;
	*got = home;
	*nland = n;
	return ret;
}

/*
 * Each case a function of its own: registers allocated for it alone.
 * The common ones twice: with the read ahead, for records past the
 * caches, and without, for those the pops left warm (5 instructions a hop).
 */
static noinline int land_all(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, false, false);
}

static noinline int land_all_ahead(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, false, true);
}

static noinline int land_single(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland)
{
	return land(e, t, sent, got, nland, true, true, false);
}

static noinline int land_single_ahead(struct txn_engine *e, u64 t, u32 *sent, u32 *got,
				      u32 *nland)
{
	return land(e, t, sent, got, nland, true, true, true);
}

static noinline int land_any(struct txn_engine *e, u64 t, u32 *sent, u32 *got, u32 *nland,
			     bool single)
{
	return land(e, t, sent, got, nland, false, single, true);
}

/*
 * The landed packets queued where the schedule's ways[] say.  A way to a
 * link that does not exist fails the run; one that leaves another node is
 * caught when the packet moves on it.
 */
static __always_inline int queue_landed(struct txn_engine *e, u64 t, u32 n, const bool ahead)
{
	const struct txn_qs q = qs_of(e);
	const struct txn_landed *landed = e->L->landed;
	const u64 *ways = e->ways;
	struct txn_pkt *pk = e->L->pk;
	const u32 keys = e->pq_keys;
	u32 i, next;

	for (i = 0; i < n; i++) {
		/* land() read them, but a pass ago: past the caches on a large network */
		if (ahead)
			txn_prefetch(&pk[landed[i + MOVES_AHEAD].pkt]);
		if (!way_link(ways[i], q.links, &next))
			return txn_violate(e, t, landed[i].at, landed[i].pkt, "no such link");
		pq_link(&q, pk, next, way_key(ways[i], keys), landed[i].pkt);
	}
	return 0;
}

/* The nodes of many ports that queue_landed() queued on: their pq_node_max raised. */
static noinline void raise_landed(struct txn_engine *e, u32 n)
{
	const struct txn_qs q = qs_of(e);
	u32 i;

	for (i = 0; i < n; i++)
		raise_node_max(&q, (u32)e->ways[i]);
}

/* A scheduler may read e->p and the counters; one that wrote them fails. */
int txn_check_untouched(struct txn_engine *e, u64 t)
{
	const struct txn_ledger *L = e->L;

	if (memcmp(&e->p, &L->pub, sizeof(e->p)))
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "the scheduler rewrote the run's parameters");
	if (e->tick != L->tick || e->delivered != L->delivered || e->expected != L->expected ||
	    e->transmissions != L->transmissions || e->injected != L->injected ||
	    e->copies != L->copies_made || e->merges != L->merges || e->dropped != L->dropped)
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "the scheduler rewrote the engine's counters");
	return 0;
}

void txn_engine_record(struct txn_engine *e, struct txn_series *s)
{
	e->L->series = s;
}

static int tick_end(struct txn_engine *e, u64 t, u64 before);

/*
 * The arrivals pass reads tables at random for each arrival (a tree's
 * row, a partial waiting at the node): a pipeline of hints ahead of it,
 * the packet record first, then the schedule's two steps.
 */
#define ARRIVE_AHEAD 6

static void hint_arrivals(const struct txn_engine *e, u32 i)
{
	struct txn_ledger *L = e->L;
	const struct txn_move *m = e->moves;
	const u32 *a = L->arrivals + i;

	txn_slot_prefetch(L, m[a[3 * ARRIVE_AHEAD]].pkt);
	if (!e->sched->arrive_ahead(e, &m[a[2 * ARRIVE_AHEAD]], &m[a[ARRIVE_AHEAD]]))
		L->hints = false;
}

static noinline int queue_landed_near(struct txn_engine *e, u64 t, u32 n)
{
	return queue_landed(e, t, n, false);
}

static noinline int queue_landed_far(struct txn_engine *e, u64 t, u32 n)
{
	return queue_landed(e, t, n, true);
}

/*
 * The rest of a tick of a closed unicast run with onward() and priority
 * queues: the moves made (land(), compiled for the common cases: no
 * faults, lines, switches or run beside; all ports or one; and for the
 * rest), the landed packets routed and queued.  Schedules on FIFOs keep
 * the tick of move_all() and send_on() instead: a FIFO push writes the
 * old tail's record, and among the checks of a move those stores made
 * message-shift's single-port hop 40% slower.
 */
static noinline int tick_onward(struct txn_engine *e, u64 t, u64 before)
{
	struct txn_ledger *L = e->L;
	const struct txn_sched *s = e->sched;
	bool simple = !L->ndown && !e->g->line && !L->taken && e->g->nodes == e->g->procs;
	bool single = single_ported(e);
	bool ahead = (u64)e->npkts * sizeof(struct txn_pkt) > MOVES_AHEAD_BYTES;
	u32 sent = 0, got = 0, n = 0, i;
	int ret;

	if (!simple)
		ret = land_any(e, t, &sent, &got, &n, single);
	else if (single)
		ret = ahead ? land_single_ahead(e, t, &sent, &got, &n) :
			      land_single(e, t, &sent, &got, &n);
	else
		ret = ahead ? land_all_ahead(e, t, &sent, &got, &n) :
			      land_all(e, t, &sent, &got, &n);
	if (ret || e->failed)
		return -EPROTO;
	if (s->onward_all) {
		s->onward_all(e, L->landed, n, e->ways);
	} else {
		for (i = 0; i < n; i++)
			e->ways[i] = s->onward(e, L->landed[i].pkt, L->landed[i].link,
					       L->landed[i].dst);
	}
	/* before the counters move: a write of the schedule's to its copies of them shows */
	if (e->failed || txn_check_untouched(e, t))
		return -EPROTO;
	if (ahead ? queue_landed_far(e, t, n) : queue_landed_near(e, t, n))
		return -EPROTO;
	if (e->pq_node_max)
		raise_landed(e, n);
	L->transmissions += sent;
	L->delivered += got;
	if (L->series)
		txn_series_links(L->series, t, e->moves, e->nmoves);
	return tick_end(e, t, before);
}

int txn_engine_tick(struct txn_engine *e)
{
	struct txn_ledger *L = e->L;
	const struct txn_graph *g = e->g;
	u64 t = L->tick + 1, before = L->delivered;
	u32 i, narr = 0;
	int ret;

	if (e->failed)
		return -EPROTO;
	e->nmoves = 0;
	e->ndone = 0;
	e->sched->choose(e);
	/*
	 * e->p and the counters are checked each time the schedule has run,
	 * before the engine writes them again: a write in choose() (or by
	 * anyone since the last tick) fails this tick, it is not overwritten.
	 */
	if (e->failed || txn_check_untouched(e, t))
		return -EPROTO;
	if (L->p.fault)
		inject_fault(e);
	if (L->kind == TXN_UNICAST && !L->open && e->sched->onward && e->pq_keys)
		return tick_onward(e, t, before);
	if (L->kind == TXN_UNICAST && !L->open)
		ret = move_plain(e, t, &narr);
	else if (L->kind == TXN_COMBINE)
		ret = move_counted(e, t, &narr);
	else
		ret = move_other(e, t, &narr);
	if (ret)
		return ret;
	/* Every move checked and made: the picture shows what the engine did. */
	if (L->series)
		txn_series_links(L->series, t, e->moves, e->nmoves);
	/* The counters as the moves left them, so that a write in arrive() stands out. */
	mirror(e);
	/*
	 * Only now may arrivals join queues: nothing leaves in the tick it
	 * arrived.  Where copies and merges may name any packet at a node,
	 * every arrival is in place before the scheduler hears of the first,
	 * and one merged away by then is not handed over; unicast packets
	 * are only ever named by their own arrival.
	 */
	if (L->kind == TXN_UNICAST && e->sched->onward && e->pq_keys) {
		ret = send_on(e, t, narr, 1);
	} else if (L->kind == TXN_UNICAST && e->sched->onward && e->sqk) {
		ret = send_on(e, t, narr, 2);
	} else if (L->kind == TXN_UNICAST && e->sched->onward) {
		ret = send_on(e, t, narr, 0);
	} else if (L->kind == TXN_UNICAST) {
		for (i = 0; i < narr; i++) {
			struct txn_move *m = &e->moves[L->arrivals[i]];

			L->pk[m->pkt].loc = g->dst[m->link];
			/* A schedule without arrive() keeps its own account of where packets are. */
			if (e->sched->arrive)
				e->sched->arrive(e, m->pkt, m->link);
		}
	} else {
		for (i = 0; i < narr; i++) {
			struct txn_move *m = &e->moves[L->arrivals[i]];

			L->pk[m->pkt].loc &= ~TXN_LOC_MARKS;	/* its count stays */
		}
		for (i = 0; i < narr && !e->failed; i++) {
			struct txn_move *m = &e->moves[L->arrivals[i]];

			if (L->hints && i + 3 * ARRIVE_AHEAD < narr)
				hint_arrivals(e, i);
			if (txn_loc_uncounted(L, L->pk[m->pkt].loc) == g->dst[m->link] &&
			    e->sched->arrive)
				e->sched->arrive(e, m->pkt, m->link);
		}
	}
	if (ret || e->failed || txn_check_untouched(e, t))
		return -EPROTO;
	return tick_end(e, t, before);
}

static int tick_end(struct txn_engine *e, u64 t, u64 before)
{
	struct txn_ledger *L = e->L;

	L->tick = t;
	mirror(e);
	if (L->series)
		txn_series_held(L->series, t, L, e->npkts);
	if (L->open)
		return L->delivered + L->dropped == L->injected;
	if (L->delivered == L->expected)
		return 1;
	if (L->delivered != before)
		L->progress_tick = t;
	else if (t - L->progress_tick > L->stall_limit + (L->expected - L->delivered))
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "no progress: nothing was delivered for too many ticks (a livelock or a lost packet)");
	if (L->p.max_ticks && t >= L->p.max_ticks)
		return txn_violate(e, t, TXN_NONE, TXN_NONE,
				   "tick limit: the run reached max_ticks before it was done");
	return 0;
}
