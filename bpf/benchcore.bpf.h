/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The BPF side of the benchcore SDK. Include it first in a plugin's
 * <name>.bpf.c; it brings vmlinux.h and libbpf's BPF headers.
 *
 * What it records, the core reads by name: a metric whose `bpf` field
 * (ABI 2.2) names a symbol declared here is read from the BPF object the
 * plugin hands over (bc_ctx_set_bpf_object()), with no read loop in the
 * plugin:
 *   BC_CPU_SLOTS(hits)        a COUNTER or GAUGE: .bpf = "hits"
 *   BC_BATCH_TIMINGS(batches) counters of in-BPF timed batches:
 *                             .bpf = "batches.ops", "batches.batches",
 *                             "batches.ns", "batches.rate_sum"
 *   BC_HIST_MAP(lat_ns)       a HISTOGRAM: .bpf = "lat_ns", merged with
 *                             the metric's user-space shards
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
 * the bouncing. Declare one in .bss with BC_CPU_SLOTS(name), bump it with
 * bc_slot_add(name, n), and let the core read it: a COUNTER metric with
 * .bpf = "name" is the sum of the slots at every tick. struct
 * bc_line_counter has one definition, <benchcore/line_counter.h>, which
 * <benchcore/benchcore.h> includes too, so the generated skeleton compiles in
 * a plugin, which may also sum the slots itself with
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
 * it (one division for the batch's rate) is outside. The core sums a
 * field of the records for a metric naming it (.bpf = "name.ops": a
 * COUNTER of operations; "name.batches", "name.ns"; "name.rate_sum", a
 * RATIO per "name.batches" metric, is the kernel runner's mean rate per
 * second of BPF time); user space reads the runner's per-CPU figure with
 * bc_batch_ring_rates().
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

/*
 * A histogram recorded in BPF into the core's buckets (struct bc_bpf_hist,
 * <benchcore/bpf_hist.h>): one per-CPU array entry, so a recording is two
 * plain stores on this CPU's copy and no atomic. Declare the map with
 * BC_HIST_MAP(name) and record with bc_hist_add(&name, value), outside any
 * timed bracket: it costs a map lookup and a dozen instructions.
 */
#if __has_include("../bpf_hist.h")
#include "../bpf_hist.h"
#else
#include "../include/benchcore/bpf_hist.h"
#endif

#define BC_HIST_MAP(name)                                                       \
	struct {                                                                \
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);                        \
		__uint(max_entries, 1);                                         \
		__type(key, __u32);                                             \
		__type(value, struct bc_bpf_hist);                              \
	} name SEC(".maps")

static __always_inline void bc_hist_add(void *hist_map, __u64 v)
{
	struct bc_bpf_hist *h;
	__u32 zero = 0;
	__u64 b;

	h = bpf_map_lookup_elem(hist_map, &zero);
	if (!h)
		return;
	b = bc_hist_bucket_of(v);
	if (b >= BC_BPF_HIST_BUCKETS)	/* never: bounds it for the verifier */
		return;
	h->buckets[b]++;
	if (v > h->max)
		h->max = v;
}

#endif /* BENCHCORE_BPF_H */
