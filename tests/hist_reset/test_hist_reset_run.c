// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A histogram read from BPF whose counts go down mid-run (the fixture
 * histreset empties its map): the run stops with status 1 and one line
 * naming the histogram and the bucket, as for a counter that goes down,
 * and no count near 2^64 is reported. Skipped (77) without root or BTF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_child.h"
#include "bc_test_util.h"
#include "exit_status.h"

static void test_reset_stops_the_run(void **state)
{
	const char *argv[] = { BC_TEST_BENCHCORE, "--plugin-dir", BC_TEST_HISTRESET_PLUGIN_DIR, "run",
			       "histreset:reset", "-w0", "-d3", NULL };
	struct bc_test_child c;
	struct bc_test_run r;

	(void)state;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, &r, 60);
	if (r.status != BC_EXIT_FAILED ||
	    !strstr(r.err, "histogram metric 'lat_ns' (BPF map 'lat_ns'): the count of bucket 100 went down from ") ||
	    !strstr(r.err, "a count never does (the run stops here)") ||
	    strstr(r.out, "18446744073709"))
		fail_msg("exit %d; stdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_stops_the_run),
	};
	int skip = bc_test_bpf_skip("hist_reset_run");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
