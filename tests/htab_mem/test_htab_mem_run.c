// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The htab_mem plugin through the real benchcore binary: each use case for
 * one second (-w0 -d1 --format json), preallocated and not. What must
 * hold: batches were counted, the memory cgroup held memory (> 0) and its
 * high-water mark is at least what was sampled, the report names the attach
 * point, and after the run neither a program of it nor its cgroup is left.
 * Bad values exit with status 2 and name the value.
 *
 * No timing is asserted, and no memory size: both depend on the kernel.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bc_test_bench.h"
#include "bc_test_census.h"
#include "htab_memcg.h"
#include "json_read.h"

#define RODATA "htab_mem.rodata"

static const char *const attach_points[] = {
	"tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter", NULL,
};

/* The runs share our cgroup, so theirs are made where ours would be. */
static void assert_cgroup_gone(pid_t pid)
{
	struct htab_memcg cg;
	char why[512], path[PATH_MAX + 64];

	if (htab_memcg_locate(&cg, why, sizeof(why)))
		fail_msg("no memory cgroup here, yet the run measured memory: %s", why);
	snprintf(path, sizeof(path), "%s/benchcore-htab-mem-%d", cg.parent, (int)pid);
	if (!access(path, F_OK))
		fail_msg("the run left its cgroup behind: %s", path);
}

static void run_case(const char *const *extra, const char *label)
{
	struct bc_test_run c;
	struct bc_json *doc;
	unsigned int total, left;
	double mem, peak;
	const char *ap;

	doc = bc_test_run_json(&c, "htab_mem:htab-mem", extra);
	ap = bc_test_attach_point(doc, attach_points);
	left = bc_test_wait_rodata_progs(RODATA, c.pid, 0, &total);
	mem = bc_test_summary_max(doc, "memory");
	peak = bc_test_summary_max(doc, "peak_memory");
	print_message("%s at %s: ops %.0f/s, memory %.3f MiB, peak %.3f MiB; %u of %u loaded programs are the run's\n",
		      label, ap, bc_test_summary_mean(doc, "ops"), mem, peak, left, total);
	assert_true(bc_test_summary_mean(doc, "ops") > 0);
	assert_true(bc_test_summary_mean(doc, "memory") > 0);
	/* One program, or the adder's and the deleter's. */
	assert_true(bc_test_program_count(doc, "producer") >= 1);
	assert_true(peak >= mem);
	assert_int_equal(left, 0);
	assert_cgroup_gone(c.pid);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_overwrite(void **state)
{
	(void)state;
	run_case(NULL, "overwrite");
}

static void test_overwrite_preallocated(void **state)
{
	const char *extra[] = { "--preallocated", NULL };

	(void)state;
	run_case(extra, "overwrite, preallocated");
}

static void test_batch_add_batch_del(void **state)
{
	const char *extra[] = { "--use-case", "batch_add_batch_del", "--value-size", "64", NULL };

	(void)state;
	run_case(extra, "batch_add_batch_del");
}

static void test_add_del_on_diff_cpu(void **state)
{
	const char *extra[] = { "--use-case", "add_del_on_diff_cpu", "-p2", NULL };

	(void)state;
	run_case(extra, "add_del_on_diff_cpu");
}

/*
 * run_bench_htab_mem.sh takes per-prod-op, memory usage and peak memory
 * usage from the last line with these sed expressions (\s as [[:space:]]).
 */
static void test_runner_script_reads_summary(void **state)
{
	const char *extra[] = { "--preallocated", NULL };

	(void)state;
	bc_test_expect_last_line("htab_mem:htab-mem", extra,
				 "^Summary: .*per-prod-op[[:space:]]+[0-9]+\\.[0-9]+ \xc2\xb1 +[0-9]+\\.[0-9]+k/s"
				 ".* memory usage[[:space:]]+[0-9]+\\.[0-9]+ \xc2\xb1 +[0-9]+\\.[0-9]+MiB"
				 ".* peak memory usage[[:space:]]+[0-9]+\\.[0-9]+MiB$");
}

static void test_census_sees_a_run(void **state)
{
	const char *args[] = { "run", "htab_mem:htab-mem", "-w0", "-d3", "-q", NULL };

	(void)state;
	bc_test_census_sees_run(RODATA, args);
}

static void test_bad_values(void **state)
{
	const char *odd[] = { "run", "htab_mem:htab-mem", "--use-case", "add_del_on_diff_cpu",
			      "-p3", NULL };
	const char *uc[] = { "run", "htab_mem:htab-mem", "--use-case", "no_op", NULL };
	const char *vs[] = { "run", "htab_mem:htab-mem", "--value-size", "5000", NULL };

	(void)state;
	bc_test_expect_usage(odd, "--producers 3");
	bc_test_expect_usage(uc, "--use-case 'no_op'");
	bc_test_expect_usage(vs, "--value-size '5000'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overwrite),
		cmocka_unit_test(test_overwrite_preallocated),
		cmocka_unit_test(test_batch_add_batch_del),
		cmocka_unit_test(test_add_del_on_diff_cpu),
		cmocka_unit_test(test_runner_script_reads_summary),
		cmocka_unit_test(test_census_sees_a_run),
		cmocka_unit_test(test_bad_values),
	};
	struct htab_memcg cg;
	char why[512];
	int rc = bc_test_bpf_skip("the htab-mem benchmark");

	if (rc)
		return rc;
	if (htab_memcg_locate(&cg, why, sizeof(why))) {
		printf("skipped: htab-mem needs a memory cgroup: %s\n", why);
		return BC_TEST_SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
