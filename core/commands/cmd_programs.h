/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The `programs` command (cmd_programs.c): a benchmark's BPF programs
 * loaded and attached, their facts printed (runtime/prog_facts.h), and
 * everything torn down again; nothing is measured.
 */
#ifndef BENCHCORE_CMD_PROGRAMS_H
#define BENCHCORE_CMD_PROGRAMS_H

struct bc_cli_env;

/* `benchcore programs PLUGIN:BENCH [options]` and `programs --all
 * [--format text|json|csv]` (bc_cli_cmd_fn). */
int bc_programs_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_PROGRAMS_H */
