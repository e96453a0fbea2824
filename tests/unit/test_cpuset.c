// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* CPU set lists: what --prod-affinity / --cons-affinity accept and refuse. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bc_internal.h"

static struct bc_cpuset set;
static char err[256];

static void expect_ok(const char *text, const char *canonical, unsigned int cnt)
{
	char back[256];

	err[0] = '\0';
	assert_int_equal(bc_cpuset_parse(text, &set, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(set.cnt, cnt);
	bc_cpuset_format(&set, back, sizeof(back));
	assert_string_equal(back, canonical);
}

static void expect_err(const char *text, const char *msg)
{
	assert_int_equal(bc_cpuset_parse(text, &set, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, msg);
}

static void test_valid(void **state)
{
	(void)state;
	expect_ok("0", "0", 1);
	expect_ok("0,2-3", "0,2-3", 3);
	expect_ok("3,1,2", "1-3", 3);		/* sorted */
	expect_ok("1,1,0-1", "0-1", 2);		/* unique */
	expect_ok("5-5", "5", 1);
	expect_ok("4095", "4095", 1);
	expect_ok("0-3,8,10-11", "0-3,8,10-11", 7);
	assert_int_equal(set.cpus[0], 0);
	assert_int_equal(set.cpus[4], 8);
	assert_int_equal(set.cpus[6], 11);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_err("3-1", "'3-1': range end is below its start");
	expect_err("1,,2", "'1,,2': empty element");
	expect_err("-", "'-': expected a CPU number or a range such as 0-3");
	expect_err("99999", "'99999': CPU number above the maximum 4095");
	expect_err("", "'': empty CPU set");
	expect_err("0,5-2", "'0,5-2': range end is below its start (in '5-2')");
	expect_err("1,", "'1,': empty element");
	expect_err(",1", "',1': empty element");
	expect_err("a", "'a': expected a CPU number or a range such as 0-3");
	expect_err("-1", "'-1': expected a CPU number or a range such as 0-3");
	expect_err("1-", "'1-': expected a CPU number or a range such as 0-3");
	expect_err(" 1", "' 1': expected a CPU number or a range such as 0-3");
	expect_err("+1", "'+1': expected a CPU number or a range such as 0-3");
	expect_err("0-4096", "'0-4096': CPU number above the maximum 4095");
	expect_err("1-2-3", "'1-2-3': expected a CPU number or a range such as 0-3");
	assert_int_equal(bc_cpuset_parse(NULL, &set, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
