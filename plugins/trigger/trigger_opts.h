/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The trigger plugin's one options struct (bc_plugin_desc.opts_size): the
 * core fills it from the plugin's and each benchmark's option tables, so
 * trigger.c and trig_ipc.c index into the same struct.
 */
#ifndef BENCHCORE_TRIGGER_OPTS_H
#define BENCHCORE_TRIGGER_OPTS_H

#include <stdbool.h>
#include <stdint.h>

struct trig_opts {
	int64_t batch_iters;
	int driver;			/* enum trig_drive */
	bool own_process;
	/* trig-user-ringbuf-*: the ring's bytes and the drain timer's period */
	uint64_t user_rb_size;
	int64_t user_rb_timer_ns;
	/* trig-shared-memory*: the ring's bytes and one event's */
	uint64_t shm_size;
	uint64_t shm_event_size;
};

/* This run's values (never NULL in a run the core set up). */
#define TRIG_OPTS(ctx) ((const struct trig_opts *)bc_ctx_opts(ctx))

#endif /* BENCHCORE_TRIGGER_OPTS_H */
