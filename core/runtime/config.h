/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One run, fully parsed: what the `run` command line (options.c, from
 * the table in core_opts.c) hands to the loader and the runner.
 */
#ifndef BENCHCORE_CONFIG_H
#define BENCHCORE_CONFIG_H

#include <stdbool.h>

#include "cpuset.h"

struct bc_opts;

/* Output formats: one run (text, json), and tables of many runs (sweeps,
 * suites, compare: all four). */
enum bc_format {
	BC_FORMAT_TEXT = 0,
	BC_FORMAT_JSON,
	BC_FORMAT_CSV,
	BC_FORMAT_MARKDOWN,
};

#define BC_FORMATS_RUN ((1u << BC_FORMAT_TEXT) | (1u << BC_FORMAT_JSON))
#define BC_FORMATS_TABLE \
	(BC_FORMATS_RUN | (1u << BC_FORMAT_CSV) | (1u << BC_FORMAT_MARKDOWN))

struct bc_config {
	unsigned int producers;		/* 0 = benchmark default */
	unsigned int consumers;		/* 0 = benchmark default (see *_set) */
	bool producers_set;
	bool consumers_set;
	double warmup_sec;
	double duration_sec;
	bool affinity;			/* -a */
	bool prod_cpus_set;
	bool cons_cpus_set;
	struct bc_cpuset prod_cpus;
	struct bc_cpuset cons_cpus;
	int verbosity;			/* -1 quiet, 0 normal, 1+ verbose */
	enum bc_format format;
	const char *output_path;	/* NULL = stdout */
	/* This run's plugin option values (plugin_opts.h): bc_ctx_opts()
	 * reads them. Made by the `run` parser, freed by bc_options_free(). */
	struct bc_opts *opts;
	bool bpf_stats;			/* --bpf-stats (bpf_stats.h) */
	/* `programs` (cmd_programs.c): set up and attach, then tear down;
	 * no thread starts and nothing is measured. */
	bool setup_only;
};

/*
 * What a `run` command line asks beyond the run itself: how many runs, and
 * what becomes of the result afterwards. Parsed with the run's options
 * (one table, core_opts.c, so that plugin options cannot take these names)
 * but read only by the commands (repeat.c, baseline.c, batch.c): the
 * loader, the runner and the reporters get the configuration alone.
 */
struct bc_run_request {
	struct bc_config cfg;
	/* --repeat, --precision, --max-repeat, --max-time (repeat.h); zero
	 * for one run, max_repeat 0 for its default. */
	unsigned int repeat;
	double precision_pct;
	unsigned int max_repeat;
	double max_time_sec;
	/* --save, --store, --label, --against (docs/history.md): keep the
	 * run's document in the result store, and judge it against a saved
	 * one. Not the run's configuration: none is in the document. */
	bool save;
	const char *store_path;		/* NULL: the default store */
	const char *label;
	const char *against;		/* a label, or "latest" */
	/* --metric: the figure --against judges; NULL: the headline. */
	const char *metric;
};

#endif /* BENCHCORE_CONFIG_H */
