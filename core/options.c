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
#include "config.h"
#include "loader.h"
#include "cli_env.h"
#include "core_opts.h"
#include "log.h"
#include "cli_args.h"
#include "exit_status.h"
#include "plugin_opts.h"
#include "repeat.h"

/* --------------------------------------------------------- run parser */

struct bc_run_parse {
	struct bc_config *cfg;
	const char *bench_arg;		/* the argv string naming the benchmark */
	void *child_input;		/* the plugin options parser's, or NULL */
	bool done;			/* --help/--usage/--version answered */
	bool bad_value;
};

static error_t bc_run_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_run_parse *rp = state->input;
	struct bc_config *cfg = rp->cfg;
	int err = 0;

	switch (key) {
	case ARGP_KEY_INIT:
		if (rp->child_input)
			state->child_inputs[0] = rp->child_input;
		return 0;
	case 'w':
		err = bc_parse_seconds("--warmup", arg, true, &cfg->warmup_sec);
		break;
	case 'd':
		err = bc_parse_seconds("--duration", arg, false, &cfg->duration_sec);
		break;
	case 'p':
		err = bc_parse_uint("--producers", arg, 0, BC_MAX_THREADS, "threads", &cfg->producers);
		cfg->producers_set = !err;
		break;
	case 'c':
		err = bc_parse_uint("--consumers", arg, 0, BC_MAX_THREADS, "threads", &cfg->consumers);
		cfg->consumers_set = !err;
		break;
	case 'a':
		cfg->affinity = true;
		break;
	case BC_OPT_PROD_AFFINITY:
		err = bc_parse_cpus("--prod-affinity", arg, &cfg->prod_cpus);
		cfg->prod_cpus_set = !err;
		break;
	case BC_OPT_CONS_AFFINITY:
		err = bc_parse_cpus("--cons-affinity", arg, &cfg->cons_cpus);
		cfg->cons_cpus_set = !err;
		break;
	case 'v':
		cfg->verbosity = cfg->verbosity < 0 ? 1 : cfg->verbosity + 1;
		break;
	case 'q':
		cfg->verbosity = -1;
		break;
	case BC_OPT_FORMAT:
		err = bc_parse_format("--format", arg, &cfg->format);
		break;
	case BC_OPT_OUTPUT:
		if (!*arg) {
			bc_warn("--output '': expected a file name");
			err = -EINVAL;
		}
		cfg->output_path = arg;
		break;
	case BC_OPT_BPF_STATS:
		cfg->bpf_stats = true;
		break;
	case BC_OPT_REPEAT:
		err = bc_parse_uint("--repeat", arg, 1, BC_REP_MAX_RUNS, "runs", &cfg->repeat);
		break;
	case BC_OPT_PRECISION:
		err = bc_parse_pct("--precision", arg, &cfg->precision_pct);
		break;
	case BC_OPT_MAX_REPEAT:
		err = bc_parse_uint("--max-repeat", arg, BC_REP_MIN_RUNS, BC_REP_MAX_RUNS, "runs",
				    &cfg->max_repeat);
		break;
	case BC_OPT_MAX_TIME:
		err = bc_parse_seconds("--max-time", arg, false, &cfg->max_time_sec);
		break;
	case BC_OPT_VERSION:
		bc_cli_print_version(stdout);
		return bc_argp_stop(state, &rp->done);
	case '?':
		return bc_argp_help(state, ARGP_HELP_STD_HELP, &rp->done);
	case BC_OPT_USAGE:
		return bc_argp_help(state, ARGP_HELP_USAGE, &rp->done);
	case ARGP_KEY_ARG:
		if (arg == rp->bench_arg)
			return 0;
		if (rp->bench_arg)
			bc_warn("run: unexpected argument '%s'; expected options after %s", arg,
				rp->bench_arg);
		else
			bc_warn("run: unexpected argument '%s'", arg);
		err = -EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	if (err) {
		rp->bad_value = true;
		/* Stop at the first bad value: one line, not a cascade. */
		state->next = state->argc;
		return EINVAL;
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

int bc_options_parse_run(struct bc_cli_env *env, int argc, char **argv, struct bc_config *cfg,
			 const struct bc_bench **bench)
{
	struct bc_run_parse rp = { .cfg = cfg };
	struct bc_run_scan scan;
	struct argp_child children[2];
	char header[256], err_msg[BC_REASON_LEN], *saved0;
	struct argp argp = {
		.options = bc_run_options,
		.parser = bc_run_parse_opt,
		.args_doc = "PLUGIN:BENCH [PLUGIN OPTIONS...]",
		.doc = "Runs one benchmark and reports its metrics.\v"
		       "PLUGIN:BENCH may be a bare BENCH when only one plugin has it. "
		       "`benchcore run PLUGIN:BENCH --help` also lists that benchmark's options. "
		       "Exit status: 0 ran, 1 failed at run time, 2 usage error, "
		       "3 unavailable on this kernel or without privileges, 130 interrupted.",
	};
	const struct bc_plugin *plugin;
	int err;

	*bench = NULL;
	cfg->verbosity = env->verbosity;
	bc_run_scan(argc, argv, &scan);
	if (scan.verbosity)
		cfg->verbosity = scan.verbosity;
	bc_log_set_verbosity(cfg->verbosity);

	if (scan.cand_cnt) {
		if (bc_cli_load_plugins(env))
			return BC_EXIT_USAGE;
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
		children[0].argp = bc_opts_argp(cfg->opts);
		if (!children[0].argp)
			return BC_EXIT_FAILED;
		rp.child_input = cfg->opts;
		snprintf(header, sizeof(header), "Options of the %s plugin (%s):", plugin->desc.name,
			 plugin->desc.version);
		children[0].header = header;
		argp.children = children;
	}

	/* argp names the program after argv[0] in usage and errors. */
	saved0 = argv[0];
	argv[0] = (char *)"benchcore run";
	err = argp_parse(&argp, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &rp);
	argv[0] = saved0;
	bc_log_set_verbosity(cfg->verbosity);
	if (rp.done)
		return BC_OPTIONS_DONE;
	if (err)
		return err == ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
	return bc_repeat_check(cfg);
}

void bc_options_free(struct bc_config *cfg)
{
	bc_opts_free(cfg->opts);
	cfg->opts = NULL;
}
