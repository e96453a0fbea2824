// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * teardown() must free everything setup() made while the process lives on:
 * a process exit would close our fds and hide a leak. So these runs go
 * through the core's loader and runner in-process, and afterwards this
 * process may hold no BPF program, map or link fd and no more fds than it
 * held before, and no ringbuf program loaded by this pid may remain.
 * Also: a setup that fails half-way (options the kernel refuses) leaves
 * nothing behind either.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "result.h"
#include "runner.h"
#include "options.h"
#include "core_opts.h"
#include "log.h"
#include "exit_status.h"
#include "bc_test_opts.h"
#include "bc_test_util.h"
#include "rb_progs.h"

static struct bc_plugin_set plugins;

/* All fds, and those that are BPF objects (anon_inode:bpf-prog etc). */
static void count_fds(unsigned int *all, unsigned int *bpf)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	char path[PATH_MAX], target[256];

	assert_non_null(d);
	*all = *bpf = 0;
	while ((de = readdir(d))) {
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		(*all)++;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "anon_inode:bpf"))
			(*bpf)++;
	}
	closedir(d);
}

static const struct bc_bench *find(const char *name)
{
	const struct bc_bench *bench = NULL;
	char err[256];

	if (bc_bench_resolve(&plugins, name, &bench, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	return bench;
}

static void run_and_check(const char *name, const char *const *opts, int want_status)
{
	const struct bc_bench *bench = find(name);
	unsigned int fds0, bpf0, fds1, bpf1, all, mine;
	struct bc_run_result res;
	struct bc_config cfg;

	bc_config_init(&cfg);
	bc_test_set_plugin_opts(&cfg, bench, opts);
	cfg.warmup_sec = 0;
	cfg.duration_sec = 1;
	cfg.verbosity = -1;

	count_fds(&fds0, &bpf0);
	memset(&res, 0, sizeof(res));
	bc_run(&cfg, bench, &res, NULL, NULL);
	if (res.exit_status != want_status)
		fail_msg("%s: exit status %d, want %d: %s", name, res.exit_status, want_status,
			 res.reason);
	if (want_status == BC_EXIT_OK)
		assert_true(res.iter_cnt >= 1);
	bc_run_result_free(&res);
	bc_options_free(&cfg);

	count_fds(&fds1, &bpf1);
	rb_count_progs(getpid(), &all, &mine);
	print_message("%s: fds %u -> %u, BPF fds %u -> %u, ringbuf programs of this pid %u\n",
		      name, fds0, fds1, bpf0, bpf1, mine);
	assert_int_equal(bpf1, 0);
	assert_int_equal(fds1, fds0);
	assert_int_equal(mine, 0);
}

static void test_libbpf(void **state)
{
	(void)state;
	run_and_check("ringbuf:rb-libbpf", NULL, BC_EXIT_OK);
}

static void test_custom(void **state)
{
	const char *opts[] = { "--rb-sampled", NULL };

	(void)state;
	run_and_check("ringbuf:rb-custom", opts, BC_EXIT_OK);
}

static void test_custom_b2b(void **state)
{
	const char *opts[] = { "--rb-b2b", "--rb-use-output", NULL };

	(void)state;
	run_and_check("ringbuf:rb-custom", opts, BC_EXIT_OK);
}

/* Validation refuses before anything is loaded. */
static void test_usage_error(void **state)
{
	const char *opts[] = { "--rb-size", "1000000", NULL };

	(void)state;
	run_and_check("ringbuf:rb-custom", opts, BC_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libbpf),
		cmocka_unit_test(test_custom),
		cmocka_unit_test(test_custom_b2b),
		cmocka_unit_test(test_usage_error),
	};
	int ret;

	ret = bc_test_bpf_skip("the ringbuf benchmarks");
	if (ret)
		return ret;
	bc_log_set_verbosity(-1);
	if (bc_plugins_load_dir(&plugins, BC_TEST_PLUGIN_DIR, false) || !plugins.cnt) {
		printf("cannot load the plugins in %s\n", BC_TEST_PLUGIN_DIR);
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	bc_plugins_unload(&plugins);
	return ret;
}
