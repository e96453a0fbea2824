// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Hash map update and lookup cost (the kernel runner's
 * progs/bpf_hashmap_full_update_bench.c and progs/bpf_hashmap_lookup.c,
 * same work per trigger). One getpgid() of the benchmark's own process
 * runs, and times with bpf_ktime_get_ns(), either
 *   - HM_FULL_LOOPS updates of one key absent from the full map hm_full, or
 *   - outer_loops rounds of nr_entries lookups in hm_lookup, each patching
 *     word 0 of the key with the entry's number plus one.
 */
#include "benchcore.bpf.h"
#include "bc_syscall.bpf.h"
#include "hashmap_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, HM_FULL_ENTRIES);
} hm_full SEC(".maps");

/* Key size, entries and flags are set by user space before load. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} hm_lookup SEC(".maps");

const volatile bool do_lookup;
const volatile __u32 nr_entries = 1;
const volatile __u32 outer_loops = 1;
const volatile long getpgid_nr = -1;
/* Feed the per-trigger histogram (off: the verifier drops the code). */
const volatile bool record_triggers;

/* Lookup keys, one buffer per CPU; user space writes words 1.. before load. */
__u32 keys[HM_KEY_SLOTS][HM_KEY_WORDS];
/* Read by the core: the metrics name them (hashmap.c). */
BC_BATCH_TIMINGS(batches);
BC_HIST_MAP(trigger_ns);
__u32 error;

static int update_one(__u32 i, __u32 *key)
{
	__u64 one = 1;

	bpf_map_update_elem(&hm_full, key, &one, BPF_ANY);
	return 0;
}

struct lookup_ctx {
	__u32 *key;
};

static int lookup_one(__u32 i, struct lookup_ctx *lc)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	lc->key[0] = i + 1;
#else
	lc->key[0] = __builtin_bswap32(i + 1);
#endif
	return bpf_map_lookup_elem(&hm_lookup, lc->key) ? 0 : 1;
}

static int lookup_round(__u32 i, struct lookup_ctx *lc)
{
	if (bpf_loop(nr_entries, lookup_one, lc, 0) != nr_entries) {
		error |= HM_ERR_LOOKUP_MISS;
		return 1;
	}
	return 0;
}

static __always_inline int hm_run(void)
{
	struct lookup_ctx lc;
	__u64 start, ns;
	__u32 key;
	long n;

	if (!bc_own_process())
		return 0;
	if (do_lookup) {
		lc.key = keys[bpf_get_smp_processor_id() & (HM_KEY_SLOTS - 1)];
		start = bc_batch_start();
		n = bpf_loop(outer_loops, lookup_round, &lc, 0);
		ns = bc_batch_stop(batches, start, (__u64)n * nr_entries);
	} else {
		/* The runner's key: absent, one per CPU. */
		key = bpf_get_smp_processor_id() + HM_FULL_ENTRIES;
		start = bc_batch_start();
		bpf_loop(HM_FULL_LOOPS, update_one, &key, 0);
		ns = bc_batch_stop(batches, start, HM_FULL_LOOPS);
	}
	if (record_triggers)
		bc_hist_add(&trigger_ns, ns);
	return 0;
}

BC_SYSCALL_PROGS(hm, getpgid, getpgid_nr, hm_run)
