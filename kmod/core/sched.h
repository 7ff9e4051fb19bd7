/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Schedules: which one runs on which topology, and what the papers say
 * its time must be.
 */
#ifndef TXN_CORE_SCHED_H
#define TXN_CORE_SCHED_H

#include "engine.h"

/* The shape a schedule needs; 0 when the spec is neither. */
enum txn_shape {
	TXN_SHAPE_OTHER,
	TXN_SHAPE_LINEAR,	/* a linear array of n nodes, numbered along it */
	TXN_SHAPE_RING,		/* a ring of n nodes, numbered clockwise */
};

u32 txn_shape(const struct txn_spec *spec);

/*
 * The schedule for (@op, @algo) on @spec; TXNET_ALGO_AUTO picks the
 * optimal one.  NULL with @why set when there is none.
 */
const struct txn_sched *txn_sched_pick(const struct txn_spec *spec, u32 op, u32 algo,
				       u32 port_model, const char **why);

/*
 * The time the paper proves for @s, when it proves one for this case:
 * true and *steps set, else false.
 */
bool txn_expected_steps(const struct txn_sched *s, const struct txn_spec *spec,
			const struct txn_run_params *p, u64 *steps);

/* Names of enum values, as txctl spells them. */
const char *txn_algo_name(u32 algo);
const char *txn_run_status_name(u32 status);

/* The schedules (sched_linear.c, sched_ring.c) */
extern const struct txn_sched txn_sched_furthest_first;
extern const struct txn_sched txn_sched_scatterings;
extern const struct txn_sched txn_sched_message_shift;
extern const struct txn_sched txn_sched_message_shift_plain;
extern const struct txn_sched txn_sched_route;	/* open traffic, sched_route.c */
extern const struct txn_sched txn_sched_general;	/* any op, any topology: sched_general.c */
extern const struct txn_sched txn_sched_gather_dual;	/* its scatter reversed: sched_dual.c */
extern const struct txn_sched txn_sched_a2;	/* products, [Dimakopoulos98]: sched_product.c */
extern const struct txn_sched txn_sched_a3;
/* [Bertsekas91] on the d-cube: sched_hypercube.c, sched_cube_*.c */
extern const struct txn_sched txn_sched_hypercube;	/* multinode broadcast, accumulation */
extern const struct txn_sched txn_sched_cube_bcast;	/* broadcast, accumulation */
extern const struct txn_sched txn_sched_cube_scatter;
extern const struct txn_sched txn_sched_cube_gather;
extern const struct txn_sched txn_sched_cube_te;	/* total exchange */
/* and by recursive doubling, which [Bertsekas91] does not treat: sched_cube_sum.c */
extern const struct txn_sched txn_sched_cube_sum;	/* data and prefix sums */
/* on products of arrays, rings and complete graphs, dimension by dimension: sched_waves.c */
extern const struct txn_sched txn_sched_waves;	/* data and prefix sums */
extern const struct txn_sched txn_sched_latin;	/* MINs, [Massini03]: sched_latin.c */
extern const struct txn_sched txn_sched_self_route;	/* a permutation on a MIN */
/* [Wei07] on biswapped networks, all-port: sched_bsn_*.c */
extern const struct txn_sched txn_sched_bsn_bcast;
extern const struct txn_sched txn_sched_bsn_sum;	/* data sum */
extern const struct txn_sched txn_sched_bsn_prefix;

/*
 * A gather as @scatter from the same root, recorded and played backwards
 * (sched_dual.c): a gather schedule's start, choose, fini and priv_bytes.
 */
int txn_dual_start(struct txn_engine *e, const struct txn_sched *scatter);
void txn_dual_choose(struct txn_engine *e);
void txn_dual_fini(struct txn_engine *e);
u64 txn_dual_bytes(const struct txn_graph *g, const struct txn_sched *scatter, u32 port);

/*
 * Whether a2 or a3 (@algo) runs on @spec under @port_model, and the time
 * [Dimakopoulos98] proves for it there (0 when it proves none).
 */
/*
 * The ticks sched_waves.c's argument proves for a data or prefix sum (@op)
 * on @spec under @port_model: the factors' phases added up; 0 where the
 * waves do not run.
 */
u64 txn_waves_steps(const struct txn_spec *spec, u32 op, u32 port_model);

bool txn_product_fits(const struct txn_spec *spec, u32 algo, u32 port_model);
u64 txn_product_steps(const struct txn_spec *spec, u32 algo, u32 port_model);

/* 1-D plumbing both share (sched_line.c) */
bool txn_line_forward(const struct txn_engine *e, u32 link);
u32 txn_line_link(const struct txn_engine *e, u32 node, bool forward);
/* @prio: from the sorted queues (txn_sq_*), else from the FIFOs */
void txn_line_choose(struct txn_engine *e, bool prio);
/* Their start calls this, and they name these: the directions' bitmaps in e->priv. */
int txn_line_start(struct txn_engine *e);
void txn_line_fini(struct txn_engine *e);
u64 txn_line_priv_bytes(const struct txn_graph *g, u32 op, u32 port, u64 npkts);

/*
 * The link that carries a packet on in the direction it came: at a node it
 * passes through (never an end of an array, never in a ring of 2) there
 * are two links out, and it takes the one that does not lead back.
 */
static inline u32 txn_line_onward(const struct txn_engine *e, u32 link)
{
	const struct txn_graph *g = e->g;
	u32 l = g->first[g->dst[link]];

	return g->dst[l] == g->src[link] ? l + 1 : l;
}

#endif /* TXN_CORE_SCHED_H */
