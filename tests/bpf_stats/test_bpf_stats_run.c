// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * run --bpf-stats through the real binary and real plugins:
 *  - text: one Program line per declared program, with runs/s, ns/run and
 *    the share of producer time, before the Summary line, which stays last;
 *  - JSON: every iteration's values per program and the summary;
 *  - in process, the statistics are on from setup() and given back when
 *    bc_run() returns, before the process ends (its exit would close the
 *    fd anyway, so only an in-process run can tell); a program run is asked,
 *    since the sysctl shows only its own setting;
 *  - when another process holds them, the run says so and reads them, even
 *    without CAP_SYS_ADMIN;
 *  - without CAP_SYS_ADMIN the run exits 3 saying so (or, when something
 *    else has them on already, says that and reads them);
 *  - a benchmark without programs says so and runs;
 *  - the option flows into sweeps (--sweep bpf-stats=off,on).
 * Counts are asserted > 0; no timing is.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>

#include <benchcore/benchcore.h>
#include "bc_test_kernel.h"
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "runner.h"
#include "core_opts.h"
#include "bc_test_child.h"
#include "bc_test_report.h"
#include "bpf_stats.h"
#include "json_read.h"

/* Whether the statistics were on before these tests (someone else's):
 * then a run cannot show that it turned them on and off. */
static int on_before;

/* The number before " runs/s" (with its M), or -1. */
static double runs_per_sec(const char *line)
{
	const char *p = strstr(line, "): ");
	char *end;
	double v;

	if (!p)
		return -1;
	v = strtod(p + 3, &end);
	if (end == p + 3)
		return -1;
	if (*end == 'M') {
		v *= 1e6;
		end++;
	}
	return strncmp(end, " runs/s, ", 9) ? -1 : v;
}

static void test_text_lines(void **state)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--bpf-stats", NULL };
	struct bc_test_run r;
	const char *last, *line;
	unsigned int progs = 0;
	bool under_test = false;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0) {
		bc_test_dump("trig-rawtp --bpf-stats", &r);
		fail_msg("trig-rawtp --bpf-stats: exit status %d, expected 0", r.status);
	}
	for (line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char buf[512];
		size_t len = strcspn(line, "\n");

		if (strncmp(line, "Program ", 8))
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		progs++;
		if (!strstr(buf, " ns/run, ") || !strstr(buf, "% of producer time") ||
		    !(runs_per_sec(buf) > 0)) {
			bc_test_dump("trig-rawtp --bpf-stats", &r);
			fail_msg("a Program line without runs > 0, ns/run and the producer share: %s",
				 buf);
		}
		under_test |= !strncmp(buf, "Program under test: ", 20);
	}
	/* the program under test and the batched driver (or only the former,
	 * where the kernel lacks the driver's kfunc) */
	if (!progs || !under_test) {
		bc_test_dump("trig-rawtp --bpf-stats", &r);
		fail_msg("expected a 'Program under test:' line");
	}
	/* the runner's scripts take the last line */
	last = r.out + strlen(r.out);
	assert_true(last > r.out && last[-1] == '\n');
	for (last--; last > r.out && last[-1] != '\n'; last--)
		;
	if (strncmp(last, "Summary: ", 9)) {
		bc_test_dump("trig-rawtp --bpf-stats", &r);
		fail_msg("the last stdout line is not the Summary line: %s", last);
	}
	bc_test_run_free(&r);
}

static void check_tick(const struct bc_json *t, size_t i, size_t p)
{
	static const char *const keys[] = { "run_cnt", "run_time_ns", "runs_per_sec", "ns_per_run",
					    "producer_time_pct", "producer_cpu_pct" };

	if (bc_json_is_null(t))
		return;		/* not read at both ends: allowed, never seen */
	if (!t || t->type != BC_JSON_OBJECT)
		fail_msg("iterations[%zu].bpf_stats[%zu]: expected an object or null", i, p);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!bc_json_get(t, keys[k]))
			fail_msg("iterations[%zu].bpf_stats[%zu] has no '%s'", i, p, keys[k]);
}

static void test_json_keys(void **state)
{
	const char *args[] = { "run", "ringbuf:rb-custom", "-w1", "-d2", "--bpf-stats", NULL };
	const struct bc_json *iters, *progs, *sum, *p0;
	struct bc_test_run r;
	struct bc_json *doc;
	size_t i, p, prog_cnt;

	(void)state;
	doc = bc_test_run_json(&r, args);
	assert_true(bc_json_bool(bc_json_get(bc_json_get(doc, "config"), "bpf_stats"), false));
	progs = bc_json_get(doc, "programs");
	prog_cnt = bc_json_len(progs);
	assert_true(prog_cnt >= 1);
	iters = bc_json_get(doc, "iterations");
	assert_int_equal(bc_json_len(iters), 3);
	for (i = 0; i < bc_json_len(iters); i++) {
		const struct bc_json *ticks = bc_json_get(bc_json_at(iters, i), "bpf_stats");

		if (!ticks || ticks->type != BC_JSON_ARRAY || bc_json_len(ticks) != prog_cnt) {
			bc_test_dump("rb-custom --bpf-stats", &r);
			fail_msg("iterations[%zu].bpf_stats: expected an array of %zu", i, prog_cnt);
		}
		for (p = 0; p < prog_cnt; p++)
			check_tick(bc_json_at(ticks, p), i, p);
	}
	sum = bc_json_get(bc_json_get(doc, "summary"), "bpf_stats");
	assert_non_null(sum);
	assert_non_null(bc_json_get(bc_json_get(sum, "producer_time_pct"), "value"));
	assert_int_equal(bc_json_len(bc_json_get(sum, "programs")), prog_cnt);
	p0 = bc_json_at(bc_json_get(sum, "programs"), 0);
	if (!(bc_json_num(bc_json_get(p0, "run_cnt"), 0) > 0) ||
	    !(bc_json_num(bc_json_get(bc_json_get(p0, "runs_per_sec"), "mean"), 0) > 0) ||
	    !(bc_json_num(bc_json_get(bc_json_get(p0, "ns_per_run"), "value"), 0) > 0)) {
		bc_test_dump("rb-custom --bpf-stats", &r);
		fail_msg("the producer program ran no measured time");
	}
	assert_string_equal(bc_json_str(bc_json_get(p0, "name")),
			    bc_json_str(bc_json_get(bc_json_at(progs, 0), "name")));
	bc_json_free(doc);
	bc_test_run_free(&r);
}

/* ------------------------------------------------ in-process lifecycle */

/* A benchmark built here: its producer runs a two-instruction raw_tp
 * program through BPF_PROG_TEST_RUN, which the kernel counts like any run. */
static struct {
	int prog_fd;
	int on_in_setup, on_in_teardown;
	struct bc_line_counter *runs;
} lc;

static int lc_setup(struct bc_ctx *ctx)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	lc.on_in_setup = bc_bpf_stats_probe();
	lc.runs = bc_line_counters_alloc(1);
	if (!lc.runs)
		return -ENOMEM;
	lc.prog_fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "bc_stats_lc", "GPL", ret0, 2,
				   NULL);
	if (lc.prog_fd < 0)
		return bc_error(ctx, lc.prog_fd, "loading the test program: %s",
				strerror(-lc.prog_fd));
	return bc_ctx_add_prog(ctx, lc.prog_fd, "measured");
}

static void lc_teardown(struct bc_ctx *ctx)
{
	(void)ctx;
	lc.on_in_teardown = bc_bpf_stats_probe();
	if (lc.prog_fd >= 0)
		close(lc.prog_fd);
	lc.prog_fd = -1;
	free(lc.runs);
	lc.runs = NULL;
}

static int lc_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	while (!bc_thread_should_stop(t)) {
		err = bpf_prog_test_run_opts(lc.prog_fd, &opts);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN: %s", strerror(-err));
		__atomic_add_fetch(&lc.runs[0].value, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int lc_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = (double)bc_line_counters_sum(lc.runs, 1);
	return 0;
}

static const struct bc_metric_desc lc_metrics[] = {
	BC_METRIC("hits", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
};

static void test_lifecycle_in_process(void **state)
{
	struct bc_bench b = {
		.desc = {
			.sz = sizeof(struct bc_bench_desc),
			.name = "bpf-stats-lifecycle",
			.producers = { .min = 1, .max = 1, .def = 1 },
			.metric_cnt = 1,
			.metrics = lc_metrics,
			.setup = lc_setup,
			.producer = lc_producer,
			.measure = lc_measure,
			.teardown = lc_teardown,
		},
		.metrics = (struct bc_metric_desc *)lc_metrics,
	};
	struct bc_run_result res;
	struct bc_config cfg;
	bool res_already;
	int after;

	(void)state;
	memset(&lc, 0, sizeof(lc));
	lc.prog_fd = -1;
	bc_config_init(&cfg);
	cfg.warmup_sec = 0;
	cfg.duration_sec = 1;
	cfg.bpf_stats = true;
	if (bc_run(&cfg, &b, &res, NULL, NULL)) {
		fprintf(stderr, "bc_run: %s\n", res.reason);
		bc_run_result_free(&res);
		fail_msg("the in-process run failed");
	}
	after = bc_bpf_stats_probe();
	assert_non_null(res.bpf);
	assert_int_equal(res.bpf->fd, -1);
	assert_int_equal(res.bpf->prog_cnt, 1);
	assert_true(res.bpf->progs[0].run_cnt > 0);
	assert_true(res.bpf->progs[0].ns_per_run_value > 0);
	assert_true(res.bpf->progs[0].prod_pct_value > 0);
	res_already = res.bpf->already;
	bc_run_result_free(&res);
	if (on_before != 0) {
		printf("note: the statistics were on (%d) before this test; whether the run gave "
		       "them back cannot be told\n", on_before);
		return;
	}
	assert_false(res_already);
	if (lc.on_in_setup != 1 || lc.on_in_teardown != 1)
		fail_msg("the statistics were %d in setup() and %d in teardown(), expected on (1) "
			 "in both", lc.on_in_setup, lc.on_in_teardown);
	if (after != 0)
		fail_msg("the statistics are %d after bc_run() returned, expected off (0)", after);
}

/* Runs `setpriv` without CAP_SYS_ADMIN around benchcore; 127: no setpriv. */
static void run_without_sys_admin(struct bc_test_run *r, const char *const *args)
{
	const char *argv[32] = { "setpriv", "--inh-caps=-sys_admin", "--bounding-set=-sys_admin",
				 BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR };
	struct bc_test_child c;
	size_t n = 6;

	while (*args && n < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, r, 120);
}

static void test_no_capability(void **state)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--bpf-stats", NULL };
	struct bc_test_run r;

	(void)state;
	memset(&r, 0, sizeof(r));
	run_without_sys_admin(&r, args);
	if (r.status == 127) {
		printf("skipped: test_no_capability needs setpriv (util-linux) to drop "
		       "CAP_SYS_ADMIN\n");
		bc_test_run_free(&r);
		skip();
	}
	/* Someone else holds the statistics: said, and read. */
	if (r.status == 0 && strstr(r.err, "already on")) {
		printf("note: the statistics were on already, so the refusal was not seen\n");
	} else if (r.status != BC_TEST_EXIT_UNAVAILABLE || !strstr(r.err, "CAP_SYS_ADMIN") ||
		   !strstr(r.err, "--bpf-stats")) {
		bc_test_dump("trig-rawtp --bpf-stats without CAP_SYS_ADMIN", &r);
		fail_msg("expected exit status %d and one line naming --bpf-stats and CAP_SYS_ADMIN",
			 BC_TEST_EXIT_UNAVAILABLE);
	} else if (strstr(r.out, "Program ")) {
		bc_test_dump("trig-rawtp --bpf-stats without CAP_SYS_ADMIN", &r);
		fail_msg("a refused run measured something");
	}
	bc_test_run_free(&r);
}

/* This process holds the statistics: a run says they were on, reads them,
 * and needs no CAP_SYS_ADMIN of its own. */
static void test_held_elsewhere(void **state)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--bpf-stats", "--format",
			       "json", NULL };
	const struct bc_json *sum;
	struct bc_test_run r;
	struct bc_json *doc;
	int fd;

	(void)state;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	assert_true(fd >= 0);
	assert_int_equal(bc_bpf_stats_probe(), 1);

	bc_test_run_benchcore(&r, args);
	doc = r.status == 0 ? bc_json_parse(r.out, strlen(r.out), NULL, 0) : NULL;
	sum = bc_json_get(bc_json_get(doc, "summary"), "bpf_stats");
	if (!doc || !strstr(r.err, "already on") ||
	    !bc_json_bool(bc_json_get(sum, "already_enabled"), false) ||
	    !(bc_json_num(bc_json_get(bc_json_at(bc_json_get(sum, "programs"), 0), "run_cnt"), 0) > 0)) {
		bc_test_dump("trig-rawtp --bpf-stats, statistics held by the test", &r);
		fail_msg("expected exit status 0, a line saying they were already on, "
			 "summary.bpf_stats.already_enabled and runs > 0");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);

	memset(&r, 0, sizeof(r));
	run_without_sys_admin(&r, args);
	if (r.status == 127) {
		printf("note: no setpriv (util-linux): the run without CAP_SYS_ADMIN is left out\n");
	} else if (r.status == BC_TEST_EXIT_UNAVAILABLE && strstr(r.err, "unavailable on this kernel") &&
		   bc_test_kernel_raw_tp_without_sys_admin() < 0) {
		/* Debian's 6.1 refuses raw_tp programs without CAP_SYS_ADMIN
		 * (EINVAL): the case needs a kernel that loads them, and the
		 * kernel itself, asked without benchcore, said it does not. */
		printf("note: this kernel refuses trig-rawtp without CAP_SYS_ADMIN (%s); the run "
		       "without it is left out\n", strtok(r.err, "\n"));
	} else if (r.status != 0 || !strstr(r.err, "cannot hold") || !strstr(r.err, "already on")) {
		bc_test_dump("trig-rawtp --bpf-stats without CAP_SYS_ADMIN, held by the test", &r);
		fail_msg("expected exit status 0 and a line saying the statistics are on anyway");
	}
	bc_test_run_free(&r);
	close(fd);
}

static void test_no_programs(void **state)
{
	const char *args[] = { "run", "count:count-local", "-w0", "-d1", "--bpf-stats", NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0 || !strstr(r.err, "declares no BPF programs") ||
	    strstr(r.out, "Program ")) {
		bc_test_dump("count-local --bpf-stats", &r);
		fail_msg("expected exit status 0, one line saying there are no programs, and no "
			 "Program line");
	}
	bc_test_run_free(&r);
}

static void test_sweep(void **state)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--sweep",
			       "bpf-stats=off,on", NULL };
	const struct bc_json *runs, *off, *on, *p0;
	struct bc_test_run r;
	struct bc_json *doc;

	(void)state;
	doc = bc_test_run_json(&r, args);
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 2);
	off = bc_json_get(bc_json_at(runs, 0), "result");
	on = bc_json_get(bc_json_at(runs, 1), "result");
	assert_false(bc_json_bool(bc_json_get(bc_json_get(off, "config"), "bpf_stats"), true));
	assert_null(bc_json_get(bc_json_get(off, "summary"), "bpf_stats"));
	assert_true(bc_json_bool(bc_json_get(bc_json_get(on, "config"), "bpf_stats"), false));
	p0 = bc_json_at(bc_json_get(bc_json_get(bc_json_get(on, "summary"), "bpf_stats"),
				    "programs"), 0);
	if (!(bc_json_num(bc_json_get(p0, "run_cnt"), 0) > 0)) {
		bc_test_dump("trig-rawtp --sweep bpf-stats=off,on", &r);
		fail_msg("the swept --bpf-stats row has no program runs");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lifecycle_in_process),
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_no_capability),
		cmocka_unit_test(test_held_elsewhere),
		cmocka_unit_test(test_no_programs),
		cmocka_unit_test(test_sweep),
	};
	int skip = bc_test_bpf_skip("bpf_stats_run");

	if (skip)
		return skip;
	on_before = bc_bpf_stats_probe();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
