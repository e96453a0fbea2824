// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One source, many fixture plugins: tests/loader/CMakeLists.txt builds it
 * once per FIX_* variant, each a plugin the loader must load or refuse.
 * FIX_NAME is the plugin's name; the file is named after it unless the
 * variant is about a mismatch.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <benchcore/attach.h>
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

static __attribute__((unused)) int fix_measure(struct bc_ctx *ctx, double *values)
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

static __attribute__((unused)) const struct bc_metric_desc fix_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
};

#define FIX_BENCH(name_, ...)                                                          \
	{                                                                              \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),                   \
		.description = "fixture " name_, .producers = BC_THREADS(1, 0, 1),    \
		.consumers = BC_THREADS(0, 0, 0), .metrics = fix_metrics,             \
		.metric_cnt = 1, .producer = fix_producer, .measure = fix_measure,    \
		__VA_ARGS__                                                            \
	}

/* The descriptor of one benchmark, for the variants that need no more. */
#define FIX_ONE(...)                                                                   \
	static const struct bc_bench_desc fix_a = FIX_BENCH(__VA_ARGS__);             \
	static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL }

/* A metric or option as a newer minor would declare it: one field more. */
struct fix_big_metric {
	struct bc_metric_desc base;
	uint64_t newer_field;
};

struct fix_big_option {
	struct bc_option base;
	uint64_t newer_field;
};

struct fix_opts {
	int64_t batch;
	int mode;
	uint64_t entries;
	int64_t cap;
	bool on;
};

#if defined(FIX_OLD_SIZE)
/*
 * A plugin built against an older minor: its bench descriptor ends after
 * teardown, before format_iter/format_summary, and sz says so.
 */
struct fix_old_bench_desc {
	size_t sz;
	const char *name;
	const char *description;
	struct bc_thread_range producers;
	struct bc_thread_range consumers;
	const struct bc_metric_desc *metrics;
	unsigned int metric_cnt;
	const struct bc_option *options;
	unsigned int option_cnt;
	const void *priv;
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
	.producers = BC_THREADS(1, 0, 1), .consumers = BC_THREADS(0, 0, 0),
	.metrics = fix_metrics, .metric_cnt = 1, .producer = fix_producer,
	.measure = fix_measure,
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
#elif defined(FIX_BIG_METRIC)
static const struct fix_big_metric fix_big_metrics[] = {
	{ .base = BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS,
			    .sz = sizeof(struct fix_big_metric)),
	  .newer_field = 0 },
	{ .base = BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS,
			    .sz = sizeof(struct fix_big_metric)),
	  .newer_field = FIX_BIG_METRIC },
};
FIX_ONE("big-metric", .metrics = &fix_big_metrics[0].base, .metric_cnt = 2);
#elif defined(FIX_RANGE_ZERO)
/* A range filled field by field, sz left zero (not BC_THREADS()). */
FIX_ONE("range-zero", .producers = { .min = 1, .max = 0, .def = 1 });
#elif defined(FIX_RANGE_BIG)
FIX_ONE("range-big", .consumers = { .sz = sizeof(struct bc_thread_range) + 8 });
#elif defined(FIX_RANGE_SMALL)
/* Only as far as the last field: the padding reads as zero. */
FIX_ONE("range-small", .producers = { .sz = offsetof(struct bc_thread_range, def) +
					    sizeof(unsigned int),
				      .min = 1, .max = 3, .def = 2 });
#elif defined(FIX_RANGE_PAD_SET)
/*
 * A newer minor may put a field into the range's trailing padding: sz stays
 * sizeof, and the byte after `def` is what this core does not know. Set at
 * load time, since an initializer cannot reach padding.
 */
static struct bc_bench_desc fix_a = FIX_BENCH("range-pad");
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL };

__attribute__((constructor)) static void fix_set_pad(void)
{
	unsigned char *r = (unsigned char *)&fix_a.producers;

	r[offsetof(struct bc_thread_range, def) + sizeof(unsigned int)] = 1;
}
#elif defined(FIX_BENCH_SZ)
/* A wrong sz: too small for the fields the core needs, or garbage. */
FIX_ONE("bad-sz", .sz = FIX_BENCH_SZ);
#elif defined(FIX_METRIC_STRIDE)
/* Elements of one array must carry one sz: the stride is #0's. */
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .sz = 40),
};
FIX_ONE("stride", .metrics = fix_m, .metric_cnt = 2);
#elif defined(FIX_DUP)
static const struct bc_bench_desc fix_a = FIX_BENCH("same");
static const struct bc_bench_desc fix_b = FIX_BENCH("same");
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, &fix_b, NULL };
#elif defined(FIX_EMPTY_NAME)
FIX_ONE("");
#elif defined(FIX_BLANK_NAME)
FIX_ONE("two words");
#elif defined(FIX_NO_MEASURE)
FIX_ONE("no-measure", .measure = NULL);
#elif defined(FIX_BPF_MEASURED)
/* ABI 2.2: no measure() when every non-histogram metric names its BPF
 * source (the run, not the loader, finds the source). */
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("lat", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY),
};
FIX_ONE("bpf-measured", .metrics = fix_m, .metric_cnt = 2, .measure = NULL);
#elif defined(FIX_BAD_BPF)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "two words"),
};
FIX_ONE("bad-bpf", .metrics = fix_m);
#elif defined(FIX_NULL_METRICS)
FIX_ONE("null-metrics", .metrics = NULL);
#elif defined(FIX_NO_METRICS)
FIX_ONE("no-metrics", .metrics = NULL, .metric_cnt = 0);
#elif defined(FIX_BAD_ROLE)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = (enum bc_metric_role)9),
};
FIX_ONE("bad-role", .metrics = fix_m);
#elif defined(FIX_RATIO_NO_PER)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("gp_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_LATENCY),
};
FIX_ONE("ratio-no-per", .metrics = fix_m);
#elif defined(FIX_RATIO_BAD_PER)
/* per names a gauge: a ratio is divided by a counter's delta. */
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("gp_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_LATENCY, .per = "depth"),
	BC_METRIC("depth", "items", BC_METRIC_GAUGE),
};
FIX_ONE("ratio-bad-per", .metrics = fix_m, .metric_cnt = 2);
#elif defined(FIX_PER_ON_COUNTER)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .per = "hits"),
};
FIX_ONE("per-on-counter", .metrics = fix_m);
#elif defined(FIX_HALF_CUSTOM)
/* Its own progress line but no summary line: both or neither. */
static int fix_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	(void)ctx;
	(void)rates;
	(void)buf;
	(void)len;
	return 0;
}

FIX_ONE("half-custom", .format_iter = fix_format_iter);
#elif defined(FIX_HIST_HEADLINE)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("lat", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_HITS),
};
FIX_ONE("hist-headline", .metrics = fix_m);
#elif defined(FIX_ROLES)
/* Every kind, with a ratio whose per comes after it: all accepted. */
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
	BC_METRIC("gp_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_LATENCY, .per = "gp_ct",
		  .label = "grace period latency"),
	BC_METRIC("gp_ct", "grace periods", BC_METRIC_COUNTER),
	BC_METRIC("depth", "items", BC_METRIC_GAUGE),
	BC_METRIC("lat", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY),
};
FIX_ONE("roles", .metrics = fix_m, .metric_cnt = 5);
#elif defined(FIX_NEEDS)
/* Kernel needs as data (ABI 2.1): what `list` checks instead of probe(). */
static const struct bc_need fix_need_root[] = {
	BC_NEED(BC_NEED_FILE, .name = "/"),
};
static const struct bc_need fix_need_missing[] = {
	BC_NEED(BC_NEED_FILE, .name = "/nonexistent/benchcore-fixture", .why = "the fixture's file"),
};

static int fix_quick_no(struct bc_ctx *ctx)
{
	return bc_unavailable(ctx, "the fixture's quick check says no");
}

static int fix_probe_yes(struct bc_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static const struct bc_bench_desc fix_a = FIX_BENCH("has-file", .needs = fix_need_root,
						      .need_cnt = 1);
static const struct bc_bench_desc fix_b = FIX_BENCH("lacks-file", .needs = fix_need_missing,
						      .need_cnt = 1);
/* The cheap check and the probe disagree: `list` and `list --probe` say
 * which one they asked. */
static const struct bc_bench_desc fix_c = FIX_BENCH("quick-no", .quick_probe = fix_quick_no,
						      .probe = fix_probe_yes);
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, &fix_b, &fix_c, NULL };
#elif defined(FIX_BAD_NEED)
static const struct bc_need fix_n[] = { BC_NEED((enum bc_need_kind)9) };
FIX_ONE("bad-need", .needs = fix_n, .need_cnt = 1);
#elif defined(FIX_NEED_NO_NAME)
static const struct bc_need fix_n[] = { BC_NEED(BC_NEED_BTF_FUNC) };
FIX_ONE("need-no-name", .needs = fix_n, .need_cnt = 1);
#elif defined(FIX_BAD_POINT)
static const struct bc_attach_point fix_pts[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = "raw_tp/sys_enter", .kind = BC_ATTACH_RAW_TP },
	{ .sz = sizeof(struct bc_attach_point), .name = "x/y", .kind = (enum bc_attach_kind)99 },
};
FIX_ONE("bad-point", .attach_points = fix_pts, .attach_point_cnt = 2);
#elif defined(FIX_CRASH_CTOR)
/* Crashes as soon as it is loaded: list and run must survive it. */
FIX_ONE("never-seen");

__attribute__((constructor)) static void fix_crash(void)
{
	raise(SIGSEGV);
}
#elif defined(FIX_EXIT_CTOR)
FIX_ONE("never-seen");

__attribute__((constructor)) static void fix_exit(void)
{
	exit(3);
}
#elif defined(FIX_HANG_SETUP)
/* setup() that never returns and ignores the signals the core handles;
 * the marker line tells the test that setup has started. */
static int fix_hang(struct bc_ctx *ctx)
{
	static const char marker[] = "fixture setup blocks now\n";

	(void)ctx;
	(void)!write(STDERR_FILENO, marker, sizeof(marker) - 1);
	for (;;)
		pause();
	return 0;
}
FIX_ONE("setup-hangs", .setup = fix_hang);
#elif defined(FIX_EXITS)
/* Plugins must not call exit(); these do, in setup and in a producer. */
static int fix_exit_setup(struct bc_ctx *ctx)
{
	(void)ctx;
	exit(7);
}

static int fix_exit_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	(void)t;
	exit(9);
}
static const struct bc_bench_desc fix_a = FIX_BENCH("exit-setup", .setup = fix_exit_setup);
static const struct bc_bench_desc fix_b = FIX_BENCH("exit-producer", .producer = fix_exit_producer);
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, &fix_b, NULL };
#elif defined(FIX_TEARDOWN_EXIT)
/* Measures to the end, then calls exit() in teardown. */
static void fix_teardown_exit(struct bc_ctx *ctx)
{
	(void)ctx;
	exit(5);
}
FIX_ONE("teardown-exits", .teardown = fix_teardown_exit);
#elif defined(FIX_PRINTS)
/* Prints to stdout from setup, a producer and measure, as a chatty library
 * would: with printf() and with write(1, ...). */
#include <stdio.h>
#include <string.h>

static void fix_say(const char *what)
{
	static const char raw[] = "fixture wrote this to fd 1\n";

	printf("fixture printf from %s\n", what);
	fflush(stdout);
	(void)!write(1, raw, sizeof(raw) - 1);
}

static int fix_setup_prints(struct bc_ctx *ctx)
{
	(void)ctx;
	fix_say("setup");
	return 0;
}

static int fix_producer_prints(struct bc_ctx *ctx, struct bc_thread *t)
{
	fix_say("producer");
	return fix_producer(ctx, t);
}

static int fix_measure_prints(struct bc_ctx *ctx, double *values)
{
	fix_say("measure");
	return fix_measure(ctx, values);
}

__attribute__((constructor)) static void fix_ctor_prints(void)
{
	fix_say("constructor");
}
FIX_ONE("prints", .setup = fix_setup_prints, .producer = fix_producer_prints,
	.measure = fix_measure_prints);
#elif defined(FIX_BAD_VALUES)
/* measure() returning what no counter can: after a good baseline and a
 * first good interval, NaN, infinity, 1e308, a total that goes down. */
#include <math.h>

static unsigned int fix_calls;

static double fix_good(void)
{
	return 1000.0 * ++fix_calls;
}

static int fix_m_nan(struct bc_ctx *ctx, double *v)
{
	(void)ctx;
	v[0] = fix_calls < 2 ? fix_good() : NAN;
	return 0;
}

static int fix_m_inf(struct bc_ctx *ctx, double *v)
{
	(void)ctx;
	v[0] = fix_calls < 2 ? fix_good() : INFINITY;
	return 0;
}

static int fix_m_huge(struct bc_ctx *ctx, double *v)
{
	(void)ctx;
	v[0] = fix_calls < 2 ? fix_good() : 1e308;
	return 0;
}

static int fix_m_down(struct bc_ctx *ctx, double *v)
{
	(void)ctx;
	v[0] = fix_calls < 2 ? fix_good() : 1.0;
	return 0;
}

static const struct bc_bench_desc fix_a = FIX_BENCH("nan", .measure = fix_m_nan);
static const struct bc_bench_desc fix_b = FIX_BENCH("inf", .measure = fix_m_inf);
static const struct bc_bench_desc fix_c = FIX_BENCH("huge", .measure = fix_m_huge);
static const struct bc_bench_desc fix_d = FIX_BENCH("down", .measure = fix_m_down);
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, &fix_b, &fix_c, &fix_d, NULL };
#elif defined(FIX_METRIC_NAME) || defined(FIX_METRIC_NAME_NL)
/* A metric name the core refuses: reserved, or not one word. */
#ifdef FIX_METRIC_NAME_NL
#define FIX_METRIC_NAME "two\nlines"
#endif
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC(FIX_METRIC_NAME, "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
};
FIX_ONE("metric-name", .metrics = fix_m);
#elif defined(FIX_METRIC_LABEL_NL)
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS,
		  .label = "two\nlines"),
};
FIX_ONE("metric-label", .metrics = fix_m);
#elif defined(FIX_HEADLINE)
/* A declared headline (ABI 2.3): a gauge is judged, not the hits (0); the
 * runner's own figure under its name (6). Refused: a name that is no
 * metric (1), a histogram (2), under the runner's name another figure than
 * its own (3) or any figure when the roles give none (4), an empty name (5). */
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("depth", "items", BC_METRIC_GAUGE),
	BC_METRIC("lat", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY),
};
#if FIX_HEADLINE == 0
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .headline = "depth");
#elif FIX_HEADLINE == 1
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .headline = "misses");
#elif FIX_HEADLINE == 2
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .headline = "lat");
#elif FIX_HEADLINE == 3
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .runner_name = true,
	.headline = "depth");
#elif FIX_HEADLINE == 4
/* The gauge alone: no HITS or OPS metric. */
FIX_ONE("headline", .metrics = &fix_m[1], .runner_name = true, .headline = "depth");
#elif FIX_HEADLINE == 5
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .headline = "");
#else
FIX_ONE("headline", .metrics = fix_m, .metric_cnt = 3, .runner_name = true,
	.headline = "hits");
#endif
#elif defined(FIX_TIME_PER_OP)
/* A time per operation (ABI 2.3) as BC_BATCH_TIMINGS gives it (0), and
 * refused: without its time counter (1) or its operation counter (2), in a
 * unit that is no time (3), as an OPS metric (4), and bpf_per on a counter
 * (5). The run, not the loader, finds the sources. */
#if FIX_TIME_PER_OP == 1
#define FIX_TPO BC_METRIC("ns_per_op", "ns", BC_METRIC_TIME_PER_OP, .bpf_per = "b.ops")
#elif FIX_TIME_PER_OP == 2
#define FIX_TPO BC_METRIC("ns_per_op", "ns", BC_METRIC_TIME_PER_OP, .bpf = "b.ns")
#elif FIX_TIME_PER_OP == 3
#define FIX_TPO                                                                   \
	BC_METRIC("ns_per_op", "ops", BC_METRIC_TIME_PER_OP, .bpf = "b.ns", .bpf_per = "b.ops")
#elif FIX_TIME_PER_OP == 4
#define FIX_TPO                                                                   \
	BC_METRIC("ns_per_op", "ns", BC_METRIC_TIME_PER_OP, .role = BC_ROLE_OPS,         \
		  .bpf = "b.ns", .bpf_per = "b.ops")
#else
#define FIX_TPO                                                                   \
	BC_METRIC("ns_per_op", "ns", BC_METRIC_TIME_PER_OP, .bpf = "b.ns", .bpf_per = "b.ops")
#endif
static const struct bc_metric_desc fix_m[] = {
#if FIX_TIME_PER_OP == 5
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf_per = "b.ops"),
#else
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
#endif
	FIX_TPO,
};
FIX_ONE("time-per-op", .metrics = fix_m, .metric_cnt = 2, .headline = "ns_per_op");
#elif defined(FIX_SUMMARY)
/* A Summary naming what it cannot carry (ABI 2.2): a metric the benchmark
 * does not have (1), or, under the runner's name, a figure the runner's
 * hits line has no place for (2). */
#if FIX_SUMMARY == 1
FIX_ONE("summary", .summary = "hits,misses");
#else
FIX_ONE("summary", .runner_name = true, .summary = "hits");
#endif
#elif defined(FIX_OPT_TABLE) && FIX_OPT_TABLE == 6
/* ABI 2.2's report and option rules, through the real binary: options in
 * a reading order that is not the alphabet's, a count, and --max-time, a
 * core option since 2.1, which this plugin may shadow when it says it was
 * built against 2.0 (FIX_ABI_MINOR=0) and may not otherwise. The benchmark
 * counts slowly (about 200 calls a second) in a unit of its own, with a
 * latency it names for its Summary line; "lookups" is both a metric and an
 * option, as a plot's title must tell apart. */
#include <time.h>

static uint64_t fix_slow_calls;

static int fix_slow_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	const struct timespec nap = { .tv_nsec = 5 * 1000 * 1000 };

	(void)ctx;
	while (!bc_thread_should_stop(t)) {
		nanosleep(&nap, NULL);
		__atomic_add_fetch(&fix_slow_calls, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int fix_slow_measure(struct bc_ctx *ctx, double *values)
{
	const struct fix_opts *o = bc_ctx_opts(ctx);

	values[0] = (double)__atomic_load_n(&fix_slow_calls, __ATOMIC_RELAXED);
	values[1] = 5e6;		/* ns: what the nap asks for */
	values[2] = (double)o->cap;	/* the shadowing option's value */
	return 0;
}

static const struct bc_metric_desc fix_slow_metrics[] = {
	BC_METRIC("lookups", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
	BC_METRIC("nap_ns", "ns", BC_METRIC_GAUGE, .role = BC_ROLE_LATENCY),
	BC_METRIC("cap", "", BC_METRIC_GAUGE),
};
FIX_ONE("opt-table", .producer = fix_slow_producer, .measure = fix_slow_measure,
	.metrics = fix_slow_metrics, .metric_cnt = 3, .summary = "nap_ns,lookups");
#elif defined(FIX_OPT_TABLE)
/* An option table `list` must refuse as the plugin loads (FIX_OPT_TABLE
 * selects the fault; the options are declared below, plugin-wide). */
FIX_ONE("opt-table");
#elif defined(FIX_SDK23)
/*
 * ABI 2.3's SDK fields. Loaded (0): BC_BENCH() with its thread ranges
 * left out (the defaults), a counter the threads count, and the plugin's
 * option_prefix before its options' names. Refused, each at load with one
 * line: an attach callback (1) or a skeleton (2) without attach points, a
 * skeleton beside an attach callback (3), configure() without a skeleton
 * (4), a gauge the threads count (5), a metric both counted by the threads
 * and read from BPF (6), an option_prefix with a blank (7).
 */
static void *fix_skel_open(void) { return NULL; }
static int fix_skel_load(void *s) { (void)s; return 0; }
static void fix_skel_void(void *s) { (void)s; }
static struct bpf_object *fix_skel_obj(void *s) { (void)s; return NULL; }
static __attribute__((unused)) const struct bc_skel fix_skel = {
	.sz = sizeof(struct bc_skel), .name = "fix", .open = fix_skel_open, .load = fix_skel_load,
	.attach = fix_skel_load, .detach = fix_skel_void, .destroy = fix_skel_void,
	.object = fix_skel_obj,
};
static __attribute__((unused)) int fix_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	(void)ctx;
	(void)pt;
	return 0;
}
static __attribute__((unused)) int fix_configure(struct bc_ctx *ctx, void *s,
						 const struct bc_attach_point *pt)
{
	(void)ctx;
	(void)s;
	(void)pt;
	return 0;
}
static __attribute__((unused)) const struct bc_attach_point fix_pts[] = {
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "fix_raw_tp"),
};
static const struct bc_metric_desc fix_m[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .threads = true),
#if FIX_SDK23 == 5
	BC_METRIC("depth", "items", BC_METRIC_GAUGE, .threads = true),
#elif FIX_SDK23 == 6
	BC_METRIC("misses", "ops", BC_METRIC_COUNTER, .threads = true, .bpf = "misses"),
#endif
};
static const struct bc_option fix_sdk_options[] = {
	BC_OPT_INT(struct fix_opts, batch, "batch", .def = "1", .help = "prefixed"),
};
#if FIX_SDK23 == 0
static const struct bc_bench_desc fix_a = BC_BENCH("sdk", "fixture sdk", fix_m,
						   .producer = fix_producer);
#elif FIX_SDK23 == 1
FIX_ONE("sdk", .metrics = fix_m, .attach = fix_attach);
#elif FIX_SDK23 == 2
FIX_ONE("sdk", .metrics = fix_m, .skel = &fix_skel);
#elif FIX_SDK23 == 3
FIX_ONE("sdk", .metrics = fix_m, .skel = &fix_skel, .attach = fix_attach, BC_POINTS(fix_pts));
#elif FIX_SDK23 == 4
FIX_ONE("sdk", .metrics = fix_m, .configure = fix_configure, BC_POINTS(fix_pts));
#else
FIX_ONE("sdk", .metrics = fix_m, .metric_cnt = BC_ARRAY_SIZE(fix_m));
#endif
#if FIX_SDK23 == 0
static const struct bc_bench_desc *const fix_benches[] = { &fix_a, NULL };
#endif
#define FIX_OPTIONS BC_OPTIONS(fix_sdk_options), .opts_size = sizeof(struct fix_opts), \
		    .option_prefix = FIX_SDK23 == 7 ? "sdk " : "sdk-"
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

#if defined(FIX_OPT_TABLE)
static __attribute__((unused)) const char *const fix_no_words[] = { NULL };
#if FIX_OPT_TABLE != 5
static const struct bc_option fix_options[] = {
#if FIX_OPT_TABLE == 1	/* the same name twice */
	BC_OPT_INT(struct fix_opts, batch, "batch"),
	BC_OPT_INT(struct fix_opts, batch, "batch"),
#elif FIX_OPT_TABLE == 2	/* a core option's name */
	BC_OPT_INT(struct fix_opts, batch, "duration"),
#elif FIX_OPT_TABLE == 3	/* an enum without words */
	BC_OPT_ENUM(struct fix_opts, mode, "mode", .words = fix_no_words),
#elif FIX_OPT_TABLE == 4	/* a default outside its range */
	BC_OPT_INT(struct fix_opts, batch, "batch", .min = 1, .max = 10, .def = "11"),
#elif FIX_OPT_TABLE == 6	/* see the benchmark above */
	BC_OPT_INT(struct fix_opts, batch, "zeta", .def = "1", .help = "first in the table"),
	BC_OPT_COUNT(struct fix_opts, entries, "entries", .def = "1M", .min = 1,
		     .max = 1 << 30, .help = "a count, not bytes"),
	BC_OPT_INT(struct fix_opts, cap, "max-time", .def = "0", .help = "the plugin's own"),
	BC_OPT_INT(struct fix_opts, batch, "lookups", .def = "1", .help = "named like a metric"),
	BC_OPT_FLAG(struct fix_opts, on, "alpha", .help = "last in the table"),
#endif
};
#endif
#if FIX_OPT_TABLE == 5	/* a 1 TiB options struct */
#define FIX_OPTIONS .options = NULL, .opts_size = (size_t)1 << 40
#else
#define FIX_OPTIONS .options = fix_options, \
		    .option_cnt = sizeof(fix_options) / sizeof(fix_options[0]), \
		    .opts_size = sizeof(struct fix_opts)
#endif
#elif defined(FIX_SDK23)
/* FIX_OPTIONS is above, with the variant. */
#elif defined(FIX_BIG_OPTION)
static const struct fix_big_option fix_options[] = {
	{ .base = BC_OPT_INT(struct fix_opts, batch, "batch", .help = "records per call",
			     .sz = sizeof(struct fix_big_option)),
	  .newer_field = FIX_BIG_OPTION },
};
#define FIX_OPTIONS .options = &fix_options[0].base, .option_cnt = 1, \
		    .opts_size = sizeof(struct fix_opts)
#else
#define FIX_OPTIONS .options = NULL
#endif

#ifdef FIX_NO_SYMBOL
/* Exported under the wrong name: a shared object, but not a plugin. */
BC_API const struct bc_plugin_desc not_benchcore_plugin = {
	.sz = sizeof(struct bc_plugin_desc), .abi_major = BC_ABI_MAJOR,
	.abi_minor = BC_ABI_MINOR, .name = FIX_NAME, .version = "1", .benches = fix_benches,
};
#elif defined(FIX_BIG_PLUGIN)
/* The plugin descriptor of a newer minor, one field appended. */
struct fix_big_plugin_desc {
	struct bc_plugin_desc base;
	uint64_t newer_field;
};

BC_API extern const struct fix_big_plugin_desc benchcore_plugin;
BC_API const struct fix_big_plugin_desc benchcore_plugin = {
	.base = { .sz = sizeof(struct fix_big_plugin_desc), .abi_major = FIX_ABI_MAJOR,
		  .abi_minor = FIX_ABI_MINOR, .name = FIX_NAME, .version = "1.0",
		  .benches = fix_benches },
	.newer_field = FIX_BIG_PLUGIN,
};
#else
BC_API extern const struct bc_plugin_desc benchcore_plugin;
BC_API const struct bc_plugin_desc benchcore_plugin = {
	.sz = sizeof(struct bc_plugin_desc), .abi_major = FIX_ABI_MAJOR,
	.abi_minor = FIX_ABI_MINOR, .name = FIX_NAME, .version = "1.0",
	.description = "loader test fixture", .benches = fix_benches, FIX_OPTIONS,
};
#endif
