// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_child.h"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

void bc_test_child_start(struct bc_test_child *c, const char *const *argv,
			 const char *stdout_path, const char *cwd)
{
	c->out = tmpfile();
	c->err = tmpfile();
	assert_true(c->out && c->err);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		int fd = stdout_path ? open(stdout_path, O_WRONLY) : fileno(c->out);

		dup2(fd, STDOUT_FILENO);
		dup2(fileno(c->err), STDERR_FILENO);
		unsetenv("BENCHCORE_PLUGIN_PATH");
		if (cwd && chdir(cwd))
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
}

void bc_test_child_finish(struct bc_test_child *c, struct bc_test_run *r, int bound_sec)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	pid_t got = 0;
	int st = 0, i;

	for (i = 0; i < bound_sec * 50 && !got; i++) {
		got = waitpid(c->pid, &st, WNOHANG);
		if (!got)
			nanosleep(&nap, NULL);
	}
	if (!got) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &st, 0);
		fclose(c->out);
		fclose(c->err);
		fail_msg("benchcore did not end within %d s", bound_sec);
	}
	r->pid = c->pid;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = bc_test_slurp_fd(fileno(c->out));
	r->err = bc_test_slurp_fd(fileno(c->err));
	fclose(c->out);
	fclose(c->err);
}

void bc_test_assert_line(const struct bc_test_run *r, const char *line)
{
	const char *p = r->err;
	size_t len = strlen(line);

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, line, len) && (p[len] == '\n' || p[len] == '\0'))
			return;
	fail_msg("no line\n  %s\nin stderr (exit %d):\n%s", line, r->status, r->err);
}

void bc_test_assert_status(const struct bc_test_run *r, int status)
{
	if (r->status != status)
		fail_msg("exit status %d, %d expected; stderr:\n%s", r->status, status, r->err);
}
