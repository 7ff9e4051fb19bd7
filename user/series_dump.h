/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: a run's time series as TXNET_CMD_SERIES dumps it (series_dump.c):
 * link rows (by dimension and direction where the topology has them) and
 * rows of what nodes held (by node, or group of nodes);
 * TXNET_SERIES_SAMPLES samples at most.
 */
#ifndef TXCTL_SERIES_DUMP_H
#define TXCTL_SERIES_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/txnet.h>

struct txnl;

struct series_row {
	uint32_t kind;			/* enum txnet_series_kind */
	bool has_dim;
	uint32_t dim, dir;		/* links, products */
	uint32_t links;			/* links */
	uint32_t node, nodes;		/* held */
	uint32_t len;			/* samples */
	uint64_t busy[TXNET_SERIES_SAMPLES];
	uint32_t held[TXNET_SERIES_SAMPLES];
};

struct series {
	uint32_t run_id;
	uint32_t sample_ticks;
	uint64_t ticks;
	uint32_t n;			/* rows */
	struct series_row *row;
};

/* The last run of network @name's series; 0 or -errno, with nl->errmsg. */
int series_fetch(struct txnl *nl, const char *name, struct series *s);
void series_free(struct series *s);
/* The ticks sample @i of @s covers: the last may cover fewer. */
uint64_t series_span(const struct series *s, uint32_t i);
/* Text: a row a line; JSON: an object with the rows' arrays. */
void series_print(const struct series *s, const char *name);

#endif /* TXCTL_SERIES_DUMP_H */
