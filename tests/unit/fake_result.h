/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A hand-built bc_run_result with known numbers, for the report tests: no
 * threads, no timing, so every rendered digit can be asserted.
 */
#ifndef BC_TEST_FAKE_RESULT_H
#define BC_TEST_FAKE_RESULT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "stats.h"
#include "options.h"
#include "core_opts.h"
#include "figures.h"
#include "plugin_opts.h"

#define FAKE_ITERS 4
#define FAKE_METRICS 5

/* Role sets for fake_result_init(): the hits/drops lines, the ops lines. */
#define FAKE_HITS_DROPS ((const enum bc_metric_role[FAKE_METRICS]){ BC_ROLE_HITS, BC_ROLE_DROPS })
#define FAKE_OPS ((const enum bc_metric_role[FAKE_METRICS]){ BC_ROLE_OPS })

/* The fake plugin's options, typed as a plugin declares them. */
struct fake_opts {
	int64_t batch_cnt;
	bool sampled;
};

static const struct bc_option fake_options[] = {
	BC_OPT_INT(struct fake_opts, batch_cnt, "rb-batch-cnt", .def = "500", .min = 1,
		   .max = 4000),
	BC_OPT_FLAG(struct fake_opts, sampled, "rb-sampled"),
};

struct fake_result {
	struct bc_plugin plugin;
	struct bc_bench bench;
	struct bc_metric_desc metrics[FAKE_METRICS];
	struct bc_ctx ctx;
	struct bc_config cfg;
	struct bc_iteration iters[FAKE_ITERS];
	double values[FAKE_ITERS][FAKE_METRICS];
	double rates[FAKE_ITERS][FAKE_METRICS];
	char *warnings[1];
	struct bc_run_result res;
};

/*
 * hits: 1.0, 2.0 (warm-up), 1.2, 1.4 M/s -> measured mean 1.2, stddev 0.2;
 * drops 0; important_hits a tenth of hits; gp_ns/gp_ct: 2 grace periods of
 * 3000 ns per interval. `roles`: one per metric (FAKE_HITS_DROPS, FAKE_OPS),
 * or NULL for none (every metric auxiliary: the plain lines). The options
 * --rb-batch-cnt 50 --rb-sampled are given.
 */
static inline void fake_result_init(struct fake_result *fr, const enum bc_metric_role *roles)
{
	static const double hits[FAKE_ITERS] = { 2.0e6, 1.0e6, 1.2e6, 1.4e6 };
	const char *names[FAKE_METRICS] = { "hits", "drops", "important_hits", "gp_ns", "gp_ct" };
	char err[256] = "";
	unsigned int i, m;

	memset(fr, 0, sizeof(*fr));
	for (m = 0; m < FAKE_METRICS; m++) {
		fr->metrics[m].sz = sizeof(fr->metrics[m]);
		fr->metrics[m].name = names[m];
		fr->metrics[m].unit = m >= 3 ? (m == 3 ? "ns" : "gps") : "ops";
		fr->metrics[m].kind = BC_METRIC_COUNTER;
		fr->metrics[m].role = roles ? roles[m] : BC_ROLE_AUX;
	}
	fr->plugin.path = (char *)"/usr/lib/benchcore/plugins/fake.so";
	fr->plugin.desc.name = "fake";
	fr->plugin.desc.version = "1.2";
	fr->plugin.desc.opts_size = sizeof(struct fake_opts);
	fr->plugin.options = (struct bc_option *)fake_options;
	fr->plugin.option_cnt = sizeof(fake_options) / sizeof(fake_options[0]);
	fr->bench.desc.sz = sizeof(fr->bench.desc);
	fr->bench.desc.name = "fake-bench";
	/* The runner's line shapes, which most cases check; test_units()
	 * turns it off. */
	fr->bench.desc.runner_name = true;
	fr->bench.desc.metric_cnt = FAKE_METRICS;
	fr->bench.desc.metrics = fr->metrics;
	fr->bench.metrics = fr->metrics;
	fr->bench.plugin = &fr->plugin;

	bc_config_init(&fr->cfg);
	fr->cfg.producers = 2;
	fr->cfg.producers_set = true;
	fr->cfg.prod_cpus_set = true;
	fr->cfg.prod_cpus.cnt = 2;
	fr->cfg.prod_cpus.cpus[0] = 0;
	fr->cfg.prod_cpus.cpus[1] = 1;
	fr->cfg.opts = bc_opts_new(&fr->bench, err, sizeof(err));
	if (!fr->cfg.opts ||
	    bc_opts_set(fr->cfg.opts, &fake_options[0], "50", err, sizeof(err)) ||
	    bc_opts_set(fr->cfg.opts, &fake_options[1], "on", err, sizeof(err))) {
		fprintf(stderr, "fake_result_init: %s\n", err);
		abort();
	}

	bc_ctx_init(&fr->ctx, &fr->cfg, &fr->bench);
	bc_ctx_set_attach_point(&fr->ctx, "tp/syscalls/sys_enter_getpgid");

	for (i = 0; i < FAKE_ITERS; i++) {
		struct bc_iteration *it = &fr->iters[i];

		it->idx = i;
		it->warmup = i == 0;
		it->length_sec = 1.0;
		it->drift_us = 12.345 + i;
		it->values = fr->values[i];
		it->rates = fr->rates[i];
		it->rates[0] = hits[i];
		it->rates[1] = 0;
		it->rates[2] = hits[i] / 10;
		it->rates[3] = 6000;
		it->rates[4] = 2;
		for (m = 0; m < FAKE_METRICS; m++)
			it->values[m] = it->rates[m] * (i + 1);
		it->prod_user_sec = 1.5;
		it->prod_sys_sec = 0.5;
		it->cons_user_sec = 0;
		it->cons_sys_sec = 0;
	}
	fr->res.bench = &fr->bench;
	fr->res.ctx = &fr->ctx;
	fr->res.producer_cnt = 2;
	fr->res.consumer_cnt = 0;
	fr->res.iters = fr->iters;
	fr->res.iter_cnt = FAKE_ITERS;
	fr->warnings[0] = (char *)"a \"quoted\" warning\twith a tab";
	fr->res.warnings = fr->warnings;
	fr->res.warning_cnt = 1;
	bc_stats_summarise(&fr->res);
	bc_figures_summarise(&fr->res);
}

/* After changing metrics or rates: the summary and figures again, as the
 * runner makes them at the end of a run. */
static inline void fake_result_recompute(struct fake_result *fr)
{
	bc_figures_free(&fr->res);
	bc_stats_summarise(&fr->res);
	bc_figures_summarise(&fr->res);
}

/* Declares other roles (after changing metrics, say), then recomputes. */
static inline void fake_result_roles(struct fake_result *fr, const enum bc_metric_role *roles)
{
	unsigned int m;

	for (m = 0; m < FAKE_METRICS; m++)
		fr->metrics[m].role = roles[m];
	fake_result_recompute(fr);
}

static inline void fake_result_fini(struct fake_result *fr)
{
	unsigned int i, m;

	for (i = 0; i < FAKE_ITERS; i++) {
		for (m = 0; fr->iters[i].hists && m < FAKE_METRICS; m++)
			bc_hist_interval_free(&fr->iters[i].hists[m]);
		free(fr->iters[i].hists);
		fr->iters[i].hists = NULL;
	}
	bc_figures_free(&fr->res);
	bc_ctx_release(&fr->ctx);
	bc_options_free(&fr->cfg);
	free(fr->res.summary);
	fr->res.summary = NULL;
}

#endif /* BC_TEST_FAKE_RESULT_H */
