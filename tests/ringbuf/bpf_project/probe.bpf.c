// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The smallest BPF object that uses the shared header's pieces. */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

BC_CPU_SLOTS(hits);

SEC("tp/syscalls/sys_enter_getpgid")
int probe(void *ctx)
{
	if (bc_own_process())
		bc_slot_add(hits, 1);
	return 0;
}
