// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "pb_ring.h"

#include <errno.h>
#include <string.h>

int pb_ring_init(struct pb_ring *r, void *base, size_t page_size, size_t data_size)
{
	struct perf_event_mmap_page *hdr = base;
	uint64_t off = page_size, size = data_size;

	/* A kernel that fills these knows better than our arithmetic. */
	if (hdr->data_size) {
		off = hdr->data_offset;
		size = hdr->data_size;
	}
	/* At least one record header, so a header can never wrap onto itself. */
	if (size < sizeof(struct perf_event_header) || (size & (size - 1)) || (off % 8))
		return -EINVAL;
	r->hdr = hdr;
	r->data = (const unsigned char *)base + off;
	r->mask = size - 1;
	return 0;
}

/* Copies len bytes starting at free-running position pos, across the end of
 * the data area if the record wrapped there. */
static void pb_ring_copy(const struct pb_ring *r, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & r->mask;
	size_t first = len;

	if (off + len > r->mask + 1)
		first = r->mask + 1 - off;
	memcpy(dst, r->data + off, first);
	if (first < len)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

/* The PERF_SAMPLE_RAW part of the sample at pos: { u32 size; data[size] }
 * after the record header. -EBADMSG when it does not fit the record. */
static int pb_ring_raw(const struct pb_ring *r, uint64_t pos, uint16_t rec_size,
		       pb_ring_sample_fn fn, void *cookie)
{
	unsigned char copy[PB_RING_RAW_COPY];
	uint64_t off = (pos + sizeof(struct perf_event_header)) & r->mask;
	uint32_t len, room = rec_size - sizeof(struct perf_event_header) - sizeof(len);

	if (rec_size < sizeof(struct perf_event_header) + sizeof(len))
		return -EBADMSG;
	pb_ring_copy(r, pos + sizeof(struct perf_event_header), &len, sizeof(len));
	if (len > room)
		return -EBADMSG;
	off = (off + sizeof(len)) & r->mask;
	if (off + len <= r->mask + 1) {
		fn(cookie, r->data + off, len);
		return 0;
	}
	if (len > sizeof(copy))
		len = sizeof(copy);
	pb_ring_copy(r, off, copy, len);
	fn(cookie, copy, len);
	return 0;
}

long pb_ring_drain(struct pb_ring *r, struct pb_ring_counts *c, pb_ring_sample_fn fn,
		   void *cookie)
{
	struct pb_ring_counts seen = *c;
	struct perf_event_header eh;
	uint64_t head, tail, lost;
	long n = 0;

	/*
	 * The acquire pairs with the kernel's store of data_head after it
	 * wrote the records (the smp_rmb() the uapi header asks for): nothing
	 * below head is read before head itself.
	 */
	head = __atomic_load_n(&r->hdr->data_head, __ATOMIC_ACQUIRE);
	/* Only this thread writes the tail. */
	tail = r->hdr->data_tail;

	while (tail != head) {
		if (head - tail < sizeof(eh))
			return -EBADMSG;
		/* Records are 8-byte aligned and the area is a power of two of
		 * at least 8 bytes, so the 8-byte header itself never wraps;
		 * the copy keeps this correct even if that ever changed. */
		pb_ring_copy(r, tail, &eh, sizeof(eh));
		if (eh.size < sizeof(eh) || (eh.size % 8) || eh.size > head - tail)
			return -EBADMSG;

		switch (eh.type) {
		case PERF_RECORD_SAMPLE:
			if (fn && pb_ring_raw(r, tail, eh.size, fn, cookie))
				return -EBADMSG;
			seen.samples++;
			break;
		case PERF_RECORD_LOST:
			/* header, u64 id, u64 lost */
			if (eh.size < sizeof(eh) + 2 * sizeof(uint64_t))
				return -EBADMSG;
			pb_ring_copy(r, tail + sizeof(eh) + sizeof(uint64_t), &lost, sizeof(lost));
			seen.lost += lost;
			seen.lost_records++;
			break;
		default:
			seen.other++;
			break;
		}
		tail += eh.size;
		n++;
	}

	/*
	 * The release orders every read of the records above before the kernel
	 * can see the space as free and overwrite it (the smp_mb() the uapi
	 * header asks for before the data_tail store).
	 */
	if (n)
		__atomic_store_n(&r->hdr->data_tail, tail, __ATOMIC_RELEASE);
	/* Counted only once consumed, so a corrupt ring changes nothing. */
	*c = seen;
	return n;
}
