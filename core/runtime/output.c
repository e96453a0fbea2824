// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Report files that are either complete or untouched (output.h).
 *
 * stdio remembers that a write failed (ferror) but not why, and a later
 * fflush() of an emptied buffer succeeds: so every stream a report goes to
 * is a cookie stream over the fd that keeps the first errno itself.
 *
 * --output FILE is written to an unnamed file in FILE's directory
 * (O_TMPFILE), linked under a temporary name and renamed over FILE at the
 * end: a run killed half-way leaves no partial FILE and no stray file. A
 * file system without O_TMPFILE gets a named temporary file instead, which
 * a kill can leave behind (".FILE.XXXXXX"), never FILE half-written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exit_status.h"
#include "output.h"
#include "log.h"

struct bc_out_sink {
	int fd;
	int err;		/* the first write or close errno */
	bool reported;
	bool direct;		/* written in place: a device, a FIFO */
	bool anon;		/* O_TMPFILE: no name until linked */
	char *target;		/* the file to replace */
	char tmp[PATH_MAX];	/* the temporary name ("" while anon) */
};

/* ------------------------------------------------------------- streams */

static ssize_t bc_sink_write(void *cookie, const char *buf, size_t len)
{
	struct bc_out_sink *s = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(s->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!s->err)
				s->err = n < 0 ? errno : EIO;
			/* glibc's cookie contract: 0 is the error. */
			return 0;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

static int bc_sink_close(void *cookie)
{
	struct bc_out_sink *s = cookie;

	if (s->fd > STDERR_FILENO && close(s->fd) && !s->err && errno != EINTR)
		s->err = errno;
	s->fd = -1;
	return s->err ? -1 : 0;
}

static FILE *bc_sink_stream(struct bc_out_sink *s, bool line_buffered)
{
	cookie_io_functions_t io = { .write = bc_sink_write, .close = bc_sink_close };
	FILE *f = fopencookie(s, "w", io);

	if (f && line_buffered)
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

static void bc_sink_report(struct bc_out_sink *s, const char *name)
{
	if (s->reported)
		return;
	s->reported = true;
	bc_warn("write error: %s: %s", name, strerror(s->err ? s->err : EIO));
}

/* ------------------------------------------------------------- stdout */

static struct bc_out_sink bc_stdout_sink = { .fd = STDOUT_FILENO };
static FILE *bc_stdout_wrapped;

#define BC_STDOUT_NAME "standard output"

FILE *bc_stdout(void)
{
	return bc_stdout_wrapped ? bc_stdout_wrapped : stdout;
}

int bc_stdout_fd(void)
{
	return bc_stdout_sink.fd;
}

/*
 * Reports go to a private copy of fd 1; fd 1 itself, and libc's stdout,
 * then lead to stderr. A plugin (or a library it calls) that prints, with
 * printf() or write(1, ...), while a run measures cannot put a byte into a
 * JSON document on standard output: the core writes to bc_stdout().
 */
void bc_stdout_wrap(void)
{
	FILE *f;
	int fd;

	if (bc_stdout_wrapped)
		return;
	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (fd >= 0)
		bc_stdout_sink.fd = fd;
	f = bc_sink_stream(&bc_stdout_sink, isatty(bc_stdout_sink.fd));
	if (!f) {
		/* then ferror() below, without the errno */
		if (fd >= 0)
			close(fd);
		bc_stdout_sink.fd = STDOUT_FILENO;
		return;
	}
	bc_stdout_wrapped = f;
	if (fd >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) == STDOUT_FILENO)
		setvbuf(stdout, NULL, _IOLBF, 0);
}

static int bc_stdout_check(void)
{
	if (fflush(bc_stdout()) && !bc_stdout_sink.err)
		bc_stdout_sink.err = errno;
	if (!bc_stdout_sink.err && ferror(bc_stdout()))
		bc_stdout_sink.err = EIO;
	if (!bc_stdout_sink.err)
		return 0;
	bc_sink_report(&bc_stdout_sink, BC_STDOUT_NAME);
	return BC_EXIT_FAILED;
}

int bc_stdout_finish(void)
{
	return bc_stdout_check();
}

/* --------------------------------------------------------- temp names */

/* Names not yet renamed, for bc_out_discard_all(); a command writes one. */
#define BC_OUT_MAX_OPEN 4
static struct bc_out_sink *volatile bc_open_sinks[BC_OUT_MAX_OPEN];

static void bc_sink_track(struct bc_out_sink *s, bool on)
{
	for (size_t i = 0; i < BC_OUT_MAX_OPEN; i++) {
		if (on && !bc_open_sinks[i]) {
			bc_open_sinks[i] = s;
			return;
		}
		if (!on && bc_open_sinks[i] == s)
			bc_open_sinks[i] = NULL;
	}
}

void bc_out_discard_all(void)
{
	for (size_t i = 0; i < BC_OUT_MAX_OPEN; i++) {
		struct bc_out_sink *s = bc_open_sinks[i];

		if (s && s->tmp[0])
			unlink(s->tmp);
	}
}

void bc_out_forget_all(void)
{
	for (size_t i = 0; i < BC_OUT_MAX_OPEN; i++)
		bc_open_sinks[i] = NULL;
}

/* "<dir>/.<base>.XXXXXX" beside the target. */
static int bc_tmp_name(char *buf, size_t len, const char *target, bool template_only)
{
	const char *slash = strrchr(target, '/');
	int dlen = slash ? (int)(slash - target) : 1;
	const char *dir = slash ? target : ".", *base = slash ? slash + 1 : target;
	static unsigned int seq;
	int n;

	if (slash == target)
		dlen = 0;	/* a file in / */
	/* The base is cut so that the name stays within NAME_MAX (255)
	 * whatever FILE's own length: a legal 255-byte FILE must work. */
	if (template_only)
		n = snprintf(buf, len, "%.*s/.%.200s.XXXXXX", dlen, dir, base);
	else
		n = snprintf(buf, len, "%.*s/.%.200s.%d.%u.%ld", dlen, dir, base, (int)getpid(), ++seq,
			     (long)time(NULL));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * The file a dangling symlink names, which is the one to create (as a
 * shell's `>` does), not the link to replace. NULL with errno set on a loop
 * or a name too long.
 */
static char *bc_link_target(const char *path)
{
	char *cur = strdup(path), next[PATH_MAX], *joined;
	struct stat st;
	ssize_t n;

	for (int hops = 0; cur && hops < 40; hops++) {
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, next, sizeof(next) - 1);
		if (n < 0 || n >= (ssize_t)sizeof(next) - 1) {
			free(cur);
			errno = n < 0 ? errno : ENAMETOOLONG;
			return NULL;
		}
		next[n] = '\0';
		if (next[0] == '/' || !strchr(cur, '/')) {
			joined = strdup(next);
		} else if (asprintf(&joined, "%.*s/%s", (int)(strrchr(cur, '/') - cur), cur,
				    next) < 0) {
			joined = NULL;
		}
		free(cur);
		cur = joined;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* The directory part of target, for O_TMPFILE. */
static void bc_dir_of(char *buf, size_t len, const char *target)
{
	const char *slash = strrchr(target, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == target)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - target), target);
}

/* ------------------------------------------------------------- files */

static int bc_out_fail_open(struct bc_out *o, const char *opt, const char *path, int err)
{
	o->f = bc_stdout();
	o->name = BC_STDOUT_NAME;
	o->sink = NULL;
	if (err == EISDIR)
		bc_warn("%s '%s': is a directory; expected a file name", opt, path);
	else
		bc_warn("%s '%s': %s; expected a file that can be written", opt, path, strerror(err));
	return BC_EXIT_USAGE;
}

int bc_out_open(struct bc_out *o, const char *opt, const char *path)
{
	struct bc_out_sink *s;
	char dir[PATH_MAX];
	struct stat st;
	bool exists;
	mode_t mask;
	int err;

	o->f = bc_stdout();
	o->name = BC_STDOUT_NAME;
	o->sink = NULL;
	if (!path)
		return 0;
	if (!*path) {
		bc_warn("%s '': expected a file name", opt);
		return BC_EXIT_USAGE;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return bc_out_fail_open(o, opt, path, ENOMEM);
	s->fd = -1;
	exists = !stat(path, &st);
	if (exists && S_ISDIR(st.st_mode)) {
		free(s);
		return bc_out_fail_open(o, opt, path, EISDIR);
	}
	/* A symlink: the file it names is the one to replace, or to create
	 * when it does not exist yet. */
	s->target = exists ? realpath(path, NULL) : bc_link_target(path);
	if (!s->target) {
		err = errno;
		free(s);
		return bc_out_fail_open(o, opt, path, err);
	}
	/* A name the directory cannot hold fails at the rename, after the
	 * whole run: refuse it before the run starts. */
	{
		const char *base = strrchr(s->target, '/') ? strrchr(s->target, '/') + 1 : s->target;
		long name_max;

		bc_dir_of(dir, sizeof(dir), s->target);
		name_max = pathconf(dir, _PC_NAME_MAX);
		if (strlen(s->target) >= PATH_MAX || !*base ||
		    (long)strlen(base) > (name_max > 0 ? name_max : NAME_MAX)) {
			free(s->target);
			free(s);
			return bc_out_fail_open(o, opt, path, ENAMETOOLONG);
		}
	}
	if (exists && !S_ISREG(st.st_mode)) {
		s->direct = true;
		s->fd = open(s->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	} else {
		bc_dir_of(dir, sizeof(dir), s->target);
		s->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
		s->anon = s->fd >= 0;
		if (s->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
			if (!bc_tmp_name(s->tmp, sizeof(s->tmp), s->target, true))
				s->fd = mkostemp(s->tmp, O_CLOEXEC);
			else
				errno = ENAMETOOLONG;
			if (s->fd < 0)
				s->tmp[0] = '\0';
		}
		if (s->fd >= 0) {
			/* The old file's mode, else what a plain create gives. */
			mask = umask(0);
			umask(mask);
			if (fchmod(s->fd, exists ? st.st_mode & 07777 : 0666 & ~mask))
				bc_debug("%s '%s': cannot set the mode: %s", opt, path, strerror(errno));
		}
	}
	if (s->fd < 0) {
		err = errno;
		free(s->target);
		free(s);
		return bc_out_fail_open(o, opt, path, err);
	}
	o->f = bc_sink_stream(s, false);
	if (!o->f) {
		err = errno;
		if (s->tmp[0])
			unlink(s->tmp);
		close(s->fd);
		free(s->target);
		free(s);
		return bc_out_fail_open(o, opt, path, err);
	}
	bc_sink_track(s, true);
	o->sink = s;
	o->name = path;
	return 0;
}

bool bc_out_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!a || !b || stat(a, &sa) || stat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Gives the unnamed file a temporary name beside the target. */
static int bc_sink_link(struct bc_out_sink *s)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", s->fd);
	for (int tries = 0; tries < 100; tries++) {
		if (bc_tmp_name(s->tmp, sizeof(s->tmp), s->target, false))
			return -ENAMETOOLONG;
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, s->tmp, AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			break;
	}
	s->tmp[0] = '\0';
	return -errno;
}

static void bc_sink_free(struct bc_out_sink *s)
{
	bc_sink_track(s, false);
	free(s->target);
	free(s);
}

int bc_out_close(struct bc_out *o, bool produced, int status)
{
	struct bc_out_sink *s = o->sink;
	int err;

	if (!s) {
		if (bc_stdout_check())
			return BC_EXIT_FAILED;
		return status;
	}
	o->sink = NULL;
	if (fflush(o->f) && !s->err)
		s->err = errno ? errno : EIO;
	if (!s->err && produced && s->anon) {
		err = bc_sink_link(s);
		if (err)
			s->err = -err;
	}
	fclose(o->f);	/* the close's own error lands in s->err */
	o->f = bc_stdout();
	if (!s->err && produced && !s->direct && rename(s->tmp, s->target))
		s->err = errno;
	if (s->err) {
		if (s->tmp[0])
			unlink(s->tmp);
		bc_sink_report(s, o->name);
		bc_sink_free(s);
		return BC_EXIT_FAILED;
	}
	/* Nothing to show for it: the previous file stays as it was. */
	if (!produced && s->tmp[0])
		unlink(s->tmp);
	bc_sink_free(s);
	return status;
}
