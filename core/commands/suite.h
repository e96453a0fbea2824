/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Suite files (suite.c) and the `suite` command.
 */
#ifndef BENCHCORE_SUITE_H
#define BENCHCORE_SUITE_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>

/* A parsed suite file (suite.c). */
enum bc_suite_item_kind {
	BC_SUITE_HEADER = 1,
	BC_SUITE_RUN,
};

struct bc_suite_item {
	enum bc_suite_item_kind kind;
	unsigned int line;	/* 1-based, for messages */
	char *text;		/* header text */
	char **args;		/* run: the words after "run" */
	size_t arg_cnt;
};

struct bc_suite {
	char *path;
	char *description;	/* the first comment line, if any */
	struct bc_suite_item *items;
	size_t item_cnt;
};

int bc_suite_parse(const char *path, FILE *f, struct bc_suite *suite, char *err, size_t err_len);
int bc_suite_load(const char *path, struct bc_suite *suite, char *err, size_t err_len);
void bc_suite_free(struct bc_suite *suite);
/* The directory the shipped suites are read from: $BENCHCORE_SUITE_PATH,
 * the source tree's suites/ when run from the build tree, or
 * <datadir>/benchcore/suites relative to the executable. */
int bc_suite_dir(char *buf, size_t len);

struct bc_cli_env;
int bc_suite_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_SUITE_H */
