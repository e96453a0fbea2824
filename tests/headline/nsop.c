// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * nsop: a test fixture whose result is a time per operation measured in
 * BPF (ABI 2.3). nsop:batch counts getpgid() calls ("hits", per wall-clock
 * second) and declares as its headline "ns_per_op", the BPF time of a
 * batch over its array map lookups: a BC_METRIC_TIME_PER_OP whose divisor,
 * the lookups, is no metric of its own. Every reader that judges a run
 * (--against, --precision, history, the report, compare, plot) judges
 * ns_per_op unless told otherwise; the tests of those commands use this
 * plugin for that. The core drives the skeleton through the attach ladder
 * (nsop_configure() before each load) and reads both metrics from BPF: no
 * setup(), attach(), measure() or teardown() here.
 */
#include <unistd.h>
#include <sys/syscall.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "nsop.skel.h"

BC_SKEL(nsop);

static const struct bc_attach_point nsop_points[] = {
	BC_GETPGID_ATTACH_POINTS("nsop_fentry", "nsop_tp", "nsop_raw_tp"),
};

static const struct bc_need nsop_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

static int nsop_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct nsop *s = skel;

	(void)ctx;
	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	return 0;
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

static const struct bc_bench_desc nsop_batch = BC_BENCH("batch",
	"BPF time per array map lookup, 1000 per getpgid(): judged by ns_per_op", nsop_metrics,
	BC_NEEDS(nsop_needs), BC_POINTS(nsop_points), .skel = &nsop_skel,
	.configure = nsop_configure, .producer = bc_getpgid_producer, .headline = "ns_per_op");

BENCHCORE_PLUGIN(.name = "nsop", .version = "1.0",
		 .description = "test fixture: a benchmark judged by a time per operation measured in BPF",
		 BC_BENCHES(&nsop_batch));
