/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The result store (store.c): every saved run document whole, with the
 * columns history, baselines and the report select on beside it, in one
 * SQLite file or a PostgreSQL database (a name bc_store_is_server() says
 * is a server's: store_name.h). This module knows the schema and its
 * queries, written once for both engines (store_engine.h), nothing of run
 * documents: store_doc.c reads a document into a struct bc_store_keys.
 *
 * Every failure is one line in err naming the store (a password masked)
 * and what is wrong (not a store, corrupt, read-only, disk full, written
 * by a newer benchcore, a server that refuses the login or cannot be
 * reached), and a write that fails leaves the store as it was: each save
 * is one transaction.
 */
#ifndef BENCHCORE_STORE_H
#define BENCHCORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The schema this benchcore writes; a store at a lower version is
 * migrated when opened for writing, one at a higher one is refused.
 * 3: each entry's figures by name (the "metrics" table), for --metric.
 * 4: each entry's accelerator (benchcore vm's guests).
 * 5: each entry's program digest (prog_change.h), NULL before it. */
#define BC_STORE_SCHEMA_VERSION 5

/* One figure of an entry, by name: what history and the report read for
 * --metric without reading the document. */
struct bc_store_metric {
	const char *name;
	const char *unit;
	double mean, stddev;
	unsigned int n;
	bool by_runs;
	bool higher_better;
};

/* The columns of an entry; strings may be NULL (unknown). */
struct bc_store_keys {
	const char *run_id;		/* unique: a second save of it is skipped */
	const char *bench;		/* "plugin:bench" */
	const char *options;		/* canonical configuration line */
	const char *kernel_release;
	const char *kernel_version;
	const char *host;
	const char *cpu_model;
	unsigned int cpu_count;
	bool hypervisor;
	/* "tcg" or "kvm" for a run in benchcore's own guests, NULL native */
	const char *accelerator;
	const char *benchcore_version;
	const char *plugin_version;
	const char *label;
	const char *date;		/* ISO 8601 UTC, the run's */
	int status;			/* the run's exit status */
	/* The headline figure, so that history reads no document: its
	 * name, unit, mean, standard deviation and sample count (runs when
	 * repeated, else measured iterations), and whether more is better. */
	const char *metric;
	const char *unit;
	double mean;
	double stddev;
	unsigned int n;
	bool by_runs;
	bool higher_better;
	/* The digest of the run's BPF program facts (prog_change.h): what
	 * history and the report compare to mark the entry where a program
	 * changed. NULL: unknown (saved before schema 5, or a document
	 * without program facts). */
	const char *prog_digest;
	/* Saving: every metric and figure of the entry (the headline too). */
	const struct bc_store_metric *metrics;
	size_t metric_cnt;
};

/* One entry read back: the keys, its row id, and the document when asked. */
struct bc_store_row {
	int64_t id;
	struct bc_store_keys k;
	const char *doc;		/* NULL unless the query asked for it */
	size_t doc_len;
	/* A query for a metric (filter.metric): an entry saved before the
	 * store kept figures by name (in a store of schema 2 or older, or one
	 * migrated and not written since) has its document here instead, and
	 * its metric columns are the headline's; the reader takes the figure
	 * from the document (store_doc.c). */
	bool unindexed;
};

struct bc_store;

enum {
	BC_STORE_WRITE = 1 << 0,	/* save or import: create and migrate */
};
/* Opens (and, for writing, creates with its directory, and migrates) the
 * store at path: a file, or a server's libpq name. NULL with errno and one
 * line in err. A file with no write permission bits is opened read-only
 * even for root: write protection says the store is to be kept as it is;
 * a server that takes no writes is refused for writing up front. */
struct bc_store *bc_store_open(const char *path, unsigned int flags, char *err, size_t err_len);
void bc_store_close(struct bc_store *s);
/* The name as given (a file's path: what an output must not be). */
const char *bc_store_file(const struct bc_store *s);
/* The name as messages show it: a password masked. */
const char *bc_store_name(const struct bc_store *s);
/* "SQLite" or "PostgreSQL". */
const char *bc_store_engine(const struct bc_store *s);

/* A write transaction: SQLite's BEGIN IMMEDIATE, so that two savers queue
 * on the write lock (busy timeout) rather than fail half-way; a server's
 * BEGIN, where writers of different run ids never wait on each other. */
int bc_store_begin(struct bc_store *s, char *err, size_t err_len);
int bc_store_commit(struct bc_store *s, char *err, size_t err_len);
void bc_store_rollback(struct bc_store *s);

/* Adds an entry: 0, 1 when an entry of that run id is there already
 * (nothing added), or a negative errno with one line in err; -EAGAIN when
 * the transaction lost a race another writer won and may be run again. */
int bc_store_put(struct bc_store *s, const struct bc_store_keys *k, const char *doc,
		 size_t doc_len, char *err, size_t err_len);

/* Keeps the figures by name of an entry saved before the store kept them
 * (the migration's second half: store_doc.c reads them from its document)
 * and marks it so; 0 or a negative errno with one line in err. */
int bc_store_put_figures(struct bc_store *s, int64_t entry, const struct bc_store_metric *metrics,
			 size_t cnt, char *err, size_t err_len);

/* What a query selects; NULL / 0 members select everything. */
struct bc_store_filter {
	const char *bench;
	const char *options;
	const char *label;
	const char *kernel;		/* kernel_release */
	const char *host;
	const char *cpu_model;
	unsigned int cpu_count;
	const char *since;		/* date >= since */
	const char *until;		/* date <= until (check: before a run) */
	const char *run_id;
	int64_t id;
	bool ok_only;			/* status 0 only */
	/* The entries' figure of this name (a metric or derived figure) in
	 * the metric columns instead of the headline; entries without it are
	 * left out. NULL: the headline. */
	const char *metric;
	/* Only the entries whose figures the store does not keep by name
	 * (saved before schema 3), in the order they were saved. */
	bool unindexed_only;
	bool with_doc;
	bool newest_first;
	unsigned int limit;
};
/* Calls fn for each entry in date order (oldest first unless
 * newest_first); fn returns 0 to go on, non-zero to stop (returned).
 * Row pointers are valid during the call only. */
typedef int (*bc_store_row_fn)(const struct bc_store_row *row, void *cookie);
int bc_store_each(struct bc_store *s, const struct bc_store_filter *f, bc_store_row_fn fn,
		  void *cookie, char *err, size_t err_len);
/* The store's schema version (SQLite's user_version, the server's
 * benchcore_schema table), -1 when it cannot be read. */
int bc_store_schema_version(struct bc_store *s);
/* The names of the figures the entries f selects have (f->metric aside),
 * "a, b, c" into buf, as far as the store indexes them; *unindexed counts
 * the selected entries whose figures it does not (saved before schema 3).
 * 0 or a negative errno with one line in err. */
int bc_store_metric_names(struct bc_store *s, const struct bc_store_filter *f, char *buf,
			  size_t len, size_t *unindexed, char *err, size_t err_len);

#endif /* BENCHCORE_STORE_H */
