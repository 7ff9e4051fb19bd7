// SPDX-License-Identifier: GPL-2.0
/*
 * The d-cube's rotation classes and [Bertsekas91] Tables 1 and 2 (cube.h).
 */
#include "cube.h"

u32 txn_cube_class(u32 t, u32 d)
{
	u32 best = t, r = t, i;

	for (i = 1; i < d; i++) {
		r = txn_cube_rotl(r, d);
		if (r < best)
			best = r;
	}
	return best;
}

u32 txn_cube_class_size(u32 t, u32 d)
{
	u32 p = 1, r;

	for (r = txn_cube_rotl(t, d); r != t; r = txn_cube_rotl(r, d))
		p++;
	return p;
}

u32 txn_cube_class_order(u32 d, u32 *reps)
{
	u32 n = 1U << d, w, t, first, k = 0;

	for (w = 1; w < d; w++) {
		/* 0..01..1 is the smallest of its rotations: R_w1's name */
		first = (1U << w) - 1;
		reps[k++] = first;
		for (t = first + 1; t < n - 1; t++)
			if (txn_popcount(t) == w && t != first && txn_cube_class(t, d) == t)
				reps[k++] = t;
		txn_cond_resched();
	}
	return k;
}

bool txn_cube_optimum(u32 d, u32 op, u32 port_model, u64 *steps, u64 *transmissions)
{
	bool single = port_model == TXNET_PORT_SINGLE;
	u64 n = 1ULL << d;

	if (d < 1 || d > TXN_CUBE_DMAX)
		return false;
	switch (op) {
	case TXNET_OP_BROADCAST:
	case TXNET_OP_ACCUMULATE:
		*steps = d;
		*transmissions = n - 1;
		return true;
	case TXNET_OP_SCATTER:
	case TXNET_OP_GATHER:
		*steps = single ? n - 1 : (n - 1 + d - 1) / d;
		*transmissions = d * (n / 2);
		return true;
	case TXNET_OP_MULTINODE_BROADCAST:
	case TXNET_OP_MULTINODE_ACCUMULATE:
		*steps = single ? n - 1 : (n - 1 + d - 1) / d;
		*transmissions = n * (n - 1);
		return true;
	case TXNET_OP_TOTAL_EXCHANGE:
		*steps = single ? d * (n / 2) : n / 2;
		*transmissions = d * n * (n / 2);
		return true;
	}
	return false;
}
