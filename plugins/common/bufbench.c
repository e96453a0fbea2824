// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bufbench.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct bc_buf_opts bc_buf_opts = {
	.batch_cnt = BC_BUF_BATCH_DEF,
	.sample_rate = BC_BUF_RATE_DEF,
	.rb_size = BC_BUF_RB_SIZE_DEF,
	.pb_pages = BC_BUF_PB_PAGES_DEF,
};

void bc_buf_opts_defaults(struct bc_buf_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->batch_cnt = BC_BUF_BATCH_DEF;
	o->sample_rate = BC_BUF_RATE_DEF;
	o->rb_size = BC_BUF_RB_SIZE_DEF;
	o->pb_pages = BC_BUF_PB_PAGES_DEF;
}

static int bc_buf_fail(struct bc_buf_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bc_buf_fail(struct bc_buf_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->error[0]) {
		va_start(ap, fmt);
		vsnprintf(o->error, sizeof(o->error), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A plain decimal number with an optional K/M/G (binary) suffix when
 * `suffixes`; no sign, no trailing junk. */
static int bc_buf_parse_u64(const char *arg, bool suffixes, unsigned long long *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno)
		return -ERANGE;
	if (suffixes && *end) {
		switch (*end) {
		case 'k': case 'K': mul = 1ull << 10; break;
		case 'm': case 'M': mul = 1ull << 20; break;
		case 'g': case 'G': mul = 1ull << 30; break;
		default: return -EINVAL;
		}
		end++;
		if (*end == 'i' && end[1] == 'B')
			end += 2;
		else if (*end == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	if (v > ULLONG_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

static bool bc_is_pow2(unsigned long long v)
{
	return v && !(v & (v - 1));
}

static int bc_buf_count(struct bc_buf_opts *o, const char *opt, const char *arg,
			unsigned long long max, unsigned int *out)
{
	unsigned long long v;

	if (bc_buf_parse_u64(arg, false, &v) || v < 1 || v > max)
		return bc_buf_fail(o, "%s '%s': expected a whole number from 1 to %llu", opt,
				   arg ? arg : "", max);
	*out = (unsigned int)v;
	return 0;
}

int bc_buf_opts_set(struct bc_buf_opts *o, int key, const char *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long v;

	switch (key) {
	case BC_BUF_OPT_B2B:
		o->b2b = true;
		return 0;
	case BC_BUF_OPT_USE_OUTPUT:
		o->use_output = true;
		return 0;
	case BC_BUF_OPT_SAMPLED:
		o->sampled = true;
		return 0;
	case BC_BUF_OPT_BATCH_CNT:
		return bc_buf_count(o, "--rb-batch-cnt", arg, BC_BUF_BATCH_MAX, &o->batch_cnt);
	case BC_BUF_OPT_SAMPLE_RATE:
		return bc_buf_count(o, "--rb-sample-rate", arg, BC_BUF_RATE_MAX, &o->sample_rate);
	case BC_BUF_OPT_RB_SIZE:
		if (bc_buf_parse_u64(arg, true, &v) || !bc_is_pow2(v) || v < (unsigned long long)page ||
		    v > BC_BUF_RB_SIZE_MAX)
			return bc_buf_fail(o, "--rb-size '%s': expected a power of two from %ld (the page size) to %llu bytes (K/M/G suffixes allowed)",
					   arg ? arg : "", page, BC_BUF_RB_SIZE_MAX);
		o->rb_size = v;
		o->rb_size_set = true;
		return 0;
	case BC_BUF_OPT_PB_SIZE:
		if (bc_buf_parse_u64(arg, false, &v) || !bc_is_pow2(v) || v > BC_BUF_PB_PAGES_MAX)
			return bc_buf_fail(o, "--pb-size '%s': expected a power of two from 1 to %u pages",
					   arg ? arg : "", BC_BUF_PB_PAGES_MAX);
		o->pb_pages = (unsigned int)v;
		o->pb_size_set = true;
		return 0;
	default:
		return -ENOENT;
	}
}

int bc_buf_validate(struct bc_ctx *ctx, const struct bc_buf_opts *o, enum bc_buf_kind kind)
{
	unsigned int prod = bc_ctx_producer_cnt(ctx), cons = bc_ctx_consumer_cnt(ctx);
	const char *what = kind == BC_BUF_RINGBUF ? "ring buffer" : "perf buffer";

	if (o->error[0])
		return bc_usage_error(ctx, "%s", o->error);
	if (cons != 1)
		return bc_usage_error(ctx, "-c %u: %s benchmarks need exactly one consumer", cons,
				      what);
	if (o->b2b && prod != 1)
		return bc_usage_error(ctx, "--rb-b2b with -p %u: back-to-back mode needs exactly one producer",
				      prod);
	/* Sampled + back-to-back: the only wakeup must come from the batch
	 * the consumer itself triggered, so that batch must reach the rate. */
	if (o->sampled && (o->b2b || kind == BC_BUF_PERFBUF) && o->sample_rate > o->batch_cnt)
		return bc_usage_error(ctx, "--rb-sample-rate %u: may not exceed --rb-batch-cnt (%u)%s",
				      o->sample_rate, o->batch_cnt,
				      kind == BC_BUF_PERFBUF ? " for a perf buffer" :
							       " in back-to-back mode");
	if (kind == BC_BUF_PERFBUF && o->use_output)
		bc_warn("--rb-use-output applies to ring buffers only; ignored by %s",
			bc_ctx_bench_name(ctx));
	if (kind == BC_BUF_PERFBUF && o->rb_size_set)
		bc_warn("--rb-size applies to ring buffers only; ignored by %s (see --pb-size)",
			bc_ctx_bench_name(ctx));
	if (kind == BC_BUF_RINGBUF && o->pb_size_set)
		bc_warn("--pb-size applies to perf buffers only; ignored by %s (see --rb-size)",
			bc_ctx_bench_name(ctx));
	return 0;
}

static const struct argp_option bc_buf_argp_options[] = {
	{ "rb-b2b", BC_BUF_OPT_B2B, NULL, 0,
	  "Back-to-back: the consumer triggers the next batch after draining (one producer)", 0 },
	{ "rb-use-output", BC_BUF_OPT_USE_OUTPUT, NULL, 0,
	  "Ring buffer: bpf_ringbuf_output() instead of reserve/submit", 0 },
	{ "rb-batch-cnt", BC_BUF_OPT_BATCH_CNT, "N", 0,
	  "Records written per producer syscall (default 500)", 0 },
	{ "rb-sampled", BC_BUF_OPT_SAMPLED, NULL, 0,
	  "Sampled notifications: wake the consumer once per --rb-sample-rate records", 0 },
	{ "rb-sample-rate", BC_BUF_OPT_SAMPLE_RATE, "N", 0,
	  "Records per notification with --rb-sampled (default 500)", 0 },
	{ "rb-size", BC_BUF_OPT_RB_SIZE, "BYTES", 0,
	  "Ring buffer size: a power of two, at least a page (default 512K)", 0 },
	{ "pb-size", BC_BUF_OPT_PB_SIZE, "PAGES", 0,
	  "Perf buffer pages per CPU: a power of two (default 128)", 0 },
	{ 0 },
};

static error_t bc_buf_argp_parse(int key, char *arg, struct argp_state *state)
{
	(void)state;
	if (key == ARGP_KEY_INIT) {
		/* A fresh parse starts from the defaults, whatever ran before. */
		bc_buf_opts_defaults(&bc_buf_opts);
		return 0;
	}
	/* Errors are kept for validate(): a parser may not exit(). */
	if (bc_buf_opts_set(&bc_buf_opts, key, arg) == -ENOENT)
		return ARGP_ERR_UNKNOWN;
	return 0;
}

const struct argp bc_buf_argp = {
	.options = bc_buf_argp_options,
	.parser = bc_buf_argp_parse,
};

const struct bc_attach_point bc_buf_attach_points[BC_BUF_ATTACH_CNT] = {
	{ .sz = sizeof(struct bc_attach_point), .kind = BC_ATTACH_FENTRY,
#if defined(__x86_64__)
	  .name = "fentry/__x64_sys_getpgid",
#elif defined(__aarch64__)
	  .name = "fentry/__arm64_sys_getpgid",
#elif defined(__s390x__)
	  .name = "fentry/__s390x_sys_getpgid",
#elif defined(__riscv)
	  .name = "fentry/__riscv_sys_getpgid",
#else
	  .name = "fentry/sys_getpgid",
#endif
	  .prog_name = "bench_fentry" },
	{ .sz = sizeof(struct bc_attach_point), .kind = BC_ATTACH_TP,
	  .name = "tp/syscalls/sys_enter_getpgid", .prog_name = "bench_tp" },
	{ .sz = sizeof(struct bc_attach_point), .kind = BC_ATTACH_RAW_TP,
	  .name = "raw_tp/sys_enter", .prog_name = "bench_raw_tp" },
};

const char *bc_buf_fentry_target(void)
{
	/* The part of the fentry candidate's name after "fentry/". */
	return bc_buf_attach_points[0].name + strlen("fentry/");
}

long bc_buf_getpgid_nr(void)
{
	return SYS_getpgid;
}

void bc_buf_trigger_batch(void)
{
	(void)syscall(SYS_getpgid);
}
