// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The result store on both engines. `test_store` runs against files in a
 * scratch directory: made where none was (directories too), one entry per
 * run id, a transaction that fails half-way leaves nothing, eight
 * processes saving at once all succeed, and each file it must refuse (not
 * a store, another program's database, a read-only store, a newer schema,
 * a full disk) costs one line and loses nothing already in it. An older
 * schema is migrated.
 *
 * `test_store pg` runs the same tests that are not about files against a
 * PostgreSQL database each (tests/store/pg_cluster.sh's server), and the
 * server's own refusals: a login refused, a server not there, one that
 * takes no writes, another program's tables. Without a server it skips
 * and says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "bc_test_pg.h"
#include "json_read.h"
#include "store.h"
#include "store_doc.h"
#include "store_name.h"
#include "cmd_store.h"

#define PATHF(buf, ...) assert_true(snprintf((buf), sizeof(buf), __VA_ARGS__) < (int)sizeof(buf))

static char dir[PATH_MAX];

/* `test_store pg`: the server pg_cluster.sh started. */
static bool pg;
static struct bc_test_pg srv;

/* The store of a test named name: a file in the scratch directory, or a
 * new database of that name on the server. */
static void store_at(char *buf, size_t len, const char *name)
{
	if (pg)
		bc_test_pg_store(&srv, name, buf, len);
	else
		assert_true(snprintf(buf, len, "%s/%s.db", dir, name) < (int)len);
}

/* A small run document of the shape report_json.c writes, from host,
 * with programs ("\"programs\":[...],", or "") before its plugin. */
static char *make_doc_with(const char *run_id, double mean, const char *date, const char *host,
			   const char *programs)
{
	char *text;

	assert_true(asprintf(&text,
			     "{\"benchcore_version\":\"0.1.0\",\"context\":{\"date\":\"%s\","
			     "\"host\":\"%s\",\"kernel_release\":\"6.1.0\",\"kernel_version\":\"#1 SMP\","
			     "\"cpu_model\":\"cpu\",\"cpu_count\":2,\"hypervisor\":true},"
			     "%s%s%s%s"
			     "\"plugin\":{\"name\":\"count\",\"version\":\"1.0\"},\"benchmark\":\"count-local\","
			     "\"config\":{\"producers\":1,\"duration_sec\":1,\"plugin_options\":{\"count-batch\":10}},"
			     "\"metrics\":[{\"name\":\"hits\",\"unit\":\"ops\",\"kind\":\"counter\",\"role\":\"hits\"}],"
			     "\"iterations\":[{\"index\":0,\"warmup\":false,\"values\":{\"hits\":%g}},"
			     "{\"index\":1,\"warmup\":false,\"values\":{\"hits\":%g}},"
			     "{\"index\":2,\"warmup\":false,\"values\":{\"hits\":%g}}],"
			     "\"summary\":{\"hits\":{\"unit\":\"ops/s\",\"mean\":%g,\"stddev\":%g,\"n\":3}},"
			     "\"status\":{\"exit_status\":0}}",
			     date, host, run_id ? "\"run_id\":\"" : "", run_id ? run_id : "",
			     run_id ? "\"," : "", programs, mean * 0.99, mean, mean * 1.01, mean,
			     mean * 0.01) > 0);
	return text;
}

static char *make_doc_on(const char *run_id, double mean, const char *date, const char *host)
{
	return make_doc_with(run_id, mean, date, host, "");
}

/* The same with one program of xlated translated instructions. */
static char *make_doc_prog(const char *run_id, const char *date, int xlated)
{
	char *programs, *text;

	assert_true(asprintf(&programs,
			     "\"programs\":[{\"role\":\"producer\",\"name\":\"cnt_tp\",\"type\":\"tracepoint\","
			     "\"insns\":%d,\"xlated_insns\":%d,\"jited_bytes\":%d,\"jited\":true,"
			     "\"verifier\":null,\"maps\":[]}],",
			     xlated - 2, xlated, xlated * 6) > 0);
	text = make_doc_with(run_id, 1e6, date, "h1", programs);
	free(programs);
	return text;
}

static char *make_doc(const char *run_id, double mean, const char *date)
{
	return make_doc_on(run_id, mean, date, "h1");
}

static int count_row(const struct bc_store_row *r, void *cookie)
{
	(void)r;
	(*(size_t *)cookie)++;
	return 0;
}

static size_t count_entries(const char *path)
{
	struct bc_store_filter f = { 0 };
	char err[512];
	struct bc_store *s = bc_store_open(path, 0, err, sizeof(err));
	size_t n = 0;

	if (!s)
		fail_msg("%s", err);
	assert_int_equal(bc_store_each(s, &f, count_row, &n, err, sizeof(err)), 0);
	bc_store_close(s);
	return n;
}

static int save_one(const char *path, const char *run_id, double mean, const char *label,
		    char *err, size_t err_len)
{
	char *doc = make_doc(run_id, mean, "2026-12-01T10:00:00Z");
	struct bc_store_item it = { .text = doc, .len = strlen(doc), .label = label };
	int ret = bc_store_save_items(path, &it, 1, NULL, NULL, err, err_len);

	free(doc);
	return ret;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void sql(const char *path, const char *text)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, text, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(db));
	sqlite3_close(db);
}

static void test_create_put_dup(void **state)
{
	struct bc_store_filter f = { .with_doc = true };
	char path[PATH_MAX], err[512];
	size_t added = 9, dups = 9, n = 0;
	struct bc_store *s;
	char *doc = make_doc("aa11", 1e6, "2026-12-01T10:00:00Z");
	struct bc_store_item it = { .text = doc, .len = strlen(doc), .label = "baseline" };

	(void)state;
	/* the default store's directories are made as needed */
	if (pg)
		store_at(path, sizeof(path), "created");
	else
		PATHF(path, "%s/new/sub/results.db", dir);
	assert_int_equal(bc_store_save_items(path, &it, 1, &added, &dups, err, sizeof(err)), 0);
	assert_int_equal(added, 1);
	assert_int_equal(dups, 0);
	/* the same run again: kept once */
	assert_int_equal(bc_store_save_items(path, &it, 1, &added, &dups, err, sizeof(err)), 0);
	assert_int_equal(added, 0);
	assert_int_equal(dups, 1);
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_schema_version(s), BC_STORE_SCHEMA_VERSION);
	assert_int_equal(bc_store_each(s, &f, count_row, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	bc_store_close(s);
	free(doc);
}

struct seen {
	char label[64], bench[64], options[128], run_id[64], metric[32];
	double mean;
	unsigned int n;
	bool has_label_in_doc;
};

static int keep_row(const struct bc_store_row *r, void *cookie)
{
	struct seen *s = cookie;

	snprintf(s->label, sizeof(s->label), "%s", r->k.label ? r->k.label : "");
	snprintf(s->bench, sizeof(s->bench), "%s", r->k.bench);
	snprintf(s->options, sizeof(s->options), "%s", r->k.options);
	snprintf(s->run_id, sizeof(s->run_id), "%s", r->k.run_id);
	snprintf(s->metric, sizeof(s->metric), "%s", r->k.metric ? r->k.metric : "");
	s->mean = r->k.mean;
	s->n = r->k.n;
	s->has_label_in_doc = r->doc && strstr(r->doc, "\"label\"");
	return 0;
}

static void test_keys_and_id(void **state)
{
	struct bc_store_filter f = { .with_doc = true };
	char path[PATH_MAX], err[512];
	struct bc_store_doc a, b;
	struct seen seen = { 0 };
	struct bc_store *s;
	char *doc = make_doc(NULL, 2e6, "2026-12-01T11:00:00Z");

	(void)state;
	/* no run id: one made from the bytes, the same for the same bytes */
	assert_int_equal(bc_store_doc_read(doc, strlen(doc), NULL, &a, err, sizeof(err)), 0);
	assert_int_equal(bc_store_doc_read(doc, strlen(doc), "x", &b, err, sizeof(err)), 0);
	assert_int_equal(strlen(a.run_id), 32);
	assert_string_equal(a.run_id, b.run_id);
	assert_non_null(strstr(a.text, a.run_id));
	assert_non_null(strstr(b.text, "\"label\": \"x\""));
	assert_string_equal(a.k.bench, "count:count-local");
	assert_string_equal(a.k.options, "producers=1 count-batch=10");
	assert_string_equal(a.k.metric, "hits");
	assert_true(a.k.higher_better);
	bc_store_doc_free(&a);
	bc_store_doc_free(&b);

	store_at(path, sizeof(path), "keys");
	assert_int_equal(save_one(path, "bb22", 3e6, "patch-v2", err, sizeof(err)), 0);
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_each(s, &f, keep_row, &seen, err, sizeof(err)), 0);
	bc_store_close(s);
	assert_string_equal(seen.label, "patch-v2");
	assert_string_equal(seen.run_id, "bb22");
	assert_string_equal(seen.bench, "count:count-local");
	assert_true(fabs(seen.mean - 3e6) < 1);
	assert_int_equal(seen.n, 3);
	/* the label travels in the document: an export carries it */
	assert_true(seen.has_label_in_doc);

	/* text that is not a run document: one line, nothing made */
	assert_int_equal(bc_store_doc_read("{\"a\":1}", 7, NULL, &a, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a benchcore run document"));
	free(doc);
}

/* A batch with a bad document is saved not at all. */
static void test_all_or_nothing(void **state)
{
	char path[PATH_MAX], err[512];
	char *good = make_doc("cc33", 1e6, "2026-12-01T10:00:00Z");
	struct bc_store_item items[2] = {
		{ .text = good, .len = strlen(good) },
		{ .text = "{\"nope\":true}", .len = 13 },
	};

	(void)state;
	store_at(path, sizeof(path), "atomic");
	assert_int_equal(save_one(path, "first", 1e6, NULL, err, sizeof(err)), 0);
	assert_int_not_equal(bc_store_save_items(path, items, 2, NULL, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "nothing was saved"));
	assert_int_equal(count_entries(path), 1);
	free(good);
}

static int host_row(const struct bc_store_row *r, void *cookie)
{
	size_t *per_host = cookie;
	int m;

	if (r->k.host && sscanf(r->k.host, "machine-%d", &m) == 1 && m >= 0 && m < 8)
		per_host[m]++;
	else
		per_host[8]++;
	return 0;
}

/*
 * Eight machines saving at the same moment, 50 runs each: all succeed, and
 * the store holds 400 entries, 50 from each machine, none twice. On a
 * file, each save waits for the one before it (the write lock); on a
 * server they run side by side.
 */
#define BC_WRITERS 8
#define BC_SAVES 50

static void test_concurrent_savers(void **state)
{
	struct bc_store_filter f = { 0 };
	size_t per_host[BC_WRITERS + 1] = { 0 }, n = 0;
	char path[PATH_MAX], err[512];
	pid_t pids[BC_WRITERS];
	struct bc_store *s;
	int status;

	(void)state;
	store_at(path, sizeof(path), "writers");
	for (int p = 0; p < BC_WRITERS; p++) {
		pids[p] = fork();
		assert_true(pids[p] >= 0);
		if (pids[p] == 0) {
			char host[32];

			snprintf(host, sizeof(host), "machine-%d", p);
			for (int i = 0; i < BC_SAVES; i++) {
				char id[32], *doc;
				struct bc_store_item it;

				snprintf(id, sizeof(id), "m%d-%d", p, i);
				doc = make_doc_on(id, 1e6 + i, "2026-12-01T10:00:00Z", host);
				it = (struct bc_store_item){ .text = doc, .len = strlen(doc) };
				if (bc_store_save_items(path, &it, 1, NULL, NULL, err, sizeof(err))) {
					fprintf(stderr, "writer %d, save %d: %s\n", p, i, err);
					_exit(1);
				}
				free(doc);
			}
			_exit(0);
		}
	}
	for (int p = 0; p < BC_WRITERS; p++) {
		assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(count_entries(path), BC_WRITERS * BC_SAVES);
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_each(s, &f, host_row, per_host, err, sizeof(err)), 0);
	for (int p = 0; p < BC_WRITERS; p++) {
		char id[32];
		struct bc_store_filter one = { .run_id = id };

		assert_int_equal(per_host[p], BC_SAVES);
		/* no run id twice: each is there once */
		for (int i = 0; i < BC_SAVES; i += 7) {
			snprintf(id, sizeof(id), "m%d-%d", p, i);
			n = 0;
			assert_int_equal(bc_store_each(s, &one, count_row, &n, err, sizeof(err)), 0);
			assert_int_equal(n, 1);
		}
	}
	assert_int_equal(per_host[BC_WRITERS], 0);
	bc_store_close(s);
}

struct label_seen {
	char label[256], host[256];
	size_t n;
};

static int label_row(const struct bc_store_row *r, void *cookie)
{
	struct label_seen *l = cookie;

	snprintf(l->label, sizeof(l->label), "%s", r->k.label ? r->k.label : "");
	snprintf(l->host, sizeof(l->host), "%s", r->k.host ? r->k.host : "");
	l->n++;
	return 0;
}

/*
 * Labels, filters and documents that carry SQL reach the database as
 * plain strings: each is saved and read back byte for byte, a filter of
 * SQL selects only what equals it, and the store is whole after.
 */
static void test_hostile_strings(void **state)
{
	static const char *const labels[] = {
		"x'); DROP TABLE entries; --",
		"' OR '1'='1",
		"\\'; DELETE FROM metrics; --",
		"$1 $2 ? ?? :name @p",
		"label\"quoted\" and 'single'",
	};
	char path[PATH_MAX], err[512];
	struct bc_store *s;
	size_t n;

	(void)state;
	store_at(path, sizeof(path), "hostile");
	assert_int_equal(save_one(path, "before", 1e6, "plain", err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		char id[32];

		snprintf(id, sizeof(id), "hostile-%zu", i);
		if (save_one(path, id, 1e6, labels[i], err, sizeof(err)))
			fail_msg("label %zu: %s", i, err);
	}
	/* a document whose host is SQL, imported as any other */
	{
		char *doc = make_doc_on("hostile-host", 1e6, "2026-12-01T10:00:00Z",
					"h'); DROP TABLE metrics; --");
		struct bc_store_item it = { .text = doc, .len = strlen(doc) };

		assert_int_equal(bc_store_save_items(path, &it, 1, NULL, NULL, err, sizeof(err)), 0);
		free(doc);
	}
	assert_int_equal(count_entries(path), 2 + sizeof(labels) / sizeof(labels[0]));
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		struct bc_store_filter f = { .label = labels[i] };
		struct label_seen l = { 0 };

		assert_int_equal(bc_store_each(s, &f, label_row, &l, err, sizeof(err)), 0);
		assert_int_equal(l.n, 1);
		assert_string_equal(l.label, labels[i]);
	}
	{
		struct bc_store_filter f = { .host = "h'); DROP TABLE metrics; --" };
		struct label_seen l = { 0 };

		assert_int_equal(bc_store_each(s, &f, label_row, &l, err, sizeof(err)), 0);
		assert_int_equal(l.n, 1);
		assert_string_equal(l.host, "h'); DROP TABLE metrics; --");
	}
	/* a filter of SQL matches nothing it is not equal to */
	{
		struct bc_store_filter f = { .label = "plain' OR '1'='1", .metric = "hits" };
		char names[256];

		n = 0;
		assert_int_equal(bc_store_each(s, &f, count_row, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 0);
		f.metric = NULL;
		f.bench = "count:count-local' OR 1=1 --";
		assert_int_equal(bc_store_metric_names(s, &f, names, sizeof(names), &n, err,
						       sizeof(err)), 0);
		assert_string_equal(names, "");
	}
	bc_store_close(s);
	/* the metrics table is still there and read */
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	{
		struct bc_store_filter f = { .metric = "hits" };

		n = 0;
		assert_int_equal(bc_store_each(s, &f, count_row, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 2 + sizeof(labels) / sizeof(labels[0]));
	}
	bc_store_close(s);
}

/* A machine's own store pushed into the shared one, twice: the second
 * push finds every entry there. */
static void test_push(void **state)
{
	char local[PATH_MAX], path[PATH_MAX], err[512];
	struct bc_import im = { 0 };
	size_t added = 9, dups = 9;

	(void)state;
	PATHF(local, "%s/offline.db", dir);
	for (int i = 0; i < 3; i++) {
		char id[32];

		snprintf(id, sizeof(id), "offline-%d", i);
		assert_int_equal(save_one(local, id, 1e6 + i, "offline", err, sizeof(err)), 0);
	}
	store_at(path, sizeof(path), "pushed");
	assert_int_equal(save_one(path, "offline-0", 1e6, "offline", err, sizeof(err)), 0);
	assert_int_equal(bc_import_store(&im, local, NULL, err, sizeof(err)), 0);
	assert_int_equal(im.cnt, 3);
	assert_int_equal(bc_store_save_items(path, im.items, im.cnt, &added, &dups, err,
					     sizeof(err)), 0);
	assert_int_equal(added, 2);
	assert_int_equal(dups, 1);
	assert_int_equal(bc_store_save_items(path, im.items, im.cnt, &added, &dups, err,
					     sizeof(err)), 0);
	assert_int_equal(added, 0);
	assert_int_equal(dups, 3);
	bc_import_free(&im);
	assert_int_equal(count_entries(path), 3);
}

static void test_not_a_store(void **state)
{
	char path[PATH_MAX], other[PATH_MAX], err[512];
	char *before, *after;
	size_t blen, alen;

	(void)state;
	PATHF(path, "%s/notes.txt", dir);
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		for (int i = 0; i < 200; i++)
			fputs("these are somebody's notes, not a database\n", f);
		fclose(f);
	}
	before = slurp(path, &blen);
	assert_int_not_equal(save_one(path, "dd44", 1e6, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a benchcore store"));
	assert_null(strchr(err, '\n'));
	assert_null(bc_store_open(path, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "not a benchcore store"));
	after = slurp(path, &alen);
	assert_int_equal(alen, blen);
	assert_memory_equal(before, after, blen);
	free(before);
	free(after);

	/* another program's SQLite database */
	PATHF(other, "%s/other.db", dir);
	sql(other, "CREATE TABLE songs(title TEXT); INSERT INTO songs VALUES('a');");
	assert_int_not_equal(save_one(other, "ee55", 1e6, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "another program"));
	sql(other, "SELECT count(*) FROM songs;");
}

/* Pages overwritten with garbage: reading says so in one line, and a save
 * changes nothing. */
static void test_corrupt(void **state)
{
	struct bc_store_filter f = { .with_doc = true };
	char path[PATH_MAX], err[512], junk[8192];
	char *before, *after;
	size_t blen, alen, n = 0;
	struct bc_store *s;
	FILE *fp;
	int ret;

	(void)state;
	PATHF(path, "%s/corrupt.db", dir);
	for (int i = 0; i < 20; i++) {
		char id[16];

		snprintf(id, sizeof(id), "c-%d", i);
		assert_int_equal(save_one(path, id, 1e6 + i, NULL, err, sizeof(err)), 0);
	}
	memset(junk, 0xa5, sizeof(junk));
	fp = fopen(path, "r+b");
	assert_non_null(fp);
	/* every page but the header's first one */
	for (long off = 4096; ; off += sizeof(junk)) {
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		if (off >= st.st_size)
			break;
		assert_int_equal(fseek(fp, off, SEEK_SET), 0);
		assert_int_equal(fwrite(junk, 1, sizeof(junk), fp), sizeof(junk));
	}
	fclose(fp);
	before = slurp(path, &blen);
	s = bc_store_open(path, 0, err, sizeof(err));
	ret = s ? bc_store_each(s, &f, count_row, &n, err, sizeof(err)) : -1;
	bc_store_close(s);
	assert_int_not_equal(ret, 0);
	if (!strstr(err, "corrupt") || strchr(err, '\n'))
		fail_msg("expected the one corrupt line, got: %s", err);
	assert_int_not_equal(save_one(path, "c-new", 1e6, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "corrupt"));
	after = slurp(path, &alen);
	assert_int_equal(alen, blen);
	assert_memory_equal(before, after, blen);
	free(before);
	free(after);
}

static void test_read_only(void **state)
{
	char path[PATH_MAX], err[512];
	char *before, *after;
	size_t blen, alen;

	(void)state;
	PATHF(path, "%s/kept.db", dir);
	assert_int_equal(save_one(path, "ff66", 1e6, NULL, err, sizeof(err)), 0);
	assert_int_equal(chmod(path, 0444), 0);
	before = slurp(path, &blen);
	/* write protection holds even for root */
	assert_int_equal(save_one(path, "ff67", 1e6, NULL, err, sizeof(err)), -EROFS);
	assert_non_null(strstr(err, "read-only"));
	assert_int_equal(count_entries(path), 1);
	after = slurp(path, &alen);
	assert_int_equal(alen, blen);
	assert_memory_equal(before, after, blen);
	free(before);
	free(after);
	chmod(path, 0644);
}

static void test_newer_schema(void **state)
{
	char path[PATH_MAX], err[512];

	(void)state;
	store_at(path, sizeof(path), "newer");
	assert_int_equal(save_one(path, "gg77", 1e6, NULL, err, sizeof(err)), 0);
	if (pg)
		bc_test_pg_sql(&srv, "newer", "UPDATE benchcore_schema SET version = 99");
	else
		sql(path, "PRAGMA user_version = 99;");
	assert_null(bc_store_open(path, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "schema version 99 is newer than this benchcore's"));
	assert_int_equal(save_one(path, "gg78", 1e6, NULL, err, sizeof(err)), -EPROTONOSUPPORT);
	assert_null(strchr(err, '\n'));
	if (pg) {
		/* the line names the store with its password masked */
		assert_null(strstr(err, srv.password));
		assert_non_null(strstr(err, ":***@127.0.0.1"));
		bc_test_pg_sql(&srv, "newer", "UPDATE benchcore_schema SET version = 3");
	} else {
		sql(path, "PRAGMA user_version = 2;");
	}
	assert_int_equal(count_entries(path), 1);
}

static int index_cnt(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT count(*) FROM sqlite_master WHERE type='index' AND name LIKE 'entries_%'",
					    -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* A store of schema 1 (no indexes yet, no figures by name) is migrated
 * when next written. */
static void test_migrate(void **state)
{
	char path[PATH_MAX], err[512];
	struct bc_store *s;

	(void)state;
	PATHF(path, "%s/old.db", dir);
	assert_int_equal(save_one(path, "hh88", 1e6, NULL, err, sizeof(err)), 0);
	sql(path, "DROP TABLE metrics; DROP TABLE metrics_pending;"
		  "DROP INDEX entries_bench; DROP INDEX entries_kernel; DROP INDEX entries_label;"
		  "DROP INDEX entries_machine; DROP INDEX entries_versions; DROP INDEX entries_date;"
		  "ALTER TABLE entries DROP COLUMN accelerator;"
		  "ALTER TABLE entries DROP COLUMN prog_digest;"
		  "PRAGMA user_version = 1;");
	assert_int_equal(index_cnt(path), 0);
	/* reading does not change it */
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_schema_version(s), 1);
	bc_store_close(s);
	assert_int_equal(save_one(path, "hh89", 1e6, NULL, err, sizeof(err)), 0);
	assert_int_equal(index_cnt(path), 6);
	assert_int_equal(count_entries(path), 2);
}

static int keep_digests(const struct bc_store_row *r, void *cookie)
{
	char (*digests)[40] = cookie;

	assert_true(r->id >= 1 && r->id <= 3);
	snprintf(digests[r->id - 1], sizeof(digests[0]), "%s",
		 r->k.prog_digest ? r->k.prog_digest : "NULL");
	return 0;
}

/* The program digests of the store's first three entries, "NULL" where
 * unknown. */
static void read_digests(const char *path, char digests[3][40], int version)
{
	struct bc_store_filter f = { 0 };
	char err[512];
	struct bc_store *s = bc_store_open(path, 0, err, sizeof(err));

	if (!s)
		fail_msg("%s", err);
	assert_int_equal(bc_store_schema_version(s), version);
	memset(digests, 0, 3 * sizeof(digests[0]));
	assert_int_equal(bc_store_each(s, &f, keep_digests, digests, err, sizeof(err)), 0);
	bc_store_close(s);
}

static int save_doc(const char *path, char *doc)
{
	struct bc_store_item it = { .text = doc, .len = strlen(doc) };
	char err[512];
	int ret = bc_store_save_items(path, &it, 1, NULL, NULL, err, sizeof(err));

	if (ret)
		fail_msg("%s", err);
	free(doc);
	return ret;
}

/*
 * A store of schema 4 (before program digests) opens and reads as it was,
 * its entries' digests unknown; the next save migrates it to 5, the old
 * entry keeping NULL (never a change) and the new ones getting theirs: the
 * same for the same program facts, another for one instruction more.
 */
static void test_migrate_digest(void **state)
{
	char path[PATH_MAX], digests[3][40];

	(void)state;
	store_at(path, sizeof(path), "digest4");
	save_doc(path, make_doc_prog("d1", "2026-12-01T10:00:00Z", 34));
	read_digests(path, digests, BC_STORE_SCHEMA_VERSION);
	assert_int_equal(strlen(digests[0]), 32);
	if (pg)
		bc_test_pg_sql(&srv, "digest4", "ALTER TABLE entries DROP COLUMN prog_digest;"
			       "UPDATE benchcore_schema SET version = 4");
	else
		sql(path, "ALTER TABLE entries DROP COLUMN prog_digest; PRAGMA user_version = 4;");
	/* read at 4: no column to read, every digest unknown */
	read_digests(path, digests, 4);
	assert_string_equal(digests[0], "NULL");
	save_doc(path, make_doc_prog("d2", "2026-12-01T11:00:00Z", 34));
	save_doc(path, make_doc_prog("d3", "2026-12-01T12:00:00Z", 35));
	read_digests(path, digests, 5);
	assert_string_equal(digests[0], "NULL");
	assert_int_equal(strlen(digests[1]), 32);
	assert_int_equal(strlen(digests[2]), 32);
	assert_string_not_equal(digests[1], digests[2]);
	assert_int_equal(count_entries(path), 3);
}

/* A full disk, as a file size limit makes one: one line, and the entries
 * already there are all there after. */
static void test_full_disk(void **state)
{
	char path[PATH_MAX], err[512];
	struct stat st;
	pid_t pid;
	int status;

	(void)state;
	PATHF(path, "%s/full.db", dir);
	for (int i = 0; i < 3; i++) {
		char id[16];

		snprintf(id, sizeof(id), "full-%d", i);
		assert_int_equal(save_one(path, id, 1e6, NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(stat(path, &st), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = (rlim_t)st.st_size, .rlim_max = RLIM_INFINITY };
		struct bc_store_item items[64];
		char *docs[64];
		int ret;

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		for (int i = 0; i < 64; i++) {
			char id[16];

			snprintf(id, sizeof(id), "big-%d", i);
			docs[i] = make_doc(id, 1e6 + i, "2026-12-02T10:00:00Z");
			items[i] = (struct bc_store_item){ .text = docs[i], .len = strlen(docs[i]) };
		}
		ret = bc_store_save_items(path, items, 64, NULL, NULL, err, sizeof(err));
		if (ret != -ENOSPC || !strstr(err, "disk is full") || strchr(err, '\n')) {
			fprintf(stderr, "expected the full-disk line, got %d: %s\n", ret, err);
			_exit(1);
		}
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(count_entries(path), 3);
	assert_int_equal(save_one(path, "after", 1e6, NULL, err, sizeof(err)), 0);
	assert_int_equal(count_entries(path), 4);
}

static void test_paths(void **state)
{
	char buf[PATH_MAX], err[256];

	(void)state;
	assert_int_equal(bc_store_path("/x/y.db", buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/x/y.db");
	setenv("BENCHCORE_STORE", "/env/s.db", 1);
	assert_int_equal(bc_store_path(NULL, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/env/s.db");
	unsetenv("BENCHCORE_STORE");
	setenv("XDG_DATA_HOME", "/xdg", 1);
	assert_int_equal(bc_store_path(NULL, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/xdg/benchcore/results.db");
	/* relative XDG values are to be ignored */
	setenv("XDG_DATA_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(bc_store_path(NULL, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/home/u/.local/share/benchcore/results.db");
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(bc_store_path("", buf, sizeof(buf), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--store ''"));
}

/* The server's refusals: each one line naming the store, the password
 * masked, and nothing written. */
static void test_pg_refusals(void **state)
{
	char path[PATH_MAX], bad[PATH_MAX], err[512];
	int ret;

	(void)state;
	store_at(path, sizeof(path), "refusals");
	assert_int_equal(save_one(path, "r1", 1e6, NULL, err, sizeof(err)), 0);

	/* a login refused */
	PATHF(bad, "postgresql://%s:not-%s@127.0.0.1:%s/refusals", srv.writer, srv.password, srv.port);
	assert_int_not_equal(save_one(bad, "r2", 1e6, NULL, err, sizeof(err)), 0);
	if (!strstr(err, "password authentication failed") || strchr(err, '\n') ||
	    strstr(err, srv.password) || !strstr(err, ":***@127.0.0.1"))
		fail_msg("expected the one refused-login line, masked; got: %s", err);
	/* no password at all, where one is asked */
	PATHF(bad, "postgresql://%s@127.0.0.1:%s/refusals?passfile=/nonexistent", srv.writer,
	      srv.port);
	assert_null(bc_store_open(bad, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "asks for a password and none was given"));
	/* a server that is not there */
	PATHF(bad, "postgresql://%s:%s@127.0.0.1:1/refusals", srv.writer, srv.password);
	assert_int_not_equal(save_one(bad, "r3", 1e6, NULL, err, sizeof(err)), 0);
	if (!strstr(err, "cannot connect") || strchr(err, '\n') || strstr(err, srv.password))
		fail_msg("expected the one unreachable line; got: %s", err);
	/* a server that takes no writes */
	bc_test_pg_sql(&srv, NULL, "ALTER DATABASE refusals SET default_transaction_read_only = on");
	ret = save_one(path, "r4", 1e6, NULL, err, sizeof(err));
	bc_test_pg_sql(&srv, NULL, "ALTER DATABASE refusals RESET default_transaction_read_only");
	assert_int_equal(ret, -EROFS);
	if (!strstr(err, "takes no writes") || strstr(err, srv.password) || strchr(err, '\n'))
		fail_msg("expected the one read-only line; got: %s", err);
	assert_int_equal(count_entries(path), 1);
	/* another program's tables by our names */
	store_at(bad, sizeof(bad), "alien");
	bc_test_pg_sql(&srv, "alien", "CREATE TABLE entries (title TEXT); INSERT INTO entries VALUES ('a')");
	assert_int_equal(save_one(bad, "r5", 1e6, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a benchcore store"));
	bc_test_pg_sql(&srv, "alien", "SELECT count(*) FROM entries");
	/* a role that may read and not write */
	bc_test_pg_sql(&srv, "refusals", "GRANT SELECT ON ALL TABLES IN SCHEMA public TO bc_reader");
	PATHF(bad, "postgresql://bc_reader:%s@127.0.0.1:%s/refusals", srv.password, srv.port);
	assert_int_equal(count_entries(bad), 1);
	ret = save_one(bad, "r6", 1e6, NULL, err, sizeof(err));
	assert_int_equal(ret, -EACCES);
	if (!strstr(err, "may not save to it") || strstr(err, srv.password))
		fail_msg("expected the one permission line; got: %s", err);
	assert_int_equal(count_entries(path), 1);
}

/* A store's name as lines show it: every password masked, the rest as
 * given; what is a server's name and what is a file's. */
static void test_names(void **state)
{
	static const struct {
		const char *name, *shown;
		bool server;
	} cases[] = {
		{ "postgresql://ci:s3cret@db.lab:5432/bench", "postgresql://ci:***@db.lab:5432/bench", true },
		{ "postgres://ci:p@ss@db.lab/bench", "postgres://ci:***@db.lab/bench", true },
		{ "postgresql://ci@db.lab/bench", "postgresql://ci@db.lab/bench", true },
		{ "postgresql://db.lab/bench?user=ci&password=s3cret&sslmode=require",
		  "postgresql://db.lab/bench?user=ci&password=***&sslmode=require", true },
		{ "postgresql://db.lab/bench?p%61ssword=s3cret", "postgresql://db.lab/bench?p%61ssword=***",
		  true },
		{ "postgresql://", "postgresql://", true },
		{ "host=db password=s3cret dbname=bench", "host=db password=*** dbname=bench", true },
		{ "host=db password = 'se cr\\'et' dbname=bench", "host=db password = *** dbname=bench",
		  true },
		{ "dbname=postgresql://ci:s3cret@db/bench", "dbname=***", true },
		{ "service=team", "service=team", true },
		{ "x=1.db", "x=1.db", true },
		{ "./x=1.db", "./x=1.db", false },
		{ "/var/lib/results.db", "/var/lib/results.db", false },
		{ "results.db", "results.db", false },
	};
	char buf[BC_STORE_SHOWN_MAX], small[12];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(bc_store_shown(cases[i].name, buf, sizeof(buf)), cases[i].shown);
		if (bc_store_is_server(cases[i].name) != cases[i].server)
			fail_msg("'%s': expected %s", cases[i].name, cases[i].server ? "a server" : "a file");
		assert_null(strstr(buf, "s3cret"));
	}
	/* cut short, never past the buffer */
	assert_string_equal(bc_store_shown("postgresql://ci:s3cret@db/x", small, sizeof(small)),
			    "postgresql:");
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/store-XXXXXX", BC_TEST_BUILD_DIR);
	mkdir(BC_TEST_BUILD_DIR "/tests", 0755);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	/* what every store does, on either engine */
	const struct CMUnitTest both[] = {
		cmocka_unit_test(test_create_put_dup),
		cmocka_unit_test(test_keys_and_id),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_concurrent_savers),
		cmocka_unit_test(test_newer_schema),
		cmocka_unit_test(test_migrate_digest),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_push),
	};
	/* a file's own */
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_not_a_store),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_migrate),
		cmocka_unit_test(test_full_disk),
	};
	const struct CMUnitTest server[] = {
		cmocka_unit_test(test_pg_refusals),
	};
	int ret;

	if (argc > 1 && !strcmp(argv[1], "pg")) {
		ret = bc_test_pg_setup(&srv, "test_store pg");
		if (ret)
			return ret;
		pg = true;
		ret = cmocka_run_group_tests_name("both engines, PostgreSQL", both, setup, teardown);
		return ret + cmocka_run_group_tests_name("PostgreSQL's own", server, setup, teardown);
	}
	ret = cmocka_run_group_tests_name("both engines, SQLite", both, setup, teardown);
	return ret + cmocka_run_group_tests_name("files and names", files, setup, teardown);
}
