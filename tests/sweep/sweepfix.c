// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A fixture plugin for the sweep tests, loaded with --plugin-dir: a counting
 * benchmark whose validate() refuses one value (a combination that fails
 * validation), one whose setup() never returns (the per-run timeout), one
 * that crashes in setup() and one that is unavailable.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <benchcore/benchcore.h>

/* Options as data: each run gets its own copy (bc_ctx_opts()). */
struct fix_opts {
	int64_t value;
};

static const struct bc_option fix_options[] = {
	BC_OPT_INT(struct fix_opts, value, "fix-value", .def = "0",
		   .help = "Any number; 13 is refused by validate()"),
};

struct fix_state {
	struct bc_line_counter *hits;
};

static int fix_validate(struct bc_ctx *ctx)
{
	const struct fix_opts *o = bc_ctx_opts(ctx);

	if (o->value == 13 || o->value < 0)
		return bc_usage_error(ctx, "--fix-value '%lld': 13 and negative values are refused",
				      (long long)o->value);
	return 0;
}

static int fix_setup(struct bc_ctx *ctx)
{
	struct fix_state *st = calloc(1, sizeof(*st));

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->hits = bc_line_counters_alloc(bc_ctx_producer_cnt(ctx));
	if (!st->hits) {
		free(st);
		return bc_error(ctx, -ENOMEM, "out of memory");
	}
	bc_ctx_set_data(ctx, st);
	return 0;
}

static int fix_hang_setup(struct bc_ctx *ctx)
{
	(void)ctx;
	/* Ignores SIGTERM's polite request if the core catches it. */
	for (;;)
		pause();
	return 0;
}

static int fix_crash_setup(struct bc_ctx *ctx)
{
	(void)ctx;
	abort();
	return 0;
}

static int fix_unavailable_probe(struct bc_ctx *ctx)
{
	return bc_unavailable(ctx, "the fixture is never available");
}

static int fix_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct fix_state *st = bc_ctx_data(ctx);

	while (!bc_thread_should_stop(t))
		__atomic_add_fetch(&st->hits[t->idx].value, 1, __ATOMIC_RELAXED);
	return 0;
}

static int fix_measure(struct bc_ctx *ctx, double *values)
{
	struct fix_state *st = bc_ctx_data(ctx);

	values[0] = (double)bc_line_counters_sum(st->hits, bc_ctx_producer_cnt(ctx));
	return 0;
}

static void fix_teardown(struct bc_ctx *ctx)
{
	struct fix_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	free(st->hits);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc fix_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
};

#define FIX_BENCH(name_, desc_, ...)                                               \
	{                                                                          \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),               \
		.description = (desc_), .producers = BC_THREADS(1, 0, 1),          \
		.consumers = BC_THREADS(0, 0, 0), .metrics = fix_metrics,          \
		.metric_cnt = 1, .validate = fix_validate,                         \
		.producer = fix_producer, .measure = fix_measure,                  \
		.teardown = fix_teardown, __VA_ARGS__                              \
	}

static const struct bc_bench_desc fix_ok = FIX_BENCH("fix-ok", "counts in user space",
						     .setup = fix_setup);
static const struct bc_bench_desc fix_hang = FIX_BENCH("fix-hang", "setup never returns",
						       .setup = fix_hang_setup);
static const struct bc_bench_desc fix_crash = FIX_BENCH("fix-crash", "setup aborts",
							.setup = fix_crash_setup);
static const struct bc_bench_desc fix_unavail = FIX_BENCH("fix-unavailable", "never available",
							  .setup = fix_setup,
							  .probe = fix_unavailable_probe);

static const struct bc_bench_desc *const fix_benches[] = {
	&fix_ok, &fix_hang, &fix_crash, &fix_unavail, NULL,
};

BENCHCORE_PLUGIN(.name = "sweepfix", .version = "1.0",
		 .description = "fixtures for the sweep tests", .options = fix_options,
		 .option_cnt = sizeof(fix_options) / sizeof(fix_options[0]),
		 .opts_size = sizeof(struct fix_opts), .benches = fix_benches);
