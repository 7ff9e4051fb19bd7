/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tick engine: the only code that moves packets.
 *
 * The timing model (shared/DESIGN.md) in short: in one tick every directed
 * link carries at most one packet; a packet that arrives in tick t leaves
 * again in t+1 at the earliest; a packet is consumed on arrival at its
 * destination; under the single-port model a node sends at most one and
 * receives at most one packet per tick.
 *
 * Schedulers decide; the engine checks.  Each tick a scheduler appends
 * moves (packet, link) to e->moves; the engine rejects the whole run if a
 * move breaks a rule, then applies the moves.  Arrivals are handed back
 * to the scheduler only after every move of the tick is applied, which is
 * what makes the model store-and-forward.
 */
#ifndef TXN_CORE_ENGINE_H
#define TXN_CORE_ENGINE_H

#include "shim.h"
#include "topology.h"

#define TXN_LOC_DELIVERED	((u32)~0U)
#define TXN_LOC_MOVED		(1U << 31)	/* or-ed into loc during its move; vertices < 2^24 */
#define TXN_LOC_FREE		((u32)~2U)	/* an open-traffic slot not in use */
#define TXN_NONE		((u32)~0U)
#define TXN_MAX_PAYLOAD		4096
#define TXN_MOVES_SLACK		8

/*
 * Test-only: make the schedule break one rule on purpose in its first
 * tick, so that tests can prove the engine catches it.  Not ABI: the
 * kernel takes it from debugfs (txnet/<net>/fault).
 */
enum txn_fault {
	TXN_FAULT_NONE,
	TXN_FAULT_LINK_TWICE,		/* two packets on one link in a tick */
	TXN_FAULT_SINGLE_PORT,		/* a node sends twice (single-port) */
	TXN_FAULT_CUT_THROUGH,		/* a packet moves twice in a tick */
	TXN_FAULT_TELEPORT,		/* a packet leaves a node it is not at */
	TXN_FAULT_DROP,			/* a packet is lost */
	TXN_FAULT_CORRUPT,		/* a payload byte changes */
	TXN_FAULT_MAX = TXN_FAULT_CORRUPT
};

/* "link-twice" and back; NULL / -EINVAL when unknown. */
const char *txn_fault_name(u32 fault);
int txn_fault_from_name(const char *name);

struct txn_engine;

/* What a scheduler is: a policy over the engine's queues. */
struct txn_sched {
	u32 algo;			/* enum txnet_algo */
	const char *name;
	/* Queue the initial packets; 0 or -errno. */
	int (*start)(struct txn_engine *e);
	/* Append this tick's moves to e->moves. */
	void (*choose)(struct txn_engine *e);
	/* @pkt came over @link to a node that is not its destination: queue it onward. */
	void (*arrive)(struct txn_engine *e, u32 pkt, u32 link);
	/* Open traffic: route a newly injected @pkt (at its source); 0 or -errno. */
	int (*inject)(struct txn_engine *e, u32 pkt);
	/* Free what start allocated in e->priv; may be NULL. */
	void (*fini)(struct txn_engine *e);
	/* Bucket count per link for txn_pq_*, 0 when only FIFOs are used. */
	u32 (*pq_keys)(const struct txn_graph *g);
	/* Bytes start and inject allocate at most for @npkts packets; may be NULL. */
	u64 (*priv_bytes)(const struct txn_graph *g, u64 npkts);
};

struct txn_run_params {
	u32 op;				/* enum txnet_op */
	u32 port_model;			/* enum txnet_port_model */
	u32 payload;			/* bytes per packet, 0..TXN_MAX_PAYLOAD */
	u64 seed;
	u32 fault;			/* enum txn_fault: test-only rule breaking */
};

/* The first rule a run broke. */
struct txn_violation {
	u64 tick;
	u32 node;
	u32 pkt;
	const char *rule;
};

struct txn_engine {
	const struct txn_graph *g;
	const struct txn_sched *sched;
	struct txn_run_params p;
	u32 n;				/* processors */
	u32 npkts;			/* n * (n - 1) */

	/*
	 * Per packet: 12 bytes in one record, plus the payload.  One record,
	 * not three arrays, because a hop touches all three fields of a
	 * packet nobody touched for a while: one cache miss instead of three.
	 */
	struct txn_pkt {
		u32 loc;		/* vertex, or TXN_LOC_* */
		u32 dst;
		u32 next;		/* FIFO / bucket chains, free slots */
	} *pk;
	u8 *payload;

	/* per link */
	u32 *qhead, *qtail;		/* FIFO per out-link */
	u64 *stamp;			/* last tick the link carried a packet */
	u32 pq_keys;			/* buckets per link, 0 if unused */
	u32 *pq_head, *pq_tail;		/* links * pq_keys */
	u32 *pq_top;			/* per link: no key above it is used */

	/* per vertex */
	u32 *qlen, *qmax;
	u64 *sent_at, *recv_at;		/* single-port stamps: tick + 1, 0 = never */

	struct txn_move {
		u32 pkt;
		u32 link;
	} *moves;
	u32 nmoves, max_moves;
	u32 *arrivals;			/* packets handed to ->arrive after the tick */

	u64 tick;			/* ticks completed */
	u64 delivered;
	u64 transmissions;
	struct txn_violation v;
	bool failed;

	/* open traffic only (txn_engine_init_open) */
	u32 *src, *len, *sum;		/* per slot: origin, bytes, checksum */
	u32 free;			/* free slots, chained through next[] */
	u64 injected;			/* packets put in; done when all delivered */
	u32 *done, ndone;		/* slots delivered in the last tick */

	void *priv;			/* the scheduler's state */
	u64 sched_state[4];		/* small scheduler state, no allocation */
};

/*
 * Bytes txn_engine_init() / txn_engine_init_open() will allocate, the
 * schedule's own included; the shell charges them first.
 */
u64 txn_engine_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload);
u64 txn_engine_open_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
			  u32 slots);

int txn_engine_init(struct txn_engine *e, const struct txn_graph *g,
		    const struct txn_sched *s, const struct txn_run_params *p);
void txn_engine_free(struct txn_engine *e);

/*
 * Both return 0, -ENOMEM, -EINVAL, or -E2BIG when one of the arrays would
 * be larger than TXN_ARRAY_MAX bytes (nothing is allocated then).
 *
 * Open traffic (user ports): packets come and go.  inject returns the
 * slot (>= 0) or -EINVAL / -ENOBUFS (all slots taken); after a tick the
 * slots in done[0 .. ndone-1] were delivered, checksum verified, and the
 * caller gives each back with txn_engine_release() once it has copied it.
 */
int txn_engine_init_open(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p, u32 slots);
int txn_engine_inject(struct txn_engine *e, u32 src, u32 dst, const void *data, u32 len);
void txn_engine_release(struct txn_engine *e, u32 pkt);

/*
 * Advance one tick.  Returns 1 when every packet has been consumed, 0 to
 * go on, -EPROTO when a rule was broken (e->v says which).
 */
int txn_engine_tick(struct txn_engine *e);

/* After the last tick: every packet delivered once, payloads intact. */
int txn_engine_verify(struct txn_engine *e);

/* Processor of packet @pkt's origin, and its id from (src, dst). */
static inline u32 txn_pkt_src(const struct txn_engine *e, u32 pkt)
{
	return e->src ? e->src[pkt] : pkt / (e->n - 1);
}

static inline u32 txn_pkt_id(const struct txn_engine *e, u32 src, u32 dst)
{
	return src * (e->n - 1) + (dst < src ? dst : dst - 1);
}

/* The link from @u to @v, or TXN_NO_LINK. */
u32 txn_link_between(const struct txn_graph *g, u32 u, u32 v);

/*
 * Queue helpers for schedulers: FIFO per out-link, bucketed priority per
 * out-link.  The FIFO ones are inline: they run once per hop.
 */
static inline void txn_queued(struct txn_engine *e, u32 link)
{
	u32 node = e->g->src[link];

	if (++e->qlen[node] > e->qmax[node])
		e->qmax[node] = e->qlen[node];
}

static inline void txn_q_push(struct txn_engine *e, u32 link, u32 pkt)
{
	e->pk[pkt].next = TXN_NONE;
	if (e->qtail[link] == TXN_NONE)
		e->qhead[link] = pkt;
	else
		e->pk[e->qtail[link]].next = pkt;
	e->qtail[link] = pkt;
	txn_queued(e, link);
}

static inline u32 txn_q_pop(struct txn_engine *e, u32 link)
{
	u32 pkt = e->qhead[link];

	if (pkt == TXN_NONE)
		return pkt;
	e->qhead[link] = e->pk[pkt].next;
	if (e->qhead[link] == TXN_NONE)
		e->qtail[link] = TXN_NONE;
	e->qlen[e->g->src[link]]--;
	return pkt;
}

void txn_pq_push(struct txn_engine *e, u32 link, u32 key, u32 pkt);
u32 txn_pq_pop_max(struct txn_engine *e, u32 link);

/* A move for this tick. */
static inline void txn_move(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->nmoves < e->max_moves) {
		e->moves[e->nmoves].pkt = pkt;
		e->moves[e->nmoves].link = link;
	}
	e->nmoves++;
}

/* The byte @i of the payload packet (src, dst) carries in a run seeded @seed. */
u8 txn_payload_byte(u64 seed, u32 src, u32 dst, u32 i);

#endif /* TXN_CORE_ENGINE_H */
