// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Nothing lost, every failure says why, through the real binary with the
 * loader's valid fixture plugin:
 *  - --output FILE is replaced only by a command that produced something;
 *    a refused, unavailable or killed run leaves the old FILE and no stray
 *    file beside it;
 *  - every write error ends with one line naming the file and exit 1;
 *  - bad command lines are refused up front in one line, and no error path
 *    prints an empty reason.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "exit_status.h"
#include "bc_test_child.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))
#define BOUND_SEC 120

static char root[PATH_MAX];
static char plugins[PATH_MAX];	/* fixture.so */
static char work[PATH_MAX];	/* output files */

/* stdout_path: where stdout goes (NULL: captured). */
static void start(struct bc_test_child *c, const char *stdout_path, const char *const *args)
{
	const char *argv[80] = { BC_TEST_BENCHCORE, "--plugin-dir", plugins };
	size_t n = 3;

	while (*args && n < 79)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(c, argv, stdout_path, work);
}

static void run_to(struct bc_test_run *r, const char *stdout_path, const char *const *args)
{
	struct bc_test_child c;

	start(&c, stdout_path, args);
	bc_test_child_finish(&c, r, BOUND_SEC);
}

#define RUN(r, ...) run_to((r), NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define RUN_TO(r, path, ...) run_to((r), (path), (const char *const[]){ __VA_ARGS__, NULL })

/* Every "benchcore:" line says something, and at least one was printed. */
static void assert_reasons_said(const struct bc_test_run *r, const char *what)
{
	const char *p = r->err;
	int said = 0;

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		/* argp says "benchcore run: unrecognized option ..." */
		if (!strncmp(p, "benchcore run: ", 15) && len > 15) {
			said++;
			continue;
		}
		if (strncmp(p, "benchcore:", 10))
			continue;
		if (len <= 11 || p[10] != ' ' || p[11] == ' ')
			fail_msg("%s: an empty reason in: %.*s\nstderr:\n%s", what, (int)len, p, r->err);
		said++;
	}
	if (!said)
		fail_msg("%s: exit %d without a line saying why; stderr:\n%s", what, r->status, r->err);
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	char *text;

	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	text = bc_test_slurp_fd(fd);
	close(fd);
	return text;
}

static void assert_file(const char *path, const char *want)
{
	char *got = read_file(path);

	if (strcmp(got, want))
		fail_msg("%s holds:\n%s\nexpected:\n%s", path, got, want);
	free(got);
}

/* Nothing but `keep` in the work directory: no temporary file left. */
static void assert_only(const char *keep)
{
	DIR *d = opendir(work);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, keep))
			continue;
		fail_msg("stray file in the output directory: %s", de->d_name);
	}
	closedir(d);
}

/* ------------------------------------------------------------ --output */

static void test_output_kept_unless_produced(void **state)
{
	struct bc_test_run r;
	struct stat st;

	(void)state;
	bc_test_write_file("o.txt", "OLD\n");
	/* Unavailable, refused, failed: the old results stay. */
	RUN(&r, "run", "fixture:unavailable", "-w0", "-d1", "--output", "o.txt");
	bc_test_assert_status(&r, BC_EXIT_UNAVAILABLE);
	bc_test_run_free(&r);
	assert_file("o.txt", "OLD\n");
	RUN(&r, "run", "fixture:ok", "-w0", "-d", "0x10", "--output", "o.txt");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	RUN(&r, "run", "fixture:setup-fails", "-w0", "-d1", "--format", "json", "--output", "o.txt");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_run_free(&r);
	assert_file("o.txt", "OLD\n");
	RUN(&r, "run", "fixture:unavailable", "-w0", "-d1", "--sweep", "producers=1", "--output",
	    "o.txt");
	bc_test_assert_status(&r, BC_EXIT_UNAVAILABLE);
	bc_test_run_free(&r);
	assert_file("o.txt", "OLD\n");
	assert_only("o.txt");

	/* A run that measured replaces it, with the old file's mode. */
	assert_int_equal(chmod("o.txt", 0640), 0);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "-q", "--output", "o.txt");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	{
		char *text = read_file("o.txt");

		assert_non_null(strstr(text, "Summary"));
		free(text);
	}
	assert_int_equal(stat("o.txt", &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_only("o.txt");
	unlink("o.txt");
}

static void test_output_kept_when_killed(void **state)
{
	const char *args[] = { "run", "fixture:ok", "-w0", "-d60", "--output", "k.txt", NULL };
	struct timespec nap = { .tv_sec = 2 };
	struct bc_test_child c;
	struct bc_test_run r;

	(void)state;
	bc_test_write_file("k.txt", "OLD\n");
	start(&c, NULL, args);
	/* Killed while it runs (whether before or after its first tick, the
	 * old file must stay: nothing here depends on the timing). */
	nanosleep(&nap, NULL);
	assert_int_equal(kill(c.pid, SIGKILL), 0);
	bc_test_child_finish(&c, &r, BOUND_SEC);
	assert_int_equal(r.status, 128 + SIGKILL);
	bc_test_run_free(&r);
	assert_file("k.txt", "OLD\n");
	assert_only("k.txt");
	unlink("k.txt");
}

/* ------------------------------------------------------- write errors */

static void test_write_errors(void **state)
{
	struct bc_test_run r;
	char base[PATH_MAX];

	(void)state;
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "--output", "/dev/full");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: /dev/full: No space left on device");
	bc_test_run_free(&r);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "--format", "json", "--output", "/dev/full");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: /dev/full: No space left on device");
	bc_test_run_free(&r);
	RUN_TO(&r, "/dev/full", "run", "fixture:ok", "-w0", "-d1");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: standard output: No space left on device");
	bc_test_run_free(&r);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "--sweep", "producers=1", "--output", "/dev/full");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: /dev/full: No space left on device");
	bc_test_run_free(&r);
	RUN_TO(&r, "/dev/full", "list");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: standard output: No space left on device");
	bc_test_run_free(&r);
	RUN_TO(&r, "/dev/full", "list", "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: standard output: No space left on device");
	bc_test_run_free(&r);
	RUN_TO(&r, "/dev/full", "--help");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: standard output: No space left on device");
	bc_test_run_free(&r);

	/* compare, to stdout and to a file. */
	PATHF(base, "%s/base.json", work);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "--format", "json", "--output", base);
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	RUN_TO(&r, "/dev/full", "compare", base, base);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: standard output: No space left on device");
	bc_test_run_free(&r);
	RUN(&r, "compare", base, base, "--output", "/dev/full");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: write error: /dev/full: No space left on device");
	bc_test_run_free(&r);
	unlink(base);
}

/* ------------------------------------------------ refused up front */

static void test_refused_in_one_line(void **state)
{
	char suite[PATH_MAX], many[8 * 1024];
	struct bc_test_run r;
	size_t off = 0;

	(void)state;
	RUN(&r, "run", "fixture:ok", "--sweep", "producers=1,2", "--sweep", "producers=3");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: --sweep: option 'producers' is swept twice ('producers=1,2' and 'producers=3'); give it one --sweep with every value");
	bc_test_run_free(&r);
	RUN(&r, "run", "fixture:ok", "--sweep", "p=1", "--sweep", "producers=3");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);

	/* 101 x 101 values: above the documented limit, said before a row. */
	off = (size_t)snprintf(many, sizeof(many), "duration=");
	for (int i = 1; i <= 101; i++)
		off += (size_t)snprintf(many + off, sizeof(many) - off, "%s%d", i > 1 ? "," : "", i);
	{
		char w[8 * 1024];

		PATHF(w, "warmup%s", strchr(many, '='));
		RUN(&r, "run", "fixture:ok", "--sweep", many, "--sweep", w, "--sweep", "p=1,2");
		bc_test_assert_status(&r, BC_EXIT_USAGE);
		bc_test_assert_line(&r, "benchcore: --sweep: 101 x 101 x 2 values make more than 10000 runs; at most 10000 runs in one command (docs/suites.md)");
		assert_int_equal(r.out[0], '\0');
		bc_test_run_free(&r);
	}

	RUN(&r, "run", "fixture:ok", "-d", "0x10");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: --duration '0x10': expected a number of seconds > 0 (at most 31536000)");
	bc_test_run_free(&r);
	RUN(&r, "--plugin-dir", "", "list");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: --plugin-dir '': expected a directory of plugin .so files");
	bc_test_run_free(&r);

	/* A suite's own arguments: refused once, before any run. */
	PATHF(suite, "%s/three.suite", root);
	bc_test_write_file(suite, "# three runs\nrun fixture:ok\nrun fixture:ok -p1\nrun fixture:ok -w0\n");
	RUN(&r, "suite", "--suite-file", suite, "--sweep", "producers=");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: suite: --sweep 'producers=': empty value; expected OPTION=V1,V2,...");
	assert_int_equal(r.out[0], '\0');
	bc_test_run_free(&r);
	RUN(&r, "suite", "--suite-file", suite, "-d", "abc");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: suite: --duration 'abc': expected a number of seconds > 0 (at most 31536000)");
	assert_int_equal(r.out[0], '\0');
	bc_test_run_free(&r);
}

/* A second file every compare case below starts from. */
static void write_doc(const char *path, const char *mean)
{
	char text[1024];

	PATHF(text, "{\"plugin\": \"fixture\", \"benchmark\": \"ok\", \"config\": {},"
		    " \"summary\": {\"hits\": {\"unit\": \"ops/s\", \"mean\": %s, \"stddev\": 0,"
		    " \"n\": 1}}, \"status\": {\"exit_status\": 0}}\n", mean);
	bc_test_write_file(path, text);
}

static void test_compare_validates(void **state)
{
	char good[PATH_MAX], bad[PATH_MAX], line[PATH_MAX * 2];
	struct bc_test_run r;

	(void)state;
	PATHF(good, "%s/good.json", root);
	PATHF(bad, "%s/bad.json", root);
	write_doc(good, "5");
	RUN(&r, "compare", good, good);
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);

	write_doc(bad, "\"abc\"");
	RUN(&r, "compare", good, bad);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	PATHF(line, "benchcore: not a benchcore result: %s: summary.hits.mean: expected a finite number", bad);
	bc_test_assert_line(&r, line);
	bc_test_run_free(&r);
	/* JSON has no infinity: the reader refuses the number itself. */
	write_doc(bad, "1e999");
	RUN(&r, "compare", bad, good);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	PATHF(line, "benchcore: compare: %s: offset 106: real number overflow near '1e999'", bad);
	bc_test_assert_line(&r, line);
	assert_int_equal(strlen(r.err), strlen(line) + 1);	/* that line alone */
	bc_test_run_free(&r);
	/* What a crash can leave: the reader names the zero byte, not "end of file". */
	bc_test_write_file(bad, "");
	assert_int_equal(truncate(bad, 4096), 0);
	RUN(&r, "compare", bad, good);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	PATHF(line, "benchcore: compare: %s: offset 0: byte 0x00 (JSON text holds no zero bytes)", bad);
	bc_test_assert_line(&r, line);
	bc_test_run_free(&r);
	RUN(&r, "compare", "/dev/zero", good);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: not a benchcore result: /dev/zero: larger than 64 MiB");
	bc_test_run_free(&r);
}

/* Every error path: exit status not 0, and a reason on every line. */
static void test_no_empty_reason(void **state)
{
	static const char *const cases[][12] = {
		{ "run" },
		{ "run", "nope:nope" },
		{ "run", "fixture:ok", "--bogus" },
		{ "run", "fixture:ok", "-d", "" },
		{ "run", "fixture:ok", "-p", "99999" },
		{ "run", "fixture:ok", "--prod-affinity", "3-1" },
		{ "run", "fixture:ok", "--format", "xml" },
		{ "run", "fixture:ok", "--output", "" },
		{ "run", "fixture:ok", "--output", "/nonexistent/dir/x" },
		{ "run", "fixture:ok", "--output", "/" },
		{ "run", "fixture:ok", "--sweep", "producers" },
		{ "run", "fixture:ok", "--sweep", "=1" },
		{ "run", "fixture:ok", "--sweep", "nope=1" },
		{ "run", "fixture:ok", "--sweep", "producers=1", "--run-timeout", "x" },
		{ "run", "fixture:unavailable", "-w0", "-d1" },
		{ "run", "fixture:setup-fails", "-w0", "-d1" },
		{ "list", "extra" },
		{ "suite" },
		{ "suite", "no-such-suite" },
		{ "suite", "--suite-file", "/nonexistent" },
		{ "suite", "--suite-file", "x", "--label", "y" },
		{ "compare" },
		{ "compare", "/nonexistent", "/nonexistent" },
		{ "compare", "/dev/null", "/dev/null" },
		{ "compare", "a", "b", "--alpha", "2" },
		{ "nope" },
		{ "--plugin-dir", "/nonexistent", "list" },
	};
	struct bc_test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[256] = "";
		size_t off = 0;

		for (size_t j = 0; cases[i][j] && off < sizeof(what); j++)
			off += (size_t)snprintf(what + off, sizeof(what) - off, " %s", cases[i][j]);
		run_to(&r, NULL, cases[i]);
		if (r.status == 0)
			fail_msg("benchcore%s: exit 0", what);
		assert_reasons_said(&r, what);
		bc_test_run_free(&r);
	}
}

/* ------------------------------------------------------- interrupted */

static void test_interrupted_counts_measured(void **state)
{
	const char *args[] = { "run", "fixture:ok", "-w1", "-d60", NULL };
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	struct bc_test_child c;
	struct bc_test_run r;
	char want[256], *out;
	size_t measured = 0;
	int i;

	(void)state;
	start(&c, NULL, args);
	/* Wait (bounded) for the first measured iteration's line. */
	for (i = 0; i < BOUND_SEC * 50; i++) {
		out = bc_test_slurp_fd(fileno(c.out));
		if (strstr(out, "Iter   1")) {
			free(out);
			break;
		}
		free(out);
		nanosleep(&nap, NULL);
	}
	assert_int_equal(kill(c.pid, SIGINT), 0);
	bc_test_child_finish(&c, &r, BOUND_SEC);
	bc_test_assert_status(&r, BC_EXIT_INTERRUPTED);
	for (const char *p = r.out; (p = strstr(p, "Iter ")); p++) {
		const char *eol = strchr(p, '\n');

		if (!eol || !memmem(p, (size_t)(eol - p), "[warm-up]", 9))
			measured++;
	}
	assert_true(measured >= 1);
	PATHF(want, "benchcore: fixture:ok: interrupted; the summary covers the %zu iterations measured so far",
	      measured);
	bc_test_assert_line(&r, want);
	bc_test_run_free(&r);
}

/* ------------------------------------------------------------- setup */

static int setup(void **state)
{
	const char *const files[] = { BC_LOADER_FIXTURES "/mixed/fixture.so", NULL };

	(void)state;
	return bc_test_scratch_make(BC_TEST_BUILD_DIR "/tests/reliability", root, plugins, work, files);
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_kept_unless_produced),
		cmocka_unit_test(test_output_kept_when_killed),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_refused_in_one_line),
		cmocka_unit_test(test_compare_validates),
		cmocka_unit_test(test_no_empty_reason),
		cmocka_unit_test(test_interrupted_counts_measured),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
