/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The general schedule's private state (struct gen) and the small helpers
 * its files share; sched_general.c says what the schedule does and why.
 */
#ifndef TXN_CORE_SCHED_GENERAL_H
#define TXN_CORE_SCHED_GENERAL_H

#include "sched.h"
#include "paths.h"
#include "topo_impl.h"

#define KEYS	64U	/* priority buckets: distances past 63 rank alike */
#define SCAN_STEPS	32	/* prefix sum: ceil(log2 n) <= 24 steps */
#define DTAB_K		64U	/* factors tabulated: k x k steps of 4 bytes, 16 KiB at most */
/*
 * Faults: unicast runs route around links that are down by tables of
 * searches that avoid them, n x V hops; past this size a run does not.
 */
#define REROUTE_BYTES_MAX	(16U << 20)

enum gen_hint { HINT_NONE, HINT_TREE, HINT_REDUCTION };
#define HINT_BYTES	(1024U * 1024)	/* about a core's L2 */
/* bytes an entry of a row: kid[] and sib[] (more than kids[]) and height[] ... */
#define TREE_ENTRY	(2 * sizeof(u32) + sizeof(u8))
#define HOLD_OWN	(TXN_NONE - 1)
#define NO_PORT		0xffffU	/* red_up(): none (at the result); ports are below it */
/* a compact reduction entry's way: the port up in its low bits, the key above */
#define RED_PORT_BITS	10
#define RED_NO_UP	((1U << RED_PORT_BITS) - 1)
_Static_assert(KEYS <= 1U << (16 - RED_PORT_BITS), "a key fits above the port");
/*
 * A multinode accumulation's trees re-chosen against each other's loads,
 * all of them twice: 10-cube 461 -> 121 ticks (bound 103) after one pass
 * and after two, 32x32 torus 493 -> 287 -> 268 (256)
 */
#define BALANCE_PASSES	2

/*
 * A step from coordinate a towards b in one factor, read whole: each
 * field is what the hop adds, masks or moves by, with nothing to decode.
 */
struct dstep {
	u8 dist;		/* the factor's distance from a to b */
	s8 not0;		/* 0: a's first port in the factor is on a shortest path; -1: not */
	s8 not1;		/* ... its second (-1 where a has one port) */
	u8 width;		/* the ports a has in the factor */
};

struct gen {
	struct txn_paths paths;
	u32 vertices, n;
	bool switches;
	bool cube;		/* 2-node factors numbered bit by bit: port t flips bit t */
	bool tag;		/* a MIN: destination-tag routing, no tables (way_by_tag) */
	u8 hinted;		/* arrivals read rows of n (gen_arrive_ahead()) */
	u32 stages;		/* ... its log2 N */
	u32 center;
	/* rows: one per processor a table is kept for, row_of[] maps */
	u32 *row_of;
	/*
	 * rows x V: the way from each vertex towards the row's processor, in
	 * one record so that a hop reads one cache line.
	 */
	struct hop {
		u32 link;	/* the shortest-path tree's out-link */
		u8 dist;	/* min(distance, keys-1) */
		u8 prod;	/* out-ports 0..7 on a shortest path */
		u16 pad;
	} *route;
	u32 *via;		/* scratch: one search's tree */
	u32 keys;
	u32 trows;
	/*
	 * out-tree of one origin: the link to v's first child (gen_add_kid()),
	 * and from w's parent to the child after w (a copy visits the
	 * children, not every port: a complete graph's leaf has hundreds)
	 */
	u32 *kid, *sib;
	u16 *kids;		/* ... or, at most 16 ports a node, the ports to the children */
	u8 *height;		/* ... and the height of the subtree below */
	u32 *orow_of;
	u32 orows;
	/*
	 * reduction rows x V: what a partial for the row's result does at v
	 * (red_sub(), red_up(), red_dist()).  A multinode accumulation's n
	 * rows take 4 bytes an entry where its counts (n is at most 65,535:
	 * n^2 slots) and ports fit: red[]; a sum's one row, and rows whose
	 * ports do not fit, 8: red_wide[].  None with switches: there each
	 * partial crosses them whole, to its result (sub_at()).
	 */
	struct red {
		u16 sub;	/* the processors whose values merge at v */
		u16 way;	/* v's port up (RED_NO_UP: none), min(dist, keys-1) above */
	} *red;
	struct red_wide {
		u32 sub;
		u16 up;		/* NO_PORT: none */
		u8 dist;
		u8 pad;
	} *red_wide;
	/*
	 * The partial v collects for a result: v's own (txn_sum_slot()), but
	 * at the result (root_hold[], a result: the first to arrive, as its
	 * own is folded from the start; a data sum's centre keeps its own);
	 * after a mend, any (hold[], rows x V as red[], made at the first
	 * mend; HOLD_OWN: as if there were none).
	 */
	u32 *root_hold, *hold;
	u32 *crow_of;
	u32 crows;
	u32 *load;		/* building reduction rows: per link, the trees it is in */
	u32 *tgt;		/* per slot: the processor a copy is addressed to */
	u64 *line_at;		/* MINs, per line: tick + 1 it last carried a packet */
	u64 *sent, *recv;	/* single-port: tick + 1 a node last sent / received */
	/* doubling and the centre's work */
	u32 *holders, nholders;	/* processors that have the message */
	bool spread;		/* single-port broadcast: neighbour to neighbour */
	u8 *assigned;		/* spread: the message is on its way to it */
	u32 *rd;		/* spread: distance from the root */
	u32 next_target;	/* the next processor to send it to */
	u32 *got;		/* per processor: the copy it holds (doubling), its partial (scan) */
	u8 *stage;		/* scan: per processor, the step it is in */
	u8 *lev;		/* scan: per slot, the step a copy was sent in */
	u32 *inbox;		/* scan: per processor and step, the copy received */
	bool chain;		/* prefix sum along p -> p+1 */
	u32 *coord;		/* unicast on a product: V x ndims, port order */
	struct dstep *dtab;	/* rings and arrays up to DTAB_K: per factor, k x k steps */
	bool ringed;		/* ... or larger: their steps computed (ring_step) */
	u32 *drow;		/* ... V x ndims: where v's row of each factor's table starts */
	bool two_d;		/* ... and two factors: onward_2d routes */
	bool one_d;		/* a ring or linear array, of any size: onward_1d routes */
	/*
	 * Trees mended mid-run (tree_reroute()): for sums, a list of each
	 * result's slots (next_of[], made at the first mend) and, for a data
	 * sum's total, per slot the child a queued copy goes to (TXN_NONE: it
	 * rests where it is); a search's queue; for broadcasts, per processor
	 * whether it has the message and, set by a mend, whether the next
	 * choice sends messages down their mended trees afresh.
	 */
	u32 *to, *next_of, *first_of, *bq;
	u8 *state;
	bool mended;
	u64 *down;		/* faults: the links down, copied at each reroute ... */
	bool faulty;		/* ... and some are: route[] alone routes, not coordinates */
};

/*
 * A key a distance, up to the diameter; a single-port data sum's total
 * comes down its spread keyed by subtree heights (spread_tree()), which
 * on a complete graph reach log2 n with a diameter of 1: with two keys
 * its inner children ranked alike (complete 64: 17 ticks, not 12).
 */
static inline u32 gen_keys(const struct txn_graph *g, const struct txn_run_params *p)
{
	u32 keys = g->diameter + 1;

	if (p && p->op == TXNET_OP_DATA_SUM && p->port_model == TXNET_PORT_SINGLE &&
	    g->nodes == g->procs)
		keys += txn_min_log2(g->procs) + 1;
	return keys < KEYS ? keys : KEYS;
}

static inline u8 key_of(const struct gen *s, u32 d)
{
	return d < s->keys ? (u8)d : (u8)(s->keys - 1);
}

/* Which tables an operation needs: every processor's, or one. */
static inline bool all_toward(u32 op, bool switches)
{
	switch (op) {
	case TXNET_OP_GATHER:
	case TXNET_OP_ACCUMULATE:
		return false;
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
	case TXNET_OP_DATA_SUM:
		return switches;
	default:
		return true;
	}
}

static inline u32 orows_for(u32 op, u32 n, bool switches)
{
	if (switches)
		return 0;
	if (op == TXNET_OP_BROADCAST || op == TXNET_OP_DATA_SUM)
		return 1;
	return op == TXNET_OP_MULTINODE_BROADCAST ? n : 0;
}

static inline u32 crows_for(u32 op, u32 n)
{
	if (op == TXNET_OP_MULTINODE_ACCUMULATE)
		return n;
	return op == TXNET_OP_ACCUMULATE || op == TXNET_OP_DATA_SUM ? 1 : 0;
}

/*
 * Whether copies are addressed to one processor (tgt): a single-port
 * broadcast, a MIN's broadcasts, the sums' scan and centre.  Unicast
 * packets go where the engine says they go, and all-port broadcasts
 * down trees: for them no word a packet.
 */
static inline bool addressed(const struct txn_graph *g, u32 op)
{
	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
	case TXNET_OP_PERMUTATION:
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		return false;
	case TXNET_OP_MULTINODE_BROADCAST:
		return g->nodes > g->procs;
	default:
		return true;
	}
}

static inline bool unicast_op(u32 op)
{
	return op == TXNET_OP_TOTAL_EXCHANGE || op == TXNET_OP_SCATTER ||
	       op == TXNET_OP_GATHER || op == TXNET_OP_PERMUTATION;
}

/* A cartesian product without switches: coordinates say where a vertex is. */
static inline bool product_of_factors(const struct txn_graph *g)
{
	return g->ndims && g->nodes == g->procs;
}

/* Unicast on a product: routes from coordinates, no tables (way_by_coord). */
static inline bool by_coord(const struct txn_graph *g, u32 op)
{
	return product_of_factors(g) && unicast_op(op);
}

/*
 * An all-port prefix sum's addressed copies on a product go by coordinates
 * too: its n x V table took almost all of its start on a hypercube
 * for n log n packets, and coordinates weigh every shortest way on (18
 * ticks there, not 23).  Single-port, the table's ways, each search's
 * neighbours taken from a port of its own, keep a node's copies apart
 * better (torus 16 16: 64 ticks, 76 by coordinates).
 */
static inline bool scan_product(const struct txn_graph *g, u32 op, u32 port)
{
	return product_of_factors(g) && op == TXNET_OP_PREFIX_SUM && port == TXNET_PORT_ALL;
}

/* Routes from coordinates, no n x V table: unicast and an all-port scan on a product. */
static inline bool coordinates(const struct txn_graph *g, u32 op, u32 port)
{
	return by_coord(g, op) || scan_product(g, op, port);
}

/*
 * A MIN (min.c): every one is banyan, one path from each processor to
 * each, and the port out of stage k is a bit of the destination's tag.
 */
static inline bool by_tag(const struct txn_graph *g)
{
	return g->min_topo && g->procs > 2;
}

static inline bool tabled(const struct txn_graph *g)
{
	u32 t;

	for (t = 0; t < g->ndims; t++)
		if ((g->fkind[t] != TXNET_DIM_LINEAR && g->fkind[t] != TXNET_DIM_RING) ||
		    g->fsize[t] > DTAB_K)
			return false;
	return g->ndims > 0;
}

/* Products of rings and arrays (tori, meshes): steps computed where not tabled. */
static inline bool ringed(const struct txn_graph *g)
{
	u32 t;

	for (t = 0; t < g->ndims; t++)
		if ((g->fkind[t] != TXNET_DIM_LINEAR && g->fkind[t] != TXNET_DIM_RING) ||
		    g->fsize[t] < 2)
			return false;
	return g->ndims > 0;
}

static inline u64 dtab_entries(const struct txn_graph *g)
{
	u64 sum = 0;
	u32 t;

	if (!tabled(g))
		return 0;
	for (t = 0; t < g->ndims; t++)
		sum += (u64)g->fsize[t] * g->fsize[t];
	return sum;
}

/* Broadcasts down shortest-path trees (no switches): they can mend them mid-run. */
static inline bool tree_broadcast(const struct txn_graph *g, u32 op)
{
	return (op == TXNET_OP_BROADCAST || op == TXNET_OP_MULTINODE_BROADCAST) &&
	       g->nodes == g->procs;
}

/* Sums up reduction trees (no switches): they can mend them mid-run. */
static inline bool tree_sum(const struct txn_graph *g, u32 op)
{
	return (op == TXNET_OP_ACCUMULATE || op == TXNET_OP_MULTINODE_ACCUMULATE) &&
	       g->nodes == g->procs;
}

/* A data sum (no switches): up one reduction tree, the total down its tree. */
static inline bool tree_data_sum(const struct txn_graph *g, u32 op)
{
	return op == TXNET_OP_DATA_SUM && g->nodes == g->procs;
}

/* The processor partial sum @pkt is summed for: its result, or a data sum's center. */
static inline u32 sum_result(const struct txn_engine *e, const struct gen *s, u32 pkt)
{
	return e->p.op == TXNET_OP_DATA_SUM ? s->center : txn_pkt_dst(e, pkt);
}

/*
 * A list head of gen_start_sums(): a multinode accumulation's names a result
 * plus one (n is under 2^16: n^2 slots), in 2 bytes; a sum's a processor.
 */
static inline u32 far_head_bytes(u32 crows)
{
	return crows > 1 ? sizeof(u16) : sizeof(u32);
}

static inline u32 far_head(const void *head, bool many, u64 k)
{
	return many ? ((const u16 *)head)[k] : ((const u32 *)head)[k];
}

static inline void set_far_head(void *head, bool many, u64 k, u32 x)
{
	if (many)
		((u16 *)head)[k] = (u16)x;
	else
		((u32 *)head)[k] = x;
}

/* The distances a sum's start sorts, past the last key (gen_start_sums()); 0: none. */
static inline u32 far_levels(const struct txn_graph *g, u32 op)
{
	return (tree_sum(g, op) || tree_data_sum(g, op)) && g->diameter >= KEYS ?
	       g->diameter - KEYS + 2 : 0;
}

/* The most ports a vertex has. */
static inline u32 max_degree(const struct txn_graph *g)
{
	u32 v, d = 0;

	for (v = 0; v < g->nodes; v++)
		if (g->first[v + 1] - g->first[v] > d)
			d = g->first[v + 1] - g->first[v];
	return d;
}

/* Bytes a reduction entry takes (struct gen, red[]). */
static inline u32 red_entry(const struct txn_graph *g, u32 op)
{
	return crows_for(op, g->procs) > 1 && g->procs <= 0xffff && max_degree(g) < RED_NO_UP ?
	       sizeof(struct red) : sizeof(struct red_wide);
}

/* Trees kept as each node's ports to its children: one word, not a search. */
static inline bool few_ports(const struct txn_graph *g)
{
	return max_degree(g) <= 16;
}

/* Unicast around faults: the tables coordinates did without, n x V hops (or one row). */
static inline u64 reroute_table_bytes(const struct txn_graph *g, u32 op)
{
	u64 rows = all_toward(op, g->nodes > g->procs) ? g->procs : 1;

	return rows * g->nodes * sizeof(struct hop);
}

/* The processors whose values merge at a vertex, from its entry @at. */
static inline u32 red_sub(const struct gen *s, u64 at)
{
	return s->red ? s->red[at].sub : s->red_wide[at].sub;
}

static inline void red_set_sub(struct gen *s, u64 at, u32 sub)
{
	if (s->red)
		s->red[at].sub = (u16)sub;
	else
		s->red_wide[at].sub = sub;
}

/* The vertex's port up the tree; NO_PORT at the result. */
static inline u32 red_up(const struct gen *s, u64 at)
{
	u32 up;

	if (!s->red)
		return s->red_wide[at].up;
	up = s->red[at].way & RED_NO_UP;
	return up == RED_NO_UP ? NO_PORT : up;
}

/* Its key: min(its distance from the result, keys-1). */
static inline u32 red_dist(const struct gen *s, u64 at)
{
	return s->red ? s->red[at].way >> RED_PORT_BITS : s->red_wide[at].dist;
}

/* @v's link up its reduction tree, from its entry @at in the row. */
static inline u32 red_link(const struct txn_graph *g, const struct gen *s, u64 at, u32 v)
{
	return g->first[v] + red_up(s, at);
}

/* The first entry of result @d's reduction row. */
static inline u64 red_row(const struct gen *s, u32 d)
{
	return (u64)s->crow_of[d] * s->vertices;
}

/* The processors whose partials for @d merge at processor @v. */
static inline u32 sub_at(const struct gen *s, u32 d, u32 v)
{
	if (!s->red && !s->red_wide)
		return v == d ? s->n : 1;
	return red_sub(s, red_row(s, d) + v);
}

/* A MIN's one way on from @v (a processor is stage 0) towards processor @d, and its distance. */
static __always_inline u32 way_by_tag(const struct txn_engine *e, const struct gen *s, u32 v,
				      u32 d, u32 *key)
{
	const struct txn_graph *g = e->g;
	/* a stage's n / 2 switches: a power of two */
	u32 k = v < s->n ? 0 : 1 + ((v - s->n) >> (s->stages - 1));

	*key = key_of(s, s->stages - k);
	return g->first[v] + txn_min_tag_port(g->min_topo, s->stages, k, d);
}

enum tree_state { T_NEEDS, T_SOURCE };

/* The origin of broadcast message @m: its tree's row. */
static inline u32 msg_origin(const struct txn_engine *e, u32 m)
{
	return e->p.op == TXNET_OP_BROADCAST ? e->p.root : m;
}

/*
 * Where the partial @v collects for result @d is named (struct gen's
 * hold, root_hold); NULL: nowhere, it is @v's own.
 */
static inline u32 *hold_cell(const struct gen *s, u32 d, u32 v)
{
	u32 *h = s->hold ? &s->hold[(u64)s->crow_of[d] * s->vertices + v] : NULL;

	if (h && *h != HOLD_OWN)
		return h;
	return v == d ? &s->root_hold[d] : NULL;
}

/* The partial @v collects for result @d; TXN_NONE: none yet. */
static inline u32 hold_of(const struct txn_engine *e, const struct gen *s, u32 d, u32 v)
{
	const u32 *h = hold_cell(s, d, v);

	return h ? *h : txn_sum_slot(e, v, d);
}

/* general_centre.c */
u32 gen_find_center(struct gen *s);
u32 *gen_rows_map(u32 n, u32 rows, u32 only);

/* general_tree.c */
void gen_add_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l);
void gen_add_up(struct gen *s, u64 row, const u32 *order, u32 count);
void gen_build_reduction(struct gen *s, u32 d, bool balance);
int gen_build_toward(struct gen *s, u32 d);
void gen_build_tree(struct gen *s, u32 r, bool balance);
void gen_clear_kids(struct gen *s, u64 base);
void gen_fill_row(struct gen *s, u64 row, const u32 *order, u32 count);
void gen_hang_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l);
void gen_set_ups(struct gen *s, u64 row);

/* general_tables.c */
int gen_build_dtab(struct gen *s, const struct txn_graph *g);
int gen_tables(struct txn_engine *e, struct gen *s);
int gen_take_down(struct txn_engine *e, struct gen *s);
int gen_tree_reaches_all(const struct gen *s);

/* general_way.c */
u64 gen_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst);
void gen_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n, u64 *ways);
u64 gen_way_from(const struct txn_engine *e, u32 pkt, u32 v, u32 dst);
void gen_send_toward(struct txn_engine *e, u32 pkt, u32 v, u32 d);

/* general_reroute.c */
int gen_reroute(struct txn_engine *e);
u64 gen_reroute_bytes(const struct txn_graph *g, u32 op, u32 port);
void gen_resend_mended(struct txn_engine *e, struct gen *s);
int gen_start_around_faults(struct txn_engine *e, struct gen *s);

/* general_arrive.c */
void gen_become_holder(struct txn_engine *e, u32 pkt, u32 v);
void gen_chain(struct txn_engine *e, u32 p, u32 in);
bool gen_chain_fits(const struct gen *s, const struct txn_graph *g);
void gen_distribute(struct txn_engine *e, u32 pkt, u32 v, u32 r, bool fold);
void gen_arrive(struct txn_engine *e, u32 pkt, u32 link);
bool gen_arrive_ahead(const struct txn_engine *e, const struct txn_move *far, const struct txn_move *near);
void gen_choose(struct txn_engine *e);
void gen_scan(struct txn_engine *e, u32 p, bool entering);
void gen_send_tree(struct txn_engine *e, u32 pkt, u32 v, u32 d);
int gen_start_sums(struct txn_engine *e, struct gen *s);
int gen_sum_lists(struct txn_engine *e, struct gen *s);
int gen_tree_scratch(struct txn_engine *e, struct gen *s);

#endif
