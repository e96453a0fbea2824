// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * table_replay FORMAT SWEEP_OR_SUITE.json: the table a sweep or suite
 * printed (text, csv, markdown or json), made again from its saved
 * document. Each row is put back as the batch had it after its child run
 * (label, options, status, the child's document) and goes through the
 * batch's own reader and renderers, so that golden.sh can pin the tables
 * of every document version without running a benchmark.
 *
 * The document is read with the core's JSON reader: this is a test tool,
 * not a reader of run documents in core/.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "json.h"
#include "json_read.h"
#include "report_table.h"
#include "row.h"
#include "words.h"

static const char *const status_names[] = {
	[BC_ROW_PLANNED] = "not run",	[BC_ROW_OK] = "ok",
	[BC_ROW_UNAVAILABLE] = "unavailable", [BC_ROW_INVALID] = "invalid",
	[BC_ROW_FAILED] = "failed",	[BC_ROW_CRASHED] = "crashed",
	[BC_ROW_TIMEOUT] = "timeout",	[BC_ROW_INTERRUPTED] = "interrupted",
};

static void write_value(struct bc_json_writer *w, const char *key, const struct bc_json *v)
{
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
			write_value(w, NULL, v->items[i]);
		bc_jw_arr_end(w);
		break;
	case BC_JSON_OBJECT:
		bc_jw_obj_begin(w, key);
		for (size_t i = 0; i < v->cnt; i++)
			write_value(w, v->keys[i], v->items[i]);
		bc_jw_obj_end(w);
		break;
	}
}

static char *to_text(const struct bc_json *v)
{
	struct bc_json_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	bc_jw_init(&w, f);
	write_value(&w, NULL, v);
	bc_jw_finish(&w);
	fclose(f);
	return text;
}

static char *dup_or_null(const struct bc_json *v)
{
	const char *s = bc_json_str(v);

	return s ? strdup(s) : NULL;
}

/* An option's value as the sweep had it: the words, and the JSON literal
 * the run document stores for a typed value ("" for a string). */
static void push_opt(struct bc_row *r, const char *name, const struct bc_json *v)
{
	char word[64] = "", lit[64] = "";

	switch (v->type) {
	case BC_JSON_NUMBER:
		snprintf(word, sizeof(word), "%.15g", v->number);
		snprintf(lit, sizeof(lit), "%.15g", v->number);
		break;
	case BC_JSON_BOOL:
		snprintf(word, sizeof(word), "%s", v->boolean ? "on" : "off");
		snprintf(lit, sizeof(lit), "%s", v->boolean ? "true" : "false");
		break;
	case BC_JSON_STRING:
		snprintf(word, sizeof(word), "%s", v->string);
		break;
	default:
		break;
	}
	bc_strv_push(&r->opt_names, name);
	bc_strv_push(&r->opt_values, word);
	bc_strv_push(&r->opt_json, lit);
}

static int add_row(struct bc_batch *b, const struct bc_json *run)
{
	const struct bc_json *opts = bc_json_get(run, "options"), *args = bc_json_get(run, "args"),
			     *res = bc_json_get(run, "result");
	const char *status = bc_json_str(bc_json_get(run, "status"));
	char err[256];
	struct bc_row *r;
	int len;

	if (b->row_cnt == b->row_cap) {
		size_t cap = b->row_cap ? b->row_cap * 2 : 16;
		struct bc_row *rows = realloc(b->rows, cap * sizeof(*rows));

		if (!rows)
			return -1;
		b->rows = rows;
		b->row_cap = cap;
	}
	r = &b->rows[b->row_cnt++];
	memset(r, 0, sizeof(*r));
	r->section = dup_or_null(bc_json_get(run, "section"));
	r->label = dup_or_null(bc_json_get(run, "label"));
	r->reason = dup_or_null(bc_json_get(run, "reason"));
	for (size_t i = 0; i < bc_json_len(args); i++)
		bc_strv_push(&r->args, bc_json_str(bc_json_at(args, i)) ? bc_json_str(bc_json_at(args, i)) : "");
	if (!r->args.cnt)
		bc_strv_push(&r->args, bc_json_str(bc_json_get(run, "benchmark")) ? bc_json_str(bc_json_get(run, "benchmark")) : "?");
	for (size_t i = 0; opts && opts->type == BC_JSON_OBJECT && i < opts->cnt; i++)
		push_opt(r, opts->keys[i], opts->items[i]);
	r->exit_code = (int)bc_json_num(bc_json_get(run, "exit_status"), 0);
	r->elapsed_sec = bc_json_num(bc_json_get(run, "elapsed_sec"), 0);
	r->timeout_sec = bc_json_num(bc_json_get(run, "timeout_sec"), 0);
	r->status = BC_ROW_FAILED;
	for (size_t k = 0; status && k < sizeof(status_names) / sizeof(status_names[0]); k++)
		if (!strcmp(status, status_names[k]))
			r->status = (enum bc_row_status)k;
	if (res && res->type == BC_JSON_OBJECT)
		r->json = to_text(res);
	/* As bc_row_classify(): the document of a row that ran (or was
	 * interrupted) is read for the table; a failed row's only says why. */
	if (r->json && (r->status == BC_ROW_OK || r->status == BC_ROW_INTERRUPTED) &&
	    bc_batch_row_read(r, err, sizeof(err))) {
		fprintf(stderr, "table_replay: row %zu: %s\n", b->row_cnt, err);
		return -1;
	}
	len = r->label ? (int)strlen(r->label) : 0;
	if (len >= b->name_width)
		b->name_width = len + 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct bc_batch_opts bo = { .out = stdout };
	const struct bc_json *runs, *sweep;
	struct bc_json *doc;
	struct bc_batch *b;
	char err[512];
	int ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: table_replay text|csv|markdown|json SWEEP_OR_SUITE.json\n");
		return 2;
	}
	if (!strcmp(argv[1], "csv"))
		bo.format = BC_FORMAT_CSV;
	else if (!strcmp(argv[1], "markdown"))
		bo.format = BC_FORMAT_MARKDOWN;
	else if (!strcmp(argv[1], "json"))
		bo.format = BC_FORMAT_JSON;
	else
		bo.format = BC_FORMAT_TEXT;
	doc = bc_json_parse_file(argv[2], err, sizeof(err));
	if (!doc) {
		fprintf(stderr, "table_replay: %s\n", err);
		return 2;
	}
	runs = bc_json_get(doc, "runs");
	bo.kind = bc_json_str(bc_json_get(doc, "kind"));
	bo.name = bc_json_str(bc_json_get(doc, "name"));
	b = bc_batch_new(&bo);
	if (!b || !runs || runs->type != BC_JSON_ARRAY) {
		fprintf(stderr, "table_replay: %s: not a sweep or suite document\n", argv[2]);
		bc_json_free(doc);
		return 2;
	}
	sweep = bc_json_get(doc, "sweep");
	for (size_t i = 0; i < bc_json_len(sweep); i++)
		if (bc_json_str(bc_json_at(sweep, i)))
			bc_strv_push(&b->sweep_specs, bc_json_str(bc_json_at(sweep, i)));
	for (size_t i = 0; !ret && i < runs->cnt; i++)
		ret = add_row(b, runs->items[i]);
	if (!ret && bo.format == BC_FORMAT_CSV)
		bc_batch_csv_header(stdout);
	for (size_t i = 0; !ret && i < b->row_cnt; i++)
		bc_batch_render_row(b, &b->rows[i]);
	if (!ret && bo.format == BC_FORMAT_JSON)
		bc_batch_render_json(b);
	bc_batch_free(b);
	bc_json_free(doc);
	return ret ? 1 : 0;
}
