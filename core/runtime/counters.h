/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counters the core owns (counters.c, ABI 2.3): the line counters behind
 * metrics with `threads`, one per thread, summed at every tick.
 */
#ifndef BENCHCORE_COUNTERS_H
#define BENCHCORE_COUNTERS_H

#include <stdbool.h>

#include "context.h"

/* A metric of the benchmark is counted by its threads. */
bool bc_bench_has_thread_counts(const struct bc_bench *b);
/* Before setup(), for ctx's thread counts: 0, or bc_error(). */
int bc_thread_counts_alloc(struct bc_ctx *ctx);
void bc_thread_counts_free(struct bc_ctx *ctx);
/* The sampler: values[m] of each metric with `threads`, summed. */
void bc_thread_counts_read(const struct bc_ctx *ctx, double *values);

#endif /* BENCHCORE_COUNTERS_H */
