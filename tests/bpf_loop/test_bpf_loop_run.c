// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf_loop:bpf-loop and bpf_loop:bpf-for through the real benchcore binary:
 * short runs (-w0 -d1) must count loop iterations, exactly 1000 x --nr_loops
 * per program run (two counters of one run, so the ratio is exact up to the
 * sampling instant), name their attach point, refuse bad values with status
 * 2, and leave no program or map of the plugin loaded; bpf-for is
 * unavailable, naming the iterator kfuncs, on a kernel without them. No
 * timing is asserted.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bc_test_report.h"
#include "json_read.h"

#define BENCH "bpf_loop:bpf-loop"
#define BENCH_FOR "bpf_loop:bpf-for"

static const char *const ours[] = { "bl_", "bpf_loop.", "bf_", "bpf_for_", NULL };

static void check_iterations_of(const char *bench, const char *nr_loops)
{
	const char *args[] = { "run", bench, "-w0", "-d1", "--nr_loops", nr_loops, NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double hits, runs, want, per_run, slack;
	const char *pt;

	doc = bc_test_run_json(&r, args);
	hits = bc_test_summary_mean(doc, "hits");
	runs = bc_test_summary_mean(doc, "runs");
	if (!(hits > 0) || !(runs > 0)) {
		bc_test_dump(bench, &r);
		fail_msg("--nr_loops %s: %.0f iterations/s in %.0f runs/s, expected both > 0",
			 nr_loops, hits, runs);
	}
	/* 1000 loops a run, fewer past 2^24 iterations (<benchcore/work.h>). */
	{
		double n = strtod(nr_loops, NULL), calls = floor(16777216.0 / n);

		per_run = (calls > 1000 ? 1000 : calls < 1 ? 1 : calls) * n;
	}
	want = runs * per_run;
	/* Iterations are counted call by call, runs when a run ends, and the
	 * two are read one after the other: at each end of the interval they
	 * may be a run apart. At --nr_loops 1000 a run takes milliseconds, so
	 * on a loaded machine that is more than a percent of a second's runs. */
	slack = 2 * per_run + want * 0.01;
	if (hits < want - slack || hits > want + slack) {
		bc_test_dump(bench, &r);
		fail_msg("--nr_loops %s: %.0f iterations/s but %.0f runs/s x %.0f = %.0f",
			 nr_loops, hits, runs, per_run, want);
	}
	pt = bc_test_attach_point(doc);
	if (!strstr(pt, "getpgid") && strcmp(pt, "raw_tp/sys_enter"))
		fail_msg("attach point '%s' is not one of the getpgid candidates", pt);
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, bench);
}

static void check_iterations(const char *nr_loops)
{
	check_iterations_of(BENCH, nr_loops);
}

/* The iterator's kfuncs, asked of vmlinux BTF directly (Linux 6.4+). */
static bool kernel_has_iter_num(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "bpf_iter_num_new", BTF_KIND_FUNC);
	btf__free(btf);
	return id > 0;
}

static void test_bpf_for(void **state)
{
	const char *args[] = { "run", BENCH_FOR, "-w0", "-d1", NULL };
	struct bc_test_run r;

	(void)state;
	if (kernel_has_iter_num()) {
		/* The runner's default (1000), one value, and past the point
		 * where a run makes fewer than 1000 loops. */
		check_iterations_of(BENCH_FOR, "1000");
		check_iterations_of(BENCH_FOR, "1");
		check_iterations_of(BENCH_FOR, "100000");
		return;
	}
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_UNAVAILABLE || !strstr(r.err, "bpf_iter_num")) {
		bc_test_dump(BENCH_FOR, &r);
		fail_msg("bpf-for without bpf_iter_num_new(): expected exit status %d naming it",
			 BC_TEST_EXIT_UNAVAILABLE);
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "an unavailable bpf-for");
}

static void test_default_loops(void **state)
{
	(void)state;
	check_iterations("10");
}

static void test_one_loop(void **state)
{
	(void)state;
	check_iterations("1");
}

static void test_many_loops(void **state)
{
	(void)state;
	check_iterations("1000");
}

static void check_usage_error(const char *const *args, const char *needle)
{
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE || !strstr(r.err, needle)) {
		bc_test_dump(args[1], &r);
		fail_msg("expected exit status %d and '%s' on stderr", BC_TEST_EXIT_USAGE, needle);
	}
	bc_test_run_free(&r);
}

static void test_bad_values(void **state)
{
	const char *zero[] = { "run", BENCH, "-w0", "-d1", "--nr_loops", "0", NULL };
	const char *huge[] = { "run", BENCH, "-w0", "-d1", "--nr_loops", "8388609", NULL };
	const char *word[] = { "run", BENCH, "-w0", "-d1", "--nr_loops", "many", NULL };
	const char *cons[] = { "run", BENCH, "-w0", "-d1", "-c1", NULL };
	const char *for0[] = { "run", BENCH_FOR, "-w0", "-d1", "--nr_loops", "0", NULL };
	const char *forhuge[] = { "run", BENCH_FOR, "-w0", "-d1", "--nr_loops", "8388609", NULL };

	(void)state;
	check_usage_error(for0, "--nr_loops '0'");
	check_usage_error(forhuge, "--nr_loops '8388609'");
	check_usage_error(zero, "--nr_loops '0'");
	check_usage_error(huge, "--nr_loops '8388609'");
	check_usage_error(word, "--nr_loops 'many'");
	check_usage_error(cons, "consumer");
	bc_test_assert_none_loaded(ours, "refused runs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_loops),
		cmocka_unit_test(test_one_loop),
		cmocka_unit_test(test_many_loops),
		cmocka_unit_test(test_bpf_for),
		cmocka_unit_test(test_bad_values),
	};
	int skip = bc_test_bpf_skip("bpf_loop_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
