// SPDX-License-Identifier: GPL-2.0
/*
 * The general schedule at each arrival and each tick: a tree copy sent on
 * to the node's children, a partial merged and sent up once all its
 * children's have come, the prefix sum's doubling or chain, and the
 * single-port choice of which queue each processor sends from.
 */
#include "sched_general.h"

/* Queue partial sum @pkt at @v on the reduction tree towards @d: where it merges. */
void gen_send_tree(struct txn_engine *e, u32 pkt, u32 v, u32 d)
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
		at = (u64)s->row_of[d] * s->vertices + v;
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
		gen_send_toward(e, pkt, e->g->src[l], s->tgt[pkt]);
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
 * the engine says it is (gen_resend_mended()), so slots are needed only for
 * the copies in flight.
 */
void gen_distribute(struct txn_engine *e, u32 pkt, u32 v, u32 r, bool fold)
{
	struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u64 base = (u64)s->orow_of[r] * s->vertices;
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

/* What mending trees needs: a search's queue, and per tree kind the above. */
int gen_tree_scratch(struct txn_engine *e, struct gen *s)
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
int gen_sum_lists(struct txn_engine *e, struct gen *s)
{
	u64 i, count = (u64)s->crows * s->vertices;

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

/* @v has the message (or the total) in @pkt and sends it on to others. */
void gen_become_holder(struct txn_engine *e, u32 pkt, u32 v)
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
		gen_send_toward(e, c, h, s->tgt[c]);
	}
}

/* Chain: @p has the sum of 0..p-1 in @in (none for 0): add, pass on, keep. */
void gen_chain(struct txn_engine *e, u32 p, u32 in)
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
		gen_send_toward(e, c, p, p + 1);
	}
	txn_fold(e, s->got[p]);
}

bool gen_chain_fits(const struct gen *s, const struct txn_graph *g)
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
void gen_scan(struct txn_engine *e, u32 p, bool entering)
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
			gen_send_toward(e, c, p, s->tgt[c]);
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
		gen_send_tree(e, h, v, d);
	} else if (s->switches) {
		gen_become_holder(e, h, v);
	} else {
		gen_distribute(e, h, v, d, true);
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
int gen_start_sums(struct txn_engine *e, struct gen *s)
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

void gen_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct gen *s = e->priv;
	u32 v = e->g->dst[link], op = e->p.op, d;

	if (s->tgt && s->tgt[pkt] != TXN_NONE) {
		d = s->tgt[pkt];
		if (v != d) {
			gen_send_toward(e, pkt, v, d);
		} else if (op == TXNET_OP_PREFIX_SUM && s->chain) {
			gen_chain(e, v, pkt);
		} else if (op == TXNET_OP_PREFIX_SUM) {
			s->inbox[(u64)v * SCAN_STEPS + s->lev[pkt]] = pkt;
			if (s->stage[v] == s->lev[pkt])
				gen_scan(e, v, false);
		} else if (op == TXNET_OP_DATA_SUM && !s->switches) {
			/* a total sent around a fault: down the tree from here */
			s->tgt[pkt] = TXN_NONE;
			gen_distribute(e, pkt, v, s->center, true);
		} else if (op == TXNET_OP_BROADCAST || op == TXNET_OP_DATA_SUM) {
			gen_become_holder(e, pkt, v);
		}
		return;
	}
	switch (op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_MULTINODE_BROADCAST:
		gen_distribute(e, pkt, v, msg_origin(e, txn_pkt_dst(e, pkt)), false);
		break;
	case TXNET_OP_ACCUMULATE:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		d = txn_pkt_dst(e, pkt);
		if (s->to)
			s->to[pkt] = TXN_NONE;
		if (v >= s->n)
			gen_send_tree(e, pkt, v, d);
		else
			reduce_at(e, pkt, v, d);
		break;
	case TXNET_OP_DATA_SUM:
		if (s->to)
			s->to[pkt] = TXN_NONE;
		if (txn_pkt_count(e, pkt) == s->n)
			gen_distribute(e, pkt, v, s->center, true);
		else if (v >= s->n)
			gen_send_tree(e, pkt, v, s->center);
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
bool gen_arrive_ahead(const struct txn_engine *e, const struct txn_move *far,
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
		at = (u64)s->orow_of[d] * s->vertices + v;
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
				txn_prefetch(&s->route[(u64)s->row_of[d] * s->vertices + v]);
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
void gen_choose(struct txn_engine *e)
{
	struct gen *s = e->priv;
	const struct txn_graph *g = e->g;
	u64 t = e->tick + 1;
	u32 start;

	if (s->mended) {
		s->mended = false;
		gen_resend_mended(e, s);
	}
	if (s->spread)
		spread_step(e);
	else if (s->nholders)
		double_up(e);
	if (e->p.port_model != TXNET_PORT_SINGLE && !g->one_line) {
		txn_pq_send_tops(e);
		return;
	}
	start = g->first[e->tick % s->vertices];
	if (s->vertices == s->n && !g->line) {
		txn_pq_send_tops_single(e, start, s->recv);
		return;
	}
	send_range(e, s, start, g->links, t);
	send_range(e, s, 0, start, t);
}
