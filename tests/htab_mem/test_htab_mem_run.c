// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The htab_mem plugin through the real benchcore binary: each use case for
 * one second (-w0 -d1 --format json), preallocated and not. What must
 * hold: batches were counted, the memory cgroup held memory (> 0) and its
 * high-water mark is at least what was sampled, the report names the attach
 * point, and after the run neither a program of it nor its cgroup is left.
 * Bad values exit with status 2 and name the value.
 *
 * Whether a memory cgroup can be had here is asked by the test itself
 * (tests/support/bc_test_kernel.c makes and joins one), never by the
 * plugin's own lookup; where none can be, the test skips saying why.
 *
 * No timing is asserted, and no memory size: both depend on the kernel.
 */
#define _GNU_SOURCE
#include <ftw.h>
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
#include "bc_test_kernel.h"
#include "json_read.h"

#define RODATA "htab_mem.rodata"

static const char *const attach_points[] = {
	"tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter", NULL,
};

/* The memory cgroup hierarchy's mount, from bc_test_kernel_memcg(). */
static char memcg_mnt[PATH_MAX];
static const char *memcg_left_name;
static char memcg_left[PATH_MAX];

static int find_left(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	if (type == FTW_D && !strcmp(path + ftw->base, memcg_left_name)) {
		snprintf(memcg_left, sizeof(memcg_left), "%s", path);
		return 1;
	}
	return 0;
}

/* A run names its cgroup after its pid: none of that name may be left
 * anywhere in the hierarchy, wherever the plugin chose to make it. */
static void assert_cgroup_gone(pid_t pid)
{
	char name[64];

	snprintf(name, sizeof(name), "benchcore-htab-mem-%d", (int)pid);
	memcg_left_name = name;
	if (nftw(memcg_mnt, find_left, 16, FTW_PHYS) == 1)
		fail_msg("the run left its cgroup behind: %s", memcg_left);
}

static void run_case(const char *const *extra, const char *label)
{
	struct bc_test_run c;
	struct bc_json *doc;
	unsigned int total, left;
	double mem, peak;
	const char *ap;

	doc = bc_test_bench_json(&c, "htab_mem:htab-mem", extra);
	ap = bc_test_attach_point_in(doc, attach_points);
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
	int rc = bc_test_bpf_skip("the htab-mem benchmark");

	if (rc)
		return rc;
	rc = bc_test_kernel_memcg(memcg_mnt, sizeof(memcg_mnt));
	if (rc) {
		printf("skipped: htab-mem measures a memory cgroup, and this test could not make "
		       "and join one here: %s (the \"# kernel:\" line says which step)\n",
		       strerror(-rc));
		return BC_TEST_SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
