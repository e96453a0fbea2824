/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared by the strncmp plugin's BPF and user-space halves. */
#ifndef BENCHCORE_STRNCMP_COMMON_H
#define BENCHCORE_STRNCMP_COMMON_H

/* Both strings' buffers; the longest comparison is one less (the NUL). */
#define SC_STR_SZ 4096

#endif
