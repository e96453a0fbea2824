// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * scripts/parity.sh end to end on three cheap rows (one round, -w1 -d1)
 * against the kernel's runner of scripts/peer.sh 6.12: the script must
 * succeed and every row get both figures and a verdict, so that a change
 * that breaks a row's reading on either side is caught. What the verdict
 * says is not asserted: one short round on a shared machine proves nothing
 * about timing. Skipped (77) when the runner is not built or BPF cannot run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bc_test_child.h"
#include "bc_test_report.h"
#include "json_read.h"

#define ROWS_RE "^(count-local-p1-a|bpf-loop|trig-uprobe-nop)$"

static const char *const want_rows[] = { "count-local-p1-a", "bpf-loop", "trig-uprobe-nop" };

static char runner[4096];
static char out_dir[] = "/tmp/bc-parity-XXXXXX";

/* Where scripts/peer.sh 6.12 leaves the runner (and parity.sh looks). */
static bool find_runner(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(runner, sizeof(runner), "%s/benchcore/peer/6.12", xdg);
	else
		n = snprintf(runner, sizeof(runner), "%s/.cache/benchcore/peer/6.12", home ? home : "");
	if (n < 0 || (size_t)n >= sizeof(runner))
		return false;
	strncat(runner, "/src/tools/testing/selftests/bpf/bench", sizeof(runner) - strlen(runner) - 1);
	return access(runner, X_OK) == 0;
}

static const struct bc_json *find_row(const struct bc_json *runs, const char *row)
{
	for (size_t i = 0; i < bc_json_len(runs); i++) {
		const struct bc_json *r = bc_json_at(runs, i);
		const char *label = bc_json_str(bc_json_get(r, "label"));

		if (label && !strcmp(label, row))
			return r;
	}
	return NULL;
}

static void test_cheap_rows(void **state)
{
	const char *argv[] = { BC_TEST_SOURCE_DIR "/scripts/parity.sh", "-b", BC_TEST_BUILD_DIR,
			       "-n", "1", "-w", "1", "-d", "1", "--rows", ROWS_RE, "-o", out_dir, NULL };
	struct bc_test_child c;
	struct bc_test_run r;
	struct bc_json *doc;
	char path[4096], err[256], *md;

	(void)state;
	bc_test_child_start(&c, argv, NULL, NULL);
	bc_test_child_finish(&c, &r, 150);
	if (r.status) {
		bc_test_dump("parity.sh", &r);
		fail_msg("parity.sh exited with status %d", r.status);
	}

	snprintf(path, sizeof(path), "%s/parity.json", out_dir);
	doc = bc_json_parse_file(path, err, sizeof(err));
	if (!doc)
		fail_msg("%s: %s", path, err);
	for (size_t i = 0; i < sizeof(want_rows) / sizeof(want_rows[0]); i++) {
		const struct bc_json *row = find_row(bc_json_get(doc, "runs"), want_rows[i]);
		const struct bc_json *par = bc_json_get(bc_json_get(row, "result"), "parity");
		double rm = bc_json_num(bc_json_get(par, "runner_median"), -1),
		       bm = bc_json_num(bc_json_get(par, "benchcore_median"), -1);
		const char *verdict = bc_json_str(bc_json_get(par, "verdict"));

		if (!row) {
			bc_test_dump("parity.sh", &r);
			fail_msg("row %s: not in %s (a side did not run or printed no figure)", want_rows[i],
				 path);
		}
		if (!(rm > 0) || !(bm > 0))
			fail_msg("row %s: runner %g, benchcore %g; expected both > 0", want_rows[i], rm, bm);
		if (!verdict || (strcmp(verdict, "same") && strncmp(verdict, "differs", 7) &&
				 strncmp(verdict, "undecided", 9)))
			fail_msg("row %s: verdict '%s'; expected same, differs... or undecided...",
				 want_rows[i], verdict ? verdict : "(none)");
	}
	bc_json_free(doc);

	/* the table has the same rows */
	snprintf(path, sizeof(path), "%s/parity.md", out_dir);
	md = bc_test_read_file(path);
	assert_non_null(md);
	for (size_t i = 0; i < sizeof(want_rows) / sizeof(want_rows[0]); i++) {
		char needle[128];

		snprintf(needle, sizeof(needle), "\n| %s", want_rows[i]);
		if (!strstr(md, needle))
			fail_msg("%s: no table row for %s", path, want_rows[i]);
	}
	free(md);
	bc_test_run_free(&r);

	snprintf(path, sizeof(path), "%s/parity.json", out_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/parity.md", out_dir);
	unlink(path);
	rmdir(out_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cheap_rows),
	};
	int skip = bc_test_bpf_skip("parity.sh runs both the kernel's runner and benchcore");

	if (skip)
		return skip;
	if (!find_runner()) {
		printf("reference runner not built: run scripts/peer.sh 6.12 (looked for %s)\n", runner);
		return BC_TEST_SKIP;
	}
	if (!mkdtemp(out_dir)) {
		perror("mkdtemp");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
