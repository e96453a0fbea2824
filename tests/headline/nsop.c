// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * nsop: a test fixture whose result is a time per operation measured in
 * BPF (ABI 2.3). nsop:batch counts getpgid() calls ("hits", per wall-clock
 * second) and declares as its headline "ns_per_op", the BPF time of a
 * batch over its array map lookups: a BC_METRIC_TIME_PER_OP whose divisor,
 * the lookups, is no metric of its own. Every reader that judges a run
 * (--against, --precision, history, the report, compare, plot) judges
 * ns_per_op unless told otherwise; the tests of those commands use this
 * plugin for that. The core drives the attach ladder (nsop_attach()) and
 * reads both metrics from BPF: no measure().
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/batch_timing.h>	/* the skeleton's struct bc_batch_timing */
#include <benchcore/benchcore.h>

#include "nsop.skel.h"

#define NSOP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct nsop_state {
	struct nsop *skel;
};

static const struct bc_attach_point nsop_points[] = {
	BC_GETPGID_ATTACH_POINTS("nsop_fentry", "nsop_tp", "nsop_raw_tp"),
};

static const struct bc_need nsop_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

static int nsop_setup(struct bc_ctx *ctx)
{
	struct nsop_state *st = calloc(1, sizeof(*st));

	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	return 0;
}

/* One candidate of the ladder the core drives. */
static int nsop_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	struct nsop_state *st = bc_ctx_data(ctx);
	struct nsop *skel;
	int err;

	skel = nsop__open();
	if (!skel)
		return errno ? -errno : -ENOMEM;
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (!err) {
		skel->rodata->bc_tgid = (__u32)getpid();
		skel->rodata->getpgid_nr = SYS_getpgid;
		err = nsop__load(skel);
	}
	if (!err)
		err = nsop__attach(skel);
	if (err) {
		nsop__destroy(skel);
		return err;
	}
	st->skel = skel;
	return bc_ctx_set_bpf_object(ctx, skel->obj);
}

static void nsop_teardown(struct bc_ctx *ctx)
{
	struct nsop_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	nsop__destroy(st->skel);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* No labels: the text lines name each figure by the word a test or a
 * reader of the JSON document looks for. hits: getpgid() calls, each a
 * batch of 1000 lookups; ns_per_op: the BPF time of a lookup. */
static const struct bc_metric_desc nsop_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS,
		  .bpf = "batches.batches"),
	BC_METRIC("ns_per_op", "ns", BC_METRIC_TIME_PER_OP, .bpf = "batches.ns",
		  .bpf_per = "batches.ops"),
};

static const struct bc_bench_desc nsop_batch = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "batch",
	.description = "BPF time per array map lookup, 1000 per getpgid(): judged by ns_per_op",
	.producers = BC_THREADS(1, 0, 1),
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = nsop_metrics,
	.metric_cnt = NSOP_ARRAY_SIZE(nsop_metrics),
	.needs = nsop_needs,
	.need_cnt = NSOP_ARRAY_SIZE(nsop_needs),
	.attach_points = nsop_points,
	.attach_point_cnt = NSOP_ARRAY_SIZE(nsop_points),
	.setup = nsop_setup,
	.producer = bc_getpgid_producer,
	.teardown = nsop_teardown,
	.attach = nsop_attach,
	.headline = "ns_per_op",
};

BENCHCORE_PLUGIN(.name = "nsop", .version = "1.0",
		 .description = "test fixture: a benchmark judged by a time per operation measured in BPF",
		 BC_BENCHES(&nsop_batch));
