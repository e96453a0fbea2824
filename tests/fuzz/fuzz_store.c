// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The store's readers against crafted rows: the input is up to 16 rows,
 * one a line, each up to ten fields split by tabs (run id, benchmark,
 * options, kernel, label, date, metric, unit, mean, document; "\N" is
 * NULL, "\t" and "\n" are the only bytes a field cannot hold), put into a
 * store whose schema lets every column be NULL, as a crafted file may.
 * Then history (four groupings, four formats), the report, export (to a
 * file and to a directory) and list read it: nothing may crash or leak,
 * and the text and list outputs hold no control character but their own
 * line ends (what a label could use to rewrite a terminal).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "fuzz.h"
#include "history.h"
#include "log.h"
#include "site.h"
#include "store.h"
#include "store_doc.h"

#define BC_FUZZ_ROWS 16
#define BC_FUZZ_FIELDS 10

static char dir[PATH_MAX];

static int bc_fuzz_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* rm -rf, in the process: a fork per input would be most of its time. */
static void bc_fuzz_rm(const char *path)
{
	if (access(path, F_OK))
		return;
	if (nftw(path, bc_fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS))
		abort();
}

/* Control characters other than the line ends the format writes. */
static void bc_fuzz_no_controls(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 && text[i] != '\n')
			abort();
}

/* The store made once, by the real code, with its schema made nullable;
 * each input starts from a copy of its bytes (no fsync per input). */
static char *bc_fuzz_template;
static size_t bc_fuzz_template_len;

static void bc_fuzz_make_template(const char *path)
{
	char err[512];
	struct bc_store *s = bc_store_open(path, BC_STORE_WRITE, err, sizeof(err));
	sqlite3 *db;
	FILE *f;
	long n;

	if (!s)
		abort();
	bc_store_close(s);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		abort();
	sqlite3_exec(db, "PRAGMA writable_schema=ON;"
			 "UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '')"
			 " WHERE name = 'entries';", NULL, NULL, NULL);
	sqlite3_close(db);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0)
		abort();
	rewind(f);
	bc_fuzz_template = malloc((size_t)n);
	if (!bc_fuzz_template || fread(bc_fuzz_template, 1, (size_t)n, f) != (size_t)n)
		abort();
	bc_fuzz_template_len = (size_t)n;
	fclose(f);
}

static int bc_fuzz_make(const char *path, char *text)
{
	static const char insert[] =
		"INSERT INTO entries (run_id, bench, options, kernel_release, label, date, metric,"
		" unit, mean, doc, stddev, n, status, by_runs, higher_better)"
		" VALUES (?,?,?,?,?,?,?,?,?,?, 0.5, 3, 0, 0, 1)";
	char *line, *save = NULL;
	sqlite3_stmt *st;
	sqlite3 *db;
	int rows = 0;
	FILE *f;

	if (!bc_fuzz_template)
		bc_fuzz_make_template(path);
	f = fopen(path, "wb");
	if (!f || fwrite(bc_fuzz_template, 1, bc_fuzz_template_len, f) != bc_fuzz_template_len ||
	    fclose(f))
		abort();
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY; BEGIN;", NULL, NULL,
			 NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, insert, -1, &st, NULL) != SQLITE_OK)
		abort();
	for (line = strtok_r(text, "\n", &save); line && rows < BC_FUZZ_ROWS;
	     line = strtok_r(NULL, "\n", &save), rows++) {
		char *field = line, *tab;

		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		for (int f = 0; f < BC_FUZZ_FIELDS && field; f++) {
			tab = strchr(field, '\t');
			if (tab)
				*tab = '\0';
			if (!strcmp(field, "\\N"))
				sqlite3_bind_null(st, f + 1);
			else if (f == 8)
				sqlite3_bind_double(st, f + 1, strtod(field, NULL));
			else
				sqlite3_bind_text(st, f + 1, field, -1, SQLITE_TRANSIENT);
			field = tab ? tab + 1 : NULL;
		}
		sqlite3_step(st);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	return 0;
}

static void bc_fuzz_read(const char *path)
{
	static const enum bc_format formats[] = { BC_FORMAT_TEXT, BC_FORMAT_JSON, BC_FORMAT_CSV,
						  BC_FORMAT_MARKDOWN };
	struct bc_store_filter all = { 0 }, docs = { .with_doc = true };
	char err[512], site[PATH_MAX + 16], out[PATH_MAX + 16], *text = NULL;
	struct bc_store *s = bc_store_open(path, 0, err, sizeof(err));
	size_t len = 0;
	FILE *m;

	if (!s)
		return;
	for (int by = BC_HISTORY_BY_DATE; by <= BC_HISTORY_BY_MACHINE; by++) {
		struct bc_store_filter f = { .bench = "p:b" };
		struct bc_history h;

		if (bc_history_collect(s, &f, (enum bc_history_by)by, &h, err, sizeof(err)))
			continue;
		for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
			m = open_memstream(&text, &len);
			if (!m)
				abort();
			bc_history_write(m, formats[k], "p:b", (enum bc_history_by)by, &h);
			fclose(m);
			if (formats[k] == BC_FORMAT_TEXT)
				bc_fuzz_no_controls(text, len);
			free(text);
			text = NULL;
		}
		bc_history_free(&h);
	}
	m = open_memstream(&text, &len);
	if (!m)
		abort();
	bc_store_list_write(s, &all, m, err, sizeof(err));
	fclose(m);
	bc_fuzz_no_controls(text, len);
	free(text);
	snprintf(site, sizeof(site), "%s/site", dir);
	bc_site_write(s, path, &all, site);
	bc_fuzz_rm(site);
	snprintf(out, sizeof(out), "%s/export.json", dir);
	bc_store_export_entries(s, &docs, out);
	unlink(out);
	snprintf(out, sizeof(out), "%s/export", dir);
	if (!mkdir(out, 0755))
		bc_store_export_entries(s, &docs, out);
	bc_fuzz_rm(out);
	bc_store_close(s);
}

static void bc_fuzz_cleanup(void)
{
	bc_fuzz_rm(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PATH_MAX + 16], *text;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/bc-fuzz-store-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(bc_fuzz_cleanup);
		bc_log_set_verbosity(-1);
		/* the warnings each bad row costs are the point, not the noise;
		 * stderr itself stays libFuzzer's and the sanitizers' */
		bc_log_set_file(fopen("/dev/null", "we"));
	}
	text = bc_fuzz_cstr(data, size > 65536 ? 65536 : size);
	if (!text)
		return 0;
	snprintf(path, sizeof(path), "%s/s.db", dir);
	unlink(path);
	if (!bc_fuzz_make(path, text))
		bc_fuzz_read(path);
	unlink(path);
	free(text);
	return 0;
}
