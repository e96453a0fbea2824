// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bufbench.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <benchcore/work.h>

/* Each record of a batch is reserved, written and submitted in the one
 * program run a syscall triggers. */
BC_WORK_STATIC_ASSERT(BC_BUF_BATCH_MAX, 64, "--rb-batch-cnt");

/* The defaults as numbers, for telling a value the user changed from the
 * table's default below; the table says them as a user would type them. */
#define BC_BUF_RB_SIZE_DEF (512ull * 1024)
#define BC_BUF_PB_PAGES_DEF 128

#define BC_BUF_OPT(type_, field, name_, ...) \
	BC_OPT_##type_(struct buf_opts, field, name_, __VA_ARGS__)

const struct bc_option buf_options[BC_BUF_OPTION_CNT] = {
	BC_BUF_OPT(FLAG, b2b, "rb-b2b",
		   .help = "Back-to-back: the consumer triggers the next batch after draining (one producer)"),
	BC_BUF_OPT(FLAG, use_output, "rb-use-output",
		   .help = "Ring buffer: bpf_ringbuf_output() instead of reserve/submit"),
	BC_BUF_OPT(INT, batch_cnt, "rb-batch-cnt", .def = "500", .min = 1,
		   .max = BC_BUF_BATCH_MAX, .arg = "N",
		   .help = "Records written per producer syscall"),
	BC_BUF_OPT(FLAG, sampled, "rb-sampled",
		   .help = "Sampled notifications: wake the consumer once per --rb-sample-rate records"),
	BC_BUF_OPT(INT, sample_rate, "rb-sample-rate", .def = "500", .min = 1,
		   .max = BC_BUF_RATE_MAX, .arg = "N",
		   .help = "Records per notification with --rb-sampled; a perf buffer's may not exceed --rb-batch-cnt"),
	/* The table's floor is the smallest page size; validate() holds the
	 * size to this machine's page and to a power of two. */
	BC_BUF_OPT(SIZE, rb_size, "rb-size", .def = "512K", .min = 4096,
		   .max = BC_BUF_RB_SIZE_MAX, .arg = "BYTES",
		   .help = "Ring buffer size: a power of two, at least a page",
		   .maps = "ringbuf"),
	BC_BUF_OPT(INT, pb_pages, "pb-size", .def = "128", .min = 1, .max = BC_BUF_PB_PAGES_MAX,
		   .arg = "PAGES", .help = "Perf buffer pages per CPU: a power of two"),
	BC_BUF_OPT(FLAG, bench_producer, "rb-bench-producer",
		   .help = "rb-libbpf with -c0: time the producer alone, no consumer, no wakeups "
			   "(hits are records written)"),
	BC_BUF_OPT(FLAG, latency, "rb-latency",
		   .help = "Measure delivery latency: stamp one record in 64 in BPF, read the clock "
			   "when it is consumed (off: the kernel runner's records, no clock reads)"),
};

const struct bc_metric_desc buf_metrics[BC_BUF_METRIC_CNT] = {
	[BC_BUF_HITS] = BC_METRIC("hits", "records", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	/* Both producers count drops in BC_CPU_SLOTS(drops): the core reads them. */
	[BC_BUF_DROPS] = BC_METRIC("drops", "records", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS,
				   .bpf = "drops"),
	[BC_BUF_LATENCY] = BC_METRIC("latency", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY,
				     .label = "delivery latency"),
};

uint32_t buf_stamp_mask(void)
{
	return BC_BUF_LAT_EVERY - 1;
}

bool buf_lat_init(struct buf_lat *l, struct bc_ctx *ctx, const struct bc_thread *t)
{
	l->hist = buf_run_opts(ctx)->latency ? bc_ctx_hist(ctx, buf_metrics[BC_BUF_LATENCY].name)
					     : NULL;
	l->thread = t;
	return l->hist != NULL;
}

void buf_lat_measure(struct buf_lat *l, uint64_t stamp)
{
	struct timespec now;
	uint64_t ns;

	if (!l->hist)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	/* The same clock on both sides: a stamp from the future is a torn or
	 * foreign record, not a negative latency. */
	if (ns >= stamp)
		bc_hist_record(l->hist, l->thread, ns - stamp);
}

static bool buf_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int buf_validate(struct bc_ctx *ctx)
{
	const struct buf_spec *spec = buf_run_spec(ctx);
	const struct buf_opts *o = buf_run_opts(ctx);
	long page = sysconf(_SC_PAGESIZE);

	if (!spec || !o)
		return bc_error(ctx, -EINVAL, "%s: no benchmark spec or option values",
				bc_ctx_bench_name(ctx));
	/* The runner's checks for a producer alone, in its order. Its default
	 * is no consumer and its rb- benchmarks need -c1; ours is one, so the
	 * producer-only run asks for -c0 instead of silently dropping it. */
	if (o->bench_producer) {
		if (spec->kind != BC_BUF_RINGBUF || spec->custom)
			return bc_usage_error(ctx, "--rb-bench-producer: only rb-libbpf times the producer alone, not %s",
					      bc_ctx_bench_name(ctx));
		if (bc_ctx_consumer_cnt(ctx))
			return bc_usage_error(ctx, "--rb-bench-producer with -c %u: the producer runs alone; pass -c0",
					      bc_ctx_consumer_cnt(ctx));
		if (o->b2b)
			return bc_usage_error(ctx, "--rb-bench-producer with --rb-b2b: back-to-back needs a consumer to trigger each batch");
		if (o->sampled)
			return bc_usage_error(ctx, "--rb-bench-producer with --rb-sampled: no consumer is woken, so there is nothing to sample");
	} else if (!bc_ctx_consumer_cnt(ctx)) {
		return bc_usage_error(ctx, "-c0: %s needs its consumer (-c1) unless --rb-bench-producer is given",
				      bc_ctx_bench_name(ctx));
	}
	/* Thread counts are the core's (BC_THREADS); this one depends on an
	 * option. */
	if (o->b2b && bc_ctx_producer_cnt(ctx) != 1)
		return bc_usage_error(ctx, "--rb-b2b with -p %u: back-to-back mode needs exactly one producer",
				      bc_ctx_producer_cnt(ctx));
	if (!buf_is_pow2(o->rb_size) || o->rb_size < (uint64_t)page)
		return bc_usage_error(ctx, "--rb-size '%llu': expected a power of two from %ld (the page size) to 1G",
				      (unsigned long long)o->rb_size, page);
	if (!buf_is_pow2((uint64_t)o->pb_pages))
		return bc_usage_error(ctx, "--pb-size '%lld': expected a power of two from 1 to %u pages",
				      (long long)o->pb_pages, BC_BUF_PB_PAGES_MAX);
	/*
	 * The kernel runner refuses a sample rate above the batch count for
	 * both perf-buffer benchmarks, sampled or not (its perf buffer setup
	 * checks it before anything else), so the same command line is refused
	 * here too. Its ring-buffer benchmarks have no such check.
	 */
	if (spec->kind == BC_BUF_PERFBUF && o->sample_rate > o->batch_cnt)
		return bc_usage_error(ctx, "--rb-sample-rate %lld: may not exceed --rb-batch-cnt (%lld) for a perf buffer",
				      (long long)o->sample_rate, (long long)o->batch_cnt);
	/* Ours, not the runner's (which would wait forever): sampled
	 * back-to-back, the only wakeup can come from the batch the consumer
	 * itself triggered, so that batch must reach the rate. */
	if (spec->kind == BC_BUF_RINGBUF && o->sampled && o->b2b &&
	    o->sample_rate > o->batch_cnt)
		return bc_usage_error(ctx, "--rb-sample-rate %lld: may not exceed --rb-batch-cnt (%lld) in back-to-back mode",
				      (long long)o->sample_rate, (long long)o->batch_cnt);

	/* Both plugins take every option, so that one command line (a suite's
	 * extra options) fits every row; what one kind cannot use is said. */
	if (spec->kind == BC_BUF_PERFBUF && o->use_output)
		bc_ctx_log(ctx, BC_LOG_WARN, "--rb-use-output applies to ring buffers only; ignored");
	if (spec->kind == BC_BUF_PERFBUF && o->rb_size != BC_BUF_RB_SIZE_DEF)
		bc_ctx_log(ctx, BC_LOG_WARN,
			   "--rb-size applies to ring buffers only; ignored (see --pb-size)");
	if (spec->kind == BC_BUF_RINGBUF && o->pb_pages != BC_BUF_PB_PAGES_DEF)
		bc_ctx_log(ctx, BC_LOG_WARN,
			   "--pb-size applies to perf buffers only; ignored (see --rb-size)");
	return 0;
}

const struct bc_attach_point buf_attach_points[BC_BUF_ATTACH_CNT] = {
	BC_GETPGID_ATTACH_POINTS("bench_fentry", "bench_tp", "bench_raw_tp"),
};

const char *buf_fentry_target(void)
{
	/* The part of the fentry candidate's name after "fentry/". */
	return buf_attach_points[0].name + strlen("fentry/");
}

long buf_getpgid_nr(void)
{
	return SYS_getpgid;
}

void buf_trigger_batch(void)
{
	bc_getpgid_trigger();
}

int buf_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	const struct timespec nap = { .tv_nsec = 10 * 1000 * 1000 };

	if (buf_run_opts(ctx)->b2b) {
		/* The first batch; from then on the consumer triggers each
		 * next one once it has drained the previous. */
		buf_trigger_batch();
		while (!bc_thread_should_stop(t))
			nanosleep(&nap, NULL);
		return 0;
	}
	while (!bc_thread_should_stop(t))
		buf_trigger_batch();
	return 0;
}
