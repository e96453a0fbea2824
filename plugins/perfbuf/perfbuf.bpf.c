// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perfbuf producer: one getpgid() from the benchmark's own process writes a
 * batch of batch_cnt 8-byte records into the per-CPU perf buffer with
 * bpf_perf_event_output(); every write the kernel refuses (the CPU's buffer
 * is full) is counted as a drop, here, where it is lost. With --rb-latency
 * (stamp), records 0, N, 2N, ... of a batch (N = stamp_mask + 1) hold the
 * time they were written (bpf_ktime_get_ns(), CLOCK_MONOTONIC), from which
 * the consumer measures delivery latency; the others hold 0, as in
 * ringbuf.bpf.c. Without it every record holds 0 and the loop is the
 * runner's; each mode's loop is chosen once, as in ringbuf.bpf.c.
 *
 * The same body is offered under three attach points, in the order the
 * plugin tries them (only one is loaded per run), as in ringbuf.bpf.c:
 *   bench_fentry   fentry on the arch's getpgid syscall (set at open time)
 *   bench_tp       tp/syscalls/sys_enter_getpgid
 *   bench_raw_tp   raw_tp/sys_enter, filtered to getpgid_nr
 * Unlike the ring buffer, bpf_perf_event_output() needs the program's
 * context, so every entry point hands it down.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perfbuf SEC(".maps");

const volatile __u32 batch_cnt = 500;
/* The getpgid syscall number, for the raw_tp/sys_enter fallback. */
const volatile long getpgid_nr = -1;
/* --rb-latency: stamp record i when (i & stamp_mask) == 0
 * (BC_BUF_LAT_EVERY - 1). */
const volatile bool stamp = false;
const volatile __u32 stamp_mask = 63;

BC_CPU_SLOTS(drops);

/*
 * Plain loops, as ringbuf.bpf.c and the kernel's own benchmark use, so the
 * two plugins' numbers differ only in the buffer. The verifier walks them
 * once per iteration, which is what bounds --rb-batch-cnt.
 */
static __always_inline void produce_plain(void *ctx, __u32 n)
{
	__u64 rec = 0;

	for (__u32 i = 0; i < n; i++)
		if (bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &rec, sizeof(rec)))
			bc_slot_add(drops, 1);
}

static __always_inline void produce_stamped(void *ctx, __u32 n, __u32 mask)
{
	__u64 rec;

	for (__u32 i = 0; i < n; i++) {
		rec = (i & mask) ? 0 : bpf_ktime_get_ns();
		if (bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &rec, sizeof(rec)))
			bc_slot_add(drops, 1);
	}
}

static __always_inline void produce_batch(void *ctx)
{
	__u32 n = batch_cnt, mask = stamp_mask;

	if (!bc_own_process())
		return;
	if (stamp)
		produce_stamped(ctx, n, mask);
	else
		produce_plain(ctx, n);
}

SEC("?fentry")
int bench_fentry(void *ctx)
{
	produce_batch(ctx);
	return 0;
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bench_tp(void *ctx)
{
	produce_batch(ctx);
	return 0;
}

SEC("?raw_tp/sys_enter")
int bench_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	/* args[1] of sys_enter is the syscall number. */
	if ((long)ctx->args[1] == getpgid_nr)
		produce_batch(ctx);
	return 0;
}
