// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The options ringbuf and perfbuf share: parsing, defaults, and validation
 * against the run (thread counts, the plugin kind), including that a bad
 * value becomes a usage error (exit status 2) naming the value.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bc_internal.h"
#include "bufbench.h"

static struct bc_bench bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "rb-test",
		  .producers = { 1, 0, 1 }, .consumers = { 1, 1, 1 } },
};

static int validate(struct bc_ctx *ctx, const struct bc_buf_opts *o, unsigned int prod,
		    unsigned int cons, enum bc_buf_kind kind)
{
	bc_ctx_init(ctx, NULL, &bench);
	ctx->producer_cnt = prod;
	ctx->consumer_cnt = cons;
	return bc_buf_validate(ctx, o, kind);
}

static void test_defaults(void **state)
{
	struct bc_buf_opts o;

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_false(o.b2b);
	assert_false(o.sampled);
	assert_false(o.use_output);
	assert_int_equal(o.batch_cnt, 500);
	assert_int_equal(o.sample_rate, 500);
	assert_int_equal(o.rb_size, 512 * 1024);
	assert_int_equal(o.pb_pages, 128);
	/* The static storage starts out valid even if no parser ever ran. */
	assert_int_equal(bc_buf_opts.batch_cnt, 500);
	assert_int_equal(bc_buf_opts.rb_size, 512 * 1024);
}

static void expect_bad(int key, const char *arg, const char *needle)
{
	struct bc_buf_opts o;
	struct bc_ctx ctx;

	bc_buf_opts_defaults(&o);
	assert_int_equal(bc_buf_opts_set(&o, key, arg), -EINVAL);
	assert_non_null(strstr(o.error, needle));
	/* ... and it is reported by validate() as a usage error. */
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_RINGBUF), -EINVAL);
	assert_true(ctx.usage_error);
	assert_int_equal(bc_ctx_exit_status(&ctx, -EINVAL), BC_EXIT_USAGE);
	assert_non_null(strstr(ctx.reason, needle));
}

static void test_batch_cnt(void **state)
{
	struct bc_buf_opts o;

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_BATCH_CNT, "1"), 0);
	assert_int_equal(o.batch_cnt, 1);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_BATCH_CNT, "3000"), 0);
	assert_int_equal(o.batch_cnt, 3000);
	expect_bad(BC_BUF_OPT_BATCH_CNT, "0", "--rb-batch-cnt '0': expected a whole number from 1 to");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "-5", "--rb-batch-cnt '-5'");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "abc", "--rb-batch-cnt 'abc'");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "12x", "--rb-batch-cnt '12x'");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "", "--rb-batch-cnt ''");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "99999999999999999999999", "--rb-batch-cnt");
	expect_bad(BC_BUF_OPT_BATCH_CNT, "4001", "from 1 to 4000");
}

static void test_sample_rate(void **state)
{
	struct bc_buf_opts o;

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_SAMPLE_RATE, "3000"), 0);
	assert_int_equal(o.sample_rate, 3000);
	expect_bad(BC_BUF_OPT_SAMPLE_RATE, "0", "--rb-sample-rate '0'");
	expect_bad(BC_BUF_OPT_SAMPLE_RATE, "1.5", "--rb-sample-rate '1.5'");
}

static void test_rb_size(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	struct bc_buf_opts o;
	char buf[32];

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_RB_SIZE, "1048576"), 0);
	assert_int_equal(o.rb_size, 1 << 20);
	assert_true(o.rb_size_set);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_RB_SIZE, "256K"), 0);
	assert_int_equal(o.rb_size, 256 << 10);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_RB_SIZE, "4MiB"), 0);
	assert_int_equal(o.rb_size, 4 << 20);
	snprintf(buf, sizeof(buf), "%ld", page);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_RB_SIZE, buf), 0);

	expect_bad(BC_BUF_OPT_RB_SIZE, "1000000", "--rb-size '1000000': expected a power of two");
	snprintf(buf, sizeof(buf), "%ld", page / 2);
	expect_bad(BC_BUF_OPT_RB_SIZE, buf, "(the page size)");
	expect_bad(BC_BUF_OPT_RB_SIZE, "2G", "--rb-size '2G'");
	expect_bad(BC_BUF_OPT_RB_SIZE, "0", "--rb-size '0'");
	expect_bad(BC_BUF_OPT_RB_SIZE, "64Q", "--rb-size '64Q'");
}

static void test_pb_size(void **state)
{
	struct bc_buf_opts o;

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_PB_SIZE, "1"), 0);
	assert_int_equal(bc_buf_opts_set(&o, BC_BUF_OPT_PB_SIZE, "256"), 0);
	assert_int_equal(o.pb_pages, 256);
	expect_bad(BC_BUF_OPT_PB_SIZE, "3", "--pb-size '3': expected a power of two");
	expect_bad(BC_BUF_OPT_PB_SIZE, "0", "--pb-size '0'");
	expect_bad(BC_BUF_OPT_PB_SIZE, "131072", "--pb-size '131072'");
}

static void test_first_error_kept(void **state)
{
	struct bc_buf_opts o;

	(void)state;
	bc_buf_opts_defaults(&o);
	bc_buf_opts_set(&o, BC_BUF_OPT_BATCH_CNT, "zero");
	bc_buf_opts_set(&o, BC_BUF_OPT_PB_SIZE, "3");
	assert_non_null(strstr(o.error, "--rb-batch-cnt 'zero'"));
	assert_int_equal(bc_buf_opts_set(&o, 12345, NULL), -ENOENT);
}

static void test_thread_counts(void **state)
{
	struct bc_buf_opts o;
	struct bc_ctx ctx;

	(void)state;
	bc_buf_opts_defaults(&o);
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_RINGBUF), 0);
	assert_int_equal(validate(&ctx, &o, 2, 1, BC_BUF_RINGBUF), 0);

	assert_int_equal(validate(&ctx, &o, 1, 2, BC_BUF_RINGBUF), -EINVAL);
	assert_true(ctx.usage_error);
	assert_non_null(strstr(ctx.reason, "-c 2: ring buffer benchmarks need exactly one consumer"));

	o.b2b = true;
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_PERFBUF), 0);
	assert_int_equal(validate(&ctx, &o, 2, 1, BC_BUF_PERFBUF), -EINVAL);
	assert_non_null(strstr(ctx.reason, "--rb-b2b with -p 2: back-to-back mode needs exactly one producer"));
	assert_int_equal(bc_ctx_exit_status(&ctx, -EINVAL), BC_EXIT_USAGE);
}

static void test_sample_rate_vs_batch(void **state)
{
	struct bc_buf_opts o;
	struct bc_ctx ctx;

	(void)state;
	bc_buf_opts_defaults(&o);
	o.sampled = true;
	o.batch_cnt = 50;
	o.sample_rate = 100;
	/* Ring buffer, parallel producer: later batches reach the rate. */
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_RINGBUF), 0);
	/* Perf buffer: refused, as the kernel runner does. */
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_PERFBUF), -EINVAL);
	assert_non_null(strstr(ctx.reason, "--rb-sample-rate 100: may not exceed --rb-batch-cnt (50) for a perf buffer"));
	/* Back-to-back: the consumer would never be woken. */
	o.b2b = true;
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_RINGBUF), -EINVAL);
	assert_non_null(strstr(ctx.reason, "in back-to-back mode"));
	/* Equal is fine (the kernel's sample-rate sweep uses it). */
	o.sample_rate = 50;
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_RINGBUF), 0);
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_PERFBUF), 0);
	/* Unsampled: the rate is not used, so not checked. */
	o.sampled = false;
	o.sample_rate = 5000;
	assert_int_equal(validate(&ctx, &o, 1, 1, BC_BUF_PERFBUF), 0);
}

static void test_argp(void **state)
{
	char *argv1[] = { "x", "--rb-b2b", "--rb-batch-cnt", "7", "--rb-sampled",
			  "--rb-sample-rate=3", "--rb-size", "1M", "--pb-size", "64",
			  "--rb-use-output", NULL };
	char *argv2[] = { "x", NULL };
	char *argv3[] = { "x", "--rb-batch-cnt", "nope", NULL };
	const int flags = ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_NO_HELP;

	(void)state;
	assert_int_equal(argp_parse(&bc_buf_argp, 11, argv1, flags, NULL, NULL), 0);
	assert_true(bc_buf_opts.b2b);
	assert_true(bc_buf_opts.sampled);
	assert_true(bc_buf_opts.use_output);
	assert_int_equal(bc_buf_opts.batch_cnt, 7);
	assert_int_equal(bc_buf_opts.sample_rate, 3);
	assert_int_equal(bc_buf_opts.rb_size, 1 << 20);
	assert_int_equal(bc_buf_opts.pb_pages, 64);

	/* A new parse starts from the defaults. */
	assert_int_equal(argp_parse(&bc_buf_argp, 1, argv2, flags, NULL, NULL), 0);
	assert_false(bc_buf_opts.b2b);
	assert_int_equal(bc_buf_opts.batch_cnt, 500);
	assert_int_equal(bc_buf_opts.error[0], '\0');

	/* A bad value does not stop parsing (no exit from a plugin): it is
	 * kept for validate(). */
	assert_int_equal(argp_parse(&bc_buf_argp, 3, argv3, flags, NULL, NULL), 0);
	assert_non_null(strstr(bc_buf_opts.error, "--rb-batch-cnt 'nope'"));
}

static void test_attach_candidates(void **state)
{
	(void)state;
	assert_int_equal(bc_buf_attach_points[0].kind, BC_ATTACH_FENTRY);
	assert_string_equal(bc_buf_attach_points[1].name, "tp/syscalls/sys_enter_getpgid");
	assert_int_equal(bc_buf_attach_points[1].kind, BC_ATTACH_TP);
	assert_int_equal(bc_buf_attach_points[2].kind, BC_ATTACH_RAW_TP);
#if defined(__x86_64__)
	assert_string_equal(bc_buf_fentry_target(), "__x64_sys_getpgid");
#endif
	assert_true(bc_buf_getpgid_nr() > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_batch_cnt),
		cmocka_unit_test(test_sample_rate),
		cmocka_unit_test(test_rb_size),
		cmocka_unit_test(test_pb_size),
		cmocka_unit_test(test_first_error_kept),
		cmocka_unit_test(test_thread_counts),
		cmocka_unit_test(test_sample_rate_vs_batch),
		cmocka_unit_test(test_argp),
		cmocka_unit_test(test_attach_candidates),
	};

	bc_log_set_verbosity(-1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
