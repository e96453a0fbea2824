/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Derived figures: every number a report prints that is not a metric's own
 * rate (per-producer rate, latency, total operations, a share, a ratio's
 * value, histogram percentiles) is computed here, once per result, from the
 * metrics' roles. Text, JSON, sweep/suite tables and compare print these
 * stored numbers; none of them holds a formula of its own.
 */
#ifndef BENCHCORE_FIGURES_H
#define BENCHCORE_FIGURES_H

#include <benchcore/benchcore.h>
#include "result.h"
#include "hist.h"

/* Which of the kernel runner's line sets the roles give (the comment on
 * enum bc_metric_role in benchcore.h is the rule). */
enum bc_lines {
	BC_LINES_PLAIN = 0,	/* no role combination: every metric, or the callbacks */
	BC_LINES_HITS,		/* HITS (+ DROPS): hits/drops lines */
	BC_LINES_OPS,		/* OPS: throughput/latency lines */
	BC_LINES_OPS_RATE,	/* OPS + RATE: local-storage lines */
	BC_LINES_SHARE,		/* SHARE: false-hits lines */
	BC_LINES_LATENCY,	/* LATENCY without a headline: grace-period lines */
};

enum bc_figure_kind {
	BC_FIG_PER_PRODUCER = 1,	/* the headline's rate per producer */
	BC_FIG_TOTAL,			/* HITS + DROPS rate */
	BC_FIG_LATENCY,			/* ns per operation of the OPS headline */
	BC_FIG_SHARE_EVENTS,		/* SHARE events (counted, not a rate) */
	BC_FIG_SHARE_TOTAL,		/* HITS + DROPS + SHARE events */
	BC_FIG_SHARE_PCT,		/* SHARE events in % of that total */
	BC_FIG_RATIO,			/* a LATENCY or RATIO metric's interval value */
};

/* A metric as the reports treat it: its declared role, kind and label. */
struct bc_metric_view {
	enum bc_metric_role role;
	enum bc_metric_kind kind;
	int per;		/* RATIO: the metric it is divided by; -1 */
	const char *label;	/* for text lines: label, else name */
};

struct bc_figure {
	enum bc_figure_kind kind;
	char name[96];		/* JSON key and table label */
	char unit[48];
	int metric;		/* the metric it derives from */
	double *iters;		/* per iteration; NaN where it has no value */
	struct bc_metric_summary stats;	/* over the measured iterations */
	/* The run's figure, what summaries, tables and compare print: the
	 * mean, except latency (from the mean rate) and the share figures
	 * (sums over the measured intervals, and their ratio). */
	double value;
};

struct bc_figures {
	unsigned int metric_cnt;
	struct bc_metric_view *views;	/* per metric */
	enum bc_lines lines;
	/* The metric the roles' lines are built on, HITS or OPS, else -1:
	 * per-producer rate, total and latency figures derive from it. */
	int headline;
	/* The run's result, what every reader judges by default and the run
	 * document records as "headline": the benchmark's declared headline
	 * (ABI 2.3), else `headline`; -1 when there is none. */
	int judged;
	int drops, share;		/* -1 when absent */
	struct bc_figure *figs;
	size_t fig_cnt;
	size_t iter_cap;
	/* Per metric, summary only: its mean rate per CPU-second of the
	 * benchmark's threads (NaN: not a counter, or no CPU time). */
	double *per_cpu_sec;
	/* Per metric (NULL unless a histogram): per iteration, and over the
	 * measured iterations. */
	struct bc_hist_stats **hist_iters;
	struct bc_hist_stats *hist_summary;
};

/* Sets up res->figs for up to iter_cap iterations: the views, which lines,
 * which figures. Idempotent; 0 or -ENOMEM. */
int bc_figures_init(struct bc_run_result *res, size_t iter_cap);
/* An interval's rate per metric from measure()'s values and the previous
 * tick's: counter delta / length, gauge as is, ratio delta / per's delta
 * (NaN when per did not move), time per op the time's delta over the
 * operations' delta (NaN when none ended), histogram NaN (its figures say
 * more). ops and prev_ops hold, per metric, a TIME_PER_OP metric's
 * operation count (its bpf_per source) at this tick and the previous one;
 * NULL when the benchmark has none. */
void bc_figures_rates(const struct bc_run_result *res, struct bc_iteration *it,
		      const double *prev_values, const double *ops, const double *prev_ops);
/* The figures of iteration idx (its rates set); for progress lines. */
void bc_figures_iter(struct bc_run_result *res, size_t idx);
/* Every iteration's figures again, then the summaries; after
 * bc_stats_summarise(). */
int bc_figures_summarise(struct bc_run_result *res);
void bc_figures_free(struct bc_run_result *res);

/* The figure kind's name in JSON documents: "per_producer", "latency"... */
const char *bc_figure_kind_name(enum bc_figure_kind kind);
/* Index of the figure of this kind (and metric, -1: any), or NULL. */
const struct bc_figure *bc_figure_find(const struct bc_run_result *res, enum bc_figure_kind kind,
				       int metric);
const struct bc_metric_view *bc_metric_view(const struct bc_run_result *res, unsigned int m);
/* The one headline rule: the metric the benchmark declares as its
 * headline (ABI 2.3), else its first HITS metric, else its first OPS one;
 * -1 when none. What bc_figures.judged holds. */
int bc_bench_judged(const struct bc_bench *b);
/* Names for JSON: "counter", "hits", ... */
const char *bc_metric_kind_name(enum bc_metric_kind kind);
const char *bc_metric_role_name(enum bc_metric_role role);

/* Which way a figure is better. */
enum bc_direction {
	BC_LOWER_IS_BETTER = -1,
	BC_HIGHER_IS_BETTER = 1,
};
/*
 * The one rule for every figure a report judges, from the names a run
 * document uses (the writer's kind and role names, the unit as reported:
 * "ops/s", "ns", "ns/op"): a latency, drops, a time per operation and
 * anything in a time unit are better lower; counted events and operations
 * higher. NULL kind or role: not known (a document from before they were
 * written).
 */
enum bc_direction bc_metric_direction(const char *kind, const char *role, const char *unit);

#endif /* BENCHCORE_FIGURES_H */
