// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Text layouts against a hand-built result: the kernel runner's line shapes
 * are a contract with existing scripts, so they are compared byte for byte.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bc_internal.h"
#include "fake_result.h"
#include "mem_out.h"

static struct fake_result fr;
static const char *iter_line(size_t idx)
{
	FILE *f = mem_open();

	bc_report_text_iter(f, &fr.res, idx);
	fclose(f);
	return out;
}

/* The summary block; warnings go to stderr, not here. */
static const char *summary_text(void)
{
	FILE *f = mem_open();

	bc_report_text_summary(f, &fr.res);
	fclose(f);
	return out;
}

/* Line `n` (0-based) of the last output, without its newline. */
static const char *line(int n)
{
	static char buf[1024];
	const char *p = out;
	size_t len;

	while (n-- > 0) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	len = strcspn(p, "\n");
	assert_true(len < sizeof(buf));
	memcpy(buf, p, len);
	buf[len] = '\0';
	return buf;
}

static int teardown(void **state)
{
	(void)state;
	fake_result_fini(&fr);
	free(out);
	out = NULL;
	return 0;
}

static void test_hits_drops(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_HITS_DROPS);
	assert_string_equal(iter_line(0), "Iter   0 ( 12.345us): hits    2.000M/s (  1.000M/prod), "
			    "drops    0.000M/s, total operations    2.000M/s [warm-up]\n");
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s (  0.500M/prod), "
			    "drops    0.000M/s, total operations    1.000M/s\n");
	summary_text();
	assert_string_equal(line(0), "Summary: hits    1.200 \xc2\xb1 0.200M/s (  0.600M/prod), "
			    "drops    0.000 \xc2\xb1 0.000M/s, "
			    "total operations    1.200 \xc2\xb1 0.200M/s");
	assert_non_null(strstr(line(1), "Spread over 3 iterations: hits min 1.000, median 1.200, "
				       "max 1.400 M/s; drops min 0.000"));
	assert_string_equal(line(2), "CPU: producers 2.000 CPUs (1.500 user, 0.500 sys), "
			    "consumers 0.000 CPUs (0.000 user, 0.000 sys); hits per CPU-second 0.600M");
	assert_string_equal(line(3), "Attach point: tp/syscalls/sys_enter_getpgid");
}

static void test_ops(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_OPS);
	assert_string_equal(iter_line(2), "Iter   2 ( 14.345us): hits    1.200M/s (  0.600M/prod)\n");
	summary_text();
	assert_string_equal(line(0), "Summary: throughput    1.200 \xc2\xb1 0.200 M ops/s "
			    "(  0.600M ops/prod), latency 1666.667 ns/op");
}

static void test_local_storage(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_LOCAL_STORAGE);
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s "
			    "important_hits    0.100M/s\n");
	summary_text();
	assert_string_equal(line(0), "Summary: hits throughput    1.200 \xc2\xb1 0.200 M ops/s, "
			    "hits latency  833.333 ns/op, "
			    "important_hits throughput    0.120 \xc2\xb1 0.020 M ops/s");
}

static void test_false_hits(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_FALSE_HITS);
	/* No false_hits metric in the fake: shown as zero, as layouts promise. */
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): 0 false hits of 1000000 total "
			    "operations. Percentage = 0.00 %\n");
	summary_text();
	assert_string_equal(line(0), "Summary: 0 false hits of 3600000 total operations. "
			    "Percentage =  0.00 %");
}

static void test_grace_period(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_GRACE_PERIOD);
	iter_line(1);
	assert_string_equal(line(0), "Iter 1\t avg tasks_trace grace period latency\t3000.000000 ns");
	assert_string_equal(line(1), "Iter 1\t avg ticks per tasks_trace grace period\t0.000000");
	summary_text();
	assert_string_equal(line(0), "SUMMARY tasks_trace grace period latency\tavg 3.000 us\t"
			    "stddev 0.000 us");
	assert_string_equal(line(1), "SUMMARY ticks per tasks_trace grace period\tavg 0.000\t"
			    "stddev 0.000");
}

static int custom_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "custom %.1f", rates[0] / 1e6);
	return 0;
}

static int custom_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
			  char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "custom %.2f +- %.2f", means[0] / 1e6, stddevs[0] / 1e6);
	return 0;
}

static void test_custom(void **state)
{
	(void)state;
	fake_result_init(&fr, BC_LAYOUT_CUSTOM);
	/* Without callbacks: every metric, counters in M/s. */
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s, drops    0.000M/s, "
			    "important_hits    0.100M/s, gp_ns    0.006M/s, gp_ct    0.000M/s\n");
	fr.bench.desc.format_iter = custom_iter;
	fr.bench.desc.format_summary = custom_summary;
	assert_string_equal(iter_line(0), "Iter   0 ( 12.345us): custom 2.0 [warm-up]\n");
	summary_text();
	assert_string_equal(line(0), "Summary: custom 1.20 +- 0.20");
}

static void test_no_measured_iterations(void **state)
{
	size_t i;

	(void)state;
	fake_result_init(&fr, BC_LAYOUT_HITS_DROPS);
	for (i = 0; i < FAKE_ITERS; i++)
		fr.iters[i].warmup = true;
	fr.res.interrupted = true;
	bc_stats_summarise(&fr.res);
	summary_text();
	assert_string_equal(line(0), "Summary: no measured iterations (4 warm-up, interrupted)");
}

static void test_warnings(void **state)
{
	FILE *f;

	(void)state;
	fake_result_init(&fr, BC_LAYOUT_OPS);
	f = mem_open();
	bc_report_warnings(f, &fr.res);
	fclose(f);
	assert_string_equal(out, "benchcore: warning: a \"quoted\" warning\twith a tab\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hits_drops, teardown),
		cmocka_unit_test_teardown(test_ops, teardown),
		cmocka_unit_test_teardown(test_local_storage, teardown),
		cmocka_unit_test_teardown(test_false_hits, teardown),
		cmocka_unit_test_teardown(test_grace_period, teardown),
		cmocka_unit_test_teardown(test_custom, teardown),
		cmocka_unit_test_teardown(test_no_measured_iterations, teardown),
		cmocka_unit_test_teardown(test_warnings, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
