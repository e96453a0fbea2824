// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The private_stack plugin: no-private-stack and private-stack, the pair
 * from the BPF private-stack patch series (its bench_private_stack.c): one
 * stack-heavy program, fired --nr-batch-iters times per BPF_PROG_TEST_RUN
 * of a driver, with the kernel's per-CPU private stack for BPF programs
 * turned off and on. Hits are runs of the program under test.
 *
 * Which switch: Linux 6.13 added private stacks and turns them on by
 * itself (tracing programs with at least 64 bytes of stack, on a JIT that
 * supports them, x86-64 first). The only switch to turn them off per
 * program was the series' BPF_F_DISABLE_PRIVATE_STACK load flag
 * (prog_flags bit 19), which was never merged: a kernel that refuses the
 * flag makes no-private-stack unavailable, and says so. private-stack
 * runs wherever the kernel gives the program a private stack.
 *
 * The series attaches at fentry on bpf_get_numa_node_id; where trampolines
 * are refused the same body goes on raw_tp bpf_trigger_tp, fired by a
 * kfunc (both kinds get the private stack), and the report says which.
 * That kfunc's driver is an object of its own (ps_kfunc.bpf.c), loaded
 * only when vmlinux BTF lists the kfunc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "private_stack.skel.h"
#include "ps_jit.h"
#include "ps_kfunc.skel.h"

/* What the raw_tp candidate's driver calls to fire bpf_trigger_tp. */
#define PS_KFUNC "bpf_modify_return_test_tp"

/* The series' load flag (include/uapi/linux/bpf.h in its kernel). */
#define PS_F_DISABLE_PRIVATE_STACK (1U << 19)

#define PS_MAX_BATCH 10000
/* Each iteration calls a subprogram with a 16-step loop. */
BC_WORK_STATIC_ASSERT(PS_MAX_BATCH, 64, "private_stack --nr-batch-iters");

struct ps_opts {
	int64_t nr_batch_iters;
};

static const struct bc_option ps_options[] = {
	BC_OPT_INT(struct ps_opts, nr_batch_iters, "nr-batch-iters", .def = "100", .min = 1,
		   .max = PS_MAX_BATCH, .arg = "N",
		   .help = "program runs per BPF_PROG_TEST_RUN of the driver"),
};

/* What tells the two benchmarks apart. */
struct ps_variant {
	bool disable;		/* load with PS_F_DISABLE_PRIVATE_STACK */
};

struct ps_state {
	const struct ps_variant *v;
	struct private_stack *skel;
	struct ps_kfunc *kfunc_skel;	/* the raw_tp candidate's driver */
	struct bpf_link *link;
	int driver_fd, prog_fd;
	uint32_t batch;
};

static void ps_state_free(struct ps_state *st)
{
	if (!st)
		return;
	bpf_link__destroy(st->link);
	private_stack__destroy(st->skel);
	ps_kfunc__destroy(st->kfunc_skel);
	free(st);
}

/* The program under test of each attach point, and the driver firing it. */
static const struct bc_attach_point ps_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_FENTRY, "fentry/bpf_get_numa_node_id", "ps_fentry"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/bpf_trigger_tp", "ps_rawtp"),
};

/* fentry's driver calls a helper, in private_stack.bpf.c; raw_tp's
 * calls the kfunc, from its own object (st->kfunc_skel). */
static bool ps_driver_is_kfunc(const struct bc_attach_point *pt)
{
	return pt->kind != BC_ATTACH_FENTRY;
}

/* The loaded driver of pt, for BPF_PROG_TEST_RUN. */
static int ps_driver_fd(const struct ps_state *st, const struct bc_attach_point *pt)
{
	if (ps_driver_is_kfunc(pt))
		return bpf_program__fd(st->kfunc_skel->progs.ps_driver_kfunc);
	return bpf_program__fd(st->skel->progs.ps_driver);
}

/* Opens and loads the program under test and, for fentry, its driver,
 * nothing else of private_stack.bpf.c. */
static int ps_open_load(struct ps_state *st, const struct bc_attach_point *pt, bool disable)
{
	const char *driver = ps_driver_is_kfunc(pt) ? NULL : "ps_driver";
	struct bpf_program *p;
	int err;

	st->skel = private_stack__open();
	if (!st->skel)
		return errno ? -errno : -ENOMEM;
	bpf_object__for_each_program(p, st->skel->obj) {
		const char *name = bpf_program__name(p);

		bpf_program__set_autoload(p, !strcmp(name, pt->prog_name) ||
						     (driver && !strcmp(name, driver)));
	}
	p = bpf_object__find_program_by_name(st->skel->obj, pt->prog_name);
	if (disable)
		bpf_program__set_flags(p, bpf_program__flags(p) | PS_F_DISABLE_PRIVATE_STACK);
	st->skel->rodata->batch_iters = st->batch;
	st->skel->rodata->bc_tgid = (__u32)getpid();
	err = private_stack__load(st->skel);
	if (err) {
		private_stack__destroy(st->skel);
		st->skel = NULL;
	}
	return err;
}

/*
 * The kfunc driver's object, once vmlinux BTF has said the kfunc is
 * there: without it, the candidate is ruled out naming the kfunc, and the
 * ladder goes on as after a refusal (libbpf could not tell the two apart
 * without CAP_SYS_ADMIN, see ps_kfunc.bpf.c). A load's failure is the
 * kernel's answer, bare, with nothing left loaded.
 */
static int ps_load_kfunc_driver(struct bc_ctx *ctx, struct ps_state *st)
{
	static const struct bc_need kfunc = BC_NEED(BC_NEED_BTF_FUNC, .name = PS_KFUNC);
	int has = bc_need_probe(&kfunc);
	int err;

	if (has == 0)
		return bc_attach_skip(ctx, "this kernel has no kfunc " PS_KFUNC "() (vmlinux BTF)");
	if (has < 0)
		return bc_attach_skip(ctx, "cannot look for kfunc " PS_KFUNC "() in this kernel's "
				      "vmlinux BTF: %s", bc_strerror(has));
	st->kfunc_skel = ps_kfunc__open();
	if (!st->kfunc_skel)
		return errno ? -errno : -ENOMEM;
	st->kfunc_skel->rodata->batch_iters = st->batch;
	bpf_program__set_autoload(st->kfunc_skel->progs.ps_driver_kfunc, true);
	err = ps_kfunc__load(st->kfunc_skel);
	if (err) {
		ps_kfunc__destroy(st->kfunc_skel);
		st->kfunc_skel = NULL;
	}
	return err;
}

/* Loads and attaches one candidate; the kernel's answer, bare, with
 * nothing of the candidate left loaded. */
static int ps_load_attach(struct bc_ctx *ctx, struct ps_state *st,
			  const struct bc_attach_point *pt)
{
	struct bpf_program *prog;
	int err;

	if (ps_driver_is_kfunc(pt)) {
		err = ps_load_kfunc_driver(ctx, st);
		if (err)
			return err;
	}
	/* Whether this attach point works is a question without the flag:
	 * whether the kernel knows the flag is asked afterwards. */
	err = ps_open_load(st, pt, false);
	if (err)
		goto fail;
	prog = bpf_object__find_program_by_name(st->skel->obj, pt->prog_name);
	st->link = bpf_program__attach(prog);
	if (!st->link) {
		err = errno ? -errno : -EINVAL;
		private_stack__destroy(st->skel);
		st->skel = NULL;
		goto fail;
	}
	st->prog_fd = bpf_program__fd(prog);
	st->driver_fd = ps_driver_fd(st, pt);
	return 0;
fail:
	ps_kfunc__destroy(st->kfunc_skel);
	st->kfunc_skel = NULL;
	return err;
}

/* no-private-stack: reload with the series' flag. A kernel without it
 * answers EINVAL (unknown prog_flags bit), having just loaded the same
 * program without it. */
static int ps_disable(struct bc_ctx *ctx, struct ps_state *st, const struct bc_attach_point *pt)
{
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	struct bpf_program *prog;
	int err;

	bpf_link__destroy(st->link);
	st->link = NULL;
	private_stack__destroy(st->skel);
	st->skel = NULL;
	/* A refusal is the answer, said once below; -v shows libbpf's. */
	if (quiet)
		old = libbpf_set_print(NULL);
	err = ps_open_load(st, pt, true);
	if (quiet)
		libbpf_set_print(old);
	if (err == -EINVAL)
		return bc_unavailable(ctx, "this kernel has no switch to turn a BPF program's "
				      "private stack off: it refused prog_flags bit 19 "
				      "(BPF_F_DISABLE_PRIVATE_STACK, from the private-stack patch "
				      "series, never merged) with %s, while it loads the same "
				      "program without it", bc_strerror(err));
	if (err)
		return bc_error(ctx, err, "loading the program with BPF_F_DISABLE_PRIVATE_STACK "
				"failed: %s", bc_strerror(err));
	prog = bpf_object__find_program_by_name(st->skel->obj, pt->prog_name);
	st->link = bpf_program__attach(prog);
	if (!st->link)
		return bc_error(ctx, errno ? -errno : -EINVAL, "attaching at %s failed: %s",
				pt->name, bc_strerror(errno ? -errno : -EINVAL));
	st->prog_fd = bpf_program__fd(prog);
	st->driver_fd = ps_driver_fd(st, pt);
	return 0;
}

/* Private stacks came with Linux 6.13; the verifier's mode for them is in
 * the kernel's BTF from then on. */
static bool ps_kernel_has_private_stacks(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has;

	if (!btf)
		return false;
	has = btf__find_by_name_kind(btf, "priv_stack_mode", BTF_KIND_ENUM) > 0;
	btf__free(btf);
	return has;
}

/*
 * Whether the program's JIT image loads a private stack (ps_jit.c reads
 * the bytes). Returns 1 if it does, 0 if not, a negative errno when the
 * image cannot be read (other arches: -EOPNOTSUPP).
 */
static int ps_jit_uses_private_stack(int prog_fd)
{
#if defined(__x86_64__)
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	unsigned char *img;
	bool found;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	if (!info.jited_prog_len)
		return -ENODATA;
	img = calloc(1, info.jited_prog_len);
	if (!img)
		return -ENOMEM;
	len = info.jited_prog_len;
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = len;
	info.jited_prog_insns = (__u64)(uintptr_t)img;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		free(img);
		return -errno;
	}
	/* Without raw dumps (kptr_restrict) the kernel says how long the
	 * image is and copies none of it. */
	if (!info.jited_prog_insns) {
		free(img);
		return -EPERM;
	}
	found = ps_jit_image_loads_private_stack(img, info.jited_prog_len);
	free(img);
	return found;
#else
	(void)prog_fd;
	return -EOPNOTSUPP;
#endif
}

/*
 * One candidate of the ladder the core drives: load and attach it (a bare
 * errno is the kernel's answer about this attach point), then check what
 * the benchmark needs of the program, whose refusals are the benchmark's
 * (bc_unavailable(): the ladder stops there with that reason). Whatever
 * stays loaded is ps_state_free()'s.
 */
static int ps_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	struct ps_state *st = bc_ctx_data(ctx);
	int err, used;

	err = ps_load_attach(ctx, st, pt);
	if (err)
		return err;
	if (st->v->disable) {
		err = ps_disable(ctx, st, pt);
		if (err)
			return err;
	} else {
		used = ps_jit_uses_private_stack(st->prog_fd);
		if (used == 0)
			return bc_unavailable(ctx, "the kernel did not give the program a private stack "
					      "(its JIT image does not load one into r9)");
		if (used < 0)
			bc_ctx_log(ctx, BC_LOG_DEBUG,
				   "cannot check the JIT image (%s); trusting the kernel",
				   bc_strerror(used));
	}
	/* The object that stays (ps_disable() reloads it): the core reads
	 * hits there (the metric's `bpf`). */
	err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (!err)
		err = bc_ctx_add_prog(ctx, st->prog_fd, "measured");
	if (!err)
		err = bc_ctx_add_prog(ctx, st->driver_fd, "driver");
	return err ? bc_error(ctx, err, "declaring the programs: %s", bc_strerror(err)) : 0;
}

/*
 * `list`, without the benchmark's programs: for private-stack, does the
 * JIT give a tracing program with 64 bytes of stack (the kernel's
 * threshold) a private stack, as it will the benchmark's; for
 * no-private-stack, does the kernel know the flag. Both asked with a
 * four-instruction raw_tp program.
 */
static int ps_quick_probe(struct bc_ctx *ctx)
{
	const struct ps_variant *v = bc_ctx_bench_priv(ctx);
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1 },
		/* *(u64 *)(r10 - 64) = r1: 64 bytes of stack */
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -64 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .prog_flags = v->disable ? PS_F_DISABLE_PRIVATE_STACK : 0);
	int fd, used, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "ps_quick", "GPL", insns,
			   BC_ARRAY_SIZE(insns), &opts);
	err = fd < 0 ? -errno : 0;
	if (err == -EINVAL && v->disable)
		return bc_unavailable(ctx, "this kernel has no switch to turn a BPF program's "
				      "private stack off: it refused prog_flags bit 19 "
				      "(BPF_F_DISABLE_PRIVATE_STACK, from the private-stack patch "
				      "series, never merged) with %s", bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused a raw_tp program with 64 bytes of "
				      "stack%s: %s", v->disable ? " and BPF_F_DISABLE_PRIVATE_STACK" :
				      "", bc_strerror(err));
	used = v->disable ? 1 : ps_jit_uses_private_stack(fd);
	close(fd);
	if (used == 0)
		return bc_unavailable(ctx, "the kernel does not give a program with 64 bytes of "
				      "stack a private stack (its JIT image does not load one into "
				      "r9)");
	if (used < 0)
		bc_ctx_log(ctx, BC_LOG_DEBUG, "cannot check the JIT image (%s); trusting the kernel",
			   bc_strerror(used));
	return 0;
}

/* What `list` checks instead of loading the programs. */
static const struct bc_need ps_needs[] = {
	BC_NEED(BC_NEED_BTF_TYPE, .name = "priv_stack_mode",
		.why = "private stacks for BPF programs (Linux 6.13)"),
};

static int ps_setup(struct bc_ctx *ctx)
{
	const struct ps_opts *o = bc_ctx_opts(ctx);
	struct ps_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->v = bc_ctx_bench_priv(ctx);
	st->batch = (uint32_t)o->nr_batch_iters;
	if (!ps_kernel_has_private_stacks())
		return bc_unavailable(ctx, "this kernel has no private stacks for BPF programs "
				      "(added in Linux 6.13: there is no priv_stack_mode in its "
				      "BTF)");
	/* Next the core tries the attach points with ps_attach(). */
	return 0;
}

static void ps_teardown(struct bc_ctx *ctx)
{
	ps_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int ps_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct ps_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *runs = bc_thread_counter(ctx, t, "runs");
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	while (!bc_thread_should_stop(t)) {
		err = bpf_prog_test_run_opts(st->driver_fd, &opts);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN of the driver failed: %s",
					bc_strerror(err));
		bc_counter_add(runs, 1);
	}
	return 0;
}

/*
 * hits: runs of the program under test (the series multiplied its count by
 * --nr-batch-iters once more; see docs/benchmarks/private_stack.md).
 * runs: driver test runs, --nr-batch-iters hits each.
 */
static const struct bc_metric_desc ps_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	/* None (the runner's line): no thread counts one. */
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .threads = true),
	BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "driver test runs", .threads = true),
};

static const struct ps_variant ps_off = { .disable = true };
static const struct ps_variant ps_on = { .disable = false };

#define PS_BENCH(var_, name_, desc_, priv_)                                      \
	static const struct bc_bench_desc var_ = BC_BENCH(name_, desc_, ps_metrics,    \
		.runner_name = true, .priv = (priv_), BC_NEEDS(ps_needs),              \
		BC_POINTS(ps_points), .quick_probe = ps_quick_probe, .setup = ps_setup, \
		.producer = ps_producer, .teardown = ps_teardown, .attach = ps_attach)

PS_BENCH(b_off, "no-private-stack",
	 "stack-heavy program, batched, loaded with BPF_F_DISABLE_PRIVATE_STACK", &ps_off);
PS_BENCH(b_on, "private-stack", "stack-heavy program, batched, on the kernel's private stack",
	 &ps_on);

BENCHCORE_PLUGIN(.name = "private_stack", .version = "1.0",
		 .description = "a stack-heavy BPF program with the kernel's private stack off and on",
		 BC_OPTIONS(ps_options), .opts_size = sizeof(struct ps_opts),
		 BC_BENCHES(&b_off, &b_on));
