// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ringbuf producer: one getpgid() from the benchmark's own process writes a
 * batch of batch_cnt 8-byte records into the BPF ring buffer; records that
 * do not fit are counted as drops, here, where they are lost. With
 * --rb-latency (stamp), records 0, N, 2N, ... of a batch (N = stamp_mask +
 * 1) hold the time they were written (bpf_ktime_get_ns(), CLOCK_MONOTONIC),
 * from which the consumer measures delivery latency; the others hold 0.
 * Without it every record holds 0 and the loop is the kernel runner's:
 * reserve, store, submit.
 *
 * Each mode has a loop of its own, chosen once per batch from read-only
 * data the verifier knows, so the loop that runs tests nothing per record
 * that the runner's does not: a mode flag read in the loop cost the
 * back-to-back rows about 3.5% of their BPF time (docs/compat.md).
 *
 * The same body is offered under three attach points, in the order the
 * plugin tries them (only one is loaded per run):
 *   bench_fentry   fentry on the arch's getpgid syscall (set at open time)
 *   bench_tp       tp/syscalls/sys_enter_getpgid
 *   bench_raw_tp   raw_tp/sys_enter, filtered to getpgid_nr
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);	/* resized by --rb-size */
} ringbuf SEC(".maps");

const volatile __u32 batch_cnt = 500;
const volatile bool use_output = false;
/* 0: notify per record (the kernel's default, adaptive wakeups); else only
 * once this many bytes are pending (--rb-sampled). */
const volatile __u64 wakeup_data_size = 0;
/* The getpgid syscall number, for the raw_tp/sys_enter fallback. */
const volatile long getpgid_nr = -1;
/* --rb-latency: stamp record i when (i & stamp_mask) == 0
 * (BC_BUF_LAT_EVERY - 1). */
const volatile bool stamp = false;
const volatile __u32 stamp_mask = 63;
/* --rb-bench-producer: no consumer; never wake one, count what was
 * written (hits), stamp nothing. */
const volatile bool bench_producer = false;

BC_CPU_SLOTS(drops);
BC_CPU_SLOTS(hits);

/* The runner's rule for --rb-sampled: wake the consumer once this many
 * bytes wait; 0: notify per record (the kernel's adaptive wakeups). */
static __always_inline __u64 wakeup_flags(void)
{
	if (!wakeup_data_size)
		return 0;
	return bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA) >= wakeup_data_size ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* The runner's loop: reserve, store, submit. No state carried from one
 * record to the next (a drop goes straight to its per-CPU slot): the
 * verifier then prunes each iteration quickly and large batches load. */
static __always_inline void produce_reserve(void)
{
	__u64 *rec;

	for (__u32 i = 0; i < batch_cnt; i++) {
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);
		if (!rec) {
			bc_slot_add(drops, 1);
			continue;
		}
		*rec = 0;
		bpf_ringbuf_submit(rec, wakeup_flags());
	}
}

/* --rb-latency: every (stamp_mask + 1)th record holds its time. */
static __always_inline void produce_reserve_stamped(void)
{
	__u64 *rec;

	for (__u32 i = 0; i < batch_cnt; i++) {
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);
		if (!rec) {
			bc_slot_add(drops, 1);
			continue;
		}
		*rec = (i & stamp_mask) ? 0 : bpf_ktime_get_ns();
		bpf_ringbuf_submit(rec, wakeup_flags());
	}
}

/* --rb-use-output: a copy from the stack instead of reserve/submit. */
static __always_inline void produce_output(void)
{
	__u64 rec;

	for (__u32 i = 0; i < batch_cnt; i++) {
		rec = (stamp && !(i & stamp_mask)) ? bpf_ktime_get_ns() : 0;
		if (bpf_ringbuf_output(&ringbuf, &rec, sizeof(rec), wakeup_flags()))
			bc_slot_add(drops, 1);
	}
}

/* --rb-bench-producer: nobody woken, written records counted. */
static __always_inline void produce_alone(void)
{
	__u64 *rec, zero = 0;

	for (__u32 i = 0; i < batch_cnt; i++) {
		if (use_output) {
			if (bpf_ringbuf_output(&ringbuf, &zero, sizeof(zero), BPF_RB_NO_WAKEUP))
				bc_slot_add(drops, 1);
			else
				bc_slot_add(hits, 1);
			continue;
		}
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);
		if (!rec) {
			bc_slot_add(drops, 1);
			continue;
		}
		*rec = 0;
		bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
		bc_slot_add(hits, 1);
	}
}

/* The mode is chosen here, once: each flag is read-only data the verifier
 * knows, so the loops of the other modes are dead code it removes. Each
 * loop reads batch_cnt (volatile: loaded anew) in its own condition, as
 * the runner's does: with the count loaded once before the dispatch and
 * kept in a register, 6.1's verifier refused every batch (E2BIG). */
static __always_inline void produce_batch(void)
{
	if (!bc_own_process())
		return;
	if (bench_producer)
		produce_alone();
	else if (use_output)
		produce_output();
	else if (stamp)
		produce_reserve_stamped();
	else
		produce_reserve();
}

SEC("fentry")
int BPF_PROG(bench_fentry)
{
	produce_batch();
	return 0;
}

SEC("tp/syscalls/sys_enter_getpgid")
int bench_tp(void *ctx)
{
	produce_batch();
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(bench_raw_tp, struct pt_regs *regs, long id)
{
	if (id == getpgid_nr)
		produce_batch();
	return 0;
}
