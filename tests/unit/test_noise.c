// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The likely causes a noisy --repeat names, read from a fake procfs and
 * sysfs tree: each cause when its file says so, none when the files are
 * missing (as on a VM without cpufreq or thermal_throttle).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "noise.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], dir[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* mkdir -p of the file's directory */
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", dir, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/bc-noise-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

/* /proc/stat with these busy, idle and steal ticks on the "cpu" line. */
static void put_stat(unsigned long long user, unsigned long long idle, unsigned long long steal)
{
	char text[256];

	snprintf(text, sizeof(text), "cpu  %llu 0 0 %llu 0 0 0 %llu 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n",
		 user, idle, steal);
	put("proc/stat", text);
}

static const struct bc_noise_usage quiet_use = {
	.wall_sec = 10, .own_cpu_sec = 10, .hz = 100, .cpus = 2, .pinned = true,
};

static void test_nothing_visible(void **state)
{
	struct bc_noise_snap a, b;
	char buf[1024];

	(void)state;
	/* The runs' own CPU time, nothing else; no cpufreq, no flags. */
	put_stat(1000, 5000, 0);
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2\n");
	bc_noise_snap(root, &b);
	assert_true(b.stat_ok);
	assert_false(b.throttle_ok);
	put_stat(2000, 6000, 0);
	bc_noise_snap(root, &a);
	assert_int_equal(bc_noise_causes(root, &b, &a, &quiet_use, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_governor(void **state)
{
	struct bc_noise_snap s;
	char buf[1024];

	(void)state;
	put_stat(0, 0, 0);
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	bc_noise_snap(root, &s);
	assert_int_equal(bc_noise_causes(root, &s, &s, &quiet_use, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "cpufreq governor 'powersave' on 1 of 2 CPUs"));
}

static void test_busy_and_steal(void **state)
{
	struct bc_noise_snap a, b;
	char buf[1024];

	(void)state;
	put("proc/cpuinfo", "flags\t\t: fpu hypervisor sse2\n");
	put_stat(1000, 5000, 100);
	bc_noise_snap(root, &b);
	/* 10 s of wall time: 15 CPU-seconds busy, 10 of them the runs',
	 * and 2 of the 20 CPU-seconds stolen. */
	put_stat(2500, 5300, 300);
	bc_noise_snap(root, &a);
	assert_int_equal(bc_noise_causes(root, &b, &a, &quiet_use, buf, sizeof(buf)), 2);
	assert_non_null(strstr(buf, "other processes kept 0.50 of 2 CPUs busy"));
	/* Steal names the hypervisor; its flag is then not said again. */
	assert_non_null(strstr(buf, "the hypervisor gave 10.0% of the CPU time to others"));
	assert_null(strstr(buf, "/proc/cpuinfo"));
	assert_non_null(strstr(buf, "; "));
}

static void test_hypervisor_flag(void **state)
{
	struct bc_noise_snap s;
	char buf[1024];

	(void)state;
	put_stat(0, 0, 0);
	put("proc/cpuinfo", "flags\t\t: fpu sse2 hypervisor\n");
	bc_noise_snap(root, &s);
	assert_int_equal(bc_noise_causes(root, &s, &s, &quiet_use, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "a hypervisor (/proc/cpuinfo)"));
}

static void test_load_without_stat(void **state)
{
	struct bc_noise_snap s;
	char buf[1024];

	(void)state;
	/* A fresh tree: no proc/stat. */
	put("proc/cpuinfo", "flags\t\t: fpu\n");
	put("proc/loadavg", "3.50 2.00 1.00 3/150 1234\n");
	bc_noise_snap(root, &s);
	assert_false(s.stat_ok);
	assert_int_equal(bc_noise_causes(root, &s, &s, &quiet_use, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "load average 3.50 on 2 CPUs"));
}

static void test_throttle_and_smt(void **state)
{
	struct bc_noise_snap a, b;
	struct bc_noise_usage use = quiet_use;
	char buf[1024];

	(void)state;
	put_stat(0, 0, 0);
	put("proc/cpuinfo", "flags\t\t: fpu\n");
	put("sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "4\n");
	put("sys/devices/system/cpu/cpu0/thermal_throttle/package_throttle_count", "1\n");
	bc_noise_snap(root, &b);
	assert_true(b.throttle_ok);
	assert_int_equal(b.throttle, 5);
	put("sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "7\n");
	bc_noise_snap(root, &a);
	put("sys/devices/system/cpu/smt/active", "1\n");
	use.pinned = false;
	assert_int_equal(bc_noise_causes(root, &b, &a, &use, buf, sizeof(buf)), 2);
	assert_non_null(strstr(buf, "thermal throttling: 3 events during the runs"));
	assert_non_null(strstr(buf, "SMT is on and the threads are not pinned"));
	/* Pinned, with nothing else busy: SMT alone is no cause. */
	use.pinned = true;
	assert_int_equal(bc_noise_causes(root, &b, &a, &use, buf, sizeof(buf)), 1);
}

static void test_small_buffer(void **state)
{
	struct bc_noise_snap s;
	char buf[8];

	(void)state;
	put_stat(0, 0, 0);
	put("proc/cpuinfo", "flags\t\t: hypervisor\n");
	bc_noise_snap(root, &s);
	/* Cut, still terminated, still counted. */
	assert_true(bc_noise_causes(root, &s, &s, &quiet_use, buf, sizeof(buf)) >= 1);
	assert_true(strlen(buf) < sizeof(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nothing_visible, setup, teardown),
		cmocka_unit_test_setup_teardown(test_governor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_and_steal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hypervisor_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_without_stat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throttle_and_smt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_buffer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
