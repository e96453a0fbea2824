/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The benchcore command's exit statuses: CLI policy, so it lives with the
 * core, not in the plugin header. A plugin says what went wrong through
 * bc_error(), bc_unavailable() and bc_usage_error(); the core maps that to a
 * status (docs/cli.md lists them).
 */
#ifndef BENCHCORE_EXIT_STATUS_H
#define BENCHCORE_EXIT_STATUS_H

/* The longest one-line reason that goes with a status. */
#define BC_REASON_LEN 1024

enum bc_exit_status {
	BC_EXIT_OK = 0,
	BC_EXIT_FAILED = 1,		/* the benchmark failed at run time */
	BC_EXIT_USAGE = 2,		/* bad command line or option value */
	BC_EXIT_UNAVAILABLE = 3,	/* cannot run on this kernel / without privileges */
	BC_EXIT_INTERRUPTED = 130,	/* Ctrl-C: partial results were printed */
};

#endif /* BENCHCORE_EXIT_STATUS_H */
