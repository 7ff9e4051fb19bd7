/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tick engine: the only code that moves, copies and combines packets.
 *
 * The timing model (Documentation/txnet-engine.rst) in short: in one tick
 * every directed link carries at most one packet; a packet that arrives in
 * tick t leaves again in t+1 at the earliest; under the single-port model a
 * processor sends at most one and receives at most one packet per tick.  What a
 * packet is depends on the operation (Documentation/txnet-engine.rst):
 *
 * - unicast (total exchange, scatter, gather): a packet goes from its source
 *   to its destination and is consumed on arrival there;
 * - broadcast (broadcast, multinode broadcast): a packet is a copy of a
 *   message; a processor it reaches receives the message (exactly once) and
 *   keeps the packet, which it may send on, copy or drop, and the message,
 *   of which it may make a copy afresh at any later tick;
 * - combining (accumulate, multinode accumulate, prefix sum, data sum): a
 *   packet is a partial result: a set of contributions and their sum.  For
 *   accumulations it is folded into its result on arrival at the result's
 *   node; for prefix and data sums the schedule folds it with txn_fold().
 *
 * Schedulers propose; the engine checks and records.  A schedule is
 * handed a view (engine_view.c): a struct txn_engine of its own, which the
 * engine refreshes before it calls the schedule and compares after; the
 * caller's struct, the graph the moves are checked against, the moves as
 * checked and every counter are the engine's, and no schedule is given
 * them.  Each tick a scheduler
 * appends moves (packet, link) to e->moves and may call txn_copy(),
 * txn_copy_msg(), txn_drop_copy(), txn_merge() and txn_fold(); the engine
 * checks every proposal against the rules and fails the run on the first
 * one broken.  Where each packet is, what it carries, what was delivered
 * and every combined value live in engine-private state (struct
 * txn_ledger, engine_impl.h) that schedulers cannot name: at the end they
 * are compared with what the inputs alone say they must be.
 */
#ifndef TXN_CORE_ENGINE_H
#define TXN_CORE_ENGINE_H

#include "shim.h"
#include "topology.h"

#define TXN_NONE		((u32)~0U)
#define TXN_MAX_PAYLOAD		4096
#define TXN_MOVES_SLACK		8
#define TXN_PQ_KEYS_MAX		64	/* a link's buckets are the bits of one word */

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
struct txn_ledger;
struct txn_move;
struct txn_run_params;
struct txn_script;

/* A unicast schedule's onward(): see struct txn_sched. */
typedef u64 txn_onward_fn(const struct txn_engine *e, u32 pkt, u32 link, u32 dst);

/* A packet that came over @link to @at this tick, bound for @dst: onward_all()'s input. */
struct txn_landed {
	u32 pkt;
	u32 link;
	u32 at;			/* the link's head, where the packet is now */
	u32 dst;
};
typedef u32 txn_sq_key_fn(const struct txn_engine *e, u32 link, u32 dst);

/* What a scheduler is: a policy over the engine's queues. */
struct txn_sched {
	u32 algo;			/* enum txnet_algo */
	const char *name;
	/* Queue the initial packets; 0 or -errno. */
	int (*start)(struct txn_engine *e);
	/* Propose this tick's moves (txn_move), copies and merges. */
	void (*choose)(struct txn_engine *e);
	/*
	 * @pkt came over @link and was not consumed there (a relay, a switch,
	 * or a broadcast copy the node keeps): queue it onward or keep it.
	 */
	void (*arrive)(struct txn_engine *e, u32 pkt, u32 link);
	/*
	 * Optional, with arrive: a hint, once an arrival, that the moves
	 * @far and @near are 12 and 6 arrivals from being handed to arrive():
	 * @far's packet record is being read, and what the hint for @far
	 * prefetched the last time is being read for @near.  The schedule may
	 * prefetch what arrive() will read for them, in two steps where one
	 * address is read from another.  It must not change anything.  False:
	 * this run has no use for hints, and gets no more.
	 */
	bool (*arrive_ahead)(const struct txn_engine *e, const struct txn_move *far,
			     const struct txn_move *near);
	/*
	 * Instead of arrive, for unicast schedules: txn_way(link, key), the
	 * link @pkt (bound for @dst) leaves on next, which the engine queues
	 * it on (one call a hop, not two): on the FIFO, on the priority
	 * queue under key when the schedule has pq_keys, or in the arrivals'
	 * lane of the sorted queue under key, as it is, when it has sq_key.
	 */
	txn_onward_fn *onward;
	/*
	 * Optional, with onward and pq_keys: the tick's @n landed packets at
	 * once, ways[i] onward()'s answer for @landed[i], every one weighed on
	 * the queues as the tick's pops left them (the engine queues them all
	 * after): one call a tick, so that a schedule that serves many
	 * networks chooses its loop once, and the hops of its loop overlap.
	 * It must not change anything but ways[].
	 */
	void (*onward_all)(const struct txn_engine *e, const struct txn_landed *landed, u32 n,
			   u64 *ways);
	/* Open traffic: route a newly injected @pkt (at its source); 0 or -errno. */
	int (*inject)(struct txn_engine *e, u32 pkt);
	/* Free what start allocated in e->priv; may be NULL. */
	void (*fini)(struct txn_engine *e);
	/*
	 * Bucket count per link for txn_pq_*, 0 when only FIFOs are used; at
	 * most 64.  @p: the run's parameters, NULL for open traffic.
	 */
	u32 (*pq_keys)(const struct txn_graph *g, const struct txn_run_params *p);
	/*
	 * For txn_sq_*, where keys have no small bound: how urgent a packet
	 * bound for @dst is on @link (larger leaves first), of those two
	 * alone: it is asked in the middle of the engine's passes.  NULL when
	 * they are not used.
	 */
	txn_sq_key_fn *sq_key;
	/*
	 * Bytes start and inject allocate at most for @npkts packet slots of
	 * operation @op under port model @port (open traffic: all-port, its
	 * model may change as it runs); may be NULL.
	 */
	u64 (*priv_bytes)(const struct txn_graph *g, u32 op, u32 port, u64 npkts);
	/*
	 * Faults (txn_engine_set_down()): the links that are down changed;
	 * rebuild whatever routes packets so that none takes a link that is
	 * down (txn_link_down()).  0, or -errno when this run cannot route
	 * around them.  NULL: a fixed schedule, whose run fails when a link
	 * it may use goes down.
	 */
	int (*reroute)(struct txn_engine *e);
	/*
	 * Bytes reroute() (and a start around links already down) may
	 * allocate, past priv_bytes: charged when a run first has links down,
	 * not by every run; may be NULL.  @port: the run's port model.
	 */
	u64 (*reroute_bytes)(const struct txn_graph *g, u32 op, u32 port);
	/*
	 * ... after which the engine takes every queued packet off its queue
	 * and asks this where it goes on from @v (txn_way()), TXN_NO_LINK
	 * when it cannot reach @dst any more, TXN_WAY_KEEP when it is to rest
	 * at @v, on no queue (a packet the schedule leaves never arrives, and
	 * the run fails as it stalls), TXN_WAY_DROP for a broadcast copy at a
	 * processor that has its message (one whose child will have it
	 * another way).
	 */
	u64 (*way_from)(const struct txn_engine *e, u32 pkt, u32 v, u32 dst);
};

/*
 * The caller's memory budget, for what a run takes only when it needs it
 * (tables to route around links that go down): charge() returns 0 or
 * -ENOSPC.  The core keeps no budget of its own, so that the kernel's
 * (mem_budget, shared by every network) and a test's are the caller's.
 */
struct txn_budget {
	int (*charge)(u64 bytes);
	void (*uncharge)(u64 bytes);
};

struct txn_run_params {
	u32 op;				/* enum txnet_op */
	u32 port_model;			/* enum txnet_port_model */
	u32 payload;			/* bytes per packet: unicast and broadcast only */
	u64 seed;
	u32 fault;			/* enum txn_fault: test-only rule breaking */
	u32 root;			/* operations with a root */
	const s64 *values;		/* combining: the inputs, or NULL: random ones */
	u32 nvalues;
	u64 values_seed;		/* random values 0..999 when values is NULL */
	u64 max_ticks;			/* fail past this many ticks; 0: no limit */
	u64 config;			/* algo latin: the index l of S^l ([Massini03]) */
	const u32 *config_rows;		/* ... or M itself (latin.h); only start() reads it */
	const u32 *dests;		/* permutation: processor i's message goes to dests[i] */
	u32 ndests;
	/*
	 * Links down as the run starts (a bit a link), or NULL: a schedule
	 * that routes around faults (reroute()) is built around them; only
	 * init reads it.  Changes later go to txn_engine_set_down().
	 */
	const u64 *down;
	const struct txn_budget *budget;	/* or NULL: nothing charged */
	/* algo replay: the moves to propose (script.h), the caller's, unchanged until the run ends */
	const struct txn_script *script;
};

/*
 * Whether a permutation sends processor @i's message to @d over the
 * network: a message to oneself is already there, except on a MIN, where
 * a processor's only way from its input to its own output is through the
 * switches ([Massini03]'s permutations are of all N inputs); a MIN of two
 * has no line from a processor back to itself, and sends none.
 */
static inline bool txn_perm_sends(const struct txn_graph *g, u32 i, u32 d)
{
	return d != i || (g->min_topo && g->procs > 2);
}

/* What an operation is (ops.c); names as txctl spells them. */
bool txn_op_valid(u32 op);
const char *txn_op_name(u32 op);
u32 txn_op_from_name(const char *name);
bool txn_op_has_root(u32 op);
bool txn_op_combines(u32 op);
bool txn_op_copies(u32 op);
/* Inputs a combining operation takes on @n processors: n, or n*n; 0 for others. */
u64 txn_op_nvalues(u32 op, u32 n);
/*
 * Packet slots a run of @op on @n processors with @plinks links out of
 * them has, 0 when too many for 32 bits.
 */
u64 txn_op_slots(u32 op, u32 n, u32 plinks);
/* txn_op_slots()'s @plinks on @g: the links that leave processors. */
u32 txn_slot_links(const struct txn_graph *g);
/* What a verified run delivers: packets received, or contributions folded. */
u64 txn_op_units(u32 op, u32 n);

/*
 * Check @p for a run on @g before anything is allocated: 0, or -EINVAL with
 * *@why naming the field (root, values, payload, op, port model), or -E2BIG
 * when the run cannot be represented (too many packets for 32 bits).
 */
int txn_run_check(const struct txn_graph *g, const struct txn_run_params *p, const char **why);

/* The input value of processor @i for result @r, as the engine reads it. */
s64 txn_input_value(const struct txn_run_params *p, u32 n, u32 i, u32 r);

/* The first rule a run broke. */
struct txn_violation {
	u64 tick;
	u32 node;
	u32 pkt;
	const char *rule;
	/* two packets on one line (link): the link, and the packet that took it first */
	u32 link, other;
	/*
	 * The tick's move that broke it, counted from 0 in the order the
	 * schedule proposed them; while it chose, the move it was about to
	 * propose.  TXN_NONE when the rule is not one move's.
	 */
	u32 move;
};

/*
 * The engine, as its caller holds it (the owner) and as a schedule is
 * handed it (the view, engine_view.c): a schedule's writes to anything
 * but nmoves (through txn_move()), priv and sched_state fail its run; of
 * the arrays, a view has only those the inline helpers below read.
 */
struct txn_engine {
	/*
	 * From here to v, what a schedule reads and must not write: the
	 * view is compared with what the engine made it (engine_view.c) in
	 * one sweep, so these come first and together.
	 */
	const struct txn_graph *g;
	const struct txn_sched *sched;
	/* A copy for schedulers to read; the engine checks against its own. */
	struct txn_run_params p;
	u32 n;				/* processors */
	u32 npkts;			/* packet slots */

	/*
	 * The queues, to read: the engine writes them (struct txn_queues,
	 * engine_impl.h), through its own pointers; the chains themselves
	 * (heads, tails, buckets) are not here at all (txn_queue_head()).
	 */
	u32 pq_keys;			/* buckets per link, 0 if unused */
	const u64 *pq_bits;		/* per link: bit k set while bucket k holds packets */
	const u32 *pq_len;		/* per link: packets on its priority or sorted queue */
	const u64 *active;		/* bit per link: something queued on it */
	const u64 *active_sum;		/* bit per word of active[]: not all zero */
	const u32 *qlen, *qmax;		/* per vertex: packets queued, and the most */

	struct txn_move {
		u32 pkt;
		u32 link;
	} *moves;			/* txn_move() appends; nmoves, below, counts */
	u32 max_moves;
	u64 *ways;			/* onward_all()'s answers, max_moves of them */

	/* Read-only mirrors of the engine's own counters, for schedulers and the shell. */
	u64 tick;			/* ticks completed */
	u64 delivered;			/* units, see txn_op_units() */
	u64 expected;
	u64 transmissions;
	u64 copies, merges;
	u64 injected;			/* open traffic: packets put in */
	u64 dropped;			/* open traffic: packets no way leads to any more */

	/* open traffic: slots delivered in the last tick, for the shell */
	u32 *done;
	/*
	 * open traffic: slots the last txn_engine_set_down() dropped (their
	 * destination unreachable), which the shell counts and releases
	 */
	u32 *lost;
	struct txn_ledger *ledger;	/* the engine's own record: engine_impl.h; NULL in a view */

	/* What the shell reads, which the engine never reads back from a view. */
	struct txn_violation v;
	bool failed;
	u32 ndone, nlost;

	/* The schedule's own. */
	u32 nmoves;
	void *priv;			/* the scheduler's state */
	u64 sched_state[4];		/* small scheduler state, no allocation */
};

/*
 * Bytes txn_engine_init() / txn_engine_init_open() will allocate, the
 * schedule's own included; the shell charges them first.  What routing
 * around faults takes (sched->reroute_bytes) the engine charges itself
 * when a run first has links down, to the caller's budget (p->budget).
 */
u64 txn_engine_bytes(const struct txn_graph *g, const struct txn_sched *s,
		     const struct txn_run_params *p);
u64 txn_engine_open_bytes(const struct txn_graph *g, const struct txn_sched *s, u32 payload,
			  u32 slots);

/*
 * Both return 0, -ENOMEM, -EINVAL, or -E2BIG when one of the arrays would
 * be larger than TXN_ARRAY_MAX bytes (nothing is allocated then).
 *
 * Open traffic (user ports): packets come and go.  inject returns the
 * slot (>= 0) or -EINVAL / -ENOBUFS (all slots taken); after a tick the
 * slots in done[0 .. ndone-1] were delivered, checksum verified, and the
 * caller copies each out with txn_engine_data() and gives it back with
 * txn_engine_release().
 */
int txn_engine_init(struct txn_engine *e, const struct txn_graph *g,
		    const struct txn_sched *s, const struct txn_run_params *p);
void txn_engine_free(struct txn_engine *e);
/*
 * A fresh engine with @e's schedule, parameters and inputs and nothing
 * down: what @e's run does on the whole network (its bytes, first).
 */
u64 txn_engine_bytes_like(const struct txn_engine *e);
int txn_engine_init_like(struct txn_engine *b, const struct txn_engine *e);
int txn_engine_init_open(struct txn_engine *e, const struct txn_graph *g,
			 const struct txn_sched *s, const struct txn_run_params *p, u32 slots);
int txn_engine_inject(struct txn_engine *e, u32 src, u32 dst, const void *data, u32 len);
const u8 *txn_engine_data(const struct txn_engine *e, u32 pkt, u32 *len);
void txn_engine_release(struct txn_engine *e, u32 pkt);
/* The shell changes the port model of open traffic between ticks. */
void txn_engine_set_port_model(struct txn_engine *e, u32 port_model);

/*
 * Record every tick from now on into @s (series.h), which the caller set
 * up for this graph and frees after the engine.
 */
struct txn_series;
void txn_engine_record(struct txn_engine *e, struct txn_series *s);

/*
 * Faults: @down has a bit per link (words of 64), set while the link is
 * down; the engine keeps its own copy, read now, between two ticks.  A
 * move over a link that is down breaks a rule.  When links went down or
 * came up, a schedule with reroute() routes around them and the engine
 * requeues every queued packet where way_from() says (open traffic: one
 * that can no longer arrive is dropped, in e->lost); a run whose schedule
 * cannot (fixed schedules, trees) fails at once, e->v.link naming the
 * first link that went down.  0, or -EPROTO when the run failed.
 */
int txn_engine_set_down(struct txn_engine *e, const u64 *down);
bool txn_link_down(const struct txn_engine *e, u32 link);
/* Links down, and how many times a run was routed around faults. */
u32 txn_engine_links_down(const struct txn_engine *e);
void txn_engine_copy_down(const struct txn_engine *e, u64 *to);
u32 txn_engine_reroutes(const struct txn_engine *e);
/*
 * Open traffic: per link, the packets it has carried (the tick's writer
 * adds; another thread reads an entry with READ_ONCE); NULL for a run.
 */
const u64 *txn_engine_link_hops(const struct txn_engine *e);

/*
 * Open traffic beside a run: what the run took in the tick about to be
 * run, which the traffic must leave alone (the run goes first): a bit per
 * line (per link where links have no shared lines) and, single-port, per
 * vertex that sent and that received.  The caller's, read during the next
 * txn_engine_tick() only; NULL: nothing taken.
 */
struct txn_taken {
	const u64 *lines, *sent, *recv;
};
void txn_engine_set_taken(struct txn_engine *e, const struct txn_taken *taken);
/* Whether the next tick's run took line (or link) @lid, vertex @v's sending or receiving. */
bool txn_line_taken(const struct txn_engine *e, u32 lid);
bool txn_sent_taken(const struct txn_engine *e, u32 v);
bool txn_recv_taken(const struct txn_engine *e, u32 v);

/*
 * Advance one tick.  Returns 1 when everything was delivered, 0 to go on,
 * -EPROTO when a rule was broken (e->v says which).  Ticks in which nothing
 * moves are legal; a run that delivers nothing for a bounded number of
 * ticks fails with "no progress", one that passes p.max_ticks with "tick
 * limit".
 */
int txn_engine_tick(struct txn_engine *e);

/*
 * After the last tick: every processor received exactly what the inputs
 * say (every packet once, payloads intact, every combined value equal to
 * the sum computed afresh from the inputs).
 */
int txn_engine_verify(struct txn_engine *e);

/*
 * After txn_engine_verify(): a run that took fewer ticks than @lower, a
 * lower bound proven for it (bounds.h), fails: "below the proven lower
 * bound", an engine failure.  0 or -EPROTO.
 */
int txn_engine_check_bound(struct txn_engine *e, u64 lower);

/* What processor @node ended with (combining operations); false if none. */
bool txn_engine_value(const struct txn_engine *e, u32 node, s64 *value);

/*
 * What a scheduler may ask about a packet: where it is (a vertex, or
 * TXN_NONE once consumed or free), where it goes (unicast: its destination;
 * accumulations: the result's node; broadcast: the message, i.e. its
 * origin for a multinode broadcast; prefix and data sums: TXN_NONE), where
 * it came from (unicast and broadcast), and how many contributions it
 * carries (combining).
 */
u32 txn_pkt_loc(const struct txn_engine *e, u32 pkt);
u32 txn_pkt_dst(const struct txn_engine *e, u32 pkt);
u32 txn_pkt_src(const struct txn_engine *e, u32 pkt);
/* A hint: @pkt is about to be named (its record and partial prefetched). */
void txn_pkt_prefetch(const struct txn_engine *e, u32 pkt);
u32 txn_pkt_count(const struct txn_engine *e, u32 pkt);
/* Broadcast: whether processor @node has received (or originated) message @msg. */
bool txn_has_msg(const struct txn_engine *e, u32 node, u32 msg);
/* Combining: contributions processor @node's result still lacks. */
u32 txn_result_missing(const struct txn_engine *e, u32 node);

/*
 * Proposals that take effect at once (they cost no tick): a copy of @pkt
 * at the processor that holds it (the new slot, or TXN_NONE after a
 * violation); @from merged into @into (same processor, same result); @pkt
 * folded into the result of the processor that holds it.  0 or -EPROTO.
 */
u32 txn_copy(struct txn_engine *e, u32 pkt);
/*
 * Broadcast: a copy of message @msg made afresh at @node, which has it (the
 * new slot, or TXN_NONE after a violation); copy @pkt, on no queue, freed
 * by its processor, which has its message (0 or -EPROTO).  A prefix or
 * data sum's partial, which may be copied, may be dropped by the
 * processor that holds it too.
 */
u32 txn_copy_msg(struct txn_engine *e, u32 node, u32 msg);
int txn_drop_copy(struct txn_engine *e, u32 pkt);
int txn_merge(struct txn_engine *e, u32 into, u32 from);
int txn_fold(struct txn_engine *e, u32 pkt);

/*
 * A schedule that cannot go on (a replayed script names a packet nowhere
 * to be sent) fails its own run with @rule at @node, and @link when the
 * rule is a link's (else TXN_NONE): it can fail a run, never pass one.
 * Always -EPROTO.
 */
int txn_sched_refuse(struct txn_engine *vw, u32 node, u32 link, const char *rule);

/* Total exchange: the slot of packet (src, dst). */
static inline u32 txn_pkt_id(const struct txn_engine *e, u32 src, u32 dst)
{
	return src * (e->n - 1) + (dst < src ? dst : dst - 1);
}

/*
 * An accumulation, multinode accumulation or data sum: the slot of
 * processor @i's value for result @r (its own partial, until it is merged).
 */
static inline u32 txn_sum_slot(const struct txn_engine *e, u32 i, u32 r)
{
	return e->p.op == TXNET_OP_MULTINODE_ACCUMULATE ? i * e->n + r : i;
}

/*
 * Queue helpers for schedulers: FIFO per out-link, bucketed priority per
 * out-link.  A queue chains packets through a word of each packet's
 * record, which lives with the engine's own fields (one cache line a hop):
 * so the helpers are the engine's, and schedulers hold only packet
 * numbers.
 */
void txn_q_push(struct txn_engine *e, u32 link, u32 pkt);
u32 txn_q_pop(struct txn_engine *e, u32 link);
/* The first word of active[] from @w on with a bit set (by @active_sum), or @words. */
static inline u32 txn_next_word(const u64 *active_sum, u32 w, u32 words)
{
	u32 s = w / 64;
	u64 bits;

	if (w >= words)
		return words;
	bits = active_sum[s] & (~0ULL << (w % 64));
	while (!bits) {
		if (++s * 64 >= words)
			return words;
		bits = active_sum[s];
	}
	w = s * 64 + (u32)__builtin_ctzll(bits);
	return w < words ? w : words;
}

/*
 * The first link at or after @from with something queued, or TXN_NONE:
 * idle words are skipped 64 at a time by active_sum, so a pass over the
 * links with work costs what is queued, not the network's size.
 */
static inline u32 txn_next_active(const struct txn_engine *e, u32 from)
{
	u32 words = (e->g->links + 63) / 64, w = from / 64;
	u64 bits;

	if (w >= words)
		return TXN_NONE;
	bits = e->active[w] & (~0ULL << (from % 64));
	if (bits)
		return w * 64 + (u32)__builtin_ctzll(bits);
	w = txn_next_word(e->active_sum, w + 1, words);
	return w < words ? w * 64 + (u32)__builtin_ctzll(e->active[w]) : TXN_NONE;
}

/* The packet a pop of @link's queue would take, TXN_NONE when it has none. */
u32 txn_queue_head(const struct txn_engine *e, u32 link);

/*
 * The view a schedule of @e is handed: what the shell passes, where it
 * asks what a schedule asks (txn_pkt_src() of a failed run's packet).
 */
struct txn_engine *txn_engine_view(struct txn_engine *e);

/* The most urgent key queued on @link (0 when it has none). */
static inline u32 txn_pq_top(const struct txn_engine *e, u32 link)
{
	return 63 - (u32)__builtin_clzll(e->pq_bits[link] | 1);
}

/* Every link sends the head of its FIFO: all-port FIFO schedules' choose. */
void txn_q_send_heads(struct txn_engine *e);
/* ... every link in the bitmap @only ((links + 63) / 64 words): a subset's. */
void txn_q_send_heads_of(struct txn_engine *e, const u64 *only);
void txn_pq_push(struct txn_engine *e, u32 link, u32 key, u32 pkt);
u32 txn_pq_pop_max(struct txn_engine *e, u32 link);
/* txn_move() of txn_pq_pop_max(@link) over @link, in one call: single-port picks. */
void txn_pq_send_top(struct txn_engine *e, u32 link);
/* Every link sends its most urgent packet: all-port priority schedules' choose. */
void txn_pq_send_tops(struct txn_engine *e);
/*
 * Single-port, every node a processor with links of its own: from the node
 * owning link @from on (and round), each node with packets queued sends
 * its most urgent one over a link whose head has not received this tick;
 * @recv[v] is tick + 1 when processor v last received (the caller's, kept
 * here: V entries).  Of links as urgent, the first in port order wins; on
 * a node of more than 16 links, the first from port (node + tick) mod
 * degree on, so that nodes do not all try the same heads first.
 */
void txn_pq_send_tops_single(struct txn_engine *e, u32 from, u64 *recv);
/*
 * Sorted queues, for schedules whose keys have no small bound (sched->
 * sq_key says how urgent a packet is): no table of links x keys, only the
 * packets' own chain.  A link has two lanes, each in non-increasing key
 * order: the packets queued at their source (@arrival false) and those
 * that arrived; the more urgent head leaves.  A packet more urgent than
 * its lane's tail is put in its place by a walk, so the order holds
 * whatever a schedule does; appending costs O(1), and furthest-first on a
 * linear array always appends (sched_linear.c).
 */
void txn_sq_push(struct txn_engine *e, u32 link, u32 pkt, bool arrival);
void txn_sq_send_tops(struct txn_engine *e);
void txn_sq_send_tops_of(struct txn_engine *e, const u64 *only);

/* way_from(): the packet rests where it is. */
#define TXN_WAY_KEEP	(TXN_NO_LINK - 1)
/*
 * way_from(): a broadcast copy not needed any more, at a processor that
 * has its message: the engine checks that and frees it.
 */
#define TXN_WAY_DROP	(TXN_NO_LINK - 2)

/* What onward() returns: the link out, and the priority on it. */
static inline u64 txn_way(u32 link, u32 key)
{
	return (u64)key << 32 | link;
}

/* A move for this tick. */
static inline void txn_move(struct txn_engine *e, u32 pkt, u32 link)
{
	if (e->nmoves < e->max_moves) {
		e->moves[e->nmoves].pkt = pkt;
		e->moves[e->nmoves].link = link;
	}
	e->nmoves++;
}

/* The @len payload bytes packet (src, dst) carries in a run seeded @seed; and a check of them. */
void txn_payload_fill(u8 *b, u32 len, u64 seed, u32 src, u32 dst);
bool txn_payload_ok(const u8 *b, u32 len, u64 seed, u32 src, u32 dst);
u64 txn_mix64(u64 x);

#endif /* TXN_CORE_ENGINE_H */
