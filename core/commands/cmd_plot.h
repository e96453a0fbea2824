/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore plot` (cmd_plot.c).
 */
#ifndef BENCHCORE_CMD_PLOT_H
#define BENCHCORE_CMD_PLOT_H

struct bc_cli_env;
int bc_plot_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_PLOT_H */
