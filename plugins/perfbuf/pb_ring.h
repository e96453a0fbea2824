/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A reader for one mmapped perf ring (struct perf_event_mmap_page followed by
 * a power-of-two data area), as the kernel documents it in
 * include/uapi/linux/perf_event.h. It depends on nothing but that layout, so
 * pb-custom can run it over the buffers libbpf mmapped for us (reached only
 * through libbpf's public perf_buffer__buffer()) and the unit tests can run
 * it over a ring built by hand.
 */
#ifndef BENCHCORE_PB_RING_H
#define BENCHCORE_PB_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct pb_ring {
	struct perf_event_mmap_page *hdr;
	const unsigned char *data;
	uint64_t mask;		/* data size - 1; the size is a power of two */
};

/* What the reader saw, accumulated over calls. */
struct pb_ring_counts {
	uint64_t samples;	/* PERF_RECORD_SAMPLE records */
	uint64_t lost;		/* events the kernel says it dropped (PERF_RECORD_LOST) */
	uint64_t lost_records;	/* PERF_RECORD_LOST records */
	uint64_t other;		/* records of any other type, skipped */
};

/*
 * base: the start of the mapping (the control page). page_size and data_size
 * are what the caller mapped; the kernel's own data_offset/data_size in the
 * control page win when it filled them (every kernel since 4.1 does).
 * Returns 0, or -EINVAL when the data area is not a power of two of at least
 * 8 bytes (one record header).
 */
int pb_ring_init(struct pb_ring *r, void *base, size_t page_size, size_t data_size);

/* Called per PERF_RECORD_SAMPLE when given, with its PERF_SAMPLE_RAW data
 * (what the BPF program wrote, padded) and that data's length. A record
 * that wraps around the end of the ring is handed over in a copy of at most
 * PB_RING_RAW_COPY bytes. */
#define PB_RING_RAW_COPY 64
typedef void (*pb_ring_sample_fn)(void *cookie, const void *raw, uint32_t len);

/*
 * Consumes every record between data_tail and data_head and then publishes
 * the new data_tail once (one store per call, not one per record: the point
 * of pb-custom). Returns the number of records consumed, or -EBADMSG when a
 * record header is impossible (size 0, not 8-byte aligned, or running past
 * data_head; with fn, a sample too short for its raw size field); the tail
 * and the counts are then left as they were (fn may have seen the records
 * before the bad one).
 */
long pb_ring_drain(struct pb_ring *r, struct pb_ring_counts *c, pb_ring_sample_fn fn,
		   void *cookie);

#endif /* BENCHCORE_PB_RING_H */
