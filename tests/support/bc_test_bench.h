/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Short runs of one benchmark through the real binary, read back as JSON
 * with the core's own parser (part of bc_test_report, beside the report
 * readers it builds on). Failures are cmocka
 * failures that quote the run's stderr.
 */
#ifndef BENCHCORE_TEST_BENCH_H
#define BENCHCORE_TEST_BENCH_H

#include "bc_test_report.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

/*
 * Runs `run BENCH -w0 -d1 --format json EXTRA...` (extra NULL-terminated,
 * may be NULL) and returns the parsed report; fails unless the exit status
 * is 0. The caller frees both.
 */
struct bc_json *bc_test_bench_json(struct bc_test_run *c, const char *bench,
				   const char *const *extra);

/* The summary maximum of a metric (its mean: bc_test_summary_mean(),
 * bc_test_report.h); fails when the report lacks the metric. */
double bc_test_summary_max(const struct bc_json *doc, const char *metric);

/* The attach point the report names; fails when it names none, or one that
 * starts with none of `prefixes` (NULL-terminated). */
const char *bc_test_attach_point_in(const struct bc_json *doc, const char *const *prefixes);

/* How many programs the report declares (JSON "programs") with this role. */
unsigned int bc_test_program_count(const struct bc_json *doc, const char *role);

/* A typed option value of the run's configuration (JSON
 * config.plugin_options); fails when it is missing or not a number. */
double bc_test_option_num(const struct bc_json *doc, const char *name);

/*
 * Runs `run BENCH -w0 -d2 EXTRA...` in text and fails unless its last
 * stdout line (what the runner's scripts read) matches the POSIX extended
 * regular expression `line_re`.
 */
void bc_test_expect_last_line(const char *bench, const char *const *extra, const char *line_re);

/* Runs benchcore with args (NULL-terminated, after the plugin dir) and
 * fails unless it exits with status 2 and its stderr contains `needle`. */
void bc_test_expect_usage(const char *const *args, const char *needle);

#endif
