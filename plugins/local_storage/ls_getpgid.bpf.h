/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The three equivalent attach points of a program triggered by the
 * benchmark's getpgid() syscalls, most direct first. User space enables
 * exactly one of them through bc_attach_first(); each calls `body()`.
 * The including file defines `getpgid_nr` (rodata) for the raw_tp filter.
 */
#ifndef LS_GETPGID_BPF_H
#define LS_GETPGID_BPF_H

#if defined(__TARGET_ARCH_x86)
#define LS_FENTRY_GETPGID "fentry/__x64_sys_getpgid"
#elif defined(__TARGET_ARCH_arm64)
#define LS_FENTRY_GETPGID "fentry/__arm64_sys_getpgid"
#else
#define LS_FENTRY_GETPGID "fentry/sys_getpgid"
#endif

#define LS_GETPGID_PROGRAMS(prefix, body)                                 \
	SEC(LS_FENTRY_GETPGID)                                           \
	int BPF_PROG(prefix##_fentry)                                    \
	{                                                                \
		return body();                                           \
	}                                                                \
                                                                         \
	SEC("tp/syscalls/sys_enter_getpgid")                             \
	int prefix##_tp(void *ctx)                                       \
	{                                                                \
		return body();                                           \
	}                                                                \
                                                                         \
	SEC("raw_tp/sys_enter")                                          \
	int BPF_PROG(prefix##_raw_tp, struct pt_regs *regs, long id)     \
	{                                                                \
		if (id != getpgid_nr)                                    \
			return 0;                                        \
		return body();                                           \
	}

#endif /* LS_GETPGID_BPF_H */
