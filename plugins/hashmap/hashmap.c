// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The hashmap plugin: the kernel runner's hash map cost benchmarks.
 *
 *   bpf-hashmap-full-update  updates of an absent key in a full,
 *                            preallocated hash map (the runner's
 *                            benchs/bench_bpf_hashmap_full_update.c)
 *   bpf-hashmap-lookup       lookups of every stored key in turn, with the
 *                            runner's --key_size, --map_flags,
 *                            --max_entries, --nr_entries and --nr_loops
 *                            (benchs/bench_bpf_hashmap_lookup.c)
 *
 * A producer's getpgid() runs one batch in BPF and times it there
 * (hashmap.bpf.c, bc_batch_stop()). The runner's figure is operations per
 * second of that BPF time: per CPU, the rate of the last batch (full
 * update) or the mean rate of the last 32 batches with twice their
 * standard deviation (lookup). So is the headline here ("events": per
 * interval, the mean of the rates of the batches that ended in it, on all
 * CPUs), and the runner's per-CPU lines end the report. The operations
 * per wall-clock second ("updates", "lookups") are a secondary figure: they
 * also count the syscall and any time the producer does not run. The
 * histogram "trigger_ns" holds each batch's BPF time. The core reads all
 * of them from the BPF object (the metrics' `bpf` fields) and drives the
 * skeleton through the attach ladder (hm_configure(), hm_fill()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/batch_timing.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "hashmap_common.h"
#include "hashmap.skel.h"

BC_SKEL(hashmap);
/* The kernel's bpf_loop() limit, BPF_MAX_LOOPS (not in the UAPI). */
#define HM_MAX_LOOPS (1 << 23)
/* Keys written per BPF_MAP_UPDATE_BATCH while filling. */
#define HM_FILL_CHUNK 4096

struct hm_opts {
	int64_t key_size;
	const char *map_flags;
	int64_t max_entries;
	int64_t nr_entries;
	int64_t nr_loops;
};

struct hm_kind {
	bool lookup;
};

/* A run's configuration: bpf-hashmap-lookup's from its options. */
struct hm_state {
	const struct hm_kind *kind;
	uint32_t key_size, map_flags, max_entries, nr_entries, outer_loops;
	struct hashmap *skel;
};

static const struct bc_option hm_lookup_options[] = {
	BC_OPT_INT(struct hm_opts, key_size, "key_size", .def = "4", .min = 1,
		   .max = HM_KEY_MAX_SIZE, .arg = "BYTES", .help = "hash map key size",
		   .maps = "hm_lookup"),
	/* Text: the runner accepts hex ("0x40") as well as decimal. */
	BC_OPT_STRING(struct hm_opts, map_flags, "map_flags", .def = "0", .arg = "FLAGS",
		      .help = "BPF_MAP_CREATE flags of the hash map, decimal or 0x hex",
		      .maps = "hm_lookup"),
	BC_OPT_INT(struct hm_opts, max_entries, "max_entries", .def = "1000", .min = 1,
		   .max = UINT32_MAX, .arg = "N", .help = "hash map max_entries",
		   .maps = "hm_lookup"),
	BC_OPT_INT(struct hm_opts, nr_entries, "nr_entries", .def = "500", .min = 1,
		   .max = UINT32_MAX, .arg = "N", .help = "entries stored and looked up in turn"),
	BC_OPT_INT(struct hm_opts, nr_loops, "nr_loops", .def = "1000000", .min = 1,
		   .max = HM_MAX_LOOPS, .arg = "N",
		   .help = "lookups per getpgid(), rounded down to whole rounds of --nr_entries"),
};

static const struct bc_attach_point hm_points[] = {
	BC_GETPGID_ATTACH_POINTS("hm_fentry", "hm_tp", "hm_raw_tp"),
};

/* --map_flags: decimal, or hex after "0x", as the runner reads it. */
static int hm_parse_flags(const char *text, uint32_t *out)
{
	unsigned long long v;
	const char *digits = text;
	int base = 10;
	char *end;

	if (!text || !text[0])
		return -EINVAL;
	if (!strncasecmp(text, "0x", 2)) {
		digits = text + 2;
		base = 16;
	}
	if (!digits[0] || digits[0] == '-' || digits[0] == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, &end, base);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Work units of one lookup of a key_size-byte key (<benchcore/work.h>). */
static unsigned long long hm_lookup_units(int64_t key_size)
{
	return 4 + (unsigned long long)(key_size > 0 ? key_size : 0) / 16;
}

/* The update benchmark's fixed rounds, and the lookup's own maximum at its
 * smallest key, are what the bound allows. */
BC_WORK_STATIC_ASSERT(HM_FULL_LOOPS, 8, "hashmap full-update rounds");

/* Turns the options into the lookup configuration; messages name values. */
static int hm_lookup_config(struct bc_ctx *ctx, struct hm_state *st)
{
	const struct hm_opts *o = bc_ctx_opts(ctx);

	if (hm_parse_flags(o->map_flags, &st->map_flags))
		return bc_usage_error(ctx, "--map_flags '%s': expected a number from 0 to %u, decimal or hex with 0x",
				      o->map_flags ? o->map_flags : "", UINT32_MAX);
	if (o->nr_entries > o->max_entries)
		return bc_usage_error(ctx, "--nr_entries '%lld': expected at most --max_entries (%lld)",
				      (long long)o->nr_entries, (long long)o->max_entries);
	/* The runner would run zero rounds and report nothing. */
	if (o->nr_loops < o->nr_entries)
		return bc_usage_error(ctx, "--nr_loops '%lld': expected at least --nr_entries (%lld): lookups come in rounds of every entry",
				      (long long)o->nr_loops, (long long)o->nr_entries);
	/* All --nr_loops lookups run inside one getpgid(): bounded like any
	 * work per call (<benchcore/work.h>), a lookup weighing 4 units plus
	 * one per 16 bytes of key (the hash reads the whole key). */
	if ((unsigned long long)o->nr_loops * hm_lookup_units(o->key_size) > BC_WORK_PER_CALL_MAX)
		return bc_usage_error(ctx, "--nr_loops '%lld' with --key_size %lld: one getpgid() would do %lld lookups, more than one syscall may (at most %llu at this key size, %llu work units per call, far below the kernel's 20 s soft-lockup threshold)",
				      (long long)o->nr_loops, (long long)o->key_size,
				      (long long)o->nr_loops,
				      BC_WORK_PER_CALL_MAX / hm_lookup_units(o->key_size),
				      BC_WORK_PER_CALL_MAX);
	st->key_size = (uint32_t)o->key_size;
	st->max_entries = (uint32_t)o->max_entries;
	st->nr_entries = (uint32_t)o->nr_entries;
	st->outer_loops = (uint32_t)(o->nr_loops / o->nr_entries);
	return 0;
}

/* The run's configuration, checked by validate() already. */
static struct hm_state hm_state_of(struct bc_ctx *ctx, struct hashmap *skel)
{
	struct hm_state st = { .kind = bc_ctx_bench_priv(ctx), .skel = skel };

	if (st.kind->lookup)
		(void)hm_lookup_config(ctx, &st);
	return st;
}

/* Before the candidate loads: what its program reads, the map's shape. */
static int hm_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct hm_state st = hm_state_of(ctx, skel);
	struct hashmap *s = skel;
	unsigned int k, w;
	int err;

	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->do_lookup = st.kind->lookup;
	s->rodata->record_triggers = true;
	if (!st.kind->lookup)
		return 0;
	s->rodata->nr_entries = st.nr_entries;
	s->rodata->outer_loops = st.outer_loops;
	for (k = 0; k < HM_KEY_SLOTS; k++)
		for (w = 1; w < st.key_size / 4; w++)
			s->bss->keys[k][w] = HM_KEY_PATTERN * w;
	if (!(err = bpf_map__set_key_size(s->maps.hm_lookup, st.key_size)))
		err = bpf_map__set_max_entries(s->maps.hm_lookup, st.max_entries);
	if (!err)
		err = bpf_map__set_map_flags(s->maps.hm_lookup, st.map_flags);
	return err;
}

/* Keys 0..HM_FULL_ENTRIES-1: from then on no update finds a free slot. */
static int hm_fill_full(struct bc_ctx *ctx, struct hm_state *st)
{
	__u32 keys[HM_FULL_ENTRIES], n = HM_FULL_ENTRIES;
	__u64 vals[HM_FULL_ENTRIES];
	int err;
	__u32 i;

	for (i = 0; i < n; i++) {
		keys[i] = i;
		vals[i] = i;
	}
	err = bpf_map_update_batch(bpf_map__fd(st->skel->maps.hm_full), keys, vals, &n, NULL);
	if (err)
		return bc_error(ctx, err, "filling the hash map (%u keys): %s", HM_FULL_ENTRIES,
				strerror(-err));
	return 0;
}

/* Keys 1..nr_entries in word 0, the pattern in the rest, as BPF builds them. */
static int hm_fill_lookup(struct bc_ctx *ctx, struct hm_state *st)
{
	int fd = bpf_map__fd(st->skel->maps.hm_lookup);
	const __u32 *tail = st->skel->bss->keys[0];
	size_t ksz = st->key_size;
	unsigned char *keys;
	uint32_t done = 0;
	__u64 *vals;
	int err = 0;

	keys = calloc(HM_FILL_CHUNK, ksz);
	vals = calloc(HM_FILL_CHUNK, sizeof(*vals));
	if (!keys || !vals) {
		err = bc_error(ctx, -ENOMEM, "allocating %d keys to fill the hash map", HM_FILL_CHUNK);
		goto out;
	}
	while (done < st->nr_entries) {
		__u32 n = st->nr_entries - done < HM_FILL_CHUNK ? st->nr_entries - done : HM_FILL_CHUNK;
		__u32 i;

		for (i = 0; i < n; i++) {
			__u32 word0 = done + i + 1;
			unsigned char *k = keys + (size_t)i * ksz;

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
			word0 = __builtin_bswap32(word0);
#endif
			memcpy(k, tail, ksz);
			memcpy(k, &word0, ksz < sizeof(word0) ? ksz : sizeof(word0));
			vals[i] = done + i;
		}
		err = bpf_map_update_batch(fd, keys, vals, &n, NULL);
		if (err) {
			err = bc_error(ctx, err, "filling the hash map (entries %u..%u of %u): %s",
				       done, done + n, st->nr_entries, strerror(-err));
			goto out;
		}
		done += n;
	}
out:
	free(keys);
	free(vals);
	return err;
}

/* After load, before attach: no trigger sees the map half full. */
static int hm_fill(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct hm_state st = hm_state_of(ctx, skel);

	(void)pt;
	return st.kind->lookup ? hm_fill_lookup(ctx, &st) : hm_fill_full(ctx, &st);
}

/* ------------------------------------------------------------ callbacks */

static int hm_validate(struct bc_ctx *ctx)
{
	struct hm_state st = { .kind = bc_ctx_bench_priv(ctx) };

	return st.kind->lookup ? hm_lookup_config(ctx, &st) : 0;
}

/* Metric indices, the same in both benchmarks. */
enum { HM_M_EVENTS, HM_M_OPS, HM_M_BATCHES, HM_M_TRIGGER_NS };

/* The counters are the core's to read; this only watches for a lost key. */
static int hm_measure(struct bc_ctx *ctx, double *values)
{
	struct hashmap *skel = bc_ctx_skel(ctx);

	(void)values;
	if (__atomic_load_n(&skel->bss->error, __ATOMIC_RELAXED))
		return bc_error(ctx, -EIO, "a lookup in BPF missed a stored key: the map lost an entry");
	return 0;
}

/* Progress: the rate per BPF second first, the wall-clock rate after it. */
static int hm_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	const struct hm_kind *k = bc_ctx_bench_priv(ctx);

	snprintf(buf, len, "%s %8.3lfM events/sec (BPF time), wall clock %8.3lfM/s",
		 k->lookup ? "lookup" : "update", rates[HM_M_EVENTS] / 1e6, rates[HM_M_OPS] / 1e6);
	return 0;
}

static int hm_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
			     char *buf, size_t len)
{
	const struct hm_kind *k = bc_ctx_bench_priv(ctx);

	snprintf(buf, len,
		 "%s %8.3lf \u00b1 %5.3lfM events/sec (BPF time: mean rate of the triggers, all CPUs; \u00b1 stddev across intervals), wall clock %8.3lf \u00b1 %5.3lfM/s",
		 k->lookup ? "lookup" : "update", means[HM_M_EVENTS] / 1e6,
		 stddevs[HM_M_EVENTS] / 1e6, means[HM_M_OPS] / 1e6, stddevs[HM_M_OPS] / 1e6);
	return 0;
}

/* The runner's end-of-run lines, one per CPU that ran a trigger: from
 * the skeleton, which the core keeps until teardown() returns. */
static void hm_teardown(struct bc_ctx *ctx)
{
	const struct hm_kind *k = bc_ctx_bench_priv(ctx);
	struct hashmap *skel = bc_ctx_skel(ctx);
	const struct bc_batch_timing *b;
	unsigned int cpu, n;
	double mean, sd, ns;

	if (!skel)
		return;
	b = skel->bss->batches;
	for (cpu = 0; cpu < BC_ARRAY_SIZE(skel->bss->batches); cpu++) {
		bc_batch_u64 last_ops = b[cpu].last_ops, next = b[cpu].ring_next;

		if (!next || !last_ops)
			continue;
		if (!k->lookup) {
			/* The runner's figure: the last update batch alone. */
			bc_batch_u64 last = b[cpu].ring[(next - 1) & (BC_BATCH_RING - 1)];

			if (last)
				bc_ctx_final_line(ctx, "%u:hash_map_full_perf %" PRIu64 " events per sec",
						  cpu, (uint64_t)(last_ops * 1000000000ull / last));
			continue;
		}
		n = bc_batch_ring_rates(&b[cpu], (double)last_ops, &mean, &sd, &ns);
		if (n)
			bc_ctx_final_line(ctx,
					  "cpu%02u: lookup %.3lfM \u00b1 %.3lfM events/sec (approximated from %u samples of ~%lums)",
					  cpu, mean / 1e6, 2 * sd / 1e6, n, (unsigned long)(ns / 1e6));
	}
}

/* ----------------------------------------------------------- descriptors */

/*
 * No headline role: an ops line would put the wall-clock rate first. The
 * runner's quantity, "events", is a ratio: per interval, the sum of the
 * per-batch rates over the batches that ended in it.
 */
static const struct bc_metric_desc hm_full_metrics[] = {
	[HM_M_OPS] = BC_METRIC("updates", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
			       .label = "updates of a full map per wall-clock second",
			       .bpf = "batches.ops"),
	[HM_M_BATCHES] = BC_METRIC("triggers", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
				   .label = "getpgid() triggers, 10000 updates each",
				   .bpf = "batches.batches"),
	[HM_M_EVENTS] = BC_METRIC("events", "ops/s", BC_METRIC_RATIO, .role = BC_ROLE_RATE,
				  .per = "triggers",
				  .label = "updates per second of BPF time, mean over triggers",
				  .bpf = "batches.rate_sum"),
	[HM_M_TRIGGER_NS] = BC_METRIC("trigger_ns", "ns", BC_METRIC_HISTOGRAM,
				      .role = BC_ROLE_LATENCY,
				      .label = "BPF time per getpgid() (10000 updates)",
				      .bpf = "trigger_ns"),
};

static const struct bc_metric_desc hm_lookup_metrics[] = {
	[HM_M_OPS] = BC_METRIC("lookups", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
			       .label = "lookups per wall-clock second", .bpf = "batches.ops"),
	[HM_M_BATCHES] = BC_METRIC("triggers", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
				   .label = "getpgid() triggers, --nr_loops lookups each",
				   .bpf = "batches.batches"),
	[HM_M_EVENTS] = BC_METRIC("events", "ops/s", BC_METRIC_RATIO, .role = BC_ROLE_RATE,
				  .per = "triggers",
				  .label = "lookups per second of BPF time, mean over triggers",
				  .bpf = "batches.rate_sum"),
	[HM_M_TRIGGER_NS] = BC_METRIC("trigger_ns", "ns", BC_METRIC_HISTOGRAM,
				      .role = BC_ROLE_LATENCY,
				      .label = "BPF time per getpgid() (--nr_loops lookups)",
				      .bpf = "trigger_ns"),
};

static const struct hm_kind hm_k_full = { .lookup = false };
static const struct hm_kind hm_k_lookup = { .lookup = true };

/* What `list` checks instead of loading the programs. */
static const struct bc_need hm_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

#define HM_BENCH(name_, desc_, metrics_, ...)                                         \
	BC_BENCH(name_, desc_, metrics_, .runner_name = true, BC_NEEDS(hm_needs),       \
		 BC_POINTS(hm_points), .skel = &hashmap_skel, .configure = hm_configure, \
		 .loaded = hm_fill, .validate = hm_validate, .producer = bc_getpgid_producer,   \
		 .measure = hm_measure, .teardown = hm_teardown,                       \
		 .format_iter = hm_format_iter, .format_summary = hm_format_summary, __VA_ARGS__)

static const struct bc_bench_desc hm_full_update = HM_BENCH("bpf-hashmap-full-update",
	"updates of an absent key in a full preallocated hash map (1000 keys)", hm_full_metrics,
	.priv = &hm_k_full);
static const struct bc_bench_desc hm_lookup = HM_BENCH("bpf-hashmap-lookup",
	"lookups of each of --nr_entries keys in turn, --nr_loops per getpgid()", hm_lookup_metrics,
	.priv = &hm_k_lookup, BC_OPTIONS(hm_lookup_options));

BENCHCORE_PLUGIN(.name = "hashmap", .version = "1.0",
		 .description = "hash map cost: updates of a full map, lookups by key size and map size",
		 .opts_size = sizeof(struct hm_opts),
		 BC_BENCHES(&hm_full_update, &hm_lookup));
