// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bpf_loop plugin: bpf-loop, the kernel runner's measure of what one
 * iteration of the bpf_loop() helper costs, and bpf-for, what one value of
 * an open-coded numeric iterator (bpf_for(), Linux 6.4) costs.
 *
 * Each producer calls getpgid() in a loop; a BPF program attached to that
 * syscall calls bpf_loop(--nr_loops, <empty callback>) 1000 times (bpf-for:
 * bpf_loop(1000, <callback iterating --nr_loops values>)), fewer
 * when that would be more than BC_WORK_PER_CALL_MAX iterations in one
 * syscall, <benchcore/work.h>: the CPU would stall past the kernel's
 * soft-lockup threshold and no signal could end the run). The
 * headline counts loop iterations, so its latency line is the cost of one
 * iteration (including the callback call), as the runner prints it. Where
 * is not the point, so the program goes wherever the kernel lets it: the
 * syscall's fentry (the runner's choice), its tracepoint, or raw_tp
 * sys_enter filtered to getpgid; the report names the one used. The core
 * tries them (bl_attach()) and reads the counters from BPF (`bpf`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "bpf_for_bench.skel.h"
#include "bpf_loop_bench.skel.h"

/* The kernel's BPF_MAX_LOOPS: bpf_loop() refuses larger counts (-E2BIG). */
#define BL_MAX_LOOPS (8 * 1024 * 1024)
/* bpf_loop() calls per program run, as in the kernel runner. */
#define BL_CALLS_PER_RUN 1000
BC_WORK_STATIC_ASSERT(BL_MAX_LOOPS, 1, "bpf_loop --nr_loops (one call at least)");

struct bl_opts {
	int64_t nr_loops;
};

/* Each benchmark its own: the runner's defaults differ (10 and 1000). */
static const struct bc_option bl_options[] = {
	BC_OPT_INT(struct bl_opts, nr_loops, "nr_loops", .def = "10", .min = 1,
		   .max = BL_MAX_LOOPS, .arg = "N",
		   .help = "iterations per bpf_loop() call; the program makes 1000 calls per getpgid(), fewer above 16777 (at most 2^24 iterations per getpgid())"),
};

/* bpf_iter_num_new() refuses a range of more than BPF_MAX_LOOPS values,
 * as bpf_loop() does. */
static const struct bc_option bf_options[] = {
	BC_OPT_INT(struct bl_opts, nr_loops, "nr_loops", .def = "1000", .min = 1,
		   .max = BL_MAX_LOOPS, .arg = "N",
		   .help = "values of the numeric iterator per bpf_for() loop; the program runs 1000 loops per getpgid(), fewer above 16777 (at most 2^24 values per getpgid())"),
};

struct bl_state {
	struct bpf_loop_bench *skel;		/* bpf-loop's */
	struct bpf_for_bench *for_skel;		/* bpf-for's */
	struct bpf_link *link;
	uint32_t nr_loops;
};

/* The same body behind each, most direct first: fentry is the runner's,
 * the tracepoint needs tracefs, raw_tp sees every syscall and filters. */
static const struct bc_attach_point bl_points[] = {
	BC_GETPGID_ATTACH_POINTS("bl_fentry", "bl_tp", "bl_raw_tp"),
};

static const struct bc_attach_point bf_points[] = {
	BC_GETPGID_ATTACH_POINTS("bf_fentry", "bf_tp", "bf_raw_tp"),
};

static void bl_state_free(struct bl_state *st)
{
	if (!st)
		return;
	bpf_link__destroy(st->link);
	bpf_loop_bench__destroy(st->skel);
	bpf_for_bench__destroy(st->for_skel);
	free(st);
}

/* bpf-for's descriptor carries this as .priv; bpf-loop's none. */
static const char bf_tag[] = "bpf-for";

static bool bl_is_for(struct bc_ctx *ctx)
{
	return bc_ctx_bench_priv(ctx) == bf_tag;
}

/* The work is split across syscalls rather than refused: the iterations
 * counted are the ones done, so hits stay right at any --nr_loops. */
static uint32_t bl_calls_per_run(uint32_t nr_loops)
{
	unsigned long long calls = BC_WORK_PER_CALL_MAX / (nr_loops ? nr_loops : 1);

	return calls > BL_CALLS_PER_RUN ? BL_CALLS_PER_RUN : calls ? (uint32_t)calls : 1;
}

static int bf_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	struct bl_state *st = bc_ctx_data(ctx);
	struct bpf_for_bench *skel;
	struct bpf_link *link;
	int err;

	skel = bpf_for_bench__open();
	if (!skel)
		return errno ? -errno : -ENOMEM;
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (err)
		goto fail;
	skel->rodata->bc_tgid = (__u32)getpid();
	skel->rodata->getpgid_nr = SYS_getpgid;
	skel->bss->nr_loops = st->nr_loops;
	skel->bss->nr_calls = bl_calls_per_run(st->nr_loops);
	err = bpf_for_bench__load(skel);
	if (err)
		goto fail;
	link = bpf_program__attach(bpf_object__find_program_by_name(skel->obj, pt->prog_name));
	if (!link) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	st->for_skel = skel;
	st->link = link;
	return bc_ctx_set_bpf_object(ctx, skel->obj);
fail:
	bpf_for_bench__destroy(skel);
	return err;
}

/* One candidate of the ladder the core drives. */
static int bl_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	struct bl_state *st = bc_ctx_data(ctx);
	struct bpf_loop_bench *skel;
	struct bpf_link *link;
	int err;

	skel = bpf_loop_bench__open();
	if (!skel)
		return errno ? -errno : -ENOMEM;
	/* Only the candidate loads: a refused sibling would fail the object. */
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (err)
		goto fail;
	skel->rodata->bc_tgid = (__u32)getpid();
	skel->rodata->getpgid_nr = SYS_getpgid;
	skel->bss->nr_loops = st->nr_loops;
	skel->bss->nr_calls = bl_calls_per_run(st->nr_loops);
	err = bpf_loop_bench__load(skel);
	if (err)
		goto fail;
	link = bpf_program__attach(bpf_object__find_program_by_name(skel->obj, pt->prog_name));
	if (!link) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	st->skel = skel;
	st->link = link;
	return bc_ctx_set_bpf_object(ctx, skel->obj);
fail:
	bpf_loop_bench__destroy(skel);
	return err;
}

static const struct bc_need bf_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
	BC_NEED(BC_NEED_BTF_FUNC, .name = "bpf_iter_num_new",
		.why = "the open-coded numeric iterator, kfuncs bpf_iter_num_*() (Linux 6.4)"),
};

static int bl_setup(struct bc_ctx *ctx)
{
	const struct bl_opts *o = bc_ctx_opts(ctx);
	struct bl_state *st;
	int err;

	if (!o)
		return bc_error(ctx, -EINVAL, "no options struct from the core (ABI 2.0 options engine)");
	if (bl_is_for(ctx)) {
		/* Without the kfuncs every candidate would fail to load with
		 * the same EINVAL: say what is missing instead. */
		err = bc_need_check(ctx, bf_needs, sizeof(bf_needs) / sizeof(bf_needs[0]));
		if (err)
			return err;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->nr_loops = (uint32_t)o->nr_loops;
	bc_ctx_set_data(ctx, st);
	return 0;
}

static void bl_teardown(struct bc_ctx *ctx)
{
	bl_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int bl_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	while (!bc_thread_should_stop(t))
		bc_getpgid_trigger();
	return 0;
}

/*
 * hits: bpf_loop() iterations (the runner's ops: its latency line is the
 * cost of one iteration). runs: program runs, i.e. syscalls, each making
 * 1000 calls (up to --nr_loops 16777; above, 2^24 / --nr_loops), so
 * hits = runs x calls x --nr_loops, which the tests check.
 */
static const struct bc_metric_desc bl_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "iterations"),
	BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "program runs (1000 bpf_loop calls each)", .bpf = "runs"),
};

/* hits: iterator values (the runner's ops); runs: program runs, each 1000
 * bpf_for() loops of --nr_loops values (fewer above 16777, as bpf-loop). */
static const struct bc_metric_desc bf_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "iterations"),
	BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "program runs (1000 bpf_for loops each)", .bpf = "runs"),
};

static const struct bc_need bl_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
};

static const struct bc_bench_desc bl_bench = {
	.sz = sizeof(struct bc_bench_desc),
	.runner_name = true,
	.name = "bpf-loop",
	.description = "cost of one bpf_loop() iteration: 1000 calls of --nr_loops per getpgid()",
	.producers = BC_THREADS(1, 0, 1),
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = bl_metrics,
	.metric_cnt = sizeof(bl_metrics) / sizeof(bl_metrics[0]),
	.options = bl_options,
	.option_cnt = sizeof(bl_options) / sizeof(bl_options[0]),
	.needs = bl_needs,
	.need_cnt = sizeof(bl_needs) / sizeof(bl_needs[0]),
	.attach_points = bl_points,
	.attach_point_cnt = sizeof(bl_points) / sizeof(bl_points[0]),
	.setup = bl_setup,
	.producer = bl_producer,
	.teardown = bl_teardown,
	.attach = bl_attach,
};

static const struct bc_bench_desc bf_bench = {
	.sz = sizeof(struct bc_bench_desc),
	.runner_name = true,
	.name = "bpf-for",
	.description = "cost of one value of an open-coded numeric iterator (bpf_for()): 1000 "
		       "loops of --nr_loops per getpgid()",
	.producers = BC_THREADS(1, 0, 1),
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = bf_metrics,
	.metric_cnt = sizeof(bf_metrics) / sizeof(bf_metrics[0]),
	.options = bf_options,
	.option_cnt = sizeof(bf_options) / sizeof(bf_options[0]),
	.priv = bf_tag,
	.needs = bf_needs,
	.need_cnt = sizeof(bf_needs) / sizeof(bf_needs[0]),
	.attach_points = bf_points,
	.attach_point_cnt = sizeof(bf_points) / sizeof(bf_points[0]),
	.setup = bl_setup,
	.producer = bl_producer,
	.teardown = bl_teardown,
	.attach = bf_attach,
};

static const struct bc_bench_desc *const bl_benches[] = {
	&bl_bench,
	&bf_bench,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "bpf_loop",
	.version = "1.1",
	.description = "loops in BPF: cost per bpf_loop() iteration and per bpf_for() value",
	.opts_size = sizeof(struct bl_opts),
	.benches = bl_benches,
);
