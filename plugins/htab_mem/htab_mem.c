// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The htab_mem plugin: htab-mem, the kernel runner's hash map memory
 * benchmark (benchs/bench_htab_mem.c), under its name and options.
 *
 * Producers trigger batches of 64 hash map operations in BPF
 * (htab_mem.bpf.c) in one of three --use-case patterns, on a map that is
 * preallocated or not (--preallocated), while the memory charged to the
 * benchmark's own memory cgroup (htab_memcg.c) is sampled each second:
 *
 *   ops          batches done: its per-producer rate is the runner's
 *                "per-prod-op"
 *   memory       the cgroup's memory now, MiB ("memory usage")
 *   peak_memory  its high-water mark so far, MiB; the last sample (the
 *                maximum) is the runner's "peak memory usage"
 *
 * The text lines are the runner's own (format_iter, format_summary): its
 * script takes per-prod-op, memory usage and peak memory usage from the
 * summary line, and no role line carries gauges. So "ops" is a rate, not a
 * headline role, which would print an ops line instead. The summary line can only
 * show the mean of the sampled high-water mark; it equals the runner's
 * end-of-run read unless memory still grew while measuring, and the JSON
 * summary's maximum of peak_memory is that read in every case.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "htab_mem_common.h"
#include "htab_memcg.h"
#include "htab_mem.skel.h"

BC_SKEL(htab_mem);

#define HTAB_MEM_MIB (1024.0 * 1024.0)

enum htab_mem_use_case {
	HTAB_MEM_OVERWRITE = 0,
	HTAB_MEM_BATCH_ADD_BATCH_DEL = 1,
	HTAB_MEM_ADD_DEL_ON_DIFF_CPU = 2,
};

static const char *const htab_mem_use_case_words[] = {
	"overwrite", "batch_add_batch_del", "add_del_on_diff_cpu", NULL,
};

struct htab_mem_opts {
	int64_t value_size;
	int use_case;
	bool preallocated;
};

/* One adder/deleter pair of add_del_on_diff_cpu: whose turn it is. */
struct htab_mem_pair {
	int turn;	/* 0: the adder's, 1: the deleter's */
} __attribute__((aligned(64)));

struct htab_mem_case {
	const struct bc_attach_point *points;
	size_t point_cnt;
	bool paired;	/* adders and deleters (the points' also_prog) */
};

struct htab_mem_state {
	const struct htab_mem_case *uc;
	uint32_t value_size, max_entries, nr_thread;
	bool preallocated;
	struct htab_memcg cg;
	struct htab_mem_pair *pairs;
	bool have_peak;		/* the kernel has a peak file */
	uint64_t peak_seen;	/* else: the highest sample */
};

static const struct bc_option htab_mem_options[] = {
	BC_OPT_INT(struct htab_mem_opts, value_size, "value-size", .def = "8", .min = 1,
		   .max = HTAB_MEM_MAX_VALUE, .arg = "BYTES", .help = "value size of the hash map",
		   .maps = "htab"),
	BC_OPT_ENUM(struct htab_mem_opts, use_case, "use-case", .def = "overwrite",
		    .words = htab_mem_use_case_words,
		    .help = "operations per trigger: overwrite, batch_add_batch_del, add_del_on_diff_cpu"),
	BC_OPT_FLAG(struct htab_mem_opts, preallocated, "preallocated",
		    .help = "preallocate the hash map's elements (default: BPF memory allocator)",
		    .maps = "htab"),
};

/* The runner's tracepoints first; raw_tp/sys_enter where tracefs is missing. */
static const struct bc_attach_point htab_mem_overwrite_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "overwrite_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "overwrite_raw_tp"),
};
static const struct bc_attach_point htab_mem_batch_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "batch_add_batch_del_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "batch_add_batch_del_raw_tp"),
};
/* The adder at each point, and the deleter beside it. */
static const struct bc_attach_point htab_mem_pair_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid + sys_enter_getppid",
			"add_only_tp", .also_prog = "del_only_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter (getpgid + getppid)", "add_only_raw_tp",
			.also_prog = "del_only_raw_tp"),
};

/* Indexed by enum htab_mem_use_case. */
static const struct htab_mem_case htab_mem_cases[] = {
	{ .points = htab_mem_overwrite_points,
	  .point_cnt = BC_ARRAY_SIZE(htab_mem_overwrite_points) },
	{ .points = htab_mem_batch_points, .point_cnt = BC_ARRAY_SIZE(htab_mem_batch_points) },
	{ .points = htab_mem_pair_points, .point_cnt = BC_ARRAY_SIZE(htab_mem_pair_points),
	  .paired = true },
};

/* Before the candidate loads: what its programs read, the map's shape. */
static int htab_mem_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct htab_mem_state *st = bc_ctx_data(ctx);
	struct htab_mem *s = skel;
	struct bpf_map *map = s->maps.htab;
	int err;

	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->nr_thread = st->nr_thread;
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->getppid_nr = SYS_getppid;
	err = bpf_map__set_value_size(map, st->value_size);
	if (!err)
		err = bpf_map__set_max_entries(map, st->max_entries);
	if (!err && st->preallocated)
		err = bpf_map__set_map_flags(map, bpf_map__map_flags(map) & ~BPF_F_NO_PREALLOC);
	return err;
}

/* Every program loaded is a producer's: the adder and, paired, the deleter. */
static int htab_mem_loaded(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct bpf_program *prog;
	int err;

	(void)pt;
	bpf_object__for_each_program(prog, ((struct htab_mem *)skel)->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		err = bc_ctx_add_prog(ctx, bpf_program__fd(prog), "producer");
		if (err)
			return bc_error(ctx, err, "declaring the program under test: %s",
					bc_strerror(err));
	}
	return 0;
}

/* Fills the parts of the state that come from the options and threads. */
static int htab_mem_config(struct bc_ctx *ctx, struct htab_mem_state *st)
{
	const struct htab_mem_opts *o = bc_ctx_opts(ctx);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	st->uc = &htab_mem_cases[o->use_case];
	st->value_size = (uint32_t)o->value_size;
	st->preallocated = o->preallocated;
	st->nr_thread = bc_ctx_producer_cnt(ctx);
	/* As the runner: room for every CPU's 64 keys, 8192 at least. */
	st->max_entries = cpus > 0 && (uint64_t)cpus * HTAB_MEM_BATCH > HTAB_MEM_MIN_ENTRIES ?
				  (uint32_t)cpus * HTAB_MEM_BATCH : HTAB_MEM_MIN_ENTRIES;
	return 0;
}

/* ------------------------------------------------------------ callbacks */

static int htab_mem_validate(struct bc_ctx *ctx)
{
	const struct htab_mem_opts *o = bc_ctx_opts(ctx);
	unsigned int p = bc_ctx_producer_cnt(ctx);

	if (o->use_case == HTAB_MEM_ADD_DEL_ON_DIFF_CPU && p % 2)
		return bc_usage_error(ctx, "--producers %u: use case add_del_on_diff_cpu runs adder and deleter pairs; expected an even number",
				      p);
	return 0;
}

/* `list`: what the data below cannot say, without loading anything. */
static int htab_mem_quick_probe(struct bc_ctx *ctx)
{
	struct htab_memcg cg;
	char why[512];

	if (htab_memcg_locate(&cg, why, sizeof(why)))
		return bc_unavailable(ctx, "the hash map's memory cannot be measured: %s", why);
	return 0;
}

static int htab_mem_setup(struct bc_ctx *ctx)
{
	struct htab_mem_state *st;
	char why[512];
	uint64_t bytes;
	int idx, err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	st->cg.dir_fd = -1;
	bc_ctx_set_data(ctx, st);
	err = htab_mem_config(ctx, st);
	if (err)
		return err;
	if (st->uc->paired) {
		st->pairs = aligned_alloc(64, (st->nr_thread / 2 + 1) * sizeof(*st->pairs));
		if (!st->pairs)
			return bc_error(ctx, -ENOMEM, "allocating %u producer pairs", st->nr_thread / 2);
		memset(st->pairs, 0, (st->nr_thread / 2 + 1) * sizeof(*st->pairs));
	}

	/* Joined before the map exists, so that it is charged here. */
	if (htab_memcg_locate(&st->cg, why, sizeof(why)))
		return bc_unavailable(ctx, "the hash map's memory cannot be measured: %s", why);
	err = htab_memcg_enter(&st->cg, why, sizeof(why));
	if (err)
		return bc_error(ctx, err, "%s", why);

	/* The use case's candidates, through the core's skeleton ladder. */
	idx = bc_skel_ladder(ctx, st->uc->points, st->uc->point_cnt);
	if (idx < 0)
		return idx;
	st->have_peak = htab_memcg_read(&st->cg, true, &bytes) == 0;
	return 0;
}

static void htab_mem_futex_wake(int *word)
{
	(void)syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits until *word is `want`, looking at the stop flag every 100 ms. */
static bool htab_mem_wait_turn(int *word, int want, struct bc_thread *t)
{
	const struct timespec nap = { .tv_nsec = 100 * 1000 * 1000 };
	int v;

	while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) != want) {
		if (bc_thread_should_stop(t))
			return false;
		(void)syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, v, &nap, NULL, 0);
	}
	return true;
}

/*
 * add_del_on_diff_cpu: producers 2k (adds, getpgid) and 2k + 1 (deletes the
 * same keys, getppid) take turns, as the runner's two barriers per round
 * make them; a futex hand-off instead, so that a stopping benchmark never
 * leaves one of the two waiting for the other.
 */
static int htab_mem_pair_producer(struct htab_mem_state *st, struct bc_thread *t)
{
	struct htab_mem_pair *p = &st->pairs[t->idx / 2];
	bool adder = t->idx % 2 == 0;
	int mine = adder ? 0 : 1;

	while (htab_mem_wait_turn(&p->turn, mine, t)) {
		/* getpgid(0), as the runner's: it passes the pid. */
		if (adder)
			(void)syscall(SYS_getpgid, 0);
		else
			(void)syscall(SYS_getppid);
		__atomic_store_n(&p->turn, !mine, __ATOMIC_RELEASE);
		htab_mem_futex_wake(&p->turn);
	}
	return 0;
}

static int htab_mem_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct htab_mem_state *st = bc_ctx_data(ctx);

	if (st->pairs)
		return htab_mem_pair_producer(st, t);
	while (!bc_thread_should_stop(t))
		(void)syscall(SYS_getpgid, 0);
	return 0;
}

static int htab_mem_measure(struct bc_ctx *ctx, double *values)
{
	struct htab_mem_state *st = bc_ctx_data(ctx);
	uint64_t now, peak;
	int err;

	err = htab_memcg_read(&st->cg, false, &now);
	if (err)
		return bc_error(ctx, err, "reading the memory of %s: %s", st->cg.path, bc_strerror(err));
	if (now > st->peak_seen)
		st->peak_seen = now;
	peak = st->peak_seen;
	if (st->have_peak && htab_memcg_read(&st->cg, true, &peak))
		peak = st->peak_seen;
	err = bc_metric_set(ctx, values, "memory", (double)now / HTAB_MEM_MIB);
	return err ? err : bc_metric_set(ctx, values, "peak_memory", (double)peak / HTAB_MEM_MIB);
}

static void htab_mem_teardown(struct bc_ctx *ctx)
{
	struct htab_mem_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	/* The core destroys the map after this: memory the cgroup held then
	 * leaves with it, as the cgroup itself is gone. */
	htab_memcg_leave(&st->cg);
	free(st->pairs);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* The runner's lines: thousands of batches per second per producer, MiB. */
static int htab_mem_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	unsigned int prods = bc_ctx_producer_cnt(ctx);

	snprintf(buf, len, "per-prod-op %7.2lfk/s, memory usage %7.2lfMiB",
		 rates[0] / 1e3 / (prods ? prods : 1), rates[1]);
	return 0;
}

static int htab_mem_format_summary(struct bc_ctx *ctx, const double *means,
				   const double *stddevs, char *buf, size_t len)
{
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double p = prods ? prods : 1;

	snprintf(buf, len, "per-prod-op %7.2lf \u00b1 %7.2lfk/s, memory usage %7.2lf \u00b1 %7.2lfMiB, peak memory usage %7.2lfMiB",
		 means[0] / 1e3 / p, stddevs[0] / 1e3 / p, means[1], stddevs[1], means[2]);
	return 0;
}

/* ----------------------------------------------------------- descriptors */

static const struct bc_metric_desc htab_mem_metrics[] = {
	/* A rate, not a headline: the lines are the plugin's own. */
	BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_RATE,
		  .label = "batches of 64 map operations", .bpf = "op_cnt"),
	BC_METRIC("memory", "MiB", BC_METRIC_GAUGE, .role = BC_ROLE_AUX,
		  .label = "memory usage"),
	BC_METRIC("peak_memory", "MiB", BC_METRIC_GAUGE, .role = BC_ROLE_AUX,
		  .label = "peak memory usage"),
};

static const struct bc_need htab_mem_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

/* The default use case's points: what `list` checks cheaply; setup()
 * runs the ladder over the chosen use case's. */
static const struct bc_bench_desc htab_mem_bench = BC_BENCH("htab-mem",
	"hash map operation rate and the memory it holds, per --use-case", htab_mem_metrics,
	.runner_name = true, BC_NEEDS(htab_mem_needs), BC_POINTS(htab_mem_overwrite_points),
	.skel = &htab_mem_skel, .configure = htab_mem_configure, .loaded = htab_mem_loaded,
	.quick_probe = htab_mem_quick_probe, .validate = htab_mem_validate,
	.setup = htab_mem_setup, .producer = htab_mem_producer, .measure = htab_mem_measure,
	.teardown = htab_mem_teardown, .format_iter = htab_mem_format_iter,
	.format_summary = htab_mem_format_summary);

BENCHCORE_PLUGIN(.name = "htab_mem", .version = "1.0",
		 .description = "hash map memory: operation rate and memory held, with and without preallocation",
		 BC_OPTIONS(htab_mem_options),
		 .opts_size = sizeof(struct htab_mem_opts), BC_BENCHES(&htab_mem_bench));
