// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * histreset: a test fixture whose histogram, read from BPF, goes down
 * during the run. Its producer calls getpgid() (one BPF sample each) and,
 * a second and a half in, empties the histogram map as another program
 * or a plugin bug could: the core must stop the run with status 1 and one
 * line, as it does for a counter that goes down, rather than report a
 * count of about 2^64.
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
/* After the first reading and at least one more, before -d3 ends. */
#define HISTRESET_AFTER_NS 1500000000ull

struct histreset_state {
	struct histreset *skel;
	struct bpf_link *link;
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

static unsigned long long histreset_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Every CPU's buckets to zero: one update of the per-CPU array's entry. */
static void histreset_empty(struct histreset_state *st)
{
	struct bpf_map *map = st->skel->maps.lat_ns;
	size_t value = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	int ncpu = libbpf_num_possible_cpus();
	void *zeros = ncpu > 0 ? calloc((size_t)ncpu, value) : NULL;
	__u32 key = 0;

	if (zeros)
		bpf_map_update_elem(bpf_map__fd(map), &key, zeros, BPF_ANY);
	free(zeros);
}

static int histreset_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct histreset_state *st = bc_ctx_data(ctx);
	unsigned long long start = histreset_now();
	bool reset = false;

	while (!bc_thread_should_stop(t)) {
		syscall(SYS_getpgid, 0);
		if (!reset && histreset_now() - start > HISTRESET_AFTER_NS) {
			histreset_empty(st);
			reset = true;
		}
	}
	return 0;
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

static int histreset_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = 0;
	return 0;
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
