/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The command table (cli.c) and the `run` command (cmd_run.c).
 */
#ifndef BENCHCORE_CLI_H
#define BENCHCORE_CLI_H

#include "config.h"
#include "loader.h"

int bc_cli_main(int argc, char **argv);
/* Runs one parsed benchmark: progress, report, reason line; returns the
 * exit status (enum bc_exit_status). */
int bc_cli_run(const struct bc_config *cfg, const struct bc_bench *bench);

#endif /* BENCHCORE_CLI_H */
