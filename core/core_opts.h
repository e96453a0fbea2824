/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The core's `run` options (core_opts.c): one table, read by the `run`
 * parser (options.c), by sweeps and suites (which check a run line before
 * anything runs) and by plugin option tables (whose names must not clash).
 */
#ifndef BENCHCORE_CORE_OPTS_H
#define BENCHCORE_CORE_OPTS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* The defaults of every core option, from the table. */
void bc_config_init(struct bc_config *cfg);


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
/* The core `run` option with this long name or one-letter short name. */
const struct argp_option *bc_run_core_option(const char *name);
/* Would a plugin option of this long name clash with the core's (run's
 * options, and the words sweeps and suites take out of a run line)? */
bool bc_run_is_core_option(const char *name);

/* Value checks shared by every command; each says what is wrong in one line
 * ("benchcore: --duration 'abc': expected ...") and returns -EINVAL. */
int bc_parse_seconds(const char *opt, const char *text, bool allow_zero, double *out);
int bc_parse_uint(const char *opt, const char *text, unsigned int min, unsigned int max,
		  const char *what, unsigned int *out);
int bc_parse_format(const char *opt, const char *text, enum bc_format *out);
/* The values of the core options among a run line's words (-w, -d, -p,
 * -c, the affinity sets), checked as `run` checks them: sweeps and suites
 * refuse a bad line before anything runs. 0, or -EINVAL with one line in
 * err. */
int bc_run_check_core_words(char *const *words, size_t cnt, char *err, size_t err_len);
/* The keys of the core options that have no short letter. */
enum {
	BC_OPT_PROD_AFFINITY = 0x100,
	BC_OPT_CONS_AFFINITY,
	BC_OPT_FORMAT,
	BC_OPT_OUTPUT,
	BC_OPT_VERSION,
	BC_OPT_USAGE,
	BC_OPT_BPF_STATS,
	/* run --repeat / --precision (repeat.h) */
	BC_OPT_REPEAT,
	BC_OPT_PRECISION,
	BC_OPT_MAX_REPEAT,
	BC_OPT_MAX_TIME,
};

/* Above any thread count that makes sense on one machine, below overflow. */
#define BC_MAX_THREADS 4096
/* A year: anything longer is a typo (ms for s?) rather than a plan. */
#define BC_MAX_SECONDS (365.0 * 24 * 3600)

/* The table itself, argp's shape (terminated by a zeroed entry). */
extern const struct argp_option bc_run_options[];
/* --precision and the affinity sets, one line on a bad value. */
int bc_parse_pct(const char *opt, const char *text, double *out);
int bc_parse_cpus(const char *opt, const char *text, struct bc_cpuset *set);

#endif /* BENCHCORE_CORE_OPTS_H */
