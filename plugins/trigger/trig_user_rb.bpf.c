// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BPF side of trig-user-ringbuf-timer and trig-user-ringbuf-syscall: user
 * space submits 8-byte records to a BPF_MAP_TYPE_USER_RINGBUF, and BPF
 * drains them, either from a bpf_timer every timer_ns (all that has
 * arrived since) or from the producer's own getppid() (one record per
 * call). Every drained record is one hit. A separate object from
 * trigger.bpf.c: its map and timer are these two benchmarks' alone, and a
 * kernel without user ring buffers must not stop the others from loading.
 *
 * Every program is SEC("?...") so that only the one asked for loads.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define TRIG_URB_CLOCK_MONOTONIC 1

/* max_entries is set before load (--user-rb-size). */
struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} trig_urb_ring SEC(".maps");

struct trig_urb_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trig_urb_timer);
} trig_urb_timers SEC(".maps");

/* Records drained, and timer runs: per CPU, each slot on its own line. */
BC_CPU_SLOTS(hits);
BC_CPU_SLOTS(timer_fires);

/* Set before load. */
const volatile __u64 timer_ns = 1000000;
const volatile __u64 getppid_nr = 0;

/* The timer drains everything there is; the syscall one record a call. */
static long trig_urb_drain_all(struct bpf_dynptr *rec, void *ctx)
{
	bc_slot_add(hits, 1);
	return 0;
}

static long trig_urb_drain_one(struct bpf_dynptr *rec, void *ctx)
{
	bc_slot_add(hits, 1);
	return 1;
}

static int trig_urb_timer_fn(void *map, __u32 *key, struct trig_urb_timer *t)
{
	bc_slot_add(timer_fires, 1);
	bpf_user_ringbuf_drain(&trig_urb_ring, trig_urb_drain_all, NULL, 0);
	bpf_timer_start(&t->timer, timer_ns, 0);
	return 0;
}

/* Run once by BPF_PROG_TEST_RUN: arms the timer, which then re-arms
 * itself until the map is freed (teardown). Non-zero: what failed. */
SEC("?syscall")
int trig_urb_timer_init(void *ctx)
{
	struct trig_urb_timer *t;
	__u32 key = 0;
	long err;

	t = bpf_map_lookup_elem(&trig_urb_timers, &key);
	if (!t)
		return 1;
	err = bpf_timer_init(&t->timer, &trig_urb_timers, TRIG_URB_CLOCK_MONOTONIC);
	if (err)
		return (int)err;
	err = bpf_timer_set_callback(&t->timer, trig_urb_timer_fn);
	if (err)
		return (int)err;
	return (int)bpf_timer_start(&t->timer, timer_ns, 0);
}

/*
 * The syscall variant: the producer's getppid() drains one record. The
 * runner's program is a ksyscall (a kprobe on the syscall's function);
 * where the kernel has no kprobes, the syscall's tracepoint or raw
 * sys_enter do the same. Every process's getppid() reaches them, so each
 * checks the caller first, as the runner's does (bc_tgid is always set).
 */
static __always_inline int trig_urb_on_getppid(void)
{
	if (!bc_own_process())
		return 0;
	bpf_user_ringbuf_drain(&trig_urb_ring, trig_urb_drain_one, NULL, 0);
	return 0;
}

SEC("?ksyscall/getppid")
int trig_urb_ksyscall(void *ctx)
{
	return trig_urb_on_getppid();
}

SEC("?tp/syscalls/sys_enter_getppid")
int trig_urb_tp(void *ctx)
{
	return trig_urb_on_getppid();
}

SEC("?raw_tp/sys_enter")
int trig_urb_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	/* sys_enter(regs, id): every syscall of every process. */
	if (ctx->args[1] != getppid_nr)
		return 0;
	return trig_urb_on_getppid();
}
