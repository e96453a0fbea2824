// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lookup: what one BPF map lookup costs, timed inside BPF. Each producer
 * calls getpgid(); the program on that syscall runs --lookup-ops lookups in
 * one timed batch. Two variants of one question, to compare: lookup:array
 * looks up an array map, lookup:hash a hash map of --lookup-keys keys (an
 * option of that benchmark alone). The result is "ns_per_lookup", BPF time
 * over lookups. The core reads every metric from the BPF object and drives
 * the skeleton itself: no attach(), no teardown(), no measure() here.
 */
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "lookup.skel.h"

BC_SKEL(lookup);	/* lookup_skel: the core opens, loads, attaches, destroys */

struct lk_opts {
	uint64_t ops, keys;
	bool untimed;
};

/* BC_OPT_COUNT: "1K" is 1000, "64Ki" 65536. option_prefix names them. */
static const struct bc_option lk_options[] = {
	BC_OPT_COUNT(struct lk_opts, ops, "ops", .def = "1K", .min = 1, .max = 1000000,
		     .help = "map lookups per getpgid(), timed in BPF as one batch"),
	BC_OPT_FLAG(struct lk_opts, untimed, "untimed",
		    .help = "no clock read: what the timing costs shows in --bpf-stats"),
};
static const struct bc_option lk_hash_options[] = {
	BC_OPT_COUNT(struct lk_opts, keys, "keys", .def = "1K", .min = 1, .max = 1 << 20,
		     .maps = "lk_hash", .help = "keys in the hash map, each looked up in turn"),
};

/* The three candidates of BC_SYSCALL_PROGS(lk, ...), most direct first. */
static const struct bc_attach_point lk_points[] = {
	BC_GETPGID_ATTACH_POINTS("lk_fentry", "lk_tp", "lk_raw_tp"),
};

static const char lk_hash_tag[] = "hash";	/* lookup:hash's priv */

/* Before load, for the candidate the core is trying. */
static int lk_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct lk_opts *o = bc_ctx_opts(ctx);
	struct lookup *s = skel;

	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();	/* count this process only */
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->nr_ops = (__u32)o->ops;
	s->rodata->timed = !o->untimed;
	s->rodata->use_hash = bc_ctx_bench_priv(ctx) == lk_hash_tag;
	s->rodata->nr_keys = s->rodata->use_hash ? (__u32)o->keys : 1;
	return bpf_map__set_max_entries(s->maps.lk_hash, s->rodata->nr_keys);
}

/* After load, before the program runs: every key there to be found. */
static int lk_fill(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	int fd = bpf_map__fd(((struct lookup *)skel)->maps.lk_hash), err;
	const struct lk_opts *o = bc_ctx_opts(ctx);

	(void)pt;
	for (__u32 key = 0; key < o->keys; key++) {
		__u64 val = key;

		err = bpf_map_update_elem(fd, &key, &val, BPF_NOEXIST);
		if (err)
			return bc_error(ctx, err, "filling the hash map: %s", bc_strerror(err));
	}
	return 0;
}

/* `.bpf`: where each is in the BPF object (lookup.bpf.c). */
static const struct bc_metric_desc lk_metrics[] = {
	BC_METRIC("lookups", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "lookups"),
	BC_METRIC("ns_per_lookup", "ns", BC_METRIC_TIME_PER_OP, .role = BC_ROLE_LATENCY,
		  .bpf = "batches.ns", .bpf_per = "batches.ops", .label = "BPF time per lookup"),
	BC_METRIC("batch_ns", "ns", BC_METRIC_HISTOGRAM, .bpf = "batch_ns",
		  .label = "BPF time per getpgid()"),
};

#define LK_BENCH(name_, desc_, ...)                                                   \
	BC_BENCH(name_, desc_, lk_metrics, BC_POINTS(lk_points), .skel = &lookup_skel,  \
		 .configure = lk_configure, .producer = bc_getpgid_producer,                    \
		 .headline = "ns_per_lookup", __VA_ARGS__)

static const struct bc_bench_desc lk_array = LK_BENCH("array", "BPF array map lookups");
static const struct bc_bench_desc lk_hash = LK_BENCH("hash", "BPF hash map lookups",
	.priv = lk_hash_tag, .loaded = lk_fill, BC_OPTIONS(lk_hash_options));
BENCHCORE_PLUGIN(.name = "lookup", .version = LOOKUP_VERSION,
		 .description = "Example out-of-tree plugin: BPF map lookups timed inside BPF",
		 BC_OPTIONS(lk_options), .opts_size = sizeof(struct lk_opts),
		 .option_prefix = "lookup-", BC_BENCHES(&lk_array, &lk_hash));
