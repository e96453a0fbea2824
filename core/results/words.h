/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Words and string vectors (words.c).
 */
#ifndef BENCHCORE_WORDS_H
#define BENCHCORE_WORDS_H

#include <stddef.h>

/* A growable, NULL-terminated vector of strings it owns (words.c). */
struct bc_strv {
	char **v;
	size_t cnt, cap;
};

/* Takes str (NULL: -ENOMEM); frees it on failure. */
int bc_strv_push_owned(struct bc_strv *s, char *str);
int bc_strv_push(struct bc_strv *s, const char *str);	/* a copy */
void bc_strv_free(struct bc_strv *s);

/* Splits a suite line into words: blanks separate, '...' and "..." quote,
 * backslash escapes. Returns -EINVAL with a reason on unbalanced quotes. */
int bc_split_words(const char *line, char ***words, size_t *cnt, char *err, size_t err_len);
void bc_words_free(char **words, size_t cnt);

/* s as text for a terminal or a one-line-per-entry listing: each control
 * character (C0 and DEL: ESC, CR, a newline) as \xNN, so that a label
 * read from a store cannot move the cursor, rewrite a line or start a
 * new row. Into buf (cut to fit); returns buf. NULL reads as "". */
const char *bc_text_safe(const char *s, char *buf, size_t len);

#endif /* BENCHCORE_WORDS_H */
