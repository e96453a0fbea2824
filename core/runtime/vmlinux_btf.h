/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names in the running kernel's BTF (/sys/kernel/btf/vmlinux), for the
 * cheap feature checks: is there a function, a raw tracepoint, an enum of
 * this name, and what is its BTF id.
 */
#ifndef BENCHCORE_VMLINUX_BTF_H
#define BENCHCORE_VMLINUX_BTF_H

#include <stddef.h>

/*
 * The BTF id of `name` among the types of BTF kind `kind` (BTF_KIND_FUNC,
 * BTF_KIND_TYPEDEF, ...), or of any named type that is not a function or
 * a variable when `kind` is 0. -ENOENT: not there; -ENODATA: the kernel
 * has no BTF; another negative errno: it could not be read. Thread-safe;
 * the BTF is read once per process.
 */
int bc_vmlinux_btf_id(const char *name, int kind);

/* Unmaps or frees it (at exit, and for tests). */
void bc_vmlinux_btf_release(void);

/*
 * The walk behind it, over any raw BTF in this machine's byte order: the
 * id of `name` of `kind` (0 as above), -ENOENT, or -EPROTO when the data
 * is not BTF it can read (a bad header, a kind newer than it knows).
 */
int bc_btf_walk(const void *data, size_t size, const char *name, int kind);

#endif /* BENCHCORE_VMLINUX_BTF_H */
