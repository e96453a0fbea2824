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

#include "compare.h"
#include "runtime/exit_status.h"
#include "runtime/figures.h"
#include "runtime/json.h"
#include "json_read.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "run_doc.h"
#include "store_doc.h"

/* A document larger than this is not one benchcore wrote (a suite of a
 * hundred runs is a few MiB). */
#define BC_STORE_DOC_MAX (64u << 20)

const char *bc_store_doc_headline(const struct bc_json *doc)
{
	/* plot's choice too (plot_read.c), so a trend and a sweep chart of
	 * one benchmark show one metric */
	static const char *const roles[] = { "hits", "ops", NULL };
	const struct bc_json *metrics = bc_json_get(doc, "metrics"),
			     *summary = bc_json_get(doc, "summary");

	for (size_t r = 0; roles[r]; r++) {
		for (size_t i = 0; i < bc_json_len(metrics); i++) {
			const struct bc_json *m = bc_json_at(metrics, i);
			const char *name = bc_json_str(bc_json_get(m, "name"));
			const char *role = bc_json_str(bc_json_get(m, "role"));
			const char *kind = bc_json_str(bc_json_get(m, "kind"));

			if (name && role && !strcmp(role, roles[r]) &&
			    !(kind && !strcmp(kind, "histogram")) &&
			    bc_json_get(bc_json_get(summary, name), "mean"))
				return name;
		}
	}
	for (size_t i = 0; summary && summary->type == BC_JSON_OBJECT && i < summary->cnt; i++)
		if (bc_json_get(summary->items[i], "mean"))
			return summary->keys[i];
	return NULL;
}

/* The entry's metric's direction, figures.c's rule from the document's
 * names. */
static bool bc_higher_better(const struct bc_json *doc, const char *metric, const char *unit)
{
	const struct bc_json *m = bc_run_doc_metric(doc, metric);

	return bc_metric_direction(bc_json_str(bc_json_get(m, "kind")),
				   bc_json_str(bc_json_get(m, "role")), unit) == BC_HIGHER_IS_BETTER;
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

/* v written back as JSON; at the top level "run_id" and "label" take the
 * given values (added at the end when absent). */
static void bc_json_rewrite(struct bc_json_writer *w, const char *key, const struct bc_json *v,
			    const char *run_id, const char *label)
{
	bool has_id = false, has_label = false;

	switch (v->type) {
	case BC_JSON_NULL:
		bc_jw_null(w, key);
		break;
	case BC_JSON_BOOL:
		bc_jw_bool(w, key, v->boolean);
		break;
	case BC_JSON_NUMBER:
		bc_jw_num(w, key, v->number);
		break;
	case BC_JSON_STRING:
		bc_jw_str(w, key, v->string);
		break;
	case BC_JSON_ARRAY:
		bc_jw_arr_begin(w, key);
		for (size_t i = 0; i < v->cnt; i++)
			bc_json_rewrite(w, NULL, v->items[i], NULL, NULL);
		bc_jw_arr_end(w);
		break;
	case BC_JSON_OBJECT:
		bc_jw_obj_begin(w, key);
		for (size_t i = 0; i < v->cnt; i++) {
			if (run_id && !strcmp(v->keys[i], "run_id")) {
				bc_jw_str(w, "run_id", run_id);
				has_id = true;
			} else if (label && !strcmp(v->keys[i], "label")) {
				bc_jw_str(w, "label", label);
				has_label = true;
			} else {
				bc_json_rewrite(w, v->keys[i], v->items[i], NULL, NULL);
			}
		}
		if (run_id && !has_id)
			bc_jw_str(w, "run_id", run_id);
		if (label && !has_label)
			bc_jw_str(w, "label", label);
		bc_jw_obj_end(w);
		break;
	}
}

static char *bc_json_text(const struct bc_json *v, const char *run_id, const char *label,
			  size_t *len)
{
	struct bc_json_writer w;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	int err;

	if (!f)
		return NULL;
	bc_jw_init(&w, f);
	bc_json_rewrite(&w, NULL, v, run_id, label);
	err = bc_jw_finish(&w);
	if (fclose(f) || err) {
		free(text);
		return NULL;
	}
	return text;
}

void bc_store_doc_free(struct bc_store_doc *d)
{
	bc_json_free(d->json);
	free(d->text);
	free(d->bench);
	free(d->options);
	memset(d, 0, sizeof(*d));
}

static const char *bc_ctx(const struct bc_json *doc, const char *key)
{
	return bc_json_str(bc_json_get(bc_json_get(doc, "context"), key));
}

int bc_store_doc_read(const char *text, size_t len, const char *label, struct bc_store_doc *d,
		      char *err, size_t err_len)
{
	const struct bc_json *ctx, *stats, *rep;
	const char *id, *old_label, *metric;
	char bench[512];
	bool rewrite;

	memset(d, 0, sizeof(*d));
	d->json = bc_json_parse(text, len, err, err_len);
	if (!d->json)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	ctx = bc_json_get(d->json, "context");
	if (d->json->type != BC_JSON_OBJECT || !bc_json_get(d->json, "summary") ||
	    bc_run_doc_bench(d->json, bench, sizeof(bench)) || !bc_ctx(d->json, "date")) {
		snprintf(err, err_len,
			 "not a benchcore run document (expected the JSON of `benchcore run --format json`, with a benchmark, a context date and a summary)");
		bc_store_doc_free(d);
		return -EINVAL;
	}
	id = bc_json_str(bc_json_get(d->json, "run_id"));
	old_label = bc_json_str(bc_json_get(d->json, "label"));
	if (id && *id && strlen(id) < sizeof(d->run_id))
		snprintf(d->run_id, sizeof(d->run_id), "%s", id);
	else
		bc_doc_hash_id(text, len, d->run_id, sizeof(d->run_id));
	rewrite = !id || strcmp(id, d->run_id) || (label && (!old_label || strcmp(label, old_label)));
	if (rewrite)
		d->text = bc_json_text(d->json, d->run_id, label, &d->len);
	else if ((d->text = malloc(len + 1))) {
		memcpy(d->text, text, len);
		d->text[len] = '\0';
		d->len = len;
	}
	d->bench = strdup(bench);
	d->options = bc_compare_config_line(bc_run_doc_config(d->json));
	if (!d->text || !d->bench || !d->options) {
		bc_store_doc_free(d);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	d->k.run_id = d->run_id;
	d->k.bench = d->bench;
	d->k.options = d->options;
	d->k.kernel_release = bc_ctx(d->json, "kernel_release");
	d->k.kernel_version = bc_ctx(d->json, "kernel_version");
	d->k.host = bc_ctx(d->json, "host");
	d->k.cpu_model = bc_ctx(d->json, "cpu_model");
	d->k.cpu_count = (unsigned int)bc_json_num(bc_json_get(ctx, "cpu_count"), 0);
	d->k.hypervisor = bc_json_bool(bc_json_get(ctx, "hypervisor"), false);
	d->k.benchcore_version = bc_json_str(bc_json_get(d->json, "benchcore_version"));
	if (!d->k.benchcore_version)
		d->k.benchcore_version = bc_ctx(d->json, "benchcore_version");
	d->k.plugin_version = bc_json_str(bc_json_get(bc_json_get(d->json, "plugin"), "version"));
	d->k.label = label ? label : old_label;
	d->k.date = bc_ctx(d->json, "date");
	d->k.status = (int)bc_json_num(bc_json_get(bc_json_get(d->json, "status"), "exit_status"), 0);
	metric = bc_store_doc_headline(d->json);
	d->k.metric = metric;
	d->k.mean = d->k.stddev = NAN;
	if (!metric)
		return 0;
	rep = bc_json_get(bc_json_get(bc_json_get(d->json, "repeats"), "aggregate"), metric);
	stats = bc_json_get(bc_json_get(d->json, "summary"), metric);
	d->k.unit = bc_json_str(bc_json_get(stats, "unit"));
	d->k.higher_better = bc_higher_better(d->json, metric, d->k.unit);
	/* Repeated: the runs are the samples (what compare tests too). */
	if (rep && bc_json_num(bc_json_get(rep, "n"), 0) >= 2) {
		stats = rep;
		d->k.by_runs = true;
	}
	d->k.mean = bc_json_num(bc_json_get(stats, "mean"), NAN);
	d->k.stddev = bc_json_num(bc_json_get(stats, "stddev"), NAN);
	d->k.n = (unsigned int)bc_json_num(bc_json_get(stats, "n"), 0);
	return 0;
}

int bc_store_save_items(const char *path, const struct bc_store_item *items, size_t cnt,
			size_t *added, size_t *dups, char *err, size_t err_len)
{
	struct bc_store *s = NULL;
	char why[512];
	size_t n_added = 0, n_dups = 0;
	int ret;

	s = bc_store_open(path, BC_STORE_WRITE, err, err_len);
	if (!s)
		return -errno;
	ret = bc_store_begin(s, err, err_len);
	for (size_t i = 0; !ret && i < cnt; i++) {
		struct bc_store_doc d;

		ret = bc_store_doc_read(items[i].text, items[i].len, items[i].label, &d, why,
					sizeof(why));
		if (ret) {
			snprintf(err, err_len, "store '%s': document %zu: %s; nothing was saved", path,
				 i + 1, why);
			break;
		}
		ret = bc_store_put(s, &d.k, d.text, d.len, err, err_len);
		bc_store_doc_free(&d);
		if (ret == 1) {
			n_dups++;
			ret = 0;
		} else if (!ret) {
			n_added++;
		}
	}
	if (!ret)
		ret = bc_store_commit(s, err, err_len);
	bc_store_close(s);	/* rolls back what was not committed */
	if (ret)
		return ret;
	if (added)
		*added = n_added;
	if (dups)
		*dups = n_dups;
	return 0;
}

/* ------------------------------------------------------------ import */

static int bc_import_add(struct bc_import *im, char *text, size_t len, const char *label)
{
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

/* One value of a file: a run document, a sweep's or suite's (its runs'
 * results), or an array of run documents (what export writes). */
static int bc_import_value(struct bc_import *im, const struct bc_json *v, const char *path,
			   char *err, size_t err_len)
{
	const struct bc_json *runs = bc_json_get(v, "runs");
	size_t len;
	char *text;

	if (v->type == BC_JSON_ARRAY) {
		for (size_t i = 0; i < v->cnt; i++) {
			int ret = bc_import_value(im, v->items[i], path, err, err_len);

			if (ret)
				return ret;
		}
		return 0;
	}
	if (v->type == BC_JSON_OBJECT && !bc_json_get(v, "summary") && runs &&
	    runs->type == BC_JSON_ARRAY) {
		for (size_t i = 0; i < runs->cnt; i++) {
			const struct bc_json *res = bc_json_get(runs->items[i], "result");

			if (!res || res->type != BC_JSON_OBJECT)
				continue;	/* a row that produced nothing */
			text = bc_json_text(res, NULL, NULL, &len);
			if (!text || bc_import_add(im, text, len, NULL))
				return -ENOMEM;
		}
		return 0;
	}
	if (v->type != BC_JSON_OBJECT || !bc_json_get(v, "summary")) {
		snprintf(err, err_len,
			 "store import: %s: not a benchcore result (expected a run, sweep or suite document, or an array of run documents)",
			 path);
		return -EINVAL;
	}
	text = bc_json_text(v, NULL, NULL, &len);
	if (!text || bc_import_add(im, text, len, NULL))
		return -ENOMEM;
	return 0;
}

static int bc_import_store_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_import *im = cookie;
	char *text = r->doc ? strndup(r->doc, r->doc_len) : NULL;

	if (!text || bc_import_add(im, text, r->doc_len, bc_import_keep_label(im, r->k.label)))
		return -ENOMEM;
	return 0;
}

int bc_import_file(struct bc_import *im, const char *path, char *err, size_t err_len)
{
	static const char sqlite_magic[16] = "SQLite format 3";
	struct bc_store_filter all = { .with_doc = true };
	char head[16] = "", why[512];
	struct bc_store *other;
	struct bc_json *doc;
	size_t got = 0;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		snprintf(err, err_len, "store import: %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	got = fread(head, 1, sizeof(head), f);
	fclose(f);
	/* Another store: its entries, with their labels. */
	if (got == sizeof(head) && !memcmp(head, sqlite_magic, sizeof(head))) {
		other = bc_store_open(path, 0, err, err_len);
		if (!other)
			return -EINVAL;
		ret = bc_store_each(other, &all, bc_import_store_row, im, err, err_len);
		bc_store_close(other);
		if (ret == -ENOMEM)
			snprintf(err, err_len, "store import: out of memory");
		return ret;
	}
	doc = bc_json_parse_file_max(path, BC_STORE_DOC_MAX, why, sizeof(why));
	if (!doc) {
		snprintf(err, err_len, "store import: %s", why);
		return -EINVAL;
	}
	ret = bc_import_value(im, doc, path, err, err_len);
	if (ret == -ENOMEM)
		snprintf(err, err_len, "store import: out of memory");
	bc_json_free(doc);
	return ret;
}

struct bc_export {
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
	FILE *f = cookie;

	fprintf(f, "%6lld  %-20s  %-24s  %-12s  %-20s  %s=%.6g%s%s\n", (long long)r->id,
		r->k.date, r->k.bench, r->k.label ? r->k.label : "-",
		r->k.kernel_release ? r->k.kernel_release : "?", r->k.metric ? r->k.metric : "-",
		r->k.mean, r->k.unit ? " " : "", r->k.unit ? r->k.unit : "");
	return 0;
}

/* ------------------------------------------------------------ export, list */

int bc_store_export_entries(struct bc_store *s, const struct bc_store_filter *f, const char *o)
{
	struct bc_export ex = { .out = bc_stdout() };
	struct bc_out out = { 0 };
	char err[1024] = "";
	struct stat st;
	size_t cnt = 0;
	int ret;

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
