// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * crypto:crypto-encrypt and crypto:crypto-decrypt through the real
 * benchcore binary:
 *  - on a kernel with the BPF crypto kfuncs (asked directly: its BTF), a
 *    one-second run counts 64 kfunc calls per test run (two counters of one
 *    run), none refused, at the default length and at 256 bytes;
 *  - without them, both exit 3 naming the kfuncs;
 *  - a length ECB cannot take and an over-long cipher name exit 2;
 *  - no program or map of the plugin stays loaded.
 * No timing is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/btf.h>

#include "bc_test_report.h"
#include "json_read.h"

static const char *const ours[] = { "cr_", "crypto_b.", NULL };

static bool kernel_has_kfuncs(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has;

	if (!btf)
		return false;
	has = btf__find_by_name_kind(btf, "bpf_crypto_ctx_create", BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return has;
}

static void check_calls(const char *bench, const char *len)
{
	const char *args[] = { "run", bench, "-w0", "-d1", "--crypto-len", len, NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double hits, runs, failures;

	doc = bc_test_run_json(&r, args);
	hits = bc_test_summary_mean(doc, "hits");
	runs = bc_test_summary_mean(doc, "runs");
	failures = bc_test_summary_mean(doc, "failures");
	/* Both are read at one tick, a test run or two apart. */
	if (!(hits > 0) || hits < runs * 64 * 0.98 || hits > runs * 64 * 1.02 || failures != 0) {
		bc_test_dump(bench, &r);
		fail_msg("%s --crypto-len %s: %.0f calls/s in %.0f test runs/s, %.0f refused/s",
			 bench, len, hits, runs, failures);
	}
	(void)bc_test_attach_point(doc);
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, bench);
}

static void check_status(const char *const *args, int status, const char *needle)
{
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != status || !strstr(r.err, needle)) {
		bc_test_dump(args[1], &r);
		fail_msg("%s: expected exit status %d and '%s' on stderr", args[1], status,
			 needle);
	}
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, args[1]);
}

static void test_encrypt(void **state)
{
	const char *args[] = { "run", "crypto:crypto-encrypt", "-w0", "-d1", NULL };

	(void)state;
	if (!kernel_has_kfuncs()) {
		check_status(args, BC_TEST_EXIT_UNAVAILABLE, "bpf_crypto_ctx_create");
		return;
	}
	check_calls("crypto:crypto-encrypt", "16");
	check_calls("crypto:crypto-encrypt", "256");
}

static void test_decrypt(void **state)
{
	const char *args[] = { "run", "crypto:crypto-decrypt", "-w0", "-d1", NULL };

	(void)state;
	if (!kernel_has_kfuncs()) {
		check_status(args, BC_TEST_EXIT_UNAVAILABLE, "bpf_crypto_ctx_create");
		return;
	}
	check_calls("crypto:crypto-decrypt", "16");
	check_calls("crypto:crypto-decrypt", "256");
}

static void test_bad_values(void **state)
{
	const char *len17[] = { "run", "crypto:crypto-encrypt", "-w0", "-d1", "--crypto-len",
				"17", NULL };
	const char *len0[] = { "run", "crypto:crypto-encrypt", "-w0", "-d1", "--crypto-len", "0",
			       NULL };
	const char *longname[] = { "run", "crypto:crypto-decrypt", "-w0", "-d1",
				   "--crypto-cipher", "ecb(aes-with-a-name-longer-than-32)", NULL };

	(void)state;
	check_status(len0, BC_TEST_EXIT_USAGE, "--crypto-len '0'");
	check_status(longname, BC_TEST_EXIT_USAGE, "--crypto-cipher");
	if (kernel_has_kfuncs())
		check_status(len17, BC_TEST_EXIT_USAGE, "--crypto-len '17'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encrypt),
		cmocka_unit_test(test_decrypt),
		cmocka_unit_test(test_bad_values),
	};
	int skip = bc_test_bpf_skip("crypto_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
