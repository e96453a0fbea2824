/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Which loaded BPF programs are the ringbuf plugin's, and whose. */
#ifndef BENCHCORE_TEST_RB_PROGS_H
#define BENCHCORE_TEST_RB_PROGS_H

#include <sys/types.h>

/* Walks every loaded program (bpf_prog_get_next_id): *all counts those it
 * could open, *ours those of the ringbuf plugin loaded by process pid (0:
 * any). */
void rb_count_progs(pid_t pid, unsigned int *all, unsigned int *ours);

#endif
