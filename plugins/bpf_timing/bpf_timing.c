// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bpf_timing plugin: the kernel runner's benchmarks built on its in-BPF
 * batch timing (bench_bpf_timing), bpf-nop and xdp-lb. A program run by
 * BPF_PROG_TEST_RUN times a calibrated batch of iterations of its body with
 * bpf_ktime_get_ns(), so the syscall and the test-run machinery stay out of
 * the figure: what is left is the body's own cost per iteration.
 *
 * This file holds bpf-nop (the loop around nothing: the floor under every
 * other body) and the plugin's descriptor; xdp_lb.c holds xdp-lb.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "bt_internal.h"
#include "bpf_nop.skel.h"

struct bt_nop_state {
	struct bpf_nop *skel;
	int prog_fd;
	struct bt_collect col;
};

static void bt_nop_free(struct bt_nop_state *st)
{
	if (!st)
		return;
	bt_collect_free(&st->col);
	bpf_nop__destroy(st->skel);
	free(st);
}

static int bt_nop_run(void *cookie)
{
	struct bt_nop_state *st = cookie;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	return bpf_prog_test_run_opts(st->prog_fd, &opts);
}

/* Loads the program and runs it once: the kernel may refuse syscall
 * programs (before 5.14) or may_goto (before 6.9). */
static int bt_nop_load(struct bc_ctx *ctx, struct bt_nop_state *st)
{
	int err;

	st->skel = bpf_nop__open();
	if (!st->skel)
		return bc_error(ctx, errno ? -errno : -ENOMEM, "opening the BPF object failed");
	err = bpf_nop__load(st->skel);
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF) to load BPF programs: %s",
				      bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused the timed syscall program (needs "
				      "BPF_PROG_TYPE_SYSCALL, 5.14+, and may_goto, 6.9+): %s",
				      bc_strerror(err));
	st->prog_fd = bpf_program__fd(st->skel->progs.bt_nop);
	err = bt_collect_init(&st->col, &BT_TIMING_VARS(st->skel));
	if (err)
		return bc_error(ctx, err, "out of memory");
	err = bt_nop_run(st);
	if (err)
		return bc_unavailable(ctx, "BPF_PROG_TEST_RUN of a syscall program refused by "
				      "the kernel: %s", bc_strerror(err));
	return 0;
}

static int bt_nop_probe(struct bc_ctx *ctx)
{
	struct bt_nop_state *st = calloc(1, sizeof(*st));
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	if (quiet)
		old = libbpf_set_print(NULL);
	err = bt_nop_load(ctx, st);
	if (quiet)
		libbpf_set_print(old);
	bt_nop_free(st);
	return err;
}

/* BPF_JMP | BPF_JCOND with src_reg BPF_MAY_GOTO (0): the uapi names
 * arrived with Linux 6.9, after the installed headers. */
#define BT_JCOND 0xe0

int bt_may_goto_loads(unsigned int prog_type, unsigned int prog_flags)
{
	/* r0 = 0; may_goto +1 (an offset of 0 is refused); r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BT_JCOND, .off = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = prog_flags);
	int fd;

	fd = bpf_prog_load((enum bpf_prog_type)prog_type, "bt_may_goto", "GPL", insns,
			   BC_ARRAY_SIZE(insns), &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* `list`: the timed program's type and may_goto, without loading it. */
static int bt_nop_quick_probe(struct bc_ctx *ctx)
{
	int err = bt_may_goto_loads(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE);

	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF) to load BPF programs: %s",
				      bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused a syscall program using may_goto "
				      "(needs BPF_PROG_TYPE_SYSCALL, 5.14+, and may_goto, 6.9+): %s",
				      bc_strerror(err));
	return 0;
}

static const struct bc_need bt_nop_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SYSCALL,
		.why = "BPF_PROG_TYPE_SYSCALL (Linux 5.14)"),
};

static int bt_nop_setup(struct bc_ctx *ctx)
{
	struct bt_nop_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	err = bt_nop_load(ctx, st);
	if (err)
		return err;
	bc_ctx_set_attach_point(ctx, "none: syscall program run by BPF_PROG_TEST_RUN");
	err = bc_ctx_add_prog(ctx, st->prog_fd, "measured");
	if (err)
		return bc_error(ctx, err, "declaring the program: %s", bc_strerror(err));
	st->col.hist = bc_ctx_hist(ctx, "op_ps");
	return bt_calibrate(ctx, &st->col, 0, bt_nop_run, st);
}

static void bt_nop_teardown(struct bc_ctx *ctx)
{
	bt_nop_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int bt_nop_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	return bt_produce(ctx, t, bt_nop_run, bc_ctx_data(ctx));
}

static int bt_nop_measure(struct bc_ctx *ctx, double *values)
{
	struct bt_nop_state *st = bc_ctx_data(ctx);

	return bt_measure(ctx, &st->col, values);
}

static const struct bc_metric_desc bt_nop_metrics[] = {
	BT_COMMON_METRICS,
};

const struct bc_bench_desc bt_bench_nop = BC_BENCH("bpf-nop",
	"the in-BPF timing loop around nothing: its own cost per iteration", bt_nop_metrics,
	.runner_name = true, .probe = bt_nop_probe, BC_NEEDS(bt_nop_needs),
	.quick_probe = bt_nop_quick_probe, .setup = bt_nop_setup, .producer = bt_nop_producer,
	.measure = bt_nop_measure, .teardown = bt_nop_teardown, .format_iter = bt_format_iter,
	.format_summary = bt_format_summary);

BENCHCORE_PLUGIN(.name = "bpf_timing", .version = "1.0",
		 .description = "in-BPF batch timing by BPF_PROG_TEST_RUN: bpf-nop, xdp-lb",
		 .opts_size = sizeof(struct bt_opts), BC_BENCHES(&bt_bench_nop, &bt_bench_xdp_lb));
