// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The core's `run` options: the table of them, their defaults, and the
 * checks of their values. Everything that must know a core option reads
 * it here: the `run` parser (options.c), sweeps and suites (which check a
 * run line before anything runs), and plugin option tables (whose names
 * must not clash with the core's).
 *
 * Every bad value costs one line naming the option, the value and what is
 * expected.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "config.h"
#include "core_opts.h"
#include "log.h"
#include "repstats.h"

const struct argp_option bc_run_options[] = {
	{ "warmup", 'w', "SEC", 0, "Warm-up seconds, reported but not summarised (default 1; 0 allowed)", 0 },
	{ "duration", 'd', "SEC", 0, "Measured seconds (default 5)", 0 },
	{ "producers", 'p', "N", 0, "Producer threads (default: the benchmark's)", 0 },
	{ "consumers", 'c', "N", 0, "Consumer threads (default: the benchmark's)", 0 },
	{ "affinity", 'a', NULL, 0, "Pin threads: consumers to CPUs 0, 1, ..., producers to the next ones", 0 },
	{ "prod-affinity", BC_OPT_PROD_AFFINITY, "CPUSET", 0, "Pin producers to these CPUs (e.g. 0,2-3)", 0 },
	{ "cons-affinity", BC_OPT_CONS_AFFINITY, "CPUSET", 0, "Pin consumers to these CPUs", 0 },
	{ "bpf-stats", BC_OPT_BPF_STATS, NULL, 0, "Turn on the kernel's BPF run-time statistics for the run and report each declared program's runs/s, ns/run and share of the producers' time", 0 },
	{ "verbose", 'v', NULL, 0, "More output, libbpf's debug messages included (repeatable)", 0 },
	{ "quiet", 'q', NULL, 0, "Only the summary and warnings", 0 },
	{ "format", BC_OPT_FORMAT, "FMT", 0, "text (default) or json", 0 },
	{ "output", BC_OPT_OUTPUT, "FILE", 0, "Write the report to FILE instead of stdout", 0 },
	{ "repeat", BC_OPT_REPEAT, "N", 0, "Independent runs, each in its own process (default 1): reports the mean of the run means, its 95% confidence interval and the run-to-run CV; with --precision, the fewest runs", 0 },
	{ "precision", BC_OPT_PRECISION, "PCT", 0, "Add runs until the 95% confidence interval of the headline metric is within PCT% of its mean (at least 3 runs), or a cap is reached", 0 },
	{ "max-repeat", BC_OPT_MAX_REPEAT, "N", 0, "Cap of --precision: at most N runs (default 30)", 0 },
	{ "max-time", BC_OPT_MAX_TIME, "SEC", 0, "Cap of --precision: start no run that would end after SEC seconds (default: none)", 0 },
	{ "version", BC_OPT_VERSION, NULL, 0, "Print the benchcore, ABI and libbpf versions", 0 },
	{ "help", '?', NULL, 0, "Give this help list (with the benchmark's plugin options)", -1 },
	{ "usage", BC_OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ 0 },
};

/* ----------------------------------------------------------- values */

/* Plain decimals only ("5", "0.5", "2."): strtod() also takes "0x10",
 * "1e3", "inf", " 5" and "+5", none of which a duration is written as. */
static bool bc_is_decimal(const char *text)
{
	size_t digits = 0, dots = 0;

	for (const char *p = text; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && !dots)
			dots++;
		else
			return false;
	}
	return digits > 0;
}

static int bc_seconds_value(const char *opt, const char *text, bool allow_zero, double *out,
			    char *err, size_t err_len)
{
	char *end = (char *)"";
	double v;

	errno = 0;
	v = bc_is_decimal(text) ? strtod(text, &end) : NAN;
	if (!isfinite(v) || *end || errno || v < 0 || (!allow_zero && v == 0) ||
	    v > BC_MAX_SECONDS) {
		bc_set_err(err, err_len, "%s '%s': expected a number of seconds %s 0 (at most %.0f)",
			   opt, text, allow_zero ? ">=" : ">", BC_MAX_SECONDS);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int bc_parse_seconds(const char *opt, const char *text, bool allow_zero, double *out)
{
	char err[256];

	if (bc_seconds_value(opt, text, allow_zero, out, err, sizeof(err))) {
		bc_warn("%s", err);
		return -EINVAL;
	}
	return 0;
}

static int bc_uint_value(const char *opt, const char *text, unsigned int min, unsigned int max,
			 const char *what, unsigned int *out, char *err, size_t err_len)
{
	unsigned long v = 0;
	const char *p;

	/* Digits only: strtoul() accepts " 1", "+1" and wraps "-1". */
	for (p = text; *p; p++) {
		if (*p < '0' || *p > '9' || v > max)
			break;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (!*text || *p || v < min || v > max) {
		bc_set_err(err, err_len, "%s '%s': expected a whole number of %s from %u to %u", opt,
			   text, what, min, max);
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

int bc_parse_uint(const char *opt, const char *text, unsigned int min, unsigned int max,
		  const char *what, unsigned int *out)
{
	char err[256];

	if (bc_uint_value(opt, text, min, max, what, out, err, sizeof(err))) {
		bc_warn("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* --precision: a plain decimal percentage, above 0 and at most 100. */
static int bc_pct_value(const char *opt, const char *text, double *out, char *err, size_t err_len)
{
	char *end = (char *)"";
	double v;

	errno = 0;
	v = bc_is_decimal(text) ? strtod(text, &end) : NAN;
	if (!isfinite(v) || *end || errno || !(v > 0) || v > 100) {
		bc_set_err(err, err_len,
			   "%s '%s': expected a percentage above 0 and at most 100 (1 asks for a 95%% confidence interval within 1%% of the mean)",
			   opt, text);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int bc_parse_pct(const char *opt, const char *text, double *out)
{
	char err[256];

	if (bc_pct_value(opt, text, out, err, sizeof(err))) {
		bc_warn("%s", err);
		return -EINVAL;
	}
	return 0;
}

int bc_parse_format(const char *opt, const char *text, enum bc_format *out)
{
	if (!strcmp(text, "text")) {
		*out = BC_FORMAT_TEXT;
	} else if (!strcmp(text, "json")) {
		*out = BC_FORMAT_JSON;
	} else {
		bc_warn("%s '%s': expected text or json", opt, text);
		return -EINVAL;
	}
	return 0;
}

int bc_parse_cpus(const char *opt, const char *text, struct bc_cpuset *set)
{
	char err[256];

	if (bc_cpuset_parse(text, set, err, sizeof(err))) {
		bc_warn("%s %s", opt, err);
		return -EINVAL;
	}
	return 0;
}

/* ---------------------------------------------- finding the benchmark */

/* Words a batch takes before a run sees the line (batch.c, cli_util.c):
 * a plugin option of the same name would never reach the plugin. */
static const char *const bc_batch_names[] = { "sweep", "label", "run-timeout", "plugin-dir" };

static const struct argp_option *bc_find_long(const char *name, size_t len)
{
	const struct argp_option *o;

	for (o = bc_run_options; o->name || o->key; o++)
		if (o->name && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct argp_option *bc_find_short(int key)
{
	const struct argp_option *o;

	for (o = bc_run_options; o->name || o->key; o++)
		if (o->key == key)
			return o;
	return NULL;
}

bool bc_run_is_core_option(const char *name)
{
	for (size_t i = 0; i < sizeof(bc_batch_names) / sizeof(bc_batch_names[0]); i++)
		if (!strcmp(name, bc_batch_names[i]))
			return true;
	return bc_find_long(name, strlen(name)) != NULL;
}

const struct argp_option *bc_run_core_option(const char *name)
{
	if (strlen(name) == 1)
		return bc_find_short((unsigned char)name[0]);
	return bc_find_long(name, strlen(name));
}

/*
 * What one word of a `run` line is, as far as the core options can tell:
 * *takes_next when it is a core option whose value is the next word ("-d",
 * "-vd", "--duration"), and -v/-q/--help noted in scan.
 */
static void bc_scan_option(const char *a, bool *takes_next, struct bc_run_scan *scan)
{
	const struct argp_option *o;
	const char *eq, *c;

	*takes_next = false;
	if (a[1] == '-') {
		eq = strchr(a, '=');
		o = bc_find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!o)
			return;	/* a plugin's option: its value cannot be told yet */
		if (scan && (o->key == '?' || o->key == BC_OPT_USAGE || o->key == BC_OPT_VERSION))
			scan->help = true;
		if (scan && o->key == 'v')
			scan->verbosity = scan->verbosity < 0 ? 1 : scan->verbosity + 1;
		if (scan && o->key == 'q')
			scan->verbosity = -1;
		*takes_next = o->arg && !eq;
		return;
	}
	for (c = a + 1; *c; c++) {
		o = bc_find_short(*c);
		if (!o)
			return;
		if (scan && o->key == '?')
			scan->help = true;
		if (scan && o->key == 'v')
			scan->verbosity = scan->verbosity < 0 ? 1 : scan->verbosity + 1;
		if (scan && o->key == 'q')
			scan->verbosity = -1;
		if (o->arg) {
			*takes_next = !c[1];	/* "-d 5"; "-d5" holds its value */
			return;
		}
	}
}

bool bc_run_opt_takes_next(const char *word)
{
	bool next;

	if (word[0] != '-' || !word[1] || !strcmp(word, "--"))
		return false;
	bc_scan_option(word, &next, NULL);
	return next;
}

void bc_run_scan(int argc, char **argv, struct bc_run_scan *scan)
{
	bool only_args = false, next;
	const char *a;

	memset(scan, 0, sizeof(*scan));
	for (int i = 1; i < argc; i++) {
		a = argv[i];
		if (only_args || a[0] != '-' || !a[1]) {
			if (scan->cand_cnt < BC_RUN_SCAN_MAX)
				scan->cands[scan->cand_cnt++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		bc_scan_option(a, &next, scan);
		if (next)
			i++;
	}
}

/* The value checks of the core options that take one, as `run` makes them
 * (--format and --output are a batch's own, so not here). */
static int bc_check_core_value(const struct argp_option *o, const char *v, char *err,
			       size_t err_len)
{
	static struct bc_cpuset cpus;	/* 16 KiB: not on the stack */
	const char *opt = o->key == BC_OPT_PROD_AFFINITY ? "--prod-affinity" : "--cons-affinity";
	char why[256];
	unsigned int n;
	double sec;

	switch (o->key) {
	case 'w':
		return bc_seconds_value("--warmup", v, true, &sec, err, err_len);
	case 'd':
		return bc_seconds_value("--duration", v, false, &sec, err, err_len);
	case 'p':
		return bc_uint_value("--producers", v, 0, BC_MAX_THREADS, "threads", &n, err, err_len);
	case 'c':
		return bc_uint_value("--consumers", v, 0, BC_MAX_THREADS, "threads", &n, err, err_len);
	case BC_OPT_REPEAT:
		return bc_uint_value("--repeat", v, 1, BC_REP_MAX_RUNS, "runs", &n, err, err_len);
	case BC_OPT_PRECISION:
		return bc_pct_value("--precision", v, &sec, err, err_len);
	case BC_OPT_MAX_REPEAT:
		return bc_uint_value("--max-repeat", v, BC_REP_MIN_RUNS, BC_REP_MAX_RUNS, "runs", &n,
				     err, err_len);
	case BC_OPT_MAX_TIME:
		return bc_seconds_value("--max-time", v, false, &sec, err, err_len);
	case BC_OPT_PROD_AFFINITY:
	case BC_OPT_CONS_AFFINITY:
		if (!bc_cpuset_parse(v, &cpus, why, sizeof(why)))
			return 0;
		bc_set_err(err, err_len, "%s %s", opt, why);
		return -EINVAL;
	default:
		return 0;
	}
}

int bc_run_check_core_words(char *const *words, size_t cnt, char *err, size_t err_len)
{
	const struct argp_option *o;
	const char *a, *eq, *c;

	for (size_t i = 0; i < cnt; i++) {
		a = words[i];
		if (!strcmp(a, "--"))
			return 0;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			eq = strchr(a, '=');
			o = bc_find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (!o || !o->arg)
				continue;
			if (!eq && i + 1 >= cnt) {
				bc_set_err(err, err_len, "%s: expected a value after it", a);
				return -EINVAL;
			}
			if (bc_check_core_value(o, eq ? eq + 1 : words[++i], err, err_len))
				return -EINVAL;
			continue;
		}
		for (c = a + 1; *c; c++) {
			o = bc_find_short((unsigned char)*c);
			if (!o)
				break;	/* a plugin's short option: its own rules */
			if (!o->arg)
				continue;
			if (!c[1] && i + 1 >= cnt) {
				bc_set_err(err, err_len, "-%c: expected a value after it", *c);
				return -EINVAL;
			}
			if (bc_check_core_value(o, c[1] ? c + 1 : words[++i], err, err_len))
				return -EINVAL;
			break;
		}
	}
	return 0;
}

void bc_config_init(struct bc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->warmup_sec = 1;
	cfg->duration_sec = 5;
	cfg->format = BC_FORMAT_TEXT;
}
