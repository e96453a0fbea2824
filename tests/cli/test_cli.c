// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The real benchcore binary, run as users run it: exit status and the one
 * stderr line for every kind of bad input, `list`, and a JSON run of
 * count:count-local parsed back with the core's own JSON parser.
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

#include <benchcore/benchcore.h>
#include "exit_status.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

/* Private plugin directories holding copies (mode 0755) of the plugins the
 * tests use, so that the builder's umask cannot make them unsafe. */
static char root[PATH_MAX];
static char count_dir[PATH_MAX];	/* count.so */
static char fix_dir[PATH_MAX];		/* the loader's valid fixture */
static char other_dir[PATH_MAX];	/* a second plugin sharing a name */
static char needs_dir[PATH_MAX];	/* kernel needs declared as data */

struct result {
	int status;		/* exit status, or 128 + signal */
	char *out;
	char *err;
};

/* Runs benchcore with the given arguments (NULL-terminated). */
static void run(struct result *r, ...)
{
	char *argv[64];
	FILE *out_f, *err_f;
	int out_fd, err_fd, wstatus, argc = 0;
	const char *arg;
	va_list ap;
	pid_t pid;

	argv[argc++] = (char *)BC_TEST_BENCHCORE;
	va_start(ap, r);
	while ((arg = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = (char *)arg;
	va_end(ap);
	argv[argc] = NULL;

	out_f = tmpfile();
	err_f = tmpfile();
	assert_true(out_f && err_f);
	out_fd = fileno(out_f);
	err_fd = fileno(err_f);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		/* A closed world: only the directories the test names. */
		unsetenv("BENCHCORE_PLUGIN_PATH");
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	r->out = bc_test_slurp_fd(out_fd);
	r->err = bc_test_slurp_fd(err_fd);
	fclose(out_f);
	fclose(err_f);
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static void assert_status_and_err(struct result *r, int status, const char *line)
{
	if (r->status != status || !strstr(r->err, line))
		fail_msg("expected exit %d and stderr containing\n  %s\ngot exit %d, stderr:\n%s",
			 status, line, r->status, r->err);
}

static void make_plugin_dir(char *dir, size_t len, const char *name, const char *src)
{
	char dst[PATH_MAX];
	const char *base = strrchr(src, '/') + 1;

	assert_true(snprintf(dir, len, "%s/%s", root, name) < (int)len);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	PATHF(dst, "%s/%s", dir, base);
	bc_test_copy_executable(src, dst);
}

static int setup(void **state)
{
	(void)state;
	PATHF(root, "%s/tests/cli-XXXXXX", BC_TEST_BUILD_DIR);
	if (!mkdtemp(root))
		return -1;
	chmod(root, 0755);
	make_plugin_dir(count_dir, sizeof(count_dir), "count", BC_TEST_PLUGIN_DIR "/count.so");
	make_plugin_dir(fix_dir, sizeof(fix_dir), "fixture", BC_LOADER_FIXTURES "/mixed/fixture.so");
	make_plugin_dir(other_dir, sizeof(other_dir), "other", BC_LOADER_FIXTURES "/other/other.so");
	make_plugin_dir(needs_dir, sizeof(needs_dir), "needs", BC_LOADER_FIXTURES "/mixed/needs.so");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bc_test_scratch_remove(root);
}

/* ------------------------------------------------------------- usage */

static void test_bad_duration(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "-d", "abc", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: --duration 'abc': expected a number of seconds > 0");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "--warmup=-1", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: --warmup '-1': expected a number of seconds >= 0");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "-c1", "-w0", "-d1", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: count:count-local: --consumers 1: benchmark 'count-local' runs producers only; expected 0");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "-p", "x2", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: --producers 'x2': expected a whole number of threads");
	result_free(&r);
}

static void test_bad_cpuset(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "--prod-affinity", "3-1", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: --prod-affinity '3-1': range end is below its start");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "--cons-affinity=1,,2", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: --cons-affinity '1,,2': empty element");
	result_free(&r);
}

static void test_unknown_and_ambiguous_bench(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "nope", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: unknown benchmark 'nope'");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count:nope", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: unknown benchmark 'count:nope'; plugin count has: count-global, count-local");
	result_free(&r);

	run(&r, "--plugin-dir", fix_dir, "--plugin-dir", other_dir, "run", "shared", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: benchmark 'shared' is ambiguous: fixture:shared, other:shared; name one as PLUGIN:BENCH");
	result_free(&r);
}

static void test_unknown_option_and_command(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "--bogus", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "unrecognized option '--bogus'");
	result_free(&r);
	run(&r, "frobnicate", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: unknown command 'frobnicate'");
	result_free(&r);
	run(&r, NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: missing command");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: run: missing PLUGIN:BENCH");
	result_free(&r);
	run(&r, "--plugin-dir", count_dir, "run", "count-local", "--format", "xml", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "benchcore: --format 'xml': expected text or json");
	result_free(&r);
	run(&r, "--plugin-dir", "/nonexistent/plugins", "list", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: --plugin-dir '/nonexistent/plugins': No such file or directory");
	result_free(&r);
}

static void test_bad_plugin_option(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "-w0", "-d1",
	    "--count-batch", "0", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: --count-batch '0': expected an integer from 1 to 1000000");
	result_free(&r);
	/* The option belongs to the count plugin only: the line says whose. */
	run(&r, "--plugin-dir", fix_dir, "run", "fixture:ok", "--count-batch", "2", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE,
			      "benchcore: run: --count-batch is not an option of fixture:ok; it belongs to count:");
	/* An option no benchmark has is argp's to refuse. */
	result_free(&r);
	run(&r, "--plugin-dir", fix_dir, "run", "fixture:ok", "--no-such-option", "2", NULL);
	assert_status_and_err(&r, BC_EXIT_USAGE, "unrecognized option '--no-such-option'");
	result_free(&r);
}

/* --------------------------------------------------------- statuses */

static void test_unavailable_and_failed(void **state)
{
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", fix_dir, "run", "fixture:unavailable", "-w0", "-d1", NULL);
	assert_status_and_err(&r, BC_EXIT_UNAVAILABLE,
			      "benchcore: fixture:unavailable: unavailable on this kernel: fixture needs a kernel feature nobody has");
	result_free(&r);
	run(&r, "--plugin-dir", fix_dir, "run", "fixture:setup-fails", "-w0", "-d1", NULL);
	assert_status_and_err(&r, BC_EXIT_FAILED,
			      "benchcore: fixture:setup-fails: failed: fixture setup fails on purpose");
	result_free(&r);
}

static void test_unsafe_plugin_dir(void **state)
{
	char dir[PATH_MAX], line[PATH_MAX + 256];
	struct result r;

	(void)state;
	make_plugin_dir(dir, sizeof(dir), "writable", BC_LOADER_FIXTURES "/other/other.so");
	assert_int_equal(chmod(dir, 0777), 0);
	run(&r, "--plugin-dir", dir, "list", NULL);
	PATHF(line, "benchcore: %s: directory is writable by group or others; a writable plugin directory gives root to anyone who can write there (use --allow-unsafe-plugins to load anyway)",
	      dir);
	assert_status_and_err(&r, BC_EXIT_OK, line);
	assert_null(strstr(r.out, "other:shared"));
	result_free(&r);

	run(&r, "--plugin-dir", dir, "--allow-unsafe-plugins", "list", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "other:shared"));
	result_free(&r);
}

/* ------------------------------------------------------------ output */

static void test_list(void **state)
{
	struct result r;
	struct bc_json *doc;
	const struct bc_json *plugins, *p, *benches;
	char err[256];
	size_t i, j, found = 0;

	(void)state;
	run(&r, "--plugin-dir", count_dir, "list", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "count:count-global "));
	assert_non_null(strstr(r.out, "count:count-local "));
	result_free(&r);

	run(&r, "--plugin-dir", fix_dir, "list", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "[unavailable on this kernel: fixture needs a kernel feature nobody has]"));
	result_free(&r);

	run(&r, "--plugin-dir", count_dir, "list", "--format", "json", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("list --format json: %s\n%s", err, r.out);
	plugins = bc_json_get(doc, "plugins");
	for (i = 0; i < bc_json_len(plugins); i++) {
		p = bc_json_at(plugins, i);
		if (strcmp(bc_json_str(bc_json_get(p, "name")), "count"))
			continue;
		benches = bc_json_get(p, "benchmarks");
		for (j = 0; j < bc_json_len(benches); j++) {
			const struct bc_json *b = bc_json_at(benches, j);
			const char *name = bc_json_str(bc_json_get(b, "name"));

			if (!strcmp(name, "count:count-local") || !strcmp(name, "count:count-global")) {
				assert_true(bc_json_bool(bc_json_get(b, "available"), false));
				found++;
			}
		}
	}
	assert_int_equal(found, 2);
	bc_json_free(doc);
	result_free(&r);
}

/* needs:* in `list [--probe] --format json`: available, and what told. */
static void check_needs_json(bool probe, const char *const *want)
{
	const struct bc_json *plugins, *benches, *b;
	struct bc_json *doc;
	struct result r;
	char err[256];
	size_t i;

	if (probe)
		run(&r, "--plugin-dir", needs_dir, "list", "--probe", "--format", "json", NULL);
	else
		run(&r, "--plugin-dir", needs_dir, "list", "--format", "json", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	doc = bc_json_parse(r.out, strlen(r.out), err, sizeof(err));
	if (!doc)
		fail_msg("list --format json: %s\n%s", err, r.out);
	/* The plugins beside the binary are listed too: find ours. */
	plugins = bc_json_get(doc, "plugins");
	for (i = 0; i < bc_json_len(plugins); i++)
		if (!strcmp(bc_json_str(bc_json_get(bc_json_at(plugins, i), "name")), "needs"))
			break;
	assert_true(i < bc_json_len(plugins));
	benches = bc_json_get(bc_json_at(plugins, i), "benchmarks");
	assert_int_equal(bc_json_len(benches), 3);
	for (i = 0; i < 3; i++) {
		b = bc_json_at(benches, i);
		if (strcmp(bc_json_str(bc_json_get(b, "name")), want[3 * i]) ||
		    bc_json_bool(bc_json_get(b, "available"), false) != !strcmp(want[3 * i + 1], "yes") ||
		    strcmp(bc_json_str(bc_json_get(b, "checked")), want[3 * i + 2]))
			fail_msg("list%s: %s: expected available %s, checked %s:\n%s",
				 probe ? " --probe" : "", want[3 * i], want[3 * i + 1], want[3 * i + 2],
				 r.out);
	}
	bc_json_free(doc);
	result_free(&r);
}

/* `list` asks what a benchmark declares it needs; `list --probe` and `run`
 * ask its probe(), and the declared needs only where there is no probe(). */
static void test_list_needs(void **state)
{
	static const char *const quick[] = {
		"needs:has-file", "yes", "features", "needs:lacks-file", "no", "features",
		"needs:quick-no", "no", "features",
	};
	static const char *const full[] = {
		"needs:has-file", "yes", "features", "needs:lacks-file", "no", "features",
		"needs:quick-no", "yes", "probe",
	};
	struct result r;

	(void)state;
	run(&r, "--plugin-dir", needs_dir, "list", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "fixture lacks-file [unavailable on this kernel: needs the fixture's file: /nonexistent/benchcore-fixture: No such file or directory]\n"));
	assert_non_null(strstr(r.out, "fixture quick-no [unavailable on this kernel: the fixture's quick check says no]\n"));
	assert_non_null(strstr(r.out, "fixture has-file\n"));
	result_free(&r);

	check_needs_json(false, quick);
	check_needs_json(true, full);

	run(&r, "--plugin-dir", needs_dir, "run", "needs:lacks-file", "-w0", "-d1", NULL);
	assert_status_and_err(&r, BC_EXIT_UNAVAILABLE,
			      "benchcore: needs:lacks-file: unavailable on this kernel: needs the fixture's file: /nonexistent/benchcore-fixture: No such file or directory");
	result_free(&r);
	run(&r, "--plugin-dir", needs_dir, "run", "needs:quick-no", "-w0", "-d1", "-q", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	result_free(&r);
}

static void check_count_json(const char *text, const char *batch)
{
	const struct bc_json *hits, *opts, *set, *batch_v;
	struct bc_json *doc;
	char err[256];

	doc = bc_json_parse(text, strlen(text), err, sizeof(err));
	if (!doc)
		fail_msg("run --format json: %s\n%s", err, text);
	assert_string_equal(bc_json_str(bc_json_get(doc, "benchmark")), "count-local");
	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(doc, "plugin"), "name")), "count");
	hits = bc_json_get(bc_json_get(doc, "summary"), "hits");
	assert_non_null(hits);
	assert_true(bc_json_num(bc_json_get(hits, "mean"), 0) > 0);
	assert_true(bc_json_len(bc_json_get(doc, "iterations")) >= 1);
	/* Its one option, typed, with the default when not given; the names
	 * the user gave are listed apart. */
	opts = bc_json_get(bc_json_get(doc, "config"), "plugin_options");
	assert_non_null(opts);
	assert_int_equal(opts->type, BC_JSON_OBJECT);
	batch_v = bc_json_get(opts, "count-batch");
	assert_non_null(batch_v);
	assert_int_equal(batch_v->type, BC_JSON_NUMBER);
	assert_true(bc_json_num(batch_v, 0) == (batch ? atof(batch) : 1));
	set = bc_json_get(bc_json_get(doc, "config"), "plugin_options_set");
	assert_non_null(set);
	assert_int_equal(bc_json_len(set), batch ? 1 : 0);
	if (batch)
		assert_string_equal(bc_json_str(bc_json_at(set, 0)), "count-batch");
	bc_json_free(doc);
}

static void test_run_json(void **state)
{
	char path[PATH_MAX];
	struct result r;
	struct bc_json *doc;
	char err[256];

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "-w0", "-d1", "--format",
	    "json", NULL);
	if (r.status != BC_EXIT_OK)
		fail_msg("exit %d: %s", r.status, r.err);
	check_count_json(r.out, NULL);
	result_free(&r);

	/* Plugin options are recorded; the document goes to --output, and
	 * stdout stays empty; a bare bench name resolves. */
	PATHF(path, "%s/run.json", root);
	run(&r, "--plugin-dir", count_dir, "run", "--count-batch", "3", "count-local", "-w0", "-d1",
	    "--format=json", "--output", path, NULL);
	if (r.status != BC_EXIT_OK)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_string_equal(r.out, "");
	result_free(&r);
	doc = bc_json_parse_file(path, err, sizeof(err));
	if (!doc)
		fail_msg("%s", err);
	bc_json_free(doc);
	{
		FILE *f = fopen(path, "r");
		char *text;

		assert_non_null(f);
		text = bc_test_slurp_fd(fileno(f));
		check_count_json(text, "3");
		free(text);
		fclose(f);
	}
}

static void test_run_text_help_version(void **state)
{
	struct result r;
	char want[64];

	(void)state;
	run(&r, "--plugin-dir", count_dir, "run", "count:count-global", "-w0", "-d1", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "Summary: hits "));
	result_free(&r);

	run(&r, "--plugin-dir", count_dir, "run", "count:count-local", "--help", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "--duration=SEC"));
	assert_non_null(strstr(r.out, "--count-batch=N"));
	result_free(&r);

	run(&r, "--version", NULL);
	assert_int_equal(r.status, BC_EXIT_OK);
	assert_non_null(strstr(r.out, "benchcore "));
	PATHF(want, "(plugin ABI %d.%d, libbpf ", BC_ABI_MAJOR, BC_ABI_MINOR);
	assert_non_null(strstr(r.out, want));
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_duration),
		cmocka_unit_test(test_bad_cpuset),
		cmocka_unit_test(test_unknown_and_ambiguous_bench),
		cmocka_unit_test(test_unknown_option_and_command),
		cmocka_unit_test(test_bad_plugin_option),
		cmocka_unit_test(test_unavailable_and_failed),
		cmocka_unit_test(test_unsafe_plugin_dir),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_needs),
		cmocka_unit_test(test_run_json),
		cmocka_unit_test(test_run_text_help_version),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
