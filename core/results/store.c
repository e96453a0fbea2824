// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The result store: one SQLite file (Debian's libsqlite3), an entry per
 * saved run with the whole document and the columns queries select on.
 *
 * Durability and concurrency come from SQLite's rollback journal: a save
 * is one transaction, so a run killed half-way leaves the journal, which
 * the next open rolls back; two processes that save at once both succeed,
 * the second waiting on the first's lock (busy timeout) after taking the
 * write lock up front (BEGIN IMMEDIATE), which cannot deadlock the way two
 * readers upgrading to writers can. The rollback journal rather than WAL:
 * WAL needs its -shm file writable, which a read-only store (or a reader
 * on another user's store) does not have.
 *
 * The schema has a version (user_version) and a list of migrations, each
 * applied once in a transaction; a store from a newer benchcore is refused
 * rather than written in a shape this one does not know.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "runtime/log.h"
#include "store.h"

/* Long enough for another process's save (a sweep's hundreds of entries)
 * to finish; after it, the save fails with one line rather than hang. */
#define BC_STORE_BUSY_MS 30000

struct bc_store {
	sqlite3 *db;
	char *path;
	bool readonly;
	int readonly_errno;	/* why: 0 (write-protected), EACCES, EROFS */
	bool in_tx;
	long long version;	/* the schema the file has */
	bool warned_bad;	/* a bad row was said once: each read may meet it */
};



/* Each step takes a store from version i to i + 1. */
static const char *const bc_store_migrations[] = {
	/* 1: the entries */
	"CREATE TABLE entries ("
	" id INTEGER PRIMARY KEY,"
	" run_id TEXT NOT NULL UNIQUE,"
	" bench TEXT NOT NULL,"
	" options TEXT NOT NULL DEFAULT '',"
	" kernel_release TEXT, kernel_version TEXT,"
	" host TEXT, cpu_model TEXT, cpu_count INTEGER, hypervisor INTEGER,"
	" benchcore_version TEXT, plugin_version TEXT,"
	" label TEXT, date TEXT NOT NULL, status INTEGER NOT NULL DEFAULT 0,"
	" metric TEXT, unit TEXT, mean REAL, stddev REAL, n INTEGER,"
	" by_runs INTEGER, higher_better INTEGER,"
	" saved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),"
	" doc TEXT NOT NULL);",
	/* 2: what history, baselines and the report select on */
	"CREATE INDEX entries_bench ON entries(bench, options, date);"
	"CREATE INDEX entries_kernel ON entries(kernel_release, date);"
	"CREATE INDEX entries_label ON entries(label, date);"
	"CREATE INDEX entries_machine ON entries(host, cpu_model, cpu_count);"
	"CREATE INDEX entries_versions ON entries(benchcore_version, plugin_version);"
	"CREATE INDEX entries_date ON entries(date);",
	/* 3: each entry's figures by name, so that a query for one (history
	 * --metric) reads no document. The entries saved before it are
	 * listed in metrics_pending until their figures are read from their
	 * documents (store_doc.c does, on the first write); until then a
	 * query reads those documents. A table of their ids, not a column of
	 * entries: finding them must not read every entry's row. */
	"CREATE TABLE metrics ("
	" entry INTEGER NOT NULL REFERENCES entries(id),"
	" name TEXT NOT NULL, unit TEXT, mean REAL, stddev REAL, n INTEGER,"
	" by_runs INTEGER, higher_better INTEGER,"
	" PRIMARY KEY (entry, name)) WITHOUT ROWID;"
	"CREATE TABLE metrics_pending (entry INTEGER PRIMARY KEY);"
	"INSERT INTO metrics_pending SELECT id FROM entries;",
	/* 4: the accelerator of a run in benchcore's own guests ("tcg",
	 * "kvm"), NULL for a native one (every entry before it), so that
	 * history never judges an emulated figure against a native one
	 * (results/accel.h) without reading documents */
	"ALTER TABLE entries ADD COLUMN accelerator TEXT;",
};

#define BC_STORE_MIGRATION_CNT (sizeof(bc_store_migrations) / sizeof(bc_store_migrations[0]))
_Static_assert(BC_STORE_MIGRATION_CNT == BC_STORE_SCHEMA_VERSION,
	       "one migration per schema version");

static void bc_store_set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bc_store_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* SQLite's code as one line a user can act on, and an errno. */
static int bc_store_fail(const struct bc_store *s, int rc, const char *doing, char *err,
			 size_t len)
{
	const char *path = s->path;
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;

	/* SQLite does not always keep the failing call's errno (a COMMIT that
	 * rolls back loses it); the callers clear errno before each statement,
	 * so what is left is that statement's. */
	if (!sys && (rc & 0xff) == SQLITE_IOERR)
		sys = errno;

	/* A write the file system refused for space (or a file size limit)
	 * is a full disk to the user, whatever SQLite called it. */
	if ((rc & 0xff) == SQLITE_IOERR && (sys == ENOSPC || sys == EDQUOT || sys == EFBIG))
		rc = SQLITE_FULL;
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		bc_store_set_err(err, len,
				 "store '%s': not a benchcore store (not an SQLite database); expected a file made by `benchcore run --save`, or a path where none exists",
				 path);
		return -EINVAL;
	case SQLITE_CORRUPT:
		bc_store_set_err(err, len,
				 "store '%s': the file is corrupt (%s); left as it is (`sqlite3 '%s' .recover` copies out what can be read)",
				 path, msg, path);
		return -EIO;
	case SQLITE_READONLY:
		if ((rc & 0xffff) == SQLITE_READONLY_ROLLBACK) {
			/* A hot journal only a writer may roll back. */
			bc_store_set_err(err, len,
					 "store '%s': a save was interrupted and its journal '%s-journal' must be rolled back, which needs write permission on the store; a user who may write it runs any benchcore command on it once",
					 path, path);
			return -EACCES;
		}
		if (s->readonly_errno) {
			bc_store_set_err(err, len, "store '%s': %s, cannot %s; nothing was written",
					 path, s->readonly_errno == EROFS ? "on a read-only file system"
					 : "not writable by this user (Permission denied)", doing);
			return -s->readonly_errno;
		}
		if ((rc & 0xffff) == SQLITE_READONLY_DIRECTORY || (sys == EACCES || sys == EROFS)) {
			bc_store_set_err(err, len,
					 "store '%s': its directory is not writable (%s) and a save makes its journal there; nothing was written",
					 path, strerror(sys ? sys : EACCES));
			return -(sys ? sys : EACCES);
		}
		bc_store_set_err(err, len, "store '%s': read-only (write-protected), cannot %s; nothing was written",
				 path, doing);
		return -EROFS;
	case SQLITE_FULL:
		bc_store_set_err(err, len,
				 "store '%s': the disk is full, cannot %s; nothing of it was written and the store keeps what it held",
				 path, doing);
		return -ENOSPC;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		bc_store_set_err(err, len,
				 "store '%s': locked by another process for %d s, cannot %s; nothing was written",
				 path, BC_STORE_BUSY_MS / 1000, doing);
		return -EBUSY;
	case SQLITE_CANTOPEN:
		sys = sys ? sys : errno ? errno : ENOENT;
		bc_store_set_err(err, len, "store '%s': cannot open it: %s", path, strerror(sys));
		return -sys;
	case SQLITE_NOMEM:
		bc_store_set_err(err, len, "store '%s': out of memory", path);
		return -ENOMEM;
	case SQLITE_IOERR:
		bc_store_set_err(err, len, "store '%s': I/O error, cannot %s (%s)", path, doing, msg);
		return -EIO;
	default:
		bc_store_set_err(err, len, "store '%s': cannot %s: %s", path, doing, msg);
		return -EIO;
	}
}

/* The default store's directory, made as `mkdir -p` would (0700: results
 * name the machine). */
static int bc_store_mkdirs(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Can this process make files in path's directory (a new store, a save's
 * journal)? 0 or the negative errno access(2) says: EACCES, EROFS. */
static int bc_store_dir_writable(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

static int bc_store_exec(struct bc_store *s, const char *sql, const char *doing, char *err,
			 size_t len)
{
	int rc;

	errno = 0;
	rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : bc_store_fail(s, rc, doing, err, len);
}

/* One integer from a one-row query; rc is SQLite's. */
static int bc_store_int(struct bc_store *s, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		*out = 0;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

int bc_store_schema_version(struct bc_store *s)
{
	long long v = -1;

	return bc_store_int(s, "PRAGMA user_version", &v) == SQLITE_OK ? (int)v : -1;
}

/*
 * What the file is: ours at some version, an empty database (new), or
 * something else. Inside the write transaction when writing, so that two
 * first savers do not both create the schema.
 */
static int bc_store_check(struct bc_store *s, bool writing, long long *version, char *err,
			  size_t len)
{
	long long app = 0, tables = 0;
	int rc;

	rc = bc_store_int(s, "PRAGMA application_id", &app);
	if (rc == SQLITE_OK)
		rc = bc_store_int(s, "PRAGMA user_version", version);
	if (rc == SQLITE_OK)
		rc = bc_store_int(s, "SELECT count(*) FROM sqlite_master", &tables);
	if (rc != SQLITE_OK)
		return bc_store_fail(s, rc, writing ? "write to it" : "read it", err, len);
	if (app == 0 && *version == 0 && tables == 0)
		return 0;	/* new, or empty: ours to make */
	if (app != BC_STORE_APP_ID) {
		bc_store_set_err(err, len,
				 "store '%s': not a benchcore store (an SQLite database of another program); expected a file made by `benchcore run --save`, or a path where none exists",
				 s->path);
		return -EINVAL;
	}
	if (*version > BC_STORE_SCHEMA_VERSION) {
		bc_store_set_err(err, len,
				 "store '%s': schema version %lld is newer than this benchcore's %d; use the benchcore that wrote it, or a newer one",
				 s->path, *version, BC_STORE_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static int bc_store_migrate(struct bc_store *s, long long from, char *err, size_t len)
{
	char sql[64];
	int ret;

	if (from == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", BC_STORE_APP_ID);
		ret = bc_store_exec(s, sql, "create the store", err, len);
		if (ret)
			return ret;
	}
	for (long long v = from; v < BC_STORE_SCHEMA_VERSION; v++) {
		ret = bc_store_exec(s, bc_store_migrations[v], "migrate the store", err, len);
		if (ret)
			return ret;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld", v + 1);
		ret = bc_store_exec(s, sql, "migrate the store", err, len);
		if (ret)
			return ret;
	}
	return 0;
}

struct bc_store *bc_store_open(const char *path, unsigned int flags, char *err, size_t err_len)
{
	bool writing = flags & BC_STORE_WRITE;
	struct bc_store *s = calloc(1, sizeof(*s));
	long long version = 0;
	struct stat st;
	int oflags, rc, ret;

	if (!s || !(s->path = strdup(path))) {
		free(s);
		bc_store_set_err(err, err_len, "store '%s': out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	if (stat(path, &st)) {
		if (errno != ENOENT || !writing) {
			bc_store_set_err(err, err_len, "store '%s': %s%s", path, strerror(errno),
					 errno == ENOENT ? "; nothing was saved there yet (run --save)" : "");
			ret = -errno;
			goto fail;
		}
		ret = bc_store_mkdirs(path);
		if (ret) {
			bc_store_set_err(err, err_len, "store '%s': cannot make its directory: %s",
					 path, strerror(-ret));
			goto fail;
		}
		/* SQLite would say only that it cannot open the file. */
		ret = bc_store_dir_writable(path);
		if (ret) {
			bc_store_set_err(err, err_len, "store '%s': cannot create it: its directory is not writable (%s)",
					 path, strerror(-ret));
			goto fail;
		}
	} else if (!S_ISREG(st.st_mode)) {
		bc_store_set_err(err, err_len, "store '%s': not a regular file; expected a store file",
				 path);
		ret = -EINVAL;
		goto fail;
	} else if (!(st.st_mode & 0222)) {
		s->readonly = true;	/* write-protected, even for root */
	} else if (access(path, W_OK)) {
		s->readonly = true;
		s->readonly_errno = errno == EROFS ? EROFS : EACCES;
	} else if (writing && (ret = bc_store_dir_writable(path))) {
		/* The file is writable, its directory is not: a save could not
		 * make its journal. Said as it is, not as "read-only". */
		bc_store_set_err(err, err_len,
				 "store '%s': its directory is not writable (%s) and a save makes its journal there; nothing was written",
				 path, strerror(-ret));
		goto fail;
	}
	/*
	 * A reader opens a store it may write read-write too: after a save
	 * that was killed mid-commit, the journal left beside the store is
	 * "hot", and only a connection that can write rolls it back (on its
	 * first read), so that the store reads as it was before that save. A
	 * read-only connection could only refuse to read it. Nothing else is
	 * written by a reader.
	 */
	oflags = SQLITE_OPEN_NOMUTEX;
	if (s->readonly)
		oflags |= SQLITE_OPEN_READONLY;
	else if (!writing)
		oflags |= SQLITE_OPEN_READWRITE;
	else
		oflags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	errno = 0;
	rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
	if (rc != SQLITE_OK) {
		ret = bc_store_fail(s, rc, "open it", err, err_len);
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BC_STORE_BUSY_MS);
	if (writing && s->readonly) {
		rc = SQLITE_READONLY;
		ret = bc_store_fail(s, rc, "save to it", err, err_len);
		goto fail;
	}
	if (!writing) {
		ret = bc_store_check(s, false, &version, err, err_len);
		if (ret)
			goto fail;
		if (version == 0) {
			bc_store_set_err(err, err_len, "store '%s': empty; nothing was saved there yet (run --save)",
					 path);
			ret = -ENOENT;
			goto fail;
		}
		s->version = version;
		return s;
	}
	/* Make or migrate under the write lock, checking again inside it. */
	ret = bc_store_begin(s, err, err_len);
	if (ret)
		goto fail;
	ret = bc_store_check(s, true, &version, err, err_len);
	if (!ret && version < BC_STORE_SCHEMA_VERSION)
		ret = bc_store_migrate(s, version, err, err_len);
	if (!ret)
		ret = bc_store_commit(s, err, err_len);
	if (ret)
		goto fail;
	s->version = BC_STORE_SCHEMA_VERSION;
	return s;
fail:
	bc_store_close(s);
	errno = -ret;
	return NULL;
}

void bc_store_close(struct bc_store *s)
{
	if (!s)
		return;
	if (s->in_tx)
		bc_store_rollback(s);
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

const char *bc_store_file(const struct bc_store *s)
{
	return s->path;
}

int bc_store_begin(struct bc_store *s, char *err, size_t err_len)
{
	int ret = bc_store_exec(s, "BEGIN IMMEDIATE", "take its write lock", err, err_len);

	s->in_tx = !ret;
	return ret;
}

int bc_store_commit(struct bc_store *s, char *err, size_t err_len)
{
	int ret = bc_store_exec(s, "COMMIT", "commit", err, err_len);

	if (ret)
		bc_store_rollback(s);
	s->in_tx = false;
	return ret;
}

void bc_store_rollback(struct bc_store *s)
{
	/* After SQLITE_FULL and some I/O errors SQLite has rolled back
	 * already; a second ROLLBACK only says so. */
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_tx = false;
}

static void bc_bind_str(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bc_bind_num(sqlite3_stmt *st, int i, double v)
{
	/* SQLite stores NaN as NULL itself; said here so readers expect it. */
	if (v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* The entry's figures by name; a name twice is kept once (the first). */
static int bc_store_put_metrics(struct bc_store *s, sqlite3_int64 entry,
				const struct bc_store_keys *k, char *err, size_t err_len);

int bc_store_put_figures(struct bc_store *s, int64_t entry, const struct bc_store_metric *metrics,
			 size_t cnt, char *err, size_t err_len)
{
	struct bc_store_keys k = { .metrics = metrics, .metric_cnt = cnt };
	char sql[96];
	int ret = bc_store_put_metrics(s, entry, &k, err, err_len);

	snprintf(sql, sizeof(sql), "DELETE FROM metrics_pending WHERE entry = %lld",
		 (long long)entry);
	return ret ? ret : bc_store_exec(s, sql, "save to it", err, err_len);
}

static int bc_store_put_metrics(struct bc_store *s, sqlite3_int64 entry,
				const struct bc_store_keys *k, char *err, size_t err_len)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO metrics (entry, name, unit, mean, stddev, n, by_runs,"
		" higher_better) VALUES (?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	int rc;

	if (!k->metric_cnt)
		return 0;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return bc_store_fail(s, rc, "save to it", err, err_len);
	rc = SQLITE_DONE;
	for (size_t m = 0; m < k->metric_cnt && rc == SQLITE_DONE; m++) {
		const struct bc_store_metric *x = &k->metrics[m];
		int i = 1;

		sqlite3_reset(st);
		sqlite3_bind_int64(st, i++, entry);
		bc_bind_str(st, i++, x->name);
		bc_bind_str(st, i++, x->unit);
		bc_bind_num(st, i++, x->mean);
		bc_bind_num(st, i++, x->stddev);
		sqlite3_bind_int64(st, i++, x->n);
		sqlite3_bind_int(st, i++, x->by_runs);
		sqlite3_bind_int(st, i++, x->higher_better);
		errno = 0;
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : bc_store_fail(s, rc, "save to it", err, err_len);
}

int bc_store_put(struct bc_store *s, const struct bc_store_keys *k, const char *doc,
		 size_t doc_len, char *err, size_t err_len)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO entries (run_id, bench, options, kernel_release,"
		" kernel_version, host, cpu_model, cpu_count, hypervisor, benchcore_version,"
		" plugin_version, label, date, status, metric, unit, mean, stddev, n, by_runs,"
		" higher_better, doc, accelerator)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	int rc, i = 1;

	if (!k->run_id || !k->bench || !k->date) {
		bc_store_set_err(err, err_len, "store '%s': an entry needs a run id, a benchmark and a date",
				 s->path);
		return -EINVAL;
	}
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return bc_store_fail(s, rc, "save to it", err, err_len);
	bc_bind_str(st, i++, k->run_id);
	bc_bind_str(st, i++, k->bench);
	bc_bind_str(st, i++, k->options ? k->options : "");
	bc_bind_str(st, i++, k->kernel_release);
	bc_bind_str(st, i++, k->kernel_version);
	bc_bind_str(st, i++, k->host);
	bc_bind_str(st, i++, k->cpu_model);
	sqlite3_bind_int64(st, i++, k->cpu_count);
	sqlite3_bind_int(st, i++, k->hypervisor);
	bc_bind_str(st, i++, k->benchcore_version);
	bc_bind_str(st, i++, k->plugin_version);
	bc_bind_str(st, i++, k->label);
	bc_bind_str(st, i++, k->date);
	sqlite3_bind_int(st, i++, k->status);
	bc_bind_str(st, i++, k->metric);
	bc_bind_str(st, i++, k->unit);
	bc_bind_num(st, i++, k->mean);
	bc_bind_num(st, i++, k->stddev);
	sqlite3_bind_int64(st, i++, k->n);
	sqlite3_bind_int(st, i++, k->by_runs);
	sqlite3_bind_int(st, i++, k->higher_better);
	sqlite3_bind_text(st, i++, doc, (int)doc_len, SQLITE_STATIC);
	bc_bind_str(st, i++, k->accelerator);
	errno = 0;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bc_store_fail(s, rc, "save to it", err, err_len);
	if (!sqlite3_changes(s->db))
		return 1;
	return bc_store_put_metrics(s, sqlite3_last_insert_rowid(s->db), k, err, err_len);
}

static const char *bc_col_str(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static double bc_col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/*
 * What a crafted (or damaged) row lacks that every reader needs, or NULL:
 * the schema says NOT NULL, but a store is an input like any other file
 * and a row is read as untrusted. A NULL text column that may be unknown
 * (a label, a kernel) is the readers' to show as such.
 */
static const char *bc_store_row_bad(const struct bc_store_row *r, bool need_doc)
{
	if (!r->k.run_id)
		return "run id";
	if (!r->k.bench)
		return "benchmark";
	if (!r->k.date)
		return "date";
	if (need_doc && !r->doc)
		return "document";
	return NULL;
}

/* A growing SQL text; NULL after the first failure. */
static char *bc_sql_add(char *sql, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *bc_sql_add(char *sql, const char *fmt, ...)
{
	char *more = NULL, *all = NULL;
	va_list ap;
	int n;

	if (!sql)
		return NULL;
	va_start(ap, fmt);
	n = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (n >= 0 && asprintf(&all, "%s%s", sql, more) < 0)
		all = NULL;
	free(more);
	free(sql);
	return all;
}

/* " WHERE bench = ? AND ..." for the filter's members (e. the entries),
 * bound from *b on by bc_store_bind_where(). */
static char *bc_store_where(char *sql, const struct bc_store_filter *f, const char **and)
{
	const char *strs[] = { f->bench, f->options, f->label, f->kernel, f->host, f->cpu_model,
			       f->run_id };
	const char *cols[] = { "bench", "options", "label", "kernel_release", "host", "cpu_model",
			       "run_id" };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		if (!strs[i])
			continue;
		sql = bc_sql_add(sql, "%se.%s = ?", *and, cols[i]);
		*and = " AND ";
	}
	if (f->cpu_count) {
		sql = bc_sql_add(sql, "%se.cpu_count = %u", *and, f->cpu_count);
		*and = " AND ";
	}
	if (f->since) {
		sql = bc_sql_add(sql, "%se.date >= ?", *and);
		*and = " AND ";
	}
	if (f->until) {
		sql = bc_sql_add(sql, "%se.date <= ?", *and);
		*and = " AND ";
	}
	if (f->id) {
		sql = bc_sql_add(sql, "%se.id = %lld", *and, (long long)f->id);
		*and = " AND ";
	}
	if (f->ok_only) {
		sql = bc_sql_add(sql, "%se.status = 0", *and);
		*and = " AND ";
	}
	return sql;
}

/* An entry whose figures are not kept by name yet. */
#define BC_STORE_PENDING "e.id IN (SELECT entry FROM metrics_pending)"

/* ... AND the entry is pending, where the store has figures by name at all. */
static char *bc_store_where_unindexed(const struct bc_store *s, char *sql, const char **and)
{
	if (s->version < 3)
		return sql;
	sql = bc_sql_add(sql, "%s" BC_STORE_PENDING, *and);
	*and = " AND ";
	return sql;
}

static void bc_store_bind_where(sqlite3_stmt *st, const struct bc_store_filter *f, int *b)
{
	const char *strs[] = { f->bench, f->options, f->label, f->kernel, f->host, f->cpu_model,
			       f->run_id };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i])
			bc_bind_str(st, (*b)++, strs[i]);
	if (f->since)
		bc_bind_str(st, (*b)++, f->since);
	if (f->until)
		bc_bind_str(st, (*b)++, f->until);
}

int bc_store_each(struct bc_store *s, const struct bc_store_filter *f, bc_store_row_fn fn,
		  void *cookie, char *err, size_t err_len)
{
	/* A metric's figures: from the metrics table, or (an entry or a
	 * store from before it) the document. */
	bool joined = f->metric && s->version >= 3, docs_only = f->metric && !joined;
	char *sql = strdup("SELECT e.id, e.run_id, e.bench, e.options, e.kernel_release,"
			   " e.kernel_version, e.host, e.cpu_model, e.cpu_count, e.hypervisor,"
			   " e.benchcore_version, e.plugin_version, e.label, e.date, e.status, e.metric,"
			   " e.unit, e.mean, e.stddev, e.n, e.by_runs, e.higher_better");
	const char *and = " WHERE ";
	/* last, whatever comes before it: a store read before its migration
	 * to 4 has no such column, and all its entries are native */
	const char *accel = s->version >= 4 ? "e.accelerator" : "NULL";
	const char *what, *bad_what = NULL;
	sqlite3_stmt *st = NULL;
	int rc, ret = 0, b = 1;
	long long bad_id = 0;
	size_t bad = 0;

	if (joined)
		sql = bc_sql_add(sql, ", m.unit, m.mean, m.stddev, m.n, m.by_runs, m.higher_better,"
				 " m.entry IS NOT NULL, %s, %s FROM entries e LEFT JOIN metrics m"
				 " ON m.entry = e.id AND m.name = ?",
				 f->with_doc ? "e.doc" : "CASE WHEN m.entry IS NULL THEN e.doc END", accel);
	else
		sql = bc_sql_add(sql, "%s, %s FROM entries e",
				 f->with_doc || docs_only ? ", e.doc" : ", NULL", accel);
	sql = bc_store_where(sql, f, &and);
	if (f->unindexed_only)
		sql = bc_store_where_unindexed(s, sql, &and);
	if (joined)
		sql = bc_sql_add(sql, "%s(m.entry IS NOT NULL OR " BC_STORE_PENDING ")", and);
	/* the entries to index by their ids, through the index of exactly them */
	if (f->unindexed_only)
		sql = bc_sql_add(sql, " ORDER BY e.id");
	else
		sql = bc_sql_add(sql, " ORDER BY e.date %s, e.id %s", f->newest_first ? "DESC" : "ASC",
				 f->newest_first ? "DESC" : "ASC");
	if (f->limit)
		sql = bc_sql_add(sql, " LIMIT %u", f->limit);
	if (!sql) {
		bc_store_set_err(err, err_len, "store '%s': out of memory", s->path);
		return -ENOMEM;
	}
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return bc_store_fail(s, rc, "read it", err, err_len);
	if (joined)
		bc_bind_str(st, b++, f->metric);
	bc_store_bind_where(st, f, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bc_store_row r = { .id = sqlite3_column_int64(st, 0) };
		int c = 1;

		r.k.run_id = bc_col_str(st, c++);
		r.k.bench = bc_col_str(st, c++);
		r.k.options = bc_col_str(st, c++);
		r.k.kernel_release = bc_col_str(st, c++);
		r.k.kernel_version = bc_col_str(st, c++);
		r.k.host = bc_col_str(st, c++);
		r.k.cpu_model = bc_col_str(st, c++);
		r.k.cpu_count = (unsigned int)sqlite3_column_int64(st, c++);
		r.k.hypervisor = sqlite3_column_int(st, c++);
		r.k.accelerator = bc_col_str(st, sqlite3_column_count(st) - 1);
		r.k.benchcore_version = bc_col_str(st, c++);
		r.k.plugin_version = bc_col_str(st, c++);
		r.k.label = bc_col_str(st, c++);
		r.k.date = bc_col_str(st, c++);
		r.k.status = sqlite3_column_int(st, c++);
		r.k.metric = bc_col_str(st, c++);
		r.k.unit = bc_col_str(st, c++);
		r.k.mean = bc_col_num(st, c++);
		r.k.stddev = bc_col_num(st, c++);
		r.k.n = (unsigned int)sqlite3_column_int64(st, c++);
		r.k.by_runs = sqlite3_column_int(st, c++);
		r.k.higher_better = sqlite3_column_int(st, c++);
		if (joined && sqlite3_column_int(st, c + 6)) {
			r.k.metric = f->metric;
			r.k.unit = bc_col_str(st, c++);
			r.k.mean = bc_col_num(st, c++);
			r.k.stddev = bc_col_num(st, c++);
			r.k.n = (unsigned int)sqlite3_column_int64(st, c++);
			r.k.by_runs = sqlite3_column_int(st, c++);
			r.k.higher_better = sqlite3_column_int(st, c++);
			c++;
		} else if (joined) {
			r.unindexed = true;
			c += 7;
		} else {
			r.unindexed = docs_only;
		}
		r.doc = bc_col_str(st, c);
		r.doc_len = r.doc ? (size_t)sqlite3_column_bytes(st, c) : 0;
		if (!r.k.options)
			r.k.options = "";
		what = bc_store_row_bad(&r, f->with_doc || r.unindexed);
		if (what) {
			if (!bad++) {
				bad_id = r.id;
				bad_what = what;
			}
			continue;
		}
		ret = fn(&r, cookie);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = bc_store_fail(s, rc, "read it", err, err_len);
	sqlite3_finalize(st);
	if (bad && !s->warned_bad) {
		s->warned_bad = true;
		if (bad == 1)
			bc_warn("store '%s': entry %lld has no %s (its column is NULL), so it is left out; the rest is read",
				s->path, (long long)bad_id, bad_what);
		else
			bc_warn("store '%s': %zu entries whose run id, benchmark, date or document is NULL are left out (the first: entry %lld, no %s); the rest is read",
				s->path, bad, (long long)bad_id, bad_what);
	}
	return ret;
}

/* Appends name to the ", "-separated list in buf unless it is there. */
static void bc_name_add(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf), nl = strlen(name);

	for (const char *p = buf; (p = strstr(p, name)); p++)
		if ((p == buf || (p[-1] == ' ' && p[-2] == ',')) && (p[nl] == ',' || !p[nl]))
			return;
	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

int bc_store_metric_names(struct bc_store *s, const struct bc_store_filter *f, char *buf,
			  size_t len, size_t *unindexed, char *err, size_t err_len)
{
	const char *and = " WHERE ";
	char *sql;
	sqlite3_stmt *st;
	int rc, b = 1;

	if (len)
		buf[0] = '\0';
	*unindexed = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0 && s->version < 3)
			continue;
		and = pass == 0 ? " AND " : " WHERE ";
		sql = strdup(pass == 0 ? "SELECT DISTINCT m.name FROM metrics m JOIN entries e ON e.id = m.entry"
					 " WHERE 1"
				       : "SELECT count(*) FROM entries e");
		sql = bc_store_where(sql, f, &and);
		if (pass == 1)
			sql = bc_store_where_unindexed(s, sql, &and);
		if (pass == 0)
			sql = bc_sql_add(sql, " ORDER BY m.name");
		if (!sql) {
			bc_store_set_err(err, err_len, "store '%s': out of memory", s->path);
			return -ENOMEM;
		}
		rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
		free(sql);
		if (rc != SQLITE_OK)
			return bc_store_fail(s, rc, "read it", err, err_len);
		b = 1;
		bc_store_bind_where(st, f, &b);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (pass == 0 && bc_col_str(st, 0))
				bc_name_add(buf, len, bc_col_str(st, 0));
			else if (pass == 1)
				*unindexed = (size_t)sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return bc_store_fail(s, rc, "read it", err, err_len);
	}
	return 0;
}
