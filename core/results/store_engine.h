/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The database under the result store: the one place where SQLite
 * (store_sqlite.c) and PostgreSQL (store_pg.c) differ. store.c writes the
 * schema, its migrations and every query once, on top of these calls.
 *
 * SQL handed to an engine is written once for both: '?' placeholders
 * (PostgreSQL's engine numbers them), INSERT ... ON CONFLICT DO NOTHING,
 * RETURNING, and the words of bc_db_word for the few types and defaults
 * the two spell differently. Every value travels as a bound parameter.
 *
 * Calls return 0, BC_DB_ROW (step: a row is there), or a negative code of
 * the engine's own that only its fail() reads: fail() turns it into one
 * line naming the store (as shown: a password masked) and a negative
 * errno. -EAGAIN from fail() says the transaction lost a race with
 * another writer (a deadlock the server broke) and may be run again.
 */
#ifndef BENCHCORE_STORE_ENGINE_H
#define BENCHCORE_STORE_ENGINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/log.h"

#define BC_DB_ROW 1

/* How a store's tables stand, as the engine finds them. */
enum bc_db_state {
	BC_DB_EMPTY,		/* none of benchcore's tables: ours to make */
	BC_DB_OURS,		/* a benchcore store at *version */
	BC_DB_FOREIGN,		/* tables by our names another program made */
};

/* The words the schema's text leaves to the engine, "@NAME@" in it. */
enum bc_db_word {
	BC_DB_ID,		/* the entries' own id column's type and key */
	BC_DB_INT,		/* an integer column */
	BC_DB_REAL,		/* a double */
	BC_DB_TEXT,		/* a text column, compared byte by byte */
	BC_DB_NOW,		/* the time now, ISO 8601 UTC, as a default */
	BC_DB_KEYED,		/* after a table keyed by its primary key only */
	BC_DB_WORD_CNT,
};

struct bc_db;
struct bc_db_stmt;

enum {
	BC_DB_OPEN_WRITE = 1 << 0,	/* to save: create a file, refuse a read-only server */
	BC_DB_MANY = 1 << 1,		/* prepare: may return many rows, stream them */
};

struct bc_db_ops {
	const char *engine;		/* "SQLite", "PostgreSQL" */
	const char *word[BC_DB_WORD_CNT];
	/* "not a benchcore store (" ends with this: what else it is, and
	 * what is expected. */
	const char *foreign;
	/* NULL with errno and one line in err; shown names the store. */
	struct bc_db *(*open)(const char *name, const char *shown, unsigned int flags, char *err,
			      size_t err_len);
	void (*close)(struct bc_db *db);
	/* Which tables are there; inside a write transaction, after taking
	 * the lock that makes a second first saver wait for the first. */
	int (*state)(struct bc_db *db, bool writing, enum bc_db_state *state, long long *version);
	/* Records the schema version (and, from 0, that the store is ours). */
	int (*set_version)(struct bc_db *db, long long from, long long to);
	/* Statements without parameters or rows (the schema's), ';'-separated. */
	int (*exec)(struct bc_db *db, const char *sql);
	int (*begin)(struct bc_db *db, bool write);
	int (*commit)(struct bc_db *db);
	void (*rollback)(struct bc_db *db);
	int (*prepare)(struct bc_db *db, const char *sql, unsigned int flags,
		       struct bc_db_stmt **st);
	/* Parameters count from 1; a NULL text or a NaN is SQL NULL. */
	int (*bind_text)(struct bc_db_stmt *st, int i, const char *v, size_t len);
	int (*bind_int)(struct bc_db_stmt *st, int i, long long v);
	int (*bind_num)(struct bc_db_stmt *st, int i, double v);
	int (*step)(struct bc_db_stmt *st);
	/* Columns count from 0, valid until the next step; NULL is NULL,
	 * 0 and NaN. A boolean column reads 0 or 1. */
	const char *(*col_text)(struct bc_db_stmt *st, int i, size_t *len);
	long long (*col_int)(struct bc_db_stmt *st, int i);
	double (*col_num)(struct bc_db_stmt *st, int i);
	void (*finalize)(struct bc_db_stmt *st);
	int (*fail)(struct bc_db *db, int code, const char *doing, char *err, size_t err_len);
};

#endif /* BENCHCORE_STORE_ENGINE_H */
