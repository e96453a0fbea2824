/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Checking a run document's fields before the model reads them
 * (run_doc_check.c): the members readers use must have their types.
 */
#ifndef BENCHCORE_RUN_DOC_CHECK_H
#define BENCHCORE_RUN_DOC_CHECK_H

#include <stddef.h>

struct bc_json;

/*
 * The run object doc, its fields named with the prefix pre ("" or
 * "runs[3].result."): 0, or -EBADMSG with one line in field naming the
 * first field of the wrong type ("summary.hits.mean: expected a finite
 * number"). A number must be finite or null (the writer's null is a
 * figure it could not compute), a flag a boolean, a name a string.
 */
int bc_doc_check_run(const struct bc_json *doc, const char *pre, char *field, size_t len);
/* Row i of a sweep's or suite's "runs": its result an object or null, its
 * label a string or null. */
int bc_doc_check_row(const struct bc_json *row, size_t i, char *field, size_t len);

#endif /* BENCHCORE_RUN_DOC_CHECK_H */
