/* SPDX-License-Identifier: GPL-2.0 */
/* A network of open traffic (ports, interfaces) for the host tests: the engine under the route schedule. */
#ifndef TXN_TEST_OPEN_NET_H
#define TXN_TEST_OPEN_NET_H

#include "core/engine_impl.h"
#include "topo_helpers.h"

struct open_net {
	struct tg t;
	struct txn_engine e;
	u32 delivered, lost;	/* handed back by open_step() and open_take_lost() */
};

/* @topo built, its open engine up with @slots packets of @payload bytes; 0 or not. */
int open_net(struct open_net *o, const char *topo, u32 port_model, u32 payload, u32 slots);
void close_net(struct open_net *o);

/* One tick, what it delivered released and counted; the tick's return. */
int open_step(struct open_net *o);
/* What a fault dropped (e.lost) released and counted. */
void open_take_lost(struct open_net *o);
/* Ticks until every packet injected is delivered or dropped; -1 on a violation. */
long open_drain(struct open_net *o);

#endif
