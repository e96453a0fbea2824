/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The xdp-lb load balancer's tables and constants, shared by its BPF
 * program and by user space, which fills the tables and predicts the
 * packets the program must produce. Katran's design, as the kernel
 * runner's benchmark models it: a VIP table, a consistent-hash ring per
 * VIP, a per-CPU LRU connection table, IPIP / IP6IP6 encapsulation toward
 * the chosen real server.
 */
#ifndef BENCHCORE_XDP_LB_COMMON_H
#define BENCHCORE_XDP_LB_COMMON_H

#define LB_F_IPV6 (1u << 0)		/* real_definition: IPv6 tunnel */
#define LB_F_LRU_BYPASS (1u << 1)	/* vip_meta: never use the LRU */

#define LB_CH_RING_SIZE 65537u		/* slots of each VIP's hash ring (a prime) */
#define LB_MAX_VIPS 16u
#define LB_CH_RINGS_SIZE (LB_MAX_VIPS * LB_CH_RING_SIZE)
#define LB_MAX_REALS 512u
#define LB_LRU_SIZE 100000u		/* connections per CPU's table */
#define LB_LRU_CPUS 256u		/* slots of the per-CPU table array */
#define LB_ONE_SEC 1000000000ull
#define LB_MAX_CONN_RATE 100000000ull	/* never reached: no flood mode here */
#define LB_UDP_TIMEOUT 30000000000ull	/* a UDP flow's LRU entry ages out */
#define LB_PCKT_FRAGMENTED 0x3FFFu	/* MF flag and fragment offset */
#define LB_KNUTH_MULT 2654435761u
#define LB_IPIP_V4_PREFIX 4268u		/* 172.16/12, network order */
#define LB_IPIP_V6_PREFIX1 1u		/* 0100::/64, RFC 6666 discard */

/* Indices in the stats array; 0..LB_MAX_VIPS-1 are per VIP. */
#define LB_STATS_LRU (LB_MAX_VIPS + 0)		/* v1: VIP packets, v2: LRU misses */
#define LB_STATS_XDP_TX (LB_MAX_VIPS + 1)
#define LB_STATS_XDP_PASS (LB_MAX_VIPS + 2)
#define LB_STATS_XDP_DROP (LB_MAX_VIPS + 3)
#define LB_STATS_NEW_CONN (LB_MAX_VIPS + 4)	/* v1: count, v2: window start */
#define LB_STATS_LRU_MISS (LB_MAX_VIPS + 5)	/* v1: TCP LRU misses */
#define LB_STATS_SIZE (LB_MAX_VIPS + 6)

struct lb_flow_key {
	union {
		__u32 src;
		__u32 srcv6[4];
	};
	union {
		__u32 dst;
		__u32 dstv6[4];
	};
	union {
		__u32 ports;
		__u16 port16[2];
	};
	__u8 proto;
	__u8 pad[3];
};

struct lb_vip_definition {
	union {
		__u32 vip;
		__u32 vipv6[4];
	};
	__u16 port;
	__u8 proto;
	__u8 pad;
};

struct lb_vip_meta {
	__u32 flags;
	__u32 vip_num;
};

struct lb_real_pos_lru {
	__u32 pos;
	__u64 atime;
};

struct lb_real_definition {
	__u32 dst;
	__u32 dstv6[4];
	__u8 flags;
};

struct lb_stats {
	__u64 v1;
	__u64 v2;
};

struct lb_ctl_value {
	__u8 mac[6];
	__u8 pad[2];
};

/* htons() for both halves: the BPF side has no libc. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define lb_htons(x) ((__u16)__builtin_bswap16(x))
#else
#define lb_htons(x) ((__u16)(x))
#endif

/*
 * The outer source addresses carry the flow (source port and address
 * bits), so that the real server's NIC spreads tunnelled flows over its
 * queues. `port` is the source port as it sits in the packet and `src`
 * the client address, network order; Katran swaps the port once more,
 * and so does this, so that the address matches what it produces.
 */
static inline __u32 lb_encap_v4_src(__u16 port, __u32 src)
{
	__u32 suffix = (__u32)lb_htons(port) << 16;

	return (0xFFFF0000u & (suffix ^ src)) | LB_IPIP_V4_PREFIX;
}

static inline void lb_encap_v6_src(__u16 port, __u32 src, __u32 *saddr)
{
	saddr[0] = LB_IPIP_V6_PREFIX1;
	saddr[1] = 0;
	saddr[2] = 0;
	saddr[3] = src ^ port;
}

#endif /* BENCHCORE_XDP_LB_COMMON_H */
