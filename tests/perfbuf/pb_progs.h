/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Which loaded BPF programs are the perfbuf plugin's. */
#ifndef BENCHCORE_TEST_PB_PROGS_H
#define BENCHCORE_TEST_PB_PROGS_H

#include <stdbool.h>

#include <bpf/bpf.h>

/* A bc_test_prog_filter: programs that use a perf event array named
 * "perfbuf" (ours; other BPF users' programs are not counted). */
bool pb_prog_is_ours(int fd, const struct bpf_prog_info *info, const void *arg);

#endif
