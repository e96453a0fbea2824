// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `list` answers "can it run here?" from cheap feature checks of what each
 * benchmark declares it needs; `list --probe` loads and attaches every
 * benchmark's programs, as `run` does. On the running kernel the two must
 * give every benchmark the same verdict: a cheap check that says available
 * where the kernel refuses (or the reverse) is a bug in the check or in
 * the declared needs. The kernel-matrix guests run this too (label bpf),
 * on kernels with trampolines and kprobes, which this VM's lacks.
 *
 * Also: plain `list` asks no shipped benchmark's probe() (each declares
 * its needs), which is what keeps it from loading BPF. No timing is
 * asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_report.h"
#include "json_read.h"

struct verdict {
	const char *name;
	bool available;
	const char *reason;
	const char *checked;
};

/* Every benchmark of a `list --format json` document, in list order. */
static struct verdict *verdicts(const struct bc_json *doc, size_t *cnt)
{
	const struct bc_json *plugins = bc_json_get(doc, "plugins");
	struct verdict *v = NULL;
	size_t n = 0, i, j;

	for (i = 0; i < bc_json_len(plugins); i++) {
		const struct bc_json *benches = bc_json_get(bc_json_at(plugins, i), "benchmarks");

		for (j = 0; j < bc_json_len(benches); j++) {
			const struct bc_json *b = bc_json_at(benches, j);

			v = realloc(v, (n + 1) * sizeof(*v));
			assert_non_null(v);
			v[n].name = bc_json_str(bc_json_get(b, "name"));
			v[n].available = bc_json_bool(bc_json_get(b, "available"), false);
			v[n].reason = bc_json_str(bc_json_get(b, "reason"));
			v[n].checked = bc_json_str(bc_json_get(b, "checked"));
			assert_non_null(v[n].name);
			assert_non_null(v[n].checked);
			n++;
		}
	}
	*cnt = n;
	return v;
}

static const char *verdict_words(const struct verdict *v)
{
	return v->available ? "available" : "unavailable";
}

static void test_list_agrees_with_probe(void **state)
{
	const char *quick_args[] = { "list", NULL };
	const char *full_args[] = { "list", "--probe", NULL };
	struct bc_test_run rq, rf;
	struct bc_json *dq, *df;
	struct verdict *q, *f;
	size_t qn, fn, i, bad = 0, avail = 0;

	(void)state;
	dq = bc_test_run_json(&rq, quick_args);
	df = bc_test_run_json(&rf, full_args);
	q = verdicts(dq, &qn);
	f = verdicts(df, &fn);
	if (qn == 0 || qn != fn)
		fail_msg("list has %zu benchmarks, list --probe %zu", qn, fn);

	for (i = 0; i < qn; i++) {
		if (strcmp(q[i].name, f[i].name))
			fail_msg("benchmark #%zu: %s in list, %s in list --probe", i, q[i].name,
				 f[i].name);
		avail += q[i].available;
		/* "none": nothing to check (count loads no BPF). */
		if (!strcmp(q[i].checked, "probe")) {
			printf("FAIL %s: plain list asked its probe(), not the needs it declares "
			       "(docs/plugin-abi.md, Kernel needs): list loads BPF for it\n",
			       q[i].name);
			bad++;
		}
		if (q[i].available == f[i].available)
			continue;
		printf("FAIL %s: list says %s%s%s%s; list --probe says %s%s%s%s\n", q[i].name,
		       verdict_words(&q[i]), q[i].reason ? " (" : "", q[i].reason ? q[i].reason : "",
		       q[i].reason ? ")" : "", verdict_words(&f[i]), f[i].reason ? " (" : "",
		       f[i].reason ? f[i].reason : "", f[i].reason ? ")" : "");
		bad++;
	}
	printf("%zu benchmarks: %zu available, %zu unavailable on this kernel\n", qn, avail,
	       qn - avail);
	free(q);
	free(f);
	bc_json_free(dq);
	bc_json_free(df);
	bc_test_run_free(&rq);
	bc_test_run_free(&rf);
	if (bad)
		fail_msg("%zu disagreement(s) between list and list --probe (lines above)", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_agrees_with_probe),
	};
	int skip = bc_test_bpf_skip("list_agree (the kernel's own answers)");

	if (skip)
		return skip;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
