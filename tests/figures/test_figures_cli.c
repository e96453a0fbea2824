// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One configuration, two paths, one answer: every derived figure a sweep's
 * table prints equals the one `run` stored and printed for the same
 * configuration (a 2-producer run of each role combination). The fixture's
 * numbers depend on nothing but the tick count, so the two runs measure the
 * same values; a second formula anywhere would show as a difference.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "child.h"
#include "json.h"
#include "json_read.h"
#include "scale.h"

#define PM "\xc2\xb1"

static int run_cli(struct bc_child_result *r, const char *first, ...)
{
	const char *argv[64] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_FIG_PLUGIN_DIR };
	size_t n = 3;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && n < 63; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	assert_int_equal(bc_child_run(BC_TEST_BENCHCORE, (char *const *)argv, 120, r), 0);
	if (!r->exited)
		fail_msg("benchcore died: signal %d; stderr: %s", r->term_signal, r->err);
	if (r->exit_code)
		fail_msg("benchcore exited %d; stderr: %s", r->exit_code, r->err);
	return r->exit_code;
}

static struct bc_json *parse(const char *text)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(text, strlen(text), err, sizeof(err));

	if (!doc)
		fail_msg("not JSON (%s): %.400s", err, text);
	return doc;
}

static double num(const struct bc_json *v, const char *k1, const char *k2)
{
	const struct bc_json *x = bc_json_get(v, k1);

	return bc_json_num(k2 ? bc_json_get(x, k2) : x, NAN);
}

/* Same numbers, bit for bit: NaN only where both have none. */
static void assert_same(double a, double b, const char *what)
{
	if (isnan(a) && isnan(b))
		return;
	if (a != b)
		fail_msg("%s: run %.17g, sweep %.17g", what, a, b);
}

static void assert_contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' not in:\n%s", want, text);
}

/* What the sweep table prints for each stored figure (report_table.c):
 * the figure in its unit, through the one formatter text reports use. */
static void expected_cell(const struct bc_json *figs, size_t i, char *buf, size_t len)
{
	const struct bc_json *f = figs->items[i];
	const char *kind = bc_json_str(bc_json_get(f, "kind"));
	const char *unit = bc_json_str(bc_json_get(f, "unit"));
	double v = num(f, "value", NULL), sd = num(bc_json_get(f, "stats"), "stddev", NULL);
	char x[128];

	if (!strcmp(kind, "per_producer"))
		snprintf(buf, len, " (%s per producer)", bc_scale_fmt(x, sizeof(x), v, unit));
	else if (!strcmp(kind, "latency"))
		snprintf(buf, len, ", latency %s", bc_scale_fmt(x, sizeof(x), v, "ns/op"));
	else if (!strcmp(kind, "total"))
		snprintf(buf, len, ", total operations %s",
			 bc_scale_fmt_pm(x, sizeof(x), v, sd, unit));
	else if (!strcmp(kind, "ratio"))
		/* a declared ratio's figure is its metric's value, shown once */
		snprintf(buf, len, "%s %s", figs->keys[i], bc_scale_fmt_pm(x, sizeof(x), v, sd, unit));
	else
		fail_msg("a figure kind this test does not know: %s", kind);
}

static void check_bench(const char *bench, size_t want_figs, const char *text_summary_fmt)
{
	struct bc_child_result run_json, run_text, sweep_text, sweep_json;
	struct bc_json *rdoc, *sdoc;
	const struct bc_json *rfigs, *sres, *sfigs, *riters, *siters;
	char cell[256], line[512];

	run_cli(&run_json, "run", bench, "-p2", "-w0", "-d2", "--format", "json", NULL);
	run_cli(&run_text, "run", bench, "-p2", "-w0", "-d2", NULL);
	run_cli(&sweep_text, "run", bench, "-w0", "-d2", "--sweep", "producers=2", NULL);
	run_cli(&sweep_json, "run", bench, "-w0", "-d2", "--sweep", "producers=2", "--format",
		"json", NULL);

	rdoc = parse(run_json.out);
	rfigs = bc_json_get(bc_json_get(rdoc, "summary"), "figures");
	assert_non_null(rfigs);
	assert_int_equal(bc_json_len(rfigs), want_figs);

	/* The sweep's table prints each of the run's figures. */
	for (size_t i = 0; i < rfigs->cnt; i++) {
		expected_cell(rfigs, i, cell, sizeof(cell));
		assert_contains(sweep_text.out, cell);
	}

	/* The run's own Summary line prints the same stored number. */
	if (text_summary_fmt) {
		const struct bc_json *lat = bc_json_get(rfigs, "latency");

		snprintf(line, sizeof(line), text_summary_fmt, num(lat, "value", NULL));
		assert_contains(run_text.out, line);
	}

	/* And the sweep's document holds the very same figures. */
	sdoc = parse(sweep_json.out);
	sres = bc_json_get(bc_json_at(bc_json_get(sdoc, "runs"), 0), "result");
	sfigs = bc_json_get(bc_json_get(sres, "summary"), "figures");
	assert_int_equal(bc_json_len(sfigs), rfigs->cnt);
	for (size_t i = 0; i < rfigs->cnt; i++) {
		const struct bc_json *a = rfigs->items[i], *b = bc_json_get(sfigs, rfigs->keys[i]);

		assert_non_null(b);
		assert_same(num(a, "value", NULL), num(b, "value", NULL), rfigs->keys[i]);
		assert_same(num(bc_json_get(a, "stats"), "stddev", NULL),
			    num(bc_json_get(b, "stats"), "stddev", NULL), rfigs->keys[i]);
	}
	riters = bc_json_get(rdoc, "iterations");
	siters = bc_json_get(sres, "iterations");
	assert_int_equal(bc_json_len(riters), bc_json_len(siters));
	for (size_t k = 0; k < bc_json_len(riters); k++)
		for (size_t i = 0; i < rfigs->cnt; i++)
			assert_same(num(bc_json_at(riters, k), "figures", rfigs->keys[i]),
				    num(bc_json_at(siters, k), "figures", rfigs->keys[i]),
				    rfigs->keys[i]);

	bc_json_free(rdoc);
	bc_json_free(sdoc);
	bc_child_result_free(&run_json);
	bc_child_result_free(&run_text);
	bc_child_result_free(&sweep_text);
	bc_child_result_free(&sweep_json);
}

/* The local-storage lines: the latency once printed as two numbers. */
static void test_ops_rate(void **state)
{
	(void)state;
	check_bench("figfix:fig-ops-rate", 2, "hits latency %8.3lf ns/op");
}

static void test_ops(void **state)
{
	(void)state;
	check_bench("figfix:fig-ops", 2, "latency %8.3lf ns/op\n");
}

static void test_hits_drops(void **state)
{
	(void)state;
	check_bench("figfix:fig-hits", 2, NULL);
}

static void test_latency(void **state)
{
	(void)state;
	check_bench("figfix:fig-latency", 1, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops_rate),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_hits_drops),
		cmocka_unit_test(test_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
