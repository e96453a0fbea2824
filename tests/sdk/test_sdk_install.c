// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SDK as a plugin author meets it: install benchcore to a fresh
 * prefix, build the example plugin from the installed copy of its sources
 * against that prefix alone, run it through the installed benchcore (with
 * --plugin-dir, then from the default plugin directory), and move the whole
 * tree to check that nothing in it remembers where it was installed. A
 * second build of the example against a pinned vmlinux.h checks that
 * BENCHCORE_VMLINUX_H replaces the build machine's BTF.
 *
 * The example uses every part of the plugin ABI an author needs (an option
 * table, metric roles, a histogram, a declared program, per-benchmark
 * data); test_example_features checks each as a user sees it. The second
 * example, lookup (the 2.3 SDK: the core drives its skeleton, in-BPF
 * timing, a time per op as the result, a benchmark-only option), is built
 * and run the same way (test_lookup_example). Every page of the installed
 * docs is there and each relative link in them leads to a file
 * (test_installed_doc_links); the pkg-config route gives an installed
 * plugin a RUNPATH relative to itself (test_pkg_config_bpf).
 *
 * The tests run in order and build on each other's results; each asserts
 * its own step, so a failure names the step that broke.
 */
#define _GNU_SOURCE
#include <ftw.h>
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

#include "json.h"
#include "json_read.h"
#include "sdk_util.h"

#define SDK_XSTR(x) #x
#define SDK_STR(x) SDK_XSTR(x)

static char work[1024];		/* everything this test makes */
static char prefix[PATH_MAX];	/* where benchcore is installed */
static char moved[PATH_MAX];	/* where the installed tree is moved to */
static char hello_src[PATH_MAX];
static char hello_build[PATH_MAX];
static char hello_pinned[PATH_MAX];	/* built against a pinned vmlinux.h */
static char lookup_src[PATH_MAX];
static char lookup_build[PATH_MAX];

#define RUN(res, ...)                                                    \
	do {                                                             \
		assert_int_equal(sdk_run((res), work, __VA_ARGS__), 0);  \
	} while (0)

/* Fails the test with the command's output when its status is not `want`. */
static void expect_status(const struct sdk_out *res, int want)
{
	if (res->status != want) {
		sdk_out_dump(res);
		fail_msg("exit status %d, expected %d", res->status, want);
	}
}

static void expect_contains(const struct sdk_out *res, const char *text, const char *needle)
{
	if (!strstr(text, needle)) {
		sdk_out_dump(res);
		fail_msg("output lacks '%s'", needle);
	}
}

/* Runs BENCH for one second through the benchcore installed in `root` and
 * returns the summary's mean hits rate. */
static double run_hits(const char *root, const char *extra, const char *bench)
{
	struct sdk_out res;
	double hits;

	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' %s run %s -w0 -d1 --format json", root,
	    extra, bench);
	expect_status(&res, 0);
	hits = sdk_json_summary_mean(res.out, "hits");
	if (hits <= 0) {
		sdk_out_dump(&res);
		fail_msg("%s: summary hits mean %g, expected > 0", bench, hits);
	}
	sdk_out_free(&res);
	return hits;
}

static void expect_file(const char *root, const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!sdk_exists(path))
		fail_msg("%s is missing", path);
}

static int group_setup(void **state)
{
	struct sdk_out res;

	(void)state;
	/* The test must see only what it installs. */
	unsetenv("BENCHCORE_PLUGIN_PATH");
	unsetenv("CMAKE_PREFIX_PATH");
	unsetenv("PKG_CONFIG_PATH");

	snprintf(work, sizeof(work), "%s/tests/sdk-work", BC_TEST_BUILD_DIR);
	snprintf(prefix, sizeof(prefix), "%s/prefix", work);
	snprintf(moved, sizeof(moved), "%s/moved/tree", work);
	snprintf(hello_src, sizeof(hello_src), "%s/hello-src", work);
	snprintf(hello_build, sizeof(hello_build), "%s/hello-build", work);
	snprintf(hello_pinned, sizeof(hello_pinned), "%s/hello-pinned", work);
	snprintf(lookup_src, sizeof(lookup_src), "%s/lookup-src", work);
	snprintf(lookup_build, sizeof(lookup_build), "%s/lookup-build", work);
	if (sdk_rm_rf(work) || mkdir(work, 0755) || chdir(work)) {
		fprintf(stderr, "cannot make %s\n", work);
		return -1;
	}
	if (sdk_run(&res, work, "'%s' --install '%s' --prefix '%s'", BC_SDK_CMAKE,
		    BC_TEST_BUILD_DIR, prefix))
		return -1;
	if (res.status != 0) {
		sdk_out_dump(&res);
		sdk_out_free(&res);
		return -1;
	}
	sdk_out_free(&res);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (!getenv("BC_SDK_KEEP"))
		sdk_rm_rf(work);
	return 0;
}

static void test_installed_layout(void **state)
{
	struct sdk_out res;
	char lib[PATH_MAX + 64];

	(void)state;
	expect_file(prefix, BC_SDK_BINDIR "/benchcore");
	expect_file(prefix, BC_SDK_LIBDIR "/libbenchcore.so");
	expect_file(prefix, BC_SDK_INCLUDEDIR "/benchcore/benchcore.h");
	expect_file(prefix, BC_SDK_INCLUDEDIR "/benchcore/attach.h");
	expect_file(prefix, BC_SDK_INCLUDEDIR "/benchcore/bpf/benchcore.bpf.h");
	expect_file(prefix, BC_SDK_LIBDIR "/benchcore/plugins/count.so");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/benchcoreConfig.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/benchcoreConfigVersion.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/benchcoreTargets.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/BenchcorePlugin.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/BenchcoreBpf.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/cmake/benchcore/FindBenchcoreBpf.cmake");
	expect_file(prefix, BC_SDK_LIBDIR "/pkgconfig/benchcore.pc");
	expect_file(prefix, BC_SDK_DOCDIR "/examples/hello-plugin/CMakeLists.txt");
	expect_file(prefix, BC_SDK_DOCDIR "/examples/lookup-plugin/CMakeLists.txt");
	/* Every page, not only the plugin author's: they link to each other. */
	expect_file(prefix, BC_SDK_DOCDIR "/writing-plugins.md");
	expect_file(prefix, BC_SDK_DOCDIR "/measuring.md");
	expect_file(prefix, BC_SDK_DOCDIR "/architecture.md");
	expect_file(prefix, BC_SDK_DOCDIR "/benchmarks/ringbuf.md");
	expect_file(prefix, BC_SDK_DOCDIR "/img/report.png");

	/* The soname follows the ABI major: a core that breaks plugins is a
	 * different library file. */
	snprintf(lib, sizeof(lib), "%s/%s/libbenchcore.so", prefix, BC_SDK_LIBDIR);
	RUN(&res, "readelf -d '%s'", lib);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "[libbenchcore.so." SDK_STR(BC_SDK_ABI_MAJOR) "]");
	sdk_out_free(&res);
	/* ... and so does the symbol version plugins bind to. */
	RUN(&res, "readelf --dyn-syms -W '%s'", lib);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "bc_ctx_data@@BENCHCORE_" SDK_STR(BC_SDK_ABI_MAJOR) ".0");
	sdk_out_free(&res);

	/* Relocatable: the binaries find libbenchcore relative to themselves. */
	RUN(&res, "readelf -d '%s/" BC_SDK_BINDIR "/benchcore' '%s/" BC_SDK_LIBDIR
	    "/benchcore/plugins/count.so'", prefix, prefix);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "[$ORIGIN/../" BC_SDK_LIBDIR "]");
	expect_contains(&res, res.out, "[$ORIGIN/../..]");
	sdk_out_free(&res);
}

static void test_example_builds_against_prefix_alone(void **state)
{
	struct sdk_out res;

	(void)state;
	/* The installed copy of the example, so that no path into benchcore's
	 * source tree is anywhere in the build. */
	RUN(&res, "cp -R '%s/" BC_SDK_DOCDIR "/examples/hello-plugin' '%s'", prefix, hello_src);
	expect_status(&res, 0);
	sdk_out_free(&res);

	RUN(&res, "'%s' -S '%s' -B '%s' -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s'",
	    BC_SDK_CMAKE, hello_src, hello_build, prefix, BC_SDK_C_COMPILER);
	expect_status(&res, 0);
	sdk_out_free(&res);

	RUN(&res, "'%s' --build '%s'", BC_SDK_CMAKE, hello_build);
	expect_status(&res, 0);
	sdk_out_free(&res);
	expect_file(hello_build, "plugins/hello.so");

	/* Hidden visibility: the descriptor is the only symbol it exports
	 * (the linker's _init/_fini aside). */
	RUN(&res, "nm -D --defined-only '%s/plugins/hello.so' | awk '{print $3}' | "
	    "grep -v -x -e _init -e _fini", hello_build);
	expect_status(&res, 0);
	if (strcmp(res.out, "benchcore_plugin\n") != 0) {
		sdk_out_dump(&res);
		fail_msg("hello.so exports more than benchcore_plugin");
	}
	sdk_out_free(&res);
}

/* -DBENCHCORE_VMLINUX_H: the skeleton is compiled against that file, and
 * nothing in the build reads the build machine's BTF. The pinned header is
 * the one the first build generated, marked and under another name. */
static void test_pinned_vmlinux(void **state)
{
	struct sdk_out res;

	(void)state;
	RUN(&res, "mkdir -p pinned && { echo '/* pinned for test_sdk_install */'; "
	    "cat '%s/benchcore-bpf/vmlinux.h'; } > pinned/kernel-x.h", hello_build);
	expect_status(&res, 0);
	sdk_out_free(&res);

	RUN(&res, "'%s' -S '%s' -B '%s' -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s' "
	    "-DBENCHCORE_VMLINUX_H='%s/pinned/kernel-x.h'",
	    BC_SDK_CMAKE, hello_src, hello_pinned, prefix, BC_SDK_C_COMPILER, work);
	expect_status(&res, 0);
	sdk_out_free(&res);

	/* No build rule names the kernel's BTF (the cache's help text may). */
	RUN(&res, "grep -rl --exclude=CMakeCache.txt -e /sys/kernel/btf/vmlinux '%s'",
	    hello_pinned);
	expect_status(&res, 1);
	sdk_out_free(&res);

	RUN(&res, "'%s' --build '%s'", BC_SDK_CMAKE, hello_pinned);
	expect_status(&res, 0);
	sdk_out_free(&res);
	expect_file(hello_pinned, "plugins/hello.so");

	RUN(&res, "cmp pinned/kernel-x.h '%s/benchcore-bpf/vmlinux.h' && "
	    "grep -l -r --include='*.o.d' -e '%s/benchcore-bpf/vmlinux.h' '%s'",
	    hello_pinned, hello_pinned, hello_pinned);
	expect_status(&res, 0);
	sdk_out_free(&res);
}

static void test_run_with_plugin_dir(void **state)
{
	char extra[PATH_MAX + 32];
	struct sdk_out res;

	(void)state;
	snprintf(extra, sizeof(extra), "--plugin-dir '%s/plugins'", hello_build);
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' %s list", prefix, extra);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "hello:hello-tp");
	sdk_out_free(&res);

	run_hits(prefix, extra, "hello:hello-tp");
}

/* The member `key` of `obj`, failing the test (with the document) if absent. */
static const struct bc_json *json_need(const struct sdk_out *res, const struct bc_json *obj,
				       const char *key)
{
	const struct bc_json *v = bc_json_get(obj, key);

	if (!v) {
		sdk_out_dump(res);
		fail_msg("JSON document lacks '%s'", key);
	}
	return v;
}

static void test_example_features(void **state)
{
	static const char *const pcts[] = { "count", "p50", "p90", "p99", "p99.9", "max" };
	const struct bc_json *opts, *set, *hist, *progs, *prog;
	struct sdk_out res;
	struct bc_json *doc;
	char err[256];
	size_t i;

	(void)state;
	/* Its option table, documented by the core. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' --plugin-dir '%s/plugins' run "
	    "hello:hello-tp --help", prefix, hello_build);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "--hello-batch=N");
	expect_contains(&res, res.out, "(1 to 1000; default 1)");
	expect_contains(&res, res.out, "--hello-untimed");
	sdk_out_free(&res);

	/* A bad value: the core's one message form, exit status 2. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' --plugin-dir '%s/plugins' run "
	    "hello:hello-tp --hello-batch 0 -w0 -d1", prefix, hello_build);
	expect_status(&res, 2);
	expect_contains(&res, res.err, "--hello-batch '0': expected an integer from 1 to 1000");
	sdk_out_free(&res);

	/* The other benchmark (same callbacks, its own .priv), a typed option,
	 * the histogram recorded by the producers, the declared program. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' --plugin-dir '%s/plugins' run "
	    "hello:hello-raw-tp --hello-batch 7 -w0 -d1 --format json", prefix, hello_build);
	expect_status(&res, 0);
	doc = bc_json_parse(res.out, strlen(res.out), err, sizeof(err));
	if (!doc) {
		sdk_out_dump(&res);
		fail_msg("run --format json: %s", err);
	}
	assert_string_equal(bc_json_str(json_need(&res, doc, "attach_point")), "raw_tp/sys_enter");

	opts = json_need(&res, json_need(&res, doc, "config"), "plugin_options");
	assert_int_equal(json_need(&res, opts, "hello-batch")->type, BC_JSON_NUMBER);
	assert_true(bc_json_num(json_need(&res, opts, "hello-batch"), 0) == 7);
	assert_int_equal(json_need(&res, opts, "hello-untimed")->type, BC_JSON_BOOL);
	set = json_need(&res, json_need(&res, doc, "config"), "plugin_options_set");
	assert_int_equal(bc_json_len(set), 1);
	assert_string_equal(bc_json_str(bc_json_at(set, 0)), "hello-batch");

	assert_true(sdk_json_summary_mean(res.out, "hits") > 0);
	hist = json_need(&res, json_need(&res, doc, "summary"), "call_ns");
	assert_string_equal(bc_json_str(json_need(&res, hist, "kind")), "histogram");
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		json_need(&res, hist, pcts[i]);
	/* Every producer call was timed: some did take time. */
	assert_true(bc_json_num(json_need(&res, hist, "count"), 0) > 0);
	assert_true(bc_json_num(json_need(&res, hist, "max"), 0) > 0);
	/* The histogram the BPF program records, merged by the core. */
	hist = json_need(&res, json_need(&res, doc, "summary"), "gap_ns");
	assert_string_equal(bc_json_str(json_need(&res, hist, "kind")), "histogram");
	assert_true(bc_json_num(json_need(&res, hist, "count"), 0) > 0);
	assert_true(bc_json_num(json_need(&res, hist, "p50"), 0) > 0);

	progs = json_need(&res, doc, "programs");
	assert_int_equal(bc_json_len(progs), 1);
	prog = bc_json_at(progs, 0);
	/* Declared by the core, from the attach point that worked. */
	assert_string_equal(bc_json_str(json_need(&res, prog, "role")), "producer");
	assert_string_equal(bc_json_str(json_need(&res, prog, "name")), "hello_raw_tp");
	assert_true(bc_json_num(json_need(&res, prog, "id"), 0) > 0);
	bc_json_free(doc);
	sdk_out_free(&res);

	/* The same in text: the histogram and program lines before Summary. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' --plugin-dir '%s/plugins' run "
	    "hello:hello-tp -w0 -d1", prefix, hello_build);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "Histogram getpgid() call latency: count ");
	expect_contains(&res, res.out, "Program producer: hello_tp (id ");
	/* hello has no runner name: its own words and units (ABI 2.2). */
	expect_contains(&res, res.out, "Summary: hits ");
	expect_contains(&res, res.out, " ops/s");
	sdk_out_free(&res);
}

/* ---------------------------------------------------- installed docs */

static char link_docdir[PATH_MAX + 64];
static int link_pages, link_checked, link_broken;

/* Each relative link of one page, "](target)" outside fenced code: the
 * file it names, relative to the page, must exist. */
static void check_page_links(const char *page)
{
	char *text, *p, *end, dir[PATH_MAX], target[PATH_MAX], full[PATH_MAX * 2 + 2];
	bool fenced = false;
	struct sdk_out res;
	size_t n;

	RUN(&res, "cat '%s'", page);
	expect_status(&res, 0);
	text = res.out;
	snprintf(dir, sizeof(dir), "%s", page);
	*strrchr(dir, '/') = '\0';
	link_pages++;
	for (p = text; p && *p; p = end ? end + 1 : NULL) {
		char *line = p, *l;

		end = strchr(p, '\n');
		if (end)
			*end = '\0';
		if (!strncmp(line, "```", 3)) {
			fenced = !fenced;
			continue;
		}
		for (l = line; !fenced && (l = strstr(l, "](")); l += 2) {
			char *t = l + 2;

			n = strcspn(t, ")# \t");
			if (!n || n >= sizeof(target))
				continue;
			snprintf(target, sizeof(target), "%.*s", (int)n, t);
			if (strstr(target, "://") || !strncmp(target, "mailto:", 7))
				continue;
			snprintf(full, sizeof(full), "%s/%s", dir, target);
			link_checked++;
			if (!sdk_exists(full)) {
				fprintf(stderr, "%s: link '%s' leads to no file\n",
					page + strlen(link_docdir) + 1, target);
				link_broken++;
			}
		}
	}
	sdk_out_free(&res);
}

static int visit_page(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	size_t len = strlen(path);

	(void)sb;
	(void)ftw;
	if (type == FTW_F && len > 3 && !strcmp(path + len - 3, ".md"))
		check_page_links(path);
	return 0;
}

/* The installed documentation is a whole: every page is there, and no
 * relative link in it (between pages, to the pictures, to the examples)
 * leads nowhere. */
static void test_installed_doc_links(void **state)
{
	(void)state;
	snprintf(link_docdir, sizeof(link_docdir), "%s/%s", prefix, BC_SDK_DOCDIR);
	link_pages = link_checked = link_broken = 0;
	assert_int_equal(nftw(link_docdir, visit_page, 16, FTW_PHYS), 0);
	if (link_pages < 30 || !link_checked)
		fail_msg("%d pages and %d links under %s: the docs are not all installed",
			 link_pages, link_checked, link_docdir);
	if (link_broken)
		fail_msg("%d of %d relative links in the installed docs lead to no file",
			 link_broken, link_checked);
}

/*
 * The second example, as the first: its installed copy built against the
 * prefix alone, run through the installed benchcore. Its result is a time
 * per operation measured in BPF, its hash variant takes an option the
 * array one does not, with a K suffix.
 */
static void test_lookup_example(void **state)
{
	char extra[PATH_MAX + 32];
	struct sdk_out res;
	struct bc_json *doc;
	const struct bc_json *hl;
	char err[256];

	(void)state;
	RUN(&res, "cp -R '%s/" BC_SDK_DOCDIR "/examples/lookup-plugin' '%s' && "
	    "'%s' -S '%s' -B '%s' -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s' && "
	    "'%s' --build '%s'", prefix, lookup_src, BC_SDK_CMAKE, lookup_src, lookup_build,
	    prefix, BC_SDK_C_COMPILER, BC_SDK_CMAKE, lookup_build);
	expect_status(&res, 0);
	sdk_out_free(&res);
	expect_file(lookup_build, "plugins/lookup.so");

	snprintf(extra, sizeof(extra), "--plugin-dir '%s/plugins'", lookup_build);
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' %s run lookup:hash --lookup-keys 4K "
	    "--lookup-ops 1K -w0 -d1 --format json", prefix, extra);
	expect_status(&res, 0);
	doc = bc_json_parse(res.out, strlen(res.out), err, sizeof(err));
	if (!doc) {
		sdk_out_dump(&res);
		fail_msg("run --format json: %s", err);
	}
	hl = bc_json_get(doc, "headline");
	assert_non_null(hl);
	assert_string_equal(bc_json_str(hl), "ns_per_lookup");
	assert_true(bc_json_num(json_need(&res, json_need(&res, json_need(&res, doc, "config"),
							   "plugin_options"), "lookup-keys"), 0) == 4000);
	assert_true(sdk_json_summary_mean(res.out, "ns_per_lookup") > 0);
	assert_true(sdk_json_summary_mean(res.out, "lookups") > 0);
	bc_json_free(doc);
	sdk_out_free(&res);

	/* The array variant, in text: the result and what was measured. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' %s run lookup:array -w0 -d1 -q", prefix, extra);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "Attach point: ");
	expect_contains(&res, res.out, " ns/op");
	sdk_out_free(&res);

	/* An option of lookup:hash alone, given to lookup:array. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' %s run lookup:array --lookup-keys 4K -w0 -d1",
	    prefix, extra);
	expect_status(&res, 2);
	expect_contains(&res, res.err, "--lookup-keys is not an option of lookup:array; it belongs to lookup:hash");
	sdk_out_free(&res);
}

static void test_pkg_config(void **state)
{
	char want[PATH_MAX * 2], got[PATH_MAX], *nl;
	struct sdk_out res;

	(void)state;
	RUN(&res, "PKG_CONFIG_PATH='%s/" BC_SDK_LIBDIR "/pkgconfig' pkg-config "
	    "--variable=plugindir benchcore", prefix);
	expect_status(&res, 0);
	nl = strchr(res.out, '\n');
	if (nl)
		*nl = '\0';
	snprintf(want, sizeof(want), "%s/" BC_SDK_LIBDIR "/benchcore/plugins", prefix);
	if (!realpath(res.out, got) || strcmp(got, want) != 0) {
		sdk_out_dump(&res);
		fail_msg("plugindir '%s', expected '%s'", res.out, want);
	}
	sdk_out_free(&res);

	/* A plugin built with nothing but pkg-config's flags loads too. */
	RUN(&res, "mkdir -p pc-plugins && export PKG_CONFIG_PATH='%s/" BC_SDK_LIBDIR "/pkgconfig' && "
	    "'%s' -shared -fPIC -fvisibility=hidden -DABI_FIXTURE_NAME='\"pcplug\"' "
	    "$(pkg-config --cflags benchcore) '%s/tests/sdk/abi_plugin.c' "
	    "-o pc-plugins/pcplug.so -Wl,--no-undefined $(pkg-config --libs benchcore)",
	    prefix, BC_SDK_C_COMPILER, BC_TEST_SOURCE_DIR);
	expect_status(&res, 0);
	sdk_out_free(&res);
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' --plugin-dir pc-plugins list", prefix);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "pcplug:spin");
	sdk_out_free(&res);
}

/*
 * The example, BPF side included, from pkg-config's variables alone:
 * vmlinux.h from the running kernel, the BPF object with clang (the
 * architecture's define, the SDK's BPF headers, the multiarch include
 * dir), its skeleton with bpftool, then the plugin with cc.
 */
static void test_pkg_config_bpf(void **state)
{
	struct sdk_out res;

	(void)state;
	RUN(&res, "set -e; export PKG_CONFIG_PATH='%s/" BC_SDK_LIBDIR "/pkgconfig'; "
	    "rm -rf pc-hello && mkdir -p pc-hello/plugins && cd pc-hello; "
	    "case $(uname -m) in x86_64) arch=x86;; aarch64) arch=arm64;; s390x) arch=s390;; "
	    "riscv64) arch=riscv;; *) arch=$(uname -m);; esac; "
	    "bpftool btf dump file /sys/kernel/btf/vmlinux format c > vmlinux.h; "
	    "clang -g -O2 -target bpf -D__TARGET_ARCH_$arch -I. "
	    "-I\"$(pkg-config --variable=bpfincludedir benchcore)\" "
	    "-idirafter /usr/include/$('%s' -print-multiarch) "
	    "-c '%s/hello.bpf.c' -o hello.bpf.o; "
	    "bpftool gen skeleton hello.bpf.o name hello > hello.skel.h; "
	    "'%s' -shared -fPIC -fvisibility=hidden -DHELLO_VERSION='\"2.0.0\"' -I. "
	    "$(pkg-config --cflags benchcore) '%s/hello.c' -o plugins/hello.so "
	    "-Wl,--no-undefined $(pkg-config --libs benchcore) "
	    "$(pkg-config --variable=plugin_ldflags benchcore)",
	    prefix, BC_SDK_C_COMPILER, hello_src, BC_SDK_C_COMPILER, hello_src);
	expect_status(&res, 0);
	sdk_out_free(&res);
	run_hits(prefix, "--plugin-dir pc-hello/plugins", "hello:hello-tp");

	/* Installed into plugindir, it finds libbenchcore relative to itself,
	 * as a plugin built with benchcore_add_plugin() does: for ldd, and for
	 * any program that loads it, wherever the tree is. */
	RUN(&res, "readelf -d pc-hello/plugins/hello.so");
	expect_status(&res, 0);
	expect_contains(&res, res.out, "[$ORIGIN/../..]");
	sdk_out_free(&res);
	RUN(&res, "cp pc-hello/plugins/hello.so '%s/" BC_SDK_LIBDIR "/benchcore/plugins/pchello.so' && "
	    "ldd '%s/" BC_SDK_LIBDIR "/benchcore/plugins/pchello.so'; "
	    "rm -f '%s/" BC_SDK_LIBDIR "/benchcore/plugins/pchello.so'", prefix, prefix, prefix);
	expect_status(&res, 0);
	if (strstr(res.out, "libbenchcore.so." SDK_STR(BC_SDK_ABI_MAJOR) " => not found") ||
	    !strstr(res.out, "/benchcore/plugins/../../libbenchcore.so")) {
		sdk_out_dump(&res);
		fail_msg("the pkg-config plugin does not find libbenchcore from plugindir");
	}
	sdk_out_free(&res);
}

static void test_install_into_default_dir(void **state)
{
	struct sdk_out res;

	(void)state;
	RUN(&res, "'%s' --install '%s'", BC_SDK_CMAKE, hello_build);
	expect_status(&res, 0);
	sdk_out_free(&res);
	expect_file(prefix, BC_SDK_LIBDIR "/benchcore/plugins/hello.so");

	/* The same install rule as benchcore's own plugins, RPATH included. */
	RUN(&res, "readelf -d '%s/" BC_SDK_LIBDIR "/benchcore/plugins/hello.so'", prefix);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "[$ORIGIN/../..]");
	sdk_out_free(&res);

	/* No flags: the installed benchcore finds its own plugins and the
	 * one installed next to them. */
	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' list", prefix);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "hello:hello-tp");
	expect_contains(&res, res.out, "count:count-local");
	sdk_out_free(&res);

	run_hits(prefix, "", "hello:hello-tp");
}

static void test_relocated_tree(void **state)
{
	char parent[PATH_MAX + 16], want[PATH_MAX * 2];
	struct sdk_out res;

	(void)state;
	snprintf(parent, sizeof(parent), "%s/moved", work);
	assert_int_equal(mkdir(parent, 0755), 0);
	assert_int_equal(rename(prefix, moved), 0);

	RUN(&res, "'%s/" BC_SDK_BINDIR "/benchcore' list", moved);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "hello:hello-tp");
	expect_contains(&res, res.out, "count:count-local");
	sdk_out_free(&res);

	run_hits(moved, "", "count:count-local");
	run_hits(moved, "", "hello:hello-tp");

	/* The package files follow the tree as well. */
	RUN(&res, "PKG_CONFIG_PATH='%s/" BC_SDK_LIBDIR "/pkgconfig' pkg-config "
	    "--variable=plugindir benchcore", moved);
	expect_status(&res, 0);
	expect_contains(&res, res.out, "moved/tree/");
	sdk_out_free(&res);

	RUN(&res, "'%s' -S '%s' -B '%s-moved' -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s' && "
	    "grep '^BENCHCORE_PLUGIN_INSTALL_DIR:' '%s-moved/CMakeCache.txt'",
	    BC_SDK_CMAKE, hello_src, hello_build, moved, BC_SDK_C_COMPILER, hello_build);
	expect_status(&res, 0);
	snprintf(want, sizeof(want), "=%s/" BC_SDK_LIBDIR "/benchcore/plugins\n", moved);
	expect_contains(&res, res.out, want);
	sdk_out_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installed_layout),
		cmocka_unit_test(test_example_builds_against_prefix_alone),
		cmocka_unit_test(test_pinned_vmlinux),
		cmocka_unit_test(test_run_with_plugin_dir),
		cmocka_unit_test(test_example_features),
		cmocka_unit_test(test_installed_doc_links),
		cmocka_unit_test(test_lookup_example),
		cmocka_unit_test(test_pkg_config),
		cmocka_unit_test(test_pkg_config_bpf),
		cmocka_unit_test(test_install_into_default_dir),
		cmocka_unit_test(test_relocated_tree),
	};

	if (!BC_SDK_BPF) {
		printf("skipped: BPF support is off in this build (BENCHCORE_BPF=OFF), "
		       "and the example plugin has a BPF program\n");
		return 77;
	}
	sdk_require_root("running the example plugin");
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
