// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Round 3 of docs/reliability.md: a map the kernel refuses because of an
 * option's value is a failed run (status 1) whose line names the option
 * and the value, not "unavailable on this kernel" (status 3), which only
 * means the kernel lacks a feature. The maps are created by the kernel,
 * so this needs root and BPF (exit 77 otherwise).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exit_status.h"
#include "bc_test_util.h"

/* Status 1, and one "failed" line naming the map and what set it. */
static void expect_refused_map(const char *bench, const char *opt, const char *value,
			       const char *map)
{
	const char *args[] = { "run", bench, opt, value, "-w0", "-d1", "-q", NULL };
	char want[256];
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != BC_EXIT_FAILED)
		fail_msg("%s %s %s: status %d, expected %d; stderr:\n%s", bench, opt, value,
			 r.status, BC_EXIT_FAILED, r.err);
	snprintf(want, sizeof(want), "the kernel refused to create map '%s' with %s %s", map, opt,
		 value);
	if (!strstr(r.err, want) || !strstr(r.err, "expected a value this kernel can create"))
		fail_msg("%s: no line with \"%s\"; stderr:\n%s", bench, want, r.err);
	assert_null(strstr(r.err, "unavailable"));
	bc_test_run_free(&r);
}

static void test_hashmap_max_entries(void **state)
{
	(void)state;
	expect_refused_map("hashmap:bpf-hashmap-lookup", "--max_entries", "4294967295",
			   "hm_lookup");
}

static void test_hashmap_map_flags(void **state)
{
	(void)state;
	expect_refused_map("hashmap:bpf-hashmap-lookup", "--map_flags", "0xffffffff", "hm_lookup");
}

static void test_bloom_nr_entries(void **state)
{
	(void)state;
	/* The array of stored values is created first, and refused first. */
	expect_refused_map("bloom:bloom-lookup", "--nr_entries", "4294967295", "bloom_array");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hashmap_max_entries),
		cmocka_unit_test(test_hashmap_map_flags),
		cmocka_unit_test(test_bloom_nr_entries),
	};
	int rc = bc_test_bpf_skip("maps refused for an option's value");

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
