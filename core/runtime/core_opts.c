// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The core's `run` options as one table: name, short letter, type, bounds,
 * default, help and JSON key. Everything that must know a core option reads
 * it here: the `run` parser and its --help (options.c), the defaults
 * (bc_config_init), the run document's config block (report_json.c), the
 * checks sweeps and suites make before anything runs (batch.c, suite.c),
 * the words a swept value becomes (sweep_axis.c), what `compare` leaves
 * out of a configuration, and the names plugin options may not take
 * (plugin_opts.c). A new core option is one line in the table and the code
 * that uses its value.
 *
 * Every bad value costs one line naming the option, the value and what is
 * expected.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core_opts.h"
#include "cpuset.h"
#include "doc_keys.h"
#include "json.h"
#include "log.h"
#include "repstats.h"

#define BC_CFG(f) offsetof(struct bc_config, f)
/* A request option: .in_request = true with its field. */
#define BC_REQ(f) .in_request = true, .field = offsetof(struct bc_run_request, f)
#define BC_NO_FIELD ((ptrdiff_t)-1)

/* Order: the run document's config block follows it, and --help lists it. */
const struct bc_core_opt bc_core_opts[] = {
	{ .name = "producers", .key = 'p', .arg = "N", .type = BC_COPT_UINT,
	  .field = BC_CFG(producers), .set_field = BC_CFG(producers_set),
	  .min = 0, .max = BC_MAX_THREADS, .what = "threads", .json_key = BC_DOC_CFG_PRODUCERS,
	  .help = "Producer threads (default: the benchmark's)" },
	{ .name = "consumers", .key = 'c', .arg = "N", .type = BC_COPT_UINT,
	  .field = BC_CFG(consumers), .set_field = BC_CFG(consumers_set),
	  .min = 0, .max = BC_MAX_THREADS, .what = "threads", .json_key = BC_DOC_CFG_CONSUMERS,
	  .help = "Consumer threads (default: the benchmark's)" },
	{ .name = "warmup", .key = 'w', .arg = "SEC", .type = BC_COPT_SECONDS_OR_ZERO,
	  .field = BC_CFG(warmup_sec), .set_field = BC_NO_FIELD, .def = "1",
	  .json_key = BC_DOC_CFG_WARMUP_SEC, .not_configuration = true,
	  .help = "Warm-up seconds, reported but not summarised (default 1; 0 allowed)" },
	{ .name = "duration", .key = 'd', .arg = "SEC", .type = BC_COPT_SECONDS,
	  .field = BC_CFG(duration_sec), .set_field = BC_NO_FIELD, .def = "5",
	  .json_key = BC_DOC_CFG_DURATION_SEC, .not_configuration = true,
	  .help = "Measured seconds (default 5)" },
	{ .name = "affinity", .key = 'a', .type = BC_COPT_FLAG,
	  .field = BC_CFG(affinity), .set_field = BC_NO_FIELD, .json_key = BC_DOC_CFG_AFFINITY,
	  .help = "Pin threads: consumers to CPUs 0, 1, ..., producers to the next ones" },
	{ .name = "prod-affinity", .arg = "CPUSET", .type = BC_COPT_CPUSET,
	  .field = BC_CFG(prod_cpus), .set_field = BC_CFG(prod_cpus_set), .json_key = BC_DOC_CFG_PROD_CPUS,
	  .help = "Pin producers to these CPUs (e.g. 0,2-3)" },
	{ .name = "cons-affinity", .arg = "CPUSET", .type = BC_COPT_CPUSET,
	  .field = BC_CFG(cons_cpus), .set_field = BC_CFG(cons_cpus_set), .json_key = BC_DOC_CFG_CONS_CPUS,
	  .help = "Pin consumers to these CPUs" },
	{ .name = "bpf-stats", .type = BC_COPT_FLAG, .field = BC_CFG(bpf_stats),
	  .set_field = BC_NO_FIELD, .json_key = BC_DOC_CFG_BPF_STATS,
	  .abi_minor = 1,
	  .help = "Turn on the kernel's BPF run-time statistics for the run and report each declared program's runs/s, ns/run and share of the producers' time" },
	{ .name = "verbose", .key = 'v', .type = BC_COPT_VERBOSE, .field = BC_CFG(verbosity),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "More output, libbpf's debug messages included (repeatable)" },
	{ .name = "quiet", .key = 'q', .type = BC_COPT_QUIET, .field = BC_CFG(verbosity),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "Only the summary and warnings" },
	{ .name = "format", .arg = "FMT", .type = BC_COPT_FORMAT, .field = BC_CFG(format),
	  .set_field = BC_NO_FIELD, .def = "text", .not_configuration = true,
	  .help = "text (default) or json" },
	{ .name = "output", .arg = "FILE", .type = BC_COPT_FILE, .field = BC_CFG(output_path),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "Write the report to FILE instead of stdout" },
	/* How many runs, not what each measures: the document's repeats block
	 * states them (report_json.c). */
	{ .name = "repeat", .arg = "N", .type = BC_COPT_UINT, BC_REQ(repeat),
	  .set_field = BC_NO_FIELD, .min = 1, .max = BC_REP_MAX_RUNS, .what = "runs",
	  .not_configuration = true,
	  .abi_minor = 1,
	  .help = "Independent runs, each in its own process (default 1): reports the mean of the run means, its 95% confidence interval and the run-to-run CV; with --precision, the fewest runs" },
	{ .name = "precision", .arg = "PCT", .type = BC_COPT_PCT, BC_REQ(precision_pct),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .abi_minor = 1,
	  .help = "Add runs until the 95% confidence interval of the headline metric is within PCT% of its mean (at least 3 runs), or a cap is reached" },
	{ .name = "max-repeat", .arg = "N", .type = BC_COPT_UINT, BC_REQ(max_repeat),
	  .set_field = BC_NO_FIELD, .min = BC_REP_MIN_RUNS, .max = BC_REP_MAX_RUNS, .what = "runs",
	  .not_configuration = true,
	  .abi_minor = 1,
	  .help = "Cap of --precision: at most N runs (default 30)" },
	{ .name = "max-time", .arg = "SEC", .type = BC_COPT_SECONDS, BC_REQ(max_time_sec),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .abi_minor = 1,
	  .help = "Cap of --precision: start no run that would end after SEC seconds (default: none)" },
	/* The result store (docs/history.md); sweeps and suites take these
	 * out of a run line themselves (batch.c). */
	{ .name = "save", .type = BC_COPT_FLAG, BC_REQ(save), .set_field = BC_NO_FIELD,
	  .not_configuration = true,
	  .help = "Keep this run's document in the result store (--store, BENCHCORE_STORE, or ~/.local/share/benchcore/results.db)" },
	{ .name = "store", .arg = "PATH", .type = BC_COPT_FILE, BC_REQ(store_path),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "The result store for --save and --against: a file, or a PostgreSQL server (postgresql://..., service=NAME)" },
	{ .name = "label", .arg = "TEXT", .type = BC_COPT_TEXT, BC_REQ(label),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "Name the saved entry (\"baseline\", \"patch-v2\"); in a sweep, its rows' names" },
	{ .name = "against", .arg = "LABEL", .type = BC_COPT_TEXT, BC_REQ(against),
	  .set_field = BC_NO_FIELD, .not_configuration = true,
	  .help = "After the run, one line on stderr: the change of the headline metric against the newest saved entry of this label (\"latest\": the newest of this benchmark, options and machine), its 95% interval, p-value and verdict" },
	{ .name = "metric", .arg = "NAME", .type = BC_COPT_TEXT, BC_REQ(metric),
	  .set_field = BC_NO_FIELD, .not_configuration = true, .abi_minor = 3,
	  .help = "The figure --against judges (a metric or a derived figure of the benchmark; default: its headline)" },
	{ .name = "version", .type = BC_COPT_ACTION, .field = BC_NO_FIELD, .set_field = BC_NO_FIELD,
	  .help = "Print the benchcore, ABI and libbpf versions" },
	{ .name = "help", .key = '?', .type = BC_COPT_ACTION, .field = BC_NO_FIELD,
	  .set_field = BC_NO_FIELD, .help_last = true,
	  .help = "Give this help list (with the benchmark's plugin options)" },
	{ .name = "usage", .type = BC_COPT_ACTION, .field = BC_NO_FIELD, .set_field = BC_NO_FIELD,
	  .help_last = true, .help = "Give a short usage message" },
	{ 0 },
};

#define BC_CORE_OPT_CNT (sizeof(bc_core_opts) / sizeof(bc_core_opts[0]) - 1)

/* Words a batch takes before a run sees the line (batch.c): a plugin option
 * of the same name would never reach the plugin. */
static const char *const bc_batch_names[] = { "sweep", "label", "run-timeout", "plugin-dir" };

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

static const char *const bc_format_names[] = {
	[BC_FORMAT_TEXT] = "text",
	[BC_FORMAT_JSON] = "json",
	[BC_FORMAT_CSV] = "csv",
	[BC_FORMAT_MARKDOWN] = "markdown",
};

int bc_format_parse(const char *text, unsigned int allowed, enum bc_format *out)
{
	for (size_t i = 0; i < sizeof(bc_format_names) / sizeof(bc_format_names[0]); i++) {
		bool named = !strcmp(text, bc_format_names[i]) ||
			     (i == BC_FORMAT_MARKDOWN && !strcmp(text, "md"));

		if (named && (allowed & (1u << i))) {
			*out = (enum bc_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* "text or json", "text, json, csv or markdown" */
static void bc_format_expected(unsigned int allowed, char *buf, size_t len)
{
	size_t n = 0, cnt = 0, seen = 0;

	for (size_t i = 0; i < sizeof(bc_format_names) / sizeof(bc_format_names[0]); i++)
		cnt += !!(allowed & (1u << i));
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bc_format_names) / sizeof(bc_format_names[0]); i++) {
		if (!(allowed & (1u << i)))
			continue;
		seen++;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      seen == 1 ? "" : seen == cnt ? " or " : ", ",
				      bc_format_names[i]);
		if (n >= len)
			return;
	}
}

static int bc_format_value(const char *opt, const char *text, unsigned int allowed,
			   enum bc_format *out, char *err, size_t err_len)
{
	char expected[64];

	if (!bc_format_parse(text, allowed, out))
		return 0;
	bc_format_expected(allowed, expected, sizeof(expected));
	bc_set_err(err, err_len, "%s '%s': expected %s", opt, text, expected);
	return -EINVAL;
}

int bc_parse_format(const char *opt, const char *text, unsigned int allowed, enum bc_format *out)
{
	char err[256];

	if (bc_format_value(opt, text, allowed, out, err, sizeof(err))) {
		bc_warn("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------ the table */

const struct bc_core_opt *bc_core_opt_find(const char *name)
{
	size_t len = strlen(name);

	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++) {
		if (len == 1 ? o->key == (unsigned char)name[0] : !strcmp(o->name, name))
			return o;
	}
	return NULL;
}

/* A long name given as the first len bytes of name ("duration=5"). */
static const struct bc_core_opt *bc_core_opt_find_long(const char *name, size_t len)
{
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

int bc_core_opt_key(const struct bc_core_opt *o)
{
	/* argp wants a unique number for options without a letter. */
	return o->key ? o->key : 0x100 + (int)(o - bc_core_opts);
}

const struct bc_core_opt *bc_core_opt_by_key(int key)
{
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++)
		if (bc_core_opt_key(o) == key)
			return o;
	return NULL;
}

const char *bc_core_opt_refuses(const char *name, unsigned int abi_minor, unsigned int *since)
{
	const struct bc_core_opt *o;

	*since = 0;
	for (size_t i = 0; i < sizeof(bc_batch_names) / sizeof(bc_batch_names[0]); i++)
		if (!strcmp(name, bc_batch_names[i]))
			return bc_batch_names[i];
	o = bc_core_opt_find_long(name, strlen(name));
	if (!o)
		return NULL;
	*since = o->abi_minor;
	return o->abi_minor <= abi_minor ? o->name : NULL;
}

struct argp_option *bc_core_opts_argp_without(bool (*shadowed)(const char *name, void *cookie),
					      void *cookie)
{
	const struct argp_option *all = bc_core_opts_argp();
	struct argp_option *opts = calloc(BC_CORE_OPT_CNT + 1, sizeof(*opts));
	size_t k = 0;

	if (!opts)
		return NULL;
	for (size_t i = 0; i < BC_CORE_OPT_CNT; i++) {
		if (shadowed && shadowed(all[i].name, cookie)) {
			/* A letter stays the core's: plugin options have none. */
			if (!bc_core_opts[i].key)
				continue;
			opts[k] = all[i];
			opts[k++].name = NULL;
			continue;
		}
		opts[k++] = all[i];
	}
	return opts;
}

/* Stores arg into the struct at base (a configuration or a request, as
 * o->in_request says). */
/* 1 + the offset of s's first control character (C0 or DEL), 0 when it
 * has none. */
static size_t bc_has_control(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return (size_t)(p - s) + 1;
	return 0;
}

static int bc_core_opt_store(const struct bc_core_opt *o, const char *arg, char *base, char *err,
			     size_t err_len)
{
	char opt[64], why[256];
	void *field = o->field == BC_NO_FIELD ? NULL : base + o->field;
	int ret = 0;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case BC_COPT_FLAG:
		*(bool *)field = true;
		break;
	case BC_COPT_SECONDS:
	case BC_COPT_SECONDS_OR_ZERO:
		ret = bc_seconds_value(opt, arg, o->type == BC_COPT_SECONDS_OR_ZERO, field, err,
				       err_len);
		break;
	case BC_COPT_UINT:
		ret = bc_uint_value(opt, arg, o->min, o->max, o->what, field, err, err_len);
		break;
	case BC_COPT_PCT:
		ret = bc_pct_value(opt, arg, field, err, err_len);
		break;
	case BC_COPT_CPUSET:
		if (bc_cpuset_parse(arg, field, why, sizeof(why))) {
			bc_set_err(err, err_len, "%s %s", opt, why);
			ret = -EINVAL;
		}
		break;
	case BC_COPT_FORMAT:
		ret = bc_format_value(opt, arg, BC_FORMATS_RUN, field, err, err_len);
		break;
	case BC_COPT_FILE:
		if (!*arg) {
			bc_set_err(err, err_len, "%s '': expected a file name", opt);
			ret = -EINVAL;
		}
		*(const char **)field = arg;
		break;
	case BC_COPT_TEXT:
		/* It names an entry that terminals, tables and pages show: no
		 * line break, no escape sequence, no control character. */
		if (!*arg || bc_has_control(arg)) {
			if (*arg)
				bc_set_err(err, err_len,
					   "%s: the value holds a control character (byte 0x%02x at %zu); expected some text on one line without control characters",
					   opt, (unsigned char)arg[bc_has_control(arg) - 1],
					   bc_has_control(arg) - 1);
			else
				bc_set_err(err, err_len, "%s '': expected some text on one line", opt);
			ret = -EINVAL;
		}
		*(const char **)field = arg;
		break;
	case BC_COPT_VERBOSE:
		*(int *)field = *(int *)field < 0 ? 1 : *(int *)field + 1;
		break;
	case BC_COPT_QUIET:
		*(int *)field = -1;
		break;
	case BC_COPT_ACTION:
		break;
	}
	if (!ret && o->set_field != BC_NO_FIELD)
		*(bool *)(base + o->set_field) = true;
	return ret;
}

int bc_core_opt_set(const struct bc_core_opt *o, const char *arg, struct bc_run_request *req,
		    char *err, size_t err_len)
{
	return bc_core_opt_store(o, arg, o->in_request ? (char *)req : (char *)&req->cfg, err,
				 err_len);
}

const struct argp_option *bc_core_opts_argp(void)
{
	static struct argp_option opts[BC_CORE_OPT_CNT + 1];

	if (opts[0].name)
		return opts;
	for (size_t i = 0; i < BC_CORE_OPT_CNT; i++) {
		const struct bc_core_opt *o = &bc_core_opts[i];

		opts[i] = (struct argp_option){
			.name = o->name,
			.key = bc_core_opt_key(o),
			.arg = o->arg,
			.doc = o->help,
			.group = o->help_last ? -1 : 0,
		};
	}
	return opts;
}

void bc_config_init(struct bc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	/* The defaults are written as a user would type them, so they go
	 * through the same checks as a typed value. */
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++) {
		if (o->in_request)
			continue;
		if (o->def && bc_core_opt_store(o, o->def, (char *)cfg, NULL, 0))
			bc_warn("core option --%s: its default '%s' is refused", o->name, o->def);
		if (o->def && o->set_field != BC_NO_FIELD)
			*(bool *)((char *)cfg + o->set_field) = false;
	}
}

void bc_run_request_init(struct bc_run_request *req)
{
	memset(req, 0, sizeof(*req));
	bc_config_init(&req->cfg);
}

void bc_core_opts_json(struct bc_json_writer *w, const struct bc_config *cfg)
{
	char buf[4096];

	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++) {
		const void *field = (const char *)cfg + o->field;
		bool set;

		if (!o->json_key || o->in_request)
			continue;
		set = o->set_field == BC_NO_FIELD || *(const bool *)((const char *)cfg + o->set_field);
		switch (o->type) {
		case BC_COPT_FLAG:
			bc_jw_bool(w, o->json_key, *(const bool *)field);
			break;
		case BC_COPT_SECONDS:
		case BC_COPT_SECONDS_OR_ZERO:
		case BC_COPT_PCT:
			bc_jw_num(w, o->json_key, *(const double *)field);
			break;
		case BC_COPT_UINT:
			bc_jw_uint(w, o->json_key, *(const unsigned int *)field);
			break;
		case BC_COPT_CPUSET:
			if (!set) {
				bc_jw_null(w, o->json_key);
				break;
			}
			bc_cpuset_format(field, buf, sizeof(buf));
			bc_jw_str(w, o->json_key, buf);
			break;
		default:
			/* the table gives these no JSON key */
			break;
		}
	}
}

bool bc_core_opt_json_ignored(const char *key)
{
	for (const struct bc_core_opt *o = bc_core_opts; o->name; o++) {
		if (!o->not_configuration)
			continue;
		/* Older documents wrote some options under their long name. */
		if ((o->json_key && !strcmp(key, o->json_key)) || !strcmp(key, o->name))
			return true;
	}
	return false;
}

/* ---------------------------------------------- a run line's words */

/*
 * What one word of a `run` line is, as far as the core options can tell:
 * *takes_next when it is a core option whose value is the next word ("-d",
 * "-vd", "--duration"), and -v/-q/--help noted in scan.
 */
static void bc_scan_note(const struct bc_core_opt *o, struct bc_run_scan *scan)
{
	if (!scan)
		return;
	if (o->type == BC_COPT_ACTION)
		scan->help = true;
	if (o->type == BC_COPT_VERBOSE)
		scan->verbosity = scan->verbosity < 0 ? 1 : scan->verbosity + 1;
	if (o->type == BC_COPT_QUIET)
		scan->verbosity = -1;
}

static void bc_scan_option(const char *a, bool *takes_next, struct bc_run_scan *scan)
{
	const struct bc_core_opt *o;
	const char *eq, *c;

	*takes_next = false;
	if (a[1] == '-') {
		eq = strchr(a, '=');
		o = bc_core_opt_find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!o)
			return;	/* a plugin's option: its value cannot be told yet */
		bc_scan_note(o, scan);
		*takes_next = o->arg && !eq;
		return;
	}
	for (c = a + 1; *c; c++) {
		char letter[2] = { *c, '\0' };

		o = bc_core_opt_find(letter);
		if (!o)
			return;
		bc_scan_note(o, scan);
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

/* A value word of a line: --format and --output are a batch's own (and
 * the actions are answered by the run), so only the rest is applied. */
static int bc_words_value(const struct bc_core_opt *o, const char *v, struct bc_run_request *req,
			  char *err, size_t err_len)
{
	if (o->type == BC_COPT_FORMAT || o->type == BC_COPT_FILE || o->type == BC_COPT_ACTION ||
	    o->type == BC_COPT_TEXT)
		return 0;
	return bc_core_opt_set(o, v, req, err, err_len);
}

int bc_core_words_apply(char *const *words, size_t cnt, struct bc_run_request *req, char *err,
			size_t err_len)
{
	const struct bc_core_opt *o;
	const char *a, *eq, *c;

	for (size_t i = 0; i < cnt; i++) {
		a = words[i];
		if (!strcmp(a, "--"))
			return 0;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			eq = strchr(a, '=');
			o = bc_core_opt_find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (!o)
				continue;
			if (!o->arg) {
				if (bc_words_value(o, NULL, req, err, err_len))
					return -EINVAL;
				continue;
			}
			if (!eq && i + 1 >= cnt) {
				bc_set_err(err, err_len, "%s: expected a value after it", a);
				return -EINVAL;
			}
			if (bc_words_value(o, eq ? eq + 1 : words[++i], req, err, err_len))
				return -EINVAL;
			continue;
		}
		for (c = a + 1; *c; c++) {
			char letter[2] = { *c, '\0' };

			o = bc_core_opt_find(letter);
			if (!o)
				break;	/* a plugin's short option: its own rules */
			if (!o->arg) {
				if (bc_words_value(o, NULL, req, err, err_len))
					return -EINVAL;
				continue;
			}
			if (!c[1] && i + 1 >= cnt) {
				bc_set_err(err, err_len, "-%c: expected a value after it", *c);
				return -EINVAL;
			}
			if (bc_words_value(o, c[1] ? c + 1 : words[++i], req, err, err_len))
				return -EINVAL;
			break;
		}
	}
	return 0;
}

int bc_run_check_core_words(char *const *words, size_t cnt, char *err, size_t err_len)
{
	/* two CPU sets of BC_MAX_CPUS: not on the stack */
	struct bc_run_request *scratch = malloc(sizeof(*scratch));
	int ret;

	if (!scratch) {
		bc_set_err(err, err_len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	bc_run_request_init(scratch);
	ret = bc_core_words_apply(words, cnt, scratch, err, err_len);
	free(scratch);
	return ret;
}
