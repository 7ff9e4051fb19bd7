// SPDX-License-Identifier: GPL-2.0
/*
 * Topology specs: validation and normalization, closed-form counts (no graph
 * is built: the kernel charges memory before it allocates), the normalized
 * text form, keyword tables.
 *
 * Sizes, numbering and ports: Documentation/txnet-topologies.rst.
 */
#include "topo_impl.h"

static const char *const topo_names[] = {
	[TXNET_TOPO_LINEAR]	= "linear",
	[TXNET_TOPO_RING]	= "ring",
	[TXNET_TOPO_COMPLETE]	= "complete",
	[TXNET_TOPO_MESH]	= "mesh",
	[TXNET_TOPO_TORUS]	= "torus",
	[TXNET_TOPO_HYPERCUBE]	= "hypercube",
	[TXNET_TOPO_GHC]	= "ghc",
	[TXNET_TOPO_PRODUCT]	= "product",
	[TXNET_TOPO_BUTTERFLY]	= "butterfly",
	[TXNET_TOPO_OMEGA]	= "omega",
	[TXNET_TOPO_BASELINE]	= "baseline",
	[TXNET_TOPO_RBASELINE]	= "rbaseline",
	[TXNET_TOPO_FLIP]	= "flip",
	[TXNET_TOPO_BISWAPPED]	= "biswapped",
	[TXNET_TOPO_DRAGONFLY]	= "dragonfly",
	[TXNET_TOPO_FATTREE]	= "fattree",
	[TXNET_TOPO_SLIMFLY]	= "slimfly",
	[TXNET_TOPO_GRAPH]	= "graph",
};

static const char *const kind_names[] = {
	[TXNET_DIM_LINEAR]	= "linear",
	[TXNET_DIM_RING]	= "ring",
	[TXNET_DIM_COMPLETE]	= "complete",
};

const char *txn_topo_name(u32 topo)
{
	if (topo == TXNET_TOPO_UNSPEC || topo > TXNET_TOPO_MAX)
		return NULL;
	return topo_names[topo];
}

u32 txn_topo_from_name(const char *name)
{
	u32 t;

	if (!name)
		return TXNET_TOPO_UNSPEC;
	for (t = 1; t <= TXNET_TOPO_MAX; t++)
		if (!strcmp(name, topo_names[t]))
			return t;
	return TXNET_TOPO_UNSPEC;
}

const char *txn_dim_kind_name(u32 kind)
{
	if (kind == TXNET_DIM_UNSPEC || kind > TXNET_DIM_MAX)
		return NULL;
	return kind_names[kind];
}

u32 txn_dim_kind_from_name(const char *name)
{
	u32 k;

	if (!name)
		return TXNET_DIM_UNSPEC;
	for (k = 1; k <= TXNET_DIM_MAX; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return TXNET_DIM_UNSPEC;
}

bool txn_topo_is_min(u32 topo)
{
	return topo >= TXNET_TOPO_BUTTERFLY && topo <= TXNET_TOPO_FLIP;
}

/*
 * The kind every dimension of @topo has, UNSPEC where kind[] means nothing
 * (hypercube: size[0] is d; MINs: size[0] is N), or ~0U for PRODUCT (the
 * user gives them).
 */
static u32 implied_kind(u32 topo)
{
	switch (topo) {
	case TXNET_TOPO_LINEAR:
	case TXNET_TOPO_MESH:
		return TXNET_DIM_LINEAR;
	case TXNET_TOPO_RING:
	case TXNET_TOPO_TORUS:
		return TXNET_DIM_RING;
	case TXNET_TOPO_COMPLETE:
	case TXNET_TOPO_GHC:
		return TXNET_DIM_COMPLETE;
	case TXNET_TOPO_PRODUCT:
		return ~0U;
	default:
		return TXNET_DIM_UNSPEC;
	}
}

static int refuse(struct txn_spec_error *err, int ret, const char *msg,
		  int dim, int field)
{
	err->msg = msg;
	err->dim = dim;
	err->field = field;
	return ret;
}

/* Factor formulas: linear array P_k, ring C_k (C_2 = one edge), K_k. */
static u64 factor_links(u32 kind, u32 k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return 2 * ((u64)k - 1);
	case TXNET_DIM_RING:
		return k == 2 ? 2 : 2 * (u64)k;
	default:
		return (u64)k * (k - 1);
	}
}

static u32 factor_diameter(u32 kind, u32 k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
		return k - 1;
	case TXNET_DIM_RING:
		return k >> 1;
	default:
		return 1;
	}
}

static u32 factor_max_degree(u32 kind, u32 k)
{
	switch (kind) {
	case TXNET_DIM_LINEAR:
	case TXNET_DIM_RING:
		return k == 2 ? 1 : 2;
	default:
		return k - 1;
	}
}


/*
 * Counts of the product of @ndims factors (sizes >= 2, kinds 1..3), or
 * TXN_TOO_MANY_NODES when it has more than @lim (<= 2^32 - 1) vertices,
 * TXN_TOO_MANY_LINKS when more than 2^32 - 1 links.
 *
 * Nodes: prod k_i.  Links: a dimension-i edge joins two vertices agreeing on
 * every other coordinate, so dimension i contributes
 * links(G_i) * prod_{j != i} k_j directed links.  Diameter: the distance in
 * a product is the sum of the factor distances, so the diameter is the sum
 * of the factor diameters; the largest degree likewise is the sum of the
 * factors' (000_5fb507e944f3b43a.txt, section 2).
 *
 * No partial product exceeds 2^64: each is checked against @lim before the
 * next multiplication, and links(G_i) * prod_{j != i} k_j <= nodes * (k_i - 1)
 * (ring: 2 * nodes).  No division.
 */
static int product_counts(u32 ndims, const u32 *size, const u32 *kind, u64 lim,
			  struct txn_counts *c)
{
	u64 nodes = 1, links = 0, other, term, diam = 0, deg = 0;
	u32 i, j;

	for (i = 0; i < ndims; i++) {
		nodes *= size[i];
		if (nodes > lim)
			return TXN_TOO_MANY_NODES;
	}
	for (i = 0; i < ndims; i++) {
		other = 1;
		for (j = 0; j < ndims; j++)
			if (j != i)
				other *= size[j];
		term = other * factor_links(kind[i], size[i]);
		if (term > TXN_U32_MAX)
			return TXN_TOO_MANY_LINKS;
		links += term;
		if (links > TXN_U32_MAX)
			return TXN_TOO_MANY_LINKS;
		diam += factor_diameter(kind[i], size[i]);
		deg += factor_max_degree(kind[i], size[i]);
	}
	c->nodes = nodes;
	c->procs = nodes;
	c->switches = 0;
	c->links = links;
	c->diameter = (u32)diam;
	c->max_degree = (u32)deg;
	return 0;
}

/* Size and kind checks shared by a topology and a biswapped base. */
static int check_dims(struct txn_spec *spec, u32 topo, struct txn_spec_error *err)
{
	u32 want = implied_kind(topo), i;

	switch (topo) {
	case TXNET_TOPO_LINEAR:
	case TXNET_TOPO_RING:
	case TXNET_TOPO_COMPLETE:
	case TXNET_TOPO_HYPERCUBE:
	case TXNET_TOPO_BUTTERFLY:
	case TXNET_TOPO_OMEGA:
	case TXNET_TOPO_BASELINE:
	case TXNET_TOPO_RBASELINE:
	case TXNET_TOPO_FLIP:
		if (spec->ndims != 1)
			return refuse(err, -EINVAL,
				      "this topology takes exactly one dimension size",
				      -1, TXNET_A_DIMS);
		break;
	case TXNET_TOPO_DRAGONFLY:
		if (spec->ndims != 3)
			return refuse(err, -EINVAL,
				      "a dragonfly takes three sizes: p, a and h",
				      -1, TXNET_A_DIMS);
		break;
	case TXNET_TOPO_FATTREE:
		if (spec->ndims != 2)
			return refuse(err, -EINVAL,
				      "a fat tree takes two sizes: arity k and levels n",
				      -1, TXNET_A_DIMS);
		break;
	case TXNET_TOPO_SLIMFLY:
		if (spec->ndims != 2)
			return refuse(err, -EINVAL,
				      "a Slim Fly takes two sizes: the prime q and p processors a router",
				      -1, TXNET_A_DIMS);
		break;
	default:
		break;
	}

	for (i = 0; i < spec->ndims; i++) {
		u32 k = spec->size[i];

		if (want == ~0U) {
			if (spec->kind[i] == TXNET_DIM_UNSPEC)
				return refuse(err, -EINVAL,
					      "dimension kind is required for a product",
					      i, TXNET_A_DIM_KIND);
			if (spec->kind[i] > TXNET_DIM_MAX)
				return refuse(err, -EINVAL, "unknown dimension kind",
					      i, TXNET_A_DIM_KIND);
		} else if (spec->kind[i] != TXNET_DIM_UNSPEC &&
			   spec->kind[i] != want) {
			return refuse(err, -EINVAL,
				      "dimension kind is only allowed for a product (or must match the topology)",
				      i, TXNET_A_DIM_KIND);
		}

		if (topo == TXNET_TOPO_HYPERCUBE) {
			if (k < 1 || k > TXNET_MAX_DIMS)
				return refuse(err, -EINVAL,
					      "hypercube dimension must be between 1 and 16",
					      i, TXNET_A_DIM_SIZE);
		} else if (topo == TXNET_TOPO_DRAGONFLY) {
			if (k < 1)
				return refuse(err, -EINVAL,
					      "dragonfly sizes p, a and h must be at least 1",
					      i, TXNET_A_DIM_SIZE);
		} else if (topo == TXNET_TOPO_FATTREE) {
			if (k < 2 - i)
				return refuse(err, -EINVAL, i ? "fat tree levels n must be at least 1" :
						       "fat tree arity k must be at least 2",
					      i, TXNET_A_DIM_SIZE);
		} else if (topo == TXNET_TOPO_SLIMFLY) {
			if (i == 0 && (k < 3 || !txn_is_prime(k)))
				return refuse(err, -EINVAL, "Slim Fly q must be an odd prime",
					      i, TXNET_A_DIM_SIZE);
			if (i == 1 && k < 1)
				return refuse(err, -EINVAL,
					      "Slim Fly processors a router p must be at least 1",
					      i, TXNET_A_DIM_SIZE);
		} else if (txn_topo_is_min(topo)) {
			if (k < 2 || (k & (k - 1)))
				return refuse(err, -EINVAL,
					      "MIN size must be a power of two, at least 2",
					      i, TXNET_A_DIM_SIZE);
		} else if (k < 2) {
			return refuse(err, -EINVAL,
				      "dimension size must be at least 2",
				      i, TXNET_A_DIM_SIZE);
		}
	}

	/* normalize */
	for (i = 0; i < spec->ndims; i++)
		if (want != ~0U)
			spec->kind[i] = want;
	for (; i < TXNET_MAX_DIMS; i++) {
		spec->size[i] = 0;
		spec->kind[i] = TXNET_DIM_UNSPEC;
	}
	return 0;
}

/* Vertices of a checked base (linear, ring, complete, mesh, hypercube), or 0 if over @lim. */
static u64 base_nodes(const struct txn_spec *spec, u32 topo, u64 lim)
{
	u64 nodes = 1;
	u32 i;

	if (topo == TXNET_TOPO_HYPERCUBE)
		nodes = 1ULL << spec->size[0];
	else
		for (i = 0; i < spec->ndims; i++) {
			nodes *= spec->size[i];
			if (nodes > lim)
				return 0;
		}
	return nodes > lim ? 0 : nodes;
}

/* Counts of a checked linear/ring/complete/mesh/torus/hypercube/ghc/product. */
static int base_counts(const struct txn_spec *spec, u32 topo, u64 lim,
		       struct txn_counts *c)
{
	u32 size[TXNET_MAX_DIMS], kind[TXNET_MAX_DIMS], d, i;

	if (topo != TXNET_TOPO_HYPERCUBE)
		return product_counts(spec->ndims, spec->size, spec->kind, lim, c);
	/* Q_d = K2^d: 2^d nodes, d 2^d links, diameter d, degree d */
	d = spec->size[0];
	for (i = 0; i < d; i++) {
		size[i] = 2;
		kind[i] = TXNET_DIM_LINEAR;
	}
	return product_counts(d, size, kind, lim, c);
}

int txn_spec_validate(struct txn_spec *spec, u64 max_nodes,
		      struct txn_counts *counts, struct txn_spec_error *err)
{
	struct txn_spec_error dummy_err;
	struct txn_counts dummy_counts, c;
	u64 lim = max_nodes < TXN_MAX_VERTICES ? max_nodes : TXN_MAX_VERTICES;
	u32 topo = spec->topo, inner;
	int ret;

	if (!err)
		err = &dummy_err;
	if (!counts)
		counts = &dummy_counts;
	err->msg = NULL;
	err->dim = -1;
	err->field = 0;
	memset(counts, 0, sizeof(*counts));
	memset(&c, 0, sizeof(c));

	if (topo == TXNET_TOPO_UNSPEC || topo > TXNET_TOPO_MAX)
		return refuse(err, -EINVAL, "unknown topology", -1,
			      TXNET_A_TOPOLOGY);
	/* its counts and its graph come from its list of cables (cables.c) */
	if (topo == TXNET_TOPO_GRAPH)
		return refuse(err, -EINVAL,
			      "a graph is built from its cables (TXNET_A_CABLES), not from sizes",
			      -1, TXNET_A_TOPOLOGY);
	if (topo == TXNET_TOPO_BISWAPPED) {
		inner = spec->base;
		switch (inner) {
		case TXNET_TOPO_LINEAR:
		case TXNET_TOPO_RING:
		case TXNET_TOPO_COMPLETE:
		case TXNET_TOPO_MESH:
		case TXNET_TOPO_HYPERCUBE:
			break;
		default:
			return refuse(err, -EINVAL,
				      "biswapped base must be linear, ring, complete, mesh or hypercube",
				      -1, TXNET_A_BASE);
		}
	} else {
		if (spec->base != TXNET_TOPO_UNSPEC)
			return refuse(err, -EINVAL,
				      "base is only allowed for biswapped", -1,
				      TXNET_A_BASE);
		inner = topo;
	}
	if (spec->ndims == 0)
		return refuse(err, -EINVAL, "at least one dimension is required",
			      -1, TXNET_A_DIMS);
	if (spec->ndims > TXNET_MAX_DIMS)
		return refuse(err, -EINVAL, "too many dimensions (at most 16)",
			      -1, TXNET_A_DIMS);

	ret = check_dims(spec, inner, err);
	if (ret)
		return ret;

	if (txn_topo_is_min(topo)) {
		/*
		 * 002_f7491c23b3b301d5.txt, section 2: n = log2 N stages of N/2
		 * switches, a packet crossing one stage a tick, so n ticks
		 * between processors.  A processor sends on the two output lines
		 * of its stage-0 switch, which are not vertices (min.c): the
		 * switches of stages 1 .. n-1 are.  Links: 2 from each processor
		 * (none to itself: N = 2 has 2 in all), N between each pair of
		 * stages, N out: (n + 1) N.
		 */
		u64 N = spec->size[0], n = txn_min_log2(spec->size[0]);

		c.procs = N;
		c.switches = (n - 1) * (N >> 1);
		c.nodes = c.procs + c.switches;
		c.links = n > 1 ? N * (n + 1) : 2;
		c.diameter = (u32)n;
		c.max_degree = n > 1 ? 2 : 1;
		c.lines = true;
		ret = 0;
		if (c.nodes > lim)
			ret = TXN_TOO_MANY_NODES;
		else if (c.links > TXN_U32_MAX)
			ret = TXN_TOO_MANY_LINKS;
	} else if (topo == TXNET_TOPO_DRAGONFLY) {
		ret = txn_dragonfly_counts(spec, lim, &c);
	} else if (topo == TXNET_TOPO_FATTREE) {
		ret = txn_fattree_counts(spec, lim, &c);
	} else if (topo == TXNET_TOPO_SLIMFLY) {
		ret = txn_slimfly_counts(spec, lim, &c);
	} else if (topo == TXNET_TOPO_BISWAPPED) {
		/*
		 * 004_479a535e0b8bf657.txt, Definition 1: 2n groups of the
		 * n-node base, 2 n^2 nodes; each group keeps the base's links
		 * (2n * links(base)) and every node has one swap link (2n^2).
		 *
		 * Diameter 2 D(base) + 2 (Theorem 1's proof, quoting its
		 * reference [3]).  A move inside a group changes the second
		 * coordinate only and a swap exchanges the two, so from
		 * <g,p,c> to <g',p',c> with g != g' takes two swaps and at
		 * least d(g,g') + d(p,p') moves (g -> g' while it is the
		 * second coordinate, p -> p' likewise): 2D + 2 when both are
		 * D; the other part costs d(p,g') + 1 + d(g,p') <= 2D + 1.
		 * The host tests check 2D + 2 against BFS.
		 */
		struct txn_counts b;
		u64 n = base_nodes(spec, inner, lim), sq;

		/* n <= 2^32 - 1 (or 0 when over @lim): the square fits in u64 */
		sq = n * n;
		memset(&b, 0, sizeof(b));
		if (!n || sq > lim || 2 * sq > lim)
			ret = TXN_TOO_MANY_NODES;
		else
			ret = base_counts(spec, inner, lim, &b);
		if (!ret) {
			/* n^2 <= 2^31: b.links < n^2, 2n * b.links < 2^48 */
			c.nodes = 2 * sq;
			c.procs = c.nodes;
			c.links = 2 * n * b.links + 2 * sq;
			c.diameter = 2 * b.diameter + 2;
			c.max_degree = b.max_degree + 1;
			if (c.links > TXN_U32_MAX)
				ret = TXN_TOO_MANY_LINKS;
		}
	} else {
		ret = base_counts(spec, topo, lim, &c);
	}

	if (!ret && c.links > TXN_MAX_LINKS)
		ret = TXN_TOO_MANY_LINKS;
	if (ret == TXN_TOO_MANY_NODES) {
		if (max_nodes > TXN_MAX_VERTICES)
			return refuse(err, -E2BIG,
				      "network has more nodes than txnet supports (2^24)",
				      -1, TXNET_A_DIMS);
		return refuse(err, -E2BIG,
			      "network has more nodes than the max_nodes limit",
			      -1, TXNET_A_DIMS);
	}
	if (ret == TXN_TOO_MANY_LINKS)
		return refuse(err, -E2BIG,
			      "network has more links than txnet supports (2^29 - 1)",
			      -1, TXNET_A_DIMS);
	*counts = c;
	return 0;
}

/* snprintf-like output without a format engine: same in kernel and libc. */
struct outbuf {
	char *buf;
	size_t len;
	size_t pos;
};

static void put_char(struct outbuf *o, char ch)
{
	if (o->pos + 1 < o->len)
		o->buf[o->pos] = ch;
	o->pos++;
}

static void put_str(struct outbuf *o, const char *s)
{
	while (*s)
		put_char(o, *s++);
}

static void put_u32(struct outbuf *o, u32 v)
{
	char tmp[10];
	int i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		put_char(o, tmp[--i]);
}

int txn_spec_format(const struct txn_spec *spec, char *buf, size_t len)
{
	struct outbuf o = { .buf = buf, .len = len, .pos = 0 };
	const char *name = txn_topo_name(spec->topo), *kname;
	u32 i, ndims = spec->ndims;

	if (!name)
		name = "unknown";
	put_str(&o, name);
	if (spec->topo == TXNET_TOPO_BISWAPPED) {
		const char *bname = txn_topo_name(spec->base);

		put_char(&o, ' ');
		put_str(&o, bname ? bname : "unknown");
	}
	if (ndims > TXNET_MAX_DIMS)
		ndims = TXNET_MAX_DIMS;
	for (i = 0; i < ndims; i++) {
		put_char(&o, ' ');
		if (spec->topo == TXNET_TOPO_PRODUCT) {
			kname = txn_dim_kind_name(spec->kind[i]);
			put_str(&o, kname ? kname : "unknown");
			put_char(&o, ':');
		}
		put_u32(&o, spec->size[i]);
	}
	if (len)
		buf[o.pos < len ? o.pos : len - 1] = '\0';
	return (int)o.pos;
}
