// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Small pieces the subcommands (`run --sweep`, `suite`, `compare`) share:
 * usage errors, hand-parsed option values, the table formats, the
 * options every batch of child runs takes, and the end of argp parsing
 * after --help, --usage or --version. One copy, so that every command
 * words its errors and reads its options the same way.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "exit_status.h"
#include "output.h"

int bc_cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("benchcore: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return BC_EXIT_USAGE;
}

const char *bc_cli_opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (!strncmp(argv[*i], name, len) && argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (strcmp(argv[*i], name))
		return NULL;
	if (*i + 1 >= argc)
		return "";
	return argv[++*i];
}

int bc_argp_stop(struct argp_state *state, bool *done)
{
	*done = true;
	state->next = state->argc;
	return 0;
}

int bc_argp_help(struct argp_state *state, unsigned int flags, bool *done)
{
	argp_state_help(state, bc_stdout(), flags);
	return bc_argp_stop(state, done);
}
