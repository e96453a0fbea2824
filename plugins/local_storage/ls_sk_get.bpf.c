// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sk-storage-get: the cost of bpf_sk_storage_get() on a socket that has
 * its storage already, in one of two ways (user space loads one program):
 *
 * ls_sk_get (--sk-mode getsockopt, the default): each
 * getsockopt(LS_SK_LEVEL, LS_SK_OPTNAME) of the benchmark's one socket
 * makes LS_SK_GETS_PER_CALL gets with F_CREATE (the first call creates the
 * element, every later get finds it), as the series' first revision does:
 * one hot socket.
 *
 * ls_sk_iter (--sk-mode iter-tcp, the later revision): a bpf_iter/tcp pass
 * visits every TCP socket of the network namespace (user space made
 * --nr-socks listeners) and gets each one's storage once, bumping its
 * value: a different, cold socket every get.
 */
#include "benchcore.bpf.h"
#include "ls_common.h"

#ifndef BPF_LOCAL_STORAGE_GET_F_CREATE
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct ls_sk_val {
	__u64 cnt;
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ls_sk_val);
} ls_sk_stg SEC(".maps");

__u64 hits;

SEC("cgroup/getsockopt")
int ls_sk_get(struct bpf_sockopt *ctx)
{
	struct ls_sk_val *v = NULL;
	int i;

	/* Attached to a whole cgroup: every other getsockopt() there must
	 * pass through untouched (the runner's program answers them all). */
	if (ctx->level != LS_SK_LEVEL || ctx->optname != LS_SK_OPTNAME)
		return 1;
	for (i = 0; i < LS_SK_GETS_PER_CALL; i++) {
		v = bpf_sk_storage_get(&ls_sk_stg, ctx->sk, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!v)
			break;
	}
	if (v)
		__sync_fetch_and_add(&hits, LS_SK_GETS_PER_CALL);
	/* The level is no protocol's: answer "done" instead of its error. */
	ctx->retval = 0;
	return 1;
}

SEC("iter/tcp")
int ls_sk_iter(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	struct ls_sk_val *v;

	if (!skc)
		return 0;
	v = bpf_sk_storage_get(&ls_sk_stg, skc, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (v) {
		/* The value's line is part of what a cold get costs. */
		v->cnt++;
		__sync_fetch_and_add(&hits, 1);
	}
	return 0;
}
