// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The benchcore command line: global options, then one command from a
 * small table (adding a command is one line there), then that command's own
 * parser, in a file of its own (cmd_run.c, cmd_list.c, sweep.c, suite.c,
 * compare.c, plot.c).
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli.h"
#include "cmd_list.h"
#include "cmd_run.h"
#include "runtime/loader.h"
#include "cli_env.h"
#include "runtime/log.h"
#include "cli_args.h"
#include "suite.h"
#include "sweep.h"
#include "cmd_compare.h"
#include "runtime/exit_status.h"
#include "runtime/output.h"
#include "cmd_plot.h"
#include "runtime/guard.h"
#include "cmd_history.h"
#include "cmd_report.h"
#include "cmd_store.h"
#include "cmd_check.h"
#include "cmd_vm.h"

static const struct bc_cli_cmd {
	const char *name;
	bc_cli_cmd_fn fn;
	const char *summary;
} bc_cli_cmds[] = {
	{ "list", bc_cmd_list, "list every PLUGIN:BENCH, and why one cannot run here" },
	{ "run", bc_cmd_run, "run one benchmark: run PLUGIN:BENCH [options] [plugin options]" },
	{ "sweep", bc_sweep_cmd, "one run per option value: sweep PLUGIN:BENCH --sweep OPT=V1,V2" },
	{ "suite", bc_suite_main, "run a suite of benchmarks and sweeps: suite NAME, or --list" },
	{ "compare", bc_compare_main, "compare two JSON results: compare BASE.json NEW.json" },
	{ "plot", bc_plot_main, "draw a JSON result as SVG: plot RESULT.json [-o FILE.svg]" },
	{ "store", bc_store_main, "the result store: store import FILE.json..., export, list, path" },
	{ "history", bc_history_main, "saved results by kernel, label, date: history PLUGIN:BENCH" },
	{ "report", bc_report_main, "an HTML site of the saved results: report [-o DIR]" },
	{ "check", bc_check_main, "judge the newest saved results for CI: check [--baseline B]" },
	{ "vm", bc_vm_main, "run in a guest of another kernel: vm --kernel IMAGE -- run|suite ..." },
};

#define BC_CMD_CNT (sizeof(bc_cli_cmds) / sizeof(bc_cli_cmds[0]))

enum {
	BC_GOPT_PLUGIN_DIR = 0x100,
	BC_GOPT_ALLOW_UNSAFE,
	BC_GOPT_VERSION,
	BC_GOPT_USAGE,
};

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
		bc_cli_print_version(bc_stdout());
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
	const struct argp_option *gtable = bc_global_options;
	const struct bc_cli_cmd *cmd = NULL;
	char *saved0 = argv[0];
	int err, status;
	size_t i;

	/* A closed pipe or a file-size limit is a write error, said in one
	 * line (output.h), not a silent death by SIGPIPE or SIGXFSZ; a crash
	 * says where it happened (guard.h). */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	bc_guard_crash_install();
	/* Every report to stdout is checked for write errors (output.h). */
	bc_stdout_wrap();
	/* Long options in full only (cli_args.h says why); the command's own
	 * are checked by the command. */
	if (bc_cli_full_names(NULL, argc, argv, &gtable, 1, true)) {
		status = BC_EXIT_USAGE;
		goto out;
	}
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
