/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Contracts between the bpf_timing plugin's files: the batch-timing
 * collector both benchmarks share (bt_collect.c), the options struct, the
 * metrics, and each file's benchmark descriptor.
 */
#ifndef BENCHCORE_BT_INTERNAL_H
#define BENCHCORE_BT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include <benchcore/benchcore.h>

#include "bt_timing.h"

/* Every BPF object of the plugin has a copy of bt_timing.bpf.h's globals;
 * the collector reaches them through these pointers into its .bss. */
struct bt_timing_vars {
	struct bc_line_counter *heads;	/* [cpu_slots] */
	__u64 (*ring)[BT_RING_LEN];	/* [cpu_slots][BT_RING_LEN] */
	struct bc_line_counter *ns;	/* [cpu_slots] */
	struct bc_line_counter *ops;	/* [cpu_slots] */
	volatile __u32 *batch_iters;
	size_t cpu_slots;
};

#define BT_TIMING_VARS(skel)                                                     \
	((struct bt_timing_vars){                                                \
		.heads = (skel)->bss->bt_heads,                                  \
		.ring = (skel)->bss->bt_ring,                                    \
		.ns = (skel)->bss->bt_ns,                                        \
		.ops = (skel)->bss->bt_ops,                                      \
		.batch_iters = &(skel)->bss->bt_batch_iters,                     \
		.cpu_slots = sizeof((skel)->bss->bt_heads) /                     \
			     sizeof((skel)->bss->bt_heads[0]),                   \
	})

struct bt_collect {
	struct bt_timing_vars v;
	uint32_t batch;			/* iterations per timed batch */
	uint64_t *tails;		/* [cpu_slots]: next slot to read */
	uint64_t base_ns, base_ops;	/* totals before the measurement */
	uint64_t lost;			/* batches overwritten before read */
	struct bc_hist *hist;		/* NULL: only the totals are kept */
	/* --machine-readable: every measured batch's time per iteration
	 * (ns), kept while keep_raw is set, for bt_result_line(). The
	 * histogram's buckets round; the runner's RESULT line is made of
	 * the batches' own values. */
	bool keep_raw;
	bool raw_oom;			/* a sample could not be stored */
	double *raw;
	size_t raw_cnt, raw_cap;
};

/* Runs the program once (one BPF_PROG_TEST_RUN); 0 or a negative errno. */
typedef int (*bt_run_fn)(void *cookie);

int bt_collect_init(struct bt_collect *c, const struct bt_timing_vars *v);
void bt_collect_free(struct bt_collect *c);

/*
 * As the runner: time 5 runs of 100 iterations, size the batch to ~10 ms
 * (100 to 10,000,000 iterations), then check that twice the iterations
 * take twice the time (a warning when off by more than 5%). `fixed` > 0
 * skips all that and uses it. Starts the measurement afterwards: what the
 * calibration ran is not counted.
 */
int bt_calibrate(struct bc_ctx *ctx, struct bt_collect *c, uint32_t fixed, bt_run_fn run,
		 void *cookie);

/* Forgets everything timed so far (totals and unread batches). */
void bt_collect_restart(struct bt_collect *c);

/* Moves the batches timed since the last call into the histogram (as
 * picoseconds per iteration) and returns the totals since the start. */
void bt_collect_drain(struct bt_collect *c, uint64_t *ns, uint64_t *ops);

/*
 * The runner's --machine-readable line for the batches kept in c->raw:
 * "RESULT scenario=NAME samples=N median=... stddev=... cv=... min=...
 * p99=... max=..." (ns per iteration, two decimals; cv in percent), over
 * the batches left after dropping those beyond 1.5 interquartile ranges of
 * the quartiles (none dropped under 8 batches), as the runner computes it.
 * Added with bc_ctx_final_line(), after the Summary. Nothing when no batch
 * was kept (the runner then prints no RESULT line either); 0 or -ENOMEM.
 */
int bt_result_line(struct bc_ctx *ctx, struct bt_collect *c, const char *scenario);

/* ------------------------------------------------------------- options */

struct bt_opts {
	int scenario;		/* xdp-lb: index into bt_xdp_lb_scenario_words */
	bool machine_readable;	/* xdp-lb: --machine-readable */
};

extern const char *const bt_xdp_lb_scenario_words[];

/* ------------------------------------------------------------- metrics */

/* The first four metrics of both benchmarks, at these positions of their
 * tables (designated, so that the line callbacks read the right ones). */
enum {
	BT_METRIC_OP_NS,	/* ratio: timed ns per timed iteration */
	BT_METRIC_OPS,		/* timed iterations */
	BT_METRIC_OP_PS,	/* histogram: one batch's time per iteration, ps */
	BT_METRIC_RUNS,		/* BPF_PROG_TEST_RUN calls, counted by the producers */
	BT_METRIC_COMMON_CNT,
};

/*
 * The runner reports these benchmarks with its own lines (time per op of
 * the batches, their spread), which no role gives, and a LATENCY ratio
 * would be printed in microseconds with three decimals, which rounds
 * bpf-nop's sub-nanosecond figure away. So the ratio is AUX and the text
 * lines are bt_format_iter/bt_format_summary; the histogram is LATENCY (a
 * histogram is never a headline, so the core leaves the lines to us) and
 * its percentiles line, JSON and tables come from the core.
 */
#define BT_COMMON_METRICS                                                              \
	[BT_METRIC_OP_NS] = BC_METRIC("op_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_AUX,  \
				      .per = "ops", .label = "in-BPF time per op"),          \
	[BT_METRIC_OPS] = BC_METRIC("ops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,   \
				    .label = "timed iterations"),                            \
	[BT_METRIC_OP_PS] = BC_METRIC("op_ps", "ps", BC_METRIC_HISTOGRAM,                   \
				      .role = BC_ROLE_LATENCY, .label = "per-batch time per op"), \
	[BT_METRIC_RUNS] = BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX, \
				     .label = "BPF_PROG_TEST_RUN calls", .threads = true)

/* The batches timed since the last reading, into op_ns and ops. */
int bt_measure(struct bc_ctx *ctx, struct bt_collect *c, double *values);

/* The producer of both: one BPF_PROG_TEST_RUN after another, counted. */
int bt_produce(struct bc_ctx *ctx, struct bc_thread *t, bt_run_fn run, void *cookie);

/* "in-BPF   57.845 ns/op,   11.818 M ops/s timed" and the summary's
 * "in-BPF time   57.916 ± 0.464 ns/op, 11.818 M ops/s timed". */
int bt_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len);
int bt_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
		      char *buf, size_t len);

extern const struct bc_bench_desc bt_bench_nop;
extern const struct bc_bench_desc bt_bench_xdp_lb;

/*
 * Whether the kernel loads a program of `type` that uses may_goto (Linux
 * 6.9), which every timing loop here does: four instructions, loaded and
 * unloaded, for `list`. 0, or the kernel's negative errno.
 */
int bt_may_goto_loads(unsigned int prog_type, unsigned int prog_flags);

#endif /* BENCHCORE_BT_INTERNAL_H */
