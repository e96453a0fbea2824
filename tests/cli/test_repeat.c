// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * run --repeat and --precision through the real binary with count:count-local
 * (no BPF, one-second runs): the JSON holds every run and the aggregate, the
 * text keeps the Summary line last with the Repeats line before it,
 * --precision ends at its target or at a cap and says which, compare tests
 * the runs, a sweep passes --repeat on, and every bad value is one line and
 * exit status 2. Nothing here depends on how fast the machine is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "exit_status.h"
#include "bc_test_child.h"
#include "json.h"
#include "json_read.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static char root[PATH_MAX];
static char count_dir[PATH_MAX];	/* a private copy of count.so */

/* Runs benchcore --plugin-dir count_dir ARGS... (NULL-terminated). */
static void run(struct bc_test_run *r, ...)
{
	const char *argv[64];
	struct bc_test_child c;
	int argc = 0;
	const char *arg;
	va_list ap;

	argv[argc++] = BC_TEST_BENCHCORE;
	argv[argc++] = "--plugin-dir";
	argv[argc++] = count_dir;
	va_start(ap, r);
	while ((arg = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 240);
}

static struct bc_json *parse_out(const struct bc_test_run *r)
{
	char err[256];
	struct bc_json *doc;

	if (r->status != BC_EXIT_OK)
		fail_msg("exit %d, stderr:\n%s", r->status, r->err);
	doc = bc_json_parse(r->out, strlen(r->out), err, sizeof(err));
	if (!doc)
		fail_msg("not JSON: %s\n%s", err, r->out);
	return doc;
}

static int setup(void **state)
{
	char dst[PATH_MAX + 16], buf[65536];
	ssize_t n;
	int in, out;

	(void)state;
	PATHF(root, "%s/tests/repeat-XXXXXX", BC_TEST_BUILD_DIR);
	if (!mkdtemp(root))
		return -1;
	chmod(root, 0755);
	/* A copy of mode 0755: the builder's umask cannot make it unsafe. */
	PATHF(count_dir, "%s/count", root);
	if (mkdir(count_dir, 0755) || chmod(count_dir, 0755))
		return -1;
	PATHF(dst, "%s/count.so", count_dir);
	in = open(BC_TEST_PLUGIN_DIR "/count.so", O_RDONLY);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	fchmod(out, 0755);
	close(out);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

/* Exit status 2 and exactly this one line on stderr. */
static void assert_usage_line(struct bc_test_run *r, const char *line)
{
	size_t lines = 0;

	for (const char *p = r->err; *p; p++)
		lines += *p == '\n';
	if (r->status != BC_EXIT_USAGE || lines != 1 || !strstr(r->err, line))
		fail_msg("expected exit 2 and the one line\n  %s\ngot exit %d, stderr:\n%s", line,
			 r->status, r->err);
	bc_test_run_free(r);
}

static void test_bad_values(void **state)
{
	struct bc_test_run r;

	(void)state;
	run(&r, "run", "count:count-local", "--repeat", "0", NULL);
	assert_usage_line(&r, "benchcore: --repeat '0': expected a whole number of runs from 1 to 1000");
	run(&r, "run", "count:count-local", "--repeat=abc", NULL);
	assert_usage_line(&r, "benchcore: --repeat 'abc': expected a whole number of runs from 1 to 1000");
	run(&r, "run", "count:count-local", "--precision", "-1", NULL);
	assert_usage_line(&r, "benchcore: --precision '-1': expected a percentage above 0 and at most 100");
	run(&r, "run", "count:count-local", "--precision", "abc", NULL);
	assert_usage_line(&r, "benchcore: --precision 'abc': expected a percentage above 0 and at most 100");
	run(&r, "run", "count:count-local", "--precision", "0", NULL);
	assert_usage_line(&r, "benchcore: --precision '0': expected a percentage above 0 and at most 100");
	run(&r, "run", "count:count-local", "--precision", "1", "--max-repeat", "2", NULL);
	assert_usage_line(&r, "benchcore: --max-repeat '2': expected a whole number of runs from 3 to 1000");
	run(&r, "run", "count:count-local", "--precision", "1", "--max-time", "-5", NULL);
	assert_usage_line(&r, "benchcore: --max-time '-5': expected a number of seconds > 0");
	run(&r, "run", "count:count-local", "--max-repeat", "5", NULL);
	assert_usage_line(&r, "benchcore: --max-repeat 5: only with --precision PCT");
	run(&r, "run", "count:count-local", "--precision", "1", "--repeat", "8", "--max-repeat", "5",
	    NULL);
	assert_usage_line(&r, "benchcore: --max-repeat 5: expected at least --repeat 8");
	/* A sweep refuses the value before any row runs. */
	run(&r, "run", "count:count-local", "--repeat", "0", "--sweep", "producers=1", NULL);
	assert_usage_line(&r, "benchcore: --repeat '0': expected a whole number of runs from 1 to 1000");
}

static void test_repeat_json(void **state)
{
	struct bc_test_run r;
	struct bc_json *doc;
	const struct bc_json *rep, *runs, *agg, *iters;
	double mean, half;

	(void)state;
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "3", "--format", "json", "-q",
	    NULL);
	doc = parse_out(&r);
	rep = bc_json_get(doc, "repeats");
	assert_non_null(rep);
	assert_string_equal(bc_json_str(bc_json_get(rep, "ended_by")), "repeat");
	assert_int_equal(bc_json_num(bc_json_get(rep, "repeat"), 0), 3);
	assert_int_equal(bc_json_num(bc_json_get(rep, "runs_complete"), 0), 3);
	assert_string_equal(bc_json_str(bc_json_get(rep, "watched")), "hits");
	/* Each run's own means. */
	runs = bc_json_get(rep, "runs");
	assert_int_equal(bc_json_len(runs), 3);
	for (size_t k = 0; k < 3; k++) {
		const struct bc_json *run_k = bc_json_at(runs, k);

		assert_int_equal(bc_json_num(bc_json_get(run_k, "index"), -1), k);
		assert_true(bc_json_bool(bc_json_get(run_k, "complete"), false));
		assert_int_equal(bc_json_num(bc_json_get(run_k, "measured_iterations"), 0), 1);
		assert_true(bc_json_num(bc_json_get(bc_json_get(run_k, "values"), "hits"), 0) > 0);
	}
	/* The aggregate: mean of the run means, its interval, the CV. */
	agg = bc_json_get(bc_json_get(rep, "aggregate"), "hits");
	assert_int_equal(bc_json_num(bc_json_get(agg, "n"), 0), 3);
	mean = bc_json_num(bc_json_get(agg, "mean"), NAN);
	half = bc_json_num(bc_json_get(agg, "ci95_half"), NAN);
	assert_true(mean > 0);
	assert_true(half >= 0);
	assert_true(bc_json_num(bc_json_get(agg, "ci95_low"), NAN) <= mean);
	assert_true(bc_json_num(bc_json_get(agg, "ci95_high"), NAN) >= mean);
	assert_true(bc_json_num(bc_json_get(agg, "cv_pct"), NAN) >= 0);
	assert_true(fabs(bc_json_num(bc_json_get(agg, "t"), NAN) - 4.302653) < 1e-5);
	assert_non_null(bc_json_get(bc_json_get(bc_json_get(rep, "figures"), "per_producer"), "ci95_half"));
	/* The same interval beside the pooled summary, where plot looks. */
	{
		const struct bc_json *ci = bc_json_get(bc_json_get(bc_json_get(doc, "summary"), "hits"),
						       "ci95");

		assert_int_equal(bc_json_num(bc_json_get(ci, "runs"), 0), 3);
		assert_true(fabs(bc_json_num(bc_json_get(ci, "half_width"), NAN) - half) <=
			    1e-9 * mean);
		assert_true(fabs(bc_json_num(bc_json_get(ci, "low"), NAN) - (mean - half)) <=
			    1e-9 * mean);
	}
	/* The pooled iterations say their run; with one tick each, the
	 * summary's mean is the mean of the run means. */
	iters = bc_json_get(doc, "iterations");
	assert_int_equal(bc_json_len(iters), 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(bc_json_num(bc_json_get(bc_json_at(iters, i), "run"), -1), i);
	assert_true(fabs(bc_json_num(bc_json_get(bc_json_get(bc_json_get(doc, "summary"), "hits"),
						 "mean"), NAN) - mean) <= 1e-9 * mean);
	assert_int_equal(bc_json_num(bc_json_get(bc_json_get(doc, "status"), "exit_status"), -1), 0);
	bc_json_free(doc);
	bc_test_run_free(&r);
}

/* The last line of s, and the one before it. */
static void last_lines(const char *s, char *last, char *before, size_t len)
{
	const char *end = s + strlen(s), *p, *q;

	while (end > s && end[-1] == '\n')
		end--;
	for (p = end; p > s && p[-1] != '\n'; p--)
		;
	snprintf(last, len, "%.*s", (int)(end - p), p);
	q = p > s ? p - 1 : s;
	for (p = q; p > s && p[-1] != '\n'; p--)
		;
	snprintf(before, len, "%.*s", (int)(q - p), p);
}

static void test_repeat_text(void **state)
{
	char last[1024], before[1024];
	struct bc_test_run r;

	(void)state;
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "2", NULL);
	if (r.status != BC_EXIT_OK)
		fail_msg("exit %d, stderr:\n%s", r.status, r.err);
	assert_non_null(strstr(r.out, "Run 1 of 2\n"));
	assert_non_null(strstr(r.out, "Run 2 of 2\n"));
	/* The runner's scripts take the last line: still the Summary. */
	last_lines(r.out, last, before, sizeof(last));
	if (strncmp(last, "Summary: hits ", 14) ||
	    strncmp(before, "Repeats: 2 runs (--repeat 2): hits ", 35) ||
	    !strstr(before, "95% CI") || !strstr(before, "run-to-run CV"))
		fail_msg("expected the Repeats line, then the Summary line last; got\n%s", r.out);
	bc_test_run_free(&r);
	/* --repeat 1 is a plain run. */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "1", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_null(strstr(r.out, "Repeats:"));
	assert_null(strstr(r.out, "Run 1"));
	bc_test_run_free(&r);
}

static void test_precision_target_or_cap(void **state)
{
	const struct bc_json *rep, *agg;
	struct bc_json *doc;
	struct bc_test_run r;
	const char *end;
	double ci;

	(void)state;
	/* The fewest runs and the cap are both 3: whatever the machine, three
	 * runs, ended by the target if their interval is within 100 %, else by
	 * the cap; either way the document must agree with itself. */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--precision", "100", "--max-repeat", "3",
	    "--format", "json", "-q", NULL);
	doc = parse_out(&r);
	rep = bc_json_get(doc, "repeats");
	end = bc_json_str(bc_json_get(rep, "ended_by"));
	assert_non_null(end);
	assert_int_equal(bc_json_num(bc_json_get(rep, "runs_complete"), 0), 3);
	assert_int_equal(bc_json_num(bc_json_get(rep, "precision_pct"), 0), 100);
	assert_int_equal(bc_json_num(bc_json_get(rep, "max_repeat"), 0), 3);
	agg = bc_json_get(bc_json_get(rep, "aggregate"), "hits");
	ci = bc_json_num(bc_json_get(agg, "ci95_pct"), NAN);
	if (!strcmp(end, "precision"))
		assert_true(ci <= 100);
	else if (!strcmp(end, "max-repeat"))
		assert_true(!(ci <= 100));
	else
		fail_msg("ended_by '%s': expected precision or max-repeat", end);
	bc_json_free(doc);
	bc_test_run_free(&r);

	/* A time cap shorter than one run: the first run, then the cap. */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--precision", "0.001", "--max-time",
	    "0.5", "--format", "json", "-q", NULL);
	doc = parse_out(&r);
	rep = bc_json_get(doc, "repeats");
	assert_string_equal(bc_json_str(bc_json_get(rep, "ended_by")), "max-time");
	assert_int_equal(bc_json_num(bc_json_get(rep, "runs_complete"), 0), 1);
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void test_compare_uses_runs(void **state)
{
	char base[PATH_MAX + 16], new[PATH_MAX + 16];
	const struct bc_json *c;
	struct bc_json *doc;
	struct bc_test_run r;

	(void)state;
	PATHF(base, "%s/base.json", root);
	PATHF(new, "%s/new.json", root);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "3", "--format", "json", "-q",
	    NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	bc_test_write_file(base, r.out);
	bc_test_run_free(&r);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "3", "--format", "json", "-q",
	    NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	bc_test_write_file(new, r.out);
	bc_test_run_free(&r);

	run(&r, "compare", base, new, "--format", "json", NULL);
	doc = parse_out(&r);
	c = bc_json_at(bc_json_get(doc, "comparisons"), 0);
	assert_string_equal(bc_json_str(bc_json_get(c, "metric")), "hits");
	assert_string_equal(bc_json_str(bc_json_get(c, "samples")), "runs");
	assert_int_equal(bc_json_num(bc_json_get(c, "n_base"), 0), 3);
	assert_int_equal(bc_json_num(bc_json_get(c, "n_new"), 0), 3);
	assert_non_null(bc_json_str(bc_json_get(c, "test")));
	bc_json_free(doc);
	bc_test_run_free(&r);
	run(&r, "compare", base, new, NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "over 3+3 runs"));
	bc_test_run_free(&r);
}

static void test_sweep_passes_repeat(void **state)
{
	const struct bc_json *res;
	struct bc_json *doc;
	struct bc_test_run r;

	(void)state;
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "2", "--sweep", "producers=1",
	    "--format", "json", "-q", NULL);
	doc = parse_out(&r);
	res = bc_json_get(bc_json_at(bc_json_get(doc, "runs"), 0), "result");
	assert_int_equal(bc_json_num(bc_json_get(bc_json_get(res, "repeats"), "runs_complete"), 0), 2);
	bc_json_free(doc);
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_repeat_json),
		cmocka_unit_test(test_repeat_text),
		cmocka_unit_test(test_precision_target_or_cap),
		cmocka_unit_test(test_compare_uses_runs),
		cmocka_unit_test(test_sweep_passes_repeat),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
