// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The rename plugin: the kernel runner's oldest benchmarks, rename-base,
 * -kprobe, -kretprobe, -rawtp, -fentry and -fexit. One producer renames its
 * own thread as fast as it can (a write to /proc/thread-self/comm, which
 * ends in __set_task_comm() and the task_rename tracepoint); each variant
 * attaches a do-nothing program of one type to that path, so its rate
 * against rename-base is what the attach type costs on a real syscall.
 *
 * The attach type is the measurement: a kernel that refuses it makes the
 * benchmark unavailable, with the kernel's reason, and nothing is
 * substituted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "rename_bench.skel.h"

/* Which program a benchmark attaches, if any: its one attach point (name
 * as reported; prog_name NULL for rename-base), also what `list` checks. */
struct rn_variant {
	struct bc_attach_point pt;
};

struct rn_state {
	struct rename_bench *skel;
	struct bpf_link *link;
	int prog_fd;
	char main_comm[16];	/* the main thread's name, put back at teardown */
	bool comm_saved;
};

/* /proc/self/comm names the process's main thread, whichever thread
 * opens it: the file the runner's producer writes. */
#define RN_COMM "/proc/self/comm"

static void rn_save_comm(struct rn_state *st)
{
	int fd = open(RN_COMM, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, st->main_comm, sizeof(st->main_comm) - 1);
	close(fd);
	if (n <= 0)
		return;
	st->main_comm[n] = '\0';
	st->main_comm[strcspn(st->main_comm, "\n")] = '\0';
	st->comm_saved = true;
}

static void rn_restore_comm(const struct rn_state *st)
{
	int fd;

	if (!st->comm_saved)
		return;
	fd = open(RN_COMM, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return;
	/* Best effort: a name that stays "test_overhead" costs nothing. */
	(void)!write(fd, st->main_comm, strlen(st->main_comm));
	close(fd);
}

static void rn_state_free(struct rn_state *st)
{
	if (!st)
		return;
	rn_restore_comm(st);
	bpf_link__destroy(st->link);
	rename_bench__destroy(st->skel);
	free(st);
}

static bool rn_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The kernel said no to loading or attaching: say why in its words, with
 * what the usual reason is for this attach type. */
static int rn_refused(struct bc_ctx *ctx, const struct rn_variant *v, bool loading, int err)
{
	const char *what = loading ? "loading the program for" : "attaching at";

	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF and CAP_PERFMON) to load BPF "
				      "programs: %s", bc_strerror(err));
	switch (v->pt.kind) {
	case BC_ATTACH_FENTRY:
	case BC_ATTACH_FEXIT:
		if (err == -EPERM || err == -BC_ENOTSUPP || err == -EOPNOTSUPP)
			return bc_unavailable(ctx, "%s %s refused by the kernel: %s (BPF "
					      "trampolines unavailable)", what, v->pt.name,
					      bc_strerror(err));
		break;
	case BC_ATTACH_KPROBE:
	case BC_ATTACH_KRETPROBE:
		/* libbpf tries the kprobe PMU, then tracefs kprobe_events:
		 * with neither the kernel has no kprobes at all. */
		if (!rn_path_exists("/sys/bus/event_source/devices/kprobe") &&
		    !rn_path_exists("/sys/kernel/tracing/kprobe_events") &&
		    !rn_path_exists("/sys/kernel/debug/tracing/kprobe_events"))
			return bc_unavailable(ctx, "kprobes not supported by this kernel (no "
					      "CONFIG_KPROBES): %s %s failed: %s", what,
					      v->pt.name, bc_strerror(err));
		break;
	default:
		break;
	}
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "%s %s refused by the kernel: %s", what, v->pt.name,
				      bc_strerror(err));
	return bc_error(ctx, err, "%s %s failed: %s", what, v->pt.name, bc_strerror(err));
}

/* Loads and attaches the variant's program; on failure nothing stays. */
static int rn_attach(struct bc_ctx *ctx, const struct rn_variant *v, struct rn_state *st)
{
	struct bpf_program *prog;
	int err;

	st->skel = rename_bench__open();
	if (!st->skel)
		return bc_error(ctx, errno ? -errno : -ENOMEM, "opening the BPF object failed");
	err = bc_bpf_autoload_only(st->skel->obj, v->pt.prog_name);
	if (err)
		return bc_error(ctx, err, "the BPF object has no program %s", v->pt.prog_name);
	err = rename_bench__load(st->skel);
	if (err)
		return rn_refused(ctx, v, true, err);
	prog = bpf_object__find_program_by_name(st->skel->obj, v->pt.prog_name);
	st->link = bpf_program__attach(prog);
	if (!st->link)
		return rn_refused(ctx, v, false, errno ? -errno : -EINVAL);
	st->prog_fd = bpf_program__fd(prog);
	return 0;
}

static int rn_probe(struct bc_ctx *ctx)
{
	const struct rn_variant *v = bc_ctx_bench_priv(ctx);
	struct rn_state *st;
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	int err;

	if (!rn_path_exists("/proc/thread-self/comm"))
		return bc_unavailable(ctx, "/proc/thread-self/comm is missing (is /proc mounted?)");
	if (!v->pt.prog_name)
		return 0;
	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* A refusal is reported once, as the reason; -v shows libbpf's lines. */
	if (quiet)
		old = libbpf_set_print(NULL);
	err = rn_attach(ctx, v, st);
	if (quiet)
		libbpf_set_print(old);
	rn_state_free(st);
	return err;
}

static int rn_setup(struct bc_ctx *ctx)
{
	const struct rn_variant *v = bc_ctx_bench_priv(ctx);
	struct rn_state *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	rn_save_comm(st);
	/* Set first: teardown() frees whatever a failed setup left. */
	bc_ctx_set_data(ctx, st);
	bc_ctx_set_attach_point(ctx, v->pt.name);
	if (!v->pt.prog_name)
		return 0;
	err = rn_attach(ctx, v, st);
	if (err)
		return err;
	return bc_ctx_add_prog(ctx, st->prog_fd, "measured");
}

static void rn_teardown(struct bc_ctx *ctx)
{
	rn_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

/*
 * Renames the process's main thread from the producer, as the runner does:
 * renaming another task of the group (its task_struct's lines are not this
 * CPU's) costs more than renaming oneself, and /proc/thread-self read 1.14
 * times the runner's figure. The main thread's name is put back at
 * teardown. The kernel takes the first 15 bytes; the runner writes the
 * same 14-byte name, and counts each write with a locked add.
 */
static int rn_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	static const char name[] = "test_overhead";
	struct bc_line_counter *c = bc_thread_counter(ctx, t, "hits");
	int fd, err = 0;

	fd = open(RN_COMM, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return bc_error(ctx, -errno, "opening " RN_COMM ": %s", strerror(errno));
	while (!bc_thread_should_stop(t)) {
		if (write(fd, name, sizeof(name)) < 0) {
			err = bc_error(ctx, -errno, "renaming through " RN_COMM ": %s",
				       strerror(errno));
			break;
		}
		(void)__atomic_fetch_add(&c->value, 1, __ATOMIC_RELAXED);
	}
	close(fd);
	return err;
}

/* hits: renames done, counted by the producer as the runner counts them
 * (with a locked add); drops: none, the runner's hits/drops line. */
static const struct bc_metric_desc rn_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .threads = true),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .threads = true),
};

#define RN_POINT(name_, kind_, prog_) { .pt = BC_ATTACH_POINT(kind_, name_, prog_) }

static const struct rn_variant rn_base =
	RN_POINT("none (renames only, no BPF program)", BC_ATTACH_OTHER, NULL);
static const struct rn_variant rn_kprobe =
	RN_POINT("kprobe/__set_task_comm", BC_ATTACH_KPROBE, "rn_kprobe");
static const struct rn_variant rn_kretprobe =
	RN_POINT("kretprobe/__set_task_comm", BC_ATTACH_KRETPROBE, "rn_kretprobe");
static const struct rn_variant rn_rawtp =
	RN_POINT("raw_tp/task_rename", BC_ATTACH_RAW_TP, "rn_rawtp");
static const struct rn_variant rn_fentry =
	RN_POINT("fentry/__set_task_comm", BC_ATTACH_FENTRY, "rn_fentry");
static const struct rn_variant rn_fexit =
	RN_POINT("fexit/__set_task_comm", BC_ATTACH_FEXIT, "rn_fexit");

/* Every benchmark renames through this file. */
static const struct bc_need rn_needs[] = {
	BC_NEED(BC_NEED_FILE, .name = "/proc/thread-self/comm",
		.why = "/proc/thread-self/comm (is /proc mounted?)"),
};

/* One producer, as the runner requires: it renames one thread. */
#define RN_BENCH(var_, name_, desc_, priv_, point_cnt_)                          \
	static const struct bc_bench_desc var_ = BC_BENCH(name_, desc_, rn_metrics,    \
		.runner_name = true, .producers = BC_THREADS(1, 1, 1), .priv = (priv_), \
		.probe = rn_probe, BC_NEEDS(rn_needs), .attach_points = &(priv_)->pt,  \
		.attach_point_cnt = (point_cnt_), .setup = rn_setup,                   \
		.producer = rn_producer, .teardown = rn_teardown)

RN_BENCH(b_base, "rename-base", "thread renames through /proc/thread-self/comm, nothing attached",
	 &rn_base, 0);
RN_BENCH(b_kprobe, "rename-kprobe", "renames with a kprobe on __set_task_comm", &rn_kprobe, 1);
RN_BENCH(b_kretprobe, "rename-kretprobe", "renames with a kretprobe on __set_task_comm",
	 &rn_kretprobe, 1);
RN_BENCH(b_rawtp, "rename-rawtp", "renames with a raw_tp program on task_rename", &rn_rawtp, 1);
RN_BENCH(b_fentry, "rename-fentry", "renames with an fentry program on __set_task_comm",
	 &rn_fentry, 1);
RN_BENCH(b_fexit, "rename-fexit", "renames with an fexit program on __set_task_comm", &rn_fexit,
	 1);

BENCHCORE_PLUGIN(.name = "rename", .version = "1.0",
		 .description = "cost of each attach type on a real syscall path (thread renames)",
		 BC_BENCHES(&b_base, &b_kprobe, &b_kretprobe, &b_rawtp, &b_fentry, &b_fexit));
