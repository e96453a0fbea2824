// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The `run` command: one benchmark, parsed (options.c), run (runner.c) and
 * reported (report_text.c, report_json.c); --repeat and --precision hand
 * over to repeat.c, --sweep to sweep.c. Human output and machine output are
 * kept apart: with --format json the document goes to stdout (or --output)
 * and everything else to stderr.
 */
#include <stdio.h>
#include <string.h>

#include "cmd_run.h"
#include "config.h"
#include "loader.h"
#include "result.h"
#include "runner.h"
#include "stats.h"
#include "report.h"
#include "cli_env.h"
#include "options.h"
#include "core_opts.h"
#include "sweep.h"
#include "exit_status.h"
#include "output.h"
#include "plugin_opts.h"
#include "repeat.h"
#include "guard.h"

static void bc_cli_debug_opt(const struct bc_option *opt, const char *text, void *cookie)
{
	(void)cookie;
	bc_debug("plugin option --%s%s%s", opt->name, text ? "=" : "", text ? text : "");
}

/* What a teardown that calls exit() leaves to report (guard.h). */
struct bc_cli_rescue {
	struct bc_out *out;
	const struct bc_config *cfg;
	const struct bc_bench *bench;
	struct bc_run_result *res;
};

static void bc_cli_rescue(int code, void *arg)
{
	struct bc_cli_rescue *r = arg;
	struct bc_run_result *res = r->res;
	size_t measured = bc_stats_measured_cnt(res);

	res->exit_status = BC_EXIT_FAILED;
	res->cleanup_failed = true;
	snprintf(res->reason, sizeof(res->reason),
		 "teardown called exit(%d) after %zu measured iterations; they are reported, the run failed",
		 code, measured);
	bc_report_finish(r->out, r->cfg, r->bench, res, measured);
	fflush(NULL);
}

int bc_cli_run(const struct bc_config *cfg, const struct bc_bench *bench)
{
	struct bc_cli_rescue rescue;
	struct bc_run_result res;
	struct bc_progress pr;
	struct bc_out out;
	int status, err;

	status = bc_out_open(&out, "--output", cfg->output_path);
	if (status)
		return status;
	/* Text: progress and summary together, as the kernel runner prints
	 * them. JSON: the document alone on its stream, progress to stderr. */
	pr.f = cfg->format == BC_FORMAT_JSON ? stderr : out.f;
	pr.quiet = cfg->verbosity < 0;

	bc_opts_each_set(cfg->opts, bc_cli_debug_opt, NULL);
	memset(&res, 0, sizeof(res));
	rescue = (struct bc_cli_rescue){ .out = &out, .cfg = cfg, .bench = bench, .res = &res };
	bc_guard_set_rescue(bc_cli_rescue, &rescue);
	err = bc_run(cfg, bench, &res, bc_report_progress, &pr);
	bc_guard_set_rescue(NULL, NULL);
	status = res.exit_status;
	if (err && status == BC_EXIT_OK)
		status = BC_EXIT_FAILED;
	res.exit_status = status;

	status = bc_report_finish(&out, cfg, bench, &res, bc_stats_measured_cnt(&res));
	bc_run_result_free(&res);
	return status;
}

int bc_cmd_run(struct bc_cli_env *env, int argc, char **argv)
{
	const struct bc_bench *bench = NULL;
	struct bc_config cfg;
	int status;

	/* every combination in its own child process (batch.c) */
	if (bc_sweep_requested(argc, argv))
		return bc_sweep_main(env, argc, argv);
	bc_config_init(&cfg);
	status = bc_options_parse_run(env, argc, argv, &cfg, &bench);
	if (status == BC_OPTIONS_DONE)
		status = BC_EXIT_OK;
	else if (status == 0 && bc_repeat_requested(&cfg))
		status = bc_repeat_run(&cfg, bench);	/* each run a process of its own */
	else if (status == 0)
		status = bc_cli_run(&cfg, bench);
	bc_options_free(&cfg);
	return status;
}
