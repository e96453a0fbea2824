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
#include <math.h>

#include <benchcore/benchcore.h>
#include "context.h"
#include "report.h"
#include "fake_result.h"
#include "figures.h"
#include "hist.h"
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

#define PM "\xc2\xb1"
#define AP_LINE "Attach point: tp/syscalls/sys_enter_getpgid\n"

static const enum bc_metric_role hits_drops[FAKE_METRICS] = { BC_ROLE_HITS, BC_ROLE_DROPS };

/* The last line of the summary block is the Summary line: the runner's
 * scripts take it with tail -n1. */
static void assert_summary_last(const char *summary_line)
{
	size_t len = strlen(out), sl = strlen(summary_line);

	assert_true(len > sl);
	assert_string_equal(out + len - sl, summary_line);
	/* a whole line: what precedes it ends a line */
	assert_int_equal(out[len - sl - 1], '\n');
}

/* Role lines: HITS + DROPS give the runner's hits/drops lines. */
static void test_roles_hits_drops(void **state)
{
	(void)state;
	fake_result_init(&fr, NULL);
	fake_result_roles(&fr, hits_drops);
	/* The attach point precedes the first Iter line, and only it. */
	assert_string_equal(iter_line(0), AP_LINE "Iter   0 ( 12.345us): hits    2.000M/s "
			    "(  1.000M/prod), drops    0.000M/s, total operations    2.000M/s [warm-up]\n");
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s (  0.500M/prod), "
			    "drops    0.000M/s, total operations    1.000M/s\n");
	summary_text();
	/* benchcore's own lines, in the metrics' units for every benchmark */
	assert_non_null(strstr(line(0), "Spread over 3 iterations: hits min 1.000M ops/s, median "
				       "1.200M ops/s, max 1.400M ops/s; drops min 0 ops/s"));
	assert_string_equal(line(1), "CPU: producers 2.000 CPUs (1.500 user, 0.500 sys), "
			    "consumers 0.000 CPUs (0.000 user, 0.000 sys); hits per CPU-second 600.0K ops");
	assert_summary_last("Summary: hits    1.200 " PM " 0.200M/s (  0.600M/prod), "
			    "drops    0.000 " PM " 0.000M/s, total operations    1.200 " PM " 0.200M/s\n");
	assert_null(strstr(out, "Attach point"));
}

/* HITS alone: the runner's line still has its drops field, at zero. */
static void test_roles_hits_only(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_HITS };

	(void)state;
	fake_result_init(&fr, NULL);
	fr.metrics[0].label = "events";
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(3), "Iter   3 ( 15.345us): events    1.400M/s (  0.700M/prod), "
			    "drops    0.000M/s, total operations    1.400M/s\n");
	summary_text();
	assert_summary_last("Summary: events    1.200 " PM " 0.200M/s (  0.600M/prod), "
			    "drops    0.000 " PM " 0.000M/s, total operations    1.200 " PM " 0.200M/s\n");
}

/* OPS: throughput and the latency of one producer. */
static void test_roles_ops(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_OPS };

	(void)state;
	fake_result_init(&fr, NULL);
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(2), "Iter   2 ( 14.345us): hits    1.200M/s (  0.600M/prod)\n");
	summary_text();
	assert_summary_last("Summary: throughput    1.200 " PM " 0.200 M ops/s "
			    "(  0.600M ops/prod), latency 1666.667 ns/op\n");
}

/* OPS + RATE: the local-storage lines, latency without a producer factor. */
static void test_roles_ops_rate(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_OPS, BC_ROLE_AUX,
								 BC_ROLE_RATE };

	(void)state;
	fake_result_init(&fr, NULL);
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s "
			    "important_hits    0.100M/s\n");
	summary_text();
	assert_summary_last("Summary: hits throughput    1.200 " PM " 0.200 M ops/s, "
			    "hits latency  833.333 ns/op, "
			    "important_hits throughput    0.120 " PM " 0.020 M ops/s\n");
}

/* SHARE: the false-hits lines, counted events and their share. */
static void test_roles_share(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_HITS, BC_ROLE_DROPS,
								 BC_ROLE_SHARE };

	(void)state;
	fake_result_init(&fr, NULL);
	fr.metrics[2].label = "false hits";
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): 100000 false hits of 1100000 total "
			    "operations. Percentage = 9.09 %\n");
	summary_text();
	/* Sums over the measured intervals, then their ratio. */
	assert_summary_last("Summary: 360000 false hits of 3960000 total operations. "
			    "Percentage =  9.09 %\n");
}

/* LATENCY without a headline: the grace-period lines, one per ratio. */
static void test_roles_latency(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_LATENCY };
	size_t i;

	(void)state;
	fake_result_init(&fr, NULL);
	fr.metrics[0].kind = BC_METRIC_RATIO;
	fr.metrics[0].per = "gp_ct";
	fr.metrics[0].unit = "ns";
	fr.metrics[0].label = "tasks_trace grace period latency";
	fr.metrics[1].kind = BC_METRIC_RATIO;
	fr.metrics[1].per = "gp_ct";
	fr.metrics[1].unit = "ticks";
	fr.metrics[1].label = "ticks per tasks_trace grace period";
	for (i = 0; i < FAKE_ITERS; i++) {
		fr.rates[i][0] = 3000;
		fr.rates[i][1] = 4;
	}
	fake_result_roles(&fr, roles);
	iter_line(1);
	assert_string_equal(line(0), "Iter 1\t avg tasks_trace grace period latency\t3000.000000 ns");
	assert_string_equal(line(1), "Iter 1\t avg ticks per tasks_trace grace period\t4.000000");
	summary_text();
	assert_summary_last("SUMMARY tasks_trace grace period latency\tavg 3.000 us\tstddev 0.000 us\n"
			    "SUMMARY ticks per tasks_trace grace period\tavg 4.000\tstddev 0.000\n");
}

/* The figures behind the lines, as JSON and tables read them. */
static void test_figures(void **state)
{
	static const enum bc_metric_role ops[FAKE_METRICS] = { BC_ROLE_OPS };
	static const enum bc_metric_role ops_rate[FAKE_METRICS] = { BC_ROLE_OPS, BC_ROLE_AUX,
								    BC_ROLE_RATE };
	const struct bc_figure *f;

	(void)state;
	fake_result_init(&fr, NULL);
	fake_result_roles(&fr, ops);
	assert_int_equal(fr.res.figs->lines, BC_LINES_OPS);
	f = bc_figure_find(&fr.res, BC_FIG_LATENCY, -1);
	assert_non_null(f);
	/* One producer's ns/op: 2 producers at 1.2 M ops/s in all. */
	assert_true(fabs(f->value - 1e9 * 2 / 1.2e6) < 1e-6);
	assert_true(fabs(f->iters[1] - 1e9 * 2 / 1.0e6) < 1e-6);
	assert_true(isnan(bc_figure_find(&fr.res, BC_FIG_LATENCY, -1)->iters[FAKE_ITERS - 1]) == 0);
	f = bc_figure_find(&fr.res, BC_FIG_PER_PRODUCER, 0);
	assert_true(fabs(f->value - 0.6e6) < 1e-6);
	assert_null(bc_figure_find(&fr.res, BC_FIG_TOTAL, -1));

	fake_result_roles(&fr, ops_rate);
	assert_int_equal(fr.res.figs->lines, BC_LINES_OPS_RATE);
	f = bc_figure_find(&fr.res, BC_FIG_LATENCY, -1);
	assert_true(fabs(f->value - 1e9 / 1.2e6) < 1e-6);
	assert_int_equal(f->stats.n, 3);
}

/* Histogram percentiles and declared programs are extra lines, before the
 * Summary line. */
static void test_hist_and_program_lines(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_OPS };
	struct bc_hist *h;
	size_t i;
	uint64_t v;

	(void)state;
	fake_result_init(&fr, NULL);
	fr.metrics[4].kind = BC_METRIC_HISTOGRAM;
	fr.metrics[4].unit = "ns";
	fr.metrics[4].label = "delivery latency";
	h = bc_hist_new(2, 0);
	assert_non_null(h);
	for (i = 0; i < FAKE_ITERS; i++) {
		fr.iters[i].hists = calloc(FAKE_METRICS, sizeof(*fr.iters[i].hists));
		assert_non_null(fr.iters[i].hists);
		/* The warm-up interval's values are larger: excluded. */
		for (v = 1; v <= 100; v++)
			bc_hist_record(h, NULL, i ? v : v * 1000);
		assert_int_equal(bc_hist_collect(h, &fr.iters[i].hists[4]), 0);
	}
	bc_hist_free(h);
	fr.ctx.progs = calloc(1, sizeof(*fr.ctx.progs));
	assert_non_null(fr.ctx.progs);
	fr.ctx.progs[0].role = strdup("producer");
	snprintf(fr.ctx.progs[0].name, sizeof(fr.ctx.progs[0].name), "bench_trigger");
	snprintf(fr.ctx.progs[0].type, sizeof(fr.ctx.progs[0].type), "raw_tracepoint");
	fr.ctx.progs[0].id = 42;
	fr.ctx.prog_cnt = 1;
	fake_result_roles(&fr, roles);

	summary_text();
	assert_null(strstr(line(0), "gp_ct"));
	assert_string_equal(line(2), "Histogram delivery latency: count 300, p50 50.00 ns, "
			    "p90 90.00 ns, p99 99.00 ns, p99.9 100.0 ns, max 100.0 ns");
	assert_string_equal(line(3), "Program producer: bench_trigger (id 42, raw_tracepoint)");
	assert_non_null(strstr(line(4), "Summary: throughput"));
}

/* ABI 2.2: a benchmark without the runner's name prints its metrics'
 * units on a scale that keeps their digits, and the Summary carries the
 * figures it names; under the runner's name a named latency takes the ops
 * line's latency place, and nothing else changes. */
static void test_units(void **state)
{
	static const enum bc_metric_role roles[FAKE_METRICS] = { BC_ROLE_OPS, BC_ROLE_AUX,
								 BC_ROLE_AUX, BC_ROLE_LATENCY };
	size_t i;

	(void)state;
	fake_result_init(&fr, NULL);
	fr.bench.desc.runner_name = false;
	fr.metrics[3].kind = BC_METRIC_GAUGE;
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits 1.000M ops/s (500.0K ops/s per "
			    "producer), latency 2.000 us/op, gp_ns 6.000 us\n");
	summary_text();
	assert_summary_last("Summary: hits 1.200 " PM " 0.200M ops/s (600.0K ops/s per producer), "
			    "latency 1.667 us/op, gp_ns 6.000 " PM " 0.000 us\n");
	assert_non_null(strstr(out, "Spread over 3 iterations: hits min 1.000M ops/s, median "
				    "1.200M ops/s, max 1.400M ops/s;"));

	/* The figure the benchmark exists for first, the headline after. */
	fr.bench.desc.summary = "gp_ns,hits";
	summary_text();
	assert_summary_last("Summary: gp_ns 6.000 " PM " 0.000 us, hits 1.200 " PM " 0.200M ops/s "
			    "(600.0K ops/s per producer), latency 1.667 us/op\n");

	/* A slow rate keeps its digits: no 0.000M. */
	for (i = 0; i < FAKE_ITERS; i++)
		fr.rates[i][0] = 347.2;
	fr.metrics[0].unit = "calls";
	fr.bench.desc.summary = NULL;
	fake_result_roles(&fr, roles);
	assert_string_equal(iter_line(2), "Iter   2 ( 14.345us): hits 347.2 calls/s (173.6 calls/s "
			    "per producer), latency 5.760 ms/op, gp_ns 6.000 us\n");
	summary_text();
	assert_summary_last("Summary: hits 347.2 " PM " 0.0 calls/s (173.6 calls/s per producer), "
			    "latency 5.760 ms/op, gp_ns 6.000 " PM " 0.000 us\n");

	/* Under the runner's name: the runner's line, the named latency in
	 * its place (in ns, as the runner prints it). */
	fr.bench.desc.runner_name = true;
	fr.bench.desc.summary = "hits,gp_ns";
	fr.metrics[0].unit = "ops";
	for (i = 0; i < FAKE_ITERS; i++)
		fr.rates[i][0] = 1.2e6;
	fake_result_roles(&fr, roles);
	summary_text();
	assert_summary_last("Summary: throughput    1.200 " PM " 0.000 M ops/s "
			    "(  0.600M ops/prod), latency 6000.000 ns/op\n");
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

/* No role combination: every metric, or the plugin's own lines. */
static void test_plain_and_custom(void **state)
{
	(void)state;
	fake_result_init(&fr, NULL);
	assert_string_equal(iter_line(1), "Iter   1 ( 13.345us): hits    1.000M/s, drops    0.000M/s, "
			    "important_hits    0.100M/s, gp_ns    0.006M/s, gp_ct    0.000M/s\n");
	fr.bench.desc.format_iter = custom_iter;
	fr.bench.desc.format_summary = custom_summary;
	assert_string_equal(iter_line(0), AP_LINE "Iter   0 ( 12.345us): custom 2.0 [warm-up]\n");
	summary_text();
	assert_summary_last("Summary: custom 1.20 +- 0.20\n");
}

/* bc_ctx_final_line(): after the Summary line, in call order, each one
 * line (a newline ends it early). */
static void test_final_lines(void **state)
{
	(void)state;
	fake_result_init(&fr, FAKE_OPS);
	assert_int_equal(bc_ctx_final_line(&fr.ctx, "cpu%02u: lookup %.3lfM", 0u, 1.5), 0);
	assert_int_equal(bc_ctx_final_line(&fr.ctx, "%u:hash_map_full_perf %u events per sec\nnot this",
					   1u, 42u), 0);
	summary_text();
	assert_summary_last("cpu00: lookup 1.500M\n1:hash_map_full_perf 42 events per sec\n");
	assert_non_null(strstr(out, "Summary: throughput"));
	assert_true(strstr(out, "Summary: throughput") < strstr(out, "cpu00: lookup"));
}

static void test_no_measured_iterations(void **state)
{
	size_t i;

	(void)state;
	fake_result_init(&fr, FAKE_HITS_DROPS);
	for (i = 0; i < FAKE_ITERS; i++)
		fr.iters[i].warmup = true;
	fr.res.interrupted = true;
	fake_result_recompute(&fr);
	summary_text();
	assert_string_equal(line(0), "Summary: no measured iterations (4 warm-up, interrupted)");
}

static void test_warnings(void **state)
{
	FILE *f;

	(void)state;
	fake_result_init(&fr, FAKE_OPS);
	f = mem_open();
	bc_report_warnings(f, &fr.res);
	fclose(f);
	assert_string_equal(out, "benchcore: warning: a \"quoted\" warning\twith a tab\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_roles_hits_drops, teardown),
		cmocka_unit_test_teardown(test_final_lines, teardown),
		cmocka_unit_test_teardown(test_roles_hits_only, teardown),
		cmocka_unit_test_teardown(test_roles_ops, teardown),
		cmocka_unit_test_teardown(test_roles_ops_rate, teardown),
		cmocka_unit_test_teardown(test_roles_share, teardown),
		cmocka_unit_test_teardown(test_roles_latency, teardown),
		cmocka_unit_test_teardown(test_figures, teardown),
		cmocka_unit_test_teardown(test_hist_and_program_lines, teardown),
		cmocka_unit_test_teardown(test_units, teardown),
		cmocka_unit_test_teardown(test_plain_and_custom, teardown),
		cmocka_unit_test_teardown(test_no_measured_iterations, teardown),
		cmocka_unit_test_teardown(test_warnings, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
