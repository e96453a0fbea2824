/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore store` and where every command's store is (cmd_store.c).
 */
#ifndef BENCHCORE_CMD_STORE_H
#define BENCHCORE_CMD_STORE_H

#include <stdio.h>

#include <stddef.h>

struct bc_cli_env;
struct bc_store_filter;

int bc_store_main(struct bc_cli_env *env, int argc, char **argv);

/* The store a command uses: PATH (--store), else $BENCHCORE_STORE, else
 * $XDG_DATA_HOME/benchcore/results.db, else ~/.local/share/benchcore/
 * results.db. PATH (and BENCHCORE_STORE) may be a PostgreSQL server's
 * libpq name, taken as it is. 0, or a negative errno with one line in
 * err. */
int bc_store_path(const char *path, char *buf, size_t len, char *err, size_t err_len);

/* Options every store subcommand (and history, report) takes; 1 when
 * argv[*i] was one, 0 when not, -EINVAL after a usage line. */
int bc_store_filter_opt(int argc, char **argv, int *i, const char **store,
			struct bc_store_filter *f);

/* The words every command that reads entries takes (check, history,
 * report, store export): --help, -h and -? when help is given (the help is
 * printed), bc_store_filter_opt()'s and --metric. 1 when argv[*i] was one
 * and the loop goes on, 0 when it is the command's own, -1 when the
 * command ends now with *status (BC_EXIT_OK after the help, BC_EXIT_USAGE
 * after a usage line). */
int bc_store_reader_opt(int argc, char **argv, int *i, const char **store,
			struct bc_store_filter *f, void (*help)(FILE *), int *status);

#endif /* BENCHCORE_CMD_STORE_H */
