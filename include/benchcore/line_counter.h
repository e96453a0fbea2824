/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one definition of a counter alone on its cache line, shared by user
 * space (<benchcore/benchcore.h>) and BPF (<benchcore.bpf.h>): a BPF object's
 * skeleton refers to the type by name, so both sides must agree on it.
 */
#ifndef BENCHCORE_LINE_COUNTER_H
#define BENCHCORE_LINE_COUNTER_H

#define BC_CACHELINE 64

#if defined(__bpf__) || defined(__BPF__)
typedef __u64 bc_line_counter_u64;
#else
#include <stdint.h>
typedef uint64_t bc_line_counter_u64;
#endif

/* Bumped from one thread (or one CPU) each, summed by the sampler: two
 * counters on one line would bounce it between CPUs and measure that. */
struct bc_line_counter {
	bc_line_counter_u64 value;
} __attribute__((aligned(BC_CACHELINE)));

#endif /* BENCHCORE_LINE_COUNTER_H */
