// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sockmap:sockmap run inside this test process (the core's own bc_run(),
 * the real plugin), so that its sockets can be counted from here:
 *  - while it runs, the process holds the five loopback sockets it opened
 *    (listener, c1, p1, c2, p2); after teardown, not one more socket than
 *    before;
 *  - data moves: bytes are sent and received, the BPF programs count what
 *    they carry in BPF modes, and --verify finds every byte in order;
 *  - no program or map of the plugin stays loaded, in this live process;
 *  - two mode flags at once are a usage error (status 2, through the binary);
 *  - where this kernel creates no sockmap (asked directly, apart from the
 *    plugin: CONFIG_BPF_STREAM_PARSER is a config option), the benchmark
 *    exits 3 naming sockmap, and nothing else runs.
 * No timing is asserted.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
#include "cli_env.h"
#include "options.h"
#include "core_opts.h"
#include "bc_test_kernel.h"
#include "bc_test_report.h"

static const char *const ours[] = { "sm_", "sockmap_.", "sock_map_", NULL };

/* The metrics' order in the plugin. */
enum { M_SEND_BYTES, M_SEND_CALLS, M_BPF_BYTES, M_RCV_BYTES, M_RCV_CALLS };

static struct bc_cli_env env;

static unsigned int count_sockets(void)
{
	unsigned int n = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");

	assert_non_null(dir);
	while ((d = readdir(dir))) {
		char path[300], target[64];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		n += !strncmp(target, "socket:", 7);
	}
	closedir(dir);
	return n;
}

static void most_sockets(const struct bc_run_result *res, size_t iter_idx, void *cookie)
{
	unsigned int *most = cookie, n = count_sockets();

	(void)res;
	(void)iter_idx;
	if (n > *most)
		*most = n;
}

static void run_in_process(const char *mode, bool bpf)
{
	char *argv[] = { (char *)"run", (char *)"sockmap:sockmap", (char *)"-w0", (char *)"-d1",
			 (char *)mode, (char *)"--verify", NULL };
	const struct bc_bench *bench = NULL;
	unsigned int before, during = 0, after;
	struct bc_run_result res;
	struct bc_run_request req;
	struct bc_config *cfgp = &req.cfg;
	const double *rates;
	int err;

	bc_run_request_init(&req);
	assert_int_equal(bc_options_parse_run(&env, 6, argv, &req, &bench), 0);
	cfgp->verbosity = -1;
	before = count_sockets();
	memset(&res, 0, sizeof(res));
	err = bc_run(cfgp, bench, &res, most_sockets, &during);
	if (err)
		fail_msg("sockmap %s: run failed (%d): %s", mode, err, res.reason);
	after = count_sockets();
	assert_true(res.iter_cnt > 0);
	rates = res.iters[res.iter_cnt - 1].rates;

	if (during < before + 5)
		fail_msg("sockmap %s: %u sockets open during the run, %u before: expected the "
			 "listener and two connections", mode, during, before);
	if (after != before)
		fail_msg("sockmap %s: %u sockets open after the run, %u before", mode, after,
			 before);
	if (!(rates[M_SEND_BYTES] > 0) || !(rates[M_RCV_BYTES] > 0) ||
	    (bpf && !(rates[M_BPF_BYTES] > 0)) || (!bpf && rates[M_BPF_BYTES] != 0))
		fail_msg("sockmap %s: sent %.0f, BPF %.0f, received %.0f bytes/s", mode,
			 rates[M_SEND_BYTES], rates[M_BPF_BYTES], rates[M_RCV_BYTES]);
	bc_run_result_free(&res);
	bc_options_free(cfgp);
	bc_test_assert_none_loaded(ours, mode);
}

static void test_rx_verdict_egress(void **state)
{
	(void)state;
	run_in_process("--rx-verdict-egress", true);
}

static void test_rx_verdict_ingress(void **state)
{
	(void)state;
	run_in_process("--rx-verdict-ingress", true);
}

static void test_rx_pass(void **state)
{
	(void)state;
	run_in_process("--rx-pass", true);
}

static void test_rx_normal(void **state)
{
	(void)state;
	run_in_process("--rx-normal", false);
}

static void test_tx_modes(void **state)
{
	(void)state;
	run_in_process("--tx-normal", false);
	run_in_process("--tx-pass", true);
	run_in_process("--tx-verdict-ingress", true);
	run_in_process("--tx-verdict-egress", true);
}

static void test_two_modes(void **state)
{
	const char *args[] = { "run", "sockmap:sockmap", "-w0", "-d1", "--rx-pass", "--tx-pass",
			       NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE || !strstr(r.err, "--rx-pass") ||
	    !strstr(r.err, "--tx-pass")) {
		bc_test_dump("sockmap --rx-pass --tx-pass", &r);
		fail_msg("expected exit status %d naming both modes", BC_TEST_EXIT_USAGE);
	}
	bc_test_run_free(&r);
}

/* The kernel refuses sockmaps: the benchmark must say so, status 3. */
static void test_unavailable(void **state)
{
	const char *args[] = { "run", "sockmap:sockmap", "-w0", "-d1", NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_UNAVAILABLE || !strstr(r.err, "sockmap")) {
		bc_test_dump("sockmap", &r);
		fail_msg("this kernel creates no sockmap: expected exit status %d naming it",
			 BC_TEST_EXIT_UNAVAILABLE);
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "sockmap (unavailable)");
}

static int load(void **state)
{
	(void)state;
	memset(&env, 0, sizeof(env));
	env.plugins_loaded = true;
	return bc_plugins_load_dir(&env.plugins, BC_TEST_PLUGIN_DIR, true) ? -1 : 0;
}

static int unload(void **state)
{
	(void)state;
	bc_plugins_unload(&env.plugins);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_verdict_egress),
		cmocka_unit_test(test_rx_verdict_ingress),
		cmocka_unit_test(test_rx_pass),
		cmocka_unit_test(test_rx_normal),
		cmocka_unit_test(test_tx_modes),
		cmocka_unit_test(test_two_modes),
	};
	const struct CMUnitTest refused[] = {
		cmocka_unit_test(test_unavailable),
		cmocka_unit_test(test_two_modes),
	};
	int skip = bc_test_bpf_skip("sockmap_run");

	if (skip)
		return skip;
	if (bc_test_kernel_sockmap())
		return cmocka_run_group_tests(refused, NULL, NULL);
	return cmocka_run_group_tests(tests, load, unload);
}
