// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plugin author's mistakes (the oops fixture, one per benchmark) through
 * the real benchcore binary: each costs one line that names the mistake
 * and its fix, with exit status 1 (a plugin bug found at run time), never
 * "unavailable on this kernel" (3) and never a crash; `list --probe` finds
 * the ones a probe can. The benchmark without a mistake runs on the 2.3
 * SDK alone (the core's skeleton ladder, a counter the threads bump, a
 * candidate the plugin rules out) and exits 0. No timing is asserted.
 * Skipped (77) without root or BTF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_report.h"
#include "json_read.h"

#define OOPS_DIR "--plugin-dir", BC_TEST_OOPS_PLUGIN_DIR
#define BC_TEST_EXIT_FAILED 1

static const char *const ours[] = { "oops_", NULL };

/* Runs oops:BENCH for a second; expects `status` and `line` in stderr. */
static void expect_line(const char *bench, int status, const char *line)
{
	char name[64];
	const char *args[] = { OOPS_DIR, "run", name, "-w0", "-d1", NULL };
	struct bc_test_run r;

	snprintf(name, sizeof(name), "oops:%s", bench);
	bc_test_run_benchcore(&r, args);
	if (r.status != status || !strstr(r.err, line)) {
		bc_test_dump(name, &r);
		fail_msg("%s: expected exit status %d and the line '%s'", name, status, line);
	}
	/* One line: the mistake is not said twice, nor as the kernel's. */
	if (strstr(r.err, "unavailable on this kernel") || strstr(strstr(r.err, line) + 1, line)) {
		bc_test_dump(name, &r);
		fail_msg("%s: the mistake is said more than once, or as the kernel's", name);
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, name);
}

static void test_ok(void **state)
{
	const char *args[] = { OOPS_DIR, "run", "oops:ok", "-w0", "-d1", "--oops-batch", "1K",
			       "--oops-only", "3", NULL };
	const char *quiet[] = { OOPS_DIR, "run", "oops:ok", "-w0", "-d1", "-q", NULL };
	const struct bc_json *progs;
	struct bc_test_run r;
	struct bc_json *doc;
	double hits, calls;

	(void)state;
	doc = bc_test_run_json(&r, args);
	/* The plugin ruled "nowhere" out; the kernel took the tracepoint. */
	assert_string_equal(bc_test_attach_point(doc), "tp/syscalls/sys_enter_getpgid");
	hits = bc_test_summary_mean(doc, "hits");
	calls = bc_test_summary_mean(doc, "calls");
	/* The threads' counter, summed by the core, against BPF's: read at
	 * one tick, a batch or two apart. */
	if (!(calls > 0) || hits < calls * 0.9 || hits > calls * 1.1) {
		bc_test_dump("oops:ok", &r);
		fail_msg("%.0f hits/s for %.0f calls/s counted by the threads", hits, calls);
	}
	(void)bc_test_expect_histogram(doc, "lat_ns", "oops:ok");
	/* Declared by the core as its skeleton loaded it. */
	progs = bc_json_get(doc, "programs");
	assert_int_equal(bc_json_len(progs), 1);
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(progs, 0), "name")), "oops_tp");
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(progs, 0), "role")), "producer");
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "oops:ok");

	/* -q keeps what was measured. */
	bc_test_run_benchcore(&r, quiet);
	if (r.status != 0 || !strstr(r.out, "Attach point: tp/syscalls/sys_enter_getpgid\n") ||
	    strstr(r.out, "Iter ")) {
		bc_test_dump("oops:ok -q", &r);
		fail_msg("-q: expected the attach point line and no Iter line");
	}
	bc_test_run_free(&r);
}

static void test_program_typo(void **state)
{
	(void)state;
	/* The first candidate's program is mistyped: the ladder stops before
	 * it loads anything, rather than falling through to raw_tp. */
	expect_line("prog-typo", BC_TEST_EXIT_FAILED,
		    "oops:prog-typo: failed: prog-typo: attach point 'tp/syscalls/sys_enter_getpgid' names prog_name 'oops_tpp', which BPF object 'oops' does not have (did you mean 'oops_tp'?); it has: oops_tp, oops_raw_tp; fix the attach point's prog_name\n");
	/* The same through a 2.2-style attach callback. */
	expect_line("cb-typo", BC_TEST_EXIT_FAILED,
		    "oops:cb-typo: failed: cb-typo: attach point tp/syscalls/sys_enter_getpgid: program 'oops_tpp' is not in the plugin's BPF object 'oops' (did you mean 'oops_tp'?); it has: oops_tp, oops_raw_tp; fix the attach point's prog_name\n");
}

static void test_bpf_sources(void **state)
{
	(void)state;
	expect_line("bpf-typo", BC_TEST_EXIT_FAILED,
		    "bpf-typo: metric 'hits' has bpf 'hitz', but the BPF object has no global of that name in .bss or .data (did you mean 'hits'?); fix the metric's bpf\n");
	expect_line("map-typo", BC_TEST_EXIT_FAILED,
		    "map-typo: histogram 'lat_ns' reads BPF map 'lat_n', which the loaded BPF object does not have (did you mean 'lat_ns'?); fix the metric's bpf\n");
	expect_line("rodata", BC_TEST_EXIT_FAILED,
		    "rodata: metric 'hits' has bpf 'a_const', a global in .rodata, which is read-only data: the core would read the value it was loaded with forever; declare it without const so that it lands in .bss or .data\n");
}

static void test_counters_by_name(void **state)
{
	(void)state;
	expect_line("thread-typo", BC_TEST_EXIT_FAILED,
		    "thread-typo: bc_thread_counter('call'): no metric of that name is counted by the threads (those that are: calls); declare it with .threads = true or fix the name\n");
	expect_line("measure-typo", BC_TEST_EXIT_FAILED,
		    "measure-typo: bc_metric_set('tick'): the benchmark has no metric of that name; measure() fills: ticks\n");
}

static void test_attach_callback_mistakes(void **state)
{
	(void)state;
	expect_line("cb-null-object", BC_TEST_EXIT_FAILED,
		    "cb-null-object: bc_ctx_set_bpf_object() was given no BPF object; hand over the loaded skeleton's object (skel->obj)\n");
	expect_line("cb-returns-7", BC_TEST_EXIT_FAILED,
		    "cb-returns-7: attaching at tp/syscalls/sys_enter_getpgid: the attach callback returned 7; it returns 0 or a negative errno (the kernel's answer), and says any other failure with bc_error()\n");
}

static void test_option_of_another_benchmark(void **state)
{
	const char *args[] = { OOPS_DIR, "run", "oops:prog-typo", "-w0", "-d1", "--oops-only", "3",
			       NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE ||
	    !strstr(r.err, "benchcore: run: --oops-only is not an option of oops:prog-typo; it belongs to oops:ok (`benchcore run PLUGIN:BENCH --help` lists a benchmark's options)\n")) {
		bc_test_dump("--oops-only", &r);
		fail_msg("a benchmark-only option on another benchmark: expected status 2 naming oops:ok");
	}
	bc_test_run_free(&r);
}

/* What a probe can find, `list --probe` says (and a plain list cannot). */
static void test_list_probe(void **state)
{
	const char *args[] = { OOPS_DIR, "list", "--probe", NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0 || !strstr(r.out, "names prog_name 'oops_tpp'") ||
	    !strstr(r.out, "bpf 'hitz', but the BPF object has no global of that name") ||
	    !strstr(r.out, "(did you mean 'hits'?)") || !strstr(r.out, "a global in .rodata")) {
		bc_test_dump("list --probe", &r);
		fail_msg("list --probe: expected the program and BPF source mistakes");
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "list --probe");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok),
		cmocka_unit_test(test_program_typo),
		cmocka_unit_test(test_bpf_sources),
		cmocka_unit_test(test_counters_by_name),
		cmocka_unit_test(test_attach_callback_mistakes),
		cmocka_unit_test(test_option_of_another_benchmark),
		cmocka_unit_test(test_list_probe),
	};
	int skip = bc_test_bpf_skip("the oops fixture loads BPF programs");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
