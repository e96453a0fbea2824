/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading a run document back (run_doc.c): sweeps, suites, compare, plot.
 */
#ifndef BENCHCORE_RUN_DOC_H
#define BENCHCORE_RUN_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "json_read.h"

/* Reading a run document (run_doc.c; sweeps, suites and compare). */
struct bc_json;
/* "plugin:bench" of a run document; -ENOENT when it names none. */
int bc_run_doc_bench(const struct bc_json *doc, char *buf, size_t len);
const struct bc_json *bc_run_doc_config(const struct bc_json *doc);
/* Is this summary entry a counter's rate (events/s) rather than a gauge? */
bool bc_run_doc_metric_is_rate(const struct bc_json *doc, const char *name,
			       const struct bc_json *summary_entry);
/* The derived figures a run stored (summary.figures: name -> {unit, of,
 * value, stats}), NULL in a document from before they existed: readers
 * print these, they never derive a figure again. */
const struct bc_json *bc_run_doc_figures(const struct bc_json *doc);
/* The "metrics" entry of that name (kind, role, label), or NULL. */
const struct bc_json *bc_run_doc_metric(const struct bc_json *doc, const char *name);
/* Is this summary entry a histogram's (count, p50, ..., max)? */
bool bc_run_doc_is_hist(const struct bc_json *summary_entry);

#endif /* BENCHCORE_RUN_DOC_H */
