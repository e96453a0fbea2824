/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The skeleton's life driven by the core (skel.c, ABI 2.3): one candidate
 * of a benchmark's ladder when its descriptor has `skel`, and the end of
 * what the ladder left.
 */
#ifndef BENCHCORE_SKEL_H
#define BENCHCORE_SKEL_H

#include <stddef.h>
#include <benchcore/attach.h>

#include "context.h"

/* Before anything loads: the object has every program pts[0..cnt-1] name
 * (prog_name, also_prog). 0, or bc_error() naming the one it lacks and
 * the programs it has. */
int bc_skel_check(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt);
/* One candidate: 0 with ctx->skel set, the kernel's bare errno for a
 * refused load or attach, or the plugin's error with its reason. */
int bc_skel_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt);
/* At the run's end: detach before teardown(), destroy after it. */
void bc_skel_detach(struct bc_ctx *ctx);
void bc_skel_destroy(struct bc_ctx *ctx);

#endif /* BENCHCORE_SKEL_H */
