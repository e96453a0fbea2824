// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello: the smallest complete benchcore plugin with a BPF program.
 *
 * Producers call getpgid() in a loop; a BPF program on the syscall's entry
 * tracepoint counts the calls made by this process. The metric "hits" is
 * that count, which the core turns into a rate: how many getpgid() syscalls
 * per second pass through a tracepoint with a BPF program attached.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "hello.skel.h"

#ifndef HELLO_VERSION
#define HELLO_VERSION "1.0.0"
#endif

#define HELLO_BATCH_MAX 1000

/*
 * Options are the one piece of global state a plugin has: argp stores them
 * while parsing, before any run exists. They are configuration, read-only
 * once a run starts; everything a run creates lives in struct hello_state.
 */
static struct {
	unsigned long batch;
	const char *batch_text;	/* as typed, for the error message */
	bool batch_bad;
} hello_opts = {
	.batch = 1,
};

enum {
	HELLO_OPT_BATCH = 0x1000,	/* above any short option's key */
};

static const struct argp_option hello_options[] = {
	{ "hello-batch", HELLO_OPT_BATCH, "N", 0,
	  "getpgid() calls between two looks at the stop flag (1-1000, default 1)", 0 },
	{ 0 },
};

/* Records the value only: validate() reports a bad one through the core, so
 * the user gets the same one-line message and exit status as for any other
 * bad value, and argp never exits on the plugin's behalf. */
static error_t hello_parse_opt(int key, char *arg, struct argp_state *state)
{
	char *end;

	(void)state;
	switch (key) {
	case ARGP_KEY_INIT:
		/* A fresh parse starts from the defaults, not from the last one. */
		hello_opts.batch = 1;
		hello_opts.batch_text = NULL;
		hello_opts.batch_bad = false;
		return 0;
	case HELLO_OPT_BATCH:
		hello_opts.batch_text = arg;
		errno = 0;
		hello_opts.batch = strtoul(arg, &end, 10);
		hello_opts.batch_bad = errno || end == arg || *end || arg[0] == '-' ||
				       hello_opts.batch < 1 ||
				       hello_opts.batch > HELLO_BATCH_MAX;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp hello_argp = {
	.options = hello_options,
	.parser = hello_parse_opt,
};

/* Everything one run owns; made by setup(), freed by teardown(). */
struct hello_state {
	struct hello *skel;
	unsigned long batch;
};

static int hello_probe(struct bc_ctx *ctx)
{
	if (geteuid() != 0)
		return bc_unavailable(ctx, "loading BPF programs needs root");
	return 0;
}

static int hello_validate(struct bc_ctx *ctx)
{
	if (hello_opts.batch_bad)
		return bc_usage_error(ctx, "--hello-batch '%s': expected an integer from 1 to %d",
				      hello_opts.batch_text, HELLO_BATCH_MAX);
	return 0;
}

/*
 * One attach candidate: open, configure, load and attach a fresh skeleton.
 * On failure nothing stays loaded, so the core may try the next candidate
 * (hello has only one, but the shape is the same with several).
 */
static int hello_try_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct hello_state *st = cookie;
	struct hello *skel;
	int err;

	(void)ctx;
	(void)pt;
	skel = hello__open();
	if (!skel)
		return -errno;
	/* Count this process only; a constant once loaded. */
	skel->rodata->bc_tgid = getpid();
	err = hello__load(skel);
	if (err)
		goto fail;
	skel->links.hello_getpgid = bpf_program__attach(skel->progs.hello_getpgid);
	if (!skel->links.hello_getpgid) {
		err = -errno;
		goto fail;
	}
	st->skel = skel;
	return 0;
fail:
	hello__destroy(skel);
	return err;
}

static const struct bc_attach_point hello_points[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = "tp/syscalls/sys_enter_getpgid",
	  .kind = BC_ATTACH_TP, .prog_name = "hello_getpgid" },
};

static int hello_setup(struct bc_ctx *ctx)
{
	struct hello_state *st;
	char hint[256];
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->batch = hello_opts.batch;
	/* teardown() runs even when setup() fails, and frees st. */
	bc_ctx_set_data(ctx, st);

	err = bc_tracefs_ensure(hint, sizeof(hint));
	if (err)
		return bc_unavailable(ctx, "tracefs is needed for tp/syscalls/sys_enter_getpgid: %s",
				      hint);
	err = bc_attach_first(ctx, hello_points, 1, hello_try_attach, st);
	return err < 0 ? err : 0;
}

static int hello_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	const struct hello_state *st = bc_ctx_data(ctx);
	unsigned long i;

	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < st->batch; i++)
			syscall(SYS_getpgid, 0);
	}
	return 0;
}

static int hello_measure(struct bc_ctx *ctx, double *values)
{
	const struct hello_state *st = bc_ctx_data(ctx);
	const struct bc_line_counter *hits = st->skel->bss->hits;

	values[0] = (double)bc_line_counters_sum(hits, sizeof(st->skel->bss->hits) / sizeof(hits[0]));
	return 0;
}

static void hello_teardown(struct bc_ctx *ctx)
{
	struct hello_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	hello__destroy(st->skel);	/* NULL-safe; detaches and unloads */
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

static const struct bc_metric_desc hello_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER),
};

static const struct bc_bench_desc hello_tp = {
	.sz = sizeof(struct bc_bench_desc),
	.name = "hello-tp",
	.description = "getpgid() syscalls counted by a BPF program on their entry tracepoint",
	.producers = { .min = 1, .max = 0, .def = 1 },
	.consumers = { .min = 0, .max = 0, .def = 0 },
	.metrics = hello_metrics,
	.metric_cnt = sizeof(hello_metrics) / sizeof(hello_metrics[0]),
	.layout = BC_LAYOUT_OPS,
	.probe = hello_probe,
	.validate = hello_validate,
	.setup = hello_setup,
	.producer = hello_producer,
	.measure = hello_measure,
	.teardown = hello_teardown,
};

static const struct bc_bench_desc *const hello_benches[] = {
	&hello_tp,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "hello",
	.version = HELLO_VERSION,
	.description = "Example out-of-tree plugin: a tracepoint counting getpgid() calls",
	.argp = &hello_argp,
	.benches = hello_benches,
);
