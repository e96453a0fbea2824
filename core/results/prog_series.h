/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * At which saved entry a benchmark's BPF programs changed (prog_series.c):
 * each entry's program digest (store.h, prog_change.h) against the entry
 * before it in its series, read in date order. A series is one benchmark
 * and configuration on one host and kernel: another kernel's verifier and
 * JIT make other programs of the same source, which is no change of the
 * benchmark's.
 */
#ifndef BENCHCORE_PROG_SERIES_H
#define BENCHCORE_PROG_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "intern.h"
#include "store.h"

struct bc_prog_series {
	struct bc_intern keys;		/* "BENCH\x1fOPTIONS\x1fHOST\x1fKERNEL" */
	char **last;			/* by key id: the previous entry's digest, or NULL */
	size_t cap;
};

/*
 * The entry k (the next of its series, oldest first) against the entry
 * before it: *changed is true when both have a digest and they differ; a
 * digest unknown on either side (an entry saved before schema 5, a
 * document without program facts) is never a change. Records k's digest
 * for the next. 0, or -ENOMEM.
 */
int bc_prog_series_step(struct bc_prog_series *ps, const struct bc_store_keys *k, bool *changed);
void bc_prog_series_free(struct bc_prog_series *ps);

/* What a mark of a changed entry means, in the words of history's legend
 * and the report's tooltips. */
#define BC_PROG_CHANGED_WORDS \
	"the benchmark's BPF programs changed at this entry (benchcore compare shows how)"

#endif /* BENCHCORE_PROG_SERIES_H */
