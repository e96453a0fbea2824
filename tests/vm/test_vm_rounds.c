// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * benchcore vm's before/after without a boot: rounds of run documents
 * pooled per benchmark and configuration (results/rounds.c), the rounds
 * being the samples, and compare's table of two such sides
 * (bc_compare_sides): Welch over the rounds' means, as for run --repeat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "rounds.h"
#include "run_doc.h"

#define FIXTURES BC_TEST_SOURCE_DIR "/tests/results/fixtures/v08-b59897c"

static char *slurp(const char *name, size_t *len)
{
	char path[1024], *text;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return text;
}

static void test_pool_and_compare(void **state)
{
	const char *a_files[] = { "run.json", "run2.json", "run.json" };
	const char *b_files[] = { "run2.json", "run2.json", "run.json" };
	struct bc_rounds a = { 0 }, b = { 0 };
	struct bc_cmp_side sa, sb;
	struct bc_cmp_opts o = { .test = BC_CMP_WELCH, .alpha = 0.05, .kernels_differ = true };
	const struct bc_doc_metric *m;
	char err[256], *table = NULL;
	size_t len;
	FILE *out;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *t = slurp(a_files[i], &len);

		assert_int_equal(bc_rounds_add(&a, t, len, err, sizeof(err)), 0);
		free(t);
		t = slurp(b_files[i], &len);
		assert_int_equal(bc_rounds_add(&b, t, len, err, sizeof(err)), 0);
		free(t);
	}
	assert_int_equal(bc_rounds_pool(&a), 0);
	assert_int_equal(bc_rounds_pool(&b), 0);
	/* one benchmark and configuration: one run, its rounds the runs */
	assert_int_equal(a.cnt, 1);
	m = bc_doc_find(a.runs[0], "hits");
	assert_non_null(m);
	assert_int_equal(m->run_cnt, 3);
	assert_true(fabs(m->mean - (2 * 439486431.5623348 + 448059884.580393) / 3) < 1.0);
	assert_true(m->sample_cnt > 3);

	bc_rounds_side(&a, "A", &sa);
	bc_rounds_side(&b, "B", &sb);
	out = open_memstream(&table, &len);
	o.out = out;
	assert_int_equal(bc_compare_sides(&o, &sa, &sb), 0);
	fclose(out);
	assert_non_null(strstr(table, "count:count-local"));
	assert_non_null(strstr(table, "over 3+3 runs"));
	free(table);
	bc_rounds_free(&a);
	bc_rounds_free(&b);
}

/* One round: the run as it is, its seconds the samples. */
static void test_one_round(void **state)
{
	struct bc_rounds r = { 0 };
	char err[256], *t;
	size_t len;

	(void)state;
	t = slurp("run.json", &len);
	assert_int_equal(bc_rounds_add(&r, t, len, err, sizeof(err)), 0);
	free(t);
	assert_int_equal(bc_rounds_add(&r, "{nope", 5, err, sizeof(err)), -EINVAL);
	assert_int_equal(bc_rounds_pool(&r), 0);
	assert_int_equal(r.cnt, 1);
	assert_null(r.pooled[0]);
	assert_null(bc_doc_find(r.runs[0], "hits")->runs);
	bc_rounds_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_and_compare),
		cmocka_unit_test(test_one_round),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
