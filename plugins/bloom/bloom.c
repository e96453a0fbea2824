// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bloom plugin: the kernel runner's bloom filter map benchmarks
 * (benchs/bench_bloom_filter_map.c), under its names and options.
 *
 *   bloom-lookup           peek each of --nr_entries stored values
 *   bloom-update           push each of them again
 *   bloom-false-positive   random hash map lookups gated by the filter,
 *                          counting the filter's false positives
 *   hashmap-without-bloom  random hash map lookups
 *   hashmap-with-bloom     the same lookups, asking the filter first
 *
 * Every getpgid() of a producer runs the BPF program once (bloom.bpf.c),
 * attached where the kernel allows: fentry on the syscall as the runner
 * does, else its tracepoint, else raw_tp/sys_enter: the core drives the
 * skeleton through that ladder (bloom_configure() sizes the maps before
 * load, bloom_fill_maps() fills them before attach). Hits and drops are
 * counted per CPU in BPF; the core sums them (the metrics' `bpf` fields).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "bloom_common.h"
#include "bloom.skel.h"

BC_SKEL(bloom);

/* Map-filling threads: the runner uses one per CPU. */
#define BLOOM_MAX_FILLERS 64

struct bloom_opts {
	int64_t nr_entries;
	int64_t nr_hash_funcs;
	int64_t value_size;
};

/* What each benchmark is, as data (bc_bench_desc.priv). */
struct bloom_kind {
	enum bloom_op op;
	bool use_array;		/* the values live in an array map too */
	bool use_hash;		/* and as keys of a hash map */
	bool use_bloom;		/* the hash lookups ask the filter first */
	bool count_false_hits;
};

/* A run's configuration, from its options and its kind. */
struct bloom_state {
	const struct bloom_kind *kind;
	uint32_t nr_entries;
	uint32_t nr_hash_funcs;
	uint32_t value_size;
	struct bloom *skel;
};

static const struct bc_option bloom_options[] = {
	BC_OPT_INT(struct bloom_opts, nr_entries, "nr_entries", .def = "1000", .min = 1,
		   .max = UINT32_MAX, .arg = "N",
		   .help = "distinct values stored in the bloom filter (and the array or hash map)",
		   .maps = "bloom_array,bloom_filter,bloom_hash"),
	BC_OPT_INT(struct bloom_opts, nr_hash_funcs, "nr_hash_funcs", .def = "3", .min = 1,
		   .max = 15, .arg = "N", .help = "hash functions of the bloom filter",
		   .maps = "bloom_filter"),
	BC_OPT_INT(struct bloom_opts, value_size, "value_size", .def = "8", .min = 2,
		   .max = 256, .arg = "BYTES",
		   .help = "size of a stored value (and hash map key), in bytes",
		   .maps = "bloom_array,bloom_filter,bloom_hash"),
};

static const struct bc_attach_point bloom_points[] = {
	BC_GETPGID_ATTACH_POINTS("bloom_fentry", "bloom_tp", "bloom_raw_tp"),
};

static struct bloom_state bloom_state_of(struct bc_ctx *ctx, struct bloom *skel)
{
	const struct bloom_opts *o = bc_ctx_opts(ctx);

	return (struct bloom_state){
		.kind = bc_ctx_bench_priv(ctx), .nr_entries = (uint32_t)o->nr_entries,
		.nr_hash_funcs = (uint32_t)o->nr_hash_funcs, .value_size = (uint32_t)o->value_size,
		.skel = skel,
	};
}

static int bloom_size_maps(struct bloom *skel, const struct bloom_state *st)
{
	const struct bloom_kind *k = st->kind;
	/* Maps the benchmark never touches get one entry: the runner sizes
	 * all three, which only costs memory (a preallocated hash map of
	 * millions of entries) and changes nothing measured. */
	uint32_t array_n = k->use_array ? st->nr_entries : 1;
	uint32_t hash_n = k->use_hash ? st->nr_entries : 1;
	int err;

	err = bpf_map__set_max_entries(skel->maps.bloom_array, array_n);
	if (!err)
		err = bpf_map__set_value_size(skel->maps.bloom_array, st->value_size);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.bloom_filter, st->nr_entries);
	if (!err)
		err = bpf_map__set_value_size(skel->maps.bloom_filter, st->value_size);
	if (!err)
		err = bpf_map__set_map_extra(skel->maps.bloom_filter, st->nr_hash_funcs);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.bloom_hash, hash_n);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.bloom_hash, st->value_size);
	if (!err)
		err = bpf_map__set_value_size(skel->maps.bloom_hash, st->value_size);
	return err;
}

/* Before the candidate loads: what its program reads, the maps' sizes. */
static int bloom_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct bloom_state st = bloom_state_of(ctx, skel);
	struct bloom *s = skel;

	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->op = st.kind->op;
	s->rodata->value_size = st.value_size;
	s->rodata->use_bloom = st.kind->use_bloom;
	s->rodata->count_false_hits = st.kind->count_false_hits;
	return bloom_size_maps(s, &st);
}

/* ------------------------------------------------------ filling the maps */

struct bloom_fill {
	const struct bloom_state *st;
	int array_fd, hash_fd, bloom_fd;
	bool push_bloom;
	uint32_t next;		/* the next array index to claim */
	int err;		/* the first failure, negative errno */
	const char *failed;	/* what failed */
};

static int bloom_random(void *buf, size_t len)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void bloom_fill_fail(struct bloom_fill *f, int err, const char *what)
{
	int none = 0;

	if (__atomic_compare_exchange_n(&f->err, &none, err, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		f->failed = what;
}

/*
 * Stores random values, as the runner does: each claims an array index,
 * draws a value (again, until it is new to the hash map), and writes it to
 * the array, the hash map and the bloom filter, as the benchmark uses them.
 */
static void *bloom_fill_thread(void *arg)
{
	struct bloom_fill *f = arg;
	const struct bloom_state *st = f->st;
	unsigned char val[256];
	uint32_t i;
	int err;

	for (;;) {
		i = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED);
		if (i >= st->nr_entries || __atomic_load_n(&f->err, __ATOMIC_RELAXED))
			break;
		do {
			err = bloom_random(val, st->value_size);
			if (err) {
				bloom_fill_fail(f, err, "getrandom");
				return NULL;
			}
			if (!st->kind->use_hash)
				break;
			err = bpf_map_update_elem(f->hash_fd, val, val, BPF_NOEXIST);
		} while (err == -EEXIST);
		if (err) {
			bloom_fill_fail(f, err, "adding a value to the hash map");
			return NULL;
		}
		if (st->kind->use_array) {
			err = bpf_map_update_elem(f->array_fd, &i, val, 0);
			if (err) {
				bloom_fill_fail(f, err, "storing a value in the array map");
				return NULL;
			}
		}
		if (f->push_bloom) {
			err = bpf_map_update_elem(f->bloom_fd, NULL, val, 0);
			if (err) {
				bloom_fill_fail(f, err, "pushing a value into the bloom filter");
				return NULL;
			}
		}
	}
	return NULL;
}

/* Between load and attach: no trigger sees the maps half full. */
static int bloom_fill_maps(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct bloom_state state = bloom_state_of(ctx, skel), *st = &state;
	const struct bloom_kind *k = st->kind;
	struct bloom_fill f = {
		.st = st,
		.array_fd = bpf_map__fd(st->skel->maps.bloom_array),
		.hash_fd = bpf_map__fd(st->skel->maps.bloom_hash),
		.bloom_fd = bpf_map__fd(st->skel->maps.bloom_filter),
		/* hashmap-without-bloom leaves the filter empty and unasked. */
		.push_bloom = !k->use_hash || k->use_bloom,
	};
	pthread_t threads[BLOOM_MAX_FILLERS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int n, started = 0;
	int err;

	(void)pt;

	n = cpus < 1 ? 1 : cpus > BLOOM_MAX_FILLERS ? BLOOM_MAX_FILLERS : (unsigned int)cpus;
	for (; started < n; started++) {
		err = pthread_create(&threads[started], NULL, bloom_fill_thread, &f);
		if (err) {
			bloom_fill_fail(&f, -err, "starting a map-filling thread");
			break;
		}
	}
	while (started)
		pthread_join(threads[--started], NULL);
	if (f.err)
		return bc_error(ctx, f.err, "filling the maps (%u values of %u bytes): %s: %s",
				st->nr_entries, st->value_size, f.failed, strerror(-f.err));

	err = bloom_random(st->skel->bss->rand_vals, sizeof(st->skel->bss->rand_vals));
	if (err)
		return bc_error(ctx, err, "getrandom for the lookup keys: %s", strerror(-err));
	return 0;
}

/* ------------------------------------------------------------ callbacks */

static int bloom_validate(struct bc_ctx *ctx)
{
	const struct bloom_opts *o = bc_ctx_opts(ctx);
	uint64_t distinct;

	/* A value of fewer than 8 bytes has 2^(8 x size) distinct values. */
	if (o->value_size < 8) {
		distinct = 1ull << (8 * o->value_size);
		if ((uint64_t)o->nr_entries > distinct)
			return bc_usage_error(ctx, "--nr_entries '%lld': expected at most %llu: --value_size %lld has only that many distinct values",
					      (long long)o->nr_entries, (unsigned long long)distinct,
					      (long long)o->value_size);
	}
	return 0;
}

/* The counters are the core's to read; this only watches the error bits. */
static int bloom_measure(struct bc_ctx *ctx, double *values)
{
	const struct bloom_kind *k = bc_ctx_bench_priv(ctx);
	struct bloom *skel = bc_ctx_skel(ctx);
	uint32_t error;

	(void)values;
	error = __atomic_load_n(&skel->bss->error, __ATOMIC_RELAXED);
	if (error)
		return bc_error(ctx, -EIO, "%s in BPF (error bits %#x)",
				error & BLOOM_ERR_WALK ?
				(k->op == BLOOM_OP_UPDATE ? "a bloom filter push failed" :
				 "a stored value was not found in the bloom filter") :
				"a bloom filter peek failed", error);
	return 0;
}

/* ----------------------------------------------------------- descriptors */

/* The runner's hits_drops lines. */
static const struct bc_metric_desc bloom_hits_drops[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "stats.hits"),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .bpf = "stats.drops"),
};

/* The runner's false_hits lines: false hits as a share of hits + drops +
 * false hits (a false hit is counted as a drop too, as the runner does). */
static const struct bc_metric_desc bloom_false_hits[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "stats.hits"),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .bpf = "stats.drops"),
	BC_METRIC("false_hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_SHARE,
		  .label = "false hits", .bpf = "stats.false_hits"),
};

static const struct bloom_kind bloom_k_lookup = { .op = BLOOM_OP_LOOKUP, .use_array = true };
static const struct bloom_kind bloom_k_update = { .op = BLOOM_OP_UPDATE, .use_array = true };
static const struct bloom_kind bloom_k_false_positive = {
	.op = BLOOM_OP_HASH, .use_hash = true, .use_bloom = true, .count_false_hits = true,
};
static const struct bloom_kind bloom_k_hash_only = { .op = BLOOM_OP_HASH, .use_hash = true };
static const struct bloom_kind bloom_k_hash_bloom = {
	.op = BLOOM_OP_HASH, .use_hash = true, .use_bloom = true,
};

/* What `list` checks instead of loading the programs (the maps are the
 * bloom filter's, Linux 5.16, and plain hash and array maps). */
static const struct bc_need bloom_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_BLOOM_FILTER,
		.why = "bloom filter maps (Linux 5.16)"),
};

#define BLOOM_BENCH(var, name_, desc_, kind_, metrics_)                                \
	static const struct bc_bench_desc var = BC_BENCH(name_, desc_, metrics_,       \
		.runner_name = true, .priv = &(kind_), BC_NEEDS(bloom_needs),          \
		BC_POINTS(bloom_points), .skel = &bloom_skel, .configure = bloom_configure, \
		.loaded = bloom_fill_maps, .validate = bloom_validate,                 \
		.producer = bc_getpgid_producer, .measure = bloom_measure)

BLOOM_BENCH(bloom_lookup, "bloom-lookup",
	    "bloom filter peeks of the --nr_entries stored values, per getpgid()",
	    bloom_k_lookup, bloom_hits_drops);
BLOOM_BENCH(bloom_update, "bloom-update",
	    "bloom filter pushes of the --nr_entries stored values, per getpgid()",
	    bloom_k_update, bloom_hits_drops);
BLOOM_BENCH(bloom_false_positive, "bloom-false-positive",
	    "share of random keys the bloom filter lets through that the hash map lacks",
	    bloom_k_false_positive, bloom_false_hits);
BLOOM_BENCH(bloom_hashmap_without, "hashmap-without-bloom",
	    "1024 hash map lookups of random keys per getpgid()",
	    bloom_k_hash_only, bloom_hits_drops);
BLOOM_BENCH(bloom_hashmap_with, "hashmap-with-bloom",
	    "the same lookups, each asking the bloom filter first",
	    bloom_k_hash_bloom, bloom_hits_drops);

BENCHCORE_PLUGIN(.name = "bloom", .version = "1.0",
		 .description = "bloom filter map: lookup and update cost, false positives, hash map gating",
		 BC_OPTIONS(bloom_options), .opts_size = sizeof(struct bloom_opts),
		 BC_BENCHES(&bloom_lookup, &bloom_update, &bloom_false_positive,
			    &bloom_hashmap_without, &bloom_hashmap_with));
