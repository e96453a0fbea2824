// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A batch of child runs, one table row each: what a sweep's combinations
 * and a suite's lines become.
 *
 * Every row runs in its own child process (the benchcore binary itself,
 * with --format json): a benchmark that crashes, hangs or refuses its
 * options costs its own row, never the rest of the table, and leaves
 * nothing loaded in the parent. This file plans the rows, runs them through
 * child.c and reads each child's JSON document into its row;
 * report_table.c renders the rows the way the kernel's run_bench_*.sh
 * scripts print them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "runtime/loader.h"
#include "cli_env.h"
#include "runtime/core_opts.h"
#include "runtime/log.h"
#include "results/report_table.h"
#include "cli_args.h"
#include "sweep_axis.h"
#include "child.h"
#include "results/run_doc.h"
#include "results/words.h"
#include "runtime/exit_status.h"
#include "results/row.h"
#include "runtime/json.h"
#include "runtime/repstats.h"
#include "options.h"
#include "cmd_store.h"
#include "runtime/output.h"
#include "results/store_doc.h"
#include "results/store_name.h"

/* Setup, teardown and process start on top of warm-up + duration. */
#define BC_BATCH_TIMEOUT_MARGIN_SEC 20.0
/* Rows of one command (docs/suites.md): each is a process of at least a
 * second, so more is hours of runs and a plan that outgrows memory. */
#define BC_BATCH_MAX_ROWS 10000
#define BC_BATCH_NAME_WIDTH 20

struct bc_batch *bc_batch_new(const struct bc_batch_opts *opts)
{
	struct bc_batch *b = calloc(1, sizeof(*b));
	ssize_t n;

	if (!b)
		return NULL;
	b->opts = *opts;
	if (!b->opts.out)
		b->opts.out = bc_stdout();
	b->name_width = BC_BATCH_NAME_WIDTH;
	/* The child is this very binary, whatever name it was started by. */
	n = readlink("/proc/self/exe", b->exe, sizeof(b->exe) - 1);
	if (n <= 0) {
		free(b);
		return NULL;
	}
	b->exe[n] = '\0';
	return b;
}

static void bc_row_free(struct bc_row *r)
{
	free(r->section);
	free(r->label);
	bc_strv_free(&r->args);
	bc_strv_free(&r->combo_args);
	bc_strv_free(&r->opt_names);
	bc_strv_free(&r->opt_values);
	bc_strv_free(&r->opt_json);
	free(r->reason);
	free(r->json);
	free(r->bench);
	bc_doc_run_free(r->run);
}

void bc_batch_free(struct bc_batch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->row_cnt; i++)
		bc_row_free(&b->rows[i]);
	free(b->rows);
	bc_strv_free(&b->sweep_specs);
	free(b);
}

static struct bc_row *bc_batch_new_row(struct bc_batch *b)
{
	if (b->row_cnt == b->row_cap) {
		size_t cap = b->row_cap ? b->row_cap * 2 : 16;
		struct bc_row *rows = realloc(b->rows, cap * sizeof(*rows));

		if (!rows)
			return NULL;
		b->rows = rows;
		b->row_cap = cap;
	}
	memset(&b->rows[b->row_cnt], 0, sizeof(b->rows[0]));
	return &b->rows[b->row_cnt++];
}

/* Options the parent owns: the child must write JSON to its stdout. */
static bool bc_is_output_opt(const char *arg, bool *takes_value)
{
	static const char *const names[] = { "--format", "--output" };

	for (size_t i = 0; i < 2; i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(arg, names[i], len) && (arg[len] == '\0' || arg[len] == '=')) {
			*takes_value = arg[len] == '\0';
			return true;
		}
	}
	return false;
}

/* Where the benchmark name is among a run's words: the first one that looks
 * like PLUGIN:BENCH, else the first that is neither an option nor the value
 * of a core option given as a separate word. */
int bc_batch_find_bench(char *const *args, size_t cnt)
{
	/* Words the batch itself takes, with their values. */
	static const char *const batch_with_value[] = { "--plugin-dir", "--sweep", "--label" };
	int first = -1;

	for (size_t i = 0; i < cnt; i++) {
		bool is_value = i && bc_run_opt_takes_next(args[i - 1]);

		if (args[i][0] == '-')
			continue;
		for (size_t j = 0; i && j < sizeof(batch_with_value) / sizeof(batch_with_value[0]); j++)
			is_value |= !strcmp(args[i - 1], batch_with_value[j]);
		if (is_value)
			continue;
		if (strchr(args[i], ':'))
			return (int)i;
		if (first < 0)
			first = (int)i;
	}
	return first;
}

/* The benchmark a sweep line names, so that its values can be typed; NULL
 * when the parent cannot resolve it (then each row's run says why). */
static const struct bc_bench *bc_batch_bench(struct bc_batch *b, const char *word)
{
	const struct bc_bench *bench = NULL;
	char err[BC_REASON_LEN];

	if (!b->opts.env || bc_cli_load_plugins(b->opts.env))
		return NULL;
	if (bc_bench_resolve(&b->opts.env->plugins, word, &bench, err, sizeof(err)))
		return NULL;
	return bench;
}

/* "{name}" in a label template becomes that option's value. */
static char *bc_expand_label(const char *tmpl, const struct bc_strv *names, const struct bc_strv *values)
{
	size_t cap = strlen(tmpl) + 1, n = 0;
	char *out;

	for (size_t i = 0; i < values->cnt; i++)
		cap += strlen(values->v[i]) * 4;
	out = malloc(cap);
	if (!out)
		return NULL;
	for (const char *p = tmpl; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		bool done = false;

		for (size_t i = 0; close && i < names->cnt; i++) {
			size_t len = strlen(names->v[i]);

			if ((size_t)(close - p - 1) == len && !strncmp(p + 1, names->v[i], len) &&
			    n + strlen(values->v[i]) < cap) {
				n += (size_t)sprintf(out + n, "%s", values->v[i]);
				p = close + 1;
				done = true;
				break;
			}
		}
		if (!done && n + 1 < cap)
			out[n++] = *p++;
		else if (!done)
			p++;
	}
	out[n] = '\0';
	return out;
}

static char *bc_default_label(const char *kind, const char *bench, const struct bc_strv *names,
			   const struct bc_strv *values)
{
	size_t len = strlen(bench) + 2;
	bool is_sweep = !strcmp(kind, "sweep");
	char *out;

	for (size_t i = 0; i < names->cnt; i++)
		len += strlen(names->v[i]) + strlen(values->v[i]) + 2;
	out = malloc(len);
	if (!out)
		return NULL;
	/* A sweep's rows all share the benchmark, named in its title; a
	 * suite's rows are named like the kernel's tables: "rb-libbpf". */
	if (!is_sweep && strchr(bench, ':'))
		bench = strchr(bench, ':') + 1;
	strcpy(out, is_sweep && names->cnt ? "" : bench);
	for (size_t i = 0; i < names->cnt; i++) {
		if (*out)
			strcat(out, " ");
		strcat(out, names->v[i]);
		strcat(out, "=");
		strcat(out, values->v[i]);
	}
	return out;
}

/* One option, however it is spelled: "p" and "producers" are one. */
static bool bc_same_option(const char *a, const char *b)
{
	const struct bc_core_opt *ca = bc_core_opt_find(a), *cb = bc_core_opt_find(b);

	if (ca || cb)
		return ca == cb;
	return !strcmp(a, b);
}

/* An option swept twice would run with the last value while its rows are
 * labelled with both: a usage error. */
static int bc_check_swept_once(const struct bc_sweep_axis *axes, char *const *specs, size_t cnt,
			    char *err, size_t err_len)
{
	for (size_t i = 0; i < cnt; i++)
		for (size_t n = 0; n < axes[i].name_cnt; n++)
			for (size_t j = i; j < cnt; j++)
				for (size_t m = j == i ? n + 1 : 0; m < axes[j].name_cnt; m++) {
					if (!bc_same_option(axes[i].names[n], axes[j].names[m]))
						continue;
					if (i == j)
						bc_set_err(err, err_len,
							   "--sweep '%s': option '%s' is named twice",
							   specs[i], axes[i].names[n]);
					else
						bc_set_err(err, err_len,
							   "--sweep: option '%s' is swept twice ('%s' and '%s'); give it one --sweep with every value",
							   axes[i].names[n], specs[i], specs[j]);
					return -EINVAL;
				}
	return 0;
}

/* Refuses a plan above BC_BATCH_MAX_ROWS before a row is made. */
static int bc_check_row_count(const struct bc_batch *b, const struct bc_sweep_axis *axes,
			   size_t cnt, char *err, size_t err_len)
{
	size_t total = 1, off = 0;
	char sizes[128] = "";
	bool over = false;

	for (size_t i = 0; i < cnt; i++) {
		if (off < sizeof(sizes))
			off += (size_t)snprintf(sizes + off, sizeof(sizes) - off, "%s%zu",
						i ? " x " : "", axes[i].value_cnt);
		if (axes[i].value_cnt && total > (BC_BATCH_MAX_ROWS - b->row_cnt) / axes[i].value_cnt)
			over = true;
		else
			total *= axes[i].value_cnt;
	}
	if (!over && b->row_cnt + total <= BC_BATCH_MAX_ROWS)
		return 0;
	if (over || !b->row_cnt)
		bc_set_err(err, err_len,
			   "--sweep: %s values make more than %d runs; at most %d runs in one command (docs/suites.md)",
			   sizes, BC_BATCH_MAX_ROWS, BC_BATCH_MAX_ROWS);
	else
		bc_set_err(err, err_len,
			   "%zu runs in all; at most %d runs in one command (docs/suites.md)",
			   b->row_cnt + total, BC_BATCH_MAX_ROWS);
	return -E2BIG;
}

/* Does the word (an option as written: --name, --name=V, -k, -kV) name
 * option `name`? A short letter counts for the core option that has it. */
static bool bc_word_is_option(const char *word, const char *name)
{
	const struct bc_core_opt *o;
	size_t n = strlen(name);

	if (!strncmp(word, "--", 2))
		return !strncmp(word + 2, name, n) && (!word[2 + n] || word[2 + n] == '=');
	if (word[0] != '-' || !word[1])
		return false;
	o = bc_core_opt_find(name);
	return o && o->key && o->key == word[1];
}

/*
 * An option given to the suite command is added to every run after the
 * line's own, so that it wins (docs/suites.md). A row's swept value of the
 * same option would then be a value the row does not run with, labelled
 * as if it did; so one option cannot be both: one line, before anything
 * runs.
 */
static int bc_check_not_given(const struct bc_batch *b, const struct bc_sweep_axis *axes,
			      size_t axis_cnt, char *err, size_t err_len)
{
	for (size_t i = 0; i < axis_cnt; i++)
		for (size_t j = 0; j < axes[i].name_cnt; j++)
			for (size_t k = 0; k < b->opts.extra_cnt; k++) {
				if (!bc_word_is_option(b->opts.extra_args[k], axes[i].names[j]))
					continue;
				bc_set_err(err, err_len,
					   "option '%s' given to the %s is swept on this line (--sweep %s); the %s's value would replace every row's, so give it on the line or drop it from the sweep",
					   b->opts.extra_args[k], b->opts.kind, axes[i].names[j],
					   b->opts.kind);
				return -EINVAL;
			}
	return 0;
}

/* Options a run of a batch cannot take from a sweep: the batch owns the
 * output and its own words, and --help & co. answer instead of running. */
static int bc_check_sweepable(const char *spec, const struct bc_sweep_axis *ax, char *err,
			      size_t err_len)
{
	static const char *const batch_own[] = { "sweep", "label", "run-timeout", "plugin-dir",
						 "save", "store", "against" };

	for (size_t n = 0; n < ax->name_cnt; n++) {
		const struct bc_core_opt *o = bc_core_opt_find(ax->names[n]);
		bool bad = o && (o->type == BC_COPT_ACTION || o->type == BC_COPT_FORMAT ||
				 o->type == BC_COPT_FILE);

		for (size_t i = 0; i < sizeof(batch_own) / sizeof(batch_own[0]); i++)
			bad |= !strcmp(ax->names[n], batch_own[i]);
		if (bad) {
			bc_set_err(err, err_len,
				   "--sweep '%s': option '%s' cannot be swept; expected an option of the run (--format, --output, --help, --usage, --version and the batch's own options cannot)",
				   spec, ax->names[n]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The processes a run with this configuration makes: --repeat's runs, or
 * --precision's cap. */
static unsigned int bc_cfg_runs(const struct bc_run_request *cfg)
{
	unsigned int runs = cfg->repeat ? cfg->repeat : 1;

	if (cfg->precision_pct > 0) {
		unsigned int cap = cfg->max_repeat ? cfg->max_repeat : BC_REP_DEFAULT_MAX_REPEAT;

		runs = cap > runs ? cap : runs;
	}
	return runs;
}

static int bc_batch_child_argv(const struct bc_batch *b, const struct bc_row *r,
			       struct bc_strv *argv);
static char *bc_child_reason(const char *err);

/*
 * Parses a row's command line as its run will, in this process, before
 * any row runs: an unknown benchmark, an unknown option or a bad value on
 * the last line of a suite is one line now, not a failed row hours later.
 * What the parser says goes to a buffer, not to the user: the first line
 * of it is the reason. *runs gets the processes the row will make.
 */
static int bc_batch_check_row(struct bc_batch *b, const struct bc_row *r, unsigned int *runs,
			      char *err, size_t err_len)
{
	struct bc_cli_env *env = b->opts.env;
	size_t skip = 1 + 2 * (env ? env->plugin_dir_cnt : 0) + (env && env->allow_unsafe);
	int verbosity = bc_log_verbosity_get(), status;
	FILE *saved_out = stdout, *saved_err = stderr, *cap;
	const struct bc_bench *bench = NULL;
	struct bc_strv argv = {};
	struct bc_run_request *cfg;
	char *said = NULL, *why;
	size_t said_len = 0;

	*runs = 1;
	cfg = malloc(sizeof(*cfg));	/* 32 KiB of CPU sets */
	if (!cfg || bc_batch_child_argv(b, r, &argv)) {
		free(cfg);
		bc_strv_free(&argv);
		return -ENOMEM;
	}
	bc_run_request_init(cfg);
	if (!env) {
		/* no plugins to check against (a test's batch): the core words */
		bc_core_words_apply(argv.v + skip, argv.cnt - skip, cfg, NULL, 0);
		*runs = bc_cfg_runs(cfg);
		free(cfg);
		bc_strv_free(&argv);
		return 0;
	}
	/* Load failures are said once, as a run would, not swallowed below. */
	bc_cli_load_plugins(env);
	cap = open_memstream(&said, &said_len);
	if (!cap) {
		free(cfg);
		bc_strv_free(&argv);
		return -ENOMEM;
	}
	stdout = cap;
	stderr = cap;
	bc_log_set_file(cap);
	status = bc_options_parse_run(env, (int)(argv.cnt - skip), argv.v + skip, cfg, &bench);
	bc_log_set_file(NULL);
	stdout = saved_out;
	stderr = saved_err;
	bc_log_set_verbosity(verbosity);
	fclose(cap);
	if (!status)
		*runs = bc_cfg_runs(cfg);
	bc_options_free(&cfg->cfg);
	free(cfg);
	bc_strv_free(&argv);
	if (status == BC_OPTIONS_DONE) {
		free(said);
		bc_set_err(err, err_len,
			   "--help, --usage and --version answer instead of running; a row of a %s cannot take them",
			   b->opts.kind);
		return -EINVAL;
	}
	if (!status) {
		free(said);
		return 0;
	}
	why = bc_child_reason(said);
	free(said);
	if (r->opt_names.cnt)
		bc_set_err(err, err_len, "row '%s': %s", r->label ? r->label : "",
			   why ? why : "its options were refused");
	else
		bc_set_err(err, err_len, "%s", why ? why : "its options were refused");
	free(why);
	return status == BC_EXIT_FAILED ? -ENOMEM : -EINVAL;
}

int bc_batch_add_run(struct bc_batch *b, const char *section, char **args, size_t arg_cnt,
		     char *err, size_t err_len)
{
	struct bc_sweep_axis *axes = NULL;
	struct bc_strv pass = {}, specs = {};
	size_t axis_cnt = 0, combos, *choice = NULL;
	const char *label_tmpl = NULL, *bench = NULL;
	const struct bc_bench *swept = NULL;
	int ret = 0, bench_idx = bc_batch_find_bench(args, arg_cnt);

	/* The benchmark goes first in the child's command line, so that
	 * suite-wide options can come between it and the line's own. */
	if (bench_idx >= 0) {
		bench = args[bench_idx];
		ret = bc_strv_push(&pass, bench);
	}
	for (size_t i = 0; i < arg_cnt && !ret; i++) {
		const char *a = args[i], *val = NULL;
		bool takes_value;

		if (!strcmp(a, "--sweep") || !strcmp(a, "--label")) {
			if (i + 1 >= arg_cnt) {
				bc_set_err(err, err_len, "%s: expected a value after it", a);
				ret = -EINVAL;
				break;
			}
			val = args[++i];
		} else if (!strncmp(a, "--sweep=", 8) || !strncmp(a, "--label=", 8)) {
			val = a + 8;
		} else if (bc_is_output_opt(a, &takes_value)) {
			/* The parent owns the output; the child writes JSON. */
			if (takes_value)
				i++;
			continue;
		} else {
			if ((int)i != bench_idx)
				ret = bc_strv_push(&pass, a);
			continue;
		}
		if (!strncmp(a, "--label", 7)) {
			label_tmpl = val;
			continue;
		}
		{
			struct bc_sweep_axis *na = realloc(axes, (axis_cnt + 1) * sizeof(*axes));

			if (!na) {
				ret = -ENOMEM;
				break;
			}
			axes = na;
			ret = bc_sweep_axis_parse(val, &axes[axis_cnt], err, err_len);
			if (!ret)
				axis_cnt++;
			if (!ret)
				ret = bc_check_sweepable(val, &axes[axis_cnt - 1], err, err_len);
			if (!ret)
				ret = bc_strv_push(&specs, val);
			if (!ret && !strcmp(b->opts.kind, "sweep"))
				ret = bc_strv_push(&b->sweep_specs, val);
		}
	}
	if (!ret && !bench) {
		bc_set_err(err, err_len, "run: expected a benchmark name (PLUGIN:BENCH) first");
		ret = -EINVAL;
	}
	/* A bad value fails every row the same way: once, up front. */
	if (!ret)
		ret = bc_run_check_core_words(pass.v, pass.cnt, err, err_len);
	if (!ret)
		ret = bc_check_not_given(b, axes, axis_cnt, err, err_len);
	if (!ret)
		ret = bc_check_swept_once(axes, specs.v, axis_cnt, err, err_len);
	if (!ret)
		ret = bc_check_row_count(b, axes, axis_cnt, err, err_len);
	if (!ret && axis_cnt)
		swept = bc_batch_bench(b, bench);
	combos = ret ? 0 : bc_sweep_combination_cnt(axes, axis_cnt);
	if (!ret) {
		choice = calloc(axis_cnt + 1, sizeof(*choice));
		if (!choice)
			ret = -ENOMEM;
	}
	for (size_t c = 0; !ret && c < combos; c++) {
		struct bc_row *r = bc_batch_new_row(b);
		int len;

		if (!r) {
			ret = -ENOMEM;
			break;
		}
		bc_sweep_combination(axes, axis_cnt, c, choice);
		for (size_t i = 0; !ret && i < pass.cnt; i++)
			ret = bc_strv_push(&r->args, pass.v[i]);
		for (size_t i = 0; !ret && i < axis_cnt; i++) {
			const char *value = axes[i].values[choice[i]];

			for (size_t j = 0; !ret && j < axes[i].name_cnt; j++) {
				char *arg;

				ret = bc_sweep_option_arg(swept, axes[i].names[j], value, &arg, err,
							  err_len);
				if (!ret && arg)
					ret = bc_run_check_core_words(&arg, 1, err, err_len);
				if (!ret && arg)
					ret = bc_strv_push_owned(&r->combo_args, arg);
				else
					free(arg);
				if (!ret)
					ret = bc_strv_push(&r->opt_names, axes[i].names[j]);
				if (!ret)
					ret = bc_strv_push(&r->opt_values, value);
				if (!ret) {
					char lit[64];

					if (bc_sweep_value_json(swept, axes[i].names[j], value, lit,
								sizeof(lit)))
						lit[0] = '\0';
					ret = bc_strv_push(&r->opt_json, lit);
				}
			}
		}
		if (!ret && section) {
			r->section = strdup(section);
			if (!r->section)
				ret = -ENOMEM;
		}
		if (!ret) {
			r->label_given = label_tmpl != NULL;
			r->label = label_tmpl ? bc_expand_label(label_tmpl, &r->opt_names, &r->opt_values)
					      : bc_default_label(b->opts.kind, bench, &r->opt_names,
							      &r->opt_values);
			if (!r->label)
				ret = -ENOMEM;
		}
		len = r->label ? (int)strlen(r->label) : 0;
		if (len >= b->name_width)
			b->name_width = len + 1;
		if (!ret) {
			unsigned int runs;

			ret = bc_batch_check_row(b, r, &runs, err, err_len);
			b->run_cnt += runs;
		}
		/* Processes, not rows: --repeat 1000 is a thousand runs. */
		if (!ret && b->run_cnt > BC_BATCH_MAX_ROWS) {
			bc_set_err(err, err_len,
				   "%zu runs or more in all (rows times --repeat, or --precision's --max-repeat); at most %d runs in one command (docs/suites.md)",
				   b->run_cnt, BC_BATCH_MAX_ROWS);
			ret = -E2BIG;
		}
	}
	for (size_t i = 0; i < axis_cnt; i++)
		bc_sweep_axis_free(&axes[i]);
	free(axes);
	free(choice);
	bc_strv_free(&pass);
	bc_strv_free(&specs);
	/* Every failure says why, out of memory included. */
	if (ret && err && err_len && !err[0])
		bc_set_err(err, err_len, "%s", strerror(ret < 0 ? -ret : ret));
	return ret;
}

/* A run's default timeout: its warm-up and duration and the margin, per
 * run it may make (--repeat, or --precision's cap), or --max-time and one
 * run's worth when that is less. The line's words were checked when it was
 * planned; the core options' defaults are the table's. */
static double bc_run_timeout_sec(char *const *args, size_t cnt)
{
	struct bc_run_request *cfg = malloc(sizeof(*cfg));	/* 32 KiB of CPU sets */
	double one, all, max_time;
	unsigned int runs;

	if (!cfg)
		return 0;	/* no bound rather than a wrong one */
	bc_run_request_init(cfg);
	bc_core_words_apply(args, cnt, cfg, NULL, 0);
	one = cfg->cfg.warmup_sec + cfg->cfg.duration_sec + BC_BATCH_TIMEOUT_MARGIN_SEC;
	runs = cfg->repeat ? cfg->repeat : 1;
	max_time = 0;
	if (cfg->precision_pct > 0) {
		unsigned int cap = cfg->max_repeat ? cfg->max_repeat : BC_REP_DEFAULT_MAX_REPEAT;

		runs = cap > runs ? cap : runs;
		max_time = cfg->max_time_sec;
	}
	free(cfg);
	all = one * runs;
	return max_time > 0 && max_time + one < all ? max_time + one : all;
}

/* The line of a run's stderr that says why it stopped: the last one the CLI
 * prefixed with "benchcore:" (or argp's "benchcore run:", which names an
 * unknown option), else the last non-empty one that is not argp's "Try
 * ..." advice. */
static char *bc_child_reason(const char *err)
{
	const char *best = NULL, *last = NULL, *p = err;
	size_t best_len = 0, last_len = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len && !(len == 1 && p[0] == '\r') && strncmp(p, "Try ", 4)) {
			last = p;
			last_len = len;
			if (!strncmp(p, "benchcore:", 10) || !strncmp(p, "benchcore run:", 14)) {
				best = p;
				best_len = len;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!best) {
		best = last;
		best_len = last_len;
	}
	if (!best)
		return strdup("no reason given");
	if (!strncmp(best, "benchcore: ", 11)) {
		best += 11;
		best_len -= 11;
	} else if (!strncmp(best, "benchcore run: ", 15)) {
		best += 15;
		best_len -= 15;
	}
	while (best_len && (best[best_len - 1] == '\r' || best[best_len - 1] == ' '))
		best_len--;
	return strndup(best, best_len);
}

/* status.reason of a run document, or NULL. */
static char *bc_doc_reason(const char *out, size_t len)
{
	struct bc_doc_run *run;
	char err[128];
	char *ret = NULL;

	if (!out || !len)
		return NULL;
	run = bc_doc_run_parse(out, len, err, sizeof(err));
	if (run && run->reason && *run->reason)
		ret = strdup(run->reason);
	bc_doc_run_free(run);
	return ret;
}

/* "trigger:trig-fentry: unavailable ..." in a row that names the benchmark
 * already: the row says it once. */
static void bc_strip_bench_prefix(struct bc_row *r)
{
	const char *bench = r->args.cnt ? r->args.v[0] : NULL;
	const char *bare = bench && strchr(bench, ':') ? strchr(bench, ':') + 1 : bench;
	const char *names[] = { bench, bare };

	for (size_t i = 0; r->reason && bench && i < 2; i++) {
		size_t len = strlen(names[i]);

		if (!strncmp(r->reason, names[i], len) && !strncmp(r->reason + len, ": ", 2)) {
			memmove(r->reason, r->reason + len + 2, strlen(r->reason + len + 2) + 1);
			return;
		}
	}
}

static void bc_row_classify(struct bc_batch *b, struct bc_row *r, struct bc_child_result *cr)
{
	char perr[256] = "";
	int n = 0;

	r->elapsed_sec = cr->elapsed_sec;
	r->exit_code = cr->exited ? cr->exit_code : -1;
	if (cr->interrupted) {
		r->status = BC_ROW_INTERRUPTED;
		r->reason = strdup("interrupted by Ctrl-C");
		/* the runner reports what it measured before it stopped */
		if (cr->out_len) {
			r->json = cr->out;
			cr->out = NULL;
			if (bc_batch_row_read(r, perr, sizeof(perr))) {
				free(r->json);
				r->json = NULL;
			}
		}
	} else if (cr->timed_out) {
		r->status = BC_ROW_TIMEOUT;
		n = asprintf(&r->reason, "timed out after %.0f s, killed (--run-timeout SEC)",
			     r->timeout_sec);
	} else if (!cr->exited) {
		r->status = BC_ROW_CRASHED;
		n = asprintf(&r->reason, "killed by signal %d (%s)", cr->term_signal,
			     strsignal(cr->term_signal));
	} else if (cr->exit_code == BC_EXIT_OK) {
		r->json = cr->out;
		cr->out = NULL;
		if (bc_batch_row_read(r, perr, sizeof(perr))) {
			r->status = BC_ROW_FAILED;
			n = asprintf(&r->reason, "its output is not a benchcore run document: %s",
				     perr);
		} else {
			r->status = BC_ROW_OK;
		}
	} else {
		r->status = cr->exit_code == BC_EXIT_UNAVAILABLE ? BC_ROW_UNAVAILABLE
			    : cr->exit_code == BC_EXIT_USAGE     ? BC_ROW_INVALID
			    : cr->exit_code == BC_EXIT_INTERRUPTED ? BC_ROW_INTERRUPTED
								   : BC_ROW_FAILED;
		/* The run's document, written for failed runs too, says why
		 * in status.reason; an older core only said it on stderr. */
		r->reason = bc_doc_reason(cr->out, cr->out_len);
		if (r->reason) {
			r->json = cr->out;
			cr->out = NULL;
		} else {
			r->reason = bc_child_reason(cr->err);
			bc_strip_bench_prefix(r);
		}
		/* the row's status already says "unavailable:" */
		if (r->status == BC_ROW_UNAVAILABLE && r->reason &&
		    !strncmp(r->reason, "unavailable on this kernel: ", 28))
			memmove(r->reason, r->reason + 28, strlen(r->reason + 28) + 1);
		/* A run stopped half-way still wrote what it measured. */
		if (cr->out_len && cr->exit_code == BC_EXIT_INTERRUPTED && !r->json) {
			r->json = cr->out;
			cr->out = NULL;
		}
		if (r->json && cr->exit_code == BC_EXIT_INTERRUPTED)
			bc_batch_row_read(r, perr, sizeof(perr));
	}
	if (n < 0)
		r->reason = NULL;
	(void)b;
}

/* ------------------------------------------------------------ execution */

bool bc_batch_produced(const struct bc_batch *b)
{
	for (size_t i = 0; b && i < b->row_cnt; i++)
		if (b->rows[i].status == BC_ROW_OK || (b->rows[i].json && b->rows[i].measured))
			return true;
	return false;
}

static int bc_batch_status(const struct bc_batch *b)
{
	size_t ok = 0, unavailable = 0, invalid = 0, bad = 0;

	for (size_t i = 0; i < b->row_cnt; i++) {
		switch (b->rows[i].status) {
		case BC_ROW_INTERRUPTED:
		case BC_ROW_PLANNED:
			return BC_EXIT_INTERRUPTED;
		case BC_ROW_OK:
			ok++;
			break;
		case BC_ROW_UNAVAILABLE:
			unavailable++;
			break;
		case BC_ROW_INVALID:
			invalid++;
			break;
		default:
			bad++;
			break;
		}
	}
	/* One kind of outcome for every row: the status a single run of it
	 * would have had; a mix with failures: failed. Unavailable rows
	 * beside ones that ran are expected (a suite on a limited kernel). */
	if (!b->row_cnt || ok + unavailable == b->row_cnt)
		return ok || !b->row_cnt ? BC_EXIT_OK : BC_EXIT_UNAVAILABLE;
	if (invalid == b->row_cnt)
		return BC_EXIT_USAGE;
	return BC_EXIT_FAILED;
}

static int bc_batch_child_argv(const struct bc_batch *b, const struct bc_row *r, struct bc_strv *argv)
{
	int ret = bc_strv_push(argv, b->exe);
	const struct bc_cli_env *env = b->opts.env;

	for (size_t i = 0; !ret && env && i < env->plugin_dir_cnt; i++) {
		ret = bc_strv_push(argv, "--plugin-dir");
		if (!ret)
			ret = bc_strv_push(argv, env->plugin_dirs[i]);
	}
	if (!ret && env && env->allow_unsafe)
		ret = bc_strv_push(argv, "--allow-unsafe-plugins");
	if (!ret)
		ret = bc_strv_push(argv, "run");
	/* The benchmark and the line's options, the combination, then the
	 * ones given to the suite command: the CLI lets a later option win,
	 * so the user overrides a suite's line (an option the line sweeps is
	 * refused when the rows are planned, bc_check_not_given()). */
	for (size_t i = 0; !ret && i < r->args.cnt; i++)
		ret = bc_strv_push(argv, r->args.v[i]);
	for (size_t i = 0; !ret && i < r->combo_args.cnt; i++)
		ret = bc_strv_push(argv, r->combo_args.v[i]);
	for (size_t i = 0; !ret && i < b->opts.extra_cnt; i++)
		ret = bc_strv_push(argv, b->opts.extra_args[i]);
	if (!ret && env && env->verbosity > 0)
		ret = bc_strv_push(argv, "-v");
	if (!ret)
		ret = bc_strv_push(argv, "--format");
	if (!ret)
		ret = bc_strv_push(argv, "json");
	return ret;
}

/* --save: every row that ended well, in one transaction, each labelled
 * by the row's --label (none without one: a generated row name is not a
 * name the user chose). */
static int bc_batch_save(struct bc_batch *b)
{
	struct bc_store_item *items = calloc(b->row_cnt + 1, sizeof(*items));
	size_t cnt = 0, added = 0, dups = 0;
	char path[PATH_MAX], err[1024] = "";
	int ret;

	if (!items) {
		bc_warn("--save: out of memory; nothing was saved");
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->row_cnt; i++) {
		const struct bc_row *r = &b->rows[i];

		if (r->status != BC_ROW_OK || !r->json)
			continue;
		items[cnt++] = (struct bc_store_item){ .text = r->json, .len = strlen(r->json),
						       .label = r->label_given ? r->label : NULL };
	}
	ret = cnt ? bc_store_path(b->opts.store_path, path, sizeof(path), err, sizeof(err)) : 0;
	if (!ret && cnt)
		ret = bc_store_save_items(path, items, cnt, &added, &dups, err, sizeof(err));
	free(items);
	if (ret)
		bc_warn("--save: %s", err);
	else if (!cnt)
		bc_warn("--save: no %s row ended well; nothing was saved", b->opts.kind);
	else
		bc_debug("--save: %zu entries saved, %zu were there already", added, dups);
	return ret;
}

int bc_batch_execute(struct bc_batch *b)
{
	bool progress = !b->opts.quiet && isatty(STDERR_FILENO) &&
			(b->opts.format != BC_FORMAT_TEXT || !isatty(fileno(b->opts.out)));
	int ret = 0;

	bc_child_catch_stop();
	if (b->opts.format == BC_FORMAT_CSV)
		bc_batch_csv_header(b->opts.out);

	for (size_t i = 0; i < b->row_cnt && !bc_child_stopped(); i++) {
		struct bc_row *r = &b->rows[i];
		struct bc_child_result cr;
		struct bc_strv argv = {};

		ret = bc_batch_child_argv(b, r, &argv);
		if (ret)
			break;
		r->timeout_sec = b->opts.timeout_sec > 0 ? b->opts.timeout_sec
							 : bc_run_timeout_sec(argv.v, argv.cnt);
		if (progress)
			fprintf(stderr, "benchcore: [%zu/%zu] %s\n", i + 1, b->row_cnt, r->label);
		ret = bc_child_run(b->exe, argv.v, r->timeout_sec, &cr);
		bc_strv_free(&argv);
		if (ret) {
			r->status = BC_ROW_FAILED;
			if (asprintf(&r->reason, "cannot start a child run: %s", strerror(-ret)) < 0)
				r->reason = NULL;
			ret = 0;
		} else {
			/* -v: the child's progress and log are the parent's. */
			if (b->opts.verbose && cr.err_len)
				fwrite(cr.err, 1, cr.err_len, stderr);
			bc_row_classify(b, r, &cr);
			bc_child_result_free(&cr);
		}
		bc_batch_render_row(b, r);
	}
	bc_child_release_stop();
	if (ret)
		return ret;
	if (b->opts.format == BC_FORMAT_JSON)
		bc_batch_render_json(b);
	if (b->opts.save && bc_batch_save(b))
		return BC_EXIT_FAILED;
	if (bc_child_stopped() && b->opts.format != BC_FORMAT_JSON)
		fprintf(stderr, "benchcore: interrupted; %s rows above were measured\n",
			b->opts.kind);
	return bc_batch_status(b);
}

int bc_batch_row_read(struct bc_row *r, char *err, size_t err_len)
{
	struct bc_doc_run *run = bc_doc_run_parse(r->json, strlen(r->json), err, err_len);

	if (!run && errno == ENOMEM)
		return -ENOMEM;
	if (!run && errno != ENOMSG)
		return -EINVAL;
	if (!run || !run->has_summary) {
		bc_set_err(err, err_len, "no \"summary\" object");
		bc_doc_run_free(run);
		return -EINVAL;
	}
	if (run->bench && !(r->bench = strdup(run->bench))) {
		bc_doc_run_free(run);
		return -ENOMEM;
	}
	r->run = run;
	/* Interrupted in its warm-up: the metrics are there, with no sample;
	 * such a row does not replace an older --output. */
	r->measured = bc_doc_run_measured(run);
	return 0;
}

int bc_batch_check_files(const struct bc_batch_opts *bo, const char *output, const char *input)
{
	char path[PATH_MAX], err[512], shown[BC_STORE_SHOWN_MAX];

	if (!bo->save && bo->store_path)
		return bc_cli_usage_error("--store '%s': is the store --save writes, and this %s saves nothing; add --save, or drop --store",
					  bc_store_shown(bo->store_path, shown, sizeof(shown)), bo->kind);
	if (!output)
		return 0;
	/* Same device and inode: a link or another spelling is still the input. */
	if (input && bc_out_same_file(output, input))
		return bc_cli_usage_error("--output '%s': is the %s file '%s'; expected another file",
					  output, bo->kind, input);
	if (bo->save && !bc_store_path(bo->store_path, path, sizeof(path), err, sizeof(err)) &&
	    bc_out_same_file(output, path))
		return bc_cli_usage_error("--output '%s': is the result store '%s' that --save writes; expected another file",
					  output, bc_store_shown(path, shown, sizeof(shown)));
	return 0;
}

int bc_batch_cli_opt(int argc, char **argv, int *i, struct bc_batch_opts *bo,
		     const char **output)
{
	const char *v;
	char *end;

	if ((v = bc_cli_opt_value(argc, argv, i, "--format"))) {
		if (bc_parse_format("--format", v, BC_FORMATS_TABLE, &bo->format))
			return -EINVAL;
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
	/* The result store: the parent saves every row's document at once. */
	if (!strcmp(argv[*i], "--save")) {
		bo->save = true;
		return 1;
	}
	if ((v = bc_cli_opt_value(argc, argv, i, "--store"))) {
		if (!*v) {
			bc_cli_usage_error("--store '': expected the path of a store file or a PostgreSQL URL (postgresql://...)");
			return -EINVAL;
		}
		bo->store_path = v;
		return 1;
	}
	if ((v = bc_cli_opt_value(argc, argv, i, "--against"))) {
		bc_cli_usage_error("--against: compares one run (run, or run --repeat); a %s saves its rows with --save and `benchcore history` compares them",
				   bo->kind);
		return -EINVAL;
	}
	/* Passed on to every run, but the parent listens too. */
	if (!strcmp(argv[*i], "-q") || !strcmp(argv[*i], "--quiet"))
		bo->quiet = true;
	if (!strcmp(argv[*i], "-v") || !strcmp(argv[*i], "--verbose"))
		bo->verbose = true;
	return 0;
}
