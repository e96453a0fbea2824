// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One source, many fixture plugins: tests/loader/CMakeLists.txt builds it
 * once per FIX_* variant, each a plugin the loader must load or refuse.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <benchcore/benchcore.h>

#ifndef FIX_NAME
#define FIX_NAME "fixture"
#endif
#ifndef FIX_ABI_MAJOR
#define FIX_ABI_MAJOR BC_ABI_MAJOR
#endif
#ifndef FIX_ABI_MINOR
#define FIX_ABI_MINOR BC_ABI_MINOR
#endif

static uint64_t fix_hits;

static int fix_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	while (!bc_thread_should_stop(t))
		__atomic_add_fetch(&fix_hits, 1, __ATOMIC_RELAXED);
	return 0;
}

static int fix_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = (double)__atomic_load_n(&fix_hits, __ATOMIC_RELAXED);
	return 0;
}

/* Overriding a field of FIX_BENCH() is how a variant is made. */
#pragma GCC diagnostic ignored "-Woverride-init"

static __attribute__((unused)) int fix_setup_fails(struct bc_ctx *ctx)
{
	return bc_error(ctx, -ENOSPC, "fixture setup fails on purpose");
}

static __attribute__((unused)) int fix_unavailable(struct bc_ctx *ctx)
{
	return bc_unavailable(ctx, "fixture needs a kernel feature nobody has");
}

static const struct bc_metric_desc fix_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
};

#define FIX_BENCH(name_, ...)                                                          \
	{                                                                              \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),                   \
		.description = "fixture " name_, .producers = { 1, 0, 1 },            \
		.metrics = fix_metrics, .metric_cnt = 1, .producer = fix_producer,    \
		.measure = fix_measure, __VA_ARGS__                                    \
	}

#if defined(FIX_OLD_SIZE)
/*
 * A plugin built against an older minor: its bench descriptor ends before
 * format_iter/format_summary, and sz says so.
 */
struct fix_old_bench_desc {
	size_t sz;
	const char *name;
	const char *description;
	struct bc_thread_range producers;
	struct bc_thread_range consumers;
	const struct bc_metric_desc *metrics;
	unsigned int metric_cnt;
	enum bc_report_layout layout;
	int (*probe)(struct bc_ctx *ctx);
	int (*validate)(struct bc_ctx *ctx);
	int (*setup)(struct bc_ctx *ctx);
	int (*producer)(struct bc_ctx *ctx, struct bc_thread *t);
	int (*consumer)(struct bc_ctx *ctx, struct bc_thread *t);
	int (*measure)(struct bc_ctx *ctx, double *values);
	void (*teardown)(struct bc_ctx *ctx);
};

static const struct fix_old_bench_desc fix_old = {
	.sz = sizeof(struct fix_old_bench_desc), .name = "old-size",
	.description = "fixture built against an older, smaller descriptor",
	.producers = { 1, 0, 1 }, .metrics = fix_metrics, .metric_cnt = 1,
	.producer = fix_producer, .measure = fix_measure,
};

static const struct bc_bench_desc *const fix_benches[] = {
	(const struct bc_bench_desc *)&fix_old, NULL
};
#elif defined(FIX_BIG_SIZE)
/* A newer minor's descriptor that appends a field: accepted while the new
 * field is zero (FIX_BIG_SIZE=0), refused when it is set. */
struct fix_big_bench_desc {
	struct bc_bench_desc base;
	uint64_t newer_field;
};

static const struct fix_big_bench_desc fix_big = {
	.base = FIX_BENCH("big-size", .sz = sizeof(struct fix_big_bench_desc)),
	.newer_field = FIX_BIG_SIZE,
};

static const struct bc_bench_desc *const fix_benches[] = { &fix_big.base, NULL };
#elif defined(FIX_DUP)
static const struct bc_bench_desc fix_a = FIX_BENCH("same");
static const struct bc_bench_desc fix_b = FIX_BENCH("same");
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, &fix_b, NULL };
#elif defined(FIX_EMPTY_NAME)
static const struct bc_bench_desc fix_a = FIX_BENCH("");
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL };
#elif defined(FIX_NO_MEASURE)
static const struct bc_bench_desc fix_a = FIX_BENCH("no-measure", .measure = NULL);
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL };
#elif defined(FIX_NULL_METRICS)
static const struct bc_bench_desc fix_a = FIX_BENCH("null-metrics", .metrics = NULL);
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL };
#else
/* The valid plugin: a plain benchmark, one whose setup fails, one that is
 * unavailable, and one shared with the "other" fixture (ambiguous). */
static const struct bc_bench_desc fix_ok = FIX_BENCH("ok");
static const struct bc_bench_desc fix_fail = FIX_BENCH("setup-fails", .setup = fix_setup_fails);
static const struct bc_bench_desc fix_unavail = FIX_BENCH("unavailable", .probe = fix_unavailable);
static const struct bc_bench_desc fix_shared = FIX_BENCH("shared");
static const struct bc_bench_desc *const fix_benches[] = {
	&fix_ok, &fix_fail, &fix_unavail, &fix_shared, NULL
};
#endif

#ifdef FIX_NO_SYMBOL
/* Exported under the wrong name: a shared object, but not a plugin. */
BC_API const struct bc_plugin_desc not_benchcore_plugin = {
	.sz = sizeof(struct bc_plugin_desc), .abi_major = BC_ABI_MAJOR,
	.abi_minor = BC_ABI_MINOR, .name = FIX_NAME, .version = "1", .benches = fix_benches,
};
#else
BC_API extern const struct bc_plugin_desc benchcore_plugin;
BC_API const struct bc_plugin_desc benchcore_plugin = {
	.sz = sizeof(struct bc_plugin_desc), .abi_major = FIX_ABI_MAJOR,
	.abi_minor = FIX_ABI_MINOR, .name = FIX_NAME, .version = "1.0",
	.description = "loader test fixture", .benches = fix_benches,
};
#endif
