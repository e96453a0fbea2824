// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * nsop:batch through the real benchcore binary: a benchmark whose declared
 * headline is a time per operation read from BPF (ABI 2.3). Its run
 * document names ns_per_op as the headline, lists only its two metrics
 * (the operation counter the time is divided by is none of them), says the
 * time is better lower, and measured one; the text report prints it per
 * op; --repeat watches it. No timing is asserted: only that something was
 * measured. Skipped (77) without root or BTF.
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

#define BENCH "nsop:batch"
#define NSOP_DIR "--plugin-dir", BC_TEST_NSOP_PLUGIN_DIR

static const char *const ours[] = { "nsop", NULL };

static const struct bc_json *metric_entry(const struct bc_json *doc, size_t i)
{
	return bc_json_at(bc_json_get(doc, "metrics"), i);
}

static const char *metric_str(const struct bc_json *doc, size_t i, const char *key)
{
	const char *s = bc_json_str(bc_json_get(metric_entry(doc, i), key));

	return s ? s : "(none)";
}

static void test_document(void **state)
{
	const char *args[] = { NSOP_DIR, "run", BENCH, "-w0", "-d2", NULL };
	const struct bc_json *sum, *it;
	struct bc_test_run r;
	struct bc_json *doc;
	double hits, ns;

	(void)state;
	doc = bc_test_run_json(&r, args);
	if (!bc_json_str(bc_json_get(doc, "headline")) ||
	    strcmp(bc_json_str(bc_json_get(doc, "headline")), "ns_per_op")) {
		bc_test_dump(BENCH, &r);
		fail_msg("\"headline\" is not \"ns_per_op\"");
	}
	/* hits and ns_per_op, in their order, and nothing else. */
	assert_int_equal(bc_json_len(bc_json_get(doc, "metrics")), 2);
	assert_string_equal(metric_str(doc, 0, "name"), "hits");
	assert_string_equal(metric_str(doc, 0, "direction"), "higher");
	assert_string_equal(metric_str(doc, 1, "name"), "ns_per_op");
	assert_string_equal(metric_str(doc, 1, "kind"), "time_per_op");
	assert_string_equal(metric_str(doc, 1, "unit"), "ns");
	assert_string_equal(metric_str(doc, 1, "direction"), "lower");

	hits = bc_test_summary_mean(doc, "hits");
	ns = bc_test_summary_mean(doc, "ns_per_op");
	if (!(hits > 0) || !(ns > 0)) {
		bc_test_dump(BENCH, &r);
		fail_msg("%.0f calls/s, %.3f ns per lookup: expected both > 0", hits, ns);
	}
	sum = bc_json_get(bc_json_get(doc, "summary"), "ns_per_op");
	assert_string_equal(bc_json_str(bc_json_get(sum, "unit")), "ns");
	assert_true(bc_json_num(bc_json_get(sum, "n"), 0) >= 1);
	/* The summary holds the two metrics and the figures, nothing else. */
	assert_int_equal(bc_json_len(bc_json_get(doc, "summary")), 3);
	it = bc_json_at(bc_json_get(doc, "iterations"), 0);
	assert_int_equal(bc_json_len(bc_json_get(it, "values")), 2);
	assert_null(strstr(r.out, "batches.ops"));
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, BENCH);
}

/* The Summary line carries the judged figure, per op, beside the hits. */
static void test_text(void **state)
{
	const char *args[] = { NSOP_DIR, "run", BENCH, "-w0", "-d1", NULL };
	struct bc_test_run r;
	const char *s;

	(void)state;
	bc_test_run_benchcore(&r, args);
	s = strstr(r.out, "\nSummary: hits ");
	if (r.status != 0 || !s || !strstr(s, ", ns_per_op ") || !strstr(s, "s/op\n")) {
		bc_test_dump(BENCH, &r);
		fail_msg("expected exit status 0 and a Summary line with hits and ns_per_op per op");
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, BENCH);
}

/* --repeat watches the judged metric, not the call rate. */
static void test_repeat_watches_headline(void **state)
{
	const char *args[] = { NSOP_DIR, "run", BENCH, "-w0", "-d1", "--repeat", "2", NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	const char *watched;

	(void)state;
	doc = bc_test_run_json(&r, args);
	watched = bc_json_str(bc_json_get(bc_json_get(doc, "repeats"), "watched"));
	if (!watched || strcmp(watched, "ns_per_op")) {
		bc_test_dump(BENCH, &r);
		fail_msg("repeats.watched is %s, expected ns_per_op", watched ? watched : "null");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, BENCH " --repeat 2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_repeat_watches_headline),
	};
	int skip = bc_test_bpf_skip("nsop_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
