/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Contracts between the local_storage plugin's files: the options as the
 * user gave them (ls_plugin.c parses them into text; each benchmark's
 * validate() turns the text into numbers and says what is wrong), the shared
 * helpers, and the benchmark descriptors each file defines.
 */
#ifndef BENCHCORE_LS_INTERNAL_H
#define BENCHCORE_LS_INTERNAL_H

#include <benchcore/benchcore.h>

/*
 * The option values as given on the command line, or NULL when absent.
 * argp has no per-run place to put them, so they live here for the life of
 * the process; a run only reads them. Kept as text so that validate() can
 * quote the user's own spelling in its message.
 */
struct ls_opts {
	const char *nr_maps;
	const char *hashmap_nr_keys_used;
	const char *storage_type;
	const char *batch_size;
	const char *nr_procs;
	const char *kthread_pid;
};

extern struct ls_opts ls_opts;

/* Which options a benchmark takes, for ls_check_opts(). */
enum {
	LS_USES_NR_MAPS = 1u << 0,
	LS_USES_HASH_KEYS = 1u << 1,
	LS_USES_STORAGE_TYPE = 1u << 2,
	LS_USES_BATCH_SIZE = 1u << 3,
	LS_USES_NR_PROCS = 1u << 4,
	LS_USES_KTHREAD_PID = 1u << 5,
};

/* One plugin parser serves five benchmarks: an option given to one that
 * ignores it is a usage error rather than silently dropped. */
int ls_check_opts(struct bc_ctx *ctx, unsigned int uses);

/* Defaults, as in the kernel runner (except --storage-type, see ls_create.c). */
#define LS_DEF_NR_MAPS 1000
#define LS_DEF_HASH_KEYS 1000
#define LS_DEF_BATCH_SIZE 32
#define LS_DEF_NR_PROCS 1000
#define LS_MAX_BATCH_SIZE 100000
/* Every sleeper is a process: bound it well below any sane pid_max. */
#define LS_MAX_NR_PROCS 150000

/*
 * Parses `text` (an option's value) as a decimal integer in [min, max].
 * Returns 0, or bc_usage_error() naming the option, the value and the
 * expected range, followed by `note` (where the bound comes from) if not
 * NULL. A NULL text leaves *out at the caller's default.
 */
int ls_parse_uint_opt(struct bc_ctx *ctx, const char *opt, const char *text,
		      unsigned long min, unsigned long max, const char *note,
		      unsigned long *out);

/* /proc/sys/kernel/pid_max, or the kernel's default when unreadable. */
unsigned long ls_pid_max(void);

/* Strips libbpf's noise from an errno for a one-line reason. */
const char *ls_strerror(int err);

/* The getpgid syscall's entry function, as the .bpf.c files' fentry
 * sections name it for the same architecture. */
#if defined(__x86_64__)
#define LS_FENTRY_GETPGID "fentry/__x64_sys_getpgid"
#elif defined(__aarch64__)
#define LS_FENTRY_GETPGID "fentry/__arm64_sys_getpgid"
#else
#define LS_FENTRY_GETPGID "fentry/sys_getpgid"
#endif

extern const struct bc_bench_desc ls_bench_seq_get;
extern const struct bc_bench_desc ls_bench_int_get;
extern const struct bc_bench_desc ls_bench_hashmap_control;
extern const struct bc_bench_desc ls_bench_create;
extern const struct bc_bench_desc ls_bench_tasks_trace;

#endif /* BENCHCORE_LS_INTERNAL_H */
