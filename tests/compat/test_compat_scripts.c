// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * People bring the kernel runner's scripts (benchs/run_common.sh and the
 * run_bench_*.sh built on it) to benchcore's text output. This test reads
 * that output the way those scripts do, through runner_idioms.sh: the last
 * line of the whole output joined by an unquoted echo, `grep Summary`,
 * run_bench_trigger.sh's `tail -n1 | cut -d'(' -f1 | cut -d' ' -f3-`, and
 * the sed expressions that pick hits, drops, total operations, ops,
 * local-storage figures and the false-hits percentage.
 *
 * `compat_scripts plain` (no BPF):
 *  - the compatfix fixture prints the same numbers in every run, so a text
 *    run and a JSON run of one configuration measure the same values: every
 *    figure a script extracts must equal the JSON summary's, as the runner
 *    prints it (three decimals, two for the percentage). One benchmark per
 *    runner line shape; each also prints every extra line benchcore adds
 *    (attach point, spread, CPU, histogram), which must not get in the way.
 *  - count-local with the runner's command line: numbers differ from run to
 *    run, so what the scripts extract is checked for shape and against the
 *    Iter lines of the same output (their mean, within the rounding of the
 *    printed decimals).
 * `compat_scripts bpf` (root and kernel BTF): the same shape checks on the
 *   BPF benchmarks that carry the runner's names (trigger, local storage,
 *   ring buffer, bpf-loop, strncmp, rename, private stack, crypto), each
 *   with the command line the runner's script uses.
 */
#define _GNU_SOURCE
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "child.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

#define PM "\xc2\xb1"
#define EXIT_UNAVAILABLE 3

/* A figure as the runner's sed expressions keep it: "12.345 ± 0.678M/s". */
#define RE_NUM "[0-9]+\\.[0-9]{3}"
#define RE_RATE RE_NUM " " PM " " RE_NUM "M/s"

struct run_out {
	struct bc_test_run run;
	char path[64];	/* stdout saved for the shell, unlinked at the end */
};

static void run_out_free(struct run_out *o)
{
	if (o->path[0])
		unlink(o->path);
	bc_test_run_free(&o->run);
}

/* Runs benchcore (global options first, as args gives them); status 0
 * expected unless allow_unavailable and the run says it cannot run here. */
static bool run_bc(struct run_out *o, bool allow_unavailable, const char *first, ...)
{
	const char *args[40];
	size_t n = 0;
	va_list ap;
	FILE *f;
	int fd;

	va_start(ap, first);
	for (const char *a = first; a && n < 39; a = va_arg(ap, const char *))
		args[n++] = a;
	va_end(ap);
	args[n] = NULL;
	memset(o, 0, sizeof(*o));
	bc_test_run_benchcore(&o->run, args);
	if (allow_unavailable && o->run.status == EXIT_UNAVAILABLE)
		return false;
	if (o->run.status != 0)
		fail_msg("benchcore %s ... exited %d\n--- stdout\n%s\n--- stderr\n%s", first,
			 o->run.status, o->run.out, o->run.err);
	strcpy(o->path, "/tmp/bc-compat-XXXXXX");
	fd = mkstemp(o->path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(o->run.out, f);
	assert_int_equal(fclose(f), 0);
	return true;
}

/* One function of runner_idioms.sh on (a1, a2); its stdout, trailing
 * newlines cut. */
static char *idiom(const char *func, const char *a1, const char *a2)
{
	const char *argv[] = { "/bin/sh", "-c", ". \"$0\" && \"$@\"", BC_TEST_IDIOMS, func, a1,
			       a2, NULL };
	struct bc_child_result r;
	char *s;
	size_t len;

	assert_int_equal(bc_child_run("/bin/sh", (char *const *)argv, 60, &r), 0);
	if (!r.exited || r.exit_code)
		fail_msg("%s %s: shell status %d\n%s", func, a1, r.exit_code, r.err);
	s = strdup(r.out);
	assert_non_null(s);
	len = strlen(s);
	while (len && s[len - 1] == '\n')
		s[--len] = '\0';
	bc_child_result_free(&r);
	return s;
}

static void expect_idiom(const char *func, const char *a1, const char *a2, const char *want)
{
	char *got = idiom(func, a1, a2);

	if (strcmp(got, want))
		fail_msg("%s on the text output:\n  got  '%s'\n  want '%s'", func, got, want);
	free(got);
}

static void expect_match(const char *what, const char *s, const char *pattern)
{
	regex_t re;

	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
	if (regexec(&re, s, 0, NULL, 0))
		fail_msg("%s: '%s' does not have the runner's shape /%s/", what, s, pattern);
	regfree(&re);
}

static struct bc_json *parse_json(const char *text)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(text, strlen(text), err, sizeof(err));

	if (!doc)
		fail_msg("not JSON (%s): %.400s", err, text);
	return doc;
}

static double jnum(const struct bc_json *v, const char *k1, const char *k2, const char *k3)
{
	v = bc_json_get(v, k1);
	if (k2)
		v = bc_json_get(v, k2);
	if (k3)
		v = bc_json_get(v, k3);
	if (!v)
		fail_msg("no %s.%s.%s in the JSON report", k1, k2 ? k2 : "", k3 ? k3 : "");
	return bc_json_num(v, NAN);
}

/* "X ± YM/s" of a summary metric, in millions, as the runner prints it. */
static void metric_rate(const struct bc_json *sum, const char *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.3f " PM " %.3fM/s", jnum(sum, m, "mean", NULL) / 1e6,
		 jnum(sum, m, "stddev", NULL) / 1e6);
}

/* The same of a stored figure (value and its per-iteration stddev). */
static void figure_rate(const struct bc_json *sum, const char *fig, const char *unit, char *buf,
			size_t len)
{
	snprintf(buf, len, "%.3f " PM " %.3f%s", jnum(sum, "figures", fig, "value") / 1e6,
		 jnum(bc_json_get(bc_json_get(sum, "figures"), fig), "stats", "stddev", NULL) / 1e6,
		 unit);
}

/* ------------------------------------------------------ where lines go */

static const char *line_after(const char *text, const char *start)
{
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, start, strlen(start)))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/*
 * The order a script relies on: the attach point line (if any) before the
 * first Iter line, exactly one Summary line, and it is the last line.
 */
static void check_layout(const struct run_out *o)
{
	const char *out = o->run.out, *iter = line_after(out, "Iter "),
		   *ap = line_after(out, "Attach point: "), *sum = line_after(out, "Summary:");
	char *grep = idiom("summary_lines", o->path, NULL), *last;
	size_t len = strlen(out);

	assert_non_null(iter);
	assert_non_null(sum);
	if (ap && ap > iter)
		fail_msg("the attach point line follows an Iter line:\n%s", out);
	if (line_after(sum + 1, "Summary:") || strchr(grep, '\n'))
		fail_msg("more than one Summary line:\n%s", out);
	assert_true(len > 0 && out[len - 1] == '\n');
	last = strndup(sum, (size_t)(out + len - 1 - sum));
	assert_non_null(last);
	if (strchr(last, '\n'))
		fail_msg("lines after the Summary line:\n%s", out);
	assert_string_equal(grep, last);
	free(grep);
	free(last);
}

/* ------------------------------------------------ the fixture, exactly */

struct pair {
	struct run_out text;
	struct bc_json *doc;
	const struct bc_json *sum;
};

/* One configuration twice: text (for the scripts) and JSON (the truth). */
static void run_pair(struct pair *p, const char *bench)
{
	struct run_out json;

	run_bc(&json, false, "--plugin-dir", BC_TEST_COMPAT_PLUGIN_DIR, "run", bench, "-p2", "-w1",
	       "-d2", "--format", "json", NULL);
	run_bc(&p->text, false, "--plugin-dir", BC_TEST_COMPAT_PLUGIN_DIR, "run", bench, "-p2",
	       "-w1", "-d2", NULL);
	p->doc = parse_json(json.run.out);
	p->sum = bc_json_get(p->doc, "summary");
	assert_non_null(p->sum);
	run_out_free(&json);
	check_layout(&p->text);
}

static void pair_free(struct pair *p)
{
	bc_json_free(p->doc);
	run_out_free(&p->text);
}

static void test_fixture_hits_drops(void **state)
{
	char hits[128], drops[128], total[128], row[512], *last;
	struct pair p;

	(void)state;
	run_pair(&p, "compatfix:cf-hits");
	/* The extra lines are there, before the Summary (check_layout). */
	assert_non_null(line_after(p.text.run.out, "Attach point: fixture"));
	assert_non_null(line_after(p.text.run.out, "Histogram wait_ns: "));
	assert_non_null(line_after(p.text.run.out, "Spread over 2 iterations"));

	metric_rate(p.sum, "hits", hits, sizeof(hits));
	metric_rate(p.sum, "drops", drops, sizeof(drops));
	figure_rate(p.sum, "total_operations", "M/s", total, sizeof(total));
	last = idiom("last_line", p.text.path, NULL);
	expect_idiom("hits_of", last, NULL, hits);
	expect_idiom("drops_of", last, NULL, drops);
	expect_idiom("total_of", last, NULL, total);
	free(last);

	/* run_bench_ringbufs.sh's rows, and summarize_total's. */
	snprintf(row, sizeof(row), "%-20s %s (drops %s)", "cf-hits", hits, drops);
	expect_idiom("summarize", "cf-hits", p.text.path, row);
	snprintf(row, sizeof(row), "%-20s %s", "cf-hits", total);
	expect_idiom("summarize_total", "cf-hits", p.text.path, row);

	/* run_bench_trigger.sh: "  X ± YM/s " of the last line. */
	snprintf(row, sizeof(row), "%8.3f " PM " %5.3fM/s ", jnum(p.sum, "hits", "mean", NULL) / 1e6,
		 jnum(p.sum, "hits", "stddev", NULL) / 1e6);
	expect_idiom("trigger_cut", p.text.path, NULL, row);
	pair_free(&p);
}

static void test_fixture_ops(void **state)
{
	char row[512];
	struct pair p;

	(void)state;
	run_pair(&p, "compatfix:cf-ops");
	snprintf(row, sizeof(row), "%-20s throughput: %.3f " PM " %.3f M ops/s, latency: %.3f ns/op",
		 "cf-ops", jnum(p.sum, "hits", "mean", NULL) / 1e6,
		 jnum(p.sum, "hits", "stddev", NULL) / 1e6, jnum(p.sum, "figures", "latency", "value"));
	expect_idiom("summarize_ops", "cf-ops", p.text.path, row);
	pair_free(&p);
}

static void test_fixture_local_storage(void **state)
{
	char row[512];
	struct pair p;

	(void)state;
	run_pair(&p, "compatfix:cf-ls");
	snprintf(row, sizeof(row),
		 "%-20s hits throughput: %.3f " PM " %.3f M ops/s, hits latency: %.3f ns/op, "
		 "important_hits throughput: %.3f " PM " %.3f M ops/s",
		 "cf-ls", jnum(p.sum, "hits", "mean", NULL) / 1e6,
		 jnum(p.sum, "hits", "stddev", NULL) / 1e6, jnum(p.sum, "figures", "latency", "value"),
		 jnum(p.sum, "important_hits", "mean", NULL) / 1e6,
		 jnum(p.sum, "important_hits", "stddev", NULL) / 1e6);
	expect_idiom("summarize_local_storage", "cf-ls", p.text.path, row);
	pair_free(&p);
}

static void test_fixture_false_hits(void **state)
{
	char row[512];
	struct pair p;

	(void)state;
	run_pair(&p, "compatfix:cf-share");
	snprintf(row, sizeof(row), "%-20s %.2f%%", "cf-share",
		 jnum(p.sum, "figures", "share_pct", "value"));
	expect_idiom("summarize_percentage", "cf-share", p.text.path, row);
	/* The counts of the same line, as the runner prints them. */
	snprintf(row, sizeof(row), "Summary: %ld false hits of %ld total operations.",
		 lround(jnum(p.sum, "figures", "share_events", "value")),
		 lround(jnum(p.sum, "figures", "share_total", "value")));
	if (!strstr(p.text.run.out, row))
		fail_msg("'%s' not in:\n%s", row, p.text.run.out);
	pair_free(&p);
}

/* ----------------------------------- real benchmarks: shape and Iter lines */

/*
 * The mean of the measured (not warm-up) Iter lines' figure after WORD, and
 * how many there were. The lines carry three decimals, so the mean of the
 * printed values is within 0.0005 of the mean the Summary rounds.
 */
static double iter_mean(const char *out, const char *word, unsigned int *n)
{
	const char *p = out;
	double sum = 0;
	char key[64];

	snprintf(key, sizeof(key), " %s ", word);
	*n = 0;
	while ((p = line_after(p, "Iter "))) {
		const char *eol = strchr(p, '\n'), *k = strstr(p, key);

		if (!eol)
			eol = p + strlen(p);
		if (k && k < eol && !memmem(p, (size_t)(eol - p), "[warm-up]", 9)) {
			sum += strtod(k + strlen(key), NULL);
			(*n)++;
		}
		p = eol;
	}
	return *n ? sum / *n : NAN;
}

/* "X ± Y..." -> X */
static double lead_num(const char *s)
{
	return strtod(s, NULL);
}

static void expect_near_iters(const struct run_out *o, const char *word, double summary_mean)
{
	unsigned int n;
	double m = iter_mean(o->run.out, word, &n);

	assert_int_equal(n, 2);	/* -d2: two measured Iter lines */
	if (fabs(m - summary_mean) > 0.0011)
		fail_msg("%s: Summary says %.3f, its Iter lines average %.4f\n%s", word, summary_mean,
			 m, o->run.out);
}

/* The hits/drops checks every hits-shaped benchmark gets. */
static void check_hits_drops(const struct run_out *o, const char *name)
{
	char *last = idiom("last_line", o->path, NULL), *hits, *drops, *total, *row, *cut;

	check_layout(o);
	hits = idiom("hits_of", last, NULL);
	drops = idiom("drops_of", last, NULL);
	total = idiom("total_of", last, NULL);
	expect_match("hits", hits, "^" RE_RATE "$");
	expect_match("drops", drops, "^" RE_RATE "$");
	expect_match("total operations", total, "^" RE_RATE "$");
	if (fabs(lead_num(hits) + lead_num(drops) - lead_num(total)) > 0.0011)
		fail_msg("hits %s + drops %s != total operations %s", hits, drops, total);
	expect_near_iters(o, "hits", lead_num(hits));

	row = idiom("summarize", name, o->path);
	expect_match("summarize", row, "^[-a-z0-9]+ +" RE_RATE " \\(drops " RE_RATE "\\)$");
	cut = idiom("trigger_cut", o->path, NULL);
	expect_match("trigger cut", cut, "^ *" RE_RATE " $");
	if (lead_num(cut) != lead_num(hits))
		fail_msg("the trigger script reads '%s', the hits are '%s'", cut, hits);
	free(last);
	free(hits);
	free(drops);
	free(total);
	free(row);
	free(cut);
}

/* The runner's self-check, with the command line its users type. */
static void test_count(void **state)
{
	struct run_out o;

	(void)state;
	run_bc(&o, false, "run", "-w1", "-d2", "-a", "count-local", NULL);
	check_hits_drops(&o, "count-local");
	run_out_free(&o);
}

/* run_bench_trigger.sh: `-w2 -d5 -a -p1 trig-tp` (shorter here). */
static void test_trigger(void **state)
{
	const char *ap;
	struct run_out o;

	(void)state;
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-a", "-p1", "trig-tp", NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_hits_drops(&o, "trig-tp");
	/* Which driver ran: the two must never be compared. */
	ap = line_after(o.run.out, "Attach point: ");
	assert_non_null(ap);
	if (strncmp(strchr(ap, '\n') - 8, " driver)", 8))
		fail_msg("the attach point line does not name the driver:\n%s", o.run.out);
	run_out_free(&o);
}

/* run_bench_ringbufs.sh: `-w3 -d10 -a -c1 rb-libbpf` (shorter here). */
static void test_ringbuf(void **state)
{
	struct run_out o;

	(void)state;
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-a", "-c1", "rb-libbpf", NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_hits_drops(&o, "rb-libbpf");
	run_out_free(&o);
}

/* run_bench_local_storage.sh: `--nr_maps N local-storage-cache-seq-get`. */
static void test_local_storage(void **state)
{
	char *row, *s;
	double hits, lat, imp;
	struct run_out o;

	(void)state;
	if (!run_bc(&o, true, "run", "--nr_maps", "10", "local-storage-cache-seq-get", "-w1", "-d2",
		    NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_layout(&o);
	row = idiom("summarize_local_storage", "seq get", o.path);
	expect_match("summarize_local_storage", row,
		     "^seq get +hits throughput: " RE_NUM " " PM " " RE_NUM " M ops/s, "
		     "hits latency: " RE_NUM " ns/op, important_hits throughput: " RE_NUM " " PM
		     " " RE_NUM " M ops/s$");
	s = strstr(row, "hits throughput: ");
	hits = lead_num(s + strlen("hits throughput: "));
	lat = lead_num(strstr(row, "hits latency: ") + strlen("hits latency: "));
	imp = lead_num(strstr(row, "important_hits throughput: ") +
		       strlen("important_hits throughput: "));
	expect_near_iters(&o, "hits", hits);
	expect_near_iters(&o, "important_hits", imp);
	/* The runner's local-storage latency: 1000 / throughput, no producer
	 * factor; within what the three printed decimals of hits allow. */
	if (fabs(lat - 1000.0 / hits) > 0.0006 * 1000.0 / (hits * hits) + 0.0006)
		fail_msg("hits latency %.3f is not 1000 / %.3f", lat, hits);
	free(row);
	run_out_free(&o);
}

/* The hits-shaped benchmarks of the program-feature plugins, each with its
 * script's command line (shorter here): run_bench_strncmp.sh,
 * run_bench_rename.sh (read with the trigger script's cut, as it does),
 * run_bench_private_stack.sh, and crypto-decrypt as its patch ran it. ran is
 * run_bc()'s answer: false when the benchmark cannot run here. */
static void hits_or_skip(struct run_out *o, bool ran, const char *name)
{
	if (!ran) {
		bc_test_run_free(&o->run);
		skip();
	}
	check_hits_drops(o, name);
	run_out_free(o);
}

static void test_strncmp(void **state)
{
	struct run_out o;

	(void)state;
	hits_or_skip(&o, run_bc(&o, true, "run", "-w1", "-d2", "--cmp-str-len=8",
				"strncmp-helper", NULL), "helper-8");
}

static void test_rename(void **state)
{
	struct run_out o;

	(void)state;
	hits_or_skip(&o, run_bc(&o, true, "run", "-w1", "-d2", "-a", "rename-base", NULL),
		     "rename-base");
}

static void test_private_stack(void **state)
{
	struct run_out o;

	(void)state;
	hits_or_skip(&o, run_bc(&o, true, "run", "-w1", "-d2", "--nr-batch-iters=8",
				"private-stack", NULL), "private-stack-8");
}

static void test_crypto(void **state)
{
	struct run_out o;

	(void)state;
	hits_or_skip(&o, run_bc(&o, true, "run", "-w1", "-d2", "crypto-decrypt", NULL),
		     "crypto-decrypt");
}

/* run_bench_bpf_loop.sh: `summarize_ops "bpf_loop: " "$(... -p N --nr_loops M bpf-loop)"`. */
static void test_bpf_loop(void **state)
{
	double thr, lat;
	char *row;
	struct run_out o;

	(void)state;
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-p", "1", "--nr_loops", "100", "bpf-loop",
		    NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_layout(&o);
	row = idiom("summarize_ops", "bpf_loop: ", o.path);
	expect_match("summarize_ops", row,
		     "^bpf_loop: +throughput: " RE_NUM " " PM " " RE_NUM " M ops/s, latency: " RE_NUM
		     " ns/op$");
	thr = lead_num(strstr(row, "throughput: ") + strlen("throughput: "));
	lat = lead_num(strstr(row, "latency: ") + strlen("latency: "));
	expect_near_iters(&o, "hits", thr);
	/* The runner's ops latency: 1000 / throughput x producers (one here). */
	if (fabs(lat - 1000.0 / thr) > 0.0006 * 1000.0 / (thr * thr) + 0.0006)
		fail_msg("latency %.3f is not 1000 / %.3f", lat, thr);
	free(row);
	run_out_free(&o);
}

/* run_bench_bpf_for.sh: `summarize_ops "bpf_for: " "$(... -p N --nr_loops M bpf-for)"`. */
static void test_bpf_for(void **state)
{
	double thr;
	char *row;
	struct run_out o;

	(void)state;
	/* Unavailable before Linux 6.4 (no numeric iterator kfuncs). */
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-p", "1", "--nr_loops", "100", "bpf-for",
		    NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_layout(&o);
	row = idiom("summarize_ops", "bpf_for: ", o.path);
	expect_match("summarize_ops", row,
		     "^bpf_for: +throughput: " RE_NUM " " PM " " RE_NUM " M ops/s, latency: " RE_NUM
		     " ns/op$");
	thr = lead_num(strstr(row, "throughput: ") + strlen("throughput: "));
	expect_near_iters(&o, "hits", thr);
	free(row);
	run_out_free(&o);
}

/* run_bench_trigger.sh of the 2026 development trees: the record-passing
 * baselines with `-a -c1 -p1`, read with the same cut as the others. */
static void test_trigger_shared_memory(void **state)
{
	struct run_out o;

	(void)state;
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-a", "-c1", "-p1", "trig-shared-memory",
		    NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_hits_drops(&o, "shared-memory");
	run_out_free(&o);
}

/* run_bench_trigger_user_rb.sh: the timer run's own Summary line, read with
 * the script's hits(), drops() and timer_fires(). */
static void test_trigger_user_rb_timer(void **state)
{
	char *row;
	struct run_out o;

	(void)state;
	/* Unavailable before Linux 6.1 (no user ring buffers). */
	if (!run_bc(&o, true, "run", "-w1", "-d2", "-a", "-p1", "-c0", "trig-user-ringbuf-timer",
		    NULL)) {
		bc_test_run_free(&o.run);
		skip();
	}
	check_layout(&o);
	row = idiom("user_rb_timer", "user-ringbuf-timer", o.path);
	expect_match("user_rb_timer", row,
		     "^user-ringbuf-timer +records " RE_RATE ", ENOSPC " RE_RATE ", timer fires "
		     RE_RATE "$");
	expect_near_iters(&o, "hits", lead_num(strstr(row, "records ") + strlen("records ")));
	free(row);
	run_out_free(&o);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest plain[] = {
		cmocka_unit_test(test_fixture_hits_drops),
		cmocka_unit_test(test_fixture_ops),
		cmocka_unit_test(test_fixture_local_storage),
		cmocka_unit_test(test_fixture_false_hits),
		cmocka_unit_test(test_count),
	};
	const struct CMUnitTest bpf[] = {
		cmocka_unit_test(test_trigger),
		cmocka_unit_test(test_ringbuf),
		cmocka_unit_test(test_local_storage),
		cmocka_unit_test(test_bpf_loop),
		cmocka_unit_test(test_bpf_for),
		cmocka_unit_test(test_trigger_shared_memory),
		cmocka_unit_test(test_trigger_user_rb_timer),
		cmocka_unit_test(test_strncmp),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_private_stack),
		cmocka_unit_test(test_crypto),
	};
	int skip_status;

	if (argc > 1 && !strcmp(argv[1], "bpf")) {
		skip_status = bc_test_bpf_skip("the runner-script test of the BPF benchmarks");
		if (skip_status)
			return skip_status;
		return cmocka_run_group_tests_name("compat_scripts_bpf", bpf, NULL, NULL);
	}
	return cmocka_run_group_tests_name("compat_scripts", plain, NULL, NULL);
}
