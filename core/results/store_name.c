// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A store's name: a file or a server, and the name as messages show it.
 *
 * The password is found the way libpq finds it (fe-connect.c's URI and
 * keyword parsers): in a URI, the user information ends at an '@' before
 * any '/' (the last one here, so that an '@' of a password that was not
 * percent-encoded hides no part of it), and its password follows the
 * first ':'; a parameter's
 * name is percent-decoded before it is compared ("p%61ssword" is
 * "password" to libpq, so it is to the mask too). In a keyword string a
 * value is quoted with '...' and escaped with '\'. What this cannot parse
 * is shown up to the point it could, then masked whole: a name is never
 * shown with a part that might be a password.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "store_name.h"

static const char *bc_uri_rest(const char *name)
{
	if (!strncmp(name, "postgresql://", 13))
		return name + 13;
	if (!strncmp(name, "postgres://", 11))
		return name + 11;
	return NULL;
}

static bool bc_kw_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

bool bc_store_is_server(const char *name)
{
	const char *p = name;

	if (!name)
		return false;
	if (bc_uri_rest(name))
		return true;
	while (isspace((unsigned char)*p))
		p++;
	if (!bc_kw_char(*p))
		return false;
	while (bc_kw_char(*p) || isdigit((unsigned char)*p))
		p++;
	while (isspace((unsigned char)*p))
		p++;
	return *p == '=';
}

/* A cut-off string builder: what does not fit is dropped. */
struct bc_shown {
	char *buf;
	size_t len, n;
};

static void bc_put(struct bc_shown *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n && o->n + 1 < o->len; i++)
		o->buf[o->n++] = s[i];
	o->buf[o->n] = '\0';
}

static int bc_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* [s, e) percent-decoded equals word. */
static bool bc_decoded_is(const char *s, const char *e, const char *word)
{
	size_t w = 0;

	while (s < e) {
		int c = (unsigned char)*s;

		if (*s == '%' && e - s >= 3 && bc_hex(s[1]) >= 0 && bc_hex(s[2]) >= 0) {
			c = bc_hex(s[1]) * 16 + bc_hex(s[2]);
			s += 3;
		} else {
			s++;
		}
		if (!word[w] || word[w] != c)
			return false;
		w++;
	}
	return !word[w];
}

static void bc_shown_uri(struct bc_shown *o, const char *name, const char *rest)
{
	const char *q = rest, *at = NULL, *colon, *p, *amp, *eq;

	bc_put(o, name, (size_t)(rest - name));
	/* the last '@' before the path: a password with an '@' of its own
	 * that was not percent-encoded is masked whole, not cut at it */
	for (; *q && *q != '/'; q++)
		if (*q == '@')
			at = q;
	q = at;
	if (q) {
		colon = memchr(rest, ':', (size_t)(q - rest));
		if (colon) {
			bc_put(o, rest, (size_t)(colon + 1 - rest));
			bc_put(o, BC_STORE_MASK, strlen(BC_STORE_MASK));
			rest = q;
		}
	}
	p = strchr(rest, '?');
	if (!p) {
		bc_put(o, rest, strlen(rest));
		return;
	}
	bc_put(o, rest, (size_t)(p + 1 - rest));
	for (p++; *p; p = *amp ? amp + 1 : amp) {
		amp = strchr(p, '&');
		if (!amp)
			amp = p + strlen(p);
		eq = memchr(p, '=', (size_t)(amp - p));
		if (eq && bc_decoded_is(p, eq, "password")) {
			bc_put(o, p, (size_t)(eq + 1 - p));
			bc_put(o, BC_STORE_MASK, strlen(BC_STORE_MASK));
		} else {
			bc_put(o, p, (size_t)(amp - p));
		}
		if (*amp)
			bc_put(o, "&", 1);
	}
}

/* The end of a keyword string's value starting at p (quoted or not). */
static const char *bc_kw_value_end(const char *p)
{
	if (*p == '\'') {
		for (p++; *p && *p != '\''; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : p;
	}
	for (; *p && !isspace((unsigned char)*p); p++)
		if (*p == '\\' && p[1])
			p++;
	return p;
}

static void bc_shown_keywords(struct bc_shown *o, const char *p)
{
	const char *k, *ke, *v, *ve;

	while (*p) {
		const char *start = p;

		while (isspace((unsigned char)*p))
			p++;
		k = p;
		while (*p && *p != '=' && !isspace((unsigned char)*p))
			p++;
		ke = p;
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '=') {
			/* not a keyword string from here on: shown no further */
			bc_put(o, start, (size_t)(k - start));
			if (ke > k)
				bc_put(o, BC_STORE_MASK, strlen(BC_STORE_MASK));
			return;
		}
		p++;
		while (isspace((unsigned char)*p))
			p++;
		v = p;
		ve = bc_kw_value_end(v);
		bc_put(o, start, (size_t)(v - start));
		if ((size_t)(ke - k) == 8 && !memcmp(k, "password", 8))
			bc_put(o, BC_STORE_MASK, strlen(BC_STORE_MASK));
		else if ((size_t)(ke - k) == 6 && !memcmp(k, "dbname", 6) && bc_uri_rest(v))
			/* a URI as the database name is read as one by libpq */
			bc_put(o, BC_STORE_MASK, strlen(BC_STORE_MASK));
		else
			bc_put(o, v, (size_t)(ve - v));
		p = ve;
	}
}

const char *bc_store_shown(const char *name, char *buf, size_t len)
{
	struct bc_shown o = { .buf = buf, .len = len };
	const char *rest;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!name)
		return buf;
	rest = bc_uri_rest(name);
	if (rest)
		bc_shown_uri(&o, name, rest);
	else if (bc_store_is_server(name))
		bc_shown_keywords(&o, name);
	else
		bc_put(&o, name, strlen(name));
	return buf;
}
