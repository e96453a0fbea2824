// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "pb_json.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct tj_parser {
	const char *p;
	int depth;
};

#define TJ_MAX_DEPTH 64

static struct tj *tj_value(struct tj_parser *ps);

static void tj_ws(struct tj_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static struct tj *tj_new(enum tj_type type)
{
	struct tj *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static int tj_push(struct tj *v, char *key, struct tj *item)
{
	struct tj **items = realloc(v->items, (v->n + 1) * sizeof(*items));
	char **keys;

	if (!items)
		return -1;
	v->items = items;
	if (v->type == TJ_OBJ) {
		keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));
		if (!keys)
			return -1;
		v->keys = keys;
		v->keys[v->n] = key;
	}
	v->items[v->n++] = item;
	return 0;
}

static int tj_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The tests only compare ASCII; \u escapes outside it become '?'. */
static char *tj_string(struct tj_parser *ps)
{
	size_t cap = 16, len = 0;
	char *s, *t;

	if (*ps->p != '"')
		return NULL;
	ps->p++;
	s = malloc(cap);
	if (!s)
		return NULL;
	while (*ps->p != '"') {
		char c = *ps->p++;

		if ((unsigned char)c < 0x20)
			goto fail;
		if (c == '\\') {
			c = *ps->p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				int i, cp = 0;

				for (i = 0; i < 4; i++) {
					int h = tj_hex(ps->p[i]);

					if (h < 0)
						goto fail;
					cp = cp * 16 + h;
				}
				ps->p += 4;
				c = cp < 0x80 ? (char)cp : '?';
				break;
			}
			default:
				goto fail;
			}
		}
		if (len + 2 > cap) {
			cap *= 2;
			t = realloc(s, cap);
			if (!t)
				goto fail;
			s = t;
		}
		s[len++] = c;
	}
	ps->p++;
	s[len] = '\0';
	return s;
fail:
	free(s);
	return NULL;
}

static struct tj *tj_number(struct tj_parser *ps)
{
	const char *start = ps->p;
	struct tj *v;
	char *end;

	/* JSON's grammar, checked before strtod (which accepts more). */
	if (*ps->p == '-')
		ps->p++;
	if (!isdigit((unsigned char)*ps->p))
		return NULL;
	if (*ps->p == '0')
		ps->p++;
	else
		while (isdigit((unsigned char)*ps->p))
			ps->p++;
	if (*ps->p == '.') {
		ps->p++;
		if (!isdigit((unsigned char)*ps->p))
			return NULL;
		while (isdigit((unsigned char)*ps->p))
			ps->p++;
	}
	if (*ps->p == 'e' || *ps->p == 'E') {
		ps->p++;
		if (*ps->p == '+' || *ps->p == '-')
			ps->p++;
		if (!isdigit((unsigned char)*ps->p))
			return NULL;
		while (isdigit((unsigned char)*ps->p))
			ps->p++;
	}
	v = tj_new(TJ_NUM);
	if (!v)
		return NULL;
	v->num = strtod(start, &end);
	return v;
}

static struct tj *tj_container(struct tj_parser *ps, bool obj)
{
	struct tj *v = tj_new(obj ? TJ_OBJ : TJ_ARR);
	char close = obj ? '}' : ']';

	if (!v || ++ps->depth > TJ_MAX_DEPTH)
		goto fail;
	ps->p++;
	tj_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct tj *item;

		tj_ws(ps);
		if (obj) {
			key = tj_string(ps);
			if (!key)
				goto fail;
			tj_ws(ps);
			if (*ps->p != ':') {
				free(key);
				goto fail;
			}
			ps->p++;
		}
		item = tj_value(ps);
		if (!item || tj_push(v, key, item)) {
			free(key);
			tj_free(item);
			goto fail;
		}
		tj_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			ps->depth--;
			return v;
		}
		goto fail;
	}
fail:
	tj_free(v);
	return NULL;
}

static struct tj *tj_value(struct tj_parser *ps)
{
	struct tj *v;

	tj_ws(ps);
	switch (*ps->p) {
	case '{':
		return tj_container(ps, true);
	case '[':
		return tj_container(ps, false);
	case '"':
		v = tj_new(TJ_STR);
		if (v && !(v->str = tj_string(ps))) {
			free(v);
			v = NULL;
		}
		return v;
	case 't':
		if (strncmp(ps->p, "true", 4))
			return NULL;
		ps->p += 4;
		v = tj_new(TJ_BOOL);
		if (v)
			v->b = true;
		return v;
	case 'f':
		if (strncmp(ps->p, "false", 5))
			return NULL;
		ps->p += 5;
		return tj_new(TJ_BOOL);
	case 'n':
		if (strncmp(ps->p, "null", 4))
			return NULL;
		ps->p += 4;
		return tj_new(TJ_NULL);
	default:
		return tj_number(ps);
	}
}

struct tj *tj_parse(const char *text)
{
	struct tj_parser ps = { .p = text };
	struct tj *v;

	if (!text)
		return NULL;
	v = tj_value(&ps);
	if (!v)
		return NULL;
	tj_ws(&ps);
	if (*ps.p) {
		tj_free(v);
		return NULL;
	}
	return v;
}

void tj_free(struct tj *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		tj_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct tj *tj_get(const struct tj *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != TJ_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const struct tj *tj_path(const struct tj *root, const char *dotted)
{
	char part[128];
	const char *dot;

	while (root && *dotted) {
		size_t len;

		dot = strchr(dotted, '.');
		len = dot ? (size_t)(dot - dotted) : strlen(dotted);
		if (len >= sizeof(part))
			return NULL;
		memcpy(part, dotted, len);
		part[len] = '\0';
		root = tj_get(root, part);
		dotted += len + (dot ? 1 : 0);
	}
	return root;
}

const struct tj *tj_find(const struct tj *v, const char *key)
{
	const struct tj *hit;
	size_t i;

	if (!v)
		return NULL;
	if (v->type == TJ_OBJ) {
		hit = tj_get(v, key);
		if (hit)
			return hit;
	}
	if (v->type != TJ_OBJ && v->type != TJ_ARR)
		return NULL;
	for (i = 0; i < v->n; i++) {
		hit = tj_find(v->items[i], key);
		if (hit)
			return hit;
	}
	return NULL;
}
