// SPDX-License-Identifier: GPL-2.0
/*
 * The single-port pick: under the single-port model each node sends at
 * most one packet a tick, the most urgent of its ports' queue heads;
 * specialised walks for nodes of 2 and 4 ports and for nodes of very
 * many, where weighing every port each tick would dominate.
 */
#include "engine_queue.h"
/*
 * Link @l weighed against its node's best so far, without a branch on the
 * queues (which link is busy or most urgent is as random as the traffic).
 * Of two priority queues the one with the larger key bits has the higher
 * top key (a tie goes to the next key down); an empty link or one whose
 * head has received this tick weighs 0.
 */
static __always_inline void weigh_port(const struct txn_qs *q, const u32 *dst, const u64 *recv,
				       u64 t, u32 l, u32 *best, u64 *most)
{
	u64 bits = q->pq_bits[l] & -(u64)(recv[dst[l]] != t);

	*best = bits > *most ? l : *best;
	*most = bits > *most ? bits : *most;
	/*
	 * kept as it stands: knowing that a later port's win makes this
	 * choice dead, gcc would branch round it, on the traffic
	 */
	OPTIMIZER_HIDE_VAR(*best);
}

/*
 * What the single-port pick reads besides the queues, in a local: each
 * store to a move (u32s like e's fields) would make every field be read
 * again through @e.
 */
struct txn_pick {
	const u32 *dst;
	u64 *recv;
	struct txn_move *moves;
	u32 max;
	u64 t;
};

/* A node's choice @best (TXN_NONE: none) popped as move @n: the moves after it. */
static __always_inline u32 send_pick(const struct txn_pick *p, const struct txn_qs *q,
				     struct txn_pkt *pk, u32 best, u32 n)
{
	if (best == TXN_NONE)
		return n;
	p->recv[p->dst[best]] = p->t;
	if (n < p->max) {
		p->moves[n].pkt = pq_pop(q, pk, best);
		p->moves[n].link = best;
	} else {
		pq_pop(q, pk, best);
	}
	return n + 1;
}

/* The node whose links are [@l, @l + @links) (@deg, if all alike): weighed, its choice popped. */
static __always_inline u32 send_node(const struct txn_pick *p, const struct txn_qs *q,
				     struct txn_pkt *pk, u32 l, u32 links, u32 n, const u32 deg)
{
	u32 k, best = TXN_NONE;
	u64 most = 0;

	if (deg == 4) {		/* unrolled: -O2 keeps even a known count's loop */
		weigh_port(q, p->dst, p->recv, p->t, l, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 1, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 2, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 3, &best, &most);
	} else if (deg == 2) {
		weigh_port(q, p->dst, p->recv, p->t, l, &best, &most);
		weigh_port(q, p->dst, p->recv, p->t, l + 1, &best, &most);
	} else {
		for (k = 0; k < links; k++)	/* as many each time: no misprediction */
			weigh_port(q, p->dst, p->recv, p->t, l + k, &best, &most);
	}
	return send_pick(p, q, pk, best, n);
}

/* Links [@lo, @hi) on node boundaries, any degree: the nodes with work, by txn_next_active(). */
static __always_inline u32 send_single(struct txn_engine *e, const struct txn_pick *p,
				       const struct txn_qs *q, struct txn_pkt *pk, u32 lo, u32 hi,
				       u32 n)
{
	const u32 *first = e->g->first;
	u32 l, v;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, first[v + 1])) {
		v = q->src[l];
		n = send_node(p, q, pk, first[v], first[v + 1] - first[v], n, 0);
	}
	return n;
}

/*
 * send_wide()'s weighing of a node's links with work in [@l, @end): true
 * at the first whose head is free and whose bits are @top.
 */
static __always_inline bool weigh_wide(struct txn_engine *e, const struct txn_pick *p,
				       const struct txn_qs *q, u32 l, u32 end, u64 top, u32 *best,
				       u64 *most, u64 *all)
{
	u64 bits;

	for (l = txn_next_active(e, l); l < end; l = txn_next_active(e, l + 1)) {
		bits = q->pq_bits[l];
		*all = bits > *all ? bits : *all;
		if (p->recv[p->dst[l]] == p->t)
			continue;
		if (bits == top) {
			*best = l;
			return true;
		}
		if (bits > *most) {
			*most = bits;
			*best = l;
		}
	}
	return false;
}

/* Port (node + tick) mod degree of node @v, which has links: where its weighing starts at @t. */
static __always_inline u32 wide_rot(const u32 *first, u64 t, u32 v)
{
	return (u32)((t + v) % (first[v + 1] - first[v]));
}

/* @k ports on from port @rot of @deg (@k < @deg). */
static __always_inline u32 rot_on(u32 rot, u32 k, u32 deg)
{
	return rot + k >= deg ? rot + k - deg : rot + k;
}

/*
 * Where all nodes have @deg ports: the records the next nodes' picks
 * will most likely read, read ahead (node @v + 1's bucket needs its bits,
 * read ahead a node before); a pick alone is a chain of reads from far
 * apart, a few instructions each.
 */
static __always_inline void wide_ahead(const struct txn_pick *p, const struct txn_qs *q,
				       const u32 *first, u32 v, u32 rot, u32 deg)
{
	u32 l = first[v + 2] + rot_on(rot, 2, deg);
	u64 bits;

	txn_prefetch(&q->pq_bits[l]);
	txn_prefetch(&p->dst[l]);
	l = first[v + 1] + rot_on(rot, 1, deg);
	bits = q->pq_bits[l];
	if (bits)
		txn_prefetch(&q->pq[(u64)(63 - __builtin_clzll(bits)) * q->links + l]);
}

/*
 * Links [@lo, @hi) on node boundaries, where a node may have hundreds of
 * links (a complete graph): only its links with work are weighed, from
 * port (node + tick) mod degree on, round to the one before, and the
 * first whose head is free and whose bits are pq_node_max's is taken at
 * once: no link can outweigh it.  Weighing every port, and from the same
 * one each tick, would cost the degree a packet: every node would try
 * the heads the nodes before it took.  A node that takes none so weighs
 * them all (ties to the first from that port on), and its pq_node_max is
 * made exact: a pop may have left it above every link.  The start port
 * is tried before any walk (in a total exchange it is nearly always
 * taken), and where all nodes have the same degree it is one on from the
 * node before's: no division a node.
 */
static u32 send_wide(struct txn_engine *e, const struct txn_pick *p, const struct txn_qs *q,
		     struct txn_pkt *pk, u32 lo, u32 hi, u32 n)
{
	const u32 *first = e->g->first, deg = e->g->degree, nodes = e->g->nodes;
	u32 l, v = nodes, start, best, rot = 0;
	u64 most, all, top;
	bool after;

	for (l = txn_next_active(e, lo); l < hi; l = txn_next_active(e, first[v + 1])) {
		/* the node with work after @v's is most often the next one: src[] not read */
		after = v + 1 < nodes && l < first[v + 2];
		v = after ? v + 1 : q->src[l];
		rot = deg && after ? rot_on(rot, 1, deg) : wide_rot(first, p->t, v);
		if (deg && v + 2 < nodes)
			wide_ahead(p, q, first, v, rot, deg);
		start = first[v] + rot;
		top = q->pq_node_max[v];
		best = start;
		if (q->pq_bits[start] != top || p->recv[p->dst[start]] == p->t) {
			best = TXN_NONE;
			most = 0;
			all = 0;
			if (!weigh_wide(e, p, q, start, first[v + 1], top, &best, &most, &all) &&
			    !weigh_wide(e, p, q, first[v], start, top, &best, &most, &all))
				q->pq_node_max[v] = all;
		}
		n = send_pick(p, q, pk, best, n);
	}
	return n;
}

/*
 * The same where every node has @deg links, 2 or 4: a node's links are
 * @deg bits of one word of active[], so the words with work are walked
 * (the all-port pass's way) and each of their nodes looked at in turn;
 * a walk of the lowest bits would end each word where the traffic says.
 */
static __always_inline u32 send_single_words(const struct txn_pick *p, const struct txn_qs *q,
					     struct txn_pkt *pk, u32 lo, u32 hi, u32 n,
					     const u32 deg)
{
	u32 w, l, words = (hi + 63) / 64;
	u64 bits;

	for (w = txn_next_word(q->active_sum, lo / 64, words); w < words;
	     w = txn_next_word(q->active_sum, w + 1, words)) {
		bits = q->active[w];
		if (w == lo / 64)
			bits &= ~0ULL << (lo % 64);
		if (w == words - 1 && hi % 64)
			bits &= (1ULL << (hi % 64)) - 1;
		for (l = 0; l < 64; l += deg)	/* as many each time: no misprediction */
			if ((bits >> l) & ((1ULL << deg) - 1))
				n = send_node(p, q, pk, w * 64 + l, deg, n, deg);
	}
	return n;
}

void txn_pq_send_tops_single(struct txn_engine *vw, u32 from, u64 *recv)
{
	struct txn_engine *e = txn_trusted(vw);
	const struct txn_qs q = qs_of(e);
	const struct txn_pick p = {
		.dst = e->g->dst, .recv = recv, .moves = e->moves, .max = e->max_moves,
		.t = e->tick + 1,
	};
	struct txn_pkt *pk = e->ledger->pk;
	u32 n = vw->nmoves;

	if (!e->pq_keys) {
		txn_violate(e, e->tick + 1, TXN_NONE, TXN_NONE,
			    "a queue of a kind this run does not have: the scheduler made it up");
		return;
	}
	/* from a node's first link: no node is cut in two, weighed in both halves */
	from = from < q.links ? e->g->first[q.src[from]] : 0;
	/* the common degrees, their loops unrolled */
	switch (e->g->degree) {
	case 4:
		n = send_single_words(&p, &q, pk, from, q.links, n, 4);
		n = send_single_words(&p, &q, pk, 0, from, n, 4);
		break;
	case 2:
		n = send_single_words(&p, &q, pk, from, q.links, n, 2);
		n = send_single_words(&p, &q, pk, 0, from, n, 2);
		break;
	default:
		if (q.pq_node_max) {
			n = send_wide(e, &p, &q, pk, from, q.links, n);
			n = send_wide(e, &p, &q, pk, 0, from, n);
			break;
		}
		n = send_single(e, &p, &q, pk, from, q.links, n);
		n = send_single(e, &p, &q, pk, 0, from, n);
		break;
	}
	vw->nmoves = n;
}
