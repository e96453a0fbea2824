/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Plugin options as data: from the option tables the loader normalised
 * (struct bc_plugin.options, struct bc_bench.options), one run's typed
 * values. The core checks the tables, parses and validates every value,
 * documents the options in --help, records them in the JSON config and
 * expands sweeps from their declared types; the plugin only reads the
 * struct (bc_ctx_opts()).
 *
 * Value rules, the same for the command line, defaults and sweeps:
 *   FLAG    no value on the command line (default off; a flag cannot be
 *           turned off there, so a table may not default it to on); in
 *           sweeps and defaults: on/off, true/false, yes/no, 1/0
 *   INT     decimal, optional '-', within [min, max] (0, 0: int64_t's range)
 *   SIZE    decimal with an optional K, M or G suffix (x 1024^n), within
 *           [min, max] (0, 0: uint64_t's range)
 *   ENUM    one of the words; stored as its index
 *   STRING  any text; stored as a copy the run owns
 *   CPUSET  a CPU list "0,2-3"; stored as a struct bc_cpus the run owns
 * A bad value costs one line, `benchcore: --NAME 'VALUE': expected ...`,
 * and exit status 2.
 */
#ifndef BENCHCORE_PLUGIN_OPTS_H
#define BENCHCORE_PLUGIN_OPTS_H

#include <benchcore/benchcore.h>
#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

#include "loader.h"

struct bc_json_writer;

/* One run's option values: the plugin's options struct, and which options
 * the user gave. Owned by the run's struct bc_config (cfg->opts). */
struct bc_opts;

/*
 * Checks the option tables a run of `bench` uses (its plugin's and its
 * own): names non-empty, made of letters, digits, '-' and '_', unique, not a
 * core option's; types known; fields inside opts_size; ENUM words present;
 * INT/SIZE ranges ordered; every default valid by its option's rules.
 * Returns 0, or -EINVAL with one line in err naming the plugin and option.
 */
int bc_opts_check(const struct bc_bench *bench, char *err, size_t err_len);
/* The same for every benchmark of a plugin, as it loads (bc_plugin_check_fn). */
int bc_opts_check_plugin(const struct bc_plugin *p, char *err, size_t err_len);
/* The largest opts_size a plugin may declare (1 MiB). */
#define BC_OPTS_MAX_SIZE (1024u * 1024u)

/* A run's values for `bench`: the tables checked, a zeroed struct of
 * opts_size bytes, the defaults applied. NULL with errno set (EINVAL: the
 * table is bad, err says why in one line; ENOMEM). */
struct bc_opts *bc_opts_new(const struct bc_bench *bench, char *err, size_t err_len);
void bc_opts_free(struct bc_opts *o);

/* The options struct for a run of `bench` (what bc_ctx_opts() returns):
 * NULL when o is NULL, was made for another plugin, or the plugin declares
 * no options struct. */
const void *bc_opts_data(const struct bc_opts *o, const struct bc_bench *bench);

/* The option of a run of `bench` called `name` (plugin-wide options first,
 * then the benchmark's own); NULL when there is none. */
const struct bc_option *bc_opts_find(const struct bc_bench *bench, const char *name);

/* Parses `text` by the option's rules into the run's struct and marks the
 * option as given. -EINVAL with `--NAME 'VALUE': expected ...` in err. */
int bc_opts_set(struct bc_opts *o, const struct bc_option *opt, const char *text, char *err,
		size_t err_len);
/* Whether `text` is a valid value of opt (nothing stored); the same err. */
int bc_opts_check_value(const struct bc_option *opt, const char *text, char *err, size_t err_len);
/* A valid value of opt as the run document stores it: a JSON number or
 * boolean into buf (0), or -ENOENT for the types it stores as strings
 * (ENUM, STRING, CPUSET), -EINVAL for a bad value. */
int bc_opts_value_json(const struct bc_option *opt, const char *text, char *buf, size_t len);
/* FLAG words: 1 for on/true/yes/1, 0 for off/false/no/0, -1 otherwise. */
int bc_opts_flag_word(const char *text);

/* The argp child parser of a run (long options only, documented with type
 * placeholder, range or words and default, in the tables' order under
 * `header`). Valid while o lives; its input (state->child_inputs[i]) must
 * be o. A bad value prints its one line and ends the parse with EINVAL. */
const struct argp *bc_opts_argp(struct bc_opts *o, const char *header);

/* "plugin_options": {NAME: typed value} for every option of the run, and
 * "plugin_options_set": [NAME...] for those the user gave. */
void bc_opts_json(struct bc_json_writer *w, const struct bc_opts *o);
/* Calls fn for every option the user gave, with its text as typed (for
 * debug output); flags get NULL. */
void bc_opts_each_set(const struct bc_opts *o,
		      void (*fn)(const struct bc_option *opt, const char *text, void *cookie),
		      void *cookie);

/* The options of the run whose table entry names BPF map `map` (their
 * `maps`) and that the user set to other than the default, as
 * "--max_entries 4294967295, --map_flags 0xffffffff" in buf: what to blame
 * when the kernel refuses to create that map. Returns how many. */
size_t bc_opts_map_culprits(const struct bc_opts *o, const char *map, char *buf, size_t len);

/*
 * The command-line word of one swept value of opt: "--NAME=VALUE", "--NAME"
 * for a flag that is on, NULL (*arg) for a flag that is off. -EINVAL with
 * the one-line value error in err when VALUE is not valid for the type.
 */
int bc_opts_sweep_arg(const struct bc_option *opt, const char *value, char **arg, char *err,
		      size_t err_len);

#endif /* BENCHCORE_PLUGIN_OPTS_H */
