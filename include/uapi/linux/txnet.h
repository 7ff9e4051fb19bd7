/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * txnet: a virtual multiprocessor interconnect inside the kernel.
 *
 * This header is the whole user-space ABI of the txnet generic netlink
 * family.  Attribute numbers and enum values are stable once released:
 * append, never renumber.
 */
#ifndef _UAPI_LINUX_TXNET_H
#define _UAPI_LINUX_TXNET_H

#define TXNET_GENL_NAME		"txnet"
#define TXNET_GENL_VERSION	1
#define TXNET_MCGRP_EVENTS	"events"

/* A network name, like an interface name, includes its NUL. */
#define TXNET_NAME_LEN		16
/* Most dimensions a topology spec may have (product, mesh, torus, ...). */
#define TXNET_MAX_DIMS		16

/*
 * Commands.  NEW and DEL are also the notifications multicast to the
 * "events" group when a network is created or destroyed.
 */
enum txnet_cmd {
	TXNET_CMD_UNSPEC,
	TXNET_CMD_NEW,		/* create a network: admin */
	TXNET_CMD_DEL,		/* destroy a network: admin */
	TXNET_CMD_GET,		/* one network (doit) or all in the netns (dumpit) */
	TXNET_CMD_SET,		/* change port model, tick_ns: admin */
	TXNET_CMD_RUN,		/* start an exchange: admin */
	TXNET_CMD_STOP,		/* stop the running exchange: admin */
	TXNET_CMD_RUN_DONE,	/* notification: an exchange ended */
	TXNET_CMD_SEND,		/* inject a packet at a node's port: admin */
	TXNET_CMD_RECV,		/* take what arrived at a node's port: admin */
	TXNET_CMD_BOUNDS,	/* lower bounds of every operation on a topology */
	TXNET_CMD_LATIN,	/* a MIN's Latin square S^l of configurations ([Massini03]) */
	TXNET_CMD_SERIES,	/* the last run's time series: dumpit, a row a message */
	/*
	 * A cable (TXNET_A_SRC, TXNET_A_DST: the nodes it joins; both
	 * directions) or a node (TXNET_A_NODE) down or up (TXNET_A_UP): admin
	 */
	TXNET_CMD_FAULT,
	/*
	 * A network's links (TXNET_A_NAME): dumpit, a link a message
	 * (TXNET_A_LINK), in link order; interrupted (NLM_F_DUMP_INTR) when
	 * the faults change under it.
	 */
	TXNET_CMD_LINKS,
	/*
	 * The last run's moves as the engine accepted them, when it ran with
	 * TXNET_A_SAVE: dumpit, TXNET_A_SCHEDULE parts in order; interrupted
	 * (NLM_F_DUMP_INTR) when another run replaces them.
	 */
	TXNET_CMD_SCHEDULE,

	__TXNET_CMD_MAX,
	TXNET_CMD_MAX = __TXNET_CMD_MAX - 1
};

/* Topologies; see Documentation/txnet-topologies.rst for numbering. */
enum txnet_topology {
	TXNET_TOPO_UNSPEC,
	TXNET_TOPO_LINEAR,	/* linear array N */
	TXNET_TOPO_RING,	/* ring N */
	TXNET_TOPO_COMPLETE,	/* complete graph N */
	TXNET_TOPO_MESH,	/* mesh K1 ... Kd */
	TXNET_TOPO_TORUS,	/* torus K1 ... Kd */
	TXNET_TOPO_HYPERCUBE,	/* hypercube d: one dim, the dimension d */
	TXNET_TOPO_GHC,		/* generalized hypercube M1 ... Md */
	TXNET_TOPO_PRODUCT,	/* product of ring/linear/complete dims */
	TXNET_TOPO_BUTTERFLY,	/* log2 N-stage MINs: one dim, N */
	TXNET_TOPO_OMEGA,
	TXNET_TOPO_BASELINE,
	TXNET_TOPO_RBASELINE,	/* reverse baseline */
	TXNET_TOPO_FLIP,
	TXNET_TOPO_BISWAPPED,	/* over TXNET_A_BASE with the base's dims */
	TXNET_TOPO_DRAGONFLY,	/* dragonfly p a h: three dims */
	TXNET_TOPO_FATTREE,	/* k-ary n-tree k n: two dims */
	TXNET_TOPO_SLIMFLY,	/* Slim Fly q p: two dims, q an odd prime */
	TXNET_TOPO_GRAPH,	/* any graph: two dims, processors and switches, and TXNET_A_CABLES */

	__TXNET_TOPO_MAX,
	TXNET_TOPO_MAX = __TXNET_TOPO_MAX - 1
};

/* The kind of one factor of a cartesian product. */
enum txnet_dim_kind {
	TXNET_DIM_UNSPEC,
	TXNET_DIM_LINEAR,
	TXNET_DIM_RING,
	TXNET_DIM_COMPLETE,

	__TXNET_DIM_MAX,
	TXNET_DIM_MAX = __TXNET_DIM_MAX - 1
};

enum txnet_port_model {
	TXNET_PORT_UNSPEC,
	TXNET_PORT_ALL,		/* all-port [multiport, MLA] */
	TXNET_PORT_SINGLE,	/* single-port [SLA] */

	__TXNET_PORT_MAX,
	TXNET_PORT_MAX = __TXNET_PORT_MAX - 1
};

enum txnet_state {
	TXNET_STATE_IDLE,
	TXNET_STATE_RUNNING,

	__TXNET_STATE_MAX,
	TXNET_STATE_MAX = __TXNET_STATE_MAX - 1
};

/* Collective operations. */
enum txnet_op {
	TXNET_OP_UNSPEC,
	TXNET_OP_TOTAL_EXCHANGE,	/* every processor to every other, personalized */
	TXNET_OP_BROADCAST,		/* root's one message to every processor */
	TXNET_OP_SCATTER,		/* root's n-1 personalized messages */
	TXNET_OP_GATHER,		/* one message from every processor to root */
	TXNET_OP_MULTINODE_BROADCAST,	/* every processor broadcasts */
	TXNET_OP_ACCUMULATE,		/* root ends with the sum of all values */
	TXNET_OP_MULTINODE_ACCUMULATE,	/* j ends with the sum of every value for j */
	TXNET_OP_PREFIX_SUM,		/* p ends with the sum of the values of 0..p */
	TXNET_OP_DATA_SUM,		/* every processor ends with the total */
	TXNET_OP_PERMUTATION,		/* processor i's one message to TXNET_A_DESTS[i] */

	__TXNET_OP_MAX,
	TXNET_OP_MAX = __TXNET_OP_MAX - 1
};

/* Schedules; see Documentation/txnet-schedules.rst. */
enum txnet_algo {
	TXNET_ALGO_AUTO,		/* the optimal one for the topology */
	TXNET_ALGO_FURTHEST_FIRST,	/* linear array, [Dimakopoulos94] section 3 */
	TXNET_ALGO_SCATTERINGS,		/* linear array, n consecutive scatterings */
	TXNET_ALGO_MESSAGE_SHIFT,	/* ring, [Dimakopoulos94] section 4 */
	TXNET_ALGO_MESSAGE_SHIFT_PLAIN,	/* ring, every node n/2 clockwise */
	TXNET_ALGO_SHORTEST_PATH,	/* any topology: shortest-path trees and routes */
	TXNET_ALGO_A2,			/* cartesian products, [Dimakopoulos98] section 4 */
	TXNET_ALGO_A3,			/* homogeneous products, all-port, [Dimakopoulos98] section 5 */
	TXNET_ALGO_HYPERCUBE,		/* hypercubes: [Bertsekas91]; sums by recursive doubling */
	TXNET_ALGO_LATIN,		/* log2 N-stage MINs, [Massini03]: Latin-square waves */
	TXNET_ALGO_SELF_ROUTING,	/* log2 N-stage MINs: one permutation by destination tags */
	TXNET_ALGO_BISWAPPED,		/* biswapped networks, all-port, [Wei07] */
	TXNET_ALGO_REPLAY,		/* any topology: a schedule from a file (TXNET_A_SCHEDULE) */
	TXNET_ALGO_DIMENSION_WAVES,	/* products: sums dimension by dimension, by combining waves */

	__TXNET_ALGO_MAX,
	TXNET_ALGO_MAX = __TXNET_ALGO_MAX - 1
};

/* Largest tick period accepted: one second. */
#define TXNET_TICK_NS_MAX	1000000000ULL

enum txnet_attr {
	TXNET_A_UNSPEC,
	TXNET_A_PAD,
	TXNET_A_ID,		/* u32: unique while the module is loaded */
	TXNET_A_NAME,		/* string, < TXNET_NAME_LEN */
	TXNET_A_TOPOLOGY,	/* u32, enum txnet_topology */
	TXNET_A_BASE,		/* u32, enum txnet_topology: biswapped base */
	TXNET_A_DIMS,		/* nest: array of nests, TXNET_A_DIM_* */
	TXNET_A_PORT_MODEL,	/* u32, enum txnet_port_model */
	TXNET_A_TICK_NS,	/* u64: 0 = free-running */
	/* read-only below: the kernel rejects them in requests */
	TXNET_A_SPEC,		/* string: the normalized spec, "torus 8 8" */
	TXNET_A_NODES,		/* u32: processors */
	TXNET_A_SWITCHES,	/* u32: switch nodes (MINs), else 0 */
	TXNET_A_LINKS,		/* u32: directed links */
	TXNET_A_DIAMETER,	/* u32: processor-to-processor, in links */
	TXNET_A_STATE,		/* u32, enum txnet_state */
	TXNET_A_TICKS,		/* u64: ticks advanced since creation */
	TXNET_A_MEM_BYTES,	/* u64: memory charged to the budget */
	/* exchanges */
	TXNET_A_OP,		/* u32, enum txnet_op */
	TXNET_A_ALGO,		/* u32, enum txnet_algo */
	TXNET_A_PAYLOAD,	/* u32: bytes per packet, <= TXNET_PAYLOAD_MAX */
	TXNET_A_SEED,		/* u64: payload seed; random when absent */
	TXNET_A_UNUSED_21,	/* reserved, rejected: faults are test-only, in debugfs */
	TXNET_A_RUN_ID,		/* u32: counts the network's runs from 1 */
	TXNET_A_RESULT,		/* nest, TXNET_A_RES_*: the last finished run */
	TXNET_A_RUN_TICKS,	/* u64: ticks of the run in progress */
	TXNET_A_RUN_DELIVERED,	/* u64: packets it has delivered so far */
	/* ports */
	TXNET_A_SRC,		/* u32: sending processor */
	TXNET_A_DST,		/* u32: receiving processor */
	TXNET_A_DATA,		/* binary, <= TXNET_PORT_DATA_MAX bytes */
	TXNET_A_NODE,		/* u32: the processor whose port to read */
	TXNET_A_MSGS,		/* nest: array of nests, TXNET_A_MSG_* */
	TXNET_A_PORTS_IN_FLIGHT,/* u32: port packets on the fabric */
	TXNET_A_PORTS_UNREAD,	/* u32: port packets delivered, not yet read */
	/* collectives */
	TXNET_A_ROOT,		/* u32: root processor of broadcast, scatter, gather, accumulate */
	TXNET_A_VALUES,		/* binary: s64 per processor (n*n for multinode-accumulate,
				 * node i's value for j at i*n+j) of a combining operation */
	TXNET_A_VALUES_SEED,	/* u64: random values 0..999 instead of TXNET_A_VALUES */
	TXNET_A_MAX_TICKS,	/* u64: fail a run that passes this many ticks; 0 = none */
	TXNET_A_BOUNDS,		/* nest: array of nests, TXNET_A_BOUND_* (BOUNDS reply) */
	/*
	 * Read-only, in GET replies (cartesian products) and BOUNDS replies
	 * (any topology small enough to search): what a total exchange must
	 * carry, [Dimakopoulos98] section 3.  Average distance = TOTAL_DISTANCE /
	 * (n(n-1)).
	 */
	TXNET_A_TOTAL_DISTANCE,	/* u64: distances summed over all ordered pairs of processors */
	TXNET_A_AS_BOUND,	/* u64: bound (3), single-port: ceil(TOTAL_DISTANCE / n) */
	TXNET_A_CUT_BOUND,	/* u64: bound (4), all-port: the best dimension cut (products) */
	/*
	 * u64, RUN: algo latin (a total exchange on a MIN) starts from
	 * M^{l,0}, l this index into [Massini03]'s canonical partition,
	 * 0 .. N^(N/2-1)-1; default 0.
	 */
	TXNET_A_CONFIG,
	TXNET_A_LATIN,		/* nest: array of nests, TXNET_A_LATIN_* (LATIN reply) */
	/*
	 * binary, RUN permutation: u32 per processor, where its message goes;
	 * a permutation of 0 .. nodes-1.
	 */
	TXNET_A_DESTS,
	/*
	 * binary, RUN: algo latin starts from this configuration M instead:
	 * u32 per switch row h (N/2 of them), m_{h,k} at bit log2 N - 1 - k,
	 * as TXNET_A_LATIN_ROWS; not with TXNET_A_CONFIG.
	 */
	TXNET_A_CONFIG_ROWS,
	TXNET_A_RUN_EXPECTED,	/* u64: deliveries the run in progress must make */
	TXNET_A_RECORD,		/* u8, RUN: 1 keeps the run's time series (TXNET_CMD_SERIES) */
	TXNET_A_SERIES,		/* nest, TXNET_A_SERIES_*: one row of a SERIES dump */
	/*
	 * u8, NEW: 1 gives every processor an Ethernet interface,
	 * tx<name><processor>, whose frames the fabric carries; GET: 1 then.
	 */
	TXNET_A_NETDEV,
	TXNET_A_UP,		/* u8, FAULT: 0 down, 1 up */
	/* read-only, GET: the faults in force */
	TXNET_A_CABLES_CUT,	/* binary: u32 pairs, the two nodes of each cable cut, lower first */
	TXNET_A_NODES_DOWN,	/* binary: u32 per node that is down */
	TXNET_A_PORTS_DROPPED,	/* u64: port packets a fault cut off from their destination */
	TXNET_A_FABRIC_HOPS,	/* u64, read-only: link-hops the interfaces' frames have taken */
	TXNET_A_LINK,		/* nest, TXNET_A_LINK_*, read-only: one row of a LINKS dump */
	/*
	 * binary, NEW of a graph: u32 pairs, the two vertices of each cable
	 * (processors 0 .. P-1, then switches); repeated as often as the list
	 * needs, each attribute a whole number of pairs, the lists joined in
	 * order.  A vertex's ports follow the order its cables come in.
	 */
	TXNET_A_CABLES,
	/*
	 * binary, NEW of a graph: u32 per vertex, the number a file gave it,
	 * ascending among the processors and among the switches; repeated
	 * like TXNET_A_CABLES.  Optional: without it a vertex's number is its own.
	 */
	TXNET_A_VERTEX_IDS,
	TXNET_A_GRAPH_DIGEST,	/* u64, read-only, GET of a graph: the counts and cables hashed */
	TXNET_A_VERTEX_ID,	/* u32, read-only, GET with TXNET_A_NODE: that vertex's file number */
	/*
	 * u8, read-only, GET of a graph too large to search from every
	 * processor: 1, TXNET_A_DIAMETER is a lower bound (two sweeps' largest
	 * eccentricity), not the diameter.  Absent: it is the diameter.
	 */
	TXNET_A_DIAMETER_AT_LEAST,
	/*
	 * binary, RUN: a schedule to replay (algo replay), steps of four u32
	 * (Documentation/txnet-schedule-format.rst): a tick mark, ~0 then the
	 * ticks it advances, or a move, FROM TO A B, over the cable from
	 * vertex FROM to TO of the unicast message A -> B, a copy of
	 * processor A's broadcast message, or a partial toward processor A's
	 * result (B ~0 for those).  Repeated as often as the list needs, each
	 * attribute a whole number of steps, the lists joined in order.
	 * SCHEDULE dump: the saved run's steps, in order, a part a message.
	 */
	TXNET_A_SCHEDULE,
	/* string, RUN with TXNET_A_SCHEDULE: the network it was made for, as TXNET_A_SPEC */
	TXNET_A_SCHEDULE_SPEC,
	TXNET_A_SAVE,		/* u8, RUN: 1 keeps the moves the engine accepted (TXNET_CMD_SCHEDULE) */

	__TXNET_A_MAX,
	TXNET_A_MAX = __TXNET_A_MAX - 1
};

#define TXNET_PAYLOAD_MAX	4096
/* The most steps a TXNET_A_SCHEDULE list may have (16 bytes each): 1 << 25 */
#define TXNET_SCHEDULE_MAX_STEPS	(1U << 25)
/* GET lists at most this many cables cut and nodes down (the first ones). */
#define TXNET_FAULTS_LISTED	128
/* The most processors a network with TXNET_A_NETDEV has: an interface each. */
#define TXNET_NETDEV_MAX_NODES	256

/* How a run ended. */
enum txnet_run_status {
	TXNET_RUN_NONE,		/* no run has finished yet */
	TXNET_RUN_DONE,		/* all delivered and verified */
	TXNET_RUN_FAILED,	/* a rule was broken: see TXNET_A_RES_ERROR */
	TXNET_RUN_STOPPED,	/* stopped by TXNET_CMD_STOP */
	TXNET_RUN_BLOCKED,	/* a permutation the MIN cannot route: TXNET_A_RES_BLOCK_* */

	__TXNET_RUN_MAX,
	TXNET_RUN_MAX = __TXNET_RUN_MAX - 1
};

#define TXNET_RES_QUEUE_MAX_NODES	256

/* Inside TXNET_A_RESULT.  STEPS and EXPECTED_STEPS only when they exist. */
enum txnet_res_attr {
	TXNET_A_RES_UNSPEC,
	TXNET_A_RES_PAD,
	TXNET_A_RES_RUN_ID,		/* u32 */
	TXNET_A_RES_STATUS,		/* u32, enum txnet_run_status */
	TXNET_A_RES_OP,			/* u32 */
	TXNET_A_RES_ALGO,		/* u32: the schedule that ran (never AUTO) */
	TXNET_A_RES_PORT_MODEL,		/* u32 */
	TXNET_A_RES_NODES,		/* u32 */
	TXNET_A_RES_PAYLOAD,		/* u32 */
	TXNET_A_RES_SEED,		/* u64 */
	TXNET_A_RES_STEPS,		/* u64: ticks counted; verified runs only */
	TXNET_A_RES_LOWER_BOUND,	/* u64 */
	TXNET_A_RES_EXPECTED_STEPS,	/* u64: the paper's time, if it gives one */
	TXNET_A_RES_TRANSMISSIONS,	/* u64: link traversals */
	TXNET_A_RES_DELIVERED,		/* u64 */
	TXNET_A_RES_EXPECTED_DELIVERIES,/* u64: n(n-1) */
	TXNET_A_RES_VERIFIED,		/* u8: 1 only if every check passed */
	TXNET_A_RES_WALL_NS,		/* u64 */
	TXNET_A_RES_MAX_LATENESS_NS,	/* u64: paced runs */
	TXNET_A_RES_MAX_QUEUE,		/* u32: largest queue any node held */
	TXNET_A_RES_MAX_QUEUE_NODE,	/* u32: the node that held it */
	TXNET_A_RES_TICKS,		/* u64: ticks run, also for failed runs */
	TXNET_A_RES_ERROR,		/* string: the rule broken */
	TXNET_A_RES_ERROR_TICK,		/* u64 */
	TXNET_A_RES_ERROR_NODE,		/* u32 */
	TXNET_A_RES_QUEUE_MAX,		/* binary: u32 per node, its largest queue;
					 * only up to TXNET_RES_QUEUE_MAX_NODES nodes */
	TXNET_A_RES_ROOT,		/* u32: operations with a root */
	TXNET_A_RES_BOUND,		/* string: which bound gave LOWER_BOUND */
	TXNET_A_RES_MIN_TRANSMISSIONS,	/* u64: fewest link traversals any schedule needs */
	TXNET_A_RES_VALUES,		/* binary: s64 per node, what it ended with (combining
					 * operations, verified runs, up to
					 * TXNET_RES_QUEUE_MAX_NODES nodes) */
	TXNET_A_RES_VALUES_SEED,	/* u64: the seed of random values */
	TXNET_A_RES_MAX_TICKS,		/* u64: the run's tick limit */
	TXNET_A_RES_CONFIG,		/* u64: algo latin: the index l it ran S^l of;
					 * self-routing: the set that holds the configuration */
	TXNET_A_RES_CONFIG_X,		/* u32: the configuration (self-routing, or latin's
					 * CONFIG_ROWS) is M^{l,x} */
	TXNET_A_RES_BLOCK_STAGE,	/* u32: blocked: the stage (0 .. log2 N - 1) */
	TXNET_A_RES_BLOCK_SWITCH,	/* u32: blocked: the switch in it (0 .. N/2 - 1) */
	TXNET_A_RES_BLOCK_INPUTS,	/* binary: blocked: two u32, the inputs that need it
					 * set both ways, the one that got it first first */
	TXNET_A_RES_BUSY_NS,		/* u64: the tick thread's time in the engine, pacing
					 * sleeps left out */
	TXNET_A_RES_TICK_NS,		/* u64: BUSY_NS / TICKS, the mean wall time of a tick */
	TXNET_A_RES_SAMPLES,		/* u32: runs with TXNET_A_RECORD: samples in its series */
	TXNET_A_RES_SAMPLE_TICKS,	/* u32: ... and the ticks each covers */
	TXNET_A_RES_ERROR_LINK,		/* binary: two u32, the link the error names: from, to */
	TXNET_A_RES_REROUTES,		/* u32: times the run was routed around faults */
	TXNET_A_RES_LINKS_DOWN,		/* u32: directed links down when it ended */
	/*
	 * u64: link-hops of port packets and interface frames that moved
	 * beside the run, on what it left idle in each tick (it goes first:
	 * its steps are what they would be alone)
	 */
	TXNET_A_RES_SHARED_HOPS,
	/*
	 * u64: a run that was verified with links down: the ticks the same
	 * schedule, parameters and inputs took on the whole network (run to
	 * its end after it, off the fabric); TICKS less this is what the
	 * faults cost
	 */
	TXNET_A_RES_FAULT_FREE_TICKS,
	/*
	 * u32: a failed run, where the rule broken was one move's: which of
	 * its tick's moves, from 0, in the order the schedule proposed them
	 * (a replayed file's order)
	 */
	TXNET_A_RES_ERROR_MOVE,
	/* u64: a run with TXNET_A_SAVE: the steps kept (TXNET_CMD_SCHEDULE), absent if none could be */
	TXNET_A_RES_SAVED_STEPS,

	__TXNET_A_RES_MAX,
	TXNET_A_RES_MAX = __TXNET_A_RES_MAX - 1
};

/* Ports: payload size, and packets in flight plus unread per network. */
#define TXNET_PORT_DATA_MAX	256
#define TXNET_PORT_SLOTS	1024

/* One element of TXNET_A_MSGS: a packet that arrived at a port. */
enum txnet_msg_attr {
	TXNET_A_MSG_UNSPEC,
	TXNET_A_MSG_PAD,
	TXNET_A_MSG_SRC,	/* u32 */
	TXNET_A_MSG_DST,	/* u32 */
	TXNET_A_MSG_DATA,	/* binary */
	TXNET_A_MSG_SENT_TICK,	/* u64: port tick at which it was sent */
	TXNET_A_MSG_RECV_TICK,	/* u64: port tick at which it arrived */

	__TXNET_A_MSG_MAX,
	TXNET_A_MSG_MAX = __TXNET_A_MSG_MAX - 1
};

/* One element of TXNET_A_BOUNDS: one operation under one port model. */
enum txnet_bound_attr {
	TXNET_A_BOUND_UNSPEC,
	TXNET_A_BOUND_PAD,
	TXNET_A_BOUND_OP,		/* u32, enum txnet_op */
	TXNET_A_BOUND_PORT_MODEL,	/* u32, enum txnet_port_model */
	TXNET_A_BOUND_ROOT,		/* u32: the root it was computed for */
	TXNET_A_BOUND_LOWER,		/* u64: lower bound on the ticks */
	TXNET_A_BOUND_NAME,		/* string: the bound that gave it */
	TXNET_A_BOUND_MIN_TRANSMISSIONS,/* u64 */
	/*
	 * Where the schedule algo auto picks has a proven time: its algo
	 * (u32, enum txnet_algo) and that time (u64 ticks), e.g. [Bertsekas91]'s
	 * Table 1 on hypercubes.
	 */
	TXNET_A_BOUND_ALGO,
	TXNET_A_BOUND_EXPECTED_STEPS,
	/*
	 * u64: the figure the paper prints for this operation here, counted
	 * its own way, where that differs from the timing model's count
	 * (EXPECTED_STEPS): [Wei07] Table 4 on all-port biswapped networks.
	 */
	TXNET_A_BOUND_PAPER_STEPS,
	/*
	 * u64: packet slots a run of this operation has here, the most
	 * packets, copies and partials alive at once: a schedule that needs
	 * more fails with "no free packet slot" (Documentation/txnet-engine.rst).
	 */
	TXNET_A_BOUND_SLOTS,
	__TXNET_A_BOUND_MAX,
	TXNET_A_BOUND_MAX = __TXNET_A_BOUND_MAX - 1
};

/*
 * A run's time series (TXNET_A_RECORD, TXNET_CMD_SERIES): at most this many
 * samples, each covering SAMPLE_TICKS ticks, a power of two that doubles
 * (neighbours merged) each time a run outgrows them; the last sample may
 * cover fewer.  Node rows are single nodes up to
 * TXNET_RES_QUEUE_MAX_NODES nodes, groups of consecutive nodes beyond.
 * Counting what nodes hold visits every packet each tick: runs of more
 * than TXNET_SERIES_MAX_PACKETS packets keep no series.
 */
#define TXNET_SERIES_SAMPLES		256
#define TXNET_SERIES_MAX_PACKETS	(1U << 20)

enum txnet_series_kind {
	TXNET_SERIES_UNSPEC,
	TXNET_SERIES_LINKS,	/* links of one dimension and direction (or all) */
	TXNET_SERIES_HELD,	/* the packets one node (or group of nodes) holds */

	__TXNET_SERIES_MAX,
	TXNET_SERIES_MAX = __TXNET_SERIES_MAX - 1
};

/* Inside TXNET_A_SERIES. */
enum txnet_series_attr {
	TXNET_A_SERIES_UNSPEC,
	TXNET_A_SERIES_PAD,
	TXNET_A_SERIES_KIND,		/* u32, enum txnet_series_kind */
	TXNET_A_SERIES_DIM,		/* u32: links, products only: the dimension, in port
					 * order (a hypercube's bit) */
	TXNET_A_SERIES_DIR,		/* u32: links, products only: 0 up (the coordinate
					 * grows, +1 around a ring), 1 down */
	TXNET_A_SERIES_LINKS,		/* u32: links: the links in the row */
	TXNET_A_SERIES_NODE,		/* u32: held: the row's first node */
	TXNET_A_SERIES_NODES,		/* u32: held: the nodes in the row */
	TXNET_A_SERIES_SAMPLE_TICKS,	/* u32: ticks a sample covers */
	TXNET_A_SERIES_TICKS,		/* u64: ticks recorded */
	TXNET_A_SERIES_BUSY,		/* binary: links: u64 a sample, packets the row's links
					 * carried in it (link-ticks busy) */
	TXNET_A_SERIES_HELD,		/* binary: held: u32 a sample, the most packets one
					 * of the row's nodes held at a tick's end: queued or
					 * waiting to be sent, not yet delivered, merged or
					 * folded (broadcast: the copies it keeps too) */

	__TXNET_A_SERIES_MAX,
	TXNET_A_SERIES_MAX = __TXNET_A_SERIES_MAX - 1
};

/* Inside TXNET_A_LINK: one directed link and what open traffic it carried. */
enum txnet_link_attr {
	TXNET_A_LINK_UNSPEC,
	TXNET_A_LINK_PAD,
	TXNET_A_LINK_ID,	/* u32: the link's number, 0 .. links - 1 */
	TXNET_A_LINK_FROM,	/* u32: the node it leaves */
	TXNET_A_LINK_TO,	/* u32: the node it enters */
	/*
	 * u64: port packets and interface frames it has carried (since the
	 * ports, the interfaces, were set up); collective runs are counted
	 * in their results, not here
	 */
	TXNET_A_LINK_HOPS,
	TXNET_A_LINK_DOWN,	/* u8: 1 while it is down (its cable cut, or an end down) */

	__TXNET_A_LINK_MAX,
	TXNET_A_LINK_MAX = __TXNET_A_LINK_MAX - 1
};

/* The largest MIN whose square TXNET_CMD_LATIN prints (one message). */
#define TXNET_LATIN_MAX_N	64

/* One element of TXNET_A_LATIN: the member M^{l,x} of S^l. */
enum txnet_latin_attr {
	TXNET_A_LATIN_UNSPEC,
	TXNET_A_LATIN_X,	/* u32: x */
	TXNET_A_LATIN_PERM,	/* binary: u32 per output, the input whose packet reaches it */
	TXNET_A_LATIN_ROWS,	/* binary: u32 per switch row h, m_{h,k} at bit log2 N - 1 - k */
	__TXNET_A_LATIN_MAX,
	TXNET_A_LATIN_MAX = __TXNET_A_LATIN_MAX - 1
};

/*
 * TXNET_A_DIMS holds one nest per dimension, dimension i with attribute
 * type i + 1 (an indexed array).  The types are named for the netlink
 * spec (Documentation/netlink/specs/txnet.yaml), which lists them: the
 * kernel's ynl of 6.12 cannot encode an indexed array in a request.
 */
enum txnet_dims_attr {
	TXNET_A_DIMS_UNSPEC,
	TXNET_A_DIMS_DIM_1,
	TXNET_A_DIMS_DIM_2,
	TXNET_A_DIMS_DIM_3,
	TXNET_A_DIMS_DIM_4,
	TXNET_A_DIMS_DIM_5,
	TXNET_A_DIMS_DIM_6,
	TXNET_A_DIMS_DIM_7,
	TXNET_A_DIMS_DIM_8,
	TXNET_A_DIMS_DIM_9,
	TXNET_A_DIMS_DIM_10,
	TXNET_A_DIMS_DIM_11,
	TXNET_A_DIMS_DIM_12,
	TXNET_A_DIMS_DIM_13,
	TXNET_A_DIMS_DIM_14,
	TXNET_A_DIMS_DIM_15,
	TXNET_A_DIMS_DIM_16,	/* TXNET_MAX_DIMS */

	__TXNET_A_DIMS_MAX,
	TXNET_A_DIMS_MAX = __TXNET_A_DIMS_MAX - 1
};

/* One element of TXNET_A_DIMS. */
enum txnet_dim_attr {
	TXNET_A_DIM_UNSPEC,
	TXNET_A_DIM_SIZE,	/* u32 */
	TXNET_A_DIM_KIND,	/* u32, enum txnet_dim_kind: product only */

	__TXNET_A_DIM_MAX,
	TXNET_A_DIM_MAX = __TXNET_A_DIM_MAX - 1
};

#endif /* _UAPI_LINUX_TXNET_H */
