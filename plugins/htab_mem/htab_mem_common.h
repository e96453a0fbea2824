/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the htab_mem plugin's BPF program and its user space must agree on.
 */
#ifndef BENCHCORE_HTAB_MEM_COMMON_H
#define BENCHCORE_HTAB_MEM_COMMON_H

/* Map operations per trigger and kind, as in the kernel runner. */
#define HTAB_MEM_BATCH 64
/* Largest value: the program copies values from a zeroed buffer this big. */
#define HTAB_MEM_MAX_VALUE 4096
/* The map holds max(HTAB_MEM_MIN_ENTRIES, HTAB_MEM_BATCH x CPUs) entries,
 * so that CPUs can work on disjoint keys. */
#define HTAB_MEM_MIN_ENTRIES 8192

#endif /* BENCHCORE_HTAB_MEM_COMMON_H */
