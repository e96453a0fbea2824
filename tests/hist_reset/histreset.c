// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * histreset: a test fixture whose histogram, read from BPF, goes down
 * during the run. Its producer calls getpgid() (one BPF sample each); its
 * measure(), at the third reading, empties the histogram map as another
 * program or a plugin bug could, just before the core reads the map: the
 * core must stop the run with status 1 and one line, as it does for a
 * counter that goes down, rather than report a count of about 2^64.
 *
 * The reset is tied to the core's readings, not to a time since the
 * producer started: under emulation the first reading can come more than
 * a second after the producer starts, and a reset by the clock then fell
 * before the first reading and was never seen.
 *
 * The producer is paused around the reset: the program adds to the
 * per-CPU buckets with a plain load and store, and an add that read the
 * bucket before the update wrote zeros stored the old count back after
 * it. One run in six then read no reset at all (exit 0). measure() asks
 * the producer to pause, waits until it is between two getpgid() calls,
 * empties the map and lets it go on.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "histreset.skel.h"

#define HISTRESET_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* The reading that finds the map emptied: the baseline is reading 0 and
 * reading 1 holds at least a whole interval's samples, so the count it
 * saw is above what is left a moment after the reset. -d3 reaches it. */
#define HISTRESET_AT_READING 2

struct histreset_state {
	struct histreset *skel;
	struct bpf_link *link;
	unsigned int readings;	/* measure() calls: the sampler thread's own */
	int pause;		/* set by measure(): stop calling getpgid() */
	int paused;		/* set by the producer: not inside getpgid() */
};

static int histreset_setup(struct bc_ctx *ctx)
{
	struct histreset_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->skel = histreset__open();
	if (!st->skel)
		return bc_error(ctx, -errno, "opening the BPF object");
	st->skel->rodata->bc_tgid = (__u32)getpid();
	err = histreset__load(st->skel);
	if (err)
		return bc_unavailable(ctx, "loading the BPF object: %d", err);
	st->link = bpf_program__attach(st->skel->progs.histreset_tp);
	if (!st->link)
		return bc_unavailable(ctx, "attaching to sys_enter_getpgid: %d", -errno);
	return bc_ctx_set_bpf_object(ctx, st->skel->obj);
}

/* Every CPU's buckets to zero: one update of the per-CPU array's entry. */
static int histreset_empty(struct histreset_state *st)
{
	struct bpf_map *map = st->skel->maps.lat_ns;
	size_t value = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	int ncpu = libbpf_num_possible_cpus();
	void *zeros = ncpu > 0 ? calloc((size_t)ncpu, value) : NULL;
	__u32 key = 0;
	int err;

	if (!zeros)
		return -ENOMEM;
	err = bpf_map_update_elem(bpf_map__fd(map), &key, zeros, BPF_ANY) ? -errno : 0;
	free(zeros);
	return err;
}

static int histreset_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct histreset_state *st = bc_ctx_data(ctx);

	while (!bc_thread_should_stop(t)) {
		if (__atomic_load_n(&st->pause, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&st->paused, 1, __ATOMIC_RELEASE);
			continue;
		}
		syscall(SYS_getpgid, 0);
	}
	return 0;
}

/* Waits (at most a second: the producer may have stopped) until the
 * producer has seen the pause. */
static void histreset_wait_paused(struct histreset_state *st)
{
	const struct timespec nap = { .tv_nsec = 100 * 1000 };

	for (int i = 0; i < 10000 && !__atomic_load_n(&st->paused, __ATOMIC_ACQUIRE); i++)
		nanosleep(&nap, NULL);
}

static void histreset_teardown(struct bc_ctx *ctx)
{
	struct histreset_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	bpf_link__destroy(st->link);
	histreset__destroy(st->skel);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc histreset_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("lat_ns", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY, .bpf = "lat_ns"),
};

/* Called first in every reading, before the core reads the BPF maps. */
static int histreset_measure(struct bc_ctx *ctx, double *values)
{
	struct histreset_state *st = bc_ctx_data(ctx);
	int err;

	values[0] = 0;
	if (st->readings++ != HISTRESET_AT_READING)
		return 0;
	__atomic_store_n(&st->pause, 1, __ATOMIC_RELEASE);
	histreset_wait_paused(st);
	err = histreset_empty(st);
	__atomic_store_n(&st->pause, 0, __ATOMIC_RELEASE);
	return err ? bc_error(ctx, err, "emptying the histogram map: %s", bc_strerror(err)) : 0;
}

static const struct bc_bench_desc histreset_reset = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "reset",
	.description = "a BPF histogram emptied mid-run: the run must stop, status 1",
	.producers = BC_THREADS(1, 0, 1),
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = histreset_metrics,
	.metric_cnt = HISTRESET_ARRAY_SIZE(histreset_metrics),
	.setup = histreset_setup,
	.producer = histreset_producer,
	.measure = histreset_measure,
	.teardown = histreset_teardown,
};

static const struct bc_bench_desc *const histreset_benches[] = {
	&histreset_reset,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "histreset",
	.version = "1.0",
	.description = "test fixture: a BPF histogram that goes down mid-run",
	.benches = histreset_benches,
);
