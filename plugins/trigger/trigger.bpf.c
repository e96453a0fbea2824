// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BPF side of the trigger plugin: the programs under test (one per attach
 * type, each doing nothing but counting its hit) and the drivers that make
 * the kernel fire them in a batch from one BPF_PROG_TEST_RUN.
 *
 * Every program is declared with SEC("?...") so that nothing loads unless
 * the benchmark asks for it: a kernel that refuses fentry must not stop the
 * tracepoint benchmarks from loading. For the same reason this object
 * declares no kernel-symbol (kfunc) extern: libbpf resolves externs for
 * the whole object, whichever programs load.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Hits of the program under test (or of the self-counting driver). */
BC_CPU_SLOTS(hits);

/* Set before load: how many times one driver run calls its target. */
const volatile __u32 batch_iters = 1;

/* Set before load: getpgid()'s syscall number (user space knows its ABI). */
const volatile __u64 getpgid_nr = 0;

static __always_inline void count_hit(void)
{
	bc_slot_add(hits, 1);
}

/*
 * Every attach point here is reachable from other processes too: another
 * benchcore running trig-tp fires the same bpf_trigger_tp tracepoint,
 * any BPF program calls bpf_get_numa_node_id(), anyone calls getpgid(),
 * and a uprobe on trigger.so fires in every process that maps it. The
 * runner's programs count every hit all the same, and so do these unless
 * user space sets bc_tgid (--trig-own-process, and always for the
 * getpgid()-driven rows): with bc_tgid 0 the verifier removes the check,
 * so the default costs what the runner's counting costs.
 */
static __always_inline void count_own_hit(void)
{
	if (bc_own_process())
		count_hit();
}

/* ------------------------------------------------------------- drivers */

/* Baseline: the driver's own loop counting itself, nothing attached and
 * nothing called, as the runner's trigger_count: one loop iteration and
 * one counter increment per hit. (It once also called trig_driver's
 * helper, which read 0.65 of the runner's figure under its name.) */
SEC("?raw_tp")
int trig_kernel_count(void *ctx)
{
	for (__u32 i = 0; i < batch_iters; i++)
		count_own_hit();
	return 0;
}

/* Calls a helper that fentry/fexit/kprobe/kretprobe(-multi) attach to. */
SEC("?raw_tp")
int trig_driver(void *ctx)
{
	for (__u32 i = 0; i < batch_iters; i++)
		(void)bpf_get_numa_node_id();
	return 0;
}

/* The driver calling the kfunc bpf_modify_return_test_tp(), which fires
 * the tracepoint bpf_test_run:bpf_trigger_tp (and is fmod_ret's target),
 * is trig_driver_kfunc in trig_kfunc.bpf.c: an object of its own, so that
 * this one holds no kfunc extern (see there why). */

/* -------------------------------------------------- programs under test */

SEC("?tp/bpf_test_run/bpf_trigger_tp")
int trig_tp(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?raw_tp/bpf_trigger_tp")
int trig_rawtp(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?fentry/bpf_get_numa_node_id")
int trig_fentry(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?fexit/bpf_get_numa_node_id")
int trig_fexit(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?fmod_ret/bpf_modify_return_test_tp")
int trig_fmodret(void *ctx)
{
	count_own_hit();
	/* Non-zero: the kfunc's body is skipped, as upstream measures it. */
	return -22;
}

SEC("?kprobe/bpf_get_numa_node_id")
int trig_kprobe(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?kretprobe/bpf_get_numa_node_id")
int trig_kretprobe(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?kprobe.multi/bpf_get_numa_node_id")
int trig_kprobe_multi(void *ctx)
{
	count_own_hit();
	return 0;
}

SEC("?kretprobe.multi/bpf_get_numa_node_id")
int trig_kretprobe_multi(void *ctx)
{
	count_own_hit();
	return 0;
}

/* kprobe-multi-all: attached to every other traceable kernel function, so
 * that the counting program's trigger pays for a kernel full of fprobes.
 * They run for every caller on the machine: doing nothing is the point. */
SEC("?kprobe.multi/bpf_get_numa_node_id")
int trig_kprobe_multi_empty(void *ctx)
{
	return 0;
}

SEC("?kretprobe.multi/bpf_get_numa_node_id")
int trig_kretprobe_multi_empty(void *ctx)
{
	return 0;
}

/* Attached by user space to a function of benchcore's own process, as a
 * uprobe or uretprobe (and as uprobe.multi where libbpf can attach it). */
SEC("?uprobe")
int trig_uprobe(void *ctx)
{
	count_own_hit();
	return 0;
}

/* -------------------------------------------------- cross-CPU triggering */

/* Run directly by BPF_PROG_TEST_RUN, once per run, on the producer's CPU
 * or (BPF_F_TEST_RUN_ON_CPU) on another one: the slot says where it ran.
 * No process filter: nothing else runs it, and on another CPU the current
 * task is whoever was running there when the IPI arrived. */
SEC("?raw_tp")
int trig_testrun(void *ctx)
{
	count_hit();
	return 0;
}

/* Fired by the producer's getpgid() after it migrated to the next CPU.
 * Other processes call getpgid() too, hence the filter. */
SEC("?tp/syscalls/sys_enter_getpgid")
int trig_syscall_tp(void *ctx)
{
	count_own_hit();
	return 0;
}

/* ------------------------------------------- the syscall-driven variants */

/*
 * trig-tp, trig-rawtp and trig-fmodret as the 6.1-era runner measured them,
 * for kernels without bpf_modify_return_test_tp(): each getpgid() of the
 * producer fires the program once. (The tracepoint one is
 * trig_syscall_tp above.)
 */
SEC("?raw_tp/sys_enter")
int trig_rawtp_syscall(struct bpf_raw_tracepoint_args *ctx)
{
	/* sys_enter(regs, id): every syscall of every process comes here. */
	if (ctx->args[1] == getpgid_nr)
		count_own_hit();
	return 0;
}

/* On the LSM hook getpgid(pid) calls (see trigger_spec.c): 0 lets the
 * check pass, so every getpgid() still does its work. */
SEC("?fmod_ret/security_task_getpgid")
int trig_fmodret_syscall(void *ctx)
{
	if (bc_own_process())
		count_hit();
	return 0;
}
