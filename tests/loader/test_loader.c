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

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "result.h"
#include "runner.h"
#include "core_opts.h"
#include "log.h"
#include "exit_status.h"
#include "figures.h"

/* Loaded from mixed/ ... */
#define MIXED_LOADED                                                                    \
	"fixture.so", "newer.so", "newer_zero.so", "old.so", "bigzero.so",               \
		"bigplugin_zero.so", "bigmetric_zero.so", "bigoption_zero.so",            \
		"range_small.so", "roles.so", "needs.so", "bpf_measured.so"
/* ... and refused, each with one line (not_elf.so is written by the test). */
#define MIXED_REFUSED                                                                   \
	"major.so", "abi1.so", "nosym.so", "bigset.so", "bigplugin.so", "bigmetric.so",  \
		"bigoption.so", "range_zero.so", "range_big.so", "range_pad.so",           \
		"small_bench.so", "garbage_bench.so", "stride.so", "dup.so",               \
		"empty.so", "blank.so", "nomeasure.so", "nullmetrics.so", "nometrics.so",  \
		"badrole.so", "ratio_noper.so", "ratio_badper.so", "per_counter.so",       \
		"hist_headline.so", "half_custom.so", "misnamed.so", "dash_strict.so",     \
		"badneed.so", "needname.so", "badpoint.so", "bad_bpf.so"
#define MIXED_FILES MIXED_LOADED, MIXED_REFUSED
/* ABI 2.3's headline and time per operation, loaded from headline/ ... */
#define HEADLINE_LOADED "fixture.so", "hl_ok.so", "hl_runner_ok.so", "tpo_ok.so"
/* ... and refused. */
#define HEADLINE_REFUSED                                                                \
	"hl_unknown.so", "hl_hist.so", "hl_runner.so", "hl_runner_none.so", "hl_empty.so", \
		"tpo_no_bpf.so", "tpo_no_per.so", "tpo_unit.so", "tpo_role.so",            \
		"tpo_per_counter.so"
/* ABI 2.3's SDK fields: the valid fixture, one loaded, seven refused. */
#define SDK23_FILES                                                                     \
	"fixture.so", "sdk.so", "attach_nopoints.so", "skel_nopoints.so", "skel_attach.so", \
		"configure.so", "threads_gauge.so", "threads_bpf.so", "prefix.so"
#define COUNT(...) (sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *))
#define MIXED_LOADED_CNT COUNT(MIXED_LOADED)
#define MIXED_REFUSED_CNT (COUNT(MIXED_REFUSED) + 1)

#define OFFSETOFEND(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* Each test works on private copies of the fixtures, so that the modes it
 * sets (and the umask of whoever built them) cannot leak between tests. */
struct fixture_dirs {
	char root[PATH_MAX];
	char mixed[PATH_MAX];
	char other[PATH_MAX];
	char shadow[PATH_MAX];
	char spell[PATH_MAX];
	char headline[PATH_MAX];
	char sdk23[PATH_MAX];
	char stale[PATH_MAX];
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
	static const char *const shadow[] = { "fixture.so" };
	static const char *const spell[] = { "a-b.so", "a_b.so" };
	static const char *const headline[] = { HEADLINE_LOADED, HEADLINE_REFUSED };
	static const char *const sdk23[] = { SDK23_FILES };
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
	PATHF(d->spell, "%s/spell", d->root);
	PATHF(d->headline, "%s/headline", d->root);
	PATHF(d->sdk23, "%s/sdk23", d->root);
	PATHF(d->stale, "%s/stale", d->root);
	copy_fixtures("mixed", d->mixed, mixed, sizeof(mixed) / sizeof(mixed[0]));
	copy_fixtures("other", d->other, other, 1);
	copy_fixtures("shadow", d->shadow, shadow, 1);
	copy_fixtures("spell", d->spell, spell, 2);
	copy_fixtures("headline", d->headline, headline, sizeof(headline) / sizeof(headline[0]));
	copy_fixtures("sdk23", d->sdk23, sdk23, sizeof(sdk23) / sizeof(sdk23[0]));
	copy_fixtures("stale", d->stale, shadow, 1);
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

/* The line for `file` in the log is exactly `reason` after "benchcore: FILE: ". */
static void assert_refused_line(const char *log, const char *dir, const char *file,
				const char *reason)
{
	char prefix[PATH_MAX + 64];
	const char *line, *eol;
	size_t len;

	PATHF(prefix, "benchcore: %s/%s: ", dir, file);
	line = strstr(log, prefix);
	if (!line)
		fail_msg("no refusal line for %s in:\n%s", file, log);
	line += strlen(prefix);
	eol = strchr(line, '\n');
	assert_non_null(eol);
	len = (size_t)(eol - line);
	if (len != strlen(reason) || memcmp(line, reason, len))
		fail_msg("refusal of %s:\n  got:  %.*s\n  want: %s", file, (int)len, line, reason);
}

/* "... has sz N but this benchcore knows only K bytes of it, ..." */
static void unknown_byte_line(char *buf, size_t len, const char *what, size_t sz, size_t known,
			      size_t off)
{
	assert_true(snprintf(buf, len,
			     "%s has sz %zu but this benchcore knows only %zu bytes of it, and the unknown byte at offset %zu is not zero (a field of a newer ABI %d minor is set: update benchcore)",
			     what, sz, known, off, BC_ABI_MAJOR) < (int)len);
}

static void test_mixed_dir(void **state)
{
	static const char *const loaded[] = { MIXED_LOADED };
	static const struct {
		const char *file, *reason;
	} refused[] = {
		{ "nosym.so", "does not export the 'benchcore_plugin' symbol (not a benchcore plugin?)" },
		{ "range_zero.so", "benchmark 'range-zero': producers range has sz 0; 24 expected (fill it with BC_THREADS(min, max, def))" },
		{ "range_big.so", "benchmark 'range-big': consumers range has sz 32; at most 24 expected" },
		{ "stride.so", "benchmark 'stride': metric #1 'drops' has sz 40; 72 expected, as #0 has" },
		{ "dup.so", "duplicate benchmark name 'same'" },
		{ "empty.so", "benchmark #0 has an empty name" },
		{ "blank.so", "benchmark name 'two words' contains ':' or a blank" },
		{ "nomeasure.so", "benchmark 'no-measure' has no measure callback, and not every metric names its BPF source" },
		{ "nullmetrics.so", "benchmark 'null-metrics': metric: 1 declared but the array is NULL" },
		{ "nometrics.so", "benchmark 'no-metrics' declares no metrics; at least one expected" },
		{ "badrole.so", "benchmark 'bad-role': metric 'hits' has unknown role 9 (0 to 6 expected)" },
		{ "ratio_noper.so", "benchmark 'ratio-no-per': ratio metric 'gp_ns' has no per: name the counter it is divided by" },
		{ "ratio_badper.so", "benchmark 'ratio-bad-per': ratio metric 'gp_ns' is per 'depth', which is not another counter metric of the benchmark" },
		{ "per_counter.so", "benchmark 'per-on-counter': metric 'hits' sets per, which only a BC_METRIC_RATIO has" },
		{ "hist_headline.so", "benchmark 'hist-headline': histogram metric 'lat' has role 1; a histogram is BC_ROLE_LATENCY or BC_ROLE_AUX" },
		{ "half_custom.so", "benchmark 'half-custom' sets one of format_iter and format_summary; custom lines need both" },
		{ "misnamed.so", "plugin name 'fixture2' does not match the file name: 'misnamed' expected (the file name without .so)" },
		/* '-' vs '_' is a mismatch too: PLUGIN:BENCH takes either, the
		 * file name and the plugin's own name are one word. */
		{ "dash_strict.so", "plugin name 'dash-strict' does not match the file name: 'dash_strict' expected (the file name without .so)" },
		{ "badneed.so", "benchmark 'bad-need': need #0 has unknown kind 9 (1 to 6 expected)" },
		{ "needname.so", "benchmark 'need-no-name': need #0 (kind 4) has no name" },
		{ "badpoint.so", "benchmark 'bad-point': attach point #1 has unknown kind 99 (1 to 16 expected)" },
		{ "bad_bpf.so", "benchmark 'bad-bpf': metric 'hits' has bpf 'two words'; expected the name of a BPF global or map, optionally with '.field'" },
	};
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_plugin *p;
	const char *log, *c;
	char want[512];
	size_t i, lines = 0;

	log_capture_start();
	assert_int_equal(bc_plugins_load_dir(&set, d->mixed, false), 0);
	log = log_capture_end();

	/* Loaded: the valid one, an older and a newer minor, the larger
	 * structs with zero tails, ... */
	assert_int_equal(set.cnt, MIXED_LOADED_CNT);
	for (i = 0; i < MIXED_LOADED_CNT; i++) {
		char stem[64];

		snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(loaded[i]) - 3), loaded[i]);
		if (!find_plugin(&set, stem))
			fail_msg("%s did not load:\n%s", loaded[i], log);
	}
	p = find_plugin(&set, "fixture");
	assert_int_equal(p->bench_cnt, 4);
	assert_string_equal(p->benches[0].desc.name, "ok");
	assert_ptr_equal(p->benches[0].plugin, p);

	/* ... and one line per refusal, word for word. */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_refused_line(log, d->mixed, refused[i].file, refused[i].reason);
	PATHF(want, "built for plugin ABI %d.x; this benchcore loads ABI %d.x plugins: rebuild it against this benchcore's headers",
	      BC_ABI_MAJOR + 1, BC_ABI_MAJOR);
	assert_refused_line(log, d->mixed, "major.so", want);
	PATHF(want, "built for plugin ABI 1.x; this benchcore loads ABI %d.x plugins: rebuild it against this benchcore's headers",
	      BC_ABI_MAJOR);
	assert_refused_line(log, d->mixed, "abi1.so", want);
	assert_refused(log, d->mixed, "not_elf.so", "not a loadable shared object: ");
	/* Every size message gives the size this benchcore was built with. */
	PATHF(want, "benchmark 'bad-sz' descriptor has sz 40; at least 160 expected (this benchcore's is %zu)",
	      sizeof(struct bc_bench_desc));
	assert_refused_line(log, d->mixed, "small_bench.so", want);
	PATHF(want, "benchmark 'bad-sz' descriptor has sz 65536; at most 4096 expected (this benchcore's is %zu)",
	      sizeof(struct bc_bench_desc));
	assert_refused_line(log, d->mixed, "garbage_bench.so", want);

	unknown_byte_line(want, sizeof(want), "benchmark 'big-size' descriptor",
			  sizeof(struct bc_bench_desc) + 8, OFFSETOFEND(struct bc_bench_desc, loaded),
			  sizeof(struct bc_bench_desc));
	assert_refused_line(log, d->mixed, "bigset.so", want);
	unknown_byte_line(want, sizeof(want), "plugin descriptor", sizeof(struct bc_plugin_desc) + 8,
			  sizeof(struct bc_plugin_desc), sizeof(struct bc_plugin_desc));
	assert_refused_line(log, d->mixed, "bigplugin.so", want);
	/* The second metric: the first one's unknown field is zero. */
	unknown_byte_line(want, sizeof(want), "benchmark 'big-metric': metric #1 'drops'",
			  sizeof(struct bc_metric_desc) + 8, OFFSETOFEND(struct bc_metric_desc, threads),
			  sizeof(struct bc_metric_desc));
	assert_refused_line(log, d->mixed, "bigmetric.so", want);
	unknown_byte_line(want, sizeof(want), "plugin option #0 'batch'", sizeof(struct bc_option) + 8,
			  sizeof(struct bc_option), sizeof(struct bc_option));
	assert_refused_line(log, d->mixed, "bigoption.so", want);
	/* A field a newer minor put into the range's padding. */
	unknown_byte_line(want, sizeof(want), "benchmark 'range-pad': producers range",
			  sizeof(struct bc_thread_range), OFFSETOFEND(struct bc_thread_range, def),
			  OFFSETOFEND(struct bc_thread_range, def));
	assert_refused_line(log, d->mixed, "range_pad.so", want);

	assert_int_equal(set.failed_cnt, MIXED_REFUSED_CNT);
	/* One line per refusal, nothing else at the default verbosity. */
	for (c = log; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, MIXED_REFUSED_CNT);
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

	/* Larger structs with zero tails: read as the core's own. */
	p = find_plugin(&set, "bigzero");
	assert_non_null(p);
	assert_string_equal(p->benches[0].desc.name, "big-size");
	assert_int_equal(p->benches[0].desc.sz, sizeof(struct bc_bench_desc));
	p = find_plugin(&set, "newer_zero");
	assert_non_null(p);
	assert_int_equal(p->desc.abi_minor, BC_ABI_MINOR + 1);
	p = find_plugin(&set, "bigplugin_zero");
	assert_non_null(p);
	assert_int_equal(p->desc.sz, sizeof(struct bc_plugin_desc));
	p = find_plugin(&set, "bigmetric_zero");
	assert_non_null(p);
	b = &p->benches[0];
	assert_int_equal(b->desc.metric_cnt, 2);
	assert_int_equal(b->metrics[1].sz, sizeof(struct bc_metric_desc));
	assert_string_equal(b->metrics[1].name, "drops");
	assert_int_equal(b->metrics[1].role, BC_ROLE_DROPS);
	p = find_plugin(&set, "bigoption_zero");
	assert_non_null(p);
	assert_int_equal(p->option_cnt, 1);
	assert_int_equal(p->options[0].sz, sizeof(struct bc_option));
	assert_string_equal(p->options[0].name, "batch");
	assert_ptr_equal(p->desc.options, p->options);

	/* Metrics of every kind and role, a ratio per a later counter. */
	p = find_plugin(&set, "roles");
	assert_non_null(p);
	b = &p->benches[0];
	assert_int_equal(b->desc.metric_cnt, 5);
	assert_string_equal(b->metrics[1].per, "gp_ct");
	assert_int_equal(b->metrics[4].kind, BC_METRIC_HISTOGRAM);

	/* Kernel needs (ABI 2.1): normalised copies the checks read. */
	p = find_plugin(&set, "needs");
	assert_non_null(p);
	b = &p->benches[1];
	assert_string_equal(b->desc.name, "lacks-file");
	assert_int_equal(b->desc.need_cnt, 1);
	assert_ptr_equal(b->desc.needs, b->needs);
	assert_int_equal(b->needs[0].sz, sizeof(struct bc_need));
	assert_int_equal(b->needs[0].kind, BC_NEED_FILE);
	assert_string_equal(b->needs[0].why, "the fixture's file");
	assert_non_null(p->benches[2].desc.quick_probe);
	/* A plugin of ABI 2.0 declares none: zeros, probe() as before. */
	p = find_plugin(&set, "old");
	assert_int_equal(p->benches[0].desc.need_cnt, 0);
	assert_null(p->benches[0].desc.quick_probe);
	bc_plugins_unload(&set);
}

static const struct bc_bench *find_bench(const struct bc_plugin_set *set, const char *plugin)
{
	const struct bc_plugin *p = find_plugin(set, plugin);

	assert_non_null(p);
	assert_int_equal(p->bench_cnt, 1);
	return &p->benches[0];
}

/* ABI 2.3: the figure a benchmark is judged by, and a time per operation
 * with no visible divisor; each bad declaration one line at load. */
static void test_headline_dir(void **state)
{
	static const char *const loaded[] = { HEADLINE_LOADED };
	static const struct {
		const char *file, *reason;
	} refused[] = {
		{ "hl_unknown.so", "benchmark 'headline': headline names 'misses', which is not one of its metrics (hits, depth, lat); name one of them" },
		{ "hl_hist.so", "benchmark 'headline': headline names 'lat', a histogram, which has no mean to judge; name a counter, gauge, ratio or time-per-op metric" },
		{ "hl_runner.so", "benchmark 'headline': headline names 'depth', but under the kernel runner's name the result is the runner's figure, 'hits': name that one or leave headline NULL" },
		{ "hl_runner_none.so", "benchmark 'headline': headline names 'depth', but under the kernel runner's name the result is the runner's figure, and no HITS or OPS metric gives one: leave headline NULL" },
		{ "hl_empty.so", "benchmark 'headline': headline is empty; name one of its metrics, or leave it NULL for the first HITS, else OPS metric" },
		{ "tpo_no_bpf.so", "benchmark 'time-per-op': time-per-op metric 'ns_per_op' has no bpf: name the BPF time counter (\"batches.ns\" of BC_BATCH_TIMINGS(batches))" },
		{ "tpo_no_per.so", "benchmark 'time-per-op': time-per-op metric 'ns_per_op' has no bpf_per: name the BPF operation counter it is divided by (\"batches.ops\" of BC_BATCH_TIMINGS(batches))" },
		{ "tpo_unit.so", "benchmark 'time-per-op': time-per-op metric 'ns_per_op' has unit 'ops'; expected the time counter's unit: ns, us, ms or s" },
		{ "tpo_role.so", "benchmark 'time-per-op': time-per-op metric 'ns_per_op' has role 2; a time per operation is BC_ROLE_LATENCY or BC_ROLE_AUX" },
		{ "tpo_per_counter.so", "benchmark 'time-per-op': metric 'hits' sets bpf_per, which only a BC_METRIC_TIME_PER_OP has" },
	};
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_bench *b;
	const char *log, *c;
	size_t i, lines = 0;

	log_capture_start();
	assert_int_equal(bc_plugins_load_dir(&set, d->headline, false), 0);
	log = log_capture_end();

	assert_int_equal(set.cnt, sizeof(loaded) / sizeof(loaded[0]));
	for (i = 0; i < set.cnt; i++) {
		char stem[64];

		snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(loaded[i]) - 3), loaded[i]);
		if (!find_plugin(&set, stem))
			fail_msg("%s did not load:\n%s", loaded[i], log);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_refused_line(log, d->headline, refused[i].file, refused[i].reason);
	assert_int_equal(set.failed_cnt, sizeof(refused) / sizeof(refused[0]));
	for (c = log; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, sizeof(refused) / sizeof(refused[0]));

	/* The one rule: the declared headline, else the first HITS metric. */
	b = find_bench(&set, "hl_ok");
	assert_string_equal(b->desc.headline, "depth");
	assert_int_equal(bc_bench_judged(b), 1);
	assert_int_equal(bc_bench_judged(find_bench(&set, "hl_runner_ok")), 0);
	assert_int_equal(bc_bench_judged(&find_plugin(&set, "fixture")->benches[0]), 0);
	b = find_bench(&set, "tpo_ok");
	assert_int_equal(bc_bench_judged(b), 1);
	assert_int_equal(b->metrics[1].kind, BC_METRIC_TIME_PER_OP);
	assert_string_equal(b->metrics[1].bpf_per, "b.ops");
	/* Every metric names its BPF source but the hits: measure() stays. */
	assert_false(bc_bench_measured_by_core(b));
	bc_plugins_unload(&set);
}

/* Embedded thread ranges are read by their own sz. */
static void test_thread_ranges(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_plugin *p;
	const struct bc_bench *b;

	log_capture_start();
	bc_plugins_load_dir(&set, d->mixed, false);
	log_capture_end();

	/* Up to the end of `def` only: the rest (padding) reads as zero. A
	 * zero sz is refused (test_mixed_dir). */
	p = find_plugin(&set, "range_small");
	assert_non_null(p);
	b = &p->benches[0];
	assert_int_equal(b->desc.producers.sz, sizeof(struct bc_thread_range));
	assert_int_equal(b->desc.producers.min, 1);
	assert_int_equal(b->desc.producers.max, 3);
	assert_int_equal(b->desc.producers.def, 2);
	assert_int_equal(b->desc.consumers.sz, sizeof(struct bc_thread_range));
	bc_plugins_unload(&set);
}

/* "a-b" and "a_b" are one plugin name: the second file in a directory is a
 * clash, and PLUGIN:BENCH finds the one loaded by either spelling. */
static void test_spellings(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_bench *b;
	char err[BC_REASON_LEN], want[PATH_MAX * 3];
	const char *log;

	log_capture_start();
	bc_plugins_load_dir(&set, d->spell, false);
	bc_plugins_load_dir(&set, d->mixed, false);
	log = log_capture_end();
	assert_int_equal(set.failed_cnt, 1 + MIXED_REFUSED_CNT);
	PATHF(want, "benchcore: %s/a_b.so: plugin name 'a_b' is already used by %s/a-b.so ('a-b') in the same directory; skipped\n",
	      d->spell, d->spell);
	if (!strstr(log, want))
		fail_msg("no clash line '%s' in:\n%s", want, log);

	assert_int_equal(bc_bench_resolve(&set, "a-b:ok", &b, err, sizeof(err)), 0);
	assert_string_equal(b->plugin->desc.name, "a-b");
	assert_int_equal(bc_bench_resolve(&set, "a_b:ok", &b, err, sizeof(err)), 0);
	assert_string_equal(b->plugin->desc.name, "a-b");
	/* The plugin's own spelling and the other one both work. */
	assert_int_equal(bc_bench_resolve(&set, "range_small:range-small", &b, err, sizeof(err)), 0);
	assert_string_equal(b->plugin->desc.name, "range_small");
	assert_int_equal(bc_bench_resolve(&set, "range-small:range-small", &b, err, sizeof(err)), 0);
	assert_string_equal(b->plugin->desc.name, "range_small");
	/* Only in the plugin part: benchmark names are exact. */
	assert_int_equal(bc_bench_resolve(&set, "a-b:o_k", &b, err, sizeof(err)), -ENOENT);
	assert_int_equal(bc_bench_resolve(&set, "range-small:range_small", &b, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "unknown benchmark 'range-small:range_small'; plugin range_small has: range-small");
	/* '-' and '_' are not wildcards for other characters. */
	assert_int_equal(bc_bench_resolve(&set, "a.b:ok", &b, err, sizeof(err)), -ENOENT);
	assert_int_equal(bc_bench_resolve(&set, "ab:ok", &b, err, sizeof(err)), -ENOENT);
	assert_int_equal(bc_bench_resolve(&set, "a-b-:ok", &b, err, sizeof(err)), -ENOENT);
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
	PATHF(want, "%s/fixture.so", d->mixed);
	assert_string_equal(p->path, want);
	/* Searched once: no second round of refusals for mixed/. */
	assert_int_equal(set.failed_cnt, MIXED_REFUSED_CNT);
	PATHF(want, "plugin directory %s: already searched", again);
	assert_non_null(strstr(log, want));
	PATHF(want, "%s/fixture.so: plugin 'fixture' is shadowed by %s/fixture.so",
		 d->shadow, d->mixed);
	if (!strstr(log, want))
		fail_msg("no shadowing line '%s' in:\n%s", want, log);
	bc_plugins_unload(&set);
}

/*
 * A plugin refused in an earlier directory (here, built for another ABI)
 * keeps its name: the same plugin in a later one is not loaded in its
 * place, and naming it says why it is not there.
 */
static void test_refused_not_replaced(void **state)
{
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const char *dirs[2] = { d->stale, d->shadow };
	struct bc_loader_opts opts = { .dirs = dirs, .dir_cnt = 2, .only_dirs = true };
	const struct bc_bench *b;
	char want[PATH_MAX * 3], err[BC_REASON_LEN];
	const char *log;

	log_capture_start();
	assert_int_equal(bc_plugins_load(&set, &opts), 0);
	log = log_capture_end();
	assert_null(find_plugin(&set, "fixture"));
	PATHF(want, "%s/fixture.so: built for plugin ABI %d.x;", d->stale, BC_ABI_MAJOR + 1);
	if (!strstr(log, want))
		fail_msg("no refusal line '%s' in:\n%s", want, log);
	PATHF(want, "%s/fixture.so: plugin 'fixture' not loaded: %s/fixture.so, earlier in the search path, was refused (above); fix or remove that file rather than run this copy instead\n",
	      d->shadow, d->stale);
	if (!strstr(log, want))
		fail_msg("no line '%s' in:\n%s", want, log);
	assert_int_equal(bc_bench_resolve(&set, "fixture:ok", &b, err, sizeof(err)), -ENOENT);
	PATHF(want, "plugin 'fixture' of 'fixture:ok' is not loaded: %s/fixture.so was refused: built for plugin ABI %d.x;",
	      d->stale, BC_ABI_MAJOR + 1);
	if (!strstr(err, want))
		fail_msg("resolve said '%s', expected it to start '%s'", err, want);
	bc_plugins_unload(&set);
}

/* ABI 2.3's SDK fields: what loads, and each refusal word for word. */
static void test_sdk23_dir(void **state)
{
	static const struct {
		const char *file, *reason;
	} refused[] = {
		{ "attach_nopoints.so", "benchmark 'sdk' has an attach callback but no attach points; list its candidates in attach_points (BC_POINTS())" },
		{ "skel_nopoints.so", "benchmark 'sdk' has a skeleton (skel) but no attach points; list its candidates in attach_points (BC_POINTS())" },
		{ "skel_attach.so", "benchmark 'sdk' sets both skel and attach; with a skeleton the core attaches: drop the attach callback" },
		{ "configure.so", "benchmark 'sdk' sets configure without a skeleton; they are called on the core's skeleton: set skel (&NAME_skel, BC_SKEL(NAME))" },
		{ "threads_gauge.so", "benchmark 'sdk': metric 'depth' sets threads, but is kind 2; the threads count a BC_METRIC_COUNTER or the total of a BC_METRIC_RATIO" },
		{ "threads_bpf.so", "benchmark 'sdk': metric 'misses' sets both threads and bpf; the core reads it from one place: drop one" },
		{ "prefix.so", "plugin 'prefix': option_prefix 'sdk ' has byte 0x20; an option name is letters, digits, '-' and '_'" },
	};
	struct fixture_dirs *d = *state;
	struct bc_plugin_set set = { 0 };
	const struct bc_plugin *p;
	const struct bc_bench *b;
	const char *log;
	size_t i;

	log_capture_start();
	assert_int_equal(bc_plugins_load_dir(&set, d->sdk23, false), 0);
	log = log_capture_end();
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_refused_line(log, d->sdk23, refused[i].file, refused[i].reason);
	assert_int_equal(set.failed_cnt, sizeof(refused) / sizeof(refused[0]));

	/* BC_BENCH() without ranges: one producer by default, no consumers;
	 * the core sums the threads' counter, so no measure() is needed. */
	p = find_plugin(&set, "sdk");
	assert_non_null(p);
	b = find_bench(&set, "sdk");
	assert_int_equal(b->desc.producers.min, 1);
	assert_int_equal(b->desc.producers.max, 0);
	assert_int_equal(b->desc.producers.def, 1);
	assert_int_equal(b->desc.consumers.def, 0);
	assert_null(b->desc.measure);
	assert_true(b->metrics[0].threads);
	/* option_prefix: the full name everywhere after the loader. */
	assert_int_equal(p->option_cnt, 1);
	assert_string_equal(p->options[0].name, "sdk-batch");
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
	PATHF(src, "%s/fixture.so", d->mixed);
	PATHF(dst, "%s/fixture.so", dir);
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
	assert_refused(log, dir, "fixture.so", "file is writable by group or others");
	bc_plugins_unload(&set);

	/* Owned by someone else (we are root in CI; skip the part otherwise). */
	if (geteuid() == 0) {
		assert_int_equal(chmod(dst, 0755), 0);
		assert_int_equal(chown(dst, 4242, 4242), 0);
		log_capture_start();
		bc_plugins_load_dir(&set, dir, false);
		log = log_capture_end();
		assert_int_equal(set.cnt, 0);
		assert_refused(log, dir, "fixture.so", "file is owned by uid 4242");
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
	assert_string_equal(err, "benchmark 'shared' is ambiguous: bigoption_zero:shared, "
				 "bigplugin_zero:shared, fixture:shared, newer:shared, "
				 "other:shared; name one as PLUGIN:BENCH");

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
		cmocka_unit_test(test_headline_dir),
		cmocka_unit_test(test_thread_ranges),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_search_order_shadow_and_dedup),
		cmocka_unit_test(test_refused_not_replaced),
		cmocka_unit_test(test_sdk23_dir),
		cmocka_unit_test(test_missing_plugin_dir),
		cmocka_unit_test(test_unsafe_dir_and_file),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_setup_fails_and_unavailable),
		cmocka_unit_test(test_search_dirs_order),
	};

	return cmocka_run_group_tests(tests, setup_dirs, teardown_dirs);
}
