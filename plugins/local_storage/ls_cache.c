// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * local-storage-cache-seq-get, -int-get and -hashmap-control.
 *
 * Task local storage keeps a 16-slot cache per task; these benchmarks show
 * what a get costs while the maps in use fit in it and once they do not,
 * and how a hash map keyed by task id compares. User space creates the N
 * task-storage maps (N is only known at run time) and hands them to the
 * BPF side through an array-of-maps; each producer getpgid() then runs
 * LS_GETS_PER_TRIGGER gets in BPF.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "ls_common.h"
#include "ls_internal.h"
#include "ls_cache.skel.h"

enum ls_cache_mode {
	LS_SEQ_GET,
	LS_INT_GET,
	LS_HASHMAP,
};

/* Each benchmark's .priv: which of the three loops it runs. */
struct ls_cache_kind {
	enum ls_cache_mode mode;
};

static const struct ls_cache_kind ls_kind_seq = { LS_SEQ_GET };
static const struct ls_cache_kind ls_kind_int = { LS_INT_GET };
static const struct ls_cache_kind ls_kind_hash = { LS_HASHMAP };

struct ls_cache_cfg {
	enum ls_cache_mode mode;
	unsigned long nr_maps;
	unsigned long keys_used;
	unsigned long hash_size;
};

struct ls_cache_state {
	struct ls_cache_cfg cfg;
	struct ls_cache *skel;
	struct bpf_link *link;
};

/* Where the gets run, most direct first: fentry is refused where BPF
 * trampolines are unavailable, the syscall tracepoint needs tracefs, and
 * raw_tp/sys_enter sees every syscall, so its program filters. */
static const struct bc_attach_point ls_cache_points[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = LS_FENTRY_GETPGID,
	  .kind = BC_ATTACH_FENTRY, .prog_name = "ls_get_fentry" },
	{ .sz = sizeof(struct bc_attach_point), .name = "tp/syscalls/sys_enter_getpgid",
	  .kind = BC_ATTACH_TP, .prog_name = "ls_get_tp" },
	{ .sz = sizeof(struct bc_attach_point), .name = "raw_tp/sys_enter",
	  .kind = BC_ATTACH_RAW_TP, .prog_name = "ls_get_raw_tp" },
};

static enum ls_cache_mode ls_cache_mode_of(const struct bc_ctx *ctx)
{
	const struct ls_cache_kind *kind = bc_ctx_bench_priv(ctx);

	return kind->mode;
}

/* /proc/sys/kernel/pid_max, or the kernel's default when unreadable. */
static unsigned long ls_pid_max(void)
{
	unsigned long v = 0;
	FILE *f;

	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? v : 32768;
}

/* The run's options as numbers; the core has range-checked each one. */
static int ls_cache_cfg_get(struct bc_ctx *ctx, struct ls_cache_cfg *cfg)
{
	const struct ls_opts *o = LS_OPTS(ctx);

	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = ls_cache_mode_of(ctx);
	cfg->nr_maps = (unsigned long)o->nr_maps;
	if (cfg->mode != LS_HASHMAP)
		return 0;
	/* Keys are task ids: the map holds pid_max of them. */
	cfg->hash_size = ls_pid_max();
	cfg->keys_used = (unsigned long)o->hashmap_nr_keys_used;
	if (cfg->keys_used > cfg->hash_size)
		return bc_usage_error(ctx, "--hashmap_nr_keys_used '%lu': more keys than the hash map holds; it is sized to /proc/sys/kernel/pid_max, %lu (raise that to use more)",
				      cfg->keys_used, cfg->hash_size);
	return 0;
}

static int ls_cache_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct ls_cache_state *st = cookie;
	struct bpf_program *target;
	struct ls_cache *skel;
	struct bpf_link *link;
	int err;

	(void)ctx;
	skel = ls_cache__open();
	if (!skel)
		return -errno;
	/* Only the candidate is loaded: a refused sibling would fail the
	 * whole object. */
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (err)
		goto err_out;
	target = bpf_object__find_program_by_name(skel->obj, pt->prog_name);
	skel->rodata->bc_tgid = getpid();
	skel->rodata->getpgid_nr = SYS_getpgid;
	skel->rodata->num_maps = st->cfg.nr_maps;
	skel->rodata->interleave = st->cfg.mode == LS_INT_GET;
	skel->rodata->use_hash = st->cfg.mode == LS_HASHMAP;
	skel->rodata->hash_keys_used = st->cfg.keys_used;
	/* Hash maps preallocate: size it only when it is the one measured. */
	err = bpf_map__set_max_entries(skel->maps.ls_hash,
				       st->cfg.mode == LS_HASHMAP ? st->cfg.hash_size : 1);
	if (err)
		goto err_out;

	err = ls_cache__load(skel);
	if (err)
		goto err_out;
	link = bpf_program__attach(target);
	if (!link) {
		err = -errno;
		goto err_out;
	}
	st->skel = skel;
	st->link = link;
	return 0;

err_out:
	ls_cache__destroy(skel);
	return err;
}

static void ls_cache_detach(struct ls_cache_state *st)
{
	bpf_link__destroy(st->link);
	st->link = NULL;
	ls_cache__destroy(st->skel);
	st->skel = NULL;
}

/* With hundreds of maps, one more might not fit under RLIMIT_NOFILE: raise
 * the soft limit to the hard one, which an unprivileged process may do. */
static bool ls_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return false;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

static int ls_fd_limit_error(struct bc_ctx *ctx, int err, unsigned long idx, unsigned long cnt)
{
	struct rlimit rl = { 0 };

	if (err == -ENFILE)
		return bc_error(ctx, err, "creating task-storage map %lu of %lu: the system is out of file descriptors; raise fs.file-max (sysctl -w fs.file-max=N)",
				idx + 1, cnt);
	getrlimit(RLIMIT_NOFILE, &rl);
	return bc_error(ctx, err, "creating task-storage map %lu of %lu: out of file descriptors, RLIMIT_NOFILE is %llu (hard limit %llu); raise it (ulimit -n, or nofile in /etc/security/limits.conf)",
			idx + 1, cnt, (unsigned long long)rl.rlim_cur,
			(unsigned long long)rl.rlim_max);
}

/*
 * Creates the task-storage maps and stores them in the array-of-maps. Each
 * fd is closed once the outer map holds a reference, so that N maps cost
 * one descriptor at a time; teardown frees them all with the outer map.
 */
static int ls_cache_fill_task_maps(struct bc_ctx *ctx, struct ls_cache_state *st)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	int outer_fd = bpf_map__fd(st->skel->maps.ls_task_maps);
	bool raised = false;
	unsigned long i;
	int int_id, fd, err;

	/* Task storage needs BTF for its key and value: reuse the object's. */
	int_id = btf__find_by_name_kind(bpf_object__btf(st->skel->obj), "int", BTF_KIND_INT);
	if (int_id < 0)
		return bc_error(ctx, int_id, "the BPF object's BTF has no 'int' type");
	opts.btf_fd = bpf_object__btf_fd(st->skel->obj);
	opts.btf_key_type_id = int_id;
	opts.btf_value_type_id = int_id;

	for (i = 0; i < st->cfg.nr_maps; i++) {
		int key = (int)i;

		fd = bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, "ls_task_inner", sizeof(int),
				    sizeof(int), 0, &opts);
		if (fd == -EMFILE && !raised) {
			raised = true;
			if (ls_raise_nofile())
				fd = bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, "ls_task_inner",
						    sizeof(int), sizeof(int), 0, &opts);
		}
		if (fd == -EMFILE || fd == -ENFILE)
			return ls_fd_limit_error(ctx, fd, i, st->cfg.nr_maps);
		if (fd < 0)
			return bc_error(ctx, fd, "creating task-storage map %lu of %lu: %s",
					i + 1, st->cfg.nr_maps, ls_strerror(fd));
		err = bpf_map_update_elem(outer_fd, &key, &fd, 0);
		close(fd);
		if (err)
			return bc_error(ctx, err, "storing task-storage map %lu in the array-of-maps: %s",
					i + 1, ls_strerror(err));
	}
	return 0;
}

/* Fills every key, so that each lookup hits, as a task-storage get with
 * F_CREATE always finds (or makes) its element. */
static int ls_cache_fill_hash(struct bc_ctx *ctx, struct ls_cache_state *st)
{
	enum { CHUNK = 65536 };
	int fd = bpf_map__fd(st->skel->maps.ls_hash);
	unsigned long done = 0;
	__u32 *keys;
	int *vals;
	int err = 0;

	keys = calloc(CHUNK, sizeof(*keys));
	vals = calloc(CHUNK, sizeof(*vals));
	if (!keys || !vals) {
		err = bc_error(ctx, -ENOMEM, "allocating %d keys to fill the hash map", CHUNK);
		goto out;
	}
	while (done < st->cfg.hash_size) {
		__u32 n = st->cfg.hash_size - done < CHUNK ? st->cfg.hash_size - done : CHUNK;
		__u32 i;

		for (i = 0; i < n; i++) {
			keys[i] = done + i;
			vals[i] = (int)(done + i);
		}
		err = bpf_map_update_batch(fd, keys, vals, &n, NULL);
		if (err) {
			err = bc_error(ctx, err, "filling the hash map (keys %lu..%lu of %lu): %s",
				       done, done + n, st->cfg.hash_size, ls_strerror(err));
			goto out;
		}
		done += n;
	}
out:
	free(keys);
	free(vals);
	return err;
}

static int ls_cache_probe(struct bc_ctx *ctx)
{
	struct ls_cache_state st = { 0 };
	int idx;

	/* Probe the cheapest configuration: whether the gets can be attached
	 * does not depend on how many maps there will be. */
	st.cfg.mode = ls_cache_mode_of(ctx);
	st.cfg.nr_maps = 1;
	st.cfg.keys_used = 1;
	st.cfg.hash_size = 1;
	idx = bc_attach_first(ctx, ls_cache_points, sizeof(ls_cache_points) / sizeof(ls_cache_points[0]),
			      ls_cache_try, &st);
	if (idx < 0)
		return idx;
	ls_cache_detach(&st);
	return 0;
}

static int ls_cache_validate(struct bc_ctx *ctx)
{
	struct ls_cache_cfg cfg;

	return ls_cache_cfg_get(ctx, &cfg);
}

static int ls_cache_setup(struct bc_ctx *ctx)
{
	struct ls_cache_state *st;
	int idx, err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	err = ls_cache_cfg_get(ctx, &st->cfg);
	if (err)
		return err;
	idx = bc_attach_first(ctx, ls_cache_points, sizeof(ls_cache_points) / sizeof(ls_cache_points[0]),
			      ls_cache_try, st);
	if (idx < 0)
		return idx;
	err = bc_ctx_add_prog(ctx, bpf_program__fd(bpf_object__find_program_by_name(
					   st->skel->obj, ls_cache_points[idx].prog_name)),
			      "get");
	if (err)
		return bc_error(ctx, err, "declaring the program under test: %s", ls_strerror(err));
	/* The program is live already but finds no inner map (or, for the
	 * control, no producer has started): nothing is counted until the
	 * maps are in place. */
	if (st->cfg.mode == LS_HASHMAP)
		return ls_cache_fill_hash(ctx, st);
	return ls_cache_fill_task_maps(ctx, st);
}

static int ls_cache_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	while (!bc_thread_should_stop(t))
		syscall(SYS_getpgid);
	return 0;
}

static int ls_cache_measure(struct bc_ctx *ctx, double *values)
{
	struct ls_cache_state *st = bc_ctx_data(ctx);

	values[0] = (double)__atomic_load_n(&st->skel->bss->hits, __ATOMIC_RELAXED);
	values[1] = (double)__atomic_load_n(&st->skel->bss->important_hits, __ATOMIC_RELAXED);
	return 0;
}

static void ls_cache_teardown(struct bc_ctx *ctx)
{
	struct ls_cache_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	ls_cache_detach(st);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc ls_cache_metrics[] = {
	/* The runner's local-storage lines: gets, and gets of map 0 beside. */
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
	BC_METRIC("important_hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_RATE),
};

static const struct bc_option ls_maps_options[] = {
	BC_OPT_INT(struct ls_opts, nr_maps, "nr_maps", .def = "1000", .min = 1,
		   .max = LS_MAX_NR_MAPS, .help = "number of task-storage maps"),
};

static const struct bc_option ls_hash_options[] = {
	/* One hash map stands in for all the task-storage maps; the kernel
	 * runner's script passes --nr_maps 1, so accept that. */
	BC_OPT_INT(struct ls_opts, nr_maps, "nr_maps", .def = "1", .min = 1, .max = 1,
		   .help = "number of hash maps (one)"),
	BC_OPT_INT(struct ls_opts, hashmap_nr_keys_used, "hashmap_nr_keys_used", .def = "1000",
		   .min = 1, .max = LS_PID_LIMIT,
		   .help = "keys the lookups use (at most /proc/sys/kernel/pid_max)"),
};

#define LS_CACHE_BENCH(name_, desc_, kind_, opts_)                                     \
	{                                                                              \
		.sz = sizeof(struct bc_bench_desc),                                    \
		.name = (name_),                                                       \
		.description = (desc_),                                                \
		.producers = BC_THREADS(1, 0, 1),                                      \
		.consumers = BC_THREADS(0, 0, 0),                                      \
		.metrics = ls_cache_metrics,                                           \
		.metric_cnt = sizeof(ls_cache_metrics) / sizeof(ls_cache_metrics[0]),  \
		.options = (opts_),                                                    \
		.option_cnt = sizeof(opts_) / sizeof((opts_)[0]),                      \
		.priv = (kind_),                                                       \
		.probe = ls_cache_probe,                                               \
		.validate = ls_cache_validate,                                         \
		.setup = ls_cache_setup,                                               \
		.producer = ls_cache_producer,                                         \
		.measure = ls_cache_measure,                                           \
		.teardown = ls_cache_teardown,                                         \
	}

const struct bc_bench_desc ls_bench_seq_get = LS_CACHE_BENCH(
	"local-storage-cache-seq-get",
	"bpf_task_storage_get on --nr_maps task-storage maps in order (cache cliff past 16)",
	&ls_kind_seq, ls_maps_options);
const struct bc_bench_desc ls_bench_int_get = LS_CACHE_BENCH(
	"local-storage-cache-int-get",
	"like cache-seq-get, with 4 of every 10 gets to the important map 0",
	&ls_kind_int, ls_maps_options);
const struct bc_bench_desc ls_bench_hashmap_control = LS_CACHE_BENCH(
	"local-storage-cache-hashmap-control",
	"control: the same gets as lookups in one hash map keyed by task id",
	&ls_kind_hash, ls_hash_options);
