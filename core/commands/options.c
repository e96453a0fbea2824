// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The `run` command line: the core options (compatible with the kernel's
 * bench runner) plus the options of the selected benchmark, built from its
 * plugin's option tables (plugin_opts.c) once the benchmark is known, so
 * that two plugins may use the same option names.
 *
 * Every bad value costs one line naming the option, the value and what is
 * expected, and exit status 2.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "runtime/config.h"
#include "runtime/loader.h"
#include "cli_env.h"
#include "runtime/core_opts.h"
#include "runtime/log.h"
#include "cli_args.h"
#include "cmd_store.h"
#include "runtime/exit_status.h"
#include "runtime/plugin_opts.h"
#include "repeat.h"
#include "runtime/output.h"
#include "results/store_name.h"

/* --------------------------------------------------------- run parser */

struct bc_run_parse {
	struct bc_run_request *req;
	const char *bench_arg;		/* the argv string naming the benchmark */
	void *child_input;		/* the plugin options parser's, or NULL */
	bool done;			/* --help/--usage/--version answered */
	bool bad_value;
};

/* Stops at the first bad value: one line, not a cascade. */
static error_t bc_run_parse_stop(struct argp_state *state, struct bc_run_parse *rp)
{
	rp->bad_value = true;
	state->next = state->argc;
	return EINVAL;
}

static error_t bc_run_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_run_parse *rp = state->input;
	const struct bc_core_opt *o = bc_core_opt_by_key(key);
	char err[BC_REASON_LEN];

	switch (key) {
	case ARGP_KEY_INIT:
		if (rp->child_input)
			state->child_inputs[0] = rp->child_input;
		return 0;
	case ARGP_KEY_ARG:
		if (arg == rp->bench_arg)
			return 0;
		if (rp->bench_arg)
			bc_warn("run: unexpected argument '%s'; expected options after %s", arg,
				rp->bench_arg);
		else
			bc_warn("run: unexpected argument '%s'", arg);
		return bc_run_parse_stop(state, rp);
	}
	if (!o)
		return ARGP_ERR_UNKNOWN;
	if (o->type == BC_COPT_ACTION) {
		if (!strcmp(o->name, "version")) {
			bc_cli_print_version(bc_stdout());
			return bc_argp_stop(state, &rp->done);
		}
		return bc_argp_help(state, !strcmp(o->name, "usage") ? ARGP_HELP_USAGE
								      : ARGP_HELP_STD_HELP,
				    &rp->done);
	}
	if (bc_core_opt_set(o, arg, rp->req, err, sizeof(err))) {
		bc_warn("%s", err);
		return bc_run_parse_stop(state, rp);
	}
	return 0;
}

/* The first word that names a benchmark is the benchmark: words before it
 * may be values of plugin options, which are not known yet. */
static int bc_resolve_bench(struct bc_cli_env *env, const struct bc_run_scan *scan,
			    const struct bc_bench **bench, const char **word)
{
	char msg[BC_REASON_LEN], first_msg[BC_REASON_LEN] = "";
	int err;

	for (size_t i = 0; i < scan->cand_cnt; i++) {
		err = bc_bench_resolve(&env->plugins, scan->cands[i], bench, msg, sizeof(msg));
		if (!err) {
			*word = scan->cands[i];
			return 0;
		}
		if (err == -ENOTUNIQ) {
			bc_warn("%s", msg);
			return BC_EXIT_USAGE;
		}
		if (!first_msg[0])
			snprintf(first_msg, sizeof(first_msg), "%s", msg);
	}
	*bench = NULL;
	if (!first_msg[0])
		return 0;
	bc_warn("%s", first_msg);
	if (env->plugins.failed_cnt)
		bc_warn("(%zu plugin file%s could not be loaded; see above)", env->plugins.failed_cnt,
			env->plugins.failed_cnt == 1 ? "" : "s");
	return BC_EXIT_USAGE;
}

/* ------------------------------------------------------------ parsing */

/*
 * An option the chosen benchmark does not take, but another one does (a
 * benchmark-only option, or another plugin's): argp would only say
 * "unrecognized option"; this names the benchmarks it belongs to. Returns
 * BC_EXIT_USAGE after the line, or 0 when no benchmark has it.
 */
static int bc_option_elsewhere(const struct bc_cli_env *env, const struct bc_bench *bench,
			       const char *name)
{
	char owners[512] = "";
	size_t off = 0, n = 0;

	for (size_t i = 0; i < env->plugins.cnt; i++) {
		const struct bc_plugin *p = &env->plugins.plugins[i];
		bool plugin_wide = false;

		for (size_t k = 0; k < p->option_cnt && !plugin_wide; k++)
			plugin_wide = p->options[k].name && !strcmp(p->options[k].name, name);
		for (size_t j = 0; j < p->bench_cnt; j++) {
			const struct bc_bench *b = &p->benches[j];
			bool has = plugin_wide;

			for (size_t k = 0; k < b->option_cnt && !has; k++)
				has = b->options[k].name && !strcmp(b->options[k].name, name);
			if (!has || b == bench || off >= sizeof(owners))
				continue;
			off += (size_t)snprintf(owners + off, sizeof(owners) - off, "%s%s:%s",
						n++ ? ", " : "", p->desc.name, b->desc.name);
		}
	}
	if (!n)
		return 0;
	bc_warn("run: --%s is not an option of %s:%s; it belongs to %s (`benchcore run PLUGIN:BENCH --help` lists a benchmark's options)",
		name, bench->plugin->desc.name, bench->desc.name, owners);
	return BC_EXIT_USAGE;
}

/* A core option that a plugin option of the same name shadows (the loader
 * allowed it: the core option is newer than the plugin's ABI minor). */
static bool bc_shadowed_by_plugin(const char *name, void *cookie)
{
	const struct bc_bench *bench = cookie;

	if (!name || !bc_opts_find(bench, name))
		return false;
	bc_debug("%s:%s: --%s is the plugin's option; the core's --%s, newer than the plugin, is not available to it",
		 bench->plugin->desc.name, bench->desc.name, name, name);
	return true;
}

/*
 * The store's options together. --label and --store name what --save
 * writes and --against reads: without either they would do nothing, and
 * a user who meant to save would find out later that nothing was kept, so
 * they are refused. --output must not be the store: the report would
 * replace every saved entry.
 */
static int bc_options_check_store(const struct bc_run_request *req)
{
	char path[PATH_MAX], err[512], shown[BC_STORE_SHOWN_MAX];

	if (!req->save && !req->against) {
		if (req->label)
			return bc_cli_usage_error("--label '%s': names the entry --save keeps, and this run saves nothing; add --save, or drop --label",
						  req->label);
		if (req->store_path)
			return bc_cli_usage_error("--store '%s': is the store of --save and --against, and this run has neither; add one, or drop --store",
						  bc_store_shown(req->store_path, shown, sizeof(shown)));
		return 0;
	}
	if (!req->cfg.output_path || bc_store_path(req->store_path, path, sizeof(path), err, sizeof(err)))
		return 0;	/* a bad store path is said when it is used */
	if (bc_out_same_file(req->cfg.output_path, path))
		return bc_cli_usage_error("--output '%s': is the result store '%s' that %s; expected another file",
					  req->cfg.output_path, bc_store_shown(path, shown, sizeof(shown)),
					  req->save ? "--save writes" : "--against reads");
	return 0;
}

int bc_options_parse_run(struct bc_cli_env *env, int argc, char **argv, struct bc_run_request *req,
			 const struct bc_bench **bench)
{
	struct bc_config *cfg = &req->cfg;
	struct bc_run_parse rp = { .req = req };
	struct bc_run_scan scan;
	struct argp_child children[2];
	char header[256], err_msg[BC_REASON_LEN], *saved0;
	struct argp argp = {
		.options = bc_core_opts_argp(),
		.parser = bc_run_parse_opt,
		.args_doc = "PLUGIN:BENCH [PLUGIN OPTIONS...]",
		.doc = "Runs one benchmark and reports its metrics.\v"
		       "PLUGIN:BENCH may be a bare BENCH when only one plugin has it. "
		       "`benchcore run PLUGIN:BENCH --help` also lists that benchmark's options. "
		       "Exit status: 0 ran, 1 failed at run time, 2 usage error, "
		       "3 unavailable on this kernel or without privileges, 130 interrupted.",
	};
	const struct argp_option *tables[2];
	struct argp_option *core_opts = NULL;
	const struct bc_plugin *plugin;
	int err;

	*bench = NULL;
	cfg->verbosity = env->verbosity;
	bc_run_scan(argc, argv, &scan);
	if (scan.verbosity)
		cfg->verbosity = scan.verbosity;
	bc_log_set_verbosity(cfg->verbosity);

	if (scan.cand_cnt) {
		if ((err = bc_cli_load_plugins(env)))
			return err == -EMFILE ? BC_EXIT_FAILED : BC_EXIT_USAGE;
		err = bc_resolve_bench(env, &scan, bench, &rp.bench_arg);
		if (err)
			return err;
	}
	if (!*bench && !scan.help) {
		bc_warn("run: missing PLUGIN:BENCH; `benchcore list` shows what is available");
		return BC_EXIT_USAGE;
	}

	memset(children, 0, sizeof(children));
	if (*bench) {
		plugin = (*bench)->plugin;
		/* A bad table is the plugin's fault, not the user's. */
		cfg->opts = bc_opts_new(*bench, err_msg, sizeof(err_msg));
		if (!cfg->opts) {
			bc_warn("%s", err_msg);
			return BC_EXIT_FAILED;
		}
		snprintf(header, sizeof(header), "Options of the %s plugin (%s):", plugin->desc.name,
			 plugin->desc.version);
		children[0].argp = bc_opts_argp(cfg->opts, header);
		if (!children[0].argp)
			return BC_EXIT_FAILED;
		rp.child_input = cfg->opts;
		core_opts = bc_core_opts_argp_without(bc_shadowed_by_plugin, (void *)*bench);
		if (!core_opts)
			return BC_EXIT_FAILED;
		argp.options = core_opts;
		argp.children = children;
	}

	/* Long options in full only (cli_args.h says why). */
	tables[0] = argp.options;
	tables[1] = children[0].argp ? children[0].argp->options : NULL;
	if (bc_cli_full_names("run", argc, argv, tables, 2, false)) {
		free(core_opts);
		return BC_EXIT_USAGE;
	}
	if (*bench) {
		char unknown[128];

		if (bc_cli_unknown_long(argc, argv, tables, 2, unknown, sizeof(unknown)) &&
		    bc_option_elsewhere(env, *bench, unknown)) {
			free(core_opts);
			return BC_EXIT_USAGE;
		}
	}
	/* argp names the program after argv[0] in usage and errors. */
	saved0 = argv[0];
	argv[0] = (char *)"benchcore run";
	err = argp_parse(&argp, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &rp);
	argv[0] = saved0;
	free(core_opts);
	bc_log_set_verbosity(cfg->verbosity);
	if (rp.done)
		return BC_OPTIONS_DONE;
	if (err)
		return err == ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
	/* The sampler ticks once a second (runner.c): -d 0.5 measures one
	 * second, and the document records what was measured. */
	cfg->warmup_sec = ceil(cfg->warmup_sec - 1e-9);
	if (cfg->warmup_sec < 0)
		cfg->warmup_sec = 0;
	cfg->duration_sec = ceil(cfg->duration_sec - 1e-9);
	if (cfg->duration_sec < 1)
		cfg->duration_sec = 1;
	err = bc_options_check_store(req);
	return err ? err : bc_repeat_check(req);
}

void bc_options_free(struct bc_config *cfg)
{
	bc_opts_free(cfg->opts);
	cfg->opts = NULL;
}
