// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A fixture plugin for the ABI policy test, compiled several times against
 * copies of the public headers that pretend to be another ABI version (see
 * tests/sdk/CMakeLists.txt). It uses only fields every variant has, so the
 * same source builds against an older, the current and a newer header; with
 * ABI_FIXTURE_SET_<STRUCT> it sets the member the newer header appends to
 * that struct, which the current core does not know.
 *
 * The benchmark is a plain counting loop, so loading and running it needs
 * no BPF: what is under test is the loader's handling of the descriptors.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <benchcore/benchcore.h>

#ifndef ABI_FIXTURE_NAME
#error "ABI_FIXTURE_NAME must name the plugin"
#endif

#ifdef ABI_FIXTURE_SET_PLUGIN
#define SET_PLUGIN .future_field = 1,
#else
#define SET_PLUGIN
#endif
#ifdef ABI_FIXTURE_SET_BENCH
#define SET_BENCH .future_field = 1,
#else
#define SET_BENCH
#endif
#ifdef ABI_FIXTURE_SET_METRIC
#define SET_METRIC .future_field = 1,
#else
#define SET_METRIC
#endif
#ifdef ABI_FIXTURE_SET_OPTION
#define SET_OPTION .future_field = 1,
#else
#define SET_OPTION
#endif
#ifdef ABI_FIXTURE_SET_RANGE
#define SET_RANGE .future_field = 1,
#else
#define SET_RANGE
#endif

struct spin_opts {
	int64_t batch;
};

/* Handed back through the core's copy of the descriptor: a copy that moved
 * a field would not find it. */
static const int spin_priv = 42;

struct spin_state {
	struct bc_line_counter *counters;
	unsigned int cnt;
};

static int spin_setup(struct bc_ctx *ctx)
{
	struct spin_state *st;

	if (bc_ctx_bench_priv(ctx) != &spin_priv)
		return bc_error(ctx, -EINVAL, "priv did not come back");
	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->cnt = bc_ctx_producer_cnt(ctx);
	st->counters = bc_line_counters_alloc(st->cnt);
	if (!st->counters)
		return bc_error(ctx, -ENOMEM, "out of memory");
	return 0;
}

static int spin_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct spin_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *c = &st->counters[t->idx];

	while (!bc_thread_should_stop(t))
		__atomic_store_n(&c->value, c->value + 1, __ATOMIC_RELAXED);
	return 0;
}

static int spin_measure(struct bc_ctx *ctx, double *values)
{
	struct spin_state *st = bc_ctx_data(ctx);

	values[0] = (double)bc_line_counters_sum(st->counters, st->cnt);
	return 0;
}

static void spin_teardown(struct bc_ctx *ctx)
{
	struct spin_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	free(st->counters);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc spin_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, SET_METRIC),
};

static const struct bc_option spin_options[] = {
	BC_OPT_INT(struct spin_opts, batch, "spin-batch", .def = "1", .min = 1, .max = 64,
		   .help = "unused: declared so that the option table is read", SET_OPTION),
};

static const struct bc_bench_desc spin_bench = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "spin",
	.description = "ABI fixture: a counting loop",
	.producers = { .sz = sizeof(struct bc_thread_range), .min = 1, .max = 0, .def = 1,
		       SET_RANGE },
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = spin_metrics,
	.metric_cnt = 1,
	.priv = &spin_priv,
	.setup = spin_setup,
	.producer = spin_producer,
	.measure = spin_measure,
	.teardown = spin_teardown,
	SET_BENCH
};

static const struct bc_bench_desc *const spin_benches[] = {
	&spin_bench,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = ABI_FIXTURE_NAME,
	.version = "1.0",
	.description = "ABI policy fixture",
	.options = spin_options,
	.option_cnt = 1,
	.opts_size = sizeof(struct spin_opts),
	.benches = spin_benches,
	SET_PLUGIN
);
