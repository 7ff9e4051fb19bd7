// SPDX-License-Identifier: GPL-2.0
/*
 * The tick engine (see engine.h for the rules it enforces).
 */
#include "engine.h"

u32 txn_link_between(const struct txn_graph *g, u32 u, u32 v)
{
	u32 l;

	for (l = g->first[u]; l < g->first[u + 1]; l++)
		if (g->dst[l] == v)
			return l;
	return TXN_NO_LINK;
}

/* splitmix64: cheap, and every (seed, src, dst, word) gives unrelated bits. */
static u64 mix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

u8 txn_payload_byte(u64 seed, u32 src, u32 dst, u32 i)
{
	u64 w = mix64(seed ^ mix64(((u64)src << 32 | dst) + (i >> 3)));

	return (u8)(w >> ((i & 7) * 8));
}

static void fill_payload(struct txn_engine *e)
{
	u32 pkt, i, src, dst;
	u8 *b;

	if (!e->p.payload)
		return;
	for (pkt = 0; pkt < e->npkts; pkt++) {
		src = txn_pkt_src(e, pkt);
		dst = e->pk[pkt].dst;
		b = e->payload + (size_t)pkt * e->p.payload;
		for (i = 0; i < e->p.payload; i++)
			b[i] = txn_payload_byte(e->p.seed, src, dst, i);
		if (!(pkt & 4095))
			txn_cond_resched();
	}
}

/*
 * Every array a run allocates, with its element count and size: one table
 * that both allocates (engine_alloc) and tells the shell beforehand what
 * it will cost (txn_engine_bytes), so that the two never disagree.
 */
struct txn_array {
	size_t where;			/* offsetof the pointer in struct txn_engine */
	u64 count;
	u32 size;
	bool zero;
};

#define TXN_ENGINE_ARRAYS	18
#define ARR(field, n, sz, z) \
	((struct txn_array){ offsetof(struct txn_engine, field), (n), (sz), (z) })

static u32 engine_layout(const struct txn_graph *g, u32 pq_keys, u32 payload, u64 npkts,
			 bool open, struct txn_array *a)
{
	u64 links = g->links, v = g->nodes, moves = links + TXN_MOVES_SLACK;
	u32 n = 0;

	a[n++] = ARR(pk, npkts, sizeof(struct txn_pkt), false);
	if (payload)
		a[n++] = ARR(payload, npkts, payload, false);
	a[n++] = ARR(qhead, links, sizeof(u32), false);
	a[n++] = ARR(qtail, links, sizeof(u32), false);
	a[n++] = ARR(stamp, links, sizeof(u64), true);
	a[n++] = ARR(qlen, v, sizeof(u32), true);
	a[n++] = ARR(qmax, v, sizeof(u32), true);
	a[n++] = ARR(sent_at, v, sizeof(u64), true);
	a[n++] = ARR(recv_at, v, sizeof(u64), true);
	a[n++] = ARR(moves, moves, sizeof(struct txn_move), false);
	a[n++] = ARR(arrivals, moves, sizeof(u32), false);
	if (pq_keys) {
		a[n++] = ARR(pq_head, links * pq_keys, sizeof(u32), false);
		a[n++] = ARR(pq_tail, links * pq_keys, sizeof(u32), false);
		a[n++] = ARR(pq_top, links, sizeof(u32), true);
	}
	if (open) {
		a[n++] = ARR(src, npkts, sizeof(u32), false);
		a[n++] = ARR(len, npkts, sizeof(u32), false);
		a[n++] = ARR(sum, npkts, sizeof(u32), false);
		a[n++] = ARR(done, moves, sizeof(u32), false);
	}
	return n;
}

static u64 run_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
		     u64 npkts, bool open)
{
	struct txn_array a[TXN_ENGINE_ARRAYS];
	u32 keys = s->pq_keys ? s->pq_keys(g) : 0;
	u32 n = engine_layout(g, keys, payload, npkts, open, a), i;
	u64 sum = s->priv_bytes ? s->priv_bytes(g, npkts) : 0;

	for (i = 0; i < n; i++)
		sum += a[i].count * a[i].size;
	return sum;
}

u64 txn_engine_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload)
{
	return run_bytes(g, s, payload, (u64)g->procs * (g->procs - 1), false);
}

u64 txn_engine_open_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
			  u32 slots)
{
	return run_bytes(g, s, payload, slots, true);
}

/* Every array pointer engine_layout() may set. */
static const size_t engine_arrays[] = {
	offsetof(struct txn_engine, pk), offsetof(struct txn_engine, payload),
	offsetof(struct txn_engine, qhead), offsetof(struct txn_engine, qtail),
	offsetof(struct txn_engine, stamp), offsetof(struct txn_engine, qlen),
	offsetof(struct txn_engine, qmax), offsetof(struct txn_engine, sent_at),
	offsetof(struct txn_engine, recv_at), offsetof(struct txn_engine, moves),
	offsetof(struct txn_engine, arrivals), offsetof(struct txn_engine, pq_head),
	offsetof(struct txn_engine, pq_tail), offsetof(struct txn_engine, pq_top),
	offsetof(struct txn_engine, src), offsetof(struct txn_engine, len),
	offsetof(struct txn_engine, sum), offsetof(struct txn_engine, done),
};

static void **array_at(struct txn_engine *e, size_t where)
{
	return (void **)((char *)e + where);
}

void txn_engine_free(struct txn_engine *e)
{
	u32 i;

	if (e->sched && e->sched->fini)
		e->sched->fini(e);
	for (i = 0; i < ARRAY_SIZE(engine_arrays); i++)
		txn_free(*array_at(e, engine_arrays[i]));
	memset(e, 0, sizeof(*e));
}

static void fill_none(u32 *a, u64 count)
{
	u64 i;

	for (i = 0; i < count; i++)
		a[i] = TXN_NONE;
}

/* What both kinds of run allocate: @npkts packet slots and the per-link and per-node state. */
static int engine_alloc(struct txn_engine *e, const struct txn_graph *g,
			const struct txn_sched *s, const struct txn_run_params *p,
			u64 npkts, bool open)
{
	struct txn_array a[TXN_ENGINE_ARRAYS];
	u32 links = g->links, n, i;
	void **ptr;
	u64 k;

	memset(e, 0, sizeof(*e));
	if (g->procs < 2 || !npkts || npkts > 0xfffffff0ULL || p->payload > TXN_MAX_PAYLOAD)
		return -EINVAL;
	e->g = g;
	e->sched = s;
	e->p = *p;
	e->n = g->procs;
	e->npkts = (u32)npkts;
	/* Room past one per link, so an extra move is caught by the rule it breaks. */
	e->max_moves = links + TXN_MOVES_SLACK;
	e->pq_keys = s->pq_keys ? s->pq_keys(g) : 0;

	n = engine_layout(g, e->pq_keys, p->payload, npkts, open, a);
	/* Sizes first: an array no allocator can give is a refusal, not a failure. */
	for (i = 0; i < n; i++)
		if (a[i].count > TXN_ARRAY_MAX / a[i].size) {
			memset(e, 0, sizeof(*e));
			return -E2BIG;
		}
	for (i = 0; i < n; i++) {
		ptr = array_at(e, a[i].where);
		*ptr = a[i].zero ? txn_zalloc_array(a[i].count, a[i].size) :
				   txn_alloc_array(a[i].count, a[i].size);
		if (!*ptr) {
			txn_engine_free(e);
			return -ENOMEM;
		}
	}
	for (k = 0; k < npkts; k++)
		e->pk[k].next = TXN_NONE;
	fill_none(e->qhead, links);
	fill_none(e->qtail, links);
	if (e->pq_keys) {
		fill_none(e->pq_head, (u64)links * e->pq_keys);
		fill_none(e->pq_tail, (u64)links * e->pq_keys);
	}
	return 0;
}

int txn_engine_init(struct txn_engine *e, const struct txn_graph *g,
		    const struct txn_sched *s, const struct txn_run_params *p)
{
	u64 npkts = (u64)g->procs * (g->procs - 1);
	u32 src, k, pkt;
	int ret;

	ret = engine_alloc(e, g, s, p, npkts, false);
	if (ret)
		return ret;
	for (src = 0, pkt = 0; src < e->n; src++) {
		for (k = 0; k < e->n - 1; k++, pkt++) {
			e->pk[pkt].loc = src;
			e->pk[pkt].dst = k < src ? k : k + 1;
		}
	}
	e->injected = e->npkts;
	fill_payload(e);
	ret = s->start(e);
	if (ret)
		txn_engine_free(e);
	return ret;
}

/*
 * Open traffic: @slots packet slots that user packets of up to @p->payload
 * bytes take and give back; the free ones are chained through next[].
 */
int txn_engine_init_open(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p, u32 slots)
{
	u32 pkt;
	int ret;

	ret = engine_alloc(e, g, s, p, slots, true);
	if (ret)
		return ret;
	for (pkt = 0; pkt < slots; pkt++) {
		e->pk[pkt].loc = TXN_LOC_FREE;
		e->pk[pkt].next = pkt + 1 < slots ? pkt + 1 : TXN_NONE;
	}
	e->free = 0;
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
	u32 pkt = e->free;
	int ret;

	if (!e->src || src >= e->n || dst >= e->n || src == dst || len > e->p.payload)
		return -EINVAL;
	if (pkt == TXN_NONE)
		return -ENOBUFS;
	e->free = e->pk[pkt].next;
	e->pk[pkt].next = TXN_NONE;
	e->pk[pkt].loc = src;
	e->src[pkt] = src;
	e->pk[pkt].dst = dst;
	e->len[pkt] = len;
	if (len)
		memcpy(e->payload + (size_t)pkt * e->p.payload, data, len);
	e->sum[pkt] = checksum(e->payload + (size_t)pkt * e->p.payload, len);
	ret = e->sched->inject(e, pkt);
	if (ret) {
		e->pk[pkt].loc = TXN_LOC_FREE;
		e->pk[pkt].next = e->free;
		e->free = pkt;
		return ret;
	}
	e->injected++;
	return (int)pkt;
}

void txn_engine_release(struct txn_engine *e, u32 pkt)
{
	e->pk[pkt].loc = TXN_LOC_FREE;
	e->pk[pkt].next = e->free;
	e->free = pkt;
}

void txn_pq_push(struct txn_engine *e, u32 link, u32 key, u32 pkt)
{
	u64 b = (u64)link * e->pq_keys + key;

	e->pk[pkt].next = TXN_NONE;
	if (e->pq_tail[b] == TXN_NONE)
		e->pq_head[b] = pkt;
	else
		e->pk[e->pq_tail[b]].next = pkt;
	e->pq_tail[b] = pkt;
	if (key > e->pq_top[link])
		e->pq_top[link] = key;
	txn_queued(e, link);
}

u32 txn_pq_pop_max(struct txn_engine *e, u32 link)
{
	u64 base = (u64)link * e->pq_keys;
	u32 key = e->pq_top[link], pkt;

	for (;;) {
		pkt = e->pq_head[base + key];
		if (pkt != TXN_NONE)
			break;
		if (!key)
			return TXN_NONE;
		key--;
	}
	e->pq_top[link] = key;
	e->pq_head[base + key] = e->pk[pkt].next;
	if (e->pk[pkt].next == TXN_NONE)
		e->pq_tail[base + key] = TXN_NONE;
	e->qlen[e->g->src[link]]--;
	return pkt;
}

static int violate(struct txn_engine *e, u64 tick, u32 node, u32 pkt, const char *rule)
{
	e->failed = true;
	e->v.tick = tick;
	e->v.node = node;
	e->v.pkt = pkt;
	e->v.rule = rule;
	return -EPROTO;
}

/*
 * Check and apply every move of tick @t in one pass.  A packet that moved
 * this tick carries TXN_LOC_MOVED until the tick ends, so a second move of
 * it is caught; arrivals are handed to the schedule only after the pass.
 */
static int move_all(struct txn_engine *e, u64 t, u32 *narr)
{
	const struct txn_graph *g = e->g;
	bool single = e->p.port_model == TXNET_PORT_SINGLE;
	u32 i, pkt, link, from, to, loc;

	if (e->nmoves > e->max_moves)
		return violate(e, t, TXN_NONE, TXN_NONE,
			       "more moves than links: a link carried two packets in one tick");
	for (i = 0; i < e->nmoves; i++) {
		pkt = e->moves[i].pkt;
		link = e->moves[i].link;
		if (pkt >= e->npkts || e->pk[pkt].loc == TXN_LOC_FREE)
			return violate(e, t, TXN_NONE, pkt, "no such packet");
		if (link >= g->links)
			return violate(e, t, e->pk[pkt].loc, pkt, "no such link");
		from = g->src[link];
		to = g->dst[link];
		loc = e->pk[pkt].loc;
		if (loc != from) {
			if (loc == TXN_LOC_DELIVERED)
				return violate(e, t, from, pkt, "packet moved after it was consumed");
			if (loc & TXN_LOC_MOVED)
				return violate(e, t, from, pkt,
					       "store-and-forward: packet moved twice in one tick");
			return violate(e, t, from, pkt, "packet is not at the node the link leaves");
		}
		if (e->stamp[link] == t)
			return violate(e, t, from, pkt, "link carried two packets in one tick");
		e->stamp[link] = t;
		if (single) {
			if (e->sent_at[from] == t)
				return violate(e, t, from, pkt, "single-port: node sent two packets in one tick");
			if (e->recv_at[to] == t)
				return violate(e, t, to, pkt, "single-port: node received two packets in one tick");
			e->sent_at[from] = t;
			e->recv_at[to] = t;
		}
		e->transmissions++;
		if (to != e->pk[pkt].dst) {
			e->pk[pkt].loc = to | TXN_LOC_MOVED;
			e->arrivals[(*narr)++] = i;
			continue;
		}
		e->pk[pkt].loc = TXN_LOC_DELIVERED;
		e->delivered++;
		if (e->done) {
			if (checksum(e->payload + (size_t)pkt * e->p.payload, e->len[pkt]) != e->sum[pkt])
				return violate(e, t, to, pkt, "payload corrupted");
			e->done[e->ndone++] = pkt;
		}
	}
	return 0;
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
	struct txn_move *m = e->moves;
	u32 pkt, node;

	if (e->tick != 0 || !e->nmoves)
		return;
	node = e->g->src[m[0].link];
	switch (e->p.fault) {
	case TXN_FAULT_LINK_TWICE:
	case TXN_FAULT_SINGLE_PORT:
		/* A second packet of the same node: on the same link, or on another. */
		for (pkt = 0; pkt < e->npkts; pkt++) {
			u32 i, l;

			if (e->pk[pkt].loc != node || pkt == m[0].pkt)
				continue;
			for (i = 0; i < e->nmoves && m[i].pkt != pkt; i++)
				;
			if (i < e->nmoves)
				continue;
			l = m[0].link;
			if (e->p.fault == TXN_FAULT_SINGLE_PORT) {
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
		e->pk[m[0].pkt].loc = e->g->nodes;
		m[0] = m[--e->nmoves];
		break;
	case TXN_FAULT_CORRUPT:
		if (e->payload)
			e->payload[0] ^= 0x5a;
		break;
	}
}

int txn_engine_tick(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u64 t = e->tick + 1;
	u32 i, narr = 0;
	int ret;

	if (e->failed)
		return -EPROTO;
	e->nmoves = 0;
	e->ndone = 0;
	e->sched->choose(e);
	if (e->p.fault)
		inject_fault(e);
	ret = move_all(e, t, &narr);
	if (ret)
		return ret;
	if (!e->nmoves)
		return violate(e, t, TXN_NONE, TXN_NONE,
			       "no packet moved while some remain undelivered");
	/* Only now may arrivals join queues: nothing leaves in the tick it arrived. */
	for (i = 0; i < narr; i++) {
		struct txn_move *m = &e->moves[e->arrivals[i]];

		e->pk[m->pkt].loc = g->dst[m->link];
		e->sched->arrive(e, m->pkt, m->link);
	}
	e->tick = t;
	return e->delivered == e->injected;
}

int txn_engine_verify(struct txn_engine *e)
{
	u32 pkt, i, src;
	const u8 *b;

	if (e->failed)
		return -EPROTO;
	for (pkt = 0; pkt < e->npkts; pkt++) {
		src = txn_pkt_src(e, pkt);
		if (e->pk[pkt].loc != TXN_LOC_DELIVERED)
			return violate(e, e->tick, e->pk[pkt].loc, pkt, "packet never reached its destination");
		if (!e->payload)
			continue;
		b = e->payload + (size_t)pkt * e->p.payload;
		for (i = 0; i < e->p.payload; i++)
			if (b[i] != txn_payload_byte(e->p.seed, src, e->pk[pkt].dst, i))
				return violate(e, e->tick, e->pk[pkt].dst, pkt, "payload corrupted");
		if (!(pkt & 4095))
			txn_cond_resched();
	}
	if (e->delivered != e->npkts)
		return violate(e, e->tick, TXN_NONE, TXN_NONE, "delivery count differs from packet count");
	return 0;
}
