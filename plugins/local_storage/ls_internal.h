/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Contracts between the local_storage plugin's files: the options struct
 * every benchmark's option table indexes into, the shared helpers, and the
 * benchmark descriptors each file defines.
 */
#ifndef BENCHCORE_LS_INTERNAL_H
#define BENCHCORE_LS_INTERNAL_H

#include <stdint.h>

#include <benchcore/benchcore.h>

/*
 * One run's option values, filled by the core from the benchmarks' own
 * tables (each benchmark declares only the options it takes, so another's
 * option is refused by the core). Names follow the kernel runner's, so its
 * scripts' command lines work.
 */
struct ls_opts {
	int64_t nr_maps;		/* cache benchmarks */
	int64_t hashmap_nr_keys_used;	/* hashmap-control */
	int storage_type;		/* create: index into ls_storage_words */
	int64_t batch_size;		/* create */
	int64_t nr_procs;		/* tasks-trace */
	int64_t kthread_pid;		/* tasks-trace; 0: looked up */
	int sk_mode;			/* sk-storage-get: index into ls_sk_mode_words */
	int64_t nr_socks;		/* sk-storage-get --sk-mode iter-tcp */
};

#define LS_OPTS(ctx) ((const struct ls_opts *)bc_ctx_opts(ctx))

/* Every sleeper is a process: bound it well below any sane pid_max. */
#define LS_MAX_NR_PROCS 150000
#define LS_MAX_BATCH_SIZE 100000
/* PID_MAX_LIMIT on 64-bit kernels: no pid is larger. */
#define LS_PID_LIMIT 4194304
/* sk-storage-get --nr-socks: each socket is a file of this process, and
 * one iterator read() may visit a million objects (the kernel's bound)
 * with room left for the machine's own sockets. */
#define LS_MAX_NR_SOCKS 500000

extern const struct bc_bench_desc ls_bench_seq_get;
extern const struct bc_bench_desc ls_bench_int_get;
extern const struct bc_bench_desc ls_bench_hashmap_control;
extern const struct bc_bench_desc ls_bench_create;
extern const struct bc_bench_desc ls_bench_tasks_trace;
extern const struct bc_bench_desc ls_bench_sk_get;

#endif /* BENCHCORE_LS_INTERNAL_H */
