// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plugin whose numbers depend only on how many times measure() was
 * called, never on timing: gauges and ratios of counters that step the
 * same way in every run. So two runs of one configuration, one by `run` and
 * one by a sweep, must print identical figures; any difference is a second
 * formula somewhere. One benchmark per role combination.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <benchcore/benchcore.h>

struct fig_state {
	unsigned int calls;	/* measure() calls so far, the baseline's included */
	double gp_ct, gp_ns;	/* the latency benchmark's totals */
};

static int fig_setup(struct bc_ctx *ctx)
{
	struct fig_state *st = calloc(1, sizeof(*st));

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	return 0;
}

static void fig_teardown(struct bc_ctx *ctx)
{
	free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

/* Producers only wait: the numbers come from measure(). */
static int fig_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct timespec ms = { .tv_nsec = 1000 * 1000 };

	(void)ctx;
	while (!bc_thread_should_stop(t))
		nanosleep(&ms, NULL);
	return 0;
}

/* 1, 1.25, 1.5, 1, ...: a spread, so stddev is not zero. */
static double fig_step(const struct fig_state *st)
{
	return 1.0 + 0.25 * (st->calls % 3);
}

static int fig_measure_rates(struct bc_ctx *ctx, double *values)
{
	struct fig_state *st = bc_ctx_data(ctx);

	st->calls++;
	values[0] = 2.0e6 * fig_step(st);
	values[1] = 0.3e6 * (1 + st->calls % 2);
	return 0;
}

static int fig_measure_latency(struct bc_ctx *ctx, double *values)
{
	struct fig_state *st = bc_ctx_data(ctx);

	st->calls++;
	st->gp_ct += 10;
	st->gp_ns += 10 * 500 * fig_step(st);
	values[0] = st->gp_ct;
	values[1] = st->gp_ns;
	return 0;
}

static const struct bc_metric_desc fig_ops_rate_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_OPS),
	BC_METRIC("important_hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_RATE),
};

static const struct bc_metric_desc fig_ops_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_OPS),
	BC_METRIC("runs", "runs", BC_METRIC_GAUGE),
};

static const struct bc_metric_desc fig_hits_metrics[] = {
	BC_METRIC("hits", "records", BC_METRIC_GAUGE, .role = BC_ROLE_HITS),
	BC_METRIC("drops", "records", BC_METRIC_GAUGE, .role = BC_ROLE_DROPS),
};

static const struct bc_metric_desc fig_latency_metrics[] = {
	BC_METRIC("gp_ct", "grace periods", BC_METRIC_COUNTER),
	BC_METRIC("gp_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_LATENCY, .per = "gp_ct",
		  .label = "fixture grace period latency"),
};

#define FIG_BENCH(name_, metrics_, measure_)                                       \
	{                                                                          \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),               \
		.runner_name = true,                                               \
		.description = "deterministic figures", .producers = BC_THREADS(1, 4, 2), \
		.consumers = BC_THREADS(0, 0, 0), .metrics = (metrics_),           \
		.metric_cnt = sizeof(metrics_) / sizeof((metrics_)[0]),            \
		.setup = fig_setup,                                                \
		.producer = fig_producer, .measure = (measure_),                   \
		.teardown = fig_teardown,                                          \
	}

static const struct bc_bench_desc fig_ops_rate =
	FIG_BENCH("fig-ops-rate", fig_ops_rate_metrics, fig_measure_rates);
static const struct bc_bench_desc fig_ops = FIG_BENCH("fig-ops", fig_ops_metrics, fig_measure_rates);
static const struct bc_bench_desc fig_hits =
	FIG_BENCH("fig-hits", fig_hits_metrics, fig_measure_rates);
static const struct bc_bench_desc fig_latency =
	FIG_BENCH("fig-latency", fig_latency_metrics, fig_measure_latency);

static const struct bc_bench_desc *const fig_benches[] = {
	&fig_ops_rate, &fig_ops, &fig_hits, &fig_latency, NULL,
};

BENCHCORE_PLUGIN(.name = "figfix", .version = "1.0",
		 .description = "deterministic figures for run-vs-sweep tests",
		 .benches = fig_benches);
