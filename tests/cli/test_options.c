// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `run` option parsing without a process: value checks, finding the
 * benchmark among the words, and (ABI 1 transition) a plugin without an
 * option table whose own argp, children included, still parses its options
 * with its own inputs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bc_internal.h"

/* ------------------------------------------------------ a fake plugin */

static int fake_child_input;
static bool child_saw_its_input;
static char fake_alpha[32];

static error_t fake_child_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key == 0x301) {
		child_saw_its_input = state->input == &fake_child_input;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_option fake_child_options[] = {
	{ "beta", 0x301, "X", 0, "child option", 0 },
	{ 0 },
};

static const struct argp fake_child_argp = {
	.options = fake_child_options,
	.parser = fake_child_parse,
};

static const struct argp_child fake_children[] = {
	{ &fake_child_argp, 0, NULL, 0 },
	{ 0 },
};

static error_t fake_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &fake_child_input;
		return 0;
	case 'A':
		if (strcmp(arg, "bad") == 0) {
			argp_error(state, "--alpha '%s': expected anything but bad", arg);
			return EINVAL;
		}
		snprintf(fake_alpha, sizeof(fake_alpha), "%s", arg);
		return 0;
	case 0x300:
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_option fake_options[] = {
	{ "alpha", 'A', "N", 0, "plugin option", 0 },
	{ "flag", 0x300, NULL, 0, "plugin flag", 0 },
	{ 0 },
};

static const struct argp fake_argp = {
	.options = fake_options,
	.parser = fake_parse,
	.children = fake_children,
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
	fake_plugin.desc.argp = &fake_argp;
	fake_plugin.benches = &fake_bench;
	fake_plugin.bench_cnt = 1;
	env->plugins.plugins = &fake_plugin;
	env->plugins.cnt = 1;
	env->plugins_loaded = true;	/* bc_cli_load_plugins() must not load */
}

/* Parses a NULL-terminated word list as `benchcore run ...`. */
static int parse(struct bc_config *cfg, const struct bc_bench **bench, ...)
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
	bc_config_init(cfg);
	rc = bc_options_parse_run(&env, argc, argv, cfg, bench);
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

	assert_int_equal(bc_parse_format("--format", "json", &f), 0);
	assert_int_equal(f, BC_FORMAT_JSON);
	assert_int_equal(bc_parse_format("--format", "JSON", &f), -EINVAL);
	bc_log_set_file(NULL);
	fclose(log);
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
	assert_true(bc_run_is_core_option("producers"));
	assert_true(bc_run_is_core_option("sweep"));
	assert_false(bc_run_is_core_option("rb-x"));
}

static void test_parse_legacy_argp(void **state)
{
	const struct bc_bench *bench;
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	child_saw_its_input = false;
	assert_int_equal(parse(&cfg, &bench, "--alpha", "5", "fake:b1", "--flag", "--beta=x", "-d",
			       "2", "-w", "0", "-p", "3", "-a", "--cons-affinity", "0-1", "-A", "6",
			       NULL), 0);
	assert_ptr_equal(bench, &fake_bench);
	assert_true(cfg.duration_sec == 2);
	assert_true(cfg.warmup_sec == 0);
	assert_int_equal(cfg.producers, 3);
	assert_true(cfg.producers_set);
	assert_false(cfg.consumers_set);
	assert_true(cfg.affinity);
	assert_true(cfg.cons_cpus_set);
	assert_int_equal(cfg.cons_cpus.cnt, 2);

	/* Given twice: the plugin's parser saw the last value. */
	assert_string_equal(fake_alpha, "6");
	/* The plugin's child parser still got the input its parent gave it. */
	assert_true(child_saw_its_input);
	/* No table, no options struct. */
	bc_ctx_init(&ctx, &cfg, bench);
	assert_null(bc_ctx_opts(&ctx));
	bc_options_free(&cfg);
	assert_null(cfg.opts);
}

static void test_parse_errors(void **state)
{
	const struct bc_bench *bench;
	struct bc_config cfg;
	FILE *log = tmpfile();

	(void)state;
	assert_non_null(log);
	bc_log_set_file(log);
	assert_int_equal(parse(&cfg, &bench, "b1", "-d", "x", NULL), BC_EXIT_USAGE);
	bc_options_free(&cfg);
	assert_int_equal(parse(&cfg, &bench, "b1", "--alpha", "bad", NULL), BC_EXIT_USAGE);
	bc_options_free(&cfg);
	assert_int_equal(parse(&cfg, &bench, "nope", NULL), BC_EXIT_USAGE);
	bc_options_free(&cfg);
	assert_int_equal(parse(&cfg, &bench, NULL), BC_EXIT_USAGE);
	bc_options_free(&cfg);
	assert_int_equal(parse(&cfg, &bench, "b1", "stray", NULL), BC_EXIT_USAGE);
	bc_options_free(&cfg);
	bc_log_set_file(NULL);
	fclose(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_checks),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_parse_legacy_argp),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
