/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `run --sweep` (sweep.c): a sweep is a batch of child runs.
 */
#ifndef BENCHCORE_SWEEP_H
#define BENCHCORE_SWEEP_H

#include <stdbool.h>

struct bc_cli_env;
int bc_sweep_main(struct bc_cli_env *env, int argc, char **argv);
/* The `sweep` command: help, then bc_sweep_main(). */
int bc_sweep_cmd(struct bc_cli_env *env, int argc, char **argv);
/* True when run arguments ask for a sweep (contain --sweep). */
bool bc_sweep_requested(int argc, char **argv);

#endif /* BENCHCORE_SWEEP_H */
