/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What a run measured: per tick, per metric, the raw values and rates,
 * and the summaries the statistics layer adds (stats.c, figures.c).
 * The runner fills it; statistics and reporters read it.
 */
#ifndef BENCHCORE_RESULT_H
#define BENCHCORE_RESULT_H

#include <benchcore/benchcore.h>
#include <stdbool.h>
#include <stddef.h>

#include "exit_status.h"

struct bc_bench;
struct bc_ctx;
struct bc_figures;
struct bc_bpf_stats;
struct bc_repeats;
struct bc_hist_interval;

struct bc_iteration {
	unsigned int idx;		/* 0-based, warm-up included */
	bool warmup;
	double length_sec;		/* measured length of this interval */
	double drift_us;		/* how late the tick fired vs its deadline */
	double *values;			/* raw measure() output, per metric */
	double *rates;			/* counter: delta / length; gauge: value */
	double prod_user_sec, prod_sys_sec;	/* CPU time in this interval */
	double cons_user_sec, cons_sys_sec;
	/* Per metric (NULL when the benchmark has no histogram): what each
	 * histogram metric recorded in this interval (hist.h). */
	struct bc_hist_interval *hists;
};

struct bc_metric_summary {
	double mean, stddev, min, median, max;
	unsigned int n;
};

struct bc_run_result {
	const struct bc_bench *bench;
	struct bc_ctx *ctx;
	unsigned int producer_cnt, consumer_cnt;
	struct bc_iteration *iters;
	size_t iter_cnt;
	/* Computed by bc_stats_summarise() over non-warm-up iterations. */
	struct bc_metric_summary *summary;	/* per metric, on rates */
	struct bc_metric_summary prod_cpu_util;	/* CPU-seconds per second */
	struct bc_metric_summary cons_cpu_util;
	bool interrupted;
	int exit_status;
	char reason[BC_REASON_LEN];
	char **warnings;			/* suspect-number warnings */
	size_t warning_cnt;
	/* Split of the CPU utilisation above (CPU-seconds per second). */
	struct bc_metric_summary prod_user_util, prod_sys_util;
	struct bc_metric_summary cons_user_util, cons_sys_util;
	unsigned int ticks_late;		/* ticks that woke > 1 ms late */
	struct bc_ctx *owned_ctx;		/* made by bc_run(), freed with res */
	size_t iter_cap;			/* iters allocated (>= iter_cnt) */
	/* Every derived figure (figures.c), per iteration and summary. */
	struct bc_figures *figs;
	/* --bpf-stats: the programs' run counts and times (bpf_stats.h);
	 * NULL without it. */
	struct bc_bpf_stats *bpf;
	/* The runs of --repeat/--precision this result pools (repeat.h);
	 * NULL for a single run. */
	const struct bc_repeats *repeats;
	/* Measured to the end; only the cleanup after it failed (a teardown
	 * that called exit()): reported as measured, with a failed status. */
	bool cleanup_failed;
};

#endif /* BENCHCORE_RESULT_H */
