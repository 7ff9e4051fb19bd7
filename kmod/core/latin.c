// SPDX-License-Identifier: GPL-2.0
/*
 * [Massini03]'s configurations and Latin squares (latin.h).
 */
#include "latin.h"

#include "topo_impl.h"

u32 txn_latin_route(u32 topo, u32 n, const u32 *rows, u32 x, u32 i)
{
	u32 y = txn_min_in_line(topo, n, i), k, h;

	for (k = 0; k < n; k++) {
		h = y >> 1;
		/* straight keeps the input's side, cross swaps it */
		y = txn_min_wire(topo, n, k, 2 * h + ((y & 1) ^ txn_latin_state(rows, n, h, k, x)));
	}
	return y;
}

void txn_latin_perm(u32 topo, u32 N, const u32 *rows, u32 x, u32 *in_tag)
{
	u32 n = txn_min_log2(N), i;

	for (i = 0; i < N; i++)
		in_tag[txn_latin_route(topo, n, rows, x, i)] = i;
}

bool txn_latin_index_valid(u32 N, u64 l)
{
	u64 bits = (u64)txn_min_log2(N) * (N / 2 - 1);

	return bits >= 64 || !(l >> bits);
}

int txn_latin_config(u32 N, u64 l, u32 *rows)
{
	u32 n = txn_min_log2(N), half = N / 2, h;
	u64 shift;

	if (!txn_latin_index_valid(N, l))
		return -ERANGE;
	for (h = 0; h < half; h++) {
		shift = (u64)(half - 1 - h) * n;
		rows[h] = shift < 64 ? (u32)(l >> shift) & ((1U << n) - 1) : 0;
	}
	return 0;
}

int txn_latin_index(u32 N, const u32 *rows, u64 *l)
{
	u32 n = txn_min_log2(N), half = N / 2, h, r;
	u64 shift;

	*l = 0;
	for (h = 1; h < half; h++) {
		r = rows[h] ^ rows[0];
		shift = (u64)(half - 1 - h) * n;
		if (!r)
			continue;
		if (shift + txn_min_log2(r) >= 64)
			return -EOVERFLOW;
		*l |= (u64)r << shift;
	}
	return 0;
}

int txn_latin_admit(u32 topo, u32 N, const u32 *dst, u32 *rows, u32 *set,
		    struct txn_min_block *blk)
{
	u32 n = txn_min_log2(N), i, k, y, h, b, bit, *owner = NULL;
	int ret = 0;

	memset(rows, 0, N / 2 * sizeof(u32));
	memset(set, 0, N / 2 * sizeof(u32));
	owner = txn_alloc_array((u64)N * n, sizeof(u32));
	if (!owner)
		return -ENOMEM;
	/* a permutation: every output once */
	for (i = 0; i < N; i++)
		owner[i] = ~0U;
	for (i = 0; i < N; i++) {
		if (dst[i] >= N || owner[dst[i]] != ~0U) {
			ret = -EINVAL;
			goto out;
		}
		owner[dst[i]] = i;
	}
	/* owner[k * N / 2 + h]: the first input through switch h of stage k */
	for (i = 0; i < N * n; i++)
		owner[i] = ~0U;
	for (i = 0; i < N; i++) {
		y = txn_min_in_line(topo, n, i);
		for (k = 0; k < n; k++) {
			h = y >> 1;
			b = txn_min_tag_port(topo, n, k, dst[i]);
			bit = 1U << (n - 1 - k);
			/* the state that turns input side y & 1 to output side b */
			if ((set[h] & bit) && ((rows[h] & bit) != 0) != ((y & 1) ^ b)) {
				blk->stage = k;
				blk->sw = h;
				blk->first = owner[k * (N / 2) + h];
				blk->second = i;
				ret = -EBUSY;
				goto out;
			}
			set[h] |= bit;
			if ((y & 1) ^ b)
				rows[h] |= bit;
			owner[k * (N / 2) + h] = i;
			y = txn_min_wire(topo, n, k, 2 * h + b);
		}
	}
out:
	txn_free(owner);
	return ret;
}

void txn_min_place(const struct txn_graph *g, u32 link, u32 *stage, u32 *sw)
{
	u32 N = g->procs, half = N / 2, u = g->src[link];

	if (u < N) {
		*stage = 0;
		*sw = g->line[link] >> 1;
	} else {
		*stage = 1 + (u - N) / half;
		*sw = (u - N) % half;
	}
}

u32 txn_latin_identity_wave(u32 topo, u32 N, const u32 *rows)
{
	u32 n = txn_min_log2(N), x, i;

	for (x = 0; x < N; x++) {
		if (txn_latin_route(topo, n, rows, x, 0))
			continue;
		for (i = 1; i < N; i++)
			if (txn_latin_route(topo, n, rows, x, i) != i)
				return ~0U;
		return x;
	}
	return ~0U;
}

u64 txn_latin_steps(u32 topo, u32 N, u64 l)
{
	u32 *rows = txn_alloc_array(N / 2, sizeof(u32));
	u64 steps = 0;

	if (!rows)
		return 0;
	if (!txn_latin_config(N, l, rows))
		steps = txn_latin_steps_rows(topo, N, rows);
	txn_free(rows);
	return steps;
}

u64 txn_latin_steps_rows(u32 topo, u32 N, const u32 *rows)
{
	return N + txn_min_log2(N) - 1 - (txn_latin_identity_wave(topo, N, rows) != ~0U);
}

bool txn_latin_rows_valid(u32 N, const u32 *rows)
{
	u32 h;

	for (h = 0; h < N / 2; h++)
		if (rows[h] >> txn_min_log2(N))
			return false;
	return true;
}
