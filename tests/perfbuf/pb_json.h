/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Just enough JSON for tests to read benchcore's --format json
 * back: a strict parser (a document that does not parse fails the test)
 * and lookups by key. Not for anything outside tests/.
 */
#ifndef BENCHCORE_TEST_PB_JSON_H
#define BENCHCORE_TEST_PB_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum tj_type { TJ_NULL, TJ_BOOL, TJ_NUM, TJ_STR, TJ_ARR, TJ_OBJ };

struct tj {
	enum tj_type type;
	bool b;
	double num;
	char *str;
	/* arrays and objects: n items; objects also have keys[i] */
	struct tj **items;
	char **keys;
	size_t n;
};

/* NULL when text is not exactly one JSON value (whitespace around it ok). */
struct tj *tj_parse(const char *text);
void tj_free(struct tj *v);

/* The member `key` of an object, or NULL. */
const struct tj *tj_get(const struct tj *obj, const char *key);
/* Follows "a.b.c" through nested objects, or NULL. */
const struct tj *tj_path(const struct tj *root, const char *dotted);
/* Depth-first search for the first member named `key`, at any depth. */
const struct tj *tj_find(const struct tj *v, const char *key);

#endif /* BENCHCORE_TEST_PB_JSON_H */
