// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The store, history, report, import and export under hostile files
 * (issue 32), through the real binary on stores imported from the
 * committed result documents and then crafted with SQLite: an output that
 * is an input, a report directory that holds the store or is a link, a
 * save killed mid-commit, rows with NULL columns, documents nested too
 * deep, import errors that name their file, a matrix too large to read,
 * CSV, Markdown and terminal escaping, page names long and alike, filters
 * that reach every table, exit statuses and silent no-ops, and stores an
 * unprivileged user cannot write. count:count-local runs the few cases
 * that need a run (one second each).
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
#include <sqlite3.h>

#include "bc_test_child.h"
#include "bc_test_util.h"
#include "exit_status.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))
#define FIXTURES BC_TEST_SOURCE_DIR "/tests/results/fixtures/v08-b59897c"

static char root[PATH_MAX];
static char count_dir[PATH_MAX];

static void run_argv(struct bc_test_run *r, const char *const *pre, va_list ap)
{
	const char *argv[80];
	struct bc_test_child c;
	int argc = 0;
	const char *arg;

	for (; pre && *pre; pre++)
		argv[argc++] = *pre;
	argv[argc++] = BC_TEST_BENCHCORE;
	argv[argc++] = "--plugin-dir";
	argv[argc++] = count_dir;
	while ((arg = va_arg(ap, const char *)) && argc < 79)
		argv[argc++] = arg;
	argv[argc] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 120);
}

static void run(struct bc_test_run *r, ...)
{
	va_list ap;

	va_start(ap, r);
	run_argv(r, NULL, ap);
	va_end(ap);
}

/* As the unprivileged user nobody. */
static void run_nobody(struct bc_test_run *r, ...)
{
	static const char *const pre[] = { "setpriv", "--reuid=65534", "--regid=65534",
					   "--clear-groups", NULL };
	va_list ap;

	va_start(ap, r);
	run_argv(r, pre, ap);
	va_end(ap);
}

static size_t lines_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void expect(struct bc_test_run *r, int status, const char *needle)
{
	if (r->status != status || (needle && !strstr(r->err, needle)))
		fail_msg("expected exit %d and '%s' on stderr; exit %d, stderr:\n%s\nstdout:\n%.2000s",
			 status, needle ? needle : "", r->status, r->err, r->out);
}

static void sql(const char *path, const char *text)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, text, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* A store of four committed run documents (three count:count-local, one
 * ringbuf:rb-custom), new at path. */
static void make_store(const char *path)
{
	struct bc_test_run r;

	unlink(path);
	run(&r, "store", "import", "--store", path, FIXTURES "/run.json", FIXTURES "/run2.json",
	    FIXTURES "/repeat.json", FIXTURES "/latency.json", NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

static void assert_same_bytes(const char *path, const char *bytes, size_t len)
{
	size_t now_len;
	char *now = slurp(path, &now_len);

	assert_non_null(now);
	if (now_len != len || memcmp(now, bytes, len))
		fail_msg("%s was changed", path);
	free(now);
}

/* 1: every writer refuses a target that is one of its inputs. */
static void test_outputs_are_not_inputs(void **state)
{
	char store[PATH_MAX], lnk[PATH_MAX], hard[PATH_MAX], dir[PATH_MAX], inside[PATH_MAX + 64];
	char suite[PATH_MAX];
	struct bc_test_run r;
	char *before;
	size_t len;

	(void)state;
	PATHF(store, "%s/inout.db", root);
	PATHF(lnk, "%s/inout-link.db", root);
	PATHF(hard, "%s/inout-hard.db", root);
	make_store(store);
	before = slurp(store, &len);
	assert_int_equal(symlink(store, lnk), 0);
	assert_int_equal(link(store, hard), 0);

	run(&r, "store", "export", "--store", store, "-o", store, NULL);
	expect(&r, BC_EXIT_USAGE, "is the store being exported");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	run(&r, "store", "export", "--store", lnk, "-o", store, NULL);
	expect(&r, BC_EXIT_USAGE, "is the store being exported");
	bc_test_run_free(&r);
	run(&r, "store", "export", "--store", store, "--output", hard, NULL);
	expect(&r, BC_EXIT_USAGE, "is the store being exported");
	bc_test_run_free(&r);
	/* -o DIR: a file of it that is the store is never written */
	PATHF(dir, "%s/inout-dir", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	PATHF(inside, "%s/2a82c449a7b8be09d5608d2396a9fe40.json", dir);
	assert_int_equal(link(store, inside), 0);
	run(&r, "store", "export", "--store", store, "-o", dir, NULL);
	expect(&r, BC_EXIT_USAGE, "is the store being exported");
	bc_test_run_free(&r);

	/* run --output onto the store it saves to */
	run(&r, "run", "count:count-local", "-w0", "-d1", "--save", "--store", store, "--output",
	    lnk, NULL);
	expect(&r, BC_EXIT_USAGE, "is the result store");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	/* a suite's --output onto its suite file, or onto the store */
	PATHF(suite, "%s/inout.suite", root);
	bc_test_write_file(suite, "run count:count-local -w0 -d1\n");
	run(&r, "suite", "--suite-file", suite, "--output", suite, NULL);
	expect(&r, BC_EXIT_USAGE, "is the suite file");
	bc_test_run_free(&r);
	run(&r, "suite", "--suite-file", suite, "--save", "--store", store, "--output", hard, NULL);
	expect(&r, BC_EXIT_USAGE, "is the result store");
	bc_test_run_free(&r);
	run(&r, "sweep", "count:count-local", "-w0", "-d1", "--sweep", "count-batch=1,2", "--save",
	    "--store", store, "--output", store, NULL);
	expect(&r, BC_EXIT_USAGE, "is the result store");
	bc_test_run_free(&r);
	assert_same_bytes(store, before, len);
	free(before);
}

/* 2 and 3: a report directory that holds the store, and one that is a link. */
static void test_report_directory(void **state)
{
	char site[PATH_MAX], inner[PATH_MAX + 32], real[PATH_MAX], lnk[PATH_MAX], page[PATH_MAX + 64];
	struct bc_test_run r;
	struct stat sb;

	(void)state;
	PATHF(site, "%s/site-holds", root);
	PATHF(inner, "%s/results.db", site);
	PATHF(page, "%s/first.db", root);
	make_store(page);
	run(&r, "report", "--store", page, "-o", site, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	make_store(inner);
	run(&r, "report", "--store", inner, "-o", site, NULL);
	expect(&r, BC_EXIT_USAGE, "holds the store being read");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	assert_int_equal(access(inner, R_OK), 0);

	PATHF(real, "%s/site-real", root);
	PATHF(lnk, "%s/site-link", root);
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(symlink(real, lnk), 0);
	run(&r, "report", "--store", page, "-o", lnk, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	assert_int_equal(lstat(lnk, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	PATHF(inner, "%s/index.html", real);
	assert_int_equal(access(inner, R_OK), 0);
	/* again: the link stays, its target is the new report */
	run(&r, "report", "--store", page, "-o", lnk, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	assert_int_equal(lstat(lnk, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(access(inner, R_OK), 0);
}

/* 4: a save killed mid-commit leaves a hot journal; readers roll it back. */
static void test_hot_journal(void **state)
{
	char store[PATH_MAX], journal[PATH_MAX + 16];
	struct bc_test_run r;
	pid_t pid;
	int st;

	(void)state;
	PATHF(store, "%s/hot.db", root);
	PATHF(journal, "%s-journal", store);
	make_store(store);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* a writer whose pages spill into the file before its commit,
		 * killed there: what a SIGKILL mid-save leaves */
		sqlite3 *db;
		char text[8192];

		memset(text, 'x', sizeof(text) - 1);
		text[sizeof(text) - 1] = '\0';
		if (sqlite3_open(store, &db) != SQLITE_OK)
			_exit(1);
		sqlite3_exec(db, "PRAGMA cache_size=1; BEGIN IMMEDIATE; UPDATE entries SET label='half';",
			     NULL, NULL, NULL);
		for (int i = 0; i < 200; i++) {
			char *q = sqlite3_mprintf("INSERT INTO entries (run_id, bench, options, date, doc)"
						  " VALUES ('half-%d', 'count:count-local', '',"
						  " '2026-12-08T00:00:00Z', '%q')", i, text);

			sqlite3_exec(db, q, NULL, NULL, NULL);
			sqlite3_free(q);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (access(journal, F_OK))
		fail_msg("the killed writer left no journal to test with");
	run(&r, "store", "list", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	assert_int_equal(lines_of(r.out), 4);
	assert_null(strstr(r.out, "half"));
	bc_test_run_free(&r);
	assert_int_not_equal(access(journal, F_OK), 0);
	run(&r, "history", "count:count-local", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
}

/* A store whose entries table allows NULL where ours does not (a crafted
 * but valid schema). */
static void make_nullable(const char *path)
{
	make_store(path);
	sql(path, "PRAGMA writable_schema=ON;"
		  "UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE name = 'entries';"
		  "PRAGMA writable_schema=OFF;");
}

/* 5 and 6: NULL columns and documents crash nothing and are named. */
static void test_crafted_rows(void **state)
{
	char store[PATH_MAX], site[PATH_MAX], dir[PATH_MAX], other[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	PATHF(store, "%s/nulls.db", root);
	make_nullable(store);
	sql(store, "UPDATE entries SET date = NULL WHERE id = 2;"
		   "UPDATE entries SET doc = NULL WHERE id = 3;"
		   "UPDATE entries SET run_id = NULL, bench = NULL, options = NULL WHERE id = 4;"
		   "UPDATE entries SET unit = NULL, metric = NULL, label = NULL, kernel_release = NULL,"
		   " host = NULL WHERE id = 1;");
	run(&r, "history", "count:count-local", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, "entry 2 has no date (its column is NULL)");
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", store, "--metric", "hits", "--format",
	    "json", NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	PATHF(site, "%s/nulls-site", root);
	run(&r, "report", "--store", store, "-o", site, NULL);
	expect(&r, BC_EXIT_OK, "entry 2");
	bc_test_run_free(&r);
	PATHF(dir, "%s/nulls-export", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	run(&r, "store", "export", "--store", store, "-o", dir, NULL);
	expect(&r, BC_EXIT_OK, "entries whose run id, benchmark, date or document is NULL are left out");
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	/* a document that is NULL, imported from another store: named */
	PATHF(other, "%s/nulls-into.db", root);
	run(&r, "store", "import", "--store", other, store, NULL);
	expect(&r, BC_EXIT_OK, "left out");
	assert_null(strstr(r.err, "out of memory"));
	bc_test_run_free(&r);
}

/* 6: a document nested deeper than can be written back. */
static void test_deep_document(void **state)
{
	char path[PATH_MAX], store[PATH_MAX], *doc, *text;
	struct bc_test_run r;
	size_t len, at;

	(void)state;
	doc = slurp(FIXTURES "/run.json", &len);
	assert_non_null(doc);
	/* {"deep": {"a":{"a":...1...}}, <the document's members>} */
	text = malloc(len + 1024);
	assert_non_null(text);
	at = (size_t)sprintf(text, "{\"deep\":");
	for (int i = 0; i < 70; i++)
		at += (size_t)sprintf(text + at, "{\"a\":");
	at += (size_t)sprintf(text + at, "1");
	for (int i = 0; i < 70; i++)
		text[at++] = '}';
	text[at++] = ',';
	memcpy(text + at, strchr(doc, '{') + 1, len - (size_t)(strchr(doc, '{') + 1 - doc));
	at += len - (size_t)(strchr(doc, '{') + 1 - doc);
	text[at] = '\0';
	PATHF(path, "%s/deep.json", root);
	bc_test_write_file(path, text);
	PATHF(store, "%s/deep.db", root);
	run(&r, "store", "import", "--store", store, "--label", "x", path, NULL);
	expect(&r, BC_EXIT_USAGE, "nests more than 62 levels");
	assert_null(strstr(r.err, "out of memory"));
	assert_non_null(strstr(r.err, path));
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	free(text);
	free(doc);
}

/* 7: an import error names the file and the document's place in it. */
static void test_import_errors(void **state)
{
	char path[PATH_MAX], store[PATH_MAX], line[PATH_MAX + 128], *doc;
	struct bc_test_run r;
	size_t len;
	FILE *f;

	(void)state;
	doc = slurp(FIXTURES "/run.json", &len);
	assert_non_null(doc);
	PATHF(path, "%s/array.json", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[\n%.*s,\n{\"benchmark\":\"x:y\",\"context\":{}}\n]\n", (int)len, doc);
	fclose(f);
	PATHF(store, "%s/import-errors.db", root);
	run(&r, "store", "import", "--store", store, path, NULL);
	PATHF(line, "store import: %s: document 2 of its array: not a benchcore ", path);
	expect(&r, BC_EXIT_USAGE, line);
	assert_null(strstr(r.err, "import-errors.db"));
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	assert_int_not_equal(access(store, F_OK), 0);
	free(doc);
}

/* 8: a configurations x labels matrix too large to read is a summary with
 * a link to the table of every cell, which has them all. */
static void test_large_matrix(void **state)
{
	char store[PATH_MAX], site[PATH_MAX], page[PATH_MAX + 64];
	struct bc_test_run r;
	char *html;
	size_t cells = 0;

	(void)state;
	PATHF(store, "%s/matrix.db", root);
	make_store(store);
	sql(store, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 299)"
		   " INSERT INTO entries (run_id, bench, options, kernel_release, label, date, status,"
		   " metric, unit, mean, stddev, n, by_runs, higher_better, doc)"
		   " SELECT printf('m%031x', i), e.bench, 'count-batch=' || i, e.kernel_release,"
		   " 'label-' || i, strftime('%Y-%m-%dT%H:%M:%SZ', '2027-01-01', '+' || i || ' minutes'),"
		   " 0, e.metric, e.unit, e.mean + i, e.stddev, e.n, e.by_runs, e.higher_better, e.doc"
		   " FROM n, entries e WHERE e.id = 1;");
	PATHF(site, "%s/matrix-site", root);
	run(&r, "report", "--store", store, "-o", site, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	PATHF(page, "%s/index.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "id=\"summary-label\""));
	assert_non_null(strstr(html, "<a href=\"by-label.html\">"));
	free(html);
	PATHF(page, "%s/by-label.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	for (const char *p = html; (p = strstr(p, "<tr><td class=\"name\"><a href=\"bench/")); p++)
		cells++;
	assert_int_equal(cells, 299);	/* the fixtures' entries have no label */
	free(html);
}

/* 9, 10, 11: a label and a unit with a comma, quote, pipe, HTML and
 * control characters, in each format. */
static void test_escaping(void **state)
{
	char store[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	PATHF(store, "%s/escape.db", root);
	make_store(store);
	sql(store, "UPDATE entries SET label = '=HYPERLINK(\"x\"),' || char(27) || '[31m|<b>' || char(13),"
		   " unit = 'ops|<i>' || char(13) || '\\', date = '2026-12-01T00:00:00Z,\"x' || char(10)"
		   " WHERE bench = 'count:count-local';");
	run(&r, "history", "count:count-local", "--store", store, "--by", "label", "--format", "csv",
	    NULL);
	expect(&r, BC_EXIT_OK, NULL);
	/* RFC 4180: the label field quoted, its quotes doubled, the formula
	 * made text; the dates quoted; one header and one row */
	assert_non_null(strstr(r.out, ",\"'=HYPERLINK(\"\"x\"\"),\x1b[31m|<b>\r\","));
	assert_non_null(strstr(r.out, ",\"2026-12-01T00:00:00Z,\"\"x\n\",\"2026-12-01T00:00:00Z,\"\"x\n\","));
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", store, "--by", "label", "--format",
	    "markdown", NULL);
	expect(&r, BC_EXIT_OK, NULL);
	assert_null(strchr(r.out, '\r'));
	assert_null(strchr(r.out, '\x1b'));
	assert_null(strstr(r.out, "<b>"));
	assert_null(strstr(r.out, "<i>"));
	assert_non_null(strstr(r.out, "\\|&lt;b&gt;"));
	assert_non_null(strstr(r.out, "ops\\|&lt;i&gt; \\\\"));
	assert_int_equal(lines_of(r.out), 3);
	bc_test_run_free(&r);
	run(&r, "history", "count:count-local", "--store", store, "--by", "label", NULL);
	expect(&r, BC_EXIT_OK, NULL);
	assert_null(strchr(r.out, '\r'));
	assert_null(strchr(r.out, '\x1b'));
	assert_non_null(strstr(r.out, "\\x1b[31m|<b>\\x0d"));
	bc_test_run_free(&r);
	run(&r, "store", "list", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	assert_null(strchr(r.out, '\r'));
	assert_null(strchr(r.out, '\x1b'));
	assert_int_equal(lines_of(r.out), 4);
	bc_test_run_free(&r);
	/* given on the command line: refused */
	run(&r, "store", "import", "--store", store, "--label", "a\x1b[2Jb", FIXTURES "/run.json",
	    NULL);
	expect(&r, BC_EXIT_USAGE, "--label");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--save", "--store", store, "--label",
	    "a\rb", NULL);
	expect(&r, BC_EXIT_USAGE, "--label");
	bc_test_run_free(&r);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--save", "--store", store, "--label",
	    "a\x1b" "b", NULL);
	expect(&r, BC_EXIT_USAGE, "--label");
	bc_test_run_free(&r);
}

/* 12 and 13: page names bounded and unique. */
static void test_page_names(void **state)
{
	char store[PATH_MAX], site[PATH_MAX], page[PATH_MAX + 64];
	struct bc_test_run r;
	char *html;
	size_t pages = 0;
	FILE *p;

	(void)state;
	PATHF(store, "%s/names.db", root);
	make_store(store);
	sql(store, "INSERT INTO entries (run_id, bench, options, kernel_release, label, date, status,"
		   " metric, unit, mean, stddev, n, by_runs, higher_better, doc)"
		   " SELECT 'n' || x.k, x.b, e.options, e.kernel_release, e.label, e.date, 0, e.metric,"
		   " e.unit, e.mean, e.stddev, e.n, e.by_runs, e.higher_better, e.doc"
		   " FROM entries e, (SELECT 1 AS k, 'a_:b' AS b UNION SELECT 2, 'a:_b'"
		   " UNION SELECT 3, 'p:' || replace(hex(zeroblob(150)), '00', 'xy')"
		   " UNION SELECT 4, 'p:' || replace(hex(zeroblob(150)), '00', 'xy') || 'z') x"
		   " WHERE e.id = 1;");
	PATHF(site, "%s/names-site", root);
	run(&r, "report", "--store", store, "-o", site, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	PATHF(page, "ls '%s/bench' | wc -l", site);
	p = popen(page, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%zu", &pages), 1);
	pclose(p);
	/* two fixture benchmarks and the four here: six pages */
	assert_int_equal(pages, 6);
	PATHF(page, "%s/index.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	for (const char *h = html; (h = strstr(h, "href=\"bench/")); h++) {
		const char *end = strpbrk(h + 12, "\"#");

		assert_true(end - (h + 12) <= 150);
	}
	free(html);
}

/* 14: --label reaches the index figures and the change tables. */
static void test_report_filters(void **state)
{
	char store[PATH_MAX], site[PATH_MAX], page[PATH_MAX + 64];
	struct bc_test_run r;
	char *html;

	(void)state;
	PATHF(store, "%s/filters.db", root);
	make_store(store);
	sql(store, "UPDATE entries SET label = 'b1', mean = 1000000000 WHERE id = 1;"
		   "UPDATE entries SET label = 'b2', mean = 3000000000 WHERE id IN (2, 3);");
	PATHF(site, "%s/filters-site", root);
	run(&r, "report", "--store", store, "--label", "b1", "-o", site, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	PATHF(page, "%s/index.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_non_null(strstr(html, "1000.000M ops/s"));
	assert_null(strstr(html, "3000.000M"));
	assert_null(strstr(html, "2333.333M"));
	assert_null(strstr(html, ">b2<"));
	free(html);
	PATHF(page, "%s/bench/count__count-local.html", site);
	html = bc_test_read_file(page);
	assert_non_null(html);
	assert_null(strstr(html, "3000.000M"));
	assert_null(strstr(html, ">b2<"));
	free(html);
}

/* 15, 17: --against on a store that cannot be read fails; --label and
 * --store without --save or --against are refused. */
static void test_against_and_no_ops(void **state)
{
	char store[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	PATHF(store, "%s/corrupt.db", root);
	bc_test_write_file(store, "this is not an SQLite database, just text long enough\n");
	run(&r, "run", "count:count-local", "-w0", "-d1", "--store", store, "--against", "base",
	    NULL);
	expect(&r, BC_EXIT_FAILED, "not a benchcore store");
	bc_test_run_free(&r);
	PATHF(store, "%s/foreign.db", root);
	sql(store, "CREATE TABLE t (x);");
	run(&r, "run", "count:count-local", "-w0", "-d1", "--store", store, "--against", "base",
	    NULL);
	expect(&r, BC_EXIT_FAILED, "another program");
	bc_test_run_free(&r);
	/* a store that has no such entry yet is a warning only */
	PATHF(store, "%s/empty-yet.db", root);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--store", store, "--against", "base",
	    NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);

	run(&r, "run", "count:count-local", "-w0", "-d1", "--label", "x", NULL);
	expect(&r, BC_EXIT_USAGE, "--label 'x': names the entry --save keeps");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	run(&r, "run", "count:count-local", "-w0", "-d1", "--store", store, NULL);
	expect(&r, BC_EXIT_USAGE, "--store");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	run(&r, "sweep", "count:count-local", "-w0", "-d1", "--sweep", "count-batch=1,2", "--store",
	    store, NULL);
	expect(&r, BC_EXIT_USAGE, "--store");
	bc_test_run_free(&r);
}

/* 18: an option given to suite that a line sweeps is refused. */
static void test_suite_option_swept(void **state)
{
	char suite[PATH_MAX];
	struct bc_test_run r;

	(void)state;
	PATHF(suite, "%s/swept.suite", root);
	bc_test_write_file(suite, "run count:count-local -w0 -d1 --sweep count-batch=1,2\n");
	run(&r, "suite", "--suite-file", suite, "--count-batch", "5", NULL);
	expect(&r, BC_EXIT_USAGE, "option '--count-batch' given to the suite is swept on this line");
	assert_int_equal(lines_of(r.err), 1);
	bc_test_run_free(&r);
	run(&r, "suite", "--suite-file", suite, "-d2", NULL);
	bc_test_run_free(&r);
	bc_test_write_file(suite, "run count:count-local -w0 --sweep duration=1,2\n");
	run(&r, "suite", "--suite-file", suite, "-d", "1", NULL);
	expect(&r, BC_EXIT_USAGE, "option '-d' given to the suite is swept on this line");
	bc_test_run_free(&r);
}

/* 16: the real cause of a store that cannot be made or written. */
static void test_unwritable(void **state)
{
	char dir[PATH_MAX], store[PATH_MAX + 16], fresh[PATH_MAX + 16];
	struct bc_test_run r;

	(void)state;
	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK)) {
		printf("skipped: needs root and setpriv to run as an unprivileged user\n");
		return;
	}
	PATHF(dir, "%s/locked", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	PATHF(store, "%s/s.db", dir);
	make_store(store);
	assert_int_equal(chmod(store, 0666), 0);
	assert_int_equal(chmod(dir, 0555), 0);
	PATHF(fresh, "%s/new.db", dir);
	run_nobody(&r, "store", "import", "--store", fresh, FIXTURES "/run-p2.json", NULL);
	if (strstr(r.err, "setpriv")) {
		printf("skipped: setpriv cannot change user here: %s", r.err);
		bc_test_run_free(&r);
		return;
	}
	expect(&r, BC_EXIT_FAILED, "cannot create it: its directory is not writable (Permission denied)");
	assert_null(strstr(r.err, "No such file"));
	bc_test_run_free(&r);
	run_nobody(&r, "store", "import", "--store", store, FIXTURES "/run-p2.json", NULL);
	expect(&r, BC_EXIT_FAILED, "its directory is not writable (Permission denied)");
	assert_null(strstr(r.err, "read-only"));
	bc_test_run_free(&r);
	assert_int_equal(chmod(store, 0644), 0);
	run_nobody(&r, "store", "import", "--store", store, FIXTURES "/run-p2.json", NULL);
	expect(&r, BC_EXIT_FAILED, "not writable by this user (Permission denied)");
	bc_test_run_free(&r);
	/* reading it is fine */
	run_nobody(&r, "store", "list", "--store", store, NULL);
	expect(&r, BC_EXIT_OK, NULL);
	bc_test_run_free(&r);
	chmod(dir, 0755);
}

static int setup(void **state)
{
	char dst[PATH_MAX + 16];

	(void)state;
	PATHF(root, "%s/tests/hostile-XXXXXX", BC_TEST_BUILD_DIR);
	if (!mkdtemp(root))
		return -1;
	chmod(root, 0755);
	PATHF(count_dir, "%s/count", root);
	if (mkdir(count_dir, 0755))
		return -1;
	PATHF(dst, "%s/count.so", count_dir);
	bc_test_copy_executable(BC_TEST_PLUGIN_DIR "/count.so", dst);
	/* nothing here may touch the user's own store */
	setenv("BENCHCORE_STORE", "/nonexistent/benchcore-test-must-not-use.db", 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 48];

	(void)state;
	PATHF(cmd, "chmod -R u+w '%s'; rm -rf '%s'", root, root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outputs_are_not_inputs),
		cmocka_unit_test(test_report_directory),
		cmocka_unit_test(test_hot_journal),
		cmocka_unit_test(test_crafted_rows),
		cmocka_unit_test(test_deep_document),
		cmocka_unit_test(test_import_errors),
		cmocka_unit_test(test_large_matrix),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_page_names),
		cmocka_unit_test(test_report_filters),
		cmocka_unit_test(test_against_and_no_ops),
		cmocka_unit_test(test_suite_option_swept),
		cmocka_unit_test(test_unwritable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
