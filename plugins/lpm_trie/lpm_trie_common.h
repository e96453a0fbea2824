/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the lpm_trie plugin's BPF program and its user space must agree on.
 */
#ifndef BENCHCORE_LPM_TRIE_COMMON_H
#define BENCHCORE_LPM_TRIE_COMMON_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* An LPM trie key with 32 bits of data, as the kernel runner's: entry i is
 * { prefixlen, i } (the data in host byte order). */
struct lpm_bench_key {
	__u32 prefixlen;
	__u32 data;
};

#define LPM_MAX_PREFIXLEN 32
/* The runner's trie size: large, since nothing is preallocated. */
#define LPM_MAX_ENTRIES 100000000
/* Operations per BPF_PROG_TEST_RUN. */
#define LPM_NR_LOOPS 10000
#define LPM_NAME_LEN 16		/* BPF_OBJ_NAME_LEN */

enum lpm_op {
	LPM_OP_NOOP = 0,	/* the loop alone: the harness's cost */
	LPM_OP_BASELINE,	/* the loop and the key: lookup's and update's floor */
	LPM_OP_LOOKUP,
	LPM_OP_INSERT,
	LPM_OP_UPDATE,
	LPM_OP_DELETE,
	LPM_OP_FREE,		/* timed by the free tracers, not run_bench */
};

/* run_bench's return values besides a negative kernel error. */
#define LPM_BENCH_SUCCESS 0
#define LPM_BENCH_REINIT_MAP 1	/* insert: empty the trie; delete: refill it */

#endif /* BENCHCORE_LPM_TRIE_COMMON_H */
