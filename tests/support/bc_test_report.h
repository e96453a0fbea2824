/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading a run's JSON report back in integration tests (with the core's own
 * parser, core/json.h), and the "nothing of ours stays loaded" check by name
 * prefix. Failures are cmocka failures that print what the run said.
 */
#ifndef BENCHCORE_TEST_REPORT_H
#define BENCHCORE_TEST_REPORT_H

#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

/* The exit statuses the tests expect (core/exit_status.h). */
#define BC_TEST_EXIT_USAGE 2
#define BC_TEST_EXIT_UNAVAILABLE 3

/* Prints a run's exit status, stdout and stderr to stderr. */
void bc_test_dump(const char *what, const struct bc_test_run *r);

/*
 * Runs `benchcore ARGS... --format json` (args NULL-terminated, without the
 * format), fails unless it exits 0 with one JSON document on stdout, and
 * returns the document (free with bc_json_free()); r keeps the output.
 */
struct bc_json *bc_test_run_json(struct bc_test_run *r, const char *const *args);

/* summary.<metric>.mean (events per second for a counter); fails if absent. */
double bc_test_summary_mean(const struct bc_json *doc, const char *metric);

/*
 * summary.<metric> is a histogram that recorded values: kind "histogram",
 * count > 0, and p50 <= p90 <= p99 <= p99.9 <= max, all numbers. No bound on
 * the values themselves (a busy machine moves them). Fails naming `what`
 * and the numbers; returns the count.
 */
double bc_test_expect_histogram(const struct bc_json *doc, const char *metric, const char *what);

/* The report's attach_point; fails when it names none. */
const char *bc_test_attach_point(const struct bc_json *doc);

/*
 * Waits (bounded, as bc_test_wait_progs()) until no BPF program and no map
 * whose name starts with one of the NULL-terminated prefixes is loaded, and
 * fails naming what is left; `after` says after what.
 */
void bc_test_assert_none_loaded(const char *const *prefixes, const char *after);

/* Does the NULL-terminated list hold a string that starts s? */
bool bc_test_has_prefix(const char *const *prefixes, const char *s);

#endif
