// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * xdp-lb: the kernel runner's XDP load-balancer benchmark. Each scenario
 * is one packet and one state of the balancer's tables (--scenario); the
 * producers run the XDP program on that packet with BPF_PROG_TEST_RUN and
 * the program times a calibrated batch of iterations of the whole packet
 * path (parse, VIP and LRU lookups or the hash ring, counters,
 * encapsulation, and back).
 *
 * Before timing, setup checks that the program does what the scenario
 * says: the verdict, the exact output packet (outer headers included) and
 * the balancer's own counters for one run. A run whose check fails is a
 * failure, not a number.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "bt_internal.h"
#include "xdp_lb_common.h"
#include "xdp_lb.skel.h"

#ifndef XDP_DROP
#define XDP_DROP 1
#define XDP_PASS 2
#define XDP_TX 3
#endif

#define IP4(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (d))

#define LB_TNL_DST IP4(192, 168, 1, 2)
#define LB_REAL_V4 1		/* reals[]: IPv4 tunnel (with an IPv6 address too) */
#define LB_REAL_V6 2		/* reals[]: IPv6 tunnel */
#define LB_MAX_PKT 256
#define LB_MAX_OUT (LB_MAX_PKT + sizeof(struct ipv6hdr))
#define LB_IP_MF 0x2000

static const uint32_t lb_tnl_dst_v6[4] = { 0xfd000000, 0, 0, 2 };
static const uint8_t lb_mac[ETH_ALEN] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
static const uint8_t lb_client_mac[ETH_ALEN] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
static const uint8_t lb_router_mac[ETH_ALEN] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01 };
static const char lb_payload[16] = "bench___payload!";

/* LRU misses one validation run must count (it runs batch + 1 packets). */
enum lb_misses {
	LB_MISS_NONE,		/* every lookup hits */
	LB_MISS_ALL,		/* every packet misses */
	LB_MISS_FIRST,		/* the first misses, the rest hit */
};

struct lb_scenario {
	const char *name;
	const char *description;
	int verdict;
	bool encap;		/* XDP_TX through a tunnel */
	bool v6;		/* the client's packet is IPv6 */
	bool outer_v6;		/* the tunnel is IPv6 */
	uint32_t vip, src;	/* IPv4, host order */
	uint32_t vip6[4], src6[4];
	uint32_t tnl_dst;
	uint16_t dport, sport;
	uint8_t proto;
	uint16_t eth_proto;	/* 0: from v6 */
	uint32_t vip_flags, vip_num;
	bool prepopulate;	/* the flow is in every CPU's LRU beforehand */
	bool frag, ip_options, syn, rst;
	uint32_t flow_mask;	/* random sources below this mask while timed */
	bool cold;		/* a new source every run */
	uint32_t fixed_batch;	/* 0: calibrate */
	enum lb_misses misses;
};

#define V4_ENCAP .verdict = XDP_TX, .encap = true, .tnl_dst = LB_TNL_DST
#define V6_ENCAP .verdict = XDP_TX, .encap = true, .v6 = true, .outer_v6 = true
#define V4V6_ENCAP .verdict = XDP_TX, .encap = true, .outer_v6 = true
#define V6(a, b, c, d) { a, b, c, d }

/* The runner's 24 scenarios, in its order (the --scenario words). */
static const struct lb_scenario lb_scenarios[] = {
	/* single flow */
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-lru-hit",
	  .description = "IPv4 TCP, LRU hit, IPIP encap",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 2, 1), .sport = 12345,
	  .prepopulate = true, .misses = LB_MISS_NONE },
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-ch",
	  .description = "IPv4 TCP, CH (LRU bypass), IPIP encap",
	  .vip = IP4(10, 10, 1, 2), .dport = 80, .src = IP4(10, 10, 2, 2), .sport = 54321,
	  .vip_flags = LB_F_LRU_BYPASS, .vip_num = 1, .misses = LB_MISS_ALL },
	{ V6_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v6-lru-hit",
	  .description = "IPv6 TCP, LRU hit, IP6IP6 encap",
	  .vip6 = V6(0xfd000100, 0, 0, 1), .dport = 80, .src6 = V6(0xfd000200, 0, 0, 1),
	  .sport = 12345, .vip_num = 10, .prepopulate = true, .misses = LB_MISS_NONE },
	{ V6_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v6-ch",
	  .description = "IPv6 TCP, CH (LRU bypass), IP6IP6 encap",
	  .vip6 = V6(0xfd000100, 0, 0, 2), .dport = 80, .src6 = V6(0xfd000200, 0, 0, 2),
	  .sport = 54321, .vip_flags = LB_F_LRU_BYPASS, .vip_num = 12, .misses = LB_MISS_ALL },
	{ V4_ENCAP, .proto = IPPROTO_UDP, .name = "udp-v4-lru-hit",
	  .description = "IPv4 UDP, LRU hit, IPIP encap",
	  .vip = IP4(10, 10, 1, 1), .dport = 443, .src = IP4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .prepopulate = true, .misses = LB_MISS_NONE },
	{ V6_ENCAP, .proto = IPPROTO_UDP, .name = "udp-v6-lru-hit",
	  .description = "IPv6 UDP, LRU hit, IP6IP6 encap",
	  .vip6 = V6(0xfd000100, 0, 0, 1), .dport = 443, .src6 = V6(0xfd000200, 0, 0, 3),
	  .sport = 22222, .vip_num = 14, .prepopulate = true, .misses = LB_MISS_NONE },
	{ V4V6_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4v6-lru-hit",
	  .description = "IPv4 TCP, LRU hit, IPv4-in-IPv6 encap",
	  .vip = IP4(10, 10, 1, 4), .dport = 80, .src = IP4(10, 10, 2, 4), .sport = 12347,
	  .vip_num = 13, .prepopulate = true, .misses = LB_MISS_NONE },
	/* diverse flows: 4096 sources */
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-lru-diverse",
	  .description = "IPv4 TCP, diverse flows, warm LRU",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 2, 1), .sport = 12345,
	  .prepopulate = true, .flow_mask = 0xFFF, .misses = LB_MISS_NONE },
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-ch-diverse",
	  .description = "IPv4 TCP, diverse flows, CH (LRU bypass)",
	  .vip = IP4(10, 10, 1, 2), .dport = 80, .src = IP4(10, 10, 2, 2), .sport = 54321,
	  .vip_flags = LB_F_LRU_BYPASS, .vip_num = 1, .flow_mask = 0xFFF,
	  .misses = LB_MISS_ALL },
	{ V6_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v6-lru-diverse",
	  .description = "IPv6 TCP, diverse flows, warm LRU",
	  .vip6 = V6(0xfd000100, 0, 0, 1), .dport = 80, .src6 = V6(0xfd000200, 0, 0, 1),
	  .sport = 12345, .vip_num = 10, .prepopulate = true, .flow_mask = 0xFFF,
	  .misses = LB_MISS_NONE },
	{ V6_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v6-ch-diverse",
	  .description = "IPv6 TCP, diverse flows, CH (LRU bypass)",
	  .vip6 = V6(0xfd000100, 0, 0, 2), .dport = 80, .src6 = V6(0xfd000200, 0, 0, 2),
	  .sport = 54321, .vip_flags = LB_F_LRU_BYPASS, .vip_num = 12, .flow_mask = 0xFFF,
	  .misses = LB_MISS_ALL },
	{ V4_ENCAP, .proto = IPPROTO_UDP, .name = "udp-v4-lru-diverse",
	  .description = "IPv4 UDP, diverse flows, warm LRU",
	  .vip = IP4(10, 10, 1, 1), .dport = 443, .src = IP4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .prepopulate = true, .flow_mask = 0xFFF, .misses = LB_MISS_NONE },
	/* LRU stress */
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-lru-miss",
	  .description = "IPv4 TCP, LRU miss (16M flow space), CH lookup",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 2, 1), .sport = 12345,
	  .flow_mask = 0xFFFFFF, .cold = true, .misses = LB_MISS_FIRST },
	{ V4_ENCAP, .proto = IPPROTO_UDP, .name = "udp-v4-lru-miss",
	  .description = "IPv4 UDP, LRU miss (16M flow space), CH lookup",
	  .vip = IP4(10, 10, 1, 1), .dport = 443, .src = IP4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .flow_mask = 0xFFFFFF, .cold = true, .misses = LB_MISS_FIRST },
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-lru-warmup",
	  .description = "IPv4 TCP, 4K flows, ~50% LRU miss",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 2, 1), .sport = 12345,
	  .flow_mask = 0xFFF, .cold = true, .fixed_batch = 6500, .misses = LB_MISS_FIRST },
	/* TCP flags */
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-syn",
	  .description = "IPv4 TCP SYN, skip LRU, CH + LRU insert",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 8, 2), .sport = 60001,
	  .syn = true, .misses = LB_MISS_ALL },
	{ V4_ENCAP, .proto = IPPROTO_TCP, .name = "tcp-v4-rst-miss",
	  .description = "IPv4 TCP RST, CH lookup, no LRU insert",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 8, 1), .sport = 60000,
	  .flow_mask = 0xFFFFFF, .cold = true, .rst = true, .misses = LB_MISS_ALL },
	/* early exits */
	{ .verdict = XDP_PASS, .proto = IPPROTO_TCP, .name = "pass-v4-no-vip",
	  .description = "IPv4 TCP, unknown VIP, XDP_PASS",
	  .vip = IP4(10, 10, 9, 9), .dport = 80, .src = IP4(10, 10, 4, 1), .sport = 33333 },
	{ .verdict = XDP_PASS, .v6 = true, .proto = IPPROTO_TCP, .name = "pass-v6-no-vip",
	  .description = "IPv6 TCP, unknown VIP, XDP_PASS",
	  .vip6 = V6(0xfd009900, 0, 0, 1), .dport = 80, .src6 = V6(0xfd000400, 0, 0, 1),
	  .sport = 33333 },
	{ .verdict = XDP_PASS, .proto = IPPROTO_ICMP, .name = "pass-v4-icmp",
	  .description = "IPv4 ICMP, non-TCP/UDP protocol, XDP_PASS",
	  .vip = IP4(10, 10, 1, 1), .src = IP4(10, 10, 6, 1) },
	{ .verdict = XDP_PASS, .eth_proto = ETH_P_ARP, .name = "pass-non-ip",
	  .description = "Non-IP (ARP), earliest XDP_PASS exit" },
	{ .verdict = XDP_DROP, .proto = IPPROTO_TCP, .name = "drop-v4-frag",
	  .description = "IPv4 fragmented, XDP_DROP",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 5, 1), .sport = 44444,
	  .frag = true },
	{ .verdict = XDP_DROP, .proto = IPPROTO_TCP, .name = "drop-v4-options",
	  .description = "IPv4 with IP options (ihl>5), XDP_DROP",
	  .vip = IP4(10, 10, 1, 1), .dport = 80, .src = IP4(10, 10, 7, 1), .sport = 55555,
	  .ip_options = true },
	{ .verdict = XDP_DROP, .v6 = true, .proto = IPPROTO_TCP, .name = "drop-v6-frag",
	  .description = "IPv6 fragment extension header, XDP_DROP",
	  .vip6 = V6(0xfd000100, 0, 0, 1), .dport = 80, .src6 = V6(0xfd000500, 0, 0, 1),
	  .sport = 44444, .frag = true },
};

#define LB_SCENARIO_CNT (sizeof(lb_scenarios) / sizeof(lb_scenarios[0]))

const char *const bt_xdp_lb_scenario_words[] = {
	"tcp-v4-lru-hit", "tcp-v4-ch", "tcp-v6-lru-hit", "tcp-v6-ch", "udp-v4-lru-hit",
	"udp-v6-lru-hit", "tcp-v4v6-lru-hit", "tcp-v4-lru-diverse", "tcp-v4-ch-diverse",
	"tcp-v6-lru-diverse", "tcp-v6-ch-diverse", "udp-v4-lru-diverse", "tcp-v4-lru-miss",
	"udp-v4-lru-miss", "tcp-v4-lru-warmup", "tcp-v4-syn", "tcp-v4-rst-miss",
	"pass-v4-no-vip", "pass-v6-no-vip", "pass-v4-icmp", "pass-non-ip", "drop-v4-frag",
	"drop-v4-options", "drop-v6-frag", NULL,
};

/* The option's words index lb_scenarios[]: both lists must agree. */
static int lb_check_words(struct bc_ctx *ctx)
{
	for (size_t i = 0; i < LB_SCENARIO_CNT; i++)
		if (!bt_xdp_lb_scenario_words[i] ||
		    strcmp(bt_xdp_lb_scenario_words[i], lb_scenarios[i].name))
			return bc_error(ctx, -EINVAL, "scenario %zu is %s, but --scenario calls "
					"it %s", i, lb_scenarios[i].name,
					bt_xdp_lb_scenario_words[i] ? bt_xdp_lb_scenario_words[i] :
								       "nothing");
	return 0;
}

static const struct lb_scenario *lb_scenario_named(const char *name)
{
	for (size_t i = 0; i < LB_SCENARIO_CNT; i++)
		if (!strcmp(lb_scenarios[i].name, name))
			return &lb_scenarios[i];
	return &lb_scenarios[0];
}

/* ------------------------------------------------------------ run state */

struct lb_state {
	const struct lb_scenario *sc;
	struct xdp_lb *skel;
	int prog_fd;
	struct bt_collect col;
	uint8_t pkt[LB_MAX_PKT];
	uint32_t pkt_len;
	uint8_t want[LB_MAX_OUT];
	uint32_t want_len;
	int *lru_fds;			/* per possible CPU, kept for prepopulation */
	int cpu_cnt;
	uint64_t base_packets;		/* what setup's own runs processed */
	/* --machine-readable: the core reads measure() once for a baseline,
	 * then once a second, the first warm_ticks of them warm-up; batches
	 * drained from the reading after those are kept for the RESULT line. */
	unsigned int readings, warm_ticks;
};

static void lb_close_lrus(struct lb_state *st)
{
	for (int i = 0; st->lru_fds && i < st->cpu_cnt; i++)
		if (st->lru_fds[i] >= 0)
			close(st->lru_fds[i]);
	free(st->lru_fds);
	st->lru_fds = NULL;
}

static void lb_state_free(struct lb_state *st)
{
	if (!st)
		return;
	lb_close_lrus(st);
	bt_collect_free(&st->col);
	xdp_lb__destroy(st->skel);
	free(st);
}

/* ------------------------------------------------------------- packets */

static void lb_put_v6(void *dst, const uint32_t a[4])
{
	uint32_t be[4];

	for (int i = 0; i < 4; i++)
		be[i] = htonl(a[i]);
	memcpy(dst, be, sizeof(be));
}

static uint16_t lb_ip_csum(const void *hdr, size_t len)
{
	const uint16_t *w = hdr;
	uint32_t sum = 0;

	for (size_t i = 0; i < len / 2; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void lb_put_l4(const struct lb_scenario *sc, uint8_t *p, uint32_t *off)
{
	if (sc->proto == IPPROTO_TCP) {
		struct tcphdr th = { 0 };

		th.source = htons(sc->sport);
		th.dest = htons(sc->dport);
		th.doff = 5;
		th.syn = sc->syn;
		th.rst = sc->rst;
		th.window = htons(8192);
		memcpy(p + *off, &th, sizeof(th));
		*off += sizeof(th);
	} else if (sc->proto == IPPROTO_UDP) {
		struct udphdr uh = { 0 };

		uh.source = htons(sc->sport);
		uh.dest = htons(sc->dport);
		uh.len = htons(sizeof(uh) + sizeof(lb_payload));
		memcpy(p + *off, &uh, sizeof(uh));
		*off += sizeof(uh);
	}
}

/* The client's packet of the scenario, as the runner builds it. */
static void lb_build_packet(struct lb_state *st)
{
	const struct lb_scenario *sc = st->sc;
	uint16_t proto = sc->eth_proto ? sc->eth_proto : sc->v6 ? ETH_P_IPV6 : ETH_P_IP;
	struct ethhdr eth;
	uint8_t *p = st->pkt;
	uint32_t off = 0;

	memcpy(eth.h_dest, lb_mac, ETH_ALEN);
	memcpy(eth.h_source, lb_client_mac, ETH_ALEN);
	eth.h_proto = htons(proto);
	memcpy(p, &eth, sizeof(eth));
	off = sizeof(eth);

	if (proto == ETH_P_IPV6) {
		struct ipv6hdr ip6 = { 0 };
		uint32_t ip_off = off;

		ip6.version = 6;
		ip6.nexthdr = sc->frag ? 44 : sc->proto;
		ip6.hop_limit = 64;
		lb_put_v6(&ip6.saddr, sc->src6);
		lb_put_v6(&ip6.daddr, sc->vip6);
		off += sizeof(ip6);
		if (sc->frag) {
			/* A fragment header: next header, then zeros. */
			memset(p + off, 0, 8);
			p[off] = sc->proto;
			off += 8;
		}
		lb_put_l4(sc, p, &off);
		memcpy(p + off, lb_payload, sizeof(lb_payload));
		off += sizeof(lb_payload);
		ip6.payload_len = htons(off - ip_off - sizeof(ip6));
		memcpy(p + ip_off, &ip6, sizeof(ip6));
	} else if (proto == ETH_P_IP) {
		struct iphdr ip = { 0 };
		uint32_t ip_off = off;

		ip.version = 4;
		ip.ihl = sc->ip_options ? 6 : 5;
		ip.ttl = 64;
		ip.protocol = sc->proto;
		ip.saddr = htonl(sc->src);
		ip.daddr = htonl(sc->vip);
		ip.frag_off = sc->frag ? htons(LB_IP_MF) : 0;
		off += sizeof(ip);
		if (sc->ip_options) {
			memset(p + off, 1, 4);	/* four NOP options */
			off += 4;
		}
		lb_put_l4(sc, p, &off);
		memcpy(p + off, lb_payload, sizeof(lb_payload));
		off += sizeof(lb_payload);
		ip.tot_len = htons(off - ip_off);
		ip.check = lb_ip_csum(&ip, sizeof(ip));
		memcpy(p + ip_off, &ip, sizeof(ip));
	} else {
		memcpy(p + off, lb_payload, sizeof(lb_payload));
		off += sizeof(lb_payload);
	}
	st->pkt_len = off;
}

/* What the program must send back for the client's packet. */
static void lb_build_expected(struct lb_state *st)
{
	const struct lb_scenario *sc = st->sc;
	uint32_t inner = st->pkt_len - sizeof(struct ethhdr);
	uint16_t sport_be = htons(sc->sport);
	uint8_t *p = st->want;
	struct ethhdr eth;
	uint32_t off;

	if (sc->verdict == XDP_DROP) {
		st->want_len = 0;
		return;
	}
	if (sc->verdict == XDP_PASS) {
		memcpy(p, st->pkt, st->pkt_len);
		st->want_len = st->pkt_len;
		return;
	}
	memcpy(eth.h_dest, lb_router_mac, ETH_ALEN);
	memcpy(eth.h_source, lb_mac, ETH_ALEN);
	eth.h_proto = htons(sc->outer_v6 ? ETH_P_IPV6 : ETH_P_IP);
	memcpy(p, &eth, sizeof(eth));
	off = sizeof(eth);

	if (sc->outer_v6) {
		struct ipv6hdr ip6 = { 0 };
		uint32_t src[4];

		ip6.version = 6;
		ip6.nexthdr = sc->v6 ? IPPROTO_IPV6 : IPPROTO_IPIP;
		ip6.payload_len = htons(inner);
		ip6.hop_limit = 64;
		lb_encap_v6_src(sport_be, sc->v6 ? htonl(sc->src6[0]) : htonl(sc->src), src);
		memcpy(&ip6.saddr, src, sizeof(src));
		lb_put_v6(&ip6.daddr, lb_tnl_dst_v6);
		memcpy(p + off, &ip6, sizeof(ip6));
		off += sizeof(ip6);
	} else {
		struct iphdr ip = { 0 };

		ip.version = 4;
		ip.ihl = sizeof(ip) >> 2;
		ip.protocol = IPPROTO_IPIP;
		ip.tot_len = htons(inner + sizeof(ip));
		ip.ttl = 64;
		ip.saddr = lb_encap_v4_src(sport_be, htonl(sc->src));
		ip.daddr = htonl(sc->tnl_dst);
		ip.check = lb_ip_csum(&ip, sizeof(ip));
		memcpy(p + off, &ip, sizeof(ip));
		off += sizeof(ip);
	}
	memcpy(p + off, st->pkt + sizeof(struct ethhdr), inner);
	st->want_len = off + inner;
}

/* --------------------------------------------------------- the tables */

static void lb_flow_key(const struct lb_scenario *sc, struct lb_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	if (sc->v6) {
		lb_put_v6(k->srcv6, sc->src6);
		lb_put_v6(k->dstv6, sc->vip6);
	} else {
		k->src = htonl(sc->src);
		k->dst = htonl(sc->vip);
	}
	k->proto = sc->proto;
	k->port16[0] = htons(sc->sport);
	k->port16[1] = htons(sc->dport);
}

static void lb_vip_key(const struct lb_scenario *sc, struct lb_vip_definition *k)
{
	memset(k, 0, sizeof(*k));
	if (sc->v6)
		lb_put_v6(k->vipv6, sc->vip6);
	else
		k->vip = htonl(sc->vip);
	k->port = htons(sc->dport);
	k->proto = sc->proto;
}

static int lb_update(struct bc_ctx *ctx, int fd, const void *key, const void *val,
		     const char *what)
{
	int err = bpf_map_update_elem(fd, key, val, BPF_ANY);

	return err ? bc_error(ctx, err, "filling %s: %s", what, bc_strerror(err)) : 0;
}

/* Every slot of every VIP's ring points at the one IPv4 real. */
static int lb_fill_ring(struct bc_ctx *ctx, struct lb_state *st)
{
	enum { CHUNK = 65536 };
	int fd = bpf_map__fd(st->skel->maps.lb_ring);
	uint32_t *keys = calloc(CHUNK, sizeof(*keys)), *vals = calloc(CHUNK, sizeof(*vals));
	uint32_t done = 0;
	int err = 0;

	if (!keys || !vals) {
		err = bc_error(ctx, -ENOMEM, "out of memory");
		goto out;
	}
	while (done < LB_CH_RINGS_SIZE && !err) {
		uint32_t n = LB_CH_RINGS_SIZE - done < CHUNK ? LB_CH_RINGS_SIZE - done : CHUNK;

		for (uint32_t i = 0; i < n; i++) {
			keys[i] = done + i;
			vals[i] = LB_REAL_V4;
		}
		err = bpf_map_update_batch(fd, keys, vals, &n, NULL);
		if (err)
			err = bc_error(ctx, err, "filling the hash rings: %s", bc_strerror(err));
		done += n;
	}
out:
	free(keys);
	free(vals);
	return err;
}

/* One LRU per possible CPU (the program picks its own CPU's). */
static int lb_make_lrus(struct bc_ctx *ctx, struct lb_state *st)
{
	int outer = bpf_map__fd(st->skel->maps.lb_lrus);

	st->cpu_cnt = libbpf_num_possible_cpus();
	if (st->cpu_cnt <= 0)
		return bc_error(ctx, st->cpu_cnt, "counting the possible CPUs failed");
	if ((unsigned int)st->cpu_cnt > LB_LRU_CPUS)
		return bc_unavailable(ctx, "%d possible CPUs, more than the %u connection tables "
				      "the program can reach", st->cpu_cnt, LB_LRU_CPUS);
	st->lru_fds = malloc(st->cpu_cnt * sizeof(*st->lru_fds));
	if (!st->lru_fds)
		return bc_error(ctx, -ENOMEM, "out of memory");
	for (int i = 0; i < st->cpu_cnt; i++)
		st->lru_fds[i] = -1;
	for (int i = 0; i < st->cpu_cnt; i++) {
		uint32_t cpu = (uint32_t)i;
		int fd, err;

		fd = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "lb_lru", sizeof(struct lb_flow_key),
				    sizeof(struct lb_real_pos_lru), LB_LRU_SIZE, NULL);
		if (fd < 0)
			return bc_error(ctx, fd, "creating CPU %d's connection table: %s", i,
					bc_strerror(fd));
		st->lru_fds[i] = fd;
		err = lb_update(ctx, outer, &cpu, &fd, "the connection-table array");
		if (err)
			return err;
	}
	return 0;
}

static int lb_fill_tables(struct bc_ctx *ctx, struct lb_state *st)
{
	const struct lb_scenario *sc = st->sc;
	struct lb_real_definition r4 = { 0 }, r6 = { 0 };
	struct lb_ctl_value ctl = { 0 };
	uint32_t key;
	int err;

	if (sc->encap) {
		struct lb_vip_definition vip;
		struct lb_vip_meta meta = { .flags = sc->vip_flags, .vip_num = sc->vip_num };

		lb_vip_key(sc, &vip);
		err = lb_update(ctx, bpf_map__fd(st->skel->maps.lb_vips), &vip, &meta,
				"the VIP table");
		if (err)
			return err;
		key = 0;
		err = lb_update(ctx, bpf_map__fd(st->skel->maps.lb_miss_vip), &key, &vip,
				"the watched VIP");
		if (err)
			return err;
	}
	err = lb_fill_ring(ctx, st);
	if (err)
		return err;
	memcpy(ctl.mac, lb_router_mac, ETH_ALEN);
	key = 0;
	err = lb_update(ctx, bpf_map__fd(st->skel->maps.lb_ctl), &key, &ctl, "the control array");
	if (err)
		return err;

	r4.dst = htonl(LB_TNL_DST);
	lb_put_v6(r4.dstv6, lb_tnl_dst_v6);
	key = LB_REAL_V4;
	err = lb_update(ctx, bpf_map__fd(st->skel->maps.lb_reals), &key, &r4, "the reals");
	if (err)
		return err;
	lb_put_v6(r6.dstv6, lb_tnl_dst_v6);
	r6.flags = LB_F_IPV6;
	key = LB_REAL_V6;
	err = lb_update(ctx, bpf_map__fd(st->skel->maps.lb_reals), &key, &r6, "the reals");
	if (err)
		return err;

	err = lb_make_lrus(ctx, st);
	if (err)
		return err;
	if (sc->prepopulate) {
		struct lb_real_pos_lru pos = { .pos = sc->outer_v6 ? LB_REAL_V6 : LB_REAL_V4 };
		struct lb_flow_key flow;
		struct timespec now;

		/* A UDP entry older than LB_UDP_TIMEOUT is a miss: stamp it with
		 * bpf_ktime_get_ns()'s clock, so that it hits from the first
		 * packet on every CPU, as the scenario says. */
		if (sc->proto == IPPROTO_UDP && !clock_gettime(CLOCK_MONOTONIC, &now))
			pos.atime = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;

		lb_flow_key(sc, &flow);
		for (int i = 0; i < st->cpu_cnt; i++) {
			err = lb_update(ctx, st->lru_fds[i], &flow, &pos, "a connection table");
			if (err)
				return err;
		}
	}
	/* The outer array holds them now. */
	lb_close_lrus(st);
	return 0;
}

/* --------------------------------------------------------- the counters */

/* v1 and v2 of stats[key], summed over CPUs. */
static int lb_read_stat(struct lb_state *st, uint32_t key, uint64_t *v1, uint64_t *v2)
{
	int n = libbpf_num_possible_cpus();
	struct lb_stats *vals;
	int err;

	*v1 = *v2 = 0;
	if (n <= 0)
		return n;
	vals = calloc(n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = bpf_map_lookup_elem(bpf_map__fd(st->skel->maps.lb_counts), &key, vals);
	for (int i = 0; !err && i < n; i++) {
		*v1 += vals[i].v1;
		*v2 += vals[i].v2;
	}
	free(vals);
	return err;
}

static int lb_reset_stats(struct lb_state *st)
{
	int n = libbpf_num_possible_cpus();
	struct lb_stats *zero;
	int err = 0;

	if (n <= 0)
		return n;
	zero = calloc(n, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	for (uint32_t key = 0; key < LB_STATS_SIZE && !err; key++)
		err = bpf_map_update_elem(bpf_map__fd(st->skel->maps.lb_counts), &key, zero,
					  BPF_ANY);
	free(zero);
	return err;
}

/* Every packet the balancer has seen: its verdict counters. */
static uint64_t lb_packets(struct lb_state *st)
{
	uint64_t sum = 0, v1, v2;

	for (uint32_t key = LB_STATS_XDP_TX; key <= LB_STATS_XDP_DROP; key++)
		if (!lb_read_stat(st, key, &v1, &v2))
			sum += v1;
	return sum;
}

static const char *lb_verdict_name(int v)
{
	return v == XDP_TX ? "XDP_TX" : v == XDP_PASS ? "XDP_PASS" : v == XDP_DROP ? "XDP_DROP" :
									"another verdict";
}

/* After one run of batch + 1 packets: did the balancer count them right? */
static int lb_check_counters(struct bc_ctx *ctx, struct lb_state *st)
{
	const struct lb_scenario *sc = st->sc;
	uint64_t n = (uint64_t)st->col.batch + 1, want_misses = 0;
	uint64_t verdicts, vip_pkts, misses, tcp_misses, unused;
	uint32_t key = sc->verdict == XDP_TX ? LB_STATS_XDP_TX :
		       sc->verdict == XDP_PASS ? LB_STATS_XDP_PASS : LB_STATS_XDP_DROP;

	if (lb_read_stat(st, key, &verdicts, &unused) ||
	    lb_read_stat(st, LB_STATS_LRU, &vip_pkts, &misses) ||
	    lb_read_stat(st, LB_STATS_LRU_MISS, &tcp_misses, &unused))
		return bc_error(ctx, -EIO, "reading the balancer's counters failed");
	if (verdicts != n)
		return bc_error(ctx, -EPROTO, "%s: the balancer counted %llu %s for %llu packets",
				sc->name, (unsigned long long)verdicts,
				lb_verdict_name(sc->verdict), (unsigned long long)n);
	if (!sc->encap)
		return 0;
	if (vip_pkts != n)
		return bc_error(ctx, -EPROTO, "%s: %llu VIP packets counted, expected %llu",
				sc->name, (unsigned long long)vip_pkts, (unsigned long long)n);
	if (sc->misses == LB_MISS_ALL)
		want_misses = n;
	else if (sc->misses == LB_MISS_FIRST)
		want_misses = 1;
	if (misses != want_misses)
		return bc_error(ctx, -EPROTO, "%s: %llu LRU misses, expected %llu", sc->name,
				(unsigned long long)misses, (unsigned long long)want_misses);
	if (sc->proto == IPPROTO_TCP && misses && tcp_misses != misses)
		return bc_error(ctx, -EPROTO, "%s: %llu TCP LRU misses, expected %llu", sc->name,
				(unsigned long long)tcp_misses, (unsigned long long)misses);
	return 0;
}

/* One run with the packet kept: verdict, bytes, counters. */
static int lb_validate(struct bc_ctx *ctx, struct lb_state *st)
{
	const struct lb_scenario *sc = st->sc;
	uint8_t out[LB_MAX_OUT];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = st->pkt, .data_size_in = st->pkt_len,
		    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);
	int err;

	err = bpf_prog_test_run_opts(st->prog_fd, &opts);
	if (err)
		return bc_error(ctx, err, "%s: BPF_PROG_TEST_RUN failed: %s", sc->name,
				bc_strerror(err));
	if ((int)opts.retval != sc->verdict)
		return bc_error(ctx, -EPROTO, "%s: the program returned %s, expected %s", sc->name,
				lb_verdict_name((int)opts.retval), lb_verdict_name(sc->verdict));
	/* Dropped packets have no output; a cold scenario's source was
	 * rewritten on purpose. */
	if (sc->verdict != XDP_DROP && !sc->cold) {
		if (opts.data_size_out != st->want_len)
			return bc_error(ctx, -EPROTO, "%s: the program sent %u bytes, expected %u",
					sc->name, opts.data_size_out, st->want_len);
		for (uint32_t i = 0; i < st->want_len; i++)
			if (out[i] != st->want[i])
				return bc_error(ctx, -EPROTO, "%s: output byte %u is 0x%02x, "
						"expected 0x%02x", sc->name, i, out[i],
						st->want[i]);
	}
	return lb_check_counters(ctx, st);
}

/* --------------------------------------------------------- callbacks */

static int lb_run(void *cookie)
{
	struct lb_state *st = cookie;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = st->pkt, .data_size_in = st->pkt_len,
		    .repeat = 1);

	return bpf_prog_test_run_opts(st->prog_fd, &opts);
}

static int lb_load(struct bc_ctx *ctx, struct lb_state *st)
{
	int err;

	st->skel = xdp_lb__open();
	if (!st->skel)
		return bc_error(ctx, errno ? -errno : -ENOMEM, "opening the BPF object failed");
	err = xdp_lb__load(st->skel);
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF, CAP_NET_ADMIN) to load BPF "
				      "programs: %s", bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused the XDP load balancer (needs "
				      "may_goto, Linux 6.9+): %s", bc_strerror(err));
	st->prog_fd = bpf_program__fd(st->skel->progs.bt_xdp_lb);
	err = bt_collect_init(&st->col, &BT_TIMING_VARS(st->skel));
	return err ? bc_error(ctx, err, "out of memory") : 0;
}

static int lb_probe(struct bc_ctx *ctx)
{
	struct lb_state *st = calloc(1, sizeof(*st));
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	err = lb_check_words(ctx);
	if (err) {
		free(st);
		return err;
	}
	if (quiet)
		old = libbpf_set_print(NULL);
	err = lb_load(ctx, st);
	if (quiet)
		libbpf_set_print(old);
	if (!err) {
		/* A non-IP packet needs no tables: can the kernel run XDP? */
		st->sc = lb_scenario_named("pass-non-ip");
		lb_build_packet(st);
		err = lb_run(st);
		if (err)
			err = bc_unavailable(ctx, "BPF_PROG_TEST_RUN of an XDP program refused "
					     "by the kernel: %s", bc_strerror(err));
	}
	lb_state_free(st);
	return err;
}

/* `list`: XDP with may_goto, without loading the balancer. */
static int lb_quick_probe(struct bc_ctx *ctx)
{
	int err = lb_check_words(ctx);

	if (err)
		return err;
	err = bt_may_goto_loads(BPF_PROG_TYPE_XDP, 0);
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF, CAP_NET_ADMIN) to load BPF "
				      "programs: %s", bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused an XDP program using may_goto "
				      "(needs may_goto, Linux 6.9+): %s", bc_strerror(err));
	return 0;
}

static const struct bc_need lb_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_XDP),
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_LRU_HASH),
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_ARRAY_OF_MAPS),
};

/* Masks sized for this many CPUs: a plain cpu_set_t holds 1024, and
 * sched_getaffinity() fails with it on larger hosts. */
#define LB_MAX_CPUS 4096

/* Pins the calling thread to the CPU it is on; returns the old mask to give
 * back to lb_unpin(), or NULL when the thread stays where it was. */
static cpu_set_t *lb_pin(void)
{
	size_t size = CPU_ALLOC_SIZE(LB_MAX_CPUS);
	cpu_set_t *saved = CPU_ALLOC(LB_MAX_CPUS), *one = CPU_ALLOC(LB_MAX_CPUS);
	int cpu = sched_getcpu();

	if (!saved || !one || cpu < 0 || sched_getaffinity(0, size, saved))
		goto fail;
	CPU_ZERO_S(size, one);
	CPU_SET_S(cpu, size, one);
	if (sched_setaffinity(0, size, one))
		goto fail;
	CPU_FREE(one);
	return saved;
fail:
	if (saved)
		CPU_FREE(saved);
	if (one)
		CPU_FREE(one);
	return NULL;
}

static void lb_unpin(cpu_set_t *saved)
{
	if (!saved)
		return;
	(void)sched_setaffinity(0, CPU_ALLOC_SIZE(LB_MAX_CPUS), saved);
	CPU_FREE(saved);
}

/* Calibration, the cold seed run, the counters' reset and validation. */
static int lb_setup_runs(struct bc_ctx *ctx, struct lb_state *st)
{
	int err;

	err = bt_calibrate(ctx, &st->col, st->sc->fixed_batch, lb_run, st);
	if (err)
		return err;
	/* A cold scenario flips its source every run: one run first, so that
	 * the original flow is in the table and validation sees exactly the
	 * new flow's miss, whatever calibration did. */
	if (st->sc->cold) {
		st->skel->bss->cold_lru = 1;
		err = lb_run(st);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN failed: %s", bc_strerror(err));
	}
	err = lb_reset_stats(st);
	if (err)
		return bc_error(ctx, err, "resetting the balancer's counters: %s", bc_strerror(err));
	return lb_validate(ctx, st);
}

static int lb_setup(struct bc_ctx *ctx)
{
	const struct bt_opts *o = bc_ctx_opts(ctx);
	struct lb_state *st;
	cpu_set_t *saved;
	int err;

	if (o->scenario < 0 || (size_t)o->scenario >= LB_SCENARIO_CNT)
		return bc_usage_error(ctx, "--scenario: index %d out of range", o->scenario);
	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->sc = &lb_scenarios[o->scenario];

	err = lb_load(ctx, st);
	if (err)
		return err;
	lb_build_packet(st);
	lb_build_expected(st);
	err = lb_fill_tables(ctx, st);
	if (err)
		return err;
	st->col.hist = bc_ctx_hist(ctx, "op_ps");
	/* The connection tables are per CPU: calibration, the cold seed run
	 * and the validation run must see the same one. */
	saved = lb_pin();
	err = lb_setup_runs(ctx, st);
	lb_unpin(saved);
	if (err)
		return err;
	/* Random sources only now: validation compares exact bytes. */
	st->skel->bss->flow_mask = st->sc->flow_mask;

	bt_collect_restart(&st->col);
	st->base_packets = lb_packets(st);
	if (o->machine_readable)
		st->warm_ticks = (unsigned int)ceil(bc_ctx_warmup_sec(ctx) - 1e-9);
	bc_ctx_set_attach_point(ctx, "none: XDP program run by BPF_PROG_TEST_RUN");
	err = bc_ctx_add_prog(ctx, st->prog_fd, "measured");
	if (err)
		return bc_error(ctx, err, "declaring the program: %s", bc_strerror(err));
	bc_ctx_log(ctx, BC_LOG_INFO, "scenario %s (%s), %u iterations per batch, validated",
		   st->sc->name, st->sc->description, st->col.batch);
	return 0;
}

static void lb_teardown(struct bc_ctx *ctx)
{
	const struct bt_opts *o = bc_ctx_opts(ctx);
	struct lb_state *st = bc_ctx_data(ctx);

	/* After the Summary, as the runner's only line: run_bench_xdp_lb.sh
	 * greps '^RESULT '. */
	if (st && o && o->machine_readable && bt_result_line(ctx, &st->col, st->sc->name))
		bc_warn("xdp-lb: out of memory for the RESULT line");
	lb_state_free(st);
	bc_ctx_set_data(ctx, NULL);
}

static int lb_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	return bt_produce(ctx, t, lb_run, bc_ctx_data(ctx));
}

static int lb_measure(struct bc_ctx *ctx, double *values)
{
	struct lb_state *st = bc_ctx_data(ctx);
	const struct bt_opts *o = bc_ctx_opts(ctx);
	int err;

	if (o->machine_readable)
		st->col.keep_raw = st->readings++ > st->warm_ticks;
	err = bt_measure(ctx, &st->col, values);
	return err ? err : bc_metric_set(ctx, values, "packets",
					 (double)(lb_packets(st) - st->base_packets));
}

/* packets: every packet the balancer counted a verdict for, the timed
 * iterations and each run's untimed one (= ops + runs, which the tests
 * check). */
static const struct bc_metric_desc lb_metrics[] = {
	BT_COMMON_METRICS,
	[BT_METRIC_COMMON_CNT] = BC_METRIC("packets", "packets", BC_METRIC_COUNTER,
					   .role = BC_ROLE_AUX, .label = "packets processed"),
};

static const struct bc_option lb_options[] = {
	BC_OPT_ENUM(struct bt_opts, scenario, "scenario", .def = "tcp-v4-lru-hit",
		    .words = bt_xdp_lb_scenario_words, .arg = "NAME",
		    .help = "the packet and table state to time (the runner's 24 scenarios)"),
	BC_OPT_FLAG(struct bt_opts, machine_readable, "machine-readable",
		    .help = "also print the runner's RESULT line (median, stddev, cv, min, p99, max "
			    "of the measured batches' ns/op) after the Summary"),
};

const struct bc_bench_desc bt_bench_xdp_lb = BC_BENCH("xdp-lb",
	"Katran-style XDP load balancer, in-BPF time per packet (--scenario)", lb_metrics,
	.runner_name = true, BC_OPTIONS(lb_options), .probe = lb_probe, BC_NEEDS(lb_needs),
	.quick_probe = lb_quick_probe, .setup = lb_setup, .producer = lb_producer,
	.measure = lb_measure, .teardown = lb_teardown, .format_iter = bt_format_iter,
	.format_summary = bt_format_summary);
