// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * teardown() must free everything setup() made, in the same process: the
 * binary's exit would close our fds and hide a leak, so these runs go
 * through the core's loader and runner in-process. After each run, no
 * program using our "perfbuf" map may be loaded and this process must hold
 * exactly the file descriptors it held before (perf event fds, the epoll
 * fd, map and link fds all closed).
 */
#include <dirent.h>
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
#include "pb_progs.h"

static struct bc_plugin_set plugins;

static unsigned int count_fds(void)
{
	unsigned int n = 0;
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static unsigned int count_our_progs(void)
{
	return bc_test_count_progs(pb_prog_is_ours, NULL, NULL);
}

static void run_inproc(const char *name, const char *const *opts)
{
	const struct bc_bench *b = NULL;
	struct bc_run_result res;
	struct bc_config cfg;
	unsigned int fds, progs;
	char err[256];
	int rc;

	assert_int_equal(bc_bench_resolve(&plugins, name, &b, err, sizeof(err)), 0);
	bc_config_init(&cfg);
	bc_test_set_plugin_opts(&cfg, b, opts);
	cfg.warmup_sec = 0;
	cfg.duration_sec = 1;

	fds = count_fds();
	progs = count_our_progs();
	rc = bc_run(&cfg, b, &res, NULL, NULL);
	if (rc)
		fail_msg("%s: run failed (%d, exit %d): %s", name, rc, res.exit_status, res.reason);
	assert_true(res.iter_cnt > 0);
	assert_true(res.summary[0].mean > 0);	/* hits */
	assert_non_null(bc_ctx_attach_point(res.ctx));
	bc_run_result_free(&res);
	bc_options_free(&cfg);

	/* Right away, no waiting: teardown closed it all synchronously. */
	assert_int_equal(count_our_progs(), progs);
	assert_int_equal(count_fds(), fds);
}

static void test_libbpf_teardown(void **state)
{
	(void)state;
	run_inproc("perfbuf:pb-libbpf", NULL);
}

static void test_custom_teardown(void **state)
{
	(void)state;
	run_inproc("perfbuf:pb-custom", NULL);
}

static void test_custom_b2b_sampled_teardown(void **state)
{
	const char *opts[] = { "--rb-b2b", "--rb-sampled", "--rb-batch-cnt", "100",
			       "--rb-sample-rate", "100", NULL };

	(void)state;
	run_inproc("perfbuf:pb-custom", opts);
}

/* Refused in validate(): nothing may have been set up, nothing leaks. */
static void test_usage_error_leaves_nothing(void **state)
{
	const char *opts[] = { "--rb-sampled", "--rb-batch-cnt", "10", "--rb-sample-rate", "20",
			       NULL };
	const struct bc_bench *b = NULL;
	struct bc_run_result res;
	struct bc_config cfg;
	unsigned int fds = count_fds(), progs = count_our_progs();
	char err[256];

	(void)state;
	assert_int_equal(bc_bench_resolve(&plugins, "perfbuf:pb-libbpf", &b, err, sizeof(err)), 0);
	bc_config_init(&cfg);
	bc_test_set_plugin_opts(&cfg, b, opts);
	cfg.warmup_sec = 0;
	cfg.duration_sec = 1;
	assert_int_not_equal(bc_run(&cfg, b, &res, NULL, NULL), 0);
	assert_int_equal(res.exit_status, BC_EXIT_USAGE);
	assert_non_null(strstr(res.reason, "--rb-sample-rate"));
	bc_run_result_free(&res);
	bc_options_free(&cfg);
	assert_int_equal(count_our_progs(), progs);
	assert_int_equal(count_fds(), fds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_error_leaves_nothing),
		cmocka_unit_test(test_libbpf_teardown),
		cmocka_unit_test(test_custom_teardown),
		cmocka_unit_test(test_custom_b2b_sampled_teardown),
	};
	int rc;

	rc = bc_test_bpf_skip("the perfbuf benchmarks");
	if (rc)
		return rc;
	bc_log_set_verbosity(-1);
	/* Other plugins in the directory may fail to load; perfbuf must not. */
	bc_plugins_load_dir(&plugins, BC_TEST_PLUGIN_DIR, false);
	rc = cmocka_run_group_tests_name("perfbuf teardown, in-process", tests, NULL, NULL);
	bc_plugins_unload(&plugins);
	return rc;
}
