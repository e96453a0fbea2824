/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shell helpers for the SDK tests: they drive cmake and the installed
 * benchcore as a user would, so they work on commands and their output. */
#ifndef BC_SDK_UTIL_H
#define BC_SDK_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* The result of one command: exit status (-1 if it did not exit), and its
 * stdout and stderr, each NUL-terminated. */
struct sdk_out {
	int status;
	char *out;
	char *err;
};

/* Runs `sh -c CMD`, capturing stdout and stderr through files in `work`.
 * The command line, status and output are echoed to stderr when verbose
 * or on failure, so a failed ctest says what happened. */
int sdk_run(struct sdk_out *res, const char *work, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sdk_out_free(struct sdk_out *res);
/* Prints the command's output to stderr (for failures). */
void sdk_out_dump(const struct sdk_out *res);

/* The "mean" of metric `metric` inside the JSON document's "summary"
 * object, or a negative number when the document has none. */
double sdk_json_summary_mean(const char *json, const char *metric);

/* true if `path` exists (any file type). */
bool sdk_exists(const char *path);

/* Removes a tree (rm -rf); returns 0 on success. */
int sdk_rm_rf(const char *path);

/* Skips the test program (exit 77) with a reason unless we are root. */
void sdk_require_root(const char *what);

#endif /* BC_SDK_UTIL_H */
