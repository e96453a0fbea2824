// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The rename plugin through the real benchcore binary:
 *  - rename-base and rename-rawtp run for a second (-w0) and count renames;
 *  - the attached program really runs: with the kernel's BPF statistics on
 *    (BPF_ENABLE_STATS, held by this test while benchcore runs) the
 *    rn_rawtp program's run count grows during the run;
 *  - kprobe, kretprobe, fentry and fexit run where this kernel has them
 *    (asked directly, not through the plugin) and otherwise exit 3 naming
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
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bc_test_report.h"
#include "json_read.h"

static const char *const ours[] = { "rn_", "rename_b.", NULL };

/* ------------------------------------------- what the kernel says, asked directly */

static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static bool kernel_has_fentry(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id, fd;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "__set_task_comm", BTF_KIND_FUNC);
	btf__free(btf);
	if (id < 0)
		return false;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (__u32)id);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bc_rt_fentry", "GPL", ret0, 2, &opts);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool kernel_has_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe", F_OK) == 0 ||
	       access("/sys/kernel/tracing/kprobe_events", F_OK) == 0;
}

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

static void test_kprobes(void **state)
{
	bool has = kernel_has_kprobes();

	(void)state;
	check_variant("rename:rename-kprobe", "kprobe/__set_task_comm", has);
	check_variant("rename:rename-kretprobe", "kretprobe/__set_task_comm", has);
}

static void test_trampolines(void **state)
{
	bool has = kernel_has_fentry();

	(void)state;
	check_variant("rename:rename-fentry", "fentry/__set_task_comm", has);
	check_variant("rename:rename-fexit", "fexit/__set_task_comm", has);
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
