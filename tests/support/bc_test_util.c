// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_util.h"
#include "bc_test_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

char *bc_test_slurp_fd(int fd)
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
	assert_true(n == 0);	/* end of file, not a read error */
	buf[len] = '\0';
	return buf;
}

char *bc_test_read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	char *text;

	if (fd < 0)
		return NULL;
	text = bc_test_slurp_fd(fd);
	close(fd);
	return text;
}

void bc_test_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

void bc_test_copy_executable(const char *src, const char *dst)
{
	char buf[65536];
	ssize_t n;
	int in = open(src, O_RDONLY), out;

	if (in < 0)
		fail_msg("%s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	close(in);
	/* open()'s mode is masked by the umask; the loader wants 0755. */
	assert_int_equal(fchmod(out, 0755), 0);
	close(out);
}

int bc_test_scratch_make(const char *prefix, char *root, char *plugins, char *work,
			 const char *const *plugin_files)
{
	char dst[PATH_MAX];
	const char *base;

	assert_true(snprintf(root, PATH_MAX, "%s-XXXXXX", prefix) < PATH_MAX);
	if (!mkdtemp(root))
		return -1;
	/* The loader refuses plugins in directories others may write. */
	chmod(root, 0755);
	assert_true(snprintf(plugins, PATH_MAX, "%s/plugins", root) < PATH_MAX);
	assert_true(snprintf(work, PATH_MAX, "%s/work", root) < PATH_MAX);
	if (mkdir(plugins, 0755) || chmod(plugins, 0755) || mkdir(work, 0755))
		return -1;
	for (; *plugin_files; plugin_files++) {
		base = strrchr(*plugin_files, '/');
		base = base ? base + 1 : *plugin_files;
		assert_true(snprintf(dst, sizeof(dst), "%s/%s", plugins, base) < (int)sizeof(dst));
		bc_test_copy_executable(*plugin_files, dst);
	}
	return chdir(work) ? -1 : 0;
}

int bc_test_store_scratch(char *root, size_t len, const char *build_dir, const char *name)
{
	assert_true(snprintf(root, len, "%s/tests/%s-XXXXXX", build_dir, name) < (int)len);
	if (!mkdtemp(root) || chmod(root, 0755)) {
		fprintf(stderr, "%s: setup: cannot make %s: %s\n", name, root, strerror(errno));
		return -1;
	}
	/* nothing here may touch the user's own store */
	setenv("BENCHCORE_STORE", "/nonexistent/benchcore-test-must-not-use.db", 1);
	return 0;
}

int bc_test_scratch_remove(const char *root)
{
	char cmd[PATH_MAX + 32];

	if (chdir("/"))
		return -1;
	assert_true(snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root) < (int)sizeof(cmd));
	return system(cmd) == 0 ? 0 : -1;
}

/* An unlinked temporary file: gone with its last fd. */
static int tmp_fd(void)
{
	char path[] = "/tmp/bc-test-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

void bc_test_run_benchcore(struct bc_test_run *r, const char *const *args)
{
	const char *argv[40] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR };
	const size_t max = sizeof(argv) / sizeof(argv[0]) - 1;
	int out_fd = tmp_fd(), err_fd = tmp_fd();
	size_t n = 3;
	pid_t pid;
	int st;

	while (*args && n < max)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out_fd, STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r->pid = pid;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = bc_test_slurp_fd(out_fd);
	r->err = bc_test_slurp_fd(err_fd);
	close(out_fd);
	close(err_fd);
}

void bc_test_run_free(struct bc_test_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int bc_test_bpf_skip(const char *why)
{
	int err;

	if (geteuid() != 0) {
		printf("skipped: %s loads BPF programs and needs root\n", why);
		return BC_TEST_SKIP;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		printf("skipped: %s needs kernel BTF at /sys/kernel/btf/vmlinux\n", why);
		return BC_TEST_SKIP;
	}
	/* Root is not enough where BPF is locked down (a sysctl, an LSM, a
	 * container's seccomp): a trivial program says so, and the test
	 * skips saying why instead of failing on every run. Our machines
	 * load it, so their BPF tests run. */
	err = bc_test_kernel_bpf();
	if (err) {
		printf("skipped: %s loads BPF programs, and this kernel refuses even a trivial "
		       "raw_tp program: %s\n", why, strerror(-err));
		return BC_TEST_SKIP;
	}
	return 0;
}

bool bc_test_short_skip(const char *what)
{
	const char *v = getenv("BENCHCORE_TEST_SHORT");

	if (!v || !*v || !strcmp(v, "0"))
		return false;
	printf("skipped: %s: BENCHCORE_TEST_SHORT is set (an emulated kernel-matrix guest); "
	       "the native suite runs it\n", what);
	return true;
}

unsigned int bc_test_count_progs(bc_test_prog_filter filter, const void *arg,
				 unsigned int *total)
{
	unsigned int ours = 0, all = 0;
	__u32 id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* unloaded meanwhile */
		all++;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && filter(fd, &info, arg))
			ours++;
		close(fd);
	}
	if (total)
		*total = all;
	return ours;
}

unsigned int bc_test_count_maps(bc_test_map_filter filter, const void *arg,
				unsigned int *total)
{
	unsigned int ours = 0, all = 0;
	__u32 id = 0;

	while (!bpf_map_get_next_id(id, &id)) {
		struct bpf_map_info info;
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* freed meanwhile */
		all++;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && filter(fd, &info, arg))
			ours++;
		close(fd);
	}
	if (total)
		*total = all;
	return ours;
}

bool bc_test_prog_has_map(int prog_fd, bc_test_map_filter filter, const void *arg)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info), ids[64], i;

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	info.map_ids = (__u64)(uintptr_t)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return false;
	for (i = 0; i < info.nr_map_ids && i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct bpf_map_info mi;
		__u32 mlen = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(ids[i]);
		bool ours;

		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		ours = !bpf_obj_get_info_by_fd(fd, &mi, &mlen) && filter(fd, &mi, arg);
		close(fd);
		if (ours)
			return true;
	}
	return false;
}

/* The ids of the loaded programs the filter accepts (malloc'ed). */
static __u32 *matching_prog_ids(bc_test_prog_filter filter, const void *arg, unsigned int *cnt,
				unsigned int *total)
{
	unsigned int cap = 16, n = 0, all = 0;
	__u32 id = 0, *ids = malloc(cap * sizeof(*ids));

	assert_non_null(ids);
	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);
		bool ours;

		if (fd < 0)
			continue;	/* unloaded meanwhile */
		all++;
		memset(&info, 0, sizeof(info));
		ours = !bpf_obj_get_info_by_fd(fd, &info, &len) && filter(fd, &info, arg);
		close(fd);
		if (!ours)
			continue;
		if (n == cap) {
			cap *= 2;
			ids = realloc(ids, cap * sizeof(*ids));
			assert_non_null(ids);
		}
		ids[n++] = id;
	}
	*cnt = n;
	if (total)
		*total = all;
	return ids;
}

/* How many of ids are still loaded (an id is never reused while its
 * program lives, and bpf_prog_get_fd_by_id() fails once it is freed). */
static unsigned int alive_prog_ids(const __u32 *ids, unsigned int cnt)
{
	unsigned int alive = 0;

	for (unsigned int i = 0; i < cnt; i++) {
		int fd = bpf_prog_get_fd_by_id(ids[i]);

		if (fd >= 0) {
			alive++;
			close(fd);
		}
	}
	return alive;
}

unsigned int bc_test_wait_progs(bc_test_prog_filter filter, const void *arg, unsigned int max,
				unsigned int *total)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	const long long bound_ns = BC_TEST_WAIT_PROGS_SEC * 1000000000LL;
	long long waited = 0;
	unsigned int cnt, n;
	__u32 *ids;

	/*
	 * Waits on the programs loaded now, by id: a program another process
	 * loads meanwhile (another engineer's run of the same plugin) is not
	 * one the run under test left behind, and must not keep the census
	 * from reaching its bound. A real leak stays loaded for the whole
	 * (generous) bound.
	 */
	ids = matching_prog_ids(filter, arg, &cnt, total);
	n = cnt;
	while (n > max && waited < bound_ns) {
		nanosleep(&nap, NULL);
		waited += nap.tv_nsec;
		if (nap.tv_nsec < 500 * 1000 * 1000)
			nap.tv_nsec *= 2;
		n = alive_prog_ids(ids, cnt);
	}
	free(ids);
	return n;
}
