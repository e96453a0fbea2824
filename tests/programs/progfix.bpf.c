// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The progfix fixture's BPF side, built twice (tests/programs/CMakeLists.txt):
 * as it is, and with PROGFIX_EXTRA_INSN, which adds exactly one
 * instruction and changes nothing the benchmark measures. The two builds
 * are one benchmark whose program changed, which compare, history and the
 * report must say (issue 38).
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* hits: this process's getpgid() calls, a slot per CPU. */
BC_CPU_SLOTS(hits);

SEC("tp/syscalls/sys_enter_getpgid")
int progfix_tp(void *ctx)
{
	if (bc_own_process())
		bc_slot_add(hits, 1);
#ifdef PROGFIX_EXTRA_INSN
	/* One move the compiler may not drop (volatile asm) and the verifier
	 * keeps (it is reachable): one more instruction loaded, translated
	 * and JIT-ed than the plain build. */
	asm volatile("r0 = 0" ::: "r0");
#endif
	return 0;
}
