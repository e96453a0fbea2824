/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The rows of a batch of child runs (sweeps and suites): what batch.c plans
 * and runs and report_table.c renders: the data both read, so that
 * neither includes the other.
 */
#ifndef BENCHCORE_ROW_H
#define BENCHCORE_ROW_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "runtime/config.h"
#include "words.h"

struct bc_cli_env;
struct bc_doc_run;

struct bc_batch_opts {
	const char *kind;		/* "sweep" or "suite" */
	const char *name;		/* the benchmark or the suite */
	struct bc_cli_env *env;		/* global options, for every child;
					 * plugins loaded to type sweeps */
	char **extra_args;		/* appended to every run */
	size_t extra_cnt;
	double timeout_sec;		/* <= 0: warm-up + duration + margin */
	enum bc_format format;
	FILE *out;
	bool quiet;
	bool verbose;			/* relay each child's stderr */
	bool save;			/* --save: each row's document into the store */
	const char *store_path;		/* --store PATH; NULL: the default */
};

enum bc_row_status {
	BC_ROW_PLANNED = 0,
	BC_ROW_OK,
	BC_ROW_UNAVAILABLE,
	BC_ROW_INVALID,
	BC_ROW_FAILED,
	BC_ROW_CRASHED,
	BC_ROW_TIMEOUT,
	BC_ROW_INTERRUPTED,
};

struct bc_row {
	char *section;		/* the suite header it belongs to, or NULL */
	char *label;
	bool label_given;	/* from --label: it names the saved entry too */
	struct bc_strv args;	/* the run's own words (after "run") */
	struct bc_strv combo_args;	/* the combination's options */
	struct bc_strv opt_names;	/* the combination, for reports */
	struct bc_strv opt_values;
	/* Per value: the JSON literal the run document would store (65536,
	 * true), or "" where it is a string there. */
	struct bc_strv opt_json;
	double timeout_sec;

	enum bc_row_status status;
	int exit_code;
	char *reason;
	double elapsed_sec;
	char *json;		/* the child's document, verbatim */
	char *bench;		/* "plugin:bench" from the document */
	struct bc_doc_run *run;	/* the document as the model read it, or NULL */
	bool measured;			/* a metric has a sample (n > 0) */
};

struct bc_batch {
	struct bc_batch_opts opts;
	char exe[PATH_MAX];
	struct bc_row *rows;
	size_t row_cnt, row_cap;
	size_t run_cnt;			/* processes the rows make: --repeat counts */
	int name_width;
	const char *cur_section;
	bool section_open;
	struct bc_strv sweep_specs;	/* for the JSON document */
};

#endif /* BENCHCORE_ROW_H */
