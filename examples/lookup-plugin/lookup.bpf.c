// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lookup's BPF side: each getpgid() of the benchmark's own process runs
 * one batch of --lookup-ops map lookups with bpf_loop(), timed in BPF as
 * one bracket (bc_batch_start() .. bc_batch_stop()). Nothing here is read
 * by the plugin's C: its metrics name "lookups", "batches.ns",
 * "batches.ops" and "batch_ns", and the core reads them from the loaded
 * object. With --lookup-untimed there is no bracket at all: the difference
 * in --bpf-stats is what timing costs (docs/measuring.md).
 */
/* benchcore's BPF SDK: vmlinux.h, libbpf's BPF headers, the own-process
 * filter, counter slots, batch timing and histograms. */
#include <benchcore.bpf.h>
/* The same body behind fentry, tracepoint and raw_tp programs. */
#include <bc_syscall.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load (lookup.c, lk_configure()). */
const volatile long getpgid_nr = -1;
const volatile __u32 nr_ops = 1000;
const volatile __u32 nr_keys = 1;
const volatile bool use_hash;
const volatile bool timed = true;

#define LK_ARRAY_SLOTS 1024	/* power of two */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LK_ARRAY_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} lk_array SEC(".maps");

/* max_entries is --lookup-keys, set before load. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lk_hash SEC(".maps");

BC_CPU_SLOTS(lookups);		/* lookups done: a COUNTER */
BC_BATCH_TIMINGS(batches);	/* timed lookups and their BPF time: ns per lookup */
BC_HIST_MAP(batch_ns);		/* the BPF time of each batch: a HISTOGRAM */

static int lk_array_one(__u32 i, void *unused)
{
	__u32 key = i & (LK_ARRAY_SLOTS - 1);

	return bpf_map_lookup_elem(&lk_array, &key) ? 0 : 1;
}

static int lk_hash_one(__u32 i, void *unused)
{
	__u32 key = i % nr_keys;

	return bpf_map_lookup_elem(&lk_hash, &key) ? 0 : 1;
}

static __always_inline int lk_batch(void)
{
	__u64 start, ns;
	long n;

	if (!bc_own_process())
		return 0;
	/* Only the loop is inside the bracket; what the bracket adds (two
	 * clock reads and the bookkeeping after) is what docs/measuring.md,
	 * "Timing inside BPF", measures. Untimed, the verifier drops it. */
	start = timed ? bc_batch_start() : 0;
	n = use_hash ? bpf_loop(nr_ops, lk_hash_one, NULL, 0) :
		       bpf_loop(nr_ops, lk_array_one, NULL, 0);
	if (n <= 0)
		return 0;
	if (timed) {
		ns = bc_batch_stop(batches, start, (__u64)n);
		bc_hist_add(&batch_ns, ns);
	}
	bc_slot_add(lookups, (__u64)n);
	return 0;
}

/* lk_fentry, lk_tp and lk_raw_tp: the attach ladder's three candidates. */
BC_SYSCALL_PROGS(lk, getpgid, getpgid_nr, lk_batch)
