// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The `run` command line: the core options (compatible with the kernel's
 * bench runner) plus the options of the selected benchmark's plugin, which
 * is attached as an argp child only once the benchmark is known, so that
 * two plugins may use the same option names.
 *
 * Every bad value costs one line naming the option, the value and what is
 * expected, and exit status 2.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_internal.h"

enum {
	BC_OPT_PROD_AFFINITY = 0x100,
	BC_OPT_CONS_AFFINITY,
	BC_OPT_FORMAT,
	BC_OPT_OUTPUT,
	BC_OPT_VERSION,
	BC_OPT_USAGE,
};

/* Above any thread count that makes sense on one machine, below overflow. */
#define BC_MAX_THREADS 4096
/* A year: anything longer is a typo (ms for s?) rather than a plan. */
#define BC_MAX_SECONDS (365.0 * 24 * 3600)

static const struct argp_option bc_run_options[] = {
	{ "warmup", 'w', "SEC", 0, "Warm-up seconds, reported but not summarised (default 1; 0 allowed)", 0 },
	{ "duration", 'd', "SEC", 0, "Measured seconds (default 5)", 0 },
	{ "producers", 'p', "N", 0, "Producer threads (default: the benchmark's)", 0 },
	{ "consumers", 'c', "N", 0, "Consumer threads (default: the benchmark's)", 0 },
	{ "affinity", 'a', NULL, 0, "Pin threads: consumers to CPUs 0, 1, ..., producers to the next ones", 0 },
	{ "prod-affinity", BC_OPT_PROD_AFFINITY, "CPUSET", 0, "Pin producers to these CPUs (e.g. 0,2-3)", 0 },
	{ "cons-affinity", BC_OPT_CONS_AFFINITY, "CPUSET", 0, "Pin consumers to these CPUs", 0 },
	{ "verbose", 'v', NULL, 0, "More output, libbpf's debug messages included (repeatable)", 0 },
	{ "quiet", 'q', NULL, 0, "Only the summary and warnings", 0 },
	{ "format", BC_OPT_FORMAT, "FMT", 0, "text (default) or json", 0 },
	{ "output", BC_OPT_OUTPUT, "FILE", 0, "Write the report to FILE instead of stdout", 0 },
	{ "version", BC_OPT_VERSION, NULL, 0, "Print the benchcore, ABI and libbpf versions", 0 },
	{ "help", '?', NULL, 0, "Give this help list (with the benchmark's plugin options)", -1 },
	{ "usage", BC_OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ 0 },
};

/* ----------------------------------------------------------- values */

int bc_parse_seconds(const char *opt, const char *text, bool allow_zero, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || *end || errno || !isfinite(v) || v < 0 || (!allow_zero && v == 0) ||
	    v > BC_MAX_SECONDS) {
		bc_warn("%s '%s': expected a number of seconds %s 0 (at most %.0f)", opt, text,
			allow_zero ? ">=" : ">", BC_MAX_SECONDS);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int bc_parse_uint(const char *opt, const char *text, unsigned int min, unsigned int max,
		  const char *what, unsigned int *out)
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
		bc_warn("%s '%s': expected a whole number of %s from %u to %u", opt, text, what, min, max);
		return -EINVAL;
	}
	*out = (unsigned int)v;
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

static int bc_parse_cpus(const char *opt, const char *text, struct bc_cpuset *set)
{
	char err[256];

	if (bc_cpuset_parse(text, set, err, sizeof(err))) {
		bc_warn("%s %s", opt, err);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------- recording plugin options */

static int bc_record_option(struct bc_config *cfg, const char *name, const char *value)
{
	struct bc_option_record *grown, *r;
	char *n = NULL, *v = NULL;
	size_t i;

	v = value ? strdup(value) : NULL;
	if (value && !v)
		return -ENOMEM;
	/* Given twice: the parser kept the last one, so does the record. */
	for (i = 0; i < cfg->plugin_opt_cnt; i++) {
		r = &cfg->plugin_opts[i];
		if (!strcmp(r->name, name)) {
			free(r->value);
			r->value = v;
			return 0;
		}
	}
	n = strdup(name);
	grown = realloc(cfg->plugin_opts, (cfg->plugin_opt_cnt + 1) * sizeof(*grown));
	if (!n || !grown) {
		free(n);
		free(v);
		if (grown)
			cfg->plugin_opts = grown;
		return -ENOMEM;
	}
	cfg->plugin_opts = grown;
	cfg->plugin_opts[cfg->plugin_opt_cnt].name = n;
	cfg->plugin_opts[cfg->plugin_opt_cnt].value = v;
	cfg->plugin_opt_cnt++;
	return 0;
}

/*
 * A plugin's argp tree, copied with every parser replaced by bc_wrap_parse,
 * which records each option the plugin accepted (for the JSON config) and
 * then hands over to the plugin's own parser with the plugin's own input.
 */
struct bc_argp_wrap {
	struct argp argp;
	const struct argp *orig;
	struct argp_child *children;
	struct bc_argp_wrap *child_wraps;
	size_t child_cnt;
	struct bc_config *cfg;
	void *orig_input;
};

static const char *bc_option_name(const struct argp_option *opts, int key, char *shortbuf)
{
	const struct argp_option *o;

	for (o = opts; o && (o->name || o->key || o->doc); o++) {
		if (o->key != key || (o->flags & OPTION_DOC))
			continue;
		if (o->name)
			return o->name;
		shortbuf[0] = (char)key;
		shortbuf[1] = '\0';
		return shortbuf;
	}
	return NULL;
}

static error_t bc_wrap_parse(int key, char *arg, struct argp_state *state)
{
	struct bc_argp_wrap *w = state->input;
	error_t err = ARGP_ERR_UNKNOWN;
	char shortbuf[2];
	const char *name;
	size_t i;

	state->input = w->orig_input;
	/* argp's own rule for a parser-less argp: its input goes to its first
	 * child. Keep it, since the copy now has a parser. */
	if (key == ARGP_KEY_INIT && !w->orig->parser && w->child_cnt)
		state->child_inputs[0] = w->orig_input;
	if (w->orig->parser)
		err = w->orig->parser(key, arg, state);
	if (key == ARGP_KEY_INIT) {
		for (i = 0; i < w->child_cnt; i++) {
			w->child_wraps[i].orig_input = state->child_inputs[i];
			state->child_inputs[i] = &w->child_wraps[i];
		}
	}
	state->input = w;

	/* Real options have keys below the ARGP_KEY_* range; 0 is an argument. */
	if (!err && key > 0 && key < ARGP_KEY_END) {
		name = bc_option_name(w->orig->options, key, shortbuf);
		if (name && bc_record_option(w->cfg, name, arg))
			return ENOMEM;
	}
	return err;
}

static void bc_wrap_free(struct bc_argp_wrap *w)
{
	size_t i;

	for (i = 0; i < w->child_cnt; i++)
		bc_wrap_free(&w->child_wraps[i]);
	free(w->children);
	free(w->child_wraps);
}

static int bc_wrap_init(struct bc_argp_wrap *w, const struct argp *orig, struct bc_config *cfg)
{
	size_t i, cnt = 0;
	int err;

	memset(w, 0, sizeof(*w));
	w->argp = *orig;
	w->orig = orig;
	w->cfg = cfg;
	w->argp.parser = bc_wrap_parse;
	while (orig->children && orig->children[cnt].argp)
		cnt++;
	if (!cnt)
		return 0;
	w->children = calloc(cnt + 1, sizeof(*w->children));
	w->child_wraps = calloc(cnt, sizeof(*w->child_wraps));
	if (!w->children || !w->child_wraps) {
		bc_wrap_free(w);
		return -ENOMEM;
	}
	w->child_cnt = cnt;
	for (i = 0; i < cnt; i++) {
		err = bc_wrap_init(&w->child_wraps[i], orig->children[i].argp, cfg);
		if (err) {
			bc_wrap_free(w);
			return err;
		}
		w->children[i] = orig->children[i];
		w->children[i].argp = &w->child_wraps[i].argp;
	}
	w->argp.children = w->children;
	return 0;
}

/* --------------------------------------------------------- run parser */

struct bc_run_parse {
	struct bc_config *cfg;
	const char *bench_arg;		/* the argv string naming the benchmark */
	struct bc_argp_wrap *plugin;	/* NULL: no plugin options attached */
	bool done;			/* --help/--usage/--version answered */
	bool bad_value;
};

static error_t bc_run_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_run_parse *rp = state->input;
	struct bc_config *cfg = rp->cfg;
	int err = 0;

	switch (key) {
	case ARGP_KEY_INIT:
		if (rp->plugin)
			state->child_inputs[0] = rp->plugin;
		return 0;
	case 'w':
		err = bc_parse_seconds("--warmup", arg, true, &cfg->warmup_sec);
		break;
	case 'd':
		err = bc_parse_seconds("--duration", arg, false, &cfg->duration_sec);
		break;
	case 'p':
		err = bc_parse_uint("--producers", arg, 0, BC_MAX_THREADS, "threads", &cfg->producers);
		cfg->producers_set = !err;
		break;
	case 'c':
		err = bc_parse_uint("--consumers", arg, 0, BC_MAX_THREADS, "threads", &cfg->consumers);
		cfg->consumers_set = !err;
		break;
	case 'a':
		cfg->affinity = true;
		break;
	case BC_OPT_PROD_AFFINITY:
		err = bc_parse_cpus("--prod-affinity", arg, &cfg->prod_cpus);
		cfg->prod_cpus_set = !err;
		break;
	case BC_OPT_CONS_AFFINITY:
		err = bc_parse_cpus("--cons-affinity", arg, &cfg->cons_cpus);
		cfg->cons_cpus_set = !err;
		break;
	case 'v':
		cfg->verbosity = cfg->verbosity < 0 ? 1 : cfg->verbosity + 1;
		break;
	case 'q':
		cfg->verbosity = -1;
		break;
	case BC_OPT_FORMAT:
		err = bc_parse_format("--format", arg, &cfg->format);
		break;
	case BC_OPT_OUTPUT:
		if (!*arg) {
			bc_warn("--output '': expected a file name");
			err = -EINVAL;
		}
		cfg->output_path = arg;
		break;
	case BC_OPT_VERSION:
		bc_cli_print_version(stdout);
		return bc_argp_stop(state, &rp->done);
	case '?':
		return bc_argp_help(state, ARGP_HELP_STD_HELP, &rp->done);
	case BC_OPT_USAGE:
		return bc_argp_help(state, ARGP_HELP_USAGE, &rp->done);
	case ARGP_KEY_ARG:
		if (arg == rp->bench_arg)
			return 0;
		if (rp->bench_arg)
			bc_warn("run: unexpected argument '%s'; expected options after %s", arg,
				rp->bench_arg);
		else
			bc_warn("run: unexpected argument '%s'", arg);
		err = -EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	if (err) {
		rp->bad_value = true;
		/* Stop at the first bad value: one line, not a cascade. */
		state->next = state->argc;
		return EINVAL;
	}
	return 0;
}

/* ---------------------------------------------- finding the benchmark */

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

void bc_run_prescan(int argc, char **argv, struct bc_run_prescan *ps)
{
	const struct argp_option *o;
	bool only_args = false;
	const char *a, *eq, *c;
	int i;

	memset(ps, 0, sizeof(*ps));
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (only_args || a[0] != '-' || !a[1]) {
			if (ps->cand_cnt < BC_PRESCAN_MAX)
				ps->cands[ps->cand_cnt++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (a[1] == '-') {
			eq = strchr(a, '=');
			o = bc_find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			if (!o)
				continue;	/* a plugin's option: not ours to judge */
			if (o->key == '?' || o->key == BC_OPT_USAGE || o->key == BC_OPT_VERSION)
				ps->help = true;
			if (o->key == 'v')
				ps->verbosity = ps->verbosity < 0 ? 1 : ps->verbosity + 1;
			if (o->key == 'q')
				ps->verbosity = -1;
			if (o->arg && !eq)
				i++;
			continue;
		}
		for (c = a + 1; *c; c++) {
			o = bc_find_short(*c);
			if (!o)
				continue;
			if (o->key == '?')
				ps->help = true;
			if (o->key == 'v')
				ps->verbosity = ps->verbosity < 0 ? 1 : ps->verbosity + 1;
			if (o->key == 'q')
				ps->verbosity = -1;
			if (o->arg) {
				if (!c[1])
					i++;	/* "-d 5": the value is the next word */
				break;
			}
		}
	}
}

/* ------------------------------------------------------------ parsing */

int bc_options_parse_run(struct bc_cli_env *env, int argc, char **argv, struct bc_config *cfg,
			 const struct bc_bench **bench)
{
	struct bc_run_parse rp = { .cfg = cfg };
	struct bc_run_prescan ps;
	struct bc_argp_wrap wrap;
	struct argp_child children[2];
	char header[256], err_msg[BC_REASON_LEN], *saved0;
	struct argp argp = {
		.options = bc_run_options,
		.parser = bc_run_parse_opt,
		.args_doc = "PLUGIN:BENCH [PLUGIN OPTIONS...]",
		.doc = "Runs one benchmark and reports its metrics.\v"
		       "PLUGIN:BENCH may be a bare BENCH when only one plugin has it. "
		       "`benchcore run PLUGIN:BENCH --help` also lists that plugin's options. "
		       "Exit status: 0 ran, 1 failed at run time, 2 usage error, "
		       "3 unavailable on this kernel or without privileges, 130 interrupted.",
	};
	const struct bc_plugin *plugin;
	bool have_wrap = false;
	size_t i;
	int err, first_err = 0;

	*bench = NULL;
	cfg->verbosity = env->verbosity;
	bc_run_prescan(argc, argv, &ps);
	if (ps.verbosity)
		cfg->verbosity = ps.verbosity;
	bc_log_set_verbosity(cfg->verbosity);

	if (ps.cand_cnt) {
		err = bc_cli_load_plugins(env);
		if (err)
			return BC_EXIT_USAGE;
	}
	/* The first word that names a benchmark is the benchmark; words before
	 * it may be values of plugin options we cannot recognise yet. */
	for (i = 0; i < ps.cand_cnt; i++) {
		char msg[BC_REASON_LEN];

		err = bc_bench_resolve(&env->plugins, ps.cands[i], bench, msg, sizeof(msg));
		if (!err || err == -ENOTUNIQ) {
			rp.bench_arg = ps.cands[i];
			if (err) {
				bc_warn("%s", msg);
				return BC_EXIT_USAGE;
			}
			break;
		}
		if (!first_err) {
			first_err = err;
			snprintf(err_msg, sizeof(err_msg), "%s", msg);
		}
	}
	if (!*bench && first_err) {
		bc_warn("%s", err_msg);
		if (env->plugins.failed_cnt)
			bc_warn("(%zu plugin file%s could not be loaded; see above)",
				env->plugins.failed_cnt, env->plugins.failed_cnt == 1 ? "" : "s");
		return BC_EXIT_USAGE;
	}
	if (!*bench && !ps.help) {
		bc_warn("run: missing PLUGIN:BENCH; `benchcore list` shows what is available");
		return BC_EXIT_USAGE;
	}

	memset(children, 0, sizeof(children));
	if (*bench) {
		plugin = (*bench)->plugin;
		if (plugin->desc.argp) {
			if (bc_wrap_init(&wrap, plugin->desc.argp, cfg))
				return BC_EXIT_FAILED;
			have_wrap = true;
			snprintf(header, sizeof(header), "Options of the %s plugin (%s):",
				 plugin->desc.name, plugin->desc.version);
			children[0].argp = &wrap.argp;
			children[0].header = header;
			rp.plugin = &wrap;
			argp.children = children;
		}
	}

	/* argp names the program after argv[0] in usage and errors. */
	saved0 = argv[0];
	argv[0] = (char *)"benchcore run";
	err = argp_parse(&argp, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &rp);
	argv[0] = saved0;
	if (have_wrap)
		bc_wrap_free(&wrap);
	bc_log_set_verbosity(cfg->verbosity);
	if (rp.done)
		return BC_OPTIONS_DONE;
	if (err)
		return err == ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
	return 0;
}

void bc_options_free(struct bc_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->plugin_opt_cnt; i++) {
		free(cfg->plugin_opts[i].name);
		free(cfg->plugin_opts[i].value);
	}
	free(cfg->plugin_opts);
	cfg->plugin_opts = NULL;
	cfg->plugin_opt_cnt = 0;
}
