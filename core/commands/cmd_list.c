// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The `list` command: every PLUGIN:BENCH with its verdict for this kernel,
 * from cheap checks (needs.c, a plugin's quick_probe) or, with --probe, the
 * full load and attach a run makes; as text or JSON.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_list.h"
#include "runtime/attach.h"
#include "runtime/config.h"
#include "runtime/loader.h"
#include "runtime/context.h"
#include "cli_env.h"
#include "runtime/core_opts.h"
#include "runtime/log.h"
#include "cli_args.h"
#include "runtime/exit_status.h"
#include "runtime/figures.h"
#include "runtime/guard.h"
#include "runtime/json.h"
#include "runtime/needs.h"
#include "runtime/output.h"
#include "runtime/plugin_opts.h"

enum {
	BC_LOPT_FORMAT = 0x100,
	BC_LOPT_PROBE,
	BC_LOPT_USAGE,
};

struct bc_list_opts {
	enum bc_format format;
	int verbosity;
	bool probe;		/* --probe: load and attach, as run does */
	bool done;
};

static const struct argp_option bc_list_options[] = {
	{ "format", BC_LOPT_FORMAT, "FMT", 0, "text (default) or json", 0 },
	{ "probe", BC_LOPT_PROBE, NULL, 0,
	  "Tell availability as run does, by loading and attaching each benchmark's programs "
	  "(slow); without it, from cheap checks of the kernel features each one declares", 0 },
	{ "verbose", 'v', NULL, 0, "Also show each plugin's file and version", 0 },
	{ "quiet", 'q', NULL, 0, "Only warnings on stderr", 0 },
	{ "help", '?', NULL, 0, "Give this help list", -1 },
	{ "usage", BC_LOPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ 0 },
};

static error_t bc_list_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_list_opts *lo = state->input;

	switch (key) {
	case BC_LOPT_FORMAT:
		if (bc_parse_format("--format", arg, BC_FORMATS_RUN, &lo->format)) {
			state->next = state->argc;
			return EINVAL;
		}
		return 0;
	case BC_LOPT_PROBE:
		lo->probe = true;
		return 0;
	case 'v':
		lo->verbosity = lo->verbosity < 0 ? 1 : lo->verbosity + 1;
		return 0;
	case 'q':
		lo->verbosity = -1;
		return 0;
	case '?':
		return bc_argp_help(state, ARGP_HELP_STD_HELP, &lo->done);
	case BC_LOPT_USAGE:
		return bc_argp_help(state, ARGP_HELP_USAGE, &lo->done);
	case ARGP_KEY_ARG:
		bc_warn("list: unexpected argument '%s'; list takes no arguments", arg);
		state->next = state->argc;
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

struct bc_probe_result {
	bool available;
	bool failed;		/* the probe itself went wrong */
	/* What told: "features" (the cheap checks of what the benchmark
	 * declares), "probe" (its probe(), loading and attaching) or "none"
	 * (it declares nothing to check). */
	const char *checked;
	char reason[BC_REASON_LEN];
};

/*
 * `list` says why a benchmark cannot run here, so it asks the benchmark:
 * by default the cheap checks of what it declares it needs (its needs,
 * attach points and quick_probe()), with `full` (--probe) what `run` asks,
 * its probe(). A benchmark that declares no needs gets its probe() either
 * way.
 */
static void bc_probe_bench(const struct bc_bench *b, const struct bc_config *cfg, bool full,
			   struct bc_probe_result *pr)
{
	/* ABI 2.2: an attach callback without probe() is probed by setup(),
	 * its ladder and teardown() (bc_attach_probe()). */
	bool loads = b->desc.probe || b->desc.attach;
	bool quick = bc_bench_has_quick(b) && !(full && loads);
	struct bc_config probe_cfg;
	struct bc_ctx ctx;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->available = true;
	pr->checked = quick ? "features" : loads ? "probe" : "none";
	if (!quick && !loads)
		return;
	/* A probe sees the options a plain `run` would: the defaults. */
	probe_cfg = *cfg;
	probe_cfg.opts = bc_opts_new(b, pr->reason, sizeof(pr->reason));
	if (!probe_cfg.opts) {
		pr->available = false;
		pr->failed = true;
		return;
	}
	bc_ctx_init(&ctx, &probe_cfg, b);
	/* A probe's progress chatter (attach points tried) and libbpf's own
	 * lines are noise in a listing; its reason is printed below. -v shows
	 * it all. */
	if (cfg->verbosity <= 0)
		bc_log_set_verbosity(-2);
	bc_guard_set_bench(b->plugin->desc.name, b->desc.name);
	bc_guard_enter(quick ? "quick_probe" : "probe", false);
	err = quick ? bc_bench_quick_probe(&ctx, b) :
	      b->desc.probe ? b->desc.probe(&ctx) : bc_attach_probe(&ctx);
	bc_guard_leave();
	bc_log_set_verbosity(cfg->verbosity);
	bc_opts_free(probe_cfg.opts);
	if (!err)
		return;
	pr->available = false;
	pr->failed = !ctx.unavailable && err != -EOPNOTSUPP;
	if (ctx.reason[0])
		snprintf(pr->reason, sizeof(pr->reason), "%s", ctx.reason);
	else
		snprintf(pr->reason, sizeof(pr->reason), "%s", strerror(-err));
}

/* `callback_set` false: the benchmark has no such thread body, so it takes
 * none at all, whatever its range says (a max of 0 otherwise means no limit). */
static void bc_json_range(struct bc_json_writer *w, const char *key, const struct bc_thread_range *r,
			  bool callback_set)
{
	bc_jw_obj_begin(w, key);
	bc_jw_uint(w, "min", r->min);
	if (!callback_set)
		bc_jw_uint(w, "max", 0);
	else if (r->max)
		bc_jw_uint(w, "max", r->max);
	else
		bc_jw_null(w, "max");	/* no limit */
	bc_jw_uint(w, "default", r->def);
	bc_jw_obj_end(w);
}

static int bc_list_json(FILE *f, const struct bc_plugin_set *set, const struct bc_config *cfg,
			bool full)
{
	struct bc_json_writer w;
	struct bc_probe_result pr;
	char name[256];
	size_t i, j;
	unsigned int m;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "benchcore_version", bc_version());
	bc_jw_obj_begin(&w, "abi");
	bc_jw_uint(&w, "major", BC_ABI_MAJOR);
	bc_jw_uint(&w, "minor", BC_ABI_MINOR);
	bc_jw_obj_end(&w);
	bc_jw_uint(&w, "refused_files", set->failed_cnt);
	bc_jw_arr_begin(&w, "plugins");
	for (i = 0; i < set->cnt; i++) {
		const struct bc_plugin *p = &set->plugins[i];

		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "name", p->desc.name);
		bc_jw_str(&w, "version", p->desc.version);
		bc_jw_str(&w, "description", p->desc.description);
		bc_jw_str(&w, "path", p->path);
		bc_jw_obj_begin(&w, "abi");
		bc_jw_uint(&w, "major", p->desc.abi_major);
		bc_jw_uint(&w, "minor", p->desc.abi_minor);
		bc_jw_obj_end(&w);
		bc_jw_arr_begin(&w, "benchmarks");
		for (j = 0; j < p->bench_cnt; j++) {
			const struct bc_bench *b = &p->benches[j];

			bc_probe_bench(b, cfg, full, &pr);
			snprintf(name, sizeof(name), "%s:%s", p->desc.name, b->desc.name);
			bc_jw_obj_begin(&w, NULL);
			bc_jw_str(&w, "name", name);
			bc_jw_str(&w, "bench", b->desc.name);
			bc_jw_str(&w, "description", b->desc.description);
			bc_jw_bool(&w, "runner_name", b->desc.runner_name);
			bc_jw_bool(&w, "available", pr.available);
			bc_jw_str(&w, "reason", pr.available ? NULL : pr.reason);
			bc_jw_str(&w, "checked", pr.checked);
			bc_json_range(&w, "producers", &b->desc.producers, b->desc.producer);
			bc_json_range(&w, "consumers", &b->desc.consumers, b->desc.consumer);
			bc_jw_arr_begin(&w, "metrics");
			for (m = 0; m < b->desc.metric_cnt; m++) {
				bc_jw_obj_begin(&w, NULL);
				bc_jw_str(&w, "name", b->metrics[m].name);
				bc_jw_str(&w, "unit", b->metrics[m].unit);
				bc_jw_str(&w, "kind", bc_metric_kind_name(b->metrics[m].kind));
				bc_jw_obj_end(&w);
			}
			bc_jw_arr_end(&w);
			bc_jw_obj_end(&w);
		}
		bc_jw_arr_end(&w);
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	return bc_jw_finish(&w);
}

static void bc_list_text(FILE *f, const struct bc_plugin_set *set, const struct bc_config *cfg,
			 bool probe, int verbosity)
{
	struct bc_probe_result pr;
	int width = 0, len;
	char full[256];
	size_t i, j;

	for (i = 0; i < set->cnt; i++)
		for (j = 0; j < set->plugins[i].bench_cnt; j++) {
			len = snprintf(full, sizeof(full), "%s:%s", set->plugins[i].desc.name,
				       set->plugins[i].benches[j].desc.name);
			if (len > width)
				width = len;
		}
	for (i = 0; i < set->cnt; i++) {
		const struct bc_plugin *p = &set->plugins[i];

		if (verbosity > 0)
			fprintf(f, "# plugin %s %s (ABI %u.%u): %s [%s]\n", p->desc.name,
				p->desc.version, p->desc.abi_major, p->desc.abi_minor,
				p->desc.description, p->path);
		for (j = 0; j < p->bench_cnt; j++) {
			const struct bc_bench *b = &p->benches[j];

			snprintf(full, sizeof(full), "%s:%s", p->desc.name, b->desc.name);
			bc_probe_bench(b, cfg, probe, &pr);
			fprintf(f, "%-*s  %s", width, full, b->desc.description);
			if (!pr.available)
				fprintf(f, " [%s: %s]",
					pr.failed ? "probe failed" : "unavailable on this kernel",
					pr.reason);
			fputc('\n', f);
		}
	}
}

int bc_cmd_list(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_list_opts lo = { .format = BC_FORMAT_TEXT, .verbosity = env->verbosity };
	struct argp argp = {
		.options = bc_list_options,
		.parser = bc_list_parse_opt,
		.doc = "Lists every PLUGIN:BENCH with its description. A benchmark this kernel "
		       "or these privileges cannot run says why: from cheap checks of the kernel "
		       "features it declares, or with --probe from loading and attaching its "
		       "programs, as run does.",
	};
	const struct argp_option *table = bc_list_options;
	struct bc_config cfg;
	char *saved0 = argv[0];
	int err;

	/* Long options in full only (cli_args.h says why). */
	if (bc_cli_full_names("list", argc, argv, &table, 1, false))
		return BC_EXIT_USAGE;
	argv[0] = (char *)"benchcore list";
	err = argp_parse(&argp, argc, argv, ARGP_NO_EXIT | ARGP_NO_HELP, NULL, &lo);
	argv[0] = saved0;
	if (lo.done)
		return BC_EXIT_OK;
	if (err)
		return BC_EXIT_USAGE;
	bc_log_set_verbosity(lo.verbosity);
	if ((err = bc_cli_load_plugins(env)))
		return err == -EMFILE ? BC_EXIT_FAILED : BC_EXIT_USAGE;

	/* Probes see the defaults a plain `run` would use. */
	bc_config_init(&cfg);
	cfg.verbosity = lo.verbosity;
	if (lo.format == BC_FORMAT_JSON)
		err = bc_list_json(bc_stdout(), &env->plugins, &cfg, lo.probe);
	else
		bc_list_text(bc_stdout(), &env->plugins, &cfg, lo.probe, lo.verbosity);
	/* A write error is said once, naming standard output. */
	if (bc_stdout_finish())
		return BC_EXIT_FAILED;
	if (err) {
		bc_warn("list: cannot write the JSON document: %s", strerror(-err));
		return BC_EXIT_FAILED;
	}
	return BC_EXIT_OK;
}
