// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ringbuf producer: one getpgid() from the benchmark's own process writes a
 * batch of batch_cnt 8-byte records into the BPF ring buffer; records that
 * do not fit are counted as drops, here, where they are lost. Records 0,
 * N, 2N, ... of a batch (N = stamp_mask + 1) hold the time they were written
 * (bpf_ktime_get_ns(), CLOCK_MONOTONIC), from which the consumer measures
 * delivery latency; the others hold 0. Only a sample is stamped because
 * stamping and measuring every record cut back-to-back throughput by more
 * than half (measured: docs/benchmarks/ringbuf.md, "Delivery latency").
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
/* Stamp record i when (i & stamp_mask) == 0 (BC_BUF_LAT_EVERY - 1). Known
 * to the verifier, like batch_cnt, so the test costs it no extra path. */
const volatile __u32 stamp_mask = 63;
/* --rb-bench-producer: no consumer; never wake one, count what was
 * written (hits), stamp nothing. Known to the verifier: off, it costs the
 * loop nothing. */
const volatile bool bench_producer = false;

BC_CPU_SLOTS(drops);
BC_CPU_SLOTS(hits);

static __always_inline __u64 wakeup_flags(void)
{
	if (bench_producer)
		return BPF_RB_NO_WAKEUP;
	if (!wakeup_data_size)
		return 0;
	return bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA) >= wakeup_data_size ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void produce_batch(void)
{
	__u64 *rec, stamp;
	__u32 i;

	if (!bc_own_process())
		return;

	/* No state carried from one record to the next (a drop goes
	 * straight to its per-CPU slot): the verifier then prunes each
	 * iteration quickly and large batches still load. */
	for (i = 0; i < batch_cnt; i++) {
		if (use_output) {
			stamp = (bench_producer || (i & stamp_mask)) ? 0 : bpf_ktime_get_ns();
			if (bpf_ringbuf_output(&ringbuf, &stamp, sizeof(stamp), wakeup_flags()))
				bc_slot_add(drops, 1);
			else if (bench_producer)
				bc_slot_add(hits, 1);
			continue;
		}
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(*rec), 0);
		if (!rec) {
			bc_slot_add(drops, 1);
			continue;
		}
		*rec = (bench_producer || (i & stamp_mask)) ? 0 : bpf_ktime_get_ns();
		bpf_ringbuf_submit(rec, wakeup_flags());
		if (bench_producer)
			bc_slot_add(hits, 1);
	}
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
