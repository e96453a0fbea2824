/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whether a benchmark can run here, from its declared kernel needs and
 * attach points (ABI 2.1) and cheap feature checks, without loading its
 * programs: `list`'s answer. The checks themselves are public
 * (<benchcore/attach.h>: bc_need_check(), bc_attach_check()).
 */
#ifndef BENCHCORE_NEEDS_H
#define BENCHCORE_NEEDS_H

#include <benchcore/benchcore.h>
#include <stdbool.h>

#include "loader.h"
#include "context.h"

struct bc_bench;
struct bc_ctx;

/* Does the benchmark declare needs, attach points or a quick_probe()? */
bool bc_bench_has_quick(const struct bc_bench *b);

/*
 * Its needs, then its attach points, then its quick_probe(): 0 when all
 * pass, else the first failure's negative errno with the reason in ctx
 * (bc_unavailable()). A benchmark that declares none of them passes. The
 * caller guards the call (guard.h): quick_probe() is plugin code.
 */
int bc_bench_quick_probe(struct bc_ctx *ctx, const struct bc_bench *b);

/* Forgets every remembered answer and releases the vmlinux BTF (tests). */
void bc_needs_reset(void);

/*
 * The target an attach point's cheap check asks about, from its name as
 * SEC() reads one: what follows the first '/', up to a blank or '+'
 * ("tp/syscalls/sys_enter_getpgid + sys_enter_getppid" ->
 * "syscalls/sys_enter_getpgid"); empty when there is no '/'. *sleepable:
 * the part before the '/' ends in ".s" ("lsm.s/socket_post_create").
 */
void bc_attach_point_target(const char *name, char *buf, size_t len, bool *sleepable);

#endif /* BENCHCORE_NEEDS_H */
