/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Histogram metrics (BC_METRIC_HISTOGRAM): log-linear buckets in the HDR
 * style, one shard per writing thread, merged by the sampler at each tick.
 *
 * Buckets: values below 2^(SUB_BITS+1) = 128 have a bucket each (exact).
 * Above, every power of two [2^e, 2^(e+1)) is cut into 2^SUB_BITS = 64 equal
 * buckets of width 2^(e-6), so a bucket is never wider than 1/64 of its
 * lowest value; 3776 buckets cover the whole uint64_t range.
 */
#ifndef BENCHCORE_HIST_H
#define BENCHCORE_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <benchcore/bpf_hist.h>

#define BC_HIST_SUB_BITS 6
#define BC_HIST_SUB_CNT (1u << BC_HIST_SUB_BITS)
#define BC_HIST_BUCKETS (BC_HIST_SUB_CNT + (64 - BC_HIST_SUB_BITS) * BC_HIST_SUB_CNT)

/* A histogram recorded in BPF must land in the same buckets. */
_Static_assert(BC_HIST_BUCKETS == BC_BPF_HIST_BUCKETS &&
	       BC_HIST_SUB_BITS == BC_BPF_HIST_SUB_BITS,
	       "<benchcore/bpf_hist.h> and core/hist.h disagree on the buckets");

unsigned int bc_hist_bucket(uint64_t value);
uint64_t bc_hist_bucket_low(unsigned int bucket);
uint64_t bc_hist_bucket_high(unsigned int bucket);	/* inclusive */
/* The value a bucket stands for: its midpoint (within 1/128 of any value
 * in it), exact for the one-value buckets. */
double bc_hist_bucket_value(unsigned int bucket);

/* What is reported of a distribution. Percentiles are nearest-rank, and
 * never above max; every field is NaN (count 0) for an empty one. */
struct bc_hist_stats {
	uint64_t count;
	double p50, p90, p99, p999, max;
};

/* The recordings of one interval: the non-empty buckets, ascending. */
struct bc_hist_interval {
	size_t n;
	uint32_t *idx;
	uint64_t *cnt;
	uint64_t max_seen;	/* the exact largest value recorded so far */
};

void bc_hist_interval_free(struct bc_hist_interval *iv);

/* Stats of dense buckets (BC_HIST_BUCKETS counts); max_seen bounds the
 * reported max from above (0: unknown, the highest bucket's top is used). */
void bc_hist_stats_dense(const uint64_t *buckets, uint64_t max_seen, struct bc_hist_stats *out);
/* Adds an interval into dense buckets. */
void bc_hist_interval_add(uint64_t *buckets, const struct bc_hist_interval *iv);

struct bc_hist;

/* A histogram with one shard per producer, one per consumer and one shared
 * by every other thread (t == NULL). NULL and errno on failure. */
struct bc_hist *bc_hist_new(unsigned int producer_cnt, unsigned int consumer_cnt);
void bc_hist_free(struct bc_hist *h);
/* From the sampling thread: merges the shards and returns what was
 * recorded since the previous call (the first call: since creation). */
int bc_hist_collect(struct bc_hist *h, struct bc_hist_interval *out);
/* From the sampling thread, before bc_hist_collect(): the cumulative
 * BC_HIST_BUCKETS counts and the largest value a BPF program recorded
 * (struct bc_bpf_hist, summed over CPUs), merged with the shards.
 * Returns 0 or -ENOMEM. */
int bc_hist_set_bpf(struct bc_hist *h, const uint64_t *totals, uint64_t max);

#endif /* BENCHCORE_HIST_H */
