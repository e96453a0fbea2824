// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Options as data: the table checks, every type's parsing (ranges, size
 * suffixes, enum words, CPU lists), the one-line refusals word for word,
 * defaults, --help, the typed JSON config, sweeps typed by declaration, and
 * two runs in one process that each see only their own options. The optfix
 * fixture plugin (optfix.c) reports what its options struct holds as
 * gauges, so these tests see what a plugin sees.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "runner.h"
#include "report.h"
#include "cli_env.h"
#include "options.h"
#include "core_opts.h"
#include "log.h"
#include "child.h"
#include "exit_status.h"
#include "json.h"
#include "json_read.h"
#include "plugin_opts.h"

#define GOOD_DIR BC_OPTFIX_DIR "/good"
#define BAD_DIR BC_OPTFIX_DIR "/bad"

/* The fixture's options struct (optfix.c). */
struct optfix_opts {
	bool sampled;
	int64_t batch;
	uint64_t ring;
	int mode;
	const char *tag;
	const struct bc_cpus *cpus;
	int64_t depth;
};

/* Gauge order of the fixture's metrics. */
enum { G_BATCH, G_RING, G_MODE, G_SAMPLED, G_TAG_LEN, G_CPU_CNT, G_DEPTH };

static struct bc_cli_env env;

static int load_fixture(void **state)
{
	(void)state;
	memset(&env, 0, sizeof(env));
	/* Only the fixture: the search path would add the real plugins. */
	env.plugins_loaded = true;
	return bc_plugins_load_dir(&env.plugins, GOOD_DIR, true) || env.plugins.cnt != 1;
}

static int unload_fixture(void **state)
{
	(void)state;
	bc_plugins_unload(&env.plugins);
	return 0;
}

/* `benchcore run WORDS...` in this process; what it logged in *log. */
static int parse(struct bc_config *cfg, const struct bc_bench **bench, char **log, ...)
{
	char *argv[32], buf[2048];
	FILE *f = tmpfile();
	struct bc_run_request *req = malloc(sizeof(*req));
	const char *w;
	int argc = 0, rc;
	size_t n;
	va_list ap;

	assert_non_null(f);
	assert_non_null(req);
	argv[argc++] = (char *)"run";
	va_start(ap, log);
	while ((w = va_arg(ap, const char *)))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	bc_run_request_init(req);
	bc_log_set_file(f);
	rc = bc_options_parse_run(&env, argc, argv, req, bench);
	*cfg = req->cfg;	/* the run's part; the options move with it */
	free(req);
	bc_log_set_file(NULL);
	bc_log_set_verbosity(0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (log)
		*log = strdup(buf);
	return rc;
}

static const struct optfix_opts *opts_of(struct bc_ctx *ctx, const struct bc_config *cfg,
					 const struct bc_bench *bench)
{
	bc_ctx_init(ctx, cfg, bench);
	return bc_ctx_opts(ctx);
}

/* One refused value: exit status 2 and exactly this one line. */
static void expect_refusal(const char *bench, const char *opt, const char *value,
			   const char *line)
{
	const struct bc_bench *b;
	struct bc_config cfg;
	char *log, want[512];

	assert_int_equal(parse(&cfg, &b, &log, bench, opt, value, NULL), BC_EXIT_USAGE);
	snprintf(want, sizeof(want), "benchcore: %s\n", line);
	assert_string_equal(log, want);
	free(log);
	bc_options_free(&cfg);
}

/* ------------------------------------------------------------ tables */

struct t_opts {
	bool f;
	int64_t i;
	int e;
	uint64_t n;
};

static const char *const t_words[] = { "a", "b", NULL };
static const char *const t_no_words[] = { NULL };

static void expect_table_error(const struct bc_option *plugin_opts, size_t pcnt,
			       const struct bc_option *bench_opts, size_t bcnt, const char *line)
{
	struct bc_plugin p;
	struct bc_bench b;
	char err[512] = "";

	memset(&p, 0, sizeof(p));
	memset(&b, 0, sizeof(b));
	p.desc.name = "tbl";
	p.desc.opts_size = sizeof(struct t_opts);
	p.options = (struct bc_option *)plugin_opts;
	p.option_cnt = pcnt;
	b.desc.name = "b";
	b.options = (struct bc_option *)bench_opts;
	b.option_cnt = bcnt;
	b.plugin = &p;
	assert_int_equal(bc_opts_check(&b, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, line);
	/* and no run of it: the same line */
	errno = 0;
	assert_null(bc_opts_new(&b, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, line);
}

static void test_table_checks(void **state)
{
	const struct bc_option ok[] = {
		BC_OPT_INT(struct t_opts, i, "n", .min = 1, .max = 9, .def = "2"),
	};
	const struct bc_option empty[] = { BC_OPT_INT(struct t_opts, i, "") };
	const struct bc_option comma[] = { BC_OPT_INT(struct t_opts, i, "a,b") };
	const struct bc_option core[] = { BC_OPT_INT(struct t_opts, i, "duration") };
	const struct bc_option sweep[] = { BC_OPT_INT(struct t_opts, i, "sweep") };
	const struct bc_option twice[] = {
		BC_OPT_INT(struct t_opts, i, "n"),
		BC_OPT_FLAG(struct t_opts, f, "n"),
	};
	struct bc_option outside[] = { BC_OPT_INT(struct t_opts, i, "far") };
	struct bc_option badtype[] = { BC_OPT_INT(struct t_opts, i, "odd") };
	const struct bc_option nowords[] = { BC_OPT_ENUM(struct t_opts, e, "kind") };
	const struct bc_option emptywords[] = {
		BC_OPT_ENUM(struct t_opts, e, "kind", .words = t_no_words),
	};
	const struct bc_option backwards[] = {
		BC_OPT_INT(struct t_opts, i, "n", .min = 5, .max = 1),
	};
	const struct bc_option baddef[] = {
		BC_OPT_ENUM(struct t_opts, e, "kind", .words = t_words, .def = "c"),
	};
	const struct bc_option flagon[] = { BC_OPT_FLAG(struct t_opts, f, "fast", .def = "on") };

	(void)state;
	outside[0].offset = sizeof(struct t_opts) - 4;
	badtype[0].type = (enum bc_opt_type)42;

	expect_table_error(empty, 1, NULL, 0,
			   "plugin 'tbl': option '': a name is letters, digits, '-' and '_', not starting with '-'");
	expect_table_error(comma, 1, NULL, 0,
			   "plugin 'tbl': option 'a,b': a name is letters, digits, '-' and '_', not starting with '-'");
	expect_table_error(core, 1, NULL, 0,
			   "plugin 'tbl': option 'duration': the name is a core option's");
	expect_table_error(sweep, 1, NULL, 0, "plugin 'tbl': option 'sweep': the name is a core option's");
	expect_table_error(twice, 2, NULL, 0, "plugin 'tbl': option 'n' is declared twice");
	expect_table_error(ok, 1, ok, 1,
			   "plugin 'tbl': option 'n' is declared twice (plugin-wide and by its benchmark)");
	{
		char line[160];

		snprintf(line, sizeof(line),
			 "plugin 'tbl': option 'far': field at offset %zu (8 bytes) is outside opts_size %zu",
			 sizeof(struct t_opts) - 4, sizeof(struct t_opts));
		expect_table_error(outside, 1, NULL, 0, line);
	}
	expect_table_error(badtype, 1, NULL, 0, "plugin 'tbl': option 'odd': unknown type 42");
	expect_table_error(nowords, 1, NULL, 0, "plugin 'tbl': option 'kind': an enum without words");
	expect_table_error(emptywords, 1, NULL, 0, "plugin 'tbl': option 'kind': an enum without words");
	expect_table_error(backwards, 1, NULL, 0, "plugin 'tbl': option 'n': min 5 is above max 1");
	expect_table_error(baddef, 1, NULL, 0,
			   "plugin 'tbl': option 'kind': bad default: --kind 'c': expected one of: a, b");
	expect_table_error(flagon, 1, NULL, 0,
			   "plugin 'tbl': option 'fast': a flag cannot default to on (it could not be turned off); declare the opposite flag");
}

/* ------------------------------------------------------------ counts */

/* BC_OPT_COUNT (ABI 2.2): K, M, G are powers of 1000, Ki, Mi, Gi of 1024;
 * what --help and the refusals say of its range has no "bytes". */
static void test_counts(void **state)
{
	static const struct {
		const char *text;
		uint64_t value;
	} ok[] = {
		{ "1", 1 }, { "7K", 7000 }, { "7k", 7000 }, { "2M", 2000000 }, { "1G", 1000000000 },
		{ "3Ki", 3072 }, { "1Mi", 1 << 20 }, { "1Gi", 1 << 30 }, { "4000000", 4000000 },
	};
	static const char *const bad[] = { "", "k1", "3m", "3KB", "3Kib", "1.5M", "-1", "2Gi", "0",
					   "18446744073709551616", "18446744073709551615K" };
	const struct bc_option cnt[] = {
		BC_OPT_COUNT(struct t_opts, n, "entries", .min = 1, .max = 1 << 30, .def = "1M"),
	};
	const struct bc_option neg[] = {
		BC_OPT_COUNT(struct t_opts, n, "entries", .min = -1, .max = 5),
	};
	char err[256], lit[64];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(bc_opts_check_value(&cnt[0], ok[i].text, err, sizeof(err)), 0);
		assert_int_equal(bc_opts_value_json(&cnt[0], ok[i].text, lit, sizeof(lit)), 0);
		assert_true(strtoull(lit, NULL, 10) == ok[i].value);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bc_opts_check_value(&cnt[0], bad[i], err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' was taken", bad[i]);
	}
	assert_int_equal(bc_opts_check_value(&cnt[0], "2Gi", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--entries '2Gi': expected a count (K, M, G suffixes x1000; Ki, Mi, Gi x1024) from 1 to 1Gi");
	expect_table_error(neg, 1, NULL, 0, "plugin 'tbl': option 'entries': a count range below 0");
	expect_table_error(cnt, 1, cnt, 1,
			   "plugin 'tbl': option 'entries' is declared twice (plugin-wide and by its benchmark)");
}

/* What a sweep document stores for a value: the run document's types. */
static void test_value_json(void **state)
{
	const struct bc_option o[] = {
		BC_OPT_FLAG(struct t_opts, f, "fast"),
		BC_OPT_INT(struct t_opts, i, "n", .min = -5, .max = 5),
		BC_OPT_ENUM(struct t_opts, e, "kind", .words = t_words),
	};
	char lit[64];

	(void)state;
	assert_int_equal(bc_opts_value_json(&o[0], "yes", lit, sizeof(lit)), 0);
	assert_string_equal(lit, "true");
	assert_int_equal(bc_opts_value_json(&o[0], "off", lit, sizeof(lit)), 0);
	assert_string_equal(lit, "false");
	assert_int_equal(bc_opts_value_json(&o[1], "-5", lit, sizeof(lit)), 0);
	assert_string_equal(lit, "-5");
	assert_int_equal(bc_opts_value_json(&o[1], "6", lit, sizeof(lit)), -EINVAL);
	/* The run document has an enum's word: a string, as before. */
	assert_int_equal(bc_opts_value_json(&o[2], "b", lit, sizeof(lit)), -ENOENT);
}

/* ------------------------------------------------------------ values */

static void test_defaults(void **state)
{
	const struct optfix_opts *o;
	const struct bc_bench *b;
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(parse(&cfg, &b, NULL, "optfix:echo", NULL), 0);
	o = opts_of(&ctx, &cfg, b);
	assert_non_null(o);
	assert_false(o->sampled);
	assert_int_equal(o->batch, 500);
	assert_int_equal(o->ring, 64 * 1024);
	assert_int_equal(o->mode, 0);
	assert_null(o->tag);
	assert_null(o->cpus);
	assert_int_equal(o->depth, -3);
	bc_options_free(&cfg);
}

static void test_every_type(void **state)
{
	const struct optfix_opts *o;
	const struct bc_bench *b;
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(parse(&cfg, &b, NULL, "--of-batch", "4000", "optfix:echo", "--of-sampled",
			       "--of-ring=2M", "--of-mode", "inode", "--of-tag", "hello",
			       "--of-cpus", "3,0-1", "--of-depth=-9223372036854775808", NULL), 0);
	o = opts_of(&ctx, &cfg, b);
	assert_true(o->sampled);
	assert_int_equal(o->batch, 4000);
	assert_int_equal(o->ring, 2 << 20);
	assert_int_equal(o->mode, 2);
	assert_string_equal(o->tag, "hello");
	assert_int_equal(o->cpus->sz, sizeof(struct bc_cpus));
	assert_int_equal(o->cpus->cnt, 3);
	assert_int_equal(o->cpus->cpus[0], 0);
	assert_int_equal(o->cpus->cpus[1], 1);
	assert_int_equal(o->cpus->cpus[2], 3);
	assert_true(o->depth == INT64_MIN);
	bc_options_free(&cfg);

	/* The last one given wins, and the run owns the text it keeps. */
	assert_int_equal(parse(&cfg, &b, NULL, "optfix:plain", "--of-tag", "a", "--of-tag", "bc",
			       "--of-batch=1", "--of-ring", "4096", NULL), 0);
	o = opts_of(&ctx, &cfg, b);
	assert_string_equal(o->tag, "bc");
	assert_int_equal(o->batch, 1);
	assert_int_equal(o->ring, 4096);
	bc_options_free(&cfg);
}

static void test_sizes(void **state)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} ok[] = {
		{ "4096", 4096 }, { "4K", 4096 }, { "64k", 65536 }, { "3M", 3 << 20 },
		{ "1G", 1 << 30 }, { "1g", 1 << 30 }, { "1073741824", 1 << 30 },
	};
	const struct optfix_opts *o;
	const struct bc_bench *b;
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(parse(&cfg, &b, NULL, "optfix:plain", "--of-ring", ok[i].text,
				       NULL), 0);
		o = opts_of(&ctx, &cfg, b);
		assert_int_equal(o->ring, ok[i].bytes);
		bc_options_free(&cfg);
	}
}

static void test_refusals(void **state)
{
	static const char *const size_exp =
		"expected a size in bytes (K, M, G suffixes) from 4096 to 1G";

	(void)state;
	/* INT: the range's both ends, and what is not a number */
	expect_refusal("optfix:echo", "--of-batch", "0",
		       "--of-batch '0': expected an integer from 1 to 4000");
	expect_refusal("optfix:echo", "--of-batch", "4001",
		       "--of-batch '4001': expected an integer from 1 to 4000");
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = { "abc", "", " 5", "+5", "5x" };
		char line[128];

		snprintf(line, sizeof(line), "--of-batch '%s': expected an integer from 1 to 4000",
			 bad[i]);
		expect_refusal("optfix:echo", "--of-batch", bad[i], line);
	}
	/* an unbounded INT still has int64_t's */
	expect_refusal("optfix:echo", "--of-depth", "9223372036854775808",
		       "--of-depth '9223372036854775808': expected an integer");
	/* SIZE: range, suffixes, overflow */
	{
		static const char *const bad[] = { "4095", "2G", "1T", "1KB", "-4K", "K",
						   "99999999999999999999" };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char line[160];

			snprintf(line, sizeof(line), "--of-ring '%s': %s", bad[i], size_exp);
			expect_refusal("optfix:echo", "--of-ring", bad[i], line);
		}
	}
	expect_refusal("optfix:echo", "--of-mode", "Task",
		       "--of-mode 'Task': expected one of: task, socket, inode");
	expect_refusal("optfix:echo", "--of-cpus", "3-1",
		       "--of-cpus '3-1': expected a CPU list like 0,2-3");
	expect_refusal("optfix:echo", "--of-cpus", "",
		       "--of-cpus '': expected a CPU list like 0,2-3");
}

static void test_bench_options_are_the_benchmarks(void **state)
{
	const struct bc_bench *b;
	struct bc_config cfg;

	(void)state;
	/* plain does not take echo's own option (argp says so on stderr;
	 * test_cli_refusal_and_help reads it) */
	assert_int_equal(parse(&cfg, &b, NULL, "optfix:plain", "--of-depth", "1", NULL),
			 BC_EXIT_USAGE);
	bc_options_free(&cfg);
	/* a flag takes no value */
	assert_int_equal(parse(&cfg, &b, NULL, "optfix:echo", "--of-sampled=yes", NULL),
			 BC_EXIT_USAGE);
	bc_options_free(&cfg);
}

/* ------------------------------------------------------ two runs, JSON */

static double last_gauge(const struct bc_run_result *res, int g)
{
	assert_true(res->iter_cnt > 0);
	return res->iters[res->iter_cnt - 1].values[g];
}

static void test_two_runs_in_one_process(void **state)
{
	const struct optfix_opts *o1, *o2;
	const struct bc_bench *b1, *b2;
	struct bc_run_result r1, r2;
	struct bc_config c1, c2;
	struct bc_ctx x1, x2;

	(void)state;
	assert_int_equal(parse(&c1, &b1, NULL, "optfix:echo", "-w0", "-d0.2", "--of-batch", "7",
			       "--of-tag", "ab", "--of-cpus", "0", NULL), 0);
	assert_int_equal(parse(&c2, &b2, NULL, "optfix:echo", "-w0", "-d0.2", "--of-batch", "9",
			       "--of-mode", "socket", "--of-depth", "12", NULL), 0);
	assert_ptr_equal(b1, b2);
	o1 = opts_of(&x1, &c1, b1);
	o2 = opts_of(&x2, &c2, b2);
	/* Two structs; each holds its own run's values only. */
	assert_ptr_not_equal(o1, o2);
	assert_int_equal(o1->batch, 7);
	assert_int_equal(o2->batch, 9);
	assert_string_equal(o1->tag, "ab");
	assert_null(o2->tag);
	assert_int_equal(o1->mode, 0);
	assert_int_equal(o2->mode, 1);
	assert_int_equal(o1->cpus->cnt, 1);
	assert_null(o2->cpus);
	assert_int_equal(o1->depth, -3);
	assert_int_equal(o2->depth, 12);

	/* The plugin's measure() of each run reads that run's struct. */
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	c1.verbosity = c2.verbosity = -1;
	assert_int_equal(bc_run(&c1, b1, &r1, NULL, NULL), 0);
	assert_int_equal(bc_run(&c2, b2, &r2, NULL, NULL), 0);
	assert_true(last_gauge(&r1, G_BATCH) == 7);
	assert_true(last_gauge(&r2, G_BATCH) == 9);
	assert_true(last_gauge(&r1, G_TAG_LEN) == 2);
	assert_true(last_gauge(&r2, G_TAG_LEN) == -1);
	assert_true(last_gauge(&r1, G_CPU_CNT) == 1);
	assert_true(last_gauge(&r2, G_CPU_CNT) == -1);
	assert_true(last_gauge(&r2, G_MODE) == 1);
	assert_true(last_gauge(&r2, G_DEPTH) == 12);

	/* Freeing one run's options leaves the other's alone. */
	bc_run_result_free(&r1);
	bc_options_free(&c1);
	assert_int_equal(((const struct optfix_opts *)bc_ctx_opts(r2.ctx))->batch, 9);
	bc_run_result_free(&r2);
	bc_options_free(&c2);
}

static void test_json_config(void **state)
{
	const struct bc_json *po, *set, *cfgj;
	const struct bc_bench *b;
	struct bc_run_result res;
	struct bc_config cfg;
	struct bc_json *doc;
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(parse(&cfg, &b, NULL, "optfix:echo", "-w0", "-d0.2", "--of-ring", "1M",
			       "--of-sampled", "--of-cpus", "2,0-1", "--of-mode", "inode", NULL), 0);
	cfg.verbosity = -1;
	memset(&res, 0, sizeof(res));
	assert_int_equal(bc_run(&cfg, b, &res, NULL, NULL), 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(bc_report_json(f, &cfg, &res), 0);
	fclose(f);
	doc = bc_json_parse(text, len, err, sizeof(err));
	if (!doc)
		fail_msg("%s", err);
	cfgj = bc_json_get(doc, "config");
	po = bc_json_get(cfgj, "plugin_options");
	/* every declared option, typed, defaults included */
	assert_int_equal(bc_json_len(po), 7);
	assert_true(bc_json_bool(bc_json_get(po, "of-sampled"), false));
	assert_true(bc_json_num(bc_json_get(po, "of-batch"), 0) == 500);
	assert_true(bc_json_num(bc_json_get(po, "of-ring"), 0) == 1 << 20);
	assert_string_equal(bc_json_str(bc_json_get(po, "of-mode")), "inode");
	assert_true(bc_json_is_null(bc_json_get(po, "of-tag")));
	assert_string_equal(bc_json_str(bc_json_get(po, "of-cpus")), "0-2");
	assert_true(bc_json_num(bc_json_get(po, "of-depth"), 0) == -3);
	/* and which ones the user gave, in table order */
	set = bc_json_get(cfgj, "plugin_options_set");
	assert_int_equal(bc_json_len(set), 4);
	assert_string_equal(bc_json_str(bc_json_at(set, 0)), "of-sampled");
	assert_string_equal(bc_json_str(bc_json_at(set, 1)), "of-ring");
	assert_string_equal(bc_json_str(bc_json_at(set, 2)), "of-mode");
	assert_string_equal(bc_json_str(bc_json_at(set, 3)), "of-cpus");
	bc_json_free(doc);
	free(text);
	bc_run_result_free(&res);
	bc_options_free(&cfg);
}

/* ------------------------------------------------ the real binary */

static int run_cli(struct bc_child_result *r, const char *first, ...)
{
	const char *argv[64] = { BC_TEST_BENCHCORE };
	size_t n = 1;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && n < 63; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	assert_int_equal(bc_child_run(BC_TEST_BENCHCORE, (char *const *)argv, 120, r), 0);
	if (!r->exited)
		fail_msg("benchcore died: signal %d; stderr: %s", r->term_signal, r->err);
	return r->exit_code;
}

static void test_cli_refusal_and_help(void **state)
{
	struct bc_child_result r;

	(void)state;
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo", "--of-ring",
				 "1T", NULL), BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: --of-ring '1T': expected a size in bytes (K, M, G suffixes) from 4096 to 1G\n");
	assert_int_equal(r.out_len, 0);
	bc_child_result_free(&r);

	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo", "--help",
				 NULL), BC_EXIT_OK);
	assert_non_null(strstr(r.out, "Options of the optfix plugin (1.0):"));
	assert_non_null(strstr(r.out, "--of-batch=N           Records per call (1 to 4000; default 500)"));
	assert_non_null(strstr(r.out, "--of-ring=SIZE         Ring size (4096 to 1G bytes; default 64K)"));
	assert_non_null(strstr(r.out, "--of-mode=WORD         Storage kind (one of: task, socket, inode;"));
	assert_non_null(strstr(r.out, "--of-cpus=CPUS         Where to look (a CPU list like 0,2-3)"));
	assert_non_null(strstr(r.out, "--of-tag=NAME          A label\n"));
	assert_non_null(strstr(r.out, "--of-sampled           Sample the events\n"));
	assert_non_null(strstr(r.out, "Options of optfix:echo only:"));
	assert_non_null(strstr(r.out, "--of-depth=N           Any integer (default -3)"));
	bc_child_result_free(&r);

	/* plain's help has no echo-only section */
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:plain", "--help",
				 NULL), BC_EXIT_OK);
	assert_non_null(strstr(r.out, "--of-batch=N"));
	assert_null(strstr(r.out, "--of-depth"));
	bc_child_result_free(&r);

	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:plain", "--of-depth",
				 "1", NULL), BC_EXIT_USAGE);
	/* A benchmark-only option on its sibling: the line names its owner. */
	assert_non_null(strstr(r.err, "benchcore: run: --of-depth is not an option of optfix:plain; it belongs to optfix:echo"));
	bc_child_result_free(&r);
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo",
				 "--of-sampled=yes", NULL), BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "option '--of-sampled' doesn't allow an argument"));
	bc_child_result_free(&r);
}

static void test_cli_bad_table(void **state)
{
	struct bc_child_result r;

	(void)state;
	/* the plugin's fault, found as it loads (as list finds it): one line
	 * naming the file, plugin and option; then the plugin is not there */
	assert_int_equal(run_cli(&r, "--plugin-dir", BAD_DIR, "run", "optbad:echo", NULL),
			 BC_EXIT_USAGE);
	assert_non_null(strstr(r.err, "/optbad.so: plugin 'optbad': option 'of-batch': bad default: --of-batch '0': expected an integer from 1 to 4000\n"));
	assert_non_null(strstr(r.err, "benchcore: plugin 'optbad' of 'optbad:echo' is not loaded: "));
	assert_non_null(strstr(r.err, "/optbad.so was refused: plugin 'optbad': option 'of-batch': bad default"));
	bc_child_result_free(&r);
}

static void test_cli_sweep(void **state)
{
	struct bc_child_result r;
	const struct bc_json *runs;
	struct bc_json *doc;
	char err[256];

	(void)state;
	/* a value its type refuses: one line, before anything runs */
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo", "-w0",
				 "-d0.2", "--sweep", "of-batch=1,0", NULL), BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: --of-batch '0': expected an integer from 1 to 4000\n");
	assert_int_equal(r.out_len, 0);
	bc_child_result_free(&r);
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo", "--sweep",
				 "of-sampled=on,maybe", NULL), BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: --of-sampled 'maybe': expected on or off (also true/false, yes/no, 1/0)\n");
	bc_child_result_free(&r);
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:plain", "--sweep",
				 "of-depth=1,2", NULL), BC_EXIT_USAGE);
	assert_string_equal(r.err, "benchcore: --sweep: optfix:plain has no option 'of-depth' (`benchcore run optfix:plain --help` lists them)\n");
	bc_child_result_free(&r);

	/* a flag by its declared type, and an enum */
	assert_int_equal(run_cli(&r, "--plugin-dir", GOOD_DIR, "run", "optfix:echo", "-w0",
				 "-d0.2", "--sweep", "of-sampled=yes,off", "--sweep",
				 "of-mode=socket", "--format", "json", NULL), BC_EXIT_OK);
	doc = bc_json_parse(r.out, r.out_len, err, sizeof(err));
	if (!doc)
		fail_msg("%s: %s", err, r.err);
	runs = bc_json_get(doc, "runs");
	assert_int_equal(bc_json_len(runs), 2);
	for (size_t i = 0; i < 2; i++) {
		const struct bc_json *cfg = bc_json_get(bc_json_get(bc_json_at(runs, i), "result"),
							"config");
		const struct bc_json *po = bc_json_get(cfg, "plugin_options");

		const struct bc_json *so = bc_json_get(bc_json_at(runs, i), "options");

		assert_true(bc_json_bool(bc_json_get(po, "of-sampled"), i == 1) == (i == 0));
		assert_string_equal(bc_json_str(bc_json_get(po, "of-mode")), "socket");
		/* The sweep's own record of the row: typed as the run's. */
		assert_int_equal(bc_json_get(so, "of-sampled")->type, BC_JSON_BOOL);
		assert_true(bc_json_bool(bc_json_get(so, "of-sampled"), i == 1) == (i == 0));
		assert_string_equal(bc_json_str(bc_json_get(so, "of-mode")), "socket");
		assert_int_equal(bc_json_len(bc_json_get(cfg, "plugin_options_set")), i == 0 ? 2 : 1);
	}
	bc_json_free(doc);
	bc_child_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_checks),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_value_json),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_bench_options_are_the_benchmarks),
		cmocka_unit_test(test_two_runs_in_one_process),
		cmocka_unit_test(test_json_config),
		cmocka_unit_test(test_cli_refusal_and_help),
		cmocka_unit_test(test_cli_bad_table),
		cmocka_unit_test(test_cli_sweep),
	};

	return cmocka_run_group_tests(tests, load_fixture, unload_fixture);
}
