// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * RCU Tasks Trace grace-period latency under task local-storage churn.
 *
 * Every getpgid() of the benchmark's process or of its sleeper children
 * creates and deletes a task-storage element; each deletion queues an RCU
 * Tasks Trace callback. The grace period is timed from the kthread's
 * pre-GP step to its post-GP step: these are functions, not tracepoints,
 * so only fentry can see them.
 */
#include "benchcore.bpf.h"
#include "ls_getpgid.bpf.h"
#include <bpf/bpf_core_read.h>

#ifndef BPF_LOCAL_STORAGE_GET_F_CREATE
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} ls_churn SEC(".maps");

const volatile __u32 getpgid_nr;

__u64 churns;
__u64 gp_ct;
__u64 gp_ns;
/* A post-GP step seen without its pre-GP step: the timings are then not
 * trustworthy, and user space fails the run. */
__u64 unexpected;
__u64 gp_start;
bool postgp_seen;

static __always_inline int churn(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *stg;

	/* The benchmark's process and its sleeper children (bc_tgid is ours). */
	if (task->tgid != bc_tgid && BPF_CORE_READ(task, real_parent, tgid) != bc_tgid)
		return 0;
	stg = bpf_task_storage_get(&ls_churn, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!stg)
		return 0;
	*stg = 1;
	bpf_task_storage_delete(&ls_churn, task);
	__sync_fetch_and_add(&churns, 1);
	return 0;
}

LS_GETPGID_PROGRAMS(ls_churn, churn)

SEC("fentry/rcu_tasks_trace_pregp_step")
int BPF_PROG(ls_gp_start)
{
	gp_start = bpf_ktime_get_ns();
	return 0;
}

SEC("fentry/rcu_tasks_trace_postgp")
int BPF_PROG(ls_gp_end)
{
	if (!gp_start) {
		/* The first post-GP step may end a GP that began before we
		 * attached; any later one without a start is a real anomaly. */
		if (postgp_seen)
			__sync_fetch_and_add(&unexpected, 1);
		postgp_seen = true;
		return 0;
	}
	__sync_fetch_and_add(&gp_ns, bpf_ktime_get_ns() - gp_start);
	__sync_fetch_and_add(&gp_ct, 1);
	gp_start = 0;
	postgp_seen = true;
	return 0;
}
