// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore compare` through the real binary, against hand-written
 * documents with known answers (compare/): Welch's and Mann-Whitney's p
 * values, summaries without iterations, unmatched runs said rather than
 * dropped, a different kernel warned about, the four formats carrying the
 * same verdicts; and a malformed or foreign file refused in one line that
 * names it, with exit status 2.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "child.h"
#include "exit_status.h"
#include "json_read.h"

#define FIX BC_TEST_COMPARE_FIXTURES

static char tmpdir[] = "/tmp/benchcore-compare-test.XXXXXX";

/* Runs benchcore with the given words; stdout and stderr captured. */
static int run_cli(struct bc_child_result *r, const char *first, ...)
{
	const char *argv[64] = { BC_TEST_BENCHCORE };
	size_t n = 1;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && n < 63; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	assert_int_equal(bc_child_run(BC_TEST_BENCHCORE, (char *const *)argv, 300, r), 0);
	if (!r->exited)
		fail_msg("benchcore died: signal %d; stderr: %s", r->term_signal, r->err);
	return r->exit_code;
}

static struct bc_json *parse_out(const struct bc_child_result *r)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(r->out, r->out_len, err, sizeof(err));

	if (!doc)
		fail_msg("stdout is not JSON (%s): %.400s\nstderr: %.400s", err, r->out, r->err);
	return doc;
}

static const char *str_at(const struct bc_json *v, const char *k1, const char *k2)
{
	const struct bc_json *x = bc_json_get(v, k1);

	return bc_json_str(k2 ? bc_json_get(x, k2) : x);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const struct bc_json *comparison(const struct bc_json *doc, const char *config)
{
	const struct bc_json *comps = bc_json_get(doc, "comparisons");

	for (size_t i = 0; i < bc_json_len(comps); i++)
		if (!strcmp(str_at(bc_json_at(comps, i), "configuration", NULL), config))
			return bc_json_at(comps, i);
	fail_msg("no comparison for '%s'", config);
	return NULL;
}

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_compare_fixtures(void **state)
{
	struct bc_child_result r;
	const struct bc_json *c;
	struct bc_json *doc;
	int rc;

	(void)state;
	rc = run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", "--format", "json", NULL);
	assert_int_equal(rc, 0);
	doc = parse_out(&r);
	/* +10 %, t = 10 with df = 8: p = 8.488e-6 (warm-up excluded) */
	c = comparison(doc, "producers=1 consumers=0");
	near(bc_json_num(bc_json_get(c, "change_pct"), 0), 10.0, 1e-9);
	near(bc_json_num(bc_json_get(c, "p_value"), 1), 8.488182e-06, 1e-10);
	assert_string_equal(str_at(c, "test", NULL), "welch");
	assert_string_equal(str_at(c, "verdict", NULL), "significant");
	assert_int_equal((int)bc_json_num(bc_json_get(c, "n_base"), 0), 5);
	/* +0.1 % inside the noise: p = 0.6185 */
	c = comparison(doc, "producers=2 consumers=0");
	near(bc_json_num(bc_json_get(c, "change_pct"), 0), 0.1, 1e-9);
	near(bc_json_num(bc_json_get(c, "p_value"), 0), 0.6185319, 1e-6);
	assert_string_equal(str_at(c, "verdict", NULL), "not significant");
	/* two iterations a side */
	c = comparison(doc, "producers=1 consumers=0 count-batch=4");
	near(bc_json_num(bc_json_get(c, "change_pct"), 0), 100.0 * 10 / 51, 1e-9);
	assert_string_equal(str_at(c, "verdict", NULL), "too few samples");
	assert_true(bc_json_is_null(bc_json_get(c, "p_value")));
	/* not dropped silently */
	assert_int_equal(bc_json_len(bc_json_get(doc, "only_in_base")), 1);
	assert_string_equal(str_at(bc_json_at(bc_json_get(doc, "only_in_base"), 0), "configuration",
				   NULL), "producers=1 consumers=0");
	assert_int_equal(bc_json_len(bc_json_get(doc, "only_in_new")), 1);
	assert_int_equal(bc_json_len(bc_json_get(doc, "comparisons")), 3);
	/* different kernels: a warning in the document and on stderr */
	assert_non_null(strstr(bc_json_str(bc_json_at(bc_json_get(doc, "warnings"), 0)),
			       "kernel differs: base 6.18.0, new 6.19.0"));
	assert_non_null(strstr(r.err, "kernel differs"));
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* Mann-Whitney: U = 0 of 25, p = 0.01219 */
	rc = run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", "--format", "json", "--test",
		     "mann-whitney", NULL);
	assert_int_equal(rc, 0);
	doc = parse_out(&r);
	c = comparison(doc, "producers=1 consumers=0");
	assert_string_equal(str_at(c, "test", NULL), "mann-whitney");
	near(bc_json_num(bc_json_get(c, "p_value"), 1), 0.0121858, 1e-6);
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* summaries only (no iterations): Welch from mean, stddev and n */
	rc = run_cli(&r, "compare", FIX "/stats-base.json", FIX "/stats-new.json", "--format", "json",
		     NULL);
	assert_int_equal(rc, 0);
	doc = parse_out(&r);
	c = comparison(doc, "producers=1 consumers=0");
	near(bc_json_num(bc_json_get(c, "change_pct"), 0), 3.0, 1e-9);
	near(bc_json_num(bc_json_get(c, "p_value"), 1), 0.0035327, 1e-6);
	assert_string_equal(str_at(c, "verdict", NULL), "significant");
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* text, markdown and csv carry the same verdicts */
	rc = run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "+10.00%  welch p=8.49e-06 (significant)"));
	assert_non_null(strstr(r.out, "too few samples"));
	assert_non_null(strstr(r.out, "only in base"));
	bc_child_result_free(&r);
	rc = run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", "--format", "markdown", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "| count:count-local | producers=2 consumers=0 | hits | "
				      "200.0M ops/s | 200.2M ops/s | +0.10% | welch p=0.619 (not significant) |"));
	bc_child_result_free(&r);
	rc = run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", "--format", "csv", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "count:count-local,producers=1 consumers=0,hits,ops/s,"
				      "100000000,110000000,10.000000,welch,"));
	bc_child_result_free(&r);
}

/* Two runs whose program under test grew: one line under the row, the
 * same facts in JSON; a program whose facts stayed, or that a document
 * gives without facts (before issue 38), says nothing. */
static void test_compare_programs(void **state)
{
	const struct bc_json *pc, *ch;
	struct bc_child_result r;
	struct bc_json *doc;

	(void)state;
	assert_int_equal(run_cli(&r, "compare", FIX "/progs-base.json", FIX "/progs-new.json", NULL),
			 0);
	assert_non_null(strstr(r.out, "\n  trig_tp: 34 \xe2\x86\x92 41 insns, jited 212 \xe2\x86\x92 260 bytes\n"));
	assert_null(strstr(r.out, "  drv:"));
	assert_null(strstr(r.out, "  same:"));
	bc_child_result_free(&r);

	assert_int_equal(run_cli(&r, "compare", FIX "/progs-base.json", FIX "/progs-new.json",
				 "--format", "json", NULL), 0);
	doc = parse_out(&r);
	pc = bc_json_get(doc, "program_changes");
	assert_int_equal(bc_json_len(pc), 1);
	assert_string_equal(str_at(bc_json_at(pc, 0), "program", NULL), "trig_tp");
	ch = bc_json_get(bc_json_at(pc, 0), "changes");
	assert_int_equal(bc_json_len(ch), 2);
	assert_string_equal(str_at(bc_json_at(ch, 0), "fact", NULL), "xlated_insns");
	near(bc_json_num(bc_json_get(bc_json_at(ch, 0), "base"), 0), 34, 0);
	near(bc_json_num(bc_json_get(bc_json_at(ch, 0), "new"), 0), 41, 0);
	assert_string_equal(str_at(bc_json_at(ch, 1), "fact", NULL), "jited_bytes");
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* documents before the facts: none */
	assert_int_equal(run_cli(&r, "compare", FIX "/stats-base.json", FIX "/stats-new.json",
				 "--format", "json", NULL), 0);
	doc = parse_out(&r);
	assert_int_equal(bc_json_len(bc_json_get(doc, "program_changes")), 0);
	bc_json_free(doc);
	bc_child_result_free(&r);
}

static void test_compare_malformed(void **state)
{
	static const char *const bad[] = { FIX "/truncated.json", FIX "/not-benchcore.json",
					   FIX "/does-not-exist.json" };
	struct bc_child_result r;
	char junk[512];

	(void)state;
	snprintf(junk, sizeof(junk), "%s/junk.json", tmpdir);
	write_file(junk, "{\"runs\": [1, 2,, 3]}");
	for (size_t i = 0; i < 4; i++) {
		const char *path = i < 3 ? bad[i] : junk;
		const char *name = strrchr(path, '/') + 1;

		assert_int_equal(run_cli(&r, "compare", FIX "/base.json", path, NULL), BC_EXIT_USAGE);
		/* one clear line naming the file */
		assert_non_null(strstr(r.err, name));
		assert_non_null(strchr(r.err, '\n'));
		assert_null(strchr(strchr(r.err, '\n') + 1, '\n'));
		assert_int_equal(r.out_len, 0);
		bc_child_result_free(&r);
	}
	assert_int_equal(run_cli(&r, "compare", FIX "/base.json", NULL), BC_EXIT_USAGE);
	bc_child_result_free(&r);
	assert_int_equal(run_cli(&r, "compare", FIX "/base.json", FIX "/new.json", "--alpha", "2",
				 NULL), BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "--alpha '2'"));
	bc_child_result_free(&r);
}

static int setup_tmp(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_fixtures),
		cmocka_unit_test(test_compare_programs),
		cmocka_unit_test(test_compare_malformed),
	};

	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
