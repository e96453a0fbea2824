/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * In-BPF batch timing, as the kernel runner's bpf-nop and xdp-lb measure:
 * one program run times bt_batch_iters iterations of a body between two
 * bpf_ktime_get_ns(), records that batch's time, then runs the body once
 * more untimed and returns its result, so that user space can check it.
 *
 * Each batch's time goes into a per-CPU ring that user space drains at
 * every tick (a slot user space has not read yet is non-zero; it zeroes
 * what it read), and into running totals of time and iterations.
 * Include benchcore.bpf.h first.
 */
#ifndef BENCHCORE_BT_TIMING_BPF_H
#define BENCHCORE_BT_TIMING_BPF_H

#include "bt_timing.h"

/* Set by user space (0 until its calibration); read at every iteration,
 * as the runner's loop does. */
volatile __u32 bt_batch_iters;

struct bc_line_counter bt_heads[BC_CPU_SLOT_CNT];	/* next ring slot to fill */
__u64 bt_ring[BC_CPU_SLOT_CNT][BT_RING_LEN];		/* batch times, ns */
BC_CPU_SLOTS(bt_ns);					/* total timed ns */
BC_CPU_SLOTS(bt_ops);					/* total timed iterations */

/*
 * may_goto (BPF_JMP | BPF_JCOND, opcode 0xe5): the kernel's bounded-loop
 * escape, which lets the verifier accept a loop whose count it does not
 * know. Spelled as bytes because older clang has no mnemonic for it; the
 * jump offset, in instructions, goes in the offset field. Kernel 6.9+.
 */
#define bt_can_loop                                                              \
	({                                                                       \
		__label__ l_break, l_continue;                                   \
		bool __ok = true;                                                \
		asm volatile goto("1: .byte 0xe5; .byte 0;"                     \
				  ".long ((%l[l_break] - 1b - 8) / 8) & 0xffff;"  \
				  ".short 0" :::: l_break);                      \
		goto l_continue;                                                 \
	l_break:                                                                 \
		__ok = false;                                                    \
	l_continue:;                                                             \
		__ok;                                                            \
	})

static __always_inline void bt_record(__u64 ns, __u32 iters)
{
	__u32 cpu = bpf_get_smp_processor_id() & (BC_CPU_SLOT_CNT - 1);
	/* Reserved atomically: two threads preempting each other on one CPU
	 * must not fill the same slot. */
	__u64 i = __sync_fetch_and_add(&bt_heads[cpu].value, 1);

	/* Zero means "not written yet" to the reader. */
	bt_ring[cpu][i & (BT_RING_LEN - 1)] = ns ? ns : 1;
	bc_slot_add(bt_ns, ns);
	bc_slot_add(bt_ops, iters);
}

/*
 * body: an int expression, the work to time; its value is kept in
 * __bt_result, which reset may use. reset: a statement that undoes body's
 * side effects so that every iteration starts alike; ({}) for none.
 * Evaluates to the result of one more, untimed, run of body.
 */
#define BT_TIMED_LOOP(body, reset)                                               \
	({                                                                       \
		__u64 __bt_start = bpf_ktime_get_ns();                           \
		int __bt_result = 0;                                             \
		__u32 __bt_i;                                                    \
                                                                                 \
		for (__bt_i = 0; __bt_i < bt_batch_iters && bt_can_loop; __bt_i++) { \
			__bt_result = (body);                                    \
			reset;                                                   \
		}                                                                \
		bt_record(bpf_ktime_get_ns() - __bt_start, __bt_i);              \
		__bt_result = (body);                                            \
		__bt_result;                                                     \
	})

#endif /* BENCHCORE_BT_TIMING_BPF_H */
