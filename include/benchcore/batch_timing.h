/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * In-BPF timing of a batch: the one definition of its per-CPU record,
 * shared by BPF (<benchcore.bpf.h>: BC_BATCH_TIMINGS(), bc_batch_start(),
 * bc_batch_stop()) and user space (this file: the kernel runner's per-CPU
 * figure). A BPF object's skeleton refers to the type by name, so both
 * sides must agree on it, as with struct bc_line_counter.
 *
 * A benchmark whose trigger runs N operations in one BPF program (a
 * getpgid() doing a million hash map lookups) measures those operations
 * per second of BPF time, not per second of wall clock: time spent outside
 * the program (the syscall, a preempted producer) is not in it.
 */
#ifndef BENCHCORE_BATCH_TIMING_H
#define BENCHCORE_BATCH_TIMING_H

#include "line_counter.h"

#if defined(__bpf__) || defined(__BPF__)
typedef __u64 bc_batch_u64;
#else
#include <math.h>
#include <stdint.h>
typedef uint64_t bc_batch_u64;
#endif

/* The last batches kept per CPU: the kernel runner's NR_SLOTS. */
#define BC_BATCH_RING 32	/* power of two */

/*
 * One CPU's batches. Written only by programs on that CPU, with plain
 * stores (as the runner's programs do: an atomic would add to every
 * batch what the runner does not); read by the sampler, which tolerates a
 * batch that is half recorded for one tick.
 */
struct bc_batch_timing {
	bc_batch_u64 batches;	/* completed */
	bc_batch_u64 ops;	/* operations in them */
	bc_batch_u64 ns;	/* their BPF time */
	/* Sum over them of ops * 1e9 / ns: divided by batches, the mean of
	 * the per-batch rates, the runner's figure. */
	bc_batch_u64 rate_sum;
	bc_batch_u64 last_ops;	/* operations of the last batch */
	bc_batch_u64 ring_next;	/* batches ever recorded in ring[] */
	bc_batch_u64 ring[BC_BATCH_RING];	/* BPF ns of the last ones */
} __attribute__((aligned(BC_CACHELINE)));

#if !defined(__bpf__) && !defined(__BPF__)
/*
 * The kernel runner's per-CPU figure from one record: the mean over the
 * last BC_BATCH_RING batches of ops_per_batch * 1e9 / ns, the sample
 * standard deviation of those rates, and the mean BPF time of a batch.
 * Returns how many batches it covers (0: none ran on that CPU).
 */
static inline unsigned int bc_batch_ring_rates(const struct bc_batch_timing *t,
						double ops_per_batch, double *mean,
						double *stddev, double *mean_ns)
{
	bc_batch_u64 next = __atomic_load_n(&t->ring_next, __ATOMIC_RELAXED);
	unsigned int i, n = next < BC_BATCH_RING ? (unsigned int)next : BC_BATCH_RING;
	double rates[BC_BATCH_RING], sum = 0, ns_sum = 0, sq = 0;

	*mean = *stddev = *mean_ns = 0;
	for (i = 0; i < n; i++) {
		double ns = (double)__atomic_load_n(&t->ring[i], __ATOMIC_RELAXED);

		rates[i] = ns > 0 ? ops_per_batch * 1e9 / ns : 0;
		sum += rates[i];
		ns_sum += ns;
	}
	if (!n)
		return 0;
	*mean = sum / n;
	*mean_ns = ns_sum / n;
	for (i = 0; n > 1 && i < n; i++)
		sq += (rates[i] - *mean) * (rates[i] - *mean) / (n - 1);
	*stddev = sqrt(sq);
	return n;
}
#endif

#endif /* BENCHCORE_BATCH_TIMING_H */
