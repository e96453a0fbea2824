/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Strings to dense ids by hash (intern.c): what lets a reader of a whole
 * store find a benchmark, a configuration or a column in constant time
 * instead of comparing it with every one seen before.
 */
#ifndef BENCHCORE_INTERN_H
#define BENCHCORE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#define BC_INTERN_NONE SIZE_MAX

struct bc_intern {
	char **strs;			/* by id, in the order first seen; owned */
	size_t cnt, cap;
	size_t *slots;			/* open addressing: ids, BC_INTERN_NONE */
	size_t slot_cnt;		/* a power of two */
};

/* s's id, made (with a copy of s) when new; BC_INTERN_NONE when out of
 * memory. */
size_t bc_intern(struct bc_intern *t, const char *s);
/* s's id, or BC_INTERN_NONE when it was never interned. */
size_t bc_intern_find(const struct bc_intern *t, const char *s);
void bc_intern_free(struct bc_intern *t);
/* FNV-1a of s, for callers that need a name that stays the same. */
uint64_t bc_intern_hash(const char *s);

#endif /* BENCHCORE_INTERN_H */
