// SPDX-License-Identifier: GPL-2.0
/*
 * Total exchange on cartesian products, from total exchanges inside single
 * dimensions ([Dimakopoulos98]):
 *
 * - a2, Algorithm A2 (section 4, Figure 4): the dimensions one after the
 *   other.  While dimension t is worked on, a packet sits at a node whose
 *   coordinates before t are its destination's and from t on its source's;
 *   each line along t then holds, at every node, exactly n/n_t packets for
 *   every other node of the line, and n/n_t total exchanges of the line
 *   (rounds) move them, every line at once.  Theorem 2 / Corollary 2: the
 *   time is the sum over t of (n/n_t) T_t; Theorem 3: it meets the
 *   single-port average-status bound (3) when every T_t does.
 * - a3, Algorithm A3 (section 5, Figure 6) for G = H x H, recursively for
 *   2^m dimensions: the total exchanges in the copies of H along the first
 *   half (A) and the second half (B) of the dimensions run at the same
 *   time, round r of B bringing every node the packets round r+1 of A
 *   sends, so that n_H rounds of T_H ticks do it all (Theorem 4,
 *   Corollary 3); it meets the all-port cut bound (4) when T_H does
 *   (Theorem 5).
 *
 * A total exchange inside one dimension is a trace: for every tick, the
 * hops (message a -> b, from -> to) of a verified total exchange on that
 * factor alone.  Two-node factors take one tick; rings (single-port) and
 * complete graphs are Cayley graphs, exchanged by translation: every node
 * sends its message for offset h on the same shortest path, one offset
 * after another, which takes exactly their status (ibid., section 4.1,
 * citing [8]); all-port, a complete graph takes one tick.  All-port rings
 * and linear arrays, and single-port linear arrays, are recorded from a
 * run of [Dimakopoulos94]'s schedules on that factor alone (message-shift,
 * furthest-first).  The engine checks every move the composition makes,
 * like any other schedule's.
 */
#include "sched.h"
#include "topo_impl.h"

#define FACTOR_MAX	64	/* largest factor a trace is kept for */

/* One hop of a trace: message a -> b, from one node to the next along dimension dim. */
struct hop_ev {
	u32 a, b;		/* the message: its source and destination in the factor */
	u32 from, to;		/* the nodes of the factor it leaves and reaches */
	u32 dim;		/* which of the factor's dimensions (0 for one factor) */
	u32 ct;			/* the coordinate along dim it reaches */
};

struct trace {
	u32 k;			/* nodes of the factor */
	u32 ticks;
	u32 *at;		/* ticks + 1 offsets into ev */
	struct hop_ev *ev;
	u64 nev, cap;
};

struct prod {
	u32 d, n;
	bool flsb;
	u32 size[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], stride[TXNET_MAX_DIMS];
	u32 *coord;		/* V x d, port order */
	u32 *off;		/* V x d: the first port of dimension t at v */
	bool a3;
	struct trace tr[TXNET_MAX_DIMS];	/* a2: one per dimension */
	struct trace h;		/* a3: the trace of H, the first half of the dimensions */
	u32 nh;
	/* where the run is: a2 phase (dimension) and round; a3 round */
	u32 phase, round, tau;
};

static void trace_free(struct trace *t)
{
	txn_free(t->at);
	txn_free(t->ev);
	memset(t, 0, sizeof(*t));
}

static int trace_alloc(struct trace *t, u32 k, u64 cap, u64 ticks)
{
	memset(t, 0, sizeof(*t));
	t->k = k;
	t->cap = cap;
	t->ev = txn_alloc_array(cap ? cap : 1, sizeof(*t->ev));
	t->at = txn_zalloc_array(ticks + 2, sizeof(u32));
	if (!t->ev || !t->at) {
		trace_free(t);
		return -ENOMEM;
	}
	return 0;
}

/* Append a hop to the tick being recorded (tick t->ticks; at[] closes it). */
static int trace_add(struct trace *t, u32 a, u32 b, u32 from, u32 to, u32 dim, u32 ct)
{
	if (t->nev >= t->cap)
		return -EPROTO;
	t->ev[t->nev++] = (struct hop_ev){ a, b, from, to, dim, ct };
	return 0;
}

/* A hop of a single factor: the coordinate is the node. */
static int trace_add1(struct trace *t, u32 a, u32 b, u32 from, u32 to)
{
	return trace_add(t, a, b, from, to, 0, to);
}

static void trace_tick(struct trace *t)
{
	t->ticks++;
	t->at[t->ticks] = (u32)t->nev;
}

static u32 ring_dist(u32 k, u32 h)
{
	return h < k - h ? h : k - h;
}

/* Total hops of a total exchange on one factor: the sum of its distances. */
static u64 factor_hops(u32 kind, u32 k)
{
	u64 sum = 0;
	u32 h;

	if (k == 2 || kind == TXNET_DIM_COMPLETE)
		return (u64)k * (k - 1);
	if (kind == TXNET_DIM_LINEAR)
		return ((u64)k * k * k - k) / 3;
	for (h = 1; h < k; h++)
		sum += ring_dist(k, h);
	return sum * k;
}

/*
 * Translation on a Cayley factor (two nodes, a ring under single-port, a
 * complete graph): offset after offset, every node's message for offset h
 * moves one hop a tick along the same shortest path.  All-port, a
 * complete graph sends every offset in the one tick.
 */
static int trace_translation(struct trace *t, u32 kind, u32 k, bool all_port)
{
	u32 h, j, a, d, step, ticks = 0;
	int ret = 0;

	for (h = 1; h < k; h++)
		ticks += kind == TXNET_DIM_COMPLETE || k == 2 ? 1 : ring_dist(k, h);
	ret = trace_alloc(t, k, factor_hops(kind, k), ticks);
	if (ret)
		return ret;
	if ((kind == TXNET_DIM_COMPLETE && all_port) || k == 2) {
		for (a = 0; a < k && !ret; a++)
			for (h = 1; h < k && !ret; h++)
				ret = trace_add1(t, a, (a + h) % k, a, (a + h) % k);
		trace_tick(t);
		return ret;
	}
	for (h = 1; h < k && !ret; h++) {
		d = kind == TXNET_DIM_COMPLETE ? 1 : ring_dist(k, h);
		/* forward (+1) when h is at most half the ring, else backward */
		step = kind == TXNET_DIM_COMPLETE ? h : h <= k - h ? 1 : k - 1;
		for (j = 0; j < d && !ret; j++) {
			for (a = 0; a < k && !ret; a++)
				ret = trace_add1(t, a, (a + h) % k, (a + j * step) % k,
						 (a + (j + 1) * step) % k);
			trace_tick(t);
		}
	}
	return ret;
}

/* A factor's run of its own: on the heap, the kernel's stack frames are small. */
struct recording {
	struct txn_spec spec;
	struct txn_counts c;
	struct txn_graph g;
	struct txn_engine e;
};

/* The memory a recorded run of one factor takes: its graph and its engine. */
static u64 recorded_bytes(u32 kind, u32 k, u32 port)
{
	struct txn_spec spec = { .topo = kind == TXNET_DIM_LINEAR ? TXNET_TOPO_LINEAR :
							       TXNET_TOPO_RING,
				 .ndims = 1, .size = { k } };
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port };
	struct txn_spec_error err;
	struct txn_counts c;
	struct txn_graph g;
	const char *why;
	const struct txn_sched *s = txn_sched_pick(&spec, p.op, TXNET_ALGO_AUTO, port, &why);

	if (!s || txn_spec_validate(&spec, k, &c, &err))
		return 0;
	memset(&g, 0, sizeof(g));
	g.nodes = (u32)c.nodes;
	g.procs = (u32)c.procs;
	g.links = (u32)c.links;
	g.diameter = c.diameter;
	return sizeof(struct recording) + txn_graph_bytes(&c) + txn_engine_bytes(&g, s, &p);
}

/*
 * All-port rings and linear arrays, and single-port linear arrays: record
 * what [Dimakopoulos94]'s schedule for that factor (what algo auto picks there)
 * does in a run of its own, checked by the engine like any run.
 */
static int trace_recorded(struct trace *t, u32 kind, u32 k, u32 port)
{
	struct txn_run_params p = { .op = TXNET_OP_TOTAL_EXCHANGE, .port_model = port, .seed = 1 };
	struct txn_spec_error err;
	const struct txn_sched *s;
	struct recording *R;
	u64 hops = factor_hops(kind, k);
	const char *why;
	u32 i, pkt, l;
	int ret, done;

	R = txn_zalloc_array(1, sizeof(*R));
	if (!R)
		return -ENOMEM;
	R->spec.topo = kind == TXNET_DIM_LINEAR ? TXNET_TOPO_LINEAR : TXNET_TOPO_RING;
	R->spec.ndims = 1;
	R->spec.size[0] = k;
	s = txn_sched_pick(&R->spec, p.op, TXNET_ALGO_AUTO, port, &why);
	ret = !s || txn_spec_validate(&R->spec, k, &R->c, &err) ? -EINVAL :
	      txn_graph_build(&R->spec, &R->c, &R->g);
	if (ret)
		goto out;
	/* a shortest-path schedule makes exactly the sum of distances in hops, one a tick at least */
	ret = trace_alloc(t, k, hops, hops);
	if (ret)
		goto out_graph;
	ret = txn_engine_init(&R->e, &R->g, s, &p);
	if (ret)
		goto out_trace;
	for (;;) {
		done = txn_engine_tick(&R->e);
		if (done < 0) {
			ret = done;
			break;
		}
		for (i = 0; i < R->e.nmoves && !ret; i++) {
			pkt = R->e.moves[i].pkt;
			l = R->e.moves[i].link;
			ret = trace_add1(t, txn_pkt_src(txn_engine_view(&R->e), pkt),
					 txn_pkt_dst(txn_engine_view(&R->e), pkt),
					 R->g.src[l], R->g.dst[l]);
		}
		if (ret)
			break;
		trace_tick(t);
		if (done)
			break;
		if (t->ticks >= hops) {
			ret = -EPROTO;
			break;
		}
	}
	if (!ret)
		ret = txn_engine_verify(&R->e);
	txn_engine_free(&R->e);
out_trace:
	if (ret)
		trace_free(t);
out_graph:
	txn_graph_free(&R->g);
out:
	txn_free(R);
	return ret;
}

static int trace_factor(struct trace *t, u32 kind, u32 k, u32 port)
{
	bool all_port = port != TXNET_PORT_SINGLE;

	if (k == 2 || kind == TXNET_DIM_COMPLETE || (kind == TXNET_DIM_RING && !all_port))
		return trace_translation(t, kind, k, all_port);
	return trace_recorded(t, kind, k, port);
}

/* The port of value @b at value @a in a factor (topo_impl.h's port order). */
static u32 factor_port(u32 kind, u32 k, u32 a, u32 b)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return b < a ? 0 : a > 0;
	case TXNET_DIM_RING:
		/* a's predecessor, a - 1 mod k, without a division a hop */
		return k == 2 || b == (a ? a - 1 : k - 1) ? 0 : 1;
	default:
		return b < a ? b : b - 1;
	}
}

/* The link from node @v along dimension @t to coordinate @to there. */
static __always_inline u32 link_along(const struct txn_engine *e, const struct prod *P, u32 v,
				      u32 t, u32 to)
{
	u64 at = (u64)v * P->d + t;

	return e->g->first[v] + P->off[at] +
	       factor_port(P->kind[t], P->size[t], P->coord[at], to);
}

/*
 * a3's rounds (Figure 6): sigma_r(s), 1 <= s < nh, is which of the nodes
 * s steps along A the packet a node sends s steps along B in B's round r
 * (0 <= r < nh - 1) is for: every round a bijection, the rounds together
 * every pair (the paper's sequence left-rotated by one a round).
 */
static u32 sigma(u32 nh, u32 r, u32 s)
{
	return 1 + (s - 1 + r) % (nh - 1);
}

static u32 sigma_inv(u32 nh, u32 r, u32 v)
{
	return 1 + (v - 1 + (nh - 1) - r % (nh - 1)) % (nh - 1);
}

/*
 * The hops of a3 on H x H in round @r, tick @tau of H's trace @h, for
 * @emit: each with its packet's source and destination as (A index, B
 * index) pairs, the half it moves along and H's hop.  A nonzero return
 * from @emit stops the walk.
 */
struct a3_hop {
	u32 si, sj, di, dj;	/* the packet */
	u32 c;			/* the copy: A_c (j = c) or B_c (i = c) */
	bool b;			/* along B (the second half), else A */
	const struct hop_ev *ev;
};

/*
 * Always inline, so that the tick's @emit (a3_move()) is inlined too, not
 * called through a pointer each hop.  The rotations c + j0 mod nh are
 * carried from c to c + 1, not divided out each hop.
 */
static __always_inline int a3_round(const struct trace *h, u32 nh, u32 r, u32 tau,
				    int (*emit)(void *ctx, const struct a3_hop *x), void *ctx)
{
	const struct hop_ev *ev;
	struct a3_hop x;
	u32 q, c, s, sj, di;
	int ret;

	for (q = h->at[tau]; q < h->at[tau + 1]; q++) {
		ev = &h->ev[q];
		x.ev = ev;
		s = (ev->b + nh - ev->a) % nh;
		/* at c = 0; each is c plus a constant, mod nh */
		sj = r ? (nh - sigma_inv(nh, r - 1, s)) % nh : 0;
		di = r + 1 < nh ? sigma(nh, r, s) % nh : 0;
		for (c = 0; c < nh; c++) {
			x.c = c;
			/* along A in A_c: round 0 its own packets, then what B brought */
			x.b = false;
			x.si = ev->a;
			x.sj = sj;
			x.di = ev->b;
			x.dj = c;
			ret = emit(ctx, &x);
			if (ret)
				return ret;
			/* along B in B_c: for A's next round, or home in the last */
			x.b = true;
			x.si = c;
			x.sj = ev->a;
			x.di = di;
			x.dj = ev->b;
			sj = sj + 1 < nh ? sj + 1 : 0;
			di = di + 1 < nh ? di + 1 : 0;
			ret = emit(ctx, &x);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The node (i, j) of H x H: i along A, j along B, as the product numbers it. */
static u32 pair(bool flsb, u32 nh, u32 i, u32 j)
{
	return flsb ? j * nh + i : i * nh + j;
}

struct a3_out {
	struct trace *t;
	u32 nh, dh;		/* H's nodes and dimensions */
	bool flsb;
};

static int a3_record(void *ctx, const struct a3_hop *x)
{
	const struct a3_out *o = ctx;
	const struct hop_ev *ev = x->ev;
	u32 nh = o->nh;

	if (x->b)
		return trace_add(o->t, pair(o->flsb, nh, x->si, x->sj), pair(o->flsb, nh, x->di, x->dj),
				 pair(o->flsb, nh, x->c, ev->from), pair(o->flsb, nh, x->c, ev->to),
				 o->dh + ev->dim, ev->ct);
	return trace_add(o->t, pair(o->flsb, nh, x->si, x->sj), pair(o->flsb, nh, x->di, x->dj),
			 pair(o->flsb, nh, ev->from, x->c), pair(o->flsb, nh, ev->to, x->c),
			 ev->dim, ev->ct);
}

/* The trace of a3 on H x H, from H's (@dh dimensions, @nh nodes). */
static int trace_a3(struct trace *t, const struct trace *h, u32 nh, u32 dh, bool flsb)
{
	struct a3_out o = { t, nh, dh, flsb };
	u32 r, tau;
	int ret;

	ret = trace_alloc(t, nh * nh, 2 * (u64)nh * nh * h->nev, (u64)nh * h->ticks);
	for (r = 0; r < nh && !ret; r++) {
		for (tau = 0; tau < h->ticks && !ret; tau++) {
			ret = a3_round(h, nh, r, tau, a3_record, &o);
			trace_tick(t);
		}
		txn_cond_resched();
	}
	if (ret)
		trace_free(t);
	return ret;
}

/* The trace of H^(2^m) along its dimensions @t0 .. @t0 + @dims - 1 (a3 all the way down). */
static int trace_power(struct trace *t, const struct prod *P, u32 t0, u32 dims, u32 port)
{
	struct trace h;
	u32 nh, i;
	int ret;

	if (dims == 1)
		return trace_factor(t, P->kind[t0], P->size[t0], port);
	ret = trace_power(&h, P, t0, dims / 2, port);
	if (ret)
		return ret;
	for (nh = 1, i = 0; i < dims / 2; i++)
		nh *= P->size[t0 + i];
	ret = trace_a3(t, &h, nh, dims / 2, P->flsb);
	trace_free(&h);
	return ret;
}

/*
 * Where a2 (and, @a3, a3) run: every dimension small enough to keep its
 * trace; for a3 also 2^m >= 2 dimensions, all alike (homogeneous).
 */
static bool fits(u32 d, const u32 *size, const u8 *kind, bool a3)
{
	u32 t;

	if (!d)
		return false;
	for (t = 0; t < d; t++)
		if (size[t] > FACTOR_MAX || size[t] < 2)
			return false;
	if (!a3)
		return true;
	if (d < 2 || (d & (d - 1)))
		return false;
	for (t = 1; t < d; t++)
		if (size[t] != size[0] || kind[t] != kind[0])
			return false;
	return true;
}

static bool graph_fits(const struct txn_graph *g, bool a3)
{
	return g->nodes == g->procs && fits(g->ndims, g->fsize, g->fkind, a3);
}

static void prod_fini(struct txn_engine *e)
{
	struct prod *P = e->priv;
	u32 t;

	if (!P)
		return;
	for (t = 0; t < TXNET_MAX_DIMS; t++)
		trace_free(&P->tr[t]);
	trace_free(&P->h);
	txn_free(P->coord);
	txn_free(P->off);
	txn_free(P);
	e->priv = NULL;
}

static int prod_init(struct txn_engine *e, bool a3)
{
	const struct txn_graph *g = e->g;
	struct prod *P;
	u32 t, v, c, deg;
	int ret = 0;

	if (e->p.op != TXNET_OP_TOTAL_EXCHANGE || !graph_fits(g, a3))
		return -EINVAL;
	P = txn_zalloc_array(1, sizeof(*P));
	if (!P)
		return -ENOMEM;
	e->priv = P;
	P->d = g->ndims;
	P->n = g->procs;
	P->flsb = g->flsb;
	P->a3 = a3;
	for (t = 0; t < P->d; t++) {
		P->size[t] = g->fsize[t];
		P->kind[t] = g->fkind[t];
	}
	for (t = 0, c = 1; t < P->d; t++) {
		u32 u = P->flsb ? t : P->d - 1 - t;

		P->stride[u] = c;
		c *= P->size[u];
	}
	P->coord = txn_alloc_array((u64)g->nodes * P->d, sizeof(u32));
	P->off = txn_alloc_array((u64)g->nodes * P->d, sizeof(u32));
	if (!P->coord || !P->off)
		return -ENOMEM;
	for (v = 0; v < g->nodes; v++) {
		for (t = 0, deg = 0; t < P->d; t++) {
			c = v / P->stride[t] % P->size[t];
			P->coord[(u64)v * P->d + t] = c;
			P->off[(u64)v * P->d + t] = deg;
			deg += P->kind[t] == TXNET_DIM_LINEAR ? (u32)(c > 0) + (c + 1 < P->size[t]) :
			       P->kind[t] == TXNET_DIM_RING ? (P->size[t] == 2 ? 1 : 2) :
			       P->size[t] - 1;
		}
	}
	if (a3) {
		ret = trace_power(&P->h, P, 0, P->d / 2, e->p.port_model);
		for (t = 0, P->nh = 1; t < P->d / 2; t++)
			P->nh *= P->size[t];
		return ret;
	}
	for (t = 0; t < P->d && !ret; t++)
		ret = trace_factor(&P->tr[t], P->kind[t], P->size[t], e->p.port_model);
	return ret;
}

static int a2_start(struct txn_engine *e)
{
	return prod_init(e, false);
}

static int a3_start(struct txn_engine *e)
{
	if (e->p.port_model == TXNET_PORT_SINGLE)
		return -EINVAL;	/* both halves at once: all-port only */
	return prod_init(e, true);
}

/*
 * a2: the hops of tick tau of round `round` of dimension `phase`, on every
 * line at once.  Lines are visited in order by an odometer over the other
 * dimensions' coordinates, and the node numbers kept as sums of
 * coordinate x stride, so that a hop costs no division and no loop over
 * the dimensions (on the 10-cube they cost more than the hop).
 */
static void a2_choose(struct txn_engine *e)
{
	struct prod *P = e->priv;
	const struct trace *tr;
	const struct hop_ev *ev;
	u32 t, q, u, line, lines, rho, w, x[TXNET_MAX_DIMS];
	u32 src0 = 0, dst0 = 0, lo = 0, hi = 0, v;

	if (P->phase >= P->d)
		return;
	t = P->phase;
	tr = &P->tr[t];
	lines = P->n / P->size[t];
	w = P->stride[t];
	/* the round: the sources' coordinates before t, the destinations' after */
	for (u = P->d, rho = P->round; u-- > 0;) {
		x[u] = 0;
		if (u == t)
			continue;
		if (u < t)
			src0 += rho % P->size[u] * P->stride[u];
		else
			dst0 += rho % P->size[u] * P->stride[u];
		rho /= P->size[u];
	}
	/* the line: its coordinates before t (lo) and after (hi) */
	for (line = 0; line < lines; line++) {
		for (q = tr->at[P->tau]; q < tr->at[P->tau + 1]; q++) {
			ev = &tr->ev[q];
			v = lo + hi + ev->from * w;
			txn_move(e, txn_pkt_id(e, src0 + hi + ev->a * w, dst0 + lo + ev->b * w),
				 e->g->first[v] + P->off[(u64)v * P->d + t] +
				 factor_port(P->kind[t], P->size[t], ev->from, ev->to));
		}
		for (u = P->d; u-- > 0;) {
			if (u == t)
				continue;
			if (++x[u] < P->size[u]) {
				*(u < t ? &lo : &hi) += P->stride[u];
				break;
			}
			*(u < t ? &lo : &hi) -= (P->size[u] - 1) * P->stride[u];
			x[u] = 0;
		}
	}
	if (++P->tau < tr->ticks)
		return;
	P->tau = 0;
	if (++P->round < lines)
		return;
	P->round = 0;
	P->phase++;
}

static __always_inline int a3_move(void *ctx, const struct a3_hop *x)
{
	struct txn_engine *e = ctx;
	const struct prod *P = e->priv;
	u32 nh = P->nh, from, t;

	from = x->b ? pair(P->flsb, nh, x->c, x->ev->from) : pair(P->flsb, nh, x->ev->from, x->c);
	t = x->b ? P->d / 2 + x->ev->dim : x->ev->dim;
	txn_move(e, txn_pkt_id(e, pair(P->flsb, nh, x->si, x->sj), pair(P->flsb, nh, x->di, x->dj)),
		 link_along(e, P, from, t, x->ev->ct));
	return 0;
}

/* a3: round `round` of both halves at once, tick tau of H's trace. */
static void a3_choose(struct txn_engine *e)
{
	struct prod *P = e->priv;

	if (P->round >= P->nh)
		return;
	a3_round(&P->h, P->nh, P->round, P->tau, a3_move, e);
	if (++P->tau < P->h.ticks)
		return;
	P->tau = 0;
	P->round++;
}

/* Trace bytes of one factor, and of a recorded run of it. */
static u64 factor_bytes(u32 kind, u32 k, u32 port)
{
	u64 hops = factor_hops(kind, k);

	return hops * sizeof(struct hop_ev) + (hops + 2) * sizeof(u32) +
	       recorded_bytes(kind, k, port);
}

static u64 prod_bytes(const struct txn_graph *g, u32 port, bool a3)
{
	u64 sum = sizeof(struct prod) + 2 * (u64)g->nodes * g->ndims * sizeof(u32), nh = 1, ev;
	u32 t, dims;

	if (!a3) {
		for (t = 0; t < g->ndims; t++)
			sum += factor_bytes(g->fkind[t], g->fsize[t], port);
		return sum;
	}
	/* a3's traces down the halves: each 2 nh^2 times its half's hops, two alive at once */
	ev = factor_hops(g->fkind[0], g->fsize[0]);
	sum += factor_bytes(g->fkind[0], g->fsize[0], port);
	nh = g->fsize[0];
	for (dims = 2; dims <= g->ndims / 2; dims *= 2) {
		ev = 2 * nh * nh * ev;
		sum += ev * sizeof(struct hop_ev) + (ev + 2) * sizeof(u32);
		nh *= nh;
	}
	return sum;
}

static u64 a2_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)npkts;
	return graph_fits(g, false) ? prod_bytes(g, port, false) : sizeof(struct prod);
}

static u64 a3_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return graph_fits(g, true) ? prod_bytes(g, TXNET_PORT_ALL, true) :
					      sizeof(struct prod);
}

const struct txn_sched txn_sched_a2 = {
	.algo = TXNET_ALGO_A2,
	.name = "a2",
	.start = a2_start,
	.choose = a2_choose,
	.fini = prod_fini,
	.priv_bytes = a2_bytes,
};

const struct txn_sched txn_sched_a3 = {
	.algo = TXNET_ALGO_A3,
	.name = "a3",
	.start = a3_start,
	.choose = a3_choose,
	.fini = prod_fini,
	.priv_bytes = a3_bytes,
};

/* The factors of a product spec, in port order (as txn_graph_build() numbers them). */
static bool spec_factors(const struct txn_spec *spec, u32 *d, u32 *size, u8 *kind)
{
	struct txn_prod p;
	u32 t, i;

	if (spec->topo == TXNET_TOPO_BISWAPPED ||
	    txn_prod_init(&p, spec->topo, spec->ndims, spec->size, spec->kind))
		return false;
	*d = p.ndims;
	for (t = 0; t < p.ndims; t++) {
		i = p.lsb_first ? p.ndims - 1 - t : t;
		size[t] = p.size[i];
		kind[t] = (u8)p.kind[i];
	}
	return true;
}

bool txn_product_fits(const struct txn_spec *spec, u32 algo, u32 port_model)
{
	u32 d, size[TXNET_MAX_DIMS];
	u8 kind[TXNET_MAX_DIMS];

	if (algo == TXNET_ALGO_A3 && port_model == TXNET_PORT_SINGLE)
		return false;
	return spec_factors(spec, &d, size, kind) && fits(d, size, kind, algo == TXNET_ALGO_A3);
}

static u64 div_up(u64 a, u64 b)
{
	return (a + b - 1) / b;
}

/*
 * The time [Dimakopoulos98] proves.  a2, single-port (Theorem 2, Corollary 2):
 * the sum over the dimensions of (n/n_t) T_t, with T_t the translation's
 * time on a Cayley factor, its status: 1 on two nodes, k-1 on a complete
 * graph, floor(k^2/4) on a ring (section 4.1); none for linear factors,
 * whose single-port total exchange has no proven time.  a3, all-port
 * (Theorem 4, Corollary 3): n_1^(d-1) T_1 on H^d, with T_1 [Dimakopoulos94]'s
 * ceil((k^2-1)/8) on a ring and ceil((k^2-1)/4) on a linear array, 1 on a
 * complete graph or two nodes.
 */
u64 txn_product_steps(const struct txn_spec *spec, u32 algo, u32 port_model)
{
	u32 d, size[TXNET_MAX_DIMS], t;
	u8 kind[TXNET_MAX_DIMS];
	u64 n = 1, sum = 0, k, tt;

	if (!txn_product_fits(spec, algo, port_model))
		return 0;
	spec_factors(spec, &d, size, kind);
	for (t = 0; t < d; t++)
		n *= size[t];
	if (algo == TXNET_ALGO_A3) {
		k = size[0];
		tt = k == 2 || kind[0] == TXNET_DIM_COMPLETE ? 1 :
		     div_up(k * k - 1, kind[0] == TXNET_DIM_RING ? 8 : 4);
		for (t = 1; t < d; t++)
			tt *= k;
		return tt;
	}
	if (port_model != TXNET_PORT_SINGLE)
		return 0;
	for (t = 0; t < d; t++) {
		k = size[t];
		if (k == 2 || kind[t] == TXNET_DIM_COMPLETE)
			tt = k - 1;
		else if (kind[t] == TXNET_DIM_RING)
			tt = k * k / 4;
		else
			return 0;
		sum += n / k * tt;
	}
	return sum;
}
