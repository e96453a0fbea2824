// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sockmap benchmark's programs: stream parser and verdict programs for
 * the receive side (sk_skb) and message verdict programs for the send side
 * (sk_msg). The verdict programs redirect to the socket at key 1 of their
 * map, toward its egress or (BPF_F_INGRESS) its receive queue; the pass
 * programs let the data through. Every byte a program sees is counted.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#ifndef SK_PASS
#define SK_PASS 1
#define SK_DROP 0
#endif

/* Set by user space before it attaches the programs. */
int verdict_dir;	/* 0: egress of the target socket, BPF_F_INGRESS: its receive queue */
int pkt_size;		/* the stream parser's message size */

BC_CPU_SLOTS(process_bytes);	/* bytes the programs saw */
BC_CPU_SLOTS(dropped);		/* redirects the kernel refused */

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 20);
	__type(key, int);
	__type(value, int);
} sock_map_rx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 20);
	__type(key, int);
	__type(value, int);
} sock_map_tx SEC(".maps");

SEC("sk_skb/stream_parser")
int sm_skb_parser(struct __sk_buff *skb)
{
	return pkt_size;
}

SEC("sk_skb/stream_verdict")
int sm_skb_verdict(struct __sk_buff *skb)
{
	long ret = bpf_sk_redirect_map(skb, &sock_map_rx, 1, verdict_dir);

	if (ret == SK_DROP)
		bc_slot_add(dropped, 1);
	bc_slot_add(process_bytes, skb->len);
	return ret;
}

SEC("sk_skb/stream_verdict")
int sm_skb_pass(struct __sk_buff *skb)
{
	bc_slot_add(process_bytes, skb->len);
	return SK_PASS;
}

SEC("sk_msg")
int sm_msg_verdict(struct sk_msg_md *msg)
{
	bc_slot_add(process_bytes, msg->size);
	return bpf_msg_redirect_map(msg, &sock_map_tx, 1, verdict_dir);
}

SEC("sk_msg")
int sm_msg_pass(struct sk_msg_md *msg)
{
	bc_slot_add(process_bytes, msg->size);
	return SK_PASS;
}
