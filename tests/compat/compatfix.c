// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plugin whose numbers depend only on how many times measure() was
 * called, so that a text run and a JSON run of one configuration print the
 * same figures: what a script reads from the text can then be checked
 * against the JSON, number for number. One benchmark per line shape of the
 * kernel runner (hits/drops, ops, local-storage, false-hits), and every
 * extra line benchcore prints (attach point, spread, CPU, histogram), so
 * that the test sees them where a script would trip over them.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <benchcore/benchcore.h>

struct cf_state {
	unsigned int calls;	/* measure() calls so far, the baseline's included */
	double totals[3];	/* cf-share's counters */
	struct bc_hist *hist;	/* the "wait_ns" histogram, where declared */
};

static int cf_setup(struct bc_ctx *ctx)
{
	struct cf_state *st = calloc(1, sizeof(*st));

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->hist = bc_ctx_hist(ctx, "wait_ns");
	/* Printed before the first Iter line; a script must not see it. */
	bc_ctx_set_attach_point(ctx, "fixture: nothing attached");
	return 0;
}

static void cf_teardown(struct bc_ctx *ctx)
{
	free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

/* Producers only wait: the numbers come from measure(). */
static int cf_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct timespec ms = { .tv_nsec = 1000 * 1000 };

	(void)ctx;
	while (!bc_thread_should_stop(t))
		nanosleep(&ms, NULL);
	return 0;
}

/* 1, 1.25, 1.5, 1, ...: a spread, so no stddev is zero. */
static double cf_step(const struct cf_state *st)
{
	return 1.0 + 0.25 * (st->calls % 3);
}

/* Rates are gauges (taken as they are, not divided by the interval's
 * length), so they do not depend on when a tick woke. */
static int cf_measure(struct bc_ctx *ctx, double *values)
{
	struct cf_state *st = bc_ctx_data(ctx);

	st->calls++;
	values[0] = 3.0e6 * cf_step(st);
	values[1] = 0.4e6 * (1 + st->calls % 2);
	if (st->hist)
		bc_hist_record(st->hist, NULL, 1000 * st->calls);
	return 0;
}

/*
 * The false-hits lines count events, not rates: counters, whose events per
 * interval are the steps below whenever the tick woke (a gauge's would be
 * its value times the interval's length).
 */
static int cf_measure_share(struct bc_ctx *ctx, double *values)
{
	struct cf_state *st = bc_ctx_data(ctx);

	st->calls++;
	st->totals[0] += 6;			/* hits */
	st->totals[1] += st->calls % 2;		/* drops */
	st->totals[2] += 1 + st->calls % 3;	/* false hits */
	for (int i = 0; i < 3; i++)
		values[i] = st->totals[i];
	return 0;
}

static const struct bc_metric_desc cf_hits_metrics[] = {
	BC_METRIC("hits", "records", BC_METRIC_GAUGE, .role = BC_ROLE_HITS),
	BC_METRIC("drops", "records", BC_METRIC_GAUGE, .role = BC_ROLE_DROPS),
	BC_METRIC("wait_ns", "ns", BC_METRIC_HISTOGRAM),
};

static const struct bc_metric_desc cf_ops_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_OPS),
	BC_METRIC("runs", "runs", BC_METRIC_GAUGE),
};

static const struct bc_metric_desc cf_ls_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_OPS),
	BC_METRIC("important_hits", "ops", BC_METRIC_GAUGE, .role = BC_ROLE_RATE),
};

static const struct bc_metric_desc cf_share_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS),
	BC_METRIC("false_hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_SHARE,
		  .label = "false hits"),
};

#define CF_BENCH(name_, metrics_, measure_)                                        \
	{                                                                          \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),               \
		.runner_name = true,                                               \
		.description = "deterministic numbers in a runner line shape",     \
		.producers = BC_THREADS(1, 4, 1), .consumers = BC_THREADS(0, 0, 0), \
		.metrics = (metrics_),                                             \
		.metric_cnt = sizeof(metrics_) / sizeof((metrics_)[0]),            \
		.setup = cf_setup, .producer = cf_producer, .measure = (measure_),  \
		.teardown = cf_teardown,                                           \
	}

static const struct bc_bench_desc cf_hits = CF_BENCH("cf-hits", cf_hits_metrics, cf_measure);
static const struct bc_bench_desc cf_ops = CF_BENCH("cf-ops", cf_ops_metrics, cf_measure);
static const struct bc_bench_desc cf_ls = CF_BENCH("cf-ls", cf_ls_metrics, cf_measure);
static const struct bc_bench_desc cf_share =
	CF_BENCH("cf-share", cf_share_metrics, cf_measure_share);

static const struct bc_bench_desc *const cf_benches[] = {
	&cf_hits, &cf_ops, &cf_ls, &cf_share, NULL,
};

BENCHCORE_PLUGIN(.name = "compatfix", .version = "1.0",
		 .description = "deterministic numbers in the kernel runner's line shapes",
		 .benches = cf_benches);
