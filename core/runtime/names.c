// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * "Did you mean": the closest of a few names to a typed one, for the lines
 * that name a plugin's typo (a program, a BPF global, an option).
 */
#include <string.h>

#include "names.h"

/* Edit distance, capped: only names a couple of edits away are offered. */
static size_t bc_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[BC_NAME_CMP_MAX + 1], i, j;

	if (la > BC_NAME_CMP_MAX || lb > BC_NAME_CMP_MAX)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], up;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

void bc_closest_init(struct bc_closest *c, const char *want)
{
	c->want = want;
	c->best = NULL;
	c->dist = (size_t)-1;
}

void bc_closest_offer(struct bc_closest *c, const char *name)
{
	size_t d, len;

	if (!c->want || !name)
		return;
	d = bc_edit_distance(c->want, name);
	len = strlen(c->want);
	/* A third of the name, at least two edits: "hitz" finds "hits",
	 * "x" finds nothing. */
	if (d > (len / 3 > 2 ? len / 3 : 2) || d >= c->dist)
		return;
	c->best = name;
	c->dist = d;
}
