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
 * drives each skeleton through them (bl_configure() sets the loop counts)
 * and reads the counters from BPF (`bpf`).
 */
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "bpf_for_bench.skel.h"
#include "bpf_loop_bench.skel.h"

BC_SKEL(bpf_loop_bench);
BC_SKEL(bpf_for_bench);

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

/* The same body behind each, most direct first: fentry is the runner's,
 * the tracepoint needs tracefs, raw_tp sees every syscall and filters. */
static const struct bc_attach_point bl_points[] = {
	BC_GETPGID_ATTACH_POINTS("bl_fentry", "bl_tp", "bl_raw_tp"),
};

static const struct bc_attach_point bf_points[] = {
	BC_GETPGID_ATTACH_POINTS("bf_fentry", "bf_tp", "bf_raw_tp"),
};

/* The work is split across syscalls rather than refused: the iterations
 * counted are the ones done, so hits stay right at any --nr_loops. */
static uint32_t bl_calls_per_run(uint32_t nr_loops)
{
	unsigned long long calls = BC_WORK_PER_CALL_MAX / (nr_loops ? nr_loops : 1);

	return calls > BL_CALLS_PER_RUN ? BL_CALLS_PER_RUN : calls ? (uint32_t)calls : 1;
}

/* The two objects name what the candidate reads alike: one body, typed
 * for each skeleton. */
#define BL_CONFIGURE(fn_, skel_)                                                      \
	static int fn_(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt) \
	{                                                                             \
		const struct bl_opts *o = bc_ctx_opts(ctx);                           \
		struct skel_ *s = skel;                                               \
                                                                                      \
		(void)pt;                                                             \
		s->rodata->bc_tgid = (__u32)getpid();                                 \
		s->rodata->getpgid_nr = SYS_getpgid;                                  \
		s->bss->nr_loops = (uint32_t)o->nr_loops;                             \
		s->bss->nr_calls = bl_calls_per_run((uint32_t)o->nr_loops);           \
		return 0;                                                             \
	}

BL_CONFIGURE(bl_configure, bpf_loop_bench)
BL_CONFIGURE(bf_configure, bpf_for_bench)

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

/* Without the kfuncs every candidate would fail to load with the same
 * EINVAL: the core checks these first and says what is missing. */
static const struct bc_need bf_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_loop,
		.why = "bpf_loop() (Linux 5.17)"),
	BC_NEED(BC_NEED_BTF_FUNC, .name = "bpf_iter_num_new",
		.why = "the open-coded numeric iterator, kfuncs bpf_iter_num_*() (Linux 6.4)"),
};

static const struct bc_bench_desc bl_bench = BC_BENCH("bpf-loop",
	"cost of one bpf_loop() iteration: 1000 calls of --nr_loops per getpgid()", bl_metrics,
	.runner_name = true, BC_OPTIONS(bl_options), BC_NEEDS(bl_needs), BC_POINTS(bl_points),
	.skel = &bpf_loop_bench_skel, .configure = bl_configure, .producer = bc_getpgid_producer);

static const struct bc_bench_desc bf_bench = BC_BENCH("bpf-for",
	"cost of one value of an open-coded numeric iterator (bpf_for()): 1000 "
	"loops of --nr_loops per getpgid()", bf_metrics,
	.runner_name = true, BC_OPTIONS(bf_options), BC_NEEDS(bf_needs), BC_POINTS(bf_points),
	.skel = &bpf_for_bench_skel, .configure = bf_configure, .producer = bc_getpgid_producer);

BENCHCORE_PLUGIN(.name = "bpf_loop", .version = "1.1",
		 .description = "loops in BPF: cost per bpf_loop() iteration and per bpf_for() value",
		 .opts_size = sizeof(struct bl_opts), BC_BENCHES(&bl_bench, &bf_bench));
