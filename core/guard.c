// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The exit() and blocked-callback guards (guard.h).
 *
 * exit() runs on_exit() handlers before it flushes anything, in the thread
 * that called it, so a handler that knows this thread's callback can say
 * who exited and end the process before a half-written report is flushed.
 * The plugin's own exit status is not ours to return: 1, the run failed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_status.h"
#include "guard.h"
#include "output.h"

static __thread const char *bc_guard_cb;
static __thread bool bc_guard_waits;
static char bc_guard_bench[256] = "benchcore";
static bool bc_guard_installed;
static pid_t bc_guard_pid;	/* a plugin's forked child is not the run */
static void (*bc_guard_rescue_fn)(int status, void *arg);
static void *bc_guard_rescue_arg;

/* The lines for a signal while the main thread waits on a callback, made
 * before the callback runs: a handler may only write(). */
static char bc_wait_first[512], bc_wait_again[512];
static volatile sig_atomic_t bc_wait_first_len, bc_wait_again_len;

static void bc_guard_on_exit(int status, void *arg)
{
	const char *cb = bc_guard_cb;
	char line[512];
	int n;

	(void)arg;
	if (!cb || getpid() != bc_guard_pid)
		return;		/* the core's own exit, or a plugin's child's */
	n = snprintf(line, sizeof(line), "benchcore: %s: plugin called exit(%d) in %s\n",
		     bc_guard_bench, status, cb);
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	/* Everything was measured before teardown: report it, failed. */
	if (bc_guard_rescue_fn && !strcmp(cb, "teardown"))
		bc_guard_rescue_fn(status, bc_guard_rescue_arg);
	bc_out_discard_all();
	_exit(BC_EXIT_FAILED);
}

void bc_guard_set_bench(const char *plugin, const char *bench)
{
	snprintf(bc_guard_bench, sizeof(bc_guard_bench), "%s:%s", plugin, bench);
	bc_guard_pid = getpid();
	if (!bc_guard_installed)
		bc_guard_installed = !on_exit(bc_guard_on_exit, NULL);
}

void bc_guard_set_rescue(void (*fn)(int status, void *arg), void *arg)
{
	bc_guard_rescue_fn = fn;
	bc_guard_rescue_arg = arg;
}

void bc_guard_enter(const char *callback, bool wait)
{
	int n;

	bc_guard_cb = callback;
	bc_guard_waits = wait;
	if (!wait)
		return;
	bc_wait_first_len = 0;
	bc_wait_again_len = 0;
	n = snprintf(bc_wait_first, sizeof(bc_wait_first),
		     "benchcore: %s: waiting for %s to return; interrupt again to exit without waiting\n",
		     bc_guard_bench, callback);
	if (n > 0 && (size_t)n < sizeof(bc_wait_first))
		bc_wait_first_len = n;
	n = snprintf(bc_wait_again, sizeof(bc_wait_again),
		     "benchcore: %s: interrupted again while blocked in %s; exiting without waiting for it\n",
		     bc_guard_bench, callback);
	if (n > 0 && (size_t)n < sizeof(bc_wait_again))
		bc_wait_again_len = n;
}

void bc_guard_leave(void)
{
	bc_guard_cb = NULL;
	if (!bc_guard_waits)
		return;
	bc_guard_waits = false;
	bc_wait_first_len = 0;
	bc_wait_again_len = 0;
}

void bc_guard_signal(bool again)
{
	if (getpid() != bc_guard_pid)
		return;
	if (again && bc_wait_again_len) {
		(void)!write(STDERR_FILENO, bc_wait_again, (size_t)bc_wait_again_len);
		bc_out_discard_all();
		_exit(BC_EXIT_INTERRUPTED);
	}
	if (!again && bc_wait_first_len)
		(void)!write(STDERR_FILENO, bc_wait_first, (size_t)bc_wait_first_len);
}
