/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A batch of child runs, one table row each (batch.c), shared by
 * `run --sweep` and suites.
 */
#ifndef BENCHCORE_BATCH_H
#define BENCHCORE_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/row.h"

struct bc_batch;


struct bc_batch *bc_batch_new(const struct bc_batch_opts *opts);
/* Plans the rows of one run line (the words after "run"): takes out
 * --sweep SPEC and --label TEMPLATE and expands the combinations. Usage
 * errors: -EINVAL with a one-line reason. */
int bc_batch_add_run(struct bc_batch *b, const char *section, char **args, size_t arg_cnt,
		     char *err, size_t err_len);
/* Runs every planned row in turn, writing the table; returns the exit
 * status: 0 when every row ran or was unavailable, 1 when a row failed,
 * 3 when every row was unavailable, 130 when interrupted. */
int bc_batch_execute(struct bc_batch *b);
void bc_batch_free(struct bc_batch *b);
/* Where the benchmark name is among a run's words (PLUGIN:BENCH first,
 * else the first word that is neither an option nor a core option's
 * value); -1 when there is none. */
int bc_batch_find_bench(char *const *args, size_t cnt);
/* the options `run --sweep` and `suite` share (--format,
 * --output, --run-timeout) into bo; -q/-v are noted but left to pass on.
 * Returns 1 when argv[*i] was one (its value taken), 0 when not, -EINVAL
 * after a usage message. */
int bc_batch_cli_opt(int argc, char **argv, int *i, struct bc_batch_opts *bo,
		     const char **output);
/* The batch's files together, before anything runs: --output that is
 * the suite file `input` (NULL: none) or the store --save writes, or
 * --store without --save, is one line and BC_EXIT_USAGE; else 0. */
int bc_batch_check_files(const struct bc_batch_opts *bo, const char *output, const char *input);
/* Did any row measure something (ok, or interrupted with a result)? Then
 * the batch's --output FILE is replaced (output.h). */
bool bc_batch_produced(const struct bc_batch *b);
/* Reads the row's document (r->json, a run's --format json output) for
 * the tables: its benchmark and metrics. -EINVAL with one line in err for
 * text that is not a run document. tests/results replays the rows of
 * saved sweep and suite documents through it. */
int bc_batch_row_read(struct bc_row *r, char *err, size_t err_len);

#endif /* BENCHCORE_BATCH_H */
