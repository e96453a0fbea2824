// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The nsop fixture's BPF side: each getpgid() of the benchmark's own
 * process runs one batch of NSOP_OPS array map lookups with bpf_loop(),
 * timed in BPF (bc_batch_start(), bc_batch_stop()). The batch records are
 * what the plugin's two metrics read: "batches.batches" (the calls) and
 * "batches.ns" per "batches.ops" (the time per lookup, whose divisor is
 * no metric).
 */
#include "benchcore.bpf.h"
#include "bc_syscall.bpf.h"
#include "nsop_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, NSOP_SLOTS);
} nsop_map SEC(".maps");

const volatile long getpgid_nr = -1;

BC_BATCH_TIMINGS(batches);

static int nsop_one(__u32 i, void *unused)
{
	__u32 key = i & (NSOP_SLOTS - 1);
	__u64 *v = bpf_map_lookup_elem(&nsop_map, &key);

	if (v)
		*v += 1;
	return 0;
}

static __always_inline int nsop_run(void)
{
	__u64 start;
	long n;

	if (!bc_own_process())
		return 0;
	start = bc_batch_start();
	n = bpf_loop(NSOP_OPS, nsop_one, NULL, 0);
	/* A refused loop did no operation: its time is no operation's. */
	if (n > 0)
		bc_batch_stop(batches, start, (__u64)n);
	return 0;
}

BC_SYSCALL_PROGS(nsop, getpgid, getpgid_nr, nsop_run)
