/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the hashmap plugin's BPF program and its user space must agree on.
 */
#ifndef BENCHCORE_HASHMAP_COMMON_H
#define BENCHCORE_HASHMAP_COMMON_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* bpf-hashmap-full-update, as in the kernel runner: a preallocated map of
 * HM_FULL_ENTRIES u32 keys, filled by user space; each trigger updates one
 * absent key HM_FULL_LOOPS times, so every update takes the full-map path. */
#define HM_FULL_ENTRIES 1000
#define HM_FULL_LOOPS 10000

/* bpf-hashmap-lookup: keys of up to HM_KEY_WORDS 32-bit words. Word 0 is
 * the entry's number plus one, the rest a fixed pattern. */
#define HM_KEY_WORDS 256
#define HM_KEY_MAX_SIZE (HM_KEY_WORDS * 4)
/* Each CPU patches its own key buffer (power of two; more CPUs share). */
#define HM_KEY_SLOTS 256
/* The fill pattern of key word w >= 1 (the runner's). */
#define HM_KEY_PATTERN 2654435761u

/* Error bits the program sets. */
#define HM_ERR_LOOKUP_MISS 1

#endif /* BENCHCORE_HASHMAP_COMMON_H */
