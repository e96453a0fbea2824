/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Choosing an attach point (attach.c): the fallback ladder, with the
 * kernel's answers injectable for tests.
 */
#ifndef BENCHCORE_CORE_ATTACH_H
#define BENCHCORE_CORE_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <benchcore/attach.h>

#include "context.h"

/*
 * A check made before the kernel is asked about pt (tracefs for BC_ATTACH_TP):
 * returns 0, or a negative errno with a reason in `why`; the candidate is
 * then skipped with that reason.
 */
typedef int (*bc_attach_precheck_fn)(const struct bc_attach_point *pt, char *why, size_t why_len,
				     void *cookie);

/* bc_attach_first() with the kernel's answers injectable: try_fn and
 * precheck (may be NULL) are the only things that touch the kernel. */
int bc_attach_select(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
		     bc_attach_try_fn try_fn, void *cookie,
		     bc_attach_precheck_fn precheck, void *precheck_cookie);
/* bc_attach_is_refusal() is public (<benchcore/attach.h>, ABI 2.3). */
/* Reads one line libbpf printed while a candidate loads: "map 'NAME':
 * failed to create: ..." records NAME, so that a refused map (every
 * candidate's) is told apart from a refused attach point. */
void bc_attach_note_libbpf(const char *line);
/* strerror() that also names ENOTSUPP (524) and libbpf's own codes. */
const char *bc_attach_strerror(int err, char *buf, size_t len);

/*
 * ABI 2.2: the ladder of the running benchmark's descriptor, through its
 * attach callback (0 when it has none). With `declare`, the chosen
 * candidate's program is declared under test unless the callback declared
 * one. Returns 0 or a negative errno, as bc_attach_first() reports them.
 */
int bc_attach_ladder(struct bc_ctx *ctx, bool declare);
/* A probe for a benchmark with an attach callback and no probe():
 * setup(), the ladder and teardown(), leaving nothing behind. */
int bc_attach_probe(struct bc_ctx *ctx);

#endif /* BENCHCORE_CORE_ATTACH_H */
