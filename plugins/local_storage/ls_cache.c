// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * local-storage-cache-seq-get, -int-get and -hashmap-control.
 *
 * Task local storage keeps a 16-slot cache per task; these benchmarks show
 * what a get costs while the maps in use fit in it and once they do not,
 * and how a lookup in a large, full hash map compares (the kernel runner's
 * control). User space creates the N maps (N is only known at run time)
 * and hands them to the BPF side through an array-of-maps; each producer
 * getpgid() then runs LS_GETS_PER_TRIGGER gets in BPF.
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

BC_SKEL(ls_cache);

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
};

/* What the maps are filled for: the run's configuration, its skeleton. */
struct ls_cache_state {
	struct ls_cache_cfg cfg;
	struct ls_cache *skel;
};

/* Where the gets run, most direct first: fentry is refused where BPF
 * trampolines are unavailable, the syscall tracepoint needs tracefs, and
 * raw_tp/sys_enter sees every syscall, so its program filters. */
static const struct bc_attach_point ls_cache_points[] = {
	BC_GETPGID_ATTACH_POINTS("ls_get_fentry", "ls_get_tp", "ls_get_raw_tp"),
};

static enum ls_cache_mode ls_cache_mode_of(const struct bc_ctx *ctx)
{
	const struct ls_cache_kind *kind = bc_ctx_bench_priv(ctx);

	return kind->mode;
}

/* The run's options as numbers; the core has range-checked each one. */
static void ls_cache_cfg_get(struct bc_ctx *ctx, struct ls_cache_cfg *cfg)
{
	const struct ls_opts *o = LS_OPTS(ctx);

	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = ls_cache_mode_of(ctx);
	cfg->nr_maps = (unsigned long)o->nr_maps;
	if (cfg->mode == LS_HASHMAP)
		cfg->keys_used = (unsigned long)o->hashmap_nr_keys_used;
}

/* Before the candidate loads: what its program reads. */
static int ls_cache_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct ls_cache *s = skel;
	struct ls_cache_cfg cfg;

	(void)pt;
	ls_cache_cfg_get(ctx, &cfg);
	s->rodata->bc_tgid = getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->num_maps = cfg.nr_maps;
	s->rodata->interleave = cfg.mode == LS_INT_GET;
	s->rodata->use_hash = cfg.mode == LS_HASHMAP;
	s->rodata->hash_keys_used = cfg.keys_used ? cfg.keys_used : 1;
	return 0;
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

static const char *ls_map_kind(const struct ls_cache_state *st)
{
	return st->cfg.mode == LS_HASHMAP ? "hash" : "task-storage";
}

static int ls_fd_limit_error(struct bc_ctx *ctx, const struct ls_cache_state *st, int err,
			     unsigned long idx)
{
	struct rlimit rl = { 0 };

	if (err == -ENFILE)
		return bc_error(ctx, err, "creating %s map %lu of %lu: the system is out of file descriptors; raise fs.file-max (sysctl -w fs.file-max=N)",
				ls_map_kind(st), idx + 1, st->cfg.nr_maps);
	getrlimit(RLIMIT_NOFILE, &rl);
	return bc_error(ctx, err, "creating %s map %lu of %lu: out of file descriptors, RLIMIT_NOFILE is %llu (hard limit %llu); raise it (ulimit -n, or nofile in /etc/security/limits.conf)",
			ls_map_kind(st), idx + 1, st->cfg.nr_maps, (unsigned long long)rl.rlim_cur,
			(unsigned long long)rl.rlim_max);
}

/* A line "NAME: N" of a /proc file, or 0 when there is none. */
static unsigned long long ls_proc_field(const char *path, const char *name)
{
	unsigned long long v = 0;
	size_t len = strlen(name);
	char line[256];
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':') {
			v = strtoull(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * The runner's hash maps are preallocated (hundreds of MiB each). Before a
 * second one is made, check that all of them fit in the memory available,
 * from what the first one really took (the kernel's memlock figure), so
 * that a large --nr_maps fails with a reason instead of pushing the machine
 * into reclaim or the OOM killer.
 */
static int ls_hash_check_memory(struct bc_ctx *ctx, const struct ls_cache_state *st, int fd)
{
	unsigned long long each, avail_kb, need;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	each = ls_proc_field(path, "memlock");
	avail_kb = ls_proc_field("/proc/meminfo", "MemAvailable");
	if (!each || !avail_kb)
		return 0;
	need = each * (st->cfg.nr_maps - 1);
	/* Leave a quarter for everything else on the machine. */
	if (need / 1024 <= avail_kb / 4 * 3)
		return 0;
	return bc_error(ctx, -ENOMEM, "--nr_maps %lu: each hash map of %d preallocated entries takes %llu MiB (as in the kernel runner), %llu MiB for all, and %llu MiB are available; lower --nr_maps (the runner's script passes 1)",
			st->cfg.nr_maps, LS_HASH_ENTRIES, each >> 20,
			(each * st->cfg.nr_maps) >> 20, avail_kb >> 10);
}

/* Every key below LS_HASH_ENTRIES, value = key, as the runner fills its
 * maps (one update at a time there; in batches here, for the same map). */
static int ls_hash_fill(struct bc_ctx *ctx, const struct ls_cache_state *st, int fd,
			unsigned long idx)
{
	enum { CHUNK = 65536 };
	unsigned long done = 0;
	int *keys, *vals;
	int err = 0;

	keys = calloc(CHUNK, sizeof(*keys));
	vals = calloc(CHUNK, sizeof(*vals));
	if (!keys || !vals) {
		err = bc_error(ctx, -ENOMEM, "allocating %d keys to fill the hash map", CHUNK);
		goto out;
	}
	while (done < LS_HASH_ENTRIES) {
		__u32 n = CHUNK, i;

		for (i = 0; i < n; i++)
			keys[i] = vals[i] = (int)(done + i);
		err = bpf_map_update_batch(fd, keys, vals, &n, NULL);
		if (err) {
			err = bc_error(ctx, err, "filling hash map %lu of %lu (keys %lu..%lu of %d): %s",
				       idx + 1, st->cfg.nr_maps, done, done + CHUNK - 1,
				       LS_HASH_ENTRIES, bc_strerror(err));
			goto out;
		}
		done += n;
	}
out:
	free(keys);
	free(vals);
	return err;
}

static int ls_map_create(const struct ls_cache_state *st, const struct bpf_map_create_opts *opts)
{
	if (st->cfg.mode == LS_HASHMAP)
		return bpf_map_create(BPF_MAP_TYPE_HASH, "ls_hash_inner", sizeof(int), sizeof(int),
				      LS_HASH_ENTRIES, opts);
	return bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, "ls_task_inner", sizeof(int), sizeof(int),
			      0, opts);
}

/*
 * Creates the --nr_maps maps (task storage, or the control's full hash
 * maps) and stores them in their array-of-maps. Each fd is closed once the
 * outer map holds a reference, so that N maps cost one descriptor at a
 * time; teardown frees them all with the outer map. A map goes into the
 * array only when it is complete, so the gets never see a partial one;
 * and all of it before the program is attached.
 */
static int ls_cache_fill_maps(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct ls_cache_state state = { .skel = skel }, *st = &state;
	bool hash;
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int outer_fd;
	bool raised = false;
	unsigned long i;
	int int_id, fd, err;

	(void)pt;
	ls_cache_cfg_get(ctx, &st->cfg);
	hash = st->cfg.mode == LS_HASHMAP;
	/* Task storage is never preallocated; the runner's hash maps are. */
	opts.map_flags = hash ? 0 : BPF_F_NO_PREALLOC;
	outer_fd = bpf_map__fd(hash ? st->skel->maps.ls_hash_maps : st->skel->maps.ls_task_maps);
	/* Key and value types from the object's BTF (task storage needs them). */
	int_id = btf__find_by_name_kind(bpf_object__btf(st->skel->obj), "int", BTF_KIND_INT);
	if (int_id < 0)
		return bc_error(ctx, int_id, "the BPF object's BTF has no 'int' type");
	opts.btf_fd = bpf_object__btf_fd(st->skel->obj);
	opts.btf_key_type_id = int_id;
	opts.btf_value_type_id = int_id;

	for (i = 0; i < st->cfg.nr_maps; i++) {
		int key = (int)i;

		fd = ls_map_create(st, &opts);
		if (fd == -EMFILE && !raised) {
			raised = true;
			if (ls_raise_nofile())
				fd = ls_map_create(st, &opts);
		}
		if (fd == -EMFILE || fd == -ENFILE)
			return ls_fd_limit_error(ctx, st, fd, i);
		if (fd < 0)
			return bc_error(ctx, fd, "creating %s map %lu of %lu: %s", ls_map_kind(st),
					i + 1, st->cfg.nr_maps, bc_strerror(fd));
		err = 0;
		if (hash && i == 0 && st->cfg.nr_maps > 1)
			err = ls_hash_check_memory(ctx, st, fd);
		if (hash && !err)
			err = ls_hash_fill(ctx, st, fd, i);
		if (err) {
			close(fd);
			return err;
		}
		err = bpf_map_update_elem(outer_fd, &key, &fd, 0);
		close(fd);
		if (err)
			return bc_error(ctx, err, "storing %s map %lu in the array-of-maps: %s",
					ls_map_kind(st), i + 1, bc_strerror(err));
	}
	return 0;
}

static const struct bc_metric_desc ls_cache_metrics[] = {
	/* The runner's local-storage lines: gets, and gets of map 0 beside. */
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "hits"),
	BC_METRIC("important_hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_RATE,
		  .bpf = "important_hits"),
};

static const struct bc_option ls_maps_options[] = {
	BC_OPT_INT(struct ls_opts, nr_maps, "nr_maps", .def = "1000", .min = 1,
		   .max = LS_MAX_NR_MAPS, .help = "number of task-storage maps"),
};

/* The runner's defaults are 1000 maps and 1000 keys; 1000 preallocated
 * maps of 4M entries need hundreds of GiB, its script always passes
 * --nr_maps 1, and so does this default. */
static const struct bc_option ls_hash_options[] = {
	BC_OPT_INT(struct ls_opts, nr_maps, "nr_maps", .def = "1", .min = 1,
		   .max = LS_MAX_NR_MAPS,
		   .help = "number of hash maps, each of 4194304 preallocated, filled entries"),
	BC_OPT_INT(struct ls_opts, hashmap_nr_keys_used, "hashmap_nr_keys_used", .def = "1000",
		   .min = 1, .max = LS_HASH_ENTRIES,
		   .help = "the lookups use random keys below this"),
};

/* What `list` checks instead of loading the programs: task storage in an
 * array of maps, and the gets' attach points. */
static const struct bc_need ls_cache_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_TASK_STORAGE,
		.why = "task storage maps (Linux 5.11)"),
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_ARRAY_OF_MAPS),
};

#define LS_CACHE_BENCH(name_, desc_, kind_, opts_)                                     \
	BC_BENCH(name_, desc_, ls_cache_metrics, .runner_name = true, BC_OPTIONS(opts_), \
		 .priv = (kind_), BC_NEEDS(ls_cache_needs), BC_POINTS(ls_cache_points),  \
		 .skel = &ls_cache_skel, .configure = ls_cache_configure,                \
		 .loaded = ls_cache_fill_maps, .producer = bc_getpgid_producer)

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
	"control: the same loop as lookups of random keys in full 4194304-entry hash maps",
	&ls_kind_hash, ls_hash_options);
