// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore store import|export|list|push|init|path` and where a
 * command's store is: --store NAME, else $BENCHCORE_STORE, else the XDG
 * data directory. A NAME is a file's path or a PostgreSQL server's libpq
 * name (results/store_name.h); a server's is shown with its password
 * masked wherever a line names it. Reading documents in and writing
 * entries out is results/store_doc.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_store.h"
#include "results/store.h"
#include "results/store_doc.h"
#include "results/store_name.h"
#include "results/export_formats.h"
#include "runtime/exit_status.h"
#include "runtime/log.h"
#include "runtime/output.h"

int bc_store_path(const char *path, char *buf, size_t len, char *err, size_t err_len)
{
	const char *env = getenv("BENCHCORE_STORE"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (path && !*path) {
		snprintf(err, err_len, "--store '': expected the path of a store file or a PostgreSQL URL (postgresql://...)");
		return -EINVAL;
	}
	if (path)
		n = snprintf(buf, len, "%s", path);
	else if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg == '/')	/* the XDG spec: relative values are ignored */
		n = snprintf(buf, len, "%s/benchcore/results.db", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/benchcore/results.db", home);
	else {
		snprintf(err, err_len,
				 "no store: neither --store, BENCHCORE_STORE, XDG_DATA_HOME nor HOME is set");
		return -ENOENT;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, err_len, "store path too long (at most %zu bytes)", len - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Options every store subcommand (and history) takes; 1 when argv[*i]
 * was one, 0 when not, -EINVAL after a usage line. */
int bc_store_filter_opt(int argc, char **argv, int *i, const char **store,
			struct bc_store_filter *f)
{
	struct {
		const char *name;
		const char **to;
	} opts[] = {
		{ "--store", store },	       { "--label", &f->label },
		{ "--kernel", &f->kernel },    { "--host", &f->host },
		{ "--options", &f->options },  { "--since", &f->since },
		{ "--bench", &f->bench },      { "--run-id", &f->run_id },
		{ "--cpu-model", &f->cpu_model },
	};
	const char *v;

	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		v = bc_cli_opt_value(argc, argv, i, opts[k].name);
		if (!v)
			continue;
		if (!*v && strcmp(opts[k].name, "--options")) {
			bc_cli_usage_error("%s '': expected a value", opts[k].name);
			return -EINVAL;
		}
		*opts[k].to = v;
		return 1;
	}
	return 0;
}

int bc_store_reader_opt(int argc, char **argv, int *i, const char **store,
			struct bc_store_filter *f, void (*help)(FILE *), int *status)
{
	const char *a = argv[*i];
	int taken;

	if (help && (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-?"))) {
		help(bc_stdout());
		*status = BC_EXIT_OK;
		return -1;
	}
	taken = bc_store_filter_opt(argc, argv, i, store, f);
	if (!taken && bc_cli_metric_opt(argc, argv, i, &f->metric))
		taken = f->metric ? 1 : -EINVAL;
	if (taken < 0) {
		*status = BC_EXIT_USAGE;
		return -1;
	}
	return taken;
}

/* A label names entries that terminals and tables show: no line break,
 * no escape sequence (as run --label). */
static bool bc_text_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static void bc_store_help(FILE *f)
{
	fputs("Usage: benchcore store import [--store STORE] [--label TEXT] FILE...\n"
	      "       benchcore store export [--store STORE] [FILTERS] [-o FILE|DIR]\n"
	      "                              [--format json|gbench|bmf] [--metric NAME]\n"
	      "       benchcore store list   [--store STORE] [FILTERS]\n"
	      "       benchcore store push   [--store STORE] --to STORE [FILTERS]\n"
	      "       benchcore store init   [--store STORE]\n"
	      "       benchcore store path   [--store STORE]\n"
	      "The result store keeps every run saved with --save (docs/history.md).\n"
	      "import adds run, sweep and suite documents (and other stores' entries); an\n"
	      "entry whose run id is there already is kept once. export writes the entries\n"
	      "back as run documents: one to standard output as it was saved, several as a\n"
	      "JSON array, or with -o DIR one RUN_ID.json file each; --format gbench writes\n"
	      "Google Benchmark's JSON (its compare.py reads it), --format bmf the Bencher\n"
	      "Metric Format, one benchmark per configuration (docs/ci.md). push copies the\n"
	      "entries into another store (a team's server) in one transaction, skipping\n"
	      "those already there. init makes or migrates the store and saves nothing.\n"
	      "FILTERS: --bench PLUGIN:BENCH, --label TEXT, --kernel RELEASE, --host NAME,\n"
	      "--cpu-model TEXT, --options LINE, --since DATE, --run-id ID. STORE is a\n"
	      "file, or a PostgreSQL server: postgresql://[USER@]HOST[:PORT]/DB, or a libpq\n"
	      "keyword string (service=NAME); a password comes from the URL, PGPASSFILE\n"
	      "or a service file and is never shown. The store is --store STORE, else\n"
	      "$BENCHCORE_STORE, else $XDG_DATA_HOME/benchcore/results.db.\n", f);
}

static int bc_store_import(int argc, char **argv)
{
	struct bc_import im = { 0 };
	const char *store = NULL, *v;
	size_t added = 0, dups = 0, files = 0;
	char path[PATH_MAX], err[1024] = "";
	int ret = 0;

	for (int i = 1; i < argc && !ret; i++) {
		const char *name = !strncmp(argv[i], "--store", 7) ? "--store"
				   : !strncmp(argv[i], "--label", 7) ? "--label"
								     : NULL;

		if (name && (v = bc_cli_opt_value(argc, argv, &i, name))) {
			if (!*v)
				ret = bc_cli_usage_error("store import: %s '': expected a value", name);
			else if (name[2] == 'l' && bc_text_has_control(v))
				ret = bc_cli_usage_error("store import: --label: the value holds a control character; expected some text on one line without control characters");
			else if (name[2] == 's')
				store = v;
			else
				im.label = v;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			ret = bc_cli_usage_error("store import: unknown option '%s' (expected --store or --label)",
						 argv[i]);
			break;
		}
		files++;
		if (bc_import_file(&im, argv[i], err, sizeof(err))) {
			bc_warn("%s; nothing was imported", err);
			ret = BC_EXIT_USAGE;
		}
	}
	if (!ret && !files)
		ret = bc_cli_usage_error("store import: expected FILE... (run, sweep or suite documents, or a store)");
	/* --label wherever it stood on the line */
	for (size_t k = 0; im.label && k < im.cnt; k++)
		im.items[k].label = im.label;
	if (!ret && bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		ret = BC_EXIT_USAGE;
	}
	if (!ret && bc_store_save_items(path, im.items, im.cnt, &added, &dups, err, sizeof(err))) {
		bc_warn("%s", err);
		ret = BC_EXIT_FAILED;
	}
	if (!ret)
		fprintf(stderr, "benchcore: imported %zu entr%s (%zu already in the store)\n", added,
			added == 1 ? "y" : "ies", dups);
	bc_import_free(&im);
	return ret;
}

/* --format gbench|bmf: one document for another tool (export_formats.h). */
static int bc_store_export_as(struct bc_store *s, const struct bc_store_filter *f,
			      enum bc_export_format fmt, const char *o)
{
	struct bc_out out;
	int ret;

	if (o && bc_out_same_file(o, bc_store_file(s)))
		return bc_cli_usage_error("store export: -o '%s' is the store being exported; expected another file",
					  o);
	ret = bc_out_open(&out, "-o", o);
	if (ret)
		return ret;
	ret = bc_export_write(s, f, fmt, out.f);
	return bc_out_close(&out, ret == BC_EXIT_OK, ret);
}

static int bc_store_export(int argc, char **argv)
{
	struct bc_store_filter f = { .with_doc = true };
	enum bc_export_format fmt = BC_EXPORT_DOCS;
	const char *store = NULL, *o = NULL, *v;
	char path[PATH_MAX], err[1024] = "";
	struct bc_store *s;
	int ret, taken, status;

	for (int i = 1; i < argc; i++) {
		taken = bc_store_reader_opt(argc, argv, &i, &store, &f, NULL, &status);
		if (taken < 0)
			return status;
		if (taken)
			continue;
		if ((v = bc_cli_opt_value(argc, argv, &i, "-o")) ||
		    (v = bc_cli_opt_value(argc, argv, &i, "--output"))) {
			if (!*v)
				return bc_cli_usage_error("store export: -o '': expected a file or a directory");
			o = v;
			continue;
		}
		if ((v = bc_cli_opt_value(argc, argv, &i, "--format"))) {
			if (bc_export_format_parse(v, &fmt))
				return bc_cli_usage_error("store export: --format '%s': expected json, gbench or bmf",
							  v);
			continue;
		}
		return bc_cli_usage_error("store export: unknown argument '%s' (expected filters, -o, --format or --metric)",
					  argv[i]);
	}
	if (f.metric && fmt == BC_EXPORT_DOCS)
		return bc_cli_usage_error("store export: --metric '%s' picks a figure for --format gbench or bmf; the documents carry every figure",
					  f.metric);
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	s = bc_store_open(path, 0, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	if (fmt == BC_EXPORT_DOCS) {
		ret = bc_store_export_entries(s, &f, o);
	} else {
		f.with_doc = false;
		ret = bc_store_export_as(s, &f, fmt, o);
	}
	bc_store_close(s);
	return ret;
}

static int bc_store_list(int argc, char **argv, bool path_only)
{
	struct bc_store_filter f = { 0 };
	const char *store = NULL;
	char path[PATH_MAX], err[1024] = "";
	struct bc_store *s;
	int ret, taken;

	for (int i = 1; i < argc; i++) {
		taken = bc_store_filter_opt(argc, argv, &i, &store, &f);
		if (taken < 0)
			return BC_EXIT_USAGE;
		if (!taken)
			return bc_cli_usage_error("store %s: unknown argument '%s'", argv[0], argv[i]);
	}
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	if (path_only) {
		char shown[BC_STORE_SHOWN_MAX];

		fprintf(bc_stdout(), "%s\n", bc_store_shown(path, shown, sizeof(shown)));
		return BC_EXIT_OK;
	}
	s = bc_store_open(path, 0, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	ret = bc_store_list_write(s, &f, bc_stdout(), err, sizeof(err));
	if (ret)
		bc_warn("%s", err);
	bc_store_close(s);
	return ret ? BC_EXIT_FAILED : BC_EXIT_OK;
}

/*
 * `store push --to STORE`: this store's entries (those FILTERS select)
 * into another, in one transaction, skipping those already there: how a
 * machine that saved offline catches a team's server up. Read whole
 * first, as import reads its files: a bad entry stops the push before
 * anything is written.
 */
static int bc_store_push(int argc, char **argv)
{
	struct bc_store_filter f = { 0 };
	struct bc_import im = { 0 };
	const char *store = NULL, *to = NULL, *v;
	char path[PATH_MAX], err[1024] = "", a[BC_STORE_SHOWN_MAX], b[BC_STORE_SHOWN_MAX];
	size_t added = 0, dups = 0;
	int ret = BC_EXIT_OK, taken;

	for (int i = 1; i < argc; i++) {
		taken = bc_store_filter_opt(argc, argv, &i, &store, &f);
		if (taken < 0)
			return BC_EXIT_USAGE;
		if (taken)
			continue;
		if ((v = bc_cli_opt_value(argc, argv, &i, "--to"))) {
			if (!*v)
				return bc_cli_usage_error("store push: --to '': expected the store to copy into (postgresql://... or a file)");
			to = v;
			continue;
		}
		return bc_cli_usage_error("store push: unknown argument '%s' (expected --to STORE and filters)",
					  bc_store_shown(argv[i], a, sizeof(a)));
	}
	if (!to)
		return bc_cli_usage_error("store push: expected --to STORE (the store to copy into: postgresql://... or a file)");
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	if (!strcmp(path, to) || bc_out_same_file(to, path))
		return bc_cli_usage_error("store push: --to '%s' is the store being pushed ('%s'); expected another store",
					  bc_store_shown(to, a, sizeof(a)),
					  bc_store_shown(path, b, sizeof(b)));
	if (bc_import_store(&im, path, &f, err, sizeof(err))) {
		bc_warn("%s; nothing was pushed", err);
		ret = BC_EXIT_FAILED;
	} else if (im.cnt &&
		   bc_store_save_items(to, im.items, im.cnt, &added, &dups, err, sizeof(err))) {
		bc_warn("%s", err);
		ret = BC_EXIT_FAILED;
	} else {
		fprintf(stderr, "benchcore: pushed %zu entr%s to '%s' (%zu already there)\n", added,
			added == 1 ? "y" : "ies", bc_store_shown(to, a, sizeof(a)), dups);
	}
	bc_import_free(&im);
	return ret;
}

/* `store init`: the store made (or migrated) and nothing saved: what a
 * team's database owner runs once, before roles that may only write
 * entries save into it. */
static int bc_store_init(int argc, char **argv)
{
	struct bc_store_filter f = { 0 };
	const char *store = NULL;
	char path[PATH_MAX], err[1024] = "";
	struct bc_store *s;
	int taken;

	for (int i = 1; i < argc; i++) {
		taken = bc_store_filter_opt(argc, argv, &i, &store, &f);
		if (taken < 0)
			return BC_EXIT_USAGE;
		if (!taken || f.label || f.bench || f.kernel || f.host || f.options || f.since ||
		    f.run_id || f.cpu_model)
			return bc_cli_usage_error("store init: unexpected argument '%s' (expected --store STORE)",
						  argv[i]);
	}
	if (bc_store_path(store, path, sizeof(path), err, sizeof(err))) {
		bc_warn("%s", err);
		return BC_EXIT_USAGE;
	}
	s = bc_store_open(path, BC_STORE_WRITE, err, sizeof(err));
	if (!s) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	fprintf(stderr, "benchcore: store '%s' (%s) is at schema %d\n", bc_store_name(s),
		bc_store_engine(s), bc_store_schema_version(s));
	bc_store_close(s);
	return BC_EXIT_OK;
}

int bc_store_main(struct bc_cli_env *env, int argc, char **argv)
{
	(void)env;
	if (argc < 2) {
		bc_store_help(stderr);
		return BC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "-?")) {
		bc_store_help(bc_stdout());
		return BC_EXIT_OK;
	}
	if (!strcmp(argv[1], "import"))
		return bc_store_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return bc_store_export(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return bc_store_list(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "path"))
		return bc_store_list(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "push"))
		return bc_store_push(argc - 1, argv + 1);
	if (!strcmp(argv[1], "init"))
		return bc_store_init(argc - 1, argv + 1);
	return bc_cli_usage_error("store: unknown subcommand '%s'; expected import, export, list, push, init or path",
				  argv[1]);
}