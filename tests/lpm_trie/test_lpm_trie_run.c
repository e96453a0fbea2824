// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The lpm_trie plugin through the real benchcore binary: each benchmark
 * for one second (-w0 -d1 --format json) on a trie of 1000 keys. What must
 * hold: operations were counted (for insert, delete and free also the busy
 * time they are rated by), the report names how the program ran, and after
 * the run no program of it, and no trie it made for lpm-trie-free, is
 * left. Bad values exit with status 2 and name the value.
 *
 * No timing is asserted: the machine is a shared VM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bc_test_bench.h"
#include "bc_test_census.h"
#include "json_read.h"

#define RODATA "lpm_trie.rodata"

static const char *const run_bench_points[] = { "xdp run_bench", NULL };
static const char *const free_points[] = { "fentry+fexit/", "raw_tp/workqueue_execute", NULL };

static struct bc_json *run(struct bc_test_run *c, const char *bench, const char *const *extra,
			   const char *const *points)
{
	const char *args[16] = { "--nr_entries", "1000" };
	struct bc_json *doc;
	unsigned int total, left;
	const char *ap;
	size_t n = 2;

	for (; extra && *extra && n < 15; extra++)
		args[n++] = *extra;
	args[n] = NULL;
	doc = bc_test_bench_json(c, bench, args);
	ap = bc_test_attach_point_in(doc, points);
	left = bc_test_wait_rodata_progs(RODATA, c->pid, 0, &total);
	print_message("%s via %s: ops %.0f/s; %u of %u loaded programs are the run's\n", bench, ap,
		      bc_test_summary_mean(doc, "ops"), left, total);
	assert_true(bc_test_summary_mean(doc, "ops") > 0);
	assert_true(bc_test_option_num(doc, "nr_entries") == 1000);
	/* run_bench, or lpm-trie-free's two timers. */
	assert_int_equal(bc_test_program_count(doc, "producer") + bc_test_program_count(doc, "timer"),
			 points == free_points ? 2 : 1);
	assert_int_equal(left, 0);
	return doc;
}

static void run_ops(const char *bench, const char *const *extra)
{
	struct bc_test_run c;
	struct bc_json *doc = run(&c, bench, extra, run_bench_points);

	bc_json_free(doc);
	bc_test_run_free(&c);
}

/* insert, delete, free are rated per second of busy time. */
static void run_busy(const char *bench, const char *const *points)
{
	struct bc_test_run c;
	struct bc_json *doc = run(&c, bench, NULL, points);
	char name[32];

	assert_true(bc_test_summary_mean(doc, "busy_ns") > 0);
	assert_true(bc_test_summary_mean(doc, "busy_rate") > 0);
	assert_true(bc_test_summary_mean(doc, "op_ns") > 0);
	if (points == free_points) {
		/* The kernel frees the tries asynchronously, but it does. */
		snprintf(name, sizeof(name), "lpmfree_%d", (int)c.pid);
		assert_int_equal(bc_test_wait_named_maps(name, 0, NULL), 0);
	}
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_noop(void **s) { (void)s; run_ops("lpm_trie:lpm-trie-noop", NULL); }
static void test_baseline(void **s) { (void)s; run_ops("lpm_trie:lpm-trie-baseline", NULL); }
static void test_lookup(void **s) { (void)s; run_ops("lpm_trie:lpm-trie-lookup", NULL); }
static void test_update(void **s) { (void)s; run_ops("lpm_trie:lpm-trie-update", NULL); }

static void test_lookup_random(void **s)
{
	const char *extra[] = { "--random", "-p2", NULL };

	(void)s;
	run_ops("lpm_trie:lpm-trie-lookup", extra);
}

static void test_insert(void **s) { (void)s; run_busy("lpm_trie:lpm-trie-insert", run_bench_points); }
static void test_delete(void **s) { (void)s; run_busy("lpm_trie:lpm-trie-delete", run_bench_points); }
static void test_free_trie(void **s) { (void)s; run_busy("lpm_trie:lpm-trie-free", free_points); }

/* The runner's frac-second lines: M ops/s and ns/op, K ops/s and ms/op. */
static void test_busy_lines(void **state)
{
	const char *extra[] = { "--nr_entries", "1000", NULL };

	(void)state;
	bc_test_expect_last_line("lpm_trie:lpm-trie-delete", extra,
				 "^Summary: throughput +[0-9]+\\.[0-9]+ \xc2\xb1 +[0-9]+\\.[0-9]+ M ops/s "
				 "\\( *[0-9]+\\.[0-9]+M ops/prod\\), latency +[0-9]+\\.[0-9]+ ns/op$");
	bc_test_expect_last_line("lpm_trie:lpm-trie-free", extra,
				 "^Summary: throughput +[0-9]+\\.[0-9]+ \xc2\xb1 +[0-9]+\\.[0-9]+ K ops/s "
				 "\\( *[0-9]+\\.[0-9]+K ops/prod\\), latency +[0-9]+\\.[0-9]+ ms/op$");
}

static void test_census_sees_a_run(void **state)
{
	const char *args[] = { "run", "lpm_trie:lpm-trie-lookup", "--nr_entries", "1000", "-w0",
			       "-d3", "-q", NULL };

	(void)state;
	bc_test_census_sees_run(RODATA, args);
}

static void test_bad_values(void **state)
{
	const char *missing[] = { "run", "lpm_trie:lpm-trie-lookup", NULL };
	const char *rnd[] = { "run", "lpm_trie:lpm-trie-insert", "--nr_entries", "100",
				 "--random", NULL };
	const char *prefix[] = { "run", "lpm_trie:lpm-trie-lookup", "--nr_entries", "1000",
				 "--prefix_len", "8", NULL };
	const char *two[] = { "run", "lpm_trie:lpm-trie-delete", "--nr_entries", "100", "-p2",
			      NULL };

	(void)state;
	bc_test_expect_usage(missing, "--nr_entries: required");
	bc_test_expect_usage(rnd, "--random");
	bc_test_expect_usage(prefix, "--nr_entries '1000': expected at most 256");
	bc_test_expect_usage(two, "--producers 2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noop),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_lookup_random),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_insert),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_free_trie),
		cmocka_unit_test(test_busy_lines),
		cmocka_unit_test(test_census_sees_a_run),
		cmocka_unit_test(test_bad_values),
	};
	int rc = bc_test_bpf_skip("the LPM trie benchmarks");

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
