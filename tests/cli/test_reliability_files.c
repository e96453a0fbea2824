// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Round 3 of docs/reliability.md, files, parsing and JSON, through the
 * real binary with the count plugin and the loader's valid fixture plugin
 * (neither needs BPF):
 *  - suite files are capped and must be regular files; a zero byte is an
 *    error; every row's benchmark and options are checked before any runs;
 *  - sweeps refuse options that cannot be swept, and the run cap counts
 *    processes;
 *  - --output is replaced only when a row measured something, works up to
 *    NAME_MAX, creates a dangling link's target, and is never an input;
 *  - every string in a JSON document is UTF-8; compare ends when memory
 *    runs out; plot keeps ±1e308 apart;
 *  - long options are written in full, and -d records what was measured.
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "exit_status.h"
#include "json_read.h"
#include "bc_test_child.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))
#define BOUND_SEC 120

static char root[PATH_MAX];
static char plugins[PATH_MAX];	/* fixture.so and count.so */
static char work[PATH_MAX];

static void start(struct bc_test_child *c, const char *const *args)
{
	const char *argv[80] = { BC_TEST_BENCHCORE, "--plugin-dir", plugins };
	size_t n = 3;

	while (*args && n < 79)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(c, argv, NULL, work);
}

static void run_args(struct bc_test_run *r, const char *const *args)
{
	struct bc_test_child c;

	start(&c, args);
	bc_test_child_finish(&c, r, BOUND_SEC);
}

#define RUN(r, ...) run_args((r), (const char *const[]){ __VA_ARGS__, NULL })

/* Exit status 2 and exactly this line on stderr. */
static void assert_refused(struct bc_test_run *r, const char *line)
{
	bc_test_assert_status(r, BC_EXIT_USAGE);
	bc_test_assert_line(r, line);
	bc_test_run_free(r);
}

static void assert_file(const char *path, const char *want)
{
	char *got = bc_test_read_file(path);

	if (!got)
		fail_msg("%s: %s", path, strerror(errno));
	if (strcmp(got, want))
		fail_msg("%s holds:\n%s\nexpected:\n%s", path, got, want);
	free(got);
}

/* Does this file parse as JSON with our own reader (as compare does)? */
static void assert_json_file(const char *path)
{
	char err[256];
	struct bc_json *doc = bc_json_parse_file(path, err, sizeof(err));

	if (!doc)
		fail_msg("%s: %s", path, err);
	bc_json_free(doc);
}

/* -------------------------------------------------------- suite files */

static void test_suite_file_kinds(void **state)
{
	struct bc_test_run r;
	char big[4096];
	FILE *f;

	(void)state;
	RUN(&r, "suite", "--suite-file", "/dev/zero");
	assert_refused(&r, "benchcore: suite file '/dev/zero': not a regular file; expected a regular file");
	assert_int_equal(mkdir("adir", 0755), 0);
	RUN(&r, "suite", "--suite-file", "adir");
	assert_refused(&r, "benchcore: suite file 'adir': is a directory; expected a regular file");
	rmdir("adir");

	/* 2 MiB of comment: past the cap, refused without reading it all */
	f = fopen("big.suite", "w");
	assert_non_null(f);
	memset(big, '#', sizeof(big));
	for (int i = 0; i < 512; i++)
		assert_int_equal(fwrite(big, 1, sizeof(big), f), sizeof(big));
	fclose(f);
	RUN(&r, "suite", "--suite-file", "big.suite");
	assert_refused(&r, "benchcore: big.suite: larger than 1024 KiB; expected a suite file");
	unlink("big.suite");

	/* a zero byte would have cut "-d 3" off the line */
	f = fopen("nul.suite", "w");
	assert_non_null(f);
	fputs("# ok\nrun fixture:ok -w0", f);
	fputc('\0', f);
	fputs(" -d 3\n", f);
	fclose(f);
	RUN(&r, "suite", "--suite-file", "nul.suite");
	assert_refused(&r, "benchcore: nul.suite:2: a zero byte in the line; expected text");
	unlink("nul.suite");
}

static void test_suite_checks_every_row_first(void **state)
{
	struct bc_test_run r;

	(void)state;
	bc_test_write_file("late.suite", "run fixture:ok -w0 -d1\nheader B\nrun fixture:nosuch -w0 -d1\n");
	RUN(&r, "suite", "--suite-file", "late.suite");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "benchcore: late.suite:3: unknown benchmark 'fixture:nosuch'"));
	/* nothing ran: no row, no table */
	assert_string_equal(r.out, "");
	bc_test_run_free(&r);

	bc_test_write_file("late.suite", "run count:count-local -w0 -d1\nrun count:count-local --bogus 3\n");
	RUN(&r, "suite", "--suite-file", "late.suite");
	assert_string_equal(r.out, "");
	assert_refused(&r, "benchcore: late.suite:2: unrecognized option '--bogus'");

	bc_test_write_file("late.suite", "run count:count-local -w0 -d1\nrun count:count-local --count-batch x\n");
	RUN(&r, "suite", "--suite-file", "late.suite");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "benchcore: late.suite:2: --count-batch 'x'"));
	bc_test_run_free(&r);
	unlink("late.suite");
}

/* ------------------------------------------------------------- sweeps */

static void test_sweep_refuses_up_front(void **state)
{
	struct bc_test_run r;

	(void)state;
	RUN(&r, "sweep", "count:count-local", "--sweep", "output=a,b");
	assert_refused(&r, "benchcore: --sweep 'output=a,b': option 'output' cannot be swept; expected an option of the run (--format, --output, --help, --usage, --version and the batch's own options cannot)");
	RUN(&r, "sweep", "count:count-local", "--sweep", "help=on");
	assert_refused(&r, "benchcore: --sweep 'help=on': option 'help' cannot be swept; expected an option of the run (--format, --output, --help, --usage, --version and the batch's own options cannot)");
	/* an unknown option of a benchmark the parent cannot resolve */
	RUN(&r, "sweep", "nosuch:x", "--sweep", "bogus=1,2");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "benchcore: row 'bogus=1': unknown plugin 'nosuch'"));
	assert_null(strstr(r.err, "Try "));
	bc_test_run_free(&r);
	/* processes, not rows: 11 rows x 1000 runs */
	RUN(&r, "sweep", "count:count-local", "--sweep", "p=1,2,3,4,5,6,7,8,9,10,11", "--repeat",
	    "1000");
	assert_refused(&r, "benchcore: 11000 runs or more in all (rows times --repeat, or --precision's --max-repeat); at most 10000 runs in one command (docs/suites.md)");
}

/* ------------------------------------------------------------ --output */

static void test_interrupted_in_warmup_keeps_output(void **state)
{
	const char *sweep[] = { "sweep", "fixture:ok", "-w30", "-d1", "--sweep", "p=1,2",
				"--output", "t.txt", NULL };
	struct timespec nap = { .tv_sec = 2 };
	struct bc_test_child c;
	struct bc_test_run r;

	(void)state;
	bc_test_write_file("t.txt", "OLD\n");
	/* 30 s of warm-up: whenever the signal lands, nothing was measured */
	start(&c, sweep);
	nanosleep(&nap, NULL);
	assert_int_equal(kill(c.pid, SIGINT), 0);
	bc_test_child_finish(&c, &r, BOUND_SEC);
	bc_test_assert_status(&r, BC_EXIT_INTERRUPTED);
	bc_test_run_free(&r);
	assert_file("t.txt", "OLD\n");
	unlink("t.txt");
}

static void test_output_names(void **state)
{
	char name[300], *text;
	struct bc_test_run r;
	struct stat st;

	(void)state;
	/* 255 bytes: legal, and it must hold the run */
	memset(name, 'a', 255);
	name[255] = '\0';
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "-q", "--output", name);
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	assert_int_equal(stat(name, &st), 0);
	assert_true(st.st_size > 0);
	unlink(name);
	/* 256 bytes: refused before the run */
	memset(name, 'b', 256);
	name[256] = '\0';
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "--output", name);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "File name too long; expected a file that can be written"));
	assert_null(strstr(r.out, "Summary"));
	bc_test_run_free(&r);

	/* a dangling link: its target is created, the link stays */
	assert_int_equal(mkdir("sub", 0755), 0);
	assert_int_equal(symlink("sub/target.txt", "link.txt"), 0);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "-q", "--output", "link.txt");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	assert_int_equal(lstat("link.txt", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	text = bc_test_read_file("sub/target.txt");
	assert_non_null(text);
	assert_non_null(strstr(text, "Summary"));
	free(text);
	unlink("link.txt");
	unlink("sub/target.txt");
	rmdir("sub");
}

static void test_output_is_not_an_input(void **state)
{
	struct bc_test_run r;

	(void)state;
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "-q", "--format", "json", "--output", "a.json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	RUN(&r, "run", "fixture:ok", "-w0", "-d1", "-q", "--format", "json", "--output", "b.json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	assert_int_equal(symlink("a.json", "alias.json"), 0);
	RUN(&r, "compare", "a.json", "b.json", "--output", "./alias.json");
	assert_refused(&r, "benchcore: --output './alias.json': is the input 'a.json'; expected another file");
	RUN(&r, "plot", "b.json", "-o", "b.json");
	assert_refused(&r, "benchcore: -o 'b.json': is the input 'b.json'; expected another file");
	assert_json_file("a.json");
	assert_json_file("b.json");

	/* a directory as an input, and a plugin directory with no plugin */
	assert_int_equal(mkdir("adir", 0755), 0);
	RUN(&r, "compare", "a.json", "adir");
	assert_refused(&r, "benchcore: compare: adir: is a directory; expected a JSON file");
	{
		const char *argv[] = { BC_TEST_BENCHCORE, "--plugin-dir", "adir", "list", NULL };
		struct bc_test_child c;

		bc_test_child_start(&c, argv, NULL, work);
		bc_test_child_finish(&c, &r, BOUND_SEC);
		assert_refused(&r, "benchcore: --plugin-dir 'adir': holds no plugin (.so) files; expected a directory of plugin .so files");
	}
	rmdir("adir");
	unlink("alias.json");
	unlink("a.json");
	unlink("b.json");
}

/* --------------------------------------------------------------- JSON */

static void test_json_is_utf8(void **state)
{
	struct bc_test_run r;

	(void)state;
	RUN(&r, "sweep", "fixture:ok", "-w0", "-d1", "-q", "--sweep", "p=1", "--label",
	    "bad\xff\xfe-\xc3\xa9", "--format", "json", "--output", "u.json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_assert_line(&r, "benchcore: warning: a string written to JSON (a label, a header, a path) held bytes that are not UTF-8; each was replaced by U+FFFD");
	bc_test_run_free(&r);
	assert_json_file("u.json");
	{
		char *text = bc_test_read_file("u.json");

		assert_non_null(strstr(text, "\"bad\\ufffd\\ufffd-\xc3\xa9\""));
		free(text);
	}
	/* benchcore reads its own result back */
	RUN(&r, "compare", "u.json", "u.json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	unlink("u.json");
}

static void test_compare_out_of_memory(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)state;
	skip();		/* ASan's shadow memory needs more than the limit */
#else
	char cmd[PATH_MAX * 2];
	struct bc_test_child c;
	struct bc_test_run r;
	const char *argv[] = { "sh", "-c", cmd, NULL };
	FILE *f;

	(void)state;
	/* a 60 MB string: jansson retried the failed allocation per byte */
	f = fopen("big.json", "w");
	assert_non_null(f);
	fputs("{\"summary\": {}, \"pad\": \"", f);
	for (int i = 0; i < 60 * 1024; i++) {
		static char kb[1024];

		if (!kb[0])
			memset(kb, 'x', sizeof(kb));
		assert_int_equal(fwrite(kb, 1, sizeof(kb), f), sizeof(kb));
	}
	fputs("\"}\n", f);
	fclose(f);
	bc_test_write_file("small.json", "{}\n");
	PATHF(cmd, "ulimit -v 100000 && exec '%s' compare big.json small.json", BC_TEST_BENCHCORE);
	bc_test_child_start(&c, argv, NULL, work);
	bc_test_child_finish(&c, &r, BOUND_SEC);
	assert_true(r.status == BC_EXIT_USAGE || r.status == BC_EXIT_FAILED);
	assert_non_null(strstr(r.err, "benchcore: compare: big.json: out of memory reading "));
	bc_test_run_free(&r);
	unlink("big.json");
	unlink("small.json");
#endif
}

/* A sweep document whose swept values span the doubles. */
static void test_plot_huge_values(void **state)
{
	/* sweep documents store the values typed, as numbers */
	const char *from[] = { "\"count-batch\": 1}", "\"count-batch\": 2}",
			       "\"count-batch\": 3}" };
	const char *to[] = { "\"count-batch\": -1e308}", "\"count-batch\": 0}",
			     "\"count-batch\": 1e308}" };
	struct bc_test_run r;
	char *text, *p, seen[3][32] = { "" };
	size_t distinct = 0;

	(void)state;
	RUN(&r, "sweep", "count:count-local", "-w0", "-d1", "-q", "--sweep", "count-batch=1,2,3",
	    "--format", "json", "--output", "s.json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	text = bc_test_read_file("s.json");
	assert_non_null(text);
	for (size_t i = 0; i < 3; i++) {
		p = strstr(text, from[i]);
		assert_non_null(p);
		/* same length or longer: rebuild the text around it */
		{
			char *grown;

			*p = '\0';
			assert_true(asprintf(&grown, "%s%s%s", text, to[i], p + strlen(from[i])) > 0);
			free(text);
			text = grown;
		}
	}
	bc_test_write_file("s.json", text);
	free(text);
	RUN(&r, "plot", "s.json", "-o", "s.svg", "-q");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	text = bc_test_read_file("s.svg");
	assert_non_null(text);
	/* the points' circles: three places, not one */
	for (p = text; (p = strstr(p, "<circle cx=\"")); p++) {
		char x[32];
		bool known = false;

		sscanf(p + 12, "%31[^\"]", x);
		for (size_t i = 0; i < distinct; i++)
			known |= !strcmp(seen[i], x);
		if (!known && distinct < 3)
			snprintf(seen[distinct++], sizeof(seen[0]), "%s", x);
	}
	free(text);
	assert_int_equal(distinct, 3);
	unlink("s.json");
	unlink("s.svg");
}

/* --------------------------------------------------- option spelling */

/* The global options and list's go through the same check as run's; the
 * hand-parsed commands (compare, plot, suite, sweep) match names exactly. */
static void test_every_command_in_full(void **state)
{
	struct bc_test_run r;

	(void)state;
	RUN(&r, "--plugin-d", plugins, "list");
	assert_refused(&r, "benchcore: '--plugin-d' is not an option; write an option's full name (did you mean --plugin-dir?)");
	RUN(&r, "--verb", "list");
	assert_refused(&r, "benchcore: '--verb' is not an option; write an option's full name (did you mean --verbose?)");
	RUN(&r, "--allow=1", "list");
	assert_refused(&r, "benchcore: '--allow' is not an option; write an option's full name (did you mean --allow-unsafe-plugins?)");
	RUN(&r, "list", "--form", "json");
	assert_refused(&r, "benchcore: list: '--form' is not an option; write an option's full name (did you mean --format?)");
	RUN(&r, "list", "--pro");
	assert_refused(&r, "benchcore: list: '--pro' is not an option; write an option's full name (did you mean --probe?)");

	/* After the command, a word is the command's: run's check names it */
	RUN(&r, "--quiet", "run", "count:count-local", "--dur", "1");
	assert_refused(&r, "benchcore: run: '--dur' is not an option; write an option's full name (did you mean --duration?)");
	/* full names, and a value that looks like a prefix, are accepted */
	RUN(&r, "--quiet", "list", "--format=json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "\"count:count-local\""));
	bc_test_run_free(&r);
	RUN(&r, "run", "count:count-local", "-w0", "-d1", "-q", "--output", "--dur");
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	assert_int_equal(access("--dur", F_OK), 0);
	unlink("--dur");

	/* the hand-parsed commands take no prefix either */
	RUN(&r, "compare", "a.json", "b.json", "--out", "c.json");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	RUN(&r, "plot", "a.json", "--outp", "c.svg");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	RUN(&r, "suite", "--suite-f", "x.suite");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	RUN(&r, "run", "count:count-local", "--swe", "count-batch=1,2");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
}

static void test_options_in_full(void **state)
{
	struct bc_test_run r;

	(void)state;
	RUN(&r, "run", "count:count-local", "-w0", "--dur", "1");
	assert_refused(&r, "benchcore: run: '--dur' is not an option; write an option's full name (did you mean --duration?)");
	RUN(&r, "run", "count:count-local", "-w0", "-d1", "--count", "5");
	assert_refused(&r, "benchcore: run: '--count' is not an option; write an option's full name (did you mean --count-batch?)");
	RUN(&r, "run", "count:count-local", "-w0", "-d1", "--count-b=5");
	assert_refused(&r, "benchcore: run: '--count-b' is not an option; write an option's full name (did you mean --count-batch?)");

	/* -d 0.5 measures one whole tick, and says so */
	RUN(&r, "run", "count:count-local", "-w0", "-d", "0.5", "--count-batch", "5", "-q",
	    "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "\"duration_sec\": 1"));
	assert_null(strstr(r.out, "\"duration_sec\": 0.5"));
	bc_test_run_free(&r);
}

/* ------------------------------------------------------------- setup */

static int setup(void **state)
{
	const char *const files[] = { BC_LOADER_FIXTURES "/mixed/fixture.so", BC_TEST_PLUGIN_DIR "/count.so", NULL };

	(void)state;
	return bc_test_scratch_make(BC_TEST_BUILD_DIR "/tests/relfiles", root, plugins, work, files);
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_file_kinds),
		cmocka_unit_test(test_suite_checks_every_row_first),
		cmocka_unit_test(test_sweep_refuses_up_front),
		cmocka_unit_test(test_interrupted_in_warmup_keeps_output),
		cmocka_unit_test(test_output_names),
		cmocka_unit_test(test_output_is_not_an_input),
		cmocka_unit_test(test_json_is_utf8),
		cmocka_unit_test(test_compare_out_of_memory),
		cmocka_unit_test(test_plot_huge_values),
		cmocka_unit_test(test_options_in_full),
		cmocka_unit_test(test_every_command_in_full),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
