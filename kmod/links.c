// SPDX-License-Identifier: GPL-2.0
/*
 * Per-link counters: what open traffic (port packets, interface frames)
 * each directed link carried.  The two open engines count their own moves
 * (txn_engine_link_hops()); a link's figure is their sum, read while the
 * tick thread adds to it.
 */
#include "txnet.h"
#include "fabric.h"
#include "ports.h"

static u64 engine_hops(const struct txn_engine *e, u32 link)
{
	const u64 *hops = txn_engine_link_hops(e);

	return hops ? READ_ONCE(hops[link]) : 0;
}

/* Under txnet_lock (the engines live until the network is destroyed under it). */
u64 txnet_link_hops(struct txnet_net *tn, u32 link)
{
	struct txnet_ports *pt = txnet_ports_of(tn);
	struct txnet_fabric *f = txnet_fabric_of(tn);

	lockdep_assert_held(&txnet_lock);
	return (pt ? engine_hops(&pt->e, link) : 0) + (f ? engine_hops(&f->e, link) : 0);
}
