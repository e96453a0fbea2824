// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Strings to dense ids: an open-addressing table of indexes into the
 * array of the strings, kept at most half full so that a probe ends soon.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "intern.h"

uint64_t bc_intern_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

static int bc_intern_grow(struct bc_intern *t)
{
	size_t cnt = t->slot_cnt ? t->slot_cnt * 2 : 64;
	size_t *slots = malloc(cnt * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++)
		slots[i] = BC_INTERN_NONE;
	for (size_t id = 0; id < t->cnt; id++) {
		size_t i = bc_intern_hash(t->strs[id]) & (cnt - 1);

		while (slots[i] != BC_INTERN_NONE)
			i = (i + 1) & (cnt - 1);
		slots[i] = id;
	}
	free(t->slots);
	t->slots = slots;
	t->slot_cnt = cnt;
	return 0;
}

/* The slot of s: holding its id, or the free one it would take. */
static size_t bc_intern_slot(const struct bc_intern *t, const char *s)
{
	size_t i = bc_intern_hash(s) & (t->slot_cnt - 1);

	while (t->slots[i] != BC_INTERN_NONE && strcmp(t->strs[t->slots[i]], s))
		i = (i + 1) & (t->slot_cnt - 1);
	return i;
}

size_t bc_intern_find(const struct bc_intern *t, const char *s)
{
	return t->slot_cnt ? t->slots[bc_intern_slot(t, s)] : BC_INTERN_NONE;
}

size_t bc_intern(struct bc_intern *t, const char *s)
{
	size_t i;
	char *copy;

	if ((t->cnt + 1) * 2 > t->slot_cnt && bc_intern_grow(t))
		return BC_INTERN_NONE;
	i = bc_intern_slot(t, s);
	if (t->slots[i] != BC_INTERN_NONE)
		return t->slots[i];
	if (t->cnt == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		char **strs = realloc(t->strs, cap * sizeof(*strs));

		if (!strs)
			return BC_INTERN_NONE;
		t->strs = strs;
		t->cap = cap;
	}
	copy = strdup(s);
	if (!copy)
		return BC_INTERN_NONE;
	t->strs[t->cnt] = copy;
	t->slots[i] = t->cnt;
	return t->cnt++;
}

void bc_intern_free(struct bc_intern *t)
{
	for (size_t i = 0; i < t->cnt; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
