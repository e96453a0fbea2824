// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The ringbuf plugin through the real benchcore binary: rb-libbpf and
 * rb-custom in the default, --rb-sampled and --rb-b2b modes for one second
 * each (-w0 -d1 --format json). What must hold: records are consumed
 * (hits > 0), back-to-back drops nothing, the JSON names the attach point
 * and stderr says it, and no ringbuf program is left loaded afterwards.
 * Bad option values exit with status 2 and name the value.
 *
 * Other engineers load BPF programs on this machine while we run, so the
 * before/after count is of programs that use a map named "ringbuf" (ours);
 * the system-wide count is printed for information only.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <bpf/bpf.h>

#include "json.h"

struct child {
	int status;
	char *out;
	char *err;
};

static char *read_all(int fd)
{
	size_t cap = 8192, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

static int anon_file(void)
{
	char path[] = "/tmp/bc-ringbuf-test-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

/* benchcore --plugin-dir <build>/plugins ARGS...; stdout and stderr go to
 * files so that a chatty child never blocks on a pipe. */
static void run(struct child *c, const char *const *args)
{
	const char *argv[40] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR };
	int out = anon_file(), err = anon_file();
	size_t n = 3;
	pid_t pid;
	int st;

	while (*args && n < 39)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	c->out = read_all(out);
	c->err = read_all(err);
}

static void child_free(struct child *c)
{
	free(c->out);
	free(c->err);
}

static bool prog_uses_ringbuf_map(int prog_fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), ids[16], i;

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) || !info.nr_map_ids)
		return false;
	if (info.nr_map_ids > 16)
		info.nr_map_ids = 16;
	{
		struct bpf_prog_info again = { .nr_map_ids = info.nr_map_ids,
					       .map_ids = (__u64)(unsigned long)ids };

		len = sizeof(again);
		if (bpf_obj_get_info_by_fd(prog_fd, &again, &len))
			return false;
	}
	for (i = 0; i < info.nr_map_ids; i++) {
		struct bpf_map_info mi = { 0 };
		__u32 mlen = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(ids[i]);
		bool ours;

		if (fd < 0)
			continue;
		ours = !bpf_obj_get_info_by_fd(fd, &mi, &mlen) &&
		       mi.type == BPF_MAP_TYPE_RINGBUF && !strcmp(mi.name, "ringbuf");
		close(fd);
		if (ours)
			return true;
	}
	return false;
}

/* The bpf_prog_get_next_id walk: every program, and ours among them. */
static void count_progs(unsigned int *all, unsigned int *ours)
{
	__u32 id = 0;

	*all = *ours = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);

		(*all)++;
		if (fd < 0)
			continue;	/* unloaded meanwhile */
		if (prog_uses_ringbuf_map(fd))
			(*ours)++;
		close(fd);
	}
}

static double summary_mean(const struct bc_json *doc, const char *metric)
{
	const struct bc_json *m = bc_json_get(bc_json_get(doc, "summary"), metric);

	assert_non_null(m);
	return bc_json_num(bc_json_get(m, "mean"), -1);
}

static void run_mode(const char *bench, const char *mode, const char *mode2, bool b2b)
{
	const char *args[12] = { "run", bench, "-w0", "-d1", "--format", "json" };
	unsigned int all0, ours0, all1, ours1;
	const struct bc_json *ap;
	struct bc_json *doc;
	struct child c;
	char err[256];
	size_t n = 6;

	if (mode)
		args[n++] = mode;
	if (mode2)
		args[n++] = mode2;
	count_progs(&all0, &ours0);
	run(&c, args);
	count_progs(&all1, &ours1);
	if (c.status != 0)
		fail_msg("%s %s: exit %d\nstderr: %s", bench, mode ? mode : "", c.status, c.err);

	doc = bc_json_parse(c.out, strlen(c.out), err, sizeof(err));
	if (!doc)
		fail_msg("%s: JSON: %s\n%s", bench, err, c.out);
	assert_true(summary_mean(doc, "hits") > 0);
	if (b2b)
		assert_true(summary_mean(doc, "drops") == 0);
	ap = bc_json_get(doc, "attach_point");
	assert_non_null(bc_json_str(ap));
	/* fentry is refused on our machines, the tracepoint is not; elsewhere
	 * any candidate may win, but the report must name the one used. */
	assert_true(strstr(bc_json_str(ap), "getpgid") || strstr(bc_json_str(ap), "sys_enter"));
	assert_non_null(strstr(c.err, bc_json_str(ap)));
	print_message("%s %s %s: hits %.3f M/s, drops %.3f M/s at %s; programs %u -> %u "
		      "(ringbuf %u -> %u)\n", bench, mode ? mode : "", mode2 ? mode2 : "",
		      summary_mean(doc, "hits") / 1e6, summary_mean(doc, "drops") / 1e6,
		      bc_json_str(ap), all0, all1, ours0, ours1);
	assert_int_equal(ours1, ours0);
	bc_json_free(doc);
	child_free(&c);
}

static void test_libbpf_default(void **s) { (void)s; run_mode("ringbuf:rb-libbpf", NULL, NULL, false); }
static void test_libbpf_sampled(void **s) { (void)s; run_mode("ringbuf:rb-libbpf", "--rb-sampled", NULL, false); }
static void test_libbpf_b2b(void **s) { (void)s; run_mode("ringbuf:rb-libbpf", "--rb-b2b", NULL, true); }
static void test_custom_default(void **s) { (void)s; run_mode("ringbuf:rb-custom", NULL, NULL, false); }
static void test_custom_sampled(void **s) { (void)s; run_mode("ringbuf:rb-custom", "--rb-sampled", NULL, false); }
static void test_custom_b2b(void **s) { (void)s; run_mode("rb-custom", "--rb-b2b", NULL, true); }
static void test_custom_b2b_output(void **s) { (void)s; run_mode("ringbuf:rb-custom", "--rb-b2b", "--rb-use-output", true); }

static void expect_usage(const char *const *args, const char *needle)
{
	struct child c;

	run(&c, args);
	if (c.status != 2 || !strstr(c.err, needle))
		fail_msg("expected exit 2 and '%s'; got %d: %s", needle, c.status, c.err);
	child_free(&c);
}

static void test_bad_values(void **state)
{
	const char *b2b_two[] = { "run", "ringbuf:rb-libbpf", "-p2", "--rb-b2b", "-w0", "-d1", NULL };
	const char *batch0[] = { "run", "ringbuf:rb-custom", "--rb-batch-cnt", "0", NULL };
	const char *size[] = { "run", "ringbuf:rb-custom", "--rb-size", "1000", NULL };
	const char *two_cons[] = { "run", "ringbuf:rb-custom", "-c2", NULL };

	(void)state;
	expect_usage(b2b_two, "back-to-back mode needs exactly one producer");
	expect_usage(batch0, "--rb-batch-cnt '0'");
	expect_usage(size, "--rb-size '1000': expected a power of two");
	expect_usage(two_cons, "-c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libbpf_default),
		cmocka_unit_test(test_libbpf_sampled),
		cmocka_unit_test(test_libbpf_b2b),
		cmocka_unit_test(test_custom_default),
		cmocka_unit_test(test_custom_sampled),
		cmocka_unit_test(test_custom_b2b),
		cmocka_unit_test(test_custom_b2b_output),
		cmocka_unit_test(test_bad_values),
	};

	if (geteuid() != 0) {
		printf("skipped: loading BPF programs needs root\n");
		return 77;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		printf("skipped: no kernel BTF at /sys/kernel/btf/vmlinux\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
