/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own record of a run.  Only the engine's files include this:
 * schedulers see struct txn_ledger as an opaque pointer, so whatever they
 * do, where a packet is, what it carries, what was delivered and every
 * combined value are written by the engine alone.
 */
#ifndef TXN_CORE_ENGINE_IMPL_H
#define TXN_CORE_ENGINE_IMPL_H

#include "engine.h"

#define TXN_LOC_GONE		((u32)~0U)	/* consumed, merged away or folded */
#define TXN_LOC_FREE		((u32)~2U)	/* a slot not in use */
#define TXN_LOC_MOVED		(1U << 31)	/* or-ed into loc during its move; vertices < 2^24 */
#define TXN_LOC_PARITY		(1U << 30)	/* ... with the parity of its tick */
#define TXN_LOC_MARKS		(TXN_LOC_MOVED | TXN_LOC_PARITY)

/*
 * The mark of a packet that moved in tick @t.  The two-pass tick clears
 * it when the tick ends; the tick of onward() (engine_tick.c, land()) leaves it
 * until the packet is popped from the queue it joined, so a mark of
 * another tick's parity is an old one.
 */
static inline u32 txn_loc_mark(u64 t)
{
	return TXN_LOC_MOVED | (t & 1 ? TXN_LOC_PARITY : 0);
}

enum txn_kind {
	TXN_UNICAST,		/* consumed at its destination */
	TXN_BROADCAST,		/* received by every processor, kept, copied */
	TXN_COMBINE,		/* partial sums, merged and folded */
};

struct txn_pkt {
	u32 next;		/* queue chain: txn_q_*, txn_pq_* */
	u32 loc;		/* vertex, or TXN_LOC_*; combining: and its count */
	u32 tag;		/* destination, message; combining: partial's low half; free list */
};

/*
 * Where a combining packet goes is its slot's (an accumulation's root; a
 * multinode accumulation's slot i n + r goes to r: txn_sum_slot()), so
 * its record keeps the count of contributions its partial holds, and the
 * partial is one word: their inputs' wrapping sum plus their contributors'
 * hashes (txn_contrib_hash()).  The hashes seal the sum: a result whose
 * count is right but whose set is not differs from its inputs plus their
 * hashes except by a 2^-64 chance, and verification takes them out again.
 *
 * A combining slot is 16 bytes: the partial's low word in tag, its high
 * word in part_hi[], and the count in loc's bits [cshift, 30), above the
 * vertex, where the network leaves room for both (txn_count_shift());
 * elsewhere in cnt[] (20 bytes).  A count stays below its field's ones
 * (at most n), so a live loc is never a sentinel; cbits is 0 in every
 * other run, where loc is the vertex and its marks alone.
 */
enum txn_dest_by {
	TXN_DEST_TAG,		/* pk[].tag */
	TXN_DEST_NONE,		/* a data or prefix sum: every partial is everyone's */
	TXN_DEST_ROOT,		/* p.root */
	TXN_DEST_SLOT,		/* slot mod n */
};

/*
 * The per-link queues, as the engine writes them; struct txn_engine has
 * the arrays a schedule reads, as pointers to const.
 */
struct txn_lane_keys {
	u32 head, tail;
};

struct txn_queues {
	u32 *qhead, *qtail;		/* FIFO per out-link */
	u32 *pq;			/* pq_keys * links: each bucket's head */
	u64 *pq_bits;			/* per link: bit k set while bucket k holds packets */
	/*
	 * per vertex, where some vertex has more than TXN_WIDE_PORTS links
	 * (else NULL): at least the largest pq_bits of its links, raised by
	 * every push, exact after a single-port pick weighed them all
	 */
	u64 *pq_node_max;
	u32 *pq_len;			/* per link: packets on its priority or sorted queue */
	u32 *ahead, *atail;		/* per link: the arrivals' lane of a sorted queue */
	struct txn_lane_keys *sqk;	/* per link and lane (own, arrivals): their keys */
	u64 *active;			/* bit per link: something queued on it */
	u64 *active_sum;		/* bit per word of active[]: not all zero */
	u32 *qlen, *qmax;		/* per vertex */
};

struct txn_ledger {
	/*
	 * What schedules are handed, instead of the caller's struct txn_engine
	 * (the owner): a copy the engine refreshes before it calls the schedule
	 * and compares after (txn_view_check()).  The engine reads only the
	 * owner, which no schedule is given, and finds the owner from a view by
	 * where the view lives, not by any pointer a schedule could rewrite.
	 */
	struct txn_engine view;
	struct txn_engine expect;	/* what the view must be, field by field to v */
	struct txn_engine *owner;
	struct txn_queues q;
	/*
	 * The view's graph: the caller's numbers, and a copy of its arrays
	 * (gfirst, gsrc, gdst, grev, gline), so that a schedule writing them
	 * misleads only itself; the engine checks moves against the caller's.
	 */
	struct txn_graph graph;
	u32 *gfirst, *gsrc, *gdst, *grev, *gline;
	struct txn_run_params p;	/* the engine's own copy, values -> vals */
	u32 kind;			/* enum txn_kind */
	bool tagged;			/* combining: packets belong to one result */
	bool copies;			/* txn_copy() allowed */
	bool open;			/* user ports: packets come and go */
	bool hints;			/* sched->arrive_ahead() still wants hints this run */
	bool choosing;			/* inside sched->choose(): a violation names its next move */
	u32 nmsgs;			/* broadcast: messages */
	u64 tick, delivered, expected, transmissions, copies_made, merges, injected;
	u64 progress_tick, stall_limit;
	u64 salt;			/* contributor hashes: the run's secret, from the RNG */

	u8 *payload;			/* per slot, p.payload bytes */
	struct txn_pkt *pk;		/* per slot */
	u32 *part_hi;			/* per slot, combining: its sealed sum's high word */
	u32 *cnt;			/* ... its count, where loc has no room for it */
	u32 cbits, cshift;		/* ... where loc keeps it: the field's mask, its shift */
	u32 *maxid;			/* per slot, prefix sum: its largest contributor */
	u32 free;			/* free slots, chained through pk[].tag */

	u64 *stamp;			/* per link: last tick it carried a packet */
	u64 *sent_at, *recv_at;		/* per vertex, single-port */
	struct txn_move *arrivals;	/* moves that ended at a relay this tick, as checked */
	struct txn_landed *landed;	/* ... with onward(): the packets, for onward_all() */

	u32 *recvd;			/* per processor: packets received */
	u64 *have;			/* broadcast: bit msg * n + node */
	u64 *res;			/* per processor, combining: its result (sealed) */
	u32 *res_count;			/* ... and its contributions */
	bool unsealed;			/* verified: res[] holds the sums alone */
	s64 *vals;			/* the inputs, copied */

	u32 *src, *len, *sum;		/* open traffic: per slot */
	u32 *dests;			/* permutation: the request's, copied */
	u64 *down;			/* per link, a bit: down (txn_engine_set_down) */
	u32 ndown, reroutes;
	u64 reroute_charged;		/* sched->reroute_bytes, charged at the first fault */
	u64 dropped;			/* open traffic: lost to faults */
	u64 *hops;			/* open traffic: per link, the packets it carried */
	const struct txn_taken *taken;	/* open traffic beside a run: its tick's links, ports */
	struct txn_series *series;	/* the caller's, recorded into each tick; or NULL */
	struct txn_log *log;		/* the caller's, the moves of each tick kept in; or NULL */
	u32 dest_by;			/* enum txn_dest_by */
	u32 dest_n;			/* TXN_DEST_SLOT: the processors */
	u64 dest_mul;			/* ... and 2^64 / n, rounded up (txn_mod()) */
};

int txn_violate(struct txn_engine *e, u64 tick, u32 node, u32 pkt, const char *rule);
/* The violation was move @i of its tick's: say so.  -EPROTO. */
int txn_violation_move(struct txn_engine *e, u32 i);

/*
 * The owner of @view, the struct txn_engine a schedule was handed: found
 * by the view's place in its ledger, so that nothing a schedule writes
 * leads the engine anywhere else.  Every function a schedule may call
 * starts here; one given the owner itself must not.
 */
static inline struct txn_engine *txn_trusted(const struct txn_engine *view)
{
	const char *at = (const char *)view - offsetof(struct txn_ledger, view);

	return ((const struct txn_ledger *)at)->owner;
}

/* The view of owner @e: what the engine hands the schedule. */
static inline struct txn_engine *txn_view_of(const struct txn_engine *e)
{
	return &e->ledger->view;
}

/*
 * After the engine changed what a view shows (not its counters, which
 * txn_engine_mirror() keeps): the view made what the owner is, the
 * schedule's own fields (nmoves, priv, sched_state) left as they are.
 * After the schedule ran: the view compared with what it must be; a
 * field the schedule wrote fails the run, naming it.  0 or -EPROTO.
 */
void txn_view_refresh(struct txn_engine *e);
int txn_view_check(struct txn_engine *e, u64 t);
/* At the end: whether the view's graph is still the network's (O(links)): 0 or -EPROTO. */
int txn_view_check_graph(struct txn_engine *e, u64 t);
int txn_engine_charge_reroute(struct txn_engine *e);

/* Hash of contributor @i, which seals its inputs (enum txn_dest_by). */
static inline u64 txn_contrib_hash(const struct txn_ledger *ledger, u32 i)
{
	return txn_mix64(ledger->salt ^ ((u64)i * 0x9e3779b97f4a7c15ULL));
}

/*
 * @a mod @d, by @mul = 2^64 / @d rounded up (0 for 1): a multiply, not a
 * division, on the way of every multinode accumulation's hop (Lemire,
 * Kaser and Kurz, "Faster Remainder by Direct Computation", 2019).
 */
static inline u32 txn_mod(u32 a, u64 mul, u32 d)
{
	return (u32)mul_u64_u64_shr(mul * a, d, 64);
}

/* Where slot @pkt's packet came from: txn_pkt_src() of the owner. */
u32 txn_slot_src(const struct txn_engine *e, u32 pkt);

/* Where a combining slot's packet is bound (enum txn_dest_by). */
u32 txn_sum_dest(const struct txn_ledger *ledger, u32 pkt);

/*
 * Where slot @pkt's packet is bound: a processor, a message, or TXN_NONE.
 * Only the tag test is inline: with the rest out of line the move loop
 * stays small enough for the compiler to specialise it around this test,
 * which it does not do with all of it inline.
 */
static inline u32 txn_slot_dest(const struct txn_ledger *ledger, u32 pkt)
{
	return ledger->dest_by == TXN_DEST_TAG ? ledger->pk[pkt].tag : txn_sum_dest(ledger, pkt);
}

/* Contributions processor @r's result must end with, and whether @i is one. */
u32 txn_result_size(const struct txn_ledger *ledger, u32 n, u32 r);
bool txn_contributes(const struct txn_ledger *ledger, u32 i, u32 r);

/* The origin of broadcast message @msg. */
static inline u32 txn_msg_origin(const struct txn_ledger *ledger, u32 msg)
{
	return ledger->nmsgs == 1 ? ledger->p.root : msg;
}

/* Slot @pkt's record and partial, about to be read: txn_pkt_prefetch() and the arrivals' hints. */
static inline void txn_slot_prefetch(const struct txn_ledger *ledger, u32 pkt)
{
	txn_prefetch(&ledger->pk[pkt]);
	if (ledger->part_hi)
		txn_prefetch(&ledger->part_hi[pkt]);
}

/* A loc less a combining slot's count: a vertex and its marks, or TXN_LOC_*. */
static inline u32 txn_loc_uncounted(const struct txn_ledger *ledger, u32 loc)
{
	return loc == TXN_LOC_GONE || loc == TXN_LOC_FREE ? loc : loc & ~ledger->cbits;
}

/*
 * The same where the caller has the count's bits, @cbits, at hand: the
 * move loop is compiled once with 0 for them (no count in any loc) and
 * once with the run's, so that the plain case masks nothing.
 */
static __always_inline u32 txn_loc_strip(u32 loc, u32 cbits)
{
	return loc & ~cbits;
}

/* Whether two locs name one place (vertex and marks), whatever their counts. */
static __always_inline bool txn_loc_same(u32 a, u32 b, u32 cbits)
{
	return !((a ^ b) & ~cbits);
}

/* @loc moved to vertex @to in tick @t: its count kept, its mark the tick's. */
static __always_inline u32 txn_loc_moved(u32 loc, u32 cbits, u32 to, u64 t)
{
	return (loc & cbits) | to | txn_loc_mark(t);
}

/* @loc with its move's mark cleared: its vertex and count stay. */
static __always_inline u32 txn_loc_unmarked(u32 loc)
{
	return loc & ~TXN_LOC_MARKS;
}

/* ... and without the marks: the vertex of a live slot. */
static inline u32 txn_loc_vertex(const struct txn_ledger *ledger, u32 loc)
{
	return loc & ~(ledger->cbits | TXN_LOC_MARKS);
}

/* Combining: the contributions slot @pkt's partial holds, and their sealed sum. */
static inline u32 txn_slot_count(const struct txn_ledger *ledger, u32 pkt)
{
	if (ledger->cnt)
		return ledger->cnt[pkt];
	return (ledger->pk[pkt].loc & ledger->cbits) >> ledger->cshift;
}

static inline void txn_slot_set_count(struct txn_ledger *ledger, u32 pkt, u32 count)
{
	if (ledger->cnt)
		ledger->cnt[pkt] = count;
	else
		ledger->pk[pkt].loc = txn_loc_strip(ledger->pk[pkt].loc, ledger->cbits) |
				      count << ledger->cshift;
}

static inline u64 txn_slot_part(const struct txn_ledger *ledger, u32 pkt)
{
	return (u64)ledger->part_hi[pkt] << 32 | ledger->pk[pkt].tag;
}

static inline void txn_slot_set_part(struct txn_ledger *ledger, u32 pkt, u64 part)
{
	ledger->pk[pkt].tag = (u32)part;
	ledger->part_hi[pkt] = (u32)(part >> 32);
}

static inline bool txn_bit(const u64 *bits, u64 i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

/* Fold slot @pkt's partial into processor @node's result at tick @t: 0 or -EPROTO. */
int txn_fold_part(struct txn_engine *e, u64 t, u32 node, u32 pkt);

/* Where loc keeps a combining slot's count on @g: its shift, or 0 (cnt[]). */
u32 txn_count_shift(const struct txn_graph *g);

/* Give slot @pkt back to the free list. */
void txn_slot_free(struct txn_ledger *ledger, u32 pkt);

/* Broadcast: whether copy @pkt, at a processor, is one its processor may drop. */
static inline bool txn_copy_spare(const struct txn_ledger *ledger, u32 n, u32 pkt)
{
	u32 v = ledger->pk[pkt].loc;

	return ledger->kind == TXN_BROADCAST && v < n &&
	       txn_bit(ledger->have, (u64)ledger->pk[pkt].tag * n + v);
}

/*
 * The moves array's entries past its room (max_moves), zeroed, that
 * land() reads ahead into without a check on each move.
 */
#define MOVES_AHEAD 8
/* ... where the packet records pass a core's cache (1 MiB here); smaller ones the pops left warm */
#define MOVES_AHEAD_BYTES (1ULL << 20)

/* FNV-1a: enough to catch a changed byte, cheap to compute twice. */
static inline u32 txn_checksum(const u8 *b, u32 len)
{
	u32 h = 2166136261U, i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 16777619U;
	return h;
}

/*
 * Every array of a closed run of @p, or of open traffic with @slots packet
 * slots, allocated as txn_engine_bytes() and txn_engine_open_bytes()
 * predicted them: 0, or a negative errno with nothing left allocated.
 */
int txn_engine_alloc_run(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p);
int txn_engine_alloc_open(struct txn_engine *e, const struct txn_graph *g,
			  const struct txn_sched *s, const struct txn_run_params *p, u32 slots);

/*
 * The engine's counters copied where the shell and schedules read them,
 * and into what the view must be: only once the view was checked, since
 * this overwrites what a schedule may have written to its copies.  The
 * second, mid-tick, for the schedule alone, adds what changed instead.
 */
void txn_engine_mirror(struct txn_engine *e);
void txn_view_mirror(struct txn_engine *e);

/* The rule a test asked the engine to break this tick (engine_break.c). */
void txn_inject_fault(struct txn_engine *e);

#endif /* TXN_CORE_ENGINE_IMPL_H */
