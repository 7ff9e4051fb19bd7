// SPDX-License-Identifier: GPL-2.0
/*
 * Prefix sum on a biswapped network ([Wei07] section 3.2, Table 2), all-port.
 * Node <g, p, c> is processor (c n + g) n + p of the order summed
 * (bsn.h), so PS = SD + LS: the sum of the groups before one's own, and
 * the local prefix sum within it.  With the last group of part 0
 * (<n-1, *, 0>, group n-1) and of part 1 (<n-1, *, 1>, group 2n-1):
 *
 *   Step 1: a local prefix sum in every group;
 *   Step 2: processor n-1 of every part-0 group g sends its group's total
 *           to processor g of group 2n-1, and of every part-1 group but
 *           the last to processor g of group n-1 (its swap links);
 *   Step 3: an exclusive prefix sum of what arrived in groups n-1 and
 *           2n-1: processor q of group 2n-1 then has the sum of part-0
 *           groups 0 .. q-1, of group n-1 that of part-1 groups 0 .. q-1;
 *   Step 4: processor n-1 of group 2n-1 sends its sum (all of part 0 but
 *           group n-1) to processor n-1 of group n-1;
 *   Step 5: which adds its own group's total, part 0's total, and
 *           broadcasts it in group n-1; processor q adds it to its Step 3
 *           sum: the sum of every group before part-1 group q;
 *   Step 6: group n-1 sends those to the part-1 groups, group 2n-1 its
 *           Step 3 sums to the part-0 groups (processor n-1 of each);
 *   Step 7: a broadcast in every group from processor n-1;
 *   Step 8: each node adds that to its local prefix sum.
 *
 * A group's prefix sum runs dimension by dimension of the base, the last
 * (least significant) first: along a line every node's block total
 * travels to every other node (bsn.h), each adding to its total what
 * arrives and to its prefix what comes from lower coordinates.  It takes
 * the base's diameter D; a group broadcast from processor n-1 takes its
 * eccentricity e.  So 2 D + 2 e + 3 ticks, 4 D + 3 on arrays, meshes,
 * complete graphs, rings and hypercubes: Table 4's figures exactly.
 */
#include "bsn.h"
#include "sched.h"

enum step { DIM_LOCAL, SWAP_TOTALS, DIM_EXCL, SWAP_REST, BCAST_T0, SWAP_SD, BCAST_SD };

struct bpre {
	u32 nph, n, e;
	struct txn_bsn_phase ph[2 * TXNET_MAX_DIMS + 5];
	/* per processor: packets, or TXN_NONE */
	u32 *tot, *pre;		/* a dimension phase's block total and prefix */
	u32 *sd;		/* the sum of the groups before one's own (Steps 5-8) */
	u32 *keep;		/* Step 1's local prefix, for Step 8 */
};

/* @pkt into the partial in *@into (or as it, when there is none). */
static void add_to(struct txn_engine *e, u32 *into, u32 pkt)
{
	if (*into == TXN_NONE)
		*into = pkt;
	else
		txn_merge(e, *into, pkt);
}

static bool last_groups(const struct txn_graph *g, u32 v)
{
	return v / g->bsn_n % g->bsn_n == g->bsn_n - 1;
}

/* Which nodes take part in a dimension phase: every group in Step 1, the last two in Step 3. */
static bool in_phase(const struct txn_graph *g, const struct txn_bsn_phase *ph, u32 v)
{
	return ph->step == DIM_LOCAL || last_groups(g, v);
}

static void dim_begin(struct txn_engine *e, const struct txn_bsn_phase *ph)
{
	const struct txn_graph *g = e->g;
	struct bpre *b = e->priv;
	u32 v, j, w;

	for (v = 0; v < e->n; v++) {
		if (!in_phase(g, ph, v) || b->tot[v] == TXN_NONE)
			continue;
		for (j = 0; (w = txn_bsn_line_first(g, v, ph->dim, j)) != ~0U; j++)
			txn_bsn_push_copy(e, b->tot[v], v, w);
	}
}

/* A block total from @u: on along the line, into @v's prefix if from below, into its total. */
static void dim_arrive(struct txn_engine *e, const struct txn_bsn_phase *ph, u32 pkt,
		       u32 u, u32 v, u32 hops)
{
	const struct txn_graph *g = e->g;
	struct bpre *b = e->priv;
	u32 w = txn_bsn_line_next(g, u, v, ph->dim, hops), c;

	if (w != ~0U)
		txn_bsn_push_copy(e, pkt, v, w);
	if (txn_bsn_line_origin(g, u, v, ph->dim, hops) < txn_bsn_coord(g, v, ph->dim)) {
		c = txn_copy(e, pkt);
		if (c == TXN_NONE)
			return;
		add_to(e, &b->pre[v], c);
	}
	add_to(e, &b->tot[v], pkt);
}

/* Send what @v holds in *@slot over its swap link, and hold nothing. */
static void swap_out(struct txn_engine *e, u32 v, u32 *slot)
{
	if (*slot == TXN_NONE)
		return;
	txn_q_push(e, txn_bsn_swap_link(e->g, v), *slot);
	*slot = TXN_NONE;
}

/* @pkt at @v in a group broadcast from processor n-1: a copy on to each child. */
static void spread(struct txn_engine *e, u32 pkt, u32 v)
{
	const struct txn_graph *g = e->g;
	u32 n = g->bsn_n, y = v % n, l, w;

	for (l = g->first[v]; l < txn_bsn_swap_link(g, v); l++) {
		w = g->dst[l];
		if (w % n != n - 1 && txn_bsn_toward(g, w % n, n - 1) == y)
			txn_bsn_push_copy(e, pkt, v, w);
	}
}

/* Step 8: the local prefix and the groups before: the result. */
static void finish(struct txn_engine *e, u32 v)
{
	struct bpre *b = e->priv;

	if (b->sd[v] != TXN_NONE && txn_merge(e, b->keep[v], b->sd[v]))
		return;
	b->sd[v] = TXN_NONE;
	txn_fold(e, b->keep[v]);
	b->keep[v] = TXN_NONE;
}

static void begin(struct txn_engine *e, const struct txn_bsn_phase *ph)
{
	const struct txn_graph *g = e->g;
	struct bpre *b = e->priv;
	u32 n = b->n, v, last0 = txn_bsn_vertex(n, n - 1, n - 1, 0), grp, p, c;

	switch (ph->step) {
	case DIM_LOCAL:
	case DIM_EXCL:
		dim_begin(e, ph);
		break;
	case SWAP_TOTALS:
		for (v = 0; v < e->n; v++) {
			txn_bsn_label(n, v, &grp, &p, &c);
			b->keep[v] = b->pre[v];
			b->pre[v] = TXN_NONE;
			/* part 0's first group has nothing before it: done */
			if (!c && !grp)
				finish(e, v);
			/* the totals of every group but 2n-1 (not needed: nothing comes after it) */
			if (p == n - 1 && !(c && grp == n - 1))
				swap_out(e, v, &b->tot[v]);
		}
		/* Step 3 starts afresh from what arrives */
		for (v = 0; v < e->n; v++)
			if (last_groups(g, v))
				b->tot[v] = TXN_NONE;
		break;
	case SWAP_REST:
		v = txn_bsn_vertex(n, n - 1, n - 1, 1);
		if (b->pre[v] != TXN_NONE)
			txn_bsn_push_copy(e, b->pre[v], v, txn_bsn_swap(n, v));
		break;
	case BCAST_T0:
		if (b->sd[last0] != TXN_NONE)
			spread(e, b->sd[last0], last0);
		break;
	case SWAP_SD:
		for (grp = 0; grp < n; grp++) {
			/* group n-1's sums for the part-1 groups, group 2n-1's for part 0's */
			swap_out(e, txn_bsn_vertex(n, n - 1, grp, 0),
				  &b->pre[txn_bsn_vertex(n, n - 1, grp, 0)]);
			swap_out(e, txn_bsn_vertex(n, n - 1, grp, 1),
				  &b->pre[txn_bsn_vertex(n, n - 1, grp, 1)]);
		}
		break;
	default:
		for (v = 0; v < e->n; v++)
			if (v % n == n - 1 && b->sd[v] != TXN_NONE) {
				spread(e, b->sd[v], v);
				finish(e, v);
			}
	}
}

static void pre_choose(struct txn_engine *e)
{
	struct bpre *b = e->priv;
	u64 t = e->tick + 1;
	const struct txn_bsn_phase *ph = txn_bsn_phase_at(b->ph, b->nph, t);

	if (ph && t == (u64)ph->start + 1)
		begin(e, ph);
	txn_q_send_heads(e);
}

static void pre_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct bpre *b = e->priv;
	u64 t = e->tick + 1;
	const struct txn_bsn_phase *ph = txn_bsn_phase_at(b->ph, b->nph, t);
	u32 u = e->g->src[link], v = e->g->dst[link], c;

	if (!ph)
		return;
	switch (ph->step) {
	case DIM_LOCAL:
	case DIM_EXCL:
		dim_arrive(e, ph, pkt, u, v, (u32)(t - ph->start));
		break;
	case SWAP_TOTALS:
		b->tot[v] = pkt;	/* Step 3's input */
		break;
	case SWAP_REST:
		/* Step 5: with the group's own total, part 0's */
		c = txn_copy(e, b->keep[v]);
		if (c == TXN_NONE || txn_merge(e, pkt, c))
			return;
		b->sd[v] = pkt;
		c = txn_copy(e, pkt);
		if (c != TXN_NONE)
			add_to(e, &b->pre[v], c);
		break;
	case BCAST_T0:
		/* part 0's total, and the part-1 groups before q: q's part-1 group's sum */
		spread(e, pkt, v);
		add_to(e, &b->pre[v], pkt);
		break;
	case SWAP_SD:
		b->sd[v] = pkt;
		break;
	default:
		spread(e, pkt, v);
		b->sd[v] = pkt;
		finish(e, v);
	}
}

static int pre_start(struct txn_engine *e)
{
	const struct txn_graph *g = e->g;
	u32 d, v, t = 0;
	struct bpre *b;

	if (e->p.op != TXNET_OP_PREFIX_SUM || !g->bsn_n || e->p.port_model != TXNET_PORT_ALL)
		return -EINVAL;
	b = txn_zalloc_array(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	e->priv = b;
	b->n = g->bsn_n;
	b->e = txn_bsn_ecc(g, b->n - 1);
	b->tot = txn_alloc_array(4 * (u64)e->n, sizeof(u32));
	if (!b->tot)
		return -ENOMEM;
	b->pre = b->tot + e->n;
	b->sd = b->pre + e->n;
	b->keep = b->sd + e->n;
	/* Steps 1 and 3: the least significant dimension first */
	for (d = g->bndims; d-- > 0;) {
		b->ph[b->nph++] = (struct txn_bsn_phase){ DIM_LOCAL, (u8)d, t,
						  txn_factor_diameter(g->bkind[d], g->bsize[d]) };
		t += b->ph[b->nph - 1].len;
	}
	b->ph[b->nph++] = (struct txn_bsn_phase){ SWAP_TOTALS, 0, t++, 1 };
	for (d = g->bndims; d-- > 0;) {
		b->ph[b->nph++] = (struct txn_bsn_phase){ DIM_EXCL, (u8)d, t,
						  txn_factor_diameter(g->bkind[d], g->bsize[d]) };
		t += b->ph[b->nph - 1].len;
	}
	b->ph[b->nph++] = (struct txn_bsn_phase){ SWAP_REST, 0, t++, 1 };
	b->ph[b->nph++] = (struct txn_bsn_phase){ BCAST_T0, 0, t, b->e };
	t += b->e;
	b->ph[b->nph++] = (struct txn_bsn_phase){ SWAP_SD, 0, t++, 1 };
	b->ph[b->nph++] = (struct txn_bsn_phase){ BCAST_SD, 0, t, b->e };
	/* slot v is processor v's own value: its block total and its prefix */
	for (v = 0; v < e->n; v++) {
		b->tot[v] = v;
		b->pre[v] = txn_copy(e, v);
		b->sd[v] = TXN_NONE;
		b->keep[v] = TXN_NONE;
	}
	return e->failed ? -EPROTO : 0;
}

static void pre_fini(struct txn_engine *e)
{
	struct bpre *b = e->priv;

	if (b)
		txn_free(b->tot);
	txn_free(b);
	e->priv = NULL;
}

static u64 pre_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)port;
	(void)npkts;
	return sizeof(struct bpre) + 4 * (u64)g->procs * sizeof(u32);
}

const struct txn_sched txn_sched_bsn_prefix = {
	.algo = TXNET_ALGO_BISWAPPED,
	.name = "biswapped",
	.start = pre_start,
	.choose = pre_choose,
	.arrive = pre_arrive,
	.fini = pre_fini,
	.priv_bytes = pre_bytes,
};
