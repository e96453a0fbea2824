// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The htab_mem plugin's cgroup lookup, fed the lines of the hosts it must
 * handle: cgroup v1 with the memory controller in a hierarchy of its own or
 * shared, a hybrid host whose cgroup v2 has no controllers, a cgroup v2 only
 * host, and a cgroup namespace whose mount shows only part of a hierarchy.
 * No root, no cgroups touched.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "htab_memcg.h"

static const char *cgroup_path(const char *text, bool v2)
{
	static char line[512];
	const char *path = NULL;

	strcpy(line, text);
	return htab_memcg_cgroup_line(line, v2, &path) ? path : NULL;
}

static void test_cgroup_lines(void **state)
{
	(void)state;
	/* cgroup v2: hierarchy 0, no controllers. */
	assert_string_equal(cgroup_path("0::/\n", true), "/");
	assert_string_equal(cgroup_path("0::/user.slice/session-1.scope\n", true),
			    "/user.slice/session-1.scope");
	assert_null(cgroup_path("0::/\n", false));
	/* cgroup v1: the memory controller alone, or among others. */
	assert_string_equal(cgroup_path("4:memory:/process_api/abc\n", false), "/process_api/abc");
	assert_string_equal(cgroup_path("7:cpu,memory,pids:/a\n", false), "/a");
	assert_null(cgroup_path("4:memory:/process_api/abc\n", true));
	assert_null(cgroup_path("9:name=systemd:/\n", false));
	assert_null(cgroup_path("3:cpuset:/\n", false));
	/* A controller whose name starts like memory is not memory. */
	assert_null(cgroup_path("5:memory_x:/\n", false));
	assert_null(cgroup_path("garbage\n", true));
}

static void test_mount_lines(void **state)
{
	char root[PATH_MAX], mnt[PATH_MAX];

	(void)state;
	assert_true(htab_memcg_mount_line(
		"38 29 0:31 / /sys/fs/cgroup rw,relatime - cgroup2 none rw\n", true, root, mnt));
	assert_string_equal(root, "/");
	assert_string_equal(mnt, "/sys/fs/cgroup");
	assert_false(htab_memcg_mount_line(
		"38 29 0:31 / /sys/fs/cgroup rw,relatime - cgroup2 none rw\n", false, root, mnt));

	/* A hybrid host: v1 memory beside a controller-less cgroup2. */
	assert_true(htab_memcg_mount_line(
		"30 25 0:27 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n",
		false, root, mnt));
	assert_string_equal(mnt, "/sys/fs/cgroup/memory");
	assert_false(htab_memcg_mount_line(
		"31 25 0:28 / /sys/fs/cgroup/cpu rw,nosuid - cgroup cgroup rw,cpu\n", false, root,
		mnt));
	/* Optional fields before the separator. */
	assert_true(htab_memcg_mount_line(
		"32 25 0:29 /ns /mnt/mem rw shared:12 master:3 - cgroup cgroup rw,cpu,memory\n",
		false, root, mnt));
	assert_string_equal(root, "/ns");
	assert_string_equal(mnt, "/mnt/mem");
	assert_false(htab_memcg_mount_line("22 1 8:1 / / rw - ext4 /dev/vda rw\n", true, root, mnt));
}

static void test_join(void **state)
{
	char out[PATH_MAX];

	(void)state;
	assert_int_equal(htab_memcg_join_path(out, "/sys/fs/cgroup", "/", "/"), 0);
	assert_string_equal(out, "/sys/fs/cgroup");
	assert_int_equal(htab_memcg_join_path(out, "/sys/fs/cgroup/memory", "/", "/a/b"), 0);
	assert_string_equal(out, "/sys/fs/cgroup/memory/a/b");
	/* A mount of part of the hierarchy. */
	assert_int_equal(htab_memcg_join_path(out, "/mnt/mem", "/ns", "/ns/x"), 0);
	assert_string_equal(out, "/mnt/mem/x");
	assert_int_equal(htab_memcg_join_path(out, "/mnt/mem", "/ns", "/ns"), 0);
	assert_string_equal(out, "/mnt/mem");
	assert_int_equal(htab_memcg_join_path(out, "/mnt/mem", "/ns", "/other"), -ENOENT);
	assert_int_equal(htab_memcg_join_path(out, "/mnt/mem", "/ns", "/nsx"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_lines),
		cmocka_unit_test(test_mount_lines),
		cmocka_unit_test(test_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
