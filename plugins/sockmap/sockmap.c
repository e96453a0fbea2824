// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sockmap plugin: the kernel runner's sockmap benchmark. Two loopback
 * TCP connections, c1 <-> p1 and c2 <-> p2, which the benchmark opens in
 * setup() and closes in teardown(). The producer pushes a 128 KiB file
 * with sendfile() into one end; consumer 0 reads what arrives at c2; the
 * mode says what carries the data in between:
 *
 *   receive side (sk_skb stream verdict on p1, or c2 for pass):
 *     --rx-normal          c1 -> p1, consumer 1 copies p1 -> p2 in user
 *                          space -> c2 (a user-space proxy, no BPF)
 *     --rx-pass            p2 -> c2, the program passes it up
 *     --rx-verdict-egress  c1 -> p1, redirected to p2's egress -> c2 (default)
 *     --rx-verdict-ingress c1 -> p1, redirected into c2's receive queue
 *     --rx-strp N          adds a stream parser cutting N-byte messages
 *   send side (sk_msg verdict):
 *     --tx-normal          p2 -> c2, no BPF
 *     --tx-pass            p2 -> c2, the program passes each message
 *     --tx-verdict-ingress p2's messages redirected into c2's receive queue
 *     --tx-verdict-egress  p1's messages redirected to p2's egress -> c2
 *
 * Reported as the runner does: send, BPF and receive speeds in MB/s (10^6
 * bytes) and the send and read call rates; no role combination prints
 * that line, hence format_iter/format_summary. The three byte rates are
 * RATE and nothing is a headline (HITS or OPS would make the core print its
 * own lines instead; all AUX would read as an ABI 1 plugin's layout).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "sockmap_bench.skel.h"

#define SM_FILE_SIZE (128 * 1024)
#define SM_PATTERN 10		/* the file is 0, 1, ..., 9, 0, 1, ... */
#define SM_RCVBUF (16 * 1024 * 1024)
#define SM_POLL_MS 100		/* blocking waits look at the stop flag this often */

#ifndef BPF_F_INGRESS
#define BPF_F_INGRESS 1
#endif

enum sm_mode {
	SM_RX_NORMAL,
	SM_RX_PASS,
	SM_RX_VERDICT_EGRESS,
	SM_RX_VERDICT_INGRESS,
	SM_TX_NORMAL,
	SM_TX_PASS,
	SM_TX_VERDICT_INGRESS,
	SM_TX_VERDICT_EGRESS,
	SM_MODE_CNT,
};

/* The runner's mode switches are flags; one run takes at most one. */
struct sm_opts {
	bool mode[SM_MODE_CNT];
	int64_t rx_strp;
	int64_t delay_consumer;
	int64_t producer_duration;
	bool splice;
	bool verify;
};

#define SM_MODE_OPT(m, name_, help_) \
	BC_OPT_FLAG(struct sm_opts, mode[m], name_, .help = help_)

static const struct bc_option sm_options[] = {
	SM_MODE_OPT(SM_RX_NORMAL, "rx-normal", "receive side, a user-space proxy, no BPF"),
	SM_MODE_OPT(SM_RX_PASS, "rx-pass", "receive side, stream verdict passes the data"),
	SM_MODE_OPT(SM_RX_VERDICT_EGRESS, "rx-verdict-egress",
		    "receive side, stream verdict redirects to the peer's egress (default)"),
	SM_MODE_OPT(SM_RX_VERDICT_INGRESS, "rx-verdict-ingress",
		    "receive side, stream verdict redirects into the reader's queue"),
	SM_MODE_OPT(SM_TX_NORMAL, "tx-normal", "send side, plain sockets, no BPF"),
	SM_MODE_OPT(SM_TX_PASS, "tx-pass", "send side, msg verdict passes each message"),
	SM_MODE_OPT(SM_TX_VERDICT_INGRESS, "tx-verdict-ingress",
		    "send side, msg verdict redirects into the reader's queue"),
	SM_MODE_OPT(SM_TX_VERDICT_EGRESS, "tx-verdict-egress",
		    "send side, msg verdict redirects to another socket's egress"),
	BC_OPT_INT(struct sm_opts, rx_strp, "rx-strp", .min = 0, .max = 1024 * 1024,
		   .arg = "BYTES",
		   .help = "receive-side BPF modes: a stream parser cutting messages of BYTES"),
	BC_OPT_INT(struct sm_opts, delay_consumer, "delay-consumer", .min = -1, .max = 3600,
		   .arg = "SEC", .help = "consumer starts reading SEC seconds late (-1: never)"),
	BC_OPT_INT(struct sm_opts, producer_duration, "producer-duration", .min = 0,
		   .max = 3600, .arg = "SEC", .help = "producer stops after SEC seconds (0: never)"),
	BC_OPT_FLAG(struct sm_opts, splice, "splice",
		    .help = "consumer reads through a pipe with splice() instead of read()"),
	BC_OPT_FLAG(struct sm_opts, verify, "verify",
		    .help = "consumer checks every byte it receives against the file"),
};

static const char *const sm_mode_names[] = {
	"rx-normal", "rx-pass", "rx-verdict-egress", "rx-verdict-ingress",
	"tx-normal", "tx-pass", "tx-verdict-ingress", "tx-verdict-egress",
};

static bool sm_rx_bpf(enum sm_mode m)
{
	return m == SM_RX_PASS || m == SM_RX_VERDICT_EGRESS || m == SM_RX_VERDICT_INGRESS;
}

static bool sm_tx_bpf(enum sm_mode m)
{
	return m == SM_TX_PASS || m == SM_TX_VERDICT_INGRESS || m == SM_TX_VERDICT_EGRESS;
}

/* --------------------------------------------------------------- state */

enum { SM_C1, SM_P1, SM_C2, SM_P2, SM_LISTEN, SM_FD_CNT };

struct sm_state {
	enum sm_mode mode;
	const struct sm_opts *o;
	struct sockmap_bench *skel;
	int fds[SM_FD_CNT];
	int pipefd[2];
	int file_fd;			/* the producer's 128 KiB file */
	int map_fd, prog_fd;		/* what was attached, for detaching */
	enum bpf_attach_type attach_type;
	int parser_fd;			/* attached stream parser, or -1 */
};

static void sm_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Detaches, then closes every socket, pipe and file, then the BPF object:
 * nothing the benchmark opened outlives it. */
static void sm_state_free(struct sm_state *st)
{
	if (!st)
		return;
	if (st->prog_fd >= 0)
		(void)bpf_prog_detach2(st->prog_fd, st->map_fd, st->attach_type);
	if (st->parser_fd >= 0)
		(void)bpf_prog_detach2(st->parser_fd, st->map_fd, BPF_SK_SKB_STREAM_PARSER);
	for (int i = 0; i < SM_FD_CNT; i++)
		sm_close(&st->fds[i]);
	sm_close(&st->pipefd[0]);
	sm_close(&st->pipefd[1]);
	sm_close(&st->file_fd);
	sockmap_bench__destroy(st->skel);
	free(st);
}

static struct sm_state *sm_state_new(void)
{
	struct sm_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	for (int i = 0; i < SM_FD_CNT; i++)
		st->fds[i] = -1;
	st->pipefd[0] = st->pipefd[1] = st->file_fd = -1;
	st->map_fd = st->prog_fd = st->parser_fd = -1;
	return st;
}

/* ------------------------------------------------------------- sockets */

static int sm_set_nonblock(int fd)
{
	int flags = fcntl(fd, F_GETFL, 0);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
		return -errno;
	return 0;
}

/* One connection to the listener: *c the client end, *p the accepted one. */
static int sm_pair(struct bc_ctx *ctx, struct sm_state *st, int *c, int *p)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);

	if (getsockname(st->fds[SM_LISTEN], (struct sockaddr *)&addr, &len))
		return bc_error(ctx, -errno, "getsockname: %s", strerror(errno));
	*c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*c < 0)
		return bc_error(ctx, -errno, "socket: %s", strerror(errno));
	if (connect(*c, (struct sockaddr *)&addr, len))
		return bc_error(ctx, -errno, "connecting to 127.0.0.1:%u: %s",
				ntohs(addr.sin_port), strerror(errno));
	*p = accept4(st->fds[SM_LISTEN], NULL, NULL, SOCK_CLOEXEC);
	if (*p < 0)
		return bc_error(ctx, -errno, "accept: %s", strerror(errno));
	return 0;
}

static int sm_sockets(struct bc_ctx *ctx, struct sm_state *st)
{
	struct sockaddr_in addr = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, err;

	st->fds[SM_LISTEN] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (st->fds[SM_LISTEN] < 0)
		return bc_error(ctx, -errno, "socket: %s", strerror(errno));
	if (setsockopt(st->fds[SM_LISTEN], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(st->fds[SM_LISTEN], (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(st->fds[SM_LISTEN], 8))
		return bc_error(ctx, -errno, "listening on 127.0.0.1: %s", strerror(errno));
	err = sm_pair(ctx, st, &st->fds[SM_C1], &st->fds[SM_P1]);
	if (!err)
		err = sm_pair(ctx, st, &st->fds[SM_C2], &st->fds[SM_P2]);
	return err;
}

/* ------------------------------------------------------------- sockmap */

static int sm_map_put(struct bc_ctx *ctx, int map, int key, int fd)
{
	int err = bpf_map_update_elem(map, &key, &fd, BPF_NOEXIST);

	return err ? bc_error(ctx, err, "adding a socket to the sockmap: %s", bc_strerror(err)) : 0;
}

static int sm_attach(struct bc_ctx *ctx, struct sm_state *st, int prog, int map,
		     enum bpf_attach_type type)
{
	int err = bpf_prog_attach(prog, map, type, 0);

	if (err)
		return bc_unavailable(ctx, "attaching the %s program to a sockmap refused by the "
				      "kernel: %s", type == BPF_SK_MSG_VERDICT ? "sk_msg" : "sk_skb",
				      bc_strerror(err));
	st->prog_fd = prog;
	st->map_fd = map;
	st->attach_type = type;
	return 0;
}

static int sm_setup_rx(struct bc_ctx *ctx, struct sm_state *st)
{
	struct sockmap_bench *s = st->skel;
	int map = bpf_map__fd(s->maps.sock_map_rx);
	int prog = st->mode == SM_RX_PASS ? bpf_program__fd(s->progs.sm_skb_pass) :
					     bpf_program__fd(s->progs.sm_skb_verdict);
	int err;

	if (st->o->rx_strp) {
		int parser = bpf_program__fd(s->progs.sm_skb_parser);

		s->bss->pkt_size = (int)st->o->rx_strp;
		err = bpf_prog_attach(parser, map, BPF_SK_SKB_STREAM_PARSER, 0);
		if (err)
			return bc_unavailable(ctx, "attaching a stream parser to a sockmap refused "
					      "by the kernel: %s", bc_strerror(err));
		st->parser_fd = parser;
		st->map_fd = map;
	}
	err = sm_attach(ctx, st, prog, map, BPF_SK_SKB_STREAM_VERDICT);
	if (err)
		return err;
	if (st->mode == SM_RX_PASS)
		return sm_map_put(ctx, map, 0, st->fds[SM_C2]);
	if (st->mode == SM_RX_VERDICT_INGRESS)
		s->bss->verdict_dir = BPF_F_INGRESS;
	err = sm_map_put(ctx, map, 0, st->fds[SM_P1]);
	if (!err)
		err = sm_map_put(ctx, map, 1, st->fds[st->mode == SM_RX_VERDICT_INGRESS ? SM_C2 :
										   SM_P2]);
	return err;
}

static int sm_setup_tx(struct bc_ctx *ctx, struct sm_state *st)
{
	struct sockmap_bench *s = st->skel;
	int map = bpf_map__fd(s->maps.sock_map_tx);
	int prog = st->mode == SM_TX_PASS ? bpf_program__fd(s->progs.sm_msg_pass) :
					     bpf_program__fd(s->progs.sm_msg_verdict);
	int err;

	err = sm_attach(ctx, st, prog, map, BPF_SK_MSG_VERDICT);
	if (err)
		return err;
	if (st->mode == SM_TX_VERDICT_EGRESS) {
		err = sm_map_put(ctx, map, 0, st->fds[SM_P1]);
		return err ? err : sm_map_put(ctx, map, 1, st->fds[SM_P2]);
	}
	s->bss->verdict_dir = BPF_F_INGRESS;
	err = sm_map_put(ctx, map, 0, st->fds[SM_P2]);
	return err ? err : sm_map_put(ctx, map, 1, st->fds[SM_C2]);
}

/* The producer's file: 0..9 repeated, unlinked. */
static int sm_make_file(struct bc_ctx *ctx, struct sm_state *st)
{
	char path[] = "/tmp/benchcore-sockmap-XXXXXX";
	char *buf = malloc(SM_FILE_SIZE);
	ssize_t n;

	if (!buf)
		return bc_error(ctx, -ENOMEM, "out of memory");
	for (size_t i = 0; i < SM_FILE_SIZE; i++)
		buf[i] = (char)(i % SM_PATTERN);
	st->file_fd = mkostemp(path, O_CLOEXEC);
	if (st->file_fd < 0) {
		free(buf);
		return bc_error(ctx, -errno, "creating the file to send: %s", strerror(errno));
	}
	unlink(path);
	n = write(st->file_fd, buf, SM_FILE_SIZE);
	free(buf);
	if (n != SM_FILE_SIZE)
		return bc_error(ctx, -EIO, "writing the file to send: %s", strerror(errno));
	return 0;
}

/* ----------------------------------------------------------- callbacks */

static enum sm_mode sm_mode_of(const struct sm_opts *o)
{
	for (int m = 0; m < SM_MODE_CNT; m++)
		if (o->mode[m])
			return (enum sm_mode)m;
	return SM_RX_VERDICT_EGRESS;
}

static int sm_validate(struct bc_ctx *ctx)
{
	const struct sm_opts *o = bc_ctx_opts(ctx);
	int given = 0;

	if (!o)
		return 0;
	for (int m = 0; m < SM_MODE_CNT; m++)
		given += o->mode[m];
	if (given > 1) {
		char list[256] = "";

		for (int m = 0; m < SM_MODE_CNT; m++)
			if (o->mode[m])
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 "%s--%s", list[0] ? ", " : "", sm_mode_names[m]);
		return bc_usage_error(ctx, "%s: one mode per run, expected one of them", list);
	}
	if (o->rx_strp && !sm_rx_bpf(sm_mode_of(o)))
		return bc_usage_error(ctx, "--rx-strp '%lld': a stream parser only runs in "
				      "--rx-pass, --rx-verdict-egress and --rx-verdict-ingress",
				      (long long)o->rx_strp);
	return 0;
}

static int sm_probe(struct bc_ctx *ctx)
{
	struct sockmap_bench *skel;
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	int err;

	if (quiet)
		old = libbpf_set_print(NULL);
	skel = sockmap_bench__open_and_load();
	err = skel ? 0 : (errno ? -errno : -EINVAL);
	if (quiet)
		libbpf_set_print(old);
	sockmap_bench__destroy(skel);
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF, CAP_NET_ADMIN) to load BPF "
				      "programs: %s", bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused the sockmap programs (sk_skb, "
				      "sk_msg, CONFIG_BPF_STREAM_PARSER): %s", bc_strerror(err));
	return 0;
}

/* What `list` checks instead of loading the programs. */
static const struct bc_need sm_needs[] = {
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SK_SKB),
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SK_MSG),
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_SOCKMAP,
		.why = "sockmaps (CONFIG_BPF_STREAM_PARSER)"),
};

static int sm_setup(struct bc_ctx *ctx)
{
	const struct sm_opts *o = bc_ctx_opts(ctx);
	int rcvbuf = SM_RCVBUF;
	struct sm_state *st;
	int err;

	st = sm_state_new();
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* Set first: teardown() closes whatever a failed setup opened. */
	bc_ctx_set_data(ctx, st);
	st->o = o;
	st->mode = sm_mode_of(o);

	st->skel = sockmap_bench__open_and_load();
	if (!st->skel)
		return bc_unavailable(ctx, "the kernel refused the sockmap programs: %s",
				      strerror(errno));
	/* bpf_bytes is the core's to read (`bpf`). */
	err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (err)
		return err;
	err = sm_sockets(ctx, st);
	if (err)
		return err;
	if (sm_rx_bpf(st->mode))
		err = sm_setup_rx(ctx, st);
	else if (sm_tx_bpf(st->mode))
		err = sm_setup_tx(ctx, st);
	if (err)
		return err;
	err = sm_make_file(ctx, st);
	if (err)
		return err;
	if (o->splice) {
		if (pipe2(st->pipefd, O_CLOEXEC))
			return bc_error(ctx, -errno, "pipe: %s", strerror(errno));
		err = sm_set_nonblock(st->fds[SM_C2]);
		if (err)
			return bc_error(ctx, err, "making c2 non-blocking: %s", bc_strerror(err));
	}
	(void)setsockopt(st->fds[SM_C2], SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (st->prog_fd >= 0) {
		err = bc_ctx_add_prog(ctx, st->prog_fd, "measured");
		if (err)
			return bc_error(ctx, err, "declaring the program: %s", bc_strerror(err));
	}
	bc_ctx_set_attach_point(ctx, st->mode == SM_RX_NORMAL || st->mode == SM_TX_NORMAL ?
					     "none (plain loopback sockets)" :
				     sm_rx_bpf(st->mode) ? "sk_skb/stream_verdict on sock_map_rx" :
							   "sk_msg on sock_map_tx");
	bc_ctx_log(ctx, BC_LOG_INFO, "mode %s, loopback connections c1 %d <-> p1 %d, c2 %d <-> p2 %d",
		sm_mode_names[st->mode], st->fds[SM_C1], st->fds[SM_P1], st->fds[SM_C2],
		st->fds[SM_P2]);
	return 0;
}

static void sm_teardown(struct bc_ctx *ctx)
{
	sm_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static double sm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits until fd is ready or SM_POLL_MS passed: never blocks past a stop. */
static void sm_wait(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	(void)poll(&p, 1, SM_POLL_MS);
}

static int sm_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct sm_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *calls = bc_thread_counter(ctx, t, "send_calls");
	struct bc_line_counter *bytes = bc_thread_counter(ctx, t, "send_bytes");
	int target, err;
	off_t off = 0;
	double start = sm_now();

	if (st->mode == SM_RX_VERDICT_EGRESS || st->mode == SM_RX_VERDICT_INGRESS ||
	    st->mode == SM_RX_NORMAL)
		target = st->fds[SM_C1];
	else if (st->mode == SM_TX_VERDICT_EGRESS)
		target = st->fds[SM_P1];
	else
		target = st->fds[SM_P2];
	err = sm_set_nonblock(target);
	if (err)
		return bc_error(ctx, err, "making the sending socket non-blocking: %s",
				bc_strerror(err));

	while (!bc_thread_should_stop(t)) {
		ssize_t sent;

		if (st->o->producer_duration && sm_now() - start > (double)st->o->producer_duration)
			break;
		bc_counter_add(calls, 1);
		sent = sendfile(target, st->file_fd, &off, SM_FILE_SIZE - off);
		if (sent < 0) {
			if (errno == EAGAIN) {
				sm_wait(target, POLLOUT);
				continue;
			}
			if (errno == ENOMEM || errno == ENOBUFS)
				continue;
			return bc_error(ctx, -errno, "sendfile: %s", strerror(errno));
		}
		bc_counter_add(bytes, (uint64_t)sent);
		if (off >= SM_FILE_SIZE)
			off = 0;
	}
	return 0;
}

/* Every received byte must continue the file's 0..9 pattern. */
static int sm_verify(struct bc_ctx *ctx, const char *buf, ssize_t n, uint64_t *pos)
{
	for (ssize_t i = 0; i < n; i++, (*pos)++)
		if (buf[i] != (char)(*pos % SM_FILE_SIZE % SM_PATTERN))
			return bc_error(ctx, -EPROTO, "--verify: received byte %llu is %d, "
					"expected %d", (unsigned long long)*pos, buf[i],
					(int)(*pos % SM_FILE_SIZE % SM_PATTERN));
	return 0;
}

/* Consumer 1 of --rx-normal: the user-space proxy, p1 -> p2. */
static int sm_proxy(struct bc_ctx *ctx, struct sm_state *st, struct bc_thread *t, char *buf)
{
	while (!bc_thread_should_stop(t)) {
		ssize_t n, done = 0;

		sm_wait(st->fds[SM_P1], POLLIN);
		n = recv(st->fds[SM_P1], buf, SM_FILE_SIZE, MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n <= 0)
			return n ? bc_error(ctx, -errno, "proxy read from p1: %s", strerror(errno)) : 0;
		while (done < n && !bc_thread_should_stop(t)) {
			ssize_t m = send(st->fds[SM_P2], buf + done, n - done, MSG_DONTWAIT);

			if (m < 0 && errno == EAGAIN) {
				sm_wait(st->fds[SM_P2], POLLOUT);
				continue;
			}
			if (m < 0)
				return bc_error(ctx, -errno, "proxy send to p2: %s", strerror(errno));
			done += m;
		}
	}
	return 0;
}

static int sm_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct sm_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *calls = bc_thread_counter(ctx, t, "rcv_calls");
	struct bc_line_counter *bytes = bc_thread_counter(ctx, t, "rcv_bytes");
	int64_t delay = st->o->delay_consumer;
	uint64_t pos = 0;
	char *buf;
	int err = 0;

	/* Consumer 1 is the proxy of --rx-normal and idle otherwise. */
	if (t->idx == 1 && st->mode != SM_RX_NORMAL)
		return 0;
	buf = malloc(SM_FILE_SIZE);
	if (!buf)
		return bc_error(ctx, -ENOMEM, "out of memory");
	if (t->idx == 1) {
		err = sm_proxy(ctx, st, t, buf);
		free(buf);
		return err;
	}
	if (delay < 0) {
		free(buf);
		return 0;
	}
	for (double until = sm_now() + (double)delay; sm_now() < until;)
		if (bc_thread_should_stop(t) || usleep(SM_POLL_MS * 1000) < 0)
			break;

	while (!bc_thread_should_stop(t)) {
		ssize_t n;

		sm_wait(st->fds[SM_C2], POLLIN);
		bc_counter_add(calls, 1);
		if (st->o->splice) {
			n = splice(st->fds[SM_C2], NULL, st->pipefd[1], NULL, SM_FILE_SIZE,
				   SPLICE_F_NONBLOCK);
			if (n > 0)
				n = read(st->pipefd[0], buf, (size_t)n);
		} else {
			n = recv(st->fds[SM_C2], buf, SM_FILE_SIZE, MSG_DONTWAIT);
		}
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0) {
			err = bc_error(ctx, -errno, "reading c2: %s", strerror(errno));
			break;
		}
		if (st->o->verify) {
			err = sm_verify(ctx, buf, n, &pos);
			if (err)
				break;
		}
		bc_counter_add(bytes, (uint64_t)n);
	}
	free(buf);
	return err;
}

/* sm_metrics[], by what each is: the lines below read them so. */
enum { SM_M_SEND_BYTES, SM_M_SEND_CALLS, SM_M_BPF_BYTES, SM_M_RCV_BYTES, SM_M_RCV_CALLS };

/* The runner's line: "Send Speed ... MB/s (... calls/s), BPF Speed ... MB/s,
 * Rcv Speed ... MB/s (... calls/s)", MB being 10^6 bytes. */
static int sm_format_iter(struct bc_ctx *ctx, const double *rates, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "Send Speed %8.3lf MB/s (%8.3lf calls/s), BPF Speed %8.3lf MB/s, "
		 "Rcv Speed %8.3lf MB/s (%8.3lf calls/s)", rates[SM_M_SEND_BYTES] / 1e6,
		 rates[SM_M_SEND_CALLS], rates[SM_M_BPF_BYTES] / 1e6, rates[SM_M_RCV_BYTES] / 1e6,
		 rates[SM_M_RCV_CALLS]);
	return 0;
}

/* The runner's summary: what the BPF programs moved in all, and per second. */
static int sm_format_summary(struct bc_ctx *ctx, const double *means, const double *stddevs,
			     char *buf, size_t len)
{
	unsigned long total =
		(unsigned long)(means[SM_M_BPF_BYTES] * bc_ctx_duration_sec(ctx) / 1e6);

	(void)stddevs;
	snprintf(buf, len, "total trans %8.3lu MB \u00b1 %5.3lf MB/s", total,
		 means[SM_M_BPF_BYTES] / 1e6);
	return 0;
}

/* Counted by the producer (send), consumer 0 (rcv) and BPF, all summed by
 * the core. */
static const struct bc_metric_desc sm_metrics[] = {
	[SM_M_SEND_BYTES] = BC_METRIC("send_bytes", "bytes", BC_METRIC_COUNTER,
				      .role = BC_ROLE_RATE, .label = "bytes sent", .threads = true),
	[SM_M_SEND_CALLS] = BC_METRIC("send_calls", "calls", BC_METRIC_COUNTER,
				      .role = BC_ROLE_AUX, .label = "sendfile() calls",
				      .threads = true),
	[SM_M_BPF_BYTES] = BC_METRIC("bpf_bytes", "bytes", BC_METRIC_COUNTER, .role = BC_ROLE_RATE,
				     .label = "bytes the BPF programs saw", .bpf = "process_bytes"),
	[SM_M_RCV_BYTES] = BC_METRIC("rcv_bytes", "bytes", BC_METRIC_COUNTER,
				     .role = BC_ROLE_RATE, .label = "bytes received", .threads = true),
	[SM_M_RCV_CALLS] = BC_METRIC("rcv_calls", "calls", BC_METRIC_COUNTER,
				     .role = BC_ROLE_AUX, .label = "read calls", .threads = true),
};

static const struct bc_bench_desc sm_bench = BC_BENCH("sockmap",
	"loopback TCP forwarding by sockmap verdict programs vs user space (mode flags)",
	sm_metrics, .runner_name = true, .producers = BC_THREADS(1, 1, 1),
	.consumers = BC_THREADS(2, 2, 2), .probe = sm_probe, BC_NEEDS(sm_needs),
	.validate = sm_validate, .setup = sm_setup, .producer = sm_producer,
	.consumer = sm_consumer, .teardown = sm_teardown, .format_iter = sm_format_iter,
	.format_summary = sm_format_summary);

BENCHCORE_PLUGIN(.name = "sockmap", .version = "1.0",
		 .description = "sockmap: forwarding between loopback TCP sockets in BPF",
		 BC_OPTIONS(sm_options), .opts_size = sizeof(struct sm_opts),
		 BC_BENCHES(&sm_bench));
