// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf-for: each getpgid() of the benchmark's process runs a program that
 * calls bpf_loop() with a callback running an open-coded numeric iterator
 * (bpf_iter_num_new/next/destroy, what libbpf's bpf_for() expands to) over
 * nr_loops values with an empty body. What is measured is the iterator's
 * cost per value; the outer bpf_loop() only makes each syscall do a lot of
 * them, as in the kernel runner.
 *
 * The same body sits behind the three getpgid attach points; user space
 * loads exactly one (bc_attach_first()).
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load. */
const volatile __u32 getpgid_nr;	/* syscall number, for raw_tp/sys_enter */
__u32 nr_loops;			/* .bss as in the kernel runner: not a constant */
/* Outer calls per run: 1000 unless that is more work than one syscall may
 * do (<benchcore/work.h>); user space sets it. */
__u32 nr_calls;

BC_CPU_SLOTS(iterations);	/* iterator values produced */
BC_CPU_SLOTS(runs);		/* program runs */

/* The numeric iterator's kfuncs (Linux 6.4); libbpf 1.1's headers do not
 * declare them. */
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

static int bf_outer(__u32 index, void *data)
{
	struct bpf_iter_num it __attribute__((aligned(8)));
	int err;

	/* An iterator that could not start (a range the kernel refuses)
	 * yields nothing, and counts nothing: only done work is counted. */
	err = bpf_iter_num_new(&it, 0, (int)nr_loops);
	while (bpf_iter_num_next(&it))
		;
	bpf_iter_num_destroy(&it);
	if (!err)
		bc_slot_add(iterations, nr_loops);
	return 0;
}

static __always_inline int bf_body(void)
{
	if (!bc_own_process())
		return 0;
	bpf_loop(nr_calls, bf_outer, NULL, 0);
	bc_slot_add(runs, 1);
	return 0;
}

#if defined(__TARGET_ARCH_x86)
#define BF_FENTRY_GETPGID "fentry/__x64_sys_getpgid"
#elif defined(__TARGET_ARCH_arm64)
#define BF_FENTRY_GETPGID "fentry/__arm64_sys_getpgid"
#else
#define BF_FENTRY_GETPGID "fentry/sys_getpgid"
#endif

SEC("?" BF_FENTRY_GETPGID)
int BPF_PROG(bf_fentry)
{
	return bf_body();
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bf_tp(void *ctx)
{
	return bf_body();
}

SEC("?raw_tp/sys_enter")
int BPF_PROG(bf_raw_tp, struct pt_regs *regs, long id)
{
	if (id != getpgid_nr)
		return 0;
	return bf_body();
}
