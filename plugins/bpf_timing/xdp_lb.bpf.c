// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xdp-lb: a Katran-style layer-4 load balancer, timed per packet by the
 * batch loop of bt_timing.bpf.h and driven by BPF_PROG_TEST_RUN with one
 * packet that user space built for the scenario.
 *
 * Per packet: parse Ethernet, IPv4/IPv6 and the TCP/UDP ports; look the
 * VIP up; find the real server in this CPU's LRU connection table, or else
 * on the VIP's consistent-hash ring (and remember it, unless the VIP
 * bypasses the LRU, the packet is a RST or new connections come too fast);
 * count; encapsulate toward the real (IPIP, IP6IP6 or IPv4 in IPv6) and
 * return XDP_TX. Anything else is XDP_PASS (not ours) or XDP_DROP
 * (fragments, IP options, malformed).
 *
 * Between timed iterations the loop strips the encapsulation again, so that
 * every iteration sees the client's packet; scenarios with many flows also
 * rewrite its source address from a per-run random sequence, and "cold"
 * scenarios change it every run so the LRU keeps missing.
 */
#include "benchcore.bpf.h"
#include <bpf/bpf_endian.h>

#include "bt_timing.bpf.h"
#include "xdp_lb_common.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD
#define IPPROTO_FRAGMENT 44

/* Where the source address sits in each IP header. Plain numbers, not
 * offsetof(): vmlinux.h's types carry preserve_access_index, and clang
 * turns offsetof() on them into a relocated load through address 0. */
#define LB_IP4_SADDR_OFF 12
#define LB_IP6_SADDR_OFF 8

/* Scenario switches, set by user space after validation. */
volatile __u32 flow_mask;	/* non-zero: random sources, masked */
volatile __u32 cold_lru;	/* non-zero: a new source every run */
__u32 batch_gen;

/* ------------------------------------------------------------------ maps */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct lb_vip_definition);
	__type(value, struct lb_vip_meta);
} lb_vips SEC(".maps");

struct lb_lru_inner {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct lb_flow_key);
	__type(value, struct lb_real_pos_lru);
	__uint(max_entries, LB_LRU_SIZE);
};

/* The inner map's key and value are only named through a pointer, for
 * which clang emits a forward declaration in BTF, and libbpf then cannot
 * size them: these two unused globals make it emit the full types. */
struct lb_flow_key lb_btf_flow_key;
struct lb_real_pos_lru lb_btf_real_pos;

/* One LRU per CPU, created by user space (their count is the machine's). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, LB_LRU_CPUS);
	__array(values, struct lb_lru_inner);
} lb_lrus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LB_CH_RINGS_SIZE);
	__type(key, __u32);
	__type(value, __u32);
} lb_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LB_MAX_REALS);
	__type(key, __u32);
	__type(value, struct lb_real_definition);
} lb_reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LB_STATS_SIZE);
	__type(key, __u32);
	__type(value, struct lb_stats);
} lb_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LB_MAX_REALS);
	__type(key, __u32);
	__type(value, struct lb_stats);
} lb_real_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_ctl_value);
} lb_ctl SEC(".maps");

/* The one VIP whose LRU misses are counted per real. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_vip_definition);
} lb_miss_vip SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LB_MAX_REALS);
	__type(key, __u32);
	__type(value, __u32);
} lb_miss_counts SEC(".maps");

/* ---------------------------------------------------------------- jhash */

static __always_inline __u32 lb_rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> ((-s) & 31));
}

/* Bob Jenkins' lookup3 mixing, as the kernel's jhash.h has it. */
#define LB_JHASH_MIX(a, b, c)                                                    \
	do {                                                                     \
		a -= c; a ^= lb_rol32(c, 4);  c += b;                            \
		b -= a; b ^= lb_rol32(a, 6);  a += c;                            \
		c -= b; c ^= lb_rol32(b, 8);  b += a;                            \
		a -= c; a ^= lb_rol32(c, 16); c += b;                            \
		b -= a; b ^= lb_rol32(a, 19); a += c;                            \
		c -= b; c ^= lb_rol32(b, 4);  b += a;                            \
	} while (0)

#define LB_JHASH_FINAL(a, b, c)                                                  \
	do {                                                                     \
		c ^= b; c -= lb_rol32(b, 14);                                    \
		a ^= c; a -= lb_rol32(c, 11);                                    \
		b ^= a; b -= lb_rol32(a, 25);                                    \
		c ^= b; c -= lb_rol32(b, 16);                                    \
		a ^= c; a -= lb_rol32(c, 4);                                     \
		b ^= a; b -= lb_rol32(a, 14);                                    \
		c ^= b; c -= lb_rol32(b, 24);                                    \
	} while (0)

#define LB_JHASH_INITVAL 0xdeadbeef

static __always_inline __u32 lb_jhash_2words(__u32 a, __u32 b, __u32 initval)
{
	__u32 c;

	initval += LB_JHASH_INITVAL + (2 << 2);
	a += initval;
	b += initval;
	c = initval;
	LB_JHASH_FINAL(a, b, c);
	return c;
}

static __always_inline __u32 lb_jhash_4words(const __u32 *k, __u32 initval)
{
	__u32 a, b, c;

	a = b = c = LB_JHASH_INITVAL + (4 << 2) + initval;
	a += k[0];
	b += k[1];
	c += k[2];
	LB_JHASH_MIX(a, b, c);
	a += k[3];
	LB_JHASH_FINAL(a, b, c);
	return c;
}

/* ------------------------------------------------------------- helpers */

static __always_inline void lb_ipv4_csum(struct iphdr *iph)
{
	__u16 *w = (__u16 *)iph;
	__u32 sum = 0;

#pragma clang loop unroll(full)
	for (int i = 0; i < (int)(sizeof(*iph) / 2); i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	iph->check = ~sum;
}

/* Room for the outer header in front; the old Ethernet header is read
 * before the new IP header overwrites it (they overlap). */
static __always_inline int lb_encap_v4(struct xdp_md *xdp, __u32 saddr, __u32 daddr,
				       __u16 payload_len, const __u8 *dst_mac)
{
	struct ethhdr *new_eth, *old_eth;
	void *data, *data_end;
	struct iphdr *iph;

	if (bpf_xdp_adjust_head(xdp, -(int)sizeof(struct iphdr)))
		return -1;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;
	new_eth = data;
	iph = data + sizeof(struct ethhdr);
	old_eth = data + sizeof(struct iphdr);
	if ((void *)(new_eth + 1) > data_end || (void *)(old_eth + 1) > data_end ||
	    (void *)(iph + 1) > data_end)
		return -1;

	__builtin_memcpy(new_eth->h_source, old_eth->h_dest, sizeof(new_eth->h_source));
	__builtin_memcpy(new_eth->h_dest, dst_mac, sizeof(new_eth->h_dest));
	new_eth->h_proto = bpf_htons(ETH_P_IP);

	__builtin_memset(iph, 0, sizeof(*iph));
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->protocol = IPPROTO_IPIP;
	iph->tot_len = bpf_htons(payload_len + sizeof(*iph));
	iph->ttl = 64;
	iph->saddr = saddr;
	iph->daddr = daddr;
	lb_ipv4_csum(iph);
	return 0;
}

static __always_inline int lb_encap_v6(struct xdp_md *xdp, const __u32 saddr[4],
				       const __u32 daddr[4], __u8 nexthdr, __u16 payload_len,
				       const __u8 *dst_mac)
{
	struct ethhdr *new_eth, *old_eth;
	void *data, *data_end;
	struct ipv6hdr *ip6h;

	if (bpf_xdp_adjust_head(xdp, -(int)sizeof(struct ipv6hdr)))
		return -1;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;
	new_eth = data;
	ip6h = data + sizeof(struct ethhdr);
	old_eth = data + sizeof(struct ipv6hdr);
	if ((void *)(new_eth + 1) > data_end || (void *)(old_eth + 1) > data_end ||
	    (void *)(ip6h + 1) > data_end)
		return -1;

	__builtin_memcpy(new_eth->h_source, old_eth->h_dest, sizeof(new_eth->h_source));
	__builtin_memcpy(new_eth->h_dest, dst_mac, sizeof(new_eth->h_dest));
	new_eth->h_proto = bpf_htons(ETH_P_IPV6);

	__builtin_memset(ip6h, 0, sizeof(*ip6h));
	ip6h->version = 6;
	ip6h->nexthdr = nexthdr;
	ip6h->payload_len = bpf_htons(payload_len);
	ip6h->hop_limit = 64;
	__builtin_memcpy(&ip6h->saddr, saddr, sizeof(ip6h->saddr));
	__builtin_memcpy(&ip6h->daddr, daddr, sizeof(ip6h->daddr));
	return 0;
}

static __always_inline void lb_stats_add(void *map, __u32 key, __u16 bytes)
{
	struct lb_stats *st = bpf_map_lookup_elem(map, &key);

	if (st) {
		st->v1 += 1;
		st->v2 += bytes;
	}
}

static __always_inline void lb_count_action(int action)
{
	__u32 key = action == XDP_TX ? LB_STATS_XDP_TX :
		    action == XDP_PASS ? LB_STATS_XDP_PASS : LB_STATS_XDP_DROP;
	struct lb_stats *st = bpf_map_lookup_elem(&lb_counts, &key);

	if (st)
		st->v1 += 1;
}

/* More new connections per second than LB_MAX_CONN_RATE: stop adding
 * them to the LRU (never the case here, but its cost is on the path). */
static __always_inline bool lb_under_flood(void)
{
	__u32 key = LB_STATS_NEW_CONN;
	struct lb_stats *st = bpf_map_lookup_elem(&lb_counts, &key);
	__u64 now;

	if (!st)
		return true;
	now = bpf_ktime_get_ns();
	if (now - st->v2 > LB_ONE_SEC) {
		st->v1 = 1;
		st->v2 = now;
		return false;
	}
	st->v1 += 1;
	return st->v1 > LB_MAX_CONN_RATE;
}

static __always_inline struct lb_real_definition *
lb_lru_lookup(void *lru_map, struct lb_flow_key *flow, __u32 *pos)
{
	struct lb_real_pos_lru *hit = bpf_map_lookup_elem(lru_map, flow);
	__u32 key;

	if (!hit)
		return NULL;
	/* UDP has no FIN or RST: its entries age out instead. */
	if (flow->proto == IPPROTO_UDP) {
		__u64 now = bpf_ktime_get_ns();

		if (now - hit->atime > LB_UDP_TIMEOUT)
			return NULL;
		hit->atime = now;
	}
	key = hit->pos;
	*pos = key;
	return bpf_map_lookup_elem(&lb_reals, &key);
}

static __always_inline struct lb_real_definition *
lb_ring_lookup(struct lb_flow_key *flow, struct lb_vip_meta *vip, bool is_v6, void *lru_map,
	       bool is_rst, __u32 *pos)
{
	struct lb_real_definition *real;
	bool flood = lb_under_flood();
	__u32 hash, key, *slot;

	if (is_v6)
		hash = lb_jhash_2words(lb_jhash_4words(flow->srcv6, LB_MAX_VIPS), flow->ports,
				       LB_CH_RING_SIZE);
	else
		hash = lb_jhash_2words(flow->src, flow->ports, LB_CH_RING_SIZE);
	key = LB_CH_RING_SIZE * vip->vip_num + hash % LB_CH_RING_SIZE;
	slot = bpf_map_lookup_elem(&lb_ring, &key);
	if (!slot)
		return NULL;
	key = *slot;
	real = bpf_map_lookup_elem(&lb_reals, &key);
	if (!real)
		return NULL;
	if (!(vip->flags & LB_F_LRU_BYPASS) && !flood && !is_rst) {
		struct lb_real_pos_lru entry = { .pos = key };

		if (flow->proto == IPPROTO_UDP)
			entry.atime = bpf_ktime_get_ns();
		bpf_map_update_elem(lru_map, flow, &entry, BPF_ANY);
	}
	*pos = key;
	return real;
}

static __always_inline void lb_count_vip_miss(struct lb_vip_definition *vip, bool is_v6,
					      __u32 real_pos)
{
	struct lb_vip_definition *watched;
	__u32 key = 0, *cnt;

	watched = bpf_map_lookup_elem(&lb_miss_vip, &key);
	if (!watched)
		return;
	if (is_v6) {
		if (watched->vipv6[0] != vip->vipv6[0] || watched->vipv6[1] != vip->vipv6[1] ||
		    watched->vipv6[2] != vip->vipv6[2] || watched->vipv6[3] != vip->vipv6[3])
			return;
	} else if (watched->vip != vip->vip) {
		return;
	}
	if (watched->port != vip->port || watched->proto != vip->proto)
		return;
	cnt = bpf_map_lookup_elem(&lb_miss_counts, &real_pos);
	if (cnt)
		*cnt += 1;
}

/* --------------------------------------------------------- one packet */

static __noinline int lb_process(struct xdp_md *xdp)
{
	void *data = (void *)(long)xdp->data;
	void *data_end = (void *)(long)xdp->data_end;
	struct lb_vip_definition vip_def = {};
	struct lb_real_definition *dst = NULL;
	struct lb_flow_key flow = {};
	struct ethhdr *eth = data;
	struct lb_vip_meta *vip;
	struct lb_stats *lru_st;
	struct lb_ctl_value *cval;
	__u32 real_pos = 0, cpu, key, tnl_src[4];
	bool is_v6, is_syn = false, is_rst = false;
	int action = XDP_DROP;
	__u16 payload_len;
	struct udphdr *uh;
	void *lru_map;
	void *l4;
	__u8 proto;

	if ((void *)(eth + 1) > data_end)
		goto out;
	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		is_v6 = true;
	} else if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		is_v6 = false;
	} else {
		action = XDP_PASS;
		goto out;
	}

	if (is_v6) {
		struct ipv6hdr *ip6h = (void *)(eth + 1);

		if ((void *)(ip6h + 1) > data_end || ip6h->nexthdr == IPPROTO_FRAGMENT)
			goto out;
		payload_len = sizeof(struct ipv6hdr) + bpf_ntohs(ip6h->payload_len);
		proto = ip6h->nexthdr;
		__builtin_memcpy(flow.srcv6, &ip6h->saddr, sizeof(flow.srcv6));
		__builtin_memcpy(flow.dstv6, &ip6h->daddr, sizeof(flow.dstv6));
		__builtin_memcpy(vip_def.vipv6, &ip6h->daddr, sizeof(vip_def.vipv6));
		l4 = ip6h + 1;
	} else {
		struct iphdr *iph = (void *)(eth + 1);

		if ((void *)(iph + 1) > data_end || iph->ihl != 5 ||
		    (iph->frag_off & bpf_htons(LB_PCKT_FRAGMENTED)))
			goto out;
		payload_len = bpf_ntohs(iph->tot_len);
		proto = iph->protocol;
		flow.src = iph->saddr;
		flow.dst = iph->daddr;
		vip_def.vip = iph->daddr;
		l4 = iph + 1;
	}

	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP) {
		action = XDP_PASS;
		goto out;
	}
	/* TCP and UDP both start with the two ports. */
	uh = l4;
	if ((void *)(uh + 1) > data_end)
		goto out;
	flow.port16[0] = uh->source;
	flow.port16[1] = uh->dest;
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = l4;

		if ((void *)(th + 1) > data_end)
			goto out;
		is_syn = th->syn;
		is_rst = th->rst;
	}
	flow.proto = proto;
	vip_def.port = flow.port16[1];
	vip_def.proto = proto;

	vip = bpf_map_lookup_elem(&lb_vips, &vip_def);
	if (!vip) {
		action = XDP_PASS;
		goto out;
	}

	key = LB_STATS_LRU;
	lru_st = bpf_map_lookup_elem(&lb_counts, &key);
	if (!lru_st)
		goto out;
	lru_st->v1 += 1;

	cpu = bpf_get_smp_processor_id();
	lru_map = bpf_map_lookup_elem(&lb_lrus, &cpu);
	if (!lru_map)
		goto out;

	/* A SYN starts a connection: never in the table yet. */
	if (!(vip->flags & LB_F_LRU_BYPASS) && !is_syn)
		dst = lb_lru_lookup(lru_map, &flow, &real_pos);
	if (!dst) {
		if (flow.proto == IPPROTO_TCP) {
			struct lb_stats *miss;

			key = LB_STATS_LRU_MISS;
			miss = bpf_map_lookup_elem(&lb_counts, &key);
			if (miss)
				miss->v1 += 1;
		}
		dst = lb_ring_lookup(&flow, vip, is_v6, lru_map, is_rst, &real_pos);
		if (!dst)
			goto out;
		lb_count_vip_miss(&vip_def, is_v6, real_pos);
		lru_st->v2 += 1;
	}

	key = 0;
	cval = bpf_map_lookup_elem(&lb_ctl, &key);
	if (!cval)
		goto out;
	lb_stats_add(&lb_counts, vip->vip_num, payload_len);
	lb_stats_add(&lb_real_counts, real_pos, payload_len);

	if (is_v6) {
		lb_encap_v6_src(flow.port16[0], flow.srcv6[0], tnl_src);
		if (lb_encap_v6(xdp, tnl_src, dst->dstv6, IPPROTO_IPV6, payload_len, cval->mac))
			goto out;
	} else if (dst->flags & LB_F_IPV6) {
		lb_encap_v6_src(flow.port16[0], flow.src, tnl_src);
		if (lb_encap_v6(xdp, tnl_src, dst->dstv6, IPPROTO_IPIP, payload_len, cval->mac))
			goto out;
	} else {
		if (lb_encap_v4(xdp, lb_encap_v4_src(flow.port16[0], flow.src), dst->dst,
				payload_len, cval->mac))
			goto out;
	}
	action = XDP_TX;
out:
	lb_count_action(action);
	return action;
}

/* ------------------------------------------------------- the timed loop */

/* Back to the client's packet: drop the outer header, restore Ethernet. */
static __always_inline int lb_strip_encap(struct xdp_md *xdp, const struct ethhdr *saved)
{
	void *data = (void *)(long)xdp->data;
	void *data_end = (void *)(long)xdp->data_end;
	struct ethhdr *eth = data;
	int outer;

	if ((void *)(eth + 1) > data_end)
		return -1;
	outer = eth->h_proto == bpf_htons(ETH_P_IPV6) ? (int)sizeof(struct ipv6hdr) :
							  (int)sizeof(struct iphdr);
	if (bpf_xdp_adjust_head(xdp, outer))
		return -1;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth, saved, sizeof(*saved));
	return 0;
}

/* The next source address of a diverse-flow scenario (xorshift32). */
static __always_inline void lb_next_src(struct xdp_md *xdp, int saddr_off, __u32 *state)
{
	void *data = (void *)(long)xdp->data;
	void *data_end = (void *)(long)xdp->data_end;
	__u32 *saddr = data + saddr_off;

	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	if ((void *)(saddr + 1) <= data_end)
		*saddr = *state & flow_mask;
}

/* Flips the source address by this run's value, so that it differs from
 * every earlier run's (and flips it back after each iteration). */
static __always_inline void lb_flip_src(struct xdp_md *xdp, int saddr_off, __u32 flip)
{
	void *data = (void *)(long)xdp->data;
	void *data_end = (void *)(long)xdp->data_end;
	__u32 *saddr = data + saddr_off;

	if ((void *)(saddr + 1) <= data_end)
		*saddr ^= flip;
}

SEC("xdp")
int bt_xdp_lb(struct xdp_md *xdp)
{
	void *data = (void *)(long)xdp->data;
	void *data_end = (void *)(long)xdp->data_end;
	struct ethhdr *eth = data;
	__u32 rand_state = 0, flip = 0;
	struct ethhdr saved;
	int saddr_off;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(&saved, eth, sizeof(saved));
	saddr_off = sizeof(struct ethhdr) +
		    (saved.h_proto == bpf_htons(ETH_P_IPV6) ? LB_IP6_SADDR_OFF : LB_IP4_SADDR_OFF);
	if (flow_mask)
		rand_state = bpf_get_prandom_u32() | 1;
	if (cold_lru) {
		batch_gen++;
		flip = (batch_gen + bpf_get_smp_processor_id()) * LB_KNUTH_MULT;
		lb_flip_src(xdp, saddr_off, flip);
	}

	return BT_TIMED_LOOP(lb_process(xdp), ({
		if (__bt_result == XDP_TX) {
			if (lb_strip_encap(xdp, &saved))
				return XDP_DROP;
			if (rand_state)
				lb_next_src(xdp, saddr_off, &rand_state);
		}
		if (flip)
			lb_flip_src(xdp, saddr_off, flip);
	}));
}
