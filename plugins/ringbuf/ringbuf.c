// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ringbuf plugin: the BPF ring buffer benchmarks the ring buffer was
 * designed and justified with (kernel commit "bpf: Add BPF ringbuf and
 * perf buffer benchmarks").
 *
 *   rb-libbpf  libbpf's ring_buffer manager consumes the records
 *   rb-custom  our own consumer (rb_walk.c): epoll + a walk over the mmapped
 *              pages that publishes the consumer position once per batch
 *
 * Producer: every getpgid() of this process runs a BPF program that writes
 * --rb-batch-cnt 8-byte records (ringbuf.bpf.c). Hits are records consumed,
 * drops are records the BPF side could not write; one record in
 * BC_BUF_LAT_EVERY carries the time it was written, and latency is now -
 * that time.
 *
 * rb-libbpf --rb-bench-producer -c0 (the runner's producer-only mode):
 * nobody reads the ring and nobody is woken; hits are the records the BPF
 * side wrote. Once the ring is full every record is a drop: the runner
 * pairs this mode with overwrite mode (--rb-overwrite, Linux 6.19), which
 * benchcore does not carry yet (docs/compat.md, "Not carried yet").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "bufbench.h"
#include "rb_walk.h"
#include "ringbuf.skel.h"

BC_SKEL(ringbuf);

struct rb_state {
	const struct buf_opts *opts;
	/* Written by the one consumer thread, read by measure(). */
	uint64_t hits;
	/* The consumer thread's alone. */
	struct buf_lat lat;

	/* rb-libbpf */
	struct ring_buffer *rb;

	/* rb-custom */
	int epoll_fd;
	void *cons_page;
	void *prod_pages;
	size_t prod_len;
	struct rb_walk_ring ring;
};


/* Before the candidate loads: what the producer program reads. */
static int rb_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct buf_opts *o = buf_run_opts(ctx);
	struct ringbuf *s = skel;
	int err;

	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->batch_cnt = (__u32)o->batch_cnt;
	s->rodata->use_output = o->use_output;
	s->rodata->bench_producer = o->bench_producer;
	s->rodata->getpgid_nr = buf_getpgid_nr();
	s->rodata->stamp_mask = buf_stamp_mask();
	s->rodata->stamp = o->latency;
	/* The kernel runner's rule: wake the consumer only once rate records
	 * (16 bytes each with the header) are waiting. */
	s->rodata->wakeup_data_size =
		o->sampled ? (__u64)o->sample_rate * BC_BUF_RB_RECORD_BYTES : 0;
	err = bpf_map__set_max_entries(s->maps.ringbuf, (__u32)o->rb_size);
	if (!err && pt->kind == BC_ATTACH_FENTRY)
		err = bpf_program__set_attach_target(s->progs.bench_fentry, 0,
						     buf_fentry_target());
	return err;
}

static int rb_libbpf_sample(void *cookie, void *data, size_t len)
{
	struct rb_state *st = cookie;

	/* Without --rb-latency the payload is not read, as the runner's
	 * callback does not. */
	if (st->lat.hist)
		buf_lat_seen(&st->lat, data, len);
	/* Single writer: a relaxed load/store pair, no locked instruction. */
	__atomic_store_n(&st->hits, __atomic_load_n(&st->hits, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	return 0;
}

static int rb_custom_map(struct bc_ctx *ctx, struct rb_state *st, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct epoll_event ev = { .events = EPOLLIN };

	st->cons_page = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (st->cons_page == MAP_FAILED) {
		st->cons_page = NULL;
		return bc_error(ctx, -errno, "mmap of the ring buffer's consumer page: %s",
				strerror(errno));
	}
	/* Producer page, then the data area mapped twice by the kernel. */
	st->prod_len = page + 2 * (size_t)st->opts->rb_size;
	st->prod_pages = mmap(NULL, st->prod_len, PROT_READ, MAP_SHARED, fd, page);
	if (st->prod_pages == MAP_FAILED) {
		st->prod_pages = NULL;
		return bc_error(ctx, -errno, "mmap of the ring buffer's data pages: %s",
				strerror(errno));
	}
	st->ring.consumer_pos = st->cons_page;
	st->ring.producer_pos = st->prod_pages;
	st->ring.data = (const unsigned char *)st->prod_pages + page;
	st->ring.mask = st->opts->rb_size - 1;

	st->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (st->epoll_fd < 0)
		return bc_error(ctx, -errno, "epoll_create1: %s", strerror(errno));
	if (epoll_ctl(st->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return bc_error(ctx, -errno, "epoll_ctl on the ring buffer: %s", strerror(errno));
	return 0;
}

/* What reads the ring: a failed candidate's goes before the next one's. */
static void rb_consumer_free(struct rb_state *st)
{
	ring_buffer__free(st->rb);
	st->rb = NULL;
	if (st->epoll_fd >= 0)
		close(st->epoll_fd);
	st->epoll_fd = -1;
	if (st->prod_pages)
		munmap(st->prod_pages, st->prod_len);
	st->prod_pages = NULL;
	if (st->cons_page)
		munmap(st->cons_page, (size_t)sysconf(_SC_PAGESIZE));
	st->cons_page = NULL;
}

/* The core detached the program before this, and destroys it after. */
static void rb_teardown(struct bc_ctx *ctx)
{
	struct rb_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	rb_consumer_free(st);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static int rb_setup(struct bc_ctx *ctx)
{
	struct rb_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->opts = buf_run_opts(ctx);
	st->epoll_fd = -1;
	bc_ctx_set_data(ctx, st);
	/* Next the core drives the skeleton (rb_configure(), rb_loaded()). */
	return 0;
}

/* After load, before attach: what the consumer reads through. Failures
 * here are ours (bc_error()), not an attach point's refusal. */
static int rb_loaded(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct rb_state *st = bc_ctx_data(ctx);
	int fd = bpf_map__fd(((struct ringbuf *)skel)->maps.ringbuf);

	(void)pt;
	rb_consumer_free(st);
	if (buf_run_spec(ctx)->custom)
		return rb_custom_map(ctx, st, fd);
	if (st->opts->bench_producer)
		return 0;	/* no consumer to hand the ring to */
	st->rb = ring_buffer__new(fd, rb_libbpf_sample, st, NULL);
	if (!st->rb)
		return bc_error(ctx, -errno, "ring_buffer__new: %s", strerror(errno));
	return 0;
}

static int rb_libbpf_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct rb_state *st = bc_ctx_data(ctx);
	int n;

	buf_lat_init(&st->lat, ctx, t);

	while (!bc_thread_should_stop(t)) {
		/* 100 ms: the stop flag is looked at even when idle. */
		n = ring_buffer__poll(st->rb, 100);
		if (n < 0 && n != -EINTR)
			return bc_error(ctx, n, "ring_buffer__poll: %s", strerror(-n));
		if (st->opts->b2b)
			buf_trigger_batch();
	}
	return 0;
}

static void rb_custom_record(void *cookie, const void *data, uint32_t len)
{
	struct rb_state *st = cookie;

	buf_lat_seen(&st->lat, data, len);
}

static int rb_custom_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct rb_state *st = bc_ctx_data(ctx);
	struct rb_walk_counts counts = { 0 };
	struct epoll_event ev;
	rb_walk_record_fn seen;
	int n;

	/* Without --rb-latency no record is handed over: the walk only
	 * counts, as the runner's does. */
	seen = buf_lat_init(&st->lat, ctx, t) ? rb_custom_record : NULL;

	while (!bc_thread_should_stop(t)) {
		if (st->opts->b2b)
			buf_trigger_batch();
		n = epoll_wait(st->epoll_fd, &ev, 1, 100);
		if (n < 0 && errno != EINTR)
			return bc_error(ctx, -errno, "epoll_wait: %s", strerror(errno));
		/* Also on a timeout: cheap, and nothing can get stuck behind
		 * a wakeup the sampled mode chose not to send. */
		rb_walk(&st->ring, &counts, seen, st);
		__atomic_store_n(&st->hits, counts.records, __ATOMIC_RELAXED);
	}
	return 0;
}

static int rb_measure(struct bc_ctx *ctx, double *values)
{
	struct rb_state *st = bc_ctx_data(ctx);

	struct ringbuf *skel = bc_ctx_skel(ctx);

	/* drops: the core's, from BPF; hits: the consumer's, or with no
	 * consumer (--rb-bench-producer) the records the BPF side wrote */
	if (st->opts->bench_producer)
		return bc_metric_set(ctx, values, "hits",
				     (double)bc_line_counters_sum(skel->bss->hits,
								  BC_ARRAY_SIZE(skel->bss->hits)));
	return bc_metric_set(ctx, values, "hits",
			     (double)__atomic_load_n(&st->hits, __ATOMIC_RELAXED));
}

/* What `list` checks instead of loading the producer. */
static const struct bc_need rb_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_RINGBUF,
		.why = "BPF ring buffers (Linux 5.8)"),
};

#define RB_BENCH(name_, desc_, spec_, cons_min_, consumer_)                        \
	BC_BUF_BENCH_CONS(name_, desc_, spec_, cons_min_, .setup = rb_setup,        \
			  .skel = &ringbuf_skel, .configure = rb_configure,          \
			  .loaded = rb_loaded, BC_NEEDS(rb_needs),                   \
			  .consumer = (consumer_), .measure = rb_measure,            \
			  .teardown = rb_teardown)

static const struct buf_spec rb_libbpf_spec = { .kind = BC_BUF_RINGBUF, .custom = false };
static const struct buf_spec rb_custom_spec = { .kind = BC_BUF_RINGBUF, .custom = true };

static const struct bc_bench_desc rb_libbpf_bench =
	RB_BENCH("rb-libbpf", "BPF ring buffer consumed with libbpf's ring_buffer__poll()",
		 &rb_libbpf_spec, 0, rb_libbpf_consumer);
static const struct bc_bench_desc rb_custom_bench =
	RB_BENCH("rb-custom", "BPF ring buffer consumed by a custom epoll + mmap consumer",
		 &rb_custom_spec, 1, rb_custom_consumer);

BENCHCORE_PLUGIN(.name = "ringbuf", .version = "1.0",
		 .description = "BPF ring buffer throughput (rb-libbpf, rb-custom)",
		 BC_BUF_PLUGIN_OPTIONS, BC_BENCHES(&rb_libbpf_bench, &rb_custom_bench));
