// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The ABI policy, end to end: one fixture plugin built four times against
 * copies of the public headers (tests/sdk/CMakeLists.txt makes them):
 *   abi_current      the real headers
 *   abi_older        an older minor: the bench descriptor lacks the members
 *                    appended since, so its sz is smaller
 *   abi_newer_minor  the next minor, with a member appended
 *   abi_other_major  the next major
 *   abi_grown_zero   the current version, but the bench descriptor has a
 *                    member this core does not know, left zero
 *   abi_grown_set    the same with that member set
 * The current core must load and run abi_current, abi_older and
 * abi_grown_zero, refuse the others with the documented one-line messages,
 * and keep loading the rest.
 */
#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>

#include "sdk_util.h"

static char work[1024];

static void expect_status(const struct sdk_out *res, int want)
{
	if (res->status != want) {
		sdk_out_dump(res);
		fail_msg("exit status %d, expected %d", res->status, want);
	}
}

static void expect_in(const struct sdk_out *res, const char *text, const char *needle, bool want)
{
	if ((strstr(text, needle) != NULL) != want) {
		sdk_out_dump(res);
		fail_msg("output %s '%s'", want ? "lacks" : "has", needle);
	}
}

/* The exact lines docs/plugin-abi.md promises (see core/loader.c). */
static void newer_minor_line(char *buf, size_t len)
{
	snprintf(buf, len,
		 "benchcore: %s/abi_newer_minor.so: built for plugin ABI %d.%d, newer than this "
		 "benchcore's ABI %d.%d (update benchcore, or rebuild the plugin against this "
		 "version)\n",
		 BC_SDK_ABI_DIR, BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR + 1, BC_SDK_ABI_MAJOR,
		 BC_SDK_ABI_MINOR);
}

static void other_major_line(char *buf, size_t len)
{
	snprintf(buf, len,
		 "benchcore: %s/abi_other_major.so: built for plugin ABI %d.%d, but this benchcore "
		 "implements ABI %d.%d; a different major version is incompatible (rebuild the "
		 "plugin against this benchcore)\n",
		 BC_SDK_ABI_DIR, BC_SDK_ABI_MAJOR + 1, BC_SDK_ABI_MINOR, BC_SDK_ABI_MAJOR,
		 BC_SDK_ABI_MINOR);
}

static void grown_set_line(char *buf, size_t len)
{
	snprintf(buf, len,
		 "benchcore: %s/abi_grown_set.so: benchmark #0 descriptor is %zu bytes and sets "
		 "fields this core does not know (it knows %zu bytes); built against a newer "
		 "benchcore?\n",
		 BC_SDK_ABI_DIR, sizeof(struct bc_bench_desc) + sizeof(unsigned long),
		 sizeof(struct bc_bench_desc));
}

/* The fixtures must really be what their names say, or the rest proves
 * nothing: read their descriptors directly. */
static void test_fixtures_pretend_what_they_claim(void **state)
{
	static const struct {
		const char *file;
		int major, minor;
		int size_cmp;	/* bench descriptor sz vs the current one */
	} cases[] = {
		{ "abi_current.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR, 0 },
		{ "abi_older.so", BC_SDK_ABI_MAJOR, BC_SDK_OLDER_MINOR, -1 },
		{ "abi_newer_minor.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR + 1, 1 },
		{ "abi_other_major.so", BC_SDK_ABI_MAJOR + 1, BC_SDK_ABI_MINOR, 0 },
		{ "abi_grown_zero.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR, 1 },
		{ "abi_grown_set.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR, 1 },
	};
	char path[PATH_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bc_plugin_desc *d;
		size_t sz;
		void *h;

		snprintf(path, sizeof(path), "%s/%s", BC_SDK_ABI_DIR, cases[i].file);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			fail_msg("%s: %s", path, dlerror());
		d = dlsym(h, BC_PLUGIN_SYMBOL);
		assert_non_null(d);
		assert_int_equal(d->abi_major, cases[i].major);
		assert_int_equal(d->abi_minor, cases[i].minor);
		sz = d->benches[0]->sz;
		if (cases[i].size_cmp < 0)
			assert_true(sz < sizeof(struct bc_bench_desc));
		else if (cases[i].size_cmp > 0)
			assert_true(sz > sizeof(struct bc_bench_desc));
		else
			assert_int_equal(sz, sizeof(struct bc_bench_desc));
		dlclose(h);
	}
}

static void test_list_loads_compatible_refuses_others(void **state)
{
	char line[1024];
	struct sdk_out res;

	(void)state;
	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' list", BC_TEST_BENCHCORE,
				 BC_SDK_ABI_DIR), 0);
	expect_status(&res, 0);
	expect_in(&res, res.out, "abi_current:spin", true);
	expect_in(&res, res.out, "abi_older:spin", true);
	expect_in(&res, res.out, "abi_newer_minor:", false);
	expect_in(&res, res.out, "abi_other_major:", false);
	expect_in(&res, res.out, "abi_grown_zero:spin", true);
	expect_in(&res, res.out, "abi_grown_set:", false);
	newer_minor_line(line, sizeof(line));
	expect_in(&res, res.err, line, true);
	other_major_line(line, sizeof(line));
	expect_in(&res, res.err, line, true);
	grown_set_line(line, sizeof(line));
	expect_in(&res, res.err, line, true);
	sdk_out_free(&res);
}

static void run_spin(const char *plugin)
{
	struct sdk_out res;
	double hits;

	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run %s:spin -w0 -d1 --format json",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR, plugin), 0);
	expect_status(&res, 0);
	hits = sdk_json_summary_mean(res.out, "hits");
	if (hits <= 0) {
		sdk_out_dump(&res);
		fail_msg("%s:spin: summary hits mean %g, expected > 0", plugin, hits);
	}
	sdk_out_free(&res);
}

static void test_older_minor_runs(void **state)
{
	(void)state;
	run_spin("abi_older");
	run_spin("abi_current");
}

/* libbpf opts style: bytes past what the core knows are fine while zero. */
static void test_unknown_zero_tail_runs(void **state)
{
	(void)state;
	run_spin("abi_grown_zero");
}

static void test_refused_plugin_cannot_run(void **state)
{
	char line[1024];
	struct sdk_out res;

	(void)state;
	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run abi_newer_minor:spin -w0 -d1",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR), 0);
	expect_status(&res, BC_EXIT_USAGE);
	newer_minor_line(line, sizeof(line));
	expect_in(&res, res.err, line, true);
	expect_in(&res, res.err, "unknown plugin 'abi_newer_minor'", true);
	sdk_out_free(&res);

	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run abi_other_major:spin -w0 -d1",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR), 0);
	expect_status(&res, BC_EXIT_USAGE);
	other_major_line(line, sizeof(line));
	expect_in(&res, res.err, line, true);
	sdk_out_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_pretend_what_they_claim),
		cmocka_unit_test(test_list_loads_compatible_refuses_others),
		cmocka_unit_test(test_older_minor_runs),
		cmocka_unit_test(test_unknown_zero_tail_runs),
		cmocka_unit_test(test_refused_plugin_cannot_run),
	};

	unsetenv("BENCHCORE_PLUGIN_PATH");
	/* Scratch files for command output, beside the fixtures. */
	snprintf(work, sizeof(work), "%s/..", BC_SDK_ABI_DIR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
