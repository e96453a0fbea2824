// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello's BPF side: count the benchmark's own getpgid() syscalls as they
 * enter the kernel. The counters live in .bss, which the skeleton maps into
 * the plugin's memory, so measure() reads them without a syscall.
 */
/* benchcore's shared BPF header (installed with benchcore): brings
 * vmlinux.h and libbpf's BPF headers, the own-process filter bc_tgid and
 * per-CPU counter slots. */
#include <benchcore.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* One counter per CPU, each alone on its cache line. */
BC_CPU_SLOTS(hits);

SEC("tp/syscalls/sys_enter_getpgid")
int hello_getpgid(void *ctx)
{
	/* Every process's getpgid() fires this tracepoint; count ours only. */
	if (!bc_own_process())
		return 0;
	bc_slot_add(hits, 1);
	return 0;
}
