// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The hashmap plugin through the real benchcore binary: both benchmarks
 * for one second (-w0 -d1 --format json). What must hold: updates and
 * lookups were counted, the headline (operations per second of BPF time,
 * "events") is there and positive, every lookup found its key (a miss
 * fails the run), the text report ends with the runner's per-CPU line,
 * each trigger's BPF time reached the histogram, the report names the
 * attach point and declares the program, and no program of the run is
 * loaded after it. Bad values exit with status 2 and name the value.
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

#define RODATA "hashmap.rodata"

static const char *const attach_points[] = {
	"fentry/", "tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter", NULL,
};

static struct bc_json *run(struct bc_test_run *c, const char *bench, const char *const *extra)
{
	struct bc_json *doc = bc_test_bench_json(c, bench, extra);
	const char *ap = bc_test_attach_point_in(doc, attach_points);
	const struct bc_json *h;
	unsigned int total, left;

	assert_int_equal(bc_test_program_count(doc, "producer"), 1);
	/* The headline: the runner's rate per second of BPF time. */
	assert_true(bc_test_summary_mean(doc, "events") > 0);
	/* Every trigger's BPF time reached the histogram, recorded in BPF. */
	h = bc_json_get(bc_json_get(doc, "summary"), "trigger_ns");
	assert_non_null(h);
	assert_true(bc_json_num(bc_json_get(h, "count"), 0) > 0);
	left = bc_test_wait_rodata_progs(RODATA, c->pid, 0, &total);
	print_message("%s at %s: %u of %u loaded programs are the run's\n", bench, ap, left, total);
	assert_int_equal(left, 0);
	return doc;
}

static void test_full_update(void **state)
{
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "hashmap:bpf-hashmap-full-update", NULL);
	assert_true(bc_test_summary_mean(doc, "updates") > 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

static void test_lookup_defaults(void **state)
{
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "hashmap:bpf-hashmap-lookup", NULL);
	assert_true(bc_test_summary_mean(doc, "lookups") > 0);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

/* Long keys, a map larger than its contents, hex flags (BPF_F_ZERO_SEED). */
static void test_lookup_options(void **state)
{
	const char *extra[] = { "--key_size", "64", "--max_entries", "20000", "--nr_entries",
				"10000", "--nr_loops", "100000", "--map_flags", "0x40", NULL };
	struct bc_test_run c;
	struct bc_json *doc;

	(void)state;
	doc = run(&c, "hashmap:bpf-hashmap-lookup", extra);
	assert_true(bc_test_summary_mean(doc, "lookups") > 0);
	assert_true(bc_test_option_num(doc, "key_size") == 64);
	assert_true(bc_test_option_num(doc, "nr_loops") == 100000);
	bc_json_free(doc);
	bc_test_run_free(&c);
}

/* The runner's end-of-run lines, last, as its scripts read them. */
static void test_runner_lines(void **state)
{
	(void)state;
	bc_test_expect_last_line("hashmap:bpf-hashmap-full-update", NULL,
				 "^[0-9]+:hash_map_full_perf [0-9]+ events per sec$");
	bc_test_expect_last_line("hashmap:bpf-hashmap-lookup", NULL,
				 "^cpu[0-9]{2}: lookup [0-9]+\\.[0-9]{3}M \u00b1 [0-9]+\\.[0-9]{3}M events/sec "
				 "\\(approximated from [0-9]+ samples of ~[0-9]+ms\\)$");
}

static void test_census_sees_a_run(void **state)
{
	const char *args[] = { "run", "hashmap:bpf-hashmap-full-update", "-w0", "-d3", "-q", NULL };

	(void)state;
	bc_test_census_sees_run(RODATA, args);
}

static void test_bad_values(void **state)
{
	const char *too_many[] = { "run", "hashmap:bpf-hashmap-lookup", "--nr_entries", "2000",
				   NULL };
	const char *flags[] = { "run", "hashmap:bpf-hashmap-lookup", "--map_flags", "0xzz", NULL };
	const char *loops[] = { "run", "hashmap:bpf-hashmap-lookup", "--nr_loops", "100", NULL };
	const char *key[] = { "run", "hashmap:bpf-hashmap-lookup", "--key_size", "1025", NULL };

	(void)state;
	bc_test_expect_usage(too_many, "--nr_entries '2000': expected at most --max_entries (1000)");
	bc_test_expect_usage(flags, "--map_flags '0xzz'");
	bc_test_expect_usage(loops, "--nr_loops '100'");
	bc_test_expect_usage(key, "--key_size '1025'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_update),
		cmocka_unit_test(test_lookup_defaults),
		cmocka_unit_test(test_lookup_options),
		cmocka_unit_test(test_runner_lines),
		cmocka_unit_test(test_census_sees_a_run),
		cmocka_unit_test(test_bad_values),
	};
	int rc = bc_test_bpf_skip("the hashmap benchmarks");

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
