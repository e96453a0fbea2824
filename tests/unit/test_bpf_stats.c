// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --bpf-stats without a kernel: the arithmetic of one interval and of a
 * run (known deltas, known answers), what a refused BPF_ENABLE_STATS means
 * for the exit status, and how the text and JSON reports render the stored
 * figures against a hand-built result.
 */
#define _GNU_SOURCE
#include <errno.h>
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
#include "result.h"
#include "report.h"
#include "log.h"
#include "exit_status.h"
#include "bpf_stats.h"
#include "fake_result.h"
#include "json.h"
#include "json_read.h"
#include "mem_out.h"

#define EPS 1e-9

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* 1000 runs, 50 us inside the program, in half a second, 2 producers
 * that got a quarter of a CPU-second between them. */
static void test_tick_arithmetic(void **state)
{
	struct bc_prog_tick t;

	(void)state;
	bc_prog_tick_compute(&t, 1000, 50000, 0.5, 2, 0.25);
	assert_true(t.valid);
	assert_int_equal(t.run_cnt, 1000);
	assert_int_equal(t.run_time_ns, 50000);
	assert_near(t.runs_per_sec, 2000.0, EPS);
	assert_near(t.ns_per_run, 50.0, EPS);
	/* 100 * 50000 ns / (2 producers * 0.5 s * 1e9 ns/s) */
	assert_near(t.prod_pct, 0.005, EPS);
	/* 100 * 50000 ns / (0.25 CPU-seconds * 1e9 ns/s) */
	assert_near(t.prod_cpu_pct, 0.02, EPS);

	/* A whole producer's second inside one program is 100%, and 200% of
	 * the half second of CPU it got: nested or other threads' runs. */
	bc_prog_tick_compute(&t, 10, 1000000000ULL, 1.0, 1, 0.5);
	assert_near(t.prod_pct, 100.0, EPS);
	assert_near(t.prod_cpu_pct, 200.0, EPS);
}

/* No run: no time per run (not 0 ns); no producer or no CPU time: no
 * share. */
static void test_tick_no_runs_no_producers(void **state)
{
	struct bc_prog_tick t;

	(void)state;
	bc_prog_tick_compute(&t, 0, 0, 1.0, 1, 1.0);
	assert_near(t.runs_per_sec, 0.0, EPS);
	assert_true(isnan(t.ns_per_run));
	assert_near(t.prod_pct, 0.0, EPS);
	assert_near(t.prod_cpu_pct, 0.0, EPS);
	bc_prog_tick_compute(&t, 5, 500, 1.0, 0, 0);
	assert_near(t.ns_per_run, 100.0, EPS);
	assert_true(isnan(t.prod_pct));
	assert_true(isnan(t.prod_cpu_pct));
}

/* Two programs over a warm-up and three measured intervals, as the sampler
 * leaves them (deltas only); the producers got 0.75 CPU-seconds in each. */
static struct bc_bpf_stats *make_stats(struct bc_iteration *iters, size_t iter_cnt)
{
	/* per interval: program 0's runs and ns, program 1's runs and ns */
	static const uint64_t d[4][4] = {
		{ 999999, 999999999, 9, 9 },	/* warm-up: left out */
		{ 1000, 100000, 0, 0 },
		{ 3000, 150000, 2, 2000 },
		{ 2000, 200000, 0, 0 },
	};
	struct bc_bpf_stats *s = calloc(1, sizeof(*s));
	size_t i, p;

	assert_non_null(s);
	s->fd = -1;
	s->prog_cnt = 2;
	s->iter_cap = iter_cnt;
	s->ticks = calloc(iter_cnt * 2, sizeof(*s->ticks));
	assert_non_null(s->ticks);
	for (i = 0; i < iter_cnt; i++) {
		iters[i].warmup = i == 0;
		iters[i].length_sec = i == 3 ? 2.0 : 1.0;
		iters[i].prod_user_sec = 0.5;
		iters[i].prod_sys_sec = 0.25;
		for (p = 0; p < 2; p++) {
			s->ticks[i * 2 + p].valid = true;
			s->ticks[i * 2 + p].run_cnt = d[i][p * 2];
			s->ticks[i * 2 + p].run_time_ns = d[i][p * 2 + 1];
		}
	}
	return s;
}

static void test_run_arithmetic(void **state)
{
	struct bc_iteration iters[4];
	struct bc_bpf_stats *s;
	const struct bc_prog_stats *p0, *p1;

	(void)state;
	memset(iters, 0, sizeof(iters));
	s = make_stats(iters, 4);
	assert_int_equal(bc_bpf_stats_compute(s, iters, 4, 2), 0);
	p0 = &s->progs[0];
	p1 = &s->progs[1];

	assert_int_equal(p0->run_cnt, 6000);
	assert_int_equal(p0->run_time_ns, 450000);
	assert_near(p0->measured_sec, 4.0, EPS);
	/* runs/s per interval: 1000, 3000, 1000 */
	assert_int_equal(p0->runs_per_sec.n, 3);
	assert_near(p0->runs_per_sec.mean, 5000.0 / 3, 1e-6);
	assert_near(p0->runs_per_sec.median, 1000.0, EPS);
	/* the run's ns/run is total time over total runs (75), not the
	 * mean of 100, 50 and 100 */
	assert_near(p0->ns_per_run_value, 75.0, EPS);
	assert_near(p0->ns_per_run.mean, 250.0 / 3, 1e-6);
	/* 100 * 450000 / (2 * 4 s * 1e9) */
	assert_near(p0->prod_pct_value, 0.005625, EPS);
	/* 100 * 450000 / (3 * 0.75 CPU-seconds * 1e9) */
	assert_near(p0->prod_cpu_sec, 2.25, EPS);
	assert_near(p0->prod_cpu_pct_value, 0.02, EPS);
	/* and each interval's own figures were made from its deltas */
	assert_near(bc_bpf_stats_tick_at(s, 2, 0)->ns_per_run, 50.0, EPS);
	assert_near(bc_bpf_stats_tick_at(s, 3, 0)->runs_per_sec, 1000.0, EPS);

	/* only the interval with runs has a time per run */
	assert_int_equal(p1->run_cnt, 2);
	assert_int_equal(p1->ns_per_run.n, 1);
	assert_near(p1->ns_per_run_value, 1000.0, EPS);
	assert_int_equal(p1->runs_per_sec.n, 3);

	/* both programs' time together */
	assert_near(s->total_pct_value, 100.0 * 452000 / (2 * 4e9), EPS);
	assert_near(s->total_cpu_pct_value, 100.0 * 452000 / 2.25e9, EPS);
	assert_int_equal(s->total_pct.n, 3);
	bc_bpf_stats_free(s);
}

/* An interval whose counters could not be read at both ends counts for
 * nothing; no producers: no share at all. */
static void test_run_unread_and_no_producers(void **state)
{
	struct bc_iteration iters[4];
	struct bc_bpf_stats *s;

	(void)state;
	memset(iters, 0, sizeof(iters));
	s = make_stats(iters, 4);
	s->ticks[2 * 2 + 0].valid = false;
	assert_int_equal(bc_bpf_stats_compute(s, iters, 4, 0), 0);
	assert_int_equal(s->progs[0].run_cnt, 3000);
	assert_int_equal(s->progs[0].runs_per_sec.n, 2);
	/* the unread interval's length and CPU time are left out too */
	assert_near(s->progs[0].measured_sec, 3.0, EPS);
	assert_near(s->progs[0].prod_cpu_pct_value, 100.0 * 300000 / 1.5e9, EPS);
	assert_true(isnan(s->progs[0].prod_pct_value));
	assert_true(isnan(s->total_pct_value));
	assert_int_equal(s->progs[0].prod_pct.n, 0);
	bc_bpf_stats_free(s);
}

/* Who says what when BPF_ENABLE_STATS is refused. */
static void test_refusals(void **state)
{
	struct {
		int err;
		bool already;
		int status;
		const char *needle;
	} cases[] = {
		{ -EPERM, false, BC_EXIT_UNAVAILABLE, "CAP_SYS_ADMIN" },
		{ -EINVAL, false, BC_EXIT_UNAVAILABLE, "Linux 5.8" },
		{ -524, false, BC_EXIT_UNAVAILABLE, "ENOTSUPP" },
		{ -ENOMEM, false, BC_EXIT_FAILED, "failed: " },
		{ -EMFILE, false, BC_EXIT_FAILED, "failed: " },
		{ -EPERM, true, BC_EXIT_OK, NULL },
	};
	struct bc_ctx ctx;
	FILE *log;
	size_t i;
	int err;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bc_ctx_init(&ctx, NULL, NULL);
		log = mem_open();
		bc_log_set_file(log);
		err = bc_bpf_stats_refused(&ctx, cases[i].err, cases[i].already);
		bc_log_set_file(NULL);
		fclose(log);
		assert_int_equal(bc_ctx_exit_status(&ctx, err), cases[i].status);
		if (cases[i].needle) {
			assert_non_null(strstr(ctx.reason, "--bpf-stats: "));
			assert_non_null(strstr(ctx.reason, cases[i].needle));
			assert_int_equal(out_len, 0);
		} else {
			/* on anyway: one line says so, and the run goes on */
			assert_string_equal(ctx.reason, "");
			assert_non_null(strstr(out, "already on"));
			assert_int_equal(strchr(out, '\n') - out + 1, (long)out_len);
		}
	}
}

/* ------------------------------------------------------------ reports */

static struct fake_result fr;

static void fake_with_progs(void)
{
	static const enum bc_metric_role hits_drops[FAKE_METRICS] = { BC_ROLE_HITS, BC_ROLE_DROPS };
	size_t p;

	fake_result_init(&fr, hits_drops);
	fake_result_roles(&fr, hits_drops);
	fr.ctx.progs = calloc(2, sizeof(*fr.ctx.progs));
	assert_non_null(fr.ctx.progs);
	for (p = 0; p < 2; p++) {
		fr.ctx.progs[p].fd = -1;
		fr.ctx.progs[p].id = 40 + (uint32_t)p;
		fr.ctx.progs[p].role = strdup(p ? "timer" : "under test");
		snprintf(fr.ctx.progs[p].name, sizeof(fr.ctx.progs[p].name), p ? "tick" : "bench_tp");
		snprintf(fr.ctx.progs[p].type, sizeof(fr.ctx.progs[p].type), "tracepoint");
	}
	fr.ctx.prog_cnt = 2;
	fr.res.bpf = make_stats(fr.iters, FAKE_ITERS);
	/* the fake result's producers: 2 */
	assert_int_equal(bc_bpf_stats_compute(fr.res.bpf, fr.iters, FAKE_ITERS, 2), 0);
}

static int teardown_report(void **state)
{
	(void)state;
	bc_bpf_stats_free(fr.res.bpf);
	fr.res.bpf = NULL;
	fake_result_fini(&fr);
	return free_out(state);
}

/* One line per program before the Summary line, which stays last. */
static void test_text_lines(void **state)
{
	FILE *f;
	char *prog, *summary;

	(void)state;
	fake_with_progs();
	/* program 1 runs in no measured interval */
	fr.res.bpf->ticks[2 * 2 + 1].run_cnt = 0;
	fr.res.bpf->ticks[2 * 2 + 1].run_time_ns = 0;
	fr.res.bpf->ticks[2 * 2 + 1].valid = true;
	assert_int_equal(bc_bpf_stats_compute(fr.res.bpf, fr.iters, FAKE_ITERS, 2), 0);
	f = mem_open();
	bc_report_text_summary(f, &fr.res);
	fclose(f);

	prog = strstr(out, "Program under test: bench_tp (id 40, tracepoint): "
		      "1666.7 runs/s, 75.0 ns/run, 0.01% of producer time "
		      "(0.02% of their CPU time)\n"
		      "Program timer: tick (id 41, tracepoint): no runs\n"
		      "Summary: ");
	assert_non_null(prog);
	/* the Summary line ends the output */
	summary = strstr(prog, "Summary: ");
	assert_ptr_equal(strchr(summary, '\n') + 1, out + out_len);
}

/* Every interval's values and the summary, in the report's own schema. */
static void test_json_keys(void **state)
{
	const struct bc_json *it, *t, *sum, *p0;
	struct bc_json *doc;
	char err[256];
	FILE *f;

	(void)state;
	fake_with_progs();
	fr.cfg.bpf_stats = true;
	f = mem_open();
	assert_int_equal(bc_report_json(f, &fr.cfg, &fr.res), 0);
	fclose(f);
	doc = bc_json_parse(out, out_len, err, sizeof(err));
	assert_non_null(doc);

	assert_true(bc_json_bool(bc_json_get(bc_json_get(doc, "config"), "bpf_stats"), false));
	it = bc_json_at(bc_json_get(doc, "iterations"), 2);
	assert_int_equal(bc_json_len(bc_json_get(it, "bpf_stats")), 2);
	t = bc_json_at(bc_json_get(it, "bpf_stats"), 0);
	assert_near(bc_json_num(bc_json_get(t, "run_cnt"), -1), 3000, EPS);
	assert_near(bc_json_num(bc_json_get(t, "run_time_ns"), -1), 150000, EPS);
	assert_near(bc_json_num(bc_json_get(t, "runs_per_sec"), -1), 3000, EPS);
	assert_near(bc_json_num(bc_json_get(t, "ns_per_run"), -1), 50, EPS);
	assert_non_null(bc_json_get(t, "producer_time_pct"));
	assert_near(bc_json_num(bc_json_get(t, "producer_cpu_pct"), -1), 100.0 * 150000 / 0.75e9,
		    1e-9);
	/* no run in the interval: null, not 0 */
	t = bc_json_at(bc_json_get(bc_json_at(bc_json_get(doc, "iterations"), 1), "bpf_stats"), 1);
	assert_true(bc_json_is_null(bc_json_get(t, "ns_per_run")));

	sum = bc_json_get(bc_json_get(doc, "summary"), "bpf_stats");
	assert_non_null(sum);
	assert_false(bc_json_bool(bc_json_get(sum, "already_enabled"), true));
	assert_non_null(bc_json_get(bc_json_get(sum, "producer_time_pct"), "value"));
	assert_non_null(bc_json_get(bc_json_get(sum, "producer_cpu_pct"), "value"));
	/* no "mean" of its own: readers listing metrics pass it by */
	assert_null(bc_json_get(sum, "mean"));
	p0 = bc_json_at(bc_json_get(sum, "programs"), 0);
	assert_string_equal(bc_json_str(bc_json_get(p0, "role")), "under test");
	assert_near(bc_json_num(bc_json_get(p0, "id"), 0), 40, EPS);
	assert_near(bc_json_num(bc_json_get(p0, "run_cnt"), 0), 6000, EPS);
	assert_near(bc_json_num(bc_json_get(bc_json_get(p0, "ns_per_run"), "value"), 0),
			    75, EPS);
	assert_non_null(bc_json_get(bc_json_get(p0, "runs_per_sec"), "mean"));
	bc_json_free(doc);
}

/* Without --bpf-stats the documents keep their old shape. */
static void test_json_without(void **state)
{
	struct bc_json *doc;
	FILE *f;

	(void)state;
	fake_result_init(&fr, NULL);
	f = mem_open();
	assert_int_equal(bc_report_json(f, &fr.cfg, &fr.res), 0);
	fclose(f);
	doc = bc_json_parse(out, out_len, NULL, 0);
	assert_non_null(doc);
	assert_false(bc_json_bool(bc_json_get(bc_json_get(doc, "config"), "bpf_stats"), true));
	assert_null(bc_json_get(bc_json_get(doc, "summary"), "bpf_stats"));
	assert_null(bc_json_get(bc_json_at(bc_json_get(doc, "iterations"), 0), "bpf_stats"));
	bc_json_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_arithmetic),
		cmocka_unit_test(test_tick_no_runs_no_producers),
		cmocka_unit_test(test_run_arithmetic),
		cmocka_unit_test(test_run_unread_and_no_producers),
		cmocka_unit_test_teardown(test_refusals, free_out),
		cmocka_unit_test_teardown(test_text_lines, teardown_report),
		cmocka_unit_test_teardown(test_json_keys, teardown_report),
		cmocka_unit_test_teardown(test_json_without, teardown_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
