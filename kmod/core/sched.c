// SPDX-License-Identifier: GPL-2.0
/*
 * Which schedule runs where, its lower bound and its proven time.
 */
#include "bsn.h"
#include "cube.h"
#include "latin.h"
#include "sched.h"
#include "topo_impl.h"

u32 txn_shape(const struct txn_spec *spec)
{
	switch (spec->topo) {
	case TXNET_TOPO_LINEAR:
		return TXN_SHAPE_LINEAR;
	case TXNET_TOPO_RING:
		return TXN_SHAPE_RING;
	case TXNET_TOPO_MESH:
	case TXNET_TOPO_TORUS:
	case TXNET_TOPO_PRODUCT:
		if (spec->ndims != 1)
			return TXN_SHAPE_OTHER;
		if (spec->kind[0] == TXNET_DIM_LINEAR)
			return TXN_SHAPE_LINEAR;
		if (spec->kind[0] == TXNET_DIM_RING)
			return TXN_SHAPE_RING;
		return TXN_SHAPE_OTHER;
	default:
		return TXN_SHAPE_OTHER;
	}
}

/* The d-cube's schedule for each operation: [Bertsekas91]'s, recursive doubling for sums. */
static const struct txn_sched *cube_sched(u32 op)
{
	static const struct txn_sched * const by_op[] = {
		[TXNET_OP_TOTAL_EXCHANGE] = &txn_sched_cube_te,
		[TXNET_OP_BROADCAST] = &txn_sched_cube_bcast,
		[TXNET_OP_ACCUMULATE] = &txn_sched_cube_bcast,
		[TXNET_OP_SCATTER] = &txn_sched_cube_scatter,
		[TXNET_OP_GATHER] = &txn_sched_cube_gather,
		[TXNET_OP_MULTINODE_BROADCAST] = &txn_sched_hypercube,
		[TXNET_OP_MULTINODE_ACCUMULATE] = &txn_sched_hypercube,
		[TXNET_OP_PREFIX_SUM] = &txn_sched_cube_sum,
		[TXNET_OP_DATA_SUM] = &txn_sched_cube_sum,
	};

	return op < ARRAY_SIZE(by_op) ? by_op[op] : NULL;
}

/* [Wei07]'s schedule for each operation on a biswapped network; NULL where it gives none. */
static const struct txn_sched *bsn_sched(u32 op)
{
	switch (op) {
	case TXNET_OP_BROADCAST:
		return &txn_sched_bsn_bcast;
	case TXNET_OP_DATA_SUM:
		return &txn_sched_bsn_sum;
	case TXNET_OP_PREFIX_SUM:
		return &txn_sched_bsn_prefix;
	}
	return NULL;
}

const struct txn_sched *txn_sched_pick(const struct txn_spec *spec, u32 op, u32 algo,
				       u32 port_model, const char **why)
{
	u32 shape = txn_shape(spec);

	if (!txn_op_valid(op)) {
		*why = "op: unknown operation";
		return NULL;
	}
	/* what a replay runs is its script's; it is no schedule to pick */
	if (algo == TXNET_ALGO_REPLAY) {
		*why = "algo: replay runs a schedule file, which this request does not carry";
		return NULL;
	}
	/* optimal on the d-cube under either port model: [Bertsekas91]'s, and recursive doubling */
	if (spec->topo == TXNET_TOPO_HYPERCUBE && spec->size[0] <= TXN_CUBE_DMAX &&
	    (algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_HYPERCUBE) && cube_sched(op))
		return cube_sched(op);
	if (algo == TXNET_ALGO_HYPERCUBE) {
		*why = "algo: hypercube runs on hypercubes of dimension 1 to 16, every operation but permutation";
		return NULL;
	}
	/* sums on products, a factor after another (sched_waves.c) */
	if ((algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_DIMENSION_WAVES) &&
	    txn_waves_steps(spec, op, port_model))
		return &txn_sched_waves;
	if (algo == TXNET_ALGO_DIMENSION_WAVES) {
		*why = "algo: dimension-waves runs prefix-sum and data-sum on products of linear arrays, rings and complete graphs; single-port, on no odd ring and complete factors of 2^m nodes only";
		return NULL;
	}
	/* [Wei07]: all-port, the operations it gives schedules for */
	if (spec->topo == TXNET_TOPO_BISWAPPED && port_model == TXNET_PORT_ALL &&
	    (algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_BISWAPPED) && bsn_sched(op))
		return bsn_sched(op);
	if (algo == TXNET_ALGO_BISWAPPED) {
		*why = "algo: biswapped runs broadcast, prefix-sum and data-sum on all-port biswapped networks";
		return NULL;
	}
	/*
	 * A permutation on a MIN takes the one path each message has, all at
	 * once: it is routed in log2 N ticks or blocked ([Massini03], section 3).
	 * Shortest paths would queue where the switches block.
	 */
	if (op == TXNET_OP_PERMUTATION && txn_topo_is_min(spec->topo)) {
		if (algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_SELF_ROUTING)
			return &txn_sched_self_route;
		*why = "algo: a permutation on a MIN is self-routed (auto or self-routing)";
		return NULL;
	}
	if (algo == TXNET_ALGO_SELF_ROUTING) {
		*why = "algo: self-routing routes a permutation on the MINs (butterfly, omega, baseline, rbaseline, flip)";
		return NULL;
	}
	/* [Massini03]: the Latin-square waves on every log2 N-stage MIN */
	if (op == TXNET_OP_TOTAL_EXCHANGE && txn_topo_is_min(spec->topo) &&
	    (algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_LATIN))
		return &txn_sched_latin;
	if (algo == TXNET_ALGO_LATIN) {
		*why = "algo: latin runs a total exchange on the MINs (butterfly, omega, baseline, rbaseline, flip)";
		return NULL;
	}
	/* a gather is the general scatter reversed where links run both ways ([Bertsekas91], section 1) */
	if (op == TXNET_OP_GATHER && !txn_topo_is_min(spec->topo) &&
	    (algo == TXNET_ALGO_AUTO || algo == TXNET_ALGO_SHORTEST_PATH))
		return &txn_sched_gather_dual;
	if (algo == TXNET_ALGO_SHORTEST_PATH)
		return &txn_sched_general;
	if (op != TXNET_OP_TOTAL_EXCHANGE) {
		if (algo == TXNET_ALGO_AUTO)
			return &txn_sched_general;
		*why = "algo: the papers' total exchange schedules run total exchange only; use auto or shortest-path";
		return NULL;
	}
	if (algo == TXNET_ALGO_A2 || algo == TXNET_ALGO_A3) {
		if (txn_product_fits(spec, algo, port_model))
			return algo == TXNET_ALGO_A2 ? &txn_sched_a2 : &txn_sched_a3;
		*why = algo == TXNET_ALGO_A2 ?
		       "algo: a2 runs on cartesian products whose dimensions have at most 64 nodes" :
		       "algo: a3 runs all-port on products of 2, 4, 8 or 16 equal dimensions of at most 64 nodes";
		return NULL;
	}
	if (shape == TXN_SHAPE_LINEAR) {
		switch (algo) {
		case TXNET_ALGO_AUTO:
		case TXNET_ALGO_FURTHEST_FIRST:
			return &txn_sched_furthest_first;
		case TXNET_ALGO_SCATTERINGS:
			return &txn_sched_scatterings;
		}
		*why = "algo: does not run on a linear array: use furthest-first, scatterings or shortest-path";
		return NULL;
	}
	if (shape == TXN_SHAPE_RING) {
		switch (algo) {
		case TXNET_ALGO_AUTO:
		case TXNET_ALGO_MESSAGE_SHIFT:
			return &txn_sched_message_shift;
		case TXNET_ALGO_MESSAGE_SHIFT_PLAIN:
			return &txn_sched_message_shift_plain;
		}
		*why = "algo: does not run on a ring: use message-shift, message-shift-plain or shortest-path";
		return NULL;
	}
	if (algo == TXNET_ALGO_AUTO) {
		/* [Dimakopoulos98]: a3 where it applies (optimal, Theorem 5), a2 single-port (Theorem 3) */
		if (txn_product_fits(spec, TXNET_ALGO_A3, port_model))
			return &txn_sched_a3;
		if (port_model == TXNET_PORT_SINGLE &&
		    txn_product_fits(spec, TXNET_ALGO_A2, port_model))
			return &txn_sched_a2;
		return &txn_sched_general;
	}
	*why = "algo: furthest-first and message-shift run on linear arrays and rings only; use auto, a2, a3 or shortest-path";
	return NULL;
}

static u64 div_round_up(u64 a, u32 b)
{
	return a / b + (a % b != 0);
}

/*
 * [Dimakopoulos94]'s T_opt, the time its schedules are proven to take (all-port):
 * bound (1), ceil((n^2-1)/4), on a linear array; bound (2),
 * ceil((n^2-1)/8), on a ring.  kmod/core/bounds.c has every bound of every
 * operation.
 */
static u64 paper001_topt(const struct txn_spec *spec, u64 n)
{
	return div_round_up(n * n - 1, txn_shape(spec) == TXN_SHAPE_LINEAR ? 4 : 8);
}

bool txn_expected_steps(const struct txn_sched *s, const struct txn_spec *spec,
			const struct txn_run_params *p, u64 *steps)
{
	u32 op = p->op, port_model = p->port_model;
	u64 n, transmissions;

	if (s->algo == TXNET_ALGO_HYPERCUBE && (op == TXNET_OP_PREFIX_SUM || op == TXNET_OP_DATA_SUM)) {
		/* recursive doubling (sched_cube_sum.c): a dimension a tick */
		*steps = spec->size[0];
		return true;
	}
	if (s->algo == TXNET_ALGO_DIMENSION_WAVES) {
		/* a phase a factor, in its diameter all-port (sched_waves.c) */
		*steps = txn_waves_steps(spec, op, port_model);
		return *steps != 0;
	}
	if (s->algo == TXNET_ALGO_HYPERCUBE)
		/* [Bertsekas91], Table 1 */
		return txn_cube_optimum(spec->size[0], op, port_model, steps, &transmissions);
	if (s->algo == TXNET_ALGO_LATIN) {
		/* [Massini03], section 4, counted one stage a tick (latin.h) */
		*steps = p->config_rows ?
			 txn_latin_steps_rows(spec->topo, spec->size[0], p->config_rows) :
			 txn_latin_steps(spec->topo, spec->size[0], p->config);
		return *steps != 0;
	}
	if (s->algo == TXNET_ALGO_BISWAPPED) {
		/* [Wei07]: Tables 1 (Theorem 1), 2 and 3, counted in the model (bsn.h) */
		*steps = op == TXNET_OP_BROADCAST ? txn_bsn_bcast_steps(spec, p->root) :
			 op == TXNET_OP_PREFIX_SUM ? txn_bsn_prefix_steps(spec) :
			 txn_bsn_sum_steps(spec);
		return *steps != 0;
	}
	if (s->algo == TXNET_ALGO_SELF_ROUTING) {
		/* [Massini03]'s model: a path crosses log2 N stages, one a tick */
		*steps = txn_min_log2(spec->size[0]);
		return true;
	}
	if (s->algo == TXNET_ALGO_A2 || s->algo == TXNET_ALGO_A3) {
		*steps = txn_product_steps(spec, s->algo, port_model);
		return *steps != 0;
	}
	if (port_model == TXNET_PORT_SINGLE)
		return false;	/* [Dimakopoulos94] proves its times for all-port only */
	n = spec->size[0];
	switch (s->algo) {
	case TXNET_ALGO_FURTHEST_FIRST:
		/* [Dimakopoulos94], Theorem 1 */
		*steps = paper001_topt(spec, n);
		return true;
	case TXNET_ALGO_SCATTERINGS:
		/* [Dimakopoulos94], section 2: 3 T_opt - floor(n/2) */
		*steps = 3 * paper001_topt(spec, n) - n / 2;
		return true;
	case TXNET_ALGO_MESSAGE_SHIFT:
		/* [Dimakopoulos94], Theorems 2 (odd n) and 3 (even n) */
		*steps = paper001_topt(spec, n);
		return true;
	case TXNET_ALGO_MESSAGE_SHIFT_PLAIN:
		if (!(n & 1))
			return false;	/* the paper proves only an O(n) loss */
		/* odd n: the plain rule is node invariant, Theorem 2 */
		*steps = paper001_topt(spec, n);
		return true;
	}
	return false;
}

const char *txn_algo_name(u32 algo)
{
	static const char * const names[] = {
		[TXNET_ALGO_AUTO] = "auto",
		[TXNET_ALGO_FURTHEST_FIRST] = "furthest-first",
		[TXNET_ALGO_SCATTERINGS] = "scatterings",
		[TXNET_ALGO_MESSAGE_SHIFT] = "message-shift",
		[TXNET_ALGO_MESSAGE_SHIFT_PLAIN] = "message-shift-plain",
		[TXNET_ALGO_SHORTEST_PATH] = "shortest-path",
		[TXNET_ALGO_A2] = "a2",
		[TXNET_ALGO_A3] = "a3",
		[TXNET_ALGO_HYPERCUBE] = "hypercube",
		[TXNET_ALGO_LATIN] = "latin",
		[TXNET_ALGO_SELF_ROUTING] = "self-routing",
		[TXNET_ALGO_BISWAPPED] = "biswapped",
		[TXNET_ALGO_REPLAY] = "replay",
		[TXNET_ALGO_DIMENSION_WAVES] = "dimension-waves",
	};

	return algo < ARRAY_SIZE(names) && names[algo] ? names[algo] : "unknown";
}

const char *txn_run_status_name(u32 status)
{
	static const char * const names[] = {
		[TXNET_RUN_NONE] = "none",
		[TXNET_RUN_DONE] = "done",
		[TXNET_RUN_FAILED] = "failed",
		[TXNET_RUN_STOPPED] = "stopped",
		[TXNET_RUN_BLOCKED] = "blocked",
	};

	return status < ARRAY_SIZE(names) ? names[status] : "unknown";
}
