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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
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
/* For the signal watcher (another thread): which callback the main thread
 * waits on, a count of such waits, and whether the user was already told
 * that a thread is late (then one interrupt is enough to exit). */
static const char *volatile bc_wait_cb;
static unsigned int bc_wait_gen;
static volatile sig_atomic_t bc_wait_told;

static void bc_guard_reassert(void);

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
	if (!bc_guard_installed) {
		bc_guard_installed = !on_exit(bc_guard_on_exit, NULL);
		bc_guard_crash_install();
	}
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
	bc_wait_told = 0;
	bc_wait_cb = callback;
	__atomic_add_fetch(&bc_wait_gen, 1, __ATOMIC_RELEASE);
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
	/* Whatever the callback did to the signals, they are ours again. */
	bc_guard_reassert();
	if (!bc_guard_waits)
		return;
	bc_guard_waits = false;
	bc_wait_cb = NULL;
	bc_wait_told = 0;
	bc_wait_first_len = 0;
	bc_wait_again_len = 0;
}

void bc_guard_signal(bool again)
{
	if (getpid() != bc_guard_pid)
		return;
	if ((again || bc_wait_told) && bc_wait_again_len) {
		(void)!write(STDERR_FILENO, bc_wait_again, (size_t)bc_wait_again_len);
		bc_out_discard_all();
		_exit(BC_EXIT_INTERRUPTED);
	}
	if (!again && bc_wait_first_len)
		(void)!write(STDERR_FILENO, bc_wait_first, (size_t)bc_wait_first_len);
}

/* ------------------------------------------------------ stop signals */

/*
 * While a run is on, SIGINT, SIGTERM and SIGHUP are blocked in every thread
 * and read from a signalfd by a watcher thread of the core's own. A blocked
 * signal is never ignored (the kernel queues it whatever the disposition),
 * so a plugin or a library that sets SIG_IGN, installs its own handler or
 * blocks the signals again changes nothing the watcher sees; re-asserting
 * handlers after each callback instead would leave a window during every
 * callback, and none at all help against one that never returns.
 * A plugin thread that unblocks the signals itself still meets our handler,
 * which forwards to the watcher; bc_guard_leave() and the watcher (every
 * 100 ms) put the handler back.
 */
#define BC_STOP_GRACE_NS (5 * 1000000000LL)
#define BC_STOP_REASSERT_MS 100

static const int bc_stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
static sigset_t bc_stop_set;
static sigset_t bc_stop_old_mask;
static struct sigaction bc_stop_old_sa[3];
static pthread_t bc_stop_thread;
static int bc_stop_sfd = -1;
static int bc_stop_pipe[2] = { -1, -1 };
static volatile sig_atomic_t bc_stop_on;
static int bc_stop_taken;
static bool bc_stop_atfork;

static long long bc_guard_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Only for a thread that unblocked the signals behind our back. */
static void bc_stop_forward(int sig)
{
	unsigned char b = (unsigned char)sig;
	int saved = errno;

	(void)!write(bc_stop_pipe[1], &b, 1);
	errno = saved;
}

/* Points the stop signals at the forwarding handler; old (when not NULL)
 * receives the handlers they had, to put back at the end of the run. */
static void bc_stop_install_handlers(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bc_stop_forward;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(bc_stop_sigs) / sizeof(bc_stop_sigs[0]); i++)
		sigaction(bc_stop_sigs[i], &sa, old ? &old[i] : NULL);
}

static void bc_guard_reassert(void)
{
	if (!bc_stop_on || getpid() != bc_guard_pid)
		return;
	bc_stop_install_handlers(NULL);
	pthread_sigmask(SIG_BLOCK, &bc_stop_set, NULL);
}

/* A process a plugin forks must not start with our signals blocked. */
static void bc_stop_child_after_fork(void)
{
	size_t i;

	if (!bc_stop_on)
		return;
	for (i = 0; i < sizeof(bc_stop_sigs) / sizeof(bc_stop_sigs[0]); i++)
		sigaction(bc_stop_sigs[i], &bc_stop_old_sa[i], NULL);
	pthread_sigmask(SIG_UNBLOCK, &bc_stop_set, NULL);
	bc_stop_on = 0;
}

static void bc_stop_took(int sig)
{
	int prev = __atomic_exchange_n(&bc_stop_taken, sig, __ATOMIC_ACQ_REL);

	/* A callback that blocks ignores the flag: a second signal while the
	 * main thread waits on one ends the process. */
	bc_guard_signal(prev != 0);
}

/* A callback still running this long after the stop: the run ends anyway. */
static void bc_stop_overdue(void)
{
	const char *cb = bc_wait_cb;
	int sig = __atomic_load_n(&bc_stop_taken, __ATOMIC_ACQUIRE);

	if (!cb)
		return;
	fprintf(stderr, "benchcore: %s: %s has not returned %lld s after %s; exiting without waiting for it\n",
		bc_guard_bench, cb, BC_STOP_GRACE_NS / 1000000000LL,
		sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT");
	bc_out_discard_all();
	_exit(BC_EXIT_INTERRUPTED);
}

static void *bc_stop_main(void *arg)
{
	unsigned int gen = 0;
	long long since = 0;

	(void)arg;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = bc_stop_sfd, .events = POLLIN },
			{ .fd = bc_stop_pipe[0], .events = POLLIN },
		};
		bool taken = __atomic_load_n(&bc_stop_taken, __ATOMIC_ACQUIRE) != 0;
		unsigned int now_gen;
		int n;

		/* Woken at least every 100 ms to put our handler back: a
		 * plugin thread may unblock the signals and catch them. */
		n = poll(p, 2, taken ? 100 : BC_STOP_REASSERT_MS);
		bc_stop_install_handlers(NULL);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (p[0].revents & POLLIN)) {
			struct signalfd_siginfo si;

			/* Non-blocking: a thread that unblocked the signal may
			 * have taken it since poll() said it was there. */
			if (read(bc_stop_sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				bc_stop_took((int)si.ssi_signo);
		}
		if (n > 0 && (p[1].revents & POLLIN)) {
			unsigned char b;

			if (read(bc_stop_pipe[0], &b, 1) == 1) {
				if (!b)
					break;	/* bc_guard_signals_stop() */
				bc_stop_took(b);
			}
		}
		if (!__atomic_load_n(&bc_stop_taken, __ATOMIC_ACQUIRE))
			continue;
		/* Each callback the main thread waits on after the stop gets
		 * the grace period of its own. */
		now_gen = __atomic_load_n(&bc_wait_gen, __ATOMIC_ACQUIRE);
		if (!since || now_gen != gen) {
			gen = now_gen;
			since = bc_guard_now_ns();
		} else if (bc_wait_cb && bc_guard_now_ns() - since > BC_STOP_GRACE_NS) {
			bc_stop_overdue();
		}
	}
	return NULL;
}

int bc_guard_signals_start(void)
{
	size_t i;
	int err;

	if (bc_stop_on)
		return 0;
	if (!bc_stop_atfork)
		bc_stop_atfork = !pthread_atfork(NULL, NULL, bc_stop_child_after_fork);
	bc_guard_pid = getpid();
	__atomic_store_n(&bc_stop_taken, 0, __ATOMIC_RELEASE);
	sigemptyset(&bc_stop_set);
	for (i = 0; i < sizeof(bc_stop_sigs) / sizeof(bc_stop_sigs[0]); i++)
		sigaddset(&bc_stop_set, bc_stop_sigs[i]);
	/* Blocked before anything else: the threads started later inherit it. */
	pthread_sigmask(SIG_BLOCK, &bc_stop_set, &bc_stop_old_mask);
	bc_stop_sfd = signalfd(-1, &bc_stop_set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (bc_stop_sfd < 0 || pipe2(bc_stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		err = -errno;
		goto fail;
	}
	bc_stop_install_handlers(bc_stop_old_sa);
	bc_stop_on = 1;
	err = -pthread_create(&bc_stop_thread, NULL, bc_stop_main, NULL);
	if (!err)
		return 0;
	for (i = 0; i < sizeof(bc_stop_sigs) / sizeof(bc_stop_sigs[0]); i++)
		sigaction(bc_stop_sigs[i], &bc_stop_old_sa[i], NULL);
	bc_stop_on = 0;
fail:
	if (bc_stop_sfd >= 0)
		close(bc_stop_sfd);
	if (bc_stop_pipe[0] >= 0) {
		close(bc_stop_pipe[0]);
		close(bc_stop_pipe[1]);
	}
	bc_stop_sfd = bc_stop_pipe[0] = bc_stop_pipe[1] = -1;
	pthread_sigmask(SIG_SETMASK, &bc_stop_old_mask, NULL);
	return err;
}

int bc_guard_signals_taken(void)
{
	return __atomic_load_n(&bc_stop_taken, __ATOMIC_ACQUIRE);
}

void bc_guard_signals_stop(void)
{
	unsigned char quit = 0;
	struct timespec zero = { 0 };
	siginfo_t si;
	size_t i;

	if (!bc_stop_on)
		return;
	(void)!write(bc_stop_pipe[1], &quit, 1);
	pthread_join(bc_stop_thread, NULL);
	/* One that came after the watcher left still counts, and must not
	 * meet the old disposition when the mask is restored. */
	while (sigtimedwait(&bc_stop_set, &si, &zero) > 0)
		__atomic_store_n(&bc_stop_taken, si.si_signo, __ATOMIC_RELEASE);
	for (i = 0; i < sizeof(bc_stop_sigs) / sizeof(bc_stop_sigs[0]); i++)
		sigaction(bc_stop_sigs[i], &bc_stop_old_sa[i], NULL);
	bc_stop_on = 0;
	close(bc_stop_sfd);
	close(bc_stop_pipe[0]);
	close(bc_stop_pipe[1]);
	bc_stop_sfd = bc_stop_pipe[0] = bc_stop_pipe[1] = -1;
	pthread_sigmask(SIG_SETMASK, &bc_stop_old_mask, NULL);
}

void bc_guard_late(const char *who, double sec)
{
	fprintf(stderr, "benchcore: %s: waiting for %s to return: the run ended %.0f s ago and it has not checked the stop flag; interrupt to exit without waiting\n",
		bc_guard_bench, who, sec);
	bc_wait_told = 1;
}

/* ------------------------------------------------------------ crashes */

/*
 * A plugin that crashes (or a stack that runs out) ends the process with
 * its signal, as before, but first says so in one line naming the
 * benchmark and the callback. The handler runs on an alternate stack, so a
 * stack overflow can still say it; it only formats by hand and write()s.
 */
static const int bc_crash_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
static char bc_crash_main_stack[64 * 1024];
static __thread void *bc_crash_stack;

static size_t bc_cat(char *buf, size_t at, size_t cap, const char *s)
{
	while (s && *s && at + 1 < cap)
		buf[at++] = *s++;
	return at;
}

static size_t bc_cat_uint(char *buf, size_t at, size_t cap, unsigned long v)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n > 0 && at + 1 < cap)
		buf[at++] = digits[--n];
	return at;
}

/* The crash document (guard.h), and whether it is still to be written. */
static struct bc_guard_crash_doc bc_crash_doc;
static pid_t bc_crash_doc_pid;
static int bc_crash_doc_armed;

void bc_guard_crash_doc_arm(const struct bc_guard_crash_doc *doc)
{
	__atomic_store_n(&bc_crash_doc_armed, 0, __ATOMIC_SEQ_CST);
	if (!doc || !doc->text || doc->status_at + doc->status_len > doc->reason_at ||
	    doc->reason_at + doc->reason_len > doc->len)
		return;
	bc_crash_doc = *doc;
	bc_crash_doc_pid = getpid();
	__atomic_store_n(&bc_crash_doc_armed, 1, __ATOMIC_SEQ_CST);
}

void bc_guard_crash_doc_disarm(void)
{
	__atomic_store_n(&bc_crash_doc_armed, 0, __ATOMIC_SEQ_CST);
}

static bool bc_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/* From the handler: the document made before the run, with the status and
 * the reason (JSON-safe: it holds names we chose, but a quote, backslash or
 * control byte would end the string) put in their places. */
static void bc_crash_doc_write(int sig, const char *why, size_t why_len)
{
	const struct bc_guard_crash_doc *d = &bc_crash_doc;
	char status[24], reason[768];
	size_t n = 0, i;

	/* Once, by the first thread to crash, and not by a plugin's child. */
	if (!__atomic_exchange_n(&bc_crash_doc_armed, 0, __ATOMIC_SEQ_CST) ||
	    getpid() != bc_crash_doc_pid)
		return;
	n = bc_cat_uint(status, 0, sizeof(status), 128UL + (unsigned long)sig);
	for (i = 0; i < why_len && i < sizeof(reason); i++)
		reason[i] = why[i] == '"' || why[i] == '\\' || (unsigned char)why[i] < 0x20 ? '?' : why[i];
	if (bc_write_all(d->fd, d->text, d->status_at) &&
	    bc_write_all(d->fd, status, n) &&
	    bc_write_all(d->fd, d->text + d->status_at + d->status_len,
			 d->reason_at - d->status_at - d->status_len) &&
	    bc_write_all(d->fd, reason, i))
		bc_write_all(d->fd, d->text + d->reason_at + d->reason_len,
			     d->len - d->reason_at - d->reason_len);
}

static void bc_crash_handler(int sig, siginfo_t *si, void *uc)
{
	const char *cb = bc_guard_cb;
	struct rlimit rl;
	char line[768];
	size_t n = 0, why;
	int saved = errno;

	(void)uc;
	n = bc_cat(line, n, sizeof(line), "benchcore: ");
	/* No benchmark yet: the core's own start-up. */
	if (bc_guard_pid) {
		n = bc_cat(line, n, sizeof(line), bc_guard_bench);
		n = bc_cat(line, n, sizeof(line), ": ");
	}
	why = n;	/* the reason a crash document gives starts here */
	n = bc_cat(line, n, sizeof(line), "crashed");
	if (cb) {
		n = bc_cat(line, n, sizeof(line), " in ");
		n = bc_cat(line, n, sizeof(line), cb);
	}
	n = bc_cat(line, n, sizeof(line), ": killed by signal ");
	n = bc_cat_uint(line, n, sizeof(line), (unsigned long)sig);
	n = bc_cat(line, n, sizeof(line), " (");
	n = bc_cat(line, n, sizeof(line), sigdescr_np(sig));
	n = bc_cat(line, n, sizeof(line), ")");
	/* The usual cause of a SIGSEGV under a small stack limit. */
	if (sig == SIGSEGV && !getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < 1024 * 1024) {
		n = bc_cat(line, n, sizeof(line), "; the stack limit is ");
		n = bc_cat_uint(line, n, sizeof(line), (unsigned long)(rl.rlim_cur / 1024));
		n = bc_cat(line, n, sizeof(line), " KiB (ulimit -s), which may be too small");
	}
	n = bc_cat(line, n, sizeof(line), "\n");
	(void)!write(STDERR_FILENO, line, n);
	/* A plain run's JSON document still says how it ended (guard.h). */
	bc_crash_doc_write(sig, line + why, n - why - (line[n - 1] == '\n'));
	bc_out_discard_all();
	errno = saved;
	/* SA_RESETHAND made the action the default one: the fault repeats on
	 * return (or the re-raised signal is delivered), and the process
	 * ends with the signal, as its parent expects. */
	if (sig == SIGABRT || !si || si->si_code <= 0)
		raise(sig);
}

static void bc_crash_altstack(void *mem, size_t size)
{
	stack_t ss = { .ss_sp = mem, .ss_size = size };

	sigaltstack(&ss, NULL);
}

void bc_guard_crash_install(void)
{
	struct sigaction sa;
	size_t i;

#ifdef __SANITIZE_ADDRESS__
	/* The sanitizers' own report says more than this line. */
	return;
#endif
	bc_crash_altstack(bc_crash_main_stack, sizeof(bc_crash_main_stack));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = bc_crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(bc_crash_sigs) / sizeof(bc_crash_sigs[0]); i++)
		sigaction(bc_crash_sigs[i], &sa, NULL);
}

void bc_guard_thread_begin(void)
{
	size_t size = 64 * 1024;

	bc_crash_stack = malloc(size);
	if (bc_crash_stack)
		bc_crash_altstack(bc_crash_stack, size);
}

void bc_guard_thread_end(void)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	if (!bc_crash_stack)
		return;
	sigaltstack(&ss, NULL);
	free(bc_crash_stack);
	bc_crash_stack = NULL;
}

/* ------------------------------------------------------ stray processes */

/* Kills every process whose parent is this one (from /proc: no cgroup
 * needed) and reaps each; how many it found. */
static unsigned int bc_kill_children(pid_t self)
{
	unsigned int cnt = 0, i;
	pid_t found[256];
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d)) && cnt < sizeof(found) / sizeof(found[0])) {
		char path[300], buf[512], *p;
		long pid, ppid;
		ssize_t len;
		int fd;

		pid = strtol(de->d_name, &p, 10);
		if (*p || pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) state ppid": comm may hold anything but ends at the last ')'. */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid != self)
			continue;
		if (!kill((pid_t)pid, SIGKILL))
			found[cnt++] = (pid_t)pid;
	}
	closedir(d);
	/* Only these: one that became our child since (an orphan of one of
	 * them) is killed in the next round, not waited for here. */
	for (i = 0; i < cnt; i++)
		while (waitpid(found[i], NULL, __WALL) < 0 && errno == EINTR)
			;
	return cnt;
}

void bc_guard_reap_begin(void)
{
	/* Orphans of what a plugin forks come back to us, not to init. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

unsigned int bc_guard_reap_strays(void)
{
	pid_t self = getpid();
	unsigned int total = 0, round, n;

	/* Their own children reparent to us as they die: a few rounds. */
	for (round = 0; round < 64; round++) {
		n = bc_kill_children(self);
		if (!n)
			break;
		total += n;
	}
	return total;
}
