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

#define LPM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* The kernel's ENOTSUPP (not in libc): an op a map type lacks. */
#define LPM_ENOTSUPP 524

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
	struct lpm_trie *skel;
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
	{ .sz = sizeof(struct bc_attach_point), .kind = BC_ATTACH_FENTRY,
	  .name = "fentry+fexit/bpf_map_free_deferred", .prog_name = "free_fentry" },
	{ .sz = sizeof(struct bc_attach_point), .kind = BC_ATTACH_RAW_TP,
	  .name = "raw_tp/workqueue_execute_start+end (bpf_map_free_deferred)",
	  .prog_name = "free_wq_start" },
};

static const char *lpm_free_partner(const struct bc_attach_point *pt)
{
	return pt->kind == BC_ATTACH_FENTRY ? "free_fexit" : "free_wq_end";
}

static const struct lpm_opts *lpm_opts_of(struct bc_ctx *ctx)
{
	const struct lpm_opts *o = bc_ctx_opts(ctx);

	if (!o)
		bc_error(ctx, -EINVAL, "the core passed no options (it predates option tables)");
	return o;
}

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
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -LPM_ENOTSUPP)
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

/* Opens the object with the chosen programs only; sets what they read. */
static struct lpm_trie *lpm_open(struct lpm_state *st, const char *prog, const char *partner)
{
	struct bpf_program *p;
	struct lpm_trie *skel;
	int err;

	skel = lpm_trie__open();
	if (!skel)
		return NULL;
	err = bc_bpf_autoload_only(skel->obj, prog);
	if (!err && partner) {
		p = bpf_object__find_program_by_name(skel->obj, partner);
		err = p ? bpf_program__set_autoload(p, true) : -ENOENT;
	}
	if (err) {
		lpm_trie__destroy(skel);
		errno = -err;
		return NULL;
	}
	skel->rodata->bc_tgid = (__u32)getpid();
	skel->rodata->op = st->kind->op;
	skel->rodata->nr_entries = st->nr_entries;
	skel->rodata->prefixlen = st->prefixlen;
	skel->rodata->random_keys = st->random;
	memcpy((char *)skel->rodata->free_map_name, st->map_name, LPM_NAME_LEN);
	skel->rodata->free_fn = st->free_fn;
	/* Only lpm-trie-free leaves trie_map unused; it is empty anyway. */
	return skel;
}

static int lpm_free_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct lpm_state *st = cookie;
	struct lpm_trie *skel;
	int err;

	if (pt->kind == BC_ATTACH_RAW_TP && !st->free_fn) {
		/* The tracepoints see every work item: without the address
		 * of the map free function they cannot pick ours out. */
		bc_ctx_log(ctx, BC_LOG_DEBUG,
			   "bpf_map_free_deferred is not in /proc/kallsyms (or kptr_restrict hides it)");
		return -ENOENT;
	}
	skel = lpm_open(st, pt->prog_name, lpm_free_partner(pt));
	if (!skel)
		return -errno;
	err = lpm_trie__load(skel);
	if (!err)
		err = lpm_trie__attach(skel);
	if (err) {
		lpm_trie__destroy(skel);
		return err;
	}
	st->skel = skel;
	return 0;
}

/* Every other benchmark: run_bench, nothing attached. */
static int lpm_load_run_bench(struct bc_ctx *ctx, struct lpm_state *st)
{
	int err;

	st->skel = lpm_open(st, "run_bench", NULL);
	if (!st->skel)
		return bc_error(ctx, -errno, "opening the BPF object: %s", strerror(errno));
	err = lpm_trie__load(st->skel);
	if (err == -EINVAL || err == -EACCES || err == -EPERM)
		return bc_unavailable(ctx, "the kernel refused the XDP program run_bench (%s): it needs bpf_loop() (Linux 5.17)",
				      strerror(-err));
	if (err)
		return bc_error(ctx, err, "loading run_bench: %s", strerror(-err));
	st->prog_fd = bpf_program__fd(st->skel->progs.run_bench);
	bc_ctx_set_attach_point(ctx, "xdp run_bench (BPF_PROG_TEST_RUN)");
	return 0;
}

/* ------------------------------------------------------------ callbacks */

static int lpm_config(struct bc_ctx *ctx, struct lpm_state *st)
{
	const struct lpm_opts *o = lpm_opts_of(ctx);

	if (!o)
		return -EINVAL;
	st->kind = bc_ctx_bench_priv(ctx);
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

	return lpm_config(ctx, &st);
}

static int lpm_probe(struct bc_ctx *ctx)
{
	struct lpm_state st = { .kind = bc_ctx_bench_priv(ctx), .nr_entries = 1, .prefixlen = 32 };
	int err = 0;

	if (st.kind->op == LPM_OP_FREE) {
		st.free_fn = lpm_kallsyms("bpf_map_free_deferred");
		err = bc_attach_first(ctx, lpm_free_points, LPM_ARRAY_SIZE(lpm_free_points),
				      lpm_free_try, &st);
		err = err < 0 ? err : 0;
	} else {
		err = lpm_load_run_bench(ctx, &st);
	}
	lpm_trie__destroy(st.skel);
	return err;
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
		return bc_need_check(ctx, lpm_run_needs, LPM_ARRAY_SIZE(lpm_run_needs));
	if (bc_need_probe(&free_fn) > 0 && lpm_kallsyms_shows_addresses())
		return bc_attach_check(ctx, lpm_free_points, LPM_ARRAY_SIZE(lpm_free_points));
	/* raw_tp cannot pick our frees out: fentry or nothing. */
	return bc_attach_check(ctx, lpm_free_points, 1);
}

static int lpm_setup(struct bc_ctx *ctx)
{
	struct lpm_state *st;
	struct bpf_program *prog;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	err = lpm_config(ctx, st);
	if (!err)
		err = lpm_make_keys(ctx, st);
	if (err)
		return err;

	if (st->kind->op == LPM_OP_FREE) {
		/* Unique per process: another run's frees are not ours. */
		snprintf(st->map_name, sizeof(st->map_name), "lpmfree_%d", (int)getpid());
		st->free_fn = lpm_kallsyms("bpf_map_free_deferred");
		err = bc_attach_first(ctx, lpm_free_points, LPM_ARRAY_SIZE(lpm_free_points),
				      lpm_free_try, st);
		if (err < 0)
			return err;
		bpf_object__for_each_program(prog, st->skel->obj) {
			if (!bpf_program__autoload(prog))
				continue;
			err = bc_ctx_add_prog(ctx, bpf_program__fd(prog), "timer");
			if (err)
				return bc_error(ctx, err, "declaring the timing program: %s",
						strerror(-err));
		}
		return 0;
	}

	err = lpm_load_run_bench(ctx, st);
	if (err)
		return err;
	err = bc_ctx_add_prog(ctx, st->prog_fd, "producer");
	if (err)
		return bc_error(ctx, err, "declaring the program under test: %s", strerror(-err));
	if (st->kind->filled) {
		err = lpm_fill(st, bpf_map__fd(st->skel->maps.trie_map), false);
		if (err)
			return bc_error(ctx, err, "filling the trie with %u keys: %s", st->nr_entries,
					strerror(-err));
	}
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
	int map_fd = bpf_map__fd(st->skel->maps.trie_map);
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

static int lpm_measure(struct bc_ctx *ctx, double *values)
{
	struct lpm_state *st = bc_ctx_data(ctx);
	double ops = (double)__atomic_load_n(&st->skel->bss->hits, __ATOMIC_RELAXED);
	double busy = (double)__atomic_load_n(&st->skel->bss->duration_ns, __ATOMIC_RELAXED);

	values[0] = ops;
	if (st->kind->rate_div > 0) {
		values[1] = busy;
		values[2] = ops * 1e9;	/* per busy_ns: operations per busy second */
		values[3] = busy;	/* per ops: busy ns per operation */
	}
	return 0;
}

static void lpm_teardown(struct bc_ctx *ctx)
{
	struct lpm_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	lpm_trie__destroy(st->skel);
	free(st->keys);
	free(st->vals);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* insert, delete, free: the runner's frac_second lines, over busy time. */
static int lpm_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	const struct lpm_kind *k = bc_ctx_bench_priv(ctx);
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double r = rates[2] / k->rate_div;

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
		 means[2] / k->rate_div, stddevs[2] / k->rate_div, k->rate_unit,
		 means[2] / k->rate_div / p, k->rate_unit, means[3] / k->lat_div / p, k->lat_unit);
	return 0;
}

/* ----------------------------------------------------------- descriptors */

/* The runner's ops lines: operations per second of the run. */
static const struct bc_metric_desc lpm_ops_metrics[] = {
	BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
};

/* insert, delete, free: the busy time and the two ratios their lines are
 * made of. No headline role: it would print a wall-clock ops line instead
 * of theirs; their rate is the rate per busy second. */
static const struct bc_metric_desc lpm_busy_metrics[] = {
	BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX),
	BC_METRIC("busy_ns", "ns", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "time spent in the operations"),
	BC_METRIC("busy_rate", "ops/s", BC_METRIC_RATIO, .role = BC_ROLE_RATE, .per = "busy_ns",
		  .label = "operations per second of busy time"),
	BC_METRIC("op_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_AUX, .per = "ops",
		  .label = "busy time per operation"),
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

#define LPM_BENCH_COMMON(name_, desc_, kind_)                                     \
	.sz = sizeof(struct bc_bench_desc),                                       \
	.runner_name = true,                                                      \
	.name = (name_),                                                          \
	.description = (desc_),                                                   \
	.consumers = BC_THREADS(0, 0, 0),                                         \
	.priv = &(kind_),                                                         \
	.probe = lpm_probe,                                                       \
	.needs = lpm_needs,                                                       \
	.need_cnt = LPM_ARRAY_SIZE(lpm_needs),                                    \
	.quick_probe = lpm_quick_probe,                                           \
	.validate = lpm_validate,                                                 \
	.setup = lpm_setup,                                                       \
	.producer = lpm_producer,                                                 \
	.measure = lpm_measure,                                                   \
	.teardown = lpm_teardown

/* Any number of producers; the runner's ops lines. */
#define LPM_OPS_BENCH(var, name_, desc_, kind_)                                   \
	static const struct bc_bench_desc var = {                                 \
		LPM_BENCH_COMMON(name_, desc_, kind_),                            \
		.producers = BC_THREADS(1, 0, 1),                                 \
		.metrics = lpm_ops_metrics,                                       \
		.metric_cnt = LPM_ARRAY_SIZE(lpm_ops_metrics),                    \
	}

/* One producer (the trie's state is one sequence); busy-time lines. */
#define LPM_BUSY_BENCH(var, name_, desc_, kind_)                                  \
	static const struct bc_bench_desc var = {                                 \
		LPM_BENCH_COMMON(name_, desc_, kind_),                            \
		.producers = BC_THREADS(1, 1, 1),                                 \
		.metrics = lpm_busy_metrics,                                      \
		.metric_cnt = LPM_ARRAY_SIZE(lpm_busy_metrics),                   \
		.format_iter = lpm_format_iter,                                   \
		.format_summary = lpm_format_summary,                             \
	}

LPM_OPS_BENCH(lpm_noop, "lpm-trie-noop", "the timed bpf_loop() alone: the harness's cost",
	      lpm_k_noop);
LPM_OPS_BENCH(lpm_baseline, "lpm-trie-baseline",
	      "the loop and the key alone: the floor under lookup and update", lpm_k_baseline);
LPM_OPS_BENCH(lpm_lookup, "lpm-trie-lookup", "lookups of existing keys in a full trie",
	      lpm_k_lookup);
LPM_BUSY_BENCH(lpm_insert, "lpm-trie-insert",
	       "inserts into an empty trie, per second of BPF time (emptied when full)",
	       lpm_k_insert);
LPM_OPS_BENCH(lpm_update, "lpm-trie-update", "updates of existing keys in a full trie",
	      lpm_k_update);
LPM_BUSY_BENCH(lpm_delete, "lpm-trie-delete",
	       "deletes from a full trie, per second of BPF time (refilled when empty)",
	       lpm_k_delete);
LPM_BUSY_BENCH(lpm_free, "lpm-trie-free",
	       "frees of a full trie, per second of the kernel's free time", lpm_k_free);

static const struct bc_bench_desc *const lpm_benches[] = {
	&lpm_noop,
	&lpm_baseline,
	&lpm_lookup,
	&lpm_insert,
	&lpm_update,
	&lpm_delete,
	&lpm_free,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "lpm_trie",
	.version = "1.0",
	.description = "LPM trie map: lookup, insert, update, delete and free cost on a full trie",
	.options = lpm_options,
	.option_cnt = LPM_ARRAY_SIZE(lpm_options),
	.opts_size = sizeof(struct lpm_opts),
	.benches = lpm_benches,
);
