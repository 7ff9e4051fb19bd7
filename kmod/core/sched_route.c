// SPDX-License-Identifier: GPL-2.0
/*
 * Open traffic (user ports): each packet follows a shortest path and waits
 * its turn in a FIFO per link.  Nothing is searched per packet:
 *
 * - on cartesian products (every topology but MINs and biswapped
 *   networks) a packet is routed in dimension order from coordinates, one
 *   hop at a time: no table at all;
 * - elsewhere from the in-tree of shortest paths towards its destination,
 *   found by one breadth-first search and kept in a cache of whole trees
 *   (one per destination when they fit in ROUTE_CACHE_BYTES, which covers
 *   every network of up to 724 vertices), so that a search is made once
 *   per destination, not once per packet.
 *
 * Works on every topology, MINs' one-way links included.  The choose step
 * visits only links with something queued (the engine's active bits).
 *
 * While links are down (faults) every network routes by the trees, found
 * by searches that avoid those links: products too, since dimension order
 * has no way around a broken link.
 */
#include "sched.h"
#include "paths.h"

#define ROUTE_CACHE_BYTES	(2U << 20)

struct route_state {
	u32 *coord;		/* products: V x ndims, port order */
	struct txn_paths P;	/* elsewhere: the search ... */
	u32 slots;		/* ... trees kept, direct-mapped by destination */
	u32 *tree_of;		/* per slot: the destination its tree is for, or TXN_NONE */
	u32 *tree;		/* slots x V: the out-link towards that destination */
	u64 *sent, *recv;	/* single-port: tick + 1 a node last sent / received */
	u64 *line_at;		/* MINs: tick + 1 a line last carried a packet */
	u64 *down;		/* the links the engine has down, copied at each reroute */
	bool faulty;		/* some are: trees, not coordinates */
};

static bool by_coord(const struct txn_graph *g)
{
	return g->ndims && g->nodes == g->procs;
}

static u32 cache_slots(const struct txn_graph *g)
{
	u64 per = (u64)g->nodes * sizeof(u32), slots = ROUTE_CACHE_BYTES / per;

	if (slots < 1)
		slots = 1;
	return slots < g->procs ? (u32)slots : g->procs;
}

static void route_fini(struct txn_engine *e)
{
	struct route_state *st = e->priv;

	if (!st)
		return;
	txn_free(st->coord);
	txn_paths_free(&st->P);
	txn_free(st->tree_of);
	txn_free(st->tree);
	txn_free(st->sent);
	txn_free(st->recv);
	txn_free(st->line_at);
	txn_free(st->down);
	txn_free(st);
	e->priv = NULL;
}

static int route_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 v = g->nodes, i;
	struct route_state *st = txn_zalloc_array(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	e->priv = st;
	st->sent = txn_zalloc_array(v, sizeof(u64));
	st->recv = txn_zalloc_array(v, sizeof(u64));
	if (g->line)
		st->line_at = txn_zalloc_array(g->links, sizeof(u64));
	if (!st->sent || !st->recv || (g->line && !st->line_at))
		goto nomem;
	if (by_coord(g)) {
		st->coord = txn_alloc_array((u64)v * g->ndims, sizeof(u32));
		if (!st->coord)
			goto nomem;
		txn_graph_coords(g, st->coord);
	}
	st->down = txn_zalloc_array((g->links + 63) / 64, sizeof(u64));
	if (!st->down)
		goto nomem;
	st->P.down = st->down;
	st->slots = cache_slots(g);
	st->tree_of = txn_alloc_array(st->slots, sizeof(u32));
	st->tree = txn_alloc_array((u64)st->slots * v, sizeof(u32));
	if (!st->tree_of || !st->tree || txn_paths_init(&st->P, g))
		goto nomem;
	st->P.down = st->down;
	for (i = 0; i < st->slots; i++)
		st->tree_of[i] = TXN_NONE;
	return 0;
nomem:
	route_fini(e);
	return -ENOMEM;
}

/*
 * Dimension order on a product: the first dimension in which @v and @d
 * differ, by the port that brings that coordinate closer (forward round a
 * ring at half its length).  Ports are in factor order (topo_impl.h).
 */
static u32 way_by_coord(const struct txn_graph *g, const struct route_state *st, u32 v, u32 d)
{
	const u32 *cv = st->coord + (u64)v * g->ndims, *cd = st->coord + (u64)d * g->ndims;
	u32 off = g->first[v], t, a, b, k, fw;

	for (t = 0; t < g->ndims; t++) {
		a = cv[t];
		b = cd[t];
		k = g->fsize[t];
		if (a == b) {
			off += txn_factor_degree(g->fkind[t], k, a);
			continue;
		}
		switch (g->fkind[t]) {
		case TXNET_DIM_LINEAR:
			return off + (b < a ? 0 : a > 0);
		case TXNET_DIM_RING:
			fw = b > a ? b - a : b + k - a;
			return off + (k > 2 && fw <= k - fw);
		default:	/* complete */
			return off + (b < a ? b : b - 1);
		}
	}
	return TXN_NO_LINK;
}

/* The out-link of @v towards @d from the cached in-tree of @d: one search per miss. */
static u32 way_by_tree(struct route_state *st, u32 v, u32 d)
{
	u32 slot = d % st->slots, *tree = st->tree + (u64)slot * st->P.g->nodes;

	if (st->tree_of[slot] != d) {
		txn_paths_toward(&st->P, d, tree);
		st->tree_of[slot] = d;
	}
	return tree[v];
}

static u32 way_on(const struct txn_engine *e, u32 v, u32 d)
{
	struct route_state *st = e->priv;

	return st->coord && !st->faulty ? way_by_coord(e->g, st, v, d) : way_by_tree(st, v, d);
}

/* Links went down or came up: trees searched afresh, around the ones down. */
static int route_reroute(struct txn_engine *e)
{
	struct route_state *st = e->priv;
	u32 i;

	txn_engine_copy_down(e, st->down);
	st->faulty = txn_engine_links_down(e) > 0;
	for (i = 0; i < st->slots; i++)
		st->tree_of[i] = TXN_NONE;
	return 0;
}

static u64 route_way_from(const struct txn_engine *e, u32 pkt, u32 v, u32 dst)
{
	(void)pkt;
	return txn_way(way_on(e, v, dst), 0);
}

static int route_inject(struct txn_engine *e, u32 pkt)
{
	u32 l = way_on(e, txn_pkt_src(e, pkt), txn_pkt_dst(e, pkt));

	if (l == TXN_NO_LINK)
		return -EHOSTUNREACH;
	txn_q_push(e, l, pkt);
	return 0;
}

static u64 route_onward(const struct txn_engine *e, u32 pkt, u32 link, u32 dst)
{
	(void)pkt;
	return txn_way(way_on(e, e->g->dst[link], dst), 0);
}

/* Whether link @l may send this tick under the port and line rules; if so it is taken. */
static bool may_send(struct txn_engine *e, struct route_state *st, u32 l, bool one, u64 t)
{
	const struct txn_graph *g = e->g;
	u32 from = g->src[l], to = g->dst[l];

	/* the port rule is the processors'; a MIN's lines are shared; a run beside goes first */
	if (g->line && st->line_at[g->line[l]] == t)
		return false;
	if (txn_line_taken(e, g->line ? g->line[l] : l))
		return false;
	if (one && ((from < g->procs && (st->sent[from] == t || txn_sent_taken(e, from))) ||
		    (to < g->procs && (st->recv[to] == t || txn_recv_taken(e, to)))))
		return false;
	if (one) {
		st->sent[from] = t;
		st->recv[to] = t;
	}
	if (g->line)
		st->line_at[g->line[l]] = t;
	return true;
}

/* Links with something queued in [@lo, @hi), in order. */
static void send_range(struct txn_engine *e, struct route_state *st, u32 lo, u32 hi, bool one,
		       u64 t)
{
	u32 l;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, l + 1))
		if (may_send(e, st, l, one, t))
			txn_move(e, txn_q_pop(e, l), l);
}

/*
 * All-port: every link sends its head (a MIN's shared line: the first of
 * its links).  Single-port: links are taken in turn, starting one further
 * each tick so that none starves, skipping any whose tail has sent or
 * whose head has received this tick.
 */
static void route_choose(struct txn_engine *e)
{
	struct route_state *st = e->priv;
	const struct txn_graph *g = e->g;
	bool one = e->p.port_model == TXNET_PORT_SINGLE || g->one_line;
	u64 t = e->tick + 1;
	u32 start = (u32)(e->tick % g->links);

	send_range(e, st, start, g->links, one, t);
	send_range(e, st, 0, start, one, t);
}

/* What route_start allocates. */
static u64 route_priv_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	u64 v = g->nodes, b = sizeof(struct route_state) + v * 2 * sizeof(u64) +
			      (g->line ? (u64)g->links * sizeof(u64) : 0);

	(void)op;
	(void)port;
	(void)npkts;
	if (by_coord(g))
		b += v * g->ndims * sizeof(u32);
	b += ((u64)g->links + 63) / 64 * sizeof(u64);
	return b + txn_paths_bytes(g) + (u64)cache_slots(g) * (1 + v) * sizeof(u32);
}

const struct txn_sched txn_sched_route = {
	.algo = TXNET_ALGO_AUTO,
	.name = "shortest-path",
	.start = route_start,
	.choose = route_choose,
	.onward = route_onward,
	.inject = route_inject,
	.fini = route_fini,
	.priv_bytes = route_priv_bytes,
	.reroute = route_reroute,
	.way_from = route_way_from,
};
