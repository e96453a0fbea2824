// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Each series' previous program digest, found by hash (intern.c): history
 * and the report read a whole store once, in date order, and mark an entry
 * in constant time per entry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog_series.h"

int bc_prog_series_step(struct bc_prog_series *ps, const struct bc_store_keys *k, bool *changed)
{
	char *key = NULL, *digest = NULL;
	size_t id;

	*changed = false;
	if (asprintf(&key, "%s\x1f%s\x1f%s\x1f%s", k->bench ? k->bench : "",
		     k->options ? k->options : "", k->host ? k->host : "",
		     k->kernel_release ? k->kernel_release : "") < 0)
		return -ENOMEM;
	id = bc_intern(&ps->keys, key);
	free(key);
	if (id == BC_INTERN_NONE)
		return -ENOMEM;
	if (id >= ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		char **last;

		while (cap <= id)
			cap *= 2;
		last = realloc(ps->last, cap * sizeof(*last));
		if (!last)
			return -ENOMEM;
		memset(last + ps->cap, 0, (cap - ps->cap) * sizeof(*last));
		ps->last = last;
		ps->cap = cap;
	}
	if (k->prog_digest && *k->prog_digest && !(digest = strdup(k->prog_digest)))
		return -ENOMEM;
	*changed = digest && ps->last[id] && strcmp(digest, ps->last[id]);
	free(ps->last[id]);
	ps->last[id] = digest;
	return 0;
}

void bc_prog_series_free(struct bc_prog_series *ps)
{
	for (size_t i = 0; i < ps->cap; i++)
		free(ps->last[i]);
	free(ps->last);
	bc_intern_free(&ps->keys);
	memset(ps, 0, sizeof(*ps));
}
