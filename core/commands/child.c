// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Child processes with a deadline: the benchcore binary run once per row of
 * a sweep or suite, its stdout and stderr captured in memory files, killed
 * (with whatever it forked) when it overstays its timeout or when the user
 * presses Ctrl-C in the parent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

/* How long a child has to exit on SIGTERM before it gets SIGKILL. */
#define BC_CHILD_KILL_GRACE_SEC 2.0

static volatile sig_atomic_t bc_child_stop;
static struct sigaction old_int, old_term, old_hup;

static void bc_on_stop_signal(int sig)
{
	(void)sig;
	bc_child_stop = 1;
}

void bc_child_catch_stop(void)
{
	struct sigaction sa = { .sa_handler = bc_on_stop_signal };

	bc_child_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* A closed terminal stops the batch as SIGTERM does. */
	sigaction(SIGHUP, &sa, &old_hup);
}

void bc_child_release_stop(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

bool bc_child_stopped(void)
{
	return bc_child_stop;
}

static double bc_now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bc_read_fd_all(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);

	if (!b)
		return -ENOMEM;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		free(b);
		return -errno;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Waits up to `sec` for pid; returns true when it has been reaped. */
static bool bc_wait_for(pid_t pid, int *status, double sec)
{
	double deadline = bc_now_sec() + sec;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			return true;
		if (bc_now_sec() >= deadline)
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
}

int bc_child_run(const char *path, char *const argv[], double timeout_sec,
		 struct bc_child_result *res)
{
	int out_fd = -1, err_fd = -1, status = 0, ret = 0;
	double start, deadline;
	pid_t pid, parent;

	memset(res, 0, sizeof(*res));
	out_fd = memfd_create("benchcore-child-stdout", MFD_CLOEXEC);
	err_fd = memfd_create("benchcore-child-stderr", MFD_CLOEXEC);
	if (out_fd < 0 || err_fd < 0) {
		ret = -errno;
		goto out;
	}
	fflush(NULL);
	start = bc_now_sec();
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		int null_fd = open("/dev/null", O_RDONLY);

		/* Own process group: a timeout kills whatever the run forked
		 * too, and the terminal's Ctrl-C reaches the parent only, which
		 * then stops the child itself. */
		setpgid(0, 0);
		if (null_fd >= 0)
			dup2(null_fd, STDIN_FILENO);
		dup2(out_fd, STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* A parent killed outright takes the run along: SIGTERM
		 * stops it and tears its BPF objects down (the request
		 * survives execv). The parent may be gone already. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		execv(path, argv);
		dprintf(STDERR_FILENO, "benchcore: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	/* Both sides set the group, so a kill right after fork finds it. */
	setpgid(pid, pid);

	deadline = timeout_sec > 0 ? start + timeout_sec : INFINITY;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		if (bc_child_stop || bc_now_sec() >= deadline) {
			if (bc_child_stop)
				res->interrupted = true;
			else
				res->timed_out = true;
			/* SIGINT is what the runner treats as "stop and report
			 * what you have"; SIGKILL when it does not listen. */
			kill(-pid, res->interrupted ? SIGINT : SIGTERM);
			if (!bc_wait_for(pid, &status, BC_CHILD_KILL_GRACE_SEC)) {
				kill(-pid, SIGKILL);
				waitpid(pid, &status, 0);
			}
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	/* Anything the run forked and left behind goes with it. */
	kill(-pid, SIGKILL);
	res->elapsed_sec = bc_now_sec() - start;
	if (WIFEXITED(status)) {
		res->exited = true;
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->term_signal = WTERMSIG(status);
	}
	ret = bc_read_fd_all(out_fd, &res->out, &res->out_len);
	if (!ret)
		ret = bc_read_fd_all(err_fd, &res->err, &res->err_len);
out:
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	if (ret)
		bc_child_result_free(res);
	return ret;
}

void bc_child_result_free(struct bc_child_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
	res->out_len = res->err_len = 0;
}
