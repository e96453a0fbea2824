// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bloom plugin through the real benchcore binary: each benchmark for
 * one second (-w0 -d1 --format json) with small maps. What must hold: the
 * work was counted (hits, or for the random lookups hits + drops), stored
 * values are all found (no drops), a bloom filter sized to overflow lets
 * some but not all absent keys through (false-hit share within (0, 1)),
 * the report names the attach point and declares the program, and no
 * program of the run is loaded after it. Bad values exit with status 2 and name the value.
 *
 * No timing is asserted: the machine is a shared VM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "bc_test_bench.h"
#include "bc_test_census.h"
#include "json_read.h"

#define RODATA "bloom.rodata"

static const char *const attach_points[] = {
	"fentry/", "tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter", NULL,
};

/* Runs one benchmark; checks the attach point and that nothing is left. */
static struct bc_json *run(struct bc_test_run *c, const char *bench, const char *const *extra)
{
	struct bc_json *doc = bc_test_bench_json(c, bench, extra);
	const char *ap = bc_test_attach_point_in(doc, attach_points);
	unsigned int total, left;

	/* The program under test is declared (bc_ctx_add_prog). */
	assert_int_equal(bc_test_program_count(doc, "producer"), 1);
	/* The child is gone: whatever it loaded must be gone with it. */
	left = bc_test_wait_rodata_progs(RODATA, c->pid, 0, &total);
	print_message("%s at %s: %u of %u loaded programs are the run's\n", bench, ap, left, total);
	assert_int_equal(left, 0);
	return doc;
}

static void test_lookup(void **state)
{
	const char *extra[] = { "--nr_entries", "5000", NULL };
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "bloom:bloom-lookup", extra);
	/* Every stored value is in the filter: all hits. */
	assert_true(bc_test_summary_mean(doc, "hits") > 0);
	assert_true(bc_test_summary_mean(doc, "drops") == 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_update(void **state)
{
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "bloom:bloom-update", NULL);
	assert_true(bc_test_summary_mean(doc, "hits") > 0);
	assert_true(bc_test_summary_mean(doc, "drops") == 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

/*
 * One hash function and few entries: the filter is small and busy, so a
 * good share of random absent keys pass it (false hits), and the rest do
 * not. The share is of hits + drops + false hits, as the runner counts.
 */
static void test_false_positive(void **state)
{
	const char *extra[] = { "--nr_entries", "1000", "--nr_hash_funcs", "1", NULL };
	double hits, drops, fh, share;
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "bloom:bloom-false-positive", extra);
	/* The options reached the run as typed values. */
	assert_true(bc_test_option_num(doc, "nr_entries") == 1000);
	assert_true(bc_test_option_num(doc, "nr_hash_funcs") == 1);
	assert_true(bc_test_option_num(doc, "value_size") == 8);
	hits = bc_test_summary_mean(doc, "hits");
	drops = bc_test_summary_mean(doc, "drops");
	fh = bc_test_summary_mean(doc, "false_hits");
	share = fh / (hits + drops + fh);
	print_message("false hits: %.4f of all operations\n", share);
	assert_true(share > 0 && share < 1);
	/* A false hit is a hash map miss, so it is counted as a drop too. */
	assert_true(drops >= fh * 0.999);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_hashmap_without_bloom(void **state)
{
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "bloom:hashmap-without-bloom", NULL);
	/* Random 8-byte keys: the lookups happen and (nearly) all miss. */
	assert_true(bc_test_summary_mean(doc, "drops") > 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_hashmap_with_bloom(void **state)
{
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "bloom:hashmap-with-bloom", NULL);
	/* Keys the filter rules out count as hits without a hash lookup. */
	assert_true(bc_test_summary_mean(doc, "hits") > 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

/* The census must see a running benchmark's program, or its "none left"
 * proves nothing. */
static void test_census_sees_a_run(void **state)
{
	const char *args[] = { "run", "bloom:bloom-lookup", "-w0", "-d3", "-q", NULL };

	(void)state;
	bc_test_census_sees_run(RODATA, args);
}

static void test_bad_values(void **state)
{
	const char *small[] = { "run", "bloom:bloom-lookup", "--value_size", "1", NULL };
	const char *hashes[] = { "run", "bloom:bloom-lookup", "--nr_hash_funcs", "16", NULL };
	const char *distinct[] = { "run", "bloom:hashmap-with-bloom", "--value_size", "2",
				   "--nr_entries", "70000", NULL };
	const char *cons[] = { "run", "bloom:bloom-update", "-c1", NULL };

	(void)state;
	bc_test_expect_usage(small, "--value_size '1'");
	bc_test_expect_usage(hashes, "--nr_hash_funcs '16'");
	bc_test_expect_usage(distinct, "--nr_entries '70000': expected at most 65536");
	bc_test_expect_usage(cons, "--consumers 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_false_positive),
		cmocka_unit_test(test_hashmap_without_bloom),
		cmocka_unit_test(test_hashmap_with_bloom),
		cmocka_unit_test(test_census_sees_a_run),
		cmocka_unit_test(test_bad_values),
	};
	int rc = bc_test_bpf_skip("the bloom benchmarks");

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
