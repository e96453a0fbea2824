// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reading the core's JSON documents back (sweeps, suites, compare, plot): a
 * DOM reader on top of jansson whose errors name the byte offset, because
 * the files it reads are often truncated by a killed run. Part of the
 * executable, not of libbenchcore: plugins never read JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "json_read.h"

#define BC_JSON_MAX_NEST 512

/*
 * A bare number or string is a document too; "\u0000" may sit inside a
 * string (string_len says where it ends); integers are read as doubles, so a
 * uint64 counter above INT64_MAX still reads (jansson refuses it as an
 * integer). Duplicate keys are accepted and the last value wins, as before
 * jansson: refusing them would turn hand-edited documents away for nothing.
 */
#define BC_JSON_LOAD_FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL)

/* An error that has no place in the input (no memory). */
#define BC_JR_NO_POS ((size_t)-1)

__attribute__((format(printf, 5, 6)))
static struct bc_json *bc_jr_fail(char *err, size_t err_len, int e, size_t pos,
				  const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err && err_len) {
		if (pos == BC_JR_NO_POS)
			snprintf(err, err_len, "%s", what);
		else
			snprintf(err, err_len, "offset %zu: %s", pos, what);
		/* jansson quotes the token it stopped at: keep it one line. */
		for (char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
	}
	errno = e;
	return NULL;
}

/*
 * Offset of the bracket that opens nesting level BC_JSON_MAX_NEST + 1 within
 * the first len bytes, or len if there is none. jansson's own limit is 2048
 * and a tree carries no offsets, so the refusal finds its place here.
 */
static size_t bc_jr_too_deep(const char *s, size_t len)
{
	bool in_str = false;
	size_t i, depth = 0;

	for (i = 0; i < len; i++) {
		if (in_str) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_str = false;
		} else if (s[i] == '"') {
			in_str = true;
		} else if (s[i] == '[' || s[i] == '{') {
			if (++depth > BC_JSON_MAX_NEST)
				return i;
		} else if ((s[i] == ']' || s[i] == '}') && depth) {
			depth--;
		}
	}
	return len;
}

/*
 * jansson's tree into ours. Recursion is bounded: a container deeper than
 * BC_JSON_MAX_NEST sets *too_deep and fails. NULL otherwise means no memory.
 */
static struct bc_json *bc_jr_convert(json_t *j, int depth, bool *too_deep)
{
	struct bc_json *v = calloc(1, sizeof(*v));
	const char *key;
	json_t *item;
	size_t i, n;

	if (!v)
		return NULL;
	switch (json_typeof(j)) {
	case JSON_NULL:
		v->type = BC_JSON_NULL;
		return v;
	case JSON_TRUE:
	case JSON_FALSE:
		v->type = BC_JSON_BOOL;
		v->boolean = json_is_true(j);
		return v;
	case JSON_INTEGER:
	case JSON_REAL:
		v->type = BC_JSON_NUMBER;
		v->number = json_number_value(j);
		return v;
	case JSON_STRING:
		v->type = BC_JSON_STRING;
		v->string_len = json_string_length(j);
		v->string = malloc(v->string_len + 1);
		if (!v->string)
			goto fail;
		memcpy(v->string, json_string_value(j), v->string_len + 1);
		return v;
	case JSON_ARRAY:
	case JSON_OBJECT:
		break;
	}
	v->type = json_is_object(j) ? BC_JSON_OBJECT : BC_JSON_ARRAY;
	if (depth + 1 > BC_JSON_MAX_NEST) {
		*too_deep = true;
		goto fail;
	}
	n = json_is_object(j) ? json_object_size(j) : json_array_size(j);
	if (!n)
		return v;
	v->items = calloc(n, sizeof(*v->items));
	if (!v->items)
		goto fail;
	if (v->type == BC_JSON_ARRAY) {
		json_array_foreach(j, i, item) {
			v->items[v->cnt] = bc_jr_convert(item, depth + 1, too_deep);
			if (!v->items[v->cnt])
				goto fail;
			v->cnt++;
		}
		return v;
	}
	v->keys = calloc(n, sizeof(*v->keys));
	if (!v->keys)
		goto fail;
	/* Insertion order: the order of the input (a duplicate key keeps the
	 * first one's place). */
	json_object_foreach(j, key, item) {
		v->keys[v->cnt] = strdup(key);
		if (!v->keys[v->cnt])
			goto fail;
		v->items[v->cnt] = bc_jr_convert(item, depth + 1, too_deep);
		if (!v->items[v->cnt]) {
			free(v->keys[v->cnt]);
			goto fail;
		}
		v->cnt++;
	}
	return v;
fail:
	bc_json_free(v);
	return NULL;
}

/*
 * jansson ignores a failed allocation while it lexes a string and goes on
 * asking for the same large block once per input byte: 60 MB of string
 * under a memory limit is minutes of failing mmap() calls. After the first
 * failure every allocation of the parse fails at once, so the parse ends
 * in time linear in the input and says "out of memory".
 */
static bool bc_jr_oom;

static void *bc_jr_malloc(size_t n)
{
	void *p;

	if (bc_jr_oom)
		return NULL;
	p = malloc(n);
	if (!p)
		bc_jr_oom = true;
	return p;
}

struct bc_json *bc_json_parse(const char *text, size_t len, char *err, size_t err_len)
{
	bool too_deep = false;
	json_error_t jerr;
	struct bc_json *v;
	size_t pos, deep;
	const char *nul;
	json_t *j;

	if (err && err_len)
		err[0] = '\0';
	if (!text) {
		errno = EINVAL;
		return NULL;
	}
	json_set_alloc_funcs(bc_jr_malloc, free);
	bc_jr_oom = false;
	j = json_loadb(text, len, BC_JSON_LOAD_FLAGS, &jerr);
	if (bc_jr_oom) {
		if (j)
			json_decref(j);
		return bc_jr_fail(err, err_len, ENOMEM, BC_JR_NO_POS,
				  "out of memory reading %zu bytes of JSON", len);
	}
	if (!j) {
		pos = jerr.position > 0 ? (size_t)jerr.position : 0;
		if (pos > len)
			pos = len;
		/*
		 * The first problem in the input is the one to name. jansson
		 * reads a zero byte as the end of the input ("end of file
		 * expected near end of file"), which misleads about a file
		 * that a crash left zero-filled.
		 */
		deep = bc_jr_too_deep(text, pos);
		nul = memchr(text, '\0', pos);
		if (nul && (size_t)(nul - text) < deep)
			return bc_jr_fail(err, err_len, EINVAL, (size_t)(nul - text),
					  "byte 0x00 (JSON text holds no zero bytes)");
		if (deep < pos)
			return bc_jr_fail(err, err_len, EINVAL, deep,
					  "nesting deeper than %d levels", BC_JSON_MAX_NEST);
		if (json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0])
			return bc_jr_fail(err, err_len, ENOMEM, BC_JR_NO_POS,
					  "out of memory reading %zu bytes of JSON", len);
		return bc_jr_fail(err, err_len, EINVAL, pos, "%s", jerr.text);
	}
	v = bc_jr_convert(j, 0, &too_deep);
	json_decref(j);
	if (!v && too_deep)
		return bc_jr_fail(err, err_len, EINVAL, bc_jr_too_deep(text, len),
				  "nesting deeper than %d levels", BC_JSON_MAX_NEST);
	if (!v)
		return bc_jr_fail(err, err_len, ENOMEM, BC_JR_NO_POS, "out of memory");
	return v;
}

struct bc_json *bc_json_parse_file(const char *path, char *err, size_t err_len)
{
	return bc_json_parse_file_max(path, 0, err, err_len);
}

struct bc_json *bc_json_parse_file_max(const char *path, size_t max, char *err, size_t err_len)
{
	char *buf = NULL, perr[256];
	size_t len = 0, cap = 0, n;
	struct stat st;
	struct bc_json *v;
	FILE *f;
	int e;

	f = fopen(path, "re");
	if (!f) {
		e = errno;
		snprintf(err, err_len, "%s: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		snprintf(err, err_len, "%s: is a directory; expected a JSON file", path);
		errno = EISDIR;
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, err_len, "%s: out of memory", path);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		n = cap - len;
		if (max && n > max + 1 - len)
			n = max + 1 - len;
		n = fread(buf + len, 1, n, f);
		len += n;
		if (n == 0)
			break;
		/* /dev/zero never ends: stop at the cap, not at ENOMEM. */
		if (max && len > max) {
			free(buf);
			fclose(f);
			snprintf(err, err_len, "%s: larger than %zu bytes", path, max);
			errno = EFBIG;
			return NULL;
		}
	}
	e = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (e) {
		free(buf);
		snprintf(err, err_len, "%s: read error: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	v = bc_json_parse(buf, len, perr, sizeof(perr));
	e = errno;
	free(buf);
	if (!v) {
		snprintf(err, err_len, "%s: %s", path, perr);
		errno = e;
	}
	return v;
}

void bc_json_free(struct bc_json *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->cnt; i++) {
		bc_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	free(v);
}

const struct bc_json *bc_json_get(const struct bc_json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != BC_JSON_OBJECT)
		return NULL;
	/* Keys are unique: of a duplicate, the reader keeps the last value. */
	for (i = 0; i < obj->cnt; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct bc_json *bc_json_at(const struct bc_json *arr, size_t idx)
{
	if (!arr || (arr->type != BC_JSON_ARRAY && arr->type != BC_JSON_OBJECT) || idx >= arr->cnt)
		return NULL;
	return arr->items[idx];
}

size_t bc_json_len(const struct bc_json *v)
{
	return v && (v->type == BC_JSON_ARRAY || v->type == BC_JSON_OBJECT) ? v->cnt : 0;
}

double bc_json_num(const struct bc_json *v, double def)
{
	return v && v->type == BC_JSON_NUMBER ? v->number : def;
}

const char *bc_json_str(const struct bc_json *v)
{
	return v && v->type == BC_JSON_STRING ? v->string : NULL;
}

bool bc_json_bool(const struct bc_json *v, bool def)
{
	return v && v->type == BC_JSON_BOOL ? v->boolean : def;
}

bool bc_json_is_null(const struct bc_json *v)
{
	return v && v->type == BC_JSON_NULL;
}
