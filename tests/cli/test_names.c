// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ABI 2.2's option namespace and report rules, through the real binary with
 * the loader's names/ fixtures (tests/loader/CMakeLists.txt):
 *  - a plugin built against 2.0 whose option has the name of a core option
 *    added in 2.1 loads, and its option wins within its benchmarks
 *    (command line, --help, sweeps); the same table built against 2.2 is
 *    refused in one line (as any minor since 2.1 would);
 *  - --help keeps the option table's order;
 *  - a COUNT option takes K/M/G and Ki/Mi/Gi, and its range is no bytes;
 *  - a slow rate in a unit of its own prints in that unit, not as 0.000M,
 *    and the Summary carries the figures the benchmark names;
 *  - a sweep document stores option values typed; the plot of an option
 *    against a metric of the same name says which is which.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>

#include "exit_status.h"
#include "json_read.h"
#include "bc_test_child.h"

#define BOUND_SEC 120

static char names[PATH_MAX];

static void run(struct bc_test_run *r, const char *const *args)
{
	const char *argv[64] = { BC_TEST_BENCHCORE, "--plugin-dir", names };
	struct bc_test_child c;
	size_t n = 3;

	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, BOUND_SEC);
}

#define RUN(r, ...) run((r), (const char *const[]){ __VA_ARGS__, NULL })

static struct bc_json *parse_doc(const struct bc_test_run *r)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(r->out, strlen(r->out), err, sizeof(err));

	if (!doc)
		fail_msg("stdout is not one JSON document (%s):\n%s\nstderr:\n%s", err, r->out,
			 r->err);
	return doc;
}

static const struct bc_json *plugin_opt(const struct bc_json *doc, const char *name)
{
	return bc_json_get(bc_json_get(bc_json_get(doc, "config"), "plugin_options"), name);
}

/* The line of text that starts with prefix, up to its end (a copy). */
static char *line_starting(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);

	if (!p)
		return NULL;
	return strndup(p, strcspn(p, "\n"));
}

static void test_clash_refused_shadow_loads(void **state)
{
	char line[PATH_MAX + 256];
	struct bc_test_run r;

	(void)state;
	RUN(&r, "list");
	bc_test_assert_status(&r, BC_EXIT_OK);
	snprintf(line, sizeof(line),
		 "benchcore: %s/clash22.so: plugin 'clash22': option 'max-time': the name is a core option's (since ABI 2.1; this plugin was built against 2.%d)",
		 names, BC_ABI_MINOR);
	bc_test_assert_line(&r, line);
	assert_non_null(strstr(r.out, "shadow20:opt-table"));
	assert_non_null(strstr(r.out, "fixture:ok"));
	assert_null(strstr(r.out, "clash22"));
	bc_test_run_free(&r);
}

static void test_shadowing_option_reaches_plugin(void **state)
{
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, "run", "shadow20:opt-table", "--max-time", "7", "-w", "0", "-d", "1", "--format",
	    "json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	doc = parse_doc(&r);
	assert_true(bc_json_num(plugin_opt(doc, "max-time"), -1) == 7);
	/* measure() reports the plugin's field: the value reached it. */
	assert_true(bc_json_num(bc_json_get(bc_json_get(bc_json_get(doc, "summary"), "cap"), "mean"),
				-1) == 7);
	bc_json_free(doc);
	bc_test_run_free(&r);
	/* A core option the plugin does not shadow is still the core's. */
	RUN(&r, "run", "fixture:ok", "--max-time", "abc", "-w", "0", "-d", "1");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
}

static void test_help_keeps_table_order(void **state)
{
	static const char *const order[] = { "--zeta=N", "--entries=N", "--max-time=N",
					     "--lookups=N", "--alpha" };
	const char *prev = NULL, *plugin;
	struct bc_test_run r;

	(void)state;
	RUN(&r, "run", "shadow20:opt-table", "--help");
	bc_test_assert_status(&r, BC_EXIT_OK);
	plugin = strstr(r.out, "Options of the shadow20 plugin (1.0):");
	assert_non_null(plugin);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *at = strstr(plugin, order[i]);

		if (!at || (prev && at < prev))
			fail_msg("%s is not where the table puts it:\n%s", order[i], r.out);
		prev = at;
	}
	/* Once: the core's --max-time is not offered beside the plugin's. */
	assert_ptr_equal(strstr(r.out, "--max-time"), strstr(plugin, "--max-time"));
	/* A count's range, without "bytes". */
	assert_non_null(strstr(r.out, "a count, not bytes (1 to 1Gi; default 1M)"));
	bc_test_run_free(&r);
}

static void test_count_values(void **state)
{
	static const struct {
		const char *text;
		double value;
	} good[] = { { "2Ki", 2048 }, { "3K", 3000 }, { "1M", 1e6 }, { "77", 77 } };
	struct bc_test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct bc_json *doc;

		RUN(&r, "run", "shadow20:opt-table", "--entries", good[i].text, "-w", "0", "-d",
		    "1", "--format", "json");
		bc_test_assert_status(&r, BC_EXIT_OK);
		doc = parse_doc(&r);
		assert_true(bc_json_num(plugin_opt(doc, "entries"), -1) == good[i].value);
		bc_json_free(doc);
		bc_test_run_free(&r);
	}
	RUN(&r, "run", "shadow20:opt-table", "--entries", "3KB", "-d", "1");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_assert_line(&r, "benchcore: --entries '3KB': expected a count (K, M, G suffixes x1000; Ki, Mi, Gi x1024) from 1 to 1Gi");
	bc_test_run_free(&r);
}

static void test_units_and_summary_figures(void **state)
{
	struct bc_test_run r;
	char *iter, *summary, *spread;

	(void)state;
	RUN(&r, "run", "shadow20:opt-table", "-w", "0", "-d", "2");
	bc_test_assert_status(&r, BC_EXIT_OK);
	iter = line_starting(r.out, "Iter   0");
	summary = line_starting(r.out, "Summary: ");
	spread = line_starting(r.out, "Spread over");
	assert_non_null(iter);
	assert_non_null(summary);
	assert_non_null(spread);
	/* ~200 calls a second: in calls/s, never "0.000M". */
	if (!strstr(iter, " calls/s") || strstr(iter, "0.000M"))
		fail_msg("Iter line: %s", iter);
	/* The named figures, in the named order: the latency first. */
	if (strncmp(summary, "Summary: nap_ns 5.000 ", 22) || !strstr(summary, " ms, lookups ") ||
	    !strstr(summary, " calls/s") || strstr(summary, "M ops/s"))
		fail_msg("Summary line: %s", summary);
	if (!strstr(spread, "nap_ns min 5.000 ms") || !strstr(spread, " calls/s"))
		fail_msg("Spread line: %s", spread);
	free(iter);
	free(summary);
	free(spread);
	bc_test_run_free(&r);
}

static void test_sweep_typed_and_plot_title(void **state)
{
	/* in the test's working directory, the build tree */
	char dir[] = "bc-names-XXXXXX", path[PATH_MAX];
	const struct bc_json *runs;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, "sweep", "shadow20:opt-table", "--sweep", "entries=1K,2Ki", "--sweep",
	    "lookups=1,2", "-w", "0", "-d", "1", "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	doc = parse_doc(&r);
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct bc_json *o = bc_json_get(runs->items[i], "options");
		const struct bc_json *e = bc_json_get(o, "entries"), *l = bc_json_get(o, "lookups");

		assert_non_null(e);
		assert_non_null(l);
		assert_int_equal(e->type, BC_JSON_NUMBER);
		assert_int_equal(l->type, BC_JSON_NUMBER);
		assert_true(e->number == (i < 2 ? 1000 : 2048));
		assert_true(l->number == (double)(i % 2 + 1));
	}
	bc_json_free(doc);

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	bc_test_write_file(path, r.out);
	bc_test_run_free(&r);
	RUN(&r, "plot", path, "-o", "-", "--x", "lookups");
	bc_test_assert_status(&r, BC_EXIT_OK);
	if (!strstr(r.out, "metric lookups against option --lookups"))
		fail_msg("plot title:\n%.2000s", r.out);
	assert_null(strstr(r.out, "lookups against lookups"));
	bc_test_run_free(&r);
	unlink(path);
	rmdir(dir);
}

static int setup(void **state)
{
	(void)state;
	snprintf(names, sizeof(names), "%s/names", BC_LOADER_FIXTURES);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clash_refused_shadow_loads),
		cmocka_unit_test(test_shadowing_option_reaches_plugin),
		cmocka_unit_test(test_help_keeps_table_order),
		cmocka_unit_test(test_count_values),
		cmocka_unit_test(test_units_and_summary_figures),
		cmocka_unit_test(test_sweep_typed_and_plot_title),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
