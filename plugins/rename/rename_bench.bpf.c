// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The programs under test of the rename benchmarks: each does next to
 * nothing, so that a rename with it attached costs the rename plus what the
 * attach type itself adds. They sit on the path of a write to
 * /proc/<tid>/comm: __set_task_comm() (kprobe, kretprobe, fentry, fexit) and
 * the task_rename tracepoint it fires (raw_tp).
 *
 * Nothing is counted here, on purpose: a counter would add its own cost to
 * every attached variant and not to rename-base, which is what they are
 * compared with. The kernel's own run count (BPF_ENABLE_STATS) tells the
 * tests that a program ran. Every program is "?": only the one asked for loads.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("?kprobe/__set_task_comm")
int BPF_KPROBE(rn_kprobe, struct task_struct *tsk, const char *buf, bool exec)
{
	return !tsk;
}

SEC("?kretprobe/__set_task_comm")
int BPF_KRETPROBE(rn_kretprobe, int ret)
{
	return ret;
}

SEC("?raw_tp/task_rename")
int rn_rawtp(struct bpf_raw_tracepoint_args *ctx)
{
	return !ctx->args[0];
}

SEC("?fentry/__set_task_comm")
int BPF_PROG(rn_fentry, struct task_struct *tsk, const char *buf, bool exec)
{
	return 0;
}

SEC("?fexit/__set_task_comm")
int BPF_PROG(rn_fexit, struct task_struct *tsk, const char *buf, bool exec)
{
	return 0;
}
