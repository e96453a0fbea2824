/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The command line's entry point (cli.c): global options, then one command
 * from a small table (adding a command is one line there).
 */
#ifndef BENCHCORE_CLI_H
#define BENCHCORE_CLI_H

/* The executable's entry point (main.c). */
int bc_cli_main(int argc, char **argv);

#endif /* BENCHCORE_CLI_H */
