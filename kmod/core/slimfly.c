// SPDX-License-Identifier: GPL-2.0
/*
 * The Slim Fly (M. Besta and T. Hoefler, "Slim Fly: A Cost Effective
 * Low-Diameter Network Topology", SC 2014): routers joined as the
 * McKay-Miller-Siran graph of a prime q, whose diameter is 2, each router
 * with p processors.
 *
 * The graph, as section 3 of the paper builds it: q = 4w + delta with
 * delta = 1 or -1 (every odd prime is one), xi a primitive element of the
 * field Z_q, and the generator sets
 *
 *   delta =  1: X = { xi^e : e even, 0 .. q-3 },  X' = { xi^e : e odd, 1 .. q-2 }
 *   delta = -1: X = { xi^e : e even, 0 .. 2w-2 } + { xi^e : e odd, 2w-1 .. 4w-3 },
 *               X' = { xi^e : e odd, 1 .. 2w-1 } + { xi^e : e even, 2w .. 4w-2 }
 *
 * each of (q - delta) / 2 elements (with delta = -1 both hold
 * xi^(2w-1) = -1 and xi^0 = xi^(4w-2) = 1) and closed under negation (-1 is
 * xi^((q-1)/2)).  Routers (0, x, y) and (1, m, c), x, y, m, c in Z_q:
 * (0, x, y) ~ (0, x, y') when y - y' is in X, (1, m, c) ~ (1, m, c') when
 * c - c' is in X', and (0, x, y) ~ (1, m, c) when y = m x + c.  A router
 * has (3q - delta) / 2 router cables.  xi is the least primitive element.
 *
 * Graph: processors 0 .. N-1 (N = 2 q^2 p), processor v on router v / p;
 * router (0, x, y) is vertex N + x q + y, router (1, m, c) vertex
 * N + q^2 + m q + c.  A router's ports: its p processors in order, then its
 * own column, (0, x, y + e) or (1, m, c + e) for e in X (X') in increasing
 * order, then the other side: (1, m, y - m x) for m = 0 .. q-1 from
 * (0, x, y), (0, x, m x + c) for x = 0 .. q-1 from (1, m, c).
 *
 * Counts: N + 2 q^2 vertices, 2N + q^2 (3q - delta) links; routers are at
 * most 2 apart, processors 4; the host tests check both by BFS.
 */
#include "topo_impl.h"

bool txn_is_prime(u32 q)
{
	u32 d;

	if (q < 2)
		return false;
	for (d = 2; (u64)d * d <= q; d++)
		if (q % d == 0)
			return false;
	return true;
}

int txn_slimfly_counts(const struct txn_spec *spec, u64 lim, struct txn_counts *c)
{
	u64 q = spec->size[0], p = spec->size[1], routers, procs, radix;

	/* q and p are at most 2^32 - 1: each product is checked before the next */
	if (q > lim || p > lim)
		return TXN_TOO_MANY_NODES;
	routers = 2 * q * q;
	if (routers > lim)
		return TXN_TOO_MANY_NODES;
	procs = p * routers;
	if (procs > lim || procs + routers > lim)
		return TXN_TOO_MANY_NODES;
	radix = q % 4 == 1 ? (3 * q - 1) / 2 : (3 * q + 1) / 2;
	c->procs = procs;
	c->switches = routers;
	c->nodes = procs + routers;
	c->links = 2 * procs + routers * radix;
	c->diameter = 4;
	c->max_degree = (u32)(p + radix);
	c->lines = false;
	return 0;
}

struct slimfly {
	u32 q, p, procs, nx;
	u32 *x, *xs;		/* X and X', nx each, increasing */
};

static u32 pow_mod(u64 b, u32 e, u32 q)
{
	u64 r = 1;

	for (b %= q; e; e >>= 1, b = b * b % q)
		if (e & 1)
			r = r * b % q;
	return (u32)r;
}

/* The least primitive element of Z_q: no xi^((q-1)/f) is 1 for a prime f of q - 1. */
static u32 primitive(u32 q)
{
	u32 xi, f, m;

	for (xi = 2; xi < q; xi++) {
		for (m = q - 1, f = 2; m > 1; f++) {
			if (m % f)
				continue;
			if (pow_mod(xi, (q - 1) / f, q) == 1)
				break;
			while (m % f == 0)
				m /= f;
		}
		if (m == 1)
			return xi;
	}
	return 1;	/* q = 3 .. : not reached, 2 is primitive mod 3 */
}

static void sort_u32(u32 *a, u32 n)
{
	u32 i, j, t;

	/* (q - delta) / 2 elements, once per build: insertion sort is enough */
	for (i = 1; i < n; i++)
		for (j = i, t = a[i]; j > 0 && a[j - 1] > t; j--) {
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/* Also the prepare's unwinding: what it allocated, NULL or not. */
static void slimfly_release(void *ctx)
{
	struct slimfly *s = ctx;

	txn_free(s->x);
	txn_free(s->xs);
	txn_free(s);
}

static int slimfly_prepare(const struct txn_spec *spec, void **ctx)
{
	u32 q = spec->size[0], w, xi, e, nx = 0, nxs = 0;
	bool plus = q % 4 == 1;
	struct slimfly *s;
	u64 v = 1;

	s = txn_alloc_array(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->q = q;
	s->p = spec->size[1];
	s->procs = 2 * q * q * s->p;
	s->nx = plus ? (q - 1) / 2 : (q + 1) / 2;
	s->x = txn_alloc_array(s->nx, sizeof(u32));
	s->xs = txn_alloc_array(s->nx, sizeof(u32));
	if (!s->x || !s->xs) {
		slimfly_release(s);
		return -ENOMEM;
	}
	w = plus ? (q - 1) / 4 : (q + 1) / 4;
	xi = primitive(q);
	/*
	 * With delta = -1 the two sets share xi^(2w-1) = -1, and X' runs to
	 * xi^(4w-2) = xi^(q-1) = 1: e goes to q - 1.
	 */
	for (e = 0; e < q; e++, v = v * xi % q) {
		bool odd = e & 1;
		bool in_x = e + 1 < q && (plus ? !odd : (e <= 2 * w - 2 ? !odd : odd));
		bool in_xs = plus ? odd : (e <= 2 * w - 1 ? odd : !odd);

		if (in_x && nx < s->nx)
			s->x[nx++] = (u32)v;
		if (in_xs && nxs < s->nx)
			s->xs[nxs++] = (u32)v;
	}
	sort_u32(s->x, nx);
	sort_u32(s->xs, nxs);
	if (nx != s->nx || nxs != s->nx) {
		slimfly_release(s);
		return -EINVAL;
	}
	*ctx = s;
	return 0;
}

static u32 slimfly_degree(const void *ctx, u32 v)
{
	const struct slimfly *s = ctx;

	return v < s->procs ? 1 : s->p + s->nx + s->q;
}

static u32 slimfly_neighbour(const void *ctx, u32 v, u32 port)
{
	const struct slimfly *s = ctx;
	u32 q = s->q, r, side, a, b;

	if (v < s->procs)
		return s->procs + v / s->p;
	r = v - s->procs;
	if (port < s->p)
		return r * s->p + port;
	port -= s->p;
	side = r / (q * q);
	a = r / q % q;		/* x, or m */
	b = r % q;		/* y, or c */
	if (port < s->nx)
		return s->procs + side * q * q + a * q + (b + (side ? s->xs : s->x)[port]) % q;
	port -= s->nx;
	if (side == 0)		/* to (1, m, y - m x), m = port */
		return s->procs + q * q + port * q + (u32)((b + (u64)q * q - (u64)port * a) % q);
	/* to (0, x, m x + c), x = port */
	return s->procs + port * q + (u32)(((u64)a * port + b) % q);
}

const struct txn_rule txn_slimfly_rule = {
	.prepare = slimfly_prepare,
	.release = slimfly_release,
	.degree = slimfly_degree,
	.neighbour = slimfly_neighbour,
};
