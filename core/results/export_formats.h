/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Store entries in the formats other benchmark tools read
 * (export_formats.c): Google Benchmark's JSON, which its compare.py
 * (Debian's libbenchmark-tools) compares, and the Bencher Metric Format
 * that `bencher run --adapter json` takes.
 *
 * A configuration (benchmark and options line) is one benchmark of the
 * other tool. Several selected entries of one configuration are its
 * samples, one each (as history and `check` treat them); one entry is
 * judged by its own runs (run --repeat) or seconds.
 */
#ifndef BENCHCORE_EXPORT_FORMATS_H
#define BENCHCORE_EXPORT_FORMATS_H

#include <stdio.h>

#include "store.h"

enum bc_export_format {
	BC_EXPORT_DOCS = 0,	/* the run documents as saved (store_doc.c) */
	BC_EXPORT_GBENCH,
	BC_EXPORT_BMF,
};

/* "json", "gbench", "bmf" into *out; -EINVAL for another word. */
int bc_export_format_parse(const char *word, enum bc_export_format *out);

/*
 * Google Benchmark's JSON: each configuration's judged figure (f->metric,
 * else each entry's headline) as times per operation, real_time and
 * cpu_time alike (benchcore measures no CPU time per operation): a rate
 * of N per second is 1e9/N ns, a time is itself. One "iteration" row per
 * sample (repetitions), then the mean, median, stddev and cv aggregates,
 * the mean's carrying the 95% interval as the counters ci95_lower and
 * ci95_upper (the format has no field for it); "label" says the figure and
 * its own unit, and a rate's rows carry it as items_per_second. A figure
 * that is neither a rate nor a time cannot be a time: that configuration
 * is left out with one line on stderr.
 *
 * The Bencher Metric Format: every figure of each configuration (f->metric:
 * that one) as a measure named "NAME (UNIT)" (BMF has no unit field: a
 * Bencher measure's unit is its own), with value, lower_value and
 * upper_value the mean and its 95% interval.
 *
 * Writes to out; returns the command's exit status, having said what
 * failed in one line (nothing to export: BC_EXIT_FAILED).
 */
int bc_export_write(struct bc_store *s, const struct bc_store_filter *f, enum bc_export_format fmt,
		    FILE *out);

#endif /* BENCHCORE_EXPORT_FORMATS_H */
