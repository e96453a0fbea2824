// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Run documents in and out of the store: what an entry is indexed by,
 * read from the document it keeps whole; saving (run --save, sweeps,
 * suites, --repeat) and `benchcore store import|export|list`.
 *
 * A store is merged from several machines by exporting on each and
 * importing the files into one: entries are told apart by their run id,
 * so a document imported twice is kept once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/exit_status.h"
#include "runtime/figures.h"
#include "json_read.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "run_doc.h"
#include "run_doc_text.h"
#include "store_doc.h"
#include "store_name.h"
#include "words.h"

/* A document larger than this is not one benchcore wrote (a suite of a
 * hundred runs is a few MiB). */
#define BC_STORE_DOC_MAX BC_DOC_MAX_BYTES

static unsigned int bc_count(double n)
{
	return isnan(n) || n < 0 ? 0 : (unsigned int)n;
}

/* A figure of the entry as the store keeps it: its mean, spread and
 * sample count, over the runs when it was repeated (what compare tests
 * too), else over its measured seconds; and which way it is better. */
static void bc_store_figure(const struct bc_doc_metric *m, struct bc_store_metric *x)
{
	memset(x, 0, sizeof(*x));
	x->name = m->name;
	x->unit = m->unit;
	x->higher_better = m->direction == BC_HIGHER_IS_BETTER;
	if (m->agg.has && m->agg.n >= 2) {
		x->by_runs = true;
		x->mean = m->agg.mean;
		x->stddev = m->agg.stddev;
		x->n = bc_count(m->agg.n);
	} else {
		x->mean = m->mean;
		x->stddev = m->stats.stddev;
		x->n = bc_count(m->stats.n);
	}
}

/* Two FNV-1a hashes with different seeds: a run id for a document that
 * came without one, the same for the same bytes. */
static void bc_doc_hash_id(const char *text, size_t len, char *out, size_t out_len)
{
	uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;

	for (size_t i = 0; i < len; i++) {
		a = (a ^ (uint8_t)text[i]) * 0x100000001b3ULL;
		b = (b ^ (uint8_t)text[len - 1 - i]) * 0x100000001b3ULL;
	}
	snprintf(out, out_len, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

void bc_store_doc_free(struct bc_store_doc *d)
{
	bc_doc_run_free(d->run);
	free(d->text);
	free(d->metrics);
	memset(d, 0, sizeof(*d));
}

/* Every figure of the run by name into *out (malloc'd), *cnt of them. */
static int bc_store_figures_of(const struct bc_doc_run *run, struct bc_store_metric **out,
			       size_t *cnt)
{
	*cnt = 0;
	*out = calloc(run->metric_cnt + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < run->metric_cnt; i++) {
		const struct bc_doc_metric *m = &run->metrics[i];

		/* a name twice (a ratio metric and its figure): the first, as
		 * bc_doc_find() takes it */
		if (m->judged && bc_doc_find(run, m->name) == m)
			bc_store_figure(m, &(*out)[(*cnt)++]);
	}
	return 0;
}

/* The headline's columns, and every figure's row. */
static int bc_store_doc_figures(struct bc_store_doc *d)
{
	const struct bc_doc_run *run = d->run;
	const struct bc_doc_metric *head = bc_doc_find(run, bc_doc_headline(run));
	struct bc_store_metric x;

	if (bc_store_figures_of(run, &d->metrics, &d->k.metric_cnt))
		return -ENOMEM;
	d->k.metrics = d->metrics;
	d->k.mean = d->k.stddev = NAN;
	if (!head)
		return 0;
	bc_store_figure(head, &x);
	d->k.metric = x.name;
	d->k.unit = x.unit;
	d->k.mean = x.mean;
	d->k.stddev = x.stddev;
	d->k.n = x.n;
	d->k.by_runs = x.by_runs;
	d->k.higher_better = x.higher_better;
	return 0;
}

int bc_store_doc_read(const char *text, size_t len, const char *label, struct bc_store_doc *d,
		      char *err, size_t err_len)
{
	const struct bc_doc_run *run;
	const char *id;
	bool rewrite;

	memset(d, 0, sizeof(*d));
	d->run = bc_doc_run_parse(text, len, err, err_len);
	if (!d->run && errno == ENOMEM)
		return -ENOMEM;
	if (!d->run && errno != ENOMSG)
		return -EINVAL;
	run = d->run;
	if (!run || !run->has_summary || !run->bench || !run->ctx.date) {
		snprintf(err, err_len,
			 "not a benchcore run document (expected the JSON of `benchcore run --format json`, with a benchmark, a context date and a summary)");
		bc_store_doc_free(d);
		return -EINVAL;
	}
	id = run->run_id;
	if (id && *id && strlen(id) < sizeof(d->run_id))
		snprintf(d->run_id, sizeof(d->run_id), "%s", id);
	else
		bc_doc_hash_id(text, len, d->run_id, sizeof(d->run_id));
	rewrite = !id || strcmp(id, d->run_id) || (label && (!run->label || strcmp(label, run->label)));
	if (rewrite)
		d->text = bc_doc_run_text(run, d->run_id, label, &d->len);
	else if ((d->text = malloc(len + 1))) {
		memcpy(d->text, text, len);
		d->text[len] = '\0';
		d->len = len;
	}
	if (!d->text && errno == ELOOP) {
		bc_store_doc_free(d);
		snprintf(err, err_len,
			 "the document nests more than %d levels of arrays and objects, which benchcore cannot write back (its own documents nest fewer than 10)",
			 BC_DOC_TEXT_MAX_DEPTH);
		return -EINVAL;
	}
	if (!d->text || bc_store_doc_figures(d)) {
		bc_store_doc_free(d);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	d->k.run_id = d->run_id;
	d->k.bench = run->bench;
	d->k.options = run->config;
	d->k.kernel_release = run->ctx.kernel_release;
	d->k.kernel_version = run->ctx.kernel_version;
	d->k.host = run->ctx.host;
	d->k.cpu_model = run->ctx.cpu_model;
	d->k.cpu_count = bc_count(run->ctx.cpu_count);
	d->k.hypervisor = run->ctx.hypervisor == 1;
	d->k.accelerator = run->ctx.accelerator;
	/* what compare calls a change of a program, kept so that history and
	 * the report need not read documents to find one */
	if (bc_prog_digest(run, d->prog_digest, sizeof(d->prog_digest)))
		d->k.prog_digest = d->prog_digest;
	d->k.benchcore_version = run->benchcore_version;
	d->k.plugin_version = run->plugin_version;
	d->k.label = label ? label : run->label;
	d->k.date = run->ctx.date;
	d->k.status = run->exit_status;
	return 0;
}

/* ------------------------------------------------------------ --metric */

struct bc_figure_walk {
	const char *metric;
	bc_store_row_fn fn;
	void *cookie;
	int err;
};

/* An entry from before the store kept figures by name: its figure from
 * its document, or none (the entry is left out, as the query leaves out
 * an indexed entry without it). */
static int bc_figure_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_figure_walk *w = cookie;
	struct bc_store_row row = *r;
	const struct bc_doc_metric *m;
	struct bc_store_metric x;
	struct bc_doc_run *run;
	char err[256];
	int ret;

	if (!r->unindexed)
		return w->fn(r, w->cookie);
	run = r->doc ? bc_doc_run_parse(r->doc, r->doc_len, err, sizeof(err)) : NULL;
	if (!run && errno == ENOMEM) {
		w->err = -ENOMEM;
		return 1;
	}
	m = bc_doc_find(run, w->metric);
	if (!m) {
		bc_doc_run_free(run);
		return 0;
	}
	bc_store_figure(m, &x);
	row.k.metric = w->metric;
	row.k.unit = x.unit;
	row.k.mean = x.mean;
	row.k.stddev = x.stddev;
	row.k.n = x.n;
	row.k.by_runs = x.by_runs;
	row.k.higher_better = x.higher_better;
	row.unindexed = false;
	ret = w->fn(&row, w->cookie);
	bc_doc_run_free(run);
	return ret;
}

int bc_store_each_figure(struct bc_store *s, const struct bc_store_filter *f, bc_store_row_fn fn,
			 void *cookie, char *err, size_t err_len)
{
	struct bc_figure_walk w = { .metric = f->metric, .fn = fn, .cookie = cookie };
	int ret;

	if (!f->metric)
		return bc_store_each(s, f, fn, cookie, err, err_len);
	ret = bc_store_each(s, f, bc_figure_row, &w, err, err_len);
	if (w.err) {
		snprintf(err, err_len, "store '%s': out of memory", bc_store_name(s));
		return w.err;
	}
	return ret;
}

static int bc_names_row(const struct bc_store_row *r, void *cookie)
{
	char **buf = cookie;
	char err[256];
	struct bc_doc_run *run = r->doc ? bc_doc_run_parse(r->doc, r->doc_len, err, sizeof(err)) : NULL;

	bc_doc_names_add(run, buf[0], (size_t)(buf[1] - buf[0]));
	bc_doc_run_free(run);
	return 0;
}

int bc_store_doc_metric_names(struct bc_store *s, const struct bc_store_filter *f, char *buf,
			      size_t len, char *err, size_t err_len)
{
	struct bc_store_filter all = *f;
	size_t unindexed = 0;
	char *range[2] = { buf, buf + len };
	int ret;

	all.metric = NULL;
	ret = bc_store_metric_names(s, &all, buf, len, &unindexed, err, err_len);
	if (ret || !unindexed)
		return ret;
	/* Entries from before the table: their documents say. */
	all.with_doc = true;
	all.unindexed_only = true;
	return bc_store_each(s, &all, bc_names_row, range, err, err_len) < 0 ? -EIO : 0;
}

/* The entries to index, a batch at a time: what a query may read while
 * the writes wait for it to end. */
#define BC_STORE_BACKFILL_BATCH 256

struct bc_backfill {
	int64_t ids[BC_STORE_BACKFILL_BATCH];
	char *docs[BC_STORE_BACKFILL_BATCH];
	size_t lens[BC_STORE_BACKFILL_BATCH];
	size_t cnt;
};

static int bc_backfill_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_backfill *b = cookie;

	b->ids[b->cnt] = r->id;
	b->lens[b->cnt] = r->doc_len;
	b->docs[b->cnt] = r->doc ? strndup(r->doc, r->doc_len) : NULL;
	if (r->doc && !b->docs[b->cnt])
		return -ENOMEM;
	b->cnt++;
	return 0;
}

/*
 * The migration to figures by name, finished on the first write: each
 * entry saved before them gets its rows from its document (one without
 * readable figures gets none), inside the caller's transaction. A store
 * migrated this way reads every --metric from the table; a store only
 * read keeps reading such entries' documents (bc_store_each_figure()).
 */
static int bc_store_doc_backfill(struct bc_store *s, char *err, size_t err_len)
{
	struct bc_store_filter f = { .unindexed_only = true, .with_doc = true,
				     .limit = BC_STORE_BACKFILL_BATCH };
	struct bc_backfill b;
	int ret = 0;

	do {
		b.cnt = 0;
		ret = bc_store_each(s, &f, bc_backfill_row, &b, err, err_len);
		for (size_t i = 0; i < b.cnt; i++) {
			struct bc_doc_run *run = !ret && b.docs[i]
				? bc_doc_run_parse(b.docs[i], b.lens[i], err, err_len) : NULL;
			struct bc_store_metric *m = NULL;
			size_t n = 0;

			if (!ret && run && bc_store_figures_of(run, &m, &n))
				ret = -ENOMEM;
			if (!ret)
				ret = bc_store_put_figures(s, b.ids[i], m, n, err, err_len);
			free(m);
			bc_doc_run_free(run);
			free(b.docs[i]);
		}
		if (ret == -ENOMEM)
			snprintf(err, err_len, "store '%s': out of memory", bc_store_name(s));
	} while (!ret && b.cnt == BC_STORE_BACKFILL_BATCH);
	return ret;
}

/* One attempt at saving the items: one transaction, kept whole or not. */
static int bc_store_save_once(struct bc_store *s, const struct bc_store_item *items, size_t cnt,
			      size_t *added, size_t *dups, char *err, size_t err_len)
{
	char why[512];
	int ret;

	*added = *dups = 0;
	ret = bc_store_begin(s, err, err_len);
	if (!ret)
		ret = bc_store_doc_backfill(s, err, err_len);
	for (size_t i = 0; !ret && i < cnt; i++) {
		struct bc_store_doc d;

		ret = bc_store_doc_read(items[i].text, items[i].len, items[i].label, &d, why,
					sizeof(why));
		if (ret) {
			snprintf(err, err_len, "store '%s': document %zu: %s; nothing was saved",
				 bc_store_name(s), i + 1, why);
			break;
		}
		ret = bc_store_put(s, &d.k, d.text, d.len, err, err_len);
		bc_store_doc_free(&d);
		if (ret == 1) {
			(*dups)++;
			ret = 0;
		} else if (!ret) {
			(*added)++;
		}
	}
	if (!ret)
		ret = bc_store_commit(s, err, err_len);
	if (ret)
		bc_store_rollback(s);
	return ret;
}

/* Tries a batch whose transaction lost a race (two machines saving the
 * same entries in another order, a deadlock the server broke) again. */
#define BC_STORE_SAVE_TRIES 5

int bc_store_save_items(const char *path, const struct bc_store_item *items, size_t cnt,
			size_t *added, size_t *dups, char *err, size_t err_len)
{
	size_t n_added = 0, n_dups = 0;
	struct bc_store *s;
	int ret;

	s = bc_store_open(path, BC_STORE_WRITE, err, err_len);
	if (!s)
		return -errno;
	for (int t = 0; t < BC_STORE_SAVE_TRIES; t++) {
		ret = bc_store_save_once(s, items, cnt, &n_added, &n_dups, err, err_len);
		if (ret != -EAGAIN)
			break;
	}
	bc_store_close(s);
	if (ret)
		return ret;
	if (added)
		*added = n_added;
	if (dups)
		*dups = n_dups;
	return 0;
}

/* ------------------------------------------------------------ import */

/*
 * Takes text (freed on failure) as the next document to import, having
 * read it as the store will: a document that cannot be saved stops the
 * import here, where its file and its place in it are known. `where`
 * names both ("F", "F: document 3 of its array", "F: row 2").
 */
static int bc_import_add(struct bc_import *im, char *text, size_t len, const char *label,
			 const char *where, char *err, size_t err_len)
{
	struct bc_store_doc d;
	char why[512];
	int ret;

	if (!text) {
		if (errno == ELOOP) {
			snprintf(err, err_len,
				 "store import: %s: the document nests more than %d levels of arrays and objects, which benchcore cannot write back (its own documents nest fewer than 10)",
				 where, BC_DOC_TEXT_MAX_DEPTH);
			return -EINVAL;
		}
		snprintf(err, err_len, "store import: out of memory");
		return -ENOMEM;
	}
	ret = bc_store_doc_read(text, len, im->label ? im->label : label, &d, why, sizeof(why));
	if (ret) {
		free(text);
		if (ret == -ENOMEM)
			snprintf(err, err_len, "store import: out of memory");
		else
			snprintf(err, err_len, "store import: %s: %s", where, why);
		return ret;
	}
	bc_store_doc_free(&d);
	if (im->cnt == im->cap) {
		size_t cap = im->cap ? im->cap * 2 : 16;
		struct bc_store_item *items = realloc(im->items, cap * sizeof(*items));
		char **texts = realloc(im->texts, cap * sizeof(*texts));

		if (items)
			im->items = items;
		if (texts)
			im->texts = texts;
		if (!items || !texts) {
			free(text);
			snprintf(err, err_len, "store import: out of memory");
			return -ENOMEM;
		}
		im->cap = cap;
	}
	im->texts[im->text_cnt++] = text;
	im->items[im->cnt++] = (struct bc_store_item){ .text = text, .len = len, .label = label };
	return 0;
}

void bc_import_free(struct bc_import *im)
{
	for (size_t i = 0; i < im->text_cnt; i++)
		free(im->texts[i]);
	for (size_t i = 0; i < im->label_cnt; i++)
		free(im->labels[i]);
	free(im->texts);
	free(im->labels);
	free(im->items);
}

static const char *bc_import_keep_label(struct bc_import *im, const char *label)
{
	char **labels, *copy;

	if (!label)
		return NULL;
	labels = realloc(im->labels, (im->label_cnt + 1) * sizeof(*labels));
	if (!labels)
		return NULL;
	im->labels = labels;
	copy = strdup(label);
	if (copy)
		im->labels[im->label_cnt++] = copy;
	return copy;
}

/* One document of a file: a run, a sweep's or suite's (its runs), or an
 * array of documents (what export writes). `where` says where d is. */
static int bc_import_doc(struct bc_import *im, const struct bc_doc *d, const char *where,
			 char *err, size_t err_len)
{
	char at[PATH_MAX + 64];
	size_t len = 0;
	char *text;
	int ret;

	switch (d->kind) {
	case BC_DOC_LIST:
		for (size_t i = 0; i < d->item_cnt; i++) {
			snprintf(at, sizeof(at), "%s: document %zu of its array", where, i + 1);
			ret = bc_import_doc(im, &d->items[i], at, err, err_len);
			if (ret)
				return ret;
		}
		return 0;
	case BC_DOC_BATCH:
		for (size_t i = 0; i < d->row_cnt; i++) {
			if (!d->rows[i].run)
				continue;	/* a row that produced nothing */
			snprintf(at, sizeof(at), "%s: row %zu", where, i + 1);
			text = bc_doc_run_text(d->rows[i].run, NULL, NULL, &len);
			ret = bc_import_add(im, text, len, NULL, at, err, err_len);
			if (ret)
				return ret;
		}
		return 0;
	case BC_DOC_RUN:
		text = bc_doc_run_text(d->run, NULL, NULL, &len);
		return bc_import_add(im, text, len, NULL, where, err, err_len);
	default:
		snprintf(err, err_len,
			 "store import: %s: not a benchcore result (expected a run, sweep or suite document, or an array of run documents)",
			 where);
		return -EINVAL;
	}
}

struct bc_import_walk {
	struct bc_import *im;
	const char *path;
	char *err;
	size_t err_len;
};

static int bc_import_store_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_import_walk *w = cookie;
	char *text = strndup(r->doc, r->doc_len);
	char at[PATH_MAX + 64];
	int ret;

	snprintf(at, sizeof(at), "%s: entry %lld", w->path, (long long)r->id);
	ret = bc_import_add(w->im, text, r->doc_len, bc_import_keep_label(w->im, r->k.label), at,
			    w->err, w->err_len);
	return ret ? ret : 0;
}

int bc_import_store(struct bc_import *im, const char *path, const struct bc_store_filter *f,
		     char *err, size_t err_len)
{
	struct bc_store_filter all = f ? *f : (struct bc_store_filter){ 0 };
	char shown[BC_STORE_SHOWN_MAX];
	struct bc_import_walk w = { .im = im, .path = bc_store_shown(path, shown, sizeof(shown)),
				    .err = err, .err_len = err_len };
	struct bc_store *other;
	int ret;

	all.with_doc = true;
	all.metric = NULL;
	other = bc_store_open(path, 0, err, err_len);
	if (!other)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	ret = bc_store_each(other, &all, bc_import_store_row, &w, err, err_len);
	bc_store_close(other);
	return ret;
}

int bc_import_file(struct bc_import *im, const char *path, char *err, size_t err_len)
{
	static const char sqlite_magic[16] = "SQLite format 3";
	char head[16] = "", why[512];
	struct bc_json *json;
	struct bc_doc doc;
	size_t got = 0;
	FILE *f;
	int ret;

	/* A server's store: its entries, with their labels, as a file's. */
	if (bc_store_is_server(path))
		return bc_import_store(im, path, NULL, err, err_len);
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, err_len, "store import: %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	got = fread(head, 1, sizeof(head), f);
	fclose(f);
	/* Another store: its entries, with their labels. */
	if (got == sizeof(head) && !memcmp(head, sqlite_magic, sizeof(head)))
		return bc_import_store(im, path, NULL, err, err_len);
	json = bc_json_parse_file_max(path, BC_STORE_DOC_MAX, why, sizeof(why));
	if (!json) {
		snprintf(err, err_len, "store import: %s", why);
		return -EINVAL;
	}
	ret = bc_doc_from_json(json, &doc, why, sizeof(why));
	if (ret) {
		snprintf(err, err_len, "store import: %s: %s", path, why);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	ret = bc_import_doc(im, &doc, path, err, err_len);
	bc_doc_free(&doc);
	return ret;
}

struct bc_export {
	const char *store;		/* the store's file: never an output */
	const char *dir;		/* -o DIR: a file per entry */
	FILE *out;
	size_t cnt;
	int status;
};

static int bc_export_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_export *ex = cookie;
	char path[PATH_MAX];
	struct bc_out out;
	int status;

	ex->cnt++;
	if (!ex->dir) {
		if (ex->cnt > 1)
			fputs(",\n", ex->out);
		fwrite(r->doc, 1, r->doc_len, ex->out);
		return 0;
	}
	/* The run id is hex (ours) or whatever an imported document said:
	 * only the first makes a safe file name. */
	if (strspn(r->k.run_id, "0123456789abcdef") == strlen(r->k.run_id) && *r->k.run_id)
		snprintf(path, sizeof(path), "%s/%s.json", ex->dir, r->k.run_id);
	else
		snprintf(path, sizeof(path), "%s/entry-%lld.json", ex->dir, (long long)r->id);
	if (bc_out_same_file(path, ex->store)) {
		bc_warn("store export: '%s' is the store being exported ('%s'); it is left as it is and nothing more is written",
			path, ex->store);
		ex->status = BC_EXIT_USAGE;
		return 1;
	}
	status = bc_out_open(&out, "-o", path);
	if (status) {
		ex->status = status;
		return 1;
	}
	fwrite(r->doc, 1, r->doc_len, out.f);
	if (r->doc_len && r->doc[r->doc_len - 1] != '\n')
		fputc('\n', out.f);
	status = bc_out_close(&out, true, BC_EXIT_OK);
	if (status) {
		ex->status = status;
		return 1;
	}
	return 0;
}

/* Counting first tells one document (written as saved) from several (an
 * array). */
static int bc_count_row(const struct bc_store_row *r, void *cookie)
{
	(void)r;
	(*(size_t *)cookie)++;
	return 0;
}

static int bc_list_row(const struct bc_store_row *r, void *cookie)
{
	char date[128], bench[1024], label[1024], kernel[512], metric[512], unit[256];
	FILE *f = cookie;

	/* One line per entry, whatever a store's columns hold. */
	fprintf(f, "%6lld  %-20s  %-24s  %-12s  %-20s  %s=%.6g%s%s\n", (long long)r->id,
		bc_text_safe(r->k.date, date, sizeof(date)),
		bc_text_safe(r->k.bench, bench, sizeof(bench)),
		r->k.label ? bc_text_safe(r->k.label, label, sizeof(label)) : "-",
		r->k.kernel_release ? bc_text_safe(r->k.kernel_release, kernel, sizeof(kernel)) : "?",
		r->k.metric ? bc_text_safe(r->k.metric, metric, sizeof(metric)) : "-", r->k.mean,
		r->k.unit ? " " : "", bc_text_safe(r->k.unit, unit, sizeof(unit)));
	return 0;
}

/* ------------------------------------------------------------ export, list */

int bc_store_export_entries(struct bc_store *s, const struct bc_store_filter *f, const char *o)
{
	struct bc_export ex = { .out = bc_stdout(), .store = bc_store_file(s) };
	struct bc_out out = { 0 };
	char err[1024] = "";
	struct stat st;
	size_t cnt = 0;
	int ret;

	/* Writing the export over the store would replace every entry with
	 * their JSON: an output is never one of the inputs. */
	if (o && bc_out_same_file(o, ex.store)) {
		bc_warn("store export: -o '%s' is the store being exported ('%s'); expected another file or a directory",
			o, ex.store);
		return BC_EXIT_USAGE;
	}
	if (o && !stat(o, &st) && S_ISDIR(st.st_mode))
		ex.dir = o;
	ret = bc_store_each(s, &(struct bc_store_filter){ .bench = f->bench, .options = f->options,
							  .label = f->label, .kernel = f->kernel,
							  .host = f->host, .cpu_model = f->cpu_model,
							  .since = f->since, .run_id = f->run_id },
			    bc_count_row, &cnt, err, sizeof(err));
	if (ret) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	ret = ex.dir ? 0 : bc_out_open(&out, "-o", o);
	if (ret)
		return ret;
	if (!ex.dir) {
		ex.out = out.f;
		if (cnt != 1)
			fputs("[\n", ex.out);
	}
	ret = bc_store_each(s, f, bc_export_row, &ex, err, sizeof(err));
	if (ret < 0)
		bc_warn("%s", err);
	if (!ex.dir) {
		if (cnt != 1)
			fputs("\n]\n", ex.out);
		else if (!ret)
			fputc('\n', ex.out);
		return bc_out_close(&out, ret == 0, ret < 0 ? BC_EXIT_FAILED : BC_EXIT_OK);
	}
	if (ex.status)
		return ex.status;
	fprintf(stderr, "benchcore: exported %zu entr%s into %s\n", ex.cnt,
		ex.cnt == 1 ? "y" : "ies", ex.dir);
	return ret < 0 ? BC_EXIT_FAILED : BC_EXIT_OK;
}

int bc_store_list_write(struct bc_store *s, const struct bc_store_filter *f, FILE *out, char *err,
			size_t err_len)
{
	return bc_store_each(s, f, bc_list_row, out, err, err_len);
}
