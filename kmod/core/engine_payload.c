// SPDX-License-Identifier: GPL-2.0
/*
 * Packet payloads: what a run's packet (src, dst) carries is a function of
 * the run's seed alone, so that the engine can check every byte on
 * arrival without keeping a copy, and no schedule can predict it without
 * the seed.
 */
#include "engine_impl.h"
/* splitmix64: cheap, and every (seed, src, dst, word) gives unrelated bits. */
u64 txn_mix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The payload of packet (src, dst) in a run seeded @seed: word j of it is
 * mix64(key + j), key mixed once per packet, so that making and checking
 * it costs one mix per 8 bytes, not one per byte.
 */
static __always_inline u64 payload_key(u64 seed, u32 src, u32 dst)
{
	return txn_mix64(seed ^ txn_mix64((u64)src << 32 | dst));
}

void txn_payload_fill(u8 *b, u32 len, u64 seed, u32 src, u32 dst)
{
	u64 key = payload_key(seed, src, dst), w;
	u32 i;

	for (i = 0; i + 8 <= len; i += 8) {
		w = txn_mix64(key + i / 8);
		memcpy(b + i, &w, 8);
	}
	if (i < len) {
		w = txn_mix64(key + i / 8);
		memcpy(b + i, &w, len - i);
	}
}

bool txn_payload_ok(const u8 *b, u32 len, u64 seed, u32 src, u32 dst)
{
	u64 key = payload_key(seed, src, dst), w, got;
	u32 i;

	for (i = 0; i + 8 <= len; i += 8) {
		w = txn_mix64(key + i / 8);
		memcpy(&got, b + i, 8);
		if (got != w)
			return false;
	}
	if (i < len) {
		w = txn_mix64(key + i / 8);
		got = 0;
		memcpy(&got, b + i, len - i);
		/* the tail's bytes are the low ones of its word on every host alike */
		if (memcmp(&got, &w, len - i))
			return false;
	}
	return true;
}
