// SPDX-License-Identifier: GPL-2.0
/*
 * TXNET_CMD_LATIN: the set S^l of [Massini03]'s canonical partition on a
 * MIN, every member M^{l,x} with the permutation it realizes (the
 * tables of the paper's Examples 1 and 2), computed by the core
 * (core/latin.c) with the wiring the networks use; no network is created.
 */
#include <net/netlink.h>

#include "txnet.h"
#include "core/latin.h"
#include "core/topology.h"

static int put_member(struct sk_buff *skb, const struct txn_spec *spec, const u32 *rows,
		      u32 x, u32 *tag, u32 *mx)
{
	u32 N = spec->size[0], h;
	struct nlattr *el = nla_nest_start(skb, x + 1);

	if (!el)
		return -EMSGSIZE;
	txn_latin_perm(spec->topo, N, rows, x, tag);
	for (h = 0; h < N / 2; h++)
		mx[h] = rows[h] ^ x;
	if (nla_put_u32(skb, TXNET_A_LATIN_X, x) ||
	    nla_put(skb, TXNET_A_LATIN_PERM, N * sizeof(u32), tag) ||
	    nla_put(skb, TXNET_A_LATIN_ROWS, N / 2 * sizeof(u32), mx)) {
		nla_nest_cancel(skb, el);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, el);
	return 0;
}

int txnet_latin_fill(struct sk_buff *skb, struct txn_spec *spec, u64 l,
		     struct txnet_create_err *err)
{
	char str[TXN_SPEC_STR_MAX];
	struct txn_counts counts;
	struct nlattr *nest;
	u32 N, x, *rows;
	int ret;

	err->dim = -1;
	err->field = 0;
	if (!txn_topo_is_min(spec->topo)) {
		err->msg = "topology: Latin squares of configurations are of MINs (butterfly, omega, baseline, rbaseline, flip)";
		err->field = TXNET_A_TOPOLOGY;
		return -EINVAL;
	}
	ret = txnet_spec_counts(spec, &counts, err);
	if (ret)
		return ret;
	N = spec->size[0];
	if (N > TXNET_LATIN_MAX_N) {
		err->msg = "MIN size: at most 64 for a printed Latin square";
		err->dim = 0;
		err->field = TXNET_A_DIM_SIZE;
		return -E2BIG;
	}
	if (!txn_latin_index_valid(N, l)) {
		err->msg = "config: not an index of the canonical Latin-square partition (0 .. N^(N/2-1)-1)";
		err->field = TXNET_A_CONFIG;
		return -ERANGE;
	}
	/* the rows of M^{l,0}, one member's permutation and rows */
	rows = kcalloc(2 * N, sizeof(u32), GFP_KERNEL);
	if (!rows) {
		err->msg = "out of memory for the square";
		return -ENOMEM;
	}
	txn_latin_config(N, l, rows);
	txn_spec_format(spec, str, sizeof(str));
	ret = -EMSGSIZE;
	if (nla_put_string(skb, TXNET_A_SPEC, str) ||
	    nla_put_u64_64bit(skb, TXNET_A_CONFIG, l, TXNET_A_PAD))
		goto out;
	nest = nla_nest_start(skb, TXNET_A_LATIN);
	if (!nest)
		goto out;
	for (x = 0; x < N; x++)
		if (put_member(skb, spec, rows, x, rows + N / 2, rows + 3 * N / 2))
			goto out;
	nla_nest_end(skb, nest);
	ret = 0;
out:
	if (ret)
		err->msg = "the square does not fit in one message";
	kfree(rows);
	return ret;
}
