// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore history PLUGIN:BENCH`: its command line. The grouping, the
 * judging and the tables are results/history.c's.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_history.h"
#include "cmd_store.h"
#include "results/history.h"
#include "results/history_cp.h"
#include "results/store.h"
#include "results/store_doc.h"
#include "results/store_name.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "runtime/log.h"
#include "runtime/output.h"

static void bc_history_help(FILE *f)
{
	fputs("Usage: benchcore history PLUGIN:BENCH [--by date|kernel|label|machine]\n"
	      "                         [--format text|json|csv|markdown] [--store PATH]\n"
	      "                         [--label TEXT] [--kernel RELEASE] [--host NAME]\n"
	      "                         [--cpu-model TEXT] [--options LINE] [--since DATE]\n"
	      "                         [--metric NAME] [--change-points]\n"
	      "One row per group of saved entries (--by, default date): the headline\n"
	      "metric's (--metric: that metric's or derived figure's) mean with its 95%\n"
	      "interval, the entries, and the change from the\n"
	      "group before with Welch's p-value and a verdict (improved, regressed, no\n"
	      "significant change). Each configuration (--options: the canonical line\n"
	      "`store list` shows) has its own rows. --change-points: instead, where each\n"
	      "configuration's series of entries moved (E-divisive means, seeded), each\n"
	      "point's entry, date, change and p-value. docs/history.md says more.\n", f);
}

/* --change-points: the series' change points instead of the groups;
 * takes and closes s. */
static int bc_history_change_points(struct bc_store *s, struct bc_store_filter *f,
				    enum bc_format format, const char *path)
{
	struct bc_cp_history h;
	char err[1024] = "";
	int ret = bc_cp_history_collect(s, f, &BC_CP_OPTS_DEFAULT, &h, err, sizeof(err));

	if (!ret && !h.cnt && f->metric) {
		char names[1024] = "";

		f->ok_only = true;
		if (!bc_store_doc_metric_names(s, f, names, sizeof(names), err, sizeof(err)) && *names) {
			bc_store_close(s);
			bc_cp_history_free(&h);
			return bc_cli_usage_error("history: --metric '%s': no saved entry of %s that ended well has a metric or figure of that name; they have %s",
						  f->metric, f->bench, names);
		}
	}
	bc_store_close(s);
	if (ret) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	if (!h.cnt) {
		char shown[BC_STORE_SHOWN_MAX];

		bc_warn("history: no saved entry of %s that ended well matches in %s", f->bench,
			bc_store_shown(path, shown, sizeof(shown)));
		bc_cp_history_free(&h);
		return BC_EXIT_FAILED;
	}
	bc_cp_history_write(bc_stdout(), format, f->bench, &h);
	bc_cp_history_free(&h);
	return BC_EXIT_OK;
}

int bc_history_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_store_filter f = { 0 };
	enum bc_format format = BC_FORMAT_TEXT;
	enum bc_history_by by = BC_HISTORY_BY_DATE;
	const char *store = NULL, *v;
	char path[PATH_MAX], err[1024] = "";
	bool change_points = false, by_given = false;
	struct bc_history h;
	struct bc_store *s;
	int ret, taken, status;

	(void)env;
	for (int i = 1; i < argc; i++) {
		taken = bc_store_reader_opt(argc, argv, &i, &store, &f, bc_history_help, &status);
		if (taken < 0)
			return status;
		if (taken)
			continue;
		if ((v = bc_cli_opt_value(argc, argv, &i, "--format"))) {
			if (bc_parse_format("--format", v, BC_FORMATS_TABLE, &format))
				return BC_EXIT_USAGE;
			continue;
		}
		if ((v = bc_cli_opt_value(argc, argv, &i, "--by"))) {
			if (bc_history_by_parse(v, &by))
				return bc_cli_usage_error("--by '%s': expected kernel, label, date or machine",
							  v);
			by_given = true;
			continue;
		}
		if (!strcmp(argv[i], "--change-points")) {
			change_points = true;
			continue;
		}
		if (argv[i][0] == '-' || f.bench)
			return bc_cli_usage_error("history: unexpected argument '%s' (`benchcore history --help`)",
						  argv[i]);
		f.bench = argv[i];
	}
	if (!f.bench)
		return bc_cli_usage_error("history: expected a benchmark (PLUGIN:BENCH, as `benchcore store list` shows)");
	if (!strchr(f.bench, ':'))
		return bc_cli_usage_error("history: '%s': expected PLUGIN:BENCH", f.bench);
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	if (change_points && by_given)
		return bc_cli_usage_error("history: --by groups entries and --change-points looks at each; expected one of them");
	s = bc_store_open(path, 0, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	if (change_points)
		return bc_history_change_points(s, &f, format, path);
	ret = bc_history_collect(s, &f, by, &h, err, sizeof(err));
	if (!ret && !h.cnt && f.metric) {
		/* Entries there, none with that name: the name is the mistake. */
		char names[1024] = "";

		f.ok_only = true;
		if (!bc_store_doc_metric_names(s, &f, names, sizeof(names), err, sizeof(err)) &&
		    *names) {
			bc_store_close(s);
			bc_history_free(&h);
			return bc_cli_usage_error("history: --metric '%s': no saved entry of %s that ended well has a metric or figure of that name; they have %s",
						  f.metric, f.bench, names);
		}
	}
	bc_store_close(s);
	if (ret) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	if (!h.cnt) {
		char shown[BC_STORE_SHOWN_MAX];

		bc_warn("history: no saved entry of %s that ended well matches in %s", f.bench,
			bc_store_shown(path, shown, sizeof(shown)));
		bc_history_free(&h);
		return BC_EXIT_FAILED;
	}
	bc_history_write(bc_stdout(), format, f.bench, by, &h);
	bc_history_free(&h);
	return BC_EXIT_OK;
}
