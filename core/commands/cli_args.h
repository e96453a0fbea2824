/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading a command's arguments by hand (cli_args.c), worded the same
 * way by every command.
 */
#ifndef BENCHCORE_CLI_ARGS_H
#define BENCHCORE_CLI_ARGS_H

#include <stdbool.h>

/* cli_util.c: "benchcore: <message>" on stderr; returns BC_EXIT_USAGE. */
int bc_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The value of option `name` at argv[*i], from "--name=V" or the next word
 * (then *i moves past it; "" when there is none); NULL when argv[*i] is
 * another word. */
const char *bc_cli_opt_value(int argc, char **argv, int *i, const char *name);
/* --metric NAME, as compare, plot, history, report, check and store
 * export take it: true when argv[*i] was it; *metric gets NAME, or NULL
 * after a usage line for an empty one (the caller exits BC_EXIT_USAGE). */
bool bc_cli_metric_opt(int argc, char **argv, int *i, const char **metric);
/* After --help, --usage (bc_argp_help prints ARGP_HELP_* flags to stdout)
 * or --version: sets *done and ends parsing; returns 0 for the parser. */
struct argp_state;
int bc_argp_stop(struct argp_state *state, bool *done);
int bc_argp_help(struct argp_state *state, unsigned int flags, bool *done);

/*
 * argp takes any unambiguous prefix of a long option ("--dur 1"), so a
 * script relying on one breaks the day another option with that start is
 * added. Every command calls this before argp_parse(): a word that is not
 * one of the long options of `tables` but begins one is refused with one
 * line naming it ("CMD: '--dur' is not an option; write an option's full
 * name (did you mean --duration?)"; no "CMD: " when cmd is NULL) and
 * -EINVAL. Option values are skipped; in_order (ARGP_IN_ORDER) stops at
 * the first word that is not an option, as the parse does.
 */
struct argp_option;
int bc_cli_full_names(const char *cmd, int argc, char **argv,
		      const struct argp_option *const *tables, size_t table_cnt, bool in_order);

/* The first long option in argv that none of `tables` has, its name
 * (without "--" and any "=VALUE") written to buf; NULL when there is none.
 * Values are skipped as bc_cli_full_names() skips them. */
const char *bc_cli_unknown_long(int argc, char **argv, const struct argp_option *const *tables,
				size_t table_cnt, char *buf, size_t len);

#endif /* BENCHCORE_CLI_ARGS_H */
