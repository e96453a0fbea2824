// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The runner against a fake benchmark built here: its callbacks count what
 * the runner did, so the order of calls, the exit statuses and the
 * teardown guarantee are checked without plugins or BPF. Runs last about a
 * second each; nothing asserts a timing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <bpf/bpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include "cpuset.h"
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "runner.h"
#include "report.h"
#include "sysinfo.h"
#include "core_opts.h"
#include "exit_status.h"
#include "figures.h"
#include "json.h"
#include "json_read.h"

/* What the callbacks saw; reset before every test. */
static struct {
	int probe_calls, validate_calls, setup_calls, teardown_calls, producer_calls;
	int consumer_calls, measure_calls;
	int setup_err, probe_err, producer_err;
	bool probe_unavailable, send_sigint, measure_fails, probe_fell_back, silent_err;
	unsigned int seen_producers, seen_consumers;
	int producer_cpu[4], consumer_cpu[4];
	int producer_on[4], consumer_on[4];
	struct bc_line_counter *hits;
} fk;

static int fake_probe(struct bc_ctx *ctx)
{
	fk.probe_calls++;
	if (fk.probe_unavailable)
		return bc_unavailable(ctx, "fake kernel lacks the fake feature");
	/* What an attach helper does when its first candidate is refused. */
	if (fk.probe_fell_back)
		bc_unavailable(ctx, "fentry refused, fell back to a tracepoint");
	return 0;
}

static int fake_validate(struct bc_ctx *ctx)
{
	fk.validate_calls++;
	fk.seen_producers = bc_ctx_producer_cnt(ctx);
	fk.seen_consumers = bc_ctx_consumer_cnt(ctx);
	assert_string_equal(bc_ctx_bench_name(ctx), "fake");
	return 0;
}

static int fake_setup(struct bc_ctx *ctx)
{
	fk.setup_calls++;
	if (fk.setup_err)
		return bc_error(ctx, fk.setup_err, "fake setup refused");
	fk.hits = bc_line_counters_alloc(4);
	bc_ctx_set_data(ctx, fk.hits);
	bc_ctx_set_attach_point(ctx, "tp/fake/fake_event");
	return fk.hits ? 0 : -ENOMEM;
}

static void fake_teardown(struct bc_ctx *ctx)
{
	fk.teardown_calls++;
	free(bc_ctx_data(ctx));
	fk.hits = NULL;
}

static int fake_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *c = bc_ctx_data(ctx);

	__atomic_add_fetch(&fk.producer_calls, 1, __ATOMIC_RELAXED);
	if (t->idx < 4) {
		fk.producer_cpu[t->idx] = t->cpu;
		fk.producer_on[t->idx] = sched_getcpu();
	}
	if (fk.producer_err && fk.silent_err)
		return fk.producer_err;
	if (fk.producer_err)
		return bc_error(ctx, fk.producer_err, "fake producer %u gave up", t->idx);
	if (fk.send_sigint)
		kill(getpid(), SIGINT);
	while (!bc_thread_should_stop(t))
		__atomic_add_fetch(&c[t->idx % 4].value, 1, __ATOMIC_RELAXED);
	return 0;
}

static int fake_consumer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct timespec ms = { .tv_nsec = 1000 * 1000 };

	(void)ctx;
	__atomic_add_fetch(&fk.consumer_calls, 1, __ATOMIC_RELAXED);
	if (t->idx < 4) {
		fk.consumer_cpu[t->idx] = t->cpu;
		fk.consumer_on[t->idx] = sched_getcpu();
	}
	while (!bc_thread_should_stop(t))
		nanosleep(&ms, NULL);
	return 0;
}

static int fake_measure(struct bc_ctx *ctx, double *values)
{
	fk.measure_calls++;
	if (fk.measure_fails && fk.measure_calls > 1)
		return bc_error(ctx, -EIO, "fake counters vanished");
	values[0] = (double)bc_line_counters_sum(bc_ctx_data(ctx), 4);
	values[1] = 0;
	values[2] = 42.5;
	return 0;
}

static const struct bc_metric_desc fake_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS),
	BC_METRIC("depth", "items", BC_METRIC_GAUGE),
};

static struct bc_bench fake_bench(void)
{
	struct bc_bench b = {
		.desc = {
			.sz = sizeof(struct bc_bench_desc),
			.name = "fake",
			.description = "counts what the runner does",
			.producers = { .min = 1, .max = 4, .def = 1 },
			.consumers = { .min = 0, .max = 2, .def = 0 },
			.metric_cnt = 3,
			.probe = fake_probe,
			.validate = fake_validate,
			.setup = fake_setup,
			.producer = fake_producer,
			.consumer = fake_consumer,
			.measure = fake_measure,
			.teardown = fake_teardown,
		},
		.metrics = (struct bc_metric_desc *)fake_metrics,
	};
	b.desc.metrics = fake_metrics;
	return b;
}

static int reset(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	return 0;
}

static void short_config(struct bc_config *cfg, double warmup, double duration)
{
	bc_config_init(cfg);
	cfg->warmup_sec = warmup;
	cfg->duration_sec = duration;
}

/* The run must fail with this exit status and, unless NULL, this reason. */
static void run_refused(struct bc_config *cfg, struct bc_bench *b, struct bc_run_result *res,
			int exit_status, const char *reason)
{
	assert_true(bc_run(cfg, b, res, NULL, NULL) < 0);
	assert_int_equal(res->exit_status, exit_status);
	if (reason)
		assert_string_equal(res->reason, reason);
}

static void test_defaults(void **state)
{
	struct bc_config cfg;

	(void)state;
	bc_config_init(&cfg);
	assert_true(cfg.warmup_sec == 1);
	assert_true(cfg.duration_sec == 5);
	assert_int_equal(cfg.format, BC_FORMAT_TEXT);
}

static size_t seen_iters;

static void count_iter(const struct bc_run_result *res, size_t idx, void *cookie)
{
	(void)cookie;
	assert_int_equal(idx, res->iter_cnt - 1);
	seen_iters++;
}

static void test_run_ok(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;
	int err;

	(void)state;
	short_config(&cfg, 0, 1);
	seen_iters = 0;
	err = bc_run(&cfg, &b, &res, count_iter, NULL);
	assert_int_equal(err, 0);
	assert_int_equal(res.exit_status, BC_EXIT_OK);
	assert_int_equal(res.iter_cnt, 1);
	assert_int_equal(seen_iters, 1);
	assert_false(res.iters[0].warmup);
	assert_true(res.iters[0].rates[0] > 0);		/* hits > 0 */
	assert_true(res.iters[0].rates[1] == 0);	/* no drops */
	assert_true(res.iters[0].rates[2] == 42.5);	/* a gauge is its value */
	assert_true(res.iters[0].length_sec > 0);
	assert_int_equal(res.summary[0].n, 1);
	assert_true(res.summary[0].mean == res.iters[0].rates[0]);
	/* A spinning producer for a second shows CPU time. */
	assert_true(res.iters[0].prod_user_sec + res.iters[0].prod_sys_sec > 0);
	assert_int_equal(fk.probe_calls, 1);
	assert_int_equal(fk.validate_calls, 1);
	assert_int_equal(fk.setup_calls, 1);
	assert_int_equal(fk.teardown_calls, 1);
	assert_int_equal(fk.producer_calls, 1);
	assert_int_equal(fk.consumer_calls, 0);
	assert_string_equal(bc_ctx_attach_point(res.ctx), "tp/fake/fake_event");
	bc_run_result_free(&res);
}

static void test_warmup_excluded(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 1, 2);
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	assert_int_equal(res.iter_cnt, 3);
	assert_true(res.iters[0].warmup);
	assert_false(res.iters[1].warmup);
	assert_false(res.iters[2].warmup);
	assert_int_equal(res.summary[0].n, 2);
	assert_true(fabs(res.summary[0].mean - (res.iters[1].rates[0] + res.iters[2].rates[0]) / 2) <=
		    1e-9 * res.summary[0].mean);
	assert_int_equal(res.prod_cpu_util.n, 2);
	bc_run_result_free(&res);
}

static void test_setup_fails(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.setup_err = -ENOENT;
	short_config(&cfg, 0, 1);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED, "fake setup refused");
	assert_int_equal(fk.setup_calls, 1);
	assert_int_equal(fk.teardown_calls, 1);
	assert_int_equal(fk.producer_calls, 0);
	assert_int_equal(res.iter_cnt, 0);
	bc_run_result_free(&res);
}

static void test_producer_error(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.producer_err = -EIO;
	short_config(&cfg, 0, 3);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED, "producer 0: fake producer 0 gave up");
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

static void test_unavailable(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.probe_unavailable = true;
	short_config(&cfg, 0, 1);
	run_refused(&cfg, &b, &res, BC_EXIT_UNAVAILABLE, "fake kernel lacks the fake feature");
	assert_int_equal(fk.setup_calls, 0);
	assert_int_equal(fk.teardown_calls, 0);
	bc_run_result_free(&res);
}

static void test_too_many_threads_for_set(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;
	char err[128];

	(void)state;
	short_config(&cfg, 0, 1);
	cfg.producers = 2;
	cfg.producers_set = true;
	cfg.prod_cpus_set = true;
	assert_int_equal(bc_cpuset_parse("0", &cfg.prod_cpus, err, sizeof(err)), 0);
	run_refused(&cfg, &b, &res, BC_EXIT_USAGE,
		    "--prod-affinity '0': 2 producers need 2 CPUs, the set has 1");
	assert_int_equal(fk.probe_calls, 0);
	assert_int_equal(fk.setup_calls, 0);
	assert_int_equal(fk.teardown_calls, 0);
	bc_run_result_free(&res);
}

static void test_thread_range(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 0, 1);
	cfg.producers = 5;
	cfg.producers_set = true;
	run_refused(&cfg, &b, &res, BC_EXIT_USAGE,
		    "--producers 5: benchmark 'fake' runs with 1 to 4 producers");
	assert_int_equal(fk.setup_calls, 0);
	bc_run_result_free(&res);

	short_config(&cfg, 0, 1);
	cfg.producers = 0;
	cfg.producers_set = true;
	run_refused(&cfg, &b, &res, BC_EXIT_USAGE, NULL);
	bc_run_result_free(&res);
}

static void test_affinity_scheme(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;
	cpu_set_t mask;

	(void)state;
	CPU_ZERO(&mask);
	assert_int_equal(sched_getaffinity(0, sizeof(mask), &mask), 0);
	if (!CPU_ISSET(0, &mask) || !CPU_ISSET(1, &mask))
		skip();
	short_config(&cfg, 0, 1);
	cfg.affinity = true;
	cfg.consumers = 1;
	cfg.consumers_set = true;
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	/* Consumers first from CPU 0, producers after them: the kernel's scheme. */
	assert_int_equal(fk.consumer_cpu[0], 0);
	assert_int_equal(fk.producer_cpu[0], 1);
	assert_int_equal(fk.consumer_on[0], 0);
	assert_int_equal(fk.producer_on[0], 1);
	bc_run_result_free(&res);
}

static void test_affinity_beyond_cpus(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;
	char err[128];

	(void)state;
	short_config(&cfg, 0, 1);
	cfg.prod_cpus_set = true;
	assert_int_equal(bc_cpuset_parse("4095", &cfg.prod_cpus, err, sizeof(err)), 0);
	run_refused(&cfg, &b, &res, BC_EXIT_USAGE, NULL);
	assert_non_null(strstr(res.reason, "--prod-affinity: producer 0 would run on CPU 4095"));
	assert_int_equal(fk.setup_calls, 0);
	bc_run_result_free(&res);
}

static void test_interrupted(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.send_sigint = true;
	short_config(&cfg, 0, 3);
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	assert_int_equal(res.exit_status, BC_EXIT_INTERRUPTED);
	assert_true(res.interrupted);
	assert_true(res.iter_cnt < 3);
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

static void test_exit_status_mapping(void **state)
{
	struct bc_ctx ctx;

	(void)state;
	bc_ctx_init(&ctx, NULL, NULL);
	assert_int_equal(bc_ctx_exit_status(&ctx, 0), BC_EXIT_OK);
	assert_int_equal(bc_ctx_exit_status(&ctx, -EIO), BC_EXIT_FAILED);
	assert_int_equal(bc_usage_error(&ctx, "--x %d: expected 1..3", 7), -EINVAL);
	assert_string_equal(ctx.reason, "--x 7: expected 1..3");
	assert_int_equal(bc_ctx_exit_status(&ctx, -EINVAL), BC_EXIT_USAGE);
	bc_ctx_init(&ctx, NULL, NULL);
	assert_int_equal(bc_unavailable(&ctx, "no %s", "kprobes"), -EOPNOTSUPP);
	assert_int_equal(bc_ctx_exit_status(&ctx, -EOPNOTSUPP), BC_EXIT_UNAVAILABLE);
	assert_int_equal(bc_error(&ctx, EPERM, "positive errno"), -EPERM);
}

static void test_line_counters(void **state)
{
	struct bc_line_counter *c = bc_line_counters_alloc(3);

	(void)state;
	assert_non_null(c);
	assert_int_equal((uintptr_t)c % BC_CACHELINE, 0);
	assert_int_equal((uintptr_t)&c[1] - (uintptr_t)&c[0], BC_CACHELINE);
	c[0].value = 1;
	c[2].value = 41;
	assert_int_equal(bc_line_counters_sum(c, 3), 42);
	free(c);
}

static void test_measure_error(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.measure_fails = true;
	short_config(&cfg, 0, 3);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED, "measure: fake counters vanished");
	assert_int_equal(res.iter_cnt, 0);
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

static void test_consumers_and_counts(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 0, 1);
	cfg.producers = 2;
	cfg.consumers = 2;
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	assert_int_equal(fk.seen_producers, 2);
	assert_int_equal(fk.seen_consumers, 2);
	assert_int_equal(fk.producer_calls, 2);
	assert_int_equal(fk.consumer_calls, 2);
	assert_int_equal(res.producer_cnt, 2);
	assert_int_equal(res.consumer_cnt, 2);
	/* Four threads on this machine's CPUs: said when they outnumber them. */
	if (bc_sysinfo_online_cpus() < 4) {
		size_t i;
		bool found = false;

		for (i = 0; i < res.warning_cnt; i++)
			found |= strstr(res.warnings[i], "4 threads (2 producers, 2 consumers)") != NULL;
		assert_true(found);
	}
	bc_run_result_free(&res);
}

static void test_run_then_json(void **state)
{
	struct bc_bench b = fake_bench();
	const struct bc_json *hits;
	struct bc_run_result res;
	struct bc_config cfg;
	struct bc_json *doc;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f;

	(void)state;
	short_config(&cfg, 1, 1);
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(bc_report_json(f, &cfg, &res), 0);
	fclose(f);
	doc = bc_json_parse(buf, len, err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(bc_json_len(bc_json_get(doc, "iterations")), 2);
	hits = bc_json_get(bc_json_get(doc, "summary"), "hits");
	assert_true(bc_json_num(bc_json_get(hits, "mean"), 0) > 0);
	assert_true(bc_json_num(bc_json_get(hits, "n"), 0) == 1);
	assert_string_equal(bc_json_str(bc_json_get(doc, "attach_point")), "tp/fake/fake_event");
	assert_true(bc_json_num(bc_json_get(bc_json_get(doc, "status"), "exit_status"), -1) == 0);
	bc_json_free(doc);
	free(buf);
	bc_run_result_free(&res);
}

static void test_stale_reason_not_inherited(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	fk.probe_fell_back = true;
	fk.producer_err = -EIO;
	fk.silent_err = true;
	short_config(&cfg, 0, 2);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED, "producer 0 failed: Input/output error");
	bc_run_result_free(&res);
}

/* ------------------------------------------- histograms and ratios */

static struct bc_hist *hist_of_run;

static int hist_setup(struct bc_ctx *ctx)
{
	hist_of_run = bc_ctx_hist(ctx, "lat");
	/* A counter has no histogram; an unknown name neither. */
	if (!hist_of_run || bc_ctx_hist(ctx, "hits") || bc_ctx_hist(ctx, "nope"))
		return bc_error(ctx, -EINVAL, "histogram lookup");
	return fake_setup(ctx);
}

static int hist_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *c = bc_ctx_data(ctx);

	while (!bc_thread_should_stop(t)) {
		bc_hist_record(hist_of_run, t, 100 * (t->idx + 1));
		__atomic_add_fetch(&c[t->idx % 4].value, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int hist_measure(struct bc_ctx *ctx, double *values)
{
	double hits = (double)bc_line_counters_sum(bc_ctx_data(ctx), 4);

	values[0] = hits;
	values[1] = 7 * hits;	/* 7 per hit: a ratio of exactly 7 */
	return 0;
}

static const struct bc_metric_desc hist_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_OPS),
	BC_METRIC("ns_per_hit", "ns", BC_METRIC_RATIO, .per = "hits"),
	BC_METRIC("lat", "ns", BC_METRIC_HISTOGRAM, .role = BC_ROLE_LATENCY),
};

/* The runner allocates histograms before setup(), collects them at each
 * tick, and the figures hold their percentiles; ratios divide deltas. */
static void test_histogram_and_ratio(void **state)
{
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;
	const struct bc_figure *f;
	const struct bc_hist_stats *s;
	uint64_t sum = 0;
	size_t i;

	(void)state;
	b.desc.metrics = hist_metrics;
	b.metrics = (struct bc_metric_desc *)hist_metrics;
	b.desc.metric_cnt = 3;
	b.desc.setup = hist_setup;
	b.desc.producer = hist_producer;
	b.desc.measure = hist_measure;
	short_config(&cfg, 1, 2);
	cfg.producers = 2;
	cfg.producers_set = true;
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	assert_int_equal(res.figs->lines, BC_LINES_OPS);
	f = bc_figure_find(&res, BC_FIG_RATIO, 1);
	assert_non_null(f);
	assert_true(f->value == 7.0);
	assert_true(res.summary[1].mean == 7.0);
	assert_non_null(bc_figure_find(&res, BC_FIG_LATENCY, -1));

	s = &res.figs->hist_summary[2];
	for (i = 0; i < res.iter_cnt; i++)
		if (!res.iters[i].warmup)
			sum += res.figs->hist_iters[2][i].count;
	assert_true(s->count > 0);
	assert_true(s->count == sum);
	/* Producer 0 records 100, producer 1 records 200: exact buckets. */
	assert_true(s->p50 == 100 || s->p50 == 200);
	assert_true(s->max == 200);
	assert_true(isnan(res.iters[0].rates[2]));
	bc_run_result_free(&res);
}

/* A declared program: the core asks the kernel for its id, name and type
 * at once. Needs BPF_PROG_LOAD (root); skipped otherwise. */
static void test_add_prog(void **state)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bc_bench b = fake_bench();
	struct bc_ctx ctx;
	int fd;

	(void)state;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bc_unit_prog", "GPL", insns, 2, NULL);
	if (fd < 0) {
		print_message("skipped: cannot load a BPF program here (%d)\n", fd);
		skip();
	}
	bc_ctx_init(&ctx, NULL, &b);
	assert_int_equal(bc_ctx_add_prog(&ctx, fd, "producer"), 0);
	assert_int_equal(bc_ctx_add_prog(&ctx, -1, "consumer"), -EINVAL);
	assert_int_equal(ctx.prog_cnt, 1);
	assert_string_equal(ctx.progs[0].role, "producer");
	assert_string_equal(ctx.progs[0].name, "bc_unit_prog");
	assert_string_equal(ctx.progs[0].type, "socket_filter");
	assert_true(ctx.progs[0].id > 0);
	bc_ctx_progs_closed(&ctx);
	assert_int_equal(ctx.progs[0].fd, -1);
	close(fd);
	bc_ctx_release(&ctx);
	assert_int_equal(ctx.prog_cnt, 0);
}

/* ---------------------------------------- ABI 2.2: the core's ladder */

/* The attach callback: candidate i answers fk_attach[i] (0: attached; a
 * negative errno: the kernel's answer; 1: a failure it reports itself). */
static int fk_attach[2];
static int fk_attach_calls;

static int fake_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	int answer = fk_attach[fk_attach_calls++ % 2];

	assert_non_null(bc_ctx_data(ctx));	/* after setup() */
	assert_non_null(pt->prog_name);
	if (answer == 1)
		return bc_error(ctx, -EINVAL, "fake map fill failed at %s", pt->name);
	return answer;
}

static const struct bc_attach_point fake_points[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = "raw_tp/fake_one",
	  .kind = BC_ATTACH_RAW_TP, .prog_name = "fake_one" },
	{ .sz = sizeof(struct bc_attach_point), .name = "other/fake_two",
	  .kind = BC_ATTACH_OTHER, .prog_name = "fake_two" },
};

static struct bc_bench ladder_bench(int first, int second)
{
	struct bc_bench b = fake_bench();

	fk_attach[0] = first;
	fk_attach[1] = second;
	fk_attach_calls = 0;
	b.desc.attach = fake_attach;
	b.desc.attach_points = fake_points;
	b.desc.attach_point_cnt = 2;
	return b;
}

/* The first candidate refused, the second taken and recorded. */
static void test_ladder_falls_back(void **state)
{
	struct bc_bench b = ladder_bench(-EPERM, 0);
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 0, 1);
	assert_int_equal(bc_run(&cfg, &b, &res, NULL, NULL), 0);
	assert_int_equal(fk_attach_calls, 2);
	assert_string_equal(bc_ctx_attach_point(res.ctx), "other/fake_two");
	assert_int_equal(fk.producer_calls, 1);
	bc_run_result_free(&res);
}

static void test_ladder_all_refused(void **state)
{
	struct bc_bench b = ladder_bench(-EPERM, -ENOENT);
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 0, 1);
	run_refused(&cfg, &b, &res, BC_EXIT_UNAVAILABLE,
		    "the kernel refused every attach point: raw_tp/fake_one: Operation not permitted; other/fake_two: No such file or directory");
	assert_int_equal(fk.producer_calls, 0);
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

/* A failure the callback words itself ends the ladder, though EINVAL
 * would be a refusal as a bare errno. */
static void test_ladder_own_error(void **state)
{
	struct bc_bench b = ladder_bench(1, 0);
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	short_config(&cfg, 0, 1);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED, "fake map fill failed at raw_tp/fake_one");
	assert_int_equal(fk_attach_calls, 1);
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

/* A metric naming a BPF source needs the object it is in. */
static void test_bpf_source_needs_object(void **state)
{
	static const struct bc_metric_desc m[] = {
		BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	};
	struct bc_bench b = fake_bench();
	struct bc_run_result res;
	struct bc_config cfg;

	(void)state;
	b.desc.metrics = m;
	b.desc.metric_cnt = 1;
	b.desc.measure = NULL;
	b.metrics = (struct bc_metric_desc *)m;
	short_config(&cfg, 0, 1);
	run_refused(&cfg, &b, &res, BC_EXIT_FAILED,
		    "fake: metric 'hits' reads BPF source 'hits', but the plugin handed over no BPF object (bc_ctx_set_bpf_object())");
	assert_int_equal(fk.producer_calls, 0);
	assert_int_equal(fk.teardown_calls, 1);
	bc_run_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_histogram_and_ratio, reset),
		cmocka_unit_test_setup(test_add_prog, reset),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_exit_status_mapping),
		cmocka_unit_test(test_line_counters),
		cmocka_unit_test_setup(test_run_ok, reset),
		cmocka_unit_test_setup(test_warmup_excluded, reset),
		cmocka_unit_test_setup(test_setup_fails, reset),
		cmocka_unit_test_setup(test_producer_error, reset),
		cmocka_unit_test_setup(test_unavailable, reset),
		cmocka_unit_test_setup(test_too_many_threads_for_set, reset),
		cmocka_unit_test_setup(test_thread_range, reset),
		cmocka_unit_test_setup(test_affinity_scheme, reset),
		cmocka_unit_test_setup(test_affinity_beyond_cpus, reset),
		cmocka_unit_test_setup(test_interrupted, reset),
		cmocka_unit_test_setup(test_measure_error, reset),
		cmocka_unit_test_setup(test_consumers_and_counts, reset),
		cmocka_unit_test_setup(test_run_then_json, reset),
		cmocka_unit_test_setup(test_stale_reason_not_inherited, reset),
		cmocka_unit_test_setup(test_ladder_falls_back, reset),
		cmocka_unit_test_setup(test_ladder_all_refused, reset),
		cmocka_unit_test_setup(test_ladder_own_error, reset),
		cmocka_unit_test_setup(test_bpf_source_needs_object, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
