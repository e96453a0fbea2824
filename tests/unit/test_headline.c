// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ABI 2.3 in the runtime, against a hand-built result: the one headline
 * rule (figures.c), a time per operation's interval values, and what the
 * text and JSON reports make of both. Nothing here loads BPF: the nsop
 * fixture plugin (tests/headline) runs the same through the binary.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "fake_result.h"
#include "figures.h"
#include "json_read.h"
#include "mem_out.h"
#include "report.h"

#define PM "\xc2\xb1"

static struct fake_result fr;

static const enum bc_metric_role hits_drops[FAKE_METRICS] = { BC_ROLE_HITS, BC_ROLE_DROPS };

static int teardown(void **state)
{
	(void)state;
	fake_result_fini(&fr);
	free(out);
	out = NULL;
	return 0;
}

/* gp_ns becomes a time per operation read from BPF, 6000 ns per op in
 * every interval, and the benchmark's declared headline. */
static void fake_time_per_op(bool declared)
{
	fake_result_init(&fr, NULL);
	fr.bench.desc.runner_name = false;
	fr.metrics[3].kind = BC_METRIC_TIME_PER_OP;
	fr.metrics[3].bpf = "batches.ns";
	fr.metrics[3].bpf_per = "batches.ops";
	fr.bench.desc.headline = declared ? "gp_ns" : NULL;
	fake_result_roles(&fr, hits_drops);
}

static const char *summary_line(void)
{
	FILE *f = mem_open();
	const char *s;

	bc_report_text_summary(f, &fr.res);
	fclose(f);
	s = strstr(out, "Summary: ");
	assert_non_null(s);
	return s;
}

static struct bc_json *json_doc(void)
{
	FILE *f = mem_open();
	struct bc_json *doc;
	char err[256];

	assert_int_equal(bc_report_json(f, &fr.cfg, &fr.res), 0);
	fclose(f);
	doc = bc_json_parse(out, out_len, err, sizeof(err));
	if (!doc)
		fail_msg("the run document does not parse: %s", err);
	return doc;
}

static const struct bc_json *metric_entry(const struct bc_json *doc, const char *name)
{
	const struct bc_json *ms = bc_json_get(doc, "metrics");

	for (size_t i = 0; i < bc_json_len(ms); i++)
		if (!strcmp(bc_json_str(bc_json_get(bc_json_at(ms, i), "name")), name))
			return bc_json_at(ms, i);
	fail_msg("no metric '%s' in the document's metrics", name);
	return NULL;
}

/* The declared headline is judged; the roles' one keeps its lines. */
static void test_rule(void **state)
{
	(void)state;
	fake_time_per_op(true);
	assert_int_equal(fr.res.figs->judged, 3);
	assert_int_equal(fr.res.figs->headline, 0);
	assert_int_equal(bc_bench_judged(&fr.bench), 3);
	/* The per-producer figure stays the hits'. */
	assert_non_null(bc_figure_find(&fr.res, BC_FIG_PER_PRODUCER, 0));
	teardown(state);

	fake_time_per_op(false);
	assert_int_equal(fr.res.figs->judged, 0);
	teardown(state);

	/* No HITS or OPS, nothing declared: no headline. */
	fake_result_init(&fr, NULL);
	assert_int_equal(fr.res.figs->judged, -1);
	assert_int_equal(bc_bench_judged(&fr.bench), -1);
	assert_int_equal(bc_bench_judged(NULL), -1);
}

/* Per interval: the time's delta over the operations' delta; none ended,
 * no value. The other kinds are as they were. */
static void test_rates(void **state)
{
	double values[FAKE_METRICS] = { 3e6, 0, 0, 10000, 0 }, rates[FAKE_METRICS];
	double prev[FAKE_METRICS] = { 1e6, 0, 0, 4000, 0 };
	double ops[FAKE_METRICS] = { 0, 0, 0, 5, 0 }, prev_ops[FAKE_METRICS] = { 0, 0, 0, 2, 0 };
	struct bc_iteration it = { .length_sec = 2.0, .values = values, .rates = rates };

	(void)state;
	fake_time_per_op(true);
	bc_figures_rates(&fr.res, &it, prev, ops, prev_ops);
	assert_true(rates[3] == 2000.0);
	assert_true(rates[0] == 1e6);
	prev_ops[3] = ops[3];
	bc_figures_rates(&fr.res, &it, prev, ops, prev_ops);
	assert_true(isnan(rates[3]));
	bc_figures_rates(&fr.res, &it, prev, NULL, NULL);
	assert_true(isnan(rates[3]));
}

/* The Summary line adds the judged figure, in its time per op; without a
 * declared headline nothing changes. */
static void test_text(void **state)
{
	(void)state;
	fake_time_per_op(false);
	assert_string_equal(summary_line(), "Summary: hits 1.200 " PM " 0.200M ops/s (600.0K ops/s "
			    "per producer), drops 0 " PM " 0 ops/s\n");
	teardown(state);

	fake_time_per_op(true);
	assert_string_equal(summary_line(), "Summary: hits 1.200 " PM " 0.200M ops/s (600.0K ops/s "
			    "per producer), drops 0 " PM " 0 ops/s, gp_ns 6.000 " PM " 0.000 us/op\n");
	assert_non_null(strstr(out, "; gp_ns min 6.000 us/op, median 6.000 us/op, max 6.000 us/op;"));

	/* An explicit summary is the author's word. */
	fr.bench.desc.summary = "hits";
	assert_string_equal(summary_line(), "Summary: hits 1.200 " PM " 0.200M ops/s (600.0K ops/s "
			    "per producer)\n");
}

/* The document names its headline right after the attach point, and
 * says of every metric and figure which way is better. */
static void test_json(void **state)
{
	const struct bc_json *m, *sum, *figs;
	struct bc_json *doc;

	(void)state;
	fake_time_per_op(true);
	doc = json_doc();
	assert_string_equal(bc_json_str(bc_json_get(doc, "headline")), "gp_ns");
	assert_true(strstr(out, "\"attach_point\"") < strstr(out, "\"headline\""));
	assert_true(strstr(out, "\"headline\"") < strstr(out, "\"config\""));

	m = metric_entry(doc, "gp_ns");
	assert_string_equal(bc_json_str(bc_json_get(m, "kind")), "time_per_op");
	assert_string_equal(bc_json_str(bc_json_get(m, "unit")), "ns");
	assert_string_equal(bc_json_str(bc_json_get(m, "direction")), "lower");
	/* Its operation counter is no metric: nothing names it. */
	assert_null(bc_json_get(m, "per"));
	assert_null(strstr(out, "batches.ops"));
	assert_string_equal(bc_json_str(bc_json_get(metric_entry(doc, "hits"), "direction")),
			    "higher");
	assert_string_equal(bc_json_str(bc_json_get(metric_entry(doc, "drops"), "direction")),
			    "lower");

	sum = bc_json_get(bc_json_get(doc, "summary"), "gp_ns");
	assert_string_equal(bc_json_str(bc_json_get(sum, "unit")), "ns");
	assert_true(bc_json_num(bc_json_get(sum, "mean"), 0) == 6000);
	assert_true(bc_json_num(bc_json_get(sum, "n"), 0) == 3);
	figs = bc_json_get(bc_json_get(doc, "summary"), "figures");
	assert_true(figs && figs->cnt > 0);
	for (size_t i = 0; i < figs->cnt; i++)
		assert_non_null(bc_json_str(bc_json_get(figs->items[i], "direction")));
	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(figs, "per_producer"), "direction")),
			    "higher");
	bc_json_free(doc);
	teardown(state);

	/* Nothing to judge: null, not a guess. */
	fake_result_init(&fr, NULL);
	doc = json_doc();
	assert_true(bc_json_is_null(bc_json_get(doc, "headline")));
	bc_json_free(doc);
	teardown(state);

	/* An OPS run's latency figure is better lower. */
	fake_result_init(&fr, FAKE_OPS);
	doc = json_doc();
	assert_string_equal(bc_json_str(bc_json_get(doc, "headline")), "hits");
	figs = bc_json_get(bc_json_get(doc, "summary"), "figures");
	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(figs, "latency"), "direction")),
			    "lower");
	bc_json_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rule, teardown),
		cmocka_unit_test_teardown(test_rates, teardown),
		cmocka_unit_test_teardown(test_text, teardown),
		cmocka_unit_test_teardown(test_json, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
