// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * History and the report mark the entry where a benchmark's BPF programs
 * changed (issue 38), through the real binary, on a store made here from
 * synthetic run documents (no benchmark runs). One configuration's series:
 *
 *   l1  6.1  34 insns               first: nothing before it
 *   l2  6.1  34 insns               the same program
 *   l3  6.1  35 insns               one instruction more: marked
 *   l4  6.2  50 insns               another kernel is another series
 *   l5  6.1  no programs            unknown: never a change
 *   l6  6.1  36 insns               the entry before is unknown: not marked
 *   l7  6.1  36 insns, slower load  a fact compare does not judge: not marked
 *
 * history marks l3's row in text (with the legend), JSON and CSV and no
 * other; the report stars l3's row, rings its point and stars the groups
 * holding it. `test_prog_marks pg` does the same on the test server.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
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

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))
#define LEGEND "*: the benchmark's BPF programs changed at an entry of this row"

static char root[PATH_MAX], store[PATH_MAX];
static bool pg;
static struct bc_test_pg srv;

struct entry {
	const char *label, *kernel;
	int xlated;		/* 0: the document has no programs */
	int verify_usec;	/* how long the verifier took: no fact compare judges */
};

static const struct entry entries[] = {
	{ "l1", "6.1.0", 34, 50 }, { "l2", "6.1.0", 34, 50 }, { "l3", "6.1.0", 35, 50 },
	{ "l4", "6.2.0", 50, 50 }, { "l5", "6.1.0", 0, 0 },   { "l6", "6.1.0", 36, 50 },
	{ "l7", "6.1.0", 36, 90 },
};
#define ENTRY_CNT (sizeof(entries) / sizeof(entries[0]))
#define MARKED 2	/* l3 */

/* Entry i's run document, of the shape report_json.c writes. */
static char *make_doc(size_t i)
{
	const struct entry *e = &entries[i];
	char *programs = NULL, *text;

	if (e->xlated)
		assert_true(asprintf(&programs,
				     "\"programs\":[{\"role\":\"producer\",\"name\":\"synth_tp\",\"type\":\"tracepoint\","
				     "\"insns\":%d,\"xlated_insns\":%d,\"jited_bytes\":%d,\"jited\":true,"
				     "\"verifier\":{\"processed_insns\":%d,\"total_states\":3,\"peak_states\":3,"
				     "\"time_usec\":%d,\"stack_depth\":[8],\"stack_depth_total\":8},\"maps\":[]}],",
				     e->xlated - 2, e->xlated, e->xlated * 6, e->xlated - 4,
				     e->verify_usec) > 0);
	assert_true(asprintf(&text,
			     "{\"benchcore_version\":\"0.1.0\",\"run_id\":\"prog-%s\","
			     "\"context\":{\"date\":\"2026-12-0%zuT10:00:00Z\",\"host\":\"h1\","
			     "\"kernel_release\":\"%s\",\"kernel_version\":\"#1 SMP\",\"cpu_model\":\"cpu\","
			     "\"cpu_count\":2,\"hypervisor\":true},%s"
			     "\"plugin\":{\"name\":\"synth\",\"version\":\"1.0\"},\"benchmark\":\"progs\","
			     "\"config\":{\"producers\":1,\"duration_sec\":3,\"plugin_options\":{}},"
			     "\"metrics\":[{\"name\":\"hits\",\"unit\":\"ops\",\"kind\":\"counter\",\"role\":\"hits\"}],"
			     "\"summary\":{\"hits\":{\"unit\":\"ops/s\",\"mean\":%g,\"stddev\":%g,\"n\":3}},"
			     "\"status\":{\"exit_status\":0}}",
			     e->label, i + 1, e->kernel, programs ? programs : "", 1e6 + 1e3 * (double)i,
			     1e4) > 0);
	free(programs);
	return text;
}

static void run(struct bc_test_run *r, const char *const *args)
{
	const char *argv[32] = { BC_TEST_BENCHCORE };
	struct bc_test_child c;
	size_t n = 1;

	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 60);
	if (r->status != BC_EXIT_OK)
		fail_msg("`%s` exited %d:\n%s", argv[1], r->status, r->err);
	if (pg && (strstr(r->out, srv.password) || strstr(r->err, srv.password)))
		fail_msg("the store's password is in the output of %s", argv[1]);
}

/* The line of text that starts with prefix, or NULL. */
static const char *line_of(const char *text, const char *prefix, char *buf, size_t len)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
			return buf;
		}
	return NULL;
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_history_marks(void **state)
{
	char line[1024], prefix[64], err[256];
	struct bc_test_run r;
	struct bc_json *doc;
	const struct bc_json *groups;

	(void)state;
	/* text, by day (each entry its own): l3's day marked, with the legend */
	run(&r, (const char *const[]){ "history", "synth:progs", "--store", store, NULL });
	for (size_t i = 0; i < ENTRY_CNT; i++) {
		snprintf(prefix, sizeof(prefix), "  2026-12-0%zu", i + 1);
		if (!line_of(r.out, prefix, line, sizeof(line)))
			fail_msg("no row of %s:\n%s", prefix + 2, r.out);
		if ((strncmp(line + 2 + 10, " *", 2) == 0) != (i == MARKED))
			fail_msg("row %s is %smarked:\n%s", prefix + 2, i == MARKED ? "not " : "", r.out);
	}
	assert_int_equal(count_of(r.out, LEGEND), 1);
	bc_test_run_free(&r);

	/* JSON, by label: program_changed for l3 alone, with its run id */
	run(&r, (const char *const[]){ "history", "synth:progs", "--store", store, "--by", "label",
				       "--format", "json", NULL });
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("not JSON: %s\n%s", err, r.out);
	groups = bc_json_get(doc, "groups");
	assert_int_equal(bc_json_len(groups), ENTRY_CNT);
	for (size_t i = 0; i < ENTRY_CNT; i++) {
		const struct bc_json *g = bc_json_at(groups, i);

		assert_string_equal(bc_json_str(bc_json_get(g, "group")), entries[i].label);
		if (bc_json_bool(bc_json_get(g, "program_changed"), i != MARKED) != (i == MARKED))
			fail_msg("group %s: program_changed is wrong\n%s", entries[i].label, r.out);
	}
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(groups, MARKED), "program_changed_run_id")),
			    "prog-l3");
	assert_null(bc_json_str(bc_json_get(bc_json_at(groups, 0), "program_changed_run_id")));
	bc_json_free(doc);
	bc_test_run_free(&r);

	/* CSV: the last column */
	run(&r, (const char *const[]){ "history", "synth:progs", "--store", store, "--by", "label",
				       "--format", "csv", NULL });
	assert_non_null(line_of(r.out, "benchmark,", line, sizeof(line)));
	assert_non_null(strstr(line, ",verdict,program_changed"));
	assert_int_equal(count_of(r.out, ",true\n"), 1);
	assert_int_equal(count_of(r.out, ",false\n"), ENTRY_CNT - 1);
	assert_non_null(line_of(r.out, "synth:progs,producers=1", line, sizeof(line)));
	bc_test_run_free(&r);
}

static void test_report_marks(void **state)
{
	char site[PATH_MAX], page[PATH_MAX + 64], row[64];
	struct bc_test_run r;
	char *html;

	(void)state;
	PATHF(site, "%s/site", root);
	run(&r, (const char *const[]){ "report", "--store", store, "-o", site, NULL });
	bc_test_run_free(&r);
	PATHF(page, "%s/bench/synth__progs.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	/* the trend: one row starred (l3, the third point), one point ringed */
	assert_non_null(strstr(html, "data-program-changes=\"1\""));
	assert_int_equal(count_of(html, "<tr class=\"program-changed\">"), 1);
	snprintf(row, sizeof(row), "<tr class=\"program-changed\"><td>%d</td>", MARKED + 1);
	assert_non_null(strstr(html, row));
	assert_int_equal(count_of(html, "<title>the benchmark&apos;s BPF programs changed at this entry"), 1);
	assert_non_null(strstr(html, "ringed: the BPF programs changed"));
	/* the changes: the kernel group and the label group that hold it */
	assert_int_equal(count_of(html, "changed at an entry of this group"), 2);
	assert_null(strstr(html, "<script"));
	free(html);
}

static int setup(void **state)
{
	struct bc_store_item items[ENTRY_CNT];
	char *docs[ENTRY_CNT], err[512];
	int ret;

	(void)state;
	if (bc_test_store_scratch(root, sizeof(root), BC_TEST_BUILD_DIR, "prog-marks"))
		return -1;
	if (pg)
		bc_test_pg_store(&srv, "prog_marks", store, sizeof(store));
	else
		PATHF(store, "%s/results.db", root);
	for (size_t i = 0; i < ENTRY_CNT; i++) {
		docs[i] = make_doc(i);
		items[i] = (struct bc_store_item){ .text = docs[i], .len = strlen(docs[i]),
						   .label = entries[i].label };
	}
	ret = bc_store_save_items(store, items, ENTRY_CNT, NULL, NULL, err, sizeof(err));
	if (ret)
		fprintf(stderr, "test_prog_marks: %s\n", err);
	for (size_t i = 0; i < ENTRY_CNT; i++)
		free(docs[i]);
	return ret ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history_marks),
		cmocka_unit_test(test_report_marks),
	};

	if (argc > 1 && !strcmp(argv[1], "pg")) {
		int ret = bc_test_pg_setup(&srv, "test_prog_marks pg");

		if (ret)
			return ret;
		pg = true;
		return cmocka_run_group_tests_name("program marks, PostgreSQL", tests, setup, teardown);
	}
	return cmocka_run_group_tests_name("program marks, SQLite", tests, setup, teardown);
}
