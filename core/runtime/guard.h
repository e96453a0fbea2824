/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the core does when plugin code will not give control back: a plugin
 * that calls exit() in a callback, and a callback that blocks while the
 * user presses Ctrl-C again. Both end the process at once with one line
 * naming the benchmark and the callback.
 */
#ifndef BENCHCORE_GUARD_H
#define BENCHCORE_GUARD_H

#include <stdbool.h>

/* "plugin:bench", for the lines below; installs the exit() guard once. */
void bc_guard_set_bench(const char *plugin, const char *bench);

/*
 * Around every call into plugin code, on the thread that makes it (the
 * name is per thread: "setup", "producer 0"). While a thread is inside, a
 * plugin's exit(N) prints
 *   benchcore: PLUGIN:BENCH: plugin called exit(N) in CALLBACK
 * and the process ends with status 1. `wait`: the main thread waits on it,
 * so a second SIGINT or SIGTERM ends the process (bc_guard_signal()).
 */
void bc_guard_enter(const char *callback, bool wait);

/*
 * What to do when a plugin calls exit() in teardown, after the line above
 * and before the process ends with status 1: the run's measurements are
 * complete then (the runner summarises them before teardown), so the
 * command reports them. fn NULL: nothing.
 */
void bc_guard_set_rescue(void (*fn)(int status, void *arg), void *arg);
void bc_guard_leave(void);

/*
 * From a SIGINT/SIGTERM handler (async-signal-safe). `again`: the run was
 * already asked to stop. While the main thread waits on a callback, the
 * first signal says that a second one exits, and the second ends the
 * process with status 130 and
 *   benchcore: PLUGIN:BENCH: interrupted again while blocked in CALLBACK; exiting without waiting for it
 * Otherwise it returns and the caller only notes the signal.
 */
void bc_guard_signal(bool again);

/*
 * The stop signals (SIGINT, SIGTERM, SIGHUP) during a run: from _start() to
 * _stop() they are blocked in every thread and read by a watcher thread of
 * the core's own, so no plugin or library can ignore, block or catch them
 * (guard.c says why this and not handlers re-installed after callbacks).
 * _taken() is the last one received (0: none). A callback the main thread
 * still waits on 5 s after the stop ends the process with status 130 and
 *   benchcore: PLUGIN:BENCH: CALLBACK has not returned 5 s after SIGINT; exiting without waiting for it
 * A process forked meanwhile starts with the signals as they were before.
 */
int bc_guard_signals_start(void);
int bc_guard_signals_taken(void);
void bc_guard_signals_stop(void);

/* `who` (a thread the main thread joins) is late: says so, and makes the
 * next stop signal end the process at once. */
void bc_guard_late(const char *who, double sec);

/*
 * Crashes: SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT print
 *   benchcore: PLUGIN:BENCH: crashed in CALLBACK: killed by signal N (DESCRIPTION)
 * (with the stack limit when it is small) from an alternate stack, and the
 * process still ends with the signal. _install() once per process, for the
 * calling thread; _thread_begin()/_end() give a thread its own alternate
 * stack.
 */
void bc_guard_crash_install(void);

/*
 * A document for a crash (a plain run's --format json on standard output):
 * made before the run, since a handler may only write(). After the line
 * above, the handler writes text to fd with the bytes at status_at
 * (status_len of them) replaced by 128 + N, the process's own status, and
 * those at reason_at by "crashed in CALLBACK: killed by signal N (NAME)";
 * once, and only from the process that armed it (not a plugin's child).
 * The text must stay valid until _disarm(); a NULL text disarms.
 */
struct bc_guard_crash_doc {
	int fd;
	const char *text;
	size_t len;
	size_t status_at, status_len;
	size_t reason_at, reason_len;
};
void bc_guard_crash_doc_arm(const struct bc_guard_crash_doc *doc);
void bc_guard_crash_doc_disarm(void);
void bc_guard_thread_begin(void);
void bc_guard_thread_end(void);

/*
 * Processes a plugin forked and left behind: _begin() makes this process
 * their subreaper (their orphans come back to it), _strays() kills and
 * reaps every child left, and returns how many there were.
 */
void bc_guard_reap_begin(void);
unsigned int bc_guard_reap_strays(void);

#endif /* BENCHCORE_GUARD_H */
