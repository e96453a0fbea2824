/*
 * The ABI policy, end to end, as the rule at the top of benchcore.h states
 * it: the major must match; sizes, not the minor, decide the rest. One
 * fixture plugin built against copies of the public headers that pretend to
 * be another version (tests/sdk/CMakeLists.txt makes them):
 *   abi_current        the real headers
 *   abi_older          an older minor: the bench descriptor lacks the members
 *                      appended since, so its sz is smaller
 *   abi_newer_zero     the next minor: every struct a plugin hands over has a
 *                      member appended (the thread range's in its padding),
 *                      all left zero
 *   abi_newer_<struct> the same with that struct's new member set: plugin,
 *                      bench, metric, option, range
 *   abi_other_major    the next major
 *   abi_abi1           a plugin built against the ABI 1.0 header as released
 *   abi_abi1_lib       the same, needing libbenchcore.so.1, which is not there
 * The current core must load and run abi_current, abi_older and
 * abi_newer_zero, refuse the others with the documented one-line messages
 * (docs/plugin-abi.md), and keep loading the rest.
 */
#include <dlfcn.h>
#include <limits.h>
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

#include "exit_status.h"
#include "sdk_util.h"

#define OFFSETOFEND(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

static char work[1024];

static void expect_status(const struct sdk_out *res, int want)
{
	if (res->status != want) {
		sdk_out_dump(res);
		fail_msg("exit status %d, expected %d", res->status, want);
	}
}

static void expect_in(const struct sdk_out *res, const char *text, const char *needle, bool want)
{
	if ((strstr(text, needle) != NULL) != want) {
		sdk_out_dump(res);
		fail_msg("output %s '%s'", want ? "lacks" : "has", needle);
	}
}

/* The exact lines docs/plugin-abi.md promises (see core/loader.c). */
static void major_line(char *buf, size_t len, const char *file, int major, const char *why)
{
	snprintf(buf, len,
		 "benchcore: %s/%s: built for plugin ABI %d.x%s; this benchcore loads ABI %d.x "
		 "plugins: rebuild it against this benchcore's headers\n",
		 BC_SDK_ABI_DIR, file, major, why, BC_SDK_ABI_MAJOR);
}

static void unknown_byte_line(char *buf, size_t len, const char *file, const char *what,
			      size_t sz, size_t known, size_t off)
{
	snprintf(buf, len,
		 "benchcore: %s/%s: %s has sz %zu but this benchcore knows only %zu bytes of it, "
		 "and the unknown byte at offset %zu is not zero (a field of a newer ABI %d "
		 "minor is set: update benchcore)\n",
		 BC_SDK_ABI_DIR, file, what, sz, known, off, BC_SDK_ABI_MAJOR);
}

/* Each newer_<struct> fixture's refusal: the header appended an unsigned
 * long to every top-level struct (at its sizeof: they are 8-byte aligned)
 * and an unsigned int to the thread range, in its padding. */
static const struct newer_case {
	const char *file, *what;
	size_t sz, known, off;
} newer_cases[] = {
	{ "abi_newer_plugin.so", "plugin descriptor",
	  sizeof(struct bc_plugin_desc) + sizeof(unsigned long),
	  OFFSETOFEND(struct bc_plugin_desc, option_prefix), sizeof(struct bc_plugin_desc) },
	{ "abi_newer_bench.so", "benchmark 'spin' descriptor",
	  sizeof(struct bc_bench_desc) + sizeof(unsigned long),
	  OFFSETOFEND(struct bc_bench_desc, loaded), sizeof(struct bc_bench_desc) },
	{ "abi_newer_metric.so", "benchmark 'spin': metric #0 'hits'",
	  sizeof(struct bc_metric_desc) + sizeof(unsigned long),
	  OFFSETOFEND(struct bc_metric_desc, threads), sizeof(struct bc_metric_desc) },
	{ "abi_newer_option.so", "plugin option #0 'spin-batch'",
	  sizeof(struct bc_option) + sizeof(unsigned long),
	  OFFSETOFEND(struct bc_option, maps), sizeof(struct bc_option) },
	{ "abi_newer_range.so", "benchmark 'spin': producers range",
	  sizeof(struct bc_thread_range), OFFSETOFEND(struct bc_thread_range, def),
	  OFFSETOFEND(struct bc_thread_range, def) },
};

/* The fixtures must really be what their names say, or the rest proves
 * nothing: read their descriptors directly. */
static void test_fixtures_pretend_what_they_claim(void **state)
{
	static const struct {
		const char *file;
		int major, minor;
		int size_cmp;	/* bench descriptor sz vs the current one */
	} cases[] = {
		{ "abi_current.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR, 0 },
		{ "abi_older.so", BC_SDK_ABI_MAJOR, BC_SDK_OLDER_MINOR, -1 },
		{ "abi_newer_zero.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR + 1, 1 },
		{ "abi_newer_bench.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR + 1, 1 },
		{ "abi_newer_range.so", BC_SDK_ABI_MAJOR, BC_SDK_ABI_MINOR + 1, 1 },
		{ "abi_other_major.so", BC_SDK_ABI_MAJOR + 1, BC_SDK_ABI_MINOR, 0 },
		{ "abi_abi1.so", 1, 0, 2 },
	};
	char path[PATH_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bc_plugin_desc *d;
		size_t sz;
		void *h;

		snprintf(path, sizeof(path), "%s/%s", BC_SDK_ABI_DIR, cases[i].file);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			fail_msg("%s: %s", path, dlerror());
		d = dlsym(h, BC_PLUGIN_SYMBOL);
		assert_non_null(d);
		assert_int_equal(d->abi_major, cases[i].major);
		assert_int_equal(d->abi_minor, cases[i].minor);
		/* 2: another major's layout, not ours to read further. */
		if (cases[i].size_cmp != 2) {
			sz = d->benches[0]->sz;
			if (cases[i].size_cmp < 0)
				assert_true(sz < sizeof(struct bc_bench_desc));
			else if (cases[i].size_cmp > 0)
				assert_true(sz > sizeof(struct bc_bench_desc));
			else
				assert_int_equal(sz, sizeof(struct bc_bench_desc));
		}
		dlclose(h);
	}
	/* The range grew in its padding: same sz, a non-zero byte past def. */
	snprintf(path, sizeof(path), "%s/abi_newer_range.so", BC_SDK_ABI_DIR);
	{
		const struct bc_plugin_desc *d;
		const unsigned char *r;
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

		assert_non_null(h);
		d = dlsym(h, BC_PLUGIN_SYMBOL);
		assert_non_null(d);
		assert_int_equal(d->benches[0]->producers.sz, sizeof(struct bc_thread_range));
		r = (const unsigned char *)&d->benches[0]->producers;
		assert_int_equal(r[OFFSETOFEND(struct bc_thread_range, def)], 1);
		dlclose(h);
	}
	/* Needs a library that is not there: dlopen() itself fails. */
	snprintf(path, sizeof(path), "%s/abi_abi1_lib.so", BC_SDK_ABI_DIR);
	assert_null(dlopen(path, RTLD_NOW | RTLD_LOCAL));
	assert_non_null(strstr(dlerror(), "libbenchcore.so.1"));
}

static void test_list_loads_compatible_refuses_others(void **state)
{
	char line[1024];
	struct sdk_out res;
	size_t i;

	(void)state;
	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' list", BC_TEST_BENCHCORE,
				 BC_SDK_ABI_DIR), 0);
	expect_status(&res, 0);
	expect_in(&res, res.out, "abi_current:spin", true);
	expect_in(&res, res.out, "abi_older:spin", true);
	expect_in(&res, res.out, "abi_newer_zero:spin", true);
	expect_in(&res, res.out, "abi_other_major:", false);
	expect_in(&res, res.out, "abi_abi1:", false);
	expect_in(&res, res.out, "abi_abi1_lib:", false);
	for (i = 0; i < sizeof(newer_cases) / sizeof(newer_cases[0]); i++) {
		const struct newer_case *c = &newer_cases[i];
		char name[64];

		snprintf(name, sizeof(name), "%.*s:", (int)(strlen(c->file) - 3), c->file);
		expect_in(&res, res.out, name, false);
		unknown_byte_line(line, sizeof(line), c->file, c->what, c->sz, c->known, c->off);
		expect_in(&res, res.err, line, true);
	}
	major_line(line, sizeof(line), "abi_other_major.so", BC_SDK_ABI_MAJOR + 1, "");
	expect_in(&res, res.err, line, true);
	major_line(line, sizeof(line), "abi_abi1.so", 1, "");
	expect_in(&res, res.err, line, true);
	major_line(line, sizeof(line), "abi_abi1_lib.so", 1,
		   " (it needs libbenchcore.so.1, which is not installed)");
	expect_in(&res, res.err, line, true);
	sdk_out_free(&res);
}

static void run_spin(const char *plugin)
{
	struct sdk_out res;
	double hits;

	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run %s:spin -w0 -d1 --format json",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR, plugin), 0);
	expect_status(&res, 0);
	hits = sdk_json_summary_mean(res.out, "hits");
	if (hits <= 0) {
		sdk_out_dump(&res);
		fail_msg("%s:spin: summary hits mean %g, expected > 0", plugin, hits);
	}
	sdk_out_free(&res);
}

static void test_older_minor_runs(void **state)
{
	(void)state;
	run_spin("abi_older");
	run_spin("abi_current");
}

/* A newer minor loads and runs while what it added is left zero. */
static void test_newer_minor_zero_tail_runs(void **state)
{
	(void)state;
	run_spin("abi_newer_zero");
}

static void test_refused_plugin_cannot_run(void **state)
{
	char line[1024];
	struct sdk_out res;

	(void)state;
	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run abi_newer_bench:spin -w0 -d1",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR), 0);
	expect_status(&res, BC_EXIT_USAGE);
	unknown_byte_line(line, sizeof(line), newer_cases[1].file, newer_cases[1].what,
			  newer_cases[1].sz, newer_cases[1].known, newer_cases[1].off);
	expect_in(&res, res.err, line, true);
	/* Named as refused, with the refusal, rather than unknown. */
	expect_in(&res, res.err, "plugin 'abi_newer_bench' of 'abi_newer_bench:spin' is not loaded: ", true);
	sdk_out_free(&res);

	assert_int_equal(sdk_run(&res, work, "'%s' --plugin-dir '%s' run abi_abi1:spin -w0 -d1",
				 BC_TEST_BENCHCORE, BC_SDK_ABI_DIR), 0);
	expect_status(&res, BC_EXIT_USAGE);
	major_line(line, sizeof(line), "abi_abi1.so", 1, "");
	expect_in(&res, res.err, line, true);
	sdk_out_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_pretend_what_they_claim),
		cmocka_unit_test(test_list_loads_compatible_refuses_others),
		cmocka_unit_test(test_older_minor_runs),
		cmocka_unit_test(test_newer_minor_zero_tail_runs),
		cmocka_unit_test(test_refused_plugin_cannot_run),
	};

	unsetenv("BENCHCORE_PLUGIN_PATH");
	/* Scratch files for command output, beside the fixtures. */
	snprintf(work, sizeof(work), "%s/..", BC_SDK_ABI_DIR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
