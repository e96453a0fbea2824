/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Constants shared by the local_storage plugin's BPF programs and its user
 * space, so that the two cannot disagree about sizes.
 */
#ifndef BENCHCORE_LS_COMMON_H
#define BENCHCORE_LS_COMMON_H

/* Capacity of the arrays-of-maps that hold the task-storage (or hash)
 * maps: the upper bound of --nr_maps. */
#define LS_MAX_NR_MAPS 1000

/* Entries of each hash map of the control, as the kernel runner's: every
 * key below it is filled before the gets start, and the gets use the first
 * --hashmap_nr_keys_used of them. */
#define LS_HASH_ENTRIES 4194304

/* Gets per triggering syscall. Large, so that the syscall's own cost is
 * noise next to the gets being measured (the kernel runner uses the same). */
#define LS_GETS_PER_TRIGGER 10000

/* In the interleaved variant, every map index divisible by this is followed
 * by a get of the important map: 4 of every 10 gets go to it. */
#define LS_INTERLEAVE_EVERY 3

/* Size of the value the create benchmark stores per task or socket. */
#define LS_CREATE_VALUE_SIZE 64

/* sk-storage-get: the getsockopt() level and name the benchmark calls (no
 * protocol has them, so the kernel's own answer is an error the program
 * overrides), and the socket-storage gets its program makes per call. */
#define LS_SK_LEVEL 0xdead
#define LS_SK_OPTNAME 0xbeef
#define LS_SK_GETS_PER_CALL 100

#endif /* BENCHCORE_LS_COMMON_H */
