// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule: every operation on every topology, on shortest
 * paths found by breadth-first search (paths.c).  Not a paper's optimal
 * schedule but a sound one, with each choice made for a reason:
 *
 * - unicast (total exchange, scatter, gather, permutation): every packet follows a
 *   shortest path towards its destination; each link sends the packet with
 *   the furthest still to go first (the rule paper 001 proves optimal on a
 *   linear array, section 3);
 * - broadcast and multinode broadcast: the message runs down a shortest-
 *   path tree out of its origin, each node copying it to its children the
 *   tick after it arrives, deepest subtree first; under the all-port model
 *   that takes exactly the origin's eccentricity.  A single-port broadcast
 *   spreads instead: every tick each processor that has the message hands
 *   it to a neighbour that has not, the one farthest from the root, so
 *   the informed set can double each tick (ceil(log2 n) on a complete
 *   graph, where a tree out of the root is a star);
 * - accumulate and multinode accumulate: the same trees, reversed: a node
 *   merges its children's partial sums with its own value and sends once
 *   it has all of them, which under the all-port model takes exactly the
 *   eccentricity of the result's node.  A multinode accumulation's n trees
 *   are then re-chosen against each other, each vertex's link up the least
 *   used of its shortest (balance_toward()): searches alike build trees
 *   alike, whose partials would queue on the same links;
 * - data sum: an accumulation at a centre (a processor of least
 *   eccentricity) and a broadcast of the total back: twice the radius;
 * - prefix sum: recursive doubling over the processor numbers (Hillis and
 *   Steele's scan): in step k processor p sends what it has, the sum of
 *   p-2^k+1 .. p, to p+2^k and adds what p-2^k sends it; after
 *   ceil(log2 n) steps p has the sum of 0..p.  Where processor p is next
 *   to p+1 all along and n-1 is within twice the diameter (linear arrays,
 *   rings), a chain instead: p adds its value to the sum of 0..p-1 and
 *   passes it on, n-1 ticks, the eccentricity of n-1 on a linear array.
 *
 * Faults (links down): a run started while they are in force searches
 * everything around them; mid-run, unicast packets are rerouted by tables
 * built around them (a prefix sum's copies too), broadcast and sum trees
 * are mended (tree_reroute()) and a single-port broadcast spreads around
 * them; MINs' trees are not.
 *
 * Switches (MINs) cannot copy or combine: there every copy is addressed to
 * one processor and routed like a unicast packet; a broadcast grows by
 * doubling (each processor that has the message sends it on to one that
 * has not, one per tick), a multinode broadcast sends every message
 * directly to every processor, and partial sums travel whole to their
 * result.  Their one path to a processor is its tag's bits (min.c), so
 * there no table is kept: a table of every processor's shortest paths is
 * processors x vertices, as large as a total exchange's packets.  Nor on
 * products, which route by coordinates; tables are built only where
 * faults need them.
 */
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
	struct txn_paths P;
	u32 V, n;
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
	 * out-tree of one origin: the link to v's first child (add_kid()),
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
static u32 gen_keys(const struct txn_graph *g, const struct txn_run_params *p)
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
static bool all_toward(u32 op, bool switches)
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

static u32 orows_for(u32 op, u32 n, bool switches)
{
	if (switches)
		return 0;
	if (op == TXNET_OP_BROADCAST || op == TXNET_OP_DATA_SUM)
		return 1;
	return op == TXNET_OP_MULTINODE_BROADCAST ? n : 0;
}

static u32 crows_for(u32 op, u32 n)
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
static bool addressed(const struct txn_graph *g, u32 op)
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

static bool unicast_op(u32 op)
{
	return op == TXNET_OP_TOTAL_EXCHANGE || op == TXNET_OP_SCATTER ||
	       op == TXNET_OP_GATHER || op == TXNET_OP_PERMUTATION;
}

/* A cartesian product without switches: coordinates say where a vertex is. */
static bool product_of_factors(const struct txn_graph *g)
{
	return g->ndims && g->nodes == g->procs;
}

/* Unicast on a product: routes from coordinates, no tables (way_by_coord). */
static bool by_coord(const struct txn_graph *g, u32 op)
{
	return product_of_factors(g) && unicast_op(op);
}

/*
 * An all-port prefix sum's addressed copies on a product go by coordinates
 * too: its n x V table took most of its start (74 ms of 75 on the 10-cube)
 * for n log n packets, and coordinates weigh every shortest way on (18
 * ticks there, not 23).  Single-port, the table's ways, each search's
 * neighbours taken from a port of its own, keep a node's copies apart
 * better (torus 16 16: 64 ticks, 76 by coordinates).
 */
static bool scan_product(const struct txn_graph *g, u32 op, u32 port)
{
	return product_of_factors(g) && op == TXNET_OP_PREFIX_SUM && port == TXNET_PORT_ALL;
}

/* Routes from coordinates, no n x V table: unicast and an all-port scan on a product. */
static bool coordinates(const struct txn_graph *g, u32 op, u32 port)
{
	return by_coord(g, op) || scan_product(g, op, port);
}

/*
 * A MIN (min.c): every one is banyan, one path from each processor to
 * each, and the port out of stage k is a bit of the destination's tag.
 */
static bool by_tag(const struct txn_graph *g)
{
	return g->min_topo && g->procs > 2;
}

static bool tabled(const struct txn_graph *g)
{
	u32 t;

	for (t = 0; t < g->ndims; t++)
		if ((g->fkind[t] != TXNET_DIM_LINEAR && g->fkind[t] != TXNET_DIM_RING) ||
		    g->fsize[t] > DTAB_K)
			return false;
	return g->ndims > 0;
}

/* Products of rings and arrays (tori, meshes): steps computed where not tabled. */
static bool ringed(const struct txn_graph *g)
{
	u32 t;

	for (t = 0; t < g->ndims; t++)
		if ((g->fkind[t] != TXNET_DIM_LINEAR && g->fkind[t] != TXNET_DIM_RING) ||
		    g->fsize[t] < 2)
			return false;
	return g->ndims > 0;
}

static u64 dtab_entries(const struct txn_graph *g)
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
static bool tree_broadcast(const struct txn_graph *g, u32 op)
{
	return (op == TXNET_OP_BROADCAST || op == TXNET_OP_MULTINODE_BROADCAST) &&
	       g->nodes == g->procs;
}

/* Sums up reduction trees (no switches): they can mend them mid-run. */
static bool tree_sum(const struct txn_graph *g, u32 op)
{
	return (op == TXNET_OP_ACCUMULATE || op == TXNET_OP_MULTINODE_ACCUMULATE) &&
	       g->nodes == g->procs;
}

/* A data sum (no switches): up one reduction tree, the total down its tree. */
static bool tree_data_sum(const struct txn_graph *g, u32 op)
{
	return op == TXNET_OP_DATA_SUM && g->nodes == g->procs;
}

/* The processor partial sum @pkt is summed for: its result, or a data sum's center. */
static inline u32 sum_result(const struct txn_engine *e, const struct gen *s, u32 pkt)
{
	return e->p.op == TXNET_OP_DATA_SUM ? s->center : txn_pkt_dst(e, pkt);
}

/*
 * A list head of start_sums(): a multinode accumulation's names a result
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

/* The distances a sum's start sorts, past the last key (start_sums()); 0: none. */
static u32 far_levels(const struct txn_graph *g, u32 op)
{
	return (tree_sum(g, op) || tree_data_sum(g, op)) && g->diameter >= KEYS ?
	       g->diameter - KEYS + 2 : 0;
}

/* The most ports a vertex has. */
static u32 max_degree(const struct txn_graph *g)
{
	u32 v, d = 0;

	for (v = 0; v < g->nodes; v++)
		if (g->first[v + 1] - g->first[v] > d)
			d = g->first[v + 1] - g->first[v];
	return d;
}

/* Bytes a reduction entry takes (struct gen, red[]). */
static u32 red_entry(const struct txn_graph *g, u32 op)
{
	return crows_for(op, g->procs) > 1 && g->procs <= 0xffff && max_degree(g) < RED_NO_UP ?
	       sizeof(struct red) : sizeof(struct red_wide);
}

/* Trees kept as each node's ports to its children: one word, not a search. */
static bool few_ports(const struct txn_graph *g)
{
	return max_degree(g) <= 16;
}

/* Unicast around faults: the tables coordinates did without, n x V hops (or one row). */
static u64 reroute_table_bytes(const struct txn_graph *g, u32 op)
{
	u64 rows = all_toward(op, g->nodes > g->procs) ? g->procs : 1;

	return rows * g->nodes * sizeof(struct hop);
}

/*
 * What faults may allocate: those tables where they fit, and the copy of
 * the links down; charged when a run first has links down (an n x V table
 * charged by every run would be most of a total exchange's bytes).
 */
static u64 gen_reroute_bytes(const struct txn_graph *g, u32 op, u32 port)
{
	u64 b = reroute_table_bytes(g, op), words = ((u64)g->links + 63) / 64 * sizeof(u64);
	/* sums: each result's list of slots (next_of[]) and what each vertex collects (hold[]) */
	u64 lists = tree_sum(g, op) || tree_data_sum(g, op) ?
		    txn_op_slots(op, g->procs, txn_slot_links(g)) * sizeof(u32) +
		    (u64)crows_for(op, g->procs) * g->nodes * sizeof(u32) : 0;

	if (op == TXNET_OP_DATA_SUM && g->nodes == g->procs && b <= REROUTE_BYTES_MAX)
		return (u64)g->procs * g->nodes * sizeof(struct hop) + g->procs * sizeof(u32) +
		       lists + words;
	/*
	 * a prefix sum's copies are addressed: on a MIN, and by coordinates
	 * on a product, they reroute by tables too
	 */
	if ((!unicast_op(op) &&
	     !(op == TXNET_OP_PREFIX_SUM && (by_tag(g) || scan_product(g, op, port)))) ||
	    b > REROUTE_BYTES_MAX)
		return lists + words;
	return (coordinates(g, op, port) || by_tag(g) ? b + g->procs * sizeof(u32) : 0) + words;
}

static u64 gen_priv_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	bool sw = g->nodes > g->procs, co = coordinates(g, op, port);
	bool up = tree_sum(g, op) || tree_data_sum(g, op);
	u64 V = g->nodes, n = g->procs;
	u64 trows = co || by_tag(g) || up ? 0 : all_toward(op, sw) ? n : 1;
	u32 crows = crows_for(op, (u32)n);

	return sizeof(struct gen) + (co ? V * g->ndims * sizeof(u32) : 0) +
	       (co && tabled(g) ?
		V * g->ndims * sizeof(u32) + dtab_entries(g) * sizeof(struct dstep) : 0) +
	       txn_paths_bytes(g) + 3 * n * sizeof(u32) +
	       trows * V * sizeof(struct hop) + V * sizeof(u32) +
	       orows_for(op, (u32)n, sw) * V * (few_ports(g) ? sizeof(u16) + 1 : TREE_ENTRY) +
	       (sw ? 0 : crows * V * red_entry(g, op)) +
	       (crows_for(op, (u32)n) ? n * sizeof(u32) : 0) +
	       /* building many trees: per link, how many use it (balance_toward()) */
	       ((crows_for(op, (u32)n) > 1 || orows_for(op, (u32)n, sw) > 1) && !sw ?
		(u64)g->links * sizeof(u32) : 0) +
	       (addressed(g, op) ? npkts * sizeof(u32) : 0) +
	       2 * V * sizeof(u64) + 2 * n * sizeof(u32) +
	       (op == TXNET_OP_PREFIX_SUM ? n * (1 + SCAN_STEPS * sizeof(u32)) + npkts : 0) +
	       (tree_broadcast(g, op) ? n * (sizeof(u32) + 1) : 0) +
	       (tree_sum(g, op) || tree_data_sum(g, op) ? 2 * n * sizeof(u32) : 0) +
	       (u64)far_levels(g, op) * crows * far_head_bytes(crows) +
	       /* a single-port sum's spread, while it is made (spread_reduction()) */
	       (up && crows_for(op, (u32)n) == 1 ? 2 * V * sizeof(u32) : 0) +
	       (tree_data_sum(g, op) ? npkts * sizeof(u32) : 0) +
	       /* a data sum's centre: a search's parents, each processor's bound */
	       (op == TXNET_OP_DATA_SUM ? (V + n) * sizeof(u32) : 0) +
	       (u64)g->links * sizeof(u64) + 2 * V * sizeof(u32) + n;
}

static void gen_fini(struct txn_engine *e)
{
	struct gen *s = e->priv;

	if (!s)
		return;
	txn_paths_free(&s->P);
	txn_free(s->coord);
	txn_free(s->dtab);
	txn_free(s->drow);
	txn_free(s->row_of);
	txn_free(s->route);
	txn_free(s->via);
	txn_free(s->kid);
	txn_free(s->sib);
	txn_free(s->kids);
	txn_free(s->height);
	txn_free(s->orow_of);
	txn_free(s->red);
	txn_free(s->red_wide);
	txn_free(s->root_hold);
	txn_free(s->hold);
	txn_free(s->load);
	txn_free(s->crow_of);
	txn_free(s->tgt);
	txn_free(s->line_at);
	txn_free(s->sent);
	txn_free(s->recv);
	txn_free(s->down);
	txn_free(s->holders);
	txn_free(s->assigned);
	txn_free(s->rd);
	txn_free(s->got);
	txn_free(s->stage);
	txn_free(s->lev);
	txn_free(s->inbox);
	txn_free(s->to);
	txn_free(s->next_of);
	txn_free(s->first_of);
	txn_free(s->bq);
	txn_free(s->state);
	txn_free(s);
	e->priv = NULL;
}

static u32 *rows_map(u32 n, u32 rows, u32 only)
{
	u32 *map = txn_alloc_array(n, sizeof(u32)), i;

	if (!map)
		return NULL;
	for (i = 0; i < n; i++)
		map[i] = rows == n ? i : TXN_NONE;
	if (rows == 1)
		map[only] = 0;
	return map;
}

/*
 * On a product a vertex's eccentricity is the sum of its factors', from
 * its coordinates: an array's is the farther end, a ring's half round, a
 * complete graph's one step.  The first of least, as find_center() takes.
 */
static u32 product_center(const struct txn_graph *g)
{
	u32 best = 0, best_ecc = TXN_NO_LINK, v, t, a, k, ecc, c[TXNET_MAX_DIMS];

	for (v = 0; v < g->nodes; v++) {
		txn_vertex_coords(g, v, c);
		for (t = 0, ecc = 0; t < g->ndims; t++) {
			a = c[t];
			k = g->fsize[t];
			if (g->fkind[t] == TXNET_DIM_LINEAR)
				ecc += a > k - 1 - a ? a : k - 1 - a;
			else if (g->fkind[t] == TXNET_DIM_RING)
				ecc += k / 2;
			else
				ecc += k > 1;
		}
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = v;
		}
	}
	return best;
}

/* Steps of searching from every processor for a centre, past which it is bounded instead. */
#define CENTER_STEPS	(1ULL << 26)

/* Processor @v's eccentricity, by a search from it; @far: a vertex that far. */
static u32 ecc_from(struct gen *s, u32 v, u32 *scratch, u32 *far)
{
	txn_paths_from(&s->P, v, scratch);
	*far = s->P.queue[s->P.reached - 1];
	return s->P.dist[*far];
}

/*
 * A processor of least eccentricity where a search from each would cost
 * too much: a processor's distance to any vertex is a lower bound of its
 * eccentricity.  The candidate of least bound is searched from; where
 * its farthest vertex is farther than its bound, a search toward that
 * vertex raises every bound, and the next candidate is taken.  Once a
 * candidate's eccentricity is its bound, or no bound is below the least
 * eccentricity found, that least is the radius: no processor's is below
 * its bound.  Exact, in 2 rounds of two searches on butterfly 4096 and
 * 32 on biswapped mesh 8 8 (many alike); within 4 x CENTER_STEPS of
 * searching, else the best searched.
 */
static u32 center_bounded(struct gen *s, u32 *scratch)
{
	u64 steps = 0, search = (u64)s->V + s->P.g->links;
	u32 c = 0, best = 0, best_ecc = TXN_NO_LINK, ecc, far, v, d, *lb;

	lb = txn_zalloc_array(s->n, sizeof(u32));
	if (!lb)
		return 0;
	while (steps + 2 * search <= 4 * CENTER_STEPS) {
		steps += 2 * search;
		ecc = ecc_from(s, c, scratch, &far);
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = c;
		}
		if (ecc <= lb[c])
			break;
		/* a processor that cannot reach @far: TXN_NO_LINK, never taken */
		txn_paths_toward(&s->P, far, scratch);
		for (v = 0, c = 0; v < s->n; v++) {
			d = s->P.dist[v];
			lb[v] = d > lb[v] ? d : lb[v];
			c = lb[v] < lb[c] ? v : c;
		}
		if (lb[c] >= best_ecc)
			break;
		txn_cond_resched();
	}
	txn_free(lb);
	return best;
}

/*
 * A processor of least eccentricity: from coordinates on a product with
 * every link up, else by a search from each when that costs little, else
 * bounded (center_bounded()).
 */
static u32 find_center(struct gen *s)
{
	u32 best = 0, best_ecc = TXN_NO_LINK, v, ecc, far, *scratch;

	if (product_of_factors(s->P.g) && !s->faulty)
		return product_center(s->P.g);
	scratch = txn_alloc_array(s->V, sizeof(u32));
	if (!scratch)
		return 0;
	if ((u64)s->n * (s->V + s->P.g->links) > CENTER_STEPS) {
		best = center_bounded(s, scratch);
		txn_free(scratch);
		return best;
	}
	for (v = 0; v < s->n; v++) {
		ecc = ecc_from(s, v, scratch, &far);
		if (ecc < best_ecc) {
			best_ecc = ecc;
			best = v;
		}
		txn_cond_resched();
	}
	txn_free(scratch);
	return best;
}

static int build_toward(struct gen *s, u32 d)
{
	const struct txn_graph *g = s->P.g;
	u64 base = (u64)s->row_of[d] * s->V;
	u32 v, p, dv;
	u8 m;

	txn_paths_toward(&s->P, d, s->via);
	for (v = 0; v < s->V; v++) {
		dv = s->P.dist[v];
		m = 0;
		for (p = 0; p < 8 && g->first[v] + p < g->first[v + 1]; p++)
			if (dv != TXN_NO_LINK && dv && s->P.dist[g->dst[g->first[v] + p]] == dv - 1 &&
			    !(s->P.down && txn_link_down_in(s->P.down, g->first[v] + p)))
				m |= 1U << p;
		s->route[base + v] = (struct hop){ s->via[v], key_of(s, dv), m, 0 };
	}
	/* Every processor must reach d; MINs' and others' graphs are strongly connected. */
	for (v = 0; v < s->n; v++)
		if (s->P.dist[v] == TXN_NO_LINK)
			return -EHOSTUNREACH;
	return 0;
}

/* Row @base's tree emptied: no vertex has children. */
static void clear_kids(struct gen *s, u64 base)
{
	u32 v;

	if (s->kids) {
		memset(s->kids + base, 0, s->V * sizeof(u16));
		return;
	}
	for (v = 0; v < s->V; v++)
		s->kid[base + v] = TXN_NO_LINK;
}

/*
 * Link @l added to row @base's tree, ahead of its source's children: a
 * tree added deepest first has each node's children in the order the
 * search reached them (for its own tree, its port order from where it
 * started the node's list).
 */
static void add_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l)
{
	u32 v = g->src[l];

	if (s->kids) {
		s->kids[base + v] |= 1U << (l - g->first[v]);
		return;
	}
	s->sib[base + g->dst[l]] = s->kid[base + v];
	s->kid[base + v] = l;
}

/*
 * Link @l (from a parent to its child) hung in the tree at @base, children
 * before their parents, so that a parent's height is one more than its
 * highest child's (deepest subtree first).
 */
static void hang_kid(struct gen *s, const struct txn_graph *g, u64 base, u32 l)
{
	u8 *h = s->height + base;
	u32 v = g->dst[l], up = g->src[l];

	if (h[up] < key_of(s, h[v] + 1U))
		h[up] = key_of(s, h[v] + 1U);
	add_kid(s, g, base, l);
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

static inline void red_set_way(struct gen *s, u64 at, u32 up, u32 dist)
{
	if (s->red) {
		s->red[at].way = (u16)((up == NO_PORT ? RED_NO_UP : up) | dist << RED_PORT_BITS);
	} else {
		s->red_wide[at].up = (u16)up;
		s->red_wide[at].dist = (u8)dist;
		s->red_wide[at].pad = 0;
	}
}

/* @v's link up its reduction tree, from its entry @at in the row. */
static inline u32 red_link(const struct txn_graph *g, const struct gen *s, u64 at, u32 v)
{
	return g->first[v] + red_up(s, at);
}

/*
 * Each vertex of the search just made (P->queue) re-chooses its link on
 * its tree, among those on a shortest path, as the one the fewest trees
 * use, its own use not counted: the tree's link unless another is less
 * used.  @inward: a tree out of its origin, over the links into each
 * vertex (its parent's), starting from via[]; else a tree towards its
 * result, over the links out of each vertex, starting from row @row's.
 * The loop is one for both, made twice with its arrays fixed (as bfs()).
 */
static __always_inline void rebalance(struct gen *s, u64 row, const bool inward)
{
	const struct txn_paths *P = &s->P;
	const struct txn_graph *g = P->g;
	const u32 *dist = P->dist, *queue = P->queue, *in_link = P->in_link;
	const u32 *first = inward ? P->in_first : g->first;
	const u32 *other = inward ? P->in_src : g->dst;	/* the link's far end */
	const u64 *down = P->down;
	u32 *load = s->load, *via = s->via;
	u32 i, j, v, l, hi, best, least, dv, ok;

	/* locals: load[] and via[] are written, and might alias the rest */
	for (i = 1; i < P->reached; i++) {
		v = queue[i];
		dv = dist[v];
		best = inward ? via[v] : red_link(g, s, row + v, v);
		least = --load[best];
		for (j = first[v], hi = first[v + 1]; j < hi; j++) {
			l = inward ? in_link[j] : j;
			/* weighed without a branch: which wins is as random as the loads */
			ok = (dist[other[j]] == dv - 1) & (load[l] < least);
			if (down)
				ok &= !txn_link_down_in(down, l);
			best = ok ? l : best;
			least = ok ? load[l] : least;
		}
		via[v] = best;
		load[best]++;
	}
}

/*
 * A multinode broadcast's trees, one an origin, re-chosen as the
 * accumulation's are (balance_toward()): each vertex's parent the one
 * on a shortest path whose link the fewest trees use, every tree counted
 * first, the search's own parent unless another's link is less used.
 */
static void balance_from(struct gen *s)
{
	rebalance(s, 0, true);
}

/* Vertex @w reached over link @l from its parent, in search_again()'s walk. */
static __always_inline void reach(struct gen *s, u32 l, u32 du, u32 *tail)
{
	u32 w = s->P.g->dst[l];

	s->P.dist[w] = du;
	s->via[w] = l;
	s->P.queue[(*tail)++] = w;
}

/*
 * The search out of @r made again from the tree it left in row @base (not
 * yet balanced): the same queue, distances and parents, from a walk of the
 * tree instead of every link.  The search reached a node's children in
 * port order from r mod its degree on (bfs()), which is the order of the
 * kids word from that port, and of the list (add_kid()).
 */
static void search_again(struct gen *s, u32 r, u64 base)
{
	const struct txn_graph *g = s->P.g;
	struct txn_paths *P = &s->P;
	u32 head = 0, tail = 0, u, l, k, m, du;

	memset(P->dist, 0xff, s->V * sizeof(u32));
	for (u = 0; u < s->V; u++)
		s->via[u] = TXN_NO_LINK;
	P->dist[r] = 0;
	P->queue[tail++] = r;
	while (head < tail) {
		u = P->queue[head++];
		du = P->dist[u] + 1;
		if (!s->kids) {
			for (l = s->kid[base + u]; l != TXN_NO_LINK; l = s->sib[base + g->dst[l]])
				reach(s, l, du, &tail);
			continue;
		}
		m = s->kids[base + u];
		if (!m)
			continue;
		k = r % (g->first[u + 1] - g->first[u]);
		for (m = m >> k << k; m; m &= m - 1)
			reach(s, g->first[u] + (u32)__builtin_ctz(m), du, &tail);
		for (m = s->kids[base + u] & ((1U << k) - 1); m; m &= m - 1)
			reach(s, g->first[u] + (u32)__builtin_ctz(m), du, &tail);
	}
	P->reached = tail;
}

/*
 * The tree out of @r: a search's, or (@balance) the one the search left
 * there re-chosen against the others'.
 */
static void build_tree(struct gen *s, u32 r, bool balance)
{
	const struct txn_graph *g = s->P.g;
	u64 base = (u64)s->orow_of[r] * s->V;
	u32 *par = s->via, i, v;
	u8 *h = s->height + base;

	if (balance) {
		search_again(s, r, base);
		balance_from(s);
	} else {
		txn_paths_from(&s->P, r, par);
	}
	memset(h, 0, s->V);
	clear_kids(s, base);
	for (i = s->P.reached; i-- > 1;) {
		v = s->P.queue[i];
		hang_kid(s, g, base, par[v]);
		if (s->load && !balance)
			s->load[par[v]]++;
	}
}

/* The first entry of result @d's reduction row. */
static inline u64 red_row(const struct gen *s, u32 d)
{
	return (u64)s->crow_of[d] * s->V;
}

/* The processors whose partials for @d merge at processor @v. */
static inline u32 sub_at(const struct gen *s, u32 d, u32 v)
{
	if (!s->red && !s->red_wide)
		return v == d ? s->n : 1;
	return red_sub(s, red_row(s, d) + v);
}

/* Row @row's way on from each vertex: the search towards its result just made (via[]). */
static void set_ups(struct gen *s, u64 row)
{
	const struct txn_graph *g = s->P.g;
	u32 v;

	for (v = 0; v < s->V; v++)
		red_set_way(s, row + v,
			    s->via[v] == TXN_NO_LINK ? NO_PORT : s->via[v] - g->first[v],
			    key_of(s, s->P.dist[v]));
}

/*
 * A multinode accumulation's trees, one a result, each a search from it:
 * searches alike put their links alike, so that the partials of many
 * results would queue on a few links.  Once every tree is built (and
 * counted in load[]), each is searched again and each vertex's link up
 * re-chosen, among those on a shortest path, as the one the fewest trees
 * use, its own use not counted: the BFS's own link unless another is
 * less used.  With every tree counted first, a link is weighed by all
 * the trees, not by those built before it (weighed as they were built,
 * a ring of 1024's antipodes all took the way the earlier trees left:
 * 960 ticks instead of 514).
 */
static void balance_toward(struct gen *s, u64 row)
{
	rebalance(s, row, false);
}

/*
 * Row @row's counts added up its tree (via[]) over @order (@count
 * vertices, each after its parent): each vertex's added to its parent's.
 */
static void add_up(struct gen *s, u64 row, const u32 *order, u32 count)
{
	u64 up;
	u32 i, v;

	for (i = count; i-- > 1;) {
		v = order[i];
		up = row + s->P.g->dst[s->via[v]];
		red_set_sub(s, up, red_sub(s, up) + red_sub(s, row + v));
	}
}

/*
 * Row @row from a tree towards its result: each vertex's link up (via[]),
 * nothing collected yet, and the processors whose partials merge there,
 * added up over @order (@count vertices, each after its parent).
 */
static void fill_row(struct gen *s, u64 row, const u32 *order, u32 count)
{
	u32 v;

	set_ups(s, row);
	for (v = 0; v < s->V; v++)
		red_set_sub(s, row + v, v < s->n);
	add_up(s, row, order, count);
}

/*
 * The processors whose partial sums merge at each vertex on their way to
 * @d, up the tree searched towards it (@balance: and re-chosen).
 */
static void build_reduction(struct gen *s, u32 d, bool balance)
{
	u64 row = red_row(s, d);
	u32 i;

	txn_paths_toward(&s->P, d, s->via);
	if (balance)
		balance_toward(s, row);
	fill_row(s, row, s->P.queue, s->P.reached);
	for (i = 1; i < s->P.reached && s->load && !balance; i++)
		s->load[s->via[s->P.queue[i]]]++;
}

/*
 * A single-port data sum's total goes back down the spread its partials
 * came up (spread_reduction()): each node copies it to its children
 * deepest subtree first, as the spread gave them the message on a
 * complete graph (a binomial tree).  Heights are keys: the run has
 * log2 n more than the diameter needs (gen_keys()).  @order: every node
 * after its parent, whose link up is in via[].
 */
static void spread_tree(struct gen *s, u32 d, const u32 *order, u32 norder)
{
	const struct txn_graph *g = s->P.g;
	u64 base = (u64)s->orow_of[d] * s->V;
	u32 i, v;

	memset(s->height + base, 0, s->V);
	clear_kids(s, base);
	for (i = norder; i-- > 1;) {
		v = order[i];
		hang_kid(s, g, base, txn_link_between(g, g->dst[s->via[v]], v));
	}
}

/*
 * A single-port accumulation's tree: the spread of a single-port broadcast
 * from @d (spread_step(): each node that has the message gives it, a tick,
 * to its farthest neighbour without it), reversed.  A node hears one
 * partial a tick, so the search's tree, whose root on a complete graph has
 * n-1 children, took n-1 ticks.  Reversed, the spread takes no longer than
 * the broadcast, log2 n there: a node's children were given the message a
 * tick apart, and each one's subtree is summed by the tick its turn comes.
 */
static int spread_reduction(struct gen *s, u32 d)
{
	const struct txn_graph *g = s->P.g;
	u32 *order, *act, nact = 1, norder = 1, start, i, j, h, l, best, u;

	order = txn_alloc_array(s->V, sizeof(u32));
	act = txn_alloc_array(s->V, sizeof(u32));
	if (!order || !act) {
		txn_free(order);
		txn_free(act);
		return -ENOMEM;
	}
	/* the distances towards d, for the farthest neighbour and the keys */
	txn_paths_toward(&s->P, d, s->via);
	for (u = 0; u < s->V; u++)
		s->via[u] = TXN_NO_LINK;
	order[0] = d;
	act[0] = d;
	while (nact) {
		/* a tick: each node that has it gives it on; those with none to give drop out */
		start = norder;
		for (i = 0, j = 0; i < nact; i++) {
			h = act[i];
			best = TXN_NO_LINK;
			for (l = g->first[h]; l < g->first[h + 1]; l++) {
				u = g->dst[l];
				if (u != d && s->via[u] == TXN_NO_LINK &&
				    (best == TXN_NO_LINK || s->P.dist[u] > s->P.dist[g->dst[best]]))
					best = l;
			}
			if (best == TXN_NO_LINK)
				continue;
			u = g->dst[best];
			s->via[u] = txn_link_between(g, u, h);
			if (s->via[u] == TXN_NO_LINK)
				goto one_way;
			order[norder++] = u;
			act[j++] = h;
		}
		for (i = start; i < norder; i++)
			act[j++] = order[i];
		nact = j;
	}
	fill_row(s, red_row(s, d), order, norder);
	if (s->orows)
		spread_tree(s, d, order, norder);
	txn_free(order);
	txn_free(act);
	return 0;

one_way:
	/* a link with none back: the search's trees, whose links lead up */
	txn_free(order);
	txn_free(act);
	if (s->orows)
		build_tree(s, d, false);
	build_reduction(s, d, false);
	return 0;
}

/* Faults: the schedule's searches avoid the links down now (its own copy of them). */
static int take_down(struct txn_engine *e, struct gen *s)
{
	if (!s->down) {
		s->down = txn_zalloc_array((e->g->links + 63) / 64, sizeof(u64));
		if (!s->down)
			return -ENOMEM;
		s->P.down = s->down;
	}
	txn_engine_copy_down(e, s->down);
	s->faulty = true;
	return 0;
}

/* Around faults from the start: every processor reached by the search just made. */
static int tree_reaches_all(const struct gen *s)
{
	u32 v;

	if (!s->faulty)
		return 0;
	for (v = 0; v < s->n; v++)
		if (s->P.dist[v] == TXN_NO_LINK)
			return -EHOSTUNREACH;
	return 0;
}

static int gen_tables(struct txn_engine *e, struct gen *s)
{
	u32 op = e->p.op, n = s->n, d, only = txn_op_has_root(op) ? e->p.root : s->center;
	bool few, spread;
	u32 entry = red_entry(s->P.g, op);
	u64 rows;
	int ret;

	/* sums up trees keep their way on in their reduction rows */
	s->trows = s->coord || s->tag || tree_sum(s->P.g, op) || tree_data_sum(s->P.g, op) ? 0 :
		   all_toward(op, s->switches) ? n : 1;
	s->orows = orows_for(op, n, s->switches);
	s->crows = crows_for(op, n);
	/*
	 * a row each origin or result, past what a core's caches keep: an
	 * arrival's row is read from memory unless hinted
	 */
	if (!s->tag && s->orows > 1 && (u64)s->orows * s->V * TREE_ENTRY > HINT_BYTES)
		s->hinted = HINT_TREE;
	if (!s->tag && s->crows > 1 && !s->switches &&
	    (u64)s->crows * s->V * entry > HINT_BYTES)
		s->hinted = HINT_REDUCTION;
	s->row_of = rows_map(n, s->trows, only);
	if (s->trows)
		s->route = txn_alloc_array((u64)s->trows * s->V, sizeof(struct hop));
	s->via = txn_alloc_array(s->V, sizeof(u32));
	if (!s->row_of || (s->trows && !s->route) || !s->via)
		return -ENOMEM;
	if (s->orows) {
		s->orow_of = rows_map(n, s->orows, only);
		few = few_ports(s->P.g);
		if (few) {
			s->kids = txn_alloc_array((u64)s->orows * s->V, sizeof(u16));
		} else {
			s->kid = txn_alloc_array((u64)s->orows * s->V, sizeof(u32));
			s->sib = txn_alloc_array((u64)s->orows * s->V, sizeof(u32));
		}
		s->height = txn_alloc_array((u64)s->orows * s->V, 1);
		if (!s->orow_of || (few ? !s->kids : !s->kid || !s->sib) || !s->height)
			return -ENOMEM;
	}
	if (s->crows) {
		/* red.up: no simple graph of 2^32 links has a node of more than 65,535 ports */
		if (max_degree(s->P.g) > NO_PORT)
			return -E2BIG;
		s->crow_of = rows_map(n, s->crows, only);
		rows = (u64)s->crows * s->V;
		if (!s->switches && entry == sizeof(struct red))
			s->red = txn_alloc_array(rows, sizeof(struct red));
		else if (!s->switches)
			s->red_wide = txn_alloc_array(rows, sizeof(struct red_wide));
		s->root_hold = txn_alloc_array(n, sizeof(u32));
		if (!s->crow_of || (!s->switches && !s->red && !s->red_wide) || !s->root_hold)
			return -ENOMEM;
		for (d = 0; d < n; d++)
			s->root_hold[d] = TXN_NONE;
		/* nothing of a data sum is folded from the start */
		if (op == TXNET_OP_DATA_SUM)
			s->root_hold[s->center] = txn_sum_slot(e, s->center, s->center);
	}
	if ((s->crows > 1 || s->orows > 1) && !s->switches) {
		s->load = txn_zalloc_array(s->P.g->links, sizeof(u32));
		if (!s->load)
			return -ENOMEM;
	}
	/* a single-port one-result sum goes over a spread, not the search's tree */
	spread = s->crows == 1 && !s->switches && !s->faulty &&
		 e->p.port_model == TXNET_PORT_SINGLE;
	for (d = 0; d < n; d++) {
		if (s->row_of[d] != TXN_NONE) {
			ret = build_toward(s, d);
			if (ret)
				return ret;
		}
		/* a spread's sum brings its total back down the spread (spread_tree()) */
		if (s->orows && s->orow_of[d] != TXN_NONE && !spread) {
			build_tree(s, d, false);
			ret = tree_reaches_all(s);
			if (ret)
				return ret;
		}
		if (s->crows && s->crow_of[d] != TXN_NONE) {
			if (spread) {
				ret = spread_reduction(s, d);
			} else if (!s->switches) {
				/* across switches partials go by route[] or tags, checked above */
				build_reduction(s, d, false);
				ret = tree_reaches_all(s);
			}
			if (ret)
				return ret;
		}
		txn_cond_resched();
	}
	/* an out-tree's current parent is not kept: one pass, from the searches' */
	for (d = 0; d < n && s->load && s->orows > 1; d++) {
		build_tree(s, d, true);
		txn_cond_resched();
	}
	for (d = 0; d < BALANCE_PASSES * n && s->load && s->crows > 1; d++) {
		build_reduction(s, d % n, true);
		txn_cond_resched();
	}
	txn_free(s->load);
	s->load = NULL;
	return 0;
}

/*
 * A hypercube's way on from @v towards processor @d: the dimensions to
 * cross are the bits they differ in, the distance is how many, and the
 * emptiest of their links is taken (the first of equals).  The walk of
 * the bits counts them, so no popcount is paid a hop.
 */
static __always_inline u32 way_on_cube(const struct txn_engine *e, const struct gen *s, u32 v,
				       u32 d, u32 *key)
{
	const u32 *q = e->pq_len;
	u32 first = e->g->first[v], diff = v ^ d, dist = 1, best, least, l;

	if (!diff) {
		*key = 0;
		return TXN_NO_LINK;
	}
	best = first + (u32)__builtin_ctz(diff);
	least = q[best];
	for (diff &= diff - 1; diff; diff &= diff - 1) {
		l = first + (u32)__builtin_ctz(diff);
		best = q[l] < least ? l : best;
		least = q[l] < least ? q[l] : least;
		dist++;
	}
	*key = key_of(s, dist);
	return best;
}

/*
 * The way on from @v towards processor @d on a product, from coordinates:
 * in each dimension where @v and @d differ, the ports that bring that
 * coordinate closer (both ways round a ring at half its length) are on a
 * shortest path, and the distance is the sum of the factors' distances.
 * Every shortest path is weighed, not only the first 8 ports, and nothing
 * but the coordinates is read: no table of n x V entries to miss in.
 */
static __always_inline u32 way_by_coord(const struct txn_engine *e, const struct gen *s, u32 v,
					u32 d, u32 *key)
{
	const struct txn_graph *g = e->g;
	const u32 *cv = s->coord + (u64)v * g->ndims, *cd = s->coord + (u64)d * g->ndims;
	u32 first = g->first[v], off = 0, dist = 0, best = TXN_NO_LINK, t, a, b, k, fw;

#define CONSIDER(port) do {							\
		u32 l_ = first + (port);					\
		if (best == TXN_NO_LINK || e->pq_len[l_] < e->pq_len[best])	\
			best = l_;						\
	} while (0)
	if (s->cube)
		return way_on_cube(e, s, v, d, key);
	for (t = 0; t < g->ndims; t++) {
		a = cv[t];
		b = cd[t];
		k = g->fsize[t];
		switch (g->fkind[t]) {
		case TXNET_DIM_LINEAR:
			if (a != b) {
				dist += a < b ? b - a : a - b;
				CONSIDER(off + (b < a ? 0 : a > 0));
			}
			off += (a > 0) + (a < k - 1);
			break;
		case TXNET_DIM_RING:
			if (a != b) {
				fw = b > a ? b - a : b + k - a;
				dist += fw < k - fw ? fw : k - fw;
				if (k == 2) {
					CONSIDER(off);
				} else {
					if (k - fw <= fw)
						CONSIDER(off);
					if (fw <= k - fw)
						CONSIDER(off + 1);
				}
			}
			off += k == 2 ? 1 : 2;
			break;
		default:
			if (a != b) {
				dist++;
				CONSIDER(off + (b < a ? b : b - 1));
			}
			off += k - 1;
			break;
		}
	}
#undef CONSIDER
	*key = key_of(s, dist);
	return best;
}

/*
 * way_by_coord's steps, tabulated per factor for rings and arrays of up to
 * DTAB_K: from coordinate a towards b, the distance, which of a's ports
 * in the factor lie on a shortest path, and how many ports a has there.
 */
static int build_dtab(struct gen *s, const struct txn_graph *g)
{
	u32 t, a, b, k, fw, w, on0, on1, dist, v, at = 0, base[TXNET_MAX_DIMS];
	struct dstep *st;

	if (!tabled(g))
		return 0;
	s->dtab = txn_alloc_array(dtab_entries(g), sizeof(struct dstep));
	s->drow = txn_alloc_array((u64)s->V * g->ndims, sizeof(u32));
	if (!s->dtab || !s->drow)
		return -ENOMEM;
	for (t = 0; t < g->ndims; t++) {
		k = g->fsize[t];
		base[t] = at;
		for (a = 0; a < k; a++)
			for (b = 0; b < k; b++) {
				dist = 0;
				on0 = 0;
				on1 = 0;
				if (g->fkind[t] == TXNET_DIM_LINEAR) {
					w = (a > 0) + (a < k - 1);
					if (a != b) {
						dist = a < b ? b - a : a - b;
						on0 = b < a || !a;
						on1 = !on0;
					}
				} else {
					w = k == 2 ? 1 : 2;
					fw = b >= a ? b - a : b + k - a;
					if (a != b) {
						dist = fw < k - fw ? fw : k - fw;
						on0 = k == 2 || k - fw <= fw;
						on1 = k != 2 && fw <= k - fw;
					}
				}
				st = &s->dtab[at + a * k + b];
				st->dist = (u8)dist;
				st->not0 = on0 ? 0 : -1;
				st->not1 = on1 ? 0 : -1;
				st->width = (u8)w;
			}
		at += k * k;
	}
	for (v = 0; v < s->V; v++)
		for (t = 0; t < g->ndims; t++)
			s->drow[(u64)v * g->ndims + t] =
				base[t] + s->coord[(u64)v * g->ndims + t] * g->fsize[t];
	s->two_d = g->ndims == 2;
	return 0;
}

/* Port @c weighed: its queue, or ~0 when it is not on the way (@not ~0). */
static __always_inline void weigh_unless(const u32 *q, u32 c, u32 not, u32 *best, u32 *least)
{
	u32 len = q[c] | not;

	*best = len < *least ? c : *best;
	*least = len < *least ? len : *least;
}

/* ... @on 1 when it is on the way, 0 when not. */
static __always_inline void weigh(const u32 *q, u32 c, u32 on, u32 *best, u32 *least)
{
	weigh_unless(q, c, on - 1, best, least);
}

/*
 * One factor's step of the way from the node whose table rows are @rv to
 * processor coordinates @cd: its distance, and its ports weighed, the
 * second's index computed rather than chosen (a branch on it would be on
 * the traffic).  *@off moves past the factor's ports.
 */
static __always_inline void way_step(const struct txn_engine *e, const struct gen *s,
				     const u32 *rv, const u32 *cd, u32 t, u32 *off, u32 *dist,
				     u32 *best, u32 *least)
{
	const struct dstep *st = &s->dtab[rv[t] + cd[t]];

	*dist += st->dist;
	weigh_unless(e->pq_len, *off, (u32)(s32)st->not0, best, least);
	/* a's last port in the factor: its first again where it has one */
	weigh_unless(e->pq_len, *off + st->width - 1, (u32)(s32)st->not1, best, least);
	*off += st->width;
}

/*
 * way_step() computed, for factors past DTAB_K: a ring's or array's step
 * from coordinate @a towards @b (@k of them), its distance and its ports
 * on a shortest path weighed (a ring's backward one first, as
 * way_by_coord does).  The branches on @kind and @k go the same way every
 * hop.  *@off moves past the factor's ports.
 */
static __always_inline void ring_step(const u32 *q, u32 kind, u32 k, u32 a, u32 b, u32 *off,
				      u32 *dist, u32 *best, u32 *least)
{
	u32 ne = a != b, up = b > a, fw, bw;

	if (kind == TXNET_DIM_LINEAR) {
		*dist += up ? b - a : a - b;
		/* its ports: down where a > 0, then up where a < k - 1 */
		weigh(q, *off + (up & (a > 0)), ne, best, least);
		*off += (a > 0) + (a < k - 1);
		return;
	}
	if (k == 2) {
		*dist += ne;
		weigh(q, *off, ne, best, least);
		*off += 1;
		return;
	}
	fw = b >= a ? b - a : b + k - a;
	bw = k - fw;
	*dist += fw < bw ? fw : bw;
	weigh(q, *off, ne & (bw <= fw), best, least);
	weigh(q, *off + 1, ne & (fw <= bw), best, least);
	*off += 2;
}

/*
 * way_by_coord by steps, a factor at a time: from the tables (@table:
 * way_step()) or computed (ring_step()), without a branch on the data:
 * which ports lie on a shortest path, and which of them has the shortest
 * queue, are as random as the packets, and a mispredicted branch costs
 * more than the rest of the hop.  The same ports weighed in the same order.
 */
static __always_inline u32 way_by_steps_n(const struct txn_engine *e, const struct gen *s, u32 v,
					  u32 d, u32 *key, u32 nd, const bool table)
{
	const struct txn_graph *g = e->g;
	const u32 *cv = (table ? s->drow : s->coord) + (u64)v * nd, *cd = s->coord + (u64)d * nd;
	u32 first = g->first[v], off = first, dist = 0, best = first, least = ~0U, t;

	for (t = 0; t < nd; t++) {
		if (table)
			way_step(e, s, cv, cd, t, &off, &dist, &best, &least);
		else
			ring_step(e->pq_len, g->fkind[t], g->fsize[t], cv[t], cd[t], &off, &dist,
				  &best, &least);
	}
	*key = key_of(s, dist);
	return best;
}

/* Rings, 2-D and 3-D tori unrolled: the loop's exit is a branch too. */
static __always_inline u32 way_by_steps(const struct txn_engine *e, const struct gen *s, u32 v,
					u32 d, u32 *key, const bool table)
{
	switch (e->g->ndims) {
	case 1:
		return way_by_steps_n(e, s, v, d, key, 1, table);
	case 2:
		return way_by_steps_n(e, s, v, d, key, 2, table);
	case 3:
		return way_by_steps_n(e, s, v, d, key, 3, table);
	default:
		return way_by_steps_n(e, s, v, d, key, e->g->ndims, table);
	}
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

/*
 * The way on from @v towards processor @d: the shortest-path link with the
 * shortest queue (minimal adaptive routing), so that traffic spreads over
 * all the shortest paths instead of one tree's; *@key its distance.  Where
 * the distance is too large to be kept exactly, the tree's link.
 */
static __always_inline u32 way_toward(const struct txn_engine *e, const struct gen *s, u32 v,
				      u32 d, u32 *key)
{
	const struct hop *h;
	u32 best, first, l;
	u8 m;

	if (s->tag && !s->faulty)
		return way_by_tag(e, s, v, d, key);
	if (s->dtab && !s->faulty)
		return way_by_steps(e, s, v, d, key, true);
	if (s->ringed && !s->faulty)
		return way_by_steps(e, s, v, d, key, false);
	if (s->coord && !s->faulty)
		return way_by_coord(e, s, v, d, key);
	h = &s->route[(u64)s->row_of[d] * s->V + v];
	best = h->link;
	m = h->prod;

	/* More than one way on: the emptiest; ports past 7 are not weighed. */
	if (m & (m - 1)) {
		first = e->g->first[v];
		for (; m; m &= m - 1) {
			l = first + __builtin_ctz(m);
			if (e->pq_len[l] < e->pq_len[best])
				best = l;
		}
	}
	*key = h->dist;
	return best;
}

static void send_toward(struct txn_engine *e, u32 pkt, u32 v, u32 d)
{
	u32 key, l = way_toward(e, e->priv, v, d, &key);

	txn_pq_push(e, l, key, pkt);
}

/*
 * Tabled tori and meshes of @nd (2 or 3) factors: their steps unrolled and
 * the key left to the engine's cap.  way_by_steps_n() here instead, with
 * its loop and key_of(), costs 10-11% more instructions a run (16x16 torus,
 * 8x8x8 torus, 32x32 mesh).
 */
static __always_inline u64 onward_tabled(const struct txn_engine *e, u32 v, u32 d, const u32 nd)
{
	const struct gen *s = e->priv;
	const u32 *rv = s->drow + nd * (u64)v, *cd = s->coord + nd * (u64)d;
	u32 first = e->g->first[v], off = first, dist = 0, best = first, least = ~0U;

	way_step(e, s, rv, cd, 0, &off, &dist, &best, &least);
	way_step(e, s, rv, cd, 1, &off, &dist, &best, &least);
	if (nd == 3)
		way_step(e, s, rv, cd, 2, &off, &dist, &best, &least);
	/* key_of()'s cap is the engine's: it keeps an onward() key below pq_keys (s->keys) */
	return txn_way(best, dist);
}

/*
 * Rings and linear arrays of any size: their one step computed, without
 * way_by_steps()'s dispatch on the factor count and the table's rows, and
 * without key_of() (way_by_steps_n() with one factor: ring 256's total
 * exchange 757 M -> 792 M instructions).
 */
static __always_inline u64 onward_1d(const struct txn_engine *e, u32 v, u32 d)
{
	const struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u32 off = g->first[v], dist = 0, best = off, least = ~0U;

	ring_step(e->pq_len, g->fkind[0], g->fsize[0], s->coord[v], s->coord[d], &off, &dist,
		  &best, &least);
	return txn_way(best, dist);
}

/* The networks onward_all() has a loop of its own for. */
enum leaf {
	LEAF_ANY,	/* every other network, or faults: way_toward() */
	LEAF_1D,	/* rings and linear arrays */
	LEAF_2D,	/* 2-D tori and meshes of up to DTAB_K a side, the common case */
	LEAF_3D,	/* 3-D ones */
	LEAF_STEPS,	/* other tabled products */
	LEAF_RINGS,	/* rings, arrays and their products past DTAB_K a side */
	LEAF_CUBE,	/* hypercubes: way_on_cube() */
};

/* The loop that routes this run's unicast packets as it stands (faults change it). */
static enum leaf gen_leaf(const struct gen *s, const struct txn_graph *g)
{
	if (s->faulty || s->tag)
		return LEAF_ANY;
	if (s->one_d)
		return LEAF_1D;
	if (s->two_d)
		return LEAF_2D;
	if (s->dtab && g->ndims == 3)
		return LEAF_3D;
	if (s->dtab)
		return LEAF_STEPS;
	if (s->ringed)
		return LEAF_RINGS;
	if (s->cube)
		return LEAF_CUBE;
	return LEAF_ANY;
}

/* The way on from @v, where a packet bound for @d landed, by loop @k. */
static __always_inline u64 way_of(const struct txn_engine *e, u32 v, u32 d, const enum leaf k)
{
	u32 key, l;

	switch (k) {
	case LEAF_1D:
		return onward_1d(e, v, d);
	case LEAF_2D:
		return onward_tabled(e, v, d, 2);
	case LEAF_3D:
		return onward_tabled(e, v, d, 3);
	case LEAF_STEPS:
		l = way_by_steps(e, e->priv, v, d, &key, true);
		break;
	case LEAF_RINGS:
		l = way_by_steps(e, e->priv, v, d, &key, false);
		break;
	case LEAF_CUBE:
		l = way_on_cube(e, e->priv, v, d, &key);
		break;
	default:
		l = way_toward(e, e->priv, v, d, &key);
		break;
	}
	return txn_way(l, key);
}

static __always_inline void ways_of(const struct txn_engine *e, const struct txn_landed *a, u32 n,
				    u64 *ways, const enum leaf k)
{
	u32 i;

	for (i = 0; i < n; i++)
		ways[i] = way_of(e, a[i].at, a[i].dst, k);
}

/*
 * A loop of its own for each: registers allocated for it alone, and
 * nothing saved across a call each hop.
 */
#define WAYS(name, k)								\
static noinline void name(const struct txn_engine *e, const struct txn_landed *a, u32 n,	\
			  u64 *ways)						\
{										\
	ways_of(e, a, n, ways, k);						\
}

WAYS(ways_any, LEAF_ANY)
WAYS(ways_1d, LEAF_1D)
WAYS(ways_2d, LEAF_2D)
WAYS(ways_3d, LEAF_3D)
WAYS(ways_steps, LEAF_STEPS)
WAYS(ways_rings, LEAF_RINGS)
WAYS(ways_cube, LEAF_CUBE)
#undef WAYS

static void (*const ways_by_leaf[])(const struct txn_engine *e, const struct txn_landed *a,
				    u32 n, u64 *ways) = {
	[LEAF_ANY] = ways_any, [LEAF_1D] = ways_1d, [LEAF_2D] = ways_2d, [LEAF_3D] = ways_3d,
	[LEAF_STEPS] = ways_steps, [LEAF_RINGS] = ways_rings, [LEAF_CUBE] = ways_cube,
};

/* The tick's landed packets: the loop chosen once a tick, so that no hop pays for the choice. */
static void gen_onward_all(const struct txn_engine *e, const struct txn_landed *a, u32 n,
			   u64 *ways)
{
	ways_by_leaf[gen_leaf(e->priv, e->g)](e, a, n, ways);
}

/* One unicast packet's way (the engine asks onward_all() for a tick's). */
static u64 gen_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	u32 key, l = way_toward(e, e->priv, e->g->dst[link], dst, &key);

	(void)pkt;
	return txn_way(l, key);
}

/*
 * A partial sum at @v after its tree towards @d was mended (sum_mend()):
 * complete there, it goes on to its parent; not yet, it rests where it is
 * until the others reach it, as does one at @d.
 */
static u64 sum_way(const struct txn_engine *e, const struct gen *s, u32 pkt, u32 v, u32 d)
{
	u64 at = red_row(s, d) + v;

	if (v == d || txn_pkt_count(e, pkt) != red_sub(s, at))
		return txn_way(TXN_WAY_KEEP, 0);
	return txn_way(red_link(e->g, s, at, v), red_dist(s, at));
}

static u64 gen_way_from(const struct txn_engine *e, u32 pkt, u32 v, u32 dst)
{
	const struct gen *s = e->priv;
	u32 key, l;
	u64 base;

	if (s->tgt && s->tgt[pkt] != TXN_NONE) {
		/* an addressed copy: toward its processor */
		l = way_toward(e, s, v, s->tgt[pkt], &key);
		return txn_way(l, key);
	}
	/* a tree copy: its processor has the message and sends it down the mended tree */
	if (s->state)
		return txn_way(TXN_WAY_DROP, 0);
	if (s->first_of) {
		/* a partial sum on up its mended tree, or it rests */
		if (tree_sum(e->g, e->p.op) || txn_pkt_count(e, pkt) < s->n)
			return sum_way(e, s, pkt, v, sum_result(e, s, pkt));
		/* a data sum's total on to its child, or it rests */
		if (s->to[pkt] == TXN_NONE)
			return txn_way(TXN_WAY_KEEP, 0);
		base = (u64)s->orow_of[s->center] * s->V;
		return txn_way(txn_link_between(e->g, v, s->to[pkt]), s->height[base + s->to[pkt]]);
	}
	l = way_toward(e, s, v, dst, &key);
	return txn_way(l, key);
}

/* Queue partial sum @pkt at @v on the reduction tree towards @d: where it merges. */
static void send_tree(struct txn_engine *e, u32 pkt, u32 v, u32 d)
{
	struct gen *s = e->priv;
	u64 at;
	u32 l, key;

	if (s->tag && !s->faulty) {
		l = way_by_tag(e, s, v, d, &key);
		txn_pq_push(e, l, key, pkt);
		return;
	}
	if (s->switches) {
		at = (u64)s->row_of[d] * s->V + v;
		txn_pq_push(e, s->route[at].link, s->route[at].dist, pkt);
		return;
	}
	at = red_row(s, d) + v;
	l = red_link(e->g, s, at, v);
	if (s->to)
		s->to[pkt] = e->g->dst[l];
	txn_pq_push(e, l, red_dist(s, at), pkt);
}

/*
 * A tree copy queued on @l, its child noted where faults may need it; a
 * data sum's total whose tree link is down goes to the child around it,
 * addressed (the tree is not mended: data_sum_reroute()).
 */
static __always_inline void push_down(struct txn_engine *e, struct gen *s, u32 l, u8 key,
				      u32 pkt)
{
	if (e->p.op == TXNET_OP_DATA_SUM && s->faulty && txn_link_down(e, l)) {
		s->tgt[pkt] = e->g->dst[l];
		send_toward(e, pkt, e->g->src[l], s->tgt[pkt]);
		return;
	}
	if (s->to)
		s->to[pkt] = e->g->dst[l];
	txn_pq_push(e, l, key, pkt);
}

/*
 * The link to @v's child after link @l (TXN_NO_LINK: its first) in row
 * @base's tree, in port order, from the word @kids (what is left of it) or
 * the list; TXN_NO_LINK: no more.
 */
static __always_inline u32 next_kid(const struct gen *s, const struct txn_graph *g, u64 base,
				    u32 v, u32 l, u32 *kids)
{
	if (s->kids) {
		if (!*kids)
			return TXN_NO_LINK;
		l = g->first[v] + (u32)__builtin_ctz(*kids);
		*kids &= *kids - 1;
		return l;
	}
	return l == TXN_NO_LINK ? s->kid[base + v] : s->sib[base + g->dst[l]];
}

/*
 * Down the tree of origin @r: a copy to every child but the last, which
 * gets @pkt itself, unless @fold: then @pkt is folded here.  A leaf drops
 * its copy: it has the message, which a mend sends on afresh from where
 * the engine says it is (resend_mended()), so slots are needed only for
 * the copies in flight.
 */
static void distribute(struct txn_engine *e, u32 pkt, u32 v, u32 r, bool fold)
{
	struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u64 base = (u64)s->orow_of[r] * s->V;
	u32 l, last = TXN_NO_LINK, c, kids = s->kids ? s->kids[base + v] : 0;

	for (l = next_kid(s, g, base, v, TXN_NO_LINK, &kids); l != TXN_NO_LINK;
	     l = next_kid(s, g, base, v, l, &kids)) {
		if (last != TXN_NO_LINK) {
			c = txn_copy(e, pkt);
			if (c == TXN_NONE)
				return;
			push_down(e, s, last, s->height[base + g->dst[last]], c);
		}
		last = l;
	}
	if (last != TXN_NO_LINK && !fold) {
		push_down(e, s, last, s->height[base + g->dst[last]], pkt);
		return;
	}
	if (last != TXN_NO_LINK) {
		c = txn_copy(e, pkt);
		if (c == TXN_NONE)
			return;
		push_down(e, s, last, s->height[base + g->dst[last]], c);
	}
	if (fold)
		txn_fold(e, pkt);
	else
		txn_drop_copy(e, pkt);
}

enum tree_state { T_NEEDS, T_SOURCE };

/* What mending trees needs: a search's queue, and per tree kind the above. */
static int tree_scratch(struct txn_engine *e, struct gen *s)
{
	u32 pkt;

	s->bq = txn_alloc_array(s->n, sizeof(u32));
	if (!s->bq)
		return -ENOMEM;
	if (tree_broadcast(e->g, e->p.op)) {
		s->state = txn_alloc_array(s->n, 1);
		return s->state ? 0 : -ENOMEM;
	}
	/* results (sums): at most n */
	s->first_of = txn_alloc_array(s->n, sizeof(u32));
	if (!s->first_of)
		return -ENOMEM;
	if (e->p.op != TXNET_OP_DATA_SUM)
		return 0;
	s->to = txn_alloc_array(e->npkts, sizeof(u32));
	if (!s->to)
		return -ENOMEM;
	for (pkt = 0; pkt < e->npkts; pkt++)
		s->to[pkt] = TXN_NONE;
	return 0;
}

/*
 * Sums, at the first mend: the lists of each result's slots (n x n for a
 * multinode one), and what each vertex collects, its own partial until
 * its row is mended.
 */
static int sum_lists(struct txn_engine *e, struct gen *s)
{
	u64 i, count = (u64)s->crows * s->V;

	if (!s->next_of)
		s->next_of = txn_alloc_array(e->npkts, sizeof(u32));
	if (!s->next_of)
		return -ENOMEM;
	if (s->hold)
		return 0;
	s->hold = txn_alloc_array(count, sizeof(u32));
	if (!s->hold)
		return -ENOMEM;
	for (i = 0; i < count; i++)
		s->hold[i] = HOLD_OWN;
	return 0;
}

/* The origin of broadcast message @m: its tree's row. */
static u32 msg_origin(const struct txn_engine *e, u32 m)
{
	return e->p.op == TXNET_OP_BROADCAST ? e->p.root : m;
}

/*
 * Message @m's tree mended around the links down: every copy still queued
 * is dropped (the requeue after reroute(): gen_way_from()), and what is
 * left to inform hangs off a forest searched from the processors that have
 * the message, which the engine's ledger says, through those that lack it
 * only (a copy reaching one that has it would be delivered twice).  The
 * next choice sends it down the forest afresh (resend_mended()).
 */
static int tree_mend(struct txn_engine *e, struct gen *s, u32 m)
{
	const struct txn_graph *g = e->g;
	u32 n = s->n, head = 0, tail = 0, v, w, l, i;
	u64 base = (u64)s->orow_of[msg_origin(e, m)] * s->V;
	u8 *h = s->height + base;

	for (v = 0; v < n; v++) {
		s->state[v] = txn_has_msg(e, v, m) ? T_SOURCE : T_NEEDS;
		s->via[v] = TXN_NO_LINK;
		if (s->state[v] == T_SOURCE)
			s->bq[tail++] = v;
	}
	while (head < tail) {
		v = s->bq[head++];
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			w = g->dst[l];
			if (w < n && s->state[w] == T_NEEDS && s->via[w] == TXN_NO_LINK &&
			    !txn_link_down(e, l)) {
				s->via[w] = l;
				s->bq[tail++] = w;
			}
		}
	}
	/* the row: the forest's edges only, heights from its leaves up */
	memset(h, 0, s->V);
	clear_kids(s, base);
	for (i = tail; i-- > 0;) {
		w = s->bq[i];
		l = s->via[w];
		if (l == TXN_NO_LINK)
			continue;
		v = g->src[l];
		if (h[v] < key_of(s, h[w] + 1U))
			h[v] = key_of(s, h[w] + 1U);
		add_kid(s, g, base, l);
	}
	return tail < n ? -EHOSTUNREACH : 0;
}

/* Whether @v has children in the tree of origin @r. */
static bool has_kids(const struct gen *s, u32 r, u32 v)
{
	u64 base = (u64)s->orow_of[r] * s->V;

	return s->kids ? s->kids[base + v] : s->kid[base + v] != TXN_NO_LINK;
}

/*
 * After a mend, each processor with children in a mended tree sends its
 * message down it: a copy made afresh where the ledger says the message is
 * (the copies that were queued have been dropped, their slots free).
 */
static void resend_mended(struct txn_engine *e, struct gen *s)
{
	u32 msgs = e->p.op == TXNET_OP_BROADCAST ? 1 : s->n, m, v, r, c;

	for (m = 0; m < msgs; m++) {
		r = msg_origin(e, m);
		for (v = 0; v < s->n; v++) {
			if (!txn_has_msg(e, v, m) || !has_kids(s, r, v))
				continue;
			c = txn_copy_msg(e, v, m);
			if (c == TXN_NONE)
				return;
			distribute(e, c, v, r, false);
		}
	}
}

/*
 * Result @d's reduction tree searched afresh around the links down, and
 * the partial sums where they are hung on it: a node waits for what the
 * partials below it in the new tree carry (sub[], counted from them), and
 * a partial complete there goes on to its new parent; one that is not
 * rests (off the queue it was on) until the others reach it (sum_way(),
 * as the engine requeues what was queued).  A node whose partial went on
 * takes the first to arrive (reduce_at()).
 */
static int sum_mend(struct txn_engine *e, struct gen *s, u32 d)
{
	u64 row = red_row(s, d);
	u32 *queued = s->bq, *hold = &s->hold[row], pkt, v;
	int ret;

	/*
	 * Which partials are queued, from the old tree: a partial goes on the
	 * moment it is complete, so one complete where it is, short of d, is
	 * on a queue.
	 */
	for (pkt = s->first_of[d]; pkt != TXN_NONE; pkt = s->next_of[pkt]) {
		v = txn_pkt_loc(e, pkt);
		queued[v] = v != d && txn_pkt_count(e, pkt) == red_sub(s, row + v);
	}
	txn_paths_toward(&s->P, d, s->via);
	ret = tree_reaches_all(s);
	if (ret)
		return ret;
	set_ups(s, row);
	for (v = 0; v < s->V; v++) {
		red_set_sub(s, row + v, 0);
		hold[v] = TXN_NONE;
	}
	for (pkt = s->first_of[d]; pkt != TXN_NONE; pkt = s->next_of[pkt]) {
		v = txn_pkt_loc(e, pkt);
		/* one partial a node: arrivals merge into it, and it goes once complete */
		if (hold[v] != TXN_NONE)
			return -EOPNOTSUPP;
		hold[v] = pkt;
		red_set_sub(s, row + v, txn_pkt_count(e, pkt));
	}
	/* the search's order, from d out: every node after its parent */
	add_up(s, row, s->P.queue, s->P.reached);
	/* a resting partial now complete goes on; the engine requeues the rest */
	for (pkt = s->first_of[d]; pkt != TXN_NONE; pkt = s->next_of[pkt]) {
		v = txn_pkt_loc(e, pkt);
		if (v != d && txn_pkt_count(e, pkt) == red_sub(s, row + v) && !queued[v])
			send_tree(e, pkt, v, d);
	}
	return e->failed ? -EPROTO : 0;
}

/*
 * A single-port broadcast's spread goes on around the links down (each
 * tick it hands the message over links, one hop, in the tick it chooses:
 * nothing is ever queued): every processor that has the message offers
 * it again, so that one cut off from its old neighbours by the fault is
 * reached from another.  A processor the faults cut off refuses it.
 */
static int spread_reroute(struct txn_engine *e, struct gen *s)
{
	const struct txn_graph *g = e->g;
	u32 v, l, w, head = 0, tail = 0;

	if (take_down(e, s))
		return -ENOMEM;
	s->nholders = 0;
	for (v = 0; v < s->n; v++) {
		s->via[v] = s->got[v] != TXN_NONE ? 0 : TXN_NO_LINK;
		if (s->got[v] != TXN_NONE) {
			s->holders[s->nholders++] = v;
			s->bq[tail++] = v;
		}
	}
	while (head < tail) {
		v = s->bq[head++];
		for (l = g->first[v]; l < g->first[v + 1]; l++) {
			w = g->dst[l];
			if (s->via[w] == TXN_NO_LINK && !txn_link_down(e, l)) {
				s->via[w] = l;
				s->bq[tail++] = w;
			}
		}
	}
	return tail == s->n ? 0 : -EHOSTUNREACH;
}

/*
 * A data sum: the partials on their way to the centre are hung on a
 * reduction tree searched afresh (sum_mend()); the total on its way down
 * keeps its tree, and a copy of it whose tree link is down goes to that
 * child around the fault, addressed (route tables toward every processor,
 * built here), the child then passing it down as before (push_down()
 * does the same for links down it meets later).
 */
static int data_sum_reroute(struct txn_engine *e, struct gen *s)
{
	const struct txn_graph *g = e->g;
	u32 n = s->n, pkt, loc, d, l;
	int ret;

	if ((u64)n * s->V * sizeof(struct hop) > REROUTE_BYTES_MAX)
		return -E2BIG;
	if (s->trows != n) {
		txn_free(s->row_of);
		txn_free(s->route);
		s->row_of = rows_map(n, n, s->center);
		s->route = txn_alloc_array((u64)n * s->V, sizeof(struct hop));
		if (!s->row_of || !s->route)
			return -ENOMEM;
		s->trows = n;
	}
	for (d = 0; d < n; d++) {
		ret = build_toward(s, d);
		if (ret)
			return ret;
		txn_cond_resched();
	}
	s->first_of[s->center] = TXN_NONE;
	for (pkt = e->npkts; pkt-- > 0;) {
		loc = txn_pkt_loc(e, pkt);
		if (loc == TXN_NONE || loc >= n)
			continue;
		if (txn_pkt_count(e, pkt) < n) {
			s->next_of[pkt] = s->first_of[s->center];
			s->first_of[s->center] = pkt;
			continue;
		}
		if (s->to[pkt] == TXN_NONE)
			continue;
		l = txn_link_between(g, loc, s->to[pkt]);
		if (txn_link_down(e, l)) {
			s->tgt[pkt] = s->to[pkt];
			s->to[pkt] = TXN_NONE;
		}
	}
	return sum_mend(e, s, s->center);
}

/* Tree broadcasts and sums: every message's, every result's tree mended around the links down. */
static int tree_reroute(struct txn_engine *e, struct gen *s)
{
	bool sum = tree_sum(e->g, e->p.op);
	u32 msgs = e->p.op == TXNET_OP_BROADCAST ? 1 : s->n, m, pkt, loc;
	int ret;

	if (take_down(e, s) || (s->first_of && sum_lists(e, s)))
		return -ENOMEM;
	if (e->p.op == TXNET_OP_DATA_SUM)
		return data_sum_reroute(e, s);
	if (!sum) {
		for (m = 0; m < msgs; m++) {
			ret = tree_mend(e, s, m);
			if (ret)
				return ret;
			txn_cond_resched();
		}
		s->mended = true;
		return 0;
	}
	for (m = 0; m < msgs; m++)
		s->first_of[m] = TXN_NONE;
	for (pkt = e->npkts; pkt-- > 0;) {
		loc = txn_pkt_loc(e, pkt);
		if (loc == TXN_NONE || loc >= s->n)
			continue;
		m = txn_pkt_dst(e, pkt);	/* a copy's tag: its message; a partial's: its result */
		s->next_of[pkt] = s->first_of[m];
		s->first_of[m] = pkt;
	}
	for (m = 0; m < msgs; m++) {
		if (s->crow_of[m] == TXN_NONE)
			continue;
		ret = sum_mend(e, s, m);
		if (ret)
			return ret;
		txn_cond_resched();
	}
	return 0;
}

/*
 * Faults: unicast packets go on by route[], built afresh by searches that
 * avoid the links down, for every destination (products, which route by
 * coordinates, get the table now), and so are a prefix sum's addressed
 * copies; tree broadcasts and sums mend their trees (tree_reroute()), a
 * single-port broadcast's spread goes on around them (spread_reroute()).
 * MINs' broadcasts and sums are fixed once built: they cannot route
 * around a fault.
 */
static int gen_reroute(struct txn_engine *e)
{
	struct gen *s = e->priv;
	u32 op = e->p.op, rows, d;
	int ret;

	if (s->first_of || s->state)
		return tree_reroute(e, s);
	if (s->spread)
		return spread_reroute(e, s);
	/* a prefix sum's copies are addressed (tgt[]) and routed like unicast packets */
	if (!unicast_op(op) && op != TXNET_OP_PREFIX_SUM)
		return -EOPNOTSUPP;
	rows = all_toward(op, s->switches) ? s->n : 1;
	/* a single-port prefix sum's table on a product was charged at its start */
	if ((u64)rows * s->V * sizeof(struct hop) > REROUTE_BYTES_MAX &&
	    !(op == TXNET_OP_PREFIX_SUM && product_of_factors(e->g) &&
	      e->p.port_model == TXNET_PORT_SINGLE))
		return -E2BIG;
	if (take_down(e, s))
		return -ENOMEM;
	if (!s->route) {
		txn_free(s->row_of);
		s->row_of = rows_map(s->n, rows, txn_op_has_root(op) ? e->p.root : s->center);
		s->route = txn_alloc_array((u64)rows * s->V, sizeof(struct hop));
		if (!s->row_of || !s->route)
			return -ENOMEM;
		s->trows = rows;
	}
	for (d = 0; d < s->n; d++) {
		if (s->row_of[d] == TXN_NONE)
			continue;
		ret = build_toward(s, d);
		if (ret)
			return ret;
		txn_cond_resched();
	}
	return 0;
}

/* @v has the message (or the total) in @pkt and sends it on to others. */
static void become_holder(struct txn_engine *e, u32 pkt, u32 v)
{
	struct gen *s = e->priv;

	s->got[v] = pkt;
	s->holders[s->nholders++] = v;
	if (e->p.op == TXNET_OP_DATA_SUM) {
		u32 c = txn_copy(e, pkt);

		if (c != TXN_NONE)
			txn_fold(e, c);
	}
}

/* Spread: each holder gives the message to its farthest neighbour without it. */
static void spread_step(struct txn_engine *e)
{
	struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u32 i = 0, h, l, best, c;

	while (i < s->nholders) {
		h = s->holders[i];
		best = TXN_NO_LINK;
		for (l = g->first[h]; l < g->first[h + 1]; l++)
			if (!s->assigned[g->dst[l]] &&
			    !(s->faulty && txn_link_down_in(s->down, l)) &&
			    (best == TXN_NO_LINK || s->rd[g->dst[l]] > s->rd[g->dst[best]]))
				best = l;
		if (best == TXN_NO_LINK) {
			/* nothing left around it: it is done */
			s->holders[i] = s->holders[--s->nholders];
			continue;
		}
		c = txn_copy(e, s->got[h]);
		if (c == TXN_NONE)
			return;
		s->assigned[g->dst[best]] = 1;
		s->tgt[c] = g->dst[best];
		txn_move(e, c, best);
		i++;
	}
}

/* Doubling across switches: every holder whose line is idle sends one more copy. */
static void double_up(struct txn_engine *e)
{
	struct gen *s = e->priv;
	u32 i, h, c, origin = e->p.op == TXNET_OP_DATA_SUM ? s->center : e->p.root;

	for (i = 0; i < s->nholders && s->next_target < s->n; i++) {
		h = s->holders[i];
		if (e->qlen[h])
			continue;
		if (s->next_target == origin)
			s->next_target++;
		if (s->next_target >= s->n)
			break;
		c = txn_copy(e, s->got[h]);
		if (c == TXN_NONE)
			return;
		s->tgt[c] = s->next_target++;
		send_toward(e, c, h, s->tgt[c]);
	}
}

/* Chain: @p has the sum of 0..p-1 in @in (none for 0): add, pass on, keep. */
static void chain(struct txn_engine *e, u32 p, u32 in)
{
	struct gen *s = e->priv;
	u32 c;

	if (in != TXN_NONE && txn_merge(e, s->got[p], in))
		return;
	if (p + 1 < s->n) {
		c = txn_copy(e, s->got[p]);
		if (c == TXN_NONE)
			return;
		s->tgt[c] = p + 1;
		send_toward(e, c, p, p + 1);
	}
	txn_fold(e, s->got[p]);
}

static bool chain_fits(const struct gen *s, const struct txn_graph *g)
{
	u32 p;

	if ((u64)s->n - 1 > 2 * (u64)g->diameter)
		return false;
	for (p = 0; p + 1 < s->n; p++)
		if (txn_link_between(g, p, p + 1) == TXN_NO_LINK)
			return false;
	return true;
}

/*
 * Scan step by step at processor @p, as far as what has arrived allows:
 * entering step k, send the partial to p+2^k; leave it once the partial of
 * p-2^k has been added (none to wait for when p < 2^k).
 */
static void scan(struct txn_engine *e, u32 p, bool entering)
{
	struct gen *s = e->priv;
	u32 k, c, *in;

	for (;;) {
		k = s->stage[p];
		if ((1ULL << k) >= s->n) {
			txn_fold(e, s->got[p]);
			return;
		}
		if (entering && p + (1ULL << k) < s->n) {
			c = txn_copy(e, s->got[p]);
			if (c == TXN_NONE)
				return;
			s->tgt[c] = p + (1U << k);
			s->lev[c] = (u8)k;
			send_toward(e, c, p, s->tgt[c]);
		}
		if (p >= (1ULL << k)) {
			in = &s->inbox[(u64)p * SCAN_STEPS + k];
			if (*in == TXN_NONE || txn_merge(e, s->got[p], *in))
				return;
			*in = TXN_NONE;
		}
		s->stage[p]++;
		entering = true;
	}
}

/*
 * Where the partial @v collects for result @d is named (struct gen's
 * hold, root_hold); NULL: nowhere, it is @v's own.
 */
static inline u32 *hold_cell(const struct gen *s, u32 d, u32 v)
{
	u32 *h = s->hold ? &s->hold[(u64)s->crow_of[d] * s->V + v] : NULL;

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

/* A partial for @d reached processor @v on the reduction tree: merge, maybe send. */
static void reduce_at(struct txn_engine *e, u32 pkt, u32 v, u32 d)
{
	struct gen *s = e->priv;
	u32 *cell = hold_cell(s, d, v), h = cell ? *cell : txn_sum_slot(e, v, d);

	/*
	 * the result's own partial is folded from the start, and after a
	 * mend (sum_mend()) a node whose own partial went on: the first in
	 * (a node's own slot is never TXN_NONE: there is a cell)
	 */
	if (h == TXN_NONE)
		*cell = h = pkt;
	if (pkt != h && txn_merge(e, h, pkt))
		return;
	if (txn_pkt_count(e, h) != sub_at(s, d, v))
		return;
	if (v != d) {
		send_tree(e, h, v, d);
	} else if (s->switches) {
		become_holder(e, h, v);
	} else {
		distribute(e, h, v, d, true);
	}
}

/* @v's distance from @d up @d's reduction tree, where its row's is past the last key. */
static u32 far_dist(const struct txn_graph *g, const struct gen *s, u32 d, u32 v)
{
	u64 row = red_row(s, d);
	u32 x = 0;

	while (red_dist(s, row + v) == s->keys - 1 && red_up(s, row + v) != NO_PORT) {
		v = g->dst[red_link(g, s, row + v, v)];
		x++;
	}
	return x + red_dist(s, row + v);
}

/*
 * The partial sums complete from the start (each tree's leaves) sent on.
 * Distances past the last key share its bucket, and a bucket is a stack:
 * a link sends the partial pushed there last first.  So those that far
 * are pushed nearest first, by their distance up the tree, and in slot
 * order backwards within a distance.  Each waits in a list of its
 * distance and processor (of its distance: a sum's one result) chained
 * through its entry's sub, which names the next one's result (processor)
 * plus one, in 16 bits where entries are compact: a leaf's sub is its own
 * partial's count, set back as it goes.  Pushed in slot order instead,
 * one end of a linear array of 256 sent its nearest first, and the others
 * waited on it: 447 ticks, 255 now.
 */
static int start_sums(struct txn_engine *e, struct gen *s)
{
	const struct txn_graph *g = e->g;
	u32 levels = far_levels(g, e->p.op), pkt, v, d, x, m, i, lists;
	bool many = s->crows > 1;	/* slot v n + d: lists by v, of results */
	void *head = NULL;
	u64 at, k;

	lists = many ? s->n : 1;
	if (levels) {
		head = txn_zalloc_array((u64)levels * lists, far_head_bytes(s->crows));
		if (!head)
			return -ENOMEM;
	}
	for (pkt = 0; pkt < e->npkts; pkt++) {
		if (!(pkt & 4095))
			txn_cond_resched();	/* n^2 partials, the far ones walked */
		v = txn_pkt_loc(e, pkt);
		if (v == TXN_NONE)
			continue;
		d = sum_result(e, s, pkt);
		at = red_row(s, d) + v;
		if (head && v != d && red_dist(s, at) == s->keys - 1 &&
		    txn_pkt_count(e, pkt) == red_sub(s, at) && txn_sum_slot(e, v, d) == pkt) {
			/* a link down from the start may make a way longer than the diameter */
			x = far_dist(g, s, d, v) - (s->keys - 1);
			x = x < levels ? x : levels - 1;
			k = (u64)x * lists + (many ? v : 0);
			red_set_sub(s, at, far_head(head, many, k));
			set_far_head(head, many, k, (many ? d : v) + 1);
		} else {
			reduce_at(e, pkt, v, d);
		}
	}
	for (x = 0; x < levels; x++)
		for (m = lists; m-- > 0;)
			for (i = far_head(head, many, (u64)x * lists + m); i;) {
				v = many ? m : i - 1;
				d = many ? i - 1 : sum_result(e, s, txn_sum_slot(e, v, 0));
				pkt = txn_sum_slot(e, v, d);
				at = red_row(s, d) + v;
				i = red_sub(s, at);
				red_set_sub(s, at, txn_pkt_count(e, pkt));
				reduce_at(e, pkt, v, d);
			}
	txn_free(head);
	return 0;
}

/*
 * Links down from the start (txn_run_params.down): every table and tree
 * is searched around them, so that broadcasts and sums, whose trees are
 * fixed once built, go around them too.  A cut that leaves a processor
 * unreachable, tables past REROUTE_BYTES_MAX, or a MIN's trees refuse
 * the start (-EHOSTUNREACH, -E2BIG, -EOPNOTSUPP): the run then hears of
 * the faults at its first tick and fails there, naming a link.
 */
static int start_around_faults(struct txn_engine *e, struct gen *s)
{
	const struct txn_graph *g = e->g;
	u32 op = e->p.op;

	if (!txn_engine_links_down(e))
		return 0;
	/*
	 * Around a fault a MIN's copies and partial sums would pass through
	 * processors, where a copy is delivered and a partial merged.
	 */
	if (s->switches && !unicast_op(op))
		return -EOPNOTSUPP;
	/* the tables coordinates or tags did without, as gen_reroute_bytes() counts them */
	if (((unicast_op(op) && by_tag(g)) || coordinates(g, op, e->p.port_model)) &&
	    reroute_table_bytes(g, op) > REROUTE_BYTES_MAX)
		return -E2BIG;
	return take_down(e, s);
}

static int gen_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 op = e->p.op, n = g->procs, pkt, v, k, c;
	struct gen *s;
	int ret;

	s = txn_zalloc_array(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	e->priv = s;
	s->V = g->nodes;
	s->n = n;
	s->keys = gen_keys(g, &e->p);
	s->switches = g->nodes > n;
	ret = txn_paths_init(&s->P, g);
	if (ret)
		return ret;
	ret = start_around_faults(e, s);
	if (ret)
		return ret;
	if (addressed(g, op)) {
		s->tgt = txn_alloc_array(e->npkts, sizeof(u32));
		if (!s->tgt)
			return -ENOMEM;
		for (pkt = 0; pkt < e->npkts; pkt++)
			s->tgt[pkt] = TXN_NONE;
	}
	if (g->line) {
		s->line_at = txn_zalloc_array(g->links, sizeof(u64));
		if (!s->line_at)
			return -ENOMEM;
	}
	s->sent = txn_zalloc_array(s->V, sizeof(u64));
	s->recv = txn_zalloc_array(s->V, sizeof(u64));
	s->holders = txn_alloc_array(n, sizeof(u32));
	s->got = txn_alloc_array(n, sizeof(u32));
	if (!s->sent || !s->recv || !s->holders || !s->got)
		return -ENOMEM;
	if (op == TXNET_OP_PREFIX_SUM) {
		s->stage = txn_zalloc_array(n, 1);
		s->lev = txn_zalloc_array(e->npkts, 1);
		s->inbox = txn_alloc_array((u64)n * SCAN_STEPS, sizeof(u32));
		if (!s->stage || !s->lev || !s->inbox)
			return -ENOMEM;
		for (pkt = 0; pkt < n * SCAN_STEPS; pkt++)
			s->inbox[pkt] = TXN_NONE;
	}
	for (v = 0; v < n; v++)
		s->got[v] = TXN_NONE;
	if (op == TXNET_OP_DATA_SUM)
		s->center = find_center(s);
	if (coordinates(g, op, e->p.port_model) && !s->faulty) {
		s->cube = g->flsb;
		for (k = 0; k < g->ndims; k++)
			s->cube = s->cube && g->fsize[k] == 2;
		s->coord = txn_alloc_array((u64)s->V * g->ndims, sizeof(u32));
		if (!s->coord)
			return -ENOMEM;
		txn_graph_coords(g, s->coord);
		ret = s->cube ? 0 : build_dtab(s, g);
		if (ret)
			return ret;
		s->ringed = !s->cube && !s->dtab && ringed(g);
		s->one_d = g->ndims == 1 && ringed(g);
	}
	s->tag = by_tag(g) && !s->faulty;
	s->stages = s->tag ? txn_min_log2(n) : 0;
	ret = gen_tables(e, s);
	if (ret)
		return ret;
	if ((tree_broadcast(g, op) &&
	     !(op == TXNET_OP_BROADCAST && e->p.port_model == TXNET_PORT_SINGLE)) ||
	    tree_sum(g, op) || tree_data_sum(g, op)) {
		ret = tree_scratch(e, s);
		if (ret)
			return ret;
	}

	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
	case TXNET_OP_PERMUTATION:
		for (pkt = 0; pkt < e->npkts; pkt++)
			/* a permutation's message to its own sender is not sent */
			if (txn_pkt_loc(e, pkt) != TXN_NONE)
				send_toward(e, pkt, txn_pkt_loc(e, pkt), txn_pkt_dst(e, pkt));
		break;
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		for (pkt = 0; pkt < (op == TXNET_OP_BROADCAST ? 1 : n); pkt++) {
			v = txn_pkt_loc(e, pkt);
			if (op == TXNET_OP_BROADCAST && !s->switches &&
			    e->p.port_model == TXNET_PORT_SINGLE) {
				s->spread = true;
				s->assigned = txn_zalloc_array(n, 1);
				s->rd = txn_alloc_array(s->V, sizeof(u32));
				s->bq = txn_alloc_array(n, sizeof(u32));
				if (!s->assigned || !s->rd || !s->bq)
					return -ENOMEM;
				txn_paths_from(&s->P, v, s->via);
				if (tree_reaches_all(s))
					return -EHOSTUNREACH;
				memcpy(s->rd, s->P.dist, (size_t)s->V * sizeof(u32));
				s->assigned[v] = 1;
				become_holder(e, pkt, v);
			} else if (!s->switches) {
				distribute(e, pkt, v, v, false);
			} else if (op == TXNET_OP_BROADCAST) {
				become_holder(e, pkt, v);
			} else {
				/* Everyone sends to everyone, shifted, so no two aim alike. */
				for (k = 1; k < n; k++) {
					c = txn_copy(e, pkt);
					if (c == TXN_NONE)
						return 0;
					s->tgt[c] = (v + k) % n;
					send_toward(e, c, v, s->tgt[c]);
				}
			}
		}
		break;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
	case TXNET_OP_DATA_SUM:
		ret = start_sums(e, s);
		if (ret)
			return ret;
		break;
	case TXNET_OP_PREFIX_SUM:
		/* slot v is processor v's own value */
		for (v = 0; v < n; v++)
			s->got[v] = v;
		s->chain = chain_fits(s, g);
		if (s->chain)
			chain(e, 0, TXN_NONE);
		for (v = 0; v < n && !s->chain; v++)
			scan(e, v, true);
		break;
	}
	return e->failed ? -EPROTO : 0;
}

static void gen_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct gen *s = e->priv;
	u32 v = e->g->dst[link], op = e->p.op, d;

	if (s->tgt && s->tgt[pkt] != TXN_NONE) {
		d = s->tgt[pkt];
		if (v != d) {
			send_toward(e, pkt, v, d);
		} else if (op == TXNET_OP_PREFIX_SUM && s->chain) {
			chain(e, v, pkt);
		} else if (op == TXNET_OP_PREFIX_SUM) {
			s->inbox[(u64)v * SCAN_STEPS + s->lev[pkt]] = pkt;
			if (s->stage[v] == s->lev[pkt])
				scan(e, v, false);
		} else if (op == TXNET_OP_DATA_SUM && !s->switches) {
			/* a total sent around a fault: down the tree from here */
			s->tgt[pkt] = TXN_NONE;
			distribute(e, pkt, v, s->center, true);
		} else if (op == TXNET_OP_BROADCAST || op == TXNET_OP_DATA_SUM) {
			become_holder(e, pkt, v);
		}
		return;
	}
	switch (op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		distribute(e, pkt, v, msg_origin(e, txn_pkt_dst(e, pkt)), false);
		break;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		d = txn_pkt_dst(e, pkt);
		if (s->to)
			s->to[pkt] = TXN_NONE;
		if (v >= s->n)
			send_tree(e, pkt, v, d);
		else
			reduce_at(e, pkt, v, d);
		break;
	case TXNET_OP_DATA_SUM:
		if (s->to)
			s->to[pkt] = TXN_NONE;
		if (txn_pkt_count(e, pkt) == s->n)
			distribute(e, pkt, v, s->center, true);
		else if (v >= s->n)
			send_tree(e, pkt, v, s->center);
		else
			reduce_at(e, pkt, v, s->center);
		break;
	case TXNET_OP_PREFIX_SUM:
		break;	/* every scan packet is addressed */
	}
}

/*
 * What gen_arrive() will read, read early: for the arrival @far the
 * origin's tree row at its node (a multinode broadcast), or the result's
 * reduction row and the way on (a partial sum); for @near, whose row was
 * asked for when it was far, the partial waiting there.  Each row is one
 * of n rows of V, so an arrival would wait for memory.  Whether a packet
 * is addressed (tgt[]) is not read: it would wait.
 */
static bool gen_arrive_ahead(const struct txn_engine *e, const struct txn_move *far,
			     const struct txn_move *near)
{
	const struct gen *s = e->priv;
	u32 v = e->g->dst[far->link], d;
	u64 at;

	switch (s->hinted) {
	case HINT_TREE:
		/* a multinode broadcast's copy: its message is its origin */
		d = txn_pkt_dst(e, far->pkt);
		if (d >= s->n || s->orow_of[d] == TXN_NONE)
			return true;
		at = (u64)s->orow_of[d] * s->V + v;
		if (s->kids)
			txn_prefetch(&s->kids[at]);
		txn_prefetch(&s->height[at]);
		return true;
	case HINT_REDUCTION:
		d = txn_pkt_dst(e, far->pkt);
		/* unless merged by an arrival before it */
		if (d < s->n && s->crow_of[d] != TXN_NONE) {
			if (s->red)
				txn_prefetch(&s->red[red_row(s, d) + v]);
			else if (s->red_wide)
				txn_prefetch(&s->red_wide[red_row(s, d) + v]);
			if (s->switches && s->route && s->row_of[d] != TXN_NONE)
				txn_prefetch(&s->route[(u64)s->row_of[d] * s->V + v]);
		}
		v = e->g->dst[near->link];
		d = txn_pkt_dst(e, near->pkt);
		if (v < s->n && d < s->n && s->crow_of[d] != TXN_NONE)
			txn_pkt_prefetch(e, hold_of(e, s, d, v));
		return true;
	}
	return false;
}

/* Single-port: processor @v's choice, @best, goes (a switch has sent already). */
static void send_best(struct txn_engine *e, struct gen *s, u32 best, u64 t)
{
	const struct txn_graph *g = e->g;

	if (best == TXN_NO_LINK)
		return;
	s->recv[g->dst[best]] = t;
	if (g->line)
		s->line_at[g->line[best]] = t;
	txn_pq_send_top(e, best);
}

/*
 * Single-port with switches or shared lines (a MIN): the nodes with work
 * in [@lo, @hi) (node boundaries), in order: each processor picks its most
 * urgent link whose head has not received this tick (as
 * txn_pq_send_tops_single() does where there are processors alone);
 * switches send on every line.  A node's links are weighed together and
 * without a branch on their queues (which of them is busy or most urgent
 * is as random as the traffic).
 */
static void send_range(struct txn_engine *e, struct gen *s, u32 lo, u32 hi, u64 t)
{
	const struct txn_graph *g = e->g;
	u32 l, v, to, end, best, ok;
	u64 bits, most;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, end)) {
		v = g->src[l];
		end = g->first[v + 1];
		if (v >= s->n) {
			for (; l < end; l = txn_next_active(e, l + 1)) {
				to = g->dst[l];
				if ((to < s->n && s->recv[to] == t) ||
				    (g->line && s->line_at[g->line[l]] == t))
					continue;
				s->recv[to] = to < s->n ? t : 0;
				txn_pq_send_top(e, l);
			}
			continue;
		}
		best = TXN_NO_LINK;
		most = 0;
		for (l = g->first[v]; l < end; l++) {	/* as many each time: no misprediction */
			to = g->dst[l];
			ok = s->recv[to] != t || to >= s->n;	/* recv[] has every vertex */
			if (g->line)
				ok &= s->line_at[g->line[l]] != t;
			/*
			 * every queue here is a priority queue: the larger its
			 * key bits, the higher its top key (ties go to the next
			 * key down); an empty or refused link weighs 0
			 */
			bits = e->pq_bits[l] & -(u64)ok;
			best = bits > most ? l : best;
			most = bits > most ? bits : most;
		}
		send_best(e, s, best, t);
	}
}

/*
 * All-port: every link sends its most urgent packet.  Single-port: each
 * processor sends its most urgent packet over a link whose head has not
 * received yet this tick; switches send on every line.  Nodes take turns
 * at going first, so none is always last to find its receivers busy: the
 * links are visited from node tick mod V's first on, only those with work.
 */
static void gen_choose(struct txn_engine *e)
{
	struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u64 t = e->tick + 1;
	u32 start;

	if (s->mended) {
		s->mended = false;
		resend_mended(e, s);
	}
	if (s->spread)
		spread_step(e);
	else if (s->nholders)
		double_up(e);
	if (e->p.port_model != TXNET_PORT_SINGLE && !g->one_line) {
		txn_pq_send_tops(e);
		return;
	}
	start = g->first[e->tick % s->V];
	if (s->V == s->n && !g->line) {
		txn_pq_send_tops_single(e, start, s->recv);
		return;
	}
	send_range(e, s, start, g->links, t);
	send_range(e, s, 0, start, t);
}

const struct txn_sched txn_sched_general = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "shortest-path",
	.start = gen_start,
	.choose = gen_choose,
	.arrive = gen_arrive,
	.arrive_ahead = gen_arrive_ahead,
	.onward = gen_onward,
	.onward_all = gen_onward_all,
	.fini = gen_fini,
	.pq_keys = gen_keys,
	.priv_bytes = gen_priv_bytes,
	.reroute = gen_reroute,
	.reroute_bytes = gen_reroute_bytes,
	.way_from = gen_way_from,
};
