// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * End-to-end tests of `run --sweep` and `suite` through the real
 * benchcore binary: sweeps over a plugin option and over producers with the
 * count plugin and with one BPF benchmark, a combination that fails
 * validation, a hung / crashing / unavailable fixture plugin, and shipped
 * suites. compare's own tests are in tests/results.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "child.h"
#include "exit_status.h"
#include "json.h"
#include "json_read.h"

static char tmpdir[] = "/tmp/benchcore-sweep-test.XXXXXX";

/* Runs benchcore with the given words; stdout and stderr captured. */
static int run_cli(struct bc_child_result *r, const char *first, ...)
{
	const char *argv[64] = { BC_TEST_BENCHCORE };
	size_t n = 1;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && n < 63; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	assert_int_equal(bc_child_run(BC_TEST_BENCHCORE, (char *const *)argv, 300, r), 0);
	if (!r->exited)
		fail_msg("benchcore died: signal %d; stderr: %s", r->term_signal, r->err);
	return r->exit_code;
}

static struct bc_json *parse_out(const struct bc_child_result *r)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(r->out, r->out_len, err, sizeof(err));

	if (!doc)
		fail_msg("stdout is not JSON (%s): %.400s\nstderr: %.400s", err, r->out, r->err);
	return doc;
}

static const char *str_at(const struct bc_json *v, const char *k1, const char *k2)
{
	const struct bc_json *x = bc_json_get(v, k1);

	return bc_json_str(k2 ? bc_json_get(x, k2) : x);
}

static double hits_mean(const struct bc_json *run)
{
	return bc_json_num(bc_json_get(bc_json_get(bc_json_get(bc_json_get(run, "result"),
								   "summary"), "hits"), "mean"),
			   -1);
}

static bool is_root(void)
{
	return geteuid() == 0;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* ---------------------------------------------------------------- sweeps */

static void test_count_sweep_json(void **state)
{
	struct bc_child_result r;
	struct bc_json *doc;
	const struct bc_json *runs;
	static const char *const want[4][2] = { { "1", "1" }, { "1", "2" }, { "2", "1" }, { "2", "2" } };
	char path[512], cmp_out[512];
	int rc;

	(void)state;
	/* three samples a run, so that the self-compare below has a verdict */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-local", "-w0", "-d3",
		     "--sweep", "producers=1,2", "--sweep", "count-batch=1,2", "--format", "json",
		     NULL);
	if (rc)
		fail_msg("exit %d: %s", rc, r.err);
	doc = parse_out(&r);
	assert_string_equal(str_at(doc, "kind", NULL), "sweep");
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct bc_json *run = bc_json_at(runs, i), *res = bc_json_get(run, "result");
		const struct bc_json *cfg = bc_json_get(res, "config");

		assert_string_equal(str_at(run, "status", NULL), "ok");
		/* typed as the run's own config has them */
		assert_int_equal(bc_json_get(bc_json_get(run, "options"), "producers")->type,
				 BC_JSON_NUMBER);
		assert_int_equal((int)bc_json_num(bc_json_get(bc_json_get(run, "options"),
							      "producers"), 0), atoi(want[i][0]));
		assert_int_equal((int)bc_json_num(bc_json_get(bc_json_get(run, "options"),
							      "count-batch"), 0), atoi(want[i][1]));
		/* the child really ran with that combination */
		assert_int_equal((int)bc_json_num(bc_json_get(cfg, "producers"), 0),
				 atoi(want[i][0]));
		/* count's options are not typed until it declares a table
		 * (test_plugin_opts checks typed sweeps) */
		assert_non_null(bc_json_get(cfg, "plugin_options"));
		assert_true(hits_mean(run) > 0);
	}
	bc_json_free(doc);

	/* A sweep document compared with itself: every run matches, nothing
	 * moved, nothing is significant. */
	snprintf(path, sizeof(path), "%s/sweep.json", tmpdir);
	write_file(path, r.out);
	bc_child_result_free(&r);
	snprintf(cmp_out, sizeof(cmp_out), "%s/self-compare.json", tmpdir);
	rc = run_cli(&r, "compare", path, path, "--format", "json", "--output", cmp_out, NULL);
	assert_int_equal(rc, 0);
	bc_child_result_free(&r);
	{
		char err[256];
		struct bc_json *c = bc_json_parse_file(cmp_out, err, sizeof(err));
		const struct bc_json *comps;

		assert_non_null(c);
		comps = bc_json_get(c, "comparisons");
		assert_int_equal(bc_json_len(comps), 4);
		for (size_t i = 0; i < 4; i++) {
			const struct bc_json *x = bc_json_at(comps, i);

			assert_true(bc_json_num(bc_json_get(x, "change_pct"), 1) == 0.0);
			assert_string_equal(str_at(x, "verdict", NULL), "not significant");
		}
		assert_int_equal(bc_json_len(bc_json_get(c, "only_in_base")), 0);
		assert_int_equal(bc_json_len(bc_json_get(c, "only_in_new")), 0);
		bc_json_free(c);
	}
}

static void test_count_sweep_text_csv_markdown(void **state)
{
	struct bc_child_result r;
	int rc;

	(void)state;
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-global", "-w0", "-d1",
		     "--sweep", "producers=1,2", NULL);
	assert_int_equal(rc, 0);
	/* the title, then one row per combination, kernel-script style */
	assert_non_null(strstr(r.out, "count:count-global\n=================="));
	assert_non_null(strstr(r.out, "\nproducers=1          hits "));
	assert_non_null(strstr(r.out, "\nproducers=2          hits "));
	assert_non_null(strstr(r.out, " ops/s per producer"));
	bc_child_result_free(&r);

	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-global", "-w0", "-d1",
		     "--sweep=count-batch=1,3", "--format", "csv", NULL);
	assert_int_equal(rc, 0);
	assert_true(!strncmp(r.out, "section,label,benchmark,options,status,", 39));
	assert_non_null(strstr(r.out, "count-batch=1,count:count-global,count-batch=1,ok,,hits,ops/s,"));
	assert_non_null(strstr(r.out, "count-batch=3,count:count-global,count-batch=3,ok,,hits,ops/s,"));
	bc_child_result_free(&r);

	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-global", "-w0", "-d1",
		     "--sweep", "count-batch=2", "--format", "markdown", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "### count:count-global"));
	assert_non_null(strstr(r.out, "| run | result |"));
	assert_non_null(strstr(r.out, "| count-batch=2 | hits "));
	bc_child_result_free(&r);
}

/* `benchcore sweep` is `run --sweep` as a command of its own: the same
 * table, its own help, and a usage error without --sweep. */
static void test_sweep_command(void **state)
{
	struct bc_child_result r;
	int rc;

	(void)state;
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "sweep", "count:count-global", "-w0",
		     "-d1", "--sweep", "producers=1,2", "--format", "csv", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "producers=1,count:count-global,producers=1,ok,,hits,ops/s,"));
	assert_non_null(strstr(r.out, "producers=2,count:count-global,producers=2,ok,,hits,ops/s,"));
	bc_child_result_free(&r);

	rc = run_cli(&r, "sweep", "--help", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "Usage: benchcore sweep PLUGIN:BENCH --sweep OPTION=V1,V2,..."));
	bc_child_result_free(&r);

	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "sweep", "count:count-global", NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: sweep: expected --sweep OPTION=V1,V2,... (e.g. --sweep producers=1,2)\n");
	bc_child_result_free(&r);
}

static void test_sweep_one_invalid_combination(void **state)
{
	struct bc_child_result r;
	struct bc_json *doc;
	const struct bc_json *runs;
	int rc;

	(void)state;
	/* count-batch 0 is outside the option's declared range: the core
	 * refuses the axis in one line before anything runs */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-local", "-w0", "-d1",
		     "--sweep", "count-batch=1,0,2", "--format", "json", NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: --count-batch '0': expected an integer from 1 to 1000000\n");
	assert_int_equal(r.out_len, 0);
	bc_child_result_free(&r);

	/* 0 producers is below count-local's thread range, which only the
	 * row's run can tell: that row says so, the others run */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-local", "-w0", "-d1",
		     "--sweep", "producers=1,0,2", "--format", "json", NULL);
	assert_int_equal(rc, BC_EXIT_FAILED);
	doc = parse_out(&r);
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 3);
	assert_string_equal(str_at(bc_json_at(runs, 0), "status", NULL), "ok");
	assert_string_equal(str_at(bc_json_at(runs, 1), "status", NULL), "invalid");
	assert_int_equal((int)bc_json_num(bc_json_get(bc_json_at(runs, 1), "exit_status"), 0),
			 BC_EXIT_USAGE);
	assert_non_null(strstr(str_at(bc_json_at(runs, 1), "reason", NULL), "--producers 0"));
	assert_string_equal(str_at(bc_json_at(runs, 2), "status", NULL), "ok");
	assert_true(hits_mean(bc_json_at(runs, 2)) > 0);
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* the same through a plugin's own validate() */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_SWEEP_PLUGIN_DIR, "run", "sweepfix:fix-ok", "-w0",
		     "-d1", "--sweep", "fix-value=1,13", NULL);
	assert_int_equal(rc, BC_EXIT_FAILED);
	assert_non_null(strstr(r.out, "fix-value=1          hits "));
	assert_non_null(strstr(r.out, "fix-value=13         invalid: "));
	assert_non_null(strstr(r.out, "'13'"));
	bc_child_result_free(&r);

	/* a malformed --sweep is the sweep's own usage error */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", "count:count-local", "--sweep",
		     "producers", NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "--sweep 'producers': expected OPTION=V1,V2"));
	assert_int_equal(r.out_len, 0);
	bc_child_result_free(&r);
}

static void test_hung_crashing_unavailable(void **state)
{
	struct bc_child_result r;
	struct bc_json *doc;
	const struct bc_json *runs;
	char suite[512];
	int rc;

	(void)state;
	rc = run_cli(&r, "--plugin-dir", BC_TEST_SWEEP_PLUGIN_DIR, "run", "sweepfix:fix-hang", "-w0",
		     "-d1", "--run-timeout", "1", "--sweep", "fix-value=1,2", "--format", "json",
		     NULL);
	assert_int_equal(rc, BC_EXIT_FAILED);
	doc = parse_out(&r);
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(str_at(bc_json_at(runs, i), "status", NULL), "timeout");
		assert_non_null(strstr(str_at(bc_json_at(runs, i), "reason", NULL), "timed out"));
	}
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* one suite, four fates; each costs its own row only */
	snprintf(suite, sizeof(suite), "%s/fixtures.suite", tmpdir);
	write_file(suite, "# fixtures\n"
			  "header Fixture plugin\n"
			  "run sweepfix:fix-ok\n"
			  "run sweepfix:fix-hang\n"
			  "run sweepfix:fix-crash\n"
			  "run sweepfix:fix-unavailable\n"
			  "run sweepfix:fix-ok --label after\n");
	rc = run_cli(&r, "--plugin-dir", BC_TEST_SWEEP_PLUGIN_DIR, "suite", "--suite-file", suite,
		     "-w0", "-d1", "--run-timeout", "8", "--format", "json", NULL);
	assert_int_equal(rc, BC_EXIT_FAILED);
	doc = parse_out(&r);
	runs = bc_json_get(doc, "runs");
	assert_string_equal(str_at(doc, "kind", NULL), "suite");
	assert_int_equal(bc_json_len(runs), 5);
	assert_string_equal(str_at(bc_json_at(runs, 0), "status", NULL), "ok");
	assert_string_equal(str_at(bc_json_at(runs, 0), "section", NULL), "Fixture plugin");
	assert_string_equal(str_at(bc_json_at(runs, 0), "label", NULL), "fix-ok");
	assert_string_equal(str_at(bc_json_at(runs, 1), "status", NULL), "timeout");
	assert_string_equal(str_at(bc_json_at(runs, 2), "status", NULL), "crashed");
	assert_non_null(strstr(str_at(bc_json_at(runs, 2), "reason", NULL), "signal"));
	assert_string_equal(str_at(bc_json_at(runs, 3), "status", NULL), "unavailable");
	assert_non_null(strstr(str_at(bc_json_at(runs, 3), "reason", NULL), "never available"));
	assert_string_equal(str_at(bc_json_at(runs, 4), "status", NULL), "ok");
	assert_string_equal(str_at(bc_json_at(runs, 4), "label", NULL), "after");
	assert_true(hits_mean(bc_json_at(runs, 4)) > 0);
	bc_json_free(doc);
	bc_child_result_free(&r);

	/* every row unavailable: the status a single run would have */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_SWEEP_PLUGIN_DIR, "run", "sweepfix:fix-unavailable",
		     "-w0", "-d1", "--sweep", "fix-value=1,2", NULL);
	assert_int_equal(rc, BC_EXIT_UNAVAILABLE);
	assert_non_null(strstr(r.out, "unavailable: "));
	bc_child_result_free(&r);
}

/* One BPF benchmark swept over producers and one of its options. */
static void test_bpf_sweep(void **state)
{
	static const char *const cands[][4] = {
		{ "trigger.so", "trigger:trig-tp", "producers=1,2", "trig-batch-iters=10,100" },
		{ "ringbuf.so", "ringbuf:rb-libbpf", "producers=1,2", "rb-batch-cnt=1,50" },
	};
	struct bc_child_result r;

	(void)state;
	if (!is_root()) {
		print_message("skipped: the BPF sweep needs root\n");
		skip();
	}
	for (size_t c = 0; c < sizeof(cands) / sizeof(cands[0]); c++) {
		char so[512];
		struct bc_json *doc;
		const struct bc_json *runs;
		bool unavailable = false;
		int rc;

		snprintf(so, sizeof(so), "%s/%s", BC_TEST_PLUGIN_DIR, cands[c][0]);
		if (!exists(so)) {
			print_message("%s not built; trying the next BPF benchmark\n", so);
			continue;
		}
		rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run", cands[c][1], "-w0", "-d1",
			     "--sweep", cands[c][2], "--sweep", cands[c][3], "--format", "json", NULL);
		doc = parse_out(&r);
		runs = bc_json_get(doc, "runs");
		assert_int_equal(bc_json_len(runs), 4);
		for (size_t i = 0; i < 4; i++) {
			const struct bc_json *run = bc_json_at(runs, i);
			const char *status = str_at(run, "status", NULL);

			if (!strcmp(status, "unavailable")) {
				print_message("%s unavailable here: %s\n", cands[c][1],
					      str_at(run, "reason", NULL));
				unavailable = true;
				break;
			}
			if (strcmp(status, "ok"))
				fail_msg("%s row %zu: %s: %s", cands[c][1], i, status,
					 str_at(run, "reason", NULL));
			assert_true(hits_mean(run) > 0);
		}
		bc_json_free(doc);
		bc_child_result_free(&r);
		if (!unavailable) {
			assert_int_equal(rc, 0);
			return;
		}
	}
	print_message("skipped: no BPF benchmark (trig-tp, rb-libbpf) can run here\n");
	skip();
}

/* Ctrl-C: the run in progress stops, the rows so far are printed, 130. */
static void test_sweep_interrupted(void **state)
{
	char out[512];
	int status, fd;
	pid_t pid;
	FILE *f;
	char buf[4096] = "";

	(void)state;
	snprintf(out, sizeof(out), "%s/interrupted.txt", tmpdir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			_exit(126);
		dup2(fd, STDOUT_FILENO);
		execl(BC_TEST_BENCHCORE, BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run",
		      "count:count-local", "-w0", "-d30", "--sweep", "producers=1,2", (char *)NULL);
		_exit(127);
	}
	/* Long enough for the first run to have measured a tick (it runs for
	 * 30 s): a child's start loads every plugin, each inspected in a
	 * process of its own, which under ASan on a busy machine took over 3 s. */
	sleep(10);
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), BC_EXIT_INTERRUPTED);
	f = fopen(out, "r");
	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	/* with what it measured before it stopped */
	assert_non_null(strstr(buf, "producers=1          interrupted, so far: hits "));
	/* the second combination never started */
	assert_null(strstr(buf, "producers=2"));
}

/* ---------------------------------------------------------------- suites */

static void test_suite_commands(void **state)
{
	struct bc_child_result r;
	char bad[512];
	int rc;

	(void)state;
	rc = run_cli(&r, "suite", "--list", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(r.out, "ringbufs "));
	assert_non_null(strstr(r.out, "trigger "));
	assert_non_null(strstr(r.out, "local-storage "));
	bc_child_result_free(&r);

	rc = run_cli(&r, "suite", "--list", "--format", "json", NULL);
	assert_int_equal(rc, 0);
	bc_json_free(parse_out(&r));
	bc_child_result_free(&r);

	rc = run_cli(&r, "suite", "no-such-suite", NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "suite 'no-such-suite': no such suite"));
	bc_child_result_free(&r);

	snprintf(bad, sizeof(bad), "%s/bad.suite", tmpdir);
	write_file(bad, "header Fine\nrun count:count-local --sweep producers=\n");
	rc = run_cli(&r, "suite", "--suite-file", bad, NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "bad.suite:2: --sweep 'producers='"));
	assert_int_equal(r.out_len, 0);	/* nothing ran */
	bc_child_result_free(&r);

	write_file(bad, "header Fine\nrunn count:count-local\n");
	rc = run_cli(&r, "suite", "--suite-file", bad, NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "bad.suite:2: unknown line 'runn'"));
	bc_child_result_free(&r);

	rc = run_cli(&r, "suite", "--list", "--format", "yaml", NULL);
	assert_int_equal(rc, BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "--format 'yaml'"));
	bc_child_result_free(&r);
}

/* A suite runs its lines with the user's options, sweeps included. */
static void test_suite_run_text(void **state)
{
	struct bc_child_result r;
	char path[512];
	int rc;

	(void)state;
	snprintf(path, sizeof(path), "%s/count.suite", tmpdir);
	write_file(path, "# count self-check\n"
			 "header count-local must scale\n"
			 "run count:count-local --sweep producers=1,2 --label 'local nr_prod {producers}'\n"
			 "header count-global must not\n"
			 "run count:count-global -d3\n");
	/* -d1 from the command line wins over the line's -d3 */
	rc = run_cli(&r, "--plugin-dir", BC_TEST_PLUGIN_DIR, "suite", "--suite-file", path, "-w0",
		     "-d1", "--format", "json", NULL);
	assert_int_equal(rc, 0);
	{
		struct bc_json *doc = parse_out(&r);
		const struct bc_json *runs = bc_json_get(doc, "runs");

		assert_int_equal(bc_json_len(runs), 3);
		assert_string_equal(str_at(bc_json_at(runs, 0), "label", NULL), "local nr_prod 1");
		assert_string_equal(str_at(bc_json_at(runs, 1), "label", NULL), "local nr_prod 2");
		assert_string_equal(str_at(bc_json_at(runs, 2), "label", NULL), "count-global");
		assert_string_equal(str_at(bc_json_at(runs, 2), "section", NULL),
				    "count-global must not");
		assert_int_equal((int)bc_json_num(bc_json_get(bc_json_get(bc_json_get(
						bc_json_at(runs, 2), "result"), "config"),
						"duration_sec"), 0), 1);
		bc_json_free(doc);
	}
	bc_child_result_free(&r);
}

static int setup_tmp(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_commands),
		cmocka_unit_test(test_count_sweep_json),
		cmocka_unit_test(test_count_sweep_text_csv_markdown),
		cmocka_unit_test(test_sweep_command),
		cmocka_unit_test(test_sweep_one_invalid_combination),
		cmocka_unit_test(test_hung_crashing_unavailable),
		cmocka_unit_test(test_sweep_interrupted),
		cmocka_unit_test(test_suite_run_text),
		cmocka_unit_test(test_bpf_sweep),
	};

	if (!exists(BC_TEST_BENCHCORE)) {
		printf("skipped: %s is not built\n", BC_TEST_BENCHCORE);
		return 77;
	}
	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
