// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The `run` command: one benchmark, parsed (options.c), run (runner.c) and
 * reported (report_text.c, report_json.c); --repeat and --precision hand
 * over to repeat.c, --sweep to sweep.c. Human output and machine output are
 * kept apart: with --format json the document goes to stdout (or --output)
 * and everything else to stderr.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_run.h"
#include "baseline.h"
#include "runtime/config.h"
#include "runtime/context.h"
#include "runtime/figures.h"
#include "runtime/loader.h"
#include "runtime/result.h"
#include "runtime/runner.h"
#include "runtime/stats.h"
#include "runtime/report.h"
#include "cli_env.h"
#include "options.h"
#include "runtime/core_opts.h"
#include "sweep.h"
#include "runtime/exit_status.h"
#include "runtime/output.h"
#include "runtime/plugin_opts.h"
#include "repeat.h"
#include "runtime/guard.h"

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

	bc_run_teardown_exited(res, code);
	bc_report_finish(r->out, r->cfg, r->bench, res, bc_stats_measured_cnt(res));
	fflush(NULL);
}

/*
 * A crash (a plugin's SIGSEGV, abort()) ends the process from a signal
 * handler, which may only write(). So the document a crashed run gets on
 * standard output is made here, before the run: the shape of a run that
 * failed before measuring (no iteration, no summary: nothing was measured
 * that could be printed safely), with placeholders for the status and the
 * reason that guard.c's handler fills in. --output FILE gets none: FILE is
 * replaced only by a run that measured something, and this document holds
 * no measurement (the crash line says what happened).
 */
#define BC_CRASH_STATUS 999999937
#define BC_CRASH_REASON "benchcore-crash-reason-placeholder"

struct bc_cli_crash_doc {
	char *text;
	size_t len;
};

static void bc_cli_crash_doc_arm(struct bc_cli_crash_doc *cd, const struct bc_config *cfg,
				 const struct bc_bench *bench, const struct bc_out *out)
{
	struct bc_guard_crash_doc doc = { .fd = bc_stdout_fd() };
	char status[16], *at, *reason;
	struct bc_run_result res;
	FILE *f;

	memset(cd, 0, sizeof(*cd));
	if (cfg->format != BC_FORMAT_JSON || out->sink)
		return;
	memset(&res, 0, sizeof(res));
	res.bench = bench;
	res.owned_ctx = calloc(1, sizeof(*res.owned_ctx));
	f = res.owned_ctx ? open_memstream(&cd->text, &cd->len) : NULL;
	if (!f)
		goto out;
	res.ctx = res.owned_ctx;
	bc_ctx_init(res.ctx, cfg, bench);
	res.producer_cnt = res.ctx->producer_cnt;
	res.consumer_cnt = res.ctx->consumer_cnt;
	res.exit_status = BC_CRASH_STATUS;
	snprintf(res.reason, sizeof(res.reason), "%s", BC_CRASH_REASON);
	bc_stats_summarise(&res);
	if (bc_figures_summarise(&res) || bc_report_json(f, cfg, &res)) {
		fclose(f);
		goto out;
	}
	if (fclose(f) || !cd->text)
		goto out;
	snprintf(status, sizeof(status), "%d", BC_CRASH_STATUS);
	at = strstr(cd->text, status);
	reason = strstr(cd->text, BC_CRASH_REASON);
	if (!at || !reason || reason < at)
		goto out;
	doc.text = cd->text;
	doc.len = cd->len;
	doc.status_at = (size_t)(at - cd->text);
	doc.status_len = strlen(status);
	doc.reason_at = (size_t)(reason - cd->text);
	doc.reason_len = strlen(BC_CRASH_REASON);
	/* Nothing of the report is buffered yet: the handler writes first. */
	fflush(bc_stdout());
	bc_guard_crash_doc_arm(&doc);
out:
	bc_run_result_free(&res);
}

static void bc_cli_crash_doc_disarm(struct bc_cli_crash_doc *cd)
{
	bc_guard_crash_doc_disarm();
	free(cd->text);
	memset(cd, 0, sizeof(*cd));
}

int bc_cli_run(const struct bc_run_request *req, const struct bc_bench *bench)
{
	const struct bc_config *cfg = &req->cfg;
	struct bc_cli_crash_doc crash;
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
	bc_cli_crash_doc_arm(&crash, cfg, bench, &out);
	err = bc_run(cfg, bench, &res, bc_report_progress, &pr);
	bc_cli_crash_doc_disarm(&crash);
	bc_guard_set_rescue(NULL, NULL);
	status = res.exit_status;
	if (err && status == BC_EXIT_OK)
		status = BC_EXIT_FAILED;
	res.exit_status = status;

	status = bc_report_finish(&out, cfg, bench, &res, bc_stats_measured_cnt(&res));
	status = bc_baseline_after_run(req, &res, status);
	bc_run_result_free(&res);
	return status;
}

int bc_cmd_run(struct bc_cli_env *env, int argc, char **argv)
{
	const struct bc_bench *bench = NULL;
	struct bc_run_request req;
	int status;

	/* every combination in its own child process (batch.c) */
	if (bc_sweep_requested(argc, argv))
		return bc_sweep_main(env, argc, argv);
	bc_run_request_init(&req);
	status = bc_options_parse_run(env, argc, argv, &req, &bench);
	if (status == BC_OPTIONS_DONE)
		status = BC_EXIT_OK;
	else if (status == 0 && bc_repeat_requested(&req))
		status = bc_repeat_run(&req, bench);	/* each run a process of its own */
	else if (status == 0)
		status = bc_cli_run(&req, bench);
	bc_options_free(&req.cfg);
	return status;
}
