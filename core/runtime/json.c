// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The JSON writer of the core's own documents (RFC 8259): a streaming
 * writer that cannot produce an invalid number or string. It stays
 * hand-written: it is two hundred lines that print what the reports hold,
 * in the layout people read, with no tree to build first. Reading documents
 * back is the command line's business (json_read.c).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <benchcore/benchcore.h>

#include "json.h"

/* ---------------------------------------------------------------- writer */

/*
 * Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 when it is not one.
 */
static size_t bc_utf8_len(const unsigned char *p)
{
	size_t len;
	unsigned int cp;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf) {
		len = 2;
		cp = *p & 0x1f;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		len = 3;
		cp = *p & 0x0f;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		len = 4;
		cp = *p & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;	/* the NUL ends it here too */
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static bool bc_json_replaced_warned;

int bc_json_write_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (fputc('"', f) == EOF)
		return -EIO;
	for (; *p; p++) {
		size_t len = bc_utf8_len(p);

		/* A label, a suite header or a path may hold any bytes; JSON
		 * is UTF-8, and a reader refuses anything else. */
		if (!len) {
			fputs("\\ufffd", f);
			if (!bc_json_replaced_warned) {
				bc_json_replaced_warned = true;
				bc_warn("warning: a string written to JSON (a label, a header, a path) held bytes that are not UTF-8; each was replaced by U+FFFD");
			}
			continue;
		}
		if (len > 1) {
			fwrite(p, 1, len, f);
			p += len - 1;
			continue;
		}
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
			/* Other control characters have no short escape. */
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
