/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * "Did you mean" (names.c): offer each candidate name, then read the
 * closest one to what was typed, or NULL when none is near.
 */
#ifndef BENCHCORE_NAMES_H
#define BENCHCORE_NAMES_H

#include <stddef.h>

/* Longer names are compared by nothing but equality. */
#define BC_NAME_CMP_MAX 127

struct bc_closest {
	const char *want;
	const char *best;	/* the closest offered so far, or NULL */
	size_t dist;
};

void bc_closest_init(struct bc_closest *c, const char *want);
void bc_closest_offer(struct bc_closest *c, const char *name);

#endif /* BENCHCORE_NAMES_H */
