// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf-loop: each getpgid() of the benchmark's process runs a program that
 * calls, through bpf_loop() as the kernel runner does, a callback 1000 times
 * that calls bpf_loop(nr_loops, <empty callback>), so that the syscall is
 * noise next to the loop iterations. The iterations the helper reports as
 * done are counted; user space divides time by them.
 *
 * The same body sits behind three equivalent attach points, most direct
 * first; user space loads exactly one (bc_attach_first()).
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load. */
const volatile __u32 getpgid_nr;	/* syscall number, for raw_tp/sys_enter */
__u32 nr_loops;			/* .bss as in the kernel runner: not a constant */
/* Calls per run: BL_CALLS_PER_RUN unless that is more work than one
 * syscall may do (<benchcore/work.h>); user space sets it. */
__u32 nr_calls;

/* Loop iterations done: one global, as the runner's `hits`. Its locked
 * add, on a line every producer's CPU shares, is part of what the runner
 * measures per outer call; per-CPU slots here read 8% faster per
 * iteration than the runner (docs/compat.md, bpf-loop). */
__u64 iterations;
BC_CPU_SLOTS(runs);		/* program runs, nr_calls outer calls each */

static int bl_empty(__u32 index, void *data)
{
	return 0;
}

/* The runner's outer_loop(): one inner bpf_loop() and its count. */
static int bl_outer(__u32 index, void *data)
{
	/* What the helper says it did, not what was asked: a refused count
	 * (-E2BIG) must not read as work. */
	long done = bpf_loop(nr_loops, bl_empty, NULL, 0);

	if (done > 0)
		__sync_fetch_and_add(&iterations, done);
	return 0;
}

/* The runner calls outer_loop() 1000 times through bpf_loop() as well:
 * each outer call pays a callback's dispatch, which a loop written in BPF
 * would not. */
static __always_inline int bl_body(void)
{
	if (!bc_own_process())
		return 0;
	bpf_loop(nr_calls, bl_outer, NULL, 0);
	bc_slot_add(runs, 1);
	return 0;
}

#if defined(__TARGET_ARCH_x86)
#define BL_FENTRY_GETPGID "fentry/__x64_sys_getpgid"
#elif defined(__TARGET_ARCH_arm64)
#define BL_FENTRY_GETPGID "fentry/__arm64_sys_getpgid"
#else
#define BL_FENTRY_GETPGID "fentry/sys_getpgid"
#endif

SEC("?" BL_FENTRY_GETPGID)
int BPF_PROG(bl_fentry)
{
	return bl_body();
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bl_tp(void *ctx)
{
	return bl_body();
}

SEC("?raw_tp/sys_enter")
int BPF_PROG(bl_raw_tp, struct pt_regs *regs, long id)
{
	if (id != getpgid_nr)
		return 0;
	return bl_body();
}
