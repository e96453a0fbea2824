// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The house rules of the core, as scripts/check-layers.sh and
 * scripts/check-symbols.sh state them, hold for the tree and the build
 * under test; and the layer check does catch what it is there to catch, on
 * a copy of core/ given an upward include and an include circle.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_child.h"
#include "bc_test_util.h"

#define BC_HOUSE_BOUND_SEC 60

static void bc_house_run(struct bc_test_run *r, const char *script, const char *arg)
{
	char path[4096];
	const char *argv[] = { "sh", path, arg, NULL };
	struct bc_test_child c;

	snprintf(path, sizeof(path), "%s/scripts/%s", BC_TEST_SOURCE_DIR, script);
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, BC_HOUSE_BOUND_SEC);
	printf("%s%s", r->out, r->err);
}

/* A scratch copy of core/ (the wings' sources and headers, layers.txt)
 * under dir/core. */
static void bc_house_copy_core(char *dir, size_t len)
{
	char cmd[8192];

	snprintf(dir, len, "/tmp/bc-house-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "mkdir '%s/core' && cp -r '%s'/core/runtime '%s'/core/results '%s'/core/commands "
		 "'%s'/core/layers.txt '%s/core/'",
		 dir, BC_TEST_SOURCE_DIR, BC_TEST_SOURCE_DIR, BC_TEST_SOURCE_DIR, BC_TEST_SOURCE_DIR,
		 dir);
	assert_int_equal(system(cmd), 0);
}

static void bc_house_remove(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Adds `#include "what"` as the first line of dir/core/file. */
static void bc_house_add_include(const char *dir, const char *file, const char *what)
{
	char path[4300], line[256], *text, *with;

	snprintf(path, sizeof(path), "%s/core/%s", dir, file);
	text = bc_test_read_file(path);
	snprintf(line, sizeof(line), "#include \"%s\"\n", what);
	with = malloc(strlen(line) + strlen(text) + 1);
	assert_non_null(with);
	strcpy(with, line);
	strcat(with, text);
	bc_test_write_file(path, with);
	free(with);
	free(text);
}

static void test_layers_hold(void **state)
{
	struct bc_test_run r;

	(void)state;
	bc_house_run(&r, "check-layers.sh", BC_TEST_SOURCE_DIR);
	bc_test_assert_status(&r, 0);
	assert_non_null(strstr(r.out, "no circle, none upward"));
	bc_test_run_free(&r);
}

static void test_symbols_hold(void **state)
{
	struct bc_test_run r;

	(void)state;
	bc_house_run(&r, "check-symbols.sh", BC_TEST_BUILD_DIR);
	bc_test_assert_status(&r, 0);
	assert_non_null(strstr(r.out, "every symbol bc_"));
	bc_test_run_free(&r);
}

/* statistics reaching up into the runner is the fault the layers forbid. */
static void test_upward_include_caught(void **state)
{
	struct bc_test_run r;
	char dir[64];

	(void)state;
	bc_house_copy_core(dir, sizeof(dir));
	bc_house_add_include(dir, "runtime/stats.c", "runner.h");
	bc_house_run(&r, "check-layers.sh", dir);
	bc_test_assert_status(&r, 1);
	assert_non_null(strstr(r.out,
		"core/runtime/stats: includes runner.h of the runner layer, above its own statistics layer"));
	bc_test_run_free(&r);
	bc_house_remove(dir);
}

/* Two modules of one layer including each other: no layer rule breaks,
 * the circle check still says which modules go round. */
static void test_circle_caught(void **state)
{
	struct bc_test_run r;
	char dir[64];

	(void)state;
	bc_house_copy_core(dir, sizeof(dir));
	bc_house_add_include(dir, "commands/suite.c", "sweep.h");
	bc_house_add_include(dir, "commands/sweep.c", "suite.h");
	bc_house_run(&r, "check-layers.sh", dir);
	bc_test_assert_status(&r, 1);
	assert_non_null(strstr(r.out, "include circle:"));
	assert_non_null(strstr(r.out, "suite"));
	assert_non_null(strstr(r.out, "sweep"));
	assert_null(strstr(r.out, "above its own"));
	bc_test_run_free(&r);
	bc_house_remove(dir);
}

/* A new file nobody placed is a fault too: its layer is a decision. */
static void test_unplaced_module_caught(void **state)
{
	struct bc_test_run r;
	char dir[64], path[128];

	(void)state;
	bc_house_copy_core(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/core/runtime/newthing.c", dir);
	bc_test_write_file(path, "#include \"log.h\"\n");
	bc_house_run(&r, "check-layers.sh", dir);
	bc_test_assert_status(&r, 1);
	assert_non_null(strstr(r.out, "core/runtime/newthing: not in any layer of core/layers.txt"));
	bc_test_run_free(&r);
	bc_house_remove(dir);
}

/* A wing below reaching into one above: the runtime (libbenchcore.so)
 * must not know the results wing. */
static void test_climbing_wing_caught(void **state)
{
	struct bc_test_run r;
	char dir[64];

	(void)state;
	bc_house_copy_core(dir, sizeof(dir));
	bc_house_add_include(dir, "runtime/hist.c", "results/compare.h");
	bc_house_run(&r, "check-layers.sh", dir);
	bc_test_assert_status(&r, 1);
	assert_non_null(strstr(r.out,
		"core/runtime/hist: includes results/compare.h of the results wing, above its own runtime wing"));
	bc_test_run_free(&r);
	bc_house_remove(dir);
}

/* Another wing's header by its bare name hides the climb: refused. */
static void test_bare_cross_wing_caught(void **state)
{
	struct bc_test_run r;
	char dir[64];

	(void)state;
	bc_house_copy_core(dir, sizeof(dir));
	bc_house_add_include(dir, "results/svg.c", "log.h");
	bc_house_run(&r, "check-layers.sh", dir);
	bc_test_assert_status(&r, 1);
	assert_non_null(strstr(r.out, "core/results/svg: includes log.h bare, a header of the runtime "
					"wing; expected \"runtime/log.h\""));
	bc_test_run_free(&r);
	bc_house_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layers_hold),
		cmocka_unit_test(test_symbols_hold),
		cmocka_unit_test(test_upward_include_caught),
		cmocka_unit_test(test_circle_caught),
		cmocka_unit_test(test_unplaced_module_caught),
		cmocka_unit_test(test_climbing_wing_caught),
		cmocka_unit_test(test_bare_cross_wing_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
