/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Per-run statistics (stats.c), computed once and read by every reporter.
 */
#ifndef BENCHCORE_STATS_H
#define BENCHCORE_STATS_H

#include <stddef.h>

#include "result.h"

/* mean, sample stddev (n-1), min, median, max of xs[0..n-1]. */
void bc_stats_compute(const double *xs, size_t n, struct bc_metric_summary *out);
void bc_stats_summarise(struct bc_run_result *res);
/* Iterations past the warm-up: what a summary covers. */
size_t bc_stats_measured_cnt(const struct bc_run_result *res);

#endif /* BENCHCORE_STATS_H */
