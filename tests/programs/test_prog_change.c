// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A plugin built twice with one extra BPF instruction shows the change
 * (issue 38), through the real binary: progfix (progfix.bpf.c) as it is
 * and built with PROGFIX_EXTRA_INSN, each the plugin "progfix" in its own
 * directory, runs once with --save into a scratch store; then
 *  - the two documents' program is one instruction apart, as loaded and
 *    as translated;
 *  - compare names the program and its instruction counts, in text and in
 *    JSON's program_changes;
 *  - history marks the second entry, not the first;
 *  - the report stars its row, rings its point and counts it.
 * Skipped (77) without root/BTF. Counts are read from the documents, not
 * pinned: kernels translate differently, the difference of one does not.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bc_test_child.h"
#include "bc_test_report.h"
#include "exit_status.h"
#include "json_read.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static char root[PATH_MAX], store[PATH_MAX];

/* `benchcore --plugin-dir DIR ARGS...`, bounded: each run is a second. */
static void run(struct bc_test_run *r, const char *plugin_dir, const char *const *args)
{
	const char *argv[32] = { BC_TEST_BENCHCORE, "--plugin-dir", plugin_dir };
	struct bc_test_child c;
	size_t n = 3;

	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 120);
	if (r->status != BC_EXIT_OK)
		fail_msg("`%s` exited %d:\n%s", argv[3], r->status, r->err);
}

/* One run of one build, saved under its label; its document kept as
 * ROOT/LABEL.json and returned parsed. */
static struct bc_json *run_build(const char *build, const char *label)
{
	const char *const args[] = { "run", "progfix:count", "-w0", "-d1", "--format", "json",
				     "--save", "--store", store, "--label", label, NULL };
	char dir[PATH_MAX], path[PATH_MAX], err[256];
	struct bc_test_run r;
	struct bc_json *doc;

	PATHF(dir, "%s/tests/progfix/%s", BC_TEST_BUILD_DIR, build);
	run(&r, dir, args);
	PATHF(path, "%s/%s.json", root, label);
	bc_test_write_file(path, r.out);
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("%s: not JSON (%s):\n%s", build, err, r.out);
	bc_test_run_free(&r);
	return doc;
}

/* The document's one program, and a figure of it. */
static double prog_fact(const struct bc_json *doc, const char *key)
{
	const struct bc_json *progs = bc_json_get(doc, "programs"), *p = bc_json_at(progs, 0),
			     *v = bc_json_get(p, key);

	assert_int_equal(bc_json_len(progs), 1);
	assert_string_equal(bc_json_str(bc_json_get(p, "name")), "progfix_tp");
	if (!v || v->type != BC_JSON_NUMBER)
		fail_msg("progfix_tp's \"%s\" is no number", key);
	return v->number;
}

static void test_one_more_instruction(void **state)
{
	const char *const ours[] = { "progfix_", NULL };
	char base_path[PATH_MAX], more_path[PATH_MAX], want[128], site[PATH_MAX], page[PATH_MAX + 64],
		err[256];
	struct bc_json *base, *more, *cmp, *hist;
	const struct bc_json *changes, *fact = NULL, *groups;
	const char *group;
	double xb, xm;
	struct bc_test_run r;
	char *html;

	(void)state;
	base = run_build("base", "base");
	more = run_build("more", "more");
	bc_test_assert_none_loaded(ours, "the progfix runs");
	/* the builds differ by one instruction, and the kernel keeps it */
	assert_true(prog_fact(more, "insns") == prog_fact(base, "insns") + 1);
	xb = prog_fact(base, "xlated_insns");
	xm = prog_fact(more, "xlated_insns");
	assert_true(xm == xb + 1);

	/* compare: the row's changed program, in text and JSON */
	PATHF(base_path, "%s/base.json", root);
	PATHF(more_path, "%s/more.json", root);
	run(&r, root, (const char *const[]){ "compare", base_path, more_path, NULL });
	PATHF(want, "  progfix_tp: %.0f \xe2\x86\x92 %.0f insns", xb, xm);
	if (!strstr(r.out, want))
		fail_msg("compare does not say \"%s\":\n%s", want, r.out);
	bc_test_run_free(&r);
	run(&r, root,
	    (const char *const[]){ "compare", "--format", "json", base_path, more_path, NULL });
	cmp = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	assert_non_null(cmp);
	changes = bc_json_get(cmp, "program_changes");
	assert_int_equal(bc_json_len(changes), 1);
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(changes, 0), "program")), "progfix_tp");
	for (size_t i = 0; i < bc_json_len(bc_json_get(bc_json_at(changes, 0), "changes")); i++) {
		const struct bc_json *c = bc_json_at(bc_json_get(bc_json_at(changes, 0), "changes"), i);

		if (!strcmp(bc_json_str(bc_json_get(c, "fact")), "xlated_insns"))
			fact = c;
	}
	assert_non_null(fact);
	assert_true(bc_json_get(fact, "base")->number == xb);
	assert_true(bc_json_get(fact, "new")->number == xm);
	bc_json_free(cmp);
	bc_test_run_free(&r);

	/* history: the second entry is where the program changed */
	run(&r, root, (const char *const[]){ "history", "progfix:count", "--store", store, "--by",
					     "label", "--format", "json", NULL });
	hist = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	assert_non_null(hist);
	groups = bc_json_get(hist, "groups");
	assert_int_equal(bc_json_len(groups), 2);
	/* Under emulation history names the group "more [tcg]". */
	group = bc_json_str(bc_json_get(bc_json_at(groups, 1), "group"));
	assert_non_null(group);
	if (strcmp(group, "more") && strcmp(group, "more [tcg]"))
		fail_msg("history's second group is '%s', expected 'more' (or 'more [tcg]')", group);
	assert_false(bc_json_bool(bc_json_get(bc_json_at(groups, 0), "program_changed"), true));
	assert_true(bc_json_bool(bc_json_get(bc_json_at(groups, 1), "program_changed"), false));
	bc_json_free(hist);
	bc_test_run_free(&r);

	/* the report: its row starred, its point ringed, the chart counting it */
	PATHF(site, "%s/site", root);
	run(&r, root, (const char *const[]){ "report", "--store", store, "-o", site, NULL });
	bc_test_run_free(&r);
	PATHF(page, "%s/bench/progfix__count.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "data-program-changes=\"1\""));
	assert_non_null(strstr(html, "<tr class=\"program-changed\"><td>2</td>"));
	assert_non_null(strstr(html, "<title>the benchmark&apos;s BPF programs changed at this entry"));
	free(html);
	bc_json_free(base);
	bc_json_free(more);
}

static int setup(void **state)
{
	(void)state;
	if (bc_test_store_scratch(root, sizeof(root), BC_TEST_BUILD_DIR, "prog-change"))
		return -1;
	PATHF(store, "%s/results.db", root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_more_instruction),
	};
	int skip = bc_test_bpf_skip("programs_change");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, setup, teardown);
}
