// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* CPU set lists: what --prod-affinity / --cons-affinity accept and refuse,
 * and the masks the runner builds from them. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "cpuset.h"

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

/* The usable set is this process's affinity, whatever its size. */
static void test_usable(void **state)
{
	cpu_set_t mask;
	unsigned int i;

	(void)state;
	assert_int_equal(bc_cpuset_usable(&set), 0);
	CPU_ZERO(&mask);
	assert_int_equal(sched_getaffinity(0, sizeof(mask), &mask), 0);
	assert_int_equal(set.cnt, (unsigned int)CPU_COUNT(&mask));
	for (i = 0; i < set.cnt; i++) {
		assert_true(CPU_ISSET(set.cpus[i], &mask));
		assert_true(bc_cpuset_has(&set, set.cpus[i]));
	}
	assert_false(bc_cpuset_has(&set, BC_MAX_CPUS - 1));
}

static void test_has(void **state)
{
	(void)state;
	expect_ok("1,3,5-7,4095", "1,3,5-7,4095", 6);
	assert_true(bc_cpuset_has(&set, 1));
	assert_true(bc_cpuset_has(&set, 6));
	assert_true(bc_cpuset_has(&set, 4095));
	assert_false(bc_cpuset_has(&set, 0));
	assert_false(bc_cpuset_has(&set, 4));
	assert_false(bc_cpuset_has(&set, 8));
}

/* A fixed cpu_set_t stops at CPU 1023; the runner's masks reach every CPU
 * the parser accepts. */
static void test_pin_above_1024(void **state)
{
	size_t size = CPU_ALLOC_SIZE(BC_MAX_CPUS);
	cpu_set_t *back = CPU_ALLOC(BC_MAX_CPUS);
	pthread_attr_t attr;

	(void)state;
	assert_non_null(back);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(bc_cpuset_pin_attr(&attr, 3000), 0);
	CPU_ZERO_S(size, back);
	assert_int_equal(pthread_attr_getaffinity_np(&attr, size, back), 0);
	assert_true(CPU_ISSET_S(3000, size, back));
	assert_int_equal(CPU_COUNT_S(size, back), 1);
	assert_int_equal(bc_cpuset_pin_attr(&attr, BC_MAX_CPUS), EINVAL);
	pthread_attr_destroy(&attr);
	CPU_FREE(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_usable),
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_pin_above_1024),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
