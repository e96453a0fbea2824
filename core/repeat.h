/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * run --repeat N and --precision PCT: independent runs of one benchmark,
 * each in a process of its own, pooled into one result whose reports add
 * the runs' statistics (repstats.h).
 *
 * Each run is a fork() of the process that parsed the command line: the
 * child calls bc_run() (validate, probe, setup, warm-up, measure, teardown:
 * its BPF objects, maps and threads are its own and die with it), prints
 * its progress lines, and hands its result back (transcript.h). The plugin
 * is in the state dlopen() left it in, since the parent never calls it.
 * fork() rather than exec(): a new benchcore would load and test-load every
 * plugin file again for each run (0.3 to 0.7 s on our loaded 2-CPU VM), which short runs
 * under --precision would pay every time, and the result could only come
 * back through JSON, which has no histogram buckets to pool.
 */
#ifndef BENCHCORE_REPEAT_H
#define BENCHCORE_REPEAT_H

#include "bc_internal.h"
#include "repstats.h"

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

/* Did the command line ask for more than one plain run? */
bool bc_repeat_requested(const struct bc_config *cfg);
/* The checks between these options, after each was checked alone: 0, or
 * BC_EXIT_USAGE after one line. */
int bc_repeat_check(const struct bc_config *cfg);
/* Runs the repetitions and reports them; returns the exit status. */
int bc_repeat_run(const struct bc_config *cfg, const struct bc_bench *bench);
/* The metric --precision watches: the headline (hits or ops), else the
 * first latency, else the first rate, else the first metric that is not a
 * histogram; -1 when there is none. */
int bc_repeat_watched(const struct bc_run_result *res);

#endif /* BENCHCORE_REPEAT_H */
