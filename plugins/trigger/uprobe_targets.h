/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BENCHCORE_TRIGGER_UPROBE_TARGETS_H
#define BENCHCORE_TRIGGER_UPROBE_TARGETS_H

/* Do nothing; they exist to be probed. Their first instruction is a nop,
 * a push and a ret respectively (on x86-64; see uprobe_targets.c). */
void trig_target_nop(void);
void trig_target_push(void);
void trig_target_ret(void);
/* Starts with the 5-byte nop (x86-64 only). */
void trig_target_nop5(void);

/* USDT probes of our own (x86-64 only): each function runs one probe site,
 * a nop or a 5-byte nop, described by a .note.stapsdt note under provider
 * BC_TRIG_USDT_PROVIDER, with a semaphore the kernel counts attachments in. */
#define BC_TRIG_USDT_PROVIDER "benchcore"
#define BC_TRIG_USDT_NAME_NOP "trig_nop"
#define BC_TRIG_USDT_NAME_NOP5 "trig_nop5"
void trig_usdt_nop(void);
void trig_usdt_nop5(void);
extern unsigned short trig_usdt_sema_nop, trig_usdt_sema_nop5;

#if defined(__x86_64__)
#define BC_TRIG_HAVE_X86_SITES 1
#else
#define BC_TRIG_HAVE_X86_SITES 0
#endif

#endif /* BENCHCORE_TRIGGER_UPROBE_TARGETS_H */
