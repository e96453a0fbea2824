// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The program under test of no-private-stack / private-stack, and the
 * drivers that fire it in a batch from one BPF_PROG_TEST_RUN.
 *
 * Since Linux 6.13 the verifier gives a tracing program (kprobe,
 * tracepoint, raw_tp, and fentry-style programs that the kernel guards
 * against recursion) a per-CPU private stack instead of the kernel stack
 * when it uses at least 64 bytes of stack and the JIT supports it: the
 * program then reaches its stack through r9, loaded in the prologue, and
 * saves r9 around every call of a BPF subprogram. The body below uses
 * 128 bytes of stack and calls three subprograms, so both costs show.
 *
 * Every program is "?": user space loads a driver and the program it
 * fires, nothing else.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: how many times one driver run fires the program. */
const volatile __u32 batch_iters = 1;

BC_CPU_SLOTS(hits);

/* Out of line on purpose: each call is where a private stack saves r9. */
static __noinline int ps_step(int x)
{
	return x + 1;
}

static __always_inline int ps_body(void)
{
	volatile __u64 frame[16];	/* 128 bytes: past the 64-byte threshold */
	int x = 0;

	/* Other processes fire the same helper and tracepoint. */
	if (!bc_own_process())
		return 0;
	for (int i = 0; i < 16; i++)
		frame[i] = i;
	x = ps_step(x + (int)frame[3]);
	x = ps_step(x + (int)frame[9]);
	x = ps_step(x + (int)frame[15]);
	bc_slot_add(hits, 1);
	return x & 0;
}

/* ------------------------------------------------------------- drivers */

/* Calls a helper that the fentry program under test attaches to. */
SEC("?raw_tp")
int ps_driver(void *ctx)
{
	for (__u32 i = 0; i < batch_iters; i++)
		(void)bpf_get_numa_node_id();
	return 0;
}

/* The raw_tp variant's driver calls a kfunc that fires the tracepoint
 * bpf_test_run:bpf_trigger_tp: ps_driver_kfunc, in ps_kfunc.bpf.c, an
 * object of its own so that this one holds no kfunc extern (see there). */

/* -------------------------------------------------- programs under test */

SEC("?fentry/bpf_get_numa_node_id")
int ps_fentry(void *ctx)
{
	return ps_body();
}

SEC("?raw_tp/bpf_trigger_tp")
int ps_rawtp(void *ctx)
{
	return ps_body();
}
