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

#include <benchcore/benchcore.h>
#include "runtime/config.h"
#include "runtime/loader.h"
#include "runtime/result.h"
#include "runtime/repstats.h"


/* Did the command line ask for more than one plain run? */
bool bc_repeat_requested(const struct bc_run_request *req);
/* The checks between these options, after each was checked alone: 0, or
 * BC_EXIT_USAGE after one line. */
int bc_repeat_check(const struct bc_run_request *req);
/* Runs the repetitions and reports them; returns the exit status. */
int bc_repeat_run(const struct bc_run_request *req, const struct bc_bench *bench);
/* The metric --precision watches: the run's judged one (the benchmark's
 * declared headline, else hits or ops), else the first latency, else the
 * first rate, else the first metric that is not a histogram; -1 when there
 * is none. */
int bc_repeat_watched(const struct bc_run_result *res);

#endif /* BENCHCORE_REPEAT_H */
