/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the bloom plugin's BPF program and its user space must agree on.
 */
#ifndef BENCHCORE_BLOOM_COMMON_H
#define BENCHCORE_BLOOM_COMMON_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* Random bytes the hash map benchmarks draw their keys from, as in the
 * kernel runner: a window of value_size bytes at a random offset below
 * BLOOM_RAND_MASK, so every key is as random as the stored values. */
#define BLOOM_RAND_BYTES 2500000
#define BLOOM_RAND_MASK ((1u << 21) - 1)

/* Lookups per trigger in the hash map benchmarks. */
#define BLOOM_HASH_LOOKUPS 1024

/* Per-CPU counters, each CPU on its own 256-byte block (the runner's
 * alignment: adjacent-line prefetch then cannot couple two CPUs). */
#define BLOOM_STAT_SLOTS 256	/* power of two; more CPUs share slots */

/* One CPU's counters. Defined here, not in bloom.bpf.c, so that the
 * generated skeleton (which names the type without defining it) compiles. */
struct bloom_stat {
	__u64 hits;
	__u64 drops;
	__u64 false_hits;
} __attribute__((aligned(256)));

enum bloom_op {
	BLOOM_OP_LOOKUP = 1,	/* peek every array value in the bloom filter */
	BLOOM_OP_UPDATE = 2,	/* push every array value into the bloom filter */
	BLOOM_OP_HASH = 3,	/* random hash map lookups, optionally bloom-gated */
};

/* Error bits the program sets (never cleared): user space stops the run. */
#define BLOOM_ERR_WALK 1	/* a peek or push in the array walk failed */
#define BLOOM_ERR_PEEK 2	/* a bloom peek failed other than with ENOENT */

#endif /* BENCHCORE_BLOOM_COMMON_H */
