// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sk-storage-get (the kernel runner's name, from the patch series that adds
 * it; two revisions measure two different things, both carried here):
 *
 * --sk-mode getsockopt (default; the revision at the runner commit this
 * project tracks): socket-storage get cost on one hot socket. A
 * cgroup/getsockopt program on the cgroup v2 root makes 100
 * bpf_sk_storage_get() calls per getsockopt() of the benchmark's one
 * socket; the producer calls getsockopt() in a loop. cgroup programs need
 * no BPF trampolines, so this runs where fentry and lsm programs are
 * refused. The program only acts on the benchmark's own (level, optname)
 * pair, which no protocol has; every other getsockopt() in the cgroup
 * passes through untouched.
 *
 * --sk-mode iter-tcp (the later revision): the cost on cold sockets. Setup
 * makes --nr-socks listening TCP sockets; the producer reads a bpf_iter/tcp
 * iterator in a loop, each read() one pass that gets every socket's
 * storage once, so the syscall is spread over all of them and each get
 * finds a socket whose lines the previous pass's others have evicted.
 *
 * Both report the runner's ops lines (gets per second, ns per get).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/vfs.h>

#include <bpf/bpf.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "ls_common.h"
#include "ls_internal.h"
#include "ls_sk_get.skel.h"

#define LS_SK_NR_SOCKS_DEF 100000

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

static const char *const ls_sk_mode_words[] = { "getsockopt", "iter-tcp", NULL };
enum { LS_SK_GETSOCKOPT, LS_SK_ITER_TCP };

/* iter-tcp binds (127.0.0.1 + j / LS_SK_PORTS, LS_SK_PORT0 + j % LS_SK_PORTS)
 * for the j-th pair, as the runner spreads its sockets over 127.0.0.0/8;
 * a pair something else holds is skipped, up to one address's worth. */
#define LS_SK_PORT0 1024
#define LS_SK_PORTS 60000

struct ls_sk_state {
	struct ls_sk_get *skel;
	struct bpf_link *link;
	int cgroup_fd;
	int sock_fd;
	const char *cgroup_path;
	/* iter-tcp */
	int *socks;
	size_t sock_cnt;
	struct rlimit nofile;		/* to restore at teardown */
	bool nofile_raised;
};

/* Where the runner looks for the cgroup v2 root, in its order. */
static const char *const ls_cgroup_paths[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };

static int ls_sk_open_cgroup(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	struct statfs sfs;
	size_t i;

	for (i = 0; i < BC_ARRAY_SIZE(ls_cgroup_paths); i++) {
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
	for (size_t i = 0; i < st->sock_cnt; i++)
		close(st->socks[i]);
	free(st->socks);
	st->socks = NULL;
	st->sock_cnt = 0;
	if (st->nofile_raised)
		setrlimit(RLIMIT_NOFILE, &st->nofile);
	st->nofile_raised = false;
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

/* iter-tcp: loads the iterator program alone and attaches it (to every
 * TCP socket of this network namespace). */
static int ls_sk_attach_iter(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	int err;

	st->skel = ls_sk_get__open();
	if (!st->skel)
		return bc_error(ctx, errno ? -errno : -ENOMEM, "opening the BPF object failed");
	err = bpf_program__set_autoload(st->skel->progs.ls_sk_get, false);
	if (!err)
		err = ls_sk_get__load(st->skel);
	if (err) {
		ls_sk_detach(st);
		return bc_unavailable(ctx, "loading the iter/tcp program with socket storage "
				      "(bpf_iter over TCP sockets, Linux 5.9): %s", bc_strerror(err));
	}
	st->link = bpf_program__attach_iter(st->skel->progs.ls_sk_iter, NULL);
	if (!st->link) {
		err = -errno;
		ls_sk_detach(st);
		return bc_unavailable(ctx, "attaching the iter/tcp program: %s", bc_strerror(err));
	}
	return 0;
}

/* Loads and attaches; the kernel's refusal is the benchmark's reason. */
static int ls_sk_attach(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	int err;

	st->cgroup_fd = st->sock_fd = -1;
	if (LS_OPTS(ctx)->sk_mode == LS_SK_ITER_TCP)
		return ls_sk_attach_iter(ctx, st);
	err = ls_sk_open_cgroup(ctx, st);
	if (err)
		return err;
	st->skel = ls_sk_get__open();
	if (!st->skel) {
		err = errno ? -errno : -ENOMEM;
		ls_sk_detach(st);
		return bc_error(ctx, err, "opening the BPF object failed");
	}
	err = bpf_program__set_autoload(st->skel->progs.ls_sk_iter, false);
	if (!err)
		err = ls_sk_get__load(st->skel);
	if (err) {
		ls_sk_detach(st);
		return bc_unavailable(ctx, "loading the cgroup/getsockopt program with socket storage: %s",
				      bc_strerror(err));
	}
	st->link = bpf_program__attach_cgroup(st->skel->progs.ls_sk_get, st->cgroup_fd);
	if (!st->link) {
		err = -errno;
		ls_sk_detach(st);
		return bc_unavailable(ctx, "attaching cgroup/getsockopt to %s: %s",
				      st->cgroup_path, bc_strerror(err));
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

/* iter-tcp's own needs, beside the benchmark's: checked by quick_probe()
 * when that mode is asked for. */
static const struct bc_need ls_sk_iter_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_TRACING,
		.why = "tracing programs (Linux 5.5)"),
	BC_NEED(BC_NEED_BTF_TYPE, .name = "bpf_iter__tcp",
		.why = "bpf_iter over TCP sockets (Linux 5.9)"),
};

/* `list`: the cgroup v2 root is there (the needs say the rest); for
 * iter-tcp, the iterator. */
static int ls_sk_quick_probe(struct bc_ctx *ctx)
{
	struct ls_sk_state st = { .cgroup_fd = -1, .sock_fd = -1 };
	int err;

	if (LS_OPTS(ctx)->sk_mode == LS_SK_ITER_TCP)
		return bc_need_check(ctx, ls_sk_iter_needs, BC_ARRAY_SIZE(ls_sk_iter_needs));

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

/* One pass of the iterator: every TCP socket's storage, once. */
static int ls_sk_iter_pass(struct ls_sk_state *st)
{
	char buf[64];
	ssize_t n;
	int fd = bpf_iter_create(bpf_link__fd(st->link));

	if (fd < 0)
		return -errno;
	/* The program writes nothing: one read() is the whole pass. */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/* Room for --nr-socks descriptors beside the ones the process has. */
static int ls_sk_raise_nofile(struct bc_ctx *ctx, struct ls_sk_state *st, uint64_t nr)
{
	struct rlimit want;

	if (getrlimit(RLIMIT_NOFILE, &st->nofile))
		return bc_error(ctx, -errno, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	if (st->nofile.rlim_cur != RLIM_INFINITY && st->nofile.rlim_cur >= nr + 1024)
		return 0;
	want.rlim_cur = nr + 1024;
	want.rlim_max = st->nofile.rlim_max == RLIM_INFINITY || st->nofile.rlim_max > want.rlim_cur ?
				st->nofile.rlim_max : want.rlim_cur;
	if (setrlimit(RLIMIT_NOFILE, &want))
		return bc_unavailable(ctx, "--nr-socks %llu needs %llu open files; raising "
				      "RLIMIT_NOFILE from %llu/%llu failed: %s (needs CAP_SYS_RESOURCE "
				      "above the hard limit, and fs.nr_open above it)",
				      (unsigned long long)nr, (unsigned long long)want.rlim_cur,
				      (unsigned long long)st->nofile.rlim_cur,
				      (unsigned long long)st->nofile.rlim_max, strerror(errno));
	st->nofile_raised = true;
	return 0;
}

/* --nr-socks listeners, so that the iterator finds them in the TCP
 * listening hash. */
static int ls_sk_make_socks(struct bc_ctx *ctx, struct ls_sk_state *st, uint64_t nr)
{
	uint64_t pair = 0, skipped = 0;

	st->socks = calloc(nr, sizeof(*st->socks));
	if (!st->socks)
		return bc_error(ctx, -ENOMEM, "allocating %llu socket descriptors",
				(unsigned long long)nr);
	while (st->sock_cnt < nr) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			return bc_error(ctx, -errno, "creating socket %zu of %llu: %s (see --nr-socks)",
					st->sock_cnt + 1, (unsigned long long)nr, strerror(errno));
		for (;;) {
			struct sockaddr_in a = {
				.sin_family = AF_INET,
				.sin_port = htons(LS_SK_PORT0 + pair % LS_SK_PORTS),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK + pair / LS_SK_PORTS),
			};

			const char *what = "bind";
			int err = 0;

			pair++;
			if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
				err = errno;
				/* Held by someone else (another service,
				 * another run): the next pair. */
				if (err == EADDRINUSE && ++skipped < LS_SK_PORTS)
					continue;
			} else if (listen(fd, 1)) {
				err = errno;
				what = "listen";
			}
			if (!err)
				break;
			close(fd);
			return bc_error(ctx, -err, "%s on %s:%u for socket %zu of %llu: %s", what,
					inet_ntoa(a.sin_addr), ntohs(a.sin_port), st->sock_cnt + 1,
					(unsigned long long)nr, strerror(err));
		}
		st->socks[st->sock_cnt++] = fd;
	}
	if (skipped)
		bc_info("sk-storage-get: %llu address/port pairs in use by others, skipped",
			(unsigned long long)skipped);
	return 0;
}

static int ls_sk_setup_iter(struct bc_ctx *ctx, struct ls_sk_state *st)
{
	uint64_t nr = (uint64_t)LS_OPTS(ctx)->nr_socks;
	char point[128];
	int err;

	err = ls_sk_raise_nofile(ctx, st, nr);
	if (!err)
		err = ls_sk_attach(ctx, st);
	/* hits is the core's to read (`bpf`). */
	if (!err)
		err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (!err)
		err = ls_sk_make_socks(ctx, st, nr);
	if (err)
		return err;
	snprintf(point, sizeof(point), "iter/tcp over %llu listening sockets",
		 (unsigned long long)nr);
	bc_ctx_set_attach_point(ctx, point);
	err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_sk_iter), "get");
	if (err)
		return bc_error(ctx, err, "declaring the program under test: %s", bc_strerror(err));
	/* The first pass creates every element: the measured gets find them. */
	err = ls_sk_iter_pass(st);
	if (err)
		return bc_error(ctx, err, "reading the iter/tcp iterator: %s", bc_strerror(err));
	if (__atomic_load_n(&st->skel->bss->hits, __ATOMIC_RELAXED) < nr)
		return bc_error(ctx, -EIO, "the first iter/tcp pass got storage for %llu sockets "
				"of our %llu", (unsigned long long)st->skel->bss->hits,
				(unsigned long long)nr);
	return 0;
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
	if (LS_OPTS(ctx)->sk_mode == LS_SK_ITER_TCP)
		return ls_sk_setup_iter(ctx, st);
	err = ls_sk_attach(ctx, st);
	if (!err)
		err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (err)
		return err;
	snprintf(point, sizeof(point), "cgroup/getsockopt on %s", st->cgroup_path);
	bc_ctx_set_attach_point(ctx, point);
	err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_sk_get), "get");
	if (err)
		return bc_error(ctx, err, "declaring the program under test: %s", bc_strerror(err));

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
	int err;

	if (LS_OPTS(ctx)->sk_mode == LS_SK_GETSOCKOPT) {
		while (!bc_thread_should_stop(t))
			ls_sk_call(st->sock_fd);
		return 0;
	}
	while (!bc_thread_should_stop(t)) {
		err = ls_sk_iter_pass(st);
		if (err)
			return bc_error(ctx, err, "reading the iter/tcp iterator: %s", bc_strerror(err));
	}
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
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS, .bpf = "hits"),
};

/* Says which revision's measurement a run makes; --nr-socks means
 * nothing to the hot-socket one. */
static int ls_sk_validate(struct bc_ctx *ctx)
{
	const struct ls_opts *o = LS_OPTS(ctx);

	if (o->sk_mode != LS_SK_ITER_TCP && o->nr_socks != LS_SK_NR_SOCKS_DEF)
		bc_warn("--nr-socks applies to --sk-mode iter-tcp only; ignored by --sk-mode getsockopt");
	return 0;
}

static const struct bc_option ls_sk_options[] = {
	BC_OPT_ENUM(struct ls_opts, sk_mode, "sk-mode", .def = "getsockopt",
		    .words = ls_sk_mode_words, .arg = "MODE",
		    .help = "getsockopt: 100 gets on one hot socket per getsockopt() (the series' "
			    "first revision); iter-tcp: one get per socket over --nr-socks cold "
			    "sockets in a bpf_iter/tcp pass (its later revision)"),
	BC_OPT_INT(struct ls_opts, nr_socks, "nr-socks", .def = "100000", .min = 1,
		   .max = LS_MAX_NR_SOCKS,
		   .help = "listening TCP sockets for --sk-mode iter-tcp"),
};

/* One socket, as the runner: more producers would share its storage. */
const struct bc_bench_desc ls_bench_sk_get = BC_BENCH("sk-storage-get",
	"bpf_sk_storage_get on a socket with storage: 100 per getsockopt on one socket, or --sk-mode iter-tcp over --nr-socks cold ones",
	ls_sk_metrics, .runner_name = true, .producers = BC_THREADS(1, 1, 1),
	BC_OPTIONS(ls_sk_options), .validate = ls_sk_validate, .probe = ls_sk_probe,
	BC_NEEDS(ls_sk_needs), .quick_probe = ls_sk_quick_probe, .setup = ls_sk_setup,
	.producer = ls_sk_producer, .teardown = ls_sk_teardown);
