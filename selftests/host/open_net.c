// SPDX-License-Identifier: GPL-2.0
/* The open-traffic fixture of ports_test and fault_test. */
#include <string.h>

#include "open_net.h"
#include "core/sched.h"

int open_net(struct open_net *o, const char *topo, u32 port_model, u32 payload, u32 slots)
{
	struct txn_run_params p = { .port_model = port_model, .payload = payload };

	memset(o, 0, sizeof(*o));
	if (tg_make(&o->t, topo))
		return -1;
	return txn_engine_init_open(&o->e, &o->t.g, &txn_sched_route, &p, slots);
}

void close_net(struct open_net *o)
{
	txn_engine_free(&o->e);
	tg_free(&o->t);
}

int open_step(struct open_net *o)
{
	int ret = txn_engine_tick(&o->e);
	u32 i;

	for (i = 0; ret >= 0 && i < o->e.ndone; i++) {
		o->delivered++;
		txn_engine_release(&o->e, o->e.done[i]);
	}
	return ret;
}

void open_take_lost(struct open_net *o)
{
	u32 i;

	for (i = 0; i < o->e.nlost; i++) {
		o->lost++;
		txn_engine_release(&o->e, o->e.lost[i]);
	}
}

long open_drain(struct open_net *o)
{
	long ticks = 0;

	while (o->e.delivered + o->e.dropped < o->e.injected) {
		if (open_step(o) < 0)
			return -1;
		ticks++;
	}
	return ticks;
}
