// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * count-global and count-local: the kernel bench runner's self-check.
 * Every producer increments one shared counter (count-global: the cache
 * line bounces between CPUs, so it must NOT scale with producers) or its own
 * counter on its own cache line (count-local: it must scale). If the two do
 * not diverge like that, the harness itself is the bottleneck.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <benchcore/benchcore.h>

struct count_opts {
	int64_t batch;
};

static const struct bc_option count_options[] = {
	BC_OPT_INT(struct count_opts, batch, "count-batch", .arg = "N", .def = "1", .min = 1,
		   .max = 1000000,
		   .help = "Increments per loop iteration, between stop-flag checks"),
};

/* What tells the two benchmarks apart: their bc_bench_desc.priv. */
struct count_variant {
	bool shared;	/* one counter for all producers, or one each */
};

static const struct count_variant count_shared = { .shared = true };
static const struct count_variant count_own = { .shared = false };

struct count_state {
	/* count-global: one line every producer hits; count-local: one line
	 * per producer. */
	struct bc_line_counter *lines;
	unsigned int line_cnt;
	uint64_t batch;
	bool shared;
};

static int count_setup(struct bc_ctx *ctx)
{
	const struct count_variant *v = bc_ctx_bench_priv(ctx);
	const struct count_opts *o = bc_ctx_opts(ctx);
	struct count_state *st;

	/* -c N > 0 is refused by the core: the benchmarks take no consumers. */
	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);	/* teardown frees it, whatever happens next */
	st->batch = (uint64_t)o->batch;	/* the core checked it is in 1..1000000 */
	st->shared = v->shared;
	st->line_cnt = v->shared ? 1 : bc_ctx_producer_cnt(ctx);
	st->lines = bc_line_counters_alloc(st->line_cnt ? st->line_cnt : 1);
	if (!st->lines)
		return bc_error(ctx, -ENOMEM, "out of memory for %u counters", st->line_cnt);
	return 0;
}

static int count_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct count_state *st = bc_ctx_data(ctx);
	uint64_t *hits = &st->lines[st->shared ? 0 : t->idx].value;
	uint64_t i, batch = st->batch;

	/* Atomic in both benchmarks, so the only difference measured is
	 * whether the line is shared; uncontended, it stays in this CPU's
	 * cache. */
	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < batch; i++)
			__atomic_add_fetch(hits, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int count_measure(struct bc_ctx *ctx, double *values)
{
	struct count_state *st = bc_ctx_data(ctx);
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < st->line_cnt; i++)
		sum += __atomic_load_n(&st->lines[i].value, __ATOMIC_RELAXED);
	return bc_metric_set(ctx, values, "hits", (double)sum);
}

static void count_teardown(struct bc_ctx *ctx)
{
	struct count_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	free(st->lines);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* The runner's count benchmarks print hits lines (no drops). */
static const struct bc_metric_desc count_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
};

#define COUNT_BENCH(name_, desc_, variant_)                                            \
	BC_BENCH(name_, desc_, count_metrics, .runner_name = true, .priv = (variant_),  \
		 .setup = count_setup, .producer = count_producer, .measure = count_measure, \
		 .teardown = count_teardown)

static const struct bc_bench_desc count_global = COUNT_BENCH(
	"count-global", "every producer atomically increments one shared counter (must not scale)",
	&count_shared);

static const struct bc_bench_desc count_local = COUNT_BENCH(
	"count-local",
	"every producer increments its own counter on its own cache line (must scale)", &count_own);

BENCHCORE_PLUGIN(.name = "count", .version = "1.0",
		 .description = "harness self-check: shared vs per-producer counters, no BPF",
		 BC_OPTIONS(count_options), .opts_size = sizeof(struct count_opts),
		 BC_BENCHES(&count_global, &count_local));
