/* SPDX-License-Identifier: GPL-2.0 */
/* txctl's pictures: a run's time series as SVG. */
#ifndef TXCTL_PLOT_H
#define TXCTL_PLOT_H

#include <stdio.h>

#include "series_dump.h"

/*
 * Two panels over the run's ticks: each link row's use (the share of its
 * links that carried a packet, one line a dimension and direction, and
 * all links together), and a heat map of the packets the nodes held.
 * @title and @subtitle are plain text.  0, or -errno when @f failed.
 */
int plot_svg(FILE *f, const struct series *s, const char *title, const char *subtitle);

#endif /* TXCTL_PLOT_H */
