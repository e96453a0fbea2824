// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * strncmp:strncmp-no-helper and strncmp:strncmp-helper through the real
 * benchcore binary: short runs (-w0 -d1) at the shortest, the default and
 * the longest length must count one comparison per getpgid() the producers
 * made (two counters of one run; by default every process's getpgid() is
 * compared, as the runner's program does, so other processes may only add
 * to the count; with --strncmp-own-process it is exact), name their attach
 * point, refuse bad lengths with status 2, and leave nothing of the plugin
 * loaded. No timing is asserted.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_report.h"
#include "json_read.h"

static const char *const ours[] = { "sc_", "strncmp_.", NULL };

static void check_comparisons(const char *bench, const char *len, bool own_process)
{
	const char *args[] = { "run", bench, "-w0", "-d1", "--cmp-str-len", len,
			       own_process ? "--strncmp-own-process" : NULL, NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double hits, calls;

	doc = bc_test_run_json(&r, args);
	hits = bc_test_summary_mean(doc, "hits");
	calls = bc_test_summary_mean(doc, "syscalls");
	/* Both are read at one tick, a syscall or two apart. */
	if (!(hits > 0) || hits < calls * 0.98 || (own_process && hits > calls * 1.02)) {
		bc_test_dump(bench, &r);
		fail_msg("%s --cmp-str-len %s%s: %.0f comparisons/s for %.0f getpgid()/s, expected "
			 "one each", bench, len, own_process ? " --strncmp-own-process" : "", hits,
			 calls);
	}
	if (bc_test_summary_mean(doc, "drops") != 0)
		fail_msg("%s: drops are not zero", bench);
	(void)bc_test_attach_point(doc);
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, bench);
}

static void test_no_helper(void **state)
{
	(void)state;
	check_comparisons("strncmp:strncmp-no-helper", "1", true);
	check_comparisons("strncmp:strncmp-no-helper", "32", false);
	check_comparisons("strncmp:strncmp-no-helper", "4095", true);
}

static void test_helper(void **state)
{
	(void)state;
	check_comparisons("strncmp:strncmp-helper", "1", true);
	check_comparisons("strncmp:strncmp-helper", "32", false);
	check_comparisons("strncmp:strncmp-helper", "4095", true);
}

static void check_usage_error(const char *len)
{
	const char *args[] = { "run", "strncmp:strncmp-helper", "-w0", "-d1", "--cmp-str-len", len,
			       NULL };
	char needle[64];
	struct bc_test_run r;

	snprintf(needle, sizeof(needle), "--cmp-str-len '%s'", len);
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE || !strstr(r.err, needle)) {
		bc_test_dump("strncmp-helper", &r);
		fail_msg("--cmp-str-len %s: expected exit status %d naming the value", len,
			 BC_TEST_EXIT_USAGE);
	}
	bc_test_run_free(&r);
}

static void test_bad_lengths(void **state)
{
	(void)state;
	/* 4096 would leave no room for the NUL in the 4096-byte buffers. */
	check_usage_error("0");
	check_usage_error("4096");
	check_usage_error("-1");
	bc_test_assert_none_loaded(ours, "refused runs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_helper),
		cmocka_unit_test(test_helper),
		cmocka_unit_test(test_bad_lengths),
	};
	int skip = bc_test_bpf_skip("strncmp_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
