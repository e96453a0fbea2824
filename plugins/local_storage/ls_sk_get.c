// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sk-storage-get (the kernel runner's name and measurement): socket-storage
 * get cost. A cgroup/getsockopt program on the cgroup v2 root makes 100
 * bpf_sk_storage_get() calls per getsockopt() of the benchmark's one
 * socket; the producer calls getsockopt() in a loop. Reported with the
 * runner's ops lines (gets per second, ns per get).
 *
 * cgroup programs need no BPF trampolines, so this runs where fentry and
 * lsm programs are refused. The program only acts on the benchmark's own
 * (level, optname) pair, which no protocol has; every other getsockopt()
 * in the cgroup passes through untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/vfs.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "ls_common.h"
#include "ls_internal.h"
#include "ls_sk_get.skel.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

struct ls_sk_state {
	struct ls_sk_get *skel;
	struct bpf_link *link;
	int cgroup_fd;
	int sock_fd;
	const char *cgroup_path;
};

/* Where the runner looks for the cgroup v2 root, in its order. */
static const char *const ls_cgroup_paths[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };

static int ls_sk_open_cgroup(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	struct statfs sfs;
	size_t i;

	for (i = 0; i < sizeof(ls_cgroup_paths) / sizeof(ls_cgroup_paths[0]); i++) {
		if (statfs(ls_cgroup_paths[i], &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
			continue;
		st->cgroup_fd = open(ls_cgroup_paths[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (st->cgroup_fd >= 0) {
			st->cgroup_path = ls_cgroup_paths[i];
			return 0;
		}
	}
	return bc_unavailable(ctx, "sk-storage-get attaches cgroup/getsockopt to the cgroup v2 root, and neither /sys/fs/cgroup/unified nor /sys/fs/cgroup is a cgroup2 mount (mount -t cgroup2 none /sys/fs/cgroup/unified)");
}

static void ls_sk_detach(struct ls_sk_state *st)
{
	if (st->sock_fd >= 0)
		close(st->sock_fd);
	st->sock_fd = -1;
	bpf_link__destroy(st->link);
	st->link = NULL;
	ls_sk_get__destroy(st->skel);
	st->skel = NULL;
	if (st->cgroup_fd >= 0)
		close(st->cgroup_fd);
	st->cgroup_fd = -1;
}

/* Loads and attaches; the kernel's refusal is the benchmark's reason. */
static int ls_sk_attach(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	int err;

	st->cgroup_fd = st->sock_fd = -1;
	err = ls_sk_open_cgroup(ctx, st);
	if (err)
		return err;
	st->skel = ls_sk_get__open_and_load();
	if (!st->skel) {
		err = -errno;
		ls_sk_detach(st);
		return bc_unavailable(ctx, "loading the cgroup/getsockopt program with socket storage: %s",
				      ls_strerror(err));
	}
	st->link = bpf_program__attach_cgroup(st->skel->progs.ls_sk_get, st->cgroup_fd);
	if (!st->link) {
		err = -errno;
		ls_sk_detach(st);
		return bc_unavailable(ctx, "attaching cgroup/getsockopt to %s: %s",
				      st->cgroup_path, ls_strerror(err));
	}
	return 0;
}

static int ls_sk_probe(struct bc_ctx *ctx)
{
	struct ls_sk_state st = { 0 };
	int err;

	err = ls_sk_attach(ctx, &st);
	if (err)
		return err;
	ls_sk_detach(&st);
	return 0;
}

/* `list`: the cgroup v2 root is there (the needs say the rest). */
static int ls_sk_quick_probe(struct bc_ctx *ctx)
{
	struct ls_sk_state st = { .cgroup_fd = -1, .sock_fd = -1 };
	int err;

	err = ls_sk_open_cgroup(ctx, &st);
	if (st.cgroup_fd >= 0)
		close(st.cgroup_fd);
	return err;
}

static const struct bc_need ls_sk_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_CGROUP_SOCKOPT,
		.why = "cgroup/getsockopt programs (Linux 5.3)"),
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_SK_STORAGE,
		.why = "socket storage maps (Linux 5.2)"),
};

static int ls_sk_call(int fd)
{
	socklen_t len = sizeof(int);
	int val = 0;

	return getsockopt(fd, LS_SK_LEVEL, LS_SK_OPTNAME, &val, &len);
}

static int ls_sk_setup(struct bc_ctx *ctx)
{
	char point[128];
	struct ls_sk_state *st;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	st->cgroup_fd = st->sock_fd = -1;
	bc_ctx_set_data(ctx, st);
	err = ls_sk_attach(ctx, st);
	if (err)
		return err;
	snprintf(point, sizeof(point), "cgroup/getsockopt on %s", st->cgroup_path);
	bc_ctx_set_attach_point(ctx, point);
	err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_sk_get), "get");
	if (err)
		return bc_error(ctx, err, "declaring the program under test: %s", ls_strerror(err));

	st->sock_fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (st->sock_fd < 0)
		return bc_error(ctx, -errno, "creating the AF_INET6 stream socket: %s", strerror(errno));
	/* The first call creates the element: the measured gets find it. */
	if (ls_sk_call(st->sock_fd))
		return bc_error(ctx, -errno, "getsockopt(%#x, %#x) was not answered by the program: %s",
				LS_SK_LEVEL, LS_SK_OPTNAME, strerror(errno));
	if (!__atomic_load_n(&st->skel->bss->hits, __ATOMIC_RELAXED))
		return bc_error(ctx, -EIO, "the first getsockopt() got no socket storage");
	return 0;
}

static int ls_sk_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct ls_sk_state *st = bc_ctx_data(ctx);

	while (!bc_thread_should_stop(t))
		ls_sk_call(st->sock_fd);
	return 0;
}

static int ls_sk_measure(struct bc_ctx *ctx, double *values)
{
	struct ls_sk_state *st = bc_ctx_data(ctx);

	values[0] = (double)__atomic_load_n(&st->skel->bss->hits, __ATOMIC_RELAXED);
	return 0;
}

static void ls_sk_teardown(struct bc_ctx *ctx)
{
	struct ls_sk_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	ls_sk_detach(st);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* The runner's ops lines: gets per second, ns per get. */
static const struct bc_metric_desc ls_sk_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
};

const struct bc_bench_desc ls_bench_sk_get = {
	.sz = sizeof(struct bc_bench_desc),
	.runner_name = true,
	.name = "sk-storage-get",
	.description = "bpf_sk_storage_get on a socket with storage, 100 per getsockopt (cgroup/getsockopt)",
	/* One socket, as the runner: more producers would share its storage. */
	.producers = BC_THREADS(1, 1, 1),
	.consumers = BC_THREADS(0, 0, 0),
	.metrics = ls_sk_metrics,
	.metric_cnt = sizeof(ls_sk_metrics) / sizeof(ls_sk_metrics[0]),
	.probe = ls_sk_probe,
	.needs = ls_sk_needs,
	.need_cnt = sizeof(ls_sk_needs) / sizeof(ls_sk_needs[0]),
	.quick_probe = ls_sk_quick_probe,
	.setup = ls_sk_setup,
	.producer = ls_sk_producer,
	.measure = ls_sk_measure,
	.teardown = ls_sk_teardown,
};
