// SPDX-License-Identifier: GPL-2.0
/*
 * Lower bounds on the ticks of every operation.  Each bound is an argument
 * about the timing model (Documentation/txnet-engine.rst, "Timing model")
 * cited beside it; txn_bound() reports the largest that applies and its
 * name.  Distances are searched over the directed links (paths.c), so MINs'
 * one-way links count as they are.
 */
#include "bounds.h"
#include "engine.h"
#include "paths.h"
#include "topo_impl.h"

/* Searches from every processor only while they cost less than this many visits. */
#define ALL_PAIRS_BUDGET	(1ULL << 27)

struct bctx {
	const struct txn_spec *spec;
	const struct txn_graph *g;
	struct txn_paths P;
	u32 *via;
	u32 *hist;		/* diameter + 2 counters: distances by value */
	u32 n;
	u32 lmin;		/* least distance between two processors */
	bool switches;
	bool one_link;		/* every processor has one link out and one in */
	struct txn_bound *b;
};

static u64 div_up(u64 a, u64 b)
{
	return b ? a / b + (a % b != 0) : 0;
}

static void consider(struct bctx *c, u64 value, const char *name)
{
	if (value > c->b->lower) {
		c->b->lower = value;
		c->b->name = name;
	}
}

static u32 log2_up(u64 n)
{
	u32 r = 0;

	while ((1ULL << r) < n)
		r++;
	return r;
}

/*
 * Holders of a message that each hand it to at most one more processor a
 * tick, a hand-over taking @l ticks: f(t) = f(t-1) + f(t-l), f(t) = 1 for
 * t < l.  The least t with f(t) >= n bounds a broadcast (and, reversed, an
 * accumulation) where processors have one line in and out: single-port
 * (l = 1: ceil(log2 n)), and MINs, whose switches neither copy nor
 * combine, with l the least processor-to-processor distance (derived).
 */
static u64 doubling(u32 n, u32 l)
{
	u64 f[64], t;

	if (l <= 1)
		return log2_up(n);
	if (l > 63)
		l = 63;
	for (t = 0;; t++) {
		u64 v = t < l ? 1 : f[(t - 1) % 64] + f[(t - l) % 64];

		f[t % 64] = v;
		if (v >= n)
			return t;
	}
}

/* Distances of processors from (@inward: to) @r into P.dist; the largest. */
static u32 search(struct bctx *c, u32 r, bool inward)
{
	u32 v, ecc = 0;

	if (inward)
		txn_paths_toward(&c->P, r, c->via);
	else
		txn_paths_from(&c->P, r, c->via);
	for (v = 0; v < c->n; v++)
		if (c->P.dist[v] != TXN_NO_LINK && c->P.dist[v] > ecc)
			ecc = c->P.dist[v];
	return ecc;
}

/*
 * [Bertsekas91], section 3, for scatter on any graph, and its mirror for
 * gather: the root sends (receives) at most @deg packets a tick, so the
 * k-th furthest of the n-1 packets leaves at tick ceil(k/deg) at the
 * earliest and needs its distance d_k more, less the tick it leaves in:
 * max_k ceil(k/deg) - 1 + d_k, with d_1 >= d_2 >= ... (derived).
 * P.dist holds the distances; returns the bound, sets *sum to their sum.
 */
static u64 sorted_distances(struct bctx *c, u32 r, u32 deg, u64 *sum)
{
	u32 d, v, top = c->g->diameter + 1;
	u64 k = 0, best = 0, t;

	memset(c->hist, 0, (top + 1) * sizeof(u32));
	*sum = 0;
	for (v = 0; v < c->n; v++) {
		d = c->P.dist[v];
		if (v == r || d == TXN_NO_LINK)
			continue;
		c->hist[d < top ? d : top]++;
		*sum += d;
	}
	for (d = top + 1; d-- > 1;) {
		if (!c->hist[d])
			continue;
		/* the last of the packets at distance d is the one that counts */
		k += c->hist[d];
		t = div_up(k, deg) - 1 + d;
		if (t > best)
			best = t;
	}
	return best;
}

/* Packets processor @v can send (receive) a tick: a MIN's have one line each way. */
static u32 out_degree(const struct txn_graph *g, u32 v)
{
	return g->one_line ? 1 : g->first[v + 1] - g->first[v];
}

static u32 in_degree(const struct bctx *c, u32 v)
{
	return c->g->one_line ? 1 : c->P.in_first[v + 1] - c->P.in_first[v];
}

/*
 * Sum of the distances over all ordered pairs of processors.  In a
 * cartesian product the distance is the sum of the factors' ([Dimakopoulos98],
 * section 2), so the sum is sum_i (n/k_i)^2 T_i with T_i the factor's own:
 * (k^3-k)/3 for a linear array, k floor(k^2/4) for a ring, k(k-1) for a
 * complete graph.  Other topologies: a search from every processor when
 * affordable; else every pair is at least lmin apart.  *exact says which.
 */
static u64 total_distance(struct bctx *c, bool *exact)
{
	const struct txn_spec *s = c->spec;
	struct txn_prod p;
	u64 sum = 0, k, t, m;
	u32 i, v, r;

	*exact = true;
	if (txn_topo_is_product(s->topo) &&
	    !txn_prod_init(&p, s->topo, s->ndims, s->size, s->kind)) {
		for (i = 0; i < p.ndims; i++) {
			k = p.size[i];
			m = c->n / k;
			if (p.kind[i] == TXNET_DIM_LINEAR)
				t = (k * k * k - k) / 3;
			else if (p.kind[i] == TXNET_DIM_RING)
				t = k * (k * k / 4);
			else
				t = k * (k - 1);
			sum += m * m * t;
		}
		return sum;
	}
	if ((u64)c->n * (c->g->nodes + c->g->links) <= ALL_PAIRS_BUDGET) {
		for (r = 0; r < c->n; r++) {
			search(c, r, false);
			for (v = 0; v < c->n; v++)
				if (c->P.dist[v] != TXN_NO_LINK)
					sum += c->P.dist[v];
			txn_cond_resched();
		}
		return sum;
	}
	*exact = false;
	return (u64)c->n * (c->n - 1) * c->lmin;
}

/*
 * Whether every processor has one link out and one in: a MIN's one line
 * each way, a processor on one router.  Then it hands a message (a
 * partial) to one more holder a tick under either port model, and
 * doubling() bounds what switches, which neither copy nor combine, leave.
 */
static bool one_link_each(const struct bctx *c)
{
	u32 v;

	if (c->g->one_line)
		return true;
	for (v = 0; v < c->n; v++)
		if (out_degree(c->g, v) > 1 || in_degree(c, v) > 1)
			return false;
	return true;
}

/* The least distance between two processors: 1 unless switches sit between them. */
static u32 least_distance(struct bctx *c)
{
	u32 v, best = TXN_NO_LINK;

	if (!c->switches)
		return 1;
	search(c, 0, false);
	for (v = 1; v < c->n; v++)
		if (c->P.dist[v] < best)
			best = c->P.dist[v];
	return best == TXN_NO_LINK ? 1 : best;
}

/*
 * The cut bound ([Dimakopoulos94], bounds (1) and (2); [Dimakopoulos98], Theorem 1):
 * the |A||B| packets from A to B cross the links from A to B, one a tick
 * each.  The natural cuts of a product: along one dimension, coordinates
 * below c against the rest, in each of the n/k copies of the factor; one
 * way across are 1 link per copy (linear), 2 (ring of k > 2) or c(k-c)
 * (complete).  The best over every dimension and position.
 */
static u64 product_cut(struct bctx *c)
{
	const struct txn_spec *s = c->spec;
	struct txn_prod p;
	u64 best = 0, k, cross, a, bsz, t;
	u32 i, cut;

	if (!txn_topo_is_product(s->topo) ||
	    txn_prod_init(&p, s->topo, s->ndims, s->size, s->kind))
		return 0;
	for (i = 0; i < p.ndims; i++) {
		k = p.size[i];
		for (cut = 1; cut < k; cut++) {
			if (p.kind[i] == TXNET_DIM_LINEAR)
				cross = 1;
			else if (p.kind[i] == TXNET_DIM_RING)
				cross = k > 2 ? 2 : 1;
			else
				cross = (u64)cut * (k - cut);
			a = (u64)cut * (c->n / k);
			bsz = (k - cut) * (c->n / k);
			t = div_up(a * bsz, cross * (c->n / k));
			if (t > best)
				best = t;
		}
	}
	return best;
}

/*
 * The dragonfly's global cut (derived; the argument of [Dimakopoulos94]'s
 * cut bound): put groups A on one side with their routers and processors,
 * the other g - A groups on the other.  Only global cables cross, one
 * between every two groups, so A (g - A) links run from the one side to
 * the other, one packet a tick each, and the A a p (g - A) a p packets
 * between them take (a p)^2 ticks whatever A is.
 */
static u64 dragonfly_cut(const struct txn_spec *s)
{
	u64 ap = (u64)s->size[0] * s->size[1];

	return ap * ap;
}

/* The best cut bound the network's shape gives, 0 where none is known. */
static u64 cut_bound(struct bctx *c)
{
	return c->spec->topo == TXNET_TOPO_DRAGONFLY ? dragonfly_cut(c->spec) : product_cut(c);
}

/*
 * Single-port linear array (derived): node v sends its own n-1 packets and
 * forwards every packet between a node left of it and one right of it,
 * 2v(n-1-v), one a tick: max_v n-1 + 2v(n-1-v), which is (n^2-1)/2 for odd
 * n.  Every path passes v, so this holds for any schedule.
 */
static u64 linear_single_port(u32 n)
{
	u64 best = 0, v, t;

	for (v = 0; v < n; v++) {
		t = n - 1 + 2 * v * (n - 1 - v);
		if (t > best)
			best = t;
	}
	return best;
}

static bool is_linear(const struct txn_spec *s)
{
	if (s->topo == TXNET_TOPO_LINEAR)
		return true;
	return (s->topo == TXNET_TOPO_MESH || s->topo == TXNET_TOPO_PRODUCT) && s->ndims == 1 &&
	       (s->topo == TXNET_TOPO_MESH || s->kind[0] == TXNET_DIM_LINEAR);
}

static void total_exchange(struct bctx *c, bool single)
{
	bool exact;
	u64 sum = total_distance(c, &exact);

	c->b->min_transmissions = sum;
	consider(c, c->g->diameter, "diameter");
	/* Every link carries one packet a tick: all the distance over all links. */
	consider(c, div_up(sum, c->g->links), exact ? "total-distance" : "least-distance");
	consider(c, cut_bound(c), "cut");
	if (!single && !c->one_link)
		return;
	/*
	 * Each processor sends its own n-1, one a tick (single-port, a MIN's
	 * one line in, a processor's one cable to its router); the last
	 * leaves at tick n-1 and needs lmin.
	 */
	consider(c, c->n - 1 + c->lmin - 1, "n-1");
	if (!single)
		return;
	/*
	 * [Dimakopoulos98], bound (3), average status: n(n-1) packets travel the sum
	 * of the statuses, and n single-port processors make at most n
	 * transmissions a tick (switchless topologies).
	 */
	if (!c->switches)
		consider(c, div_up(sum, c->n), "average-status");
	if (is_linear(c->spec))
		consider(c, linear_single_port(c->n), "linear-single-port");
}

static void broadcast_like(struct bctx *c, u32 root, bool single, bool inward)
{
	u32 ecc = search(c, root, inward);

	consider(c, ecc, "eccentricity");
	c->b->min_transmissions = (u64)(c->n - 1) * c->lmin;
	if (c->switches && (single || c->one_link))
		consider(c, doubling(c->n, c->lmin), "doubling");
	else if (single)
		consider(c, log2_up(c->n), "log2");
}

static void scatter_like(struct bctx *c, u32 root, bool single, bool inward)
{
	u32 deg = single ? 1 : inward ? in_degree(c, root) : out_degree(c->g, root);
	u64 sum;

	search(c, root, inward);
	consider(c, sorted_distances(c, root, deg ? deg : 1, &sum), "root-degree");
	c->b->min_transmissions = sum;
}

/*
 * Multinode broadcast (and, transposed, accumulation): every processor
 * receives (sends) n-1 different messages (partials of n-1 different
 * results), at most its degree a tick, the first after lmin ticks at the
 * earliest ([Bertsekas91], section 3, for any graph).
 */
static void multinode(struct bctx *c, bool single, bool inward)
{
	u32 v, deg;
	u64 t;

	consider(c, c->g->diameter, "diameter");
	for (v = 0; v < c->n; v++) {
		deg = single ? 1 : inward ? out_degree(c->g, v) : in_degree(c, v);
		t = div_up(c->n - 1, deg ? deg : 1) + c->lmin - 1;
		consider(c, t, inward ? "out-degree" : "in-degree");
	}
	c->b->min_transmissions = (u64)c->n * (c->n - 1) * c->lmin;
}

static void sums(struct bctx *c, bool single, bool prefix)
{
	u32 ecc = prefix ? search(c, c->n - 1, true) : c->g->diameter;

	/* Processor n-1 (every processor) needs every value. */
	consider(c, ecc, prefix ? "eccentricity" : "diameter");
	if (c->switches && (single || c->one_link))
		consider(c, doubling(c->n, c->lmin), "doubling");
	else if (single)
		consider(c, log2_up(c->n), "log2");
	/*
	 * Every processor but 0 must receive something (prefix); for a data
	 * sum everyone needs everyone's value: gossip by one-way messages
	 * takes 2n-2 of them (a classic result of gossip theory).
	 */
	c->b->min_transmissions = (prefix ? (u64)c->n - 1 : 2 * ((u64)c->n - 1)) * c->lmin;
}

u64 txn_bound_bytes(const struct txn_counts *counts)
{
	return ((u64)counts->nodes + 1 + counts->links + 3 * (u64)counts->nodes +
		counts->diameter + 3) * sizeof(u32);
}

int txn_bound(const struct txn_spec *spec, const struct txn_graph *g, u32 op,
	      u32 port_model, u32 root, struct txn_bound *b)
{
	bool single = port_model == TXNET_PORT_SINGLE;
	struct bctx c = { .spec = spec, .g = g, .n = g->procs, .b = b };
	int ret = 0;

	memset(b, 0, sizeof(*b));
	b->name = "none";
	if (!txn_op_valid(op) || (port_model != TXNET_PORT_ALL && !single) ||
	    (txn_op_has_root(op) && root >= g->procs) || g->procs < 2)
		return -EINVAL;
	c.switches = g->nodes > g->procs;
	c.via = txn_alloc_array(g->nodes, sizeof(u32));
	c.hist = txn_alloc_array((size_t)g->diameter + 3, sizeof(u32));
	if (!c.via || !c.hist || txn_paths_init(&c.P, g)) {
		ret = -ENOMEM;
		goto out;
	}
	c.lmin = least_distance(&c);
	c.one_link = one_link_each(&c);
	switch (op) {
	case TXNET_OP_TOTAL_EXCHANGE:
		total_exchange(&c, single);
		break;
	case TXNET_OP_BROADCAST:
		broadcast_like(&c, root, single, false);
		break;
	case TXNET_OP_ACCUMULATE:
		broadcast_like(&c, root, single, true);
		break;
	case TXNET_OP_SCATTER:
		scatter_like(&c, root, single, false);
		break;
	case TXNET_OP_GATHER:
		scatter_like(&c, root, single, true);
		break;
	case TXNET_OP_MULTINODE_BROADCAST:
		multinode(&c, single, false);
		break;
	case TXNET_OP_MULTINODE_ACCUMULATE:
		multinode(&c, single, true);
		break;
	case TXNET_OP_PREFIX_SUM:
		sums(&c, single, true);
		break;
	case TXNET_OP_DATA_SUM:
		sums(&c, single, false);
		break;
	case TXNET_OP_PERMUTATION:
		ret = -EOPNOTSUPP;	/* its bound is the permutation's: txn_bound_perm() */
		break;
	}
out:
	txn_paths_free(&c.P);
	txn_free(c.via);
	txn_free(c.hist);
	return ret;
}

/* Processor @u's distance to @v on a product, from their coordinates. */
static u32 coord_distance(const struct txn_graph *g, u32 u, u32 v)
{
	u32 t, d, k, a, b, fw, dist = 0;

	for (t = 0; t < g->ndims; t++) {
		d = g->flsb ? t : g->ndims - 1 - t;
		k = g->fsize[d];
		a = u % k;
		b = v % k;
		u /= k;
		v /= k;
		if (a == b)
			continue;
		switch (g->fkind[d]) {
		case TXNET_DIM_LINEAR:
			dist += a < b ? b - a : a - b;
			break;
		case TXNET_DIM_RING:
			fw = b > a ? b - a : b + k - a;
			dist += fw < k - fw ? fw : k - fw;
			break;
		default:
			dist++;
		}
	}
	return dist;
}

int txn_bound_perm(const struct txn_graph *g, const u32 *dests, struct txn_bound *b)
{
	struct txn_paths P = {};
	u32 *via = NULL, i, dist;
	int ret = 0;

	memset(b, 0, sizeof(*b));
	b->name = "none";
	if (!g->min_topo && !(g->ndims && g->nodes == g->procs)) {
		via = txn_alloc_array(g->nodes, sizeof(u32));
		if (!via || txn_paths_init(&P, g)) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/*
	 * No message arrives before it has crossed the links from its sender
	 * to its destination: the farthest bounds the time, and the distances
	 * summed the transmissions.  On a MIN every path crosses the log2 N
	 * stages, a message to oneself too.
	 */
	for (i = 0; i < g->procs; i++) {
		if (!txn_perm_sends(g, i, dests[i]))
			continue;
		if (g->min_topo) {
			dist = txn_min_log2(g->procs);
		} else if (!via) {
			dist = coord_distance(g, i, dests[i]);
		} else {
			txn_paths_toward(&P, dests[i], via);
			dist = P.dist[i];
			txn_cond_resched();
		}
		b->min_transmissions += dist;
		if (dist > b->lower) {
			b->lower = dist;
			b->name = "distance";
		}
	}
out:
	txn_paths_free(&P);
	txn_free(via);
	return ret;
}

int txn_te_figures(const struct txn_spec *spec, const struct txn_graph *g, bool search,
		   struct txn_te_figures *f)
{
	struct txn_bound b;
	struct bctx c = { .spec = spec, .g = g, .n = g->procs, .b = &b };
	bool product = txn_topo_is_product(spec->topo);
	bool exact;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	if (g->procs < 2)
		return -EINVAL;
	if (!product && (!search ||
			 (u64)g->procs * (g->nodes + g->links) > ALL_PAIRS_BUDGET))
		return -EOPNOTSUPP;
	if (!product) {
		c.via = txn_alloc_array(g->nodes, sizeof(u32));
		c.hist = txn_alloc_array((size_t)g->diameter + 3, sizeof(u32));
		if (!c.via || !c.hist || txn_paths_init(&c.P, g)) {
			ret = -ENOMEM;
			goto out;
		}
		c.switches = g->nodes > g->procs;
		c.lmin = least_distance(&c);
	}
	f->total_distance = total_distance(&c, &exact);
	if (!exact) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	f->average_status = div_up(f->total_distance, g->procs);
	f->cut = cut_bound(&c);
out:
	if (!product) {
		txn_paths_free(&c.P);
		txn_free(c.via);
		txn_free(c.hist);
	}
	return ret;
}
