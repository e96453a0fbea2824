/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * rb-custom's record walker over a BPF ring buffer's mmapped pages, kept free
 * of libbpf and syscalls so tests can drive it over a hand-built buffer.
 *
 * Layout (kernel/bpf/ringbuf.c): a consumer page (consumer_pos, ours to
 * write), a producer page (producer_pos), then the data area, mapped twice
 * back to back so that a record crossing the end is contiguous. Each record
 * starts with an 8-byte header, { u32 len; u32 pg_off; }, at an 8-aligned
 * position; len carries BPF_RINGBUF_BUSY_BIT while the producer still owns
 * it and BPF_RINGBUF_DISCARD_BIT if it was discarded.
 */
#ifndef BENCHCORE_RB_WALK_H
#define BENCHCORE_RB_WALK_H

#include <stdint.h>

#define RB_WALK_BUSY_BIT (1u << 31)
#define RB_WALK_DISCARD_BIT (1u << 30)
#define RB_WALK_HDR_SZ 8u

struct rb_walk_ring {
	uint64_t *consumer_pos;		/* rw consumer page */
	const uint64_t *producer_pos;	/* ro producer page */
	const unsigned char *data;	/* data area (2 x size in memory) */
	uint64_t mask;			/* size - 1; size is a power of two */
};

/* Called per committed record when given: rb-custom passes each record's
 * timestamp on to its latency sample; tests check the payloads. */
typedef void (*rb_walk_record_fn)(void *cookie, const void *data, uint32_t len);

struct rb_walk_counts {
	uint64_t records;	/* committed records consumed */
	uint64_t discarded;	/* discarded records stepped over */
};

/* Bytes a record of payload length len takes: header included, rounded up
 * to 8. */
static inline uint64_t rb_walk_record_size(uint32_t len)
{
	len &= ~(RB_WALK_BUSY_BIT | RB_WALK_DISCARD_BIT);
	return ((uint64_t)len + RB_WALK_HDR_SZ + 7) & ~(uint64_t)7;
}

/*
 * Consumes every record committed so far, in order, stopping at the first
 * one still busy (a later one may be committed, but order must hold).
 * consumer_pos is published once per pass over what the producer had
 * written, not per record: that is what makes this consumer cheaper than a
 * per-record one. Adds to *counts; returns the number of records consumed.
 */
uint64_t rb_walk(const struct rb_walk_ring *r, struct rb_walk_counts *counts,
		 rb_walk_record_fn fn, void *cookie);

#endif /* BENCHCORE_RB_WALK_H */
