/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * benchcore plugin API: the only header a benchmark plugin needs.
 *
 * A plugin is one shared object that exports one const descriptor,
 * `benchcore_plugin` (declare it with BENCHCORE_PLUGIN()). The core dlopen()s
 * the object, checks the ABI version and the descriptor sizes, and from then
 * on only calls the callbacks below.
 *
 * Extensibility rules (libbpf opts style):
 *  - every descriptor struct starts with `size_t sz`, filled with
 *    sizeof(struct ...) by the plugin at build time (the BC_* macros do it);
 *  - fields are only ever appended; a removed field keeps its space;
 *  - the core reads only the bytes a plugin's `sz` covers and treats the rest
 *    as zero, so a plugin built against an older minor keeps working;
 *  - a plugin built against a newer minor, or another major, is refused.
 *
 * Callbacks return 0 or a negative errno. The reason for a failure is given
 * to the core with bc_error() or bc_unavailable(); plugin code never calls
 * exit() and never prints a summary: the core computes every statistic and
 * renders every report.
 */
#ifndef BENCHCORE_BENCHCORE_H
#define BENCHCORE_BENCHCORE_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BC_ABI_MAJOR 1
#define BC_ABI_MINOR 0

#ifndef BC_API
#define BC_API __attribute__((visibility("default")))
#endif

/* The symbol every plugin exports; the loader dlsym()s exactly this name. */
#define BC_PLUGIN_SYMBOL "benchcore_plugin"

/* Everything a benchmark knows about the run it is part of. Opaque. */
struct bc_ctx;

/* ---------------------------------------------------------------- metrics */

enum bc_metric_kind {
	/* A cumulative total: the core turns each interval's delta into a rate
	 * (events per second, normalised by the interval's measured length). */
	BC_METRIC_COUNTER = 1,
	/* A value sampled as is at every tick (a latency, a queue depth). */
	BC_METRIC_GAUGE = 2,
};

struct bc_metric_desc {
	size_t sz;
	/* Short identifier used in JSON and by text layouts: "hits", "drops",
	 * "important_hits", "false_hits", "gp_ns", "gp_ct", "stime", ... */
	const char *name;
	/* Unit of one event (counter) or of the value (gauge): "ops", "ns". */
	const char *unit;
	enum bc_metric_kind kind;
};

#define BC_METRIC(name_, unit_, kind_) \
	{ .sz = sizeof(struct bc_metric_desc), .name = (name_), .unit = (unit_), .kind = (kind_) }

/*
 * Text layouts the core renders. Each uses metrics by name; a metric a layout
 * names but the benchmark lacks is shown as zero.
 *  HITS_DROPS     hits, drops  (the kernel runner's ring/perf buffer lines)
 *  OPS            hits         (throughput, per-producer rate, ns per op)
 *  LOCAL_STORAGE  hits, important_hits
 *  FALSE_HITS     hits, false_hits, drops
 *  GRACE_PERIOD   gp_ns, gp_ct, stime (counters: latency = d(gp_ns)/d(gp_ct))
 *  CUSTOM         the benchmark's format_iter/format_summary callbacks
 */
enum bc_report_layout {
	BC_LAYOUT_HITS_DROPS = 0,
	BC_LAYOUT_OPS = 1,
	BC_LAYOUT_LOCAL_STORAGE = 2,
	BC_LAYOUT_FALSE_HITS = 3,
	BC_LAYOUT_GRACE_PERIOD = 4,
	BC_LAYOUT_CUSTOM = 5,
};

/* ---------------------------------------------------------------- threads */

/* A producer's or consumer's view of itself, valid for the thread's life. */
struct bc_thread {
	size_t sz;
	unsigned int idx;	/* 0-based among the producers (or consumers) */
	int cpu;		/* the CPU it is pinned to, or -1 */
	const int *stop;	/* set to non-zero when the thread must return */
};

/* Cheap enough for any hot loop: one relaxed load, no call, no syscall. */
static inline bool bc_thread_should_stop(const struct bc_thread *t)
{
	return __atomic_load_n(t->stop, __ATOMIC_RELAXED) != 0;
}

/* A counter alone on its cache line, for per-thread hot-loop counting. */
#define BC_CACHELINE 64
struct bc_line_counter {
	_Alignas(BC_CACHELINE) uint64_t value;
};

/* Allocates `cnt` zeroed, cache-line aligned counters; free with free(). */
BC_API struct bc_line_counter *bc_line_counters_alloc(size_t cnt);
BC_API uint64_t bc_line_counters_sum(const struct bc_line_counter *c, size_t cnt);

/* ------------------------------------------------------------- benchmarks */

struct bc_thread_range {
	unsigned int min;	/* fewest threads the benchmark can run with */
	unsigned int max;	/* most; 0 means no limit */
	unsigned int def;	/* used when the user does not say */
};

struct bc_bench_desc {
	size_t sz;
	const char *name;		/* unique within the plugin, non-empty */
	const char *description;	/* one line */
	struct bc_thread_range producers;
	struct bc_thread_range consumers;

	const struct bc_metric_desc *metrics;	/* array, stride metrics[0].sz */
	unsigned int metric_cnt;
	enum bc_report_layout layout;

	/* Optional: can this benchmark run on this kernel, with these
	 * privileges? Called by `list`, and by `run` after validate(). Return 0, or
	 * bc_unavailable(ctx, "reason"). Must leave nothing loaded. */
	int (*probe)(struct bc_ctx *ctx);
	/* Optional: check the options and thread counts; bc_usage_error()
	 * for bad input (exit status 2). */
	int (*validate)(struct bc_ctx *ctx);
	/* Optional: load BPF, allocate state (bc_ctx_set_data()). */
	int (*setup)(struct bc_ctx *ctx);
	/* Thread bodies: loop until bc_thread_should_stop(t). A consumer that
	 * blocks must wake at least every 100 ms to look at the flag. */
	int (*producer)(struct bc_ctx *ctx, struct bc_thread *t);
	int (*consumer)(struct bc_ctx *ctx, struct bc_thread *t);
	/* Fill values[i] for metrics[i]: the cumulative total of a counter,
	 * the current value of a gauge. Called by the sampling thread. */
	int (*measure)(struct bc_ctx *ctx, double *values);
	/* Optional: undo setup(); must free everything setup() made, BPF
	 * programs, links and maps included. Called even after a failure. */
	void (*teardown)(struct bc_ctx *ctx);

	/* Optional, for BC_LAYOUT_CUSTOM: write one progress line / the
	 * summary line for the already computed numbers into buf. */
	int (*format_iter)(struct bc_ctx *ctx, const double *rates, char *buf, size_t len);
	int (*format_summary)(struct bc_ctx *ctx, const double *means,
			      const double *stddevs, char *buf, size_t len);
};

/* ----------------------------------------------------------------- plugin */

struct bc_plugin_desc {
	size_t sz;
	unsigned int abi_major;		/* BC_ABI_MAJOR the plugin was built with */
	unsigned int abi_minor;		/* BC_ABI_MINOR the plugin was built with */
	const char *name;		/* "ringbuf": the part before ':' */
	const char *version;
	const char *description;
	/* The plugin's own options, attached as an argp child only when one
	 * of its benchmarks is selected. May be NULL. */
	const struct argp *argp;
	/* NULL-terminated. */
	const struct bc_bench_desc *const *benches;
};

/* Defines the exported descriptor; use once per plugin:
 *   BENCHCORE_PLUGIN(.name = "count", .version = "1.0", ...);
 */
#define BENCHCORE_PLUGIN(...)                                                \
	BC_API extern const struct bc_plugin_desc benchcore_plugin;           \
	BC_API const struct bc_plugin_desc benchcore_plugin = {               \
		.sz = sizeof(struct bc_plugin_desc), .abi_major = BC_ABI_MAJOR, \
		.abi_minor = BC_ABI_MINOR, __VA_ARGS__ }

/* --------------------------------------------------------- run context */

BC_API unsigned int bc_ctx_producer_cnt(const struct bc_ctx *ctx);
BC_API unsigned int bc_ctx_consumer_cnt(const struct bc_ctx *ctx);
BC_API double bc_ctx_duration_sec(const struct bc_ctx *ctx);
BC_API double bc_ctx_warmup_sec(const struct bc_ctx *ctx);
BC_API bool bc_ctx_verbose(const struct bc_ctx *ctx);
/* The benchmark being run (its name, as declared). */
BC_API const char *bc_ctx_bench_name(const struct bc_ctx *ctx);

/* Per-run plugin state, so plugins need no global state across runs. */
BC_API void bc_ctx_set_data(struct bc_ctx *ctx, void *data);
BC_API void *bc_ctx_data(const struct bc_ctx *ctx);

/* Records where the program under test was attached ("tp/syscalls/..."):
 * printed in the text report and stored in JSON. */
BC_API void bc_ctx_set_attach_point(struct bc_ctx *ctx, const char *name);
BC_API const char *bc_ctx_attach_point(const struct bc_ctx *ctx);

/* Records why a callback failed; returns `err` (negative errno) so that a
 * callback can `return bc_error(ctx, -errno, "...")`. */
BC_API int bc_error(struct bc_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The benchmark cannot run here (kernel lacks a feature, no privileges).
 * Returns -EOPNOTSUPP; the run ends with BC_EXIT_UNAVAILABLE. */
BC_API int bc_unavailable(struct bc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Bad option value or combination: returns -EINVAL, exit status 2. */
BC_API int bc_usage_error(struct bc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- logging */

enum bc_log_level {
	BC_LOG_WARN = 0,
	BC_LOG_INFO = 1,
	BC_LOG_DEBUG = 2,
};

/* Goes to stderr; -v widens it to debug, -q narrows it to warnings. */
BC_API void bc_log(enum bc_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define bc_warn(...) bc_log(BC_LOG_WARN, __VA_ARGS__)
#define bc_info(...) bc_log(BC_LOG_INFO, __VA_ARGS__)
#define bc_debug(...) bc_log(BC_LOG_DEBUG, __VA_ARGS__)

/* --------------------------------------------------------- exit statuses */

enum bc_exit_status {
	BC_EXIT_OK = 0,
	BC_EXIT_FAILED = 1,		/* the benchmark failed at run time */
	BC_EXIT_USAGE = 2,		/* bad command line or option value */
	BC_EXIT_UNAVAILABLE = 3,	/* cannot run on this kernel / without privileges */
	BC_EXIT_INTERRUPTED = 130,	/* Ctrl-C: partial results were printed */
};

/* Version of the core library this plugin is running in, e.g. "0.1.0". */
BC_API const char *bc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHCORE_BENCHCORE_H */
