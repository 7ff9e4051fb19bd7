// SPDX-License-Identifier: GPL-2.0
/* txctl: topology and dimension-kind keywords of the txnet ABI. */
#include <stddef.h>
#include <string.h>

#include <linux/txnet.h>

#include "topology.h"

static const struct topo_info topologies[] = {
	{ "linear",	TXNET_TOPO_LINEAR,	TOPO_ARGS_ONE,	"N", "N",		true },
	{ "ring",	TXNET_TOPO_RING,	TOPO_ARGS_ONE,	"N", "N",		true },
	{ "complete",	TXNET_TOPO_COMPLETE,	TOPO_ARGS_ONE,	"N", "N",		true },
	{ "hypercube",	TXNET_TOPO_HYPERCUBE,	TOPO_ARGS_ONE,	"D", "D",		true },
	{ "butterfly",	TXNET_TOPO_BUTTERFLY,	TOPO_ARGS_ONE,	"N", "N",		false },
	{ "omega",	TXNET_TOPO_OMEGA,	TOPO_ARGS_ONE,	"N", "N",		false },
	{ "baseline",	TXNET_TOPO_BASELINE,	TOPO_ARGS_ONE,	"N", "N",		false },
	{ "rbaseline",	TXNET_TOPO_RBASELINE,	TOPO_ARGS_ONE,	"N", "N",		false },
	{ "flip",	TXNET_TOPO_FLIP,	TOPO_ARGS_ONE,	"N", "N",		false },
	{ "mesh",	TXNET_TOPO_MESH,	TOPO_ARGS_LIST,	"K", "K1 ... Kd",	true },
	{ "torus",	TXNET_TOPO_TORUS,	TOPO_ARGS_LIST,	"K", "K1 ... Kd",	false },
	{ "ghc",	TXNET_TOPO_GHC,		TOPO_ARGS_LIST,	"M", "M1 ... Md",	false },
	{ "product",	TXNET_TOPO_PRODUCT,	TOPO_ARGS_PRODUCT, "SIZE", "KIND:SIZE ...", false },
	{ "biswapped",	TXNET_TOPO_BISWAPPED,	TOPO_ARGS_BASE,	"BASE", "BASE BASEARGS...", false },
	{ "dragonfly",	TXNET_TOPO_DRAGONFLY,	TOPO_ARGS_FIXED, "P", "P A H",		false },
	{ "fattree",	TXNET_TOPO_FATTREE,	TOPO_ARGS_FIXED, "K", "K N",		false },
	{ "slimfly",	TXNET_TOPO_SLIMFLY,	TOPO_ARGS_FIXED, "Q", "Q P",		false },
	{ "graph",	TXNET_TOPO_GRAPH,	TOPO_ARGS_FILE,	"FILE", "file:PATH",	false },
};

const struct topo_info *topo_by_name(const char *name)
{
	size_t i;

	/* [Wei07]'s name for it */
	if (!strcmp(name, "bsn"))
		name = "biswapped";

	for (i = 0; i < sizeof(topologies) / sizeof(topologies[0]); i++)
		if (!strcmp(topologies[i].name, name))
			return &topologies[i];
	return NULL;
}

const struct topo_info *topo_by_id(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof(topologies) / sizeof(topologies[0]); i++)
		if (topologies[i].id == id)
			return &topologies[i];
	return NULL;
}

static const char *const dim_kinds[] = {
	[TXNET_DIM_LINEAR]	= "linear",
	[TXNET_DIM_RING]	= "ring",
	[TXNET_DIM_COMPLETE]	= "complete",
};

uint32_t dim_kind_by_name(const char *name)
{
	uint32_t k;

	for (k = 1; k <= TXNET_DIM_MAX; k++)
		if (dim_kinds[k] && !strcmp(dim_kinds[k], name))
			return k;
	return 0;
}

const char *dim_kind_name(uint32_t kind)
{
	if (kind >= 1 && kind <= TXNET_DIM_MAX && dim_kinds[kind])
		return dim_kinds[kind];
	return NULL;
}
