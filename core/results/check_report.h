/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `check`'s table (check_report.c): text for a terminal or a CI log,
 * Markdown for a CI job summary or a review comment, JSON for a script.
 * It writes what check.c judged; it computes nothing.
 */
#ifndef BENCHCORE_CHECK_REPORT_H
#define BENCHCORE_CHECK_REPORT_H

#include <stdio.h>

#include "check.h"
#include "runtime/config.h"

/* What the table says it judged against: the store, the thresholds
 * file (NULL: the built-in budget). */
struct bc_check_about {
	const char *store;
	const char *thresholds;
};

/* The table in format (text, json or markdown). */
void bc_check_write(FILE *f, enum bc_format format, const struct bc_check_opts *o,
		    const struct bc_check_about *about, const struct bc_check *c);
/* One line for stderr: "check: 20 configurations against latest: 1
 * regressed, 19 passed, 0 not comparable, 0 without a baseline". */
void bc_check_summary(char *buf, size_t len, const struct bc_check_opts *o, const struct bc_check *c);

#endif /* BENCHCORE_CHECK_REPORT_H */
