/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Equivalent attach points for a BPF program that a syscall of the
 * benchmark's own threads triggers (the kernel runner's
 * SEC("fentry/" SYS_PREFIX "sys_getpgid") programs), most direct first:
 *
 *   <prefix>_fentry  fentry on the syscall's entry function
 *   <prefix>_tp      tp/syscalls/sys_enter_<syscall>  (needs tracefs)
 *   <prefix>_raw_tp  raw_tp/sys_enter, which sees every syscall: it
 *                    compares the syscall number first
 *
 * Each calls the same body, so the work per event does not depend on the
 * attach point that the kernel accepted. User space loads exactly one of
 * them (bc_bpf_autoload_only(), bc_attach_first()). Include after
 * benchcore.bpf.h.
 */
#ifndef BENCHCORE_SYSCALL_BPF_H
#define BENCHCORE_SYSCALL_BPF_H

/* The syscall entry functions' names, per architecture (SYS_PREFIX in the
 * kernel's selftests). */
#if defined(__TARGET_ARCH_x86)
#define BC_SYSCALL_FENTRY(sc) "fentry/__x64_sys_" #sc
#elif defined(__TARGET_ARCH_arm64)
#define BC_SYSCALL_FENTRY(sc) "fentry/__arm64_sys_" #sc
#elif defined(__TARGET_ARCH_s390)
#define BC_SYSCALL_FENTRY(sc) "fentry/__s390x_sys_" #sc
#elif defined(__TARGET_ARCH_riscv)
#define BC_SYSCALL_FENTRY(sc) "fentry/__riscv_sys_" #sc
#else
#define BC_SYSCALL_FENTRY(sc) "fentry/sys_" #sc
#endif

/* The tracepoint and raw tracepoint variants only: for benchmarks whose
 * kernel-runner program is a tracepoint already. `nr` is an expression
 * holding the syscall's number (a rodata variable user space sets). */
#define BC_SYSCALL_TP_PROGS(prefix, sc, nr, body)                               \
	SEC("tp/syscalls/sys_enter_" #sc)                                       \
	int prefix##_tp(void *ctx)                                              \
	{                                                                       \
		return body();                                                  \
	}                                                                       \
                                                                                \
	SEC("raw_tp/sys_enter")                                                 \
	int BPF_PROG(prefix##_raw_tp, struct pt_regs *regs, long id)            \
	{                                                                       \
		if (id != (nr))                                                 \
			return 0;                                               \
		return body();                                                  \
	}

/* All three. */
#define BC_SYSCALL_PROGS(prefix, sc, nr, body)                                  \
	SEC(BC_SYSCALL_FENTRY(sc))                                              \
	int BPF_PROG(prefix##_fentry)                                           \
	{                                                                       \
		return body();                                                  \
	}                                                                       \
                                                                                \
	BC_SYSCALL_TP_PROGS(prefix, sc, nr, body)

#endif /* BENCHCORE_SYSCALL_BPF_H */
