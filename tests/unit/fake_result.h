/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A hand-built bc_run_result with known numbers, for the report tests: no
 * threads, no timing, so every rendered digit can be asserted.
 */
#ifndef BC_TEST_FAKE_RESULT_H
#define BC_TEST_FAKE_RESULT_H

#include <stdlib.h>
#include <string.h>

#include "bc_internal.h"
#include "figures.h"

#define FAKE_ITERS 4
#define FAKE_METRICS 5

struct fake_result {
	struct bc_plugin plugin;
	struct bc_bench bench;
	struct bc_metric_desc metrics[FAKE_METRICS];
	struct bc_ctx ctx;
	struct bc_config cfg;
	struct bc_option_record opts[2];
	struct bc_iteration iters[FAKE_ITERS];
	double values[FAKE_ITERS][FAKE_METRICS];
	double rates[FAKE_ITERS][FAKE_METRICS];
	char *warnings[1];
	struct bc_run_result res;
};

/*
 * hits: 1.0, 2.0 (warm-up), 1.2, 1.4 M/s -> measured mean 1.2, stddev 0.2;
 * drops 0; important_hits a tenth of hits; gp_ns/gp_ct/stime for the
 * grace-period layout: 2 grace periods of 3000 ns and 8 ticks per interval.
 */
static inline void fake_result_init(struct fake_result *fr, enum bc_report_layout layout)
{
	static const double hits[FAKE_ITERS] = { 2.0e6, 1.0e6, 1.2e6, 1.4e6 };
	const char *names[FAKE_METRICS] = { "hits", "drops", "important_hits", "gp_ns", "gp_ct" };
	unsigned int i, m;

	memset(fr, 0, sizeof(*fr));
	for (m = 0; m < FAKE_METRICS; m++) {
		fr->metrics[m].sz = sizeof(fr->metrics[m]);
		fr->metrics[m].name = names[m];
		fr->metrics[m].unit = m >= 3 ? (m == 3 ? "ns" : "gps") : "ops";
		fr->metrics[m].kind = BC_METRIC_COUNTER;
	}
	fr->plugin.path = (char *)"/usr/lib/benchcore/plugins/fake.so";
	fr->plugin.desc.name = "fake";
	fr->plugin.desc.version = "1.2";
	fr->bench.desc.sz = sizeof(fr->bench.desc);
	fr->bench.desc.name = "fake-bench";
	fr->bench.desc.metric_cnt = FAKE_METRICS;
	fr->bench.desc.metrics = fr->metrics;
	fr->bench.desc.layout = layout;
	fr->bench.metrics = fr->metrics;
	fr->bench.plugin = &fr->plugin;

	bc_config_init(&fr->cfg);
	fr->cfg.producers = 2;
	fr->cfg.producers_set = true;
	fr->cfg.prod_cpus_set = true;
	fr->cfg.prod_cpus.cnt = 2;
	fr->cfg.prod_cpus.cpus[0] = 0;
	fr->cfg.prod_cpus.cpus[1] = 1;
	fr->opts[0].name = (char *)"rb-batch-cnt";
	fr->opts[0].value = (char *)"50";
	fr->opts[1].name = (char *)"rb-sampled";
	fr->cfg.plugin_opts = fr->opts;
	fr->cfg.plugin_opt_cnt = 2;

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

/* Declares roles (ABI 2), so the layout is no longer read. */
static inline void fake_result_roles(struct fake_result *fr, const enum bc_metric_role *roles)
{
	unsigned int m;

	for (m = 0; m < FAKE_METRICS; m++)
		fr->metrics[m].role = roles[m];
	fr->bench.desc.layout = BC_LAYOUT_CUSTOM;
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
	free(fr->res.summary);
	fr->res.summary = NULL;
}

#endif /* BC_TEST_FAKE_RESULT_H */
