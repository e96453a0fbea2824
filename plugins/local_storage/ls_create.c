// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * local-storage-create: how fast local storage is created and destroyed.
 *
 * Each producer creates --batch-size threads (task storage) or sockets
 * (socket storage) and then ends them all; a BPF program gives every new
 * thread or socket of this process one storage element, which the kernel
 * frees when its owner goes. BPF also counts every kmalloc() call on the
 * machine (the kernel runner's kmallocs per create), and apart from those
 * the ones made while an element is being created.
 *
 * The default is socket storage, as in the kernel runner. Socket storage is
 * created from an LSM hook, which kernels without BPF trampolines
 * (fentry/lsm refused) cannot attach: there it is unavailable with the
 * kernel's reason, and --storage-type task still runs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "ls_internal.h"
#include "ls_create.skel.h"

enum ls_storage_type {
	LS_STORAGE_TASK,
	LS_STORAGE_SOCKET,
};

struct ls_create_state {
	enum ls_storage_type type;
	int last_err;			/* the kernel's answer to the last try */
	unsigned long batch;
	struct ls_create *skel;
	struct bpf_link *create_link;
	struct bpf_link *kmalloc_link;
	/* Thread or socket creations that failed in user space, per producer. */
	struct bc_line_counter *owner_errs;
	uint64_t owner_err_total;	/* at the last measure() */
	unsigned int producer_cnt;
};

/* Positions in ls_create_metrics (its designated entries), which the
 * line callbacks read. */
enum {
	LS_M_CREATES,
	LS_M_KMALLOCS,
	LS_M_PER_CREATE,
	LS_M_CREATE_KMALLOCS,
	LS_M_ERRS,
};

static const struct bc_attach_point ls_task_point =
	BC_ATTACH_POINT(BC_ATTACH_TP_BTF, "tp_btf/sched_process_fork", "ls_task_create");
static const struct bc_attach_point ls_sk_point =
	BC_ATTACH_POINT(BC_ATTACH_LSM, "lsm.s/socket_post_create", "ls_sk_create");

/* --storage-type's words, in enum ls_storage_type order. */
static const char *const ls_storage_words[] = { "task", "socket", NULL };

static int ls_create_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct ls_create_state *st = cookie;
	struct bpf_program *target;
	struct ls_create *skel;
	int err;

	(void)ctx;
	skel = ls_create__open();
	if (!skel)
		return -errno;
	/* The candidate and the kmalloc counter; not the other storage's
	 * program, which this kernel may refuse. */
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (!err)
		err = bpf_program__set_autoload(skel->progs.ls_kmalloc, true);
	if (err)
		goto err_out;
	target = bpf_object__find_program_by_name(skel->obj, pt->prog_name);
	skel->rodata->bc_tgid = getpid();
	err = ls_create__load(skel);
	if (err)
		goto err_out;
	st->create_link = bpf_program__attach(target);
	if (!st->create_link) {
		err = -errno;
		goto err_out;
	}
	st->kmalloc_link = bpf_program__attach(skel->progs.ls_kmalloc);
	if (!st->kmalloc_link) {
		err = -errno;
		goto err_out;
	}
	st->skel = skel;
	return 0;

err_out:
	bpf_link__destroy(st->create_link);
	st->create_link = NULL;
	ls_create__destroy(skel);
	return st->last_err = err;
}

static void ls_create_detach(struct ls_create_state *st)
{
	bpf_link__destroy(st->kmalloc_link);
	st->kmalloc_link = NULL;
	bpf_link__destroy(st->create_link);
	st->create_link = NULL;
	ls_create__destroy(st->skel);
	st->skel = NULL;
}

static int ls_create_attach(struct bc_ctx *ctx, struct ls_create_state *st)
{
	const struct bc_attach_point *pt = st->type == LS_STORAGE_SOCKET ? &ls_sk_point : &ls_task_point;
	int idx;

	idx = bc_attach_first(ctx, pt, 1, ls_create_try, st);
	if (idx == -EOPNOTSUPP && st->type == LS_STORAGE_SOCKET && st->last_err)
		return bc_unavailable(ctx, "socket storage is created from lsm.s/socket_post_create, which this kernel refused (%s%s); kernels with BPF trampolines run it, and --storage-type task works without them",
				      bc_strerror(st->last_err),
				      st->last_err == -EPERM ? ": BPF trampolines unavailable" : "");
	return idx < 0 ? idx : 0;
}

static int ls_create_probe(struct bc_ctx *ctx)
{
	struct ls_create_state st = { 0 };
	int err;

	st.type = LS_OPTS(ctx)->storage_type;
	err = ls_create_attach(ctx, &st);
	if (err)
		return err;
	ls_create_detach(&st);
	return 0;
}

/* `list`: the storage --storage-type names, where it is created, and the
 * kmalloc counter, without loading them. */
static int ls_create_quick_probe(struct bc_ctx *ctx)
{
	static const struct bc_attach_point kmalloc_point =
		BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/kmalloc", "ls_kmalloc");
	static const struct bc_need maps[] = {
		[LS_STORAGE_TASK] = BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_TASK_STORAGE,
					    .why = "task storage maps (Linux 5.11)"),
		[LS_STORAGE_SOCKET] = BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_SK_STORAGE,
					      .why = "socket storage maps (Linux 5.2)"),
	};
	bool socket = LS_OPTS(ctx)->storage_type == LS_STORAGE_SOCKET;
	int err;

	err = bc_need_check(ctx, &maps[socket ? LS_STORAGE_SOCKET : LS_STORAGE_TASK], 1);
	if (!err)
		err = bc_attach_check(ctx, socket ? &ls_sk_point : &ls_task_point, 1);
	if (!err)
		err = bc_attach_check(ctx, &kmalloc_point, 1);
	return err;
}

static int ls_create_setup(struct bc_ctx *ctx)
{
	struct ls_create_state *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	st->type = LS_OPTS(ctx)->storage_type;
	st->batch = (unsigned long)LS_OPTS(ctx)->batch_size;
	st->producer_cnt = bc_ctx_producer_cnt(ctx);
	st->owner_errs = bc_line_counters_alloc(st->producer_cnt);
	if (!st->owner_errs)
		return bc_error(ctx, -ENOMEM, "allocating %u error counters", st->producer_cnt);
	err = ls_create_attach(ctx, st);
	if (err)
		return err;
	err = bc_ctx_add_prog(ctx, bpf_program__fd(st->type == LS_STORAGE_SOCKET ?
							st->skel->progs.ls_sk_create :
							st->skel->progs.ls_task_create),
			      "create");
	if (!err)
		err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_kmalloc),
				      "kmalloc counter");
	/* The counters the metrics name (`bpf`) are the core's to read. */
	if (!err)
		err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (err)
		return bc_error(ctx, err, "declaring the programs under test: %s", bc_strerror(err));
	return 0;
}

static void *ls_thread_exits(void *arg)
{
	return arg;
}

static int ls_task_producer(struct ls_create_state *st, struct bc_ctx *ctx, struct bc_thread *t)
{
	uint64_t *errs = &st->owner_errs[t->idx].value;
	pthread_t *thr;
	int *ok;
	unsigned long i;

	thr = calloc(st->batch, sizeof(*thr));
	ok = calloc(st->batch, sizeof(*ok));
	if (!thr || !ok) {
		free(thr);
		free(ok);
		return bc_error(ctx, -ENOMEM, "allocating a batch of %lu threads", st->batch);
	}
	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < st->batch; i++) {
			ok[i] = pthread_create(&thr[i], NULL, ls_thread_exits, NULL) == 0;
			if (!ok[i])
				__atomic_fetch_add(errs, 1, __ATOMIC_RELAXED);
		}
		for (i = 0; i < st->batch; i++)
			if (ok[i])
				pthread_join(thr[i], NULL);
	}
	free(thr);
	free(ok);
	return 0;
}

static int ls_socket_producer(struct ls_create_state *st, struct bc_ctx *ctx, struct bc_thread *t)
{
	uint64_t *errs = &st->owner_errs[t->idx].value;
	unsigned long i;
	int *fds;

	fds = calloc(st->batch, sizeof(*fds));
	if (!fds)
		return bc_error(ctx, -ENOMEM, "allocating a batch of %lu sockets", st->batch);
	while (!bc_thread_should_stop(t)) {
		for (i = 0; i < st->batch; i++) {
			fds[i] = socket(AF_INET6, SOCK_DGRAM, 0);
			if (fds[i] < 0)
				__atomic_fetch_add(errs, 1, __ATOMIC_RELAXED);
		}
		for (i = 0; i < st->batch; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	free(fds);
	return 0;
}

static int ls_create_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct ls_create_state *st = bc_ctx_data(ctx);

	if (st->type == LS_STORAGE_SOCKET)
		return ls_socket_producer(st, ctx, t);
	return ls_task_producer(st, ctx, t);
}

/* Everything but the errors is the core's, from BPF: those made in user
 * space (a failed thread or socket) are added to the program's own. */
static int ls_create_measure(struct bc_ctx *ctx, double *values)
{
	struct ls_create_state *st = bc_ctx_data(ctx);
	uint64_t owner = bc_line_counters_sum(st->owner_errs, st->producer_cnt);

	st->owner_err_total = owner;
	return bc_metric_set(ctx, values, "create_errs",
			     (double)(owner + __atomic_load_n(&st->skel->bss->create_errs,
							      __ATOMIC_RELAXED)));
}

static void ls_create_teardown(struct bc_ctx *ctx)
{
	struct ls_create_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	/* The runner prints a line after its summary when creations failed;
	 * here the Summary line stays last, so it goes to stderr. */
	if (st->skel && (st->owner_err_total || st->skel->bss->create_errs))
		bc_ctx_log(ctx, BC_LOG_WARN, "%s() errors %llu, create_errs %llu",
			st->type == LS_STORAGE_SOCKET ? "socket" : "pthread_create",
			(unsigned long long)st->owner_err_total,
			(unsigned long long)st->skel->bss->create_errs);
	ls_create_detach(st);
	free(st->owner_errs);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* The kernel runner's lines, character for character: thousands of
 * creations per second, per producer, and kmallocs per creation (its
 * summary: all kmallocs over all creations, i.e. the ratio of the means). */
static int ls_create_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double creates = rates[LS_M_CREATES] / 1e3;

	snprintf(buf, len, "creates %8.3lfk/s (%7.3lfk/prod), %3.2lf kmallocs/create", creates,
		 creates / (prods ? prods : 1), rates[LS_M_PER_CREATE]);
	return 0;
}

static int ls_create_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
				    char *buf, size_t len)
{
	unsigned int prods = bc_ctx_producer_cnt(ctx);
	double creates = means[LS_M_CREATES] / 1e3;

	snprintf(buf, len, "creates %8.3lf \u00b1 %5.3lfk/s (%7.3lfk/prod), %4.2lf kmallocs/create",
		 creates, stddevs[LS_M_CREATES] / 1e3, creates / (prods ? prods : 1),
		 means[LS_M_KMALLOCS] / means[LS_M_CREATES]);
	return 0;
}

/* No role combination gives the runner's create lines (creations in k/s,
 * kmallocs per create): every metric is AUX and the callbacks above print
 * them. Kept in the order of the LS_M_* positions. */
static const struct bc_metric_desc ls_create_metrics[] = {
	[LS_M_CREATES] = BC_METRIC("creates", "ops", BC_METRIC_COUNTER, .bpf = "creates"),
	/* Every kmalloc on the machine, as the runner counts them. */
	[LS_M_KMALLOCS] = BC_METRIC("kmallocs", "calls", BC_METRIC_COUNTER, .bpf = "kmallocs"),
	[LS_M_PER_CREATE] = BC_METRIC("kmallocs_per_create", "calls", BC_METRIC_RATIO,
				      .per = "creates", .label = "kmallocs per create",
				      .bpf = "kmallocs"),
	/* Only those made inside a creation: the storage's own. */
	[LS_M_CREATE_KMALLOCS] = BC_METRIC("create_kmallocs", "calls", BC_METRIC_COUNTER,
					   .bpf = "create_kmallocs"),
	[LS_M_ERRS] = BC_METRIC("create_errs", "errors", BC_METRIC_COUNTER),
};

static const struct bc_option ls_create_options[] = {
	BC_OPT_ENUM(struct ls_opts, storage_type, "storage-type", .words = ls_storage_words,
		    .def = "socket", .help = "local storage to create (socket needs LSM programs)"),
	BC_OPT_INT(struct ls_opts, batch_size, "batch-size", .def = "32", .min = 1,
		   .max = LS_MAX_BATCH_SIZE, .help = "threads or sockets created per batch"),
};

const struct bc_bench_desc ls_bench_create = BC_BENCH("local-storage-create",
	"creation and destruction rate of socket (or task) local storage, kmallocs per creation",
	ls_create_metrics, .runner_name = true, BC_OPTIONS(ls_create_options),
	.probe = ls_create_probe, .quick_probe = ls_create_quick_probe, .setup = ls_create_setup,
	.producer = ls_create_producer, .measure = ls_create_measure,
	.teardown = ls_create_teardown, .format_iter = ls_create_format_iter,
	.format_summary = ls_create_format_summary);
