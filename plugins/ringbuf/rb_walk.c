// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "rb_walk.h"

#include <stdbool.h>

uint64_t rb_walk(const struct rb_walk_ring *r, struct rb_walk_counts *counts,
		 rb_walk_record_fn fn, void *cookie)
{
	/* Locals, not r->... and counts->...: the acquire loads below would
	 * otherwise make the compiler reload them for every record. */
	const unsigned char *data = r->data;
	const uint64_t mask = r->mask;
	uint64_t cons, prod, done = 0, discarded = 0;
	bool progress;

	/* We are the only writer of consumer_pos; relaxed is enough to read
	 * back our own value. */
	cons = __atomic_load_n(r->consumer_pos, __ATOMIC_RELAXED);
	do {
		progress = false;
		/* Acquire pairs with the producer's release of producer_pos:
		 * every header below it is at least reserved. */
		prod = __atomic_load_n(r->producer_pos, __ATOMIC_ACQUIRE);
		while (cons < prod) {
			const uint32_t *hdr = (const uint32_t *)(data + (cons & mask));
			/* Acquire pairs with the submit that cleared BUSY:
			 * the payload is written before we see the bit clear. */
			uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);

			if (len & RB_WALK_BUSY_BIT)
				break;
			if (len & RB_WALK_DISCARD_BIT) {
				discarded++;
			} else {
				done++;
				if (fn)
					fn(cookie, hdr + 2, len);
			}
			cons += rb_walk_record_size(len);
			progress = true;
		}
		/* Once per pass: the release lets the producer reuse the
		 * space only after we are done with it. Publishing also on a
		 * busy stop matters: the records before it are consumed. */
		if (progress)
			__atomic_store_n(r->consumer_pos, cons, __ATOMIC_RELEASE);
	} while (progress && cons == prod);
	counts->records += done;
	counts->discarded += discarded;
	return done;
}
