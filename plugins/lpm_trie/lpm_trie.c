// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The lpm_trie plugin: the kernel runner's LPM trie benchmarks
 * (benchs/bench_lpm_trie_map.c), under its names and options. Every trie
 * holds keys 0..--nr_entries-1, no gaps: the worst case.
 *
 *   lpm-trie-noop      the timed loop alone: the harness's cost
 *   lpm-trie-baseline  the loop and the key: the floor under lookup, update
 *   lpm-trie-lookup    lookups in a full trie
 *   lpm-trie-insert    inserts into an empty trie, emptied when full
 *   lpm-trie-update    updates of existing keys
 *   lpm-trie-delete    deletes from a full trie, refilled when empty
 *   lpm-trie-free      freeing a full trie (the kernel's deferred free)
 *
 * All but -free run an XDP program with BPF_PROG_TEST_RUN, as the runner
 * does: nothing is attached, so these run on any kernel with bpf_loop().
 *
 * Rates: noop, baseline, lookup and update report operations per second of
 * the run, the runner's ops lines. insert, delete and free stop to empty,
 * refill or rebuild the trie, so the runner rates them per second of BPF
 * (or free) time instead; no metric role divides by a measured busy time,
 * so those three print the runner's lines themselves (format_iter and
 * format_summary) from two ratios the core computes per interval, and their
 * "ops" is no headline (an ops line would take the place of theirs).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "lpm_trie_common.h"
#include "lpm_trie.skel.h"

BC_SKEL(lpm_trie);

struct lpm_opts {
	int64_t nr_entries;
	int64_t prefix_len;
	bool random;
};

/* What each benchmark is, as data (bc_bench_desc.priv). */
struct lpm_kind {
	enum lpm_op op;
	bool filled;		/* starts from a full trie */
	bool sequential;	/* refuses --random */
	/* frac-second lines: rate unit and latency unit, as the runner's */
	double rate_div;
	char rate_unit;
	double lat_div;
	const char *lat_unit;
};

struct lpm_state {
	const struct lpm_kind *kind;
	uint32_t nr_entries, prefixlen;
	bool random;
	int prog_fd;
	struct lpm_bench_key *keys;	/* every key, for refills */
	__u32 *vals;
	char map_name[LPM_NAME_LEN];	/* lpm-trie-free's tries */
	uint64_t free_fn;		/* bpf_map_free_deferred, from kallsyms */
};

static const struct bc_option lpm_options[] = {
	BC_OPT_INT(struct lpm_opts, nr_entries, "nr_entries", .min = 0, .max = UINT32_MAX,
		   .arg = "N", .help = "entries in the trie, keys 0..N-1 (required)"),
	BC_OPT_INT(struct lpm_opts, prefix_len, "prefix_len", .def = "32", .min = 1,
		   .max = LPM_MAX_PREFIXLEN, .arg = "BITS", .help = "prefix length of every key"),
	BC_OPT_FLAG(struct lpm_opts, random, "random",
		    .help = "random keys instead of keys in turn (lookup, update, noop, baseline)"),
};

/* Where the free of a trie is timed: the runner's fentry/fexit pair, else
 * the workqueue tracepoints around the same work item. */
static const struct bc_attach_point lpm_free_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_FENTRY, "fentry+fexit/bpf_map_free_deferred", "free_fentry",
			.also_prog = "free_fexit"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/workqueue_execute_start+end (bpf_map_free_deferred)",
			"free_wq_start", .also_prog = "free_wq_end"),
};

/* Every other benchmark: run_bench, run by BPF_PROG_TEST_RUN, nothing attached. */
static const struct bc_attach_point lpm_run_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_OTHER, "xdp run_bench (BPF_PROG_TEST_RUN)", "run_bench"),
};

/* The address of a kernel function, from /proc/kallsyms (0: not found, or
 * hidden by kptr_restrict). */
static uint64_t lpm_kallsyms(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

/* ------------------------------------------------------------ the trie */

/*
 * Keys per batch syscall. A batch runs to its end inside the syscall, with
 * no signal taking effect before it returns: 100 million keys in one call
 * would hold SIGINT (and SIGKILL) off for tens of seconds. In slices the
 * fill of the largest trie is many short calls (<benchcore/work.h>).
 */
#define LPM_FILL_SLICE 65536
BC_WORK_STATIC_ASSERT(LPM_FILL_SLICE, 64, "an LPM fill slice");
BC_WORK_STATIC_ASSERT(LPM_NR_LOOPS, 256, "LPM operations per BPF_PROG_TEST_RUN");

static int lpm_fill(struct lpm_state *st, int fd, bool empty)
{
	__u32 done = 0, n, i;
	int err = 0;

	while (done < st->nr_entries) {
		n = st->nr_entries - done < LPM_FILL_SLICE ? st->nr_entries - done : LPM_FILL_SLICE;
		err = empty ? bpf_map_delete_batch(fd, st->keys + done, &n, NULL) :
			      bpf_map_update_batch(fd, st->keys + done, st->vals + done, &n, NULL);
		if (err)
			break;
		done += n;
	}
	/* ENOTSUPP: an op the map type lacks. */
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -BC_ENOTSUPP)
		return err;
	/* A kernel without batch operations on tries: one at a time. */
	for (i = 0; i < st->nr_entries; i++) {
		err = empty ? bpf_map_delete_elem(fd, &st->keys[i]) :
			      bpf_map_update_elem(fd, &st->keys[i], &st->vals[i], BPF_ANY);
		if (err && !(empty && err == -ENOENT))
			return err;
	}
	return 0;
}

static int lpm_make_keys(struct bc_ctx *ctx, struct lpm_state *st)
{
	uint32_t i;

	st->keys = calloc(st->nr_entries, sizeof(*st->keys));
	st->vals = calloc(st->nr_entries, sizeof(*st->vals));
	if (!st->keys || !st->vals)
		return bc_error(ctx, -ENOMEM, "allocating %u trie keys", st->nr_entries);
	for (i = 0; i < st->nr_entries; i++) {
		st->keys[i].prefixlen = st->prefixlen;
		st->keys[i].data = i;
		st->vals[i] = 1;
	}
	return 0;
}

/* Before the candidate loads: what its programs read. */
static int lpm_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct lpm_state *st = bc_ctx_data(ctx);
	struct lpm_trie *s = skel;

	/* The tracepoints see every work item: without the address of the
	 * map free function they cannot pick ours out. */
	if (pt->kind == BC_ATTACH_RAW_TP && !st->free_fn)
		return bc_attach_skip(ctx, "bpf_map_free_deferred is not in /proc/kallsyms (or kptr_restrict hides it)");
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->op = st->kind->op;
	s->rodata->nr_entries = st->nr_entries;
	s->rodata->prefixlen = st->prefixlen;
	s->rodata->random_keys = st->random;
	memcpy((char *)s->rodata->free_map_name, st->map_name, LPM_NAME_LEN);
	s->rodata->free_fn = st->free_fn;
	/* Only lpm-trie-free leaves trie_map unused; it is empty anyway. */
	return 0;
}

/* After load: lpm-trie-free's two timers are declared as such; the others'
 * run_bench (declared by the core) starts from a full trie if it must. */
static int lpm_loaded(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct lpm_state *st = bc_ctx_data(ctx);
	struct lpm_trie *s = skel;
	struct bpf_program *prog;
	int err;

	(void)pt;
	if (st->kind->op == LPM_OP_FREE) {
		bpf_object__for_each_program(prog, s->obj) {
			if (!bpf_program__autoload(prog))
				continue;
			err = bc_ctx_add_prog(ctx, bpf_program__fd(prog), "timer");
			if (err)
				return bc_error(ctx, err, "declaring the timing program: %s",
						bc_strerror(err));
		}
		return 0;
	}
	st->prog_fd = bpf_program__fd(s->progs.run_bench);
	if (!st->kind->filled)
		return 0;
	err = lpm_fill(st, bpf_map__fd(s->maps.trie_map), false);
	if (err)
		return bc_error(ctx, err, "filling the trie with %u keys: %s", st->nr_entries,
				bc_strerror(err));
	return 0;
}

/* ------------------------------------------------------------ callbacks */

/* `run` validates before setup(); a probe (`list --probe`) sets up with
 * the defaults alone, where a one-key trie answers whether it runs. */
static int lpm_config(struct bc_ctx *ctx, struct lpm_state *st, bool probing)
{
	const struct lpm_opts *o = bc_ctx_opts(ctx);

	st->kind = bc_ctx_bench_priv(ctx);
	if (!o->nr_entries && probing) {
		st->nr_entries = 1;
		st->prefixlen = 32;
		return 0;
	}
	if (!o->nr_entries)
		return bc_usage_error(ctx, "--nr_entries: required, the number of keys in the trie (e.g. --nr_entries 10000)");
	if (o->prefix_len < 32 && (uint64_t)o->nr_entries > 1ull << o->prefix_len)
		return bc_usage_error(ctx, "--nr_entries '%lld': expected at most %llu: --prefix_len %lld has only that many distinct prefixes",
				      (long long)o->nr_entries, 1ull << o->prefix_len,
				      (long long)o->prefix_len);
	if (o->random && st->kind->sequential)
		return bc_usage_error(ctx, "--random: %s works through the keys in order; expected no --random",
				      bc_ctx_bench_name(ctx));
	st->nr_entries = (uint32_t)o->nr_entries;
	st->prefixlen = (uint32_t)o->prefix_len;
	st->random = o->random;
	return 0;
}

static int lpm_validate(struct bc_ctx *ctx)
{
	struct lpm_state st = { 0 };

	return lpm_config(ctx, &st, false);
}

/* Does /proc/kallsyms show this process addresses (kptr_restrict)? Its
 * first line says, without reading the other hundred thousand. */
static bool lpm_kallsyms_shows_addresses(void)
{
	unsigned long long addr = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f) && sscanf(line, "%llx", &addr) != 1)
		addr = 0;
	fclose(f);
	return addr != 0;
}

static const struct bc_need lpm_run_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_XDP),
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_XDP, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

/* `list`: run_bench's needs, or lpm-trie-free's attach points, where the
 * workqueue tracepoints need the free function's address. */
static int lpm_quick_probe(struct bc_ctx *ctx)
{
	const struct lpm_kind *kind = bc_ctx_bench_priv(ctx);
	static const struct bc_need free_fn = BC_NEED(BC_NEED_BTF_FUNC,
						      .name = "bpf_map_free_deferred");

	if (kind->op != LPM_OP_FREE)
		return bc_need_check(ctx, lpm_run_needs, BC_ARRAY_SIZE(lpm_run_needs));
	if (bc_need_probe(&free_fn) > 0 && lpm_kallsyms_shows_addresses())
		return bc_attach_check(ctx, lpm_free_points, BC_ARRAY_SIZE(lpm_free_points));
	/* raw_tp cannot pick our frees out: fentry or nothing. */
	return bc_attach_check(ctx, lpm_free_points, 1);
}

static int lpm_setup(struct bc_ctx *ctx)
{
	struct lpm_state *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	err = lpm_config(ctx, st, true);
	if (!err)
		err = lpm_make_keys(ctx, st);
	if (err || st->kind->op != LPM_OP_FREE)
		return err;
	/* Unique per process: another run's frees are not ours. */
	snprintf(st->map_name, sizeof(st->map_name), "lpmfree_%d", (int)getpid());
	st->free_fn = lpm_kallsyms("bpf_map_free_deferred");
	/* Next the core drives the skeleton (lpm_configure(), lpm_loaded()). */
	return 0;
}

static const char *const lpm_op_names[] = {
	[LPM_OP_NOOP] = "noop", [LPM_OP_BASELINE] = "baseline", [LPM_OP_LOOKUP] = "lookup",
	[LPM_OP_INSERT] = "insert", [LPM_OP_UPDATE] = "update", [LPM_OP_DELETE] = "delete",
	[LPM_OP_FREE] = "free",
};

static int lpm_run_producer(struct bc_ctx *ctx, struct lpm_state *st, struct bc_thread *t)
{
	const char *what = lpm_op_names[st->kind->op];
	unsigned char in[14] = { 0 };	/* an Ethernet header: XDP's minimum */
	int map_fd = bpf_map__fd(((struct lpm_trie *)bc_ctx_skel(ctx))->maps.trie_map);
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = sizeof(in),
		    .repeat = 1);
	int err, ret;

	while (!bc_thread_should_stop(t)) {
		err = bpf_prog_test_run_opts(st->prog_fd, &opts);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN of run_bench: %s", strerror(-err));
		ret = (int)opts.retval;
		if (ret == LPM_BENCH_SUCCESS)
			continue;
		if (ret < 0)
			return bc_error(ctx, ret, "trie %s in BPF: %s", what, strerror(-ret));
		if (ret != LPM_BENCH_REINIT_MAP ||
		    (st->kind->op != LPM_OP_INSERT && st->kind->op != LPM_OP_DELETE))
			return bc_error(ctx, -EPROTO, "run_bench returned %d for %s", ret, what);
		/* Untimed: the runner's rate leaves this out as well. */
		err = lpm_fill(st, map_fd, st->kind->op == LPM_OP_INSERT);
		if (err)
			return bc_error(ctx, err, "%s the trie of %u keys: %s",
					st->kind->op == LPM_OP_INSERT ? "emptying" : "refilling",
					st->nr_entries, strerror(-err));
	}
	return 0;
}

/* Creates, fills and closes tries; the kernel frees each in a work item. */
static int lpm_free_producer(struct bc_ctx *ctx, struct lpm_state *st, struct bc_thread *t)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = BPF_F_NO_PREALLOC);
	int fd, err;

	while (!bc_thread_should_stop(t)) {
		fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, st->map_name, sizeof(struct lpm_bench_key),
				    sizeof(__u32), LPM_MAX_ENTRIES, &mopts);
		if (fd < 0)
			return bc_error(ctx, fd, "creating an LPM trie: %s", strerror(-fd));
		err = lpm_fill(st, fd, false);
		close(fd);
		if (err)
			return bc_error(ctx, err, "filling an LPM trie with %u keys: %s",
					st->nr_entries, strerror(-err));
	}
	return 0;
}

static int lpm_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct lpm_state *st = bc_ctx_data(ctx);

	if (st->kind->op == LPM_OP_FREE)
		return lpm_free_producer(ctx, st, t);
	return lpm_run_producer(ctx, st, t);
}

/* ops and busy_ns are the core's, from BPF; the busy rate is ops per
 * busy second, ops x 1e9 per busy ns. */
static int lpm_measure(struct bc_ctx *ctx, double *values)
{
	struct lpm_trie *skel = bc_ctx_skel(ctx);

	return bc_metric_set(ctx, values, "busy_rate",
			     (double)__atomic_load_n(&skel->bss->hits, __ATOMIC_RELAXED) * 1e9);
}

static void lpm_teardown(struct bc_ctx *ctx)
{
	struct lpm_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	free(st->keys);
	free(st->vals);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* lpm_busy_metrics[], by what each is: the lines below read them so. */
enum { LPM_M_OPS, LPM_M_BUSY, LPM_M_RATE, LPM_M_OP_NS };

/* insert, delete, free: the runner's frac_second lines, over busy time. */
static int lpm_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	const struct lpm_kind *k = bc_ctx_bench_priv(ctx);
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double r = rates[LPM_M_RATE] / k->rate_div;

	snprintf(buf, len, "hits %8.3lf%c/s (%7.3lf%c/prod)", r, k->rate_unit,
		 r / (prods ? prods : 1), k->rate_unit);
	return 0;
}

static int lpm_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
			      char *buf, size_t len)
{
	const struct lpm_kind *k = bc_ctx_bench_priv(ctx);
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double p = prods ? prods : 1;

	snprintf(buf, len, "throughput %8.3lf \u00b1 %5.3lf %c ops/s (%7.3lf%c ops/prod), latency %8.3lf %s/op",
		 means[LPM_M_RATE] / k->rate_div, stddevs[LPM_M_RATE] / k->rate_div, k->rate_unit,
		 means[LPM_M_RATE] / k->rate_div / p, k->rate_unit, means[LPM_M_OP_NS] / k->lat_div / p,
		 k->lat_unit);
	return 0;
}

/* ----------------------------------------------------------- descriptors */

/* The runner's ops lines: operations per second of the run. */
static const struct bc_metric_desc lpm_ops_metrics[] = {
	BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "hits"),
};

/* insert, delete, free: the busy time and the two ratios their lines are
 * made of. No headline role: it would print a wall-clock ops line instead
 * of theirs; their rate is the rate per busy second. */
static const struct bc_metric_desc lpm_busy_metrics[] = {
	[LPM_M_OPS] = BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX, .bpf = "hits"),
	[LPM_M_BUSY] = BC_METRIC("busy_ns", "ns", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
				 .label = "time spent in the operations", .bpf = "duration_ns"),
	[LPM_M_RATE] = BC_METRIC("busy_rate", "ops/s", BC_METRIC_RATIO, .role = BC_ROLE_RATE,
				 .per = "busy_ns", .label = "operations per second of busy time"),
	[LPM_M_OP_NS] = BC_METRIC("op_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_AUX, .per = "ops",
				  .label = "busy time per operation", .bpf = "duration_ns"),
};

static const struct lpm_kind lpm_k_noop = { .op = LPM_OP_NOOP };
static const struct lpm_kind lpm_k_baseline = { .op = LPM_OP_BASELINE };
static const struct lpm_kind lpm_k_lookup = { .op = LPM_OP_LOOKUP, .filled = true };
static const struct lpm_kind lpm_k_update = { .op = LPM_OP_UPDATE, .filled = true };
static const struct lpm_kind lpm_k_insert = {
	.op = LPM_OP_INSERT, .sequential = true,
	.rate_div = 1e6, .rate_unit = 'M', .lat_div = 1, .lat_unit = "ns",
};
static const struct lpm_kind lpm_k_delete = {
	.op = LPM_OP_DELETE, .filled = true, .sequential = true,
	.rate_div = 1e6, .rate_unit = 'M', .lat_div = 1, .lat_unit = "ns",
};
static const struct lpm_kind lpm_k_free = {
	.op = LPM_OP_FREE, .sequential = true,
	.rate_div = 1e3, .rate_unit = 'K', .lat_div = 1e6, .lat_unit = "ms",
};

static const struct bc_need lpm_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_LPM_TRIE),
};

#define LPM_BENCH(var, name_, desc_, kind_, metrics_, points_, ...)                  \
	static const struct bc_bench_desc var = BC_BENCH(name_, desc_, metrics_,        \
		.runner_name = true, .priv = &(kind_), BC_NEEDS(lpm_needs),             \
		BC_POINTS(points_), .skel = &lpm_trie_skel, .configure = lpm_configure, \
		.loaded = lpm_loaded, .quick_probe = lpm_quick_probe,                   \
		.validate = lpm_validate, .setup = lpm_setup, .producer = lpm_producer, \
		.teardown = lpm_teardown, __VA_ARGS__)

/* Any number of producers; the runner's ops lines. */
#define LPM_OPS_BENCH(var, name_, desc_, kind_)                                   \
	LPM_BENCH(var, name_, desc_, kind_, lpm_ops_metrics, lpm_run_points)

/* One producer (the trie's state is one sequence); busy-time lines. */
#define LPM_BUSY_BENCH(var, name_, desc_, kind_, points_)                         \
	LPM_BENCH(var, name_, desc_, kind_, lpm_busy_metrics, points_,            \
		  .producers = BC_THREADS(1, 1, 1), .measure = lpm_measure,       \
		  .format_iter = lpm_format_iter, .format_summary = lpm_format_summary)

LPM_OPS_BENCH(lpm_noop, "lpm-trie-noop", "the timed bpf_loop() alone: the harness's cost",
	      lpm_k_noop);
LPM_OPS_BENCH(lpm_baseline, "lpm-trie-baseline",
	      "the loop and the key alone: the floor under lookup and update", lpm_k_baseline);
LPM_OPS_BENCH(lpm_lookup, "lpm-trie-lookup", "lookups of existing keys in a full trie",
	      lpm_k_lookup);
LPM_BUSY_BENCH(lpm_insert, "lpm-trie-insert",
	       "inserts into an empty trie, per second of BPF time (emptied when full)",
	       lpm_k_insert, lpm_run_points);
LPM_OPS_BENCH(lpm_update, "lpm-trie-update", "updates of existing keys in a full trie",
	      lpm_k_update);
LPM_BUSY_BENCH(lpm_delete, "lpm-trie-delete",
	       "deletes from a full trie, per second of BPF time (refilled when empty)",
	       lpm_k_delete, lpm_run_points);
LPM_BUSY_BENCH(lpm_free, "lpm-trie-free",
	       "frees of a full trie, per second of the kernel's free time", lpm_k_free,
	       lpm_free_points);

BENCHCORE_PLUGIN(.name = "lpm_trie", .version = "1.0",
		 .description = "LPM trie map: lookup, insert, update, delete and free cost on a full trie",
		 BC_OPTIONS(lpm_options), .opts_size = sizeof(struct lpm_opts),
		 BC_BENCHES(&lpm_noop, &lpm_baseline, &lpm_lookup, &lpm_insert, &lpm_update,
			    &lpm_delete, &lpm_free));
