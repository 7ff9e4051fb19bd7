/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network configurations of a log2 N-stage MIN and the Latin squares they
 * fall into ([Massini03] sections 2 and 3).  A configuration is the
 * (N/2) x n binary matrix M = (m_{h,k}) of
 * switch states, 0 straight and 1 cross; it is kept as its rows, @rows[h]
 * holding m_{h,k} at bit n-1-k, so that a row reads as the paper prints it
 * and the XOR step of section 3.1 is rows[h] ^ x.
 */
#ifndef TXN_CORE_LATIN_H
#define TXN_CORE_LATIN_H

#include "topology.h"

/* Switch h's state at stage @k of @n under @rows XOR @x. */
static inline u32 txn_latin_state(const u32 *rows, u32 n, u32 h, u32 k, u32 x)
{
	return ((rows[h] ^ x) >> (n - 1 - k)) & 1;
}

/* The output that input @i reaches under @rows XOR @x on the MIN @topo of 2^@n. */
u32 txn_latin_route(u32 topo, u32 n, const u32 *rows, u32 x, u32 i);

/*
 * The permutation @rows XOR @x realizes, as the paper writes it (input
 * tags): @in_tag[o] is the input whose packet reaches output o.
 */
void txn_latin_perm(u32 topo, u32 N, const u32 *rows, u32 x, u32 *in_tag);

/*
 * M^{l,0} (section 3.1): the rows r_0 r_1 .. r_{N/2-1}, read as one binary
 * number, are @l, so r_0 is 0.  -ERANGE when l >= N^(N/2-1).
 */
int txn_latin_config(u32 N, u64 l, u32 *rows);

/* Whether @l indexes a set of the canonical partition: l < N^(N/2-1). */
bool txn_latin_index_valid(u32 N, u64 l);

/*
 * Theorem 2: the index l of the set S^l that holds @rows (the rows XOR
 * r_0, read as one number); -EOVERFLOW when it does not fit 64 bits.
 */
int txn_latin_index(u32 N, const u32 *rows, u64 *l);

/*
 * The x for which @rows XOR x realizes the identity, or ~0U when no member
 * of the set does.  Each output hears from input 0 in exactly one wave (a
 * Latin square's row), so only that wave is tried in full.
 */
u32 txn_latin_identity_wave(u32 topo, u32 N, const u32 *rows);

/* Where a permutation is blocked: two inputs need switch @sw of @stage set both ways. */
struct txn_min_block {
	u32 stage, sw;
	u32 first, second;	/* the inputs, in the order they were routed */
};

/*
 * Self-routing (section 3, after Theorem 2: "derive the network
 * configuration that produce[s] that permutation by using a self-routing
 * algorithm"): the configuration @rows (N/2 entries, as above) that sends
 * input i to output @dst[i], every i; @set (N/2 entries) is scratch.  0
 * when the permutation is admissible, -EBUSY with @blk filled in when two
 * inputs need one switch set both ways, -EINVAL when @dst is not a
 * permutation of 0..N-1.
 */
int txn_latin_admit(u32 topo, u32 N, const u32 *dst, u32 *rows, u32 *set,
		    struct txn_min_block *blk);

/*
 * Where link @link of the MIN @g is: the stage whose output line it is and
 * the switch of that stage.  A processor's links are its stage-0 switch's
 * output lines.
 */
void txn_min_place(const struct txn_graph *g, u32 link, u32 *stage, u32 *sw);

/*
 * The time of section 4's pipelined exchange from M^{l,0} on the MIN
 * @topo of @N processors, one stage a tick: the N waves sent one a tick,
 * the last arriving after log2 N ticks, N + log2 N - 1; one less where a
 * member of S^l realizes the identity (its wave carries only messages to
 * oneself, which a total exchange does not send, and is left out).  0
 * when @l is not an index.
 */
u64 txn_latin_steps(u32 topo, u32 N, u64 l);
/* The same from any member @rows of the set (the set decides it). */
u64 txn_latin_steps_rows(u32 topo, u32 N, const u32 *rows);
/* Whether @rows (N/2 of them) is a configuration: every row below 2^log2 N. */
bool txn_latin_rows_valid(u32 N, const u32 *rows);

#endif /* TXN_CORE_LATIN_H */
