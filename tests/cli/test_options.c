// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `run` option parsing without a process: value checks, finding the
 * benchmark among the words, and the plugin's table options parsed beside
 * the core's into the run's options struct.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "context.h"
#include "cli_env.h"
#include "options.h"
#include "core_opts.h"
#include "log.h"
#include "exit_status.h"

/* ------------------------------------------------------ a fake plugin */

struct fake_opts {
	int64_t alpha;
	bool flag;
};

static const struct bc_option fake_options[] = {
	BC_OPT_INT(struct fake_opts, alpha, "alpha", .def = "1", .min = 0, .max = 100,
		   .help = "plugin option"),
	BC_OPT_FLAG(struct fake_opts, flag, "flag", .help = "plugin flag"),
};

static int fake_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = 0;
	return 0;
}

static int fake_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	(void)t;
	return 0;
}

static struct bc_plugin fake_plugin;
static struct bc_bench fake_bench;

static void fake_env(struct bc_cli_env *env)
{
	memset(env, 0, sizeof(*env));
	memset(&fake_plugin, 0, sizeof(fake_plugin));
	memset(&fake_bench, 0, sizeof(fake_bench));
	fake_bench.desc.sz = sizeof(fake_bench.desc);
	fake_bench.desc.name = "b1";
	fake_bench.desc.producer = fake_producer;
	fake_bench.desc.measure = fake_measure;
	fake_bench.plugin = &fake_plugin;
	fake_plugin.desc.name = "fake";
	fake_plugin.desc.opts_size = sizeof(struct fake_opts);
	fake_plugin.options = (struct bc_option *)fake_options;
	fake_plugin.option_cnt = sizeof(fake_options) / sizeof(fake_options[0]);
	fake_plugin.benches = &fake_bench;
	fake_plugin.bench_cnt = 1;
	env->plugins.plugins = &fake_plugin;
	env->plugins.cnt = 1;
	env->plugins_loaded = true;	/* bc_cli_load_plugins() must not load */
}

/* Parses a NULL-terminated word list as `benchcore run ...`. */
static int parse(struct bc_run_request *req, const struct bc_bench **bench, ...)
{
	struct bc_cli_env env;
	char *argv[32];
	const char *w;
	int argc = 0, rc;
	va_list ap;

	fake_env(&env);
	argv[argc++] = (char *)"run";
	va_start(ap, bench);
	while ((w = va_arg(ap, const char *)))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	bc_run_request_init(req);
	rc = bc_options_parse_run(&env, argc, argv, req, bench);
	bc_log_set_verbosity(0);
	return rc;
}

/* ---------------------------------------------------------------- tests */

static void test_value_checks(void **state)
{
	unsigned int u;
	double d;
	enum bc_format f;
	FILE *log = tmpfile();

	(void)state;
	assert_non_null(log);
	bc_log_set_file(log);	/* each refusal says one line; not checked here */
	assert_int_equal(bc_parse_seconds("--duration", "2.5", false, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(bc_parse_seconds("--warmup", "0", true, &d), 0);
	assert_int_equal(bc_parse_seconds("--duration", "0", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--duration", "abc", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--duration", "", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--duration", "5s", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--duration", "nan", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--duration", "inf", false, &d), -EINVAL);
	assert_int_equal(bc_parse_seconds("--warmup", "-1", true, &d), -EINVAL);

	assert_int_equal(bc_parse_uint("-p", "12", 0, 4096, "threads", &u), 0);
	assert_int_equal(u, 12);
	assert_int_equal(bc_parse_uint("-p", "4097", 0, 4096, "threads", &u), -EINVAL);
	assert_int_equal(bc_parse_uint("-p", "99999999999999999999", 0, 4096, "threads", &u), -EINVAL);
	assert_int_equal(bc_parse_uint("-p", "-1", 0, 4096, "threads", &u), -EINVAL);
	assert_int_equal(bc_parse_uint("-p", "+1", 0, 4096, "threads", &u), -EINVAL);
	assert_int_equal(bc_parse_uint("-p", " 1", 0, 4096, "threads", &u), -EINVAL);
	assert_int_equal(bc_parse_uint("-p", "", 0, 4096, "threads", &u), -EINVAL);

	assert_int_equal(bc_parse_format("--format", "json", BC_FORMATS_RUN, &f), 0);
	assert_int_equal(f, BC_FORMAT_JSON);
	assert_int_equal(bc_parse_format("--format", "JSON", BC_FORMATS_RUN, &f), -EINVAL);
	/* One enum and one parser for every --format: a run takes two of
	 * the four, tables of many runs take all of them. */
	assert_int_equal(bc_parse_format("--format", "csv", BC_FORMATS_RUN, &f), -EINVAL);
	assert_int_equal(bc_parse_format("--format", "csv", BC_FORMATS_TABLE, &f), 0);
	assert_int_equal(f, BC_FORMAT_CSV);
	assert_int_equal(bc_format_parse("md", BC_FORMATS_TABLE, &f), 0);
	assert_int_equal(f, BC_FORMAT_MARKDOWN);
	bc_log_set_file(NULL);
	fclose(log);
}

/* The core option table is the one place a core option is stated: its
 * defaults, its checks, its spellings, argp's view, and what compare and
 * the run document make of it all come from the same line. */
static void test_core_option_table(void **state)
{
	char *words[] = { "-w", "0.5", "--duration=2", "-ap", "3", "--repeat", "4",
			  "--prod-affinity", "1", "--format", "json", "--rb-x", "7" };
	const struct argp_option *argp = bc_core_opts_argp();
	struct bc_run_request *req = malloc(sizeof(*req));
	struct bc_config *cfg = req ? &req->cfg : NULL;
	char err[256];
	size_t n = 0;

	(void)state;
	assert_non_null(req);
	bc_run_request_init(req);
	assert_true(cfg->warmup_sec == 1 && cfg->duration_sec == 5);
	assert_int_equal(cfg->format, BC_FORMAT_TEXT);
	assert_false(cfg->producers_set);

	assert_ptr_equal(bc_core_opt_find("p"), bc_core_opt_find("producers"));
	assert_null(bc_core_opt_find("rb-x"));
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++, n++) {
		assert_string_equal(argp[n].name, o->name);
		assert_int_equal(argp[n].key, bc_core_opt_key(o));
		assert_ptr_equal(bc_core_opt_by_key(argp[n].key), o);
		assert_non_null(o->help);
	}
	assert_null(argp[n].name);

	assert_int_equal(bc_core_words_apply(words, sizeof(words) / sizeof(words[0]), req, err,
					     sizeof(err)), 0);
	assert_true(cfg->warmup_sec == 0.5 && cfg->duration_sec == 2);
	assert_true(cfg->affinity && cfg->producers_set);
	assert_int_equal(cfg->producers, 3);
	assert_int_equal(req->repeat, 4);
	assert_true(cfg->prod_cpus_set && cfg->prod_cpus.cnt == 1);
	/* --format is a batch's own word on a run line: left to the run */
	assert_int_equal(cfg->format, BC_FORMAT_TEXT);

	assert_int_equal(bc_core_opt_set(bc_core_opt_find("duration"), "abc", req, err,
					 sizeof(err)), -EINVAL);
	assert_string_equal(err, "--duration 'abc': expected a number of seconds > 0 (at most 31536000)");
	assert_int_equal(bc_core_opt_set(bc_core_opt_find("c"), "0x3", req, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "--consumers '0x3': expected a whole number of threads from 0 to 4096");

	assert_true(bc_core_opt_json_ignored("warmup_sec"));
	assert_true(bc_core_opt_json_ignored("format"));
	assert_false(bc_core_opt_json_ignored("producers"));
	assert_false(bc_core_opt_json_ignored("prod_cpus"));
	free(req);
}

static void test_scan(void **state)
{
	char *argv[] = { "run", "-d", "5", "--prod-affinity", "0-1", "--rb-x", "7", "-vw1",
			 "fake:b1", "--format=json", "-p2", "--", "-x", NULL };
	struct bc_run_scan scan;

	(void)state;
	bc_run_scan(13, argv, &scan);
	/* Values of core options are skipped; a plugin option's value cannot
	 * be told apart yet, so it is a candidate, and so is all after "--". */
	assert_int_equal(scan.cand_cnt, 3);
	assert_string_equal(scan.cands[0], "7");
	assert_string_equal(scan.cands[1], "fake:b1");
	assert_string_equal(scan.cands[2], "-x");
	assert_int_equal(scan.verbosity, 1);
	assert_false(scan.help);

	{
		char *h[] = { "run", "-q", "--help", NULL };

		bc_run_scan(3, h, &scan);
		assert_int_equal(scan.cand_cnt, 0);
		assert_true(scan.help);
		assert_int_equal(scan.verbosity, -1);
	}
	assert_true(bc_run_opt_takes_next("-d"));
	assert_true(bc_run_opt_takes_next("-vd"));
	assert_true(bc_run_opt_takes_next("--duration"));
	assert_false(bc_run_opt_takes_next("-d5"));
	assert_false(bc_run_opt_takes_next("--duration=5"));
	assert_false(bc_run_opt_takes_next("-a"));
	assert_false(bc_run_opt_takes_next("--rb-x"));
	assert_false(bc_run_opt_takes_next("word"));
}

/* The option namespace rule (docs/plugin-abi.md, "Option names"): a core
 * option refuses a plugin option of its name only when the plugin's ABI
 * minor already had it; a batch word refuses it always. */
static void test_core_opt_refuses(void **state)
{
	unsigned int since;

	(void)state;
	assert_string_equal(bc_core_opt_refuses("producers", 0, &since), "producers");
	assert_int_equal(since, 0);
	assert_string_equal(bc_core_opt_refuses("sweep", 0, &since), "sweep");
	assert_int_equal(since, 0);
	assert_null(bc_core_opt_refuses("rb-x", 2, &since));
	/* --max-time came with 2.1: a 2.0 plugin may have its own. */
	assert_null(bc_core_opt_refuses("max-time", 0, &since));
	assert_int_equal(since, 1);
	assert_string_equal(bc_core_opt_refuses("max-time", 1, &since), "max-time");
	assert_string_equal(bc_core_opt_refuses("max-time", 2, &since), "max-time");
	/* Every core option carries the minor that added it, none from the
	 * future: a newer one would need this core's own plugins rebuilt. */
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++)
		assert_true(o->abi_minor <= BC_ABI_MINOR);
}

static void test_parse_run(void **state)
{
	const struct fake_opts *o;
	const struct bc_bench *bench;
	struct bc_run_request req;
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(parse(&req, &bench, "--alpha", "5", "fake:b1", "--flag", "-d", "2", "-w",
			       "0", "-p", "3", "-a", "--cons-affinity", "0-1", "--alpha=6", NULL), 0);
	assert_ptr_equal(bench, &fake_bench);
	assert_true(req.cfg.duration_sec == 2);
	assert_true(req.cfg.warmup_sec == 0);
	assert_int_equal(req.cfg.producers, 3);
	assert_true(req.cfg.producers_set);
	assert_false(req.cfg.consumers_set);
	assert_true(req.cfg.affinity);
	assert_true(req.cfg.cons_cpus_set);
	assert_int_equal(req.cfg.cons_cpus.cnt, 2);

	/* The plugin's options struct, typed; given twice: the last value. */
	bc_ctx_init(&ctx, &req.cfg, bench);
	o = bc_ctx_opts(&ctx);
	assert_non_null(o);
	assert_int_equal(o->alpha, 6);
	assert_true(o->flag);
	bc_ctx_release(&ctx);
	bc_options_free(&req.cfg);
	assert_null(req.cfg.opts);

	/* Not given: the table's defaults. */
	assert_int_equal(parse(&req, &bench, "fake:b1", NULL), 0);
	bc_ctx_init(&ctx, &req.cfg, bench);
	o = bc_ctx_opts(&ctx);
	assert_non_null(o);
	assert_int_equal(o->alpha, 1);
	assert_false(o->flag);
	bc_ctx_release(&ctx);
	bc_options_free(&req.cfg);
}

static void test_parse_errors(void **state)
{
	const struct bc_bench *bench;
	struct bc_run_request req;
	FILE *log = tmpfile();

	(void)state;
	assert_non_null(log);
	bc_log_set_file(log);
	assert_int_equal(parse(&req, &bench, "b1", "-d", "x", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, "b1", "--alpha", "bad", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, "b1", "--alpha", "101", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, "b1", "--beta", "1", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, "nope", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	assert_int_equal(parse(&req, &bench, "b1", "stray", NULL), BC_EXIT_USAGE);
	bc_options_free(&req.cfg);
	bc_log_set_file(NULL);
	fclose(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_checks),
		cmocka_unit_test(test_core_option_table),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_core_opt_refuses),
		cmocka_unit_test(test_parse_run),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
