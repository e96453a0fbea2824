// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The benchcore command line: global options, then one subcommand from a
 * small table (adding a command is one line there), then that command's own
 * parser. Human output and machine output are kept apart: with --format json
 * the document goes to stdout (or --output) and everything else to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli.h"
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "runner.h"
#include "stats.h"
#include "report.h"
#include "cli_env.h"
#include "options.h"
#include "core_opts.h"
#include "log.h"
#include "cli_args.h"
#include "suite.h"
#include "sweep.h"
#include "compare.h"
#include "exit_status.h"
#include "guard.h"
#include "json.h"
#include "needs.h"
#include "output.h"
#include "plugin_opts.h"
#include "plot.h"
#include "repeat.h"

static int bc_cmd_list(struct bc_cli_env *env, int argc, char **argv);
static int bc_cmd_run(struct bc_cli_env *env, int argc, char **argv);

static const struct bc_cli_cmd {
	const char *name;
	bc_cli_cmd_fn fn;
	const char *summary;
} bc_cli_cmds[] = {
	{ "list", bc_cmd_list, "list every PLUGIN:BENCH, and why one cannot run here" },
	{ "run", bc_cmd_run, "run one benchmark: run PLUGIN:BENCH [options] [plugin options]" },
	{ "suite", bc_suite_main, "run a suite of benchmarks and sweeps: suite NAME, or --list" },
	{ "compare", bc_compare_main, "compare two JSON results: compare BASE.json NEW.json" },
	{ "plot", bc_plot_main, "draw a JSON result as SVG: plot RESULT.json [-o FILE.svg]" },
};

#define BC_CMD_CNT (sizeof(bc_cli_cmds) / sizeof(bc_cli_cmds[0]))

enum {
	BC_GOPT_PLUGIN_DIR = 0x100,
	BC_GOPT_ALLOW_UNSAFE,
	BC_GOPT_VERSION,
	BC_GOPT_USAGE,
	BC_LOPT_FORMAT,
	BC_LOPT_PROBE,
};

/* -------------------------------------------------------------- run */

struct bc_cli_progress {
	FILE *f;
	bool quiet;
};

static void bc_cli_on_iter(const struct bc_run_result *res, size_t iter_idx, void *cookie)
{
	struct bc_cli_progress *pr = cookie;

	if (pr->quiet)
		return;
	bc_report_text_iter(pr->f, res, iter_idx);
	fflush(pr->f);
}

static void bc_cli_debug_opt(const struct bc_option *opt, const char *text, void *cookie)
{
	(void)cookie;
	bc_debug("plugin option --%s%s%s", opt->name, text ? "=" : "", text ? text : "");
}

int bc_cli_run(const struct bc_config *cfg, const struct bc_bench *bench)
{
	struct bc_run_result res;
	struct bc_cli_progress pr;
	struct bc_out out;
	bool produced;
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
	err = bc_run(cfg, bench, &res, bc_cli_on_iter, &pr);
	status = res.exit_status;
	if (err && status == BC_EXIT_OK)
		status = BC_EXIT_FAILED;
	res.exit_status = status;

	if (cfg->format == BC_FORMAT_JSON) {
		/* Always a document, failures included: scripts (and sweeps)
		 * read the status and reason from it. */
		bc_report_warnings(stderr, &res);
		bc_report_json(out.f, cfg, &res);
	} else if (status == BC_EXIT_OK || (status == BC_EXIT_INTERRUPTED && res.iter_cnt)) {
		bc_report_text_summary(out.f, &res);
	}
	bc_report_reason_line(bench, &res);
	/* --output FILE is replaced only by a run that measured something: a
	 * refused, unavailable or failed run keeps the previous results. */
	produced = status == BC_EXIT_OK ||
		   (status == BC_EXIT_INTERRUPTED && bc_stats_measured_cnt(&res));
	status = bc_out_close(&out, produced, status);
	bc_run_result_free(&res);
	return status;
}

static int bc_cmd_run(struct bc_cli_env *env, int argc, char **argv)
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

/* ------------------------------------------------------------- list */

struct bc_list_opts {
	enum bc_format format;
	int verbosity;
	bool probe;		/* --probe: load and attach, as run does */
	bool done;
};

static const struct argp_option bc_list_options[] = {
	{ "format", BC_LOPT_FORMAT, "FMT", 0, "text (default) or json", 0 },
	{ "probe", BC_LOPT_PROBE, NULL, 0,
	  "Tell availability as run does, by loading and attaching each benchmark's programs "
	  "(slow); without it, from cheap checks of the kernel features each one declares", 0 },
	{ "verbose", 'v', NULL, 0, "Also show each plugin's file and version", 0 },
	{ "quiet", 'q', NULL, 0, "Only warnings on stderr", 0 },
	{ "help", '?', NULL, 0, "Give this help list", -1 },
	{ "usage", BC_GOPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ 0 },
};

static error_t bc_list_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_list_opts *lo = state->input;

	switch (key) {
	case BC_LOPT_FORMAT:
		if (bc_parse_format("--format", arg, &lo->format)) {
			state->next = state->argc;
			return EINVAL;
		}
		return 0;
	case BC_LOPT_PROBE:
		lo->probe = true;
		return 0;
	case 'v':
		lo->verbosity = lo->verbosity < 0 ? 1 : lo->verbosity + 1;
		return 0;
	case 'q':
		lo->verbosity = -1;
		return 0;
	case '?':
		return bc_argp_help(state, ARGP_HELP_STD_HELP, &lo->done);
	case BC_GOPT_USAGE:
		return bc_argp_help(state, ARGP_HELP_USAGE, &lo->done);
	case ARGP_KEY_ARG:
		bc_warn("list: unexpected argument '%s'; list takes no arguments", arg);
		state->next = state->argc;
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

struct bc_probe_result {
	bool available;
	bool failed;		/* the probe itself went wrong */
	/* What told: "features" (the cheap checks of what the benchmark
	 * declares), "probe" (its probe(), loading and attaching) or "none"
	 * (it declares nothing to check). */
	const char *checked;
	char reason[BC_REASON_LEN];
};

/*
 * `list` says why a benchmark cannot run here, so it asks the benchmark:
 * by default the cheap checks of what it declares it needs (its needs,
 * attach points and quick_probe()), with `full` (--probe) what `run` asks,
 * its probe(). A benchmark that declares no needs gets its probe() either
 * way.
 */
static void bc_probe_bench(const struct bc_bench *b, const struct bc_config *cfg, bool full,
			   struct bc_probe_result *pr)
{
	bool quick = bc_bench_has_quick(b) && !(full && b->desc.probe);
	struct bc_config probe_cfg;
	struct bc_ctx ctx;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->available = true;
	pr->checked = quick ? "features" : b->desc.probe ? "probe" : "none";
	if (!quick && !b->desc.probe)
		return;
	/* A probe sees the options a plain `run` would: the defaults. */
	probe_cfg = *cfg;
	probe_cfg.opts = bc_opts_new(b, pr->reason, sizeof(pr->reason));
	if (!probe_cfg.opts) {
		pr->available = false;
		pr->failed = true;
		return;
	}
	bc_ctx_init(&ctx, &probe_cfg, b);
	/* A probe's progress chatter (attach points tried) is noise in a
	 * listing; its reason is printed below. -v shows it all. */
	if (cfg->verbosity <= 0)
		bc_log_set_verbosity(-1);
	bc_guard_set_bench(b->plugin->desc.name, b->desc.name);
	bc_guard_enter(quick ? "quick_probe" : "probe", false);
	err = quick ? bc_bench_quick_probe(&ctx, b) : b->desc.probe(&ctx);
	bc_guard_leave();
	bc_log_set_verbosity(cfg->verbosity);
	bc_opts_free(probe_cfg.opts);
	if (!err)
		return;
	pr->available = false;
	pr->failed = !ctx.unavailable && err != -EOPNOTSUPP;
	if (ctx.reason[0])
		snprintf(pr->reason, sizeof(pr->reason), "%s", ctx.reason);
	else
		snprintf(pr->reason, sizeof(pr->reason), "%s", strerror(-err));
}

/* `callback_set` false: the benchmark has no such thread body, so it takes
 * none at all, whatever its range says (a max of 0 otherwise means no limit). */
static void bc_json_range(struct bc_json_writer *w, const char *key, const struct bc_thread_range *r,
			  bool callback_set)
{
	bc_jw_obj_begin(w, key);
	bc_jw_uint(w, "min", r->min);
	if (!callback_set)
		bc_jw_uint(w, "max", 0);
	else if (r->max)
		bc_jw_uint(w, "max", r->max);
	else
		bc_jw_null(w, "max");	/* no limit */
	bc_jw_uint(w, "default", r->def);
	bc_jw_obj_end(w);
}

static int bc_list_json(FILE *f, const struct bc_plugin_set *set, const struct bc_config *cfg,
			bool full)
{
	struct bc_json_writer w;
	struct bc_probe_result pr;
	char name[256];
	size_t i, j;
	unsigned int m;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "benchcore_version", bc_version());
	bc_jw_obj_begin(&w, "abi");
	bc_jw_uint(&w, "major", BC_ABI_MAJOR);
	bc_jw_uint(&w, "minor", BC_ABI_MINOR);
	bc_jw_obj_end(&w);
	bc_jw_uint(&w, "refused_files", set->failed_cnt);
	bc_jw_arr_begin(&w, "plugins");
	for (i = 0; i < set->cnt; i++) {
		const struct bc_plugin *p = &set->plugins[i];

		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "name", p->desc.name);
		bc_jw_str(&w, "version", p->desc.version);
		bc_jw_str(&w, "description", p->desc.description);
		bc_jw_str(&w, "path", p->path);
		bc_jw_obj_begin(&w, "abi");
		bc_jw_uint(&w, "major", p->desc.abi_major);
		bc_jw_uint(&w, "minor", p->desc.abi_minor);
		bc_jw_obj_end(&w);
		bc_jw_arr_begin(&w, "benchmarks");
		for (j = 0; j < p->bench_cnt; j++) {
			const struct bc_bench *b = &p->benches[j];

			bc_probe_bench(b, cfg, full, &pr);
			snprintf(name, sizeof(name), "%s:%s", p->desc.name, b->desc.name);
			bc_jw_obj_begin(&w, NULL);
			bc_jw_str(&w, "name", name);
			bc_jw_str(&w, "bench", b->desc.name);
			bc_jw_str(&w, "description", b->desc.description);
			bc_jw_bool(&w, "available", pr.available);
			bc_jw_str(&w, "reason", pr.available ? NULL : pr.reason);
			bc_jw_str(&w, "checked", pr.checked);
			bc_json_range(&w, "producers", &b->desc.producers, b->desc.producer);
			bc_json_range(&w, "consumers", &b->desc.consumers, b->desc.consumer);
			bc_jw_arr_begin(&w, "metrics");
			for (m = 0; m < b->desc.metric_cnt; m++) {
				bc_jw_obj_begin(&w, NULL);
				bc_jw_str(&w, "name", b->metrics[m].name);
				bc_jw_str(&w, "unit", b->metrics[m].unit);
				bc_jw_str(&w, "kind",
					  b->metrics[m].kind == BC_METRIC_GAUGE ? "gauge" : "counter");
				bc_jw_obj_end(&w);
			}
			bc_jw_arr_end(&w);
			bc_jw_obj_end(&w);
		}
		bc_jw_arr_end(&w);
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	return bc_jw_finish(&w);
}

static void bc_list_text(FILE *f, const struct bc_plugin_set *set, const struct bc_config *cfg,
			 bool probe, int verbosity)
{
	struct bc_probe_result pr;
	int width = 0, len;
	char full[256];
	size_t i, j;

	for (i = 0; i < set->cnt; i++)
		for (j = 0; j < set->plugins[i].bench_cnt; j++) {
			len = snprintf(full, sizeof(full), "%s:%s", set->plugins[i].desc.name,
				       set->plugins[i].benches[j].desc.name);
			if (len > width)
				width = len;
		}
	for (i = 0; i < set->cnt; i++) {
		const struct bc_plugin *p = &set->plugins[i];

		if (verbosity > 0)
			fprintf(f, "# plugin %s %s (ABI %u.%u): %s [%s]\n", p->desc.name,
				p->desc.version, p->desc.abi_major, p->desc.abi_minor,
				p->desc.description, p->path);
		for (j = 0; j < p->bench_cnt; j++) {
			const struct bc_bench *b = &p->benches[j];

			snprintf(full, sizeof(full), "%s:%s", p->desc.name, b->desc.name);
			bc_probe_bench(b, cfg, probe, &pr);
			fprintf(f, "%-*s  %s", width, full, b->desc.description);
			if (!pr.available)
				fprintf(f, " [%s: %s]",
					pr.failed ? "probe failed" : "unavailable on this kernel",
					pr.reason);
			fputc('\n', f);
		}
	}
}

static int bc_cmd_list(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_list_opts lo = { .format = BC_FORMAT_TEXT, .verbosity = env->verbosity };
	struct argp argp = {
		.options = bc_list_options,
		.parser = bc_list_parse_opt,
		.doc = "Lists every PLUGIN:BENCH with its description. A benchmark this kernel "
		       "or these privileges cannot run says why: from cheap checks of the kernel "
		       "features it declares, or with --probe from loading and attaching its "
		       "programs, as run does.",
	};
	struct bc_config cfg;
	char *saved0 = argv[0];
	int err;

	argv[0] = (char *)"benchcore list";
	err = argp_parse(&argp, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &lo);
	argv[0] = saved0;
	if (lo.done)
		return BC_EXIT_OK;
	if (err)
		return BC_EXIT_USAGE;
	bc_log_set_verbosity(lo.verbosity);
	if (bc_cli_load_plugins(env))
		return BC_EXIT_USAGE;

	/* Probes see the defaults a plain `run` would use. */
	bc_config_init(&cfg);
	cfg.verbosity = lo.verbosity;
	if (lo.format == BC_FORMAT_JSON)
		err = bc_list_json(stdout, &env->plugins, &cfg, lo.probe);
	else
		bc_list_text(stdout, &env->plugins, &cfg, lo.probe, lo.verbosity);
	/* A write error is said once, naming standard output. */
	if (bc_stdout_finish())
		return BC_EXIT_FAILED;
	if (err) {
		bc_warn("list: cannot write the JSON document: %s", strerror(-err));
		return BC_EXIT_FAILED;
	}
	return BC_EXIT_OK;
}

/* ------------------------------------------------------------- main */

static const struct argp_option bc_global_options[] = {
	{ "plugin-dir", BC_GOPT_PLUGIN_DIR, "DIR", 0, "Look for plugins in DIR first (repeatable)", 0 },
	{ "allow-unsafe-plugins", BC_GOPT_ALLOW_UNSAFE, NULL, 0,
	  "Load plugins from files or directories writable by others (dangerous as root)", 0 },
	{ "verbose", 'v', NULL, 0, "More output: where plugins were found, libbpf's debug messages", 0 },
	{ "quiet", 'q', NULL, 0, "Only warnings and results", 0 },
	{ "version", BC_GOPT_VERSION, NULL, 0, "Print the benchcore, ABI and libbpf versions", 0 },
	{ "help", '?', NULL, 0, "Give this help list", -1 },
	{ "usage", BC_GOPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ 0 },
};

struct bc_global_parse {
	struct bc_cli_env *env;
	int cmd_idx;		/* argv index of the command, 0 if none */
	bool done;
	bool nomem;
};

static error_t bc_global_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_global_parse *gp = state->input;
	struct bc_cli_env *env = gp->env;
	const char **grown;

	switch (key) {
	case BC_GOPT_PLUGIN_DIR:
		/* An empty word is a typo, or an unset shell variable. */
		if (!*arg) {
			bc_warn("--plugin-dir '': expected a directory of plugin .so files");
			state->next = state->argc;
			return EINVAL;
		}
		grown = realloc(env->plugin_dirs, (env->plugin_dir_cnt + 1) * sizeof(*grown));
		if (!grown) {
			gp->nomem = true;
			return ENOMEM;
		}
		env->plugin_dirs = grown;
		env->plugin_dirs[env->plugin_dir_cnt++] = arg;
		return 0;
	case BC_GOPT_ALLOW_UNSAFE:
		env->allow_unsafe = true;
		return 0;
	case 'v':
		env->verbosity = env->verbosity < 0 ? 1 : env->verbosity + 1;
		return 0;
	case 'q':
		env->verbosity = -1;
		return 0;
	case BC_GOPT_VERSION:
		bc_cli_print_version(stdout);
		return bc_argp_stop(state, &gp->done);
	case '?':
		return bc_argp_help(state, ARGP_HELP_STD_HELP, &gp->done);
	case BC_GOPT_USAGE:
		return bc_argp_help(state, ARGP_HELP_USAGE, &gp->done);
	case ARGP_KEY_ARG:
		/* The command: everything after it is the command's. */
		gp->cmd_idx = state->next - 1;
		state->next = state->argc;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static char *bc_commands_doc(void)
{
	static char doc[2048];
	size_t off, i;

	off = (size_t)snprintf(doc, sizeof(doc),
			       "A benchmark framework for Linux BPF.\vCommands:\n");
	for (i = 0; i < BC_CMD_CNT && off < sizeof(doc); i++)
		off += (size_t)snprintf(doc + off, sizeof(doc) - off, "  %-10s %s\n",
					bc_cli_cmds[i].name, bc_cli_cmds[i].summary);
	if (off < sizeof(doc))
		snprintf(doc + off, sizeof(doc) - off,
			 "\n`benchcore COMMAND --help` shows a command's options. Exit status: 0 ok, "
			 "1 failed at run time, 2 usage error, 3 unavailable on this kernel or "
			 "without privileges, 130 interrupted.");
	return doc;
}

static const char *bc_cmd_names(void)
{
	static char names[256];
	size_t off = 0, i;

	for (i = 0; i < BC_CMD_CNT && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					bc_cli_cmds[i].name);
	return names;
}

/* The executable's entry point (main.c); exported in the private node. */
BC_API int bc_cli_main(int argc, char **argv);

int bc_cli_main(int argc, char **argv)
{
	struct bc_cli_env env = { .exe = argv[0] };
	struct bc_global_parse gp = { .env = &env };
	struct argp argp = {
		.options = bc_global_options,
		.parser = bc_global_parse_opt,
		.args_doc = "COMMAND [ARGS...]",
		.doc = bc_commands_doc(),
	};
	const struct bc_cli_cmd *cmd = NULL;
	char *saved0 = argv[0];
	int err, status;
	size_t i;

	/* Every report to stdout is checked for write errors (output.h). */
	bc_stdout_wrap();
	/* In order, so that options after the command stay the command's. */
	argv[0] = (char *)"benchcore";
	err = argp_parse(&argp, argc, argv, ARGP_IN_ORDER | ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &gp);
	argv[0] = saved0;
	bc_log_set_verbosity(env.verbosity);
	if (gp.done) {
		status = BC_EXIT_OK;
		goto out;
	}
	if (err) {
		status = gp.nomem ? BC_EXIT_FAILED : BC_EXIT_USAGE;
		goto out;
	}
	if (!gp.cmd_idx) {
		bc_warn("missing command; expected one of: %s (`benchcore --help` says more)",
			bc_cmd_names());
		status = BC_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < BC_CMD_CNT && !cmd; i++)
		if (!strcmp(bc_cli_cmds[i].name, argv[gp.cmd_idx]))
			cmd = &bc_cli_cmds[i];
	if (!cmd) {
		bc_warn("unknown command '%s'; expected one of: %s", argv[gp.cmd_idx], bc_cmd_names());
		status = BC_EXIT_USAGE;
		goto out;
	}
	status = cmd->fn(&env, argc - gp.cmd_idx, argv + gp.cmd_idx);
out:
	/* --help, --version and anything a command did not check itself. */
	if (bc_stdout_finish() && status == BC_EXIT_OK)
		status = BC_EXIT_FAILED;
	bc_plugins_unload(&env.plugins);
	free(env.plugin_dirs);
	return status;
}
