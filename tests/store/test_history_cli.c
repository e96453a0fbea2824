// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The result store through the real binary with count:count-local (no BPF,
 * one-second runs): run --save and --label, --against with its one line
 * last on stderr and the Summary line still last on stdout, --repeat and
 * sweeps saving, store import/export round trips that keep an entry once,
 * history in its four formats, the report's pages and links, and the one
 * line a bad store or a bad value costs. Nothing here depends on how fast
 * the machine is.
 *
 * `test_history_cli pg` runs it all again with the store on the test
 * server (tests/store/pg_cluster.sh), named by a URL that carries the
 * writer's password: no output of any command may carry it, and at the end
 * no file the commands wrote (the report, exports, another store) does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "exit_status.h"
#include "bc_test_child.h"
#include "bc_test_pg.h"
#include "json_read.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static char root[PATH_MAX];
static char count_dir[PATH_MAX];
static char store[PATH_MAX];
static bool pg;
static struct bc_test_pg srv;

static void run(struct bc_test_run *r, ...)
{
	const char *argv[64];
	struct bc_test_child c;
	int argc = 0;
	const char *arg;
	va_list ap;

	argv[argc++] = BC_TEST_BENCHCORE;
	argv[argc++] = "--plugin-dir";
	argv[argc++] = count_dir;
	va_start(ap, r);
	while ((arg = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 240);
	if (pg && (strstr(r->out, srv.password) || strstr(r->err, srv.password)))
		fail_msg("the store's password is in the output of `%s %s`:\n%s\n%s", argv[3],
			 argv[4] ? argv[4] : "", r->out, r->err);
}

/* The last non-empty line of text, into buf. */
static const char *last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text && end[-1] == '\n')
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

static void expect_ok(struct bc_test_run *r)
{
	if (r->status != BC_EXIT_OK)
		fail_msg("exit %d, stderr:\n%s", r->status, r->err);
}

static size_t lines_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_save_and_against(void **state)
{
	struct bc_test_run r;
	char line[1024];

	(void)state;
	/* three seconds a side: Welch's test needs three samples */
	run(&r, "run", "count:count-local", "-w0", "-d3", "--save", "--store", store, "--label",
	    "baseline", NULL);
	expect_ok(&r);
	assert_true(!strncmp(last_line(r.out, line, sizeof(line)), "Summary:", 8));
	bc_test_run_free(&r);

	run(&r, "run", "count:count-local", "-w0", "-d3", "--save", "--store", store, "--label",
	    "patch-v2", "--against", "baseline", NULL);
	expect_ok(&r);
	/* the Summary line stays last on stdout, the judgement last on stderr */
	assert_true(!strncmp(last_line(r.out, line, sizeof(line)), "Summary:", 8));
	last_line(r.err, line, sizeof(line));
	if (strncmp(line, "benchcore: against 'baseline' (entry 1, ", 40) || !strstr(line, "hits ") ||
	    !strstr(line, "[95% CI ") || !strstr(line, "p=") || strstr(line, "p=n/a") ||
	    !strstr(line, "(welch, 3+3 seconds)") ||
	    !(strstr(line, ": improved") || strstr(line, ": regressed") ||
	      strstr(line, ": no significant change")))
		fail_msg("unexpected --against line: %s", line);
	bc_test_run_free(&r);

	/* latest: the newest of this benchmark, options and machine */
	run(&r, "run", "count:count-local", "-w0", "-d2", "--store", store, "--against", "latest",
	    NULL);
	expect_ok(&r);
	last_line(r.err, line, sizeof(line));
	if (strncmp(line, "benchcore: against 'patch-v2' (entry 2, ", 40))
		fail_msg("unexpected --against latest line: %s", line);
	bc_test_run_free(&r);

	/* other options: not the same configuration, nothing to compare */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--count-batch", "7", "--store", store,
	    "--against", "baseline", NULL);
	expect_ok(&r);
	if (!strstr(r.err, "no saved entry of count:count-local labelled 'baseline' with these options (producers=1 consumers=0 count-batch=7)") &&
	    !strstr(r.err, "no saved entry of count:count-local labelled 'baseline'"))
		fail_msg("unexpected stderr: %s", r.err);
	bc_test_run_free(&r);

	/* --repeat saves the pooled document */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--repeat", "3", "--save", "--store",
	    store, "--label", "repeated", NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", store, "--label", "repeated", NULL);
	expect_ok(&r);
	assert_int_equal(lines_of(r.out), 1);
	bc_test_run_free(&r);
}

static void test_sweep_saves(void **state)
{
	struct bc_test_run r;

	(void)state;
	run(&r, "run", "count:count-local", "-w0", "-d1", "--sweep", "count-batch=1,10", "--save",
	    "--store", store, "--label", "cb{count-batch}", NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", store, "--label", "cb10", NULL);
	expect_ok(&r);
	assert_int_equal(lines_of(r.out), 1);
	assert_non_null(strstr(r.out, "count:count-local"));
	bc_test_run_free(&r);
	/* --against judges one run, not a batch: one line, status 2 */
	run(&r, "sweep", "count:count-local", "--sweep", "count-batch=1,2", "--against", "x", NULL);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
}

static void test_import_export(void **state)
{
	char other[PATH_MAX], out[PATH_MAX], file[PATH_MAX + 64];
	struct bc_test_run r;
	struct bc_json *doc;
	char err[256];

	(void)state;
	PATHF(other, "%s/other.db", root);
	PATHF(out, "%s/export", root);
	assert_int_equal(mkdir(out, 0755), 0);
	run(&r, "store", "export", "--store", store, "-o", out, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	/* everything exported, imported into a second store, then again */
	PATHF(file, "%s/all.json", root);
	run(&r, "store", "export", "--store", store, "-o", file, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	doc = bc_json_parse_file(file, err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(doc->type, BC_JSON_ARRAY);
	run(&r, "store", "import", "--store", other, file, NULL);
	expect_ok(&r);
	assert_non_null(strstr(r.err, "(0 already in the store)"));
	bc_test_run_free(&r);
	run(&r, "store", "import", "--store", other, file, NULL);
	expect_ok(&r);
	assert_non_null(strstr(r.err, "imported 0 entries"));
	bc_test_run_free(&r);
	/* a store imported into another: its entries, with their labels */
	run(&r, "store", "import", "--store", other, store, NULL);
	expect_ok(&r);
	assert_non_null(strstr(r.err, "imported 0 entries"));
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", other, "--label", "baseline", NULL);
	expect_ok(&r);
	assert_int_equal(lines_of(r.out), 1);
	bc_test_run_free(&r);
	/* one entry is written back as the document it was */
	{
		const char *id = bc_json_str(bc_json_get(bc_json_at(doc, 0), "run_id"));
		struct bc_json *one;

		assert_non_null(id);
		run(&r, "store", "export", "--store", other, "--run-id", id, NULL);
		expect_ok(&r);
		one = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
		assert_non_null(one);
		assert_string_equal(bc_json_str(bc_json_get(one, "run_id")), id);
		assert_non_null(bc_json_get(one, "summary"));
		bc_json_free(one);
		bc_test_run_free(&r);
	}
	bc_json_free(doc);
	/* a sweep document's rows */
	run(&r, "store", "import", "--store", other, "--label", "fixture",
	    BC_TEST_SOURCE_DIR "/tests/plot/fixtures/sweep.json", NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", other, "--label", "fixture", NULL);
	expect_ok(&r);
	assert_true(lines_of(r.out) >= 2);
	bc_test_run_free(&r);
	/* not a result: one line, status 2, nothing imported */
	run(&r, "store", "import", "--store", other,
	    BC_TEST_SOURCE_DIR "/tests/results/compare/not-benchcore.json", NULL);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_int_equal(lines_of(r.err), 1);
	assert_non_null(strstr(r.err, "nothing was imported"));
	bc_test_run_free(&r);
}

static void test_history(void **state)
{
	struct bc_test_run r;
	struct bc_json *doc;
	char err[256];

	(void)state;
	run(&r, "history", "count:count-local", "--store", store, "--by", "label", "--format",
	    "json", NULL);
	expect_ok(&r);
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("not JSON: %s\n%s", err, r.out);
	assert_string_equal(bc_json_str(bc_json_get(doc, "by")), "label");
	assert_true(bc_json_len(bc_json_get(doc, "groups")) >= 3);
	{
		const struct bc_json *g = bc_json_at(bc_json_get(doc, "groups"), 1);

		assert_non_null(bc_json_get(g, "verdict"));
		assert_non_null(bc_json_get(g, "ci95_half"));
		assert_string_equal(bc_json_str(bc_json_get(g, "group")), "patch-v2");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);

	run(&r, "history", "count:count-local", "--store", store, "--by", "kernel", "--format",
	    "csv", NULL);
	expect_ok(&r);
	assert_true(!strncmp(r.out, "benchmark,configuration,metric,unit,kernel,entries,mean,", 56));
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", store, "--format", "markdown", NULL);
	expect_ok(&r);
	assert_true(!strncmp(r.out, "| benchmark | configuration | metric | date |", 44));
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", store, "--by", "machine", NULL);
	expect_ok(&r);
	assert_non_null(strstr(r.out, "count:count-local"));
	assert_non_null(strstr(r.out, "95% CI"));
	bc_test_run_free(&r);

	run(&r, "history", "count:count-local", "--store", store, "--by", "moon", NULL);
	bc_test_assert_line(&r, "benchcore: --by 'moon': expected kernel, label, date or machine");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	run(&r, "history", "--store", store, NULL);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
}

static void test_bad_store(void **state)
{
	char notes[PATH_MAX], line[1024];
	struct bc_test_run r;
	char *before, *after;

	(void)state;
	PATHF(notes, "%s/notes.txt", root);
	{
		FILE *f = fopen(notes, "w");

		assert_non_null(f);
		for (int i = 0; i < 100; i++)
			fputs("plain text, not a store\n", f);
		fclose(f);
	}
	before = bc_test_read_file(notes);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--save", "--store", notes, NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	/* the run's report is there; the store's line says what it is */
	assert_true(!strncmp(last_line(r.out, line, sizeof(line)), "Summary:", 8));
	assert_non_null(strstr(r.err, "not a benchcore store"));
	after = bc_test_read_file(notes);
	assert_string_equal(before, after);
	free(before);
	free(after);
	bc_test_run_free(&r);

	run(&r, "run", "count:count-local", "--label", "", NULL);
	bc_test_assert_line(&r, "benchcore: --label '': expected some text on one line");
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", notes, NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
}

/* Every href="..." of a page names a file of the site (fragments aside). */
static void assert_links_resolve(const char *page)
{
	char *html = bc_test_read_file(page), dir[PATH_MAX], target[PATH_MAX * 2];
	const char *p;
	size_t links = 0;

	assert_non_null(html);
	snprintf(dir, sizeof(dir), "%s", page);
	*strrchr(dir, '/') = '\0';
	for (p = strstr(html, "href=\""); p; p = strstr(p, "href=\"")) {
		const char *start = p + 6, *end = strpbrk(start, "\"#");

		assert_non_null(end);
		p = end;
		if (end == start)
			continue;	/* a link within the page */
		snprintf(target, sizeof(target), "%s/%.*s", dir, (int)(end - start), start);
		if (access(target, R_OK))
			fail_msg("%s links to %.*s, which is not there", page, (int)(end - start), start);
		links++;
	}
	assert_true(links > 0);
	free(html);
}

static void test_report(void **state)
{
	char site[PATH_MAX], page[PATH_MAX + 64], junk[PATH_MAX + 16];
	struct bc_test_run r;
	char *html;

	(void)state;
	PATHF(site, "%s/site", root);
	run(&r, "report", "--store", store, "-o", site, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	PATHF(page, "%s/index.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "count:count-local"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	free(html);
	assert_links_resolve(page);
	PATHF(page, "%s/bench/count__count-local.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "<figure class=\"chart trend\""));
	assert_non_null(strstr(html, "<svg"));
	/* two configurations saved: the sweep chart */
	assert_non_null(strstr(html, "id=\"sweep-chart\""));
	free(html);
	assert_links_resolve(page);

	/* again over the same directory: replaced whole */
	run(&r, "report", "--store", store, "-o", site, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	/* a directory that is not a report is never replaced */
	PATHF(junk, "%s/mine", root);
	assert_int_equal(mkdir(junk, 0755), 0);
	PATHF(page, "%s/keep.txt", junk);
	bc_test_write_file(page, "mine\n");
	run(&r, "report", "--store", store, "-o", junk, NULL);
	bc_test_assert_status(&r, BC_EXIT_USAGE);
	assert_int_equal(lines_of(r.err), 1);
	assert_int_equal(access(page, R_OK), 0);
	bc_test_run_free(&r);
}

/* Every byte every command wrote under root, and the debug lines of a
 * save, a read and a failure: none carries the password. */
static void test_password_nowhere(void **state)
{
	char cmd[PATH_MAX + 256], bad[PATH_MAX];
	struct bc_test_run r;
	int status;

	(void)state;
	run(&r, "-v", "run", "count:count-local", "-w0", "-d1", "--save", "--store", store,
	    "--label", "verbose", "--against", "baseline", "--format", "json", NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	run(&r, "-v", "history", "count:count-local", "--store", store, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	run(&r, "-v", "store", "path", "--store", store, NULL);
	expect_ok(&r);
	assert_non_null(strstr(r.out, ":***@127.0.0.1"));
	bc_test_run_free(&r);
	PATHF(bad, "%s/pushed.db", root);
	run(&r, "-v", "store", "push", "--to", store, "--store", bad, NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_run_free(&r);
	run(&r, "-v", "sweep", "count:count-local", "-w0", "-d1", "--sweep", "count-batch=1,2",
	    "--save", "--store", store, "--output", bad, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	/* a refused login and a lost server, said with the password masked */
	PATHF(bad, "postgresql://%s:%s@127.0.0.1:1/history_cli", srv.writer, srv.password);
	run(&r, "-v", "run", "count:count-local", "-w0", "-d1", "--save", "--store", bad, NULL);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_non_null(strstr(r.err, ":***@127.0.0.1:1/"));
	bc_test_run_free(&r);
	/* every document the store holds, written out to be read */
	PATHF(bad, "%s/all-documents.json", root);
	run(&r, "store", "export", "--store", store, "-o", bad, NULL);
	expect_ok(&r);
	bc_test_run_free(&r);
	PATHF(cmd, "grep -rlF -- '%s' '%s'", srv.password, root);
	status = system(cmd);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) != 1)
		fail_msg("a file under %s holds the store's password (grep said %d)", root,
			 WEXITSTATUS(status));
}

static int setup(void **state)
{
	char dst[PATH_MAX + 16], buf[65536];
	ssize_t n;
	int in, out;

	(void)state;
	if (bc_test_store_scratch(root, sizeof(root), BC_TEST_BUILD_DIR, "history"))
		return -1;
	PATHF(store, "%s/results.db", root);
	PATHF(count_dir, "%s/count", root);
	if (mkdir(count_dir, 0755) || chmod(count_dir, 0755))
		return -1;
	PATHF(dst, "%s/count.so", count_dir);
	in = open(BC_TEST_PLUGIN_DIR "/count.so", O_RDONLY);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	fchmod(out, 0755);
	close(out);
	if (pg)
		bc_test_pg_store(&srv, "history_cli", store, sizeof(store));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

int main(int argc, char **argv)
{
	/* in order: each test reads what the ones before saved */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_against),
		cmocka_unit_test(test_sweep_saves),
		cmocka_unit_test(test_import_export),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_bad_store),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_password_nowhere),
	};

	if (argc > 1 && !strcmp(argv[1], "pg")) {
		int ret = bc_test_pg_setup(&srv, "test_history_cli pg");

		if (ret)
			return ret;
		pg = true;
		return cmocka_run_group_tests_name("history, PostgreSQL", tests, setup, teardown);
	}
	/* the last test is the server's */
	return _cmocka_run_group_tests("history, SQLite", tests, sizeof(tests) / sizeof(tests[0]) - 1,
				       setup, teardown);
}
