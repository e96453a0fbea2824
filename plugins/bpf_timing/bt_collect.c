// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reading the batch timings back: calibration of the batch size, the
 * running totals, and draining the per-CPU rings into the histogram.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt_internal.h"

#define BT_SEED_BATCH 100
#define BT_MIN_BATCH 100
#define BT_MAX_BATCH 10000000
#define BT_TARGET_NS (10ull * 1000 * 1000)
#define BT_CAL_RUNS 5
#define BT_PROPORTION_TOL 0.05

int bt_measure(struct bc_ctx *ctx, struct bt_collect *c, double *values)
{
	uint64_t ns, ops;
	int err;

	bt_collect_drain(c, &ns, &ops);
	err = bc_metric_set(ctx, values, "op_ns", (double)ns);
	return err ? err : bc_metric_set(ctx, values, "ops", (double)ops);
}

int bt_produce(struct bc_ctx *ctx, struct bc_thread *t, bt_run_fn run, void *cookie)
{
	struct bc_line_counter *runs = bc_thread_counter(ctx, t, "runs");
	int err;

	while (!bc_thread_should_stop(t)) {
		err = run(cookie);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN failed: %s", bc_strerror(err));
		bc_counter_add(runs, 1);
	}
	return 0;
}

int bt_collect_init(struct bt_collect *c, const struct bt_timing_vars *v)
{
	memset(c, 0, sizeof(*c));
	c->v = *v;
	c->batch = 1;
	c->tails = calloc(v->cpu_slots, sizeof(*c->tails));
	return c->tails ? 0 : -ENOMEM;
}

void bt_collect_free(struct bt_collect *c)
{
	free(c->tails);
	c->tails = NULL;
	free(c->raw);
	c->raw = NULL;
	c->raw_cnt = c->raw_cap = 0;
}

/* Sampling thread only; a batch every ~10 ms per producer, so growth is
 * rare and the array stays small (a 600 s run: ~60,000 values). */
static void bt_keep_raw(struct bt_collect *c, double v)
{
	if (c->raw_cnt == c->raw_cap) {
		size_t cap = c->raw_cap ? c->raw_cap * 2 : 1024;
		double *grown = realloc(c->raw, cap * sizeof(*grown));

		if (!grown) {
			c->raw_oom = true;
			return;
		}
		c->raw = grown;
		c->raw_cap = cap;
	}
	c->raw[c->raw_cnt++] = v;
}

static uint64_t bt_sum(const struct bc_line_counter *slots, size_t n)
{
	return bc_line_counters_sum(slots, n);
}

void bt_collect_restart(struct bt_collect *c)
{
	for (size_t cpu = 0; cpu < c->v.cpu_slots; cpu++) {
		uint64_t head = __atomic_load_n(&c->v.heads[cpu].value, __ATOMIC_ACQUIRE);

		for (uint64_t t = head > BT_RING_LEN ? head - BT_RING_LEN : 0; t < head; t++)
			c->v.ring[cpu][t & (BT_RING_LEN - 1)] = 0;
		c->tails[cpu] = head;
	}
	c->base_ns = bt_sum(c->v.ns, c->v.cpu_slots);
	c->base_ops = bt_sum(c->v.ops, c->v.cpu_slots);
	c->lost = 0;
}

void bt_collect_drain(struct bt_collect *c, uint64_t *ns, uint64_t *ops)
{
	for (size_t cpu = 0; cpu < c->v.cpu_slots; cpu++) {
		uint64_t head = __atomic_load_n(&c->v.heads[cpu].value, __ATOMIC_ACQUIRE);
		uint64_t t = c->tails[cpu];

		if (head - t > BT_RING_LEN) {
			c->lost += head - t - BT_RING_LEN;
			t = head - BT_RING_LEN;
		}
		for (; t < head; t++) {
			__u64 *slot = &c->v.ring[cpu][t & (BT_RING_LEN - 1)];
			uint64_t v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

			/* Reserved but not written yet: next tick. */
			if (!v)
				break;
			__atomic_store_n(slot, 0, __ATOMIC_RELAXED);
			if (c->hist)
				bc_hist_record(c->hist, NULL, v * 1000 / c->batch);
			if (c->keep_raw)
				bt_keep_raw(c, (double)v / c->batch);
		}
		c->tails[cpu] = t;
	}
	*ns = bt_sum(c->v.ns, c->v.cpu_slots) - c->base_ns;
	*ops = bt_sum(c->v.ops, c->v.cpu_slots) - c->base_ops;
}

static int bt_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int bt_result_line(struct bc_ctx *ctx, struct bt_collect *c, const char *scenario)
{
	double *v = c->raw, lo, hi, iqr, sum = 0, var = 0, mean, sd;
	size_t n = c->raw_cnt, start = 0, end = n, i, p99;

	if (c->raw_oom)
		bc_warn("%s: out of memory keeping the batches' times: the RESULT line covers "
			"the %zu kept", bc_ctx_bench_name(ctx), n);
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bt_cmp_double);
	/* The runner's outlier filter: Tukey's fences on the quartiles, only
	 * once there are 8 batches to have quartiles of. */
	if (n >= 8) {
		iqr = v[3 * n / 4] - v[n / 4];
		lo = v[n / 4] - 1.5 * iqr;
		hi = v[3 * n / 4] + 1.5 * iqr;
		while (start < end && v[start] < lo)
			start++;
		while (end > start && v[end - 1] > hi)
			end--;
		v += start;
		n = end - start;
	}
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	sd = n > 1 ? sqrt(var / (n - 1)) : 0;
	p99 = (size_t)(n * 99 / 100.0);
	if (p99 >= n)
		p99 = n - 1;
	return bc_ctx_final_line(ctx, "RESULT scenario=%s samples=%zu median=%.2f stddev=%.2f "
				 "cv=%.2f min=%.2f p99=%.2f max=%.2f", scenario, n, v[n / 2], sd,
				 mean > 0 ? sd / mean * 100.0 : 0.0, v[0], v[p99], v[n - 1]);
}

static int bt_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median time of BT_CAL_RUNS runs of `iters` iterations, in ns. */
static int bt_time_runs(struct bt_collect *c, uint32_t iters, bt_run_fn run, void *cookie,
			uint64_t *median)
{
	uint64_t t[BT_CAL_RUNS];

	*c->v.batch_iters = iters;
	for (int i = 0; i < BT_CAL_RUNS; i++) {
		uint64_t before = bt_sum(c->v.ns, c->v.cpu_slots);
		int err = run(cookie);

		if (err)
			return err;
		t[i] = bt_sum(c->v.ns, c->v.cpu_slots) - before;
	}
	qsort(t, BT_CAL_RUNS, sizeof(t[0]), bt_cmp_u64);
	*median = t[BT_CAL_RUNS / 2];
	return 0;
}

int bt_calibrate(struct bc_ctx *ctx, struct bt_collect *c, uint32_t fixed, bt_run_fn run,
		 void *cookie)
{
	uint64_t seed, t1, t2, per_op;
	double ratio;
	int err;

	if (fixed) {
		c->batch = fixed;
		goto done;
	}
	err = bt_time_runs(c, BT_SEED_BATCH, run, cookie, &seed);
	if (err)
		return bc_error(ctx, err, "calibration run failed: %s", bc_strerror(err));
	per_op = seed / BT_SEED_BATCH;
	/* Under a nanosecond an iteration: the runner then stays at the
	 * smallest batch, and so does this. */
	if (!per_op)
		c->batch = BT_MIN_BATCH;
	else if (BT_TARGET_NS / per_op < BT_MIN_BATCH)
		c->batch = BT_MIN_BATCH;
	else if (BT_TARGET_NS / per_op > BT_MAX_BATCH)
		c->batch = BT_MAX_BATCH;
	else
		c->batch = (uint32_t)(BT_TARGET_NS / per_op);

	err = bt_time_runs(c, c->batch, run, cookie, &t1);
	if (!err)
		err = bt_time_runs(c, c->batch * 2, run, cookie, &t2);
	if (err)
		return bc_error(ctx, err, "calibration run failed: %s", bc_strerror(err));
	ratio = t1 ? (double)t2 / (double)t1 : 0;
	if (fabs(ratio - 2.0) / 2.0 > BT_PROPORTION_TOL)
		bc_ctx_log(ctx, BC_LOG_WARN, "%u and %u iterations took %.3f and %.3f ms (ratio %.3f, expected "
			   "2.000): the machine is noisy, the timings will be too", c->batch, c->batch * 2, t1 / 1e6, t2 / 1e6, ratio);
	bc_ctx_log(ctx, BC_LOG_INFO, "%u iterations per batch (~%.1f ms)", c->batch, t1 / 1e6);
done:
	*c->v.batch_iters = c->batch;
	bt_collect_restart(c);
	return 0;
}

int bt_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "in-BPF %8.3lf ns/op, %8.3lf M ops/s timed", rates[BT_METRIC_OP_NS],
		 rates[BT_METRIC_OPS] / 1e6);
	return 0;
}

int bt_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
		      char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "in-BPF time %8.3lf \u00b1 %5.3lf ns/op, %8.3lf M ops/s timed",
		 means[BT_METRIC_OP_NS], stddevs[BT_METRIC_OP_NS], means[BT_METRIC_OPS] / 1e6);
	return 0;
}
