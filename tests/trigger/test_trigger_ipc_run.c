// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The trigger plugin's record-passing baselines through the real benchcore
 * binary: trig-user-ringbuf-timer and trig-user-ringbuf-syscall (BPF drains
 * a user ring buffer), trig-unix-socket, trig-shared-memory and
 * trig-shared-memory-eventfd (no BPF). Each runs for one second (-w0 -d1)
 * with hits > 0 and names where its records go; the timer one prints the
 * runner's own lines; the user ring buffer ones are unavailable, with the
 * reason, where the kernel has no user ring buffers; bad values exit with
 * status 2 naming the option; nothing of ours stays loaded. No timing is
 * asserted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bc_test_report.h"

/* The object's programs and maps: trig_urb_*. */
static const char *const ours[] = { "trig_urb_", NULL };

/* The kernel's answer, asked directly: can it create a user ring buffer? */
static bool kernel_user_ringbuf(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, "bc_tt_urb", 0, 0, 4096, NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool have_urb;

static struct bc_json *run_ok(struct bc_test_run *r, const char *bench, const char *const *extra)
{
	const char *args[16] = { "run", bench, "-w0", "-d1" };
	size_t n = 4;

	while (extra && *extra && n < 15)
		args[n++] = *extra++;
	args[n] = NULL;
	return bc_test_run_json(r, args);
}

/* hits > 0, drops counted (a number), the attach point as given. */
static void check_hits(const char *bench, const char *const *extra, const char *point_prefix)
{
	struct bc_test_run r;
	struct bc_json *doc = run_ok(&r, bench, extra);
	double hits = bc_test_summary_mean(doc, "hits");
	double drops = bc_test_summary_mean(doc, "drops");

	if (!(hits > 0) || drops < 0) {
		bc_test_dump(bench, &r);
		fail_msg("%s: hits %.0f/s, drops %.0f/s: expected hits > 0", bench, hits, drops);
	}
	if (point_prefix) {
		const char *pt = bc_test_attach_point(doc);

		if (strncmp(pt, point_prefix, strlen(point_prefix))) {
			bc_test_dump(bench, &r);
			fail_msg("%s: attach point '%s', expected '%s...'", bench, pt,
				 point_prefix);
		}
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void check_unavailable(const char *bench)
{
	const char *args[] = { "run", bench, "-w0", "-d1", NULL };
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_UNAVAILABLE || !strstr(r.err, "user ring buffer")) {
		bc_test_dump(bench, &r);
		fail_msg("%s: expected exit status %d naming user ring buffers", bench,
			 BC_TEST_EXIT_UNAVAILABLE);
	}
	bc_test_run_free(&r);
}

static void test_user_ringbuf_timer(void **state)
{
	const char *fast[] = { "--user-rb-timer-ns", "100000", "--user-rb-size", "8192", NULL };
	const char *args[] = { "run", "trigger:trig-user-ringbuf-timer", "-w0", "-d1", NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	const char *sum;

	(void)state;
	if (!have_urb) {
		check_unavailable("trigger:trig-user-ringbuf-timer");
		return;
	}
	check_hits("trigger:trig-user-ringbuf-timer", NULL, "none (a bpf_timer drains");
	/* The options reach the kernel: a faster timer fires, a larger ring
	 * loads. Fires are counted beside the records. */
	doc = run_ok(&r, "trigger:trig-user-ringbuf-timer", fast);
	if (!(bc_test_summary_mean(doc, "timer_fires") > 0) ||
	    !strstr(bc_test_attach_point(doc), "every 100000 ns")) {
		bc_test_dump("--user-rb-timer-ns 100000", &r);
		fail_msg("trig-user-ringbuf-timer: no timer fires, or not every 100000 ns");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);

	/* Text: the runner's own lines, ending with the timer's rate. */
	bc_test_run_benchcore(&r, args);
	sum = strstr(r.out, "Summary: hits ");
	if (r.status != 0 || !sum || !strstr(sum, ", drops ") ||
	    !strstr(sum, "M/s, timer-fires ") || !strstr(r.out, "timer-fires")) {
		bc_test_dump("trig-user-ringbuf-timer (text)", &r);
		fail_msg("trig-user-ringbuf-timer: expected the runner's hits/drops/timer-fires "
			 "Summary line");
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "trig-user-ringbuf-timer runs");
}

static void test_user_ringbuf_syscall(void **state)
{
	struct bc_test_run r;
	struct bc_json *doc;
	const char *pt;

	(void)state;
	if (!have_urb) {
		check_unavailable("trigger:trig-user-ringbuf-syscall");
		return;
	}
	doc = run_ok(&r, "trigger:trig-user-ringbuf-syscall", NULL);
	pt = bc_test_attach_point(doc);
	/* The runner's ksyscall where the kernel has kprobes, else the
	 * syscall's tracepoint or raw sys_enter. */
	if (!(bc_test_summary_mean(doc, "hits") > 0) ||
	    (strncmp(pt, "kprobe/", 7) && strcmp(pt, "tp/syscalls/sys_enter_getppid") &&
	     strncmp(pt, "raw_tp/sys_enter", 16))) {
		bc_test_dump("trig-user-ringbuf-syscall", &r);
		fail_msg("trig-user-ringbuf-syscall: no hits, or attach point '%s' is not one of "
			 "the getppid candidates", pt);
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "a trig-user-ringbuf-syscall run");
}

static void test_unix_socket(void **state)
{
	(void)state;
	check_hits("trigger:trig-unix-socket", NULL, "none (no BPF: a Unix stream socket");
}

static void test_shared_memory(void **state)
{
	const char *small[] = { "--shared-mem-size", "4096", "--shared-mem-event-size", "8", NULL };

	(void)state;
	check_hits("trigger:trig-shared-memory", NULL,
		   "none (no BPF: a ring in shared memory, the consumer spinning");
	check_hits("trigger:trig-shared-memory", small, NULL);
	check_hits("trigger:trig-shared-memory-eventfd", NULL,
		   "none (no BPF: a ring in shared memory, the consumer woken");
	check_hits("trigger:trig-shared-memory-eventfd", small, NULL);
}

static void expect_usage(const char *const *args, const char *needle)
{
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE || !strstr(r.err, needle)) {
		bc_test_dump(args[1], &r);
		fail_msg("expected exit status %d and '%s' on stderr", BC_TEST_EXIT_USAGE, needle);
	}
	bc_test_run_free(&r);
}

static void test_bad_values(void **state)
{
	const char *rb3[] = { "run", "trigger:trig-user-ringbuf-timer", "-w0", "-d1",
			      "--user-rb-size", "12288", NULL };
	const char *rbsmall[] = { "run", "trigger:trig-user-ringbuf-syscall", "-w0", "-d1",
				  "--user-rb-size", "64", NULL };
	const char *ns0[] = { "run", "trigger:trig-user-ringbuf-timer", "-w0", "-d1",
			      "--user-rb-timer-ns", "0", NULL };
	const char *shm[] = { "run", "trigger:trig-shared-memory", "-w0", "-d1",
			      "--shared-mem-size", "5000", NULL };
	const char *ev[] = { "run", "trigger:trig-shared-memory-eventfd", "-w0", "-d1",
			     "--shared-mem-event-size", "4", NULL };
	const char *big[] = { "run", "trigger:trig-shared-memory", "-w0", "-d1",
			      "--shared-mem-size", "4096", "--shared-mem-event-size", "8192",
			      NULL };
	const char *p2[] = { "run", "trigger:trig-user-ringbuf-timer", "-w0", "-d1", "-p2", NULL };
	const char *c0[] = { "run", "trigger:trig-unix-socket", "-w0", "-d1", "-c0", NULL };

	(void)state;
	expect_usage(rb3, "--user-rb-size '12288'");
	expect_usage(rbsmall, "--user-rb-size '64'");
	expect_usage(ns0, "--user-rb-timer-ns '0'");
	expect_usage(shm, "--shared-mem-size '5000'");
	expect_usage(ev, "--shared-mem-event-size '4'");
	expect_usage(big, "--shared-mem-event-size 8192");
	expect_usage(p2, "--producers");
	expect_usage(c0, "--consumers");
	bc_test_assert_none_loaded(ours, "refused runs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_ringbuf_timer),
		cmocka_unit_test(test_user_ringbuf_syscall),
		cmocka_unit_test(test_unix_socket),
		cmocka_unit_test(test_shared_memory),
		cmocka_unit_test(test_bad_values),
	};
	int skip = bc_test_bpf_skip("trigger_ipc_run");

	if (skip)
		return skip;
	libbpf_set_print(NULL);
	have_urb = kernel_user_ringbuf();
	fprintf(stderr, "# kernel: user ring buffer maps %s\n", have_urb ? "created" : "refused");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
