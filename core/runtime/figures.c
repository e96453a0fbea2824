// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Derived figures, computed once per result from the metrics' roles (the
 * rule is the comment on enum bc_metric_role in benchcore.h). Two reports
 * that each derived ns/op once printed two answers for one run; here each
 * formula exists once, and every report prints what this file stored.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc_keys.h"
#include "figures.h"
#include "loader.h"
#include "result.h"
#include "stats.h"

const char *bc_metric_kind_name(enum bc_metric_kind kind)
{
	switch (kind) {
	case BC_METRIC_COUNTER:
		return "counter";
	case BC_METRIC_GAUGE:
		return "gauge";
	case BC_METRIC_RATIO:
		return "ratio";
	case BC_METRIC_HISTOGRAM:
		return "histogram";
	case BC_METRIC_TIME_PER_OP:
		return BC_DOC_KIND_TIME_PER_OP;
	}
	return "unknown";
}

const char *bc_metric_role_name(enum bc_metric_role role)
{
	switch (role) {
	case BC_ROLE_AUX:
		return "aux";
	case BC_ROLE_HITS:
		return "hits";
	case BC_ROLE_OPS:
		return "ops";
	case BC_ROLE_DROPS:
		return "drops";
	case BC_ROLE_RATE:
		return "rate";
	case BC_ROLE_SHARE:
		return "share";
	case BC_ROLE_LATENCY:
		return "latency";
	}
	return "unknown";
}

enum bc_direction bc_metric_direction(const char *kind, const char *role, const char *unit)
{
	static const char *const time_units[] = { "ns", "us", "ms", "s", "ns/op", "us/op",
						  "ms/op", "s/op", NULL };

	if (role && (!strcmp(role, "latency") || !strcmp(role, "drops")))
		return BC_LOWER_IS_BETTER;
	if (kind && !strcmp(kind, BC_DOC_KIND_TIME_PER_OP))
		return BC_LOWER_IS_BETTER;
	for (size_t i = 0; unit && time_units[i]; i++)
		if (!strcmp(unit, time_units[i]))
			return BC_LOWER_IS_BETTER;
	return BC_HIGHER_IS_BETTER;
}

const char *bc_figure_kind_name(enum bc_figure_kind kind)
{
	switch (kind) {
	case BC_FIG_PER_PRODUCER:
		return "per_producer";
	case BC_FIG_TOTAL:
		return "total";
	case BC_FIG_LATENCY:
		return "latency";
	case BC_FIG_SHARE_EVENTS:
		return "share_events";
	case BC_FIG_SHARE_TOTAL:
		return "share_total";
	case BC_FIG_SHARE_PCT:
		return "share_pct";
	case BC_FIG_RATIO:
		return "ratio";
	}
	return "unknown";
}

static unsigned int bc_metric_cnt(const struct bc_run_result *res)
{
	return res->bench && res->bench->metrics ? res->bench->desc.metric_cnt : 0;
}

static int bc_metric_by_name(const struct bc_bench *b, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < b->desc.metric_cnt; i++)
		if (b->metrics[i].name && !strcmp(b->metrics[i].name, name))
			return (int)i;
	return -1;
}

static void bc_views_declared(const struct bc_bench *b, struct bc_metric_view *v)
{
	unsigned int i;

	for (i = 0; i < b->desc.metric_cnt; i++) {
		const struct bc_metric_desc *m = &b->metrics[i];

		v[i].role = m->role;
		v[i].kind = m->kind;
		v[i].per = m->kind == BC_METRIC_RATIO ? bc_metric_by_name(b, m->per) : -1;
		v[i].label = m->label && *m->label ? m->label : m->name;
	}
}

/* A latency the grace-period lines print: one value per interval. */
static bool bc_view_has_ratio(const struct bc_metric_view *v)
{
	if (v->kind == BC_METRIC_HISTOGRAM)
		return false;
	return v->kind == BC_METRIC_RATIO || v->role == BC_ROLE_LATENCY;
}

static int bc_first_role(const struct bc_figures *fg, enum bc_metric_role role)
{
	unsigned int i;

	for (i = 0; i < fg->metric_cnt; i++)
		if (fg->views[i].role == role && fg->views[i].kind != BC_METRIC_HISTOGRAM)
			return (int)i;
	return -1;
}

int bc_bench_judged(const struct bc_bench *b)
{
	int m;

	if (!b || !b->metrics)
		return -1;
	/* The loader refused a name that is no metric, or a histogram's. */
	m = bc_metric_by_name(b, b->desc.headline);
	return m >= 0 ? m : bc_bench_role_headline(b);
}

static void bc_pick_lines(struct bc_figures *fg)
{
	int hits = bc_first_role(fg, BC_ROLE_HITS), ops = bc_first_role(fg, BC_ROLE_OPS);

	fg->headline = hits >= 0 ? hits : ops;
	fg->drops = bc_first_role(fg, BC_ROLE_DROPS);
	fg->share = bc_first_role(fg, BC_ROLE_SHARE);
	if (fg->share >= 0)
		fg->lines = BC_LINES_SHARE;
	else if (hits >= 0)
		fg->lines = BC_LINES_HITS;
	else if (ops >= 0)
		fg->lines = bc_first_role(fg, BC_ROLE_RATE) >= 0 ? BC_LINES_OPS_RATE : BC_LINES_OPS;
	else if (bc_first_role(fg, BC_ROLE_LATENCY) >= 0)
		fg->lines = BC_LINES_LATENCY;
	else
		fg->lines = BC_LINES_PLAIN;
}

static int bc_add_fig(struct bc_figures *fg, enum bc_figure_kind kind, int metric,
		      const char *name, const char *unit)
{
	struct bc_figure *f = &fg->figs[fg->fig_cnt];

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->metric = metric;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->unit, sizeof(f->unit), "%s", unit ? unit : "");
	f->value = NAN;
	f->iters = malloc((fg->iter_cap ? fg->iter_cap : 1) * sizeof(*f->iters));
	if (!f->iters)
		return -ENOMEM;
	for (size_t i = 0; i < (fg->iter_cap ? fg->iter_cap : 1); i++)
		f->iters[i] = NAN;
	fg->fig_cnt++;
	return 0;
}

/* Counters count events of their unit; a rate is that unit per second. */
static const char *bc_event_unit(const struct bc_run_result *res, int m)
{
	const char *u = m >= 0 ? res->bench->metrics[m].unit : NULL;

	return u && *u ? u : "events";
}

static int bc_plan_figures(struct bc_run_result *res, struct bc_figures *fg)
{
	char unit[48];
	unsigned int m;
	int err = 0;

	fg->figs = calloc(fg->metric_cnt + 6, sizeof(*fg->figs));
	if (!fg->figs)
		return -ENOMEM;
	if (fg->headline >= 0) {
		snprintf(unit, sizeof(unit), "%s/s", bc_event_unit(res, fg->headline));
		err = bc_add_fig(fg, BC_FIG_PER_PRODUCER, fg->headline, "per_producer", unit);
	}
	if (!err && fg->lines == BC_LINES_HITS) {
		snprintf(unit, sizeof(unit), "%s/s", bc_event_unit(res, fg->headline));
		err = bc_add_fig(fg, BC_FIG_TOTAL, fg->headline, "total_operations", unit);
	}
	if (!err && (fg->lines == BC_LINES_OPS || fg->lines == BC_LINES_OPS_RATE))
		err = bc_add_fig(fg, BC_FIG_LATENCY, fg->headline, "latency", "ns/op");
	if (!err && fg->lines == BC_LINES_SHARE) {
		snprintf(unit, sizeof(unit), "%s", bc_event_unit(res, fg->share));
		err = bc_add_fig(fg, BC_FIG_SHARE_EVENTS, fg->share, "share_events", unit);
		if (!err)
			err = bc_add_fig(fg, BC_FIG_SHARE_TOTAL, fg->share, "share_total", unit);
		if (!err)
			err = bc_add_fig(fg, BC_FIG_SHARE_PCT, fg->share, "share_pct", "%");
	}
	for (m = 0; !err && m < fg->metric_cnt; m++) {
		if (!bc_view_has_ratio(&fg->views[m]))
			continue;
		err = bc_add_fig(fg, BC_FIG_RATIO, (int)m, res->bench->metrics[m].name,
				 res->bench->metrics[m].unit);
	}
	return err;
}

static int bc_alloc_hists(struct bc_figures *fg, const struct bc_run_result *res)
{
	unsigned int m;

	fg->hist_iters = calloc(fg->metric_cnt ? fg->metric_cnt : 1, sizeof(*fg->hist_iters));
	fg->hist_summary = calloc(fg->metric_cnt ? fg->metric_cnt : 1, sizeof(*fg->hist_summary));
	fg->per_cpu_sec = calloc(fg->metric_cnt ? fg->metric_cnt : 1, sizeof(*fg->per_cpu_sec));
	if (!fg->hist_iters || !fg->hist_summary || !fg->per_cpu_sec)
		return -ENOMEM;
	for (m = 0; m < fg->metric_cnt; m++) {
		fg->per_cpu_sec[m] = NAN;
		if (res->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
			continue;
		fg->hist_iters[m] = calloc(fg->iter_cap ? fg->iter_cap : 1, sizeof(**fg->hist_iters));
		if (!fg->hist_iters[m])
			return -ENOMEM;
	}
	return 0;
}

int bc_figures_init(struct bc_run_result *res, size_t iter_cap)
{
	struct bc_figures *fg;
	int err;

	if (res->figs && res->figs->iter_cap >= iter_cap)
		return 0;
	bc_figures_free(res);
	fg = calloc(1, sizeof(*fg));
	if (!fg)
		return -ENOMEM;
	res->figs = fg;
	fg->metric_cnt = bc_metric_cnt(res);
	fg->iter_cap = iter_cap;
	fg->headline = fg->judged = fg->drops = fg->share = -1;
	fg->views = calloc(fg->metric_cnt ? fg->metric_cnt : 1, sizeof(*fg->views));
	if (!fg->views) {
		bc_figures_free(res);
		return -ENOMEM;
	}
	if (fg->metric_cnt)
		bc_views_declared(res->bench, fg->views);
	bc_pick_lines(fg);
	fg->judged = bc_bench_judged(res->bench);
	err = bc_plan_figures(res, fg);
	if (!err)
		err = bc_alloc_hists(fg, res);
	if (err)
		bc_figures_free(res);
	return err;
}

void bc_figures_free(struct bc_run_result *res)
{
	struct bc_figures *fg = res ? res->figs : NULL;
	size_t i;

	if (!fg)
		return;
	for (i = 0; fg->figs && i < fg->fig_cnt; i++)
		free(fg->figs[i].iters);
	for (i = 0; fg->hist_iters && i < fg->metric_cnt; i++)
		free(fg->hist_iters[i]);
	free(fg->hist_iters);
	free(fg->hist_summary);
	free(fg->per_cpu_sec);
	free(fg->figs);
	free(fg->views);
	free(fg);
	res->figs = NULL;
}

const struct bc_metric_view *bc_metric_view(const struct bc_run_result *res, unsigned int m)
{
	return res->figs && m < res->figs->metric_cnt ? &res->figs->views[m] : NULL;
}

const struct bc_figure *bc_figure_find(const struct bc_run_result *res, enum bc_figure_kind kind,
				       int metric)
{
	size_t i;

	for (i = 0; res->figs && i < res->figs->fig_cnt; i++) {
		const struct bc_figure *f = &res->figs->figs[i];

		if (f->kind == kind && (metric < 0 || f->metric == metric))
			return f;
	}
	return NULL;
}

/* ------------------------------------------------------------ intervals */

void bc_figures_rates(const struct bc_run_result *res, struct bc_iteration *it,
		      const double *prev, const double *ops, const double *prev_ops)
{
	unsigned int m, cnt = bc_metric_cnt(res);

	for (m = 0; m < cnt; m++) {
		const struct bc_metric_desc *d = &res->bench->metrics[m];
		int per = res->figs ? res->figs->views[m].per : -1;
		double delta = it->values[m] - prev[m], dper;

		switch (d->kind) {
		case BC_METRIC_GAUGE:
			it->rates[m] = it->values[m];
			break;
		case BC_METRIC_RATIO:
			dper = per >= 0 ? it->values[per] - prev[per] : 0;
			it->rates[m] = dper != 0 ? delta / dper : NAN;
			break;
		case BC_METRIC_TIME_PER_OP:
			/* The interval's time over its operations, not a mean
			 * of per-batch times: a batch weighs by its operations. */
			dper = ops && prev_ops ? ops[m] - prev_ops[m] : 0;
			it->rates[m] = dper > 0 ? delta / dper : NAN;
			break;
		case BC_METRIC_HISTOGRAM:
			it->rates[m] = NAN;
			break;
		default:
			it->rates[m] = it->length_sec > 0 ? delta / it->length_sec : 0;
			break;
		}
	}
}

static unsigned int bc_producers(const struct bc_run_result *res)
{
	/* Per-producer rates of a producer-less benchmark: per whole run. */
	return res->producer_cnt ? res->producer_cnt : 1;
}

static double bc_rate(const struct bc_iteration *it, int m)
{
	return m < 0 ? 0 : it->rates[m];
}

/* Events in the interval, from its rate: what the false-hits lines count. */
static double bc_events(const struct bc_iteration *it, int m)
{
	return m < 0 ? 0 : (double)lround(it->rates[m] * it->length_sec);
}

static double bc_fig_iter_value(const struct bc_run_result *res, const struct bc_figure *f,
				const struct bc_iteration *it)
{
	const struct bc_figures *fg = res->figs;
	double x, total;
	int hits;

	switch (f->kind) {
	case BC_FIG_PER_PRODUCER:
		return bc_rate(it, f->metric) / bc_producers(res);
	case BC_FIG_TOTAL:
		return bc_rate(it, fg->headline) + bc_rate(it, fg->drops);
	case BC_FIG_LATENCY:
		/* The runner's ops lines give one producer's ns/op; its
		 * local-storage lines the whole run's. */
		x = bc_rate(it, f->metric);
		if (!(x > 0))
			return NAN;
		return 1e9 * (fg->lines == BC_LINES_OPS ? bc_producers(res) : 1) / x;
	case BC_FIG_SHARE_EVENTS:
		return bc_events(it, fg->share);
	case BC_FIG_SHARE_TOTAL:
	case BC_FIG_SHARE_PCT:
		hits = fg->headline;
		total = bc_events(it, fg->share) + bc_events(it, hits) + bc_events(it, fg->drops);
		if (f->kind == BC_FIG_SHARE_TOTAL)
			return total;
		return total > 0 ? bc_events(it, fg->share) / total * 100 : 0;
	case BC_FIG_RATIO:
		return it->rates[f->metric];
	}
	return NAN;
}

static void bc_hist_iter(const struct bc_run_result *res, size_t idx)
{
	const struct bc_iteration *it = &res->iters[idx];
	struct bc_figures *fg = res->figs;
	uint64_t *dense = NULL;
	unsigned int m;

	for (m = 0; m < fg->metric_cnt; m++) {
		const struct bc_hist_interval *iv = it->hists ? &it->hists[m] : NULL;

		if (!fg->hist_iters[m])
			continue;
		if (!dense)
			dense = calloc(BC_HIST_BUCKETS, sizeof(*dense));
		if (!dense)
			return;
		memset(dense, 0, BC_HIST_BUCKETS * sizeof(*dense));
		bc_hist_interval_add(dense, iv);
		bc_hist_stats_dense(dense, iv ? iv->max_seen : 0, &fg->hist_iters[m][idx]);
	}
	free(dense);
}

void bc_figures_iter(struct bc_run_result *res, size_t idx)
{
	struct bc_figures *fg = res->figs;
	size_t i;

	if (!fg || idx >= fg->iter_cap || idx >= res->iter_cnt)
		return;
	for (i = 0; i < fg->fig_cnt; i++)
		fg->figs[i].iters[idx] = bc_fig_iter_value(res, &fg->figs[i], &res->iters[idx]);
	bc_hist_iter(res, idx);
}

/* -------------------------------------------------------------- summary */

static void bc_fig_summarise(const struct bc_run_result *res, struct bc_figure *f, double *buf)
{
	const struct bc_figures *fg = res->figs;
	double sum = 0, total = 0, mean;
	size_t i, n = 0;

	for (i = 0; i < res->iter_cnt; i++) {
		double x = f->iters[i];

		if (res->iters[i].warmup || isnan(x))
			continue;
		buf[n++] = x;
		sum += x;
	}
	bc_stats_compute(buf, n, &f->stats);
	f->value = f->stats.mean;
	mean = res->summary && f->metric >= 0 ? res->summary[f->metric].mean : NAN;

	switch (f->kind) {
	case BC_FIG_PER_PRODUCER:
		f->value = mean / bc_producers(res);
		break;
	case BC_FIG_LATENCY:
		/* Of the mean rate, as the runner's summary: the mean of
		 * per-interval latencies would weigh slow intervals more. */
		f->value = mean > 0 ? 1e9 * (fg->lines == BC_LINES_OPS ? bc_producers(res) : 1) / mean
				    : NAN;
		break;
	case BC_FIG_SHARE_EVENTS:
		f->value = sum;
		break;
	case BC_FIG_SHARE_TOTAL:
		f->value = sum;
		break;
	case BC_FIG_SHARE_PCT:
		/* Of the sums, not a mean of percentages. */
		for (i = 0; i < fg->fig_cnt; i++) {
			if (fg->figs[i].kind == BC_FIG_SHARE_EVENTS)
				sum = fg->figs[i].value;
			else if (fg->figs[i].kind == BC_FIG_SHARE_TOTAL)
				total = fg->figs[i].value;
		}
		f->value = total > 0 ? sum / total * 100 : 0;
		break;
	default:
		break;
	}
}

static int bc_hist_summarise(struct bc_run_result *res)
{
	struct bc_figures *fg = res->figs;
	uint64_t *dense, max_seen;
	unsigned int m;
	size_t i;

	dense = calloc(BC_HIST_BUCKETS, sizeof(*dense));
	if (!dense)
		return -ENOMEM;
	for (m = 0; m < fg->metric_cnt; m++) {
		if (!fg->hist_iters[m])
			continue;
		memset(dense, 0, BC_HIST_BUCKETS * sizeof(*dense));
		max_seen = 0;
		for (i = 0; i < res->iter_cnt; i++) {
			const struct bc_iteration *it = &res->iters[i];

			if (it->warmup || !it->hists)
				continue;
			bc_hist_interval_add(dense, &it->hists[m]);
			if (it->hists[m].max_seen > max_seen)
				max_seen = it->hists[m].max_seen;
		}
		bc_hist_stats_dense(dense, max_seen, &fg->hist_summary[m]);
	}
	free(dense);
	return 0;
}

int bc_figures_summarise(struct bc_run_result *res)
{
	struct bc_figures *fg;
	double cpus, *buf;
	size_t i;
	int err;

	err = bc_figures_init(res, res->iter_cap > res->iter_cnt ? res->iter_cap : res->iter_cnt);
	if (err)
		return err;
	fg = res->figs;
	for (i = 0; i < res->iter_cnt; i++)
		bc_figures_iter(res, i);
	buf = malloc((res->iter_cnt ? res->iter_cnt : 1) * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	/* In order: the share percentage reads the two sums before it. */
	for (i = 0; i < fg->fig_cnt; i++)
		bc_fig_summarise(res, &fg->figs[i], buf);
	free(buf);

	cpus = res->prod_cpu_util.mean + res->cons_cpu_util.mean;
	for (i = 0; i < fg->metric_cnt; i++) {
		fg->per_cpu_sec[i] = NAN;
		if (res->bench->metrics[i].kind == BC_METRIC_COUNTER && res->summary && cpus > 0)
			fg->per_cpu_sec[i] = res->summary[i].mean / cpus;
	}
	return bc_hist_summarise(res);
}
