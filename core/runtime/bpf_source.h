/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Metrics read from BPF (bpf_source.c): what a metric's `bpf` field names
 * in the object the plugin handed over (bc_ctx_set_bpf_object()), found
 * once through the object's BTF and read by the sampler at every tick.
 */
#ifndef BENCHCORE_BPF_SOURCE_H
#define BENCHCORE_BPF_SOURCE_H

#include "context.h"

/* After setup() and the attach ladder: finds every metric's source.
 * Returns 0, or bc_error() naming the metric and what is wrong. */
int bc_bpf_src_resolve(struct bc_ctx *ctx);
/* The sampler: fills values[m] of each BPF-fed counter, gauge, ratio or
 * time per op, and ops[m] (when not NULL) with a time per op's operation
 * count. No syscall: the globals are in memory libbpf mapped. */
void bc_bpf_src_read(const struct bc_ctx *ctx, double *values, double *ops);
/* The sampler, before the histograms are collected: hands each BPF-fed
 * histogram's totals to it. Returns 0 or a negative errno (bc_error()). */
int bc_bpf_src_read_hists(struct bc_ctx *ctx);
/* Before teardown() destroys the object. */
void bc_bpf_src_free(struct bc_ctx *ctx);

#endif /* BENCHCORE_BPF_SOURCE_H */
