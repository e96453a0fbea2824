// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello: a complete benchcore plugin with a BPF program. Producers call
 * getpgid() in a loop; a BPF program at the syscall's entry counts this
 * process's calls ("hits", which the core turns into a rate and ns per call)
 * and records the time between two of them on a CPU ("gap_ns", a histogram
 * fed from BPF); each call is also timed in user space ("call_ns", a
 * histogram the producers feed). hello-tp hooks the syscall's tracepoint,
 * hello-raw-tp the raw sys_enter tracepoint.
 *
 * The core does the rest from the descriptors: it opens the skeleton,
 * loads and attaches each candidate in turn (hello_configure() sets what
 * the programs read), declares the program under test, reads "hits" and
 * "gap_ns" from the BPF object and destroys it at the end: no attach(),
 * no measure() here, and teardown() frees only what setup() made.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "hello.skel.h"

/* hello_skel: the typed wrappers the core drives the skeleton with. */
BC_SKEL(hello);

/* A struct the core fills for every run, and a table saying how: the core
 * parses, checks, documents (--help), records and sweeps the options. */
struct hello_opts {
	int64_t batch;
	bool untimed;
};

static const struct bc_option hello_options[] = {
	BC_OPT_INT(struct hello_opts, batch, "hello-batch", .arg = "N", .def = "1", .min = 1,
		   .max = 1000, .help = "getpgid() calls between two looks at the stop flag"),
	BC_OPT_FLAG(struct hello_opts, untimed, "hello-untimed",
		    .help = "Do not time each call: no call_ns histogram, no clock reads"),
};

/* Everything one run owns; made by setup(), freed by teardown(). */
struct hello_state {
	struct bc_hist *call_ns;	/* NULL when --hello-untimed */
	uint64_t batch;
	bool untimed;
};

/* Before the candidate the core is trying loads: the programs' constants.
 * The core loads only pt's program, then attaches it or tries the next. */
static int hello_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct hello_state *st = bc_ctx_data(ctx);
	struct hello *s = skel;

	(void)pt;
	/* Constants once loaded: count this process's getpgid() only. */
	s->rodata->bc_tgid = getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->record_gaps = !st->untimed;
	return 0;
}

static int hello_setup(struct bc_ctx *ctx)
{
	const struct hello_opts *o = bc_ctx_opts(ctx);
	struct hello_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);	/* teardown() runs even when setup() fails */
	st->batch = (uint64_t)o->batch;	/* the core checked its range */
	st->untimed = o->untimed;
	st->call_ns = o->untimed ? NULL : bc_ctx_hist(ctx, "call_ns");
	/* Next the core drives the skeleton through the attach points. */
	return 0;
}

static uint64_t hello_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int hello_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	const struct hello_state *st = bc_ctx_data(ctx);
	uint64_t i, start;

	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < st->batch; i++) {
			start = st->call_ns ? hello_now_ns() : 0;
			syscall(SYS_getpgid, 0);
			if (st->call_ns)	/* into this thread's shard: no lock */
				bc_hist_record(st->call_ns, t, hello_now_ns() - start);
		}
	}
	return 0;
}

/* The core detached and will destroy the skeleton itself. */
static void hello_teardown(struct bc_ctx *ctx)
{
	free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

/* What each metric is; the core derives every report line from the roles.
 * OPS: throughput, per producer, and ns per call of one producer. `bpf`
 * names where the core reads it in the BPF object (hello.bpf.c). */
static const struct bc_metric_desc hello_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "hits"),
	BC_METRIC("call_ns", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY,
		  .label = "getpgid() call latency"),
	BC_METRIC("gap_ns", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_AUX,
		  .label = "time between two getpgid() entries on a CPU", .bpf = "gap_ns"),
};

static const struct bc_attach_point hello_tp_point =
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "hello_tp");
static const struct bc_attach_point hello_raw_tp_point =
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "hello_raw_tp");

/* BC_BENCH() fills the size and the metric count; no thread ranges: one
 * producer by default, any number allowed, no consumers. */
#define HELLO_BENCH(name_, desc_, point_)                                              \
	BC_BENCH(name_, desc_, hello_metrics, .setup = hello_setup,                     \
		 .producer = hello_producer, .teardown = hello_teardown,                \
		 .attach_points = (point_), .attach_point_cnt = 1, .skel = &hello_skel,   \
		 .configure = hello_configure)

static const struct bc_bench_desc hello_tp = HELLO_BENCH(
	"hello-tp", "getpgid() calls counted by a BPF program on their syscall's tracepoint",
	&hello_tp_point);
static const struct bc_bench_desc hello_raw_tp = HELLO_BENCH(
	"hello-raw-tp", "getpgid() calls counted by a BPF program on raw_tp/sys_enter",
	&hello_raw_tp_point);

BENCHCORE_PLUGIN(.name = "hello", .version = HELLO_VERSION,
		 .description = "Example out-of-tree plugin: BPF programs counting getpgid() calls",
		 BC_OPTIONS(hello_options), .opts_size = sizeof(struct hello_opts),
		 BC_BENCHES(&hello_tp, &hello_raw_tp));
