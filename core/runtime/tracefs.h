/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where tracefs is (tracefs.c).
 */
#ifndef BENCHCORE_TRACEFS_H
#define BENCHCORE_TRACEFS_H

/* Where libbpf reads tracepoint ids (tracefs.c): debugfs's tracing when
 * debugfs is mounted, else /sys/kernel/tracing. */
const char *bc_tracefs_dir(void);

#endif /* BENCHCORE_TRACEFS_H */
