// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * JSON for the core's own documents (RFC 8259): a streaming writer that
 * cannot produce an invalid number or string, and a recursive-descent DOM
 * parser whose errors name the byte offset, because the files it reads
 * (`benchcore compare`) are often truncated by a killed run.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ---------------------------------------------------------------- writer */

int bc_json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (fputc('"', f) == EOF)
		return -EIO;
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			/* Other control characters have no short escape; bytes
			 * >= 0x80 pass through as the UTF-8 they should be. */
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	if (fputc('"', f) == EOF)
		return -EIO;
	return 0;
}

void bc_jw_init(struct bc_json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

static void bc_jw_indent(struct bc_json_writer *w)
{
	int i;

	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator, indentation and key before any value. */
static bool bc_jw_prefix(struct bc_json_writer *w, const char *key)
{
	bool in_obj = w->depth > 0 && w->is_obj[w->depth];

	if (w->err)
		return false;
	if (in_obj != (key != NULL) || (w->depth == 0 && !w->first[0])) {
		w->err = -EINVAL;
		return false;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		bc_jw_indent(w);
	}
	w->first[w->depth] = false;
	if (key) {
		bc_json_write_string(w->f, key);
		fputs(": ", w->f);
	}
	return true;
}

static void bc_jw_open(struct bc_json_writer *w, const char *key, bool obj)
{
	if (!bc_jw_prefix(w, key))
		return;
	if (w->depth + 1 >= BC_JSON_MAX_DEPTH) {
		w->err = -E2BIG;
		return;
	}
	fputc(obj ? '{' : '[', w->f);
	w->depth++;
	w->first[w->depth] = true;
	w->is_obj[w->depth] = obj;
}

static void bc_jw_close(struct bc_json_writer *w, bool obj)
{
	if (w->err)
		return;
	if (w->depth == 0 || w->is_obj[w->depth] != obj) {
		w->err = -EINVAL;
		return;
	}
	w->depth--;
	if (!w->first[w->depth + 1])
		bc_jw_indent(w);
	fputc(obj ? '}' : ']', w->f);
}

void bc_jw_obj_begin(struct bc_json_writer *w, const char *key)
{
	bc_jw_open(w, key, true);
}

void bc_jw_obj_end(struct bc_json_writer *w)
{
	bc_jw_close(w, true);
}

void bc_jw_arr_begin(struct bc_json_writer *w, const char *key)
{
	bc_jw_open(w, key, false);
}

void bc_jw_arr_end(struct bc_json_writer *w)
{
	bc_jw_close(w, false);
}

void bc_jw_str(struct bc_json_writer *w, const char *key, const char *val)
{
	if (!bc_jw_prefix(w, key))
		return;
	if (val)
		bc_json_write_string(w->f, val);
	else
		fputs("null", w->f);
}

/* The shortest of %.15g..%.17g that reads back as the same double: 0.1, not
 * 0.10000000000000001 (17 digits always round-trip). */
static void bc_jw_shortest(FILE *f, double val)
{
	char buf[32];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, val);
		if (strtod(buf, NULL) == val)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", val);
	fputs(buf, f);
}

void bc_jw_num(struct bc_json_writer *w, const char *key, double val)
{
	if (!bc_jw_prefix(w, key))
		return;
	if (!isfinite(val))
		fputs("null", w->f);
	else if (val == floor(val) && fabs(val) < 1e15)
		fprintf(w->f, "%.0f", val);	/* integral values read as integers */
	else
		bc_jw_shortest(w->f, val);
}

void bc_jw_int(struct bc_json_writer *w, const char *key, long long val)
{
	if (bc_jw_prefix(w, key))
		fprintf(w->f, "%lld", val);
}

void bc_jw_uint(struct bc_json_writer *w, const char *key, unsigned long long val)
{
	if (bc_jw_prefix(w, key))
		fprintf(w->f, "%llu", val);
}

void bc_jw_bool(struct bc_json_writer *w, const char *key, bool val)
{
	if (bc_jw_prefix(w, key))
		fputs(val ? "true" : "false", w->f);
}

void bc_jw_null(struct bc_json_writer *w, const char *key)
{
	if (bc_jw_prefix(w, key))
		fputs("null", w->f);
}

int bc_jw_finish(struct bc_json_writer *w)
{
	if (!w->err && (w->depth != 0 || w->first[0]))
		w->err = -EINVAL;
	fputc('\n', w->f);
	if (fflush(w->f) || ferror(w->f))
		return w->err ? w->err : -EIO;
	return w->err;
}

/* ---------------------------------------------------------------- parser */

#define BC_JSON_MAX_NEST 512

struct bc_json_parser {
	const char *s;
	size_t len, pos;
	int depth;
	char *err;
	size_t err_len;
	bool failed;
};

static struct bc_json *bc_jp_value(struct bc_json_parser *p);

__attribute__((format(printf, 2, 3)))
static struct bc_json *bc_jp_fail(struct bc_json_parser *p, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (p->failed)
		return NULL;
	p->failed = true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->err && p->err_len)
		snprintf(p->err, p->err_len, "offset %zu: %s", p->pos, what);
	errno = EINVAL;
	return NULL;
}

static struct bc_json *bc_jp_oom(struct bc_json_parser *p)
{
	bc_jp_fail(p, "out of memory");
	errno = ENOMEM;
	return NULL;
}

static void bc_jp_ws(struct bc_json_parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int bc_jp_peek(struct bc_json_parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

/* Names what was found, for "expected X, found Y" messages. */
static const char *bc_jp_found(struct bc_json_parser *p, char *buf, size_t len)
{
	int c = bc_jp_peek(p);

	if (c < 0)
		return "the end of the input (truncated?)";
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static struct bc_json *bc_jp_new(struct bc_json_parser *p, enum bc_json_type type)
{
	struct bc_json *v = calloc(1, sizeof(*v));

	if (!v)
		return bc_jp_oom(p);
	v->type = type;
	return v;
}

static int bc_jp_hex4(struct bc_json_parser *p, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	if (p->len - p->pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + (size_t)i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	p->pos += 4;
	*out = v;
	return 0;
}

static size_t bc_utf8_put(char *out, unsigned int cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Parses a string at p->pos (the opening quote); the caller frees *out. */
static int bc_jp_string(struct bc_json_parser *p, char **out, size_t *out_len)
{
	size_t start = p->pos, cap, n = 0;
	unsigned int cp, lo;
	char *buf;

	p->pos++;
	/* Escapes only shrink: the raw length bounds the decoded one. */
	cap = 1;
	while (start + cap < p->len && p->s[start + cap] != '"') {
		if (p->s[start + cap] == '\\')
			cap++;
		cap++;
	}
	buf = malloc(cap + 1);
	if (!buf) {
		bc_jp_oom(p);
		return -1;
	}
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len) {
			p->pos = start;
			bc_jp_fail(p, "string never ends (truncated input?)");
			goto fail;
		}
		c = (unsigned char)p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		}
		if (c < 0x20) {
			bc_jp_fail(p, "control character 0x%02x inside a string (escape it)", c);
			goto fail;
		}
		if (c != '\\') {
			buf[n++] = (char)c;
			p->pos++;
			continue;
		}
		p->pos++;
		if (p->pos >= p->len) {
			bc_jp_fail(p, "string never ends (truncated input?)");
			goto fail;
		}
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"': buf[n++] = '"'; break;
		case '\\': buf[n++] = '\\'; break;
		case '/': buf[n++] = '/'; break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (bc_jp_hex4(p, &cp)) {
				bc_jp_fail(p, "\\u must be followed by four hex digits");
				goto fail;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				/* A high surrogate needs its low half: \uD83D\uDE00. */
				if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
				    p->s[p->pos + 1] != 'u') {
					bc_jp_fail(p, "lone UTF-16 high surrogate \\u%04x", cp);
					goto fail;
				}
				p->pos += 2;
				if (bc_jp_hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff) {
					bc_jp_fail(p, "UTF-16 high surrogate not followed by a low one");
					goto fail;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				bc_jp_fail(p, "lone UTF-16 low surrogate \\u%04x", cp);
				goto fail;
			}
			n += bc_utf8_put(buf + n, cp);
			break;
		default:
			p->pos--;
			bc_jp_fail(p, "unknown escape '\\%c' in a string", c >= 0x20 && c < 0x7f ? c : '?');
			goto fail;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*out_len = n;
	return 0;
fail:
	free(buf);
	return -1;
}

static struct bc_json *bc_jp_number(struct bc_json_parser *p)
{
	size_t start = p->pos;
	char tmp[64], *end;
	struct bc_json *v;

	/* The JSON grammar, stricter than strtod (no "1.", ".5", "+1", hex, inf). */
	if (bc_jp_peek(p) == '-')
		p->pos++;
	if (bc_jp_peek(p) == '0') {
		p->pos++;
	} else if (bc_jp_peek(p) >= '1' && bc_jp_peek(p) <= '9') {
		while (bc_jp_peek(p) >= '0' && bc_jp_peek(p) <= '9')
			p->pos++;
	} else {
		return bc_jp_fail(p, "expected a digit in a number");
	}
	if (bc_jp_peek(p) == '.') {
		p->pos++;
		if (!(bc_jp_peek(p) >= '0' && bc_jp_peek(p) <= '9'))
			return bc_jp_fail(p, "expected a digit after the decimal point");
		while (bc_jp_peek(p) >= '0' && bc_jp_peek(p) <= '9')
			p->pos++;
	}
	if (bc_jp_peek(p) == 'e' || bc_jp_peek(p) == 'E') {
		p->pos++;
		if (bc_jp_peek(p) == '+' || bc_jp_peek(p) == '-')
			p->pos++;
		if (!(bc_jp_peek(p) >= '0' && bc_jp_peek(p) <= '9'))
			return bc_jp_fail(p, "expected a digit in the exponent");
		while (bc_jp_peek(p) >= '0' && bc_jp_peek(p) <= '9')
			p->pos++;
	}
	if (p->pos - start >= sizeof(tmp)) {
		p->pos = start;
		return bc_jp_fail(p, "number too long");
	}
	memcpy(tmp, p->s + start, p->pos - start);
	tmp[p->pos - start] = '\0';
	v = bc_jp_new(p, BC_JSON_NUMBER);
	if (v)
		v->number = strtod(tmp, &end);
	return v;
}

static struct bc_json *bc_jp_literal(struct bc_json_parser *p, const char *word,
				     enum bc_json_type type, bool b)
{
	size_t n = strlen(word);
	struct bc_json *v;

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return bc_jp_fail(p, "expected a value (object, array, string, number, "
				  "true, false or null)");
	p->pos += n;
	v = bc_jp_new(p, type);
	if (v)
		v->boolean = b;
	return v;
}

static int bc_jp_push(struct bc_json_parser *p, struct bc_json *c, struct bc_json *item, char *key)
{
	struct bc_json **items;
	char **keys;

	/* Grow by doubling: cnt is a power of two exactly when full. */
	if (!(c->cnt & (c->cnt - 1))) {
		size_t cap = c->cnt ? c->cnt * 2 : 1;

		items = realloc(c->items, cap * sizeof(*items));
		if (!items)
			goto oom;
		c->items = items;
		if (c->type == BC_JSON_OBJECT) {
			keys = realloc(c->keys, cap * sizeof(*keys));
			if (!keys)
				goto oom;
			c->keys = keys;
		}
	}
	c->items[c->cnt] = item;
	if (c->type == BC_JSON_OBJECT)
		c->keys[c->cnt] = key;
	c->cnt++;
	return 0;
oom:
	bc_json_free(item);
	free(key);
	bc_jp_oom(p);
	return -1;
}

static struct bc_json *bc_jp_container(struct bc_json_parser *p, bool obj)
{
	char close = obj ? '}' : ']', found[32];
	struct bc_json *c, *item;
	char *key = NULL;
	size_t key_len;

	if (++p->depth > BC_JSON_MAX_NEST)
		return bc_jp_fail(p, "nesting deeper than %d levels", BC_JSON_MAX_NEST);
	c = bc_jp_new(p, obj ? BC_JSON_OBJECT : BC_JSON_ARRAY);
	if (!c)
		return NULL;
	p->pos++;
	bc_jp_ws(p);
	if (bc_jp_peek(p) == close) {
		p->pos++;
		p->depth--;
		return c;
	}
	for (;;) {
		bc_jp_ws(p);
		if (obj) {
			if (bc_jp_peek(p) != '"') {
				bc_jp_fail(p, "expected a string key in an object, found %s",
					   bc_jp_found(p, found, sizeof(found)));
				goto fail;
			}
			if (bc_jp_string(p, &key, &key_len))
				goto fail;
			bc_jp_ws(p);
			if (bc_jp_peek(p) != ':') {
				bc_jp_fail(p, "expected ':' after the key \"%.40s\", found %s", key,
					   bc_jp_found(p, found, sizeof(found)));
				free(key);
				goto fail;
			}
			p->pos++;
		}
		item = bc_jp_value(p);
		if (!item) {
			free(key);
			goto fail;
		}
		if (bc_jp_push(p, c, item, key))
			goto fail;
		key = NULL;
		bc_jp_ws(p);
		if (bc_jp_peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (bc_jp_peek(p) == close) {
			p->pos++;
			break;
		}
		bc_jp_fail(p, "expected ',' or '%c' in %s, found %s", close,
			   obj ? "an object" : "an array", bc_jp_found(p, found, sizeof(found)));
		goto fail;
	}
	p->depth--;
	return c;
fail:
	bc_json_free(c);
	return NULL;
}

static struct bc_json *bc_jp_value(struct bc_json_parser *p)
{
	struct bc_json *v;
	char found[32];
	int c;

	bc_jp_ws(p);
	c = bc_jp_peek(p);
	switch (c) {
	case '{':
		return bc_jp_container(p, true);
	case '[':
		return bc_jp_container(p, false);
	case '"':
		v = bc_jp_new(p, BC_JSON_STRING);
		if (v && bc_jp_string(p, &v->string, &v->string_len)) {
			free(v);
			return NULL;
		}
		return v;
	case 't':
		return bc_jp_literal(p, "true", BC_JSON_BOOL, true);
	case 'f':
		return bc_jp_literal(p, "false", BC_JSON_BOOL, false);
	case 'n':
		return bc_jp_literal(p, "null", BC_JSON_NULL, false);
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return bc_jp_number(p);
		return bc_jp_fail(p, "expected a value, found %s",
				  bc_jp_found(p, found, sizeof(found)));
	}
}

struct bc_json *bc_json_parse(const char *text, size_t len, char *err, size_t err_len)
{
	struct bc_json_parser p = { .s = text, .len = len, .err = err, .err_len = err_len };
	struct bc_json *v;
	char found[32];

	if (err && err_len)
		err[0] = '\0';
	if (!text) {
		errno = EINVAL;
		return NULL;
	}
	v = bc_jp_value(&p);
	if (!v)
		return NULL;
	bc_jp_ws(&p);
	if (p.pos != p.len) {
		bc_jp_fail(&p, "unexpected %s after the document", bc_jp_found(&p, found, sizeof(found)));
		bc_json_free(v);
		return NULL;
	}
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
	e = ferror(f) ? EIO : 0;
	fclose(f);
	if (e) {
		free(buf);
		snprintf(err, err_len, "%s: read error", path);
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
	/* The last duplicate wins, as in most parsers. */
	for (i = obj->cnt; i-- > 0;)
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
