/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Tables of many runs (report_table.c): sweeps, suites and compare
 * write text, JSON, CSV or Markdown.
 */
#ifndef BENCHCORE_REPORT_TABLE_H
#define BENCHCORE_REPORT_TABLE_H

#include <stdio.h>

#include "row.h"



/* report_table.c: one CSV field (RFC 4180), quoted when it holds a
 * comma, quote or line break, and a leading =, +, -, @, tab or CR made
 * text with a quote so that a spreadsheet runs no formula (NULL: empty);
 * Markdown cell text with '|' and '\\' escaped, control characters as
 * blanks and <, >, & as HTML entities (NULL: empty). */
void bc_csv_write(FILE *f, const char *s);
void bc_md_write(FILE *f, const char *s);

/* report_table.c: the CSV header, one row as soon as it has run (text,
 * CSV, Markdown), and the whole JSON document once every row has. */
void bc_batch_csv_header(FILE *f);
void bc_batch_render_row(struct bc_batch *b, const struct bc_row *r);
void bc_batch_render_json(struct bc_batch *b);

#endif /* BENCHCORE_REPORT_TABLE_H */
