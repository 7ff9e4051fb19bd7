// SPDX-License-Identifier: GPL-2.0
/*
 * Gather as the dual of scatter ([Bertsekas91] section 1: "By reversing
 * this schedule ... for every algorithm that solves the single node gather (scatter)
 * problem, [there is one for the other that] takes the same amount of
 * communication time").  A scatter from the same root (the general
 * schedule's here, the hypercube's in sched_cube_scatter.c) is run first,
 * on its own, and recorded; the gather replays it
 * backwards: the packet the scatter moved to x over link l at tick t
 * moves from x back over the reverse of l at tick T+1-t.  A link carries
 * one packet a tick and a node sends and receives one a tick (single-port)
 * in the reversed schedule exactly when it did in the original, and a
 * packet still leaves a node only after it arrived.  Only where every
 * link has a reverse: not on multistage networks.
 */
#include "sched.h"

struct dual {
	u32 ticks;
	u32 *at;		/* ticks + 1 offsets into mv, by scatter tick */
	struct txn_move *mv;
	u64 nmv, cap;
	struct txn_engine run;	/* the scatter, while it is recorded */
};

/* The most hops a shortest-path scatter makes: every packet at most the diameter. */
static u64 dual_cap(const struct txn_graph *g)
{
	return (u64)(g->procs - 1) * (g->diameter ? g->diameter : 1);
}

static struct txn_run_params scatter_params(const struct txn_engine *e)
{
	struct txn_run_params p = {
		.op = TXNET_OP_SCATTER, .port_model = e->p.port_model, .seed = e->p.seed,
		.root = e->p.root,
	};

	return p;
}

void txn_dual_fini(struct txn_engine *e)
{
	struct dual *s = e->priv;

	if (!s)
		return;
	txn_engine_free(&s->run);
	txn_free(s->at);
	txn_free(s->mv);
	txn_free(s);
	e->priv = NULL;
}

int txn_dual_start(struct txn_engine *e, const struct txn_sched *scatter)
{
	struct txn_run_params p = scatter_params(e);
	const struct txn_graph *g = e->g;
	struct dual *s;
	u32 i, l;
	int ret, done;

	if (e->p.op != TXNET_OP_GATHER)
		return -EINVAL;
	for (l = 0; l < g->links; l++)
		if (g->rev[l] == TXN_NO_LINK)
			return -EINVAL;
	s = txn_zalloc_array(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	e->priv = s;
	s->cap = dual_cap(g);
	s->mv = txn_alloc_array(s->cap, sizeof(*s->mv));
	s->at = txn_zalloc_array(s->cap + 2, sizeof(u32));
	if (!s->mv || !s->at)
		return -ENOMEM;
	ret = txn_engine_init(&s->run, g, scatter, &p);
	if (ret)
		return ret;
	for (;;) {
		done = txn_engine_tick(&s->run);
		if (done < 0)
			return -EPROTO;
		if (s->nmv + s->run.nmoves > s->cap || s->ticks + 1 > s->cap)
			return -EPROTO;
		for (i = 0; i < s->run.nmoves; i++)
			s->mv[s->nmv++] = s->run.moves[i];
		s->at[++s->ticks] = (u32)s->nmv;
		if (done)
			break;
		/* a large scatter is a long loop in the caller's context */
		txn_cond_resched();
	}
	ret = txn_engine_verify(&s->run);
	txn_engine_free(&s->run);
	return ret ? -EPROTO : 0;
}

void txn_dual_choose(struct txn_engine *e)
{
	const struct dual *s = e->priv;
	u32 tick = (u32)e->tick + 1, src, q;

	if (tick > s->ticks)
		return;
	src = s->ticks - tick;	/* the scatter's tick src + 1, as an index into at[] */
	for (q = s->at[src]; q < s->at[src + 1]; q++)
		txn_move(e, s->mv[q].pkt, e->g->rev[s->mv[q].link]);
}

u64 txn_dual_bytes(const struct txn_graph *g, const struct txn_sched *scatter, u32 port)
{
	struct txn_run_params p = { .op = TXNET_OP_SCATTER, .port_model = port };
	u64 cap = dual_cap(g);

	return sizeof(struct dual) + cap * sizeof(struct txn_move) + (cap + 2) * sizeof(u32) +
	       txn_engine_bytes(g, scatter, &p);
}

static int general_dual_start(struct txn_engine *e)
{
	return txn_dual_start(e, &txn_sched_general);
}

static u64 general_dual_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts)
{
	(void)op;
	(void)npkts;
	return txn_dual_bytes(g, &txn_sched_general, port);
}

const struct txn_sched txn_sched_gather_dual = {
	.algo = TXNET_ALGO_SHORTEST_PATH,
	.name = "shortest-path",
	.start = general_dual_start,
	.choose = txn_dual_choose,
	.fini = txn_dual_fini,
	.priv_bytes = general_dual_bytes,
};
