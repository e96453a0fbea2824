// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A fixture plugin for the ABI policy test, compiled several times against
 * copies of the public headers that pretend to be another ABI version (see
 * tests/sdk/CMakeLists.txt). It uses only fields every variant has, so the
 * same source builds against an older, the current and a newer header.
 *
 * The benchmark is a plain counting loop, so loading and running it needs
 * no BPF: what is under test is the loader's handling of the descriptor.
 */
#include <errno.h>
#include <stdlib.h>

#include <benchcore/benchcore.h>

#ifndef ABI_FIXTURE_NAME
#error "ABI_FIXTURE_NAME must name the plugin"
#endif

struct spin_state {
	struct bc_line_counter *counters;
	unsigned int cnt;
};

static int spin_setup(struct bc_ctx *ctx)
{
	struct spin_state *st = calloc(1, sizeof(*st));

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
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
};

static const struct bc_bench_desc spin_bench = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "spin",
	.description = "ABI fixture: a counting loop",
	.producers = { .min = 1, .max = 0, .def = 1 },
	.consumers = { .min = 0, .max = 0, .def = 0 },
	.metrics = spin_metrics,
	.metric_cnt = 1,
	.layout = BC_LAYOUT_OPS,
	.setup = spin_setup,
	.producer = spin_producer,
	.measure = spin_measure,
	.teardown = spin_teardown,
#ifdef ABI_FIXTURE_SET_FUTURE_FIELD
	/* A member the current core does not know, set. */
	.future_field = 1,
#endif
};

static const struct bc_bench_desc *const spin_benches[] = {
	&spin_bench,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = ABI_FIXTURE_NAME,
	.version = "1.0",
	.description = "ABI policy fixture",
	.benches = spin_benches,
);
