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

#include "sweep.h"
#include "cli_env.h"
#include "results/report_table.h"
#include "cli_args.h"
#include "batch.h"
#include "runtime/exit_status.h"
#include "results/row.h"
#include "runtime/output.h"
#include "runtime/plugin_opts.h"
#include "runtime/log.h"

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
	struct bc_batch_opts bo = { .kind = "sweep", .env = env, .format = BC_FORMAT_TEXT };
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
	ret = bc_batch_check_files(&bo, output, NULL);
	if (!ret)
		ret = bc_out_open(&out, "--output", output);
	if (ret)
		goto out;
	if (bc_batch_find_bench(words, word_cnt) < 0) {
		ret = bc_cli_usage_error("%s: expected a benchmark name (PLUGIN:BENCH)", argv[0]);
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

/* `benchcore sweep`: the same as `run ... --sweep`, as a command of its own,
 * with help of its own. */
int bc_sweep_cmd(struct bc_cli_env *env, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "-?")) {
			fputs("Usage: benchcore sweep PLUGIN:BENCH --sweep OPTION=V1,V2,... [--sweep ...]\n"
			      "                       [--label TEMPLATE] [--format text|json|csv|markdown]\n"
			      "                       [--output FILE] [--run-timeout SEC] [--save [--store PATH]]\n"
			      "                       [run options...]\n"
			      "Runs the benchmark once per combination of the swept values, each run in a\n"
			      "process of its own, and prints one table row per run. OPTION is any core or\n"
			      "plugin option of the benchmark; NAME,NAME=... sweeps several in step.\n"
			      "--save keeps every run that ended well in the result store, each named by its\n"
			      "--label (docs/history.md).\n"
			      "`benchcore run PLUGIN:BENCH --sweep ...` is the same command.\n", bc_stdout());
			return BC_EXIT_OK;
		}
	}
	if (!bc_sweep_requested(argc, argv))
		return bc_cli_usage_error("sweep: expected --sweep OPTION=V1,V2,... (e.g. --sweep producers=1,2)");
	return bc_sweep_main(env, argc, argv);
}
