// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Hash map operations whose memory the htab-mem benchmark watches (the
 * kernel runner's progs/htab_mem_bench.c, same work per trigger). Each
 * trigger does HTAB_MEM_BATCH operations on keys cpu, cpu + nr_thread, ...
 * and counts one "op" per batch kind:
 *
 *   overwrite            update (BPF_ANY) 64 keys                   getpgid
 *   batch_add_batch_del  update 64 keys, then delete them            getpgid
 *   add_only / del_only  add (BPF_NOEXIST) / delete 64 keys, paired
 *                        CPUs splitting the key space (add_del_on_diff_cpu)
 *                                                                    getpgid /
 *                                                                    getppid
 *
 * The runner attaches at the syscall tracepoints; raw_tp/sys_enter, which
 * compares the syscall number first, is the fallback where tracefs is
 * missing. User space loads only the programs of the chosen use case.
 */
#include "benchcore.bpf.h"
#include "bc_syscall.bpf.h"
#include "htab_mem_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Value size, entries and (for --preallocated) flags set by user space. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, HTAB_MEM_MIN_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} htab SEC(".maps");

const volatile __u32 nr_thread = 1;
const volatile long getpgid_nr = -1;
const volatile long getppid_nr = -1;

unsigned char zeroed_value[HTAB_MEM_MAX_VALUE];
/* One shared counter, as the runner's: its cache line moving between CPUs
 * once per batch is part of what the runner measures. */
long op_cnt;

struct update_ctx {
	unsigned int from;
	unsigned int step;
};

static __always_inline int write_htab(struct update_ctx *uc, __u64 flags)
{
	bpf_map_update_elem(&htab, &uc->from, zeroed_value, flags);
	uc->from += uc->step;
	return 0;
}

static int overwrite_one(__u32 i, struct update_ctx *uc)
{
	return write_htab(uc, BPF_ANY);
}

static int add_one(__u32 i, struct update_ctx *uc)
{
	return write_htab(uc, BPF_NOEXIST);
}

static int del_one(__u32 i, struct update_ctx *uc)
{
	bpf_map_delete_elem(&htab, &uc->from);
	uc->from += uc->step;
	return 0;
}

static __always_inline int do_overwrite(void)
{
	struct update_ctx uc;

	if (!bc_own_process())
		return 0;
	uc.from = bpf_get_smp_processor_id();
	uc.step = nr_thread;
	bpf_loop(HTAB_MEM_BATCH, overwrite_one, &uc, 0);
	__sync_fetch_and_add(&op_cnt, 1);
	return 0;
}

static __always_inline int do_batch_add_batch_del(void)
{
	struct update_ctx uc;

	if (!bc_own_process())
		return 0;
	uc.from = bpf_get_smp_processor_id();
	uc.step = nr_thread;
	bpf_loop(HTAB_MEM_BATCH, overwrite_one, &uc, 0);
	uc.from = bpf_get_smp_processor_id();
	bpf_loop(HTAB_MEM_BATCH, del_one, &uc, 0);
	__sync_fetch_and_add(&op_cnt, 2);
	return 0;
}

static __always_inline int do_add_only(void)
{
	struct update_ctx uc;

	if (!bc_own_process())
		return 0;
	uc.from = bpf_get_smp_processor_id() / 2;
	uc.step = nr_thread / 2;
	bpf_loop(HTAB_MEM_BATCH, add_one, &uc, 0);
	__sync_fetch_and_add(&op_cnt, 1);
	return 0;
}

static __always_inline int do_del_only(void)
{
	struct update_ctx uc;

	if (!bc_own_process())
		return 0;
	uc.from = bpf_get_smp_processor_id() / 2;
	uc.step = nr_thread / 2;
	bpf_loop(HTAB_MEM_BATCH, del_one, &uc, 0);
	__sync_fetch_and_add(&op_cnt, 1);
	return 0;
}

BC_SYSCALL_TP_PROGS(overwrite, getpgid, getpgid_nr, do_overwrite)
BC_SYSCALL_TP_PROGS(batch_add_batch_del, getpgid, getpgid_nr, do_batch_add_batch_del)
BC_SYSCALL_TP_PROGS(add_only, getpgid, getpgid_nr, do_add_only)
BC_SYSCALL_TP_PROGS(del_only, getppid, getppid_nr, do_del_only)
