// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The result store: an entry per saved run with the whole document and
 * the columns queries select on, in one SQLite file (the default) or a
 * PostgreSQL database that many machines save into. The schema, its
 * migrations and every query are written here once; what the two engines
 * do differently is theirs (store_engine.h, store_sqlite.c, store_pg.c).
 *
 * The schema has a version and a list of migrations, each applied once in
 * a transaction under the engine's write lock; a store from a newer
 * benchcore is refused rather than written in a shape this one does not
 * know. Every value a query compares or saves is a bound parameter: a
 * label, a filter or a document is data to the database, never SQL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/log.h"
#include "store.h"
#include "store_engine.h"
#include "store_name.h"
#include "store_pg.h"
#include "store_sqlite.h"

struct bc_store {
	const struct bc_db_ops *ops;
	struct bc_db *db;
	char *path;		/* the name as given: a file, or libpq's */
	char *shown;		/* as messages show it (a password masked) */
	bool in_tx;
	long long version;	/* the schema the store has */
	bool warned_bad;	/* a bad row was said once: each read may meet it */
};

/*
 * Each step takes a store from version i to i + 1. "@ID@" and the other
 * words are the engine's (store_engine.h: enum bc_db_word); an SQLite
 * store gets the schema it always had.
 */
static const char *const bc_store_migrations[] = {
	/* 1: the entries */
	"CREATE TABLE entries ("
	" id @ID@,"
	" run_id @TEXT@ NOT NULL UNIQUE,"
	" bench @TEXT@ NOT NULL,"
	" options @TEXT@ NOT NULL DEFAULT '',"
	" kernel_release @TEXT@, kernel_version @TEXT@,"
	" host @TEXT@, cpu_model @TEXT@, cpu_count @INT@, hypervisor @INT@,"
	" benchcore_version @TEXT@, plugin_version @TEXT@,"
	" label @TEXT@, date @TEXT@ NOT NULL, status @INT@ NOT NULL DEFAULT 0,"
	" metric @TEXT@, unit @TEXT@, mean @REAL@, stddev @REAL@, n @INT@,"
	" by_runs @INT@, higher_better @INT@,"
	" saved_at @TEXT@ NOT NULL DEFAULT @NOW@,"
	" doc @TEXT@ NOT NULL);",
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
	" entry @INT@ NOT NULL REFERENCES entries(id),"
	" name @TEXT@ NOT NULL, unit @TEXT@, mean @REAL@, stddev @REAL@, n @INT@,"
	" by_runs @INT@, higher_better @INT@,"
	" PRIMARY KEY (entry, name))@KEYED@;"
	"CREATE TABLE metrics_pending (entry @INT@ PRIMARY KEY);"
	"INSERT INTO metrics_pending SELECT id FROM entries;",
	/* 4: the accelerator of a run in benchcore's own guests ("tcg",
	 * "kvm"), NULL for a native one (every entry before it), so that
	 * history never judges an emulated figure against a native one
	 * (results/accel.h) without reading documents */
	"ALTER TABLE entries ADD COLUMN accelerator @TEXT@;",
	/* 5: a digest of the facts of the run's BPF programs (prog_change.h),
	 * so that history and the report mark the entry where a program
	 * changed without reading documents. The entries before it keep
	 * NULL: unknown, which is never a change; reading their documents to
	 * fill it in would make opening an old store cost a pass over all. */
	"ALTER TABLE entries ADD COLUMN prog_digest @TEXT@;",
};

#define BC_STORE_MIGRATION_CNT (sizeof(bc_store_migrations) / sizeof(bc_store_migrations[0]))
_Static_assert(BC_STORE_MIGRATION_CNT == BC_STORE_SCHEMA_VERSION,
	       "one migration per schema version");

/* The engine's code as one line naming the store, and an errno. */
static int bc_store_fail(const struct bc_store *s, int code, const char *doing, char *err,
			 size_t len)
{
	return s->ops->fail(s->db, code, doing, err, len);
}

static int bc_store_exec(struct bc_store *s, const char *sql, const char *doing, char *err,
			 size_t len)
{
	int code = s->ops->exec(s->db, sql);

	return code ? bc_store_fail(s, code, doing, err, len) : 0;
}

/* A migration's text in the engine's words; NULL without memory. */
static char *bc_store_words(const struct bc_db_ops *ops, const char *sql)
{
	static const char *const names[BC_DB_WORD_CNT] = {
		[BC_DB_ID] = "@ID@", [BC_DB_INT] = "@INT@", [BC_DB_REAL] = "@REAL@",
		[BC_DB_TEXT] = "@TEXT@", [BC_DB_NOW] = "@NOW@", [BC_DB_KEYED] = "@KEYED@",
	};
	size_t len = 0, cap = strlen(sql) * 4 + 1;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	while (*sql) {
		size_t w = BC_DB_WORD_CNT, nl = 0;

		if (*sql == '@')
			for (w = 0; w < BC_DB_WORD_CNT; w++) {
				nl = strlen(names[w]);
				if (!strncmp(sql, names[w], nl))
					break;
			}
		if (w < BC_DB_WORD_CNT) {
			size_t wl = strlen(ops->word[w]);

			if (len + wl + 1 > cap) {
				char *more = realloc(out, cap = (len + wl + 1) * 2);

				if (!more) {
					free(out);
					return NULL;
				}
				out = more;
			}
			memcpy(out + len, ops->word[w], wl);
			len += wl;
			sql += nl;
			continue;
		}
		if (len + 2 > cap) {
			char *more = realloc(out, cap *= 2);

			if (!more) {
				free(out);
				return NULL;
			}
			out = more;
		}
		out[len++] = *sql++;
	}
	out[len] = '\0';
	return out;
}

int bc_store_schema_version(struct bc_store *s)
{
	enum bc_db_state state;
	long long v = -1;

	return s->ops->state(s->db, false, &state, &v) ? -1 : (int)v;
}

/*
 * What the store is: ours at some version, empty (new), or something
 * else. Inside the write transaction when writing, so that two first
 * savers do not both create the schema.
 */
static int bc_store_check(struct bc_store *s, bool writing, long long *version, char *err,
			  size_t len)
{
	enum bc_db_state state;
	int code;

	*version = 0;
	code = s->ops->state(s->db, writing, &state, version);
	if (code)
		return bc_store_fail(s, code, writing ? "write to it" : "read it", err, len);
	if (state == BC_DB_EMPTY)
		return 0;	/* new, or empty: ours to make */
	if (state == BC_DB_FOREIGN) {
		bc_set_err(err, len, "store '%s': not a benchcore store (%s", s->shown,
				 s->ops->foreign);
		return -EINVAL;
	}
	if (*version > BC_STORE_SCHEMA_VERSION) {
		bc_set_err(err, len,
				 "store '%s': schema version %lld is newer than this benchcore's %d; use the benchcore that wrote it, or a newer one",
				 s->shown, *version, BC_STORE_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static int bc_store_migrate(struct bc_store *s, long long from, char *err, size_t len)
{
	int ret, code;

	for (long long v = from; v < BC_STORE_SCHEMA_VERSION; v++) {
		char *sql = bc_store_words(s->ops, bc_store_migrations[v]);

		if (!sql) {
			bc_set_err(err, len, "store '%s': out of memory", s->shown);
			return -ENOMEM;
		}
		ret = bc_store_exec(s, sql, v ? "migrate the store" : "create the store", err, len);
		free(sql);
		if (ret)
			return ret;
		code = s->ops->set_version(s->db, v, v + 1);
		if (code)
			return bc_store_fail(s, code, "migrate the store", err, len);
	}
	return 0;
}

struct bc_store *bc_store_open(const char *path, unsigned int flags, char *err, size_t err_len)
{
	bool writing = flags & BC_STORE_WRITE;
	struct bc_store *s = calloc(1, sizeof(*s));
	char shown[BC_STORE_SHOWN_MAX];
	long long version = 0;
	int ret;

	bc_store_shown(path, shown, sizeof(shown));
	if (!s || !(s->path = strdup(path)) || !(s->shown = strdup(shown))) {
		if (s)
			free(s->path);
		free(s);
		bc_set_err(err, err_len, "store '%s': out of memory", shown);
		errno = ENOMEM;
		return NULL;
	}
	s->ops = bc_store_is_server(path) ? &bc_db_pg : &bc_db_sqlite;
	s->db = s->ops->open(path, shown, writing ? BC_DB_OPEN_WRITE : 0, err, err_len);
	if (!s->db) {
		ret = -errno;
		goto fail;
	}
	if (!writing) {
		ret = bc_store_check(s, false, &version, err, err_len);
		if (ret)
			goto fail;
		if (version == 0) {
			bc_set_err(err, err_len, "store '%s': empty; nothing was saved there yet (run --save)",
					 shown);
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
	errno = ret ? -ret : EIO;
	return NULL;
}

void bc_store_close(struct bc_store *s)
{
	if (!s)
		return;
	if (s->in_tx)
		bc_store_rollback(s);
	if (s->db)
		s->ops->close(s->db);
	free(s->path);
	free(s->shown);
	free(s);
}

const char *bc_store_file(const struct bc_store *s)
{
	return s->path;
}

const char *bc_store_name(const struct bc_store *s)
{
	return s->shown;
}

const char *bc_store_engine(const struct bc_store *s)
{
	return s->ops->engine;
}

int bc_store_begin(struct bc_store *s, char *err, size_t err_len)
{
	int code;

	errno = 0;
	code = s->ops->begin(s->db, true);
	s->in_tx = !code;
	return code ? bc_store_fail(s, code, "take its write lock", err, err_len) : 0;
}

int bc_store_commit(struct bc_store *s, char *err, size_t err_len)
{
	int code, ret = 0;

	errno = 0;
	code = s->ops->commit(s->db);
	if (code) {
		ret = bc_store_fail(s, code, "commit", err, err_len);
		bc_store_rollback(s);
	}
	s->in_tx = false;
	return ret;
}

void bc_store_rollback(struct bc_store *s)
{
	s->ops->rollback(s->db);
	s->in_tx = false;
}

/* A statement with its store, so that binding reads as one line. */
struct bc_q {
	struct bc_store *s;
	struct bc_db_stmt *st;
	int code;		/* the first failure */
};

static void bc_bind_str(struct bc_q *q, int i, const char *v)
{
	int code = q->s->ops->bind_text(q->st, i, v, v ? strlen(v) : 0);

	if (code && !q->code)
		q->code = code;
}

static void bc_bind_doc(struct bc_q *q, int i, const char *v, size_t len)
{
	int code = q->s->ops->bind_text(q->st, i, v, len);

	if (code && !q->code)
		q->code = code;
}

static void bc_bind_int(struct bc_q *q, int i, long long v)
{
	int code = q->s->ops->bind_int(q->st, i, v);

	if (code && !q->code)
		q->code = code;
}

static void bc_bind_num(struct bc_q *q, int i, double v)
{
	int code = q->s->ops->bind_num(q->st, i, v);

	if (code && !q->code)
		q->code = code;
}

static const char *bc_col_str(struct bc_q *q, int i)
{
	return q->s->ops->col_text(q->st, i, NULL);
}

static long long bc_col_int(struct bc_q *q, int i)
{
	return q->s->ops->col_int(q->st, i);
}

static double bc_col_num(struct bc_q *q, int i)
{
	return q->s->ops->col_num(q->st, i);
}

static int bc_q_prepare(struct bc_q *q, struct bc_store *s, const char *sql, unsigned int flags)
{
	q->s = s;
	q->st = NULL;
	q->code = s->ops->prepare(s->db, sql, flags, &q->st);
	return q->code;
}

static int bc_q_step(struct bc_q *q)
{
	int code;

	if (q->code)
		return q->code;
	errno = 0;
	code = q->s->ops->step(q->st);
	if (code < 0)
		q->code = code;
	return code;
}

static void bc_q_finalize(struct bc_q *q)
{
	if (q->st)
		q->s->ops->finalize(q->st);
	q->st = NULL;
}

/* The entry's figures by name; a name twice is kept once (the first). */
static int bc_store_put_metrics(struct bc_store *s, int64_t entry, const struct bc_store_keys *k,
				char *err, size_t err_len);

int bc_store_put_figures(struct bc_store *s, int64_t entry, const struct bc_store_metric *metrics,
			 size_t cnt, char *err, size_t err_len)
{
	struct bc_store_keys k = { .metrics = metrics, .metric_cnt = cnt };
	int ret = bc_store_put_metrics(s, entry, &k, err, err_len);
	struct bc_q q;

	if (ret)
		return ret;
	if (!bc_q_prepare(&q, s, "DELETE FROM metrics_pending WHERE entry = ?", 0)) {
		bc_bind_int(&q, 1, entry);
		bc_q_step(&q);
	}
	bc_q_finalize(&q);
	return q.code ? bc_store_fail(s, q.code, "save to it", err, err_len) : 0;
}

static int bc_store_put_metrics(struct bc_store *s, int64_t entry, const struct bc_store_keys *k,
				char *err, size_t err_len)
{
	static const char sql[] =
		"INSERT INTO metrics (entry, name, unit, mean, stddev, n, by_runs, higher_better)"
		" VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (entry, name) DO NOTHING";
	struct bc_q q;

	if (!k->metric_cnt)
		return 0;
	if (!bc_q_prepare(&q, s, sql, 0)) {
		for (size_t m = 0; m < k->metric_cnt && !q.code; m++) {
			const struct bc_store_metric *x = &k->metrics[m];
			int i = 1;

			bc_bind_int(&q, i++, entry);
			bc_bind_str(&q, i++, x->name);
			bc_bind_str(&q, i++, x->unit);
			bc_bind_num(&q, i++, x->mean);
			bc_bind_num(&q, i++, x->stddev);
			bc_bind_int(&q, i++, x->n);
			bc_bind_int(&q, i++, x->by_runs);
			bc_bind_int(&q, i++, x->higher_better);
			bc_q_step(&q);
		}
	}
	bc_q_finalize(&q);
	return q.code ? bc_store_fail(s, q.code, "save to it", err, err_len) : 0;
}

int bc_store_put(struct bc_store *s, const struct bc_store_keys *k, const char *doc,
		 size_t doc_len, char *err, size_t err_len)
{
	/* No row back: an entry of that run id is there already. */
	static const char sql[] =
		"INSERT INTO entries (run_id, bench, options, kernel_release,"
		" kernel_version, host, cpu_model, cpu_count, hypervisor, benchcore_version,"
		" plugin_version, label, date, status, metric, unit, mean, stddev, n, by_runs,"
		" higher_better, doc, accelerator, prog_digest)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
		" ON CONFLICT (run_id) DO NOTHING RETURNING id";
	int64_t id = 0;
	struct bc_q q;
	int i = 1, rc;

	if (!k->run_id || !k->bench || !k->date) {
		bc_set_err(err, err_len, "store '%s': an entry needs a run id, a benchmark and a date",
				 s->shown);
		return -EINVAL;
	}
	if (bc_q_prepare(&q, s, sql, 0))
		return bc_store_fail(s, q.code, "save to it", err, err_len);
	bc_bind_str(&q, i++, k->run_id);
	bc_bind_str(&q, i++, k->bench);
	bc_bind_str(&q, i++, k->options ? k->options : "");
	bc_bind_str(&q, i++, k->kernel_release);
	bc_bind_str(&q, i++, k->kernel_version);
	bc_bind_str(&q, i++, k->host);
	bc_bind_str(&q, i++, k->cpu_model);
	bc_bind_int(&q, i++, k->cpu_count);
	bc_bind_int(&q, i++, k->hypervisor);
	bc_bind_str(&q, i++, k->benchcore_version);
	bc_bind_str(&q, i++, k->plugin_version);
	bc_bind_str(&q, i++, k->label);
	bc_bind_str(&q, i++, k->date);
	bc_bind_int(&q, i++, k->status);
	bc_bind_str(&q, i++, k->metric);
	bc_bind_str(&q, i++, k->unit);
	bc_bind_num(&q, i++, k->mean);
	bc_bind_num(&q, i++, k->stddev);
	bc_bind_int(&q, i++, k->n);
	bc_bind_int(&q, i++, k->by_runs);
	bc_bind_int(&q, i++, k->higher_better);
	bc_bind_doc(&q, i++, doc, doc_len);
	bc_bind_str(&q, i++, k->accelerator);
	bc_bind_str(&q, i++, k->prog_digest);
	rc = bc_q_step(&q);
	if (rc == BC_DB_ROW) {
		id = bc_col_int(&q, 0);
		/* the statement runs to its end: SQLite writes RETURNING's
		 * row before it is done */
		while ((rc = bc_q_step(&q)) == BC_DB_ROW)
			;
	} else if (!rc) {
		rc = 1;
	}
	bc_q_finalize(&q);
	if (rc < 0)
		return bc_store_fail(s, rc, "save to it", err, err_len);
	if (rc == 1)
		return 1;
	return bc_store_put_metrics(s, id, k, err, err_len);
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
 * bound from *b on by bc_store_bind_where(), in the same order. */
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
		sql = bc_sql_add(sql, "%se.cpu_count = ?", *and);
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
		sql = bc_sql_add(sql, "%se.id = ?", *and);
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

static void bc_store_bind_where(struct bc_q *q, const struct bc_store_filter *f, int *b)
{
	const char *strs[] = { f->bench, f->options, f->label, f->kernel, f->host, f->cpu_model,
			       f->run_id };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i])
			bc_bind_str(q, (*b)++, strs[i]);
	if (f->cpu_count)
		bc_bind_int(q, (*b)++, f->cpu_count);
	if (f->since)
		bc_bind_str(q, (*b)++, f->since);
	if (f->until)
		bc_bind_str(q, (*b)++, f->until);
	if (f->id)
		bc_bind_int(q, (*b)++, f->id);
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
	/* the same for the program digest, before schema 5 */
	const char *digest = s->version >= 5 ? "e.prog_digest" : "NULL";
	const char *what, *bad_what = NULL;
	struct bc_q q;
	int rc, ret = 0, b = 1;
	long long bad_id = 0;
	size_t bad = 0;

	if (joined)
		sql = bc_sql_add(sql, ", m.unit, m.mean, m.stddev, m.n, m.by_runs, m.higher_better,"
				 " m.entry IS NOT NULL, %s, %s, %s FROM entries e LEFT JOIN metrics m"
				 " ON m.entry = e.id AND m.name = ?",
				 f->with_doc ? "e.doc" : "CASE WHEN m.entry IS NULL THEN e.doc END", accel,
				 digest);
	else
		sql = bc_sql_add(sql, "%s, %s, %s FROM entries e",
				 f->with_doc || docs_only ? ", e.doc" : ", NULL", accel, digest);
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
		sql = bc_sql_add(sql, " LIMIT ?");
	if (!sql) {
		bc_set_err(err, err_len, "store '%s': out of memory", s->shown);
		return -ENOMEM;
	}
	/* a few rows (a baseline, one document) in one round trip; the rest
	 * streamed */
	rc = bc_q_prepare(&q, s, sql, f->limit && f->limit <= 256 ? 0 : BC_DB_MANY);
	free(sql);
	if (rc)
		return bc_store_fail(s, rc, "read it", err, err_len);
	if (joined)
		bc_bind_str(&q, b++, f->metric);
	bc_store_bind_where(&q, f, &b);
	if (f->limit)
		bc_bind_int(&q, b++, f->limit);
	while ((rc = bc_q_step(&q)) == BC_DB_ROW) {
		struct bc_store_row r = { .id = bc_col_int(&q, 0) };
		int c = 1;

		r.k.run_id = bc_col_str(&q, c++);
		r.k.bench = bc_col_str(&q, c++);
		r.k.options = bc_col_str(&q, c++);
		r.k.kernel_release = bc_col_str(&q, c++);
		r.k.kernel_version = bc_col_str(&q, c++);
		r.k.host = bc_col_str(&q, c++);
		r.k.cpu_model = bc_col_str(&q, c++);
		r.k.cpu_count = (unsigned int)bc_col_int(&q, c++);
		r.k.hypervisor = bc_col_int(&q, c++);
		r.k.benchcore_version = bc_col_str(&q, c++);
		r.k.plugin_version = bc_col_str(&q, c++);
		r.k.label = bc_col_str(&q, c++);
		r.k.date = bc_col_str(&q, c++);
		r.k.status = (int)bc_col_int(&q, c++);
		r.k.metric = bc_col_str(&q, c++);
		r.k.unit = bc_col_str(&q, c++);
		r.k.mean = bc_col_num(&q, c++);
		r.k.stddev = bc_col_num(&q, c++);
		r.k.n = (unsigned int)bc_col_int(&q, c++);
		r.k.by_runs = bc_col_int(&q, c++);
		r.k.higher_better = bc_col_int(&q, c++);
		if (joined && bc_col_int(&q, c + 6)) {
			r.k.metric = f->metric;
			r.k.unit = bc_col_str(&q, c++);
			r.k.mean = bc_col_num(&q, c++);
			r.k.stddev = bc_col_num(&q, c++);
			r.k.n = (unsigned int)bc_col_int(&q, c++);
			r.k.by_runs = bc_col_int(&q, c++);
			r.k.higher_better = bc_col_int(&q, c++);
			c++;
		} else if (joined) {
			r.unindexed = true;
			c += 7;
		} else {
			r.unindexed = docs_only;
		}
		r.doc = s->ops->col_text(q.st, c, &r.doc_len);
		r.k.accelerator = bc_col_str(&q, c + 1);
		r.k.prog_digest = bc_col_str(&q, c + 2);
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
	if (!ret && rc < 0)
		ret = bc_store_fail(s, rc, "read it", err, err_len);
	bc_q_finalize(&q);
	if (bad && !s->warned_bad) {
		s->warned_bad = true;
		if (bad == 1)
			bc_warn("store '%s': entry %lld has no %s (its column is NULL), so it is left out; the rest is read",
				s->shown, (long long)bad_id, bad_what);
		else
			bc_warn("store '%s': %zu entries whose run id, benchmark, date or document is NULL are left out (the first: entry %lld, no %s); the rest is read",
				s->shown, bad, (long long)bad_id, bad_what);
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
	struct bc_q q;
	char *sql;
	int rc, b = 1;

	if (len)
		buf[0] = '\0';
	*unindexed = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0 && s->version < 3)
			continue;
		and = pass == 0 ? " AND " : " WHERE ";
		sql = strdup(pass == 0 ? "SELECT DISTINCT m.name FROM metrics m JOIN entries e ON e.id = m.entry"
					 " WHERE 1 = 1"
				       : "SELECT count(*) FROM entries e");
		sql = bc_store_where(sql, f, &and);
		if (pass == 1)
			sql = bc_store_where_unindexed(s, sql, &and);
		if (pass == 0)
			sql = bc_sql_add(sql, " ORDER BY m.name");
		if (!sql) {
			bc_set_err(err, err_len, "store '%s': out of memory", s->shown);
			return -ENOMEM;
		}
		rc = bc_q_prepare(&q, s, sql, BC_DB_MANY);
		free(sql);
		if (rc)
			return bc_store_fail(s, rc, "read it", err, err_len);
		b = 1;
		bc_store_bind_where(&q, f, &b);
		while ((rc = bc_q_step(&q)) == BC_DB_ROW) {
			if (pass == 0 && bc_col_str(&q, 0))
				bc_name_add(buf, len, bc_col_str(&q, 0));
			else if (pass == 1)
				*unindexed = (size_t)bc_col_int(&q, 0);
		}
		bc_q_finalize(&q);
		if (rc < 0)
			return bc_store_fail(s, rc, "read it", err, err_len);
	}
	return 0;
}
