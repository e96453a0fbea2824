/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading the core's JSON documents back (json_read.c): jansson parses,
 * and callers get the core's own tree, so they never see jansson.
 */
#ifndef BENCHCORE_JSON_READ_H
#define BENCHCORE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

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

#endif /* BENCHCORE_JSON_READ_H */
