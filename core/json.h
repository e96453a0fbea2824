/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small JSON writer and a DOM reader for the core's own documents: the run
 * report writes them, `benchcore compare` reads them back. The reader parses
 * with jansson and hands back its own tree, so callers never see jansson.
 * Internal to the core (nothing here is exported from libbenchcore).
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

/* ---------------------------------------------------------------- reader */

enum bc_json_type {
	BC_JSON_NULL = 0,
	BC_JSON_BOOL,
	BC_JSON_NUMBER,
	BC_JSON_STRING,
	BC_JSON_ARRAY,
	BC_JSON_OBJECT,
};

struct bc_json {
	enum bc_json_type type;
	bool boolean;
	double number;
	char *string;		/* NUL-terminated UTF-8; may hold "\u0000" as 0 */
	size_t string_len;
	/* ARRAY: items; OBJECT: items with keys[i] their names, in input order.
	 * Keys are unique: a duplicate key keeps the first one's place and the
	 * last one's value. */
	struct bc_json **items;
	char **keys;
	size_t cnt;
};

/*
 * Parses exactly one JSON value (RFC 8259, surrounding whitespace allowed;
 * invalid UTF-8, a number beyond a double's range and "\u0000" in a key are
 * refused). On error returns NULL, sets errno to EINVAL (or ENOMEM) and
 * writes one line into err: "offset 6: ':' expected near '1'", the offset
 * being how far the parser read. Nesting deeper than 512 is refused: "offset
 * 512: nesting deeper than 512 levels", at the bracket that opens level 513.
 */
struct bc_json *bc_json_parse(const char *text, size_t len, char *err, size_t err_len);
/* Reads and parses a whole file; the error names the file. */
struct bc_json *bc_json_parse_file(const char *path, char *err, size_t err_len);
/* The same, refusing a file of more than max bytes (0: no limit) with
 * errno EFBIG, without reading past it. */
struct bc_json *bc_json_parse_file_max(const char *path, size_t max, char *err, size_t err_len);
void bc_json_free(struct bc_json *v);

/* Lookups that tolerate NULL and wrong types (they return NULL / def). */
const struct bc_json *bc_json_get(const struct bc_json *obj, const char *key);
const struct bc_json *bc_json_at(const struct bc_json *arr, size_t idx);
size_t bc_json_len(const struct bc_json *v);	/* items of an array/object */
double bc_json_num(const struct bc_json *v, double def);
const char *bc_json_str(const struct bc_json *v);	/* NULL unless a string */
bool bc_json_bool(const struct bc_json *v, bool def);
bool bc_json_is_null(const struct bc_json *v);

#endif /* BENCHCORE_JSON_H */
