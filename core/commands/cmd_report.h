/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore report` (cmd_report.c).
 */
#ifndef BENCHCORE_CMD_REPORT_H
#define BENCHCORE_CMD_REPORT_H

struct bc_cli_env;
int bc_report_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_REPORT_H */
