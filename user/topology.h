/* SPDX-License-Identifier: GPL-2.0 */
/* txctl: topology and dimension-kind keywords of the txnet ABI. */
#ifndef TXCTL_TOPOLOGY_H
#define TXCTL_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

enum topo_args {
	TOPO_ARGS_ONE,		/* ring N, hypercube D, butterfly N, ... */
	TOPO_ARGS_LIST,		/* mesh K1 ... Kd, ghc M1 ... Md */
	TOPO_ARGS_PRODUCT,	/* product KIND:SIZE ... */
	TOPO_ARGS_BASE,		/* biswapped BASE BASEARGS... */
	TOPO_ARGS_FIXED,	/* dragonfly P A H, fattree K N: the synopsis's words */
	TOPO_ARGS_FILE,		/* graph file:PATH */
};

struct topo_info {
	const char *name;	/* the create keyword */
	uint32_t id;		/* enum txnet_topology */
	enum topo_args args;
	const char *field;	/* argument name in usage and errors */
	const char *synopsis;	/* what follows the keyword; FIXED: one name an argument */
	bool base_ok;		/* may be the base of a biswapped network */
};

const struct topo_info *topo_by_name(const char *name);
const struct topo_info *topo_by_id(uint32_t id);
/* enum txnet_dim_kind <-> "linear", "ring", "complete"; 0 if unknown */
uint32_t dim_kind_by_name(const char *name);
const char *dim_kind_name(uint32_t kind);

#endif /* TXCTL_TOPOLOGY_H */
