/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * benchcore plugin API: the only header a benchmark plugin needs.
 *
 * A plugin is one shared object that exports one const descriptor,
 * `benchcore_plugin` (declare it with BENCHCORE_PLUGIN()). The core dlopen()s
 * the object, checks the ABI version and the descriptor sizes, and from then
 * on only calls the callbacks below. What a plugin declares is data: its
 * options (a table the core parses, validates, documents and sweeps), its
 * metrics (what each one is, from which the core derives every report line),
 * and its programs under test (which the core can ask the kernel about).
 *
 * The versioning rule, the one and only (docs/plugin-abi.md says the same):
 *  - BC_ABI_MAJOR must match the core's, or the plugin is refused with one
 *    line naming both majors. A major changes only when a rule below cannot
 *    hold (ABI 1 -> 2 was such a break).
 *  - Within a major, every struct a plugin hands over starts with `size_t sz`
 *    (the BC_* macros fill it with sizeof) and fields are only appended; a
 *    removed field keeps its space. The core reads a struct by its sz:
 *      sz <= what the core knows: the missing tail reads as zero (an older
 *        plugin loads and runs);
 *      sz >  what the core knows: the plugin loads only when every byte past
 *        the core's size is zero; otherwise it is refused with one line
 *        naming the plugin, the struct and the offset of the first non-zero
 *        unknown byte.
 *    BC_ABI_MINOR records which appends a plugin was built with; the core
 *    only reports it. The sizes decide.
 *
 * Callbacks return 0 or a negative errno (a positive value is a plugin bug,
 * reported as one). The reason for a failure is given to the core with
 * bc_error(), bc_unavailable() or bc_usage_error(); plugin code never calls
 * exit() and never prints a summary: the core computes every statistic and
 * renders every report.
 *
 * ABI 2.3 adds an SDK around these rules (docs/plugin-abi.md, "2.3"): the
 * skeleton's whole life driven by the core (BC_SKEL(), bc_bench_desc.skel),
 * per-thread counters the core owns and sums (bc_metric_desc.threads),
 * measure() by metric name (bc_metric_set()), BC_BENCH(), BC_ARRAY_SIZE(),
 * bc_strerror(), one refusal rule (bc_attach_is_refusal()) and option-name
 * prefixes (bc_plugin_desc.option_prefix).
 */
#ifndef BENCHCORE_BENCHCORE_H
#define BENCHCORE_BENCHCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BC_NEED() takes the kernel's BPF_PROG_TYPE_*, BPF_MAP_TYPE_* and
 * BPF_FUNC_* constants. */
#include <linux/bpf.h>

/* What a generated skeleton refers to by name: a BPF object using
 * BC_CPU_SLOTS(), BC_BATCH_TIMINGS() or BC_HIST_MAP() (<benchcore.bpf.h>)
 * has these types in its skeleton, so the plugin needs their definitions
 * before it includes NAME.skel.h (2.3: here, not in every plugin). */
#include <benchcore/batch_timing.h>
#include <benchcore/bpf_hist.h>
#include <benchcore/line_counter.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BC_ABI_MAJOR 2
#define BC_ABI_MINOR 3

#ifndef BC_API
#define BC_API __attribute__((visibility("default")))
#endif

/* The symbol every plugin exports; the loader dlsym()s exactly this name. */
#define BC_PLUGIN_SYMBOL "benchcore_plugin"

/* Everything a benchmark knows about the run it is part of. Opaque. */
struct bc_ctx;

/* 2.3: sdk */
/* The number of elements of an array (not a pointer: that fails to build
 * in C, where the check can be made). */
#ifdef __cplusplus
#define BC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#else
#define BC_ARRAY_SIZE(a)                                                            \
	(sizeof(a) / sizeof((a)[0]) +                                               \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(a),                \
						      __typeof__(&(a)[0])) ? -1 : 1]))
#endif

/* An array and its count, for the descriptors' pairs of fields:
 *   BC_OPTIONS(my_options)  .options, .option_cnt (plugin or benchmark)
 *   BC_NEEDS(my_needs)      .needs, .need_cnt
 *   BC_POINTS(my_points)    .attach_points, .attach_point_cnt */
#define BC_OPTIONS(arr) .options = (arr), .option_cnt = BC_ARRAY_SIZE(arr)
#define BC_NEEDS(arr) .needs = (arr), .need_cnt = BC_ARRAY_SIZE(arr)
#define BC_POINTS(arr) .attach_points = (arr), .attach_point_cnt = BC_ARRAY_SIZE(arr)

/* A kernel errno as words: strerror(), which also names the kernel's
 * internal ENOTSUPP (524, "Unknown error 524" to libc) and libbpf's own
 * codes. Takes err or -err. The text is static or this thread's. */
BC_API const char *bc_strerror(int err);

/* ---------------------------------------------------------------- options */

/*
 * A plugin's options are a table: the core builds the command-line parser,
 * `--help`, validation messages, the JSON config and sweep expansion from it.
 * Values land in an options struct the plugin declares (its size in
 * bc_plugin_desc.opts_size); every run gets its own zeroed copy, filled with
 * the defaults and then the user's values, readable with bc_ctx_opts(ctx).
 *
 * Field types, by option type (the BC_OPT_* macros check them at build time):
 *   BC_OPT_FLAG    bool         no value on the command line; sweeps use on/off
 *   BC_OPT_INT     int64_t      decimal, within [min, max]
 *   BC_OPT_SIZE    uint64_t     decimal with an optional K, M or G (x1024^n)
 *                               suffix, within [min, max]
 *   BC_OPT_COUNT   uint64_t     (2.2) a count of things, not bytes: decimal
 *                               with an optional K, M, G (x1000^n) or Ki, Mi,
 *                               Gi (x1024^n) suffix, within [min, max]
 *   BC_OPT_ENUM    int          the index of the word in `words`
 *   BC_OPT_STRING  const char * owned by the core, valid until teardown
 *   BC_OPT_CPUSET  const struct bc_cpus *  "0,2-3"; NULL when not given
 * For INT, SIZE and COUNT, min == max == 0 means no range beyond the type's
 * own. A plugin built against 2.0 or 2.1 never declares COUNT; one that does
 * is refused by those cores as an unknown type, as it should be.
 */
enum bc_opt_type {
	BC_OPT_FLAG = 1,
	BC_OPT_INT = 2,
	BC_OPT_SIZE = 3,
	BC_OPT_ENUM = 4,
	BC_OPT_STRING = 5,
	BC_OPT_CPUSET = 6,
	BC_OPT_COUNT = 7,	/* 2.2: report */
};

struct bc_option {
	size_t sz;
	const char *name;		/* long name without "--": "rb-batch-cnt" */
	enum bc_opt_type type;
	size_t offset;			/* of the field in the options struct */
	const char *help;		/* one line for --help */
	const char *def;		/* default, as a user would type it; NULL: zero */
	int64_t min, max;		/* INT and SIZE: inclusive range */
	const char *const *words;	/* ENUM: NULL-terminated */
	const char *arg;		/* --help placeholder ("N"); NULL: from the type */
	/* ABI 2.2: the BPF maps whose attributes (max_entries, key or value
	 * size, flags) this option's value sets, comma-separated
	 * ("bloom_array,bloom_filter"). When the kernel refuses to create one
	 * of them while bc_attach_first() tries its candidates, and the user
	 * changed this option, the run fails naming the option and its value
	 * instead of calling the benchmark unavailable. NULL: none. */
	const char *maps;
};

/* A CPU list option's value: ascending, unique CPU numbers. */
struct bc_cpus {
	size_t sz;
	unsigned int cnt;
	const unsigned int *cpus;
};

/* Compile-time check that FIELD of STRUCT has type T (C only: C++ plugins
 * fill struct bc_option themselves). */
#define BC__OPT_OFFSET(st, field, T)                                            \
	(offsetof(st, field) +                                                  \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((st *)0)->field), T) ? 1 : -1]))

#define BC__OPT(st, field, T, type_, name_, ...)                                  \
	{ .sz = sizeof(struct bc_option), .name = (name_), .type = (type_),       \
	  .offset = BC__OPT_OFFSET(st, field, T), __VA_ARGS__ }

/* e.g. BC_OPT_INT(struct my_opts, batch, "batch", .def = "500", .min = 1,
 *                 .max = 4000, .help = "records per syscall") */
#define BC_OPT_FLAG(st, field, name_, ...) BC__OPT(st, field, bool, BC_OPT_FLAG, name_, __VA_ARGS__)
#define BC_OPT_INT(st, field, name_, ...) BC__OPT(st, field, int64_t, BC_OPT_INT, name_, __VA_ARGS__)
#define BC_OPT_SIZE(st, field, name_, ...) BC__OPT(st, field, uint64_t, BC_OPT_SIZE, name_, __VA_ARGS__)
#define BC_OPT_ENUM(st, field, name_, ...) BC__OPT(st, field, int, BC_OPT_ENUM, name_, __VA_ARGS__)
#define BC_OPT_COUNT(st, field, name_, ...) \
	BC__OPT(st, field, uint64_t, BC_OPT_COUNT, name_, __VA_ARGS__)
#define BC_OPT_STRING(st, field, name_, ...) \
	BC__OPT(st, field, const char *, BC_OPT_STRING, name_, __VA_ARGS__)
#define BC_OPT_CPUSET(st, field, name_, ...) \
	BC__OPT(st, field, const struct bc_cpus *, BC_OPT_CPUSET, name_, __VA_ARGS__)

/* ---------------------------------------------------------------- metrics */

enum bc_metric_kind {
	/* A cumulative total: the core turns each interval's delta into a rate
	 * (events per second, normalised by the interval's measured length). */
	BC_METRIC_COUNTER = 1,
	/* A value sampled as is at every tick (a queue depth, a byte count). */
	BC_METRIC_GAUGE = 2,
	/* A cumulative total divided, per interval, by the delta of the counter
	 * named in `per`: nanoseconds per grace period, kmallocs per create. An
	 * interval where `per` did not move has no value. */
	BC_METRIC_RATIO = 3,
	/* A distribution recorded with bc_hist_record() from any thread; measure()
	 * leaves its value alone. Reported as count, p50, p90, p99, p99.9, max. */
	BC_METRIC_HISTOGRAM = 4,
	/* 2.3: results */
	/* Time per operation, both read from BPF: per interval, the delta of
	 * the time counter named in `bpf` over the delta of the operation
	 * counter named in `bpf_per` (BC_BATCH_TIMINGS(b): "b.ns" per
	 * "b.ops"). The operation counter is no metric of its own: it shows
	 * in no table, line or JSON list. `unit` is the time counter's, a time
	 * (ns, us, ms or s); reports print it per op ("ns/op"). An interval in
	 * which no operation ended has no value. Role BC_ROLE_AUX or
	 * BC_ROLE_LATENCY; better lower. */
	BC_METRIC_TIME_PER_OP = 5,
};

/*
 * What a metric is. The core derives every text line, JSON figure and table
 * cell from the roles, through one formatter, so `run`, sweeps, suites and
 * compare print the same numbers for the same run:
 *   HITS (+ DROPS)         the kernel runner's hits/drops lines:
 *                          hits, hits per producer, drops, total operations
 *   OPS                    the runner's ops lines: throughput, throughput per
 *                          producer, latency (ns/op of one producer)
 *   OPS + RATE             the runner's local-storage lines: throughput,
 *                          latency, the secondary rates' throughput
 *   SHARE                  the runner's false-hits lines: share of all
 *                          counted operations (HITS + DROPS + SHARE)
 *   LATENCY, no headline   the runner's grace-period lines: one per LATENCY
 *                          or RATIO metric, by its label
 * AUX metrics appear in JSON, tables and the spread line only.
 */
enum bc_metric_role {
	BC_ROLE_AUX = 0,	/* an auxiliary counter or gauge */
	BC_ROLE_HITS = 1,	/* headline: events counted or delivered */
	BC_ROLE_OPS = 2,	/* headline: operations done; its inverse is a latency */
	BC_ROLE_DROPS = 3,	/* events lost */
	BC_ROLE_RATE = 4,	/* a secondary rate shown beside the headline */
	BC_ROLE_SHARE = 5,	/* events that are a share of all operations */
	BC_ROLE_LATENCY = 6,	/* a latency: gauge, ratio or histogram */
};

struct bc_metric_desc {
	size_t sz;
	/* Identifier in JSON and tables: "hits", "drops", "gp_ns". */
	const char *name;
	/* Unit of one event (counter) or of the value: "ops", "ns". */
	const char *unit;
	enum bc_metric_kind kind;
	enum bc_metric_role role;
	/* RATIO: the name of the counter it is divided by. */
	const char *per;
	/* Words for text lines ("tasks_trace grace period latency"); NULL: name. */
	const char *label;
	/* 2.2: BPF-side source */
	/* Where the core reads this metric in the BPF object the plugin hands
	 * over with bc_ctx_set_bpf_object() (<benchcore.bpf.h> declares each
	 * kind), instead of from measure(). NULL: measure() fills it.
	 *   COUNTER, GAUGE, RATIO: a global of the object's .bss or .data,
	 *     "sym" or "sym.field": a __u64, or an array of them, or an array
	 *     of structs whose __u64 member `field` is summed (BC_CPU_SLOTS:
	 *     "hits"; BC_BATCH_TIMINGS: "batches.ops").
	 *   HISTOGRAM: a BC_HIST_MAP() map, by name: its per-CPU buckets are
	 *     merged with what bc_hist_record() records in user space.
	 *   TIME_PER_OP: the time counter, as for a counter ("batches.ns"). */
	const char *bpf;
	/* 2.3: results */
	/* TIME_PER_OP only, and required there: the operation counter the
	 * time is divided by, a BPF source as `bpf` names one ("batches.ops").
	 * The core reads it at every tick beside `bpf`. */
	const char *bpf_per;
	/* 2.3: sdk */
	/* COUNTER or RATIO only: the total is counted by the benchmark's
	 * threads, one counter each on its own cache line, which the core
	 * sums at every tick (no measure() for it). A thread resolves its
	 * counter once with bc_thread_counter() and bumps it with
	 * bc_counter_add(): one plain add and a relaxed store, no lock. */
	bool threads;
};

/* BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS) */
#define BC_METRIC(name_, unit_, kind_, ...)                                         \
	{ .sz = sizeof(struct bc_metric_desc), .name = (name_), .unit = (unit_),    \
	  .kind = (kind_), __VA_ARGS__ }

/* A histogram metric of the running benchmark, by name; NULL when there is
 * none. Valid from setup() to teardown(). */
struct bc_hist;
BC_API struct bc_hist *bc_ctx_hist(struct bc_ctx *ctx, const char *metric_name);
/* Records one value (in the metric's unit) without locks: each producer and
 * consumer thread writes its own shard (pass its bc_thread); other threads
 * pass NULL and share one shard with atomic adds. Log-bucketed: the value is
 * kept within 1/64 relative error. */
struct bc_thread;
BC_API void bc_hist_record(struct bc_hist *h, const struct bc_thread *t, uint64_t value);

/* ---------------------------------------------------------------- threads */

/* A producer's or consumer's view of itself, valid for the thread's life. */
struct bc_thread {
	size_t sz;
	unsigned int idx;	/* 0-based among the producers (or consumers) */
	int cpu;		/* the CPU it is pinned to, or -1 */
	const int *stop;	/* set to non-zero when the thread must return */
	bool consumer;		/* a consumer thread (else a producer) */
};

/* Cheap enough for any hot loop: one relaxed load, no call, no syscall. */
static inline bool bc_thread_should_stop(const struct bc_thread *t)
{
	return __atomic_load_n(t->stop, __ATOMIC_RELAXED) != 0;
}

/* Allocates `cnt` zeroed, cache-line aligned counters (struct bc_line_counter,
 * <benchcore/line_counter.h>); free with free(). */
BC_API struct bc_line_counter *bc_line_counters_alloc(size_t cnt);
BC_API uint64_t bc_line_counters_sum(const struct bc_line_counter *c, size_t cnt);

/*
 * 2.3: the counter of a `.threads = true` metric that belongs to thread t,
 * resolved once at the thread's start; the core owns it and sums every
 * thread's at each tick. A name that is no such metric is the plugin's
 * mistake: the run fails (status 1) naming it and the metrics that are,
 * and the pointer returned is a harmless counter nobody reads, so the
 * thread need not check it.
 */
BC_API struct bc_line_counter *bc_thread_counter(struct bc_ctx *ctx, const struct bc_thread *t,
						 const char *metric);

/* Only its thread writes a counter: no locked instruction, and a relaxed
 * store so that the sampler never reads a torn value. */
static inline void bc_counter_add(struct bc_line_counter *c, uint64_t n)
{
	__atomic_store_n(&c->value, c->value + n, __ATOMIC_RELAXED);
}

/*
 * 2.3: measure()'s way to fill a metric: by name, never by index, so that
 * reordering the metrics table cannot move a value to another metric.
 * Returns 0, or (a name that is no metric measure() fills) the plugin's
 * error, -ENOENT with the reason recorded, for measure() to return.
 */
BC_API int bc_metric_set(struct bc_ctx *ctx, double *values, const char *metric, double value);

/* ---------------------------------------------------- kernel needs (2.1) */

/*
 * What a benchmark needs from the kernel, as data. `list` answers "can it
 * run here?" from these with cheap feature checks (libbpf's probe API,
 * vmlinux BTF, tracefs), each asked once per process, instead of loading
 * every benchmark's programs; `list --probe` and `run` call probe(), which
 * loads and attaches, and is the final word.
 */
enum bc_need_kind {
	/* Programs of `type` (enum bpf_prog_type) load. */
	BC_NEED_PROG_TYPE = 1,
	/* Maps of `type` (enum bpf_map_type) can be created. */
	BC_NEED_MAP_TYPE = 2,
	/* Programs of `type` may call helper `id` (enum bpf_func_id). */
	BC_NEED_HELPER = 3,
	/* vmlinux BTF has the function `name`: a kfunc, or a function a
	 * program attaches to. */
	BC_NEED_BTF_FUNC = 4,
	/* vmlinux BTF has a type named `name` (struct, union, enum, typedef):
	 * the mark of a kernel feature. */
	BC_NEED_BTF_TYPE = 5,
	/* The file `name` exists (a /proc or /sys interface). */
	BC_NEED_FILE = 6,
};

struct bc_need {
	size_t sz;
	enum bc_need_kind kind;
	unsigned int type;	/* PROG_TYPE, MAP_TYPE, HELPER: the program or map type */
	unsigned int id;	/* HELPER: the helper's number (BPF_FUNC_loop) */
	const char *name;	/* BTF_FUNC, BTF_TYPE, FILE */
	/* Words for the reason when the kernel lacks it: "bpf_loop() (Linux
	 * 5.17)". NULL: the core names the need itself. */
	const char *why;
};

/* BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT,
 *         .id = BPF_FUNC_loop, .why = "bpf_loop() (Linux 5.17)") */
#define BC_NEED(kind_, ...) { .sz = sizeof(struct bc_need), .kind = (kind_), __VA_ARGS__ }

/* <benchcore/attach.h> */
struct bc_attach_point;

/* ------------------------------------------------- BPF skeletons (2.3) */

/*
 * A generated skeleton (bpftool gen skeleton), as the core drives it:
 * typed wrappers around NAME__open(), __load(), __attach(), __detach() and
 * __destroy(). Define one per skeleton with BC_SKEL(NAME) after including
 * NAME.skel.h, and point a benchmark's `skel` at it (&NAME_skel): the core
 * then owns the object's whole life (bc_bench_desc.skel says how).
 */
struct bpf_object;
struct bc_skel {
	size_t sz;
	const char *name;			/* NAME, for messages */
	void *(*open)(void);
	int (*load)(void *skel);
	int (*attach)(void *skel);
	void (*detach)(void *skel);
	void (*destroy)(void *skel);
	struct bpf_object *(*object)(void *skel);	/* skel->obj */
};

#define BC_SKEL(name_)                                                              \
	static void *bc__skel_open_##name_(void) { return name_##__open(); }        \
	static int bc__skel_load_##name_(void *s) { return name_##__load((struct name_ *)s); } \
	static int bc__skel_attach_##name_(void *s)                                 \
	{                                                                           \
		return name_##__attach((struct name_ *)s);                          \
	}                                                                           \
	static void bc__skel_detach_##name_(void *s) { name_##__detach((struct name_ *)s); } \
	static void bc__skel_destroy_##name_(void *s) { name_##__destroy((struct name_ *)s); } \
	static struct bpf_object *bc__skel_obj_##name_(void *s)                     \
	{                                                                           \
		return ((struct name_ *)s)->obj;                                    \
	}                                                                           \
	static const struct bc_skel name_##_skel = {                                \
		.sz = sizeof(struct bc_skel), .name = #name_,                       \
		.open = bc__skel_open_##name_, .load = bc__skel_load_##name_,       \
		.attach = bc__skel_attach_##name_, .detach = bc__skel_detach_##name_, \
		.destroy = bc__skel_destroy_##name_, .object = bc__skel_obj_##name_, \
	}

/* ------------------------------------------------------------- benchmarks */

struct bc_thread_range {
	size_t sz;
	unsigned int min;	/* fewest threads the benchmark can run with */
	unsigned int max;	/* most; 0 means no limit */
	unsigned int def;	/* used when the user does not say */
};

/* 2.3: a range left all zero (no BC_THREADS() at all) is the default, read
 * as BC_THREADS(1, 0, 1) for producers and BC_THREADS(0, 0, 0) for
 * consumers; one with fields set but no sz is still refused. */
#define BC_THREADS(min_, max_, def_)                                               \
	{ .sz = sizeof(struct bc_thread_range), .min = (min_), .max = (max_), .def = (def_) }

struct bc_bench_desc {
	size_t sz;
	const char *name;		/* unique within the plugin, non-empty */
	const char *description;	/* one line */
	struct bc_thread_range producers;
	struct bc_thread_range consumers;

	const struct bc_metric_desc *metrics;	/* array, stride metrics[0].sz */
	unsigned int metric_cnt;

	/* Options only this benchmark takes, beside the plugin's; offsets
	 * into the same options struct. Array, stride options[0].sz. */
	const struct bc_option *options;
	unsigned int option_cnt;

	/* Handed back by bc_ctx_bench_priv() in every callback: lets several
	 * benchmarks share callbacks without dispatching on their name. */
	const void *priv;

	/* Optional: can this benchmark run on this kernel, with these
	 * privileges? Loads and attaches what setup() would, then unloads.
	 * Called by `run` after validate(), and by `list --probe` (plain
	 * `list` uses the needs below when the benchmark declares them).
	 * Return 0, or bc_unavailable(ctx, "reason"). Must leave nothing
	 * loaded. */
	int (*probe)(struct bc_ctx *ctx);
	/* Optional: cross-option checks and thread counts; bc_usage_error()
	 * for bad input (exit status 2). Single values are checked by the core
	 * from the option table before this is called. */
	int (*validate)(struct bc_ctx *ctx);
	/* Optional: load BPF, allocate state (bc_ctx_set_data()). */
	int (*setup)(struct bc_ctx *ctx);
	/* Thread bodies: loop until bc_thread_should_stop(t). A consumer that
	 * blocks must wake at least every 100 ms to look at the flag. */
	int (*producer)(struct bc_ctx *ctx, struct bc_thread *t);
	int (*consumer)(struct bc_ctx *ctx, struct bc_thread *t);
	/* Fill values[i] for metrics[i]: the cumulative total of a counter or
	 * ratio, the current value of a gauge; histograms and times per op
	 * (read from BPF) are left alone.
	 * Called by the sampling thread. Optional (ABI 2.2) when every
	 * non-histogram metric names its BPF source (`bpf`): the core fills
	 * those after measure() returns. */
	int (*measure)(struct bc_ctx *ctx, double *values);
	/* Optional: undo setup(); must free everything setup() made, BPF
	 * programs, links and maps included. Called even after a failure. */
	void (*teardown)(struct bc_ctx *ctx);

	/* Optional, and only for a benchmark whose kernel-runner lines no role
	 * combination gives (local-storage-create): one progress line / the
	 * summary line for the rates the core computed. Both or neither. */
	int (*format_iter)(struct bc_ctx *ctx, const double *rates, char *buf, size_t len);
	int (*format_summary)(struct bc_ctx *ctx, const double *means,
			      const double *stddevs, char *buf, size_t len);

	/*
	 * ABI 2.1: what `list` asks instead of calling probe(), none of which
	 * loads the benchmark's programs. The benchmark is available when the
	 * kernel has every need, one of the attach points passes its cheap
	 * check and quick_probe() (if set) returns 0. With none of the three
	 * set, `list` calls probe(). A benchmark without probe() gets the
	 * same checks from `run` before setup().
	 */
	/* Every one is needed. Array, stride needs[0].sz. */
	const struct bc_need *needs;
	unsigned int need_cnt;
	/* The candidates bc_attach_first() tries, in its order (give it the
	 * same array): one is enough. Array, stride attach_points[0].sz. */
	const struct bc_attach_point *attach_points;
	unsigned int attach_point_cnt;
	/* Optional: what the data above cannot say (an option's default,
	 * a file to read). May call bc_need_check(), bc_attach_check() and
	 * bc_need_probe() (<benchcore/attach.h>); loads no program of the
	 * benchmark's own, unless it cannot tell without (then it costs what
	 * probe() costs). Return 0, or bc_unavailable(ctx, "reason"). */
	int (*quick_probe)(struct bc_ctx *ctx);
	/* 2.2: BPF-side source */
	/* Optional: load and attach the program of one of attach_points;
	 * with it the core drives the attach ladder itself, right after
	 * setup() returns 0: it tries each candidate in order, as
	 * bc_attach_first() does, and records the one that worked. Same
	 * contract as a bc_attach_try_fn: a failure leaves nothing loaded
	 * and returns the kernel's negative errno. Plugin state is
	 * bc_ctx_data(). When the callback declares no program itself and
	 * handed over its BPF object (bc_ctx_set_bpf_object()), the core
	 * declares the candidate's prog_name as the program under test,
	 * role "producer".
	 * Without probe(), `list --probe` and `run` probe a benchmark by
	 * setup(), this ladder and teardown(). What the core reads as the
	 * plugin's mistake rather than the kernel's refusal is listed at
	 * bc_attach_try_fn (<benchcore/attach.h>). With `skel` (2.3) the
	 * core has its own and this stays NULL. */
	int (*attach)(struct bc_ctx *ctx, const struct bc_attach_point *pt);

	/* 2.2: report */
	/* The benchmark has the kernel runner's name, and the runner's
	 * scripts read its text: its Iter and Summary lines keep the runner's
	 * shapes exactly (rates in M/s with three decimals, the runner's
	 * words). Without it those lines print each figure in its metric's
	 * unit, on a scale that keeps its significant digits. */
	bool runner_name;
	/* The metrics whose figures the Summary line carries, by name, comma
	 * separated, in order ("lookup_ns,lookups"): a counter's rate (with
	 * its per-producer rate and latency when it is the headline), a
	 * gauge's or a ratio's mean, a histogram's p50 and p99. NULL: the
	 * figures the roles give. With runner_name the runner's line stays:
	 * the one figure that may be named besides the OPS headline is a
	 * LATENCY or RATIO metric in ns, us, ms or s, which takes the ops
	 * line's "latency ... ns/op" place; the loader refuses other names. */
	const char *summary;

	/* 2.3: results */
	/* The name of the metric that is this benchmark's result: the figure
	 * `run --against`, --precision, history, the report and compare judge
	 * by default, recorded as the run document's "headline". NULL: the
	 * first HITS metric, else the first OPS one (none: no headline). Not a
	 * histogram (no mean to judge). With `summary` NULL, the Summary line
	 * carries it beside the roles' figures. Under runner_name it may only
	 * name the runner's own figure, the metric NULL gives. The roles keep
	 * their lines: an OPS metric's latency stays its inverse. */
	const char *headline;

	/* 2.3: sdk */
	/*
	 * The skeleton's life in the core's hands (BC_SKEL()). With `skel`
	 * set, the core drives the attach ladder over attach_points itself,
	 * right after setup(), for each candidate in turn:
	 *   open; check that the object has every attach point's prog_name
	 *   and also_prog (before the first candidate: a name it lacks fails
	 *   the run, status 1, listing the programs it has); load only the
	 *   candidate's programs; configure() (before load); load; loaded()
	 *   (after load, before attach); declare the candidate's program
	 *   under test (role "producer") unless loaded() declared the
	 *   programs itself (bc_ctx_add_prog()); attach every loaded program whose
	 *   SEC() names its target, as NAME__attach() does (a program run by
	 *   BPF_PROG_TEST_RUN stays loaded, unattached); hand the object over
	 *   as bc_ctx_set_bpf_object() does.
	 * A failed load or attach is the kernel's answer about the candidate
	 * (bc_attach_is_refusal() decides whether the next is tried); a
	 * failed open, configure() or loaded() is the plugin's (the run fails,
	 * status 1, unless the callback said bc_unavailable()). Everything of
	 * a failed candidate is destroyed. At the end of the run the core
	 * detaches the programs, calls teardown() (the skeleton is still
	 * there: read it with bc_ctx_skel()), then destroys the skeleton.
	 * No attach() and no teardown() of the plugin's are needed.
	 * The plugin reads its skeleton with bc_ctx_skel(ctx) from setup()'s
	 * end on: in producers, consumers, measure() and teardown().
	 * Without probe(), `run` and `list --probe` probe the benchmark by
	 * setup(), this ladder and teardown().
	 */
	const struct bc_skel *skel;
	/* Optional: sets what the candidate's programs read before they load
	 * (skel->rodata, ->bss, map sizes, attach targets) for the chosen
	 * attach point; `skel` is the opened skeleton (struct NAME *). */
	int (*configure)(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt);
	/* Optional: what needs the loaded object before the programs run
	 * (filling maps, mapping a ring). */
	int (*loaded)(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt);
};

/* 2.3: a benchmark descriptor with its size and metric count filled in:
 *   BC_BENCH("lookup", "one line", my_metrics, .producer = my_producer,
 *            BC_POINTS(my_points), .skel = &my_skel);
 * A thread range left out reads as the default: one producer (any number
 * allowed), no consumers. */
#define BC_BENCH(name_, desc_, metrics_, ...)                                         \
	{ .sz = sizeof(struct bc_bench_desc), .name = (name_), .description = (desc_), \
	  .metrics = (metrics_), .metric_cnt = BC_ARRAY_SIZE(metrics_), __VA_ARGS__ }

/* ----------------------------------------------------------------- plugin */

struct bc_plugin_desc {
	size_t sz;			/* sz and abi_major stay first in every ABI */
	unsigned int abi_major;		/* BC_ABI_MAJOR the plugin was built with */
	unsigned int abi_minor;		/* BC_ABI_MINOR the plugin was built with */
	const char *name;		/* "ringbuf": the .so stem, the part before ':' */
	const char *version;
	const char *description;
	/* Options every benchmark of the plugin takes; array, stride
	 * options[0].sz. May be NULL. */
	const struct bc_option *options;
	unsigned int option_cnt;
	/* sizeof the struct the options' offsets index into (0: no options). */
	size_t opts_size;
	/* NULL-terminated. */
	const struct bc_bench_desc *const *benches;
	/* 2.3: sdk */
	/* Put before the name of every option of the plugin's tables, its
	 * benchmarks' included: with "crypto-", the option "len" is
	 * --crypto-len everywhere (command line, JSON, sweeps). NULL: none. */
	const char *option_prefix;
};

/* 2.3: the plugin's benchmarks, NULL-terminated, in its descriptor:
 *   BENCHCORE_PLUGIN(.name = "x", ..., BC_BENCHES(&x_one, &x_two));
 * (C only: a file-scope compound literal. C++ plugins name an array.) */
#ifndef __cplusplus
#define BC_BENCHES(...) .benches = (const struct bc_bench_desc *const[]){ __VA_ARGS__, NULL }
#endif

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

/* This run's options struct (bc_plugin_desc.opts_size bytes, filled from
 * the option tables); NULL when the plugin declares no options. */
BC_API const void *bc_ctx_opts(const struct bc_ctx *ctx);
/* The running benchmark's bc_bench_desc.priv. */
BC_API const void *bc_ctx_bench_priv(const struct bc_ctx *ctx);

/* Declares a BPF program under test, so that the core can read its kernel
 * statistics (run count, run time) and name it in reports. `role` says what
 * it does ("producer", "consumer", "trigger"). The fd must stay open until
 * teardown(). Returns 0 or a negative errno. */
BC_API int bc_ctx_add_prog(struct bc_ctx *ctx, int prog_fd, const char *role);

/* ABI 2.2: hands the core the loaded BPF object (skel->obj) whose symbols
 * and maps the benchmark's metrics name in their `bpf` field. Call it
 * after the object is loaded (from setup() or the attach callback); the
 * object must stay loaded until teardown(), which destroys it as before.
 * Returns 0 or a negative errno; NULL is the plugin's mistake (-EINVAL,
 * reason recorded: the run fails with status 1, never "unavailable").
 * A benchmark with `skel` (2.3) does not call it: the core hands itself
 * the object it loaded. */
struct bpf_object;
BC_API int bc_ctx_set_bpf_object(struct bc_ctx *ctx, struct bpf_object *obj);

/* 2.3: the skeleton the core opened for a benchmark with `skel` (struct
 * NAME *), from the attach ladder's end to teardown()'s; NULL before. */
BC_API void *bc_ctx_skel(const struct bc_ctx *ctx);

/* Per-run plugin state, so plugins need no global state across runs. */
BC_API void bc_ctx_set_data(struct bc_ctx *ctx, void *data);
BC_API void *bc_ctx_data(const struct bc_ctx *ctx);

/* Records where the program under test was attached ("tp/syscalls/..."):
 * printed in the text report and stored in JSON. */
BC_API void bc_ctx_set_attach_point(struct bc_ctx *ctx, const char *name);
BC_API const char *bc_ctx_attach_point(const struct bc_ctx *ctx);

/* Adds one line to the end of the text report, after the Summary line, in
 * call order: the lines a kernel runner's benchmark prints from its own
 * state when it ends (bpf-hashmap-lookup's per-CPU lines), which no metric
 * holds. Call from teardown() (or measure()), while that state is still
 * there. A newline ends the line early. Returns 0 or -ENOMEM. */
BC_API int bc_ctx_final_line(struct bc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
/* ABI 2.2: the same, each line starting "benchcore: PLUGIN:BENCH: " for
 * the benchmark of ctx, so that a plugin's own lines say who speaks. */
BC_API void bc_ctx_log(const struct bc_ctx *ctx, enum bc_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define bc_warn(...) bc_log(BC_LOG_WARN, __VA_ARGS__)
#define bc_info(...) bc_log(BC_LOG_INFO, __VA_ARGS__)
#define bc_debug(...) bc_log(BC_LOG_DEBUG, __VA_ARGS__)

/* Version of the core library this plugin is running in, e.g. "0.1.0". */
BC_API const char *bc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCHCORE_BENCHCORE_H */
