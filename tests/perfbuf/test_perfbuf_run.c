// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The perfbuf plugin through the real benchcore binary: both benchmarks in
 * the default, --rb-sampled and --rb-b2b modes for a one-second run, read
 * back from --format json. What must hold: records arrive (hits > 0), their
 * delivery latency is a histogram with values and p50 <= p90 <= p99 <=
 * p99.9 <= max, none is dropped back-to-back, the report names the attach
 * point, and no perfbuf program is left loaded afterwards. Bad option values must exit
 * with status 2 and name the option.
 *
 * Other BPF users (another benchmark, a tracing tool) may load programs on
 * the same machine meanwhile, so "left loaded" counts only programs that
 * use a perf event array map named "perfbuf" (ours), not every program on
 * the system. The JSON is read back with the core's own parser
 * (core/json.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bc_test_report.h"
#include "bc_test_util.h"
#include "pb_progs.h"
#include "json.h"
#include "json_read.h"

/* ------------------------------------------------------ program census */

/* Walks every loaded program; *total gets them all. */
static unsigned int count_our_progs(unsigned int *total)
{
	return bc_test_count_progs(pb_prog_is_ours, NULL, total);
}

/* A program can stay visible for a moment after its process exited (see
 * bc_test_wait_progs); a real leak never goes away. */
static void assert_no_new_progs(unsigned int before)
{
	unsigned int total = 0;
	unsigned int now = bc_test_wait_progs(pb_prog_is_ours, NULL, before, &total);

	if (now > before)
		fail_msg("perfbuf programs loaded: %u before the run, %u after (of %u on the system)",
			 before, now, total);
}

/* ------------------------------------------------------------ checks */

static const char *const attach_names[] = {
	"fentry/", "tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter",
};

static bool is_attach_name(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(attach_names) / sizeof(attach_names[0]); i++)
		if (!strncmp(s, attach_names[i], strlen(attach_names[i])))
			return true;
	return false;
}

static double summary_num(const struct bc_json *doc, const char *metric, const char *field)
{
	const struct bc_json *v = bc_json_get(bc_json_get(bc_json_get(doc, "summary"), metric),
					      field);

	if (!v || v->type != BC_JSON_NUMBER)
		fail_msg("summary.%s.%s missing or not a number", metric, field);
	return v->number;
}

static void run_and_check(const char *bench, const char *const *extra, bool expect_no_drops)
{
	const char *args[24] = { "run", bench, "-w0", "-d1", "--format", "json", "--rb-latency" };
	size_t n = 7;
	unsigned int before, total;
	char perr[256];
	const char *ap;
	struct bc_test_run r;
	struct bc_json *doc;

	while (extra && *extra)
		args[n++] = *extra++;
	args[n] = NULL;

	before = count_our_progs(&total);
	bc_test_run_benchcore(&r, args);
	if (r.status != 0)
		fail_msg("%s exited %d; stderr:\n%s", bench, r.status, r.err);

	doc = bc_json_parse(r.out, strlen(r.out), perr, sizeof(perr));
	if (!doc)
		fail_msg("%s: stdout is not one JSON document (%s):\n%s", bench, perr, r.out);

	if (summary_num(doc, "hits", "mean") <= 0)
		fail_msg("%s: no records reached the consumer:\n%s", bench, r.out);
	/* Stamped records were measured: the percentiles are a distribution
	 * (their values depend on the load, so no bound). */
	bc_test_expect_histogram(doc, "latency", bench);
	if (expect_no_drops && summary_num(doc, "drops", "max") != 0)
		fail_msg("%s: back-to-back run dropped records:\n%s", bench, r.out);

	ap = bc_json_str(bc_json_get(doc, "attach_point"));
	if (!ap || !is_attach_name(ap))
		fail_msg("%s: no attach point named in the JSON report:\n%s", bench, r.out);
	/* This kernel refuses fentry (see ENVIRONMENT.md); whichever won, the
	 * helper must have recorded a real candidate. */
	print_message("%s: attached at %s, hits %.0f/s, drops %.0f/s\n", bench, ap,
		      summary_num(doc, "hits", "mean"), summary_num(doc, "drops", "mean"));

	bc_json_free(doc);
	bc_test_run_free(&r);
	assert_no_new_progs(before);
}

/* ------------------------------------------------------------- tests */

static void test_libbpf_default(void **state)
{
	(void)state;
	run_and_check("perfbuf:pb-libbpf", NULL, false);
}

static void test_libbpf_sampled(void **state)
{
	const char *extra[] = { "--rb-sampled", NULL };

	(void)state;
	run_and_check("perfbuf:pb-libbpf", extra, false);
}

static void test_libbpf_b2b(void **state)
{
	const char *extra[] = { "--rb-b2b", NULL };

	(void)state;
	run_and_check("perfbuf:pb-libbpf", extra, true);
}

static void test_custom_default(void **state)
{
	(void)state;
	run_and_check("perfbuf:pb-custom", NULL, false);
}

static void test_custom_sampled(void **state)
{
	const char *extra[] = { "--rb-sampled", NULL };

	(void)state;
	run_and_check("perfbuf:pb-custom", extra, false);
}

static void test_custom_b2b(void **state)
{
	const char *extra[] = { "--rb-b2b", NULL };

	(void)state;
	run_and_check("perfbuf:pb-custom", extra, true);
}

/* The kernel script's sample-rate sweep: b2b, sampled, batch == rate. */
static void test_custom_b2b_sampled_small_batch(void **state)
{
	const char *extra[] = { "--rb-b2b", "--rb-sampled", "--rb-batch-cnt", "10",
				"--rb-sample-rate", "10", NULL };

	(void)state;
	run_and_check("perfbuf:pb-custom", extra, true);
}

static void test_text_report_names_attach_point(void **state)
{
	const char *args[] = { "run", "perfbuf:pb-custom", "-w0", "-d1", "--rb-latency", NULL };
	struct bc_test_run r;
	bool named = false;
	size_t i;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0)
		fail_msg("exited %d; stderr:\n%s", r.status, r.err);
	if (!strstr(r.out, "Summary: hits"))
		fail_msg("no kernel-runner style summary line:\n%s", r.out);
	/* The latency percentiles come before the Summary line, which stays
	 * last for the runner's scripts. */
	if (!strstr(r.out, "Histogram delivery latency: count ") ||
	    strstr(r.out, "Histogram delivery latency") > strstr(r.out, "Summary: hits"))
		fail_msg("no latency line before the Summary line:\n%s", r.out);
	for (i = 0; i < sizeof(attach_names) / sizeof(attach_names[0]); i++)
		if (strstr(r.out, attach_names[i]) || strstr(r.err, attach_names[i]))
			named = true;
	if (!named)
		fail_msg("the text report does not name the attach point:\n%s%s", r.out, r.err);
	bc_test_run_free(&r);
}

struct usage_case {
	const char *what;
	const char *args[12];
	const char *needle;	/* must appear in stderr */
};

static void test_usage_errors(void **state)
{
	static const struct usage_case cases[] = {
		{ "b2b with two producers",
		  { "run", "perfbuf:pb-libbpf", "-w0", "-d1", "-p2", "--rb-b2b", NULL },
		  "--rb-b2b" },
		{ "sample rate above the batch",
		  { "run", "perfbuf:pb-custom", "-w0", "-d1", "--rb-sampled", "--rb-batch-cnt",
		    "100", "--rb-sample-rate", "101", NULL },
		  "--rb-sample-rate" },
		/* The runner checks the rate against the batch for every perf
		 * buffer run, sampled or not. */
		{ "sample rate above the default batch, unsampled",
		  { "run", "perfbuf:pb-custom", "-w0", "-d1", "--rb-sample-rate", "600", NULL },
		  "--rb-sample-rate 600: may not exceed --rb-batch-cnt (500) for a perf buffer" },
		{ "batch below the default rate, unsampled",
		  { "run", "perfbuf:pb-libbpf", "-w0", "-d1", "--rb-batch-cnt", "100", NULL },
		  "--rb-sample-rate 500: may not exceed --rb-batch-cnt (100)" },
		{ "pages not a power of two",
		  { "run", "perfbuf:pb-libbpf", "-w0", "-d1", "--pb-size", "3", NULL },
		  "--pb-size" },
		{ "zero pages",
		  { "run", "perfbuf:pb-libbpf", "-w0", "-d1", "--pb-size", "0", NULL },
		  "--pb-size" },
		{ "batch the verifier cannot take",
		  { "run", "perfbuf:pb-custom", "-w0", "-d1", "--rb-batch-cnt", "9000", NULL },
		  "--rb-batch-cnt" },
		{ "batch not a number",
		  { "run", "perfbuf:pb-custom", "-w0", "-d1", "--rb-batch-cnt", "lots", NULL },
		  "--rb-batch-cnt" },
		{ "two consumers",
		  { "run", "perfbuf:pb-custom", "-w0", "-d1", "-c2", NULL },
		  "consumer" },
	};
	unsigned int before = count_our_progs(NULL);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bc_test_run r;

		bc_test_run_benchcore(&r, cases[i].args);
		if (r.status != 2 || !strstr(r.err, cases[i].needle))
			fail_msg("%s: expected exit 2 naming '%s', got %d:\n%s", cases[i].what,
				 cases[i].needle, r.status, r.err);
		bc_test_run_free(&r);
	}
	/* Refused before setup: nothing may have been loaded at all. */
	assert_no_new_progs(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_libbpf_default),
		cmocka_unit_test(test_libbpf_sampled),
		cmocka_unit_test(test_libbpf_b2b),
		cmocka_unit_test(test_custom_default),
		cmocka_unit_test(test_custom_sampled),
		cmocka_unit_test(test_custom_b2b),
		cmocka_unit_test(test_custom_b2b_sampled_small_batch),
		cmocka_unit_test(test_text_report_names_attach_point),
	};
	int rc = bc_test_bpf_skip("the perfbuf benchmarks");

	if (rc)
		return rc;
	return cmocka_run_group_tests_name("perfbuf through benchcore", tests, NULL, NULL);
}
