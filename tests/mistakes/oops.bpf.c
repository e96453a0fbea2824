// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The oops fixture's BPF side: every getpgid() of the benchmark's own
 * process counts one hit and records the time since the last one in a
 * histogram. Its globals are what the fixture's benchmarks name, rightly
 * and wrongly: "hits" (a counter), "lat_ns" (a histogram map) and
 * "a_const", read-only data no metric may read.
 */
#include "benchcore.bpf.h"
#include "bc_syscall.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile long getpgid_nr = -1;
/* A constant: a metric naming it reads its load-time value forever. */
const volatile __u64 a_const = 1;

BC_CPU_SLOTS(hits);
BC_CPU_SLOTS(last_ns);
BC_HIST_MAP(lat_ns);

static __always_inline int oops_count(void)
{
	struct bc_line_counter *last;
	__u64 now;

	if (!bc_own_process())
		return 0;
	bc_slot_add(hits, 1);
	last = &last_ns[bpf_get_smp_processor_id() & (BC_CPU_SLOT_CNT - 1)];
	now = bpf_ktime_get_ns();
	if (last->value)
		bc_hist_add(&lat_ns, now - last->value);
	last->value = now;
	return 0;
}

BC_SYSCALL_TP_PROGS(oops, getpgid, getpgid_nr, oops_count)
