/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The core's `run` options (core_opts.c): one table, read by the `run`
 * parser and its help (options.c), the defaults, the run document's config
 * block, sweeps and suites (which check a run line before anything runs),
 * `compare`, and plugin option tables (whose names must not clash).
 */
#ifndef BENCHCORE_CORE_OPTS_H
#define BENCHCORE_CORE_OPTS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* Above any thread count that makes sense on one machine, below overflow. */
#define BC_MAX_THREADS 4096
/* A year: anything longer is a typo (ms for s?) rather than a plan. */
#define BC_MAX_SECONDS (365.0 * 24 * 3600)

enum bc_copt_type {
	BC_COPT_FLAG,			/* bool, on when given */
	BC_COPT_SECONDS,		/* double, seconds above 0 */
	BC_COPT_SECONDS_OR_ZERO,	/* double, seconds from 0 */
	BC_COPT_UINT,			/* unsigned int from min to max */
	BC_COPT_PCT,			/* double, a percentage above 0, at most 100 */
	BC_COPT_CPUSET,			/* struct bc_cpuset */
	BC_COPT_FORMAT,			/* enum bc_format, among BC_FORMATS_RUN */
	BC_COPT_FILE,			/* const char *, not empty */
	BC_COPT_TEXT,			/* const char *, not empty, one line */
	BC_COPT_VERBOSE,		/* int verbosity, one more per -v */
	BC_COPT_QUIET,			/* int verbosity, -1 */
	BC_COPT_ACTION,			/* --help, --usage, --version: the parser answers */
};

struct bc_core_opt {
	const char *name;		/* long name, without "--" */
	int key;			/* the short letter; 0: none */
	const char *arg;		/* its value's name in --help; NULL: takes none */
	enum bc_copt_type type;
	/* Where the value goes: a field of struct bc_config (the run), or,
	 * when in_request, of struct bc_run_request (what the command does
	 * around the run). */
	bool in_request;
	ptrdiff_t field;		/* offsetof(..., ...); -1: none */
	ptrdiff_t set_field;		/* offsetof the bool "given"; -1: none */
	unsigned int min, max;		/* BC_COPT_UINT's bounds */
	const char *what;		/* BC_COPT_UINT: what it counts ("threads") */
	const char *def;		/* default as typed on the command line; NULL: zero */
	const char *json_key;		/* key in a run document's config; NULL: none */
	/* How long, how often or how shown, not what is measured: `compare`
	 * matches runs whatever these were. */
	bool not_configuration;
	bool help_last;			/* --help lists it in the last group */
	const char *help;
	/* The ABI minor that added it. A plugin built against an older minor
	 * may have an option of the same name: that option shadows this one
	 * within the plugin's benchmarks (docs/plugin-abi.md, "Option
	 * names"). 0: every 2.x plugin knew it, and a clash is refused. */
	unsigned int abi_minor;
};

/* The table, ended by an entry without a name. */
extern const struct bc_core_opt bc_core_opts[];

/* By long name, or by short letter when name is one character. */
const struct bc_core_opt *bc_core_opt_find(const char *name);
/* argp's key: the short letter, or a number above any letter. */
int bc_core_opt_key(const struct bc_core_opt *o);
const struct bc_core_opt *bc_core_opt_by_key(int key);
/* Checks arg (NULL for an option that takes none) and stores it in req (the
 * run's configuration, req->cfg, or the request around it): 0, or -EINVAL
 * with one line in err naming the option, the value and what is expected. */
int bc_core_opt_set(const struct bc_core_opt *o, const char *arg, struct bc_run_request *req,
		    char *err, size_t err_len);
/* argp's view of the table (options.c's parser and --help), made once. */
const struct argp_option *bc_core_opts_argp(void);
/* Every option with a JSON key, typed, into the open config object, in
 * table order. */
struct bc_json_writer;
void bc_core_opts_json(struct bc_json_writer *w, const struct bc_config *cfg);
/* Does `compare` leave this config key of a run document out of a run's
 * configuration (not_configuration)? */
bool bc_core_opt_json_ignored(const char *key);

/* The table's defaults: of a run's configuration, and of a request (its
 * configuration's, nothing else asked). */
void bc_config_init(struct bc_config *cfg);
void bc_run_request_init(struct bc_run_request *req);

/* The core options among a run line's words (run's own checks; --format,
 * --output and the actions are left to the run): applied to req, 0, or
 * -EINVAL with one line in err. */
int bc_core_words_apply(char *const *words, size_t cnt, struct bc_run_request *req, char *err,
			size_t err_len);
/* The same checks on a scratch configuration: sweeps and suites refuse a
 * bad line before anything runs. */
int bc_run_check_core_words(char *const *words, size_t cnt, char *err, size_t err_len);

/* The words of a `run` command line that may name the benchmark, found
 * before any plugin is known: the non-options, skipping the values of core
 * options (a plugin option's value cannot be told apart yet, so the first
 * word that resolves wins), and the -v/-q/--help it holds. */
#define BC_RUN_SCAN_MAX 64
struct bc_run_scan {
	const char *cands[BC_RUN_SCAN_MAX];
	size_t cand_cnt;
	int verbosity;
	bool help;		/* --help, --usage or --version: no benchmark needed */
};
void bc_run_scan(int argc, char **argv, struct bc_run_scan *scan);
/* Is this word a core `run` option whose value is the next word ("-d",
 * "--duration"; not "-d5" or "--duration=5")? */
bool bc_run_opt_takes_next(const char *word);
/* The core option that refuses a plugin option of this long name in a
 * plugin built against ABI minor `abi_minor`: one it knew of (abi_minor at
 * or above the option's), or a batch word, which a plugin option could
 * never shadow since the batch takes it first. NULL: the name is free, or
 * the plugin's option shadows a later core option. *since gets the minor
 * that added it (0 for a batch word). */
const char *bc_core_opt_refuses(const char *name, unsigned int abi_minor, unsigned int *since);
/* argp's view of the table without the options that `shadowed` says a
 * plugin option takes over: a malloc'd copy, or NULL on ENOMEM. */
struct argp_option *bc_core_opts_argp_without(bool (*shadowed)(const char *name, void *cookie),
					      void *cookie);

/* Value checks for options outside the table (list, batches); each says
 * what is wrong in one line ("benchcore: --duration 'abc': expected ...")
 * and returns -EINVAL. */
int bc_parse_seconds(const char *opt, const char *text, bool allow_zero, double *out);
int bc_parse_uint(const char *opt, const char *text, unsigned int min, unsigned int max,
		  const char *what, unsigned int *out);
/* One of the formats in `allowed` (BC_FORMATS_*); "md" is markdown. */
int bc_format_parse(const char *text, unsigned int allowed, enum bc_format *out);
int bc_parse_format(const char *opt, const char *text, unsigned int allowed, enum bc_format *out);

#endif /* BENCHCORE_CORE_OPTS_H */
