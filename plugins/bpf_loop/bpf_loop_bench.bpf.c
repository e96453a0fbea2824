// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf-loop: each getpgid() of the benchmark's process runs a program that
 * calls bpf_loop(nr_loops, <empty callback>) 1000 times, so that the
 * syscall is noise next to the loop iterations. The iterations the helper
 * reports as done are counted per CPU; user space divides time by them.
 *
 * The same body sits behind three equivalent attach points, most direct
 * first; user space loads exactly one (bc_attach_first()).
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define BL_CALLS_PER_RUN 1000

/* Set before load. */
const volatile __u32 getpgid_nr;	/* syscall number, for raw_tp/sys_enter */
__u32 nr_loops;			/* .bss as in the kernel runner: not a constant */
/* Calls per run: BL_CALLS_PER_RUN unless that is more work than one
 * syscall may do (<benchcore/work.h>); user space sets it. */
__u32 nr_calls;

BC_CPU_SLOTS(iterations);	/* loop iterations done */
BC_CPU_SLOTS(runs);		/* program runs, BL_CALLS_PER_RUN calls each */

static int bl_empty(__u32 index, void *data)
{
	return 0;
}

static __always_inline int bl_body(void)
{
	if (!bc_own_process())
		return 0;
	for (int i = 0; i < BL_CALLS_PER_RUN; i++) {
		/* Calls past nr_calls loop zero times. Without a branch: one
		 * would give the verifier a state per call to explore. */
		__u32 past = (__u32)((__s32)(nr_calls - (__u32)i - 1) >> 31);
		long done = bpf_loop(nr_loops & ~past, bl_empty, NULL, 0);

		/* What the helper says it did, not what was asked:
		 * a refused count (-E2BIG) must not read as work. */
		if (done > 0)
			bc_slot_add(iterations, done);
	}
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
