// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bloom filter map benchmarks (the kernel runner's
 * progs/bloom_filter_bench.c, same work per trigger):
 *
 *   BLOOM_OP_LOOKUP  walk the array of the nr_entries stored values and
 *                    peek each one in the bloom filter: a hit per value
 *   BLOOM_OP_UPDATE  the same walk, pushing each value
 *   BLOOM_OP_HASH    1024 hash map lookups of random keys; with use_bloom,
 *                    the bloom filter is asked first and a "not there" is a
 *                    hit without touching the hash map. A hash map miss is a
 *                    drop (and, when counting them, a false hit of the
 *                    filter that let it through).
 *
 * One getpgid() of the benchmark's own process runs it once; user space
 * sets op and the map sizes before load.
 */
#include "benchcore.bpf.h"
#include "bc_syscall.bpf.h"
#include "bloom_common.h"

#define BLOOM_ENOENT 2

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Sizes and value sizes are set by user space before load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, 1);
} bloom_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 1);
	__uint(map_extra, 3);	/* number of hash functions */
} bloom_filter SEC(".maps");

/* The value is its own key. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 8);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} bloom_hash SEC(".maps");

const volatile __u32 op = BLOOM_OP_LOOKUP;
const volatile __u32 value_size = 8;
const volatile bool use_bloom;
const volatile bool count_false_hits;
const volatile long getpgid_nr = -1;

struct bloom_stat stats[BLOOM_STAT_SLOTS];
__u8 rand_vals[BLOOM_RAND_BYTES];
__u32 error;

/* Plain increments of this CPU's own block, as the kernel runner counts:
 * a locked add per operation would be part of the measurement. */
static __always_inline struct bloom_stat *my_stat(void)
{
	return &stats[bpf_get_smp_processor_id() & (BLOOM_STAT_SLOTS - 1)];
}

static long walk_one(struct bpf_map *map, __u32 *key, void *val, void *data)
{
	int err;

	if (op == BLOOM_OP_UPDATE)
		err = bpf_map_push_elem(&bloom_filter, val, 0);
	else
		err = bpf_map_peek_elem(&bloom_filter, val);
	if (err) {
		error |= BLOOM_ERR_WALK;
		return 1;	/* stop the walk */
	}
	my_stat()->hits++;
	return 0;
}

/*
 * Map helper results are read as int, as the runner does: before Linux 6.4
 * the verifier calls the map's own int-returning function in place of the
 * helper, leaving the upper half of the 64-bit result undefined, so -ENOENT
 * compared as a long would not match there.
 */
static __always_inline void hash_lookups(void)
{
	__u32 index = bpf_get_prandom_u32();
	int err;
	int i;

	for (i = 0; i < BLOOM_HASH_LOOKUPS; i++, index += value_size) {
		index &= BLOOM_RAND_MASK;
		if (use_bloom) {
			err = bpf_map_peek_elem(&bloom_filter, rand_vals + index);
			if (err) {
				if (err != -BLOOM_ENOENT) {
					error |= BLOOM_ERR_PEEK;
					return;
				}
				my_stat()->hits++;
				continue;
			}
		}
		if (bpf_map_lookup_elem(&bloom_hash, rand_vals + index)) {
			my_stat()->hits++;
		} else {
			if (use_bloom && count_false_hits)
				my_stat()->false_hits++;
			my_stat()->drops++;
		}
	}
}

static __always_inline int bloom_run(void)
{
	if (!bc_own_process())
		return 0;
	if (op == BLOOM_OP_HASH)
		hash_lookups();
	else
		bpf_for_each_map_elem(&bloom_array, walk_one, NULL, 0);
	return 0;
}

BC_SYSCALL_PROGS(bloom, getpgid, getpgid_nr, bloom_run)
