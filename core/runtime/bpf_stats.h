/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The in-kernel cost of the programs under test (`run --bpf-stats`): the
 * kernel's run-time statistics (BPF_ENABLE_STATS) held for one run, every
 * declared program's run_cnt and run_time_ns read by the sampler at each
 * tick, and the figures derived from them. The runner calls this module;
 * the reporters print what it stored and derive nothing.
 */
#ifndef BENCHCORE_BPF_STATS_H
#define BENCHCORE_BPF_STATS_H

#include <benchcore/benchcore.h>
#include <stdbool.h>
#include <stdint.h>

#include "context.h"
#include "result.h"

/* One program in one interval. */
struct bc_prog_tick {
	bool valid;			/* both readings of the interval were made */
	uint64_t run_cnt;		/* runs in the interval */
	uint64_t run_time_ns;		/* ns spent inside the program in it */
	double runs_per_sec;		/* run_cnt / interval length */
	double ns_per_run;		/* run_time_ns / run_cnt; NaN: no run */
	/* 100 * run_time_ns / (producers * interval length in ns): the share
	 * of the producers' time spent inside this program; NaN: no producer. */
	double prod_pct;
	/* 100 * run_time_ns / the producers' CPU time in the interval (user +
	 * sys, as the CPU line measures it): the same share of the CPU time
	 * they got, which on a busy machine is less than their wall time;
	 * NaN: no CPU time measured. */
	double prod_cpu_pct;
};

/* One program over the measured (not warm-up) intervals. */
struct bc_prog_stats {
	uint64_t run_cnt, run_time_ns;	/* sums */
	/* Over the intervals read: the sum of their lengths, and of the
	 * producers' CPU time in them. */
	double measured_sec, prod_cpu_sec;
	/* The per-interval values' spread (ns_per_run: intervals with runs). */
	struct bc_metric_summary runs_per_sec, ns_per_run, prod_pct, prod_cpu_pct;
	/* The run's figures, from the sums: run_time_ns / run_cnt,
	 * 100 * run_time_ns / (producers * measured_sec * 1e9) and
	 * 100 * run_time_ns / (prod_cpu_sec * 1e9). */
	double ns_per_run_value, prod_pct_value, prod_cpu_pct_value;
};

struct bc_bpf_stats {
	int fd;				/* BPF_ENABLE_STATS' fd; -1: none held */
	/* On before the run asked: the kernel.bpf_stats_enabled sysctl or
	 * another process's fd had them on (so the run's numbers paid for
	 * them with or without --bpf-stats). */
	bool already;
	size_t prog_cnt;		/* programs read: ctx->prog_cnt at start */
	size_t iter_cap;
	uint64_t *last_cnt, *last_ns;	/* per program: the previous reading */
	bool *last_ok;
	struct bc_prog_tick *ticks;	/* [iteration * prog_cnt + program] */
	struct bc_prog_stats *progs;	/* per program, from compute */
	/* Every program's time together (nested programs, such as a driver
	 * and the program it runs, are counted in both). */
	struct bc_metric_summary total_pct, total_cpu_pct;
	double total_pct_value, total_cpu_pct_value;
	unsigned int read_errors;	/* readings that failed */
	/* The kernel refused the statistics to a benchmark that declares no
	 * kernel features: why, said only if setup() declares a program. */
	char refused[256];
};

/* --- the arithmetic (pure; tests/unit/test_bpf_stats.c) --- */

/* One interval's figures from its deltas (prod_cpu_sec: the producers'
 * CPU time in it). */
void bc_prog_tick_compute(struct bc_prog_tick *t, uint64_t run_cnt, uint64_t run_time_ns,
			  double length_sec, unsigned int producers, double prod_cpu_sec);
/* Every tick's figures from its deltas and iters[i] (length, producers' CPU
 * time), then s->progs and the totals over the measured iterations of
 * iters[0..iter_cnt-1]. 0 or -ENOMEM. */
int bc_bpf_stats_compute(struct bc_bpf_stats *s, const struct bc_iteration *iters,
			 size_t iter_cnt, unsigned int producers);
/* The tick of program p in iteration i, or NULL. */
const struct bc_prog_tick *bc_bpf_stats_tick_at(const struct bc_bpf_stats *s, size_t i, size_t p);

/*
 * Maps a failed bpf_enable_stats() (err: negative errno) to the run's
 * outcome. With `already` the statistics are on anyway: says so in one line
 * and returns 0. Otherwise sets the ctx's reason and returns an error whose
 * exit status is 3 when the kernel refuses (EPERM: no CAP_SYS_ADMIN; EINVAL
 * and the like: a kernel before 5.8) and 1 for anything else.
 */
int bc_bpf_stats_refused(struct bc_ctx *ctx, int err, bool already);

/* --- the kernel (runner.c) --- */

/* Are the statistics on now, whoever turned them on? Runs a two-instruction
 * socket filter once through BPF_PROG_TEST_RUN and reads its run_cnt: 1 on,
 * 0 off, negative errno when it cannot tell (no CAP_BPF, say). */
int bc_bpf_stats_probe(void);
/* Before setup(): turns the statistics on for the run. 0 (*out set) or an
 * error with the ctx's reason set. */
int bc_bpf_stats_enable(struct bc_ctx *ctx, struct bc_bpf_stats **out);
/* The same; `defer`: a refusal for lack of privilege is kept in
 * (*out)->refused instead, for a benchmark that may load no BPF at all. */
int bc_bpf_stats_enable_opt(struct bc_ctx *ctx, struct bc_bpf_stats **out, bool defer);
/* After setup(), with the sampler's baseline: every declared program's
 * counters now, room for iter_cap ticks. 0 or -ENOMEM. */
int bc_bpf_stats_start(struct bc_bpf_stats *s, const struct bc_ctx *ctx, size_t iter_cap);
/* At every tick, from the sampler, right after measure(): each program's
 * deltas since the last tick (bc_bpf_stats_compute() makes the figures). */
void bc_bpf_stats_sample(struct bc_bpf_stats *s, const struct bc_ctx *ctx, size_t iter);
/* After teardown(): gives the statistics back (closes the fd). */
void bc_bpf_stats_release(struct bc_bpf_stats *s);
void bc_bpf_stats_free(struct bc_bpf_stats *s);

#endif /* BENCHCORE_BPF_STATS_H */
