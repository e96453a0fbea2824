// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Statistics on known inputs: what the summary lines and JSON are built on. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "loader.h"
#include "result.h"
#include "stats.h"

#define assert_close(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-9 * (fabs((double)(b)) + 1))

static void test_known_values(void **state)
{
	/* mean 5, sum of squares 32, sample variance 32/7 */
	const double xs[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct bc_metric_summary s;

	(void)state;
	bc_stats_compute(xs, 8, &s);
	assert_int_equal(s.n, 8);
	assert_close(s.mean, 5);
	assert_close(s.stddev, sqrt(32.0 / 7.0));
	assert_close(s.min, 2);
	assert_close(s.max, 9);
	assert_close(s.median, 4.5);
}

static void test_odd_median_unsorted(void **state)
{
	const double xs[] = { 9, 1, 5, 3, 7 };
	struct bc_metric_summary s;

	(void)state;
	bc_stats_compute(xs, 5, &s);
	assert_close(s.median, 5);
	assert_close(s.mean, 5);
	assert_close(s.stddev, sqrt(40.0 / 4.0));
	/* The input is left as it was. */
	assert_close(xs[0], 9);
}

static void test_empty(void **state)
{
	struct bc_metric_summary s;

	(void)state;
	bc_stats_compute(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.median));
}

static void test_one(void **state)
{
	const double xs[] = { 3.5 };
	struct bc_metric_summary s;

	(void)state;
	bc_stats_compute(xs, 1, &s);
	assert_int_equal(s.n, 1);
	assert_close(s.mean, 3.5);
	assert_close(s.stddev, 0);	/* no spread to estimate: shown as 0 */
	assert_close(s.min, 3.5);
	assert_close(s.median, 3.5);
	assert_close(s.max, 3.5);
}

static void test_two(void **state)
{
	const double xs[] = { 1, 2 };
	struct bc_metric_summary s;

	(void)state;
	bc_stats_compute(xs, 2, &s);
	assert_close(s.mean, 1.5);
	assert_close(s.median, 1.5);
	assert_close(s.stddev, sqrt(0.5));
}

static void test_summarise_skips_warmup(void **state)
{
	static const struct bc_metric_desc metrics[] = {
		BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
	};
	struct bc_bench bench = { .desc = { .sz = sizeof(struct bc_bench_desc), .name = "t",
					    .metric_cnt = 1 },
				  .metrics = (struct bc_metric_desc *)metrics };
	struct bc_iteration its[3];
	double rates[3] = { 1000, 10, 20 }, values[3] = { 0 };
	struct bc_run_result res;
	int i;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(its, 0, sizeof(its));
	for (i = 0; i < 3; i++) {
		its[i].idx = (unsigned int)i;
		its[i].warmup = i == 0;
		its[i].length_sec = 2;
		its[i].rates = &rates[i];
		its[i].values = &values[i];
		its[i].prod_user_sec = 1.5;
		its[i].prod_sys_sec = 0.5;
	}
	res.bench = &bench;
	res.iters = its;
	res.iter_cnt = 3;
	bc_stats_summarise(&res);
	assert_int_equal(res.summary[0].n, 2);
	assert_close(res.summary[0].mean, 15);
	assert_close(res.summary[0].max, 20);
	/* 2 CPU-seconds in a 2 s interval: one CPU. */
	assert_close(res.prod_cpu_util.mean, 1);
	assert_close(res.prod_user_util.mean, 0.75);
	assert_close(res.prod_sys_util.mean, 0.25);
	assert_close(res.cons_cpu_util.mean, 0);
	free(res.summary);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_odd_median_unsorted),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_one),
		cmocka_unit_test(test_two),
		cmocka_unit_test(test_summarise_skips_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
