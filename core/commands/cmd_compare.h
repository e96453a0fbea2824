/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore compare` (cmd_compare.c).
 */
#ifndef BENCHCORE_CMD_COMPARE_H
#define BENCHCORE_CMD_COMPARE_H

struct bc_cli_env;
int bc_compare_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_COMPARE_H */
