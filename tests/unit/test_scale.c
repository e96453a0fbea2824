// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Figures as text (core/scale.c): the declared unit, and a scale that keeps
 * four significant digits, however small the rate.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scale.h"

static void check(double v, const char *unit, const char *want)
{
	char buf[96];

	assert_string_equal(bc_scale_fmt(buf, sizeof(buf), v, unit), want);
}

static void check_pm(double mean, double spread, const char *unit, const char *want)
{
	char buf[96];

	assert_string_equal(bc_scale_fmt_pm(buf, sizeof(buf), mean, spread, unit), want);
}

static void test_rates(void **state)
{
	(void)state;
	check(1234567, "calls/s", "1.235M calls/s");
	check(12345678, "ops/s", "12.35M ops/s");
	check(123456789, "ops/s", "123.5M ops/s");
	check(12e9, "hits/s", "12.00G hits/s");
	check(3.5e12, "hits/s", "3.500T hits/s");
	check(4.2e15, "hits/s", "4200.0T hits/s");
	/* The rates that printed 0.000M/s. */
	check(347.2, "calls/s", "347.2 calls/s");
	check(12.5, "calls/s", "12.50 calls/s");
	check(0.25, "calls/s", "0.25 calls/s");
	check(0.0001234, "calls/s", "0.0001234 calls/s");
	check(0, "calls/s", "0 calls/s");
	check(-1500, "ops/s", "-1.500K ops/s");
	/* Rounding up to 1000 takes the next prefix. */
	check(999.96, "calls/s", "1.000K calls/s");
	check(999960, "calls/s", "1.000M calls/s");
	check(1500, "", "1.500K");
	check(1500, NULL, "1.500K");
	check(NAN, "ops/s", "n/a");
}

static void test_times(void **state)
{
	(void)state;
	check(1234, "ns", "1.234 us");
	check(5e6, "ns", "5.000 ms");
	check(81.25, "ns/op", "81.25 ns/op");
	check(2500, "ns/op", "2.500 us/op");
	check(0.5, "us", "500.0 ns");
	check(0.0005, "ms", "500.0 ns");
	check(2e12, "ns", "2000.0 s");
	check(999.96, "ns", "1.000 us");
	/* Not a time: only the first word counts. */
	check(1234, "samples", "1.234K samples");
	check(1234, "s/op", "1234.0 s/op");
}

static void test_mean_and_spread(void **state)
{
	(void)state;
	check_pm(12345678, 123456, "ops/s", "12.35 \xc2\xb1 0.12M ops/s");
	check_pm(347.2, 12.25, "calls/s", "347.2 \xc2\xb1 12.2 calls/s");
	check_pm(5e6, 0, "ns", "5.000 \xc2\xb1 0.000 ms");
	check_pm(0, 0, "ops/s", "0 \xc2\xb1 0 ops/s");
	check_pm(0, 1500, "ops/s", "0 \xc2\xb1 1.500K ops/s");
	check_pm(1e6, NAN, "ops/s", "1.000M ops/s \xc2\xb1 n/a");
	check_pm(NAN, 1, "ops/s", "n/a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_mean_and_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
