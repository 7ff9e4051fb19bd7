// SPDX-License-Identifier: GPL-2.0
/*
 * Data sum and prefix sum on a cartesian product of linear arrays, rings
 * and complete graphs, one dimension after another, the least significant
 * first.  Summing a dimension after another is what the global combines
 * of meshes do ([Barnett93]: M. Barnett, R. Littlefield, D. G. Payne and
 * R. van de Geijn, "Global combine on mesh architectures with wormhole
 * routing", IPPS 1993); along a line the partials are combined in two
 * waves, one each way, as argued below; and in a complete factor of 2^m
 * nodes under the single-port model by recursive doubling ([Thakur05]:
 * Thakur, Rabenseifner and Gropp, "Optimization of collective
 * communication operations in MPICH", IJHPCA 2005).
 *
 * Each processor holds its total: at the start of a dimension's phase the
 * partial of the processors that differ from it only in the dimensions
 * already done, its own value to begin with.  Along a line of a linear or ring
 * factor two waves run: the up wave carries to coordinate a + 1 the
 * partial of a's total and what reached a from below, the down wave the
 * same the other way, so that what reaches coordinate a at the phase's
 * tick s covers the s nodes on that side (fewer at an array's end).  The
 * node takes into its next total the up arrival that covers cu nodes and
 * the down arrival that covers cd, cu + cd = k - 1: its line's total.  In
 * a complete factor every node sends its total to every other in one tick
 * (all-port), or doubles it across one bit a tick (single-port, 2^m nodes).
 *
 * A phase takes the factor's diameter under the all-port model: k - 1 on
 * an array, floor(k / 2) on a ring (cu = ceil((k-1)/2)), 1 in a complete
 * graph; so the data sum takes the product's diameter, which is its bound.
 * Under the single-port model a node sends up on the ticks where s + a is
 * odd and down on the others, so that the waves still move a hop a tick
 * (each node forwards what came the tick before): an even ring's phase
 * takes k / 2 and an array's k - 1 (k even) or k (odd: the arrays' two end
 * to end chains meet at the middle node on one tick), the diameter where
 * no array is odd, and a complete factor of 2^m nodes m, log2 n where all
 * are; odd rings do not alternate all the way round, and complete factors
 * of other sizes are not doubled, so those products are left to the
 * general schedule.
 *
 * The prefix sum keeps a second partial, its prefix, its own value to
 * begin with: vertex numbers are mixed radix with dimension 0 most
 * significant, so the processors below v are those below it in a line of
 * each dimension, with any coordinates in the less significant ones: in
 * each phase the prefix takes the up arrival that covers coordinates 0 ..
 * a-1 (at tick a: on a ring the up wave runs k - 1 ticks for it), or what
 * arrives from below in a complete factor.  All-port the next phase
 * starts once a ring's totals are in, at k / 2, on other cables, while the
 * ring's up wave runs on to k - 1 alone (its tail), carrying the totals of
 * its own phase; single-port a node sends once a tick and the phases follow
 * each other, a ring costing k - 1.  In the last phase, where no total is
 * needed, the ring's far half takes the rest round the back (wrap_send()).
 * Where every tail ends in time the phases add up to the eccentricity of
 * the last processor, the prefix's bound.
 */
#include "sched.h"
#include "topo_impl.h"

enum wave_kind { WAVE_LINE, WAVE_RING, WAVE_ALL, WAVE_DOUBLE };

struct wave_phase {
	u8 kind;		/* enum wave_kind */
	u8 dim;			/* the factor, in port order */
	u32 k, stride, start, len;
	u32 up_len, down_len;	/* the ticks a ring's waves run */
	u32 tail;		/* the ticks its up wave runs: past len where it overlaps the next */
	bool wrap;		/* a prefix's last ring: the partials from 0 come round the back */
	/*
	 * The totals its waves carry, the up wave's arrivals and what was
	 * sent: the phase's own where it has a tail (the next phase's
	 * begin changes the totals while the tail runs on).
	 */
	u32 *val, *up, *up_cov, *up_sent;
};

#define WAVE_ARRAYS	11

struct waves {
	u32 n, nph;
	bool prefix, single;
	struct wave_phase ph[TXNET_MAX_DIMS];
	u32 stride[TXNET_MAX_DIMS];
	/*
	 * Per processor: its total, the next one being gathered, the last up
	 * and down arrivals, its prefix; the coverage of those arrivals and
	 * of what it last sent each way; the arrivals it still waits for.
	 */
	u32 *total, *next, *up, *down, *pre;
	u32 *up_cov, *down_cov, *up_sent, *down_sent, *need;
	u32 *tails;		/* prefix pieces still to come from phases with a tail */
	u32 words[];
};

/* The factor's kind as a wave phase: a factor of two nodes is one cable. */
static u32 wave_kind(u32 kind, u32 k, bool single)
{
	if (k == 2 || kind == TXNET_DIM_LINEAR)
		return WAVE_LINE;
	if (kind == TXNET_DIM_RING)
		return WAVE_RING;
	return single ? WAVE_DOUBLE : WAVE_ALL;
}

static bool is_pow2(u32 k)
{
	return k && !(k & (k - 1));
}

static u32 log2_of(u32 k)
{
	u32 m = 0;

	while ((2U << m) <= k)
		m++;
	return m;
}

/*
 * The ticks the phase of a factor takes, from the argument above; 0 where
 * the waves do not run on it under the port model.
 */
static u32 phase_ticks(u32 kind, u32 k, bool single, bool long_up)
{
	if (k < 2)
		return 0;
	switch (wave_kind(kind, k, single)) {
	case WAVE_LINE:
		return single && (k & 1) ? k : k - 1;
	case WAVE_RING:
		if (single && (k & 1))
			return 0;
		return long_up ? k - 1 : k / 2;
	case WAVE_ALL:
		return 1;
	default:
		return is_pow2(k) ? log2_of(k) : 0;
	}
}

/*
 * All-port, a prefix's ring before the last phase has its totals after
 * k/2 ticks, and the next phase starts then, on other cables, while the
 * up wave runs on to k-1 for the prefix (its tail); single-port a node
 * sends once a tick, and the phases follow each other.
 */
static bool has_tail(u32 kind, u32 k, bool single, bool prefix, bool last)
{
	return prefix && !single && !last && wave_kind(kind, k, single) == WAVE_RING;
}

u64 txn_waves_steps(const struct txn_spec *spec, u32 op, u32 port_model)
{
	bool prefix = op == TXNET_OP_PREFIX_SUM, single = port_model == TXNET_PORT_SINGLE;
	u64 steps = 0, start = 0;
	struct txn_prod p;
	u32 i, len, tail;

	/* a hypercube is a product too, but its port order is the other way round */
	if ((op != TXNET_OP_DATA_SUM && !prefix) || spec->topo == TXNET_TOPO_HYPERCUBE ||
	    txn_prod_init(&p, spec->topo, spec->ndims, spec->size, spec->kind))
		return 0;
	/* the least significant dimension first, the most significant's phase last */
	for (i = p.ndims; i-- > 0;) {
		len = phase_ticks(p.kind[i], p.size[i], single, prefix && i > 0);
		if (!len)
			return 0;
		tail = len;
		if (has_tail(p.kind[i], p.size[i], single, prefix, i == 0)) {
			len = p.size[i] / 2;
			tail = p.size[i] - 1;
		}
		if (start + tail > steps)
			steps = start + tail;
		start += len;
	}
	return steps;
}

static u32 coord(const struct wave_phase *ph, u32 v)
{
	return v / ph->stride % ph->k;
}

/* How many nodes below it the up arrival a node at @a takes into its next total covers; the down one k-1 less it. */
static u32 up_share(const struct waves *w, const struct wave_phase *ph, u32 a)
{
	u32 half = ph->k / 2;

	if (ph->kind == WAVE_LINE)
		return a;
	if (!w->single)
		return half;
	/* up arrivals reach a on the ticks of a's parity, and cover as many nodes as the tick */
	return (half - a) % 2 ? half - 1 : half;
}

/* The arrivals a node at @a takes something from in the phase. */
static u32 arrivals(const struct waves *w, const struct wave_phase *ph, u32 a)
{
	u32 cu = up_share(w, ph, a);

	if (ph->wrap)
		/* the up arrival that covers 0 .. a-1, or a back part of it and what came round */
		return a == 0 ? 0 : a <= ph->k / 2 ? 1 : 2;
	switch (ph->kind) {
	case WAVE_ALL:
		return ph->k - 1;
	case WAVE_DOUBLE:
		return log2_of(ph->k);
	default:
		return (cu > 0) + (ph->k - 1 - cu > 0) +
		       (w->prefix && a > 0 && cu != a && ph->tail == ph->len);
	}
}

/* The link from @v (at @a) to the node at @b of its line; ports are in topo_impl.h's order. */
static u32 line_link(const struct txn_graph *g, const struct waves *w,
		     const struct wave_phase *ph, u32 v, u32 a, u32 b)
{
	u32 t, port = 0;

	/* a linear factor's ports are one or two by the coordinate: counted, not multiplied */
	for (t = 0; t < ph->dim; t++)
		port += txn_factor_degree(g->fkind[t], g->fsize[t], v / w->stride[t] % g->fsize[t]);
	switch (ph->kind) {
	case WAVE_ALL:
	case WAVE_DOUBLE:
		port += b < a ? b : b - 1;
		break;
	case WAVE_RING:
		port += b == (a + 1) % ph->k;
		break;
	default:
		port += b < a ? 0 : a > 0;
	}
	return g->first[v] + port;
}

static const struct wave_phase *phase_at(const struct waves *w, u64 t)
{
	u32 i;

	for (i = 0; i < w->nph; i++)
		if (t < (u64)w->ph[i].start + w->ph[i].len)
			return &w->ph[i];
	return NULL;
}

/* The phase of the dimension a link runs along: the coordinate its ends differ in. */
static const struct wave_phase *phase_of(const struct waves *w, u32 u, u32 v)
{
	u32 i;

	for (i = 0; i < w->nph; i++)
		if (coord(&w->ph[i], u) != coord(&w->ph[i], v))
			return &w->ph[i];
	return NULL;
}

static int waves_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	bool prefix = e->p.op == TXNET_OP_PREFIX_SUM;
	bool single = e->p.port_model == TXNET_PORT_SINGLE;
	u32 i, s, v, t, n = g->procs, **arr, tails, *own;
	struct wave_phase *ph;
	struct waves *w;

	if ((e->p.op != TXNET_OP_DATA_SUM && !prefix) || !g->ndims || g->flsb ||
	    g->nodes != g->procs)
		return -EINVAL;
	for (i = 0, tails = 0; i < g->ndims; i++)
		tails += has_tail(g->fkind[i], g->fsize[i], single, prefix, i == 0);
	w = txn_zalloc_array(1, sizeof(*w) + (u64)n * (WAVE_ARRAYS + 4 * tails) * sizeof(u32));
	if (!w)
		return -ENOMEM;
	e->priv = w;
	w->n = n;
	w->prefix = prefix;
	w->single = single;
	arr = &w->total;
	for (i = 0; i < WAVE_ARRAYS; i++)
		arr[i] = w->words + (size_t)i * n;
	s = 1;
	for (i = g->ndims; i-- > 0;) {
		w->stride[i] = s;
		s *= g->fsize[i];
	}
	/* the least significant dimension first: a prefix takes the lines below it summed */
	t = 0;
	for (i = g->ndims; i-- > 0;) {
		ph = &w->ph[w->nph++];
		ph->dim = (u8)i;
		ph->k = g->fsize[i];
		ph->kind = (u8)wave_kind(g->fkind[i], ph->k, single);
		ph->stride = w->stride[i];
		ph->len = phase_ticks(g->fkind[i], ph->k, single, prefix && i > 0);
		if (!ph->len)
			return -EINVAL;
		ph->tail = ph->len;
		ph->val = w->total;
		ph->up = w->up;
		ph->up_cov = w->up_cov;
		ph->up_sent = w->up_sent;
		if (has_tail(g->fkind[i], ph->k, single, prefix, i == 0)) {
			ph->len = ph->k / 2;
			ph->tail = ph->k - 1;
			own = w->words + (size_t)n * (WAVE_ARRAYS + 4 * tails--);
			ph->val = own - 4 * (size_t)n;
			ph->up = own - 3 * (size_t)n;
			ph->up_cov = own - 2 * (size_t)n;
			ph->up_sent = own - (size_t)n;
			for (v = 0; v < n; v++) {
				ph->up[v] = TXN_NONE;
				w->tails[v] += coord(ph, v) > 0;
			}
		}
		ph->wrap = prefix && i == 0 && ph->kind == WAVE_RING;
		ph->up_len = prefix && !ph->wrap ? ph->k - 1 : ph->k / 2;
		ph->down_len = single || ph->wrap ? ph->k / 2 : (ph->k - 1) / 2;
		ph->start = t;
		t += ph->len;
	}
	for (v = 0; v < n; v++) {
		w->total[v] = v;
		w->up[v] = w->down[v] = w->next[v] = TXN_NONE;
		w->pre[v] = prefix ? txn_copy(e, v) : TXN_NONE;
		if (prefix && w->pre[v] == TXN_NONE)
			return -EPROTO;
	}
	return 0;
}

static void drop(struct txn_engine *e, u32 *slot)
{
	if (*slot != TXN_NONE)
		txn_drop_copy(e, *slot);
	*slot = TXN_NONE;
}

/*
 * @v's result is done once the last phase has begun and given it all it
 * waits for, and the phases with tails have given its prefix theirs.
 */
static void maybe_fold(struct txn_engine *e, struct waves *w, u32 v)
{
	const struct wave_phase *last = &w->ph[w->nph - 1];

	if (e->tick < last->start || w->need[v] || w->tails[v])
		return;
	txn_fold(e, w->prefix ? w->pre[v] : last->kind == WAVE_DOUBLE ? w->total[v] : w->next[v]);
}

/* A phase begins: the last one's next totals become the totals, and the waves start from them. */
static void phase_begin(struct txn_engine *e, struct waves *w, const struct wave_phase *ph)
{
	u32 v;

	for (v = 0; v < w->n; v++) {
		if (w->next[v] != TXN_NONE) {
			drop(e, &w->total[v]);
			w->total[v] = w->next[v];
			w->next[v] = TXN_NONE;
		}
		drop(e, &w->up[v]);
		drop(e, &w->down[v]);
		w->up_cov[v] = w->down_cov[v] = w->up_sent[v] = w->down_sent[v] = 0;
		ph->up_cov[v] = ph->up_sent[v] = 0;
		if (ph->val != w->total) {
			ph->val[v] = txn_copy(e, w->total[v]);
			if (ph->val[v] == TXN_NONE)
				return;
		}
		w->need[v] = arrivals(w, ph, coord(ph, v));
		/* the wrap is the last phase, and a prefix's: no next total, and 0's may be done */
		if (ph->wrap) {
			maybe_fold(e, w, v);
			continue;
		}
		if (ph->kind != WAVE_DOUBLE) {
			w->next[v] = txn_copy(e, w->total[v]);
			if (w->next[v] == TXN_NONE)
				return;
		}
	}
}

/* A wave's next packet from @v: its total and what came to it that way, when that covers more than it sent. */
static void wave_send(struct txn_engine *e, struct waves *w, const struct wave_phase *ph,
		      u32 v, u32 a, bool up)
{
	u32 *in = up ? &ph->up[v] : &w->down[v], *sent = up ? &ph->up_sent[v] : &w->down_sent[v];
	u32 cov = (up ? ph->up_cov[v] : w->down_cov[v]) + 1, pkt, b;

	if (cov <= *sent || cov >= ph->k)
		return;
	pkt = txn_copy(e, ph->val[v]);
	if (pkt == TXN_NONE)
		return;
	if (*in != TXN_NONE && txn_merge(e, pkt, *in))
		return;
	*in = TXN_NONE;
	*sent = cov;
	b = up ? (a + 1) % ph->k : (a + ph->k - 1) % ph->k;
	txn_move(e, pkt, line_link(e->g, w, ph, v, a, b));
}

/*
 * A prefix's last ring, past its half (a > k/2): the up wave brings only
 * the c = up_share() coordinates below a, and the rest, 0 .. m for m = a -
 * c - 1, comes the other way round: 0 adds the down arrival that covers 1
 * .. m (at tick m) to its own and sends it down at tick m + 1, and the
 * nodes past the half pass it on, a hop a tick, to a at tick k - c - 1,
 * within k/2 (single-port, c alternates with a's parity, so two nodes
 * next to each other take the same one: the first a copy).  The down wave
 * runs from 1 .. k/2 only, so the two never share a cable; one sum leaves
 * 0 a tick, so neither do two of them.  Whether a takes 0 .. m:
 */
static bool wrap_takes(const struct waves *w, const struct wave_phase *ph, u32 a, u32 m)
{
	return a > ph->k / 2 && a < ph->k && a - up_share(w, ph, a) - 1 == m;
}

/* The sums that come round the back: sent from 0, passed on past the half. */
static void wrap_send(struct txn_engine *e, struct waves *w, const struct wave_phase *ph,
		      u32 v, u32 a, u32 s)
{
	u32 pkt;

	if (a == 0) {
		if (!wrap_takes(w, ph, s - 1 + ph->k / 2, s - 1) &&
		    !wrap_takes(w, ph, s + ph->k / 2, s - 1))
			return;
		pkt = txn_copy(e, w->total[v]);
		if (pkt == TXN_NONE)
			return;
		/* 0 .. m: the down arrival of tick m, which covers 1 .. m */
		if (s > 1 && (w->down[v] == TXN_NONE || txn_merge(e, pkt, w->down[v])))
			return;
		w->down[v] = TXN_NONE;
	} else if (a > ph->k / 2 && w->down[v] != TXN_NONE) {
		pkt = w->down[v];
		w->down[v] = TXN_NONE;
	} else {
		return;
	}
	txn_move(e, pkt, line_link(e->g, w, ph, v, a, (a + ph->k - 1) % ph->k));
}

/* The sends of the phase whose tick @s this is. */
static void main_sends(struct txn_engine *e, struct waves *w, const struct wave_phase *ph, u32 s)
{
	bool ring = ph->kind == WAVE_RING;
	u32 v, a, b, pkt;

	for (v = 0; v < w->n && !e->failed; v++) {
		a = coord(ph, v);
		switch (ph->kind) {
		case WAVE_ALL:
			if (s > 1)
				break;
			for (b = 0; b < ph->k; b++) {
				if (b == a)
					continue;
				pkt = txn_copy(e, w->total[v]);
				if (pkt == TXN_NONE)
					return;
				txn_move(e, pkt, line_link(e->g, w, ph, v, a, b));
			}
			break;
		case WAVE_DOUBLE:
			pkt = txn_copy(e, w->total[v]);
			if (pkt == TXN_NONE)
				return;
			txn_move(e, pkt, line_link(e->g, w, ph, v, a, a ^ (1U << (s - 1))));
			break;
		default:
			/* single-port: up on the ticks where s + a is odd, down on the others */
			if ((ring || a + 1 < ph->k) && (!ring || s <= ph->up_len) &&
			    (!w->single || (s + a) % 2))
				wave_send(e, w, ph, v, a, true);
			if (ph->wrap && (a == 0 || a > ph->k / 2)) {
				if (!w->single || !((s + a) % 2))
					wrap_send(e, w, ph, v, a, s);
				continue;
			}
			if ((ring || a > 0) && (!ring || s <= ph->down_len) &&
			    (!w->single || !((s + a) % 2)))
				wave_send(e, w, ph, v, a, false);
		}
	}
}

static void waves_choose(struct txn_engine *e)
{
	struct waves *w = e->priv;
	const struct wave_phase *ph = phase_at(w, e->tick);
	u32 v, s;

	if (ph) {
		s = (u32)(e->tick - ph->start) + 1;
		if (s == 1)
			phase_begin(e, w, ph);
		main_sends(e, w, ph, s);
	}
	/* the tails of phases before: their up waves, on to k-1 for the prefix */
	for (ph = w->ph; ph < w->ph + w->nph; ph++) {
		if (e->tick < (u64)ph->start + ph->len || e->tick >= (u64)ph->start + ph->tail)
			continue;
		for (v = 0; v < w->n && !e->failed; v++)
			wave_send(e, w, ph, v, coord(ph, v), true);
	}
}

/* @v took what it waited for from an arrival: in the last phase, once it has all, its result is done. */
static void took(struct txn_engine *e, struct waves *w, const struct wave_phase *ph, u32 v)
{
	w->need[v]--;
	if (ph == &w->ph[w->nph - 1])
		maybe_fold(e, w, v);
}

/* A piece of @v's prefix from a phase with a tail. */
static void tail_took(struct txn_engine *e, struct waves *w, u32 v)
{
	w->tails[v]--;
	maybe_fold(e, w, v);
}

/* A copy of @pkt into @into. */
static int take_copy(struct txn_engine *e, u32 into, u32 pkt)
{
	u32 cp = txn_copy(e, pkt);

	return cp == TXN_NONE ? -EPROTO : txn_merge(e, into, cp);
}

/* Keep @pkt as the last arrival from its side, for the wave to take on. */
static void keep(struct txn_engine *e, struct waves *w, const struct wave_phase *ph, u32 v,
		 u32 pkt, bool up, u32 cov)
{
	if (up) {
		drop(e, &ph->up[v]);
		ph->up[v] = pkt;
		ph->up_cov[v] = cov;
	} else {
		drop(e, &w->down[v]);
		w->down[v] = pkt;
		w->down_cov[v] = cov;
	}
}

/* An arrival in a prefix's last ring (wrap_target()): into the prefix, or on. */
static void wrap_arrive(struct txn_engine *e, struct waves *w, const struct wave_phase *ph,
			u32 pkt, u32 v, u32 a, bool up, u32 cov)
{
	u32 half = ph->k / 2, c = up_share(w, ph, a);
	u32 s = (u32)(e->tick - ph->start) + 1, m;

	if (up) {
		if (a > 0 && cov == (a <= half ? a : c)) {
			if (take_copy(e, w->pre[v], pkt))
				return;
			took(e, w, ph, v);
		}
		keep(e, w, ph, v, pkt, true, cov);
		return;
	}
	if (a <= half) {
		keep(e, w, ph, v, pkt, false, cov);
		return;
	}
	/* past the half: a sum 0 .. m that came round the back, k - a hops from 0 */
	m = s + a - ph->k;
	if (wrap_takes(w, ph, a, m)) {
		if (take_copy(e, w->pre[v], pkt))
			return;
		took(e, w, ph, v);
	}
	drop(e, &w->down[v]);
	/* on while a node further round takes it */
	if ((m + half < a && wrap_takes(w, ph, m + half, m)) ||
	    (m + half + 1 < a && wrap_takes(w, ph, m + half + 1, m)))
		w->down[v] = pkt;
	else
		txn_drop_copy(e, pkt);
}

/* @pkt reached @v from @u: into its next total, its prefix, and on with the wave. */
static void waves_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct waves *w = e->priv;
	u32 u = e->g->src[link], v = e->g->dst[link], a, b, cu, cov;
	const struct wave_phase *ph = phase_of(w, u, v);
	bool up, tail;

	if (!ph)
		return;
	tail = ph->tail > ph->len;
	a = coord(ph, v);
	b = coord(ph, u);
	switch (ph->kind) {
	case WAVE_ALL:
	case WAVE_DOUBLE:
		/* what came from below in a complete factor is all below it there, in the prefix */
		if ((w->prefix && b < a && take_copy(e, w->pre[v], pkt)) ||
		    txn_merge(e, ph->kind == WAVE_ALL ? w->next[v] : w->total[v], pkt))
			return;
		took(e, w, ph, v);
		return;
	}
	up = ph->kind == WAVE_LINE ? b < a : b == (a + ph->k - 1) % ph->k;
	cov = up ? ph->up_sent[u] : w->down_sent[u];
	cu = up_share(w, ph, a);
	if (ph->wrap) {
		wrap_arrive(e, w, ph, pkt, v, a, up, cov);
		return;
	}
	/* the up wave's arrival that covers 0 .. a-1, in the prefix (before a fold of it) */
	if (up && w->prefix && a > 0 && cov == a) {
		if (take_copy(e, w->pre[v], pkt))
			return;
		if (tail)
			tail_took(e, w, v);
		else if (cu != a)
			took(e, w, ph, v);
	}
	/* a tail's arrivals come after its totals are taken */
	if (e->tick < (u64)ph->start + ph->len && cov == (up ? cu : ph->k - 1 - cu)) {
		if (take_copy(e, w->next[v], pkt))
			return;
		took(e, w, ph, v);
	}
	keep(e, w, ph, v, pkt, up, cov);
}

static void waves_fini(struct txn_engine *e)
{
	txn_free(e->priv);
	e->priv = NULL;
}

static u64 waves_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return sizeof(struct waves) + (u64)g->procs * WAVE_ARRAYS * sizeof(u32);
}

const struct txn_sched txn_sched_waves = {
	.algo = TXNET_ALGO_DIMENSION_WAVES,
	.name = "dimension-waves",
	.start = waves_start,
	.choose = waves_choose,
	.arrive = waves_arrive,
	.fini = waves_fini,
	.priv_bytes = waves_bytes,
};
