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

#include "bc_internal.h"

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

void bc_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
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

int bc_table_format_parse(const char *text, enum bc_table_format *fmt)
{
	static const struct {
		const char *name;
		enum bc_table_format fmt;
	} names[] = {
		{ "text", BC_TABLE_TEXT },	{ "json", BC_TABLE_JSON },
		{ "csv", BC_TABLE_CSV },	{ "markdown", BC_TABLE_MARKDOWN },
		{ "md", BC_TABLE_MARKDOWN },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(text, names[i].name)) {
			*fmt = names[i].fmt;
			return 0;
		}
	}
	return -EINVAL;
}

int bc_batch_cli_opt(int argc, char **argv, int *i, struct bc_batch_opts *bo,
		     const char **output)
{
	const char *v;
	char *end;

	if ((v = bc_cli_opt_value(argc, argv, i, "--format"))) {
		if (bc_table_format_parse(v, &bo->format)) {
			bc_cli_usage_error("--format '%s': expected text, json, csv or markdown", v);
			return -EINVAL;
		}
		return 1;
	}
	if ((v = bc_cli_opt_value(argc, argv, i, "--output"))) {
		*output = v;
		return 1;
	}
	if ((v = bc_cli_opt_value(argc, argv, i, "--run-timeout"))) {
		bo->timeout_sec = strtod(v, &end);
		if (!*v || *end || !(bo->timeout_sec > 0)) {
			bc_cli_usage_error("--run-timeout '%s': expected a number of seconds above 0", v);
			return -EINVAL;
		}
		return 1;
	}
	/* Passed on to every run, but the parent listens too. */
	if (!strcmp(argv[*i], "-q") || !strcmp(argv[*i], "--quiet"))
		bo->quiet = true;
	if (!strcmp(argv[*i], "-v") || !strcmp(argv[*i], "--verbose"))
		bo->verbose = true;
	return 0;
}

int bc_argp_stop(struct argp_state *state, bool *done)
{
	*done = true;
	state->next = state->argc;
	return 0;
}

int bc_argp_help(struct argp_state *state, unsigned int flags, bool *done)
{
	argp_state_help(state, stdout, flags);
	return bc_argp_stop(state, done);
}
