// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore check [PLUGIN:BENCH]`: its command line and its exit status,
 * which is what a CI job acts on: 0 when every configuration passed (or
 * has no baseline yet), 1 when one regressed or could not be judged
 * against its baseline (another machine or kernel, too few samples: a
 * gate that cannot judge has not passed; --allow-not-comparable says it
 * may), 2 for a usage error. The judging is results/check.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_check.h"
#include "cmd_store.h"
#include "results/check.h"
#include "results/check_report.h"
#include "results/store.h"
#include "results/store_doc.h"
#include "results/store_name.h"
#include "results/thresholds.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "runtime/log.h"
#include "runtime/output.h"

#define BC_CHECK_FORMATS ((1u << BC_FORMAT_TEXT) | (1u << BC_FORMAT_JSON) | (1u << BC_FORMAT_MARKDOWN))

static void bc_check_help(FILE *f)
{
	fputs("Usage: benchcore check [PLUGIN:BENCH] [--baseline latest|LABEL|window:N]\n"
	      "                       [--thresholds FILE] [--metric NAME]\n"
	      "                       [--format text|json|markdown] [--allow-not-comparable]\n"
	      "                       [--store PATH] [--label TEXT] [--kernel RELEASE]\n"
	      "                       [--host NAME] [--cpu-model TEXT] [--options LINE]\n"
	      "                       [--since DATE]\n"
	      "Judges the newest saved entry of each configuration the filters select\n"
	      "(PLUGIN:BENCH may be a glob: 'ringbuf:*') against its baseline on the same\n"
	      "machine and kernel: the entry before it (latest, the default), the entries\n"
	      "labelled LABEL, or the N entries before it. The headline (--metric: that\n"
	      "figure) is judged with compare's statistics against a budget: the largest\n"
	      "regression allowed, the level and the fewest samples, per benchmark and\n"
	      "figure from --thresholds FILE (docs/ci.md), else 5%, p < 0.05, 3 samples.\n"
	      "Exit status: 0 nothing regressed, 1 something regressed or could not be\n"
	      "judged (not comparable; --allow-not-comparable: only a regression), 2 usage.\n", f);
}

/* --baseline's word into o; -EINVAL after a usage line. */
static int bc_check_baseline_opt(const char *v, struct bc_check_opts *o)
{
	char *end = NULL;
	unsigned long n;

	if (!*v) {
		bc_cli_usage_error("--baseline '': expected latest, a label or window:N");
		return -EINVAL;
	}
	if (!strcmp(v, "latest")) {
		o->baseline = BC_CHECK_LATEST;
		return 0;
	}
	if (!strncmp(v, "window:", 7)) {
		errno = 0;
		n = v[7] >= '0' && v[7] <= '9' ? strtoul(v + 7, &end, 10) : 0;
		if (!end || *end || errno || n < 2 || n > BC_CHECK_MAX_WINDOW) {
			bc_cli_usage_error("--baseline '%s': expected window:N with N from 2 to %u",
					   v, BC_CHECK_MAX_WINDOW);
			return -EINVAL;
		}
		o->baseline = BC_CHECK_WINDOW;
		o->window = (unsigned int)n;
		return 0;
	}
	o->baseline = BC_CHECK_LABEL;
	o->label = v;
	return 0;
}

/* Entries there, none with --metric's name: the name is the mistake. */
static int bc_check_metric_names(struct bc_store *s, const struct bc_store_filter *f)
{
	struct bc_store_filter all = *f;
	char names[1024] = "", err[512];

	if (strpbrk(all.bench ? all.bench : "", "*?["))
		all.bench = NULL;
	all.ok_only = true;
	if (bc_store_doc_metric_names(s, &all, names, sizeof(names), err, sizeof(err)) || !*names)
		return 0;
	return bc_cli_usage_error("check: --metric '%s': no selected entry that ended well has a metric or figure of that name; they have %s",
				  f->metric, names);
}

int bc_check_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_store_filter f = { 0 };
	struct bc_check_opts o = { .filter = &f };
	enum bc_format format = BC_FORMAT_TEXT;
	const char *store = NULL, *thresholds = NULL, *v;
	char path[PATH_MAX], err[1024] = "", line[1024], shown[BC_STORE_SHOWN_MAX];
	struct bc_thresholds *th = NULL;
	bool allow_nc = false;
	struct bc_check c;
	struct bc_store *s;
	int ret, taken, status;

	(void)env;
	for (int i = 1; i < argc; i++) {
		taken = bc_store_reader_opt(argc, argv, &i, &store, &f, bc_check_help, &status);
		if (taken < 0)
			return status;
		if (taken)
			continue;
		if ((v = bc_cli_opt_value(argc, argv, &i, "--format"))) {
			if (bc_parse_format("--format", v, BC_CHECK_FORMATS, &format))
				return BC_EXIT_USAGE;
			continue;
		}
		if ((v = bc_cli_opt_value(argc, argv, &i, "--baseline"))) {
			if (bc_check_baseline_opt(v, &o))
				return BC_EXIT_USAGE;
			continue;
		}
		if ((v = bc_cli_opt_value(argc, argv, &i, "--thresholds"))) {
			if (!*v)
				return bc_cli_usage_error("--thresholds '': expected a thresholds file (docs/ci.md)");
			thresholds = v;
			continue;
		}
		if (!strcmp(argv[i], "--allow-not-comparable")) {
			allow_nc = true;
			continue;
		}
		if (argv[i][0] == '-' || f.bench)
			return bc_cli_usage_error("check: unexpected argument '%s' (`benchcore check --help`)",
						  argv[i]);
		f.bench = argv[i];
	}
	if (f.bench && !strchr(f.bench, ':'))
		return bc_cli_usage_error("check: '%s': expected PLUGIN:BENCH (a glob may stand for either: 'ringbuf:*')",
					  f.bench);
	if (thresholds && !(th = bc_thresholds_load(thresholds, err, sizeof(err)))) {
		bc_warn("check: %s", err);
		return errno == ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
	}
	o.thresholds = th;
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		bc_thresholds_free(th);
		return BC_EXIT_USAGE;
	}
	s = bc_store_open(path, 0, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		bc_thresholds_free(th);
		return BC_EXIT_FAILED;
	}
	/* every line and document that names the store: a password masked */
	bc_store_shown(path, shown, sizeof(shown));
	ret = bc_check_run(s, &o, &c, err, sizeof(err));
	if (!ret && !c.cnt && f.metric) {
		ret = bc_check_metric_names(s, &f);
		if (ret) {
			bc_store_close(s);
			bc_check_free(&c);
			bc_thresholds_free(th);
			return ret;
		}
	}
	bc_store_close(s);
	if (ret) {
		bc_warn("%s", err);
		ret = BC_EXIT_FAILED;
	} else if (!c.cnt) {
		bc_warn("check: no saved entry that ended well matches in %s; nothing was judged",
			shown);
		ret = BC_EXIT_FAILED;
	} else {
		bc_check_write(bc_stdout(), format, &o,
			       &(struct bc_check_about){ .store = shown, .thresholds = thresholds }, &c);
		bc_check_summary(line, sizeof(line), &o, &c);
		fflush(bc_stdout());
		bc_warn("%s", line);
		ret = c.counts[BC_CHECK_REGRESSED] ||
				      (!allow_nc && c.counts[BC_CHECK_NOT_COMPARABLE])
			      ? BC_EXIT_FAILED
			      : BC_EXIT_OK;
	}
	bc_check_free(&c);
	bc_thresholds_free(th);
	return ret;
}
