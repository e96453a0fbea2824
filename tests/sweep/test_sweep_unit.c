// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for sweeps, suites and compare: the significance tests against
 * known values (textbook critical values, closed forms, and p-values checked
 * by numerical integration of the t density), --sweep parsing and expansion,
 * the suite format, the shipped suites, child processes (exit, crash,
 * timeout), and a histogram's columns in every table format.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "batch.h"
#include "loader.h"
#include "core_opts.h"
#include "report_table.h"
#include "significance.h"
#include "sweep_axis.h"
#include "child.h"
#include "words.h"
#include "suite.h"
#include "row.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* ------------------------------------------------------------ numerics */

static void test_incbeta_closed_forms(void **state)
{
	(void)state;
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b;
	 * I_0.5(a, a) = 1/2 */
	for (double x = 0.05; x < 1.0; x += 0.1) {
		near(bc_incbeta(1, 1, x), x, 1e-12);
		near(bc_incbeta(3.5, 1, x), pow(x, 3.5), 1e-12);
		near(bc_incbeta(1, 2.5, x), 1 - pow(1 - x, 2.5), 1e-12);
	}
	near(bc_incbeta(7, 7, 0.5), 0.5, 1e-12);
	near(bc_incbeta(0.5, 0.5, 0.5), 0.5, 1e-12);
	assert_true(bc_incbeta(2, 3, 0) == 0.0);
	assert_true(bc_incbeta(2, 3, 1) == 1.0);
	assert_true(isnan(bc_incbeta(-1, 3, 0.5)));
}

static void test_student_t(void **state)
{
	(void)state;
	/* textbook two-sided 5% critical values */
	near(bc_student_t_p2(12.706, 1), 0.05, 5e-5);
	near(bc_student_t_p2(2.228, 10), 0.05001177, 1e-6);
	near(bc_student_t_p2(-2.086, 20), 0.04999635, 1e-6);
	/* closed forms: df 1 (Cauchy) and df 2 */
	for (double t = 0.1; t < 50; t *= 1.7) {
		near(bc_student_t_p2(t, 1), 1 - 2 / M_PI * atan(t), 1e-10);
		near(bc_student_t_p2(t, 2), 1 - t / sqrt(t * t + 2), 1e-10);
	}
	/* non-integer df, checked by numerical integration */
	near(bc_student_t_p2(1.5, 3.7), 0.2135982, 1e-6);
	near(bc_student_t_p2(10, 8), 8.488182e-06, 1e-10);
	assert_true(bc_student_t_p2(0, 5) == 1.0);
	assert_true(bc_student_t_p2(INFINITY, 5) == 0.0);
}

static void test_welch(void **state)
{
	/* Welch's unequal-variance example: t = 2.2255, df = 24.52, p = 0.0355 */
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
				    23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	static const double c[] = { 200, 200.5, 199.5 }, d[] = { 200.2, 199.8, 200.6 };
	static const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6 };
	struct bc_sig_result r;

	(void)state;
	assert_int_equal(bc_welch_test(a, 10, b, 20, &r), 0);
	assert_true(r.valid);
	assert_string_equal(r.test, "welch");
	near(r.statistic, 2.2255120, 1e-6);
	near(r.df, 24.524635, 1e-5);
	near(r.p, 0.0354845, 1e-6);

	assert_int_equal(bc_welch_test(c, 3, d, 3, &r), 0);
	near(r.statistic, 0.5410018, 1e-6);
	near(r.df, 3.8161180, 1e-6);
	near(r.p, 0.6185319, 1e-6);

	/* no noise: equal is p = 1, different is p = 0 */
	assert_int_equal(bc_welch_test(same, 3, same, 3, &r), 0);
	assert_true(r.p == 1.0);
	assert_int_equal(bc_welch_test(same, 3, other, 3, &r), 0);
	assert_true(r.p == 0.0);

	/* too few samples */
	assert_int_equal(bc_welch_test(a, 2, b, 20, &r), -EDOM);
	assert_false(r.valid);
}

static void test_mann_whitney(void **state)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	static const double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 5 };
	static const double same[] = { 7, 7, 7, 7 };
	struct bc_sig_result r;

	(void)state;
	/* U = 0; mu = 4.5, sigma^2 = 5.25; z = (4.5 - 0.5) / sqrt(5.25) */
	assert_int_equal(bc_mann_whitney_test(a, 3, b, 3, &r), 0);
	assert_string_equal(r.test, "mann-whitney");
	near(r.statistic, 0.0, 1e-12);
	near(r.p, 0.0808556, 1e-6);
	/* symmetric */
	assert_int_equal(bc_mann_whitney_test(b, 3, a, 3, &r), 0);
	near(r.statistic, 9.0, 1e-12);
	near(r.p, 0.0808556, 1e-6);
	/* ties share average ranks and shrink the variance */
	assert_int_equal(bc_mann_whitney_test(ta, 4, tb, 4, &r), 0);
	near(r.statistic, 2.5, 1e-12);
	near(r.p, 0.1366582, 1e-6);
	/* all equal */
	assert_int_equal(bc_mann_whitney_test(same, 4, same, 4, &r), 0);
	assert_true(r.p == 1.0);
	assert_int_equal(bc_mann_whitney_test(a, 3, b, 2, &r), -EDOM);
}

/* ------------------------------------------------------------- sweeps */

static void test_axis_parse(void **state)
{
	struct bc_sweep_axis ax;
	char err[256];

	(void)state;
	assert_int_equal(bc_sweep_axis_parse("producers=1,2,4", &ax, err, sizeof(err)), 0);
	assert_int_equal(ax.name_cnt, 1);
	assert_string_equal(ax.names[0], "producers");
	assert_int_equal(ax.value_cnt, 3);
	assert_string_equal(ax.values[2], "4");
	bc_sweep_axis_free(&ax);

	/* leading dashes are tolerated; several names share each value */
	assert_int_equal(bc_sweep_axis_parse("--rb-batch-cnt,rb-sample-rate=1,5", &ax, err,
					     sizeof(err)), 0);
	assert_int_equal(ax.name_cnt, 2);
	assert_string_equal(ax.names[0], "rb-batch-cnt");
	assert_string_equal(ax.names[1], "rb-sample-rate");
	assert_int_equal(ax.value_cnt, 2);
	bc_sweep_axis_free(&ax);

	/* a value may hold '=' and ',' splits only values */
	assert_int_equal(bc_sweep_axis_parse("x=a=b", &ax, err, sizeof(err)), 0);
	assert_string_equal(ax.values[0], "a=b");
	bc_sweep_axis_free(&ax);

	assert_int_equal(bc_sweep_axis_parse("producers", &ax, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'producers'"));
	assert_non_null(strstr(err, "OPTION=V1,V2"));
	assert_int_equal(bc_sweep_axis_parse("=1,2", &ax, err, sizeof(err)), -EINVAL);
	assert_int_equal(bc_sweep_axis_parse("p=1,,2", &ax, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty value"));
	assert_int_equal(bc_sweep_axis_parse("p=", &ax, err, sizeof(err)), -EINVAL);
	assert_int_equal(bc_sweep_axis_parse("a,,b=1", &ax, err, sizeof(err)), -EINVAL);
	assert_int_equal(bc_sweep_axis_parse("--=1", &ax, err, sizeof(err)), -EINVAL);
}

static void test_combinations(void **state)
{
	struct bc_sweep_axis ax[2];
	size_t choice[2];
	char err[128];

	(void)state;
	assert_int_equal(bc_sweep_combination_cnt(NULL, 0), 1);
	assert_int_equal(bc_sweep_axis_parse("producers=1,2", &ax[0], err, sizeof(err)), 0);
	assert_int_equal(bc_sweep_axis_parse("count-batch=1,2,3", &ax[1], err, sizeof(err)), 0);
	assert_int_equal(bc_sweep_combination_cnt(ax, 2), 6);
	/* the first --sweep is the outer loop */
	bc_sweep_combination(ax, 2, 0, choice);
	assert_int_equal(choice[0], 0);
	assert_int_equal(choice[1], 0);
	bc_sweep_combination(ax, 2, 2, choice);
	assert_int_equal(choice[0], 0);
	assert_int_equal(choice[1], 2);
	bc_sweep_combination(ax, 2, 3, choice);
	assert_int_equal(choice[0], 1);
	assert_int_equal(choice[1], 0);
	bc_sweep_combination(ax, 2, 5, choice);
	assert_int_equal(choice[0], 1);
	assert_int_equal(choice[1], 2);
	bc_sweep_axis_free(&ax[0]);
	bc_sweep_axis_free(&ax[1]);
}

/* A benchmark with a typed option table, as the loader leaves it. */
struct sw_opts {
	bool sampled;
	int64_t batch;
	int mode;
};

static const char *const sw_modes[] = { "task", "socket", NULL };

static struct bc_option sw_table[] = {
	BC_OPT_FLAG(struct sw_opts, sampled, "rb-sampled", .help = "sample"),
	BC_OPT_INT(struct sw_opts, batch, "rb-batch-cnt", .min = 1, .max = 4000, .def = "500"),
	BC_OPT_ENUM(struct sw_opts, mode, "mode", .words = sw_modes),
};

static void sw_bench(struct bc_plugin *p, struct bc_bench *b, bool table)
{
	memset(p, 0, sizeof(*p));
	memset(b, 0, sizeof(*b));
	p->desc.name = "sw";
	if (table) {
		p->desc.opts_size = sizeof(struct sw_opts);
		p->options = sw_table;
		p->option_cnt = 3;
	}
	p->benches = b;
	p->bench_cnt = 1;
	b->desc.name = "b";
	b->plugin = p;
}

static void expect_arg(const struct bc_bench *b, const char *name, const char *value,
		       const char *want)
{
	char err[256] = "", *a = (char *)"unset";

	assert_int_equal(bc_sweep_option_arg(b, name, value, &a, err, sizeof(err)), 0);
	if (!want) {
		assert_null(a);
		return;
	}
	assert_non_null(a);
	assert_string_equal(a, want);
	free(a);
}

static void expect_refused(const struct bc_bench *b, const char *name, const char *value,
			   const char *line)
{
	char err[256] = "", *a = NULL;

	assert_int_equal(bc_sweep_option_arg(b, name, value, &a, err, sizeof(err)), -EINVAL);
	assert_null(a);
	assert_string_equal(err, line);
}

static void test_option_arg(void **state)
{
	struct bc_plugin p;
	struct bc_bench b;

	(void)state;
	sw_bench(&p, &b, true);
	/* core options: their own forms */
	expect_arg(&b, "producers", "2", "--producers=2");
	expect_arg(&b, "p", "2", "-p2");
	expect_arg(&b, "affinity", "on", "--affinity");
	expect_arg(&b, "a", "yes", "-a");
	expect_arg(&b, "affinity", "0", NULL);
	expect_refused(&b, "affinity", "maybe",
		       "--affinity 'maybe': expected on or off (also true/false, yes/no, 1/0)");
	/* a declared flag: every flag word, nothing at all for off */
	expect_arg(&b, "rb-sampled", "on", "--rb-sampled");
	expect_arg(&b, "rb-sampled", "true", "--rb-sampled");
	expect_arg(&b, "rb-sampled", "1", "--rb-sampled");
	expect_arg(&b, "rb-sampled", "off", NULL);
	expect_arg(&b, "rb-sampled", "no", NULL);
	expect_refused(&b, "rb-sampled", "2",
		       "--rb-sampled '2': expected on or off (also true/false, yes/no, 1/0)");
	/* values are checked by their type before anything runs */
	expect_arg(&b, "rb-batch-cnt", "50", "--rb-batch-cnt=50");
	expect_refused(&b, "rb-batch-cnt", "0",
		       "--rb-batch-cnt '0': expected an integer from 1 to 4000");
	expect_arg(&b, "mode", "socket", "--mode=socket");
	expect_refused(&b, "mode", "inode", "--mode 'inode': expected one of: task, socket");
	expect_refused(&b, "nope", "1",
		       "--sweep: sw:b has no option 'nope' (`benchcore run sw:b --help` lists them)");
	/* a benchmark the parent cannot resolve: the rows' runs say why */
	expect_arg(NULL, "nope", "on", "--nope=on");
	/* a plugin without an option table has nothing to sweep but the
	 * core's options */
	sw_bench(&p, &b, false);
	expect_arg(&b, "producers", "2", "--producers=2");
	expect_refused(&b, "rb-sampled", "on",
		       "--sweep: sw:b has no option 'rb-sampled' (`benchcore run sw:b --help` lists them)");
}

static void test_split_words(void **state)
{
	char **w;
	size_t n;
	char err[128];

	(void)state;
	assert_int_equal(bc_split_words("  run  a 'b c' \"d \\\"e\\\"\" f\\ g ''", &w, &n, err,
					sizeof(err)), 0);
	assert_int_equal(n, 6);
	assert_string_equal(w[0], "run");
	assert_string_equal(w[1], "a");
	assert_string_equal(w[2], "b c");
	assert_string_equal(w[3], "d \"e\"");
	assert_string_equal(w[4], "f g");
	assert_string_equal(w[5], "");
	bc_words_free(w, n);
	assert_int_equal(bc_split_words("", &w, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	bc_words_free(w, n);
	assert_int_equal(bc_split_words("a 'b", &w, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unterminated"));
}

/* -------------------------------------------------------------- suites */

static int parse_text(const char *text, struct bc_suite *s, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	ret = bc_suite_parse("t.suite", f, s, err, len);
	fclose(f);
	return ret;
}

static void test_suite_parse(void **state)
{
	struct bc_suite s;
	char err[512];

	(void)state;
	assert_int_equal(parse_text("# Demo suite: two runs\n"
				    "# more comment\n"
				    "\n"
				    "header First table\n"
				    "  run count:count-local -p2   # not a comment: a word\n"
				    "run count:count-global --label 'global {producers}' --sweep producers=1,2\n",
				    &s, err, sizeof(err)), 0);
	assert_string_equal(s.description, "Demo suite: two runs");
	assert_int_equal(s.item_cnt, 3);
	assert_int_equal(s.items[0].kind, BC_SUITE_HEADER);
	assert_string_equal(s.items[0].text, "First table");
	assert_int_equal(s.items[1].kind, BC_SUITE_RUN);
	assert_int_equal(s.items[1].line, 5);
	assert_string_equal(s.items[1].args[0], "count:count-local");
	assert_int_equal(s.items[2].arg_cnt, 5);
	assert_string_equal(s.items[2].args[2], "global {producers}");
	bc_suite_free(&s);

	assert_int_equal(parse_text("header A\nrun x:y\nbogus line\n", &s, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "t.suite:3:"));
	assert_non_null(strstr(err, "'bogus'"));
	assert_int_equal(parse_text("run\n", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.suite:1:"));
	assert_int_equal(parse_text("header\n", &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(parse_text("run x:y 'oops\n", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unterminated"));
	assert_int_equal(parse_text("# only a comment\n", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no 'run' lines"));
}

/* Every shipped suite parses and every one of its lines expands. */
static void test_shipped_suites(void **state)
{
	const char *dir = BC_TEST_SOURCE_DIR "/suites";
	const char *expect[] = { "ringbufs", "trigger", "local-storage", "xdp-lb",
				 "local-storage-rcu-tasks-trace" };
	struct bc_batch_opts bo = { .kind = "suite", .name = "t" };

	(void)state;
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		char path[512], err[512] = "";
		struct bc_suite s;
		struct bc_batch *b;
		size_t runs = 0;

		snprintf(path, sizeof(path), "%s/%s.suite", dir, expect[i]);
		if (bc_suite_load(path, &s, err, sizeof(err)))
			fail_msg("%s", err);
		assert_non_null(s.description);
		b = bc_batch_new(&bo);
		assert_non_null(b);
		for (size_t k = 0; k < s.item_cnt; k++) {
			if (s.items[k].kind != BC_SUITE_RUN)
				continue;
			runs++;
			if (bc_batch_add_run(b, NULL, s.items[k].args, s.items[k].arg_cnt, err,
					     sizeof(err)))
				fail_msg("%s:%u: %s", path, s.items[k].line, err);
		}
		assert_true(runs > 0);
		bc_batch_free(b);
		bc_suite_free(&s);
	}
}

/* ------------------------------------------------------------- children */

static void test_child_exit_and_output(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct bc_child_result r;

	(void)state;
	assert_int_equal(bc_child_run("/bin/sh", argv, 10, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_code, 3);
	assert_false(r.timed_out);
	assert_string_equal(r.out, "out\n");
	assert_string_equal(r.err, "err\n");
	bc_child_result_free(&r);
}

static void test_child_crash(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
	struct bc_child_result r;

	(void)state;
	assert_int_equal(bc_child_run("/bin/sh", argv, 10, &r), 0);
	assert_false(r.exited);
	assert_int_equal(r.term_signal, SIGSEGV);
	bc_child_result_free(&r);
}

static void test_child_timeout(void **state)
{
	/* Ignores SIGTERM, and leaves a grandchild in its group: both go. */
	char *argv[] = { "/bin/sh", "-c", "trap '' TERM; sleep 60 & sleep 60; wait", NULL };
	struct bc_child_result r;

	(void)state;
	assert_int_equal(bc_child_run("/bin/sh", argv, 0.3, &r), 0);
	assert_true(r.timed_out);
	assert_false(r.exited);
	assert_int_equal(r.term_signal, SIGKILL);
	bc_child_result_free(&r);
}

static void test_child_exec_failure(void **state)
{
	char *argv[] = { "/nonexistent/benchcore", NULL };
	struct bc_child_result r;

	(void)state;
	assert_int_equal(bc_child_run("/nonexistent/benchcore", argv, 10, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_code, 127);
	assert_non_null(strstr(r.err, "cannot run"));
	bc_child_result_free(&r);
}

static void test_table_format(void **state)
{
	enum bc_format f;

	(void)state;
	assert_int_equal(bc_format_parse("markdown", BC_FORMATS_TABLE, &f), 0);
	assert_int_equal(f, BC_FORMAT_MARKDOWN);
	assert_int_equal(bc_format_parse("csv", BC_FORMATS_TABLE, &f), 0);
	assert_int_equal(f, BC_FORMAT_CSV);
	assert_int_equal(bc_format_parse("xml", BC_FORMATS_TABLE, &f), -EINVAL);
}

/* A row whose run recorded a histogram: every table format shows its
 * count and percentiles (CSV: one line per statistic). */
static char *render_hist_row(enum bc_format format)
{
	static const char doc[] =
		"{\"benchmark\": \"p:b\", \"summary\": {\"lat\": {\"unit\": \"ns\", "
		"\"kind\": \"histogram\", \"count\": 7, \"p50\": 10.5, \"p90\": 20.5, "
		"\"p99\": 30.5, \"p99.9\": 40.5, \"max\": 50}}}";
	char *args[] = { "p:b" }, *text = NULL;
	struct bc_row r = { .section = "S", .label = "row", .status = BC_ROW_OK, .bench = "p:b",
			 .args = { .v = args, .cnt = 1 }, .json = (char *)doc };
	struct bc_batch_opts bo = { .kind = "suite", .name = "t", .format = format };
	struct bc_batch *b;
	size_t len = 0;

	bo.out = open_memstream(&text, &len);
	assert_non_null(bo.out);
	b = bc_batch_new(&bo);
	assert_non_null(b);
	bc_batch_render_row(b, &r);
	bc_batch_free(b);
	fclose(bo.out);
	return text;
}

static void test_table_histograms(void **state)
{
	char *t;

	(void)state;
	t = render_hist_row(BC_FORMAT_TEXT);
	assert_non_null(strstr(t, "lat p50 10.50 ns, p90 20.50 ns, p99 30.50 ns, p99.9 40.50 ns, max 50.00 ns (7 values)"));
	free(t);
	t = render_hist_row(BC_FORMAT_MARKDOWN);
	assert_non_null(strstr(t, "| row | lat p50 10.50 ns, p90 20.50 ns, p99 30.50 ns, p99.9 40.50 ns, max 50.00 ns"));
	free(t);
	t = render_hist_row(BC_FORMAT_CSV);
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.count,values,7,,,,\n"));
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.p50,ns,10.5,,,,\n"));
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.p90,ns,20.5,,,,\n"));
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.p99,ns,30.5,,,,\n"));
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.p99.9,ns,40.5,,,,\n"));
	assert_non_null(strstr(t, "S,row,p:b,,ok,,lat.max,ns,50,,,,\n"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incbeta_closed_forms),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_axis_parse),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_option_arg),
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_suite_parse),
		cmocka_unit_test(test_shipped_suites),
		cmocka_unit_test(test_child_exit_and_output),
		cmocka_unit_test(test_child_crash),
		cmocka_unit_test(test_child_timeout),
		cmocka_unit_test(test_child_exec_failure),
		cmocka_unit_test(test_table_format),
		cmocka_unit_test(test_table_histograms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
