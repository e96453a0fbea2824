// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Histogram metrics: bucket bounds and their relative error over the whole
 * uint64_t range, percentiles of known distributions, merging shards and
 * intervals, and exact counts when many threads record at once.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "hist.h"

/* Buckets tile the range: contiguous, ascending, each value in its own. */
static void test_bucket_bounds(void **state)
{
	unsigned int b;

	(void)state;
	assert_int_equal(bc_hist_bucket(0), 0);
	assert_int_equal(bc_hist_bucket(127), 127);
	assert_int_equal(bc_hist_bucket(UINT64_MAX), BC_HIST_BUCKETS - 1);
	assert_true(bc_hist_bucket_low(0) == 0);
	assert_true(bc_hist_bucket_high(BC_HIST_BUCKETS - 1) == UINT64_MAX);
	for (b = 0; b + 1 < BC_HIST_BUCKETS; b++) {
		uint64_t lo = bc_hist_bucket_low(b), hi = bc_hist_bucket_high(b);

		assert_true(lo <= hi);
		assert_true(bc_hist_bucket_low(b + 1) == hi + 1);
		assert_int_equal(bc_hist_bucket(lo), b);
		assert_int_equal(bc_hist_bucket(hi), b);
		/* A bucket is at most 1/64 of its lowest value wide. */
		if (lo >= 2 * BC_HIST_SUB_CNT)
			assert_true((double)(hi - lo + 1) <= (double)lo / 64.0);
		else
			assert_true(lo == hi);
	}
}

/* Any value is reported within 1/64 (the midpoint: within 1/128). */
static void test_relative_error(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		uint64_t v;
		double rep;

		/* xorshift: values spread over every magnitude */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (i % 64);
		rep = bc_hist_bucket_value(bc_hist_bucket(v));
		if (v < 128)
			assert_true(rep == (double)v);
		else
			assert_true(fabs(rep - (double)v) <= (double)v / 64.0);
	}
}

static void stats_of(const uint64_t *vals, size_t n, struct bc_hist_stats *s)
{
	uint64_t *dense = calloc(BC_HIST_BUCKETS, sizeof(*dense)), max = 0;
	size_t i;

	assert_non_null(dense);
	for (i = 0; i < n; i++) {
		dense[bc_hist_bucket(vals[i])]++;
		if (vals[i] > max)
			max = vals[i];
	}
	bc_hist_stats_dense(dense, max, s);
	free(dense);
}

static void assert_close(double got, double want)
{
	assert_true(fabs(got - want) <= want / 64.0);
}

/* Nearest-rank percentiles of 1..N, each within a bucket of the truth. */
static void test_percentiles_uniform(void **state)
{
	const size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct bc_hist_stats s;
	size_t i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = i + 1;
	stats_of(v, n, &s);
	assert_int_equal(s.count, n);
	assert_close(s.p50, 50000);
	assert_close(s.p90, 90000);
	assert_close(s.p99, 99000);
	assert_close(s.p999, 99900);
	/* The exact max bounds the top bucket's. */
	assert_true(s.max == 100000);
	free(v);
}

/* A bimodal latency: 99% fast, 1% slow; p99.9 lands in the slow mode. */
static void test_percentiles_bimodal(void **state)
{
	uint64_t v[1000];
	struct bc_hist_stats s;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		v[i] = i < 990 ? 100 : 1000000;
	stats_of(v, 1000, &s);
	assert_true(s.p50 == 100);
	assert_true(s.p90 == 100);
	assert_true(s.p99 == 100);
	assert_close(s.p999, 1000000);
	assert_true(s.max == 1000000);

	/* Empty: nothing to report, NaN not zero. */
	stats_of(v, 0, &s);
	assert_int_equal(s.count, 0);
	assert_true(isnan(s.p50) && isnan(s.max));
}

/* Shards (producers, consumers, shared) merge into one interval, and each
 * collect returns only what came since the previous one. */
static void test_merge_shards(void **state)
{
	struct bc_thread p0 = { .sz = sizeof(p0), .idx = 0 }, p1 = { .sz = sizeof(p1), .idx = 1 };
	struct bc_thread c0 = { .sz = sizeof(c0), .idx = 0, .consumer = true };
	struct bc_thread stray = { .sz = sizeof(stray), .idx = 7 };
	struct bc_hist *h = bc_hist_new(2, 1);
	struct bc_hist_interval iv;
	uint64_t *dense = calloc(BC_HIST_BUCKETS, sizeof(*dense));
	struct bc_hist_stats s;

	(void)state;
	assert_non_null(h);
	assert_non_null(dense);
	bc_hist_record(h, &p0, 10);
	bc_hist_record(h, &p1, 10);
	bc_hist_record(h, &c0, 20);
	bc_hist_record(h, NULL, 30);
	bc_hist_record(h, &stray, 40);	/* no shard of its own: the shared one */
	bc_hist_record(NULL, &p0, 1);	/* no histogram: ignored */
	assert_int_equal(bc_hist_collect(h, &iv), 0);
	assert_int_equal(iv.n, 4);
	assert_int_equal(iv.idx[0], 10);
	assert_int_equal(iv.cnt[0], 2);
	assert_true(iv.max_seen == 40);
	bc_hist_interval_add(dense, &iv);
	bc_hist_interval_free(&iv);

	bc_hist_record(h, &p1, 5000);
	assert_int_equal(bc_hist_collect(h, &iv), 0);
	assert_int_equal(iv.n, 1);
	assert_int_equal(iv.cnt[0], 1);
	bc_hist_interval_add(dense, &iv);
	bc_hist_stats_dense(dense, iv.max_seen, &s);
	assert_int_equal(s.count, 6);
	assert_true(s.p50 == 20);
	assert_true(s.max == 5000);
	bc_hist_interval_free(&iv);

	/* Nothing new: an empty interval. */
	assert_int_equal(bc_hist_collect(h, &iv), 0);
	assert_int_equal(iv.n, 0);
	bc_hist_interval_free(&iv);
	bc_hist_free(h);
	free(dense);
}

#define THREADS 4
#define PER_THREAD 200000

struct rec_arg {
	struct bc_hist *h;
	struct bc_thread t;
	bool shared;
};

static void *recorder(void *p)
{
	struct rec_arg *a = p;
	uint64_t i;

	for (i = 0; i < PER_THREAD; i++)
		bc_hist_record(a->h, a->shared ? NULL : &a->t, i % 1000);
	return NULL;
}

/* Own shards and the shared one at once, while the sampler collects: no
 * recording lost or counted twice. */
static void collect_into(struct bc_hist *h, uint64_t *total, uint64_t *per_value)
{
	struct bc_hist_interval iv;

	assert_int_equal(bc_hist_collect(h, &iv), 0);
	for (size_t k = 0; k < iv.n; k++) {
		assert_true(iv.idx[k] < 1000);
		*total += iv.cnt[k];
		per_value[iv.idx[k]] += iv.cnt[k];
	}
	bc_hist_interval_free(&iv);
}

/* The bucket a BPF program computes (<benchcore/bpf_hist.h>, no clz) is
 * the core's, at every power of two and either side of it. */
static void test_bpf_bucket_same(void **state)
{
	unsigned int e;
	uint64_t v, d;

	(void)state;
	for (v = 0; v < 4096; v++)
		assert_int_equal(bc_hist_bucket_of(v), bc_hist_bucket(v));
	for (e = 7; e < 64; e++)
		for (d = 0; d < 3; d++) {
			v = 1ULL << e;
			assert_int_equal(bc_hist_bucket_of(v - d), bc_hist_bucket(v - d));
			assert_int_equal(bc_hist_bucket_of(v + d), bc_hist_bucket(v + d));
			v |= v - 1;	/* all ones up to bit e */
			assert_int_equal(bc_hist_bucket_of(v), bc_hist_bucket(v));
		}
	assert_int_equal(bc_hist_bucket_of(UINT64_MAX), BC_HIST_BUCKETS - 1);
}

/* Totals a BPF map holds are merged with the shards: each collect returns
 * what either side added since the last one, and the larger max. */
static void test_bpf_totals_merge(void **state)
{
	struct bc_thread t = { .sz = sizeof(t), .idx = 0 };
	struct bc_hist_interval iv;
	uint64_t *totals;
	struct bc_hist *h;

	(void)state;
	totals = calloc(BC_HIST_BUCKETS, sizeof(*totals));
	h = bc_hist_new(1, 0);
	assert_non_null(totals);
	assert_non_null(h);
	bc_hist_record(h, &t, 100);
	totals[bc_hist_bucket(100)] = 2;
	totals[bc_hist_bucket(5000)] = 1;
	assert_int_equal(bc_hist_set_bpf(h, totals, 5000), 0);
	assert_int_equal(bc_hist_collect(h, &iv), 0);
	assert_int_equal(iv.n, 2);
	assert_int_equal(iv.idx[0], bc_hist_bucket(100));
	assert_int_equal(iv.cnt[0], 3);
	assert_int_equal(iv.cnt[1], 1);
	assert_int_equal(iv.max_seen, 5000);
	bc_hist_interval_free(&iv);

	/* Only what is new: one more from BPF. */
	totals[bc_hist_bucket(5000)] = 2;
	assert_int_equal(bc_hist_set_bpf(h, totals, 5000), 0);
	assert_int_equal(bc_hist_collect(h, &iv), 0);
	assert_int_equal(iv.n, 1);
	assert_int_equal(iv.idx[0], bc_hist_bucket(5000));
	assert_int_equal(iv.cnt[0], 1);
	bc_hist_interval_free(&iv);
	bc_hist_free(h);
	free(totals);
}

static void test_concurrent_exact(void **state)
{
	struct bc_hist *h = bc_hist_new(THREADS, 0);
	struct rec_arg args[2 * THREADS];
	pthread_t th[2 * THREADS];
	uint64_t total = 0, per_value[1000] = { 0 }, expect[1000] = { 0 };
	int i;

	(void)state;
	assert_non_null(h);
	for (i = 0; i < 2 * THREADS; i++) {
		args[i].h = h;
		memset(&args[i].t, 0, sizeof(args[i].t));
		args[i].t.sz = sizeof(args[i].t);
		args[i].t.idx = (unsigned int)(i % THREADS);
		args[i].shared = i >= THREADS;
		assert_int_equal(pthread_create(&th[i], NULL, recorder, &args[i]), 0);
	}
	/* Collect while they record, then once more after they are done. */
	for (i = 0; i < 50; i++) {
		collect_into(h, &total, per_value);
		sched_yield();
	}
	for (i = 0; i < 2 * THREADS; i++)
		pthread_join(th[i], NULL);
	collect_into(h, &total, per_value);
	assert_true(total == (uint64_t)2 * THREADS * PER_THREAD);
	/* per_value is by bucket: values 128 and up share theirs. */
	for (i = 0; i < 1000; i++)
		expect[bc_hist_bucket((uint64_t)i)] += (uint64_t)2 * THREADS * (PER_THREAD / 1000);
	for (i = 0; i < 1000; i++)
		assert_true(per_value[i] == expect[i]);
	bc_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_bimodal),
		cmocka_unit_test(test_merge_shards),
		cmocka_unit_test(test_bpf_bucket_same),
		cmocka_unit_test(test_bpf_totals_merge),
		cmocka_unit_test(test_concurrent_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
