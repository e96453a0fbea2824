// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A fixture plugin for the option-table tests: one option of every type,
 * plugin-wide, and one benchmark with an option of its own. Its gauges
 * report the values the run's options struct holds, so a test can see what
 * the plugin saw. Built again with OPTFIX_BAD_DEFAULT as a plugin whose
 * table the core must refuse.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <benchcore/benchcore.h>

struct optfix_opts {
	bool sampled;
	int64_t batch;
	uint64_t ring;
	int mode;
	const char *tag;
	const struct bc_cpus *cpus;
	int64_t depth;		/* echo's own */
};

static const char *const optfix_modes[] = { "task", "socket", "inode", NULL };

static const struct bc_option optfix_options[] = {
	BC_OPT_FLAG(struct optfix_opts, sampled, "of-sampled", .help = "Sample the events"),
	BC_OPT_INT(struct optfix_opts, batch, "of-batch", .min = 1, .max = 4000,
#ifdef OPTFIX_BAD_DEFAULT
		   .def = "0",
#else
		   .def = "500",
#endif
		   .help = "Records per call"),
	BC_OPT_SIZE(struct optfix_opts, ring, "of-ring", .min = 4096, .max = 1 << 30, .def = "64K",
		    .help = "Ring size"),
	BC_OPT_ENUM(struct optfix_opts, mode, "of-mode", .words = optfix_modes, .def = "task",
		    .help = "Storage kind"),
	BC_OPT_STRING(struct optfix_opts, tag, "of-tag", .arg = "NAME", .help = "A label"),
	BC_OPT_CPUSET(struct optfix_opts, cpus, "of-cpus", .help = "Where to look"),
};

static const struct bc_option optfix_echo_options[] = {
	BC_OPT_INT(struct optfix_opts, depth, "of-depth", .def = "-3", .help = "Any integer"),
};

static int optfix_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	/* Nothing to count: the gauges below are the result. */
	while (!bc_thread_should_stop(t))
		;
	return 0;
}

/* What the plugin sees in its options struct, as numbers. */
static int optfix_measure(struct bc_ctx *ctx, double *values)
{
	const struct optfix_opts *o = bc_ctx_opts(ctx);

	if (!o)
		return -EINVAL;
	values[0] = (double)o->batch;
	values[1] = (double)o->ring;
	values[2] = o->mode;
	values[3] = o->sampled;
	values[4] = o->tag ? (double)strlen(o->tag) : -1;
	values[5] = o->cpus ? (double)o->cpus->cnt : -1;
	values[6] = (double)o->depth;
	return 0;
}

static const struct bc_metric_desc optfix_metrics[] = {
	BC_METRIC("batch", "records", BC_METRIC_GAUGE),
	BC_METRIC("ring", "bytes", BC_METRIC_GAUGE),
	BC_METRIC("mode", "index", BC_METRIC_GAUGE),
	BC_METRIC("sampled", "flag", BC_METRIC_GAUGE),
	BC_METRIC("tag_len", "chars", BC_METRIC_GAUGE),
	BC_METRIC("cpu_cnt", "cpus", BC_METRIC_GAUGE),
	BC_METRIC("depth", "levels", BC_METRIC_GAUGE),
};

#define OPTFIX_BENCH(name_, desc_, ...)                                            \
	{ .sz = sizeof(struct bc_bench_desc), .name = (name_), .description = (desc_), \
	  .producers = BC_THREADS(1, 1, 1), .consumers = BC_THREADS(0, 0, 0),        \
	  .metrics = optfix_metrics,                                                 \
	  .metric_cnt = sizeof(optfix_metrics) / sizeof(optfix_metrics[0]),         \
	  .producer = optfix_producer, .measure = optfix_measure, __VA_ARGS__ }

static const struct bc_bench_desc optfix_echo = OPTFIX_BENCH(
	"echo", "reports its options as gauges", .options = optfix_echo_options,
	.option_cnt = sizeof(optfix_echo_options) / sizeof(optfix_echo_options[0]));
static const struct bc_bench_desc optfix_plain = OPTFIX_BENCH("plain", "the plugin's options only");

static const struct bc_bench_desc *const optfix_benches[] = { &optfix_echo, &optfix_plain, NULL };

BENCHCORE_PLUGIN(.name = OPTFIX_NAME, .version = "1.0", .description = "option table fixtures",
		 .options = optfix_options,
		 .option_cnt = sizeof(optfix_options) / sizeof(optfix_options[0]),
		 .opts_size = sizeof(struct optfix_opts), .benches = optfix_benches);
