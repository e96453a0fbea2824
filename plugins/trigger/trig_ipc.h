/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The trigger plugin's baselines that hand records from one thread to
 * another (trig_ipc.c): through a BPF user ring buffer, drained by a BPF
 * timer or by a syscall's program, and, without BPF, through a Unix socket
 * and through a ring in shared memory. trigger.c lists their descriptors.
 */
#ifndef BENCHCORE_TRIGGER_IPC_H
#define BENCHCORE_TRIGGER_IPC_H

#include <benchcore/benchcore.h>

extern const struct bc_bench_desc trig_b_user_ringbuf_timer;
extern const struct bc_bench_desc trig_b_user_ringbuf_syscall;
extern const struct bc_bench_desc trig_b_unix_socket;
extern const struct bc_bench_desc trig_b_shared_memory;
extern const struct bc_bench_desc trig_b_shared_memory_eventfd;

/* The size of one record of the Unix-socket and shared-memory baselines
 * by default, and their format: an opcode byte, then at offset 4 the
 * record's size (little endian). */
#define BC_TRIG_SHM_EVENT_DEFAULT 432
#define BC_TRIG_SHM_EVENT_MIN 8
#define BC_TRIG_SHM_SIZE_DEFAULT (4u * 1024 * 1024)
#define BC_TRIG_EVENT_OP 29

#endif /* BENCHCORE_TRIGGER_IPC_H */
