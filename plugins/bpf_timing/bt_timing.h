/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The in-BPF batch timing shared by the bpf_timing plugin's BPF objects and
 * its user space: sizes of the per-CPU sample rings.
 */
#ifndef BENCHCORE_BT_TIMING_H
#define BENCHCORE_BT_TIMING_H

/* One ring per CPU slot (BC_CPU_SLOT_CNT, benchcore.bpf.h), this many
 * batch times each: at the calibrated ~10 ms a batch, ten seconds of
 * samples, read back every tick. A power of two. */
#define BT_RING_LEN 1024

#endif
