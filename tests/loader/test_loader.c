// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The plugin loader against fixture plugins built by this test suite: each
 * refusal is one line naming the file and the reason, and the valid plugins
 * still load beside the refused ones.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bc_internal.h"

#define MIXED_FILES                                                                     \
	"valid.so", "newer_minor.so", "other_major.so", "no_symbol.so", "old_size.so",   \
		"big_zero.so", "big_set.so", "dup_bench.so", "empty_name.so",            \
		"no_measure.so", "null_metrics.so"

/* Each test works on private copies of the fixtures, so that the modes it
 * sets (and the umask of whoever built them) cannot leak between tests. */
struct fixture_dirs {
	char root[PATH_MAX];
	char mixed[PATH_MAX];
	char other[PATH_MAX];
	char shadow[PATH_MAX];
};

/* snprintf() into an array, failing the test rather than truncating. */
#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static char *log_buf;
static FILE *log_file;

static void log_capture_start(void)
{
	log_file = tmpfile();
	assert_non_null(log_file);
	bc_log_set_file(log_file);
}

/* Returns everything logged since log_capture_start(); owned by the test. */
static const char *log_capture_end(void)
{
	long len;

	bc_log_set_file(NULL);
	fflush(log_file);
	len = ftell(log_file);
	assert_true(len >= 0);
	free(log_buf);
	log_buf = calloc(1, (size_t)len + 1);
	assert_non_null(log_buf);
	rewind(log_file);
	assert_int_equal(fread(log_buf, 1, (size_t)len, log_file), (size_t)len);
	fclose(log_file);
	log_file = NULL;
	return log_buf;
}

static void copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	in = open(src, O_RDONLY);
	assert_true(in >= 0);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	assert_int_equal(fchmod(out, mode), 0);
	close(out);
}

static void make_dir(const char *path)
{
	assert_int_equal(mkdir(path, 0755), 0);
	/* The builder's umask must not make the dir group-writable. */
	assert_int_equal(chmod(path, 0755), 0);
}

static void copy_fixtures(const char *subdir, const char *dst, const char *const *names,
			  size_t cnt)
{
	char src[PATH_MAX], to[PATH_MAX];
	size_t i;

	make_dir(dst);
	for (i = 0; i < cnt; i++) {
		PATHF(src, "%s/%s/%s", BC_LOADER_FIXTURES, subdir, names[i]);
		PATHF(to, "%s/%s", dst, names[i]);
		copy_file(src, to, 0755);
	}
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static int setup_dirs(void **state)
{
	static const char *const mixed[] = { MIXED_FILES };
	static const char *const other[] = { "other.so" };
	static const char *const shadow[] = { "fixture_again.so" };
	struct fixture_dirs *d = calloc(1, sizeof(*d));
	char path[PATH_MAX];

	if (!d)
		return -1;
	PATHF(d->root, "%s/tests/loader-XXXXXX", BC_TEST_BUILD_DIR);
	if (!mkdtemp(d->root))
		return -1;
	chmod(d->root, 0755);
	PATHF(d->mixed, "%s/mixed", d->root);
	PATHF(d->other, "%s/other", d->root);
	PATHF(d->shadow, "%s/shadow", d->root);
	copy_fixtures("mixed", d->mixed, mixed, sizeof(mixed) / sizeof(mixed[0]));
	copy_fixtures("other", d->other, other, 1);
	copy_fixtures("shadow", d->shadow, shadow, 1);
	/* Named like a plugin, but text: dlopen() must refuse it. */
	PATHF(path, "%s/not_elf.so", d->mixed);
	write_text(path, "this is not an ELF file\n");
	bc_log_set_verbosity(0);
	*state = d;
	return 0;
}

static int teardown_dirs(void **state)
{
	struct fixture_dirs *d = *state;
	char cmd[PATH_MAX + 32];
	int rc;

	PATHF(cmd, "rm -rf '%s'", d->root);
	rc = system(cmd);
	free(d);
	free(log_buf);
	log_buf = NULL;
	bc_log_set_verbosity(0);
	return rc == 0 ? 0 : -1;
}

static const struct bc_plugin *find_plugin(const struct bc_plugin_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->cnt; i++)
		if (!strcmp(set->plugins[i].desc.name, name))
			return &set->plugins[i];
	return NULL;
}

/* The line for `file` in the log says `reason`. */
static void assert_refused(const char *log, const char *dir, const char *file, const char *reason)
{
	char prefix[PATH_MAX + 64];
	const char *line, *eol;

	PATHF(prefix, "benchcore: %s/%s: ", dir, file);
	line = strstr(log, prefix);
	if (!line)
		fail_msg("no refusal line for %s in:\n%s", file, log);
	eol = strchr(line, '\n');
	assert_non_null(eol);
	if (!memmem(line, (size_t)(eol - line), reason, strlen(reason)))
		fail_msg("refusal of %s does not say '%s': %.*s", file, reason, (int)(eol - line), line);
}

static void test_mixed_dir(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_plugin *p;
	const char *log;
	char want[256];

	log_capture_start();
	assert_int_equal(bc_plugins_load_dir(&set, d->mixed, false), 0);
	log = log_capture_end();

	/* Loaded: the valid one, the older-size one, the larger one with a
	 * zero tail. */
	assert_int_equal(set.cnt, 3);
	assert_non_null(find_plugin(&set, "fixture"));
	assert_non_null(find_plugin(&set, "old"));
	assert_non_null(find_plugin(&set, "bigzero"));
	p = find_plugin(&set, "fixture");
	assert_int_equal(p->bench_cnt, 4);
	assert_string_equal(p->benches[0].desc.name, "ok");
	assert_ptr_equal(p->benches[0].plugin, p);

	PATHF(want, "built for plugin ABI %d.%d, newer than this benchcore's ABI %d.%d",
		 BC_ABI_MAJOR, BC_ABI_MINOR + 1, BC_ABI_MAJOR, BC_ABI_MINOR);
	assert_refused(log, d->mixed, "newer_minor.so", want);
	PATHF(want, "built for plugin ABI %d.%d, but this benchcore implements ABI %d.%d",
		 BC_ABI_MAJOR + 1, BC_ABI_MINOR, BC_ABI_MAJOR, BC_ABI_MINOR);
	assert_refused(log, d->mixed, "other_major.so", want);
	assert_refused(log, d->mixed, "no_symbol.so", "does not export the 'benchcore_plugin' symbol");
	assert_refused(log, d->mixed, "not_elf.so", "not a loadable shared object");
	assert_refused(log, d->mixed, "big_set.so", "sets fields this core does not know");
	assert_refused(log, d->mixed, "dup_bench.so", "duplicate benchmark name 'same'");
	assert_refused(log, d->mixed, "empty_name.so", "benchmark #0 has an empty name");
	assert_refused(log, d->mixed, "no_measure.so", "benchmark 'no-measure' has no measure callback");
	assert_refused(log, d->mixed, "null_metrics.so", "declares 1 metrics but metrics is NULL");
	assert_int_equal(set.failed_cnt, 9);
	/* One line per refusal, nothing else at the default verbosity. */
	{
		size_t lines = 0;
		const char *c;

		for (c = log; *c; c++)
			lines += *c == '\n';
		assert_int_equal(lines, 9);
	}
	bc_plugins_unload(&set);
	assert_int_equal(set.cnt, 0);
}

static void test_old_and_big_sizes(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_plugin *p;
	const struct bc_bench *b;

	log_capture_start();
	bc_plugins_load_dir(&set, d->mixed, false);
	log_capture_end();

	/* The older descriptor: copied into the current layout, the fields
	 * it lacks zero, its own fields intact. */
	p = find_plugin(&set, "old");
	assert_non_null(p);
	assert_int_equal(p->bench_cnt, 1);
	b = &p->benches[0];
	assert_string_equal(b->desc.name, "old-size");
	assert_int_equal(b->desc.sz, sizeof(struct bc_bench_desc));
	assert_non_null(b->desc.producer);
	assert_non_null(b->desc.measure);
	assert_null(b->desc.format_iter);
	assert_null(b->desc.format_summary);
	assert_int_equal(b->desc.metric_cnt, 1);
	assert_string_equal(b->metrics[0].name, "hits");
	assert_ptr_equal(b->desc.metrics, b->metrics);

	p = find_plugin(&set, "bigzero");
	assert_non_null(p);
	assert_string_equal(p->benches[0].desc.name, "big-size");
	assert_int_equal(p->benches[0].desc.sz, sizeof(struct bc_bench_desc));
	bc_plugins_unload(&set);
}

static void test_search_order_shadow_and_dedup(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	char again[PATH_MAX];
	const char *dirs[3];
	struct bc_loader_opts opts = { .dirs = dirs, .dir_cnt = 3, .only_dirs = true };
	const struct bc_plugin *p;
	const char *log;
	char want[PATH_MAX * 2];

	/* mixed/ reached twice (the second time through other/..), then
	 * shadow/, which holds another plugin called "fixture". */
	PATHF(again, "%s/../mixed", d->other);
	dirs[0] = d->mixed;
	dirs[1] = again;
	dirs[2] = d->shadow;

	bc_log_set_verbosity(1);
	log_capture_start();
	assert_int_equal(bc_plugins_load(&set, &opts), 0);
	log = log_capture_end();
	bc_log_set_verbosity(0);

	p = find_plugin(&set, "fixture");
	assert_non_null(p);
	PATHF(want, "%s/valid.so", d->mixed);
	assert_string_equal(p->path, want);
	/* Searched once: no second round of refusals for mixed/. */
	assert_int_equal(set.failed_cnt, 9);
	PATHF(want, "plugin directory %s: already searched", again);
	assert_non_null(strstr(log, want));
	PATHF(want, "%s/fixture_again.so: plugin 'fixture' is shadowed by %s/valid.so",
		 d->shadow, d->mixed);
	if (!strstr(log, want))
		fail_msg("no shadowing line '%s' in:\n%s", want, log);
	bc_plugins_unload(&set);
}

static void test_missing_plugin_dir(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	char missing[PATH_MAX];
	const char *dirs[1] = { missing };
	struct bc_loader_opts opts = { .dirs = dirs, .dir_cnt = 1, .only_dirs = true };
	const char *log;

	PATHF(missing, "%s/does-not-exist", d->root);
	log_capture_start();
	assert_int_equal(bc_plugins_load(&set, &opts), -ENOENT);
	log = log_capture_end();
	assert_non_null(strstr(log, "--plugin-dir '"));
	assert_non_null(strstr(log, "does-not-exist': No such file or directory"));
	assert_int_equal(set.cnt, 0);
	bc_plugins_unload(&set);
}

static void test_unsafe_dir_and_file(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	char dir[PATH_MAX], src[PATH_MAX], dst[PATH_MAX];
	const char *log;

	PATHF(dir, "%s/writable", d->root);
	PATHF(src, "%s/valid.so", d->mixed);
	PATHF(dst, "%s/valid.so", dir);
	make_dir(dir);
	copy_file(src, dst, 0755);
	assert_int_equal(chmod(dir, 0775), 0);

	log_capture_start();
	bc_plugins_load_dir(&set, dir, false);
	log = log_capture_end();
	assert_int_equal(set.cnt, 0);
	assert_int_equal(set.failed_cnt, 1);
	assert_non_null(strstr(log, dir));
	assert_non_null(strstr(log, ": directory is writable by group or others; a writable plugin directory gives root to anyone who can write there (use --allow-unsafe-plugins to load anyway)"));
	bc_plugins_unload(&set);

	/* The user said so: it loads. */
	log_capture_start();
	bc_plugins_load_dir(&set, dir, true);
	log_capture_end();
	assert_int_equal(set.cnt, 1);
	bc_plugins_unload(&set);

	/* A safe directory, but a file anyone in the group may rewrite. */
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chmod(dst, 0775), 0);
	log_capture_start();
	bc_plugins_load_dir(&set, dir, false);
	log = log_capture_end();
	assert_int_equal(set.cnt, 0);
	assert_refused(log, dir, "valid.so", "file is writable by group or others");
	bc_plugins_unload(&set);

	/* Owned by someone else (we are root in CI; skip the part otherwise). */
	if (geteuid() == 0) {
		assert_int_equal(chmod(dst, 0755), 0);
		assert_int_equal(chown(dst, 4242, 4242), 0);
		log_capture_start();
		bc_plugins_load_dir(&set, dir, false);
		log = log_capture_end();
		assert_int_equal(set.cnt, 0);
		assert_refused(log, dir, "valid.so", "file is owned by uid 4242");
		bc_plugins_unload(&set);
	}
}

static void test_resolve(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_bench *b;
	char err[BC_REASON_LEN];

	log_capture_start();
	bc_plugins_load_dir(&set, d->mixed, false);
	bc_plugins_load_dir(&set, d->other, false);
	log_capture_end();
	assert_non_null(find_plugin(&set, "other"));

	assert_int_equal(bc_bench_resolve(&set, "fixture:ok", &b, err, sizeof(err)), 0);
	assert_string_equal(b->desc.name, "ok");
	assert_string_equal(b->plugin->desc.name, "fixture");
	assert_int_equal(bc_bench_resolve(&set, "old-size", &b, err, sizeof(err)), 0);
	assert_string_equal(b->plugin->desc.name, "old");

	assert_int_equal(bc_bench_resolve(&set, "shared", &b, err, sizeof(err)), -ENOTUNIQ);
	assert_null(b);
	assert_string_equal(err, "benchmark 'shared' is ambiguous: fixture:shared, other:shared; name one as PLUGIN:BENCH");

	assert_int_equal(bc_bench_resolve(&set, "nope", &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "unknown benchmark 'nope'"));
	assert_int_equal(bc_bench_resolve(&set, "fixture:nope", &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "plugin fixture has: ok, setup-fails, unavailable, shared"));
	assert_int_equal(bc_bench_resolve(&set, "zzz:ok", &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "unknown plugin 'zzz'"));
	bc_plugins_unload(&set);
}

static void run_fixture(const struct bc_plugin_set *set, const char *name,
			struct bc_run_result *res)
{
	const struct bc_bench *b;
	struct bc_config cfg;
	char err[BC_REASON_LEN];

	assert_int_equal(bc_bench_resolve(set, name, &b, err, sizeof(err)), 0);
	bc_config_init(&cfg);
	cfg.warmup_sec = 0;
	cfg.duration_sec = 1;
	bc_run(&cfg, b, res, NULL, NULL);
}

static void test_setup_fails_and_unavailable(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	struct bc_run_result res;

	log_capture_start();
	bc_plugins_load_dir(&set, d->mixed, false);
	log_capture_end();

	run_fixture(&set, "fixture:setup-fails", &res);
	assert_int_equal(res.exit_status, BC_EXIT_FAILED);
	assert_non_null(strstr(res.reason, "fixture setup fails on purpose"));
	assert_int_equal(res.iter_cnt, 0);
	bc_run_result_free(&res);

	run_fixture(&set, "fixture:unavailable", &res);
	assert_int_equal(res.exit_status, BC_EXIT_UNAVAILABLE);
	assert_non_null(strstr(res.reason, "fixture needs a kernel feature nobody has"));
	bc_run_result_free(&res);

	/* And the valid benchmark of the same plugin runs. */
	run_fixture(&set, "fixture:ok", &res);
	assert_int_equal(res.exit_status, BC_EXIT_OK);
	assert_true(res.iter_cnt >= 1);
	bc_run_result_free(&res);

	/* The older-size plugin runs through the normalised copy too. */
	run_fixture(&set, "old:old-size", &res);
	assert_int_equal(res.exit_status, BC_EXIT_OK);
	bc_run_result_free(&res);
	bc_plugins_unload(&set);
}

static void test_search_dirs_order(void **state)
{
	struct bc_loader_opts opts = { 0 };
	const char *dirs[2] = { "/first", "/second" };
	struct bc_search_dir *sd;
	char exe[PATH_MAX], want[PATH_MAX + 64], *slash;
	ssize_t n;
	size_t cnt;

	(void)state;
	opts.dirs = dirs;
	opts.dir_cnt = 2;
	assert_int_equal(setenv("BENCHCORE_PLUGIN_PATH", "/env-a::/env-b:", 1), 0);
	assert_int_equal(bc_plugin_search_dirs(&opts, &sd, &cnt), 0);
	unsetenv("BENCHCORE_PLUGIN_PATH");

	assert_int_equal(cnt, 6);
	assert_string_equal(sd[0].path, "/first");
	assert_true(sd[0].explicit_dir);
	assert_string_equal(sd[1].path, "/second");
	assert_string_equal(sd[2].path, "/env-a");
	assert_false(sd[2].explicit_dir);
	assert_string_equal(sd[3].path, "/env-b");

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	PATHF(want, "%s/plugins", exe);
	assert_string_equal(sd[4].path, want);
	/* Relocatable: relative to the executable, not the configured prefix. */
	assert_non_null(strstr(sd[5].path, exe));
	assert_non_null(strstr(sd[5].path, "/../"));
	assert_non_null(strstr(sd[5].path, BENCHCORE_PLUGIN_INSTALL_DIR));
	bc_plugin_search_dirs_free(sd, cnt);

	opts.only_dirs = true;
	assert_int_equal(bc_plugin_search_dirs(&opts, &sd, &cnt), 0);
	assert_int_equal(cnt, 2);
	bc_plugin_search_dirs_free(sd, cnt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_dir),
		cmocka_unit_test(test_old_and_big_sizes),
		cmocka_unit_test(test_search_order_shadow_and_dedup),
		cmocka_unit_test(test_missing_plugin_dir),
		cmocka_unit_test(test_unsafe_dir_and_file),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_setup_fails_and_unavailable),
		cmocka_unit_test(test_search_dirs_order),
	};

	return cmocka_run_group_tests(tests, setup_dirs, teardown_dirs);
}
