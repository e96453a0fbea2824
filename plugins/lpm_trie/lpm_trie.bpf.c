// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * LPM trie operation cost (the kernel runner's progs/lpm_trie_bench.c,
 * same work per run). run_bench is an XDP program that user space runs
 * with BPF_PROG_TEST_RUN: LPM_NR_LOOPS iterations of op on trie_map, timed
 * with bpf_ktime_get_ns(). Keys are { prefixlen, k } for k in
 * [0, nr_entries), in turn or (random_keys) at random.
 *
 * lpm-trie-free times the kernel's deferred free of a trie (its work item,
 * bpf_map_free_deferred) of the maps user space creates and closes, named
 * free_map_name: with fentry/fexit on that function as the runner does, or
 * where BPF trampolines are unavailable with the workqueue raw tracepoints
 * around the same work item.
 */
#include "benchcore.bpf.h"
#include <bpf/bpf_core_read.h>
#include "lpm_trie_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_bench_key);
	__type(value, __u32);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LPM_MAX_ENTRIES);
} trie_map SEC(".maps");

const volatile __u32 op = LPM_OP_NOOP;
const volatile __u32 nr_entries = 1;
const volatile __u32 prefixlen = 32;
const volatile bool random_keys;
/* lpm-trie-free: which maps' frees to time, and (tracepoint variant) the
 * address of the work function that frees a map. */
const volatile char free_map_name[LPM_NAME_LEN];
const volatile __u64 free_fn;

long hits;
long duration_ns;

static __u32 cur_key;

static __always_inline void make_key(struct lpm_bench_key *key)
{
	key->prefixlen = prefixlen;
	if (random_keys)
		key->data = bpf_get_prandom_u32() % nr_entries;
	else
		key->data = cur_key++ % nr_entries;
}

static int noop(__u32 index, void *unused)
{
	return 0;
}

static int baseline(__u32 index, void *unused)
{
	struct lpm_bench_key key;
	__u32 blackbox = 0;

	make_key(&key);
	/* Keep the compiler from dropping the key (and its modulo). */
	__asm__ __volatile__("" : "+r"(blackbox));
	blackbox = *(volatile __u32 *)&key.data;
	return 0;
}

static int lookup(__u32 index, int *ret)
{
	struct lpm_bench_key key;

	make_key(&key);
	if (!bpf_map_lookup_elem(&trie_map, &key)) {
		*ret = -2;	/* -ENOENT */
		return 1;
	}
	return 0;
}

static int insert(__u32 index, int *ret)
{
	struct lpm_bench_key key;
	__u32 val = 1;
	int err;	/* an int, as the kernel before 6.4 returns it */

	make_key(&key);
	err = bpf_map_update_elem(&trie_map, &key, &val, BPF_NOEXIST);
	if (err) {
		*ret = err;
		return 1;
	}
	/* The trie is full: user space empties it before the next run. */
	if (key.data == nr_entries - 1) {
		*ret = LPM_BENCH_REINIT_MAP;
		return 1;
	}
	return 0;
}

static int update(__u32 index, int *ret)
{
	struct lpm_bench_key key;
	__u32 val = 1;
	int err;	/* an int, as the kernel before 6.4 returns it */

	make_key(&key);
	err = bpf_map_update_elem(&trie_map, &key, &val, BPF_EXIST);
	if (err) {
		*ret = err;
		return 1;
	}
	return 0;
}

static int delete(__u32 index, int *ret)
{
	struct lpm_bench_key key;
	int err;	/* an int, as the kernel before 6.4 returns it */

	make_key(&key);
	err = bpf_map_delete_elem(&trie_map, &key);
	if (err) {
		*ret = err;
		return 1;
	}
	/* The trie is empty: user space refills it before the next run (one
	 * producer only, so the last key means every key). */
	if (key.data == nr_entries - 1) {
		*ret = LPM_BENCH_REINIT_MAP;
		return 1;
	}
	return 0;
}

SEC("xdp")
int run_bench(struct xdp_md *ctx)
{
	int ret = LPM_BENCH_SUCCESS;
	__u64 start, delta;
	long loops;

	start = bpf_ktime_get_ns();
	switch (op) {
	case LPM_OP_NOOP:
		loops = bpf_loop(LPM_NR_LOOPS, noop, NULL, 0);
		break;
	case LPM_OP_BASELINE:
		loops = bpf_loop(LPM_NR_LOOPS, baseline, NULL, 0);
		break;
	case LPM_OP_LOOKUP:
		loops = bpf_loop(LPM_NR_LOOPS, lookup, &ret, 0);
		break;
	case LPM_OP_INSERT:
		loops = bpf_loop(LPM_NR_LOOPS, insert, &ret, 0);
		break;
	case LPM_OP_UPDATE:
		loops = bpf_loop(LPM_NR_LOOPS, update, &ret, 0);
		break;
	case LPM_OP_DELETE:
		loops = bpf_loop(LPM_NR_LOOPS, delete, &ret, 0);
		break;
	default:
		return -22;	/* -EINVAL */
	}
	delta = bpf_ktime_get_ns() - start;
	__sync_add_and_fetch(&duration_ns, delta);
	__sync_add_and_fetch(&hits, loops);
	return ret;
}

/* ---------------------------------------------------------- lpm-trie-free */

static __u64 free_start;
static __u64 free_work;

/* Is this work item the free of one of our tries? Read through probes:
 * the map is being freed, nothing here may keep it. */
static __always_inline bool free_is_ours(void *work)
{
	struct bpf_map *map = (void *)((__u64)work - bpf_core_field_offset(struct bpf_map, work));
	char name[LPM_NAME_LEN];
	__u32 type = 0;
	int i;

	if (bpf_core_read(&type, sizeof(type), &map->map_type) || type != BPF_MAP_TYPE_LPM_TRIE)
		return false;
	if (bpf_core_read(name, sizeof(name), &map->name))
		return false;
	for (i = 0; i < LPM_NAME_LEN; i++) {
		if (name[i] != free_map_name[i])
			return false;
		if (!name[i])
			break;
	}
	return true;
}

static __always_inline void free_begin(void *work)
{
	if (!free_is_ours(work))
		return;
	free_work = (__u64)work;
	free_start = bpf_ktime_get_ns();
}

/* After the free `work` points to freed memory: compared, never read. */
static __always_inline void free_end(void *work)
{
	__u64 delta;

	if (!free_start || free_work != (__u64)work)
		return;
	delta = bpf_ktime_get_ns() - free_start;
	free_start = 0;
	__sync_add_and_fetch(&duration_ns, delta);
	__sync_add_and_fetch(&hits, 1);
}

SEC("fentry/bpf_map_free_deferred")
int BPF_PROG(free_fentry, struct work_struct *work)
{
	free_begin(work);
	return 0;
}

SEC("fexit/bpf_map_free_deferred")
int BPF_PROG(free_fexit, struct work_struct *work)
{
	free_end(work);
	return 0;
}

/* Raw tracepoints, not tp_btf: the verifier does not let tp_btf programs
 * read workqueue_execute_end's function pointer argument. */
SEC("raw_tp/workqueue_execute_start")
int BPF_PROG(free_wq_start, struct work_struct *work)
{
	__u64 fn = 0;

	if (bpf_core_read(&fn, sizeof(fn), &work->func) || fn != free_fn)
		return 0;
	free_begin(work);
	return 0;
}

SEC("raw_tp/workqueue_execute_end")
int BPF_PROG(free_wq_end, struct work_struct *work, __u64 function)
{
	if (function != free_fn)
		return 0;
	free_end(work);
	return 0;
}
