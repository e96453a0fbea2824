/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A histogram recorded in BPF: the one definition of its buckets, shared by
 * BPF (<benchcore.bpf.h>: BC_HIST_MAP(), bc_hist_add()) and the core, which
 * merges it with the histogram metric's user-space shards each tick. The
 * buckets are the core's own (log-linear, at most 1/64 wide), so a value
 * recorded in BPF lands where bc_hist_record() would put it and the
 * percentiles mean the same.
 */
#ifndef BENCHCORE_BPF_HIST_H
#define BENCHCORE_BPF_HIST_H

#if defined(__bpf__) || defined(__BPF__)
typedef __u64 bc_bpf_hist_u64;
#else
#include <stdint.h>
typedef uint64_t bc_bpf_hist_u64;
#endif

/* Values below 2^(SUB_BITS + 1) have a bucket each; above, every power of
 * two is cut into 2^SUB_BITS equal buckets. */
#define BC_BPF_HIST_SUB_BITS 6
#define BC_BPF_HIST_SUB_CNT (1u << BC_BPF_HIST_SUB_BITS)
#define BC_BPF_HIST_BUCKETS (BC_BPF_HIST_SUB_CNT + (64 - BC_BPF_HIST_SUB_BITS) * BC_BPF_HIST_SUB_CNT)

/* One CPU's recordings: the value of one entry of a per-CPU array map
 * (30 KiB, below the kernel's 32 KiB limit on a per-CPU value). */
struct bc_bpf_hist {
	bc_bpf_hist_u64 max;
	bc_bpf_hist_u64 buckets[BC_BPF_HIST_BUCKETS];
};

/*
 * The bucket of a value: the core's (core/hist.c), with the highest set bit
 * found by halving instead of a count-leading-zeros, which BPF lacks. Here
 * rather than in <benchcore.bpf.h> so that user space can check the two
 * agree (tests/unit/test_hist.c).
 */
static inline __attribute__((always_inline)) bc_bpf_hist_u64 bc_hist_bucket_of(bc_bpf_hist_u64 v)
{
	/* 64-bit throughout: a 32-bit result would be zero-extended once for
	 * the caller's bounds check and again for the index, and the
	 * verifier would see the index unchecked. */
	bc_bpf_hist_u64 x = v, e = 0, shift;

	if (v < 2 * BC_BPF_HIST_SUB_CNT)
		return v;
	if (x >> 32) {
		x >>= 32;
		e += 32;
	}
	if (x >> 16) {
		x >>= 16;
		e += 16;
	}
	if (x >> 8) {
		x >>= 8;
		e += 8;
	}
	if (x >> 4) {
		x >>= 4;
		e += 4;
	}
	if (x >> 2) {
		x >>= 2;
		e += 2;
	}
	if (x >> 1)
		e += 1;
	shift = e - BC_BPF_HIST_SUB_BITS;
	return BC_BPF_HIST_SUB_CNT + shift * BC_BPF_HIST_SUB_CNT + ((v >> shift) - BC_BPF_HIST_SUB_CNT);
}

#endif /* BENCHCORE_BPF_HIST_H */
