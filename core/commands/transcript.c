// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A run's result across fork() (transcript.h): written into a buffer and
 * out in one go by the child, read back whole and checked field by field by
 * the parent. Numbers travel as their bytes, so the parent's summary is the
 * one the child would have printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/bpf_stats.h"
#include "runtime/figures.h"
#include "runtime/hist.h"
#include "transcript.h"
#include "runtime/config.h"
#include "runtime/loader.h"
#include "runtime/context.h"
#include "runtime/result.h"
#include "runtime/stats.h"
#include "runtime/log.h"

#define BC_TR_MAGIC 0x42435452u	/* "BCTR" */
#define BC_TR_END 0x454e4421u	/* "END!" */
/* Larger than any run: a day of ticks with histograms is a few hundred MiB. */
#define BC_TR_MAX_BYTES (1ull << 32)

/* ------------------------------------------------------------ writing */

struct bc_tr_buf {
	char *p;
	size_t len, cap;
	int err;
};

static void bc_tr_put(struct bc_tr_buf *b, const void *data, size_t len)
{
	if (b->err)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (cap < b->len + len)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->err = -ENOMEM;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void bc_tr_u32(struct bc_tr_buf *b, uint32_t v)
{
	bc_tr_put(b, &v, sizeof(v));
}

static void bc_tr_u64(struct bc_tr_buf *b, uint64_t v)
{
	bc_tr_put(b, &v, sizeof(v));
}

static void bc_tr_f64(struct bc_tr_buf *b, double v)
{
	bc_tr_put(b, &v, sizeof(v));
}

static void bc_tr_str(struct bc_tr_buf *b, const char *s)
{
	uint32_t len = s ? (uint32_t)strlen(s) : 0;

	bc_tr_u32(b, len);
	bc_tr_put(b, s ? s : "", len);
}

static void bc_tr_iter(struct bc_tr_buf *b, const struct bc_iteration *it, unsigned int metric_cnt)
{
	bc_tr_u32(b, it->idx);
	bc_tr_u32(b, it->warmup);
	bc_tr_f64(b, it->length_sec);
	bc_tr_f64(b, it->drift_us);
	bc_tr_f64(b, it->prod_user_sec);
	bc_tr_f64(b, it->prod_sys_sec);
	bc_tr_f64(b, it->cons_user_sec);
	bc_tr_f64(b, it->cons_sys_sec);
	for (unsigned int m = 0; m < metric_cnt; m++) {
		bc_tr_f64(b, it->values[m]);
		bc_tr_f64(b, it->rates[m]);
	}
	bc_tr_u32(b, it->hists != NULL);
	for (unsigned int m = 0; it->hists && m < metric_cnt; m++) {
		const struct bc_hist_interval *iv = &it->hists[m];

		bc_tr_u64(b, iv->n);
		bc_tr_u64(b, iv->max_seen);
		for (size_t k = 0; k < iv->n; k++) {
			bc_tr_u32(b, iv->idx[k]);
			bc_tr_u64(b, iv->cnt[k]);
		}
	}
}

/* --bpf-stats: each interval's deltas per program; the figures are made
 * again from them and the iterations by bc_bpf_stats_compute(). */
static void bc_tr_bpf(struct bc_tr_buf *b, const struct bc_run_result *res)
{
	const struct bc_bpf_stats *s = res->bpf;
	size_t iters = s && s->ticks ? (res->iter_cnt < s->iter_cap ? res->iter_cnt : s->iter_cap) : 0;

	bc_tr_u32(b, s != NULL);
	if (!s)
		return;
	bc_tr_u32(b, s->already);
	bc_tr_u32(b, s->read_errors);
	bc_tr_u64(b, s->prog_cnt);
	bc_tr_u64(b, iters);
	for (size_t i = 0; i < iters * s->prog_cnt; i++) {
		bc_tr_u32(b, s->ticks[i].valid);
		bc_tr_u64(b, s->ticks[i].run_cnt);
		bc_tr_u64(b, s->ticks[i].run_time_ns);
	}
}

int bc_transcript_write(int fd, const struct bc_run_result *res)
{
	unsigned int metric_cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	const struct bc_ctx *ctx = res->ctx;
	struct bc_tr_buf b = { 0 };
	size_t off = 0;
	int err;

	bc_tr_u32(&b, BC_TR_MAGIC);
	bc_tr_u32(&b, (uint32_t)res->exit_status);
	bc_tr_u32(&b, res->interrupted);
	bc_tr_u32(&b, res->cleanup_failed);
	bc_tr_u32(&b, res->producer_cnt);
	bc_tr_u32(&b, res->consumer_cnt);
	bc_tr_u32(&b, res->ticks_late);
	bc_tr_str(&b, res->reason);
	bc_tr_str(&b, ctx ? bc_ctx_attach_point(ctx) : NULL);
	bc_tr_u32(&b, (uint32_t)res->warning_cnt);
	for (size_t i = 0; i < res->warning_cnt; i++)
		bc_tr_str(&b, res->warnings[i]);
	bc_tr_u32(&b, ctx ? (uint32_t)ctx->prog_cnt : 0);
	for (size_t i = 0; ctx && i < ctx->prog_cnt; i++) {
		bc_tr_str(&b, ctx->progs[i].role);
		bc_tr_str(&b, ctx->progs[i].name);
		bc_tr_str(&b, ctx->progs[i].type);
		bc_tr_u32(&b, ctx->progs[i].id);
	}
	bc_tr_u32(&b, metric_cnt);
	bc_tr_u64(&b, res->iter_cnt);
	for (size_t i = 0; i < res->iter_cnt; i++)
		bc_tr_iter(&b, &res->iters[i], metric_cnt);
	bc_tr_bpf(&b, res);
	bc_tr_u32(&b, BC_TR_END);

	err = b.err;
	while (!err && off < b.len) {
		ssize_t n = write(fd, b.p + off, b.len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
	free(b.p);
	return err;
}

/* ------------------------------------------------------------ reading */

struct bc_tr_cur {
	const char *p;
	size_t len, off;
	bool bad;
};

static bool bc_tr_get(struct bc_tr_cur *c, void *out, size_t len)
{
	if (c->bad || c->len - c->off < len) {
		c->bad = true;
		memset(out, 0, len);
		return false;
	}
	memcpy(out, c->p + c->off, len);
	c->off += len;
	return true;
}

static uint32_t bc_tr_get_u32(struct bc_tr_cur *c)
{
	uint32_t v;

	bc_tr_get(c, &v, sizeof(v));
	return v;
}

static uint64_t bc_tr_get_u64(struct bc_tr_cur *c)
{
	uint64_t v;

	bc_tr_get(c, &v, sizeof(v));
	return v;
}

static double bc_tr_get_f64(struct bc_tr_cur *c)
{
	double v;

	bc_tr_get(c, &v, sizeof(v));
	return v;
}

/* A string into buf (truncated to fit), or malloc()ed when buf is NULL. */
static char *bc_tr_get_str(struct bc_tr_cur *c, char *buf, size_t len)
{
	uint32_t n = bc_tr_get_u32(c);
	char *s = buf;

	if (c->bad || c->len - c->off < n) {
		c->bad = true;
		return NULL;
	}
	if (!s) {
		s = malloc((size_t)n + 1);
		if (!s)
			return NULL;
		len = (size_t)n + 1;
	}
	if (len) {
		size_t k = n < len - 1 ? n : len - 1;

		memcpy(s, c->p + c->off, k);
		s[k] = '\0';
	}
	c->off += n;
	return s;
}

static int bc_tr_get_hists(struct bc_tr_cur *c, struct bc_iteration *it, unsigned int metric_cnt)
{
	it->hists = calloc(metric_cnt ? metric_cnt : 1, sizeof(*it->hists));
	if (!it->hists)
		return -ENOMEM;
	for (unsigned int m = 0; m < metric_cnt && !c->bad; m++) {
		struct bc_hist_interval *iv = &it->hists[m];
		uint64_t n = bc_tr_get_u64(c);

		iv->max_seen = bc_tr_get_u64(c);
		if (n > BC_HIST_BUCKETS) {
			c->bad = true;
			break;
		}
		if (!n)
			continue;
		iv->idx = calloc((size_t)n, sizeof(*iv->idx));
		iv->cnt = calloc((size_t)n, sizeof(*iv->cnt));
		if (!iv->idx || !iv->cnt)
			return -ENOMEM;
		iv->n = (size_t)n;
		for (size_t k = 0; k < iv->n; k++) {
			iv->idx[k] = bc_tr_get_u32(c);
			iv->cnt[k] = bc_tr_get_u64(c);
			if (iv->idx[k] >= BC_HIST_BUCKETS)
				c->bad = true;
		}
	}
	return 0;
}

static int bc_tr_get_iter(struct bc_tr_cur *c, struct bc_iteration *it, unsigned int metric_cnt)
{
	size_t per = metric_cnt ? metric_cnt : 1;

	it->values = calloc(per, sizeof(double));
	it->rates = calloc(per, sizeof(double));
	if (!it->values || !it->rates)
		return -ENOMEM;
	it->idx = bc_tr_get_u32(c);
	it->warmup = bc_tr_get_u32(c) != 0;
	it->length_sec = bc_tr_get_f64(c);
	it->drift_us = bc_tr_get_f64(c);
	it->prod_user_sec = bc_tr_get_f64(c);
	it->prod_sys_sec = bc_tr_get_f64(c);
	it->cons_user_sec = bc_tr_get_f64(c);
	it->cons_sys_sec = bc_tr_get_f64(c);
	for (unsigned int m = 0; m < metric_cnt; m++) {
		it->values[m] = bc_tr_get_f64(c);
		it->rates[m] = bc_tr_get_f64(c);
	}
	if (bc_tr_get_u32(c))
		return bc_tr_get_hists(c, it, metric_cnt);
	return 0;
}

static int bc_tr_get_progs(struct bc_tr_cur *c, struct bc_ctx *ctx)
{
	uint32_t cnt = bc_tr_get_u32(c);

	/* Each program takes at least its four length fields. */
	if (cnt > (c->len - c->off) / 16) {
		c->bad = true;
		return 0;
	}
	ctx->progs = calloc(cnt ? cnt : 1, sizeof(*ctx->progs));
	if (!ctx->progs)
		return -ENOMEM;
	for (uint32_t i = 0; i < cnt && !c->bad; i++) {
		struct bc_prog *p = &ctx->progs[i];

		p->fd = -1;
		p->role = bc_tr_get_str(c, NULL, 0);
		if (!p->role)
			return c->bad ? 0 : -ENOMEM;
		ctx->prog_cnt++;
		bc_tr_get_str(c, p->name, sizeof(p->name));
		bc_tr_get_str(c, p->type, sizeof(p->type));
		p->id = bc_tr_get_u32(c);
	}
	return 0;
}

static int bc_tr_get_warnings(struct bc_tr_cur *c, struct bc_run_result *res)
{
	uint32_t cnt = bc_tr_get_u32(c);

	if (cnt > (c->len - c->off) / 4) {
		c->bad = true;
		return 0;
	}
	res->warnings = calloc(cnt ? cnt : 1, sizeof(*res->warnings));
	if (!res->warnings)
		return -ENOMEM;
	for (uint32_t i = 0; i < cnt && !c->bad; i++) {
		res->warnings[i] = bc_tr_get_str(c, NULL, 0);
		if (!res->warnings[i])
			return c->bad ? 0 : -ENOMEM;
		res->warning_cnt++;
	}
	return 0;
}

static int bc_tr_get_bpf(struct bc_tr_cur *c, struct bc_run_result *res)
{
	struct bc_bpf_stats *s;
	uint64_t progs, iters;

	if (!bc_tr_get_u32(c))
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	res->bpf = s;
	s->fd = -1;
	s->already = bc_tr_get_u32(c) != 0;
	s->read_errors = bc_tr_get_u32(c);
	progs = bc_tr_get_u64(c);
	iters = bc_tr_get_u64(c);
	/* Each tick takes 20 bytes; the ticks belong to the iterations read. */
	if (c->bad || iters != res->iter_cnt || (progs && iters > (c->len - c->off) / 20 / progs)) {
		c->bad = true;
		return 0;
	}
	s->prog_cnt = (size_t)progs;
	s->iter_cap = (size_t)iters;
	s->ticks = calloc((s->iter_cap ? s->iter_cap : 1) * (s->prog_cnt ? s->prog_cnt : 1),
			  sizeof(*s->ticks));
	if (!s->ticks)
		return -ENOMEM;
	for (size_t i = 0; i < s->iter_cap * s->prog_cnt && !c->bad; i++) {
		s->ticks[i].valid = bc_tr_get_u32(c) != 0;
		s->ticks[i].run_cnt = bc_tr_get_u64(c);
		s->ticks[i].run_time_ns = bc_tr_get_u64(c);
	}
	return 0;
}

static int bc_tr_parse(struct bc_tr_cur *c, const struct bc_bench *bench,
		       struct bc_run_result *res)
{
	unsigned int metric_cnt = bench->desc.metric_cnt;
	char attach[sizeof(res->owned_ctx->attach_point)];
	uint64_t iter_cnt;
	int err;

	if (bc_tr_get_u32(c) != BC_TR_MAGIC)
		c->bad = true;
	res->exit_status = (int)bc_tr_get_u32(c);
	res->interrupted = bc_tr_get_u32(c) != 0;
	res->cleanup_failed = bc_tr_get_u32(c) != 0;
	res->producer_cnt = bc_tr_get_u32(c);
	res->consumer_cnt = bc_tr_get_u32(c);
	res->ticks_late = bc_tr_get_u32(c);
	bc_tr_get_str(c, res->reason, sizeof(res->reason));
	bc_tr_get_str(c, attach, sizeof(attach));
	res->ctx->producer_cnt = res->producer_cnt;
	res->ctx->consumer_cnt = res->consumer_cnt;
	bc_ctx_set_attach_point(res->ctx, attach[0] ? attach : NULL);
	err = bc_tr_get_warnings(c, res);
	if (!err)
		err = bc_tr_get_progs(c, res->ctx);
	if (err || c->bad)
		return err;
	if (bc_tr_get_u32(c) != metric_cnt)
		c->bad = true;
	iter_cnt = bc_tr_get_u64(c);
	/* Each iteration takes at least its fixed fields. */
	if (c->bad || iter_cnt > (c->len - c->off) / 56) {
		c->bad = true;
		return 0;
	}
	res->iters = calloc(iter_cnt ? (size_t)iter_cnt : 1, sizeof(*res->iters));
	if (!res->iters)
		return -ENOMEM;
	res->iter_cap = (size_t)iter_cnt;
	for (size_t i = 0; i < res->iter_cap && !c->bad; i++) {
		err = bc_tr_get_iter(c, &res->iters[i], metric_cnt);
		if (err)
			return err;
		res->iter_cnt++;
	}
	err = c->bad ? 0 : bc_tr_get_bpf(c, res);
	if (err)
		return err;
	if (bc_tr_get_u32(c) != BC_TR_END || c->off != c->len)
		c->bad = true;
	return 0;
}

static int bc_tr_slurp(int fd, char **buf, size_t *len)
{
	struct stat st;
	size_t off = 0;

	if (fstat(fd, &st) || st.st_size < 0 || (unsigned long long)st.st_size > BC_TR_MAX_BYTES)
		return -EBADMSG;
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf)
		return -ENOMEM;
	while (off < *len) {
		ssize_t n = pread(fd, *buf + off, *len - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EBADMSG;
		off += (size_t)n;
	}
	return 0;
}

int bc_transcript_read(int fd, const struct bc_config *cfg, const struct bc_bench *bench,
		       struct bc_run_result *res, char *err, size_t err_len)
{
	struct bc_tr_cur c = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->bench = bench;
	res->owned_ctx = calloc(1, sizeof(*res->owned_ctx));
	if (!res->owned_ctx) {
		bc_set_err(err, err_len, "out of memory");
		return -ENOMEM;
	}
	res->ctx = res->owned_ctx;
	bc_ctx_init(res->ctx, cfg, bench);
	ret = bc_tr_slurp(fd, &buf, &len);
	if (!ret) {
		c.p = buf;
		c.len = len;
		ret = bc_tr_parse(&c, bench, res);
	}
	free(buf);
	if (!ret && c.bad)
		ret = -EBADMSG;
	if (ret == -ENOMEM) {
		bc_set_err(err, err_len, "out of memory");
		return ret;
	}
	if (ret) {
		bc_set_err(err, err_len, "its result is incomplete (%zu bytes)", len);
		return ret;
	}
	bc_stats_summarise(res);
	if (bc_figures_summarise(res) ||
	    (res->bpf && bc_bpf_stats_compute(res->bpf, res->iters, res->iter_cnt,
					      res->producer_cnt))) {
		bc_set_err(err, err_len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
