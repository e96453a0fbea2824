// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The option table ringbuf and perfbuf share, as the core sees it: the table
 * passes the core's checks, its defaults are the kernel runner's, values are
 * parsed by the core's rules (ranges, K/M/G sizes), and buf_validate()
 * holds the rules a table cannot say (powers of two, the thread count that
 * depends on --rb-b2b, the sample rate against the batch) as usage errors
 * (exit status 2) naming the value, among them --rb-bench-producer's (rb-libbpf
 * alone, with -c0). Two runs' option structs are apart.
 * And the consumers' latency sample: stamped records only, now - stamp.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "context.h"
#include "options.h"
#include "core_opts.h"
#include "log.h"
#include "exit_status.h"
#include "bc_test_opts.h"
#include "bufbench.h"
#include "hist.h"
#include "plugin_opts.h"

static const struct buf_spec rb_spec = { .kind = BC_BUF_RINGBUF, .custom = true };
static const struct buf_spec pb_spec = { .kind = BC_BUF_PERFBUF, .custom = false };
static const struct buf_spec rb_libbpf_spec = { .kind = BC_BUF_RINGBUF, .custom = false };

/* A plugin as the loader would leave it: the shared table, one benchmark
 * per kind. */
static struct bc_plugin plugin = {
	.desc = { .sz = sizeof(struct bc_plugin_desc), .name = "buftest",
		  .opts_size = sizeof(struct buf_opts) },
	.options = (struct bc_option *)buf_options,
	.option_cnt = BC_BUF_OPTION_CNT,
};

static struct bc_bench rb_bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "rb-test",
		  .producers = BC_THREADS(1, 0, 1), .consumers = BC_THREADS(1, 1, 1),
		  .priv = &rb_spec },
	.plugin = &plugin,
};

/* rb-libbpf's shape: its consumer may be left out (--rb-bench-producer). */
static struct bc_bench rb_libbpf_bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "rb-libbpf-test",
		  .producers = BC_THREADS(1, 0, 1), .consumers = BC_THREADS(0, 1, 1),
		  .priv = &rb_libbpf_spec },
	.plugin = &plugin,
};

static struct bc_bench pb_bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "pb-test",
		  .producers = BC_THREADS(1, 0, 1), .consumers = BC_THREADS(1, 1, 1),
		  .priv = &pb_spec },
	.plugin = &plugin,
};

/* One run's configuration: the defaults, then the command-line words
 * ("--rb-b2b", "--rb-batch-cnt", "50", ..., NULL), each of which must be
 * accepted. */
static void config(struct bc_config *cfg, const struct bc_bench *b, ...)
{
	const char *words[32];
	size_t n = 0;
	va_list ap;

	bc_config_init(cfg);
	va_start(ap, b);
	while (n < 31 && (words[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	words[n] = NULL;
	bc_test_set_plugin_opts(cfg, b, words);
}

static int validate_threads(struct bc_ctx *ctx, const struct bc_config *cfg,
			    const struct bc_bench *b, unsigned int prod, unsigned int cons)
{
	bc_ctx_init(ctx, cfg, b);
	ctx->producer_cnt = prod;
	ctx->consumer_cnt = cons;
	return buf_validate(ctx);
}

static int validate(struct bc_ctx *ctx, const struct bc_config *cfg, const struct bc_bench *b,
		    unsigned int prod)
{
	return validate_threads(ctx, cfg, b, prod, 1);
}

/* validate() with `cons` consumers: accepted (needle NULL), or refused
 * with exit status 2 and a reason holding needle. */
static void expect_threads(const struct bc_config *cfg, const struct bc_bench *b,
			   unsigned int prod, unsigned int cons, const char *needle)
{
	struct bc_ctx ctx;
	int err = validate_threads(&ctx, cfg, b, prod, cons);

	if (!needle) {
		if (err)
			fail_msg("%s -p %u -c %u refused: %s", b->desc.name, prod, cons, ctx.reason);
		return;
	}
	assert_int_equal(err, -EINVAL);
	assert_int_equal(bc_ctx_exit_status(&ctx, err), BC_EXIT_USAGE);
	if (!strstr(ctx.reason, needle))
		fail_msg("reason '%s' lacks '%s'", ctx.reason, needle);
}

/* validate() refuses with exit status 2 and a reason holding `needle`. */
static void expect_usage(const struct bc_config *cfg, const struct bc_bench *b,
			 unsigned int prod, const char *needle)
{
	struct bc_ctx ctx;

	assert_int_equal(validate(&ctx, cfg, b, prod), -EINVAL);
	assert_true(ctx.usage_error);
	assert_int_equal(bc_ctx_exit_status(&ctx, -EINVAL), BC_EXIT_USAGE);
	if (!strstr(ctx.reason, needle))
		fail_msg("reason '%s' lacks '%s'", ctx.reason, needle);
}

static void expect_ok(const struct bc_config *cfg, const struct bc_bench *b, unsigned int prod)
{
	struct bc_ctx ctx;

	if (validate(&ctx, cfg, b, prod))
		fail_msg("%s -p %u refused: %s", b->desc.name, prod, ctx.reason);
}

static void test_table_and_defaults(void **state)
{
	const struct buf_opts *o;
	struct bc_config cfg;
	struct bc_ctx ctx;
	char err[256] = "";

	(void)state;
	assert_int_equal(bc_opts_check(&rb_bench, err, sizeof(err)), 0);
	config(&cfg, &rb_bench, NULL);
	bc_ctx_init(&ctx, &cfg, &rb_bench);
	o = buf_run_opts(&ctx);
	assert_non_null(o);
	assert_ptr_equal(buf_run_spec(&ctx), &rb_spec);
	/* The kernel runner's defaults. */
	assert_false(o->b2b);
	assert_false(o->sampled);
	assert_false(o->use_output);
	assert_false(o->latency);	/* the runner's records, nothing stamped */
	assert_int_equal(o->batch_cnt, 500);
	assert_int_equal(o->sample_rate, 500);
	assert_int_equal(o->rb_size, 512 * 1024);
	assert_int_equal(o->pb_pages, 128);
	expect_ok(&cfg, &rb_bench, 1);
	expect_ok(&cfg, &pb_bench, 4);
	bc_options_free(&cfg);
}

static void test_values(void **state)
{
	struct bc_config cfg;
	struct bc_ctx ctx;
	const struct buf_opts *o;

	(void)state;
	config(&cfg, &rb_bench, "--rb-b2b", "--rb-batch-cnt", "4000", "--rb-sampled",
	       "--rb-sample-rate", "3", "--rb-size", "1M", "--pb-size", "64", "--rb-use-output",
	       NULL);
	bc_ctx_init(&ctx, &cfg, &rb_bench);
	o = buf_run_opts(&ctx);
	assert_true(o->b2b);
	assert_true(o->sampled);
	assert_true(o->use_output);
	assert_int_equal(o->batch_cnt, 4000);
	assert_int_equal(o->sample_rate, 3);
	assert_int_equal(o->rb_size, 1 << 20);
	assert_int_equal(o->pb_pages, 64);
	bc_options_free(&cfg);

	config(&cfg, &rb_bench, "--rb-size", "256k", NULL);
	bc_ctx_init(&ctx, &cfg, &rb_bench);
	assert_int_equal(buf_run_opts(&ctx)->rb_size, 256 << 10);
	bc_options_free(&cfg);
}

/* Single values outside the table's ranges: the core's one line. */
static void expect_refused(const char *name, const char *value, const char *line)
{
	const struct bc_option *opt = bc_opts_find(&rb_bench, name);
	char err[256] = "";

	assert_non_null(opt);
	assert_int_equal(bc_opts_check_value(opt, value, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, line);
}

static void test_ranges(void **state)
{
	(void)state;
	expect_refused("rb-batch-cnt", "0", "--rb-batch-cnt '0': expected an integer from 1 to 4000");
	expect_refused("rb-batch-cnt", "4001",
		       "--rb-batch-cnt '4001': expected an integer from 1 to 4000");
	expect_refused("rb-batch-cnt", "12x",
		       "--rb-batch-cnt '12x': expected an integer from 1 to 4000");
	expect_refused("rb-sample-rate", "0",
		       "--rb-sample-rate '0': expected an integer from 1 to 1000000");
	expect_refused("pb-size", "65537", "--pb-size '65537': expected an integer from 1 to 65536");
	expect_refused("rb-size", "2G",
		       "--rb-size '2G': expected a size in bytes (K, M, G suffixes) from 4096 to 1G");
	expect_refused("rb-size", "64Q",
		       "--rb-size '64Q': expected a size in bytes (K, M, G suffixes) from 4096 to 1G");
}

/* What the table cannot say: powers of two, this machine's page. */
static void test_powers_of_two(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	struct bc_config cfg;
	char buf[32], want[128];

	(void)state;
	config(&cfg, &rb_bench, "--rb-size", "1000000", NULL);
	snprintf(want, sizeof(want), "--rb-size '1000000': expected a power of two from %ld (the page size)",
		 page);
	expect_usage(&cfg, &rb_bench, 1, want);
	bc_options_free(&cfg);

	snprintf(buf, sizeof(buf), "%ld", page);
	config(&cfg, &rb_bench, "--rb-size", buf, NULL);
	expect_ok(&cfg, &rb_bench, 1);
	bc_options_free(&cfg);

	config(&cfg, &pb_bench, "--pb-size", "3", NULL);
	expect_usage(&cfg, &pb_bench, 1, "--pb-size '3': expected a power of two from 1 to 65536 pages");
	bc_options_free(&cfg);

	config(&cfg, &pb_bench, "--pb-size", "1", NULL);
	expect_ok(&cfg, &pb_bench, 1);
	bc_options_free(&cfg);
}

static void test_b2b_one_producer(void **state)
{
	struct bc_config cfg;

	(void)state;
	config(&cfg, &pb_bench, "--rb-b2b", NULL);
	expect_ok(&cfg, &pb_bench, 1);
	expect_usage(&cfg, &pb_bench, 2,
		     "--rb-b2b with -p 2: back-to-back mode needs exactly one producer");
	expect_usage(&cfg, &rb_bench, 3, "--rb-b2b with -p 3");
	bc_options_free(&cfg);
}

/*
 * The kernel runner's perf-buffer setup refuses a sample rate above the
 * batch count whether or not --rb-sampled is given, for pb-libbpf and
 * pb-custom alike; its ring-buffer benchmarks do not check it. Ours adds
 * one case: sampled back-to-back ring buffer (it would never be woken).
 */
static void test_sample_rate_vs_batch(void **state)
{
	/* Unsampled (no mode word), sampled, back-to-back. */
	static const char *const modes[] = { NULL, "--rb-sampled", "--rb-b2b" };
	struct bc_config cfg;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		/* Above the batch: refused for a perf buffer in every mode. */
		config(&cfg, &pb_bench, "--rb-batch-cnt", "50", "--rb-sample-rate", "100",
		       modes[i], NULL);
		expect_usage(&cfg, &pb_bench, 1,
			     "--rb-sample-rate 100: may not exceed --rb-batch-cnt (50) for a perf buffer");
		/* A ring buffer takes it unless sampled and back-to-back. */
		expect_ok(&cfg, &rb_bench, 1);
		bc_options_free(&cfg);
	}

	/* The default rate (500) with a smaller batch: the runner's exact
	 * case, `pb-custom --rb-batch-cnt 100` without --rb-sampled. */
	config(&cfg, &pb_bench, "--rb-batch-cnt", "100", NULL);
	expect_usage(&cfg, &pb_bench, 1, "--rb-sample-rate 500: may not exceed --rb-batch-cnt (100)");
	bc_options_free(&cfg);

	/* The rate alone above the default batch. */
	config(&cfg, &pb_bench, "--rb-sample-rate", "600", NULL);
	expect_usage(&cfg, &pb_bench, 1, "--rb-sample-rate 600: may not exceed --rb-batch-cnt (500)");
	bc_options_free(&cfg);

	/* Equal is fine (the runner's sample-rate tables use it). */
	config(&cfg, &pb_bench, "--rb-b2b", "--rb-sampled", "--rb-batch-cnt", "50",
	       "--rb-sample-rate", "50", NULL);
	expect_ok(&cfg, &pb_bench, 1);
	expect_ok(&cfg, &rb_bench, 1);
	bc_options_free(&cfg);

	config(&cfg, &rb_bench, "--rb-b2b", "--rb-sampled", "--rb-batch-cnt", "50",
	       "--rb-sample-rate", "51", NULL);
	expect_usage(&cfg, &rb_bench, 1,
		     "--rb-sample-rate 51: may not exceed --rb-batch-cnt (50) in back-to-back mode");
	bc_options_free(&cfg);
}

/* Each run reads its own struct: nothing is kept in the plugin. */
/* The runner's producer-only mode: rb-libbpf only, no consumer, neither
 * back-to-back nor sampled; without it rb-libbpf needs its consumer. */
static void test_bench_producer(void **state)
{
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	config(&cfg, &rb_libbpf_bench, NULL);
	bc_ctx_init(&ctx, &cfg, &rb_libbpf_bench);
	assert_false(buf_run_opts(&ctx)->bench_producer);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 1, NULL);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 0,
		       "-c0: rb-libbpf-test needs its consumer (-c1) unless --rb-bench-producer");
	bc_options_free(&cfg);

	config(&cfg, &rb_libbpf_bench, "--rb-bench-producer", NULL);
	bc_ctx_init(&ctx, &cfg, &rb_libbpf_bench);
	assert_true(buf_run_opts(&ctx)->bench_producer);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 0, NULL);
	expect_threads(&cfg, &rb_libbpf_bench, 8, 0, NULL);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 1,
		       "--rb-bench-producer with -c 1: the producer runs alone; pass -c0");
	expect_threads(&cfg, &rb_bench, 1, 0, "only rb-libbpf times the producer alone, not rb-test");
	expect_threads(&cfg, &pb_bench, 1, 0, "only rb-libbpf times the producer alone, not pb-test");
	bc_options_free(&cfg);

	config(&cfg, &rb_libbpf_bench, "--rb-bench-producer", "--rb-b2b", NULL);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 0, "back-to-back needs a consumer");
	bc_options_free(&cfg);
	config(&cfg, &rb_libbpf_bench, "--rb-bench-producer", "--rb-sampled", NULL);
	expect_threads(&cfg, &rb_libbpf_bench, 1, 0, "nothing to sample");
	bc_options_free(&cfg);
}

static void test_runs_apart(void **state)
{
	struct bc_config a, b;
	struct bc_ctx ca, cb;

	(void)state;
	config(&a, &rb_bench, "--rb-batch-cnt", "7", NULL);
	config(&b, &pb_bench, "--rb-batch-cnt", "9", "--rb-b2b", NULL);
	bc_ctx_init(&ca, &a, &rb_bench);
	bc_ctx_init(&cb, &b, &pb_bench);
	assert_ptr_not_equal(buf_run_opts(&ca), buf_run_opts(&cb));
	assert_int_equal(buf_run_opts(&ca)->batch_cnt, 7);
	assert_false(buf_run_opts(&ca)->b2b);
	assert_int_equal(buf_run_opts(&cb)->batch_cnt, 9);
	assert_true(buf_run_opts(&cb)->b2b);
	bc_options_free(&a);
	bc_options_free(&b);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The consumer side of the latency sample: with --rb-latency only
 * stamped records count, into the consumer's own shard, as now - stamp;
 * without it the consumer measures nothing. */
static void test_latency_sample(void **state)
{
	struct bc_thread t = { .sz = sizeof(t), .idx = 0, .cpu = -1, .consumer = true };
	struct bc_hist *hists[BC_BUF_METRIC_CNT] = { NULL };
	struct bc_hist_interval iv = { 0 };
	uint64_t zero = 0, past, future, total = 0;
	struct bc_bench bench = rb_bench;
	struct bc_config cfg, off;
	struct buf_lat lat;
	struct bc_ctx ctx;
	size_t i;

	(void)state;
	bench.metrics = (struct bc_metric_desc *)buf_metrics;
	bench.desc.metric_cnt = BC_BUF_METRIC_CNT;
	assert_string_equal(buf_metrics[BC_BUF_LATENCY].name, "latency");
	assert_int_equal(buf_metrics[BC_BUF_LATENCY].kind, BC_METRIC_HISTOGRAM);
	hists[BC_BUF_LATENCY] = bc_hist_new(1, 1);
	assert_non_null(hists[BC_BUF_LATENCY]);
	config(&off, &rb_bench, NULL);
	bc_ctx_init(&ctx, &off, &bench);
	ctx.hists = hists;
	ctx.hist_cnt = BC_BUF_METRIC_CNT;
	assert_false(buf_lat_init(&lat, &ctx, &t));
	assert_null(lat.hist);
	bc_options_free(&off);

	config(&cfg, &rb_bench, "--rb-latency", NULL);
	bc_ctx_init(&ctx, &cfg, &bench);
	ctx.hists = hists;
	ctx.hist_cnt = BC_BUF_METRIC_CNT;
	assert_true(buf_lat_init(&lat, &ctx, &t));
	assert_ptr_equal(lat.hist, hists[BC_BUF_LATENCY]);

	buf_lat_seen(&lat, &zero, sizeof(zero));	/* not stamped */
	past = mono_ns() - 1000000;
	buf_lat_seen(&lat, &past, 4);		/* too short to hold one */
	buf_lat_seen(&lat, &past, sizeof(past));	/* counted: >= 1 ms */
	future = mono_ns() + 3600ull * 1000000000u;
	buf_lat_seen(&lat, &future, sizeof(future));	/* not ours */

	assert_int_equal(bc_hist_collect(hists[BC_BUF_LATENCY], &iv), 0);
	for (i = 0; i < iv.n; i++)
		total += iv.cnt[i];
	assert_int_equal(total, 1);
	assert_true(bc_hist_bucket_high(iv.idx[0]) >= 1000000);
	bc_hist_interval_free(&iv);
	bc_hist_free(hists[BC_BUF_LATENCY]);
	bc_options_free(&cfg);
}

static void test_attach_candidates(void **state)
{
	(void)state;
	assert_int_equal(buf_attach_points[0].kind, BC_ATTACH_FENTRY);
	assert_string_equal(buf_attach_points[1].name, "tp/syscalls/sys_enter_getpgid");
	assert_int_equal(buf_attach_points[1].kind, BC_ATTACH_TP);
	assert_int_equal(buf_attach_points[2].kind, BC_ATTACH_RAW_TP);
#if defined(__x86_64__)
	assert_string_equal(buf_fentry_target(), "__x64_sys_getpgid");
#endif
	assert_true(buf_getpgid_nr() > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_and_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_powers_of_two),
		cmocka_unit_test(test_b2b_one_producer),
		cmocka_unit_test(test_sample_rate_vs_batch),
		cmocka_unit_test(test_bench_producer),
		cmocka_unit_test(test_runs_apart),
		cmocka_unit_test(test_latency_sample),
		cmocka_unit_test(test_attach_candidates),
	};

	bc_log_set_verbosity(-1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
