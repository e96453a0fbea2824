// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * count-global and count-local: the kernel bench runner's self-check.
 * Every producer increments one shared counter (count-global: the cache
 * line bounces between CPUs, so it must NOT scale with producers) or its own
 * counter on its own cache line (count-local: it must scale). If the two do
 * not diverge like that, the harness itself is the bottleneck.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <benchcore/benchcore.h>

#define COUNT_BATCH_MAX 1000000

/*
 * The plugin's options. argp hands them to the plugin outside any run, so
 * they live here; they are reset whenever a command line is parsed and
 * only read (never written) during a run.
 */
static struct {
	const char *batch_arg;	/* validated in validate(), with a ctx to report to */
} count_opts;

enum { COUNT_OPT_BATCH = 0x200 };

static const struct argp_option count_options[] = {
	{ "count-batch", COUNT_OPT_BATCH, "N", 0,
	  "Increments per loop iteration, between stop-flag checks (default 1, 1..1000000)", 0 },
	{ 0 },
};

static error_t count_parse_opt(int key, char *arg, struct argp_state *state)
{
	(void)state;
	switch (key) {
	case ARGP_KEY_INIT:
		memset(&count_opts, 0, sizeof(count_opts));
		return 0;
	case COUNT_OPT_BATCH:
		count_opts.batch_arg = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp count_argp = {
	.options = count_options,
	.parser = count_parse_opt,
};

struct count_state {
	/* count-global: every producer hits this one line. */
	struct bc_line_counter *global;
	/* count-local: one line per producer. */
	struct bc_line_counter *local;
	unsigned int producer_cnt;
	unsigned long batch;
};

static int count_parse_batch(struct bc_ctx *ctx, unsigned long *batch)
{
	const char *p, *arg = count_opts.batch_arg;
	unsigned long v = 0;

	*batch = 1;
	if (!arg)
		return 0;
	for (p = arg; *p >= '0' && *p <= '9' && v <= COUNT_BATCH_MAX; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (!*arg || *p || v < 1 || v > COUNT_BATCH_MAX)
		return bc_usage_error(ctx, "--count-batch '%s': expected a whole number from 1 to %d",
				      arg, COUNT_BATCH_MAX);
	*batch = v;
	return 0;
}

static int count_validate(struct bc_ctx *ctx)
{
	unsigned long batch;

	/* -c N > 0 is refused by the core before this: no consumer callback. */
	return count_parse_batch(ctx, &batch);
}

static int count_setup(struct bc_ctx *ctx)
{
	struct count_state *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);	/* teardown frees it, whatever happens next */
	err = count_parse_batch(ctx, &st->batch);
	if (err)
		return err;
	st->producer_cnt = bc_ctx_producer_cnt(ctx);
	st->global = bc_line_counters_alloc(1);
	st->local = bc_line_counters_alloc(st->producer_cnt ? st->producer_cnt : 1);
	if (!st->global || !st->local)
		return bc_error(ctx, -ENOMEM, "out of memory for %u counters", st->producer_cnt);
	return 0;
}

static int count_global_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct count_state *st = bc_ctx_data(ctx);
	uint64_t *hits = &st->global->value;
	unsigned long i, batch = st->batch;

	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < batch; i++)
			__atomic_add_fetch(hits, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int count_local_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct count_state *st = bc_ctx_data(ctx);
	uint64_t *hits = &st->local[t->idx].value;
	unsigned long i, batch = st->batch;

	/* Atomic like the global case, so the only difference measured is
	 * whether the line is shared; uncontended, it stays in this CPU's
	 * cache. */
	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < batch; i++)
			__atomic_add_fetch(hits, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int count_global_measure(struct bc_ctx *ctx, double *values)
{
	struct count_state *st = bc_ctx_data(ctx);

	values[0] = (double)__atomic_load_n(&st->global->value, __ATOMIC_RELAXED);
	return 0;
}

static int count_local_measure(struct bc_ctx *ctx, double *values)
{
	struct count_state *st = bc_ctx_data(ctx);
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < st->producer_cnt; i++)
		sum += __atomic_load_n(&st->local[i].value, __ATOMIC_RELAXED);
	values[0] = (double)sum;
	return 0;
}

static void count_teardown(struct bc_ctx *ctx)
{
	struct count_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	free(st->global);
	free(st->local);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc count_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
};

#define COUNT_BENCH(name_, desc_, producer_, measure_)                                  \
	{                                                                              \
		.sz = sizeof(struct bc_bench_desc), .name = (name_), .description = (desc_), \
		.producers = { .min = 1, .max = 0, .def = 1 },                         \
		.consumers = { .min = 0, .max = 0, .def = 0 },                         \
		.metrics = count_metrics, .metric_cnt = 1, .layout = BC_LAYOUT_HITS_DROPS, \
		.validate = count_validate, .setup = count_setup, .producer = (producer_), \
		.measure = (measure_), .teardown = count_teardown,                     \
	}

static const struct bc_bench_desc count_global = COUNT_BENCH(
	"count-global", "every producer atomically increments one shared counter (must not scale)",
	count_global_producer, count_global_measure);

static const struct bc_bench_desc count_local = COUNT_BENCH(
	"count-local", "every producer increments its own counter on its own cache line (must scale)",
	count_local_producer, count_local_measure);

static const struct bc_bench_desc *const count_benches[] = { &count_global, &count_local, NULL };

BENCHCORE_PLUGIN(.name = "count", .version = "1.0",
		 .description = "harness self-check: shared vs per-producer counters, no BPF",
		 .argp = &count_argp, .benches = count_benches);
