/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `compare` (compare.c): two or more result documents, matched by
 * benchmark and configuration, with a significance test per metric.
 */
#ifndef BENCHCORE_COMPARE_H
#define BENCHCORE_COMPARE_H

struct bc_cli_env;
int bc_compare_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_COMPARE_H */
