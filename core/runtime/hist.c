// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Histogram metrics: recording (any thread, no locks), merging (the
 * sampler, once per tick) and percentiles. See hist.h for the buckets.
 *
 * Each producer and consumer writes only its own shard, so a recording is a
 * relaxed load and store of one bucket (no locked instruction, no line
 * shared with another writer); the sampler reads the shards with relaxed
 * loads and may see a recording one tick late, never a torn one. Threads
 * that are neither share the last shard and pay for atomic adds.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <benchcore/benchcore.h>

#include "hist.h"

struct bc_hist_shard {
	uint64_t max;
	uint64_t buckets[BC_HIST_BUCKETS];
} __attribute__((aligned(BC_CACHELINE)));

struct bc_hist {
	unsigned int producer_cnt, consumer_cnt;
	unsigned int shard_cnt;		/* producers, consumers, the shared one */
	struct bc_hist_shard *shards;
	/* What BPF recorded (bc_hist_set_bpf()): totals, written and read by
	 * the sampler only. */
	struct bc_hist_shard *bpf;
	uint64_t *prev;			/* merged counts at the previous collect */
	uint64_t *cur;			/* scratch for the merge */
};

unsigned int bc_hist_bucket(uint64_t v)
{
	unsigned int e, shift;

	if (v < 2 * BC_HIST_SUB_CNT)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	shift = e - BC_HIST_SUB_BITS;
	/* v >> shift is 1xxxxxx: the top bit gives the group, the rest the
	 * sub-bucket within it. */
	return BC_HIST_SUB_CNT + shift * BC_HIST_SUB_CNT +
	       (unsigned int)((v >> shift) - BC_HIST_SUB_CNT);
}

static unsigned int bc_hist_shift(unsigned int b)
{
	return b < BC_HIST_SUB_CNT ? 0 : (b - BC_HIST_SUB_CNT) / BC_HIST_SUB_CNT;
}

uint64_t bc_hist_bucket_low(unsigned int b)
{
	unsigned int sub;

	if (b < BC_HIST_SUB_CNT)
		return b;
	sub = (b - BC_HIST_SUB_CNT) % BC_HIST_SUB_CNT;
	return (uint64_t)(BC_HIST_SUB_CNT + sub) << bc_hist_shift(b);
}

uint64_t bc_hist_bucket_high(unsigned int b)
{
	return bc_hist_bucket_low(b) + ((1ULL << bc_hist_shift(b)) - 1);
}

double bc_hist_bucket_value(unsigned int b)
{
	uint64_t lo = bc_hist_bucket_low(b);

	return (double)lo + (double)(bc_hist_bucket_high(b) - lo) / 2.0;
}

/* ------------------------------------------------------------- recording */

void bc_hist_record(struct bc_hist *h, const struct bc_thread *t, uint64_t value)
{
	struct bc_hist_shard *s;
	unsigned int shard = h ? h->shard_cnt - 1 : 0;
	uint64_t *b, m;

	if (!h)
		return;
	if (t && !t->consumer && t->idx < h->producer_cnt)
		shard = t->idx;
	else if (t && t->consumer && t->idx < h->consumer_cnt)
		shard = h->producer_cnt + t->idx;
	s = &h->shards[shard];
	b = &s->buckets[bc_hist_bucket(value)];

	if (shard == h->shard_cnt - 1) {
		__atomic_fetch_add(b, 1, __ATOMIC_RELAXED);
		m = __atomic_load_n(&s->max, __ATOMIC_RELAXED);
		while (value > m && !__atomic_compare_exchange_n(&s->max, &m, value, true,
								 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
		return;
	}
	/* The only writer of this shard: a plain increment, made atomic only
	 * so that the sampler's concurrent load is well defined. */
	__atomic_store_n(b, __atomic_load_n(b, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	if (value > __atomic_load_n(&s->max, __ATOMIC_RELAXED))
		__atomic_store_n(&s->max, value, __ATOMIC_RELAXED);
}

struct bc_hist *bc_hist_new(unsigned int producer_cnt, unsigned int consumer_cnt)
{
	struct bc_hist *h = calloc(1, sizeof(*h));
	size_t bytes;

	if (!h)
		return NULL;
	h->producer_cnt = producer_cnt;
	h->consumer_cnt = consumer_cnt;
	h->shard_cnt = producer_cnt + consumer_cnt + 1;
	/* A multiple of the alignment, as aligned_alloc() wants. */
	bytes = (size_t)h->shard_cnt * sizeof(*h->shards);
	h->shards = aligned_alloc(BC_CACHELINE, bytes);
	h->prev = calloc(BC_HIST_BUCKETS, sizeof(*h->prev));
	h->cur = calloc(BC_HIST_BUCKETS, sizeof(*h->cur));
	if (!h->shards || !h->prev || !h->cur) {
		bc_hist_free(h);
		errno = ENOMEM;
		return NULL;
	}
	memset(h->shards, 0, bytes);
	return h;
}

void bc_hist_free(struct bc_hist *h)
{
	if (!h)
		return;
	free(h->shards);
	free(h->bpf);
	free(h->prev);
	free(h->cur);
	free(h);
}

/* -------------------------------------------------------------- merging */

void bc_hist_interval_free(struct bc_hist_interval *iv)
{
	if (!iv)
		return;
	free(iv->idx);
	free(iv->cnt);
	memset(iv, 0, sizeof(*iv));
}

int bc_hist_collect(struct bc_hist *h, struct bc_hist_interval *out)
{
	uint64_t max = 0;
	size_t n = 0;
	unsigned int s, b;

	memset(out, 0, sizeof(*out));
	memset(h->cur, 0, BC_HIST_BUCKETS * sizeof(*h->cur));
	for (s = 0; s < h->shard_cnt; s++) {
		const struct bc_hist_shard *sh = &h->shards[s];
		uint64_t m = __atomic_load_n(&sh->max, __ATOMIC_RELAXED);

		for (b = 0; b < BC_HIST_BUCKETS; b++)
			h->cur[b] += __atomic_load_n(&sh->buckets[b], __ATOMIC_RELAXED);
		if (m > max)
			max = m;
	}
	if (h->bpf) {
		for (b = 0; b < BC_HIST_BUCKETS; b++)
			h->cur[b] += h->bpf->buckets[b];
		if (h->bpf->max > max)
			max = h->bpf->max;
	}
	for (b = 0; b < BC_HIST_BUCKETS; b++)
		if (h->cur[b] != h->prev[b])
			n++;
	out->max_seen = max;
	if (n) {
		out->idx = malloc(n * sizeof(*out->idx));
		out->cnt = malloc(n * sizeof(*out->cnt));
		if (!out->idx || !out->cnt) {
			bc_hist_interval_free(out);
			return -ENOMEM;
		}
	}
	for (b = 0; b < BC_HIST_BUCKETS; b++) {
		if (h->cur[b] == h->prev[b])
			continue;
		out->idx[out->n] = b;
		out->cnt[out->n++] = h->cur[b] - h->prev[b];
	}
	memcpy(h->prev, h->cur, BC_HIST_BUCKETS * sizeof(*h->prev));
	return 0;
}

int bc_hist_set_bpf(struct bc_hist *h, const uint64_t *totals, uint64_t max)
{
	if (!h->bpf) {
		h->bpf = calloc(1, sizeof(*h->bpf));
		if (!h->bpf)
			return -ENOMEM;
	}
	memcpy(h->bpf->buckets, totals, sizeof(h->bpf->buckets));
	h->bpf->max = max;
	return 0;
}

void bc_hist_interval_add(uint64_t *buckets, const struct bc_hist_interval *iv)
{
	size_t i;

	for (i = 0; iv && i < iv->n; i++)
		if (iv->idx[i] < BC_HIST_BUCKETS)
			buckets[iv->idx[i]] += iv->cnt[i];
}

/* ---------------------------------------------------------- percentiles */

/* The nearest-rank percentile q (0 < q <= 1). */
static double bc_hist_quantile(const uint64_t *buckets, uint64_t count, double q, double max)
{
	uint64_t rank = (uint64_t)ceil(q * (double)count), seen = 0;
	unsigned int b;
	double v;

	if (rank < 1)
		rank = 1;
	for (b = 0; b < BC_HIST_BUCKETS; b++) {
		seen += buckets[b];
		if (seen >= rank)
			break;
	}
	v = bc_hist_bucket_value(b < BC_HIST_BUCKETS ? b : BC_HIST_BUCKETS - 1);
	return v > max ? max : v;
}

void bc_hist_stats_dense(const uint64_t *buckets, uint64_t max_seen, struct bc_hist_stats *out)
{
	unsigned int b, top = 0;
	uint64_t count = 0, high;

	memset(out, 0, sizeof(*out));
	for (b = 0; b < BC_HIST_BUCKETS; b++) {
		count += buckets[b];
		if (buckets[b])
			top = b;
	}
	out->count = count;
	if (!count) {
		out->p50 = out->p90 = out->p99 = out->p999 = out->max = NAN;
		return;
	}
	/* Every value of this set is in the top bucket and <= max_seen: the
	 * smaller bound is within a bucket's width of the true max. */
	high = bc_hist_bucket_high(top);
	out->max = (double)(max_seen && max_seen < high ? max_seen : high);
	if (out->max < (double)bc_hist_bucket_low(top))
		out->max = (double)high;
	out->p50 = bc_hist_quantile(buckets, count, 0.50, out->max);
	out->p90 = bc_hist_quantile(buckets, count, 0.90, out->max);
	out->p99 = bc_hist_quantile(buckets, count, 0.99, out->max);
	out->p999 = bc_hist_quantile(buckets, count, 0.999, out->max);
}
