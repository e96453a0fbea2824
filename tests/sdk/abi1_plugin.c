// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plugin as ABI 1.0 plugins were written, built against the 1.0 header as
 * released (tests/sdk/abi1/): what users of an upgraded benchcore still have
 * on disk. The current core must refuse it in one line naming both majors.
 * With ABI_FIXTURE_CALLS_LIB it calls into libbenchcore, so it needs the
 * library of its own major (libbenchcore.so.1), as real ABI 1 plugins do.
 */
#include <stdint.h>

#include <benchcore/benchcore.h>

#if BC_ABI_MAJOR != 1
#error "abi1_plugin.c must be built against the ABI 1 header"
#endif

static uint64_t old_hits;

static int old_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
#ifdef ABI_FIXTURE_CALLS_LIB
	bc_info("old plugin running");
#endif
	while (!bc_thread_should_stop(t))
		__atomic_add_fetch(&old_hits, 1, __ATOMIC_RELAXED);
	return 0;
}

static int old_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = (double)__atomic_load_n(&old_hits, __ATOMIC_RELAXED);
	return 0;
}

static const struct bc_metric_desc old_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
};

static const struct bc_bench_desc old_bench = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "spin",
	.description = "ABI 1 fixture: a counting loop",
	.producers = { .min = 1, .max = 0, .def = 1 },
	.metrics = old_metrics,
	.metric_cnt = 1,
	.layout = BC_LAYOUT_OPS,
	.producer = old_producer,
	.measure = old_measure,
};

static const struct bc_bench_desc *const old_benches[] = { &old_bench, NULL };

BENCHCORE_PLUGIN(.name = ABI_FIXTURE_NAME, .version = "1.0",
		 .description = "ABI 1 policy fixture", .benches = old_benches);
