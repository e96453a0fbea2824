/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Rounds (rounds.c): the runs of one side of `benchcore vm --kernel A
 * --kernel B --rounds N`, one document per round and benchmark, pooled
 * into one run per benchmark, configuration and row label whose runs are
 * the rounds, as run --repeat's are. compare then tests the rounds'
 * means (Welch, compare.c), since one round's seconds do not see what
 * changes between boots.
 */
#ifndef BENCHCORE_ROUNDS_H
#define BENCHCORE_ROUNDS_H

#include <stddef.h>

#include "compare.h"

struct bc_doc_run;

struct bc_rounds {
	/* every document read, owned */
	struct bc_doc_run **docs;
	const char **doc_labels;
	size_t doc_cnt, doc_cap;
	/* after bc_rounds_pool(): one run per group, in the order first seen */
	const struct bc_doc_run **runs;
	const char **labels;
	struct bc_doc_run **pooled;	/* owned, NULL where a group had one run */
	size_t cnt;
};

/* Adds one run document (a store entry's text, its row's label in it); 0,
 * or a negative errno with one line in err. */
int bc_rounds_add(struct bc_rounds *r, const char *text, size_t len, char *err, size_t err_len);
/* Groups and pools what was added; 0 or -ENOMEM. */
int bc_rounds_pool(struct bc_rounds *r);
/* The pooled runs as one side of a comparison named name. */
void bc_rounds_side(const struct bc_rounds *r, const char *name, struct bc_cmp_side *side);
void bc_rounds_free(struct bc_rounds *r);

#endif /* BENCHCORE_ROUNDS_H */
