// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Statistics over runs (run --repeat, --precision) on known values: Student-t
 * quantiles against published tables, the confidence interval and CV of a
 * mean of run means, the rule that ends --precision, and the runs a
 * comparison needs against Cohen's power tables.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "repstats.h"

#define assert_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

static void test_t_quantiles_table(void **state)
{
	/* Two-sided 95 % (p = 0.975) from the usual t table. */
	static const struct {
		double df, t;
	} t975[] = {
		{ 1, 12.706205 }, { 2, 4.302653 }, { 3, 3.182446 }, { 4, 2.776445 },
		{ 5, 2.570582 }, { 9, 2.262157 }, { 10, 2.228139 }, { 29, 2.045230 },
		{ 30, 2.042272 }, { 100, 1.983972 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t975) / sizeof(t975[0]); i++)
		assert_near(bc_rep_t_quantile(0.975, t975[i].df), t975[i].t, 1e-5);
	/* Other levels: two-sided 99 %, and the one-sided 80 % of power. */
	assert_near(bc_rep_t_quantile(0.995, 4), 4.604095, 1e-5);
	assert_near(bc_rep_t_quantile(0.995, 10), 3.169273, 1e-5);
	assert_near(bc_rep_t_quantile(0.8, 30), 0.853767, 1e-5);
	assert_near(bc_rep_t_quantile(0.995, 1), 63.656741, 1e-4);
}

static void test_t_quantile_shape(void **state)
{
	(void)state;
	assert_near(bc_rep_t_quantile(0.5, 7), 0.0, 0);
	/* Symmetric about 0. */
	assert_near(bc_rep_t_quantile(0.025, 9), -bc_rep_t_quantile(0.975, 9), 1e-12);
	/* Falls towards the normal's 1.959964 as df grows. */
	assert_true(bc_rep_t_quantile(0.975, 1000) > 1.959964);
	assert_true(bc_rep_t_quantile(0.975, 1000) < bc_rep_t_quantile(0.975, 100));
	/* Outside the domain. */
	assert_true(isnan(bc_rep_t_quantile(0.0, 5)));
	assert_true(isnan(bc_rep_t_quantile(1.0, 5)));
	assert_true(isnan(bc_rep_t_quantile(0.975, 0)));
	assert_true(isnan(bc_rep_t_quantile(NAN, 5)));
}

static void test_ci_and_cv(void **state)
{
	/* mean 12, sample stddev 2 */
	const double xs[] = { 10, 12, 14 };
	struct bc_rep_stats s;

	(void)state;
	bc_rep_stats_compute(xs, 3, &s);
	assert_int_equal(s.n, 3);
	assert_near(s.mean, 12, 1e-12);
	assert_near(s.stddev, 2, 1e-12);
	assert_near(s.cv_pct, 100.0 * 2 / 12, 1e-9);
	assert_near(s.t, 4.302653, 1e-5);
	assert_near(s.ci_half, 4.302653 * 2 / sqrt(3), 1e-5);
	assert_near(s.ci_pct, s.ci_half / 12 * 100, 1e-9);
}

static void test_ci_skips_missing_runs(void **state)
{
	/* A run without a value (NaN) is not a zero. */
	const double xs[] = { 10, NAN, 14, INFINITY };
	struct bc_rep_stats s;

	(void)state;
	bc_rep_stats_compute(xs, 4, &s);
	assert_int_equal(s.n, 2);
	assert_near(s.mean, 12, 1e-12);
	assert_near(s.stddev, sqrt(8), 1e-12);
	assert_near(s.t, 12.706205, 1e-5);
}

static void test_ci_too_few(void **state)
{
	const double one[] = { 5 };
	struct bc_rep_stats s;

	(void)state;
	bc_rep_stats_compute(one, 1, &s);
	assert_int_equal(s.n, 1);
	assert_near(s.mean, 5, 0);
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.ci_half));
	assert_true(isnan(s.ci_pct));
	assert_true(isnan(s.cv_pct));
	bc_rep_stats_compute(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
}

static void test_ci_zero_and_negative_means(void **state)
{
	const double zeros[] = { 0, 0, 0 }, neg[] = { -10, -12, -14 };
	struct bc_rep_stats s;

	(void)state;
	/* Nothing moved: an exact answer, not an undefined one. */
	bc_rep_stats_compute(zeros, 3, &s);
	assert_near(s.ci_half, 0, 0);
	assert_near(s.ci_pct, 0, 0);
	assert_true(isnan(s.cv_pct));
	/* Relative figures are of |mean|. */
	bc_rep_stats_compute(neg, 3, &s);
	assert_near(s.cv_pct, 100.0 * 2 / 12, 1e-9);
	assert_true(s.ci_pct > 0);
}

static struct bc_rep_stats stats_with_ci(unsigned int n, double ci_pct)
{
	struct bc_rep_stats s = { .n = n, .mean = 100, .ci_pct = ci_pct };

	return s;
}

static void test_rule_fixed_count(void **state)
{
	struct bc_rep_rule r = { .repeat = 3 };
	struct bc_rep_stats w = stats_with_ci(2, 0.1);

	(void)state;
	assert_int_equal(bc_rep_rule_next(&r, 1, NULL, 0, 5), BC_REP_RUNNING);
	assert_int_equal(bc_rep_rule_next(&r, 2, &w, 0, 5), BC_REP_RUNNING);
	assert_int_equal(bc_rep_rule_next(&r, 3, &w, 0, 5), BC_REP_END_COUNT);
	/* No time cap without --precision. */
	r.max_time_sec = 1;
	assert_int_equal(bc_rep_rule_next(&r, 1, NULL, 100, 5), BC_REP_RUNNING);
}

static void test_rule_precision(void **state)
{
	struct bc_rep_rule r = { .repeat = 1, .precision_pct = 1, .max_repeat = 10 };
	struct bc_rep_stats tight2 = stats_with_ci(2, 0.1), tight3 = stats_with_ci(3, 0.5);
	struct bc_rep_stats loose = stats_with_ci(3, 2.0), exact = stats_with_ci(4, 1.0);

	(void)state;
	/* Two agreeing runs are not enough, whatever their interval. */
	assert_int_equal(bc_rep_rule_next(&r, 2, &tight2, 0, 5), BC_REP_RUNNING);
	assert_int_equal(bc_rep_rule_next(&r, 3, &tight3, 0, 5), BC_REP_END_PRECISION);
	assert_int_equal(bc_rep_rule_next(&r, 3, &loose, 0, 5), BC_REP_RUNNING);
	/* Within means at most. */
	assert_int_equal(bc_rep_rule_next(&r, 4, &exact, 0, 5), BC_REP_END_PRECISION);
	/* No statistics (a metric without values): only a cap ends it. */
	assert_int_equal(bc_rep_rule_next(&r, 5, NULL, 0, 5), BC_REP_RUNNING);
	/* --repeat raises the fewest runs. */
	r.repeat = 5;
	assert_int_equal(bc_rep_rule_next(&r, 4, &tight3, 0, 5), BC_REP_RUNNING);
	assert_int_equal(bc_rep_rule_next(&r, 5, &tight3, 0, 5), BC_REP_END_PRECISION);
}

static void test_rule_caps(void **state)
{
	struct bc_rep_rule r = { .repeat = 1, .precision_pct = 1, .max_repeat = 4,
				 .max_time_sec = 60 };
	struct bc_rep_stats loose = stats_with_ci(4, 3.0), tight = stats_with_ci(4, 0.5);

	(void)state;
	assert_int_equal(bc_rep_rule_next(&r, 3, &loose, 10, 5), BC_REP_RUNNING);
	assert_int_equal(bc_rep_rule_next(&r, 4, &loose, 10, 5), BC_REP_END_MAX_REPEAT);
	/* Reached at the cap: the target is what ended it. */
	assert_int_equal(bc_rep_rule_next(&r, 4, &tight, 10, 5), BC_REP_END_PRECISION);
	/* A run that would end after --max-time is not started... */
	assert_int_equal(bc_rep_rule_next(&r, 2, &loose, 50, 11), BC_REP_END_MAX_TIME);
	/* ...one that ends in time is. */
	assert_int_equal(bc_rep_rule_next(&r, 2, &loose, 50, 9), BC_REP_RUNNING);
	/* The time cap applies before the fewest runs, too. */
	assert_int_equal(bc_rep_rule_next(&r, 1, NULL, 59, 5), BC_REP_END_MAX_TIME);
}

static void test_end_names(void **state)
{
	(void)state;
	assert_null(bc_rep_end_name(BC_REP_RUNNING));
	assert_string_equal(bc_rep_end_name(BC_REP_END_COUNT), "repeat");
	assert_string_equal(bc_rep_end_name(BC_REP_END_PRECISION), "precision");
	assert_string_equal(bc_rep_end_name(BC_REP_END_MAX_REPEAT), "max-repeat");
	assert_string_equal(bc_rep_end_name(BC_REP_END_MAX_TIME), "max-time");
	assert_string_equal(bc_rep_end_name(BC_REP_END_INTERRUPTED), "interrupted");
	assert_string_equal(bc_rep_end_name(BC_REP_END_FAILED), "failed");
}

static void test_runs_needed_cohen(void **state)
{
	(void)state;
	/* Effect size d = change / CV = 1: Cohen's tables (two-sided,
	 * power 0.8) give 17 a side at alpha 0.05 and 25 at 0.01. */
	assert_int_equal(bc_rep_runs_needed(5, 5, 0.05, 0.8), 17);
	assert_int_equal(bc_rep_runs_needed(5, 5, 0.01, 0.8), 25);
	/* d = 0.5 at 0.05: 64 a side. */
	assert_int_equal(bc_rep_runs_needed(10, 5, 0.05, 0.8), 64);
}

static void test_runs_needed_shape(void **state)
{
	unsigned int prev = 0;

	(void)state;
	/* No noise: the fewest a t-test can use. */
	assert_int_equal(bc_rep_runs_needed(0, 5, 0.01, 0.8), 2);
	for (double cv = 0.5; cv <= 8; cv *= 2) {
		unsigned int n = bc_rep_runs_needed(cv, 5, 0.01, 0.8);

		assert_true(n >= prev);
		prev = n;
	}
	assert_int_equal(bc_rep_runs_needed(1000, 0.001, 0.01, 0.8), UINT_MAX);
	assert_int_equal(bc_rep_runs_needed(-1, 5, 0.01, 0.8), 0);
	assert_int_equal(bc_rep_runs_needed(NAN, 5, 0.01, 0.8), 0);
	assert_int_equal(bc_rep_runs_needed(1, 0, 0.01, 0.8), 0);
	assert_int_equal(bc_rep_runs_needed(1, 5, 0, 0.8), 0);
	assert_int_equal(bc_rep_runs_needed(1, 5, 0.01, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles_table),
		cmocka_unit_test(test_t_quantile_shape),
		cmocka_unit_test(test_ci_and_cv),
		cmocka_unit_test(test_ci_skips_missing_runs),
		cmocka_unit_test(test_ci_too_few),
		cmocka_unit_test(test_ci_zero_and_negative_means),
		cmocka_unit_test(test_rule_fixed_count),
		cmocka_unit_test(test_rule_precision),
		cmocka_unit_test(test_rule_caps),
		cmocka_unit_test(test_end_names),
		cmocka_unit_test(test_runs_needed_cohen),
		cmocka_unit_test(test_runs_needed_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
