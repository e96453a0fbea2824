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
	"	.globl trig_target_nop\n"
	"	.hidden trig_target_nop\n"
	"	.type trig_target_nop, @function\n"
	"trig_target_nop:\n"
	"	nop\n"
	"	ret\n"
	"	.size trig_target_nop, .-trig_target_nop\n"
	"\n"
	"	.p2align 4\n"
	"	.globl trig_target_push\n"
	"	.hidden trig_target_push\n"
	"	.type trig_target_push, @function\n"
	"trig_target_push:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	pop %rbp\n"
	"	ret\n"
	"	.size trig_target_push, .-trig_target_push\n"
	"\n"
	"	.p2align 4\n"
	"	.globl trig_target_ret\n"
	"	.hidden trig_target_ret\n"
	"	.type trig_target_ret, @function\n"
	"trig_target_ret:\n"
	"	ret\n"
	"	.size trig_target_ret, .-trig_target_ret\n"
	"\n"
	/* The 5-byte nop (nopl 0x0(%rax,%rax,1)), which kernels that
	 * optimise uprobes can turn into a call instead of a trap. */
	"	.p2align 4\n"
	"	.globl trig_target_nop5\n"
	"	.hidden trig_target_nop5\n"
	"	.type trig_target_nop5, @function\n"
	"trig_target_nop5:\n"
	"	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
	"	ret\n"
	"	.size trig_target_nop5, .-trig_target_nop5\n"
	"	.section .note.GNU-stack,\"\",@progbits\n"
	"	.text\n");

/*
 * USDT probes, SystemTap's "stapsdt" note format (version 3), written out
 * by hand so that no sys/sdt.h is needed: at the probe site a nop (or the
 * 5-byte nop); in the non-allocated .note.stapsdt section a note with the
 * site's address, the address of .stapsdt.base (which lets a reader undo
 * prelinking), the semaphore's address, the provider, the name and the
 * (empty) argument list; and the semaphore itself, a 16-bit counter in
 * .probes that the kernel raises while a uprobe with a reference counter
 * sits on the site. The site runs unconditionally, as a probe without an
 * is-enabled check does.
 */
#define BC_USDT_SITE(fn, sema, name, site_insn)                                     \
	"	.text\n"                                                            \
	"	.p2align 4\n"                                                       \
	"	.globl " fn "\n"                                                    \
	"	.hidden " fn "\n"                                                   \
	"	.type " fn ", @function\n"                                          \
	fn ":\n"                                                                \
	"990:	" site_insn "\n"                                                 \
	"	ret\n"                                                              \
	"	.size " fn ", .-" fn "\n"                                           \
	"	.pushsection .note.stapsdt, \"\", \"note\"\n"                         \
	"	.balign 4\n"                                                        \
	"	.4byte 992f-991f, 994f-993f, 3\n"                                   \
	"991:	.asciz \"stapsdt\"\n"                                            \
	"992:	.balign 4\n"                                                     \
	"993:	.8byte 990b\n"                                                   \
	"	.8byte _.stapsdt.base\n"                                            \
	"	.8byte " sema "\n"                                                  \
	"	.asciz \"" BC_TRIG_USDT_PROVIDER "\"\n"                              \
	"	.asciz \"" name "\"\n"                                               \
	"	.asciz \"\"\n"                                                       \
	"994:	.balign 4\n"                                                     \
	"	.popsection\n"                                                      \
	"	.pushsection .probes, \"aw\", @progbits\n"                           \
	"	.balign 2\n"                                                        \
	"	.globl " sema "\n"                                                  \
	"	.hidden " sema "\n"                                                 \
	"	.type " sema ", @object\n"                                          \
	"	.size " sema ", 2\n"                                                \
	sema ":	.2byte 0\n"                                                     \
	"	.popsection\n"

__asm__(
	/* One base per object, as sdt.h makes it: a COMDAT byte. */
	"	.ifndef _.stapsdt.base\n"
	"	.pushsection .stapsdt.base, \"aG\", @progbits, .stapsdt.base, comdat\n"
	"	.weak _.stapsdt.base\n"
	"	.hidden _.stapsdt.base\n"
	"_.stapsdt.base:\n"
	"	.space 1\n"
	"	.size _.stapsdt.base, 1\n"
	"	.popsection\n"
	"	.endif\n"
	BC_USDT_SITE("trig_usdt_nop", "trig_usdt_sema_nop", BC_TRIG_USDT_NAME_NOP, "nop")
	BC_USDT_SITE("trig_usdt_nop5", "trig_usdt_sema_nop5", BC_TRIG_USDT_NAME_NOP5,
		     ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00")
	"	.text\n");

#else

/* Elsewhere: the closest C gets. noinline + an empty asm keeps each call a
 * real call; the first instruction is whatever the compiler chose. */
__attribute__((noinline)) void trig_target_nop(void)
{
	__asm__ volatile("nop");
}

__attribute__((noinline)) static void trig_opaque(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void trig_target_push(void)
{
	trig_opaque();
}

__attribute__((noinline)) void trig_target_ret(void)
{
	__asm__ volatile("");
}

/* The 5-byte nop and the USDT sites are x86-64's only (as in the kernel
 * runner); these exist so that the plugin links, and are never probed. */
__attribute__((noinline)) void trig_target_nop5(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void trig_usdt_nop(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void trig_usdt_nop5(void)
{
	__asm__ volatile("");
}

unsigned short trig_usdt_sema_nop, trig_usdt_sema_nop5;

#endif
