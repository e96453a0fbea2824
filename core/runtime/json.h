/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small JSON writer for the core's own documents (json.c): the run
 * report and `list --format json` write them; json_read.h reads them back.
 */
#ifndef BENCHCORE_JSON_H
#define BENCHCORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---------------------------------------------------------------- writer */

#define BC_JSON_MAX_DEPTH 64

/*
 * Streams one document to a FILE, pretty-printed with two-space indents.
 * Every value function takes the member's key inside an object and NULL
 * inside an array (or at the top level). Non-finite numbers are written as
 * null: JSON has no NaN or Infinity. Misuse (unbalanced ends, a key where
 * none belongs) and write errors are remembered and returned by
 * bc_jw_finish().
 */
struct bc_json_writer {
	FILE *f;
	int depth;
	bool first[BC_JSON_MAX_DEPTH];	/* nothing written yet at this level */
	bool is_obj[BC_JSON_MAX_DEPTH];
	int err;
};

void bc_jw_init(struct bc_json_writer *w, FILE *f);
void bc_jw_obj_begin(struct bc_json_writer *w, const char *key);
void bc_jw_obj_end(struct bc_json_writer *w);
void bc_jw_arr_begin(struct bc_json_writer *w, const char *key);
void bc_jw_arr_end(struct bc_json_writer *w);
void bc_jw_str(struct bc_json_writer *w, const char *key, const char *val); /* NULL: null */
void bc_jw_num(struct bc_json_writer *w, const char *key, double val);
void bc_jw_int(struct bc_json_writer *w, const char *key, long long val);
void bc_jw_uint(struct bc_json_writer *w, const char *key, unsigned long long val);
void bc_jw_bool(struct bc_json_writer *w, const char *key, bool val);
void bc_jw_null(struct bc_json_writer *w, const char *key);
/* Ends the document with a newline; 0 or the first error (negative errno). */
int bc_jw_finish(struct bc_json_writer *w);

/* Writes s as a JSON string literal, quotes included. */
int bc_json_write_string(FILE *f, const char *s);

#endif /* BENCHCORE_JSON_H */
