// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello's BPF side: count the benchmark's own getpgid() syscalls as they
 * enter the kernel, at one of two hooks (user space loads only the one its
 * benchmark names). The counters live in .bss, which the skeleton maps into
 * the plugin's memory, so measure() reads them without a syscall.
 */
/* benchcore's shared BPF header (installed with benchcore): brings
 * vmlinux.h and libbpf's BPF headers, the own-process filter bc_tgid and
 * per-CPU counter slots. */
#include <benchcore.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load: syscall numbers differ between arches. */
const volatile __u32 getpgid_nr;

/* One counter per CPU, each alone on its cache line. */
BC_CPU_SLOTS(hits);

/* hello-tp: the syscall's own tracepoint fires for getpgid() only. */
SEC("tp/syscalls/sys_enter_getpgid")
int hello_tp(void *ctx)
{
	/* Every process's getpgid() fires it; count ours only. */
	if (bc_own_process())
		bc_slot_add(hits, 1);
	return 0;
}

/* hello-raw-tp: every syscall passes sys_enter; keep getpgid(). */
SEC("raw_tp/sys_enter")
int BPF_PROG(hello_raw_tp, struct pt_regs *regs, long id)
{
	if (id == getpgid_nr && bc_own_process())
		bc_slot_add(hits, 1);
	return 0;
}
