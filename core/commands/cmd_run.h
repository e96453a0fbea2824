/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The `run` command (cmd_run.c).
 */
#ifndef BENCHCORE_CMD_RUN_H
#define BENCHCORE_CMD_RUN_H

#include "runtime/config.h"
#include "runtime/loader.h"

struct bc_cli_env;

/* `benchcore run ...` (bc_cli_cmd_fn). */
int bc_cmd_run(struct bc_cli_env *env, int argc, char **argv);
/* Runs one parsed benchmark: progress, report, reason line; returns the
 * exit status (enum bc_exit_status). */
int bc_cli_run(const struct bc_run_request *req, const struct bc_bench *bench);

#endif /* BENCHCORE_CMD_RUN_H */
