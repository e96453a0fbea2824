// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One JSON document per run: the machine, the configuration, every
 * iteration and the summary, so that a result can be judged and compared
 * later without the text it was printed with. Rates are plain events per
 * second (no M scaling); numbers that do not exist are null, never NaN.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "config.h"
#include "core_opts.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "stats.h"
#include "report.h"
#include "sysinfo.h"
#include "kernel_facts.h"
#include "exit_status.h"
#include "bpf_stats.h"
#include "figures.h"
#include "doc_keys.h"
#include "json.h"
#include "plugin_opts.h"
#include "repstats.h"

/* What the kernel ran with (kernel_facts.h): config options, preemption,
 * JIT, mitigations; and the emulator, in benchcore's own guests only. */
static void bc_json_kernel_facts(struct bc_json_writer *w, const struct bc_kernel_facts *kf)
{
	size_t i;

	if (kf->accelerator[0])
		bc_jw_str(w, BC_DOC_CTX_ACCELERATOR, kf->accelerator);
	if (kf->memory_bytes)
		bc_jw_uint(w, BC_DOC_CTX_MEMORY_BYTES, kf->memory_bytes);
	else
		bc_jw_null(w, BC_DOC_CTX_MEMORY_BYTES);
	bc_jw_str(w, BC_DOC_CTX_CLOCKSOURCE, kf->clocksource[0] ? kf->clocksource : NULL);
	bc_jw_str(w, BC_DOC_CTX_CMDLINE, kf->cmdline[0] ? kf->cmdline : NULL);
	bc_jw_str(w, BC_DOC_CTX_PREEMPTION, kf->preemption[0] ? kf->preemption : NULL);
	if (kf->jit_enable >= 0)
		bc_jw_uint(w, BC_DOC_CTX_BPF_JIT_ENABLE, (unsigned int)kf->jit_enable);
	else
		bc_jw_null(w, BC_DOC_CTX_BPF_JIT_ENABLE);
	if (kf->jit_harden >= 0)
		bc_jw_uint(w, BC_DOC_CTX_BPF_JIT_HARDEN, (unsigned int)kf->jit_harden);
	else
		bc_jw_null(w, BC_DOC_CTX_BPF_JIT_HARDEN);
	if (kf->config_source[0]) {
		bc_jw_obj_begin(w, BC_DOC_CTX_KERNEL_CONFIG);
		bc_jw_str(w, BC_DOC_KCFG_SOURCE, kf->config_source);
		bc_jw_str(w, BC_DOC_KCFG_HASH, kf->config_hash);
		bc_jw_obj_begin(w, BC_DOC_KCFG_OPTIONS);
		for (i = 0; i < kf->opt_cnt; i++)
			bc_jw_str(w, kf->opts[i].name, kf->opts[i].set ? kf->opts[i].value : NULL);
		bc_jw_obj_end(w);
		bc_jw_obj_end(w);
	} else {
		bc_jw_null(w, BC_DOC_CTX_KERNEL_CONFIG);
	}
	bc_jw_arr_begin(w, BC_DOC_CTX_DEBUG_OPTIONS);
	for (i = 0; i < kf->opt_cnt; i++)
		if (kf->opts[i].skews && kf->opts[i].set)
			bc_jw_str(w, NULL, kf->opts[i].name);
	bc_jw_arr_end(w);
	bc_jw_obj_begin(w, BC_DOC_CTX_MITIGATIONS);
	for (i = 0; i < kf->mitigation_cnt; i++)
		bc_jw_str(w, kf->mitigations[i].name, kf->mitigations[i].state);
	bc_jw_obj_end(w);
}

static void bc_json_context(struct bc_json_writer *w)
{
	struct bc_sysinfo si;

	bc_sysinfo_get(&si);
	bc_jw_obj_begin(w, BC_DOC_CONTEXT);
	bc_jw_str(w, BC_DOC_CTX_DATE, si.date);
	bc_jw_str(w, BC_DOC_CTX_HOST, si.host);
	bc_jw_str(w, BC_DOC_CTX_KERNEL_RELEASE, si.kernel);
	bc_jw_str(w, BC_DOC_CTX_KERNEL_VERSION, si.kernel_version);
	bc_jw_str(w, BC_DOC_CTX_CPU_MODEL, si.cpu_model);
	bc_jw_uint(w, BC_DOC_CTX_CPU_COUNT, si.cpu_count);
	bc_jw_bool(w, BC_DOC_CTX_HYPERVISOR, si.hypervisor);
	bc_jw_str(w, BC_DOC_CTX_LIBBPF_VERSION, si.libbpf_version);
	bc_jw_str(w, BC_DOC_CTX_BENCHCORE_VERSION, bc_version());
	bc_json_kernel_facts(w, bc_kernel_facts());
	bc_jw_obj_end(w);
	/* Top level, after the context: a store keeps a run once by it. */
	bc_jw_str(w, BC_DOC_RUN_ID, si.run_id);
}

static void bc_json_config(struct bc_json_writer *w, const struct bc_config *cfg,
			   const struct bc_run_result *res)
{
	struct bc_config *used = calloc(1, sizeof(*used));	/* 32 KiB of CPU sets */

	bc_jw_obj_begin(w, BC_DOC_CONFIG);
	/* The core options with a JSON key (core_opts.c's table), as the run
	 * used them: the thread counts it ran, "affinity" when threads were
	 * pinned at all. Without a configuration, only the counts are known. */
	if (used) {
		if (cfg)
			*used = *cfg;
		else
			bc_config_init(used);
		used->producers = res->producer_cnt;
		used->consumers = res->consumer_cnt;
		used->affinity = cfg && (cfg->affinity || cfg->prod_cpus_set || cfg->cons_cpus_set);
		if (!cfg)
			used->warmup_sec = used->duration_sec = NAN;
		bc_core_opts_json(w, used);
		free(used);
	}
	/* Every declared option's effective value, typed, and which ones the
	 * user gave: a reader needs neither the plugin nor its defaults. */
	if (cfg && cfg->opts) {
		bc_opts_json(w, cfg->opts);
	} else {
		bc_jw_obj_begin(w, BC_DOC_CFG_PLUGIN_OPTIONS);
		bc_jw_obj_end(w);
	}
	bc_jw_obj_end(w);
}

static unsigned int bc_metric_cnt(const struct bc_run_result *res)
{
	return res->bench && res->bench->metrics ? res->bench->desc.metric_cnt : 0;
}

static void bc_json_iter_hists(struct bc_json_writer *w, const struct bc_run_result *res,
			       size_t idx)
{
	const struct bc_figures *fg = res->figs;
	unsigned int m;

	if (!fg)
		return;
	for (m = 0; m < fg->metric_cnt; m++) {
		const struct bc_hist_stats *s;

		if (!fg->hist_iters[m] || idx >= fg->iter_cap)
			continue;
		s = &fg->hist_iters[m][idx];
		bc_jw_obj_begin(w, res->bench->metrics[m].name);
		bc_jw_uint(w, BC_DOC_HIST_COUNT, s->count);
		bc_jw_num(w, BC_DOC_HIST_P50, s->p50);
		bc_jw_num(w, BC_DOC_HIST_P99, s->p99);
		bc_jw_obj_end(w);
	}
}

/* --bpf-stats: each program's interval, in the order of "programs"; null
 * where the counters could not be read at both ends. */
static void bc_json_iter_progs(struct bc_json_writer *w, const struct bc_run_result *res,
			       size_t idx)
{
	size_t p;

	bc_jw_arr_begin(w, BC_DOC_ITER_BPF_STATS);
	for (p = 0; p < res->bpf->prog_cnt; p++) {
		const struct bc_prog_tick *t = bc_bpf_stats_tick_at(res->bpf, idx, p);

		if (!t || !t->valid) {
			bc_jw_null(w, NULL);
			continue;
		}
		bc_jw_obj_begin(w, NULL);
		bc_jw_uint(w, BC_DOC_ITER_RUN_CNT, t->run_cnt);
		bc_jw_uint(w, BC_DOC_ITER_RUN_TIME_NS, t->run_time_ns);
		bc_jw_num(w, BC_DOC_ITER_RUNS_PER_SEC, t->runs_per_sec);
		bc_jw_num(w, BC_DOC_ITER_NS_PER_RUN, t->ns_per_run);
		bc_jw_num(w, BC_DOC_ITER_PRODUCER_TIME_PCT, t->prod_pct);
		bc_jw_num(w, BC_DOC_ITER_PRODUCER_CPU_PCT, t->prod_cpu_pct);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_iterations(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);
	size_t i, k;

	bc_jw_arr_begin(w, BC_DOC_ITERATIONS);
	for (i = 0; i < res->iter_cnt; i++) {
		const struct bc_iteration *it = &res->iters[i];

		bc_jw_obj_begin(w, NULL);
		bc_jw_uint(w, BC_DOC_ITER_INDEX, it->idx);
		/* Pooled runs (--repeat): which run the iteration is from. */
		if (res->repeats && res->repeats->iter_run)
			bc_jw_uint(w, BC_DOC_ITER_RUN, res->repeats->iter_run[i]);
		bc_jw_bool(w, BC_DOC_ITER_WARMUP, it->warmup);
		bc_jw_num(w, BC_DOC_ITER_LENGTH_SEC, it->length_sec);
		bc_jw_num(w, BC_DOC_ITER_DRIFT_US, it->drift_us);
		/* The interval's value of each metric: a counter's rate, a
		 * gauge as sampled, a ratio's quotient (null: none). */
		bc_jw_obj_begin(w, BC_DOC_ITER_VALUES);
		for (m = 0; m < cnt; m++)
			if (res->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
				bc_jw_num(w, res->bench->metrics[m].name, it->rates[m]);
		bc_jw_obj_end(w);
		/* What measure() returned: totals for counters and ratios. */
		bc_jw_obj_begin(w, BC_DOC_ITER_RAW);
		for (m = 0; m < cnt; m++)
			if (res->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
				bc_jw_num(w, res->bench->metrics[m].name, it->values[m]);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, BC_DOC_ITER_FIGURES);
		for (k = 0; res->figs && k < res->figs->fig_cnt; k++)
			bc_jw_num(w, res->figs->figs[k].name,
				  i < res->figs->iter_cap ? res->figs->figs[k].iters[i] : NAN);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, BC_DOC_ITER_HISTOGRAMS);
		bc_json_iter_hists(w, res, i);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, BC_DOC_ITER_CPU);
		bc_jw_num(w, BC_DOC_ITER_PRODUCER_USER_SEC, it->prod_user_sec);
		bc_jw_num(w, BC_DOC_ITER_PRODUCER_SYS_SEC, it->prod_sys_sec);
		bc_jw_num(w, BC_DOC_ITER_CONSUMER_USER_SEC, it->cons_user_sec);
		bc_jw_num(w, BC_DOC_ITER_CONSUMER_SYS_SEC, it->cons_sys_sec);
		bc_jw_obj_end(w);
		if (res->bpf)
			bc_json_iter_progs(w, res, i);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_stat_fields(struct bc_json_writer *w, const struct bc_metric_summary *s)
{
	bc_jw_num(w, BC_DOC_STAT_MEAN, s->mean);
	bc_jw_num(w, BC_DOC_STAT_STDDEV, s->stddev);
	bc_jw_num(w, BC_DOC_STAT_MIN, s->min);
	bc_jw_num(w, BC_DOC_STAT_MEDIAN, s->median);
	bc_jw_num(w, BC_DOC_STAT_MAX, s->max);
	bc_jw_uint(w, BC_DOC_STAT_N, s->n);
}

static void bc_json_stats(struct bc_json_writer *w, const char *key, const char *unit,
			  const struct bc_metric_summary *s)
{
	bc_jw_obj_begin(w, key);
	if (unit)
		bc_jw_str(w, BC_DOC_STAT_UNIT, unit);
	bc_json_stat_fields(w, s);
	bc_jw_obj_end(w);
}

/* Counters become rates: "ops" per second is "ops/s". */
static void bc_metric_unit(const struct bc_metric_desc *m, char *buf, size_t len)
{
	const char *u = m->unit && *m->unit ? m->unit : "events";

	if (m->kind == BC_METRIC_COUNTER)
		snprintf(buf, len, "%s/s", u);
	else
		snprintf(buf, len, "%s", u);
}

/* No "mean" member: readers that list a summary's rates pass it by. */
static void bc_json_hist(struct bc_json_writer *w, const char *key, const char *unit,
			 const struct bc_hist_stats *s)
{
	bc_jw_obj_begin(w, key);
	bc_jw_str(w, BC_DOC_STAT_UNIT, unit);
	bc_jw_str(w, BC_DOC_HIST_KIND, BC_DOC_KIND_HISTOGRAM);
	bc_jw_uint(w, BC_DOC_HIST_COUNT, s->count);
	bc_jw_num(w, BC_DOC_HIST_P50, s->p50);
	bc_jw_num(w, BC_DOC_HIST_P90, s->p90);
	bc_jw_num(w, BC_DOC_HIST_P99, s->p99);
	bc_jw_num(w, BC_DOC_HIST_P999, s->p999);
	bc_jw_num(w, BC_DOC_HIST_MAX, s->max);
	bc_jw_obj_end(w);
}

/* Which way the figure is better: figures.c's one rule, from the names
 * this document writes (the unit as reported). */
static const char *bc_json_direction(const struct bc_metric_desc *d, const char *unit)
{
	enum bc_direction dir = bc_metric_direction(bc_metric_kind_name(d->kind),
						    bc_metric_role_name(d->role), unit);

	return dir == BC_LOWER_IS_BETTER ? BC_DOC_DIRECTION_LOWER : BC_DOC_DIRECTION_HIGHER;
}

static void bc_json_figures(struct bc_json_writer *w, const struct bc_run_result *res)
{
	size_t k;

	bc_jw_obj_begin(w, BC_DOC_SUMMARY_FIGURES);
	for (k = 0; res->figs && k < res->figs->fig_cnt; k++) {
		const struct bc_figure *f = &res->figs->figs[k];
		const struct bc_metric_desc *d = &res->bench->metrics[f->metric];

		bc_jw_obj_begin(w, f->name);
		bc_jw_str(w, BC_DOC_FIG_KIND, bc_figure_kind_name(f->kind));
		bc_jw_str(w, BC_DOC_FIG_UNIT, f->unit);
		bc_jw_str(w, BC_DOC_FIG_OF, d->name);
		bc_jw_str(w, BC_DOC_FIG_DIRECTION, bc_json_direction(d, f->unit));
		bc_jw_num(w, BC_DOC_FIG_VALUE, f->value);
		bc_jw_obj_begin(w, BC_DOC_FIG_STATS);
		bc_json_stat_fields(w, &f->stats);
		bc_jw_obj_end(w);
		bc_jw_obj_end(w);
	}
	bc_jw_obj_end(w);
}

/* A figure of the run with the spread of its interval values. */
static void bc_json_valued(struct bc_json_writer *w, const char *key, const char *unit,
			   double value, const struct bc_metric_summary *s)
{
	bc_jw_obj_begin(w, key);
	bc_jw_str(w, BC_DOC_STAT_UNIT, unit);
	bc_jw_num(w, BC_DOC_STAT_VALUE, value);
	bc_json_stat_fields(w, s);
	bc_jw_obj_end(w);
}

/* --bpf-stats over the measured intervals; no "mean" of its own, so the
 * readers that list a summary's metrics pass it by. */
static void bc_json_bpf_stats(struct bc_json_writer *w, const struct bc_run_result *res)
{
	const struct bc_bpf_stats *b = res->bpf;
	size_t p;

	bc_jw_obj_begin(w, BC_DOC_SUMMARY_BPF_STATS);
	bc_jw_bool(w, BC_DOC_BPF_ALREADY_ENABLED, b->already);
	bc_jw_uint(w, BC_DOC_BPF_READ_ERRORS, b->read_errors);
	bc_json_valued(w, BC_DOC_BPF_PRODUCER_TIME_PCT, "%", b->total_pct_value, &b->total_pct);
	bc_json_valued(w, BC_DOC_BPF_PRODUCER_CPU_PCT, "%", b->total_cpu_pct_value, &b->total_cpu_pct);
	bc_jw_arr_begin(w, BC_DOC_BPF_PROGRAMS);
	for (p = 0; b->progs && p < b->prog_cnt && res->ctx && p < res->ctx->prog_cnt; p++) {
		const struct bc_prog_stats *ps = &b->progs[p];
		const struct bc_prog *pr = &res->ctx->progs[p];

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, BC_DOC_BPF_ROLE, pr->role);
		bc_jw_str(w, BC_DOC_BPF_NAME, pr->name);
		bc_jw_uint(w, BC_DOC_BPF_ID, pr->id);
		bc_jw_uint(w, BC_DOC_BPF_RUN_CNT, ps->run_cnt);
		bc_jw_uint(w, BC_DOC_BPF_RUN_TIME_NS, ps->run_time_ns);
		bc_jw_num(w, BC_DOC_BPF_MEASURED_SEC, ps->measured_sec);
		bc_jw_num(w, BC_DOC_BPF_PRODUCER_CPU_SEC, ps->prod_cpu_sec);
		bc_json_stats(w, BC_DOC_BPF_RUNS_PER_SEC, "runs/s", &ps->runs_per_sec);
		bc_json_valued(w, BC_DOC_BPF_NS_PER_RUN, "ns", ps->ns_per_run_value, &ps->ns_per_run);
		bc_json_valued(w, BC_DOC_BPF_PRODUCER_TIME_PCT, "%", ps->prod_pct_value, &ps->prod_pct);
		bc_json_valued(w, BC_DOC_BPF_PRODUCER_CPU_PCT, "%", ps->prod_cpu_pct_value, &ps->prod_cpu_pct);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
	bc_jw_obj_end(w);
}

/* Repeated runs: the 95% interval of the mean of the run means beside the
 * pooled statistics, where readers of a summary entry (plot's error bars)
 * look for one; repeats.aggregate holds the rest. */
static void bc_json_summary_ci(struct bc_json_writer *w, const struct bc_run_result *res,
			       unsigned int m)
{
	const struct bc_rep_stats *s;

	if (!res->repeats || !res->repeats->metrics)
		return;
	s = &res->repeats->metrics[m];
	if (s->n < 2)
		return;
	bc_jw_obj_begin(w, BC_DOC_STAT_CI95);
	bc_jw_num(w, BC_DOC_CI_LOW, s->mean - s->ci_half);
	bc_jw_num(w, BC_DOC_CI_HIGH, s->mean + s->ci_half);
	bc_jw_num(w, BC_DOC_CI_HALF_WIDTH, s->ci_half);
	bc_jw_uint(w, BC_DOC_CI_RUNS, s->n);
	bc_jw_obj_end(w);
}

static void bc_json_summary(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);
	char unit[64];

	bc_jw_obj_begin(w, BC_DOC_SUMMARY);
	for (m = 0; m < cnt && res->summary; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];

		if (d->kind == BC_METRIC_HISTOGRAM && res->figs) {
			bc_json_hist(w, d->name, d->unit, &res->figs->hist_summary[m]);
			continue;
		}
		bc_metric_unit(d, unit, sizeof(unit));
		bc_jw_obj_begin(w, d->name);
		bc_jw_str(w, BC_DOC_STAT_UNIT, unit);
		bc_json_stat_fields(w, &res->summary[m]);
		bc_json_summary_ci(w, res, m);
		bc_jw_obj_end(w);
	}
	bc_json_figures(w, res);
	if (res->bpf)
		bc_json_bpf_stats(w, res);
	bc_jw_obj_end(w);
}

static void bc_json_rep_stats(struct bc_json_writer *w, const char *key, const char *unit,
			      const struct bc_rep_stats *s)
{
	bc_jw_obj_begin(w, key);
	if (unit)
		bc_jw_str(w, BC_DOC_AGG_UNIT, unit);
	bc_jw_uint(w, BC_DOC_AGG_N, s->n);
	bc_jw_num(w, BC_DOC_AGG_MEAN, s->mean);
	bc_jw_num(w, BC_DOC_AGG_STDDEV, s->stddev);
	bc_jw_num(w, BC_DOC_AGG_CV_PCT, s->cv_pct);
	bc_jw_num(w, BC_DOC_AGG_T, s->t);
	bc_jw_num(w, BC_DOC_AGG_CI95_HALF, s->ci_half);
	bc_jw_num(w, BC_DOC_AGG_CI95_LOW, s->mean - s->ci_half);
	bc_jw_num(w, BC_DOC_AGG_CI95_HIGH, s->mean + s->ci_half);
	bc_jw_num(w, BC_DOC_AGG_CI95_PCT, s->ci_pct);
	bc_jw_obj_end(w);
}

/* One run of --repeat: its status and its means. */
static void bc_json_rep_run(struct bc_json_writer *w, const struct bc_repeats *r, size_t k)
{
	const struct bc_run_result *run = &r->runs[k];
	unsigned int m, cnt = bc_metric_cnt(run);
	size_t i, measured = bc_stats_measured_cnt(run);

	bc_jw_obj_begin(w, NULL);
	bc_jw_uint(w, BC_DOC_REPRUN_INDEX, k);
	bc_jw_int(w, BC_DOC_REPRUN_EXIT_STATUS, run->exit_status);
	bc_jw_bool(w, BC_DOC_REPRUN_COMPLETE, run->exit_status == BC_EXIT_OK);
	bc_jw_num(w, BC_DOC_REPRUN_ELAPSED_SEC, r->run_sec[k]);
	bc_jw_uint(w, BC_DOC_REPRUN_MEASURED_ITERATIONS, measured);
	bc_jw_obj_begin(w, BC_DOC_REPRUN_VALUES);
	for (m = 0; m < cnt && run->summary; m++)
		if (run->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
			bc_jw_num(w, run->bench->metrics[m].name, run->summary[m].mean);
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, BC_DOC_REPRUN_FIGURES);
	for (i = 0; run->figs && i < run->figs->fig_cnt; i++)
		bc_jw_num(w, run->figs->figs[i].name, run->figs->figs[i].value);
	bc_jw_obj_end(w);
	bc_jw_obj_end(w);
}

/* --repeat and --precision: what was asked, why it ended, each run's
 * means and the statistics over the complete runs (repstats.h). */
static void bc_json_repeats(struct bc_json_writer *w, const struct bc_run_result *res)
{
	const struct bc_repeats *r = res->repeats;
	bool precision = r->rule.precision_pct > 0;
	unsigned int m, cnt = bc_metric_cnt(res);
	char unit[64];
	size_t k;

	bc_jw_obj_begin(w, BC_DOC_REPEATS);
	bc_jw_uint(w, BC_DOC_REP_REPEAT, r->rule.repeat);
	bc_jw_num(w, BC_DOC_REP_PRECISION_PCT, precision ? r->rule.precision_pct : NAN);
	if (precision)
		bc_jw_uint(w, BC_DOC_REP_MAX_REPEAT, r->rule.max_repeat);
	else
		bc_jw_null(w, BC_DOC_REP_MAX_REPEAT);
	bc_jw_num(w, BC_DOC_REP_MAX_TIME_SEC, precision && r->rule.max_time_sec > 0 ? r->rule.max_time_sec
									 : NAN);
	bc_jw_str(w, BC_DOC_REP_ENDED_BY, bc_rep_end_name(r->end));
	bc_jw_uint(w, BC_DOC_REP_RUNS_STARTED, r->run_cnt);
	bc_jw_uint(w, BC_DOC_REP_RUNS_COMPLETE, r->complete_cnt);
	bc_jw_num(w, BC_DOC_REP_ELAPSED_SEC, r->elapsed_sec);
	bc_jw_num(w, BC_DOC_REP_CONFIDENCE, BC_REP_CONFIDENCE);
	bc_jw_str(w, BC_DOC_REP_WATCHED, r->watched >= 0 ? res->bench->metrics[r->watched].name : NULL);
	bc_jw_arr_begin(w, BC_DOC_REP_RUNS);
	for (k = 0; k < r->run_cnt; k++)
		bc_json_rep_run(w, r, k);
	bc_jw_arr_end(w);
	bc_jw_obj_begin(w, BC_DOC_REP_AGGREGATE);
	for (m = 0; m < cnt && r->metrics; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];

		if (d->kind == BC_METRIC_HISTOGRAM)
			continue;
		bc_metric_unit(d, unit, sizeof(unit));
		bc_json_rep_stats(w, d->name, unit, &r->metrics[m]);
	}
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, BC_DOC_REP_FIGURES);
	for (k = 0; r->figs && res->figs && k < r->fig_cnt && k < res->figs->fig_cnt; k++)
		bc_json_rep_stats(w, res->figs->figs[k].name, res->figs->figs[k].unit, &r->figs[k]);
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, BC_DOC_REP_RUNS_NEEDED);
	bc_jw_num(w, BC_DOC_NEED_CHANGE_PCT, BC_REP_DETECT_CHANGE_PCT);
	bc_jw_num(w, BC_DOC_NEED_ALPHA, BC_REP_DETECT_ALPHA);
	bc_jw_num(w, BC_DOC_NEED_POWER, BC_REP_DETECT_POWER);
	if (r->runs_needed)
		bc_jw_uint(w, BC_DOC_NEED_RUNS, r->runs_needed);
	else
		bc_jw_null(w, BC_DOC_NEED_RUNS);
	bc_jw_obj_end(w);
	bc_jw_obj_end(w);
}

static void bc_json_cpu(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);

	/* CPU-seconds per wall-clock second: 1.0 is one CPU kept busy. */
	bc_jw_obj_begin(w, BC_DOC_CPU_UTILISATION);
	bc_json_stats(w, BC_DOC_CPU_PRODUCER, "cpus", &res->prod_cpu_util);
	bc_json_stats(w, BC_DOC_CPU_PRODUCER_USER, "cpus", &res->prod_user_util);
	bc_json_stats(w, BC_DOC_CPU_PRODUCER_SYS, "cpus", &res->prod_sys_util);
	bc_json_stats(w, BC_DOC_CPU_CONSUMER, "cpus", &res->cons_cpu_util);
	bc_json_stats(w, BC_DOC_CPU_CONSUMER_USER, "cpus", &res->cons_user_util);
	bc_json_stats(w, BC_DOC_CPU_CONSUMER_SYS, "cpus", &res->cons_sys_util);
	/* Events per CPU-second of the benchmark's threads, per counter. */
	bc_jw_obj_begin(w, BC_DOC_CPU_PER_CPU_SECOND);
	for (m = 0; m < cnt && res->figs; m++) {
		if (res->bench->metrics[m].kind != BC_METRIC_COUNTER)
			continue;
		bc_jw_num(w, res->bench->metrics[m].name, res->figs->per_cpu_sec[m]);
	}
	bc_jw_obj_end(w);
	bc_jw_obj_end(w);
}

static void bc_json_metrics(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);

	char unit[64];

	bc_jw_arr_begin(w, BC_DOC_METRICS);
	for (m = 0; m < cnt; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];
		const struct bc_metric_view *v = bc_metric_view(res, m);

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, BC_DOC_METRIC_NAME, d->name);
		bc_jw_str(w, BC_DOC_METRIC_UNIT, d->unit);
		bc_jw_str(w, BC_DOC_METRIC_KIND, bc_metric_kind_name(d->kind));
		/* The role the reports used: the declared one. */
		bc_jw_str(w, BC_DOC_METRIC_ROLE, bc_metric_role_name(v ? v->role : d->role));
		bc_jw_str(w, BC_DOC_METRIC_LABEL, v ? v->label : d->name);
		if (d->kind == BC_METRIC_RATIO)
			bc_jw_str(w, BC_DOC_METRIC_PER, d->per);
		/* Of the figure the summary holds for it: a counter's rate. */
		bc_metric_unit(d, unit, sizeof(unit));
		bc_jw_str(w, BC_DOC_METRIC_DIRECTION, bc_json_direction(d, unit));
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_programs(struct bc_json_writer *w, const struct bc_run_result *res)
{
	size_t i;

	bc_jw_arr_begin(w, BC_DOC_PROGRAMS);
	for (i = 0; res->ctx && i < res->ctx->prog_cnt; i++) {
		const struct bc_prog *p = &res->ctx->progs[i];

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, BC_DOC_PROG_ROLE, p->role);
		bc_jw_str(w, BC_DOC_PROG_NAME, p->name);
		bc_jw_uint(w, BC_DOC_PROG_ID, p->id);
		bc_jw_str(w, BC_DOC_PROG_TYPE, p->type);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

/* The run's result by name (figures.c's rule): what readers judge unless
 * told otherwise. null: the benchmark has none. */
static void bc_json_headline(struct bc_json_writer *w, const struct bc_run_result *res)
{
	int m = res->figs ? res->figs->judged : bc_bench_judged(res->bench);

	bc_jw_str(w, BC_DOC_HEADLINE, m >= 0 ? res->bench->metrics[m].name : NULL);
}

int bc_report_json(FILE *f, const struct bc_config *cfg, const struct bc_run_result *res)
{
	const struct bc_plugin *pl = res->bench ? res->bench->plugin : NULL;
	struct bc_json_writer w;
	size_t i;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, BC_DOC_BENCHCORE_VERSION, bc_version());
	bc_json_context(&w);

	bc_jw_obj_begin(&w, BC_DOC_PLUGIN);
	bc_jw_str(&w, BC_DOC_PLUGIN_NAME, pl ? pl->desc.name : NULL);
	bc_jw_str(&w, BC_DOC_PLUGIN_VERSION, pl ? pl->desc.version : NULL);
	bc_jw_str(&w, BC_DOC_PLUGIN_PATH, pl ? pl->path : NULL);
	bc_jw_obj_end(&w);
	bc_jw_str(&w, BC_DOC_BENCHMARK, res->bench ? res->bench->desc.name : NULL);
	bc_jw_str(&w, BC_DOC_ATTACH_POINT, res->ctx ? bc_ctx_attach_point(res->ctx) : NULL);
	bc_json_headline(&w, res);
	bc_json_config(&w, cfg, res);

	bc_json_metrics(&w, res);
	bc_json_programs(&w, res);
	bc_json_iterations(&w, res);
	bc_json_summary(&w, res);
	if (res->repeats)
		bc_json_repeats(&w, res);
	bc_json_cpu(&w, res);

	bc_jw_arr_begin(&w, BC_DOC_WARNINGS);
	for (i = 0; i < res->warning_cnt; i++)
		bc_jw_str(&w, NULL, res->warnings[i]);
	bc_jw_arr_end(&w);

	bc_jw_obj_begin(&w, BC_DOC_STATUS);
	bc_jw_int(&w, BC_DOC_STATUS_EXIT_STATUS, res->exit_status);
	bc_jw_bool(&w, BC_DOC_STATUS_INTERRUPTED, res->interrupted);
	bc_jw_str(&w, BC_DOC_STATUS_REASON, res->reason[0] ? res->reason : NULL);
	bc_jw_obj_end(&w);

	bc_jw_obj_end(&w);
	return bc_jw_finish(&w);
}
