/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore history` (cmd_history.c).
 */
#ifndef BENCHCORE_CMD_HISTORY_H
#define BENCHCORE_CMD_HISTORY_H

struct bc_cli_env;
int bc_history_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_HISTORY_H */
