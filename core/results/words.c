// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Lists of words: a growable, NULL-terminated vector of strings (a ready
 * argv for execv) and the shell-like splitting of a suite line into one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"
#include "runtime/log.h"

int bc_strv_push_owned(struct bc_strv *s, char *str)
{
	if (!str)
		return -ENOMEM;
	if (s->cnt + 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v) {
			free(str);
			return -ENOMEM;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->cnt++] = str;
	s->v[s->cnt] = NULL;
	return 0;
}

int bc_strv_push(struct bc_strv *s, const char *str)
{
	return bc_strv_push_owned(s, strdup(str));
}

void bc_strv_free(struct bc_strv *s)
{
	for (size_t i = 0; i < s->cnt; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int bc_split_words(const char *line, char ***words, size_t *cnt, char *err, size_t err_len)
{
	struct bc_strv out = {};
	const char *p = line;
	char *word = NULL;
	int ret = 0;

	*words = NULL;
	*cnt = 0;
	word = malloc(strlen(line) + 1);
	if (!word)
		return -ENOMEM;
	for (;;) {
		size_t n = 0;
		char quote = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		for (; *p; p++) {
			if (quote) {
				if (*p == quote) {
					quote = 0;
				} else if (*p == '\\' && quote == '"' && p[1]) {
					word[n++] = *++p;
				} else {
					word[n++] = *p;
				}
				continue;
			}
			if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
				break;
			if (*p == '\'' || *p == '"')
				quote = *p;
			else if (*p == '\\' && p[1])
				word[n++] = *++p;
			else
				word[n++] = *p;
		}
		if (quote) {
			bc_set_err(err, err_len, "unterminated %c quote", quote);
			ret = -EINVAL;
			break;
		}
		word[n] = '\0';
		ret = bc_strv_push(&out, word);
		if (ret)
			break;
	}
	free(word);
	if (ret) {
		bc_strv_free(&out);
		return ret;
	}
	*words = out.v;
	*cnt = out.cnt;
	return 0;
}

void bc_words_free(char **words, size_t cnt)
{
	struct bc_strv s = { words, cnt, 0 };

	bc_strv_free(&s);
}

const char *bc_text_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	for (; s && *s && o + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != 0x7f) {
			buf[o++] = (char)c;
			continue;
		}
		if (o + 5 > len)
			break;
		snprintf(buf + o, len - o, "\\x%02x", c);
		o += 4;
	}
	buf[o] = '\0';
	return buf;
}
