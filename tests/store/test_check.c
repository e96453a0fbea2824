// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore check` through the real binary, on stores made here from
 * synthetic run documents (no benchmark runs): 20 benchmarks with a 10%
 * regression planted in one, which check names and exits 1 for; the same
 * with noise only, which exits 0; runs on another machine or kernel,
 * which are "not comparable", never a pass; too few samples; each kind of
 * baseline; --metric with a figure that is better lower; the three output
 * formats; and the thresholds file, every mistake in it one line naming
 * the file and line. The noise is seeded: every run sees the same store.
 *
 * `test_check pg` runs it all again with each store a database on the test
 * server (tests/store/pg_cluster.sh), named by a URL with a password that
 * no output may carry: check reads through the store's engine calls only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bc_test_child.h"
#include "bc_test_pg.h"
#include "exit_status.h"
#include "json_read.h"
#include "store_doc.h"
#include "thresholds.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))
#define BENCHES 20
#define PLANTED 7	/* the benchmark whose newest entry is 10% slower */

static char root[PATH_MAX];
static bool pg;
static struct bc_test_pg srv;

/* The store called name: a file under root, or a database on the server
 * (made by fresh_store()). */
static void store_at(char *buf, size_t len, const char *name)
{
	if (pg)
		assert_true(snprintf(buf, len, "postgresql://%s:%s@127.0.0.1:%s/check_%s", srv.writer,
				     srv.password, srv.port, name) < (int)len);
	else
		assert_true(snprintf(buf, len, "%s/%s.db", root, name) < (int)len);
}

/* Empties the store at path (store_at's): no file, or a new database. */
static void fresh_store(const char *path)
{
	char url[PATH_MAX];

	if (pg)
		bc_test_pg_store(&srv, strrchr(path, '/') + 1, url, sizeof(url));
	else
		unlink(path);
}

/* ------------------------------------------------ synthetic documents */

static double uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 0x2545f4914f6cdd1dULL) >> 11) * 0x1.0p-53;
}

static double gauss(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);

	return sqrt(-2.0 * log(u < 1e-300 ? 1e-300 : u)) * cos(2.0 * M_PI * v);
}

struct run {
	const char *bench, *host, *kernel, *label, *date;
	const char *accel;	/* the context's "accelerator"; NULL: native */
	double hits, drops;	/* the run's levels */
	unsigned int seconds;
	uint64_t seed;
};

/* A run document as report_json.c writes one: hits (more is better) and
 * drops (fewer), each second 2% around the run's level. */
static char *make_doc(const struct run *r)
{
	uint64_t s = r->seed * 0x9e3779b97f4a7c15ULL + 7;
	double h[64], d[64], hm = 0, dm = 0, hs = 0, ds = 0;
	char *iters = NULL, *text;
	size_t len = 0;
	FILE *m = open_memstream(&iters, &len);

	assert_non_null(m);
	assert_true(r->seconds <= 64);
	for (unsigned int i = 0; i < r->seconds; i++) {
		h[i] = r->hits * (1 + 0.02 * gauss(&s));
		d[i] = r->drops * (1 + 0.02 * gauss(&s));
		hm += h[i] / r->seconds;
		dm += d[i] / r->seconds;
		fprintf(m, "%s{\"index\":%u,\"warmup\":false,\"values\":{\"hits\":%.17g,\"drops\":%.17g}}",
			i ? "," : "", i, h[i], d[i]);
	}
	assert_int_equal(fclose(m), 0);
	for (unsigned int i = 0; i < r->seconds; i++) {
		hs += (h[i] - hm) * (h[i] - hm);
		ds += (d[i] - dm) * (d[i] - dm);
	}
	hs = r->seconds > 1 ? sqrt(hs / (r->seconds - 1)) : 0;
	ds = r->seconds > 1 ? sqrt(ds / (r->seconds - 1)) : 0;
	assert_true(asprintf(&text,
			     "{\"benchcore_version\":\"0.1.0\",\"context\":{%s%s%s\"date\":\"%s\",\"host\":\"%s\","
			     "\"kernel_release\":\"%s\",\"kernel_version\":\"#1 SMP\",\"cpu_model\":\"Synthetic CPU\","
			     "\"cpu_count\":2,\"hypervisor\":true},"
			     "\"plugin\":{\"name\":\"synth\",\"version\":\"1.0\"},\"benchmark\":\"%s\","
			     "\"config\":{\"producers\":1,\"duration_sec\":%u,\"plugin_options\":{}},"
			     "\"metrics\":[{\"name\":\"hits\",\"unit\":\"ops\",\"kind\":\"counter\",\"role\":\"hits\"},"
			     "{\"name\":\"drops\",\"unit\":\"ops\",\"kind\":\"counter\",\"role\":\"drops\",\"direction\":\"lower\"}],"
			     "\"iterations\":[%s],"
			     "\"summary\":{\"hits\":{\"unit\":\"ops/s\",\"mean\":%.17g,\"stddev\":%.17g,\"n\":%u},"
			     "\"drops\":{\"unit\":\"ops/s\",\"mean\":%.17g,\"stddev\":%.17g,\"n\":%u}},"
			     "\"status\":{\"exit_status\":0}}",
			     r->accel ? "\"accelerator\":\"" : "", r->accel ? r->accel : "",
			     r->accel ? "\"," : "", r->date, r->host, r->kernel, strchr(r->bench, ':') + 1, r->seconds, iters, hm,
			     hs, r->seconds, dm, ds, r->seconds) > 0);
	free(iters);
	return text;
}

/* Saves the runs (each under its label) into the store at path. */
static void save(const char *path, const struct run *runs, size_t cnt)
{
	struct bc_store_item *items = calloc(cnt, sizeof(*items));
	char err[512];

	assert_non_null(items);
	for (size_t i = 0; i < cnt; i++) {
		items[i].text = make_doc(&runs[i]);
		items[i].len = strlen(items[i].text);
		items[i].label = runs[i].label;
	}
	if (bc_store_save_items(path, items, cnt, NULL, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < cnt; i++)
		free((char *)items[i].text);
	free(items);
}

static char names[BENCHES][32];
static char dates[8][BENCHES][32];

/*
 * The CI story: five nightly runs labelled "main", then the pull request's
 * run labelled "pr", of 20 benchmarks on one machine and kernel. Between
 * runs the level moves by 1% (the machine's noise), within a run each
 * second by 2%. planted: the pull request makes that benchmark 10% slower
 * (hits) and 20% worse in drops. pr_host, pr_kernel: where the pull
 * request ran.
 */
/* The pull request's accelerator (make_store): NULL, native, but for
 * the one test that measures it in an emulated guest. */
static const char *pr_accel;

static void make_store(const char *path, int planted, const char *pr_host, const char *pr_kernel,
		       unsigned int pr_seconds)
{
	struct run runs[6 * BENCHES];
	size_t n = 0;
	uint64_t s = 42;

	for (int day = 0; day < 6; day++) {
		for (int b = 0; b < BENCHES; b++) {
			struct run *r = &runs[n++];
			double level = (1.0 + b / 10.0) * 1e6;
			bool pr = day == 5;

			snprintf(names[b], sizeof(names[b]), "synth:bench-%02d", b);
			snprintf(dates[day][b], sizeof(dates[day][b]), "2026-11-%02dT02:%02d:00Z", day + 1, b);
			*r = (struct run){ .bench = names[b], .host = pr ? pr_host : "ci-a",
					   .kernel = pr ? pr_kernel : "6.18.0", .label = pr ? "pr" : "main",
					   .date = dates[day][b], .seconds = pr ? pr_seconds : 10,
					   .accel = pr ? pr_accel : NULL,
					   .seed = (uint64_t)(day * 100 + b) };
			r->hits = level * (1 + 0.01 * gauss(&s));
			r->drops = 1000 * (1 + 0.01 * gauss(&s));
			if (pr && b == planted) {
				r->hits *= 0.90;
				r->drops *= 1.20;
			}
		}
	}
	fresh_store(path);
	save(path, runs, n);
}

/* ------------------------------------------------ running check */

static void check(struct bc_test_run *r, const char *store, ...)
{
	const char *argv[32];
	struct bc_test_child c;
	const char *arg;
	int argc = 0;
	va_list ap;

	argv[argc++] = BC_TEST_BENCHCORE;
	argv[argc++] = "check";
	argv[argc++] = "--store";
	argv[argc++] = store;
	va_start(ap, store);
	while ((arg = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 60);
	if (pg && (strstr(r->out, srv.password) || strstr(r->err, srv.password)))
		fail_msg("the store's password is in the output of check:\n%s\n%s", r->out, r->err);
}

/* The lines of stdout that begin with word (a status). */
static size_t lines_with(const char *out, const char *word, char *first, size_t len)
{
	size_t n = 0, wl = strlen(word);

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, word, wl) || p[wl] != ' ')
			continue;
		if (!n++ && first)
			snprintf(first, len, "%.*s", (int)strcspn(p, "\n"), p);
	}
	return n;
}

static void test_planted_regression(void **state)
{
	static const char *const baselines[] = { "latest", "main", "window:5" };
	char store[PATH_MAX], line[1024];
	struct bc_test_run r;

	(void)state;
	store_at(store, sizeof(store), "planted");
	make_store(store, PLANTED, "ci-a", "6.18.0", 10);
	for (size_t i = 0; i < 3; i++) {
		check(&r, store, "--label", "pr", "--baseline", baselines[i], NULL);
		bc_test_assert_status(&r, BC_EXIT_FAILED);
		/* one regressed row, naming the planted benchmark; 19 passed */
		if (lines_with(r.out, "regressed", line, sizeof(line)) != 1 || !strstr(line, "synth:bench-07 ") ||
		    !strstr(line, "(hits): regressed"))
			fail_msg("--baseline %s: expected one regressed row, synth:bench-07:\n%s", baselines[i],
				 r.out);
		assert_int_equal(lines_with(r.out, "pass", NULL, 0), BENCHES - 1);
		if (!strstr(r.err, "1 regressed, 19 passed, 0 not comparable, 0 without a baseline"))
			fail_msg("--baseline %s: unexpected summary: %s", baselines[i], r.err);
		bc_test_run_free(&r);
	}
	/* drops: better lower, 20% more is the regression */
	check(&r, store, "--label", "pr", "--baseline", "main", "--metric", "drops", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	if (lines_with(r.out, "regressed", line, sizeof(line)) != 1 || !strstr(line, "synth:bench-07 ") ||
	    !strstr(line, "(drops)"))
		fail_msg("--metric drops: expected synth:bench-07 to regress:\n%s", r.out);
	bc_test_run_free(&r);
	/* a budget larger than the change lets it pass */
	{
		char th[PATH_MAX];
		FILE *f;

		PATHF(th, "%s/lenient.ini", root);
		f = fopen(th, "w");
		assert_non_null(f);
		fputs("[default]\nmax-regression = 5%\n\n[synth:bench-0?]\nmax-regression = 15\n", f);
		assert_int_equal(fclose(f), 0);
		check(&r, store, "--label", "pr", "--baseline", "main", "--thresholds", th, NULL);
		bc_test_assert_status(&r, BC_EXIT_OK);
		if (lines_with(r.out, "pass", line, sizeof(line)) != BENCHES || !strstr(r.out, "within budget"))
			fail_msg("15%% budget: expected every row to pass, bench-07 within budget:\n%s", r.out);
		bc_test_run_free(&r);
	}
}

static void test_noise_only(void **state)
{
	static const char *const baselines[] = { "latest", "main", "window:5", "window:3" };
	char store[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	store_at(store, sizeof(store), "noise");
	make_store(store, -1, "ci-a", "6.18.0", 10);
	for (size_t i = 0; i < 4; i++) {
		check(&r, store, "--label", "pr", "--baseline", baselines[i], NULL);
		if (r.status != BC_EXIT_OK || lines_with(r.out, "pass", NULL, 0) != BENCHES)
			fail_msg("--baseline %s: exit %d, expected every row to pass:\n%s%s", baselines[i],
				 r.status, r.out, r.err);
		bc_test_run_free(&r);
	}
	/* without --label: the newest entry of each is the pull request's */
	check(&r, store, NULL);
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);
	/* a glob selects benchmarks */
	check(&r, store, "synth:bench-0[0-4]", "--baseline", "main", NULL);
	bc_test_assert_status(&r, BC_EXIT_OK);
	assert_int_equal(lines_with(r.out, "pass", NULL, 0), 5);
	bc_test_run_free(&r);
}

static void test_not_comparable(void **state)
{
	char store[PATH_MAX], line[1024];
	struct bc_test_run r;

	(void)state;
	store_at(store, sizeof(store), "machines");
	make_store(store, PLANTED, "ci-b", "6.18.0", 10);
	check(&r, store, "--label", "pr", "--baseline", "main", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	/* every row, the planted one too: no verdict across machines */
	assert_int_equal(lines_with(r.out, "not comparable", line, sizeof(line)), BENCHES);
	assert_int_equal(lines_with(r.out, "pass", NULL, 0), 0);
	assert_int_equal(lines_with(r.out, "regressed", NULL, 0), 0);
	if (!strstr(line, "not comparable: machine (baseline on ci-a, Synthetic CPU; this run on ci-b, Synthetic CPU)"))
		fail_msg("unexpected row: %s", line);
	bc_test_run_free(&r);
	check(&r, store, "--label", "pr", "--allow-not-comparable", NULL);
	bc_test_assert_status(&r, BC_EXIT_OK);
	bc_test_run_free(&r);

	make_store(store, -1, "ci-a", "6.19.0-rc1", 10);
	check(&r, store, "--label", "pr", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_int_equal(lines_with(r.out, "not comparable", line, sizeof(line)), BENCHES);
	if (!strstr(line, "not comparable: kernel (baseline 6.18.0, this run 6.19.0-rc1)"))
		fail_msg("unexpected row: %s", line);
	bc_test_run_free(&r);

	/* measured under TCG: the emulator's speed, never judged against a
	 * native baseline (accel.h's rule, compare's and history's too) */
	pr_accel = "tcg";
	make_store(store, PLANTED, "ci-a", "6.18.0", 10);
	pr_accel = NULL;
	check(&r, store, "--label", "pr", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_int_equal(lines_with(r.out, "not comparable", line, sizeof(line)), BENCHES);
	if (!strstr(line, "not comparable: accelerator (baseline native, this run tcg)"))
		fail_msg("unexpected row: %s", line);
	bc_test_run_free(&r);

	/* two seconds a side are too few for Welch's test */
	make_store(store, -1, "ci-a", "6.18.0", 2);
	check(&r, store, "--label", "pr", "--baseline", "latest", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_int_equal(lines_with(r.out, "not comparable", line, sizeof(line)), BENCHES);
	if (!strstr(line, "not comparable: too few samples (baseline 10, this run 2 seconds; 3 a side needed)"))
		fail_msg("unexpected row: %s", line);
	bc_test_run_free(&r);
	/* nor are two baseline entries, when the thresholds ask for five */
	{
		char th[PATH_MAX];
		FILE *f;

		PATHF(th, "%s/five.ini", root);
		f = fopen(th, "w");
		assert_non_null(f);
		fputs("# the team's budget\n[default]\nmin-samples = 5\n", f);
		assert_int_equal(fclose(f), 0);
		check(&r, store, "--label", "pr", "--baseline", "window:2", "--thresholds", th, NULL);
		bc_test_assert_status(&r, BC_EXIT_FAILED);
		assert_int_equal(lines_with(r.out, "not comparable", line, sizeof(line)), BENCHES);
		if (!strstr(line, "not comparable: too few samples (2 baseline entries; 5 needed)"))
			fail_msg("unexpected row: %s", line);
		bc_test_run_free(&r);
	}
}

static void test_no_baseline(void **state)
{
	char store[PATH_MAX], line[1024];
	struct run one = { .bench = "synth:new", .host = "ci-a", .kernel = "6.18.0", .label = "pr",
			   .date = "2026-11-09T00:00:00Z", .hits = 1e6, .drops = 10, .seconds = 5,
			   .seed = 1 };
	struct bc_test_run r;

	(void)state;
	store_at(store, sizeof(store), "new");
	fresh_store(store);
	save(store, &one, 1);
	check(&r, store, NULL);
	/* nothing to judge against is no regression, and says so */
	bc_test_assert_status(&r, BC_EXIT_OK);
	assert_int_equal(lines_with(r.out, "no baseline", line, sizeof(line)), 1);
	assert_non_null(strstr(line, "no baseline: no earlier entry of this configuration"));
	bc_test_run_free(&r);
	check(&r, store, "--baseline", "main", NULL);
	bc_test_assert_status(&r, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "no baseline: no entry labelled 'main' of this configuration"));
	bc_test_run_free(&r);
}

static void test_formats(void **state)
{
	char store[PATH_MAX], err[256];
	const struct bc_json *sum, *res;
	struct bc_test_run r;
	struct bc_json *doc;
	size_t regressed = 0;

	(void)state;
	store_at(store, sizeof(store), "planted");
	make_store(store, PLANTED, "ci-a", "6.18.0", 10);
	check(&r, store, "--label", "pr", "--baseline", "main", "--format", "json", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("not JSON: %s\n%s", err, r.out);
	sum = bc_json_get(doc, "summary");
	assert_string_equal(bc_json_str(bc_json_get(sum, "status")), "regressed");
	assert_true(bc_json_num(bc_json_get(sum, "regressed"), NAN) == 1);
	assert_true(bc_json_num(bc_json_get(sum, "passed"), NAN) == BENCHES - 1);
	res = bc_json_get(doc, "results");
	assert_int_equal(bc_json_len(res), BENCHES);
	for (size_t i = 0; i < bc_json_len(res); i++) {
		const struct bc_json *x = bc_json_at(res, i);
		double ch = bc_json_num(bc_json_get(x, "change_pct"), NAN),
		       lo = bc_json_num(bc_json_get(x, "ci95_low_pct"), NAN),
		       hi = bc_json_num(bc_json_get(x, "ci95_high_pct"), NAN);

		/* every judged row has the change inside its interval and a p */
		assert_true(lo <= ch && ch <= hi);
		assert_true(bc_json_num(bc_json_get(x, "p_value"), NAN) >= 0);
		assert_string_equal(bc_json_str(bc_json_get(x, "test")), "student");
		assert_true(bc_json_num(bc_json_get(bc_json_get(x, "baseline"), "entries"), NAN) == 5);
		if (!strcmp(bc_json_str(bc_json_get(x, "status")), "regressed")) {
			regressed++;
			assert_string_equal(bc_json_str(bc_json_get(x, "benchmark")), "synth:bench-07");
			assert_true(ch < -8 && ch > -12);
		}
	}
	assert_int_equal(regressed, 1);
	bc_json_free(doc);
	bc_test_run_free(&r);

	check(&r, store, "--label", "pr", "--format", "markdown", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_true(!strncmp(r.out, "### benchcore check: regressed\n", 31));
	assert_non_null(strstr(r.out, "| | benchmark | configuration | figure |"));
	assert_non_null(strstr(r.out, "| synth:bench-07 | producers=1 | hits |"));
	assert_non_null(strstr(r.out, "| **regressed** |"));
	bc_test_run_free(&r);
}

static void test_usage(void **state)
{
	static const struct {
		const char *arg, *val, *line;
	} bad[] = {
		{ "--baseline", "window:1", "benchcore: --baseline 'window:1': expected window:N with N from 2 to 1000" },
		{ "--baseline", "", "benchcore: --baseline '': expected latest, a label or window:N" },
		{ "--format", "csv", NULL },
		{ "--thresholds", "/nonexistent/t.ini", "benchcore: check: thresholds '/nonexistent/t.ini': No such file or directory; expected a thresholds file (docs/ci.md)" },
		{ "--metric", "nope", "benchcore: check: --metric 'nope': no selected entry that ended well has a metric or figure of that name; they have drops, hits" },
		{ "synth", NULL, "benchcore: check: 'synth': expected PLUGIN:BENCH (a glob may stand for either: 'ringbuf:*')" },
	};
	char store[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	store_at(store, sizeof(store), "planted");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		check(&r, store, bad[i].arg, bad[i].val, NULL);
		bc_test_assert_status(&r, BC_EXIT_USAGE);
		if (bad[i].line)
			bc_test_assert_line(&r, bad[i].line);
		bc_test_run_free(&r);
	}
	/* nothing selected: nothing was judged, which is no pass */
	check(&r, store, "--label", "nope", NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_non_null(strstr(r.err, "nothing was judged"));
	bc_test_run_free(&r);
}

/* ------------------------------------------------ the thresholds file */

static const char *write_file(const char *name, const char *text)
{
	static char path[PATH_MAX];
	FILE *f;

	PATHF(path, "%s/%s", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void test_thresholds(void **state)
{
	static const struct {
		const char *text, *line;	/* the line after "PATH:" */
	} bad[] = {
		{ "max-regression = 5\n", "1: 'max-regression' before any section; expected a [default] or [GLOB] line first" },
		{ "[default]\nmax-regresion = 5\n", "2: unknown key 'max-regresion'; expected max-regression, alpha or min-samples" },
		{ "[default]\nmax-regression = 5x\n", "2: max-regression '5x': expected a percentage from 0 to 1000 (5 or 5%)" },
		{ "[default]\nmax-regression = -1\n", "2: max-regression '-1': expected a percentage from 0 to 1000 (5 or 5%)" },
		{ "[default]\nalpha = 1.5\n", "2: alpha '1.5': expected a significance level between 0 and 1 (0.05)" },
		{ "[default]\nmin-samples = 1\n", "2: min-samples '1': expected a whole number from 2 to 1000000" },
		{ "[default]\nalpha = 0.05\nalpha = 0.01\n", "3: 'alpha' is set twice in the section of line 1 (first on line 2)" },
		{ "\n[ringbuf:* hits extra]\n", "2: '[ringbuf:* hits extra]': expected [default], [GLOB] or [GLOB METRIC] (GLOB a PLUGIN:BENCH pattern)" },
		{ "[default]\n[default]\n", "2: [default] again (first on line 1); expected one [default] section" },
		{ "[default]\nfive percent\n", "2: 'five percent': expected [SECTION], KEY = VALUE, a comment or a blank line" },
	};
	struct bc_thresholds *t;
	struct bc_threshold th;
	char err[512], want[PATH_MAX + 256];
	const char *path;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = write_file("bad.ini", bad[i].text);
		t = bc_thresholds_load(path, err, sizeof(err));
		assert_null(t);
		assert_int_equal(errno, EINVAL);
		PATHF(want, "%s:%s", path, bad[i].line);
		assert_string_equal(err, want);
	}
	path = write_file("good.ini",
			  "# budget\n; also a comment\n[synth:*]\nmax-regression = 3%\n\n"
			  "[default]\nmax-regression = 8\nalpha = 0.01\n\n"
			  "[synth:bench-1?]\nmin-samples = 5\n\n[synth:* drops]\nmax-regression = 0\n");
	t = bc_thresholds_load(path, err, sizeof(err));
	if (!t)
		fail_msg("%s", err);
	/* [default] under every section, wherever it stands; then the last
	 * section that matches and sets a key */
	bc_thresholds_for(t, "ringbuf:rb-custom", "hits", &th);
	assert_true(th.max_regression_pct == 8 && th.alpha == 0.01 && th.min_samples == 3);
	bc_thresholds_for(t, "synth:bench-03", "hits", &th);
	assert_true(th.max_regression_pct == 3 && th.alpha == 0.01 && th.min_samples == 3);
	PATHF(want, "%s:3", path);
	assert_string_equal(th.from, want);
	bc_thresholds_for(t, "synth:bench-13", "drops", &th);
	assert_true(th.max_regression_pct == 0 && th.min_samples == 5);
	bc_thresholds_free(t);
	bc_thresholds_for(NULL, "x:y", "hits", &th);
	assert_true(th.max_regression_pct == BC_THRESHOLD_MAX_REGRESSION_PCT &&
		    th.alpha == BC_THRESHOLD_ALPHA && th.min_samples == BC_THRESHOLD_MIN_SAMPLES);
	assert_string_equal(th.from, "built-in");
	/* a directory, and a file that is not there */
	assert_null(bc_thresholds_load(root, err, sizeof(err)));
	assert_int_equal(errno, EISDIR);
}

static int setup(void **state)
{
	(void)state;
	return bc_test_store_scratch(root, sizeof(root), BC_TEST_BUILD_DIR, "check");
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_planted_regression),
		cmocka_unit_test(test_noise_only),
		cmocka_unit_test(test_not_comparable),
		cmocka_unit_test(test_no_baseline),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_usage),
	};

	if (argc > 1 && !strcmp(argv[1], "pg")) {
		int ret = bc_test_pg_setup(&srv, "test_check pg");

		if (ret)
			return ret;
		pg = true;
		return cmocka_run_group_tests_name("check, PostgreSQL", tests, setup, teardown);
	}
	return cmocka_run_group_tests_name("check, SQLite", tests, setup, teardown);
}
