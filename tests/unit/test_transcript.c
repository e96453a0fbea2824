// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A run's result through the transcript that --repeat's children hand back:
 * everything the reports use comes back bit for bit (iterations, histogram
 * buckets, --bpf-stats ticks, warnings, attach point, programs) and is
 * summarised on the way in; a cut transcript is refused, not half-read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "runner.h"
#include "core_opts.h"
#include "exit_status.h"
#include "bpf_stats.h"
#include "figures.h"
#include "hist.h"
#include "transcript.h"

#define ITERS 3
#define METRICS 2

struct fake {
	struct bc_plugin plugin;
	struct bc_bench bench;
	struct bc_metric_desc metrics[METRICS];
	struct bc_config cfg;
	struct bc_ctx ctx;
	struct bc_prog prog;
	struct bc_iteration iters[ITERS];
	double values[ITERS][METRICS], rates[ITERS][METRICS];
	struct bc_hist_interval hists[ITERS][METRICS];
	uint32_t idx[ITERS][2];
	uint64_t cnt[ITERS][2];
	char *warnings[1];
	struct bc_prog_tick ticks[ITERS];
	struct bc_bpf_stats bpf;
	struct bc_run_result res;
};

/* hits 1, 3, 5 M/s (the first a warm-up); a latency histogram with two
 * buckets an interval; one program with 1000 runs of 50 ns a tick. */
static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->metrics[0] = (struct bc_metric_desc){ .sz = sizeof(f->metrics[0]), .name = "hits",
						 .unit = "ops", .kind = BC_METRIC_COUNTER,
						 .role = BC_ROLE_HITS };
	f->metrics[1] = (struct bc_metric_desc){ .sz = sizeof(f->metrics[1]), .name = "lat",
						 .unit = "ns", .kind = BC_METRIC_HISTOGRAM };
	f->plugin.desc.name = "fake";
	f->bench.desc.sz = sizeof(f->bench.desc);
	f->bench.desc.name = "fake-bench";
	f->bench.desc.metric_cnt = METRICS;
	f->bench.desc.metrics = f->metrics;
	f->bench.desc.producers = (struct bc_thread_range){ .min = 1, .def = 1 };
	f->bench.metrics = f->metrics;
	f->bench.plugin = &f->plugin;
	bc_config_init(&f->cfg);
	bc_ctx_init(&f->ctx, &f->cfg, &f->bench);
	bc_ctx_set_attach_point(&f->ctx, "raw_tp/fake");
	f->prog = (struct bc_prog){ .fd = -1, .role = (char *)"under test", .name = "fake_prog",
				    .type = "raw_tracepoint", .id = 42 };
	f->ctx.progs = &f->prog;
	f->ctx.prog_cnt = 1;
	for (int i = 0; i < ITERS; i++) {
		struct bc_iteration *it = &f->iters[i];

		it->idx = (unsigned int)i;
		it->warmup = i == 0;
		it->length_sec = 1.0 + i / 1000.0;
		it->drift_us = 10.0 * i;
		it->prod_user_sec = 0.25;
		it->prod_sys_sec = 0.5;
		it->values = f->values[i];
		it->rates = f->rates[i];
		f->values[i][0] = 1e6 * (i + 1) * (i + 1);
		f->rates[i][0] = 1e6 * (2 * i + 1);
		f->rates[i][1] = NAN;
		it->hists = f->hists[i];
		f->idx[i][0] = 10;
		f->idx[i][1] = 100 + (uint32_t)i;
		f->cnt[i][0] = 7;
		f->cnt[i][1] = 3;
		f->hists[i][1] = (struct bc_hist_interval){ .n = 2, .idx = f->idx[i],
							    .cnt = f->cnt[i], .max_seen = 500 };
		f->ticks[i] = (struct bc_prog_tick){ .valid = true, .run_cnt = 1000,
						     .run_time_ns = 50000 };
	}
	f->bpf = (struct bc_bpf_stats){ .fd = -1, .prog_cnt = 1, .iter_cap = ITERS,
					.ticks = f->ticks, .read_errors = 1 };
	f->warnings[0] = (char *)"something was odd";
	f->res = (struct bc_run_result){ .bench = &f->bench, .ctx = &f->ctx, .producer_cnt = 1,
					 .iters = f->iters, .iter_cnt = ITERS, .iter_cap = ITERS,
					 .exit_status = BC_EXIT_OK, .warnings = f->warnings,
					 .warning_cnt = 1, .ticks_late = 2, .bpf = &f->bpf };
	snprintf(f->res.reason, sizeof(f->res.reason), "no reason");
}

static int written(struct fake *f)
{
	int fd = memfd_create("test-transcript", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(bc_transcript_write(fd, &f->res), 0);
	return fd;
}

static void test_round_trip(void **state)
{
	struct bc_run_result back;
	struct fake f;
	char err[256] = "";
	int fd;

	(void)state;
	fake_init(&f);
	fd = written(&f);
	if (bc_transcript_read(fd, &f.cfg, &f.bench, &back, err, sizeof(err)))
		fail_msg("read: %s", err);
	close(fd);
	assert_int_equal(back.exit_status, BC_EXIT_OK);
	assert_string_equal(back.reason, "no reason");
	assert_int_equal(back.producer_cnt, 1);
	assert_int_equal(back.ticks_late, 2);
	assert_int_equal(back.warning_cnt, 1);
	assert_string_equal(back.warnings[0], "something was odd");
	assert_string_equal(bc_ctx_attach_point(back.ctx), "raw_tp/fake");
	assert_int_equal(back.ctx->prog_cnt, 1);
	assert_string_equal(back.ctx->progs[0].role, "under test");
	assert_string_equal(back.ctx->progs[0].name, "fake_prog");
	assert_int_equal(back.ctx->progs[0].id, 42);
	assert_int_equal(back.ctx->progs[0].fd, -1);
	assert_int_equal(back.iter_cnt, ITERS);
	for (int i = 0; i < ITERS; i++) {
		const struct bc_iteration *a = &f.iters[i], *b = &back.iters[i];

		assert_int_equal(b->idx, a->idx);
		assert_int_equal(b->warmup, a->warmup);
		assert_true(b->length_sec == a->length_sec);
		assert_true(b->drift_us == a->drift_us);
		assert_true(b->prod_sys_sec == a->prod_sys_sec);
		assert_true(b->values[0] == a->values[0]);
		assert_true(b->rates[0] == a->rates[0]);
		assert_true(isnan(b->rates[1]));
		assert_non_null(b->hists);
		assert_int_equal(b->hists[0].n, 0);
		assert_int_equal(b->hists[1].n, 2);
		assert_int_equal(b->hists[1].idx[1], 100 + i);
		assert_int_equal(b->hists[1].cnt[0], 7);
		assert_int_equal(b->hists[1].max_seen, 500);
	}
	/* Summarised on the way in: the measured iterations' 3 and 5 M/s. */
	assert_non_null(back.summary);
	assert_true(fabs(back.summary[0].mean - 4e6) < 1e-6);
	assert_int_equal(back.summary[0].n, 2);
	assert_non_null(back.figs);
	assert_int_equal(back.figs->hist_summary[1].count, 20);
	/* --bpf-stats: the ticks, and the figures made from them. */
	assert_non_null(back.bpf);
	assert_int_equal(back.bpf->fd, -1);
	assert_int_equal(back.bpf->prog_cnt, 1);
	assert_int_equal(back.bpf->read_errors, 1);
	assert_int_equal(bc_bpf_stats_tick_at(back.bpf, 2, 0)->run_time_ns, 50000);
	assert_non_null(back.bpf->progs);
	assert_true(fabs(back.bpf->progs[0].ns_per_run_value - 50.0) < 1e-9);
	bc_run_result_free(&back);
}

static void test_without_extras(void **state)
{
	struct bc_run_result back;
	struct fake f;
	char err[256] = "";
	int fd;

	(void)state;
	fake_init(&f);
	/* A refused run: no iterations, no --bpf-stats, no programs. */
	f.res.iter_cnt = 0;
	f.res.bpf = NULL;
	f.res.exit_status = BC_EXIT_UNAVAILABLE;
	f.ctx.prog_cnt = 0;
	snprintf(f.res.reason, sizeof(f.res.reason), "not on this kernel");
	fd = written(&f);
	assert_int_equal(bc_transcript_read(fd, &f.cfg, &f.bench, &back, err, sizeof(err)), 0);
	close(fd);
	assert_int_equal(back.exit_status, BC_EXIT_UNAVAILABLE);
	assert_string_equal(back.reason, "not on this kernel");
	assert_int_equal(back.iter_cnt, 0);
	assert_null(back.bpf);
	assert_int_equal(back.ctx->prog_cnt, 0);
	bc_run_result_free(&back);
}

static void test_cut_transcript_refused(void **state)
{
	struct bc_run_result back;
	struct fake f;
	char err[256] = "";
	off_t len;
	int fd;

	(void)state;
	fake_init(&f);
	fd = written(&f);
	len = lseek(fd, 0, SEEK_END);
	/* Every cut, as a child killed while writing would leave it. */
	for (off_t cut = 0; cut < len; cut += 7) {
		assert_int_equal(ftruncate(fd, cut), 0);
		err[0] = '\0';
		assert_int_equal(bc_transcript_read(fd, &f.cfg, &f.bench, &back, err, sizeof(err)),
				 -EBADMSG);
		assert_non_null(strstr(err, "incomplete"));
		bc_run_result_free(&back);
		fd = (close(fd), written(&f));
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_without_extras),
		cmocka_unit_test(test_cut_transcript_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
