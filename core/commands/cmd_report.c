// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore report [-o DIR]`: its command line. The site is
 * results/site.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_report.h"
#include "cmd_store.h"
#include "results/site.h"
#include "results/store.h"
#include "results/store_name.h"
#include "runtime/exit_status.h"
#include "runtime/log.h"
#include "runtime/output.h"

static void bc_report_help(FILE *f)
{
	fputs("Usage: benchcore report [-o DIR] [--store PATH] [--metric NAME] [FILTERS]\n"
	      "Writes the result store as a static HTML site into DIR (default\n"
	      "benchcore-report): index.html with every benchmark by kernel and by label\n"
	      "(newest figures, regression marks), a page per benchmark with its trend\n"
	      "charts, a sweep chart and the changes by kernel and label, and data/ with\n"
	      "the JSON documents the figures link to. It opens from a file:// URL and\n"
	      "needs no network or JavaScript. DIR is replaced whole, and only when it is\n"
	      "empty or an earlier report. FILTERS as `benchcore store list` takes them.\n"
	      "--metric NAME charts and judges that metric or derived figure instead of\n"
	      "each entry's headline (entries without it are left out).\n", f);
}


int bc_report_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_store_filter f = { 0 };
	const char *store = NULL, *dir = "benchcore-report", *v;
	char path[PATH_MAX], target[PATH_MAX], err[1024] = "", shown[BC_STORE_SHOWN_MAX];
	struct stat sb = { 0 };
	struct bc_store *s;
	bool exists;
	int taken, status;

	(void)env;
	for (int i = 1; i < argc; i++) {
		taken = bc_store_reader_opt(argc, argv, &i, &store, &f, bc_report_help, &status);
		if (taken < 0)
			return status;
		if (taken)
			continue;
		if ((v = bc_cli_opt_value(argc, argv, &i, "-o")) ||
		    (v = bc_cli_opt_value(argc, argv, &i, "--output"))) {
			if (!*v)
				return bc_cli_usage_error("report: -o '': expected a directory");
			dir = v;
			continue;
		}
		return bc_cli_usage_error("report: unexpected argument '%s' (`benchcore report --help`)",
					  argv[i]);
	}
	/* A trailing slash would make DIR.tmp-XXXXXX a child of DIR. */
	if (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		return bc_cli_usage_error("report: -o '%s': expected a directory name without a trailing '/'",
					  dir);
	/* A link to a directory: the report goes where it points (the swap
	 * would otherwise put a directory in the link's place and leave its
	 * target stale). */
	if (!lstat(dir, &sb) && S_ISLNK(sb.st_mode)) {
		if (!realpath(dir, target))
			return bc_cli_usage_error("report: -o '%s': a link that leads nowhere (%s); expected a directory or a link to one",
						  dir, strerror(errno));
		dir = target;
	}
	exists = !stat(dir, &sb);
	if (exists && (!S_ISDIR(sb.st_mode) || !bc_site_replaceable(dir)))
		return bc_cli_usage_error("report: -o '%s': %s; expected a new directory, an empty one or an earlier report",
					  dir, S_ISDIR(sb.st_mode) ? "a directory that is not a benchcore report" : "not a directory");
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	/* The store inside an earlier report: replacing the report would
	 * delete the store it was made from. */
	if (exists && bc_site_holds(dir, path))
		return bc_cli_usage_error("report: -o '%s': holds the store being read ('%s'), which replacing the directory would delete; expected another directory",
					  dir, bc_store_shown(path, shown, sizeof(shown)));
	s = bc_store_open(path, 0, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	/* the pages name the store as every line does: a password masked */
	status = bc_site_write(s, bc_store_name(s), &f, dir);
	bc_store_close(s);
	return status;
}
