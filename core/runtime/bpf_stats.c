// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `run --bpf-stats`: how much of a benchmark's time its programs take.
 *
 * The kernel counts runs and nanoseconds per program only while its
 * run-time statistics are on (a static key: every program run then reads
 * the clock twice). The run holds them on through the fd of
 * BPF_ENABLE_STATS, from before setup() to after teardown(), and closing the
 * fd turns them off again unless someone else (the kernel.bpf_stats_enabled
 * sysctl, another process's fd) also holds them. The sysctl shows only its
 * own setting, so whether they were on before is asked of a program run.
 *
 * The sampler reads each program declared with bc_ctx_add_prog() at every
 * tick (one bpf_obj_get_info_by_fd() each, never from a producer's loop),
 * and each interval's deltas become runs per second, ns per run, and the
 * share of the producers' time (and of their CPU time) spent inside the
 * program.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <benchcore/attach.h>

#include "bpf_stats.h"
#include "context.h"
#include "result.h"
#include "stats.h"
#include "log.h"

#define BC_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

/* ------------------------------------------------------------ arithmetic */

void bc_prog_tick_compute(struct bc_prog_tick *t, uint64_t run_cnt, uint64_t run_time_ns,
			  double length_sec, unsigned int producers, double prod_cpu_sec)
{
	double ns = (double)run_time_ns;

	t->valid = true;
	t->run_cnt = run_cnt;
	t->run_time_ns = run_time_ns;
	t->runs_per_sec = length_sec > 0 ? (double)run_cnt / length_sec : NAN;
	t->ns_per_run = run_cnt ? ns / (double)run_cnt : NAN;
	t->prod_pct = producers && length_sec > 0 ?
		      100.0 * ns / ((double)producers * length_sec * 1e9) : NAN;
	t->prod_cpu_pct = prod_cpu_sec > 0 ? 100.0 * ns / (prod_cpu_sec * 1e9) : NAN;
}

const struct bc_prog_tick *bc_bpf_stats_tick_at(const struct bc_bpf_stats *s, size_t i, size_t p)
{
	if (!s || !s->ticks || i >= s->iter_cap || p >= s->prog_cnt)
		return NULL;
	return &s->ticks[i * s->prog_cnt + p];
}

/* Summary of the non-NaN values among xs[0..n-1] (none: all zero). */
static void bc_summary_of(double *xs, size_t n, struct bc_metric_summary *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(xs[i]))
			xs[k++] = xs[i];
	memset(out, 0, sizeof(*out));
	if (k)
		bc_stats_compute(xs, k, out);
}

static double bc_pct(uint64_t ns, double denom_sec)
{
	return denom_sec > 0 ? 100.0 * (double)ns / (denom_sec * 1e9) : NAN;
}

static double bc_prod_cpu(const struct bc_iteration *it)
{
	return it->prod_user_sec + it->prod_sys_sec;
}

/* One program's sums and spreads over the measured intervals. */
static void bc_prog_summarise(struct bc_bpf_stats *s, size_t p, const struct bc_iteration *iters,
			      size_t iter_cnt, unsigned int producers, double *buf[4])
{
	struct bc_prog_stats *ps = &s->progs[p];
	size_t i, n = 0;

	for (i = 0; i < iter_cnt; i++) {
		const struct bc_prog_tick *t = bc_bpf_stats_tick_at(s, i, p);

		if (iters[i].warmup || !t->valid)
			continue;
		ps->measured_sec += iters[i].length_sec;
		ps->prod_cpu_sec += bc_prod_cpu(&iters[i]);
		ps->run_cnt += t->run_cnt;
		ps->run_time_ns += t->run_time_ns;
		buf[0][n] = t->runs_per_sec;
		buf[1][n] = t->ns_per_run;	/* NaN without runs: left out */
		buf[2][n] = t->prod_pct;
		buf[3][n++] = t->prod_cpu_pct;
	}
	bc_summary_of(buf[0], n, &ps->runs_per_sec);
	bc_summary_of(buf[1], n, &ps->ns_per_run);
	bc_summary_of(buf[2], n, &ps->prod_pct);
	bc_summary_of(buf[3], n, &ps->prod_cpu_pct);
	ps->ns_per_run_value = ps->run_cnt ? (double)ps->run_time_ns / (double)ps->run_cnt : NAN;
	ps->prod_pct_value = producers ? bc_pct(ps->run_time_ns, producers * ps->measured_sec) :
					 NAN;
	ps->prod_cpu_pct_value = bc_pct(ps->run_time_ns, ps->prod_cpu_sec);
}

/* Every program together, interval by interval. */
static void bc_total_summarise(struct bc_bpf_stats *s, const struct bc_iteration *iters,
			       size_t iter_cnt, unsigned int producers, double *buf[4])
{
	double measured = 0, cpu = 0;
	size_t i, p, n = 0;
	uint64_t ns = 0;

	for (i = 0; i < iter_cnt; i++) {
		uint64_t tick_ns = 0;
		bool any = false;

		if (iters[i].warmup)
			continue;
		for (p = 0; p < s->prog_cnt; p++) {
			const struct bc_prog_tick *t = bc_bpf_stats_tick_at(s, i, p);

			if (t->valid) {
				tick_ns += t->run_time_ns;
				any = true;
			}
		}
		if (!any)
			continue;
		measured += iters[i].length_sec;
		cpu += bc_prod_cpu(&iters[i]);
		ns += tick_ns;
		buf[0][n] = producers ? bc_pct(tick_ns, producers * iters[i].length_sec) : NAN;
		buf[1][n++] = bc_pct(tick_ns, bc_prod_cpu(&iters[i]));
	}
	bc_summary_of(buf[0], n, &s->total_pct);
	bc_summary_of(buf[1], n, &s->total_cpu_pct);
	s->total_pct_value = producers && n ? bc_pct(ns, producers * measured) : NAN;
	s->total_cpu_pct_value = n ? bc_pct(ns, cpu) : NAN;
}

int bc_bpf_stats_compute(struct bc_bpf_stats *s, const struct bc_iteration *iters,
			 size_t iter_cnt, unsigned int producers)
{
	double *buf[4];
	size_t i, p, k;
	int err = 0;

	if (iter_cnt > s->iter_cap)
		iter_cnt = s->iter_cap;
	free(s->progs);
	s->progs = calloc(s->prog_cnt ? s->prog_cnt : 1, sizeof(*s->progs));
	for (k = 0; k < 4; k++)
		buf[k] = calloc(iter_cnt + 1, sizeof(double));
	if (!s->progs || !buf[0] || !buf[1] || !buf[2] || !buf[3]) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < iter_cnt; i++) {
		for (p = 0; p < s->prog_cnt; p++) {
			struct bc_prog_tick *t = &s->ticks[i * s->prog_cnt + p];

			if (t->valid)
				bc_prog_tick_compute(t, t->run_cnt, t->run_time_ns,
						     iters[i].length_sec, producers,
						     bc_prod_cpu(&iters[i]));
		}
	}
	for (p = 0; p < s->prog_cnt; p++)
		bc_prog_summarise(s, p, iters, iter_cnt, producers, buf);
	bc_total_summarise(s, iters, iter_cnt, producers, buf);
out:
	for (k = 0; k < 4; k++)
		free(buf[k]);
	return err;
}

/* ---------------------------------------------------------------- kernel */

/* The sysctl's own setting: 1 on, 0 off, -1 unknown (a kernel before 5.8,
 * or no /proc). It does not show another process's BPF_ENABLE_STATS fd. */
static int bc_stats_sysctl(void)
{
	char buf[16] = "";
	ssize_t n;
	int fd;

	fd = open(BC_STATS_SYSCTL, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	return buf[0] == '1' ? 1 : buf[0] == '0' ? 0 : -1;
}

int bc_bpf_stats_probe(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	/* A socket filter's test run takes a packet of at least an Ethernet
	 * header; it is never sent anywhere. */
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bc_stats_probe", "GPL", ret0, 2, NULL);
	if (fd < 0)
		return fd < -1 ? fd : -errno;
	err = bpf_prog_test_run_opts(fd, &opts);
	if (!err) {
		memset(&info, 0, sizeof(info));
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		if (!err)
			err = info.run_cnt > 0;
	}
	if (err < 0)
		err = err < -1 ? err : -errno;
	close(fd);
	return err;
}

static const char *bc_errno_str(int err, char *buf, size_t len)
{
	err = err < 0 ? -err : err;
	if (err == BC_ENOTSUPP)
		snprintf(buf, len, "not supported (ENOTSUPP)");
	else
		snprintf(buf, len, "%s", strerror(err));
	return buf;
}

int bc_bpf_stats_refused(struct bc_ctx *ctx, int err, bool already)
{
	char why[128];

	bc_errno_str(err, why, sizeof(why));
	if (already) {
		bc_info("--bpf-stats: cannot hold the BPF run-time statistics (%s), but they are "
			"already on; reading them", why);
		return 0;
	}
	switch (err < 0 ? -err : err) {
	case EPERM:
	case EACCES:
		return bc_unavailable(ctx, "--bpf-stats: the kernel refused to enable the BPF "
				      "run-time statistics (BPF_ENABLE_STATS): %s; it takes "
				      "CAP_SYS_ADMIN", why);
	case EINVAL:
	case E2BIG:
	case ENOSYS:
	case EOPNOTSUPP:
	case BC_ENOTSUPP:
		return bc_unavailable(ctx, "--bpf-stats: this kernel has no BPF run-time "
				      "statistics (BPF_ENABLE_STATS, Linux 5.8 and later): %s", why);
	default:
		return bc_error(ctx, err, "--bpf-stats: enabling the BPF run-time statistics "
				"failed: %s", why);
	}
}

int bc_bpf_stats_enable(struct bc_ctx *ctx, struct bc_bpf_stats **out)
{
	return bc_bpf_stats_enable_opt(ctx, out, false);
}

int bc_bpf_stats_enable_opt(struct bc_ctx *ctx, struct bc_bpf_stats **out, bool defer)
{
	struct bc_bpf_stats *s;
	int err, sysctl;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bc_error(ctx, -ENOMEM, "--bpf-stats: out of memory");
	/* The sysctl says only what it set itself; a program run says whether
	 * anyone (the sysctl, another process's fd) has them on. */
	sysctl = bc_stats_sysctl();
	s->already = sysctl == 1 || bc_bpf_stats_probe() == 1;
	s->fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (s->fd < 0) {
		/* libbpf 1.x returns -errno; 0.x returned -1 with errno set. */
		err = s->fd < -1 ? s->fd : -errno;
		s->fd = -1;
		err = bc_bpf_stats_refused(ctx, err, s->already);
		/* Benchmarks without BPF run as usual (docs/measuring.md). */
		if (err && defer && ctx->unavailable) {
			bc_ctx_reason_copy(ctx, s->refused, sizeof(s->refused));
			ctx->reason[0] = '\0';
			ctx->unavailable = false;
			err = 0;
		}
		if (err) {
			free(s);
			return err;
		}
	} else if (s->already) {
		bc_info("--bpf-stats: the BPF run-time statistics were already on (%s), so runs "
			"without --bpf-stats pay for them too; reading them",
			sysctl == 1 ? "sysctl kernel.bpf_stats_enabled = 1" :
				      "another process holds them through BPF_ENABLE_STATS");
	}
	bc_debug("--bpf-stats: BPF run-time statistics on (fd %d)", s->fd);
	*out = s;
	return 0;
}

/* The program's counters now; false when they cannot be read. */
static bool bc_prog_read(const struct bc_prog *p, uint64_t *cnt, uint64_t *ns)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	if (p->fd < 0)
		return false;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(p->fd, &info, &len))
		return false;
	*cnt = info.run_cnt;
	*ns = info.run_time_ns;
	return true;
}

int bc_bpf_stats_start(struct bc_bpf_stats *s, const struct bc_ctx *ctx, size_t iter_cap)
{
	size_t p, cnt = ctx->prog_cnt;

	s->prog_cnt = cnt;
	s->iter_cap = iter_cap;
	s->last_cnt = calloc(cnt ? cnt : 1, sizeof(*s->last_cnt));
	s->last_ns = calloc(cnt ? cnt : 1, sizeof(*s->last_ns));
	s->last_ok = calloc(cnt ? cnt : 1, sizeof(*s->last_ok));
	s->ticks = calloc((iter_cap ? iter_cap : 1) * (cnt ? cnt : 1), sizeof(*s->ticks));
	if (!s->last_cnt || !s->last_ns || !s->last_ok || !s->ticks)
		return -ENOMEM;
	if (!cnt)
		bc_info("--bpf-stats: %s declares no BPF programs; there is nothing to read",
			ctx->bench ? ctx->bench->desc.name : "the benchmark");
	for (p = 0; p < cnt; p++) {
		s->last_ok[p] = bc_prog_read(&ctx->progs[p], &s->last_cnt[p], &s->last_ns[p]);
		s->read_errors += !s->last_ok[p];
	}
	return 0;
}

void bc_bpf_stats_sample(struct bc_bpf_stats *s, const struct bc_ctx *ctx, size_t iter)
{
	size_t p;

	if (!s || !s->ticks || iter >= s->iter_cap)
		return;
	for (p = 0; p < s->prog_cnt && p < ctx->prog_cnt; p++) {
		struct bc_prog_tick *t = &s->ticks[iter * s->prog_cnt + p];
		uint64_t cnt, ns;

		if (!bc_prog_read(&ctx->progs[p], &cnt, &ns)) {
			s->read_errors++;
			s->last_ok[p] = false;
			continue;
		}
		/* An interval needs both ends; counters only grow. */
		if (s->last_ok[p] && cnt >= s->last_cnt[p] && ns >= s->last_ns[p]) {
			t->valid = true;
			t->run_cnt = cnt - s->last_cnt[p];
			t->run_time_ns = ns - s->last_ns[p];
		}
		s->last_cnt[p] = cnt;
		s->last_ns[p] = ns;
		s->last_ok[p] = true;
	}
}

void bc_bpf_stats_release(struct bc_bpf_stats *s)
{
	if (!s || s->fd < 0)
		return;
	close(s->fd);
	s->fd = -1;
	bc_debug("--bpf-stats: BPF run-time statistics released");
}

void bc_bpf_stats_free(struct bc_bpf_stats *s)
{
	if (!s)
		return;
	bc_bpf_stats_release(s);
	free(s->last_cnt);
	free(s->last_ns);
	free(s->last_ok);
	free(s->ticks);
	free(s->progs);
	free(s);
}
