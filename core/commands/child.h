/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Running the benchcore binary as a child (child.c), bounded in time.
 */
#ifndef BENCHCORE_CHILD_H
#define BENCHCORE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

/* A child run of the benchcore binary (child.c). */
struct bc_child_result {
	bool exited;		/* normal exit: exit_code is valid */
	int exit_code;
	int term_signal;	/* killed by this signal (0: none) */
	bool timed_out;
	bool interrupted;	/* the parent was asked to stop */
	double elapsed_sec;
	char *out;		/* captured stdout, NUL-terminated */
	size_t out_len;
	char *err;		/* captured stderr, NUL-terminated */
	size_t err_len;
};

/* Runs path with argv (NULL-terminated) in its own process group, stdin from
 * /dev/null, stdout and stderr captured. After timeout_sec (<= 0: none) the
 * group gets SIGTERM, and SIGKILL after a grace period. */
int bc_child_run(const char *path, char *const argv[], double timeout_sec,
		 struct bc_child_result *res);
void bc_child_result_free(struct bc_child_result *res);
/* Between these two, Ctrl-C or SIGTERM in the parent stops the running
 * child (SIGINT: report what it measured) and bc_child_stopped() turns
 * true, so a batch runs no further rows; then the old handlers return. */
void bc_child_catch_stop(void);
void bc_child_release_stop(void);
bool bc_child_stopped(void);

#endif /* BENCHCORE_CHILD_H */
