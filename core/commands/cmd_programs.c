// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore programs`: what veristat says of an object file, said of a
 * benchmark's programs as the benchmark loads them (its options, its
 * attach ladder): the run is set up and attached, its programs' facts
 * read, and torn down, with no thread started and nothing measured
 * (bc_config.setup_only). With --all, every benchmark of every plugin,
 * each in a child process of its own, so that one that crashes or hangs
 * its kernel path costs one line, not the others; no BPF object outlives
 * its child.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_env.h"
#include "cmd_programs.h"
#include "options.h"
#include "runtime/config.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "runtime/loader.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "runtime/report.h"
#include "runtime/runner.h"

static const char bc_programs_usage[] =
	"usage: benchcore programs PLUGIN:BENCH [--format text|json|csv] [plugin options]\n"
	"       benchcore programs --all [--format text|json|csv]\n"
	"Loads a benchmark's BPF programs as a run would, prints what the kernel made of\n"
	"them (sizes, the verifier's statistics, maps), and unloads them; nothing is\n"
	"measured. --all: every benchmark; one unavailable here gets one line.\n";

struct bc_programs_args {
	bool all;
	enum bc_format format;
	int argc;			/* the words left for run's parser */
	char **argv;
};

/* --all and --format are the command's; every other word is run's. */
static int bc_programs_args(int argc, char **argv, struct bc_programs_args *a)
{
	const char *fmt = NULL;

	a->argv = calloc((size_t)argc + 1, sizeof(*a->argv));
	if (!a->argv)
		return BC_EXIT_FAILED;
	a->argv[a->argc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			a->all = true;
		} else if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= argc) {
				bc_warn("programs: --format needs a value: text, json or csv");
				return BC_EXIT_USAGE;
			}
			fmt = argv[++i];
		} else if (!strncmp(argv[i], "--format=", 9)) {
			fmt = argv[i] + 9;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(bc_programs_usage, stdout);
			return BC_OPTIONS_DONE;
		} else {
			a->argv[a->argc++] = argv[i];
		}
	}
	a->format = BC_FORMAT_TEXT;
	if (fmt && bc_format_parse(fmt, (1u << BC_FORMAT_TEXT) | (1u << BC_FORMAT_JSON) |
					       (1u << BC_FORMAT_CSV), &a->format)) {
		bc_warn("programs: --format '%s': expected text, json or csv", fmt);
		return BC_EXIT_USAGE;
	}
	if (a->all && a->argc > 1) {
		bc_warn("programs --all: '%s': --all takes no benchmark and no plugin option",
			a->argv[1]);
		return BC_EXIT_USAGE;
	}
	if (!a->all && a->argc < 2) {
		bc_warn("programs: missing PLUGIN:BENCH (or --all); `benchcore list` shows what is available");
		return BC_EXIT_USAGE;
	}
	return 0;
}

/* One benchmark set up, reported to f, torn down: its exit status. */
static int bc_programs_one(FILE *f, enum bc_format format, const char *name,
			   const struct bc_run_request *req, const struct bc_bench *bench,
			   bool csv_header)
{
	struct bc_config cfg = req->cfg;
	struct bc_run_result res;
	int status;

	cfg.setup_only = true;
	bc_run(&cfg, bench, &res, NULL, NULL);
	switch (format) {
	case BC_FORMAT_JSON:
		bc_report_programs_json(f, name, &res);
		break;
	case BC_FORMAT_CSV:
		bc_report_programs_csv(f, name, &res, csv_header);
		break;
	default:
		bc_report_programs_text(f, name, &res);
		break;
	}
	fflush(f);
	status = res.exit_status;
	bc_run_result_free(&res);
	return status;
}

/* The child's half of --all: one benchmark with its defaults, into f. */
static int bc_programs_child(struct bc_cli_env *env, FILE *f, enum bc_format format,
			     const char *name)
{
	char *argv[] = { (char *)"programs", (char *)name, NULL };
	const struct bc_bench *bench = NULL;
	struct bc_run_request req;
	int status;

	bc_run_request_init(&req);
	status = bc_options_parse_run(env, 2, argv, &req, &bench);
	if (status) {
		struct bc_run_result res;

		memset(&res, 0, sizeof(res));
		res.exit_status = status == BC_OPTIONS_DONE ? BC_EXIT_USAGE : status;
		snprintf(res.reason, sizeof(res.reason), "its options did not parse");
		if (format == BC_FORMAT_JSON)
			bc_report_programs_json(f, name, &res);
		else if (format == BC_FORMAT_CSV)
			bc_report_programs_csv(f, name, &res, false);
		else
			bc_report_programs_text(f, name, &res);
		fflush(f);
		return res.exit_status;
	}
	status = bc_programs_one(f, format, name, &req, bench, false);
	bc_options_free(&req.cfg);
	return status;
}

/* A child that died said nothing: its line is the parent's. */
static void bc_programs_died(FILE *f, enum bc_format format, const char *name, int wstatus)
{
	struct bc_run_result res;

	memset(&res, 0, sizeof(res));
	res.exit_status = BC_EXIT_FAILED;
	if (WIFSIGNALED(wstatus))
		snprintf(res.reason, sizeof(res.reason), "killed by signal %d", WTERMSIG(wstatus));
	else
		snprintf(res.reason, sizeof(res.reason), "its process ended without a report");
	if (format == BC_FORMAT_JSON)
		bc_report_programs_json(f, name, &res);
	else if (format == BC_FORMAT_CSV)
		bc_report_programs_csv(f, name, &res, false);
	else
		bc_report_programs_text(f, name, &res);
}

/* Copies what a child wrote to tmp onto out; false when it wrote nothing. */
static bool bc_programs_copy(FILE *tmp, FILE *out)
{
	char buf[8192];
	bool any = false;
	size_t n;

	rewind(tmp);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0) {
		fwrite(buf, 1, n, out);
		any = true;
	}
	return any;
}

static int bc_programs_all(struct bc_cli_env *env, FILE *out, enum bc_format format)
{
	bool failed = false, first = true;
	int err = bc_cli_load_plugins(env);

	if (err)
		return err == -EMFILE ? BC_EXIT_FAILED : BC_EXIT_USAGE;
	if (format == BC_FORMAT_CSV)
		bc_report_programs_csv(out, NULL, NULL, true);
	else if (format == BC_FORMAT_JSON)
		fputs("[\n", out);
	for (size_t i = 0; i < env->plugins.cnt; i++) {
		const struct bc_plugin *pl = &env->plugins.plugins[i];

		for (size_t j = 0; j < pl->bench_cnt; j++) {
			char name[256];
			int wstatus = 0;
			FILE *tmp;
			pid_t pid;

			snprintf(name, sizeof(name), "%s:%s", pl->desc.name, pl->benches[j].desc.name);
			tmp = tmpfile();
			if (!tmp) {
				bc_warn("programs: a temporary file for %s: %s", name, strerror(errno));
				return BC_EXIT_FAILED;
			}
			if (format == BC_FORMAT_JSON && !first)
				fputs(",\n", out);
			first = false;
			fflush(out);
			fflush(stdout);
			fflush(stderr);
			pid = fork();
			if (pid < 0) {
				bc_warn("programs: fork for %s: %s", name, strerror(errno));
				fclose(tmp);
				return BC_EXIT_FAILED;
			}
			if (pid == 0) {
				int st = bc_programs_child(env, tmp, format, name);

				fflush(tmp);
				fflush(stdout);
				fflush(stderr);
				_exit(st);
			}
			while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
				;
			if (!bc_programs_copy(tmp, out) || WIFSIGNALED(wstatus))
				bc_programs_died(out, format, name, wstatus);
			if (WIFSIGNALED(wstatus) ||
			    (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == BC_EXIT_FAILED))
				failed = true;
			fclose(tmp);
		}
	}
	if (format == BC_FORMAT_JSON)
		fputs("]\n", out);
	return failed ? BC_EXIT_FAILED : BC_EXIT_OK;
}

int bc_programs_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_programs_args a = { 0 };
	const struct bc_bench *bench = NULL;
	struct bc_run_request req;
	struct bc_out out;
	int status;

	status = bc_programs_args(argc, argv, &a);
	if (status) {
		free(a.argv);
		return status == BC_OPTIONS_DONE ? BC_EXIT_OK : status;
	}
	bc_run_request_init(&req);
	if (!a.all) {
		status = bc_options_parse_run(env, a.argc, a.argv, &req, &bench);
		if (status) {
			free(a.argv);
			bc_options_free(&req.cfg);
			return status == BC_OPTIONS_DONE ? BC_EXIT_OK : status;
		}
	}
	status = bc_out_open(&out, "--output", a.all ? NULL : req.cfg.output_path);
	if (!status) {
		if (a.all) {
			status = bc_programs_all(env, out.f, a.format);
		} else {
			char name[256];

			snprintf(name, sizeof(name), "%s:%s", bench->plugin->desc.name,
				 bench->desc.name);
			status = bc_programs_one(out.f, a.format, name, &req, bench, true);
		}
		status = bc_out_close(&out, true, status);
	}
	bc_options_free(&req.cfg);
	free(a.argv);
	return status;
}
