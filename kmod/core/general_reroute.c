// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule around faults: when links go down mid-run, unicast
 * packets take tables of searches that avoid them, broadcast and sum trees
 * are mended and what they lost is sent again; a run started with links
 * down searches around them from the start.
 */
#include "sched_general.h"

/*
 * What faults may allocate: those tables where they fit, and the copy of
 * the links down; charged when a run first has links down (an n x V table
 * charged by every run would be most of a total exchange's bytes).
 */
u64 gen_reroute_bytes(const struct txn_graph *g, u32 op, u32 port)
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

/*
 * Message @m's tree mended around the links down: every copy still queued
 * is dropped (the requeue after reroute(): gen_way_from()), and what is
 * left to inform hangs off a forest searched from the processors that have
 * the message, which the engine's ledger says, through those that lack it
 * only (a copy reaching one that has it would be delivered twice).  The
 * next choice sends it down the forest afresh (gen_resend_mended()).
 */
static int tree_mend(struct txn_engine *e, struct gen *s, u32 m)
{
	const struct txn_graph *g = e->g;
	u32 n = s->n, head = 0, tail = 0, v, w, l, i;
	u64 base = (u64)s->orow_of[msg_origin(e, m)] * s->vertices;
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
	memset(h, 0, s->vertices);
	gen_clear_kids(s, base);
	for (i = tail; i-- > 0;) {
		w = s->bq[i];
		l = s->via[w];
		if (l == TXN_NO_LINK)
			continue;
		v = g->src[l];
		if (h[v] < key_of(s, h[w] + 1U))
			h[v] = key_of(s, h[w] + 1U);
		gen_add_kid(s, g, base, l);
	}
	return tail < n ? -EHOSTUNREACH : 0;
}

/* Whether @v has children in the tree of origin @r. */
static bool has_kids(const struct gen *s, u32 r, u32 v)
{
	u64 base = (u64)s->orow_of[r] * s->vertices;

	return s->kids ? s->kids[base + v] : s->kid[base + v] != TXN_NO_LINK;
}

/*
 * After a mend, each processor with children in a mended tree sends its
 * message down it: a copy made afresh where the ledger says the message is
 * (the copies that were queued have been dropped, their slots free).
 */
void gen_resend_mended(struct txn_engine *e, struct gen *s)
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
			gen_distribute(e, c, v, r, false);
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
	txn_paths_toward(&s->paths, d, s->via);
	ret = gen_tree_reaches_all(s);
	if (ret)
		return ret;
	gen_set_ups(s, row);
	for (v = 0; v < s->vertices; v++) {
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
	gen_add_up(s, row, s->paths.queue, s->paths.reached);
	/* a resting partial now complete goes on; the engine requeues the rest */
	for (pkt = s->first_of[d]; pkt != TXN_NONE; pkt = s->next_of[pkt]) {
		v = txn_pkt_loc(e, pkt);
		if (v != d && txn_pkt_count(e, pkt) == red_sub(s, row + v) && !queued[v])
			gen_send_tree(e, pkt, v, d);
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

	if (gen_take_down(e, s))
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

	if ((u64)n * s->vertices * sizeof(struct hop) > REROUTE_BYTES_MAX)
		return -E2BIG;
	if (s->trows != n) {
		txn_free(s->row_of);
		txn_free(s->route);
		s->row_of = gen_rows_map(n, n, s->center);
		s->route = txn_alloc_array((u64)n * s->vertices, sizeof(struct hop));
		if (!s->row_of || !s->route)
			return -ENOMEM;
		s->trows = n;
	}
	for (d = 0; d < n; d++) {
		ret = gen_build_toward(s, d);
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

	if (gen_take_down(e, s) || (s->first_of && gen_sum_lists(e, s)))
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
int gen_reroute(struct txn_engine *e)
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
	if ((u64)rows * s->vertices * sizeof(struct hop) > REROUTE_BYTES_MAX &&
	    !(op == TXNET_OP_PREFIX_SUM && product_of_factors(e->g) &&
	      e->p.port_model == TXNET_PORT_SINGLE))
		return -E2BIG;
	if (gen_take_down(e, s))
		return -ENOMEM;
	if (!s->route) {
		txn_free(s->row_of);
		s->row_of = gen_rows_map(s->n, rows, txn_op_has_root(op) ? e->p.root : s->center);
		s->route = txn_alloc_array((u64)rows * s->vertices, sizeof(struct hop));
		if (!s->row_of || !s->route)
			return -ENOMEM;
		s->trows = rows;
	}
	for (d = 0; d < s->n; d++) {
		if (s->row_of[d] == TXN_NONE)
			continue;
		ret = gen_build_toward(s, d);
		if (ret)
			return ret;
		txn_cond_resched();
	}
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
int gen_start_around_faults(struct txn_engine *e, struct gen *s)
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
	return gen_take_down(e, s);
}
