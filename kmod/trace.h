/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints: txnet:txnet_tick (every tick of a run) and
 * txnet:txnet_run_done (every finished run), for perf and trace-cmd.
 * A tick's max_queue is the longest of the engine's queues: 0 all along
 * under a schedule that holds packets in tables of its own (the result
 * then has no max-queue), counting them would cost a pass over every
 * packet a tick.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM txnet

#if !defined(TXNET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define TXNET_TRACE_H

#include <linux/tracepoint.h>
#include "run.h"
#include "compat.h"

TRACE_EVENT(txnet_tick,
	TP_PROTO(const char *net, u64 tick, u32 moved, u32 max_queue),
	TP_ARGS(net, tick, moved, max_queue),
	TP_STRUCT__entry(
		__string(net, net)
		__field(u64, tick)
		__field(u32, moved)
		__field(u32, max_queue)
	),
	TP_fast_assign(
		txnet_assign_str(net, net);
		__entry->tick = tick;
		__entry->moved = moved;
		__entry->max_queue = max_queue;
	),
	TP_printk("net=%s tick=%llu moved=%u max_queue=%u",
		  __get_str(net), __entry->tick, __entry->moved, __entry->max_queue)
);

TRACE_EVENT(txnet_run_done,
	TP_PROTO(const char *net, const struct txnet_result *res),
	TP_ARGS(net, res),
	TP_STRUCT__entry(
		__string(net, net)
		__field(u32, run_id)
		__field(u32, status)
		__field(u32, algo)
		__field(u64, ticks)
		__field(u64, lower_bound)
		__field(u64, transmissions)
		__field(bool, verified)
	),
	TP_fast_assign(
		txnet_assign_str(net, net);
		__entry->run_id = res->run_id;
		__entry->status = res->status;
		__entry->algo = res->algo;
		__entry->ticks = res->ticks;
		__entry->lower_bound = res->lower_bound;
		__entry->transmissions = res->transmissions;
		__entry->verified = res->verified;
	),
	TP_printk("net=%s run=%u status=%u algo=%u ticks=%llu lower_bound=%llu transmissions=%llu verified=%d",
		  __get_str(net), __entry->run_id, __entry->status, __entry->algo,
		  __entry->ticks, __entry->lower_bound, __entry->transmissions,
		  __entry->verified)
);

#endif /* TXNET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
