/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A run's result handed from the forked process that measured it to the
 * parent that repeats runs (repeat.c): every iteration as the runner
 * recorded it (values, rates, CPU time, histogram buckets), the status,
 * the warnings, the attach point and the programs. Parent and child are
 * one binary, so the format is private and unversioned; it is checked for
 * truncation (a child killed while writing it).
 */
#ifndef BENCHCORE_TRANSCRIPT_H
#define BENCHCORE_TRANSCRIPT_H

#include <benchcore/benchcore.h>
#include "runtime/config.h"
#include "runtime/loader.h"
#include "runtime/result.h"

/* Writes res to fd; 0 or a negative errno. */
int bc_transcript_write(int fd, const struct bc_run_result *res);

/*
 * Reads what bc_transcript_write() wrote to fd (from offset 0) into res,
 * which is then a result like bc_run()'s, summarised, with a ctx of its own
 * holding the attach point and programs (bc_run_result_free() frees it).
 * 0, or -EBADMSG / -ENOMEM with one line in err.
 */
int bc_transcript_read(int fd, const struct bc_config *cfg, const struct bc_bench *bench,
		       struct bc_run_result *res, char *err, size_t err_len);

#endif /* BENCHCORE_TRANSCRIPT_H */
