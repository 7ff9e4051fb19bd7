// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule: every operation on every topology, on shortest
 * paths found by breadth-first search (paths.c).  Not a paper's optimal
 * schedule but a sound one, with each choice made for a reason:
 *
 * - unicast (total exchange, scatter, gather, permutation): every packet follows a
 *   shortest path towards its destination; each link sends the packet with
 *   the furthest still to go first (the rule [Dimakopoulos94] proves optimal on a
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
#include "sched_general.h"

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
	txn_paths_free(&s->paths);
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
	s->vertices = g->nodes;
	s->n = n;
	s->keys = gen_keys(g, &e->p);
	s->switches = g->nodes > n;
	ret = txn_paths_init(&s->paths, g);
	if (ret)
		return ret;
	ret = gen_start_around_faults(e, s);
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
	s->sent = txn_zalloc_array(s->vertices, sizeof(u64));
	s->recv = txn_zalloc_array(s->vertices, sizeof(u64));
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
		s->center = gen_find_center(s);
	if (coordinates(g, op, e->p.port_model) && !s->faulty) {
		s->cube = g->flsb;
		for (k = 0; k < g->ndims; k++)
			s->cube = s->cube && g->fsize[k] == 2;
		s->coord = txn_alloc_array((u64)s->vertices * g->ndims, sizeof(u32));
		if (!s->coord)
			return -ENOMEM;
		txn_graph_coords(g, s->coord);
		ret = s->cube ? 0 : gen_build_dtab(s, g);
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
		ret = gen_tree_scratch(e, s);
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
				gen_send_toward(e, pkt, txn_pkt_loc(e, pkt), txn_pkt_dst(e, pkt));
		break;
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		for (pkt = 0; pkt < (op == TXNET_OP_BROADCAST ? 1 : n); pkt++) {
			v = txn_pkt_loc(e, pkt);
			if (op == TXNET_OP_BROADCAST && !s->switches &&
			    e->p.port_model == TXNET_PORT_SINGLE) {
				s->spread = true;
				s->assigned = txn_zalloc_array(n, 1);
				s->rd = txn_alloc_array(s->vertices, sizeof(u32));
				s->bq = txn_alloc_array(n, sizeof(u32));
				if (!s->assigned || !s->rd || !s->bq)
					return -ENOMEM;
				txn_paths_from(&s->paths, v, s->via);
				if (gen_tree_reaches_all(s))
					return -EHOSTUNREACH;
				memcpy(s->rd, s->paths.dist, (size_t)s->vertices * sizeof(u32));
				s->assigned[v] = 1;
				gen_become_holder(e, pkt, v);
			} else if (!s->switches) {
				gen_distribute(e, pkt, v, v, false);
			} else if (op == TXNET_OP_BROADCAST) {
				gen_become_holder(e, pkt, v);
			} else {
				/* Everyone sends to everyone, shifted, so no two aim alike. */
				for (k = 1; k < n; k++) {
					c = txn_copy(e, pkt);
					if (c == TXN_NONE)
						return 0;
					s->tgt[c] = (v + k) % n;
					gen_send_toward(e, c, v, s->tgt[c]);
				}
			}
		}
		break;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
	case TXNET_OP_DATA_SUM:
		ret = gen_start_sums(e, s);
		if (ret)
			return ret;
		break;
	case TXNET_OP_PREFIX_SUM:
		/* slot v is processor v's own value */
		for (v = 0; v < n; v++)
			s->got[v] = v;
		s->chain = gen_chain_fits(s, g);
		if (s->chain)
			gen_chain(e, 0, TXN_NONE);
		for (v = 0; v < n && !s->chain; v++)
			gen_scan(e, v, true);
		break;
	}
	return e->failed ? -EPROTO : 0;
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
