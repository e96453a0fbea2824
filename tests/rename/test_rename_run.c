// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The rename plugin through the real benchcore binary:
 *  - rename-base and rename-rawtp run for a second (-w0) and count renames;
 *  - the attached program really runs: with the kernel's BPF statistics on
 *    (BPF_ENABLE_STATS, held by this test while benchcore runs) the
 *    rn_rawtp program's run count grows during the run;
 *  - kprobe, kretprobe, fentry and fexit run where this kernel attaches
 *    them (asked directly, not through the plugin) and otherwise exit 3 naming
 *    their attach point; nothing is substituted;
 *  - more than one producer is a usage error (status 2);
 *  - no program or map of the plugin stays loaded.
 * No timing is asserted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bc_test_kernel.h"
#include "bc_test_report.h"
#include "json_read.h"

static const char *const ours[] = { "rn_", "rename_b.", NULL };

/* ------------------------------------------------------------ runs */

static void check_renames(const char *bench, const char *point)
{
	const char *args[] = { "run", bench, "-w0", "-d1", NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double hits;

	doc = bc_test_run_json(&r, args);
	hits = bc_test_summary_mean(doc, "hits");
	if (!(hits > 0)) {
		bc_test_dump(bench, &r);
		fail_msg("%s: %.0f renames/s, expected > 0", bench, hits);
	}
	if (strcmp(bc_test_attach_point(doc), point))
		fail_msg("%s: attach point '%s', expected '%s'", bench,
			 bc_test_attach_point(doc), point);
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, bench);
}

static void check_unavailable(const char *bench, const char *point)
{
	const char *args[] = { "run", bench, "-w0", "-d1", NULL };
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_UNAVAILABLE || !strstr(r.err, point)) {
		bc_test_dump(bench, &r);
		fail_msg("%s: expected exit status %d with a reason naming %s", bench,
			 BC_TEST_EXIT_UNAVAILABLE, point);
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, bench);
}

static void check_variant(const char *bench, const char *point, bool available)
{
	if (available)
		check_renames(bench, point);
	else
		check_unavailable(bench, point);
}

static void test_base(void **state)
{
	(void)state;
	check_renames("rename:rename-base", "none (renames only, no BPF program)");
}

static void test_rawtp(void **state)
{
	(void)state;
	check_renames("rename:rename-rawtp", "raw_tp/task_rename");
}

/* Asked with hand-written programs (tests/support/bc_test_kernel.c), on the
 * plugin's own function: loaded AND attached, as the plugin needs. */
static void test_kprobes(void **state)
{
	bool has = bc_test_kernel_kprobe("__set_task_comm") == 0;

	(void)state;
	check_variant("rename:rename-kprobe", "kprobe/__set_task_comm", has);
	check_variant("rename:rename-kretprobe", "kretprobe/__set_task_comm", has);
}

static void test_trampolines(void **state)
{
	(void)state;
	check_variant("rename:rename-fentry", "fentry/__set_task_comm",
		      bc_test_kernel_trampoline(BPF_TRACE_FENTRY, "__set_task_comm") == 0);
	check_variant("rename:rename-fexit", "fexit/__set_task_comm",
		      bc_test_kernel_trampoline(BPF_TRACE_FEXIT, "__set_task_comm") == 0);
}

/* The highest run count of any loaded rn_rawtp program, 0 if none. */
static __u64 rawtp_run_cnt(void)
{
	__u64 best = 0;
	__u32 id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "rn_rawtp") &&
		    info.run_cnt > best)
			best = info.run_cnt;
		close(fd);
	}
	return best;
}

static void test_program_runs(void **state)
{
	const struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	const char *argv[] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR, "run",
			       "rename:rename-rawtp", "-w0", "-d2", "-q", NULL };
	__u64 seen = 0;
	int stats_fd, st = 0;
	pid_t pid;

	(void)state;
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &st, WNOHANG) == 0) {
		__u64 n = rawtp_run_cnt();

		if (n > seen)
			seen = n;
		nanosleep(&nap, NULL);
	}
	close(stats_fd);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!seen)
		fail_msg("rn_rawtp never ran while rename-rawtp renamed its thread");
	bc_test_assert_none_loaded(ours, "rename-rawtp");
}

static void test_one_producer(void **state)
{
	const char *args[] = { "run", "rename:rename-base", "-w0", "-d1", "-p2", NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE) {
		bc_test_dump("rename-base -p2", &r);
		fail_msg("-p2: expected exit status %d", BC_TEST_EXIT_USAGE);
	}
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base),
		cmocka_unit_test(test_rawtp),
		cmocka_unit_test(test_program_runs),
		cmocka_unit_test(test_kprobes),
		cmocka_unit_test(test_trampolines),
		cmocka_unit_test(test_one_producer),
	};
	int skip = bc_test_bpf_skip("rename_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
