/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore check` (cmd_check.c).
 */
#ifndef BENCHCORE_CMD_CHECK_H
#define BENCHCORE_CMD_CHECK_H

struct bc_cli_env;
int bc_check_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_CHECK_H */
