/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BENCHCORE_TRIGGER_UPROBE_TARGETS_H
#define BENCHCORE_TRIGGER_UPROBE_TARGETS_H

/* Do nothing; they exist to be probed. Their first instruction is a nop,
 * a push and a ret respectively (on x86-64; see uprobe_targets.c). */
void bc_trig_target_nop(void);
void bc_trig_target_push(void);
void bc_trig_target_ret(void);

#endif /* BENCHCORE_TRIGGER_UPROBE_TARGETS_H */
