/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Statistics over independent runs (run --repeat, --precision): Student-t
 * quantiles, the 95% confidence interval of a mean of run means, the
 * run-to-run coefficient of variation, the rule that says when --precision
 * may stop, and how many runs a comparison needs. Pure functions: no I/O,
 * no state; repeat.c feeds them, the reporters print what they returned.
 */
#ifndef BENCHCORE_REPSTATS_H
#define BENCHCORE_REPSTATS_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence level of every interval benchcore prints over runs. */
#define BC_REP_CONFIDENCE 0.95
/* --precision never stops before this many runs: two runs that happen to
 * agree give a small interval that says nothing. */
#define BC_REP_MIN_RUNS 3
/* --max-repeat's default: with the default -w1 -d5, three minutes. */
#define BC_REP_DEFAULT_MAX_REPEAT 30
/* --repeat and --max-repeat: more is a typo, or a day of runs. */
#define BC_REP_MAX_RUNS 1000
/* Above this run-to-run CV a warning names the likely causes (noise.h):
 * at 5 % a 5 % change needs more than 20 runs a side to be seen at
 * p < 0.01 (bc_rep_runs_needed), so the runs are noisier than a
 * comparison of ordinary size can afford. */
#define BC_REP_NOISY_CV_PCT 5.0

/* One metric (or figure) over runs: each run contributes its own mean. */
struct bc_rep_stats {
	unsigned int n;		/* runs with a value */
	double mean;		/* mean of the run means */
	double stddev;		/* sample standard deviation (n - 1) of the run means */
	double cv_pct;		/* stddev / |mean| in %; NaN for n < 2 or a zero mean */
	double t;		/* Student-t quantile of the interval, n - 1 df; NaN for n < 2 */
	double ci_half;		/* half-width: t * stddev / sqrt(n); NaN for n < 2 */
	double ci_pct;		/* ci_half / |mean| in %; NaN for n < 2 or a zero mean
				 * (0 when both the spread and the mean are 0) */
};

/* The p-quantile of Student's t with df degrees of freedom (0 < p < 1,
 * df > 0): t with P(T <= t) = p. NaN outside that domain. */
double bc_rep_t_quantile(double p, double df);

/* Statistics of the finite values of xs[0..n-1] (NaN entries are runs that
 * had no value) at BC_REP_CONFIDENCE. */
void bc_rep_stats_compute(const double *xs, size_t n, struct bc_rep_stats *out);

/* Why the runs ended. */
enum bc_rep_end {
	BC_REP_RUNNING = 0,	/* not yet: start another run */
	BC_REP_END_COUNT,	/* --repeat N runs done */
	BC_REP_END_PRECISION,	/* --precision reached */
	BC_REP_END_MAX_REPEAT,	/* --precision not reached in --max-repeat runs */
	BC_REP_END_MAX_TIME,	/* --precision not reached before --max-time */
	BC_REP_END_INTERRUPTED,	/* Ctrl-C / SIGTERM */
	BC_REP_END_FAILED,	/* a run failed, was refused or crashed */
};

/* "repeat", "precision", "max-repeat", "max-time", "interrupted", "failed"
 * (JSON's repeats.ended_by); NULL for BC_REP_RUNNING. */
const char *bc_rep_end_name(enum bc_rep_end end);

struct bc_rep_rule {
	unsigned int repeat;		/* --repeat: the runs; with --precision the fewest */
	double precision_pct;		/* --precision PCT; 0: off */
	unsigned int max_repeat;	/* --max-repeat (with --precision) */
	double max_time_sec;		/* --max-time (with --precision); 0: none */
};

/*
 * After a run: stop, and why, or BC_REP_RUNNING. `runs` runs completed;
 * `watched` is the --precision metric's statistics over them (NULL when it
 * has none); `elapsed_sec` since the first run started; `next_run_sec` what
 * one more run is expected to take (the mean so far).
 * Without --precision: exactly `repeat` runs. With it: at least
 * max(repeat, BC_REP_MIN_RUNS) runs, then stop as soon as watched->ci_pct
 * <= precision_pct; else at max_repeat runs, or before a run that would end
 * after max_time_sec.
 */
enum bc_rep_end bc_rep_rule_next(const struct bc_rep_rule *r, unsigned int runs,
				 const struct bc_rep_stats *watched, double elapsed_sec,
				 double next_run_sec);

/*
 * Runs per side that a two-sided Welch/Student t-test at `alpha` needs to
 * see a change of change_pct % with probability `power`, when the runs'
 * CV is cv_pct %: the smallest n >= 2 with
 *   n >= 2 ((t_{1-alpha/2, 2n-2} + t_{power, 2n-2}) cv / change)^2
 * (Cohen's tables: 17 for d = 1 at alpha 0.05, power 0.8). 0 for
 * arguments outside their domain, UINT_MAX beyond 100000 runs.
 */
unsigned int bc_rep_runs_needed(double cv_pct, double change_pct, double alpha, double power);

struct bc_run_result;

/* The runs of --repeat/--precision pooled into one result (repeat.c
 * makes it; reporters read it). */
/* What the JSON's repeats.runs_needed states: runs per side to see this
 * change at this level with this power, from the watched metric's CV. */
#define BC_REP_DETECT_CHANGE_PCT 5.0
#define BC_REP_DETECT_ALPHA 0.01
#define BC_REP_DETECT_POWER 0.8

struct bc_repeats {
	struct bc_rep_rule rule;	/* with max_repeat resolved */
	enum bc_rep_end end;
	double elapsed_sec;		/* from the first run's start to the last's end */
	struct bc_run_result *runs;	/* every run started, summarised */
	double *run_sec;		/* each run's wall-clock time, its process included */
	size_t run_cnt;
	unsigned int complete_cnt;	/* runs that ended well: the aggregate's */
	unsigned int *iter_run;		/* pooled iteration i came from run iter_run[i] */
	int watched;			/* the metric --precision watches; -1: none */
	/* Over the complete runs' means: per metric (a histogram's n is 0),
	 * and per figure of the pooled result, in its order. */
	struct bc_rep_stats *metrics;
	struct bc_rep_stats *figs;
	size_t fig_cnt;
	unsigned int runs_needed;	/* see BC_REP_DETECT_*; 0: unknown */
};

#endif /* BENCHCORE_REPSTATS_H */
