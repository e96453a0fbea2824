/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the nsop fixture's BPF program and its user space agree on.
 */
#ifndef BENCHCORE_NSOP_COMMON_H
#define BENCHCORE_NSOP_COMMON_H

/* Lookups per getpgid(): enough that the syscall is noise beside them. */
#define NSOP_OPS 1000
/* Array entries the lookups cycle through (power of two). */
#define NSOP_SLOTS 64

#endif /* BENCHCORE_NSOP_COMMON_H */
