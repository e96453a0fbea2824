// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_census.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include <bpf/btf.h>

#include "bc_test_util.h"

bool bc_test_map_u32_var(int map_fd, const struct bpf_map_info *info, const char *var,
			 __u32 *out)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec, *t;
	unsigned char *value = NULL;
	struct btf *btf = NULL;
	bool found = false;
	__u32 key = 0;
	int i;

	if (!info->btf_id || !info->btf_value_type_id || !info->value_size)
		return false;
	btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!btf)
		return false;
	sec = btf__type_by_id(btf, info->btf_value_type_id);
	if (!sec || !btf_is_datasec(sec))
		goto out;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		t = btf__type_by_id(btf, vs->type);
		if (!t || strcmp(btf__name_by_offset(btf, t->name_off), var))
			continue;
		if (vs->size != sizeof(*out) || vs->offset + vs->size > info->value_size)
			break;
		value = malloc(info->value_size);
		if (value && !bpf_map_lookup_elem(map_fd, &key, value)) {
			memcpy(out, value + vs->offset, sizeof(*out));
			found = true;
		}
		break;
	}
out:
	free(value);
	btf__free(btf);
	return found;
}

struct census_arg {
	const char *name;
	pid_t pid;
};

static bool census_map(int fd, const struct bpf_map_info *info, const void *arg)
{
	const struct census_arg *a = arg;
	__u32 tgid;

	if (strcmp(info->name, a->name) || !bc_test_map_u32_var(fd, info, "bc_tgid", &tgid))
		return false;
	return !a->pid || tgid == (__u32)a->pid;
}

static bool census_prog(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)info;
	return bc_test_prog_has_map(fd, census_map, arg);
}

unsigned int bc_test_wait_rodata_progs(const char *rodata_name, pid_t pid, unsigned int max,
				       unsigned int *total)
{
	struct census_arg a = { .name = rodata_name, .pid = pid };

	return bc_test_wait_progs(census_prog, &a, max, total);
}

static bool named_map(int fd, const struct bpf_map_info *info, const void *arg)
{
	(void)fd;
	return !strcmp(info->name, (const char *)arg);
}

unsigned int bc_test_wait_named_maps(const char *name, unsigned int max, unsigned int *total)
{
	const struct timespec nap = { .tv_nsec = 50 * 1000 * 1000 };
	unsigned int n = 0;
	int i;

	for (i = 0; i < 100; i++) {
		n = bc_test_count_maps(named_map, name, total);
		if (n <= max)
			break;
		nanosleep(&nap, NULL);
	}
	return n;
}

void bc_test_census_sees_run(const char *rodata_name, const char *const *args)
{
	const struct timespec nap = { .tv_nsec = 100 * 1000 * 1000 };
	const char *argv[40] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_PLUGIN_DIR };
	unsigned int seen = 0, total, left;
	bool reaped = false;
	size_t n = 3;
	int st = 0, i;
	pid_t pid;

	while (*args && n < 39)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	/* Setup may take a while (filling maps): up to 20 s. */
	for (i = 0; i < 200 && !seen; i++) {
		nanosleep(&nap, NULL);
		if (waitpid(pid, &st, WNOHANG) == pid) {
			reaped = true;
			break;
		}
		seen = bc_test_count_progs(census_prog,
					   &(struct census_arg){ .name = rodata_name, .pid = pid },
					   &total);
	}
	if (!reaped)
		assert_int_equal(waitpid(pid, &st, 0), pid);
	left = bc_test_wait_rodata_progs(rodata_name, pid, 0, &total);
	print_message("%s: %u program(s) of the run seen while it ran, %u left after\n",
		      rodata_name, seen, left);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(seen >= 1);
	assert_int_equal(left, 0);
}
