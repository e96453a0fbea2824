// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Round 3 of docs/reliability.md, through the real binary: plugins,
 * metrics and the sampler.
 *  - an oversubscribed run never reports more CPU time than its intervals
 *    had CPUs for, and every interval spans a positive time;
 *  - a teardown that calls exit() still reports what was measured;
 *  - metric names the report reserves or cannot print, and option tables
 *    a run would refuse, are refused as the plugin loads, one line each;
 *  - what a plugin prints to stdout never reaches the JSON document;
 *  - measure() values that are not measurements stop the run with a reason;
 *  - a lack of file descriptors is one line and a failure.
 * Invariants, not timings: the bound below only catches a hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "exit_status.h"
#include "json_read.h"
#include "bc_test_child.h"

#define BOUND_SEC 240

static char rel3[PATH_MAX];	/* plugins that misbehave at run time */
static char refused3[PATH_MAX];	/* the valid plugin beside refused tables */
static char counts[PATH_MAX];	/* the in-tree plugins (count.so) */

static void run(struct bc_test_run *r, const char *dir, const char *const *args)
{
	const char *argv[64] = { BC_TEST_BENCHCORE, "--plugin-dir", dir };
	struct bc_test_child c;
	size_t n = 3;

	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, BOUND_SEC);
}

#define RUN(r, dir, ...) run((r), (dir), (const char *const[]){ __VA_ARGS__, NULL })

static struct bc_json *parse_doc(const struct bc_test_run *r)
{
	char err[256];
	struct bc_json *doc = bc_json_parse(r->out, strlen(r->out), err, sizeof(err));

	if (!doc)
		fail_msg("stdout is not one JSON document (%s):\n%s\nstderr:\n%s", err, r->out,
			 r->err);
	return doc;
}

static unsigned int usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	return (unsigned int)CPU_COUNT(&set);
}

/* Item 6: -p 64 on this machine's CPUs. */
static void test_oversubscribed_invariants(void **state)
{
	double cpus = usable_cpus(), sum_len = 0;
	const struct bc_json *iters, *util;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, counts, "run", "count:count-local", "-p", "64", "-w", "0", "-d", "2", "--format",
	    "json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	doc = parse_doc(&r);
	iters = bc_json_get(doc, "iterations");
	assert_true(bc_json_len(iters) >= 1);
	for (size_t i = 0; i < bc_json_len(iters); i++) {
		const struct bc_json *it = bc_json_at(iters, i), *cpu = bc_json_get(it, "cpu");
		double len = bc_json_num(bc_json_get(it, "length_sec"), -1);
		double used = bc_json_num(bc_json_get(cpu, "producer_user_sec"), -1) +
			      bc_json_num(bc_json_get(cpu, "producer_sys_sec"), -1);
		double hits = bc_json_num(bc_json_get(bc_json_get(it, "values"), "hits"), -1);

		assert_true(len > 0);
		assert_true(used >= 0);
		assert_true(hits >= 0);
		/* The interval spans every reading of its counters and clocks:
		 * the threads cannot have used more CPU time than that. */
		if (used > cpus * len * (1 + 1e-9))
			fail_msg("iteration %zu: %.6f CPU-seconds in %.6f s on %.0f CPUs", i, used,
				 len, cpus);
		sum_len += len;
	}
	assert_true(sum_len > 0);
	util = bc_json_get(bc_json_get(doc, "cpu_utilisation"), "producer");
	assert_true(bc_json_num(bc_json_get(util, "max"), 1e9) <= cpus * (1 + 1e-9));
	bc_json_free(doc);
	bc_test_run_free(&r);
}

/* Item 11: every interval measured, then exit(5) in teardown. */
static void test_teardown_exit_reports(void **state)
{
	const struct bc_json *status;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, rel3, "run", "tdexit:teardown-exits", "-w", "0", "-d", "1", "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: tdexit:teardown-exits: plugin called exit(5) in teardown");
	doc = parse_doc(&r);
	assert_int_equal(bc_json_len(bc_json_get(doc, "iterations")), 1);
	status = bc_json_get(doc, "status");
	assert_int_equal((int)bc_json_num(bc_json_get(status, "exit_status"), -1), BC_EXIT_FAILED);
	assert_non_null(strstr(bc_json_str(bc_json_get(status, "reason")), "teardown called exit(5)"));
	bc_json_free(doc);
	bc_test_run_free(&r);

	/* Text: the summary is there too. */
	RUN(&r, rel3, "run", "tdexit:teardown-exits", "-w", "0", "-d", "1");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_non_null(strstr(r.out, "Summary: hits"));
	bc_test_run_free(&r);
}

/* Item 11 under --repeat: the run child hands its measured run over before
 * the guard ends it, and the parent reports it as that repeat, failed. */
static void test_teardown_exit_repeat(void **state)
{
	const struct bc_json *status, *runs;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, rel3, "run", "tdexit:teardown-exits", "-w", "0", "-d", "1", "--repeat", "2",
	    "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	bc_test_assert_line(&r, "benchcore: tdexit:teardown-exits: plugin called exit(5) in teardown");
	doc = parse_doc(&r);
	assert_int_equal(bc_json_len(bc_json_get(doc, "iterations")), 1);
	assert_int_equal((int)bc_json_num(bc_json_get(bc_json_get(bc_json_get(doc, "summary"),
								  "hits"), "n"), -1), 1);
	status = bc_json_get(doc, "status");
	assert_int_equal((int)bc_json_num(bc_json_get(status, "exit_status"), -1), BC_EXIT_FAILED);
	assert_non_null(strstr(bc_json_str(bc_json_get(status, "reason")),
			       "teardown called exit(5) after 1 measured iterations"));
	runs = bc_json_get(bc_json_get(doc, "repeats"), "runs");
	assert_int_equal(bc_json_len(runs), 1);
	assert_int_equal((int)bc_json_num(bc_json_get(bc_json_at(runs, 0), "exit_status"), -1),
			 BC_EXIT_FAILED);
	assert_int_equal((int)bc_json_num(bc_json_get(bc_json_at(runs, 0), "measured_iterations"),
					  -1), 1);
	bc_json_free(doc);
	bc_test_run_free(&r);

	/* Text: the pooled summary of what was measured. */
	RUN(&r, rel3, "run", "tdexit:teardown-exits", "-w", "0", "-d", "1", "--repeat", "2");
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_non_null(strstr(r.out, "Summary: hits"));
	bc_test_run_free(&r);
}

/* Item 27: --bpf-stats without privilege, as nobody (65534), for a
 * benchmark that loads no BPF: it runs as usual. */
static void test_bpf_stats_unprivileged(void **state)
{
	char plugin[PATH_MAX + 16], *out, *err;
	FILE *fo = tmpfile(), *fe = tmpfile();
	int wstatus;
	pid_t pid;

	(void)state;
	if (geteuid() != 0) {
		printf("skipped: needs root to become nobody\n");
		skip();
	}
	assert_non_null(fo);
	assert_non_null(fe);
	snprintf(plugin, sizeof(plugin), "%s/count.so", counts);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(fo), STDOUT_FILENO);
		dup2(fileno(fe), STDERR_FILENO);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534) || !getuid())
			_exit(70);
		/* The build tree must be open to others, as it usually is. */
		if (access(BC_TEST_BENCHCORE, X_OK) || access(plugin, R_OK))
			_exit(77);
		execl(BC_TEST_BENCHCORE, BC_TEST_BENCHCORE, "--plugin-dir", counts, "run",
		      "count:count-local", "-w", "0", "-d", "1", "--bpf-stats", (char *)NULL);
		_exit(78);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	out = bc_test_slurp_fd(fileno(fo));
	err = bc_test_slurp_fd(fileno(fe));
	fclose(fo);
	fclose(fe);
	assert_true(WIFEXITED(wstatus));
	if (WEXITSTATUS(wstatus) == 77 || WEXITSTATUS(wstatus) == 78 ||
	    (WEXITSTATUS(wstatus) == 127 && strstr(err, "error while loading shared libraries"))) {
		printf("skipped: %s or %s cannot be run by nobody (65534)\n", BC_TEST_BENCHCORE,
		       plugin);
		free(out);
		free(err);
		skip();
	}
	if (WEXITSTATUS(wstatus) != BC_EXIT_OK)
		fail_msg("as nobody: exit %d\nstderr:\n%s", WEXITSTATUS(wstatus), err);
	assert_non_null(strstr(out, "Summary: hits"));
	assert_non_null(strstr(err, "declares no BPF programs"));
	free(out);
	free(err);
}

/* Items 12, 20, 26: each refused in one line naming it, as it loads; the
 * valid plugin beside them still lists and nothing else does. */
static void test_refused_at_load(void **state)
{
	static const char *const lines[] = {
		"mfigures.so: benchmark 'metric-name': metric name 'figures' is reserved (the report's summary has a member of that name; reserved: figures, bpf_stats)",
		"mbpfstats.so: benchmark 'metric-name': metric name 'bpf_stats' is reserved (the report's summary has a member of that name; reserved: figures, bpf_stats)",
		"mpercent.so: benchmark 'metric-name': metric #0's name has byte 0x25; a metric name is printable ASCII without blanks, quotes, '%', '\\', ',' or ':'",
		"mnewline.so: benchmark 'metric-name': metric #0's name has byte 0x0a; a metric name is printable ASCII without blanks, quotes, '%', '\\', ',' or ':'",
		"mlabel.so: benchmark 'metric-label': metric 'hits' has control character 0x0a in its label or unit; each is printed inside one report line",
		"optdup.so: plugin 'optdup': option 'batch' is declared twice",
		"optcore.so: plugin 'optcore': option 'duration': the name is a core option's",
		"optenum.so: plugin 'optenum': option 'mode': an enum without words",
		"optdefault.so: plugin 'optdefault': option 'batch': bad default: --batch '11': expected an integer from 1 to 10",
		"optsize.so: plugin 'optsize': opts_size 1099511627776 is above the 1048576 bytes an options struct may have",
		"sumname.so: benchmark 'summary': summary names 'misses', which is not one of its metrics",
		"sumrunner.so: benchmark 'summary': summary names 'hits', but under the kernel runner's name the Summary keeps the runner's line: only an OPS headline's latency may be given, by a LATENCY or RATIO metric in ns, us, ms or s",
	};
	static const char *const formats[] = { "text", "json" };
	char line[1024];
	struct bc_test_run r;

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		RUN(&r, refused3, "list", "--format", formats[f]);
		bc_test_assert_status(&r, BC_EXIT_OK);
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			assert_true(snprintf(line, sizeof(line), "benchcore: %s/%s", refused3,
					     lines[i]) < (int)sizeof(line));
			bc_test_assert_line(&r, line);
		}
		assert_non_null(strstr(r.out, "fixture:ok"));
		assert_null(strstr(r.out, "metric-name"));
		assert_null(strstr(r.out, "opt-table"));
		bc_test_run_free(&r);
	}
	/* and run cannot reach them */
	RUN(&r, refused3, "run", "optdup:opt-table", "-d", "1");
	assert_int_not_equal(r.status, BC_EXIT_OK);
	bc_test_run_free(&r);
}

/* Item 13: printf() and write(1) from a constructor, setup, a producer
 * and measure() all land on stderr; stdout is the document alone. */
static void test_plugin_stdout_kept_apart(void **state)
{
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	RUN(&r, rel3, "run", "prints:prints", "-w", "0", "-d", "1", "--format", "json");
	bc_test_assert_status(&r, BC_EXIT_OK);
	doc = parse_doc(&r);
	assert_null(strstr(r.out, "fixture printf"));
	assert_null(strstr(r.out, "fixture wrote"));
	assert_non_null(strstr(r.err, "fixture printf from setup"));
	assert_non_null(strstr(r.err, "fixture printf from measure"));
	assert_non_null(strstr(r.err, "fixture wrote this to fd 1"));
	bc_json_free(doc);
	bc_test_run_free(&r);
}

/* Item 25: NaN, inf, 1e308 and a total that goes down. */
static void test_bad_values_stop_the_run(void **state)
{
	static const struct {
		const char *bench, *reason;
	} cases[] = {
		{ "badvalues:nan", "measure: metric 'hits' read nan, which is not a measurement" },
		{ "badvalues:inf", "measure: metric 'hits' read inf, which is not a measurement" },
		{ "badvalues:huge", "measure: metric 'hits' read 1e+308, which is not a measurement" },
		{ "badvalues:down", "measure: counter metric 'hits' went down from 2000 to 1" },
	};
	struct bc_test_run r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bc_json *doc;
		const char *reason;

		RUN(&r, rel3, "run", cases[i].bench, "-w", "0", "-d", "3", "--format", "json");
		bc_test_assert_status(&r, BC_EXIT_FAILED);
		doc = parse_doc(&r);
		reason = bc_json_str(bc_json_get(bc_json_get(doc, "status"), "reason"));
		assert_non_null(reason);
		if (strncmp(reason, cases[i].reason, strlen(cases[i].reason)))
			fail_msg("%s: reason '%s'", cases[i].bench, reason);
		/* The first interval was good and is kept; nothing after. */
		assert_int_equal(bc_json_len(bc_json_get(doc, "iterations")), 1);
		assert_null(strstr(r.err, "Summary:"));
		bc_json_free(doc);
		bc_test_run_free(&r);
	}
}

/* Item 18: a descriptor limit too low for the plugins. */
static void test_descriptor_shortage(void **state)
{
	struct rlimit old, low = { 8, 8 };
	struct bc_test_run r;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low.rlim_max = old.rlim_max;
	/* The child inherits it; this process needs few until it is back. */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	RUN(&r, refused3, "list");
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	bc_test_assert_status(&r, BC_EXIT_FAILED);
	assert_non_null(strstr(r.err, "plugin files: too many open files (this process may have 8;"));
	assert_string_equal(r.out, "");
	bc_test_run_free(&r);
}

static int setup(void **state)
{
	(void)state;
	snprintf(rel3, sizeof(rel3), "%s/rel3", BC_LOADER_FIXTURES);
	snprintf(refused3, sizeof(refused3), "%s/refused3", BC_LOADER_FIXTURES);
	snprintf(counts, sizeof(counts), "%s", BC_TEST_PLUGIN_DIR);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oversubscribed_invariants),
		cmocka_unit_test(test_teardown_exit_reports),
		cmocka_unit_test(test_teardown_exit_repeat),
		cmocka_unit_test(test_refused_at_load),
		cmocka_unit_test(test_plugin_stdout_kept_apart),
		cmocka_unit_test(test_bad_values_stop_the_run),
		cmocka_unit_test(test_descriptor_shortage),
		cmocka_unit_test(test_bpf_stats_unprivileged),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
