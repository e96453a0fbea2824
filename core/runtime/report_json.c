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
#include "exit_status.h"
#include "bpf_stats.h"
#include "figures.h"
#include "json.h"
#include "plugin_opts.h"
#include "repstats.h"

static void bc_json_context(struct bc_json_writer *w)
{
	struct bc_sysinfo si;

	bc_sysinfo_get(&si);
	bc_jw_obj_begin(w, "context");
	bc_jw_str(w, "date", si.date);
	bc_jw_str(w, "host", si.host);
	bc_jw_str(w, "kernel_release", si.kernel);
	bc_jw_str(w, "kernel_version", si.kernel_version);
	bc_jw_str(w, "cpu_model", si.cpu_model);
	bc_jw_uint(w, "cpu_count", si.cpu_count);
	bc_jw_bool(w, "hypervisor", si.hypervisor);
	bc_jw_str(w, "libbpf_version", si.libbpf_version);
	bc_jw_str(w, "benchcore_version", bc_version());
	bc_jw_obj_end(w);
	/* Top level, after the context: a store keeps a run once by it. */
	bc_jw_str(w, "run_id", si.run_id);
}

static void bc_json_config(struct bc_json_writer *w, const struct bc_config *cfg,
			   const struct bc_run_result *res)
{
	struct bc_config *used = calloc(1, sizeof(*used));	/* 32 KiB of CPU sets */

	bc_jw_obj_begin(w, "config");
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
		bc_jw_obj_begin(w, "plugin_options");
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
		bc_jw_uint(w, "count", s->count);
		bc_jw_num(w, "p50", s->p50);
		bc_jw_num(w, "p99", s->p99);
		bc_jw_obj_end(w);
	}
}

/* --bpf-stats: each program's interval, in the order of "programs"; null
 * where the counters could not be read at both ends. */
static void bc_json_iter_progs(struct bc_json_writer *w, const struct bc_run_result *res,
			       size_t idx)
{
	size_t p;

	bc_jw_arr_begin(w, "bpf_stats");
	for (p = 0; p < res->bpf->prog_cnt; p++) {
		const struct bc_prog_tick *t = bc_bpf_stats_tick_at(res->bpf, idx, p);

		if (!t || !t->valid) {
			bc_jw_null(w, NULL);
			continue;
		}
		bc_jw_obj_begin(w, NULL);
		bc_jw_uint(w, "run_cnt", t->run_cnt);
		bc_jw_uint(w, "run_time_ns", t->run_time_ns);
		bc_jw_num(w, "runs_per_sec", t->runs_per_sec);
		bc_jw_num(w, "ns_per_run", t->ns_per_run);
		bc_jw_num(w, "producer_time_pct", t->prod_pct);
		bc_jw_num(w, "producer_cpu_pct", t->prod_cpu_pct);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_iterations(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);
	size_t i, k;

	bc_jw_arr_begin(w, "iterations");
	for (i = 0; i < res->iter_cnt; i++) {
		const struct bc_iteration *it = &res->iters[i];

		bc_jw_obj_begin(w, NULL);
		bc_jw_uint(w, "index", it->idx);
		/* Pooled runs (--repeat): which run the iteration is from. */
		if (res->repeats && res->repeats->iter_run)
			bc_jw_uint(w, "run", res->repeats->iter_run[i]);
		bc_jw_bool(w, "warmup", it->warmup);
		bc_jw_num(w, "length_sec", it->length_sec);
		bc_jw_num(w, "drift_us", it->drift_us);
		/* The interval's value of each metric: a counter's rate, a
		 * gauge as sampled, a ratio's quotient (null: none). */
		bc_jw_obj_begin(w, "values");
		for (m = 0; m < cnt; m++)
			if (res->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
				bc_jw_num(w, res->bench->metrics[m].name, it->rates[m]);
		bc_jw_obj_end(w);
		/* What measure() returned: totals for counters and ratios. */
		bc_jw_obj_begin(w, "raw");
		for (m = 0; m < cnt; m++)
			if (res->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
				bc_jw_num(w, res->bench->metrics[m].name, it->values[m]);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, "figures");
		for (k = 0; res->figs && k < res->figs->fig_cnt; k++)
			bc_jw_num(w, res->figs->figs[k].name,
				  i < res->figs->iter_cap ? res->figs->figs[k].iters[i] : NAN);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, "histograms");
		bc_json_iter_hists(w, res, i);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, "cpu");
		bc_jw_num(w, "producer_user_sec", it->prod_user_sec);
		bc_jw_num(w, "producer_sys_sec", it->prod_sys_sec);
		bc_jw_num(w, "consumer_user_sec", it->cons_user_sec);
		bc_jw_num(w, "consumer_sys_sec", it->cons_sys_sec);
		bc_jw_obj_end(w);
		if (res->bpf)
			bc_json_iter_progs(w, res, i);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_stat_fields(struct bc_json_writer *w, const struct bc_metric_summary *s)
{
	bc_jw_num(w, "mean", s->mean);
	bc_jw_num(w, "stddev", s->stddev);
	bc_jw_num(w, "min", s->min);
	bc_jw_num(w, "median", s->median);
	bc_jw_num(w, "max", s->max);
	bc_jw_uint(w, "n", s->n);
}

static void bc_json_stats(struct bc_json_writer *w, const char *key, const char *unit,
			  const struct bc_metric_summary *s)
{
	bc_jw_obj_begin(w, key);
	if (unit)
		bc_jw_str(w, "unit", unit);
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
	bc_jw_str(w, "unit", unit);
	bc_jw_str(w, "kind", "histogram");
	bc_jw_uint(w, "count", s->count);
	bc_jw_num(w, "p50", s->p50);
	bc_jw_num(w, "p90", s->p90);
	bc_jw_num(w, "p99", s->p99);
	bc_jw_num(w, "p99.9", s->p999);
	bc_jw_num(w, "max", s->max);
	bc_jw_obj_end(w);
}

/* Which way the figure is better: figures.c's one rule, from the names
 * this document writes (the unit as reported). */
static const char *bc_json_direction(const struct bc_metric_desc *d, const char *unit)
{
	enum bc_direction dir = bc_metric_direction(bc_metric_kind_name(d->kind),
						    bc_metric_role_name(d->role), unit);

	return dir == BC_LOWER_IS_BETTER ? "lower" : "higher";
}

static void bc_json_figures(struct bc_json_writer *w, const struct bc_run_result *res)
{
	size_t k;

	bc_jw_obj_begin(w, "figures");
	for (k = 0; res->figs && k < res->figs->fig_cnt; k++) {
		const struct bc_figure *f = &res->figs->figs[k];
		const struct bc_metric_desc *d = &res->bench->metrics[f->metric];

		bc_jw_obj_begin(w, f->name);
		bc_jw_str(w, "kind", bc_figure_kind_name(f->kind));
		bc_jw_str(w, "unit", f->unit);
		bc_jw_str(w, "of", d->name);
		bc_jw_str(w, "direction", bc_json_direction(d, f->unit));
		bc_jw_num(w, "value", f->value);
		bc_jw_obj_begin(w, "stats");
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
	bc_jw_str(w, "unit", unit);
	bc_jw_num(w, "value", value);
	bc_json_stat_fields(w, s);
	bc_jw_obj_end(w);
}

/* --bpf-stats over the measured intervals; no "mean" of its own, so the
 * readers that list a summary's metrics pass it by. */
static void bc_json_bpf_stats(struct bc_json_writer *w, const struct bc_run_result *res)
{
	const struct bc_bpf_stats *b = res->bpf;
	size_t p;

	bc_jw_obj_begin(w, "bpf_stats");
	bc_jw_bool(w, "already_enabled", b->already);
	bc_jw_uint(w, "read_errors", b->read_errors);
	bc_json_valued(w, "producer_time_pct", "%", b->total_pct_value, &b->total_pct);
	bc_json_valued(w, "producer_cpu_pct", "%", b->total_cpu_pct_value, &b->total_cpu_pct);
	bc_jw_arr_begin(w, "programs");
	for (p = 0; b->progs && p < b->prog_cnt && res->ctx && p < res->ctx->prog_cnt; p++) {
		const struct bc_prog_stats *ps = &b->progs[p];
		const struct bc_prog *pr = &res->ctx->progs[p];

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, "role", pr->role);
		bc_jw_str(w, "name", pr->name);
		bc_jw_uint(w, "id", pr->id);
		bc_jw_uint(w, "run_cnt", ps->run_cnt);
		bc_jw_uint(w, "run_time_ns", ps->run_time_ns);
		bc_jw_num(w, "measured_sec", ps->measured_sec);
		bc_jw_num(w, "producer_cpu_sec", ps->prod_cpu_sec);
		bc_json_stats(w, "runs_per_sec", "runs/s", &ps->runs_per_sec);
		bc_json_valued(w, "ns_per_run", "ns", ps->ns_per_run_value, &ps->ns_per_run);
		bc_json_valued(w, "producer_time_pct", "%", ps->prod_pct_value, &ps->prod_pct);
		bc_json_valued(w, "producer_cpu_pct", "%", ps->prod_cpu_pct_value, &ps->prod_cpu_pct);
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
	bc_jw_obj_begin(w, "ci95");
	bc_jw_num(w, "low", s->mean - s->ci_half);
	bc_jw_num(w, "high", s->mean + s->ci_half);
	bc_jw_num(w, "half_width", s->ci_half);
	bc_jw_uint(w, "runs", s->n);
	bc_jw_obj_end(w);
}

static void bc_json_summary(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);
	char unit[64];

	bc_jw_obj_begin(w, "summary");
	for (m = 0; m < cnt && res->summary; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];

		if (d->kind == BC_METRIC_HISTOGRAM && res->figs) {
			bc_json_hist(w, d->name, d->unit, &res->figs->hist_summary[m]);
			continue;
		}
		bc_metric_unit(d, unit, sizeof(unit));
		bc_jw_obj_begin(w, d->name);
		bc_jw_str(w, "unit", unit);
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
		bc_jw_str(w, "unit", unit);
	bc_jw_uint(w, "n", s->n);
	bc_jw_num(w, "mean", s->mean);
	bc_jw_num(w, "stddev", s->stddev);
	bc_jw_num(w, "cv_pct", s->cv_pct);
	bc_jw_num(w, "t", s->t);
	bc_jw_num(w, "ci95_half", s->ci_half);
	bc_jw_num(w, "ci95_low", s->mean - s->ci_half);
	bc_jw_num(w, "ci95_high", s->mean + s->ci_half);
	bc_jw_num(w, "ci95_pct", s->ci_pct);
	bc_jw_obj_end(w);
}

/* One run of --repeat: its status and its means. */
static void bc_json_rep_run(struct bc_json_writer *w, const struct bc_repeats *r, size_t k)
{
	const struct bc_run_result *run = &r->runs[k];
	unsigned int m, cnt = bc_metric_cnt(run);
	size_t i, measured = bc_stats_measured_cnt(run);

	bc_jw_obj_begin(w, NULL);
	bc_jw_uint(w, "index", k);
	bc_jw_int(w, "exit_status", run->exit_status);
	bc_jw_bool(w, "complete", run->exit_status == BC_EXIT_OK);
	bc_jw_num(w, "elapsed_sec", r->run_sec[k]);
	bc_jw_uint(w, "measured_iterations", measured);
	bc_jw_obj_begin(w, "values");
	for (m = 0; m < cnt && run->summary; m++)
		if (run->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
			bc_jw_num(w, run->bench->metrics[m].name, run->summary[m].mean);
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, "figures");
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

	bc_jw_obj_begin(w, "repeats");
	bc_jw_uint(w, "repeat", r->rule.repeat);
	bc_jw_num(w, "precision_pct", precision ? r->rule.precision_pct : NAN);
	if (precision)
		bc_jw_uint(w, "max_repeat", r->rule.max_repeat);
	else
		bc_jw_null(w, "max_repeat");
	bc_jw_num(w, "max_time_sec", precision && r->rule.max_time_sec > 0 ? r->rule.max_time_sec
									 : NAN);
	bc_jw_str(w, "ended_by", bc_rep_end_name(r->end));
	bc_jw_uint(w, "runs_started", r->run_cnt);
	bc_jw_uint(w, "runs_complete", r->complete_cnt);
	bc_jw_num(w, "elapsed_sec", r->elapsed_sec);
	bc_jw_num(w, "confidence", BC_REP_CONFIDENCE);
	bc_jw_str(w, "watched", r->watched >= 0 ? res->bench->metrics[r->watched].name : NULL);
	bc_jw_arr_begin(w, "runs");
	for (k = 0; k < r->run_cnt; k++)
		bc_json_rep_run(w, r, k);
	bc_jw_arr_end(w);
	bc_jw_obj_begin(w, "aggregate");
	for (m = 0; m < cnt && r->metrics; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];

		if (d->kind == BC_METRIC_HISTOGRAM)
			continue;
		bc_metric_unit(d, unit, sizeof(unit));
		bc_json_rep_stats(w, d->name, unit, &r->metrics[m]);
	}
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, "figures");
	for (k = 0; r->figs && res->figs && k < r->fig_cnt && k < res->figs->fig_cnt; k++)
		bc_json_rep_stats(w, res->figs->figs[k].name, res->figs->figs[k].unit, &r->figs[k]);
	bc_jw_obj_end(w);
	bc_jw_obj_begin(w, "runs_needed");
	bc_jw_num(w, "change_pct", BC_REP_DETECT_CHANGE_PCT);
	bc_jw_num(w, "alpha", BC_REP_DETECT_ALPHA);
	bc_jw_num(w, "power", BC_REP_DETECT_POWER);
	if (r->runs_needed)
		bc_jw_uint(w, "runs", r->runs_needed);
	else
		bc_jw_null(w, "runs");
	bc_jw_obj_end(w);
	bc_jw_obj_end(w);
}

static void bc_json_cpu(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = bc_metric_cnt(res);

	/* CPU-seconds per wall-clock second: 1.0 is one CPU kept busy. */
	bc_jw_obj_begin(w, "cpu_utilisation");
	bc_json_stats(w, "producer", "cpus", &res->prod_cpu_util);
	bc_json_stats(w, "producer_user", "cpus", &res->prod_user_util);
	bc_json_stats(w, "producer_sys", "cpus", &res->prod_sys_util);
	bc_json_stats(w, "consumer", "cpus", &res->cons_cpu_util);
	bc_json_stats(w, "consumer_user", "cpus", &res->cons_user_util);
	bc_json_stats(w, "consumer_sys", "cpus", &res->cons_sys_util);
	/* Events per CPU-second of the benchmark's threads, per counter. */
	bc_jw_obj_begin(w, "per_cpu_second");
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

	bc_jw_arr_begin(w, "metrics");
	for (m = 0; m < cnt; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];
		const struct bc_metric_view *v = bc_metric_view(res, m);

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, "name", d->name);
		bc_jw_str(w, "unit", d->unit);
		bc_jw_str(w, "kind", bc_metric_kind_name(d->kind));
		/* The role the reports used: the declared one. */
		bc_jw_str(w, "role", bc_metric_role_name(v ? v->role : d->role));
		bc_jw_str(w, "label", v ? v->label : d->name);
		if (d->kind == BC_METRIC_RATIO)
			bc_jw_str(w, "per", d->per);
		/* Of the figure the summary holds for it: a counter's rate. */
		bc_metric_unit(d, unit, sizeof(unit));
		bc_jw_str(w, "direction", bc_json_direction(d, unit));
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_programs(struct bc_json_writer *w, const struct bc_run_result *res)
{
	size_t i;

	bc_jw_arr_begin(w, "programs");
	for (i = 0; res->ctx && i < res->ctx->prog_cnt; i++) {
		const struct bc_prog *p = &res->ctx->progs[i];

		bc_jw_obj_begin(w, NULL);
		bc_jw_str(w, "role", p->role);
		bc_jw_str(w, "name", p->name);
		bc_jw_uint(w, "id", p->id);
		bc_jw_str(w, "type", p->type);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

/* The run's result by name (figures.c's rule): what readers judge unless
 * told otherwise. null: the benchmark has none. */
static void bc_json_headline(struct bc_json_writer *w, const struct bc_run_result *res)
{
	int m = res->figs ? res->figs->judged : bc_bench_judged(res->bench);

	bc_jw_str(w, "headline", m >= 0 ? res->bench->metrics[m].name : NULL);
}

int bc_report_json(FILE *f, const struct bc_config *cfg, const struct bc_run_result *res)
{
	const struct bc_plugin *pl = res->bench ? res->bench->plugin : NULL;
	struct bc_json_writer w;
	size_t i;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "benchcore_version", bc_version());
	bc_json_context(&w);

	bc_jw_obj_begin(&w, "plugin");
	bc_jw_str(&w, "name", pl ? pl->desc.name : NULL);
	bc_jw_str(&w, "version", pl ? pl->desc.version : NULL);
	bc_jw_str(&w, "path", pl ? pl->path : NULL);
	bc_jw_obj_end(&w);
	bc_jw_str(&w, "benchmark", res->bench ? res->bench->desc.name : NULL);
	bc_jw_str(&w, "attach_point", res->ctx ? bc_ctx_attach_point(res->ctx) : NULL);
	bc_json_headline(&w, res);
	bc_json_config(&w, cfg, res);

	bc_json_metrics(&w, res);
	bc_json_programs(&w, res);
	bc_json_iterations(&w, res);
	bc_json_summary(&w, res);
	if (res->repeats)
		bc_json_repeats(&w, res);
	bc_json_cpu(&w, res);

	bc_jw_arr_begin(&w, "warnings");
	for (i = 0; i < res->warning_cnt; i++)
		bc_jw_str(&w, NULL, res->warnings[i]);
	bc_jw_arr_end(&w);

	bc_jw_obj_begin(&w, "status");
	bc_jw_int(&w, "exit_status", res->exit_status);
	bc_jw_bool(&w, "interrupted", res->interrupted);
	bc_jw_str(&w, "reason", res->reason[0] ? res->reason : NULL);
	bc_jw_obj_end(&w);

	bc_jw_obj_end(&w);
	return bc_jw_finish(&w);
}
