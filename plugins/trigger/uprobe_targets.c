// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The user-space functions the uprobe benchmarks probe. The kernel handles
 * the probed instruction differently depending on what it is: x86 uprobes
 * emulate a nop and a push in the kernel, while a ret (like most
 * instructions) is single-stepped out of line. So the first
 * instruction of each target must be exactly that, whatever the compiler's
 * flags (-fcf-protection would put an endbr64 first, -O0 a frame setup):
 * on x86-64 they are written in assembly.
 */
#include "uprobe_targets.h"

#if defined(__x86_64__)

__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl bc_trig_target_nop\n"
	"	.hidden bc_trig_target_nop\n"
	"	.type bc_trig_target_nop, @function\n"
	"bc_trig_target_nop:\n"
	"	nop\n"
	"	ret\n"
	"	.size bc_trig_target_nop, .-bc_trig_target_nop\n"
	"\n"
	"	.p2align 4\n"
	"	.globl bc_trig_target_push\n"
	"	.hidden bc_trig_target_push\n"
	"	.type bc_trig_target_push, @function\n"
	"bc_trig_target_push:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	pop %rbp\n"
	"	ret\n"
	"	.size bc_trig_target_push, .-bc_trig_target_push\n"
	"\n"
	"	.p2align 4\n"
	"	.globl bc_trig_target_ret\n"
	"	.hidden bc_trig_target_ret\n"
	"	.type bc_trig_target_ret, @function\n"
	"bc_trig_target_ret:\n"
	"	ret\n"
	"	.size bc_trig_target_ret, .-bc_trig_target_ret\n"
	"	.section .note.GNU-stack,\"\",@progbits\n"
	"	.text\n");

#else

/* Elsewhere: the closest C gets. noinline + an empty asm keeps each call a
 * real call; the first instruction is whatever the compiler chose. */
__attribute__((noinline)) void bc_trig_target_nop(void)
{
	__asm__ volatile("nop");
}

__attribute__((noinline)) static void bc_trig_opaque(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void bc_trig_target_push(void)
{
	bc_trig_opaque();
}

__attribute__((noinline)) void bc_trig_target_ret(void)
{
	__asm__ volatile("");
}

#endif
