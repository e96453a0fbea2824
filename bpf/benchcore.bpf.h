/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Shared BPF-side helpers for benchcore plugins. Include it first in a
 * plugin's <name>.bpf.c; it brings vmlinux.h and libbpf's BPF headers.
 *
 * It defines read-only data (bc_tgid), so include it in exactly one .bpf.c
 * of a BPF object.
 */
#ifndef BENCHCORE_BPF_H
#define BENCHCORE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/*
 * Own-process filter. Syscall-triggered programs fire for every process on
 * the machine; a benchmark must count only its own threads, or a busy
 * neighbour would inflate its numbers. User space sets this to getpid()
 * before load (skel->rodata->bc_tgid); 0 disables the filter.
 */
const volatile __u32 bc_tgid = 0;

static __always_inline bool bc_own_process(void)
{
	return !bc_tgid || (__u32)(bpf_get_current_pid_tgid() >> 32) == bc_tgid;
}

/*
 * Per-CPU counter slots, each alone on a cache line: a counter bumped from
 * several CPUs would otherwise bounce its line between them and measure
 * the bouncing. Declare one in .bss with BC_CPU_SLOTS(name). struct
 * bc_line_counter has one definition, <benchcore/line_counter.h>, which
 * <benchcore/benchcore.h> includes too, so the generated skeleton compiles in
 * a plugin, which sums the slots with
 *   bc_line_counters_sum(skel->bss->name, BC_CPU_SLOT_CNT).
 * More CPUs than slots share slots, which the atomic add keeps exact.
 */
#define BC_CPU_SLOT_CNT 256	/* power of two */

/* Installed, this file sits in <includedir>/benchcore/bpf/; in the source
 * tree, in bpf/ beside include/. Either way no extra -I is needed. */
#if __has_include("../line_counter.h")
#include "../line_counter.h"
#else
#include "../include/benchcore/line_counter.h"
#endif

#define BC_CPU_SLOTS(name) struct bc_line_counter name[BC_CPU_SLOT_CNT]

static __always_inline void bc_slot_add(struct bc_line_counter *slots, __u64 n)
{
	__u32 cpu = bpf_get_smp_processor_id() & (BC_CPU_SLOT_CNT - 1);

	__sync_fetch_and_add(&slots[cpu].value, n);
}

/*
 * In-BPF timing of a batch of operations, per CPU (struct bc_batch_timing,
 * <benchcore/batch_timing.h>): declare the records in .bss with
 * BC_BATCH_TIMINGS(name), and bracket the batch:
 *
 *	__u64 t0 = bc_batch_start();
 *	... N operations ...
 *	bc_batch_stop(name, t0, N);
 *
 * Only the two clock reads are inside the bracket; the bookkeeping after
 * it (one division for the batch's rate) is outside. User space sums the
 * records for rates per second of BPF time and reads the runner's per-CPU
 * figure with bc_batch_ring_rates().
 */
#if __has_include("../batch_timing.h")
#include "../batch_timing.h"
#else
#include "../include/benchcore/batch_timing.h"
#endif

#define BC_BATCH_TIMINGS(name) struct bc_batch_timing name[BC_CPU_SLOT_CNT]

static __always_inline __u64 bc_batch_start(void)
{
	return bpf_ktime_get_ns();
}

/* Returns the batch's BPF time in ns. */
static __always_inline __u64 bc_batch_stop(struct bc_batch_timing *recs, __u64 start, __u64 ops)
{
	__u64 ns = bpf_ktime_get_ns() - start;
	struct bc_batch_timing *t = &recs[bpf_get_smp_processor_id() & (BC_CPU_SLOT_CNT - 1)];

	t->ring[t->ring_next & (BC_BATCH_RING - 1)] = ns;
	t->ring_next++;
	t->batches++;
	t->ops += ops;
	t->ns += ns;
	t->last_ops = ops;
	if (ns)
		t->rate_sum += ops * 1000000000ULL / ns;
	return ns;
}

#endif /* BENCHCORE_BPF_H */
