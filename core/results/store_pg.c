// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The store on a PostgreSQL server, through libpq (Debian's libpq-dev).
 *
 * The connection is libpq's from end to end: the name is a URI or a
 * keyword string, and whatever it leaves out (host, user, password,
 * database) libpq takes from its own places, PG* variables, PGPASSFILE
 * and pg_service.conf, which benchcore never reads itself. The password
 * libpq used is kept only to be wiped from its messages.
 *
 * Many writers at once: each save is one transaction under READ
 * COMMITTED; run ids are unique and an entry whose id is there already is
 * skipped (ON CONFLICT DO NOTHING), so two machines that save the same
 * run keep it once and no writer waits on another's other entries. The
 * schema is made or migrated under a transaction-scoped advisory lock, so
 * that a second first saver waits and then finds it made.
 *
 * Rows come as text: a query that may return many (history, export)
 * reads through a cursor a batch at a time, in a transaction of its own
 * when none is open, so that a store of 100,000 entries is never held in
 * memory whole and a reader may query again between two rows (the report
 * reads each entry's document while it walks them).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "runtime/log.h"
#include "store_engine.h"
#include "store_name.h"
#include "store_pg.h"

/* The advisory lock the schema is made under ("BCST"). */
#define BC_PG_LOCK 0x42435354
/* Rows a cursor brings per round trip. */
#define BC_PG_FETCH 2000
/* Seconds to reach a server, unless the name says otherwise: an address
 * that drops packets would otherwise hold a run for minutes. */
#define BC_PG_CONNECT_TIMEOUT "10"
/* Our code for "the last call failed; db->state and db->msg say why". */
#define BC_PG_FAILED (-1)

struct bc_db {
	PGconn *conn;
	char *shown;		/* the name as messages show it */
	char *password;		/* the one libpq used: wiped from its messages */
	bool in_tx;
	unsigned int cursors;	/* names the next cursor */
	char state[6];		/* the last failure's SQLSTATE, "" for none */
	char msg[512];		/* its primary message, on one line */
};

struct bc_db_stmt {
	struct bc_db *db;
	char *sql;		/* '?' numbered as $1, $2, ... */
	int nparams;
	char **vals;		/* owned copies; NULL is SQL NULL */
	PGresult *res;
	int row, rows;		/* the next row of res, and how many it has */
	bool many, started, done, own_tx;
	char cursor[32];
};

/* One line without a password: libpq's lines joined by "; ", runs of
 * spaces and tabs one space, and the password libpq used masked. */
static void bc_pg_line(const struct bc_db *db, const char *in, char *out, size_t len)
{
	size_t n = 0, pl = db && db->password ? strlen(db->password) : 0;
	const char *gap = NULL;

	if (!len)
		return;
	for (const char *p = in ? in : ""; *p && n + 1 < len; p++) {
		if (isspace((unsigned char)*p)) {
			if (n && (*p == '\n' || !gap))
				gap = *p == '\n' ? "; " : " ";
			continue;
		}
		for (; gap && *gap && n + 1 < len; gap++)
			out[n++] = *gap;
		gap = NULL;
		if (pl >= 3 && !strncmp(p, db->password, pl)) {
			for (const char *m = BC_STORE_MASK; *m && n + 1 < len; m++)
				out[n++] = *m;
			p += pl - 1;
			continue;
		}
		if (n + 1 < len)
			out[n++] = *p;
	}
	out[n] = '\0';
}

/* Keeps why res (or the connection) failed; BC_PG_FAILED. */
static int bc_pg_keep(struct bc_db *db, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	snprintf(db->state, sizeof(db->state), "%s", state ? state : "");
	bc_pg_line(db, msg ? msg : PQerrorMessage(db->conn), db->msg, sizeof(db->msg));
	return BC_PG_FAILED;
}

/* 0 when res is what was expected (freed), else BC_PG_FAILED (freed). */
static int bc_pg_check(struct bc_db *db, PGresult *res)
{
	ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	int ret = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : bc_pg_keep(db, res);

	PQclear(res);
	return ret;
}

static void bc_pg_notice(void *arg, const char *message)
{
	char line[512];

	/* libpq would print them on stderr: debug lines, masked */
	bc_pg_line(arg, message, line, sizeof(line));
	bc_debug("%s", line);
}

static void bc_pg_close(struct bc_db *db)
{
	if (!db)
		return;
	if (db->conn)
		PQfinish(db->conn);
	if (db->password) {
		explicit_bzero(db->password, strlen(db->password));
		free(db->password);
	}
	free(db->shown);
	free(db);
}

/* One value of a one-row query, into buf; 0 or BC_PG_FAILED. */
static int bc_pg_value(struct bc_db *db, const char *sql, char *buf, size_t len)
{
	PGresult *res = PQexec(db->conn, sql);

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) < 1) {
		int ret = bc_pg_keep(db, res);

		PQclear(res);
		return ret;
	}
	snprintf(buf, len, "%s", PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

static struct bc_db *bc_pg_open(const char *name, const char *shown, unsigned int flags,
				char *err, size_t err_len)
{
	/* Ours first, so that the name (and libpq's own places, which it
	 * reads for what nothing here sets) override them; the encoding
	 * last: the text benchcore sends and reads is UTF-8 whatever the
	 * name says. */
	const char *const keys[] = { "connect_timeout", "fallback_application_name", "dbname",
				     "client_encoding", NULL };
	const char *const vals[] = { BC_PG_CONNECT_TIMEOUT, "benchcore", name, "UTF8", NULL };
	struct bc_db *db = calloc(1, sizeof(*db));
	char why[768], ro[16] = "";
	const char *pass;
	int ret;

	if (!db || !(db->shown = strdup(shown))) {
		free(db);
		bc_set_err(err, err_len, "store '%s': out of memory", shown);
		errno = ENOMEM;
		return NULL;
	}
	db->conn = PQconnectdbParams(keys, vals, 1);
	if (!db->conn) {
		bc_set_err(err, err_len, "store '%s': out of memory", shown);
		ret = -ENOMEM;
		goto fail;
	}
	pass = PQpass(db->conn);
	if (pass && *pass)
		db->password = strdup(pass);
	if (PQstatus(db->conn) != CONNECTION_OK) {
		bc_pg_line(db, PQerrorMessage(db->conn), why, sizeof(why));
		if (PQconnectionNeedsPassword(db->conn))
			bc_set_err(err, err_len,
				      "store '%s': the server asks for a password and none was given (expected one in the URL, PGPASSFILE or a service file); nothing was %s",
				      shown, flags & BC_DB_OPEN_WRITE ? "written" : "read");
		else
			bc_set_err(err, err_len, "store '%s': cannot connect: %s; nothing was %s",
				      shown, *why ? why : "no reason given",
				      flags & BC_DB_OPEN_WRITE ? "written" : "read");
		ret = PQconnectionNeedsPassword(db->conn) ? -EACCES : -ECONNREFUSED;
		goto fail;
	}
	PQsetNoticeProcessor(db->conn, bc_pg_notice, db);
	/* Doubles read back as the bits that were saved, whatever the
	 * server's default says (from PostgreSQL 12, any value above 0 is
	 * the shortest exact form). */
	ret = bc_pg_check(db, PQexec(db->conn, "SET extra_float_digits = 3"));
	if (!ret && (flags & BC_DB_OPEN_WRITE))
		ret = bc_pg_value(db, "SHOW transaction_read_only", ro, sizeof(ro));
	if (ret) {
		bc_set_err(err, err_len, "store '%s': cannot read it: %s", shown, db->msg);
		ret = -EIO;
		goto fail;
	}
	if (!strcmp(ro, "on")) {
		bc_set_err(err, err_len,
			      "store '%s': the server takes no writes (transaction_read_only is on: default_transaction_read_only, or a standby), cannot save to it; nothing was written",
			      shown);
		ret = -EROFS;
		goto fail;
	}
	return db;
fail:
	bc_pg_close(db);
	errno = -ret;
	return NULL;
}

static int bc_pg_exec(struct bc_db *db, const char *sql)
{
	return bc_pg_check(db, PQexec(db->conn, sql));
}

static int bc_pg_begin(struct bc_db *db, bool write)
{
	int ret;

	(void)write;	/* READ COMMITTED: writers of other run ids never wait */
	ret = bc_pg_exec(db, "BEGIN");
	db->in_tx = !ret;
	return ret;
}

static int bc_pg_commit(struct bc_db *db)
{
	PGresult *res = PQexec(db->conn, "COMMIT");
	int ret;

	/* A failed transaction's COMMIT succeeds, saying ROLLBACK. */
	if (PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(res), "COMMIT")) {
		snprintf(db->state, sizeof(db->state), "25P02");
		snprintf(db->msg, sizeof(db->msg), "the transaction was rolled back");
		PQclear(res);
		ret = BC_PG_FAILED;
	} else {
		ret = bc_pg_check(db, res);
	}
	db->in_tx = false;
	return ret;
}

static void bc_pg_rollback(struct bc_db *db)
{
	if (PQtransactionStatus(db->conn) != PQTRANS_IDLE)
		PQclear(PQexec(db->conn, "ROLLBACK"));
	db->in_tx = false;
}

static int bc_pg_state(struct bc_db *db, bool writing, enum bc_db_state *state,
		       long long *version)
{
	char sql[96], v[64] = "";
	int ret = 0;

	*version = 0;
	if (writing) {
		snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)", BC_PG_LOCK);
		ret = bc_pg_exec(db, sql);
	}
	if (!ret)
		ret = bc_pg_value(db, "SELECT CASE WHEN to_regclass('benchcore_schema') IS NOT NULL THEN 'ours'"
				      " WHEN to_regclass('entries') IS NOT NULL OR to_regclass('metrics') IS NOT NULL"
				      " OR to_regclass('metrics_pending') IS NOT NULL THEN 'foreign'"
				      " ELSE 'empty' END", v, sizeof(v));
	if (ret)
		return ret;
	if (!strcmp(v, "empty")) {
		*state = BC_DB_EMPTY;
		return 0;
	}
	if (!strcmp(v, "foreign")) {
		*state = BC_DB_FOREIGN;
		return 0;
	}
	*state = BC_DB_OURS;
	ret = bc_pg_value(db, "SELECT coalesce(max(version), 0) FROM benchcore_schema", v, sizeof(v));
	if (!ret)
		*version = strtoll(v, NULL, 10);
	return ret;
}

static int bc_pg_set_version(struct bc_db *db, long long from, long long to)
{
	char sql[96];
	int ret = 0;

	/* The table is what tells benchcore's tables from another
	 * program's; its one row, the schema's version. */
	if (from == 0)
		ret = bc_pg_exec(db, "CREATE TABLE benchcore_schema (version INTEGER NOT NULL);"
				     "INSERT INTO benchcore_schema VALUES (0)");
	snprintf(sql, sizeof(sql), "UPDATE benchcore_schema SET version = %lld", to);
	return ret ? ret : bc_pg_exec(db, sql);
}

static void bc_pg_finalize(struct bc_db_stmt *st)
{
	char sql[64];

	if (!st)
		return;
	PQclear(st->res);
	if (st->many && st->started && PQtransactionStatus(st->db->conn) == PQTRANS_INTRANS &&
	    st->cursor[0]) {
		snprintf(sql, sizeof(sql), "CLOSE %s", st->cursor);
		PQclear(PQexec(st->db->conn, sql));
	}
	if (st->own_tx) {
		/* a read: nothing of it to keep, nothing to fail */
		bc_pg_rollback(st->db);
	}
	for (int i = 0; i < st->nparams; i++)
		free(st->vals[i]);
	free(st->vals);
	free(st->sql);
	free(st);
}

/* '?' as $1, $2, ... outside quotes; the count into st->nparams. */
static char *bc_pg_number(const char *sql, int *nparams)
{
	size_t n = strlen(sql), q = 0;
	char *out, *o;
	char quote = 0;

	for (const char *p = sql; *p; p++)
		q += *p == '?';
	out = malloc(n + q * 11 + 1);
	if (!out)
		return NULL;
	o = out;
	*nparams = 0;
	for (const char *p = sql; *p; p++) {
		if (quote) {
			quote = *p == quote ? 0 : quote;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '?') {
			o += sprintf(o, "$%d", ++*nparams);
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

static int bc_pg_prepare(struct bc_db *db, const char *sql, unsigned int flags,
			 struct bc_db_stmt **out)
{
	struct bc_db_stmt *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		goto oom;
	st->db = db;
	st->many = flags & BC_DB_MANY;
	st->sql = bc_pg_number(sql, &st->nparams);
	st->vals = calloc((size_t)st->nparams + 1, sizeof(*st->vals));
	if (!st->sql || !st->vals)
		goto oom;
	*out = st;
	return 0;
oom:
	if (st) {
		free(st->sql);
		free(st->vals);
		free(st);
	}
	snprintf(db->state, sizeof(db->state), "53200");
	snprintf(db->msg, sizeof(db->msg), "out of memory");
	return BC_PG_FAILED;
}

static int bc_pg_bind_copy(struct bc_db_stmt *st, int i, char *v)
{
	if (i < 1 || i > st->nparams) {
		free(v);
		snprintf(st->db->state, sizeof(st->db->state), "08P01");
		snprintf(st->db->msg, sizeof(st->db->msg), "parameter %d of %d bound", i, st->nparams);
		return BC_PG_FAILED;
	}
	free(st->vals[i - 1]);
	st->vals[i - 1] = v;
	/* a statement bound again runs again */
	PQclear(st->res);
	st->res = NULL;
	st->started = false;
	return 0;
}

static int bc_pg_bind_text(struct bc_db_stmt *st, int i, const char *v, size_t len)
{
	char *copy = v ? strndup(v, len) : NULL;

	if (v && !copy) {
		snprintf(st->db->state, sizeof(st->db->state), "53200");
		snprintf(st->db->msg, sizeof(st->db->msg), "out of memory");
		return BC_PG_FAILED;
	}
	return bc_pg_bind_copy(st, i, copy);
}

static int bc_pg_bind_int(struct bc_db_stmt *st, int i, long long v)
{
	char *s = NULL;

	return asprintf(&s, "%lld", v) < 0 ? bc_pg_bind_text(st, i, "", 0) : bc_pg_bind_copy(st, i, s);
}

static int bc_pg_bind_num(struct bc_db_stmt *st, int i, double v)
{
	char buf[40];

	if (isnan(v))
		return bc_pg_bind_copy(st, i, NULL);
	if (isinf(v))
		snprintf(buf, sizeof(buf), "%sInfinity", v < 0 ? "-" : "");
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	return bc_pg_bind_text(st, i, buf, strlen(buf));
}

static int bc_pg_run(struct bc_db_stmt *st)
{
	struct bc_db *db = st->db;
	char *sql = NULL;
	PGresult *res;
	int ret;

	st->started = true;
	st->row = st->rows = 0;
	if (!st->many) {
		st->done = true;
		res = PQexecParams(db->conn, st->sql, st->nparams, NULL,
				   (const char *const *)st->vals, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK) {
			ret = bc_pg_keep(db, res);
			PQclear(res);
			return ret;
		}
		st->res = res;
		st->rows = PQntuples(res);
		return 0;
	}
	if (!db->in_tx && PQtransactionStatus(db->conn) == PQTRANS_IDLE) {
		ret = bc_pg_exec(db, "BEGIN");
		if (ret)
			return ret;
		st->own_tx = true;
	}
	snprintf(st->cursor, sizeof(st->cursor), "bc_cursor_%u", ++db->cursors);
	if (asprintf(&sql, "DECLARE %s NO SCROLL CURSOR FOR %s", st->cursor, st->sql) < 0) {
		snprintf(db->state, sizeof(db->state), "53200");
		snprintf(db->msg, sizeof(db->msg), "out of memory");
		return BC_PG_FAILED;
	}
	res = PQexecParams(db->conn, sql, st->nparams, NULL, (const char *const *)st->vals, NULL,
			   NULL, 0);
	free(sql);
	return bc_pg_check(db, res);
}

static int bc_pg_step(struct bc_db_stmt *st)
{
	char sql[64];
	int ret;

	if (!st->started) {
		ret = bc_pg_run(st);
		if (ret)
			return ret;
	}
	if (st->row < st->rows) {
		st->row++;
		return BC_DB_ROW;
	}
	if (st->done)
		return 0;
	PQclear(st->res);
	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", BC_PG_FETCH, st->cursor);
	st->res = PQexec(st->db->conn, sql);
	if (PQresultStatus(st->res) != PGRES_TUPLES_OK) {
		ret = bc_pg_keep(st->db, st->res);
		PQclear(st->res);
		st->res = NULL;
		return ret;
	}
	st->rows = PQntuples(st->res);
	st->row = 0;
	st->done = st->rows < BC_PG_FETCH;
	if (!st->rows)
		return 0;
	st->row++;
	return BC_DB_ROW;
}

/* The current row's value of column i, NULL for SQL NULL. */
static const char *bc_pg_cell(struct bc_db_stmt *st, int i)
{
	int r = st->row - 1;

	if (!st->res || r < 0 || r >= st->rows || i < 0 || i >= PQnfields(st->res) ||
	    PQgetisnull(st->res, r, i))
		return NULL;
	return PQgetvalue(st->res, r, i);
}

static const char *bc_pg_col_text(struct bc_db_stmt *st, int i, size_t *len)
{
	const char *v = bc_pg_cell(st, i);

	if (len)
		*len = v ? (size_t)PQgetlength(st->res, st->row - 1, i) : 0;
	return v;
}

static long long bc_pg_col_int(struct bc_db_stmt *st, int i)
{
	const char *v = bc_pg_cell(st, i);

	if (!v)
		return 0;
	/* a boolean reads as SQLite's 0 or 1 */
	if (!strcmp(v, "t"))
		return 1;
	if (!strcmp(v, "f"))
		return 0;
	return strtoll(v, NULL, 10);
}

static double bc_pg_col_num(struct bc_db_stmt *st, int i)
{
	const char *v = bc_pg_cell(st, i);

	return v ? strtod(v, NULL) : NAN;
}

static int bc_pg_fail(struct bc_db *db, int code, const char *doing, char *err, size_t len)
{
	const char *s = db->state;

	(void)code;
	if (PQstatus(db->conn) != CONNECTION_OK) {
		bc_set_err(err, len,
			      "store '%s': the connection to the server was lost (%s), cannot %s; nothing was written",
			      db->shown, *db->msg ? db->msg : "no reason given", doing);
		return -ECONNRESET;
	}
	if (!strcmp(s, "25006")) {
		bc_set_err(err, len,
			      "store '%s': the server takes no writes (a read-only transaction: default_transaction_read_only, or a standby), cannot %s; nothing was written",
			      db->shown, doing);
		return -EROFS;
	}
	if (!strcmp(s, "42501")) {
		bc_set_err(err, len,
			      "store '%s': this role may not %s (%s); nothing was written (docs/history.md: roles for writers and readers)",
			      db->shown, doing, db->msg);
		return -EACCES;
	}
	if (!strcmp(s, "53100")) {
		bc_set_err(err, len,
			      "store '%s': the server's disk is full, cannot %s; nothing of it was written and the store keeps what it held",
			      db->shown, doing);
		return -ENOSPC;
	}
	if (!strcmp(s, "53200")) {
		bc_set_err(err, len, "store '%s': out of memory", db->shown);
		return -ENOMEM;
	}
	if (!strcmp(s, "40001") || !strcmp(s, "40P01")) {
		bc_set_err(err, len,
			      "store '%s': another writer's transaction conflicted with this one (%s), cannot %s; nothing was written",
			      db->shown, db->msg, doing);
		return -EAGAIN;
	}
	bc_set_err(err, len, "store '%s': cannot %s: %s", db->shown, doing,
		      *db->msg ? db->msg : "no reason given");
	return -EIO;
}

const struct bc_db_ops bc_db_pg = {
	.engine = "PostgreSQL",
	.word = {
		[BC_DB_ID] = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
		[BC_DB_INT] = "BIGINT",
		[BC_DB_REAL] = "DOUBLE PRECISION",
		/* byte order, as SQLite compares: the same order and groups
		 * from both engines, whatever the database's locale */
		[BC_DB_TEXT] = "TEXT COLLATE \"C\"",
		[BC_DB_NOW] = "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
		[BC_DB_KEYED] = "",
	},
	.foreign = "the database has tables named entries, metrics or metrics_pending that benchcore did not make); expected a database where benchcore made its tables, or one without tables of those names",
	.open = bc_pg_open,
	.close = bc_pg_close,
	.state = bc_pg_state,
	.set_version = bc_pg_set_version,
	.exec = bc_pg_exec,
	.begin = bc_pg_begin,
	.commit = bc_pg_commit,
	.rollback = bc_pg_rollback,
	.prepare = bc_pg_prepare,
	.bind_text = bc_pg_bind_text,
	.bind_int = bc_pg_bind_int,
	.bind_num = bc_pg_bind_num,
	.step = bc_pg_step,
	.col_text = bc_pg_col_text,
	.col_int = bc_pg_col_int,
	.col_num = bc_pg_col_num,
	.finalize = bc_pg_finalize,
	.fail = bc_pg_fail,
};
