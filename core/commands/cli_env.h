/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every command shares (cli_env.c): the global options and the
 * plugins, loaded on first use.
 */
#ifndef BENCHCORE_CLI_ENV_H
#define BENCHCORE_CLI_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/loader.h"

/* What every subcommand gets: the global options, and the plugins once a
 * command asked for them (bc_cli_load_plugins). */
struct bc_cli_env {
	const char *exe;		/* argv[0] of benchcore itself */
	const char **plugin_dirs;	/* every --plugin-dir, in order */
	size_t plugin_dir_cnt;
	bool allow_unsafe;		/* --allow-unsafe-plugins */
	int verbosity;			/* -1 quiet, 0 normal, 1+ verbose */
	bool plugins_loaded;
	int load_err;
	struct bc_plugin_set plugins;
};

/* A subcommand (cli.c's table): argv[0] is its name; returns an exit status. */
typedef int (*bc_cli_cmd_fn)(struct bc_cli_env *env, int argc, char **argv);

/* Loads the plugins on first use; 0, or a negative errno (already said). */
int bc_cli_load_plugins(struct bc_cli_env *env);
/* "benchcore 0.1.0 (plugin ABI 2.0, libbpf v1.1)" */
void bc_cli_print_version(FILE *f);

/* The install prefix this binary runs from: the executable's directory
 * with the install's bindir stripped, wherever the tree was moved (suite
 * files, vm's scripts). False when the binary is not in an installed tree
 * (a build tree). */
bool bc_exe_prefix(char *buf, size_t len);

#endif /* BENCHCORE_CLI_ENV_H */
