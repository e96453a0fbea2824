// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore compare BASE.json NEW.json`: its command line. Matching the
 * runs and judging them is results/compare.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_compare.h"
#include "results/compare.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "runtime/output.h"

static void bc_compare_help(FILE *f)
{
	fputs("Usage: benchcore compare BASE.json NEW.json [options]\n\n"
	      "Matches the runs of two result documents (a run, a sweep or a suite, written\n"
	      "with --format json) by benchmark and configuration, and prints per metric the\n"
	      "base and new means, the change, and whether it is significant; then on stderr\n"
	      "one verdict line per matched run (improved, regressed, no significant change).\n\n"
	      "  --test TEST      welch (default) or mann-whitney, on the per-run means when\n"
	      "                   both files ran with --repeat, else on the per-iteration samples\n"
	      "  --alpha P        significance level (default 0.05)\n"
	      "  --metric NAME    the metric or derived figure the verdict lines judge\n"
	      "                   (default: each run's headline); the table has them all\n"
	      "  --format FMT     text (default), json, csv or markdown\n"
	      "  --output FILE    write the table to FILE\n",
	      f);
}


int bc_compare_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_cmp_opts o = { .test = BC_CMP_WELCH, .alpha = 0.05, .out = bc_stdout() };
	const char *paths[2] = { NULL, NULL }, *output = NULL, *v;
	size_t path_cnt = 0;

	(void)env;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			bc_compare_help(bc_stdout());
			return BC_EXIT_OK;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--format"))) {
			if (bc_parse_format("--format", v, BC_FORMATS_TABLE, &o.format))
				return BC_EXIT_USAGE;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--output"))) {
			output = v;
		} else if (bc_cli_metric_opt(argc, argv, &i, &o.metric)) {
			if (!o.metric)
				return BC_EXIT_USAGE;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--test"))) {
			if (!strcmp(v, "welch") || !strcmp(v, "t"))
				o.test = BC_CMP_WELCH;
			else if (!strcmp(v, "mann-whitney") || !strcmp(v, "mwu") || !strcmp(v, "u"))
				o.test = BC_CMP_MANN_WHITNEY;
			else
				return bc_cli_usage_error("--test '%s': expected welch or mann-whitney", v);
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--alpha"))) {
			char *end;

			o.alpha = strtod(v, &end);
			if (!*v || *end || !(o.alpha > 0.0 && o.alpha < 1.0))
				return bc_cli_usage_error("--alpha '%s': expected a probability between 0 and 1, e.g. 0.05", v);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return bc_cli_usage_error("compare: unknown option '%s' (see benchcore compare --help)",
					     argv[i]);
		} else if (path_cnt < 2) {
			paths[path_cnt++] = argv[i];
		} else {
			return bc_cli_usage_error("compare: expected two files, BASE.json NEW.json; '%s' is a third",
					     argv[i]);
		}
	}
	if (path_cnt != 2)
		return bc_cli_usage_error("compare: expected two files: compare BASE.json NEW.json");
	/* Same device and inode: a link or another spelling is still the input. */
	for (size_t i = 0; output && i < 2; i++)
		if (bc_out_same_file(output, paths[i]))
			return bc_cli_usage_error("--output '%s': is the input '%s'; expected another file",
						  output, paths[i]);
	return bc_compare_files(&o, paths, output);
}
