// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * strncmp-no-helper and strncmp-helper: every getpgid() of the benchmark's
 * process compares `str` (writable, .bss) with `target` (read-only, .rodata:
 * what bpf_strncmp() wants for its second string) over cmp_str_len + 1
 * bytes, once with a loop written in BPF and once with the helper. User
 * space makes `str` sort just below `target` on its last character, so every
 * comparison walks the whole length and returns < 0, and counts as a hit.
 */
#include "benchcore.bpf.h"
#include "strncmp_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load. */
const volatile __u32 getpgid_nr;	/* syscall number, for raw_tp/sys_enter */
const volatile __u32 cmp_str_len = 1;
const char target[SC_STR_SZ];
char str[SC_STR_SZ];

BC_CPU_SLOTS(hits);

static __always_inline int sc_local_strncmp(const char *s1, __u32 sz, const char *s2)
{
	int ret = 0;

	for (__u32 i = 0; i < sz; i++) {
		/* Widen before subtracting, so that 0xff sorts above '1'. */
		ret = (int)(unsigned char)s1[i] - (int)(unsigned char)s2[i];
		if (ret || !s1[i])
			break;
	}
	return ret;
}

static __always_inline int sc_no_helper(void)
{
	const char *t = target;

	if (!bc_own_process())
		return 0;
	/* `target` is const and zero in the object file: without the
	 * barrier clang folds every read of it to 0 and compares nothing. */
	barrier_var(t);
	if (sc_local_strncmp(str, cmp_str_len + 1, t) < 0)
		bc_slot_add(hits, 1);
	return 0;
}

static __always_inline int sc_helper(void)
{
	if (!bc_own_process())
		return 0;
	if (bpf_strncmp(str, cmp_str_len + 1, target) < 0)
		bc_slot_add(hits, 1);
	return 0;
}

/* The runner's attach point, and raw_tp/sys_enter where there is no tracefs. */
SEC("?tp/syscalls/sys_enter_getpgid")
int sc_no_helper_tp(void *ctx)
{
	return sc_no_helper();
}

SEC("?raw_tp/sys_enter")
int BPF_PROG(sc_no_helper_raw_tp, struct pt_regs *regs, long id)
{
	return id == getpgid_nr ? sc_no_helper() : 0;
}

SEC("?tp/syscalls/sys_enter_getpgid")
int sc_helper_tp(void *ctx)
{
	return sc_helper();
}

SEC("?raw_tp/sys_enter")
int BPF_PROG(sc_helper_raw_tp, struct pt_regs *regs, long id)
{
	return id == getpgid_nr ? sc_helper() : 0;
}
