/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A benchcore process the test watches while it runs: started, signalled,
 * its output read as it grows, then waited for within a bound so that a
 * hang fails the test instead of hanging ctest. For a run that is only
 * waited for, bc_test_run_benchcore() (bc_test_util.h) is simpler.
 */
#ifndef BENCHCORE_TEST_CHILD_H
#define BENCHCORE_TEST_CHILD_H

#include <stdio.h>
#include <sys/types.h>

#include "bc_test_util.h"

struct bc_test_child {
	pid_t pid;
	FILE *out;	/* stdout when captured (unlinked temporary files) */
	FILE *err;
};

/*
 * Starts argv (argv[0] a path, NULL-terminated) with BENCHCORE_PLUGIN_PATH
 * unset. stdout goes to stdout_path (opened for writing, not created) or,
 * when NULL, to c->out; stderr to c->err. cwd: where it runs (NULL: here).
 */
void bc_test_child_start(struct bc_test_child *c, const char *const *argv,
			 const char *stdout_path, const char *cwd);

/*
 * Waits at most bound_sec for the child; one still there is killed and
 * fails the test. r gets the status (exit status, or 128 + signal) and
 * everything it wrote; free it with bc_test_run_free().
 */
void bc_test_child_finish(struct bc_test_child *c, struct bc_test_run *r, int bound_sec);

/* stderr holds exactly this line; otherwise fails, showing stderr. */
void bc_test_assert_line(const struct bc_test_run *r, const char *line);
/* The exit status is this one; otherwise fails, showing stderr. */
void bc_test_assert_status(const struct bc_test_run *r, int status);

#endif
