// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Program facts in every run (issue 38), through the real binary:
 *  - JSON: each program carries its translated and JIT-ed sizes, its maps
 *    and the verifier's statistics of its load, whether the core loaded
 *    it through a skeleton (bpf_loop: with the count of insns loaded) or
 *    the plugin loaded it itself at log level 4 (trigger);
 *  - text: `run -v` prints a Programs: block, a run without -v does not
 *    (the kernel runner's scripts read that output);
 *  - `programs`: one benchmark, and --all as CSV, loaded and unloaded
 *    with nothing left behind.
 * Sizes are asserted > 0; no figure is pinned, kernels differ.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_report.h"
#include "json_read.h"

static double num(const struct bc_json *obj, const char *key)
{
	const struct bc_json *v = bc_json_get(obj, key);

	if (!v || v->type != BC_JSON_NUMBER) {
		fprintf(stderr, "programs_run: \"%s\" is no number\n", key);
		fail();
	}
	return v->number;
}

/*
 * The program of that role whose name starts with prefix: the kernel in
 * front of the test chooses which one a benchmark loads (bpf_loop's
 * producer is bl_fentry where trampolines load, bl_tp where they do not;
 * trig-tp's program under test is trig_tp, or trig_syscall_tp on 6.1).
 */
static const struct bc_json *program_of(const struct bc_json *doc, const char *prefix,
					const char *role)
{
	const struct bc_json *progs = bc_json_get(doc, "programs");

	for (size_t i = 0; i < bc_json_len(progs); i++) {
		const struct bc_json *p = bc_json_at(progs, i);
		const char *name = bc_json_str(bc_json_get(p, "name"));
		const char *r = bc_json_str(bc_json_get(p, "role"));

		if (name && r && !strncmp(name, prefix, strlen(prefix)) && !strcmp(r, role))
			return p;
	}
	fprintf(stderr, "programs_run: no %s... program of role %s in the document\n", prefix, role);
	fail();
	return NULL;
}

static void expect_sizes(const struct bc_json *p)
{
	const struct bc_json *maps = bc_json_get(p, "maps");

	assert_true(num(p, "xlated_insns") > 0);
	assert_true(num(p, "jited_bytes") > 0);
	assert_true(bc_json_bool(bc_json_get(p, "jited"), false));
	assert_non_null(maps);
	assert_true(bc_json_len(maps) > 0);
	assert_true(num(bc_json_at(maps, 0), "max_entries") > 0);
}

static void test_trigger_json(void **state)
{
	const char *const args[] = { "run", "trigger:trig-tp", "-d1", "-w0", NULL };
	const struct bc_json *p, *v;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	doc = bc_test_run_json(&r, args);
	p = program_of(doc, "trig_", "under test");
	expect_sizes(p);
	/* Loaded by the plugin: the statistics of libbpf's log of the load. */
	v = bc_json_get(p, "verifier");
	if (!v || v->type != BC_JSON_OBJECT) {
		bc_test_dump("trigger:trig-tp", &r);
		fail_msg("no verifier statistics: %s", bc_json_str(bc_json_get(p, "note")) ?: "no note");
	}
	assert_true(num(v, "processed_insns") > 0);
	/* The count loaded is libbpf's, which only the core's own load knows. */
	assert_true(bc_json_is_null(bc_json_get(p, "insns")));
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void test_skeleton_json(void **state)
{
	const char *const args[] = { "run", "bpf_loop:bpf-loop", "-d1", "-w0", NULL };
	const struct bc_json *p, *v;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	doc = bc_test_run_json(&r, args);
	p = program_of(doc, "bl_", "producer");
	expect_sizes(p);
	assert_true(num(p, "insns") > 0);
	v = bc_json_get(p, "verifier");
	if (!v || v->type != BC_JSON_OBJECT) {
		bc_test_dump("bpf_loop:bpf-loop", &r);
		fail_msg("no verifier statistics: %s", bc_json_str(bc_json_get(p, "note")) ?: "no note");
	}
	assert_true(num(v, "processed_insns") > 0);
	assert_true(num(v, "insn_limit") >= num(v, "processed_insns"));
	assert_true(num(v, "total_states") >= 0);
	assert_true(bc_json_len(bc_json_get(v, "stack_depth")) > 0);
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void test_text(void **state)
{
	const char *const verbose[] = { "run", "bpf_loop:bpf-loop", "-d1", "-w0", "-v", NULL };
	const char *const quiet[] = { "run", "bpf_loop:bpf-loop", "-d1", "-w0", NULL };
	struct bc_test_run r;
	const char *block, *summary;

	(void)state;
	bc_test_run_benchcore(&r, verbose);
	if (r.status)
		bc_test_dump("run -v", &r);
	assert_int_equal(r.status, 0);
	block = strstr(r.out, "\nPrograms:");
	summary = strstr(r.out, "\nSummary:");
	assert_non_null(block);
	assert_non_null(summary);
	assert_true(block < summary);
	/* bl_tp, bl_fentry or bl_raw_tp: the attach point is the kernel's */
	assert_non_null(strstr(block, "\n  bl_"));
	assert_non_null(strstr(block, " (producer, "));
	assert_non_null(strstr(block, "    verifier: "));
	bc_test_run_free(&r);

	bc_test_run_benchcore(&r, quiet);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "Programs:"));
	bc_test_run_free(&r);
}

static const char *const ours[] = { "bl_", "bpf_loop.", "trig_", "trigger.", NULL };

/* The CSV row of bench and program, or NULL. */
static char *csv_row(char *out, const char *bench, const char *prog)
{
	char want[256];
	char *p;

	/* prog ending in '_' is a prefix (bl_: bl_tp, bl_fentry; program_of()) */
	snprintf(want, sizeof(want), "\n%s,ok,%s%s", bench, prog,
		 prog[0] && prog[strlen(prog) - 1] == '_' ? "" : ",");
	p = strstr(out, want);
	return p ? p + 1 : NULL;
}

/* The n-th (from 0) comma-separated field of a CSV line, as a number. */
static double csv_field(const char *row, int n)
{
	for (int i = 0; i < n; i++) {
		row = strchr(row, ',');
		assert_non_null(row);
		row++;
	}
	return *row == ',' || *row == '\n' ? -1 : strtod(row, NULL);
}

/* `programs`: one benchmark as JSON, loaded and unloaded, never measured. */
static void test_programs_one(void **state)
{
	const char *const args[] = { "programs", "bpf_loop:bpf-loop", NULL };
	const struct bc_json *p, *v;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	doc = bc_test_run_json(&r, args);
	assert_string_equal(bc_json_str(bc_json_get(doc, "benchmark")), "bpf_loop:bpf-loop");
	p = program_of(doc, "bl_", "producer");
	expect_sizes(p);
	v = bc_json_get(p, "verifier");
	assert_true(num(v, "processed_insns") > 0);
	assert_null(bc_json_get(doc, "iterations"));
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "programs bpf_loop:bpf-loop");
}

/* `programs --all --format csv`: every benchmark, the trigger plugin's
 * programs with their sizes, a core-loaded one with the verifier's
 * figures, an unavailable one in a row of its own, nothing left loaded. */
static void test_programs_all_csv(void **state)
{
	const char *const args[] = { "programs", "--all", "--format", "csv", NULL };
	struct bc_test_run r;
	char *row;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status)
		bc_test_dump("programs --all", &r);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "benchmark,status,program,role,type,insns,xlated_insns,"
				      "jited_bytes,verified_insns,processed_insns,"));
	row = csv_row(r.out, "trigger:trig-tp", "trig_");
	if (!row)
		fail_msg("no trigger:trig-tp row: %.2000s", r.out);
	assert_true(csv_field(row, 6) > 0);	/* xlated_insns */
	assert_true(csv_field(row, 7) > 0);	/* jited_bytes */
	assert_true(csv_field(row, 9) > 0);	/* processed_insns */
	/* bpf_loop's producer, at whichever attach point this kernel gave */
	row = csv_row(r.out, "bpf_loop:bpf-loop", "bl_");
	assert_non_null(row);
	assert_true(csv_field(row, 5) > 0);	/* insns */
	assert_true(csv_field(row, 9) > 0);	/* processed_insns */
	assert_true(csv_field(row, 10) >= csv_field(row, 9));
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "programs --all");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trigger_json),
		cmocka_unit_test(test_skeleton_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_programs_one),
		cmocka_unit_test(test_programs_all_csv),
	};
	int skip = bc_test_bpf_skip("programs_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
