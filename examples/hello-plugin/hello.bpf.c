// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello's BPF side: count the benchmark's own getpgid() syscalls as they
 * enter the kernel, at one of two hooks (the core loads only the one its
 * benchmark names), and record the time between two of them on a CPU.
 * Nothing here is read by the plugin: the metrics in hello.c name "hits"
 * and "gap_ns", and the core reads them from the loaded object.
 */
/* benchcore's BPF SDK (installed with benchcore): brings vmlinux.h and
 * libbpf's BPF headers, the own-process filter bc_tgid, per-CPU counter
 * slots, in-BPF batch timing and histograms in the core's buckets. */
#include <benchcore.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load: syscall numbers differ between arches. */
const volatile __u32 getpgid_nr;
/* --hello-untimed: no clock read at all (the verifier drops that code). */
const volatile bool record_gaps = true;

/* A COUNTER metric with .bpf = "hits": one slot per CPU, each alone on its
 * cache line, summed by the core at every tick. */
BC_CPU_SLOTS(hits);
/* When this CPU last saw one of our calls (a slot per CPU too). */
BC_CPU_SLOTS(last_ns);
/* A HISTOGRAM metric with .bpf = "gap_ns": per-CPU buckets the core merges. */
BC_HIST_MAP(gap_ns);

static __always_inline void hello_count(void)
{
	struct bc_line_counter *last;
	__u64 now;

	bc_slot_add(hits, 1);
	if (!record_gaps)
		return;
	last = &last_ns[bpf_get_smp_processor_id() & (BC_CPU_SLOT_CNT - 1)];
	now = bpf_ktime_get_ns();
	if (last->value)
		bc_hist_add(&gap_ns, now - last->value);
	last->value = now;
}

/* hello-tp: the syscall's own tracepoint fires for getpgid() only. */
SEC("tp/syscalls/sys_enter_getpgid")
int hello_tp(void *ctx)
{
	/* Every process's getpgid() fires it; count ours only. */
	if (bc_own_process())
		hello_count();
	return 0;
}

/* hello-raw-tp: every syscall passes sys_enter; keep getpgid(). */
SEC("raw_tp/sys_enter")
int BPF_PROG(hello_raw_tp, struct pt_regs *regs, long id)
{
	if (id == getpgid_nr && bc_own_process())
		hello_count();
	return 0;
}
