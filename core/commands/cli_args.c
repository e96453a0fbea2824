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
#include "runtime/log.h"
#include "runtime/exit_status.h"
#include "runtime/output.h"

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

bool bc_cli_metric_opt(int argc, char **argv, int *i, const char **metric)
{
	const char *v = bc_cli_opt_value(argc, argv, i, "--metric");

	if (!v)
		return false;
	*metric = *v ? v : NULL;
	if (!*v)
		bc_cli_usage_error("--metric '': expected the name of a metric or derived figure");
	return true;
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

/* The option of `tables` whose long name is w[0..len), or NULL; *prefix_of
 * gets the first whose name w begins without being all of it. */
static const struct argp_option *bc_cli_long_opt(const struct argp_option *const *tables,
						 size_t table_cnt, const char *w, size_t len,
						 const char **prefix_of)
{
	for (size_t t = 0; t < table_cnt; t++) {
		for (const struct argp_option *o = tables[t]; o && (o->name || o->key || o->doc);
		     o++) {
			if (!o->name || strncmp(o->name, w, len))
				continue;
			if (strlen(o->name) == len)
				return o;
			if (!*prefix_of)
				*prefix_of = o->name;
		}
	}
	return NULL;
}

/* Whether the short options clustered in w ("-vo") end with one that takes
 * the next word as its value. */
static bool bc_cli_short_takes_next(const struct argp_option *const *tables, size_t table_cnt,
				    const char *w)
{
	for (const char *c = w + 1; *c; c++) {
		const struct argp_option *found = NULL;

		for (size_t t = 0; t < table_cnt && !found; t++)
			for (const struct argp_option *o = tables[t];
			     o && (o->name || o->key || o->doc); o++)
				if (o->key == (unsigned char)*c && !(o->flags & OPTION_DOC)) {
					found = o;
					break;
				}
		/* The rest of the word is this option's value. */
		if (found && found->arg)
			return !c[1] && !(found->flags & OPTION_ARG_OPTIONAL);
	}
	return false;
}

int bc_cli_full_names(const char *cmd, int argc, char **argv,
		      const struct argp_option *const *tables, size_t table_cnt, bool in_order)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *prefix_of = NULL;
		const struct argp_option *o;
		size_t len;

		if (!strcmp(w, "--"))
			break;
		if (w[0] != '-' || !w[1]) {
			/* The first word that is not an option ends an
			 * in-order parse: the rest is the command's. */
			if (in_order)
				break;
			continue;
		}
		if (w[1] != '-') {
			if (bc_cli_short_takes_next(tables, table_cnt, w))
				i++;
			continue;
		}
		w += 2;
		len = strcspn(w, "=");
		o = bc_cli_long_opt(tables, table_cnt, w, len, &prefix_of);
		if (!o && prefix_of) {
			bc_warn("%s%s'--%.*s' is not an option; write an option's full name (did you mean --%s?)",
				cmd ? cmd : "", cmd ? ": " : "", (int)len, w, prefix_of);
			return -EINVAL;
		}
		/* "--output FILE": FILE is a value, whatever it looks like. */
		if (o && o->arg && !w[len] && !(o->flags & OPTION_ARG_OPTIONAL))
			i++;
	}
	return 0;
}

const char *bc_cli_unknown_long(int argc, char **argv, const struct argp_option *const *tables,
				size_t table_cnt, char *buf, size_t len)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *prefix_of = NULL;
		const struct argp_option *o;
		size_t n;

		if (!strcmp(w, "--"))
			break;
		if (w[0] != '-' || !w[1])
			continue;
		if (w[1] != '-') {
			if (bc_cli_short_takes_next(tables, table_cnt, w))
				i++;
			continue;
		}
		w += 2;
		n = strcspn(w, "=");
		o = bc_cli_long_opt(tables, table_cnt, w, n, &prefix_of);
		if (!o) {
			snprintf(buf, len, "%.*s", (int)n, w);
			return buf;
		}
		if (o->arg && !w[n] && !(o->flags & OPTION_ARG_OPTIONAL))
			i++;
	}
	return NULL;
}
