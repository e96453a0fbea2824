/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The `list` command (cmd_list.c).
 */
#ifndef BENCHCORE_CMD_LIST_H
#define BENCHCORE_CMD_LIST_H

struct bc_cli_env;

/* `benchcore list ...` (bc_cli_cmd_fn). */
int bc_cmd_list(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_LIST_H */
