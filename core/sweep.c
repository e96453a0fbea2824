// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sweeps: `benchcore run BENCH --sweep OPTION=V1,V2,...`. This file reads
 * the sweep axes and the command line, and turns each value into a command
 * line word from the option's declared type (no guessing: a value its type
 * refuses stops the sweep before anything runs); the combinations run as a
 * batch (batch.c), one child run and one table row each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bc_internal.h"
#include "output.h"
#include "plugin_opts.h"

/* ---------------------------------------------------------- sweep axes */

static int bc_split_list(const char *text, struct bc_strv *out)
{
	const char *p = text;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int err;

		if (!len)
			return -EINVAL;
		err = bc_strv_push_owned(out, strndup(p, len));
		if (err)
			return err;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int bc_sweep_axis_parse(const char *spec, struct bc_sweep_axis *ax, char *err, size_t err_len)
{
	struct bc_strv names = {}, values = {};
	const char *eq = strchr(spec, '=');
	char *lhs = NULL;
	int ret;

	memset(ax, 0, sizeof(*ax));
	if (!eq || eq == spec) {
		bc_set_err(err, err_len,
			"--sweep '%s': expected OPTION=V1,V2,... (e.g. producers=1,2)", spec);
		return -EINVAL;
	}
	lhs = strndup(spec, (size_t)(eq - spec));
	if (!lhs)
		return -ENOMEM;
	ret = bc_split_list(lhs, &names);
	if (ret == -EINVAL)
		bc_set_err(err, err_len, "--sweep '%s': empty option name before '='", spec);
	if (!ret) {
		ret = bc_split_list(eq + 1, &values);
		if (ret == -EINVAL)
			bc_set_err(err, err_len,
				"--sweep '%s': empty value; expected OPTION=V1,V2,...", spec);
	}
	for (size_t i = 0; !ret && i < names.cnt; i++) {
		char *n = names.v[i];

		/* "--producers=1,2" and "producers=1,2" mean the same. */
		while (*n == '-')
			memmove(n, n + 1, strlen(n));
		if (!*n || strpbrk(n, " \t")) {
			bc_set_err(err, err_len,
				"--sweep '%s': '%s' is not an option name", spec, names.v[i]);
			ret = -EINVAL;
		}
	}
	free(lhs);
	if (ret) {
		bc_strv_free(&names);
		bc_strv_free(&values);
		return ret;
	}
	ax->names = names.v;
	ax->name_cnt = names.cnt;
	ax->values = values.v;
	ax->value_cnt = values.cnt;
	return 0;
}

void bc_sweep_axis_free(struct bc_sweep_axis *ax)
{
	struct bc_strv n = { ax->names, ax->name_cnt, 0 }, v = { ax->values, ax->value_cnt, 0 };

	bc_strv_free(&n);
	bc_strv_free(&v);
	memset(ax, 0, sizeof(*ax));
}

size_t bc_sweep_combination_cnt(const struct bc_sweep_axis *axes, size_t cnt)
{
	size_t total = 1;

	for (size_t i = 0; i < cnt; i++)
		total *= axes[i].value_cnt;
	return total;
}

void bc_sweep_combination(const struct bc_sweep_axis *axes, size_t cnt, size_t idx,
			  size_t *choice)
{
	/* Mixed radix, last axis fastest: the nested loops a script writes. */
	for (size_t i = cnt; i-- > 0;) {
		choice[i] = idx % axes[i].value_cnt;
		idx /= axes[i].value_cnt;
	}
}

/* A core flag (-a) in a sweep: on/off and the other flag words. */
static int bc_core_flag_arg(const char *name, const char *value, char **arg, char *err,
			 size_t err_len)
{
	int on = bc_opts_flag_word(value);

	if (on < 0) {
		bc_set_err(err, err_len,
			   "--%s '%s': expected on or off (also true/false, yes/no, 1/0)", name, value);
		return -EINVAL;
	}
	if (!on)
		return 0;
	return asprintf(arg, strlen(name) == 1 ? "-%s" : "--%s", name) < 0 ? -ENOMEM : 0;
}

int bc_sweep_option_arg(const struct bc_bench *bench, const char *name, const char *value,
			char **arg, char *err, size_t err_len)
{
	const struct argp_option *core = bc_run_core_option(name);
	const struct bc_option *opt;
	int n;

	*arg = NULL;
	/* Core options keep their own checks (the run makes them). */
	if (core && !core->arg)
		return bc_core_flag_arg(name, value, arg, err, err_len);
	if (core && strlen(name) == 1)
		n = asprintf(arg, "-%s%s", name, value);
	else if (core)
		n = asprintf(arg, "--%s=%s", name, value);
	else if ((opt = bench ? bc_opts_find(bench, name) : NULL))
		return bc_opts_sweep_arg(opt, value, arg, err, err_len);
	/* A benchmark the parent cannot resolve: each row's run says why it
	 * cannot run, which is more use than one refusal for the batch. */
	else if (!bench)
		n = asprintf(arg, "--%s=%s", name, value);
	else {
		bc_set_err(err, err_len,
			   "--sweep: %s:%s has no option '%s' (`benchcore run %s:%s --help` lists them)",
			   bench->plugin->desc.name, bench->desc.name, name,
			   bench->plugin->desc.name, bench->desc.name);
		return -EINVAL;
	}
	if (n < 0) {
		*arg = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------ run --sweep */

bool bc_sweep_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		/* help is the plain run's: core and plugin options */
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?") ||
		    !strcmp(argv[i], "--usage"))
			return false;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--sweep") || !strncmp(argv[i], "--sweep=", 8))
			return true;
	}
	return false;
}

int bc_sweep_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_batch_opts bo = { .kind = "sweep", .env = env, .format = BC_TABLE_TEXT };
	char **words = calloc((size_t)argc + 1, sizeof(*words));
	const char *output = NULL, *bench = NULL;
	struct bc_batch *batch = NULL;
	size_t word_cnt = 0;
	char err[512] = "";
	struct bc_out out;
	int ret;

	bc_out_open(&out, "--output", NULL);
	if (!words)
		return BC_EXIT_FAILED;
	for (int i = 1; i < argc; i++) {
		int taken = bc_batch_cli_opt(argc, argv, &i, &bo, &output);

		if (taken < 0) {
			ret = BC_EXIT_USAGE;
			goto out;
		}
		if (!taken)
			words[word_cnt++] = argv[i];
	}
	ret = bc_out_open(&out, "--output", output);
	if (ret)
		goto out;
	if (bc_batch_find_bench(words, word_cnt) < 0) {
		ret = bc_cli_usage_error("run: expected a benchmark name (PLUGIN:BENCH)");
		goto out;
	}
	bench = words[bc_batch_find_bench(words, word_cnt)];
	bo.name = bench;
	bo.out = out.f;
	batch = bc_batch_new(&bo);
	if (!batch) {
		ret = BC_EXIT_FAILED;
		fprintf(stderr, "benchcore: cannot find the benchcore executable to run the sweep\n");
		goto out;
	}
	ret = bc_batch_add_run(batch, bench, words, word_cnt, err, sizeof(err));
	if (ret) {
		ret = ret == -ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
		bc_warn("%s", err[0] ? err : "sweep: out of memory");
		goto out;
	}
	ret = bc_batch_execute(batch);
	if (ret < 0) {
		fprintf(stderr, "benchcore: sweep: %s\n", strerror(-ret));
		ret = BC_EXIT_FAILED;
	}
out:
	/* A table with no measured row does not replace an older one. */
	ret = bc_out_close(&out, batch && bc_batch_produced(batch), ret);
	bc_batch_free(batch);
	free(words);
	return ret;
}
