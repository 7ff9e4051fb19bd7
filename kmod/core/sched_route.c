// SPDX-License-Identifier: GPL-2.0
/*
 * Open traffic (user ports): each packet follows a shortest path, found by
 * breadth-first search over the directed links when it is injected, and
 * waits its turn in a FIFO per link.  Works on every topology, MINs'
 * one-way links included.
 */
#include "sched.h"

struct route_state {
	u32 **path;		/* per slot: the links to take */
	u32 *hop;		/* per slot: index of the link it waits for */
	u32 *parent;		/* BFS: link that reached each vertex */
	u32 *queue;		/* BFS queue */
	u64 *sent, *recv;	/* single-port: tick + 1 a node last sent / received */
	u64 *line_at;		/* MINs: tick + 1 a line last carried a packet */
};

static void route_fini(struct txn_engine *e)
{
	struct route_state *st = e->priv;
	u32 i;

	if (!st)
		return;
	if (st->path)
		for (i = 0; i < e->npkts; i++)
			txn_free(st->path[i]);
	txn_free(st->path);
	txn_free(st->hop);
	txn_free(st->parent);
	txn_free(st->queue);
	txn_free(st->sent);
	txn_free(st->recv);
	txn_free(st->line_at);
	txn_free(st);
	e->priv = NULL;
}

static int route_start(struct txn_engine *e)
{
	u32 v = e->g->nodes;
	struct route_state *st = txn_zalloc_array(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	e->priv = st;
	st->path = txn_zalloc_array(e->npkts, sizeof(*st->path));
	st->hop = txn_zalloc_array(e->npkts, sizeof(u32));
	st->parent = txn_alloc_array(v, sizeof(u32));
	st->queue = txn_alloc_array(v, sizeof(u32));
	st->sent = txn_zalloc_array(v, sizeof(u64));
	st->recv = txn_zalloc_array(v, sizeof(u64));
	if (e->g->line)
		st->line_at = txn_zalloc_array(e->g->links, sizeof(u64));
	if (!st->path || !st->hop || !st->parent || !st->queue || !st->sent || !st->recv ||
	    (e->g->line && !st->line_at)) {
		route_fini(e);
		return -ENOMEM;
	}
	return 0;
}

/* The links of a shortest path from @src to @dst into st->path[pkt]. */
static int find_path(struct txn_engine *e, struct route_state *st, u32 pkt, u32 src, u32 dst)
{
	const struct txn_graph *g = e->g;
	u32 head = 0, tail = 0, u, l, len, *path;

	memset(st->parent, 0xff, (size_t)g->nodes * sizeof(u32));
	st->queue[tail++] = src;
	st->parent[src] = TXN_NO_LINK - 1;	/* visited, no link */
	while (head < tail && st->parent[dst] == TXN_NO_LINK) {
		u = st->queue[head++];
		for (l = g->first[u]; l < g->first[u + 1]; l++) {
			if (st->parent[g->dst[l]] != TXN_NO_LINK)
				continue;
			st->parent[g->dst[l]] = l;
			st->queue[tail++] = g->dst[l];
		}
	}
	if (st->parent[dst] == TXN_NO_LINK)
		return -EHOSTUNREACH;
	for (len = 0, u = dst; u != src; u = g->src[st->parent[u]])
		len++;
	path = txn_alloc_array(len, sizeof(u32));
	if (!path)
		return -ENOMEM;
	for (u = dst; u != src; u = g->src[st->parent[u]])
		path[--len] = st->parent[u];
	txn_free(st->path[pkt]);
	st->path[pkt] = path;
	st->hop[pkt] = 0;
	return 0;
}

static int route_inject(struct txn_engine *e, u32 pkt)
{
	struct route_state *st = e->priv;
	int ret = find_path(e, st, pkt, txn_pkt_src(e, pkt), txn_pkt_dst(e, pkt));

	if (ret)
		return ret;
	txn_q_push(e, st->path[pkt][0], pkt);
	return 0;
}

static void route_arrive(struct txn_engine *e, u32 pkt, u32 link)
{
	struct route_state *st = e->priv;

	(void)link;	/* st->path[pkt][st->hop[pkt]], by construction */
	txn_q_push(e, st->path[pkt][++st->hop[pkt]], pkt);
}

/*
 * All-port: every link sends its head.  Single-port: links are taken in
 * turn, starting one further each tick so that none starves, skipping any
 * whose tail has sent or whose head has received this tick.
 */
static void route_choose(struct txn_engine *e)
{
	struct route_state *st = e->priv;
	const struct txn_graph *g = e->g;
	bool one = e->p.port_model == TXNET_PORT_SINGLE || g->one_line;
	u64 t = e->tick + 1;
	u32 i, l, pkt, from, to;

	for (i = 0; i < g->links; i++) {
		l = (u32)((e->tick + i) % g->links);
		if (e->qhead[l] == TXN_NONE)
			continue;
		from = g->src[l];
		to = g->dst[l];
		/* the port rule is the processors'; a MIN's lines are shared */
		if (g->line && st->line_at[g->line[l]] == t)
			continue;
		if (one && ((from < g->procs && st->sent[from] == t) ||
			    (to < g->procs && st->recv[to] == t)))
			continue;
		if (one) {
			st->sent[from] = t;
			st->recv[to] = t;
		}
		if (g->line)
			st->line_at[g->line[l]] = t;
		pkt = txn_q_pop(e, l);
		txn_move(e, pkt, l);
	}
}

/* What route_start allocates, plus a path of at most diameter links per packet. */
static u64 route_priv_bytes(const struct txn_graph *g, u32 op, u64 npkts)
{
	(void)op;
	return sizeof(struct route_state) +
	       npkts * (sizeof(u32 *) + sizeof(u32) + (u64)g->diameter * sizeof(u32)) +
	       (u64)g->nodes * (2 * sizeof(u32) + 2 * sizeof(u64)) +
	       (g->line ? (u64)g->links * sizeof(u64) : 0);
}

const struct txn_sched txn_sched_route = {
	.algo = TXNET_ALGO_AUTO,
	.name = "shortest-path",
	.start = route_start,
	.choose = route_choose,
	.arrive = route_arrive,
	.inject = route_inject,
	.fini = route_fini,
	.priv_bytes = route_priv_bytes,
};
