// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Task local-storage lookup cost, and the cliff past its 16-slot cache.
 *
 * Every getpgid() of the benchmark's own process runs LS_GETS_PER_TRIGGER
 * gets against maps 0..num_maps-1 in turn, each reached through an
 * array-of-maps that user space fills: task-storage gets with F_CREATE, or,
 * for the control, lookups of a random key below hash_keys_used in full
 * hash maps of LS_HASH_ENTRIES keys (the kernel runner's control). The same
 * body is attached through whichever of three equivalent attach points the
 * kernel accepts.
 */
#include "benchcore.bpf.h"
#include "ls_getpgid.bpf.h"
#include "ls_common.h"

#ifndef BPF_LOCAL_STORAGE_GET_F_CREATE
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* User space creates the inner maps (their number is only known at run
 * time) and stores them here after load; this declaration is the template
 * the kernel checks them against. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_NR_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
		__uint(map_flags, BPF_F_NO_PREALLOC);
		__type(key, int);
		__type(value, int);
	});
} ls_task_maps SEC(".maps");

/* The control's hash maps, made and filled by user space (every key below
 * LS_HASH_ENTRIES, so that each lookup hits, as a task-storage get with
 * F_CREATE always finds its element). The kernel does not compare a hash
 * map's size with the template's, so the template stays one entry: libbpf
 * creates it while loading, and a preallocated 4M-entry one would cost
 * hundreds of megabytes for nothing. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_NR_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_HASH);
		__uint(max_entries, 1);
		__type(key, int);
		__type(value, int);
	});
} ls_hash_maps SEC(".maps");

/* Set by user space before load (bc_tgid too, for bc_own_process()); the
 * verifier prunes the paths these rule out. */
const volatile __u32 getpgid_nr;	/* syscall number, for raw_tp/sys_enter */
const volatile __u32 num_maps = 1;
const volatile __u32 interleave;
const volatile __u32 use_hash;
const volatile __u32 hash_keys_used = 1;

/* Cumulative totals, added once per trigger so that the shared cache line
 * is touched once per LS_GETS_PER_TRIGGER gets. */
__u64 hits;
__u64 important_hits;

struct loop_ctx {
	struct task_struct *task;
	__u64 hits;
	__u64 important_hits;
};

static __always_inline void get_one(__u32 idx, struct loop_ctx *lc)
{
	void *inner;
	int zero = 0;

	if (use_hash) {
		int key = bpf_get_prandom_u32() % hash_keys_used;

		inner = bpf_map_lookup_elem(&ls_hash_maps, &idx);
		if (!inner)
			return;
		bpf_map_lookup_elem(inner, &key);
	} else {
		inner = bpf_map_lookup_elem(&ls_task_maps, &idx);
		if (!inner)
			return;
		bpf_task_storage_get(inner, lc->task, &zero, BPF_LOCAL_STORAGE_GET_F_CREATE);
	}
	lc->hits++;
	if (idx == 0)
		lc->important_hits++;
}

static long get_step(__u32 i, void *data)
{
	struct loop_ctx *lc = data;
	__u32 idx = i % num_maps;

	get_one(idx, lc);
	if (interleave && idx % LS_INTERLEAVE_EVERY == 0)
		get_one(0, lc);
	return 0;
}

static __always_inline int run_gets(void)
{
	struct loop_ctx lc = {};

	if (!bc_own_process())
		return 0;
	lc.task = bpf_get_current_task_btf();
	bpf_loop(LS_GETS_PER_TRIGGER, get_step, &lc, 0);
	__sync_fetch_and_add(&hits, lc.hits);
	__sync_fetch_and_add(&important_hits, lc.important_hits);
	return 0;
}


LS_GETPGID_PROGRAMS(ls_get, run_gets)
