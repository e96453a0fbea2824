/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the ring-buffer (ringbuf) and perf-buffer (perfbuf) plugins share:
 * the option table, which the kernel runner's scripts pass with the same
 * names to rb- and pb- benchmarks so that their numbers compare; the checks
 * across those options; the per-benchmark spec both plugins hang off
 * bc_bench_desc.priv; and the getpgid-triggered producer's attach
 * candidates. One static library linked into both plugins, so the two
 * cannot drift.
 *
 * The values themselves live in the core: each run gets its own struct
 * buf_opts, filled from buf_options, read with buf_run_opts(ctx).
 */
#ifndef BENCHCORE_BUFBENCH_H
#define BENCHCORE_BUFBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

/* The BPF loop is verified iteration by iteration: 5000 records with
 * --rb-use-output --rb-sampled exceed the verifier's budget on 6.18. */
#define BC_BUF_BATCH_MAX 4000
#define BC_BUF_RATE_MAX 1000000
#define BC_BUF_RB_SIZE_MAX (1ull << 30)
#define BC_BUF_PB_PAGES_MAX (1u << 16)
/* A record's 8 bytes of data plus the ring buffer's 8-byte header: the
 * kernel runner's unit for --rb-sampled (wake up once rate*16 bytes wait). */
#define BC_BUF_RB_RECORD_BYTES 16

/* One run's values of buf_options; the field types are the option
 * types' (benchcore.h). */
struct buf_opts {
	bool b2b;		/* --rb-b2b */
	bool use_output;	/* --rb-use-output (ring buffer only) */
	bool sampled;		/* --rb-sampled */
	int64_t batch_cnt;	/* --rb-batch-cnt: records per syscall */
	int64_t sample_rate;	/* --rb-sample-rate */
	uint64_t rb_size;	/* --rb-size: bytes */
	int64_t pb_pages;	/* --pb-size: pages per CPU */
	bool bench_producer;	/* --rb-bench-producer (rb-libbpf only) */
	bool latency;		/* --rb-latency: stamp and measure delivery latency */
};

/* Both plugins declare exactly this table as their plugin-wide options. */
#define BC_BUF_OPTION_CNT 9
extern const struct bc_option buf_options[BC_BUF_OPTION_CNT];

enum buf_kind {
	BC_BUF_RINGBUF,
	BC_BUF_PERFBUF,
};

/* What tells the benchmarks of a plugin apart: bc_bench_desc.priv. */
struct buf_spec {
	enum buf_kind kind;
	bool custom;		/* our own consumer, else libbpf's */
};

/* The running benchmark's spec and options (never NULL in a run the core
 * set up: the table always gives a struct). */
static inline const struct buf_spec *buf_run_spec(const struct bc_ctx *ctx)
{
	return bc_ctx_bench_priv(ctx);
}

static inline const struct buf_opts *buf_run_opts(const struct bc_ctx *ctx)
{
	return bc_ctx_opts(ctx);
}

/* What every rb- and pb- benchmark reports, in measure()'s order: records
 * consumed (the runner's hits) and records the BPF side could not write
 * (its drops), so both plugins print the runner's hits/drops lines; and the
 * delivery latency of a sample of the records (buf_lat below). */
enum buf_metric {
	BC_BUF_HITS,
	BC_BUF_DROPS,
	BC_BUF_LATENCY,		/* histogram: delivery latency, ns */
	BC_BUF_METRIC_CNT,
};
extern const struct bc_metric_desc buf_metrics[BC_BUF_METRIC_CNT];

/* A benchmark of either plugin: the shape they share (threads, metrics,
 * options check), then the plugin's callbacks as designated initialisers.
 * One consumer; BC_BUF_BENCH_CONS with cons_min 0 for a benchmark that may
 * run without (rb-libbpf with --rb-bench-producer and -c0; buf_validate()
 * ties the two). */
#define BC_BUF_BENCH_CONS(name_, desc_, spec_, cons_min_, ...)                      \
	BC_BENCH(name_, desc_, buf_metrics, .runner_name = true,                       \
		 .consumers = BC_THREADS(cons_min_, 1, 1), .priv = (spec_),             \
		 .attach_points = buf_attach_points, .attach_point_cnt = BC_BUF_ATTACH_CNT, \
		 .validate = buf_validate, .producer = buf_producer, __VA_ARGS__)
#define BC_BUF_BENCH(name_, desc_, spec_, ...)                                   \
	BC_BUF_BENCH_CONS(name_, desc_, spec_, 1, __VA_ARGS__)

/* The plugin descriptor's option fields: both plugins take the one table. */
#define BC_BUF_PLUGIN_OPTIONS                                                  \
	.options = buf_options, .option_cnt = BC_BUF_OPTION_CNT,            \
	.opts_size = sizeof(struct buf_opts)

/*
 * Delivery latency, with --rb-latency only: the benchmarks keep the kernel
 * runner's names, and stamping and measuring cost back-to-back about 3%
 * that the runner does not pay (docs/compat.md), so by default the producer
 * writes the runner's records and the consumer never reads a payload, and
 * the "latency" histogram says it recorded nothing. With it, the producer
 * programs stamp records 0, N, 2N, ... of every batch (N = BC_BUF_LAT_EVERY,
 * a power of two) with bpf_ktime_get_ns() and write 0 into the others; the
 * consumer, for every stamped record it takes, reads
 * clock_gettime(CLOCK_MONOTONIC) and records now - stamp in the "latency"
 * histogram, in its own thread's shard.
 *
 * One clock on both sides: bpf_ktime_get_ns() is the kernel's
 * ktime_get_mono_fast_ns(), the CLOCK_MONOTONIC that clock_gettime() reads
 * (not bpf_ktime_get_boot_ns()'s CLOCK_BOOTTIME, which would add suspended
 * time, nor the coarse clock's tick-sized steps).
 *
 * A sample, not every record: stamping and measuring every record cut
 * rb-custom's and rb-libbpf's back-to-back records per CPU-second by more
 * than half, one in 64 costs within the noise (docs/benchmarks/ringbuf.md),
 * and evenly spaced positions still cover the whole batch. A batch of fewer
 * than N records has its first record stamped: one clock read per syscall.
 */
#define BC_BUF_LAT_EVERY 64
_Static_assert((BC_BUF_LAT_EVERY & (BC_BUF_LAT_EVERY - 1)) == 0,
	       "the producer programs test (i & (BC_BUF_LAT_EVERY - 1))");

struct buf_lat {
	struct bc_hist *hist;
	const struct bc_thread *thread;	/* the consumer's */
};

/* The producer programs' stamp_mask: BC_BUF_LAT_EVERY - 1. */
uint32_t buf_stamp_mask(void);
/* At the start of a consumer thread. Returns whether latency is measured
 * (--rb-latency): without it the consumer need not look at a payload. */
bool buf_lat_init(struct buf_lat *l, struct bc_ctx *ctx, const struct bc_thread *t);
/* Records the latency of a record stamped at `stamp`. */
void buf_lat_measure(struct buf_lat *l, uint64_t stamp);

/* Called by the consumer for every record it takes, with its payload:
 * inline, so that an unstamped record costs one load and a branch. */
static inline void buf_lat_seen(struct buf_lat *l, const void *data, size_t len)
{
	uint64_t stamp;

	if (len < sizeof(stamp))
		return;
	/* Perf samples put the payload 4 bytes into an 8-aligned record. */
	memcpy(&stamp, data, sizeof(stamp));
	if (stamp)
		buf_lat_measure(l, stamp);
}

/* The validate() callback of every rb- and pb- benchmark: the checks that
 * involve more than one value, or the benchmark's kind (bc_usage_error()). */
int buf_validate(struct bc_ctx *ctx);

/* The producer of every rb- and pb- benchmark: a batch per getpgid(), in
 * a loop, or with --rb-b2b one batch and then the consumer's turn. */
int buf_producer(struct bc_ctx *ctx, struct bc_thread *t);

/*
 * The producer's attach candidates, in order, for BPF objects that name
 * their programs bench_fentry, bench_tp and bench_raw_tp (see
 * plugins/ringbuf/ringbuf.bpf.c). bench_fentry needs
 * bpf_program__set_attach_target(prog, 0, buf_fentry_target()).
 */
#define BC_BUF_ATTACH_CNT 3
extern const struct bc_attach_point buf_attach_points[BC_BUF_ATTACH_CNT];
/* "__x64_sys_getpgid" on x86-64: the syscall's entry symbol on this arch. */
const char *buf_fentry_target(void);
/* The getpgid syscall number, for the raw_tp/sys_enter filter. */
long buf_getpgid_nr(void);

/* One producer batch: the syscall the BPF program hangs off. */
void buf_trigger_batch(void);

#endif /* BENCHCORE_BUFBENCH_H */
