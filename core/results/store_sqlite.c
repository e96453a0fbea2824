// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The store in one SQLite file (Debian's libsqlite3): the embedded
 * default, which needs no server.
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
 * What tells our file from any other SQLite database is its
 * application_id; its schema version is its user_version.
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

#include "store_engine.h"
#include "store_sqlite.h"

/* SQLite's application_id of a benchcore store ("BCST"). */
#define BC_SQLITE_APP_ID 0x42435354

/* Long enough for another process's save (a sweep's hundreds of entries)
 * to finish; after it, the save fails with one line rather than hang. */
#define BC_SQLITE_BUSY_MS 30000

struct bc_db {
	sqlite3 *db;
	char *path;
	bool readonly;
	int readonly_errno;	/* why: 0 (write-protected), EACCES, EROFS */
};

/* A statement is SQLite's own; its errors are its connection's. */
#define BC_ST(st) ((sqlite3_stmt *)(st))

/* SQLite's code as one line a user can act on, and an errno. */
static int bc_sqlite_fail_rc(const struct bc_db *s, int rc, const char *doing, char *err,
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
		bc_set_err(err, len,
				  "store '%s': not a benchcore store (not an SQLite database); expected a file made by `benchcore run --save`, or a path where none exists",
				  path);
		return -EINVAL;
	case SQLITE_CORRUPT:
		bc_set_err(err, len,
				  "store '%s': the file is corrupt (%s); left as it is (`sqlite3 '%s' .recover` copies out what can be read)",
				  path, msg, path);
		return -EIO;
	case SQLITE_READONLY:
		if ((rc & 0xffff) == SQLITE_READONLY_ROLLBACK) {
			/* A hot journal only a writer may roll back. */
			bc_set_err(err, len,
					  "store '%s': a save was interrupted and its journal '%s-journal' must be rolled back, which needs write permission on the store; a user who may write it runs any benchcore command on it once",
					  path, path);
			return -EACCES;
		}
		if (s->readonly_errno) {
			bc_set_err(err, len, "store '%s': %s, cannot %s; nothing was written",
					  path, s->readonly_errno == EROFS ? "on a read-only file system"
					  : "not writable by this user (Permission denied)", doing);
			return -s->readonly_errno;
		}
		if ((rc & 0xffff) == SQLITE_READONLY_DIRECTORY || (sys == EACCES || sys == EROFS)) {
			bc_set_err(err, len,
					  "store '%s': its directory is not writable (%s) and a save makes its journal there; nothing was written",
					  path, strerror(sys ? sys : EACCES));
			return -(sys ? sys : EACCES);
		}
		bc_set_err(err, len, "store '%s': read-only (write-protected), cannot %s; nothing was written",
				  path, doing);
		return -EROFS;
	case SQLITE_FULL:
		bc_set_err(err, len,
				  "store '%s': the disk is full, cannot %s; nothing of it was written and the store keeps what it held",
				  path, doing);
		return -ENOSPC;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		bc_set_err(err, len, "store '%s': locked by another process for %d s, cannot %s; nothing was written",
				  path, BC_SQLITE_BUSY_MS / 1000, doing);
		return -EBUSY;
	case SQLITE_CANTOPEN:
		sys = sys ? sys : errno ? errno : ENOENT;
		bc_set_err(err, len, "store '%s': cannot open it: %s", path, strerror(sys));
		return -sys;
	case SQLITE_NOMEM:
		bc_set_err(err, len, "store '%s': out of memory", path);
		return -ENOMEM;
	case SQLITE_IOERR:
		bc_set_err(err, len, "store '%s': I/O error, cannot %s (%s)", path, doing, msg);
		return -EIO;
	default:
		bc_set_err(err, len, "store '%s': cannot %s: %s", path, doing, msg);
		return -EIO;
	}
}

static int bc_sqlite_fail(struct bc_db *db, int code, const char *doing, char *err, size_t len)
{
	return bc_sqlite_fail_rc(db, -code, doing, err, len);
}

/* The default store's directory, made as `mkdir -p` would (0700: results
 * name the machine). */
static int bc_sqlite_mkdirs(const char *path)
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
static int bc_sqlite_dir_writable(const char *path)
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

static void bc_sqlite_close(struct bc_db *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

static struct bc_db *bc_sqlite_open(const char *path, const char *shown, unsigned int flags,
				    char *err, size_t err_len)
{
	bool writing = flags & BC_DB_OPEN_WRITE;
	struct bc_db *s = calloc(1, sizeof(*s));
	struct stat st;
	int oflags, rc, ret;

	(void)shown;	/* a file's name is shown as it is */
	if (!s || !(s->path = strdup(path))) {
		free(s);
		bc_set_err(err, err_len, "store '%s': out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	if (stat(path, &st)) {
		if (errno != ENOENT || !writing) {
			bc_set_err(err, err_len, "store '%s': %s%s", path, strerror(errno),
					  errno == ENOENT ? "; nothing was saved there yet (run --save)" : "");
			ret = -errno;
			goto fail;
		}
		ret = bc_sqlite_mkdirs(path);
		if (ret) {
			bc_set_err(err, err_len, "store '%s': cannot make its directory: %s",
					  path, strerror(-ret));
			goto fail;
		}
		/* SQLite would say only that it cannot open the file. */
		ret = bc_sqlite_dir_writable(path);
		if (ret) {
			bc_set_err(err, err_len, "store '%s': cannot create it: its directory is not writable (%s)",
					  path, strerror(-ret));
			goto fail;
		}
	} else if (!S_ISREG(st.st_mode)) {
		bc_set_err(err, err_len, "store '%s': not a regular file; expected a store file",
				  path);
		ret = -EINVAL;
		goto fail;
	} else if (!(st.st_mode & 0222)) {
		s->readonly = true;	/* write-protected, even for root */
	} else if (access(path, W_OK)) {
		s->readonly = true;
		s->readonly_errno = errno == EROFS ? EROFS : EACCES;
	} else if (writing && (ret = bc_sqlite_dir_writable(path))) {
		/* The file is writable, its directory is not: a save could not
		 * make its journal. Said as it is, not as "read-only". */
		bc_set_err(err, err_len,
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
		ret = bc_sqlite_fail_rc(s, rc, "open it", err, err_len);
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BC_SQLITE_BUSY_MS);
	if (writing && s->readonly) {
		ret = bc_sqlite_fail_rc(s, SQLITE_READONLY, "save to it", err, err_len);
		goto fail;
	}
	return s;
fail:
	bc_sqlite_close(s);
	errno = -ret;
	return NULL;
}

static int bc_sqlite_exec(struct bc_db *s, const char *sql)
{
	int rc;

	errno = 0;
	rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : -rc;
}

/* One integer from a one-row query: 0 or the negative code. */
static int bc_sqlite_int(struct bc_db *s, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return -rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		*out = 0;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return -rc;
}

/*
 * What the file is: ours at some version, an empty database (new), or
 * something else. The caller's BEGIN IMMEDIATE is the lock that keeps
 * two first savers from both creating the schema.
 */
static int bc_sqlite_state(struct bc_db *s, bool writing, enum bc_db_state *state,
			   long long *version)
{
	long long app = 0, tables = 0;
	int ret;

	(void)writing;
	ret = bc_sqlite_int(s, "PRAGMA application_id", &app);
	if (!ret)
		ret = bc_sqlite_int(s, "PRAGMA user_version", version);
	if (!ret)
		ret = bc_sqlite_int(s, "SELECT count(*) FROM sqlite_master", &tables);
	if (ret)
		return ret;
	if (app == 0 && *version == 0 && tables == 0)
		*state = BC_DB_EMPTY;
	else if (app != BC_SQLITE_APP_ID)
		*state = BC_DB_FOREIGN;
	else
		*state = BC_DB_OURS;
	return 0;
}

static int bc_sqlite_set_version(struct bc_db *s, long long from, long long to)
{
	char sql[64];
	int ret;

	if (from == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", BC_SQLITE_APP_ID);
		ret = bc_sqlite_exec(s, sql);
		if (ret)
			return ret;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld", to);
	return bc_sqlite_exec(s, sql);
}

static int bc_sqlite_begin(struct bc_db *s, bool write)
{
	return bc_sqlite_exec(s, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int bc_sqlite_commit(struct bc_db *s)
{
	return bc_sqlite_exec(s, "COMMIT");
}

static void bc_sqlite_rollback(struct bc_db *s)
{
	/* After SQLITE_FULL and some I/O errors SQLite has rolled back
	 * already; a second ROLLBACK only says so. */
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int bc_sqlite_prepare(struct bc_db *s, const char *sql, unsigned int flags,
			     struct bc_db_stmt **out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	(void)flags;	/* SQLite steps through its file: every query streams */
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	*out = (struct bc_db_stmt *)st;
	return rc == SQLITE_OK ? 0 : -rc;
}

static int bc_sqlite_bind_text(struct bc_db_stmt *st, int i, const char *v, size_t len)
{
	int rc = v ? sqlite3_bind_text(BC_ST(st), i, v, (int)len, SQLITE_STATIC)
		   : sqlite3_bind_null(BC_ST(st), i);

	return rc == SQLITE_OK ? 0 : -rc;
}

static int bc_sqlite_bind_int(struct bc_db_stmt *st, int i, long long v)
{
	int rc = sqlite3_bind_int64(BC_ST(st), i, v);

	return rc == SQLITE_OK ? 0 : -rc;
}

static int bc_sqlite_bind_num(struct bc_db_stmt *st, int i, double v)
{
	/* SQLite stores NaN as NULL itself; said here so readers expect it. */
	int rc = isnan(v) ? sqlite3_bind_null(BC_ST(st), i) : sqlite3_bind_double(BC_ST(st), i, v);

	return rc == SQLITE_OK ? 0 : -rc;
}

static int bc_sqlite_step(struct bc_db_stmt *st)
{
	int rc;

	errno = 0;
	rc = sqlite3_step(BC_ST(st));
	if (rc == SQLITE_ROW)
		return BC_DB_ROW;
	if (rc == SQLITE_DONE) {
		sqlite3_reset(BC_ST(st));
		return 0;
	}
	return -rc;
}

static const char *bc_sqlite_col_text(struct bc_db_stmt *st, int i, size_t *len)
{
	const char *v = (const char *)sqlite3_column_text(BC_ST(st), i);

	if (len)
		*len = v ? (size_t)sqlite3_column_bytes(BC_ST(st), i) : 0;
	return v;
}

static long long bc_sqlite_col_int(struct bc_db_stmt *st, int i)
{
	return sqlite3_column_int64(BC_ST(st), i);
}

static double bc_sqlite_col_num(struct bc_db_stmt *st, int i)
{
	return sqlite3_column_type(BC_ST(st), i) == SQLITE_NULL ? NAN
							       : sqlite3_column_double(BC_ST(st), i);
}

static void bc_sqlite_finalize(struct bc_db_stmt *st)
{
	sqlite3_finalize(BC_ST(st));
}

const struct bc_db_ops bc_db_sqlite = {
	.engine = "SQLite",
	.word = {
		[BC_DB_ID] = "INTEGER PRIMARY KEY",
		[BC_DB_INT] = "INTEGER",
		[BC_DB_REAL] = "REAL",
		[BC_DB_TEXT] = "TEXT",
		[BC_DB_NOW] = "(strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
		[BC_DB_KEYED] = " WITHOUT ROWID",
	},
	.foreign = "an SQLite database of another program); expected a file made by `benchcore run --save`, or a path where none exists",
	.open = bc_sqlite_open,
	.close = bc_sqlite_close,
	.state = bc_sqlite_state,
	.set_version = bc_sqlite_set_version,
	.exec = bc_sqlite_exec,
	.begin = bc_sqlite_begin,
	.commit = bc_sqlite_commit,
	.rollback = bc_sqlite_rollback,
	.prepare = bc_sqlite_prepare,
	.bind_text = bc_sqlite_bind_text,
	.bind_int = bc_sqlite_bind_int,
	.bind_num = bc_sqlite_bind_num,
	.step = bc_sqlite_step,
	.col_text = bc_sqlite_col_text,
	.col_int = bc_sqlite_col_int,
	.col_num = bc_sqlite_col_num,
	.finalize = bc_sqlite_finalize,
	.fail = bc_sqlite_fail,
};
