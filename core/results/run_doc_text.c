// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A run document as text again (run_doc_text.h): what the store keeps of a
 * document it was given inside a sweep, a suite or an export, and of one
 * it names (its run id, its label). Every other member is written back as
 * the model read it, whatever its version.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "run_doc.h"
#include "run_doc_text.h"
#include "runtime/doc_keys.h"
#include "runtime/json.h"

/* v written back as JSON; at the top level "run_id" and "label" take the
 * given values (added at the end when absent). */
static void bc_rewrite(struct bc_json_writer *w, const char *key, const struct bc_json *v,
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
			bc_rewrite(w, NULL, v->items[i], NULL, NULL);
		bc_jw_arr_end(w);
		break;
	case BC_JSON_OBJECT:
		bc_jw_obj_begin(w, key);
		for (size_t i = 0; i < v->cnt; i++) {
			if (run_id && !strcmp(v->keys[i], BC_DOC_RUN_ID)) {
				bc_jw_str(w, BC_DOC_RUN_ID, run_id);
				has_id = true;
			} else if (label && !strcmp(v->keys[i], BC_DOC_LABEL)) {
				bc_jw_str(w, BC_DOC_LABEL, label);
				has_label = true;
			} else {
				bc_rewrite(w, v->keys[i], v->items[i], NULL, NULL);
			}
		}
		if (run_id && !has_id)
			bc_jw_str(w, BC_DOC_RUN_ID, run_id);
		if (label && !has_label)
			bc_jw_str(w, BC_DOC_LABEL, label);
		bc_jw_obj_end(w);
		break;
	}
}

/* How deep v's containers nest (v itself one level when a container). */
static size_t bc_depth(const struct bc_json *v)
{
	size_t deepest = 0;

	if (v->type != BC_JSON_ARRAY && v->type != BC_JSON_OBJECT)
		return 0;
	for (size_t i = 0; i < v->cnt; i++) {
		size_t d = bc_depth(v->items[i]);

		if (d > deepest)
			deepest = d;
	}
	return deepest + 1;
}

char *bc_doc_run_text(const struct bc_doc_run *run, const char *run_id, const char *label,
		      size_t *len)
{
	struct bc_json_writer w;
	char *text = NULL;
	FILE *f;
	int err;

	/* The reader takes deeper documents than the writer can write back:
	 * say so rather than let the writer's refusal pass for no memory. */
	if (bc_depth(run->raw) > BC_DOC_TEXT_MAX_DEPTH) {
		errno = ELOOP;
		return NULL;
	}
	f = open_memstream(&text, len);
	if (!f)
		return NULL;
	bc_jw_init(&w, f);
	bc_rewrite(&w, NULL, run->raw, run_id, label);
	err = bc_jw_finish(&w);
	if (fclose(f) || err) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	return text;
}
