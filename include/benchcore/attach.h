/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Attach-point probing with fallback, for BPF plugins.
 *
 * Users' kernels differ: one refuses trampolines (fentry -> EPERM), another
 * lacks kprobes, a third has tracefs unmounted. A plugin lists equivalent
 * attach points in order of preference; the core tries each, records which
 * one worked (reports name it), and when none does marks the benchmark
 * unavailable with the kernel's answer for every candidate.
 */
#ifndef BENCHCORE_ATTACH_H
#define BENCHCORE_ATTACH_H

#include <sys/syscall.h>

#include <benchcore/benchcore.h>

#ifdef __cplusplus
extern "C" {
#endif

enum bc_attach_kind {
	BC_ATTACH_FENTRY = 1,
	BC_ATTACH_FEXIT,
	BC_ATTACH_FMOD_RET,
	BC_ATTACH_LSM,
	BC_ATTACH_KPROBE,
	BC_ATTACH_KRETPROBE,
	BC_ATTACH_KPROBE_MULTI,
	BC_ATTACH_KRETPROBE_MULTI,
	BC_ATTACH_TP,		/* needs tracefs: mounted on demand */
	BC_ATTACH_RAW_TP,
	BC_ATTACH_TP_BTF,
	BC_ATTACH_UPROBE,
	BC_ATTACH_URETPROBE,
	BC_ATTACH_UPROBE_MULTI,
	BC_ATTACH_URETPROBE_MULTI,
	BC_ATTACH_OTHER,
};

struct bc_attach_point {
	size_t sz;
	const char *name;	/* shown in reports: "tp/syscalls/sys_enter_getpgid" */
	enum bc_attach_kind kind;
	const char *prog_name;	/* the skeleton program that implements it */
	/* 2.3: sdk */
	/* A second program this candidate loads beside prog_name: the
	 * fexit of an fentry+fexit pair, the driver that fires it. With a
	 * skeleton (bc_bench_desc.skel) the core checks that the object has
	 * it, loads it, and attaches it when its SEC() names a target.
	 * NULL: none. */
	const char *also_prog;
};

/* 2.3: BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "my_tp")
 * (extra fields after the program's name: .also_prog = "my_driver"). */
#define BC_ATTACH_POINT(kind_, name_, prog_, ...)                                     \
	{ .sz = sizeof(struct bc_attach_point), .name = (name_), .kind = (kind_),        \
	  .prog_name = (prog_), __VA_ARGS__ }

/*
 * Loads and attaches the program for one candidate. Must leave nothing
 * loaded when it fails, and return a negative errno: the kernel's answer
 * about this candidate. A failure that is not the kernel refusing the
 * candidate is said with bc_error() (or bc_unavailable()), which ends the
 * ladder with those words. The core reads as the plugin's mistake, never
 * as the kernel's refusal (the run fails, status 1): a positive return
 * value; a program name bc_bpf_autoload_only() does not find in the
 * object; bc_ctx_set_bpf_object() given no object.
 */
typedef int (*bc_attach_try_fn)(struct bc_ctx *ctx, const struct bc_attach_point *pt,
				void *cookie);

/* 2.3: the kernel's internal "not supported" (include/linux/errno.h): it
 * leaks out of BPF_PROG_LOAD and attach, but libc has no name for it
 * (bc_strerror() has one). */
#define BC_ENOTSUPP 524

/*
 * 2.3: the one list of the kernel's answers that mean "not on this kernel"
 * (EPERM, EACCES, ENOTSUPP, EOPNOTSUPP, ENOENT, ESRCH, EINVAL, E2BIG,
 * ENODEV, ENOSYS, ENXIO), as opposed to a failure another attach point
 * would not fix (ENOMEM, EBUSY). Ask it only about what a kernel call
 * answered: an errno a plugin made up is no refusal. Takes err or -err.
 */
BC_API bool bc_attach_is_refusal(int err);

/*
 * 2.3: from a try callback (or a skeleton's configure()): this candidate
 * cannot work here, for a reason found without asking the kernel (a file
 * the candidate needs is not there); the ladder records the reason and
 * tries the next, as for a refusal. Returns the value to return.
 */
BC_API int bc_attach_skip(struct bc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Tries pts[0..cnt-1] in order. Returns the index of the first that worked
 * (and records its name with bc_ctx_set_attach_point()), or a negative errno:
 * -EOPNOTSUPP when the kernel refused every candidate (the benchmark is then
 * marked unavailable with each candidate's reason), another error when a
 * candidate failed for a reason that is not the kernel's refusal.
 */
BC_API int bc_attach_first(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
			   bc_attach_try_fn try_fn, void *cookie);

/*
 * For skeleton users: marks only `prog_name` of a libbpf object for loading,
 * so that one candidate's program is loaded without the others (a refused
 * fentry program would otherwise fail the whole object). Call between
 * __open() and __load(). Returns 0, or -ENOENT when there is no such
 * program: the plugin's mistake (a typo in prog_name), which a ladder
 * reports as such (status 1, naming the programs the object has), never as
 * the kernel refusing the candidate.
 */
struct bpf_object;
BC_API int bc_bpf_autoload_only(struct bpf_object *obj, const char *prog_name);

/*
 * 2.3: for a benchmark with a skeleton (bc_bench_desc.skel) whose
 * candidates depend on its options (htab-mem's use cases): setup() runs
 * the core's skeleton ladder over pts instead of the descriptor's
 * attach_points (which `list` still checks cheaply). The same steps and
 * verdicts as the ladder the core runs itself, which then does not run;
 * call it once, from setup(). Returns the index of the candidate that
 * attached, or a negative errno as bc_attach_first() does.
 */
BC_API int bc_skel_ladder(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt);

/* Mounts tracefs at /sys/kernel/tracing when it is not mounted. Returns 0,
 * or a negative errno with the command to run written to `hint`. */
BC_API int bc_tracefs_ensure(char *hint, size_t hint_len);

/*
 * Cheap checks (ABI 2.1): what `list` asks instead of probe(), and what a
 * benchmark's quick_probe() may ask. Each is the smallest question that
 * answers it, asked once per process and remembered; none loads or
 * attaches a benchmark's programs.
 *
 * An attach point's check reads its target from its name, SEC()-style:
 * what follows the first '/', up to a blank or '+'
 * ("tp/syscalls/sys_enter_getpgid", "raw_tp/sys_enter (filtered)",
 * "fentry+fexit/bpf_map_free_deferred"); "lsm.s/" and "fentry.s/" name a
 * sleepable program. By kind:
 *   fentry, fexit, fmod_ret, lsm, tp_btf: a two-instruction program of
 *     that attach type loads against the target's vmlinux BTF id (this is
 *     where a kernel without trampolines says EPERM)
 *   kprobe, kretprobe: the kernel has kprobes and BTF has the function
 *   kprobe.multi, kretprobe.multi, uprobe.multi, uretprobe.multi: the
 *     kernel knows the link (asked by creating an invalid one)
 *   uprobe, uretprobe: the kernel has uprobes
 *   tp: tracefs (mounted on demand) has the event
 *   raw_tp: the raw tracepoint is in vmlinux BTF
 *   other: nothing is checked
 * What only loading the real program or attaching can tell (the verifier
 * refusing its body, a target that refuses a probe) is probe()'s to find.
 */

/* 1: the kernel has it; 0: it lacks it; a negative errno when that cannot
 * be told (-EPERM: not privileged; no vmlinux BTF for a BTF need). */
BC_API int bc_need_probe(const struct bc_need *need);

/* 0 when the kernel has each of needs[0..cnt-1] (stride needs[0].sz);
 * else bc_unavailable() naming the first one it lacks. */
BC_API int bc_need_check(struct bc_ctx *ctx, const struct bc_need *needs, size_t cnt);

/* 0 when one of pts[0..cnt-1] (stride pts[0].sz) passes its check; else
 * bc_unavailable() with every candidate's reason. */
BC_API int bc_attach_check(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt);

/* The getpgid() syscall's function as fentry names it on this architecture. */
#if defined(__x86_64__)
#define BC_FENTRY_GETPGID "fentry/__x64_sys_getpgid"
#elif defined(__aarch64__)
#define BC_FENTRY_GETPGID "fentry/__arm64_sys_getpgid"
#elif defined(__s390x__)
#define BC_FENTRY_GETPGID "fentry/__s390x_sys_getpgid"
#elif defined(__riscv)
#define BC_FENTRY_GETPGID "fentry/__riscv_sys_getpgid"
#else
#define BC_FENTRY_GETPGID "fentry/sys_getpgid"
#endif

/*
 * The ladder of a program fired by getpgid(), as the kernel runner's
 * benchmarks are: fentry on the syscall's function (the runner's own point),
 * the syscall tracepoint (needs tracefs), and raw_tp/sys_enter (every
 * syscall: the program filters getpgid's number). Three programs with the
 * same body, named by the plugin; use it to initialise a
 * struct bc_attach_point array.
 */
#define BC_GETPGID_ATTACH_POINTS(fentry_prog, tp_prog, raw_tp_prog)                      \
	{ .sz = sizeof(struct bc_attach_point), .name = BC_FENTRY_GETPGID,                \
	  .kind = BC_ATTACH_FENTRY, .prog_name = (fentry_prog) },                          \
	{ .sz = sizeof(struct bc_attach_point), .name = "tp/syscalls/sys_enter_getpgid",  \
	  .kind = BC_ATTACH_TP, .prog_name = (tp_prog) },                                  \
	{ .sz = sizeof(struct bc_attach_point), .name = "raw_tp/sys_enter",               \
	  .kind = BC_ATTACH_RAW_TP, .prog_name = (raw_tp_prog) }

/*
 * The pid a getpgid() trigger passes, chosen so that the syscall does the
 * work the kernel runner's does. Its producers call syscall(__NR_getpgid)
 * with no pid, and the register the kernel reads as one holds whatever the
 * caller left there: traced, the 6.12 runner's getpgid-driven benchmarks
 * pass -144 (a negative pid: looked up, not found, ESRCH), and its
 * trig-syscall-count its own thread id (looked up and found, then the LSM
 * hook: about 25% dearer than a failed lookup, which is about 10% dearer
 * than getpgid(0), which looks nothing up). Use:
 *   BC_GETPGID_MISSING  for the runner's getpgid-driven benchmarks;
 *   0                   where the runner passes 0 (htab-mem);
 *   gettid()            for trig-syscall-count.
 */
#define BC_GETPGID_MISSING (-1L)

/* One getpgid() trigger, as the runner's producers fire it. A macro, so
 * that only a plugin using it needs syscall() from <unistd.h> (glibc
 * declares it for gnu11, not for strict -std=c11). */
#define bc_getpgid_trigger() ((void)syscall(SYS_getpgid, BC_GETPGID_MISSING))

/* 2.3: a producer that only fires bc_getpgid_trigger() until it must stop:
 * the whole thread body of a benchmark whose program runs on getpgid()
 * and counts in BPF (.producer = bc_getpgid_producer). */
BC_API int bc_getpgid_producer(struct bc_ctx *ctx, struct bc_thread *t);

#ifdef __cplusplus
}
#endif

#endif /* BENCHCORE_ATTACH_H */
