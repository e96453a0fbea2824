/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What each trigger benchmark needs and how it drives its trigger: one
 * table, read by the plugin's callbacks and checked by the unit tests.
 * Plain data, no libbpf: the unit tests compile this file on its own.
 */
#ifndef BENCHCORE_TRIGGER_SPEC_H
#define BENCHCORE_TRIGGER_SPEC_H

#include <benchcore/attach.h>
#include <stdbool.h>
#include <stddef.h>

#define BC_TRIG_BATCH_DEFAULT 100
#define BC_TRIG_BATCH_MAX 1000

/* What a producer does once per loop iteration (one "run"). */
enum trig_driver {
	/* getpgid() counted in user space: no BPF at all. */
	BC_TRIG_DRV_SYSCALL_COUNT = 1,
	/* A call of the nop target counted in user space: no BPF at all. */
	BC_TRIG_DRV_USER_COUNT,
	/* BPF_PROG_TEST_RUN of a driver looping batch_iters times: the
	 * self-counting one, the helper-calling one or the kfunc-calling
	 * one (which fires bpf_test_run:bpf_trigger_tp). */
	BC_TRIG_DRV_KERNEL_COUNT,
	BC_TRIG_DRV_HELPER,
	BC_TRIG_DRV_KFUNC,
	/* A call of a user-space function carrying a uprobe. */
	BC_TRIG_DRV_UPROBED_CALL,
	/* BPF_PROG_TEST_RUN of the counting program: on the producer's CPU,
	 * or with BPF_F_TEST_RUN_ON_CPU on the next CPU (an IPI). */
	BC_TRIG_DRV_TESTRUN,
	BC_TRIG_DRV_TESTRUN_ON_CPU,
	/* sched_setaffinity() to the next CPU, then getpgid(). */
	BC_TRIG_DRV_SYSCALL_ON_CPU,
	/* getpgid(), whose entry fires the program under test: how the
	 * 6.1-era runner drove tp, raw_tp and fmod_ret (one trigger per
	 * syscall, so its numbers include a syscall each). */
	BC_TRIG_DRV_SYSCALL,
};

/* The kfunc the batched tp/raw_tp/fmod_ret driver calls (Linux 6.10+). */
#define BC_TRIG_KFUNC "bpf_modify_return_test_tp"

/* The same attach type driven by getpgid() (BC_TRIG_DRV_SYSCALL), for
 * kernels without the kfunc the batched driver calls. */
struct trig_alt {
	const char *prog;		/* program under test */
	const char *attach_point;	/* named in the report, driver included */
	const char *attach_target;	/* overrides the SEC() target, or NULL */
	bool needs_tracefs;
	/* getpgid(own pid) rather than getpgid(0): only a named pid reaches
	 * the LSM hook security_task_getpgid(). */
	bool getpgid_self;
};

/* The user-space function a uprobe benchmark probes. */
enum trig_target {
	BC_TRIG_TARGET_NONE = 0,
	BC_TRIG_TARGET_NOP,	/* first instruction: nop */
	BC_TRIG_TARGET_PUSH,	/* first instruction: push */
	BC_TRIG_TARGET_RET,	/* first instruction: ret */
	BC_TRIG_TARGET_NOP5,	/* first instruction: the 5-byte nop (x86-64) */
	BC_TRIG_TARGET_USDT_NOP,	/* a USDT probe whose site is a nop (x86-64) */
	BC_TRIG_TARGET_USDT_NOP5,	/* ... whose site is the 5-byte nop (x86-64) */
};

struct trig_spec {
	const char *name;		/* "trig-tp", as in the plugin descriptor */
	enum trig_driver driver;
	/* The attach type under test; 0 when nothing is attached (the
	 * baselines and the test-run benchmarks run their program directly).
	 * Never substituted: if the kernel refuses it, the benchmark is
	 * unavailable. */
	enum bc_attach_kind kind;
	const char *prog;		/* BPF program under test, or NULL */
	const char *driver_prog;	/* program BPF_PROG_TEST_RUN runs, or NULL */
	const char *attach_point;	/* named in the report */
	enum trig_target target;	/* uprobe benchmarks only */
	bool batched;			/* one run = --trig-batch-iters hits */
	bool needs_bpf;			/* loads anything at all (root) */
	bool needs_tracefs;		/* tp/... attach goes through tracefs */
	/* Set at load: the program's attach target, when the SEC() one is
	 * only right on some architectures. NULL: the SEC() one. */
	const char *attach_target;
	/* The getpgid()-driven way to the same attach type, or NULL. */
	const struct trig_alt *syscall_alt;
	/* Syscall driver: call getpgid(own pid) (see trig_alt). */
	bool getpgid_self;
	/* kprobe-multi-all: an empty program of the same kind, loaded with
	 * prog and attached to every other traceable kernel function, so
	 * that prog's trigger pays for a full fprobe table. */
	const char *attach_all_prog;
};

/* --trig-driver, for the benchmarks that have a syscall_alt. */
enum trig_drive {
	BC_TRIG_DRIVE_AUTO = 0,		/* batched where the kernel has the kfunc */
	BC_TRIG_DRIVE_BATCHED,
	BC_TRIG_DRIVE_SYSCALL,
};

/* The option's words, in enum order, NULL-terminated. */
extern const char *const trig_drive_words[];

/*
 * The spec as it runs on a kernel whose vmlinux BTF has (kfunc > 0) or
 * lacks (kfunc == 0) BC_TRIG_KFUNC, or that has no BTF to ask (kfunc < 0),
 * when the user asked for `want`: the batched way if the kernel has the
 * kfunc (auto) or was asked to (batched), the getpgid() way otherwise. A
 * spec without a syscall_alt runs as it is. Fills *out (whose attach_point
 * then names the driver) and returns 0, or -EOPNOTSUPP when `batched` was
 * asked for on a kernel known to lack the kfunc.
 */
int trig_choose(const struct trig_spec *spec, enum trig_drive want, int kfunc,
		   struct trig_spec *out);

/* Indices into trig_specs[], in report order: the plugin hangs each
 * entry on its benchmark's descriptor (.priv) by these. */
enum trig_id {
	BC_TRIG_KERNEL_COUNT,
	BC_TRIG_SYSCALL_COUNT,
	BC_TRIG_USERMODE_COUNT,
	BC_TRIG_TP,
	BC_TRIG_RAWTP,
	BC_TRIG_FENTRY,
	BC_TRIG_FEXIT,
	BC_TRIG_FMODRET,
	BC_TRIG_KPROBE,
	BC_TRIG_KRETPROBE,
	BC_TRIG_KPROBE_MULTI,
	BC_TRIG_KRETPROBE_MULTI,
	BC_TRIG_KPROBE_MULTI_ALL,
	BC_TRIG_KRETPROBE_MULTI_ALL,
	BC_TRIG_UPROBE_NOP,
	BC_TRIG_URETPROBE_NOP,
	BC_TRIG_UPROBE_PUSH,
	BC_TRIG_URETPROBE_PUSH,
	BC_TRIG_UPROBE_RET,
	BC_TRIG_URETPROBE_RET,
	BC_TRIG_UPROBE_NOP5,
	BC_TRIG_URETPROBE_NOP5,
	BC_TRIG_UPROBE_MULTI_NOP,
	BC_TRIG_URETPROBE_MULTI_NOP,
	BC_TRIG_UPROBE_MULTI_PUSH,
	BC_TRIG_URETPROBE_MULTI_PUSH,
	BC_TRIG_UPROBE_MULTI_RET,
	BC_TRIG_URETPROBE_MULTI_RET,
	BC_TRIG_UPROBE_MULTI_NOP5,
	BC_TRIG_URETPROBE_MULTI_NOP5,
	BC_TRIG_USDT_NOP,
	BC_TRIG_USDT_NOP5,
	BC_TRIG_TESTRUN,
	BC_TRIG_TESTRUN_ON_CPU,
	BC_TRIG_SYSCALL_ON_CPU,
	BC_TRIG_CNT
};

extern const struct trig_spec trig_specs[BC_TRIG_CNT];
extern const size_t trig_spec_cnt;

/* NULL when no benchmark has that name. */
const struct trig_spec *trig_spec_find(const char *name);

/* Names an attach kind for people: "fentry", "kprobe.multi". */
const char *trig_kind_name(enum bc_attach_kind kind);

/* Whether the target is one of x86-64's only (nop5, the USDT sites). */
bool trig_target_x86_only(enum trig_target target);

/* The kernel functions kprobe-multi-all attaches to. */
struct trig_syms {
	char *buf;		/* the names' storage */
	const char **names;
	size_t cnt;
};

/*
 * From the text of tracefs's available_filter_functions ("name" or "name
 * [module]" per line): the kernel's own functions (no module), each once,
 * without those the kernel runner leaves out because an fprobe on them
 * recurses or upsets RCU (idle, rcu_*, preemption and migration counters,
 * the XDP dispatcher, ftrace's invalid-address markers) and without
 * bpf_get_numa_node_id, where the program under test sits. Returns 0, or
 * -ENOMEM; free with trig_syms_free().
 */
int trig_syms_all(const char *text, struct trig_syms *out);
void trig_syms_free(struct trig_syms *syms);

/* Parses a kernel CPU list ("0-3,8,10-11", as in
 * /sys/devices/system/cpu/online) into ascending cpus[]. Returns the
 * number of CPUs, or -EINVAL for malformed text, -E2BIG when more than
 * max CPUs are listed. */
int trig_parse_cpulist(const char *text, unsigned int *cpus, unsigned int max);

/* Finds the mapping in a /proc/<pid>/maps text that holds addr and gives
 * the file it maps and the file offset of addr: what a uprobe attaches
 * to. Returns 0, or -ENOENT when no file-backed mapping holds addr. */
int trig_file_offset(const char *maps, unsigned long addr, char *path, size_t path_len,
			unsigned long *offset);

#endif /* BENCHCORE_TRIGGER_SPEC_H */
