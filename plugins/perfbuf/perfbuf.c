// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perfbuf plugin: the per-CPU BPF perf buffer, the transport the BPF ring
 * buffer was designed to replace, measured the way the kernel's own runner
 * measures it so that the two plugins' tables line up.
 *
 *   pb-libbpf  libbpf's perf_buffer with a raw event callback
 *              (perf_buffer__new_raw: the cheapest path libbpf offers)
 *   pb-custom  our own epoll loop over the per-CPU rings, reading records
 *              in place and publishing each ring's tail once per wakeup;
 *              the rings are reached only through libbpf's public API
 *              (perf_buffer__buffer_cnt/__buffer/__buffer_fd)
 *
 * The producer is perfbuf.bpf.c: each getpgid() of this process writes a
 * batch of 8-byte records, one in BC_BUF_LAT_EVERY stamped with the time it
 * was written; hits are counted by the consumer, drops in BPF, and latency
 * is now - stamp of the stamped records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "bufbench.h"
#include "pb_ring.h"
#include "perfbuf.skel.h"

BC_SKEL(perfbuf);

/*
 * The options (--rb-b2b, --rb-batch-cnt, --rb-sampled, --rb-sample-rate,
 * --pb-size, ...) are plugins/common's table, shared with ringbuf.
 *
 * The verifier walks the BPF batch loop once per record and refuses about
 * 8190 records and more on 6.x kernels ("the sequence of 8193 jumps is too
 * complex"). The shared option parser's cap must stay below that, or a
 * large --rb-batch-cnt would fail at load time instead of as a usage error.
 */
#define PB_MAX_BATCH 8000u
_Static_assert(BC_BUF_BATCH_MAX <= PB_MAX_BATCH,
	       "--rb-batch-cnt's shared cap exceeds what perfbuf.bpf.c's loop can load");

/* ----------------------------------------------------------- run state */

struct pb_state {
	const struct buf_opts *opts;
	struct perf_buffer *pb;
	/* Written by the consumer, read by measure(): alone on its line. */
	struct bc_line_counter *hits;
	/* The consumer's running total and latency sample; only the
	 * consumer touches them. */
	uint64_t cons_hits;
	struct buf_lat lat;
	/* pb-custom only */
	int epoll_fd;
	struct pb_ring *rings;
	struct epoll_event *events;
	size_t ring_cnt;
};

static void pb_publish_hits(struct pb_state *st)
{
	__atomic_store_n(&st->hits->value, st->cons_hits, __ATOMIC_RELAXED);
}

static enum bpf_perf_event_ret pb_libbpf_event(void *cookie, int cpu, struct perf_event_header *e)
{
	struct pb_state *st = cookie;

	(void)cpu;
	/* Lost records are the BPF side's drops, already counted there. */
	if (e->type == PERF_RECORD_SAMPLE) {
		/* PERF_SAMPLE_RAW: { u32 size; data[size] }; libbpf hands
		 * over a record that wrapped as one contiguous copy. */
		const unsigned char *raw = (const unsigned char *)(e + 1);
		uint32_t len;

		/* Without --rb-latency the payload is not read. */
		if (st->lat.hist && e->size >= sizeof(*e) + sizeof(len)) {
			memcpy(&len, raw, sizeof(len));
			if (len <= e->size - sizeof(*e) - sizeof(len))
				buf_lat_seen(&st->lat, raw + sizeof(len), len);
		}
		st->cons_hits++;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/*
 * One software BPF-output event per CPU. Without --rb-sampled the consumer
 * is woken for every record (libbpf's own default); with it, only every
 * sample_rate records, which is what the ring buffer's sampled mode is
 * compared against.
 */
static struct perf_buffer *pb_buffer_new(struct perfbuf *skel, struct pb_state *st)
{
	const struct buf_opts *o = st->opts;
	unsigned long rate = o->sampled ? (unsigned long)o->sample_rate : 1;
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = rate;
	attr.wakeup_events = rate;
	return perf_buffer__new_raw(bpf_map__fd(skel->maps.perfbuf), (size_t)o->pb_pages, &attr,
				    pb_libbpf_event, st, NULL);
}

/* Before the candidate loads: what the producer program reads. */
static int pb_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct buf_opts *o = buf_run_opts(ctx);
	struct perfbuf *s = skel;

	s->rodata->batch_cnt = (__u32)o->batch_cnt;
	s->rodata->bc_tgid = getpid();
	s->rodata->getpgid_nr = buf_getpgid_nr();
	s->rodata->stamp_mask = buf_stamp_mask();
	s->rodata->stamp = o->latency;
	if (pt->kind != BC_ATTACH_FENTRY)
		return 0;
	return bpf_program__set_attach_target(s->progs.bench_fentry, 0, buf_fentry_target());
}

/* pb-custom: our own epoll set over libbpf's per-CPU rings. */
static int pb_rings_open(struct bc_ctx *ctx, struct pb_state *st)
{
	size_t page_size = sysconf(_SC_PAGESIZE);
	size_t i, cnt = perf_buffer__buffer_cnt(st->pb);
	int err;

	st->rings = calloc(cnt, sizeof(*st->rings));
	st->events = calloc(cnt, sizeof(*st->events));
	if (!st->rings || !st->events)
		return bc_error(ctx, -ENOMEM, "out of memory for %zu perf rings", cnt);
	st->ring_cnt = cnt;

	st->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (st->epoll_fd < 0)
		return bc_error(ctx, -errno, "epoll_create1 failed: %s", strerror(errno));

	for (i = 0; i < cnt; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };
		size_t size;
		void *base;
		int fd;

		err = perf_buffer__buffer(st->pb, (int)i, &base, &size);
		if (err)
			return bc_error(ctx, err, "perf buffer %zu: no mapping: %s", i,
					strerror(-err));
		err = pb_ring_init(&st->rings[i], base, page_size, size);
		if (err)
			return bc_error(ctx, err, "perf buffer %zu: unexpected size %zu", i, size);
		fd = perf_buffer__buffer_fd(st->pb, i);
		if (fd < 0)
			return bc_error(ctx, fd, "perf buffer %zu: no event fd: %s", i,
					strerror(-fd));
		if (epoll_ctl(st->epoll_fd, EPOLL_CTL_ADD, fd, &ev))
			return bc_error(ctx, -errno, "perf buffer %zu: epoll_ctl failed: %s", i,
					strerror(errno));
	}
	return 0;
}

/* ----------------------------------------------------------- callbacks */

/* What reads the buffer: a failed candidate's goes before the next one's. */
static void pb_consumer_free(struct pb_state *st)
{
	if (st->epoll_fd >= 0)
		close(st->epoll_fd);
	st->epoll_fd = -1;
	perf_buffer__free(st->pb);
	st->pb = NULL;
	free(st->rings);
	free(st->events);
	st->rings = NULL;
	st->events = NULL;
	st->ring_cnt = 0;
}

/* The core detached the producer first, so nothing writes into what is
 * freed here, and destroys the object after. */
static void pb_teardown(struct bc_ctx *ctx)
{
	struct pb_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	pb_consumer_free(st);
	free(st->hits);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static int pb_setup(struct bc_ctx *ctx)
{
	struct pb_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->opts = buf_run_opts(ctx);
	st->epoll_fd = -1;
	bc_ctx_set_data(ctx, st);

	st->hits = bc_line_counters_alloc(1);
	if (!st->hits)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* Next the core drives the skeleton (pb_configure(), pb_loaded()). */
	return 0;
}

/* After load, before attach: the buffer exists before any batch can fall
 * into an empty map slot (and count as drops). A failure here is ours,
 * not the kernel refusing an attach point. */
static int pb_loaded(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct pb_state *st = bc_ctx_data(ctx);

	(void)pt;
	pb_consumer_free(st);
	st->pb = pb_buffer_new(skel, st);
	if (!st->pb)
		return bc_error(ctx, -errno, "creating the perf buffer (%lld pages per CPU) failed: %s",
				(long long)st->opts->pb_pages, strerror(errno));
	return buf_run_spec(ctx)->custom ? pb_rings_open(ctx, st) : 0;
}

/* The 100 ms poll timeout is how a consumer with nothing to read still sees
 * the stop flag in time. */
#define PB_POLL_MS 100

static int pb_libbpf_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct pb_state *st = bc_ctx_data(ctx);
	int err;

	buf_lat_init(&st->lat, ctx, t);
	while (!bc_thread_should_stop(t)) {
		err = perf_buffer__poll(st->pb, PB_POLL_MS);
		if (err < 0 && err != -EINTR)
			return bc_error(ctx, err, "perf_buffer__poll failed: %s", strerror(-err));
		pb_publish_hits(st);
		if (st->opts->b2b)
			buf_trigger_batch();
	}
	return 0;
}

static void pb_custom_sample(void *cookie, const void *raw, uint32_t len)
{
	struct pb_state *st = cookie;

	buf_lat_seen(&st->lat, raw, len);
}

static int pb_custom_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct pb_state *st = bc_ctx_data(ctx);
	struct pb_ring_counts counts = { 0 };
	pb_ring_sample_fn seen;
	int i, n;
	long err;

	/* Without --rb-latency no sample is handed over: the drain counts. */
	seen = buf_lat_init(&st->lat, ctx, t) ? pb_custom_sample : NULL;
	while (!bc_thread_should_stop(t)) {
		n = epoll_wait(st->epoll_fd, st->events, (int)st->ring_cnt, PB_POLL_MS);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return bc_error(ctx, -errno, "epoll_wait on the perf buffers failed: %s",
					strerror(errno));
		}
		for (i = 0; i < n; i++) {
			uint64_t idx = st->events[i].data.u64;

			err = pb_ring_drain(&st->rings[idx], &counts, seen, st);
			if (err < 0)
				return bc_error(ctx, (int)err,
						"perf buffer %llu holds a malformed record",
						(unsigned long long)idx);
		}
		st->cons_hits = counts.samples;
		pb_publish_hits(st);
		if (st->opts->b2b)
			buf_trigger_batch();
	}
	return 0;
}

static int pb_measure(struct bc_ctx *ctx, double *values)
{
	struct pb_state *st = bc_ctx_data(ctx);

	/* drops: the core's, from BPF */
	return bc_metric_set(ctx, values, "hits",
			     (double)__atomic_load_n(&st->hits->value, __ATOMIC_RELAXED));
}

/* ----------------------------------------------------------- descriptor */

/* What `list` checks: the producer's attach points and its map, as the
 * core will load them. */
static const struct bc_need pb_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_PERF_EVENT_ARRAY),
};

#define PB_BENCH(name_, desc_, spec_, consumer_)                                   \
	BC_BUF_BENCH(name_, desc_, spec_, .setup = pb_setup, .skel = &perfbuf_skel,  \
		     .configure = pb_configure, .loaded = pb_loaded, BC_NEEDS(pb_needs), \
		     .consumer = (consumer_), .measure = pb_measure,                \
		     .teardown = pb_teardown)

static const struct buf_spec pb_libbpf_spec = { .kind = BC_BUF_PERFBUF, .custom = false };
static const struct buf_spec pb_custom_spec = { .kind = BC_BUF_PERFBUF, .custom = true };

static const struct bc_bench_desc pb_libbpf_bench =
	PB_BENCH("pb-libbpf", "BPF perf buffer read with libbpf's perf_buffer (raw event callback)",
		 &pb_libbpf_spec, pb_libbpf_consumer);
static const struct bc_bench_desc pb_custom_bench =
	PB_BENCH("pb-custom", "BPF perf buffer read by a custom epoll loop, tail published per wakeup",
		 &pb_custom_spec, pb_custom_consumer);

BENCHCORE_PLUGIN(.name = "perfbuf", .version = "1.0",
		 .description = "BPF perf buffer throughput (per-CPU perf rings), as in the kernel's bench",
		 BC_BUF_PLUGIN_OPTIONS,
		 BC_BENCHES(&pb_libbpf_bench, &pb_custom_bench));
