/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where a command's report goes: standard output, or --output FILE written
 * to a temporary file in FILE's directory and renamed over FILE only when
 * the command produced something, so that a run that fails, is refused or
 * is killed leaves the previous FILE as it was. Every write and the final
 * close are checked: a failure costs one line,
 *   benchcore: write error: FILE: No space left on device
 * and exit status 1.
 */
#ifndef BENCHCORE_OUTPUT_H
#define BENCHCORE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct bc_out_sink;

struct bc_out {
	FILE *f;			/* what reporters write to */
	const char *name;		/* for messages: FILE or "standard output" */
	struct bc_out_sink *sink;	/* NULL: standard output */
};

/*
 * Wraps the process's stdout so that the first write error is remembered
 * with its errno (stdio forgets it). bc_cli_main() calls it first, and
 * bc_stdout_finish() last: that one reports a write error nobody reported.
 */
void bc_stdout_wrap(void);
/* Where the core writes what belongs on standard output (reports, lists,
 * help): after bc_stdout_wrap(), a private copy of fd 1, which plugin code
 * cannot reach; fd 1 and libc's stdout then lead to stderr. */
FILE *bc_stdout(void);
/* bc_stdout()'s descriptor, for a signal handler that may only write()
 * (a crashed run's document, guard.h); flush bc_stdout() first. */
int bc_stdout_fd(void);
/* 0, or BC_EXIT_FAILED after the one write error line. */
int bc_stdout_finish(void);

/*
 * Opens `path` (NULL: standard output) for a report. `opt` names the
 * option in messages ("--output"). Returns 0, or BC_EXIT_USAGE after one
 * line saying why the file cannot be written (then o->f is stdout).
 * A path naming something other than a regular file (/dev/null, a FIFO, a
 * terminal) is written in place: there is nothing to rename over it.
 */
int bc_out_open(struct bc_out *o, const char *opt, const char *path);
/*
 * Ends the report. `produced`: the command made what FILE is for (a run
 * that measured, a table with rows), so FILE is replaced; otherwise FILE is
 * left untouched. Returns `status`, or BC_EXIT_FAILED after one write error
 * line when a write, the close or the rename failed (FILE is then left
 * untouched too).
 */
int bc_out_close(struct bc_out *o, bool produced, int status);

/* Do both names lead to one existing file (device and inode, so links
 * and other spellings count)? For refusing an output that is an input. */
bool bc_out_same_file(const char *a, const char *b);

/* Async-signal-safe: removes temporary files not yet renamed, for a
 * process about to _exit() from a signal handler. */
void bc_out_discard_all(void);
/* In a forked child (repeat.c): the temporary files are the parent's, so a
 * child that ends early must not remove them. */
void bc_out_forget_all(void);

#endif /* BENCHCORE_OUTPUT_H */
