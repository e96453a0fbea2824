/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `compare` (compare.c): two or more result documents, matched by
 * benchmark and configuration, with a significance test per metric.
 */
#ifndef BENCHCORE_COMPARE_H
#define BENCHCORE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <stdio.h>

#include "runtime/config.h"

enum bc_cmp_test {
	BC_CMP_WELCH,
	BC_CMP_MANN_WHITNEY,
};

struct bc_cmp_opts {
	enum bc_cmp_test test;
	double alpha;
	enum bc_format format;
	FILE *out;
	/* --metric: the figure the verdict lines judge; NULL: each run's
	 * headline. The table compares every metric either way. */
	const char *metric;
	/* the kernels are what is compared (benchcore vm): their difference
	 * is no warning */
	bool kernels_differ;
};

/* `compare`: reads both documents (a run, sweep or suite each), matches
 * their runs and writes the table to output (NULL: standard output),
 * replaced only by a complete one; then on stderr one verdict line per
 * matched pair on the judged figure ("benchcore: verdict: BENCH CONFIG:
 * hits -3.10% [95% CI -4.02%, -2.18%], p=1.2e-05 (welch, 10+10 seconds):
 * regressed"). Returns the exit status, having said what was wrong in one
 * line (a file that is no result, a --metric it lacks: BC_EXIT_USAGE). */
int bc_compare_files(const struct bc_cmp_opts *o, const char *const paths[2], const char *output);

/* One side of a comparison of runs already read (benchcore vm's kernels,
 * each run pooled over its rounds): a name for the messages, the runs and
 * each run's row label (NULL: none). */
struct bc_doc_run;
struct bc_cmp_side {
	const char *name;
	const struct bc_doc_run *const *runs;
	const char *const *labels;
	size_t cnt;
};
/* `compare`'s table (to o->out, NULL: standard output) and verdict lines
 * for two such sides, base against new; the exit status. */
int bc_compare_sides(const struct bc_cmp_opts *o, const struct bc_cmp_side *base,
		     const struct bc_cmp_side *new);

/* One metric of two run documents, as `compare` judges it (Welch's test
 * on the runs when both sides were repeated, else on the seconds), with
 * the 95% interval of the change (Welch). */
struct bc_cmp_change {
	double base_mean, new_mean;
	double change_pct;		/* (new - base) / |base| in %; NaN for base 0 */
	double ci_low_pct, ci_high_pct;	/* NaN when too few samples */
	double p;			/* NaN unless valid */
	const char *test;		/* "welch"; "student" for one new entry */
	bool valid;			/* enough samples for the test */
	bool significant;		/* p < alpha */
	bool by_runs;			/* n counts runs, not seconds */
	size_t n_base, n_new;
};
/* 0, or -ENOENT when either run lacks the metric or measured nothing,
 * -EINVAL for a run without a summary or a benchmark. */
int bc_compare_metric(const struct bc_doc_run *base, const struct bc_doc_run *new,
		      const char *metric, double alpha, struct bc_cmp_change *c);

/* One side of a comparison as the store keeps it: a figure's mean,
 * standard deviation and count (runs when by_runs, else seconds). */
struct bc_cmp_summary {
	double mean, sd;
	size_t n;
	bool by_runs;
};
/* Two entries of one figure judged from their summaries, as compare
 * judges two runs without their samples: Welch's test from the means,
 * spreads and counts, and its 95% interval. c->valid is false with fewer
 * than three samples a side. */
int bc_compare_summaries(const struct bc_cmp_summary *base, const struct bc_cmp_summary *new,
			 double alpha, struct bc_cmp_change *c);
/* One new entry's value against n earlier entries' values (each entry one
 * sample, as compare treats repeated runs): Student's t for one new
 * observation with the earlier entries' spread, n - 1 degrees of freedom,
 * and its 95% interval; test "student". c->valid is false for n < 2. */
int bc_compare_one_new(const double *base, size_t n, double x, double alpha,
		       struct bc_cmp_change *c);

/* "improved", "regressed", "no significant change" or "too few samples
 * to judge" for a change of change_pct with that significance: the words
 * of --against, history and the report. */
const char *bc_change_verdict(bool valid, bool significant, double change_pct, bool higher_better);

/* One judged change in the words of --against's and compare's verdict
 * lines: "NAME +3.10% [95% CI +1.02%, +5.20%], p=0.012 (welch, 5+5
 * seconds): improved". test names the test when c->test does not. */
void bc_change_words(char *buf, size_t len, const char *name, const struct bc_cmp_change *c,
		     const char *test, bool higher_better);

#endif /* BENCHCORE_COMPARE_H */
