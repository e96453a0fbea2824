// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Cost of creating local storage: one task-storage (or socket-storage)
 * element per new thread (or socket) of the benchmark's process, and the
 * kmalloc() calls of the whole machine meanwhile (the kernel runner's
 * count), with those made while a creation is in progress counted apart.
 */
#include "benchcore.bpf.h"
#include "ls_common.h"

#ifndef BPF_LOCAL_STORAGE_GET_F_CREATE
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct ls_value {
	__u8 data[LS_CREATE_VALUE_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ls_value);
} ls_task_store SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ls_value);
} ls_sk_store SEC(".maps");

/* Non-zero on a CPU while that CPU is inside a storage get with F_CREATE:
 * kmallocs made then are the creation's own, not those of thread or socket
 * setup around it or of the neighbours. The programs run with migration
 * disabled, so the CPU cannot change under us. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} ls_in_create SEC(".maps");

__u64 creates;
__u64 create_errs;
__u64 kmallocs;
__u64 create_kmallocs;

static __always_inline void set_in_create(__u32 on)
{
	__u32 zero = 0, *flag;

	flag = bpf_map_lookup_elem(&ls_in_create, &zero);
	if (flag)
		*flag = on;
}

static __always_inline void count(const void *stg)
{
	if (stg)
		__sync_fetch_and_add(&creates, 1);
	else
		__sync_fetch_and_add(&create_errs, 1);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(ls_task_create, struct task_struct *parent, struct task_struct *child)
{
	void *stg;

	/* New threads of this process: their parent is one of ours. */
	if (parent->tgid != bc_tgid)
		return 0;
	set_in_create(1);
	stg = bpf_task_storage_get(&ls_task_store, child, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	set_in_create(0);
	count(stg);
	return 0;
}

SEC("lsm.s/socket_post_create")
int BPF_PROG(ls_sk_create, struct socket *sock, int family, int type, int protocol, int kern)
{
	struct sock *sk = sock->sk;
	void *stg;

	/* 6.12's verifier types sock->sk here as possibly NULL and refuses
	 * it to bpf_sk_storage_get() (EACCES) unless checked. */
	if (!sk || !bc_own_process())
		return 0;
	set_in_create(1);
	stg = bpf_sk_storage_get(&ls_sk_store, sk, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	set_in_create(0);
	count(stg);
	return 0;
}

SEC("raw_tp/kmalloc")
int ls_kmalloc(void *ctx)
{
	__u32 zero = 0, *flag;

	/* Every kmalloc on the machine, as the runner counts. */
	__sync_fetch_and_add(&kmallocs, 1);
	flag = bpf_map_lookup_elem(&ls_in_create, &zero);
	if (flag && *flag)
		__sync_fetch_and_add(&create_kmallocs, 1);
	return 0;
}
