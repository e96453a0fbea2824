/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The reporters of one run: the kernel runner's text lines
 * (report_text.c) and the JSON document (report_json.c). They format
 * what the statistics layer computed; they compute nothing.
 */
#ifndef BENCHCORE_REPORT_H
#define BENCHCORE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "loader.h"
#include "result.h"

/* One progress line set (the attach point line before iteration 0's);
 * the summary block ends with the Summary line(s), the extra lines before. */
void bc_report_text_iter(FILE *f, const struct bc_run_result *res, size_t iter_idx);
void bc_report_text_summary(FILE *f, const struct bc_run_result *res);
/* The "Attach point:" line alone (what iteration 0's lines start with):
 * -q prints it instead of the progress lines. */
void bc_report_text_attach_line(FILE *f, const struct bc_run_result *res);
int bc_report_json(FILE *f, const struct bc_config *cfg, const struct bc_run_result *res);
/* res->warnings, one "benchcore: warning: ..." line each (f: stderr).
 * bc_report_text_summary() calls it; JSON mode callers call it themselves. */
void bc_report_warnings(FILE *f, const struct bc_run_result *res);
/* The line on stderr that says why a run did not end well (nothing for a
 * run that did). */
void bc_report_reason_line(const struct bc_bench *bench, const struct bc_run_result *res);

/* Progress while a run measures: the runner's per-tick callback
 * (bc_iter_cb), with a struct bc_progress as its cookie, prints each
 * iteration's lines to f and flushes them (nothing when quiet). */
struct bc_progress {
	FILE *f;
	bool quiet;
};
void bc_report_progress(const struct bc_run_result *res, size_t iter_idx, void *cookie);

/* The end of a run's report (report.c): the JSON document (always) or the
 * text summary (when something was measured), the reason line, and out
 * closed, replaced only when `measured` iterations were kept or the run
 * ended well. Returns the exit status, a failure when the file could not
 * be written. */
struct bc_out;
int bc_report_finish(struct bc_out *out, const struct bc_config *cfg, const struct bc_bench *bench,
		     const struct bc_run_result *res, size_t measured);

#endif /* BENCHCORE_REPORT_H */
