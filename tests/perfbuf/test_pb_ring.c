// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * pb-custom's record walker over perf rings built by hand: plain samples, a
 * sample and a PERF_RECORD_LOST that wrap past the end of the data area,
 * free-running positions far past the area's size, records of other types,
 * sample payloads handed to a callback whole (wrapped ones too), and corrupt
 * headers that must not move the tail.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pb_ring.h"

#define PAGE 4096
#define DATA 256	/* small, so that records wrap quickly */

struct fake_ring {
	unsigned char *base;	/* control page + DATA bytes */
	struct perf_event_mmap_page *hdr;
	struct pb_ring ring;
	uint64_t head;		/* where the "kernel" writes next */
};

static int ring_setup(void **state)
{
	struct fake_ring *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (posix_memalign((void **)&f->base, PAGE, PAGE + DATA)) {
		free(f);
		return -1;
	}
	memset(f->base, 0xa5, PAGE + DATA);	/* garbage everywhere but the header */
	f->hdr = (struct perf_event_mmap_page *)f->base;
	memset(f->hdr, 0, sizeof(*f->hdr));
	*state = f;
	return 0;
}

static int ring_teardown(void **state)
{
	struct fake_ring *f = *state;

	free(f->base);
	free(f);
	return 0;
}

/* Positions the empty ring at pos (data_head == data_tail == pos). */
static void ring_start_at(struct fake_ring *f, uint64_t pos)
{
	assert_int_equal(pb_ring_init(&f->ring, f->base, PAGE, DATA), 0);
	f->head = pos;
	f->hdr->data_head = pos;
	f->hdr->data_tail = pos;
}

/* Writes bytes at free-running position pos, wrapping like the kernel does. */
static void ring_put(struct fake_ring *f, uint64_t pos, const void *src, size_t len)
{
	unsigned char *data = f->base + PAGE;
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i < len; i++)
		data[(pos + i) % DATA] = s[i];
}

/* A PERF_SAMPLE_RAW sample of one 8-byte value: 8 + 4 + 8, padded to 24. */
static void put_sample(struct fake_ring *f, uint64_t value)
{
	struct perf_event_header eh = { .type = PERF_RECORD_SAMPLE, .size = 24 };
	uint32_t raw_size = sizeof(value);
	uint32_t pad = 0;

	ring_put(f, f->head, &eh, sizeof(eh));
	ring_put(f, f->head + 8, &raw_size, sizeof(raw_size));
	ring_put(f, f->head + 12, &value, sizeof(value));
	ring_put(f, f->head + 20, &pad, sizeof(pad));
	f->head += eh.size;
}

static void put_lost(struct fake_ring *f, uint64_t lost)
{
	struct perf_event_header eh = { .type = PERF_RECORD_LOST, .size = 24 };
	uint64_t id = 7;

	ring_put(f, f->head, &eh, sizeof(eh));
	ring_put(f, f->head + 8, &id, sizeof(id));
	ring_put(f, f->head + 16, &lost, sizeof(lost));
	f->head += eh.size;
}

static void put_header(struct fake_ring *f, uint32_t type, uint16_t size)
{
	struct perf_event_header eh = { .type = type, .size = size };

	ring_put(f, f->head, &eh, sizeof(eh));
	f->head += size;
}

static void publish(struct fake_ring *f)
{
	f->hdr->data_head = f->head;
}

static void test_init_rejects_bad_sizes(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring r;

	assert_int_equal(pb_ring_init(&r, f->base, PAGE, 0), -EINVAL);
	assert_int_equal(pb_ring_init(&r, f->base, PAGE, 4), -EINVAL);
	assert_int_equal(pb_ring_init(&r, f->base, PAGE, 3 * PAGE), -EINVAL);
	assert_int_equal(pb_ring_init(&r, f->base, PAGE, DATA), 0);
	assert_ptr_equal(r.data, f->base + PAGE);
	assert_int_equal(r.mask, DATA - 1);
}

static void test_init_prefers_kernel_layout(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring r;

	/* What the kernel writes into the control page wins over the caller's
	 * idea of the mapping. */
	f->hdr->data_offset = PAGE;
	f->hdr->data_size = DATA / 2;
	assert_int_equal(pb_ring_init(&r, f->base, 2 * PAGE, 8 * PAGE), 0);
	assert_ptr_equal(r.data, f->base + PAGE);
	assert_int_equal(r.mask, DATA / 2 - 1);
}

static void test_empty_ring(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };

	ring_start_at(f, 64);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 0);
	assert_int_equal(f->hdr->data_tail, 64);
	assert_int_equal(c.samples, 0);
	assert_int_equal(c.lost, 0);
}

static void test_samples_consumed_and_tail_published(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };

	ring_start_at(f, 0);
	put_sample(f, 42);
	put_sample(f, 42);
	put_sample(f, 42);
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 3);
	assert_int_equal(c.samples, 3);
	assert_int_equal(f->hdr->data_tail, 3 * 24);

	/* Nothing new: nothing read, tail stays. */
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 0);
	assert_int_equal(c.samples, 3);
	assert_int_equal(f->hdr->data_tail, 3 * 24);
}

static void test_wrapped_sample(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };

	/* 240 + 24 crosses 256: the value lands at 252..259, split in two. */
	ring_start_at(f, 240);
	put_sample(f, 42);
	put_sample(f, 42);
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 2);
	assert_int_equal(c.samples, 2);
	assert_int_equal(f->hdr->data_tail, 240 + 48);
}

/* What the sample callback saw: each raw payload's first 8 bytes. */
struct seen_values {
	uint64_t v[8];
	uint32_t len[8];
	unsigned int cnt;
};

static void record_value(void *cookie, const void *raw, uint32_t len)
{
	struct seen_values *s = cookie;

	assert_true(s->cnt < 8);
	assert_true(len >= sizeof(uint64_t));
	memcpy(&s->v[s->cnt], raw, sizeof(uint64_t));
	s->len[s->cnt++] = len;
}

static void test_sample_payloads(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };
	struct seen_values s = { 0 };

	/* The second sample's value (bytes 252..259) is split by the end of
	 * the area; every payload arrives whole and in order. */
	ring_start_at(f, 5 * DATA + 216);
	put_sample(f, 0x1111111111111111ull);
	put_sample(f, 0x2222222222222222ull);
	put_sample(f, 0x3333333333333333ull);
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, record_value, &s), 3);
	assert_int_equal(s.cnt, 3);
	assert_true(s.v[0] == 0x1111111111111111ull);
	assert_true(s.v[1] == 0x2222222222222222ull);
	assert_true(s.v[2] == 0x3333333333333333ull);
	assert_int_equal(s.len[1], sizeof(uint64_t));
	assert_int_equal(c.samples, 3);
}

static void test_raw_size_past_record(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };
	struct seen_values s = { 0 };
	uint32_t too_big = 13;	/* the 24-byte record holds 12 raw bytes */

	ring_start_at(f, 16);
	put_sample(f, 42);
	put_sample(f, 43);
	ring_put(f, 16 + 24 + 8, &too_big, sizeof(too_big));
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, record_value, &s), -EBADMSG);
	assert_int_equal(f->hdr->data_tail, 16);
	assert_int_equal(c.samples, 0);
	/* Without a callback the payload is not looked at. */
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 2);
}

static void test_wrapped_lost_record(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };

	/* Positions far past the area's size, as after hours of running: the
	 * LOST header sits in the last 8 bytes and its id and count wrap to
	 * the start of the area. */
	ring_start_at(f, 1000 * DATA + 224);
	put_sample(f, 42);
	put_lost(f, 0x1234567890ull);
	put_sample(f, 42);
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 3);
	assert_int_equal(c.samples, 2);
	assert_int_equal(c.lost_records, 1);
	assert_int_equal(c.lost, 0x1234567890ull);
	assert_int_equal(f->hdr->data_tail, 1000 * DATA + 224 + 72);
}

static void test_other_records_skipped(void **state)
{
	struct fake_ring *f = *state;
	struct pb_ring_counts c = { 0 };

	ring_start_at(f, 8);
	put_header(f, PERF_RECORD_THROTTLE, 48);
	put_sample(f, 42);
	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), 2);
	assert_int_equal(c.samples, 1);
	assert_int_equal(c.other, 1);
	assert_int_equal(f->hdr->data_tail, 8 + 48 + 24);
}

static void expect_corrupt(struct fake_ring *f)
{
	struct pb_ring_counts c = { 0 };

	publish(f);
	assert_int_equal(pb_ring_drain(&f->ring, &c, NULL, NULL), -EBADMSG);
	/* Neither the tail nor the counts moved, even for the good record
	 * that came before the bad one. */
	assert_int_equal(f->hdr->data_tail, 16);
	assert_int_equal(c.samples, 0);
}

static void test_zero_size_record(void **state)
{
	struct fake_ring *f = *state;

	ring_start_at(f, 16);
	put_sample(f, 42);
	put_header(f, PERF_RECORD_SAMPLE, 0);
	f->head += 8;	/* leave data for a header, so only its size is wrong */
	expect_corrupt(f);
}

static void test_unaligned_record(void **state)
{
	struct fake_ring *f = *state;

	ring_start_at(f, 16);
	put_sample(f, 42);
	put_header(f, PERF_RECORD_SAMPLE, 20);
	f->head += 4;
	expect_corrupt(f);
}

static void test_record_past_head(void **state)
{
	struct fake_ring *f = *state;

	ring_start_at(f, 16);
	put_sample(f, 42);
	put_header(f, PERF_RECORD_SAMPLE, 64);
	f->head -= 32;	/* head stops in the middle of the record */
	expect_corrupt(f);
}

static void test_short_lost_record(void **state)
{
	struct fake_ring *f = *state;

	ring_start_at(f, 16);
	put_sample(f, 42);
	put_header(f, PERF_RECORD_LOST, 16);
	expect_corrupt(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_rejects_bad_sizes, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_init_prefers_kernel_layout, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_empty_ring, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_samples_consumed_and_tail_published, ring_setup,
						ring_teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_sample, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_sample_payloads, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_raw_size_past_record, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_lost_record, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_other_records_skipped, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_zero_size_record, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_unaligned_record, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_record_past_head, ring_setup, ring_teardown),
		cmocka_unit_test_setup_teardown(test_short_lost_record, ring_setup, ring_teardown),
	};

	return cmocka_run_group_tests_name("perfbuf ring reader", tests, NULL, NULL);
}
