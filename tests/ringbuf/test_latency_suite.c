// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The shipped ringbuf-latency suite: `suite --list` shows it, every line
 * parses and expands, and its rows cover what it promises (rb-libbpf,
 * rb-custom, pb-libbpf and pb-custom each with default notification,
 * sampled notification at several rates, and back-to-back). The whole
 * suite takes minutes, so only its first line is run, for one second, and
 * its JSON row must carry the latency histogram.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "batch.h"
#include "words.h"
#include "suite.h"
#include "row.h"
#include "bc_test_report.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

#define SUITE_NAME "ringbuf-latency"
#define SUITE_PATH BC_TEST_SOURCE_DIR "/suites/" SUITE_NAME ".suite"

static const char *const benches[] = {
	"ringbuf:rb-libbpf", "ringbuf:rb-custom", "perfbuf:pb-libbpf", "perfbuf:pb-custom",
};
#define BENCH_CNT (sizeof(benches) / sizeof(benches[0]))

static void test_listed(void **state)
{
	const char *args[] = { "suite", "--list", NULL };
	struct bc_test_run r;
	const char *line;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0)
		fail_msg("suite --list: exit %d\n%s", r.status, r.err);
	line = strstr(r.out, SUITE_NAME " ");
	if (!line || (line != r.out && line[-1] != '\n'))
		fail_msg("suite --list does not show " SUITE_NAME ":\n%s", r.out);
	assert_non_null(strstr(line, "latency"));
	bc_test_run_free(&r);
}

static bool strv_has(const struct bc_strv *v, const char *s)
{
	for (size_t i = 0; i < v->cnt; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

/* The value a row's sweep gave an option, or NULL. */
static const char *row_opt(const struct bc_row *r, const char *name)
{
	for (size_t i = 0; i < r->opt_names.cnt; i++)
		if (!strcmp(r->opt_names.v[i], name))
			return r->opt_values.v[i];
	return NULL;
}

/* What each benchmark's rows cover. */
struct coverage {
	unsigned int dflt, b2b, rates;
	char seen_rates[8][16];
};

static void cover(struct coverage *c, const struct bc_row *r)
{
	const char *swept = row_opt(r, "rb-sampled"), *rate = row_opt(r, "rb-sample-rate");
	bool sampled = strv_has(&r->args, "--rb-sampled") || (swept && !strcmp(swept, "on"));
	bool b2b = strv_has(&r->args, "--rb-b2b");
	unsigned int i;

	if (b2b) {
		c->b2b++;
		return;
	}
	if (!sampled) {
		c->dflt++;
		return;
	}
	assert_non_null(rate);
	for (i = 0; i < c->rates; i++)
		if (!strcmp(c->seen_rates[i], rate))
			return;
	assert_true(c->rates < 8);
	snprintf(c->seen_rates[c->rates++], sizeof(c->seen_rates[0]), "%s", rate);
}

static void test_plan(void **state)
{
	struct bc_batch_opts bo = { .kind = "suite", .name = SUITE_NAME };
	struct coverage cov[BENCH_CNT] = { 0 };
	char err[512] = "";
	struct bc_suite s;
	struct bc_batch *b;
	size_t i, j, k;

	(void)state;
	if (bc_suite_load(SUITE_PATH, &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_non_null(s.description);
	b = bc_batch_new(&bo);
	assert_non_null(b);
	for (i = 0; i < s.item_cnt; i++) {
		if (s.items[i].kind != BC_SUITE_RUN)
			continue;
		if (bc_batch_add_run(b, NULL, s.items[i].args, s.items[i].arg_cnt, err, sizeof(err)))
			fail_msg("%s:%u: %s", SUITE_PATH, s.items[i].line, err);
	}
	print_message(SUITE_NAME ": %zu rows\n", b->row_cnt);
	for (i = 0; i < b->row_cnt; i++) {
		const struct bc_row *r = &b->rows[i];

		for (j = 0; j < BENCH_CNT; j++)
			if (strv_has(&r->args, benches[j]))
				break;
		if (j == BENCH_CNT)
			fail_msg("row '%s' runs none of the four buffer benchmarks", r->label);
		cover(&cov[j], r);
		for (k = 0; k < i; k++)
			if (!strcmp(b->rows[k].label, r->label))
				fail_msg("two rows labelled '%s'", r->label);
	}
	for (j = 0; j < BENCH_CNT; j++)
		if (!cov[j].dflt || !cov[j].b2b || cov[j].rates < 2)
			fail_msg("%s: %u default rows, %u back-to-back, %u sample rates", benches[j],
				 cov[j].dflt, cov[j].b2b, cov[j].rates);
	bc_batch_free(b);
	bc_suite_free(&s);
}

/* The suite's first run line, as written. */
static char *first_run_line(void)
{
	char *line = NULL, *found = NULL;
	size_t cap = 0;
	FILE *f = fopen(SUITE_PATH, "r");

	assert_non_null(f);
	while (!found && getline(&line, &cap, f) > 0)
		if (!strncmp(line, "run ", 4))
			found = strdup(line);
	free(line);
	fclose(f);
	assert_non_null(found);
	return found;
}

static void test_one_row(void **state)
{
	char path[] = "/tmp/bc-latency-suite-XXXXXX";
	const char *args[] = { "suite", "--suite-file", path, "-w0", "-d1", NULL };
	const struct bc_json *runs, *row;
	char *line = first_run_line();
	struct bc_test_run r;
	struct bc_json *doc;
	const char *status;
	cpu_set_t mask;
	FILE *f;
	int fd;

	(void)state;
	if (bc_test_bpf_skip("running a row of the " SUITE_NAME " suite"))
		skip();
	/* -a pins the consumer to CPU 0 and the producer to CPU 1: both must
	 * be ours to run on, not merely two CPUs online (a cpuset or taskset
	 * may give this process others). */
	CPU_ZERO(&mask);
	assert_int_equal(sched_getaffinity(0, sizeof(mask), &mask), 0);
	if (!CPU_ISSET(0, &mask) || !CPU_ISSET(1, &mask)) {
		print_message("skipped: the suite's rows pin to CPUs 0 and 1, and this process "
			      "may not run on CPU %d\n", CPU_ISSET(0, &mask) ? 1 : 0);
		skip();
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "# one row of " SUITE_NAME "\nheader first row\n%s", line);
	fclose(f);
	free(line);

	doc = bc_test_run_json(&r, args);
	unlink(path);
	runs = bc_json_get(doc, "runs");
	assert_non_null(runs);
	assert_int_equal(runs->cnt, 1);
	row = runs->items[0];
	status = bc_json_str(bc_json_get(row, "status"));
	if (!status || strcmp(status, "ok"))
		fail_msg("row '%s': %s (%s)", bc_json_str(bc_json_get(row, "label")),
			 status ? status : "?", bc_json_str(bc_json_get(row, "reason")));
	assert_true(bc_test_summary_mean(bc_json_get(row, "result"), "hits") > 0);
	bc_test_expect_histogram(bc_json_get(row, "result"), "latency",
				 bc_json_str(bc_json_get(row, "label")));
	bc_json_free(doc);
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_one_row),
	};

	return cmocka_run_group_tests_name(SUITE_NAME " suite", tests, NULL, NULL);
}
