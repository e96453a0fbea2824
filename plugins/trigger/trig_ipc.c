// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The trigger plugin's baselines that hand records from one thread to
 * another, as the runner's 2026 development trees measure them next to
 * the attach types:
 *
 *  trig-user-ringbuf-timer    the producer submits 8-byte records to a BPF
 *                             user ring buffer; a bpf_timer drains it every
 *                             --user-rb-timer-ns;
 *  trig-user-ringbuf-syscall  the same, but each record is followed by a
 *                             getppid() whose program drains one record;
 *  trig-unix-socket           records written to a Unix stream socket, read
 *                             and checked by a consumer thread;
 *  trig-shared-memory         records copied into a ring in shared memory,
 *                             read by a consumer that spins on it;
 *  trig-shared-memory-eventfd the same, the consumer sleeping on an eventfd
 *                             the producer signals when the ring goes from
 *                             empty to not empty or the consumer waits.
 *
 * A hit is a record that arrived (drained by BPF, or read back and found
 * well-formed by the consumer); a drop is a record that could not be
 * handed over (the ring was full: the producer counts it and tries again)
 * or arrived malformed. Counters are per thread (or per CPU in BPF), each
 * on its own cache line.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "trig_ipc.h"
#include "trigger_opts.h"

/* The skeleton's slots are struct bc_line_counter: <benchcore/benchcore.h>
 * comes first. */
#include "trig_user_rb.skel.h"

#define TRIG_CACHELINE 64
#define TRIG_URB_SIZE_DEFAULT 4096
#define TRIG_URB_TIMER_NS_DEFAULT 1000000
/* How long a blocked thread waits before it looks at the stop flag. */
#define TRIG_WAKE_MS 100
/* The Unix-socket consumer's read buffer: many records per read(). */
#define TRIG_UNIX_BUF (64 * 1024)

static bool trig_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* A page-multiple power of two, as both rings need. */
static int trig_check_ring_size(struct bc_ctx *ctx, const char *opt, uint64_t v)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0)
		page = 4096;
	if (!trig_pow2(v) || v % (uint64_t)page)
		return bc_usage_error(ctx, "--%s '%llu': expected a power of two and a multiple of "
				      "the page size (%ld)", opt, (unsigned long long)v, page);
	return 0;
}

/* The record the Unix-socket and shared-memory producers send. */
static unsigned char *trig_event_new(uint32_t size)
{
	unsigned char *ev = calloc(1, size);
	uint32_t le = htole32(size);

	if (!ev)
		return NULL;
	ev[0] = BC_TRIG_EVENT_OP;
	memcpy(ev + 4, &le, sizeof(le));
	return ev;
}

static bool trig_event_ok(const unsigned char *rec, uint32_t size)
{
	uint32_t le;

	memcpy(&le, rec + 4, sizeof(le));
	return rec[0] == BC_TRIG_EVENT_OP && le32toh(le) == size;
}

/* ================================================ user ring buffer (BPF) */

struct trig_urb {
	struct trig_user_rb *skel;
	struct bpf_link *link;
	struct user_ring_buffer *rb;
	bool syscall;		/* drained by getppid()'s program, else the timer */
	char attach_point[96];
};

#if defined(__x86_64__)
#define TRIG_SYS_PREFIX "__x64_sys_"
#elif defined(__aarch64__)
#define TRIG_SYS_PREFIX "__arm64_sys_"
#elif defined(__s390x__)
#define TRIG_SYS_PREFIX "__s390x_sys_"
#elif defined(__riscv)
#define TRIG_SYS_PREFIX "__riscv_sys_"
#else
#define TRIG_SYS_PREFIX "sys_"
#endif

/* The runner's ksyscall (a kprobe), then what a kernel without kprobes
 * offers for the same syscall; the report names the one used. */
static const struct bc_attach_point trig_urb_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_KPROBE, "kprobe/" TRIG_SYS_PREFIX "getppid (ksyscall/getppid)",
			"trig_urb_ksyscall"),
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getppid", "trig_urb_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter (getppid filtered)", "trig_urb_raw_tp"),
};

static void trig_urb_free(struct trig_urb *st)
{
	if (!st)
		return;
	/* The ring first: it maps the map's pages. The map going with the
	 * skeleton cancels the timer. */
	user_ring_buffer__free(st->rb);
	bpf_link__destroy(st->link);
	trig_user_rb__destroy(st->skel);
	free(st);
}

static struct trig_urb *trig_urb_new(struct bc_ctx *ctx)
{
	struct trig_urb *st = calloc(1, sizeof(*st));

	if (st)
		st->syscall = bc_ctx_bench_priv(ctx) != NULL;
	return st;
}

/* Opens the object and loads only `prog` (and the maps). */
static int trig_urb_load(struct bc_ctx *ctx, struct trig_urb *st, const char *prog)
{
	const struct trig_opts *o = bc_ctx_opts(ctx);
	uint64_t size = o && o->user_rb_size ? o->user_rb_size : TRIG_URB_SIZE_DEFAULT;
	int64_t ns = o && o->user_rb_timer_ns > 0 ? o->user_rb_timer_ns : TRIG_URB_TIMER_NS_DEFAULT;
	struct trig_user_rb *skel;
	int err;

	skel = trig_user_rb__open();
	if (!skel)
		return errno ? -errno : -ENOMEM;
	err = bc_bpf_autoload_only(skel->obj, prog);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.trig_urb_ring, (__u32)size);
	if (!err) {
		skel->rodata->timer_ns = (__u64)ns;
		skel->rodata->getppid_nr = SYS_getppid;
		skel->rodata->bc_tgid = (__u32)getpid();
		err = trig_user_rb__load(skel);
	}
	if (err) {
		trig_user_rb__destroy(skel);
		return err;
	}
	st->skel = skel;
	return 0;
}

static int trig_urb_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct trig_urb *st = cookie;
	struct bpf_program *p;
	int err;

	err = trig_urb_load(ctx, st, pt->prog_name);
	if (err)
		return err;
	p = bpf_object__find_program_by_name(st->skel->obj, pt->prog_name);
	st->link = bpf_program__attach(p);
	if (!st->link) {
		err = errno ? -errno : -EINVAL;
		trig_user_rb__destroy(st->skel);
		st->skel = NULL;
		return err;
	}
	return 0;
}

/* Arms the timer: one test run of the syscall program. */
static int trig_urb_arm(struct trig_urb *st)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(st->skel->progs.trig_urb_timer_init), &opts);
	if (err)
		return err;
	/* A helper's negative errno, or 1: the timer's slot was missing. */
	if (opts.retval)
		return (int)opts.retval < 0 ? (int)opts.retval : -ENOENT;
	return 0;
}

static int trig_urb_timer_refused(struct bc_ctx *ctx, const char *what, int err)
{
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF) to load BPF programs: %s",
				      bc_strerror(err));
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "%s refused by the kernel: %s (user ring buffers need "
				      "Linux 6.1, syscall programs with bpf_timer 5.15)", what,
				      bc_strerror(err));
	return bc_error(ctx, err, "%s failed: %s", what, bc_strerror(err));
}

/* Everything loaded, attached or armed, and the ring mapped; on failure
 * the reason is recorded in ctx, and trig_urb_free() undoes the rest. */
static int trig_urb_prepare(struct bc_ctx *ctx, struct trig_urb *st)
{
	const struct trig_opts *o = bc_ctx_opts(ctx);
	int err;

	if (st->syscall) {
		err = bc_attach_first(ctx, trig_urb_points, BC_ARRAY_SIZE(trig_urb_points),
				      trig_urb_try, st);
		if (err < 0)
			return err;
	} else {
		err = trig_urb_load(ctx, st, "trig_urb_timer_init");
		if (err)
			return trig_urb_timer_refused(ctx, "loading the user ring buffer and the "
						      "syscall program that arms its timer", err);
		err = trig_urb_arm(st);
		if (err)
			return trig_urb_timer_refused(ctx, "starting the bpf_timer that drains the "
						      "user ring buffer", err);
		snprintf(st->attach_point, sizeof(st->attach_point),
			 "none (a bpf_timer drains the user ring buffer every %lld ns)",
			 (long long)(o && o->user_rb_timer_ns > 0 ? o->user_rb_timer_ns :
				     TRIG_URB_TIMER_NS_DEFAULT));
		bc_ctx_set_attach_point(ctx, st->attach_point);
	}
	st->rb = user_ring_buffer__new(bpf_map__fd(st->skel->maps.trig_urb_ring), NULL);
	if (!st->rb)
		return bc_error(ctx, -errno, "mapping the user ring buffer: %s", strerror(errno));
	/* The hits and timer fires are the core's to read (`bpf`). */
	return bc_ctx_set_bpf_object(ctx, st->skel->obj);
}

static int trig_urb_validate(struct bc_ctx *ctx)
{
	return trig_check_ring_size(ctx, "user-rb-size", TRIG_OPTS(ctx)->user_rb_size);
}

static int trig_urb_probe(struct bc_ctx *ctx)
{
	struct trig_urb *st = trig_urb_new(ctx);
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	err = trig_urb_prepare(ctx, st);
	trig_urb_free(st);
	return err;
}

static int trig_urb_setup(struct bc_ctx *ctx)
{
	struct trig_urb *st = trig_urb_new(ctx);
	struct bpf_program *p;
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	err = trig_urb_prepare(ctx, st);
	if (err)
		return err;
	/* The one program loaded is the one that drains. */
	bpf_object__for_each_program(p, st->skel->obj) {
		if (bpf_program__fd(p) >= 0)
			return bc_ctx_add_prog(ctx, bpf_program__fd(p),
					       st->syscall ? "drains one record per getppid()" :
							     "arms the draining timer");
	}
	return 0;
}

static void trig_urb_teardown(struct bc_ctx *ctx)
{
	trig_urb_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

/* Reserve, fill, submit; a full ring is a drop, and the producer tries
 * again at once, as the runner's does. */
static __always_inline void *trig_urb_reserve(struct trig_urb *st, struct bc_thread *t,
					       struct bc_line_counter *drops)
{
	void *rec;

	while (!(rec = user_ring_buffer__reserve(st->rb, sizeof(__u64)))) {
		if (errno != ENOSPC || bc_thread_should_stop(t))
			return NULL;
		bc_counter_add(drops, 1);
	}
	return rec;
}

static int trig_urb_failed(struct bc_ctx *ctx, struct bc_thread *t)
{
	if (bc_thread_should_stop(t))
		return 0;
	return bc_error(ctx, -errno, "reserving a user ring buffer record: %s", strerror(errno));
}

static int trig_urb_timer_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *drops = bc_thread_counter(ctx, t, "drops");
	struct trig_urb *st = bc_ctx_data(ctx);
	__u64 *rec;

	while (!bc_thread_should_stop(t)) {
		rec = trig_urb_reserve(st, t, drops);
		if (!rec)
			return trig_urb_failed(ctx, t);
		*rec = 0;
		user_ring_buffer__submit(st->rb, rec);
	}
	return 0;
}

static int trig_urb_syscall_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *drops = bc_thread_counter(ctx, t, "drops");
	struct trig_urb *st = bc_ctx_data(ctx);
	__u64 *rec;

	while (!bc_thread_should_stop(t)) {
		rec = trig_urb_reserve(st, t, drops);
		if (!rec)
			return trig_urb_failed(ctx, t);
		*rec = 0;
		user_ring_buffer__submit(st->rb, rec);
		(void)syscall(SYS_getppid);
	}
	return 0;
}

/* trig_urb_timer_metrics[], by what each is: the lines below read them so. */
enum { TRIG_URB_M_HITS, TRIG_URB_M_DROPS, TRIG_URB_M_FIRES };

/* The runner's own lines for the timer benchmark: no per-producer figure,
 * no total, the timer's rate last. */
static int trig_urb_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "hits %8.3lfM/s, drops %8.3lfM/s, timer-fires %8.3lfM/s",
		 rates[TRIG_URB_M_HITS] / 1e6, rates[TRIG_URB_M_DROPS] / 1e6,
		 rates[TRIG_URB_M_FIRES] / 1e6);
	return 0;
}

static int trig_urb_format_summary(struct bc_ctx *ctx, const double *means,
				   const double *stddevs, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len,
		 "hits %8.3lf \u00b1 %5.3lfM/s, drops %8.3lf \u00b1 %5.3lfM/s, "
		 "timer-fires %8.3lf \u00b1 %5.3lfM/s",
		 means[TRIG_URB_M_HITS] / 1e6, stddevs[TRIG_URB_M_HITS] / 1e6,
		 means[TRIG_URB_M_DROPS] / 1e6, stddevs[TRIG_URB_M_DROPS] / 1e6,
		 means[TRIG_URB_M_FIRES] / 1e6, stddevs[TRIG_URB_M_FIRES] / 1e6);
	return 0;
}

/* hits: records BPF drained; drops: reservations refused for a full ring
 * (ENOSPC), each retried; timer-fires: the timer's runs. No role gives the
 * runner's timer lines (no per-producer figure, no total, a third rate):
 * all AUX, printed by the callbacks above, as local-storage-create. */
static const struct bc_metric_desc trig_urb_timer_metrics[] = {
	[TRIG_URB_M_HITS] = BC_METRIC("hits", "records", BC_METRIC_COUNTER, .bpf = "hits"),
	[TRIG_URB_M_DROPS] = BC_METRIC("drops", "reservations", BC_METRIC_COUNTER,
				       .threads = true),
	[TRIG_URB_M_FIRES] = BC_METRIC("timer_fires", "runs", BC_METRIC_COUNTER,
				       .bpf = "timer_fires"),
};

/* The runner's hits/drops lines, word for word: no labels. */
static const struct bc_metric_desc trig_urb_syscall_metrics[] = {
	BC_METRIC("hits", "records", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("drops", "reservations", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS,
		  .threads = true),
};

#define TRIG_OPT_URB_SIZE                                                           \
	BC_OPT_SIZE(struct trig_opts, user_rb_size, "user-rb-size",                 \
		    .def = BC_TRIG_STR(TRIG_URB_SIZE_DEFAULT), .min = 1,             \
		    .max = UINT32_MAX, .arg = "BYTES", .maps = "trig_urb_ring",      \
		    .help = "user ring buffer size in bytes: a power of two and a "  \
			    "multiple of the page size")
#define BC_TRIG_STR_(x) #x
#define BC_TRIG_STR(x) BC_TRIG_STR_(x)

static const struct bc_option trig_urb_timer_options[] = {
	TRIG_OPT_URB_SIZE,
	BC_OPT_INT(struct trig_opts, user_rb_timer_ns, "user-rb-timer-ns",
		   .def = BC_TRIG_STR(TRIG_URB_TIMER_NS_DEFAULT), .min = 1, .max = INT64_MAX,
		   .arg = "NSEC", .help = "period of the bpf_timer that drains the user ring buffer"),
};

static const struct bc_option trig_urb_syscall_options[] = {
	TRIG_OPT_URB_SIZE,
};

static const struct bc_need trig_urb_timer_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_USER_RINGBUF,
		.why = "user ring buffer maps (Linux 6.1)"),
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SYSCALL,
		.why = "syscall programs, which arm the timer (Linux 5.14)"),
};

static const struct bc_need trig_urb_syscall_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_USER_RINGBUF,
		.why = "user ring buffer maps (Linux 6.1)"),
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT,
		.id = BPF_FUNC_user_ringbuf_drain,
		.why = "bpf_user_ringbuf_drain() (Linux 6.1)"),
};

/* One producer, each benchmark; the runner's names and callbacks. */
#define TRIG_IPC_BENCH(name_, desc_, metrics_, ...)                                    \
	BC_BENCH(name_, desc_, metrics_, .runner_name = true,                          \
		 .producers = BC_THREADS(1, 1, 1), __VA_ARGS__)
#define TRIG_URB_BENCH(name_, desc_, metrics_, ...)                                    \
	TRIG_IPC_BENCH(name_, desc_, metrics_, .probe = trig_urb_probe,                \
		       .validate = trig_urb_validate, .setup = trig_urb_setup,         \
		       .teardown = trig_urb_teardown, __VA_ARGS__)

/* .priv tells the two apart: non-NULL for the syscall-drained one. */
static const char trig_urb_syscall_tag[] = "syscall";

const struct bc_bench_desc trig_b_user_ringbuf_timer = TRIG_URB_BENCH(
	"trig-user-ringbuf-timer",
	"baseline: 8-byte records through a BPF user ring buffer, drained by a bpf_timer every "
	"--user-rb-timer-ns", trig_urb_timer_metrics, BC_OPTIONS(trig_urb_timer_options),
	.producer = trig_urb_timer_producer, .format_iter = trig_urb_format_iter,
	.format_summary = trig_urb_format_summary, BC_NEEDS(trig_urb_timer_needs));

const struct bc_bench_desc trig_b_user_ringbuf_syscall = TRIG_URB_BENCH(
	"trig-user-ringbuf-syscall",
	"baseline: 8-byte records through a BPF user ring buffer, one drained by each getppid() "
	"the producer makes", trig_urb_syscall_metrics, BC_OPTIONS(trig_urb_syscall_options),
	.priv = trig_urb_syscall_tag, .producer = trig_urb_syscall_producer,
	BC_NEEDS(trig_urb_syscall_needs), BC_POINTS(trig_urb_points));

/* ====================================================== without BPF */


/*
 * The shared-memory ring: a header line, the producer's and the
 * consumer's positions each on a line of their own, then slot_count
 * slots of event_size bytes.
 */
struct trig_shm_index {
	uint64_t pos;
	char pad[TRIG_CACHELINE - sizeof(uint64_t)];
};

struct trig_shm_ring {
	uint64_t magic;
	uint32_t event_size;
	uint32_t slot_count;
	char pad[TRIG_CACHELINE - 2 * sizeof(uint64_t)];
	struct trig_shm_index producer;
	struct trig_shm_index consumer;
	unsigned char data[];
};

_Static_assert(sizeof(struct trig_shm_index) == TRIG_CACHELINE, "one index, one line");
_Static_assert(offsetof(struct trig_shm_ring, data) % TRIG_CACHELINE == 0,
	       "slots start on a line");

#define TRIG_SHM_MAGIC 0x62636874726967ULL	/* "bchtrig" */

struct trig_queue {
	struct trig_shm_ring *ring;	/* shared memory; NULL for the socket */
	size_t map_size;
	uint32_t slot_count;
	uint32_t event_size;
	int efd;			/* the eventfd, or -1: the consumer spins */
	int sock[2];			/* the socket pair: producer, consumer */
	/* The consumer's "I am going to sleep" flag, which both threads
	 * write, alone on its line. (Hits and drops are the threads'
	 * counters: the consumer's good and malformed records, the
	 * producer's full-ring retries.) */
	struct bc_line_counter *waiting;
};

static void trig_queue_free(struct trig_queue *q)
{
	if (!q)
		return;
	if (q->ring)
		munmap(q->ring, q->map_size);
	if (q->efd >= 0)
		close(q->efd);
	for (int i = 0; i < 2; i++)
		if (q->sock[i] >= 0)
			close(q->sock[i]);
	free(q->waiting);
	free(q);
}

static struct trig_queue *trig_queue_new(void)
{
	struct trig_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->efd = -1;
	q->sock[0] = q->sock[1] = -1;
	q->waiting = bc_line_counters_alloc(1);
	if (!q->waiting) {
		free(q);
		return NULL;
	}
	return q;
}

static bool trig_shm_is_eventfd(struct bc_ctx *ctx)
{
	return bc_ctx_bench_priv(ctx) != NULL;
}

static int trig_shm_validate(struct bc_ctx *ctx)
{
	const struct trig_opts *o = TRIG_OPTS(ctx);
	int err;

	err = trig_check_ring_size(ctx, "shared-mem-size", o->shm_size);
	if (err)
		return err;
	if (o->shm_size / o->shm_event_size == 0)
		return bc_usage_error(ctx, "--shared-mem-size %llu holds no record of "
				      "--shared-mem-event-size %llu: expected a ring of one record "
				      "or more", (unsigned long long)o->shm_size,
				      (unsigned long long)o->shm_event_size);
	return 0;
}

static int trig_shm_setup(struct bc_ctx *ctx)
{
	const struct trig_opts *o = bc_ctx_opts(ctx);
	struct trig_queue *q = trig_queue_new();
	uint64_t slots;

	if (!q)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, q);
	q->event_size = (uint32_t)o->shm_event_size;
	/* As many slots as fit, rounded down to a power of two: a position
	 * maps to its slot with a mask. */
	slots = o->shm_size / o->shm_event_size;
	q->slot_count = 1u << (63 - __builtin_clzll(slots));
	q->map_size = offsetof(struct trig_shm_ring, data) +
		      (size_t)q->slot_count * q->event_size;
	q->ring = mmap(NULL, q->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (q->ring == MAP_FAILED) {
		q->ring = NULL;
		return bc_error(ctx, -errno, "mapping %zu bytes of shared memory: %s", q->map_size,
				strerror(errno));
	}
	q->ring->magic = TRIG_SHM_MAGIC;
	q->ring->event_size = q->event_size;
	q->ring->slot_count = q->slot_count;
	bc_ctx_set_attach_point(ctx, trig_shm_is_eventfd(ctx) ?
				"none (no BPF: a ring in shared memory, the consumer woken by an "
				"eventfd)" :
				"none (no BPF: a ring in shared memory, the consumer spinning)");
	if (trig_shm_is_eventfd(ctx)) {
		/* Non-blocking: a sleeping consumer wakes every
		 * TRIG_WAKE_MS to look at the stop flag. */
		q->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (q->efd < 0)
			return bc_error(ctx, -errno, "eventfd: %s", strerror(errno));
	}
	return 0;
}

static void trig_queue_teardown(struct bc_ctx *ctx)
{
	trig_queue_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int trig_shm_notify(struct bc_ctx *ctx, struct trig_queue *q)
{
	while (eventfd_write(q->efd, 1)) {
		if (errno != EINTR)
			return bc_error(ctx, -errno, "eventfd write: %s", strerror(errno));
	}
	return 0;
}

static int trig_shm_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *full = bc_thread_counter(ctx, t, "drops");
	struct trig_queue *q = bc_ctx_data(ctx);
	struct trig_shm_ring *r = q->ring;
	uint64_t mask = q->slot_count - 1;
	uint32_t size = q->event_size;
	unsigned char *ev = trig_event_new(size);
	int err = 0;

	if (!ev)
		return bc_error(ctx, -ENOMEM, "out of memory");
	while (!bc_thread_should_stop(t)) {
		uint64_t prod = __atomic_load_n(&r->producer.pos, __ATOMIC_RELAXED);
		uint64_t cons = __atomic_load_n(&r->consumer.pos, __ATOMIC_ACQUIRE);
		bool was_empty;

		if (prod - cons >= q->slot_count) {
			bc_counter_add(full, 1);
			continue;
		}
		was_empty = prod == cons;
		memcpy(r->data + (prod & mask) * size, ev, size);
		__atomic_store_n(&r->producer.pos, prod + 1, __ATOMIC_RELEASE);
		if (q->efd >= 0) {
			/* Always taken back: a sleeping consumer is woken once. */
			uint64_t waiting = __atomic_exchange_n(&q->waiting->value, 0,
							       __ATOMIC_ACQ_REL);

			/* Wake a sleeper, or publish the empty-to-not-empty edge. */
			if (was_empty || waiting) {
				err = trig_shm_notify(ctx, q);
				if (err)
					break;
			}
		}
	}
	free(ev);
	return err;
}

/* Sleeps until the producer signals; wakes every TRIG_WAKE_MS to see
 * whether the run is over. */
static int trig_shm_wait(struct bc_ctx *ctx, struct trig_queue *q, struct bc_thread *t)
{
	struct pollfd pfd = { .fd = q->efd, .events = POLLIN };
	eventfd_t v;

	for (;;) {
		if (!eventfd_read(q->efd, &v))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return bc_error(ctx, -errno, "eventfd read: %s", strerror(errno));
		if (bc_thread_should_stop(t))
			return 0;
		if (poll(&pfd, 1, TRIG_WAKE_MS) < 0 && errno != EINTR)
			return bc_error(ctx, -errno, "poll on the eventfd: %s", strerror(errno));
	}
}

static int trig_shm_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *hits = bc_thread_counter(ctx, t, "hits");
	struct bc_line_counter *bad = bc_thread_counter(ctx, t, "drops");
	struct trig_queue *q = bc_ctx_data(ctx);
	struct trig_shm_ring *r = q->ring;
	uint64_t mask = q->slot_count - 1;
	uint32_t size = q->event_size;
	int err;

	while (!bc_thread_should_stop(t)) {
		uint64_t cons = __atomic_load_n(&r->consumer.pos, __ATOMIC_RELAXED);
		uint64_t prod = __atomic_load_n(&r->producer.pos, __ATOMIC_ACQUIRE);

		for (; cons != prod; cons++)
			bc_counter_add(trig_event_ok(r->data + (cons & mask) * size, size) ? hits :
				       bad, 1);
		__atomic_store_n(&r->consumer.pos, cons, __ATOMIC_RELEASE);
		if (q->efd < 0 || __atomic_load_n(&r->producer.pos, __ATOMIC_ACQUIRE) != cons)
			continue;
		/* Say so, then look once more: a record published before the
		 * flag was seen must not be slept on. */
		__atomic_store_n(&q->waiting->value, 1, __ATOMIC_RELEASE);
		if (__atomic_load_n(&r->producer.pos, __ATOMIC_ACQUIRE) == cons) {
			err = trig_shm_wait(ctx, q, t);
			if (err)
				return err;
		}
		__atomic_store_n(&q->waiting->value, 0, __ATOMIC_RELEASE);
	}
	return 0;
}

/* ------------------------------------------------------ Unix socket */

static int trig_unix_setup(struct bc_ctx *ctx)
{
	const struct timeval wake = { .tv_usec = TRIG_WAKE_MS * 1000 };
	struct trig_queue *q = trig_queue_new();

	if (!q)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, q);
	q->event_size = BC_TRIG_SHM_EVENT_DEFAULT;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, q->sock))
		return bc_error(ctx, -errno, "socketpair(AF_UNIX, SOCK_STREAM): %s", strerror(errno));
	/* Blocked in send() or recv(), a thread wakes every TRIG_WAKE_MS to
	 * look at the stop flag; while records flow, neither waits. */
	if (setsockopt(q->sock[0], SOL_SOCKET, SO_SNDTIMEO, &wake, sizeof(wake)) ||
	    setsockopt(q->sock[1], SOL_SOCKET, SO_RCVTIMEO, &wake, sizeof(wake)))
		return bc_error(ctx, -errno, "setting the socket timeouts: %s", strerror(errno));
	bc_ctx_set_attach_point(ctx, "none (no BPF: a Unix stream socket pair)");
	return 0;
}

static int trig_unix_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct trig_queue *q = bc_ctx_data(ctx);
	uint32_t size = q->event_size;
	unsigned char *ev = trig_event_new(size);
	int err = 0;

	if (!ev)
		return bc_error(ctx, -ENOMEM, "out of memory");
	while (!bc_thread_should_stop(t)) {
		size_t off = 0;

		/* A stream may take part of a record; the rest follows. */
		while (off < size) {
			ssize_t n = send(q->sock[0], ev + off, size - off, MSG_NOSIGNAL);

			if (n > 0) {
				off += (size_t)n;
				continue;
			}
			if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
				if (bc_thread_should_stop(t))
					goto out;
				continue;
			}
			err = bc_error(ctx, n < 0 ? -errno : -EPIPE, "send on the Unix socket: %s",
				       n < 0 ? strerror(errno) : "nothing sent");
			goto out;
		}
	}
out:
	free(ev);
	return err;
}

static int trig_unix_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *hits = bc_thread_counter(ctx, t, "hits");
	struct bc_line_counter *bad = bc_thread_counter(ctx, t, "drops");
	struct trig_queue *q = bc_ctx_data(ctx);
	uint32_t size = q->event_size;
	unsigned char *buf = malloc(TRIG_UNIX_BUF);
	size_t have = 0;
	int err = 0;

	if (!buf)
		return bc_error(ctx, -ENOMEM, "out of memory");
	while (!bc_thread_should_stop(t)) {
		ssize_t n = recv(q->sock[1], buf + have, TRIG_UNIX_BUF - have, 0);
		size_t off = 0;

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			err = bc_error(ctx, -errno, "recv on the Unix socket: %s", strerror(errno));
			break;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		/* Whole records; a partial one waits for its rest. */
		for (; have - off >= size; off += size)
			bc_counter_add(trig_event_ok(buf + off, size) ? hits : bad, 1);
		if (off && have > off)
			memmove(buf, buf + off, have - off);
		have -= off;
	}
	free(buf);
	return err;
}

/* hits: well-formed records the consumer read; drops: records the
 * producer could not place (ring full, retried) plus malformed ones, each
 * counted by the thread that saw it. */
static const struct bc_metric_desc trig_queue_metrics[] = {
	BC_METRIC("hits", "records", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .threads = true),
	BC_METRIC("drops", "records", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .threads = true),
};

static const struct bc_option trig_shm_options[] = {
	BC_OPT_SIZE(struct trig_opts, shm_size, "shared-mem-size",
		    .def = "4194304", .min = 1, .max = UINT32_MAX,
		    .arg = "BYTES",
		    .help = "shared memory ring size in bytes: a power of two and a multiple of "
			    "the page size"),
	BC_OPT_SIZE(struct trig_opts, shm_event_size, "shared-mem-event-size",
		    .def = BC_TRIG_STR(BC_TRIG_SHM_EVENT_DEFAULT), .min = BC_TRIG_SHM_EVENT_MIN,
		    .max = UINT32_MAX, .arg = "BYTES", .help = "bytes of one record"),
};

static const char trig_shm_eventfd_tag[] = "eventfd";

/* A producer and a consumer thread, each benchmark. */
#define TRIG_QUEUE_BENCH(name_, desc_, setup_, producer_, consumer_, ...)               \
	TRIG_IPC_BENCH(name_, desc_, trig_queue_metrics, .consumers = BC_THREADS(1, 1, 1), \
		       .setup = (setup_), .producer = (producer_), .consumer = (consumer_), \
		       .teardown = trig_queue_teardown, __VA_ARGS__)

const struct bc_bench_desc trig_b_unix_socket = TRIG_QUEUE_BENCH("trig-unix-socket",
	"baseline, no BPF: 432-byte records through a Unix stream socket to a consumer thread",
	trig_unix_setup, trig_unix_producer, trig_unix_consumer);
const struct bc_bench_desc trig_b_shared_memory = TRIG_QUEUE_BENCH("trig-shared-memory",
	"baseline, no BPF: records through a ring in shared memory to a consumer thread that "
	"spins on it", trig_shm_setup, trig_shm_producer, trig_shm_consumer,
	BC_OPTIONS(trig_shm_options), .validate = trig_shm_validate);
const struct bc_bench_desc trig_b_shared_memory_eventfd = TRIG_QUEUE_BENCH(
	"trig-shared-memory-eventfd",
	"baseline, no BPF: the shared-memory ring, its consumer sleeping on an eventfd when the "
	"ring is empty", trig_shm_setup, trig_shm_producer, trig_shm_consumer,
	BC_OPTIONS(trig_shm_options), .priv = trig_shm_eventfd_tag, .validate = trig_shm_validate);
