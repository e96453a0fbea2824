// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * rb-custom's record walker over hand-built ring buffers: committed, busy,
 * discarded and wrapped records, and where the consumer position ends up.
 * The data area is 64 bytes, kept twice in a row as the kernel maps it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rb_walk.h"

#define RING_SZ 64u

struct fake_ring {
	uint64_t consumer_pos;
	uint64_t producer_pos;
	_Alignas(8) unsigned char data[2 * RING_SZ];
	struct rb_walk_ring ring;
};

static void ring_init(struct fake_ring *f, uint64_t start)
{
	memset(f, 0, sizeof(*f));
	f->consumer_pos = f->producer_pos = start;
	f->ring.consumer_pos = &f->consumer_pos;
	f->ring.producer_pos = &f->producer_pos;
	f->ring.data = f->data;
	f->ring.mask = RING_SZ - 1;
}

/* Writes one record at producer_pos the way the kernel lays it out, byte by
 * byte through the ring so that a record may wrap, then mirrors the area
 * into its second copy (what the double mapping shows the consumer). */
static uint64_t ring_put(struct fake_ring *f, uint32_t flags, const void *payload, uint32_t len)
{
	uint32_t hdr[2] = { len | flags, 0 };
	uint64_t pos = f->producer_pos, i;
	const unsigned char *h = (const unsigned char *)hdr, *p = payload;

	for (i = 0; i < RB_WALK_HDR_SZ; i++)
		f->data[(pos + i) & (RING_SZ - 1)] = h[i];
	for (i = 0; i < len; i++)
		f->data[(pos + RB_WALK_HDR_SZ + i) & (RING_SZ - 1)] = p[i];
	memcpy(f->data + RING_SZ, f->data, RING_SZ);
	f->producer_pos += rb_walk_record_size(len);
	return pos;
}

static void ring_set_flags(struct fake_ring *f, uint64_t pos, uint32_t flags, uint32_t len)
{
	uint32_t v = len | flags;

	memcpy(f->data + (pos & (RING_SZ - 1)), &v, sizeof(v));
	memcpy(f->data + RING_SZ, f->data, RING_SZ);
}

struct seen {
	unsigned int cnt;
	uint64_t vals[8];
	uint32_t lens[8];
	char text[64];
};

static void record_cb(void *cookie, const void *data, uint32_t len)
{
	struct seen *s = cookie;

	if (len == 8)
		memcpy(&s->vals[s->cnt], data, 8);
	else if (len < sizeof(s->text))
		memcpy(s->text, data, len);
	s->lens[s->cnt++] = len;
}

static void test_record_size(void **state)
{
	(void)state;
	assert_int_equal(rb_walk_record_size(8), 16);
	assert_int_equal(rb_walk_record_size(1), 16);
	assert_int_equal(rb_walk_record_size(9), 24);
	assert_int_equal(rb_walk_record_size(0), 8);
	/* Flag bits are not part of the length. */
	assert_int_equal(rb_walk_record_size(8 | RB_WALK_BUSY_BIT | RB_WALK_DISCARD_BIT), 16);
}

static void test_empty(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct fake_ring f;

	(void)state;
	ring_init(&f, 0);
	assert_int_equal(rb_walk(&f.ring, &c, NULL, NULL), 0);
	assert_int_equal(f.consumer_pos, 0);
	assert_int_equal(c.records, 0);
}

static void test_committed(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct seen s = { 0 };
	struct fake_ring f;
	uint64_t v;

	(void)state;
	ring_init(&f, 0);
	for (v = 1; v <= 3; v++)
		ring_put(&f, 0, &v, 8);
	assert_int_equal(rb_walk(&f.ring, &c, record_cb, &s), 3);
	assert_int_equal(c.records, 3);
	assert_int_equal(s.cnt, 3);
	assert_int_equal(s.vals[0], 1);
	assert_int_equal(s.vals[2], 3);
	assert_int_equal(f.consumer_pos, 48);
	/* Nothing new: nothing consumed, position kept. */
	assert_int_equal(rb_walk(&f.ring, &c, record_cb, &s), 0);
	assert_int_equal(f.consumer_pos, 48);
}

static void test_busy_stops_in_order(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct fake_ring f;
	uint64_t v = 7, busy_pos;

	(void)state;
	ring_init(&f, 0);
	ring_put(&f, 0, &v, 8);
	busy_pos = ring_put(&f, RB_WALK_BUSY_BIT, &v, 8);
	ring_put(&f, 0, &v, 8);	/* committed, but behind a busy one */

	assert_int_equal(rb_walk(&f.ring, &c, NULL, NULL), 1);
	/* What was consumed before the busy record is given back. */
	assert_int_equal(f.consumer_pos, 16);

	ring_set_flags(&f, busy_pos, 0, 8);	/* the producer submits */
	assert_int_equal(rb_walk(&f.ring, &c, NULL, NULL), 2);
	assert_int_equal(f.consumer_pos, 48);
	assert_int_equal(c.records, 3);
}

static void test_busy_first(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct fake_ring f;
	uint64_t v = 1;

	(void)state;
	ring_init(&f, 0);
	ring_put(&f, RB_WALK_BUSY_BIT, &v, 8);
	assert_int_equal(rb_walk(&f.ring, &c, NULL, NULL), 0);
	assert_int_equal(f.consumer_pos, 0);
}

static void test_discarded_skipped(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct seen s = { 0 };
	struct fake_ring f;
	uint64_t a = 1, b = 2, d = 3;

	(void)state;
	ring_init(&f, 0);
	ring_put(&f, 0, &a, 8);
	ring_put(&f, RB_WALK_DISCARD_BIT, &b, 8);
	ring_put(&f, 0, &d, 8);
	assert_int_equal(rb_walk(&f.ring, &c, record_cb, &s), 2);
	assert_int_equal(c.records, 2);
	assert_int_equal(c.discarded, 1);
	assert_int_equal(s.vals[0], 1);
	assert_int_equal(s.vals[1], 3);
	/* The discarded record's space is released too. */
	assert_int_equal(f.consumer_pos, 48);
}

static void test_wrapped_record(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct seen s = { 0 };
	struct fake_ring f;
	const char msg[] = "wraps-around-the-end";	/* 21 bytes with NUL */
	uint64_t v = 99;

	(void)state;
	/* Free-running positions far past the size: only pos & mask picks
	 * the place. 48 in the ring, so a 29-byte record wraps. */
	ring_init(&f, 10 * RING_SZ + 48);
	ring_put(&f, 0, msg, sizeof(msg));
	ring_put(&f, 0, &v, 8);
	assert_int_equal(rb_walk(&f.ring, &c, record_cb, &s), 2);
	assert_int_equal(s.lens[0], sizeof(msg));
	assert_string_equal(s.text, msg);
	assert_int_equal(s.vals[1], 99);
	assert_int_equal(f.consumer_pos, 10 * RING_SZ + 48 + 32 + 16);
}

static void test_odd_lengths_rounded(void **state)
{
	struct rb_walk_counts c = { 0 };
	struct fake_ring f;
	const char three[3] = "ab", twelve[12] = "0123456789a";

	(void)state;
	ring_init(&f, 0);
	ring_put(&f, 0, three, sizeof(three));	/* 8 + 3 -> 16 */
	ring_put(&f, 0, twelve, sizeof(twelve));	/* 8 + 12 -> 24 */
	assert_int_equal(f.producer_pos, 40);
	assert_int_equal(rb_walk(&f.ring, &c, NULL, NULL), 2);
	assert_int_equal(f.consumer_pos, 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_size),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_committed),
		cmocka_unit_test(test_busy_stops_in_order),
		cmocka_unit_test(test_busy_first),
		cmocka_unit_test(test_discarded_skipped),
		cmocka_unit_test(test_wrapped_record),
		cmocka_unit_test(test_odd_lengths_rounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
