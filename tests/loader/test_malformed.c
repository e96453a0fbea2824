// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The malformed-plugin corpus through the real binary, as a hostile or
 * unlucky user meets it: plugins built from the installed header that crash
 * or exit while loading, block in setup, call exit() in a callback, files
 * that are not shared objects, and plugin files, directories and parents
 * others can write. Each case asserts the exact line, the exit status, and
 * that the valid fixture plugin beside it still lists and runs.
 * docs/reliability.md is the table of these cases.
 */
#define _GNU_SOURCE
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

/* Generous: only a hang that never ends reaches it. */
#define BOUND_SEC 120

static char root[PATH_MAX];

static void start(struct bc_test_child *c, const char *const *args)
{
	const char *argv[64] = { BC_TEST_BENCHCORE };
	size_t n = 1;

	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(c, argv, NULL, NULL);
}

static void run(struct bc_test_run *r, const char *const *args)
{
	struct bc_test_child c;

	start(&c, args);
	bc_test_child_finish(&c, r, BOUND_SEC);
}

#define RUN(r, ...) run((r), (const char *const[]){ __VA_ARGS__, NULL })

static void copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	in = open(src, O_RDONLY);
	if (in < 0)
		fail_msg("%s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	close(in);
	assert_int_equal(fchmod(out, mode), 0);
	close(out);
}

static void make_dir(char *buf, size_t len, const char *parent, const char *name, mode_t mode)
{
	assert_true(snprintf(buf, len, "%s/%s", parent, name) < (int)len);
	assert_int_equal(mkdir(buf, 0755), 0);
	assert_int_equal(chmod(buf, mode), 0);
}

/* dir/<file> from a fixture of tests/loader/fixtures/<subdir>. */
static void put_fixture(const char *dir, const char *subdir, const char *file)
{
	char src[PATH_MAX], dst[PATH_MAX];

	PATHF(src, "%s/%s/%s", BC_LOADER_FIXTURES, subdir, file);
	PATHF(dst, "%s/%s", dir, file);
	copy_file(src, dst, 0755);
}

/* A directory holding the valid fixture and `file` (from `subdir`). */
static void corpus_dir(char *dir, size_t len, const char *name, const char *subdir,
		       const char *file)
{
	make_dir(dir, len, root, name, 0755);
	put_fixture(dir, "mixed", "fixture.so");
	if (file)
		put_fixture(dir, subdir, file);
}

/* The valid plugin beside the bad one: listed, and runs. */
static void assert_good_runs(const char *const *dirs, const char *bad_line)
{
	const char *args[16];
	struct bc_test_run r;
	size_t n = 0;

	for (; *dirs; dirs++) {
		args[n++] = "--plugin-dir";
		args[n++] = *dirs;
	}
	args[n++] = "list";
	args[n] = NULL;
	run(&r, args);
	bc_test_assert_status(&r, BC_EXIT_OK);
	if (!strstr(r.out, "fixture:ok"))
		fail_msg("fixture:ok not listed:\n%s\n%s", r.out, r.err);
	if (bad_line)
		bc_test_assert_line(&r, bad_line);
	bc_test_run_free(&r);

	args[n - 1] = "run";
	args[n++] = "fixture:ok";
	args[n++] = "-w0";
	args[n++] = "-d1";
	args[n++] = "-q";
	args[n] = NULL;
	run(&r, args);
	bc_test_assert_status(&r, BC_EXIT_OK);
	if (!strstr(r.out, "Summary"))
		fail_msg("no summary from fixture:ok:\n%s\n%s", r.out, r.err);
	if (bad_line)
		bc_test_assert_line(&r, bad_line);
	bc_test_run_free(&r);
}

static void assert_one_dir(const char *dir, const char *file, const char *reason)
{
	const char *dirs[] = { dir, NULL };
	char line[PATH_MAX * 2];

	PATHF(line, "benchcore: %s/%s: %s", dir, file, reason);
	assert_good_runs(dirs, line);
}

/* ------------------------------------------------------------ loading */

/*
 * Under AddressSanitizer the child's SIGSEGV is caught by the sanitizer, which
 * prints its report and (with abort_on_error=1, as scripts/test.sh sets it)
 * ends the child with SIGABRT: the loader reports the signal that really
 * ended the child, so the expected line follows the build.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BC_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BC_TEST_ASAN 1
#endif

#ifdef BC_TEST_ASAN
#define CRASH_REASON "crashed while loading: killed by signal 6 (Aborted)"
#else
#define CRASH_REASON "crashed while loading: killed by signal 11 (Segmentation fault)"
#endif

static void test_crashing_constructor(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	corpus_dir(dir, sizeof(dir), "crash", "corpus", "crash.so");
	assert_one_dir(dir, "crash.so", CRASH_REASON);
}

static void test_exiting_constructor(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	corpus_dir(dir, sizeof(dir), "exitctor", "corpus", "exitctor.so");
	assert_one_dir(dir, "exitctor.so",
		       "exited with status 3 while loading (a constructor called exit())");
}

/*
 * One child inspects a whole directory: each bad constructor still costs
 * exactly its own line, wherever it comes in the directory's order, and
 * the files after it load (a new child takes them).
 */
static void test_bad_constructors_in_a_row(void **state)
{
	char dir[PATH_MAX], line[PATH_MAX * 2];
	const char *args[] = { "--plugin-dir", dir, "list", NULL };
	struct bc_test_run r;

	(void)state;
	corpus_dir(dir, sizeof(dir), "inarow", "corpus", "crash.so");
	put_fixture(dir, "corpus", "exitctor.so");
	put_fixture(dir, "other", "other.so");
	run(&r, args);
	bc_test_assert_status(&r, BC_EXIT_OK);
	PATHF(line, "benchcore: %s/crash.so: %s", dir, CRASH_REASON);
	bc_test_assert_line(&r, line);
	PATHF(line, "benchcore: %s/exitctor.so: exited with status 3 while loading (a constructor called exit())",
	      dir);
	bc_test_assert_line(&r, line);
	if (!strstr(r.out, "fixture:ok") || !strstr(r.out, "other:shared"))
		fail_msg("the plugins after the bad ones did not load:\n%s\n%s", r.out, r.err);
	bc_test_run_free(&r);
}

static void test_not_elf_and_empty(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX];
	FILE *f;

	(void)state;
	corpus_dir(dir, sizeof(dir), "notelf", NULL, NULL);
	PATHF(path, "%s/text.so", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not an ELF file\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	assert_one_dir(dir, "text.so", "not a loadable shared object: not an ELF file");

	corpus_dir(dir, sizeof(dir), "empty", NULL, NULL);
	PATHF(path, "%s/empty.so", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	assert_one_dir(dir, "empty.so", "not a loadable shared object: empty file (0 bytes)");
}

static void test_descriptor_refusals(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	/* Zero metrics: refused at load, not run with a latency of inf. */
	corpus_dir(dir, sizeof(dir), "nometrics", "mixed", "nometrics.so");
	assert_one_dir(dir, "nometrics.so",
		       "benchmark 'no-metrics' declares no metrics; at least one expected");
	/* A benchmark name with a blank, as plugin names are refused. */
	corpus_dir(dir, sizeof(dir), "blank", "mixed", "blank.so");
	assert_one_dir(dir, "blank.so", "benchmark name 'two words' contains ':' or a blank");
}

/* ------------------------------------------------------------ security */

static void test_writable_file(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX];

	(void)state;
	corpus_dir(dir, sizeof(dir), "wfile", "other", "other.so");
	PATHF(path, "%s/other.so", dir);
	assert_int_equal(chmod(path, 0777), 0);
	assert_one_dir(dir, "other.so",
		       "file is writable by group or others; a writable plugin file gives root to anyone who can write there (use --allow-unsafe-plugins to load anyway)");
}

static void test_writable_dir_and_parent(void **state)
{
	char bad[PATH_MAX], parent[PATH_MAX], sticky[PATH_MAX], inner[PATH_MAX],
		gooddir[PATH_MAX], line[PATH_MAX * 3];
	const char *dirs[3] = { NULL, NULL, NULL };

	(void)state;
	make_dir(gooddir, sizeof(gooddir), root, "gooddir", 0755);
	put_fixture(gooddir, "mixed", "fixture.so");

	/* The directory itself. */
	make_dir(bad, sizeof(bad), root, "wdir", 0777);
	put_fixture(bad, "other", "other.so");
	dirs[0] = gooddir;
	dirs[1] = bad;
	PATHF(line, "benchcore: %s: directory is writable by group or others; a writable plugin directory gives root to anyone who can write there (use --allow-unsafe-plugins to load anyway)",
	      bad);
	assert_good_runs(dirs, line);

	/* A safe directory inside one anyone may write, not sticky. */
	make_dir(parent, sizeof(parent), root, "wparent", 0777);
	make_dir(inner, sizeof(inner), parent, "plugins", 0755);
	put_fixture(inner, "other", "other.so");
	dirs[1] = inner;
	PATHF(line, "benchcore: %s: parent directory %s is writable by group or others and not sticky; whoever can write there can replace the plugin directory (use --allow-unsafe-plugins to load anyway)",
	      inner, parent);
	assert_good_runs(dirs, line);

	/* The same under a sticky parent (as /tmp): loaded. */
	make_dir(sticky, sizeof(sticky), root, "sticky", 01777);
	make_dir(inner, sizeof(inner), sticky, "plugins", 0755);
	put_fixture(inner, "other", "other.so");
	{
		struct bc_test_run r;

		RUN(&r, "--plugin-dir", inner, "list");
		bc_test_assert_status(&r, BC_EXIT_OK);
		if (!strstr(r.out, "other:shared"))
			fail_msg("other.so under a sticky parent did not load:\n%s", r.err);
		bc_test_run_free(&r);
	}
}

/* ------------------------------------------------------- run time */

static void test_exit_in_callback(void **state)
{
	char dir[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	corpus_dir(dir, sizeof(dir), "exits", "corpus", "exits.so");
	RUN(&r, "--plugin-dir", dir, "run", "exits:exit-setup", "-w0", "-d1");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: exits:exit-setup: plugin called exit(7) in setup");
	bc_test_run_free(&r);

	RUN(&r, "--plugin-dir", dir, "run", "exits:exit-producer", "-w0", "-d1", "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: exits:exit-producer: plugin called exit(9) in producer 0");
	bc_test_run_free(&r);

	/* A sweep row says why, rather than "no reason given". */
	RUN(&r, "--plugin-dir", dir, "run", "exits:exit-setup", "-w0", "-d1", "-q",
	    "--sweep", "producers=1");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	if (!strstr(r.out, "plugin called exit(7) in setup") || strstr(r.out, "no reason given"))
		fail_msg("sweep row:\n%s", r.out);
	bc_test_run_free(&r);

	assert_good_runs((const char *const[]){ dir, NULL }, NULL);
}

/* Waits (bounded) until the child's stderr holds `text`. */
static void wait_for_err(struct bc_test_child *c, const char *text)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	char *err;
	int i;

	for (i = 0; i < BOUND_SEC * 50; i++) {
		err = bc_test_slurp_fd(fileno(c->err));
		if (strstr(err, text)) {
			free(err);
			return;
		}
		free(err);
		nanosleep(&nap, NULL);
	}
	kill(c->pid, SIGKILL);
	fail_msg("benchcore never said '%s'", text);
}

static void hang_and_interrupt(const char *dir, int sig)
{
	const char *args[] = { "--plugin-dir", dir, "run", "hangs:setup-hangs", "-w0", "-d1", NULL };
	struct bc_test_child c;
	struct bc_test_run r;

	start(&c, args);
	wait_for_err(&c, "fixture setup blocks now");
	/* The first signal asks the run to stop; setup does not return. */
	assert_int_equal(kill(c.pid, sig), 0);
	wait_for_err(&c, "benchcore: hangs:setup-hangs: waiting for setup to return; interrupt again to exit without waiting");
	assert_int_equal(kill(c.pid, sig), 0);
	bc_test_child_finish(&c, &r, BOUND_SEC);
	bc_test_assert_status(&r, BC_EXIT_INTERRUPTED);
	bc_test_assert_line(&r, "benchcore: hangs:setup-hangs: interrupted again while blocked in setup; exiting without waiting for it");
	bc_test_run_free(&r);
}

static void test_hanging_setup(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	corpus_dir(dir, sizeof(dir), "hangs", "corpus", "hangs.so");
	hang_and_interrupt(dir, SIGINT);
	hang_and_interrupt(dir, SIGTERM);
	assert_good_runs((const char *const[]){ dir, NULL }, NULL);
}

/* ------------------------------------------------------------- setup */

static int setup(void **state)
{
	(void)state;
	PATHF(root, "%s/tests/malformed-XXXXXX", BC_TEST_BUILD_DIR);
	if (!mkdtemp(root))
		return -1;
	chmod(root, 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crashing_constructor),
		cmocka_unit_test(test_exiting_constructor),
		cmocka_unit_test(test_bad_constructors_in_a_row),
		cmocka_unit_test(test_not_elf_and_empty),
		cmocka_unit_test(test_descriptor_refusals),
		cmocka_unit_test(test_writable_file),
		cmocka_unit_test(test_writable_dir_and_parent),
		cmocka_unit_test(test_exit_in_callback),
		cmocka_unit_test(test_hanging_setup),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
