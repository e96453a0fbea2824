// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Human-readable progress and summary lines, rendered from the metrics'
 * roles and the figures figures.c stored: this file formats, it derives
 * nothing. Where the roles give one of the kernel runner's line sets
 * (tools/testing/selftests/bpf/bench.c and its benchmarks), the lines are
 * the runner's character for character, so the scripts that parse them keep
 * working; the words that name a metric come from its label (or name).
 *
 * Order on stdout, for those scripts (they take the last line or grep for
 * Summary): the attach point before the first Iter line, the Iter lines,
 * then what benchcore adds (spread, CPU, histograms, programs), and the
 * Summary line(s) last.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "context.h"
#include "result.h"
#include "stats.h"
#include "report.h"
#include "exit_status.h"
#include "bpf_stats.h"
#include "figures.h"
#include "repstats.h"
#include "log.h"
#include "scale.h"

#define BC_PM "\xc2\xb1" /* U+00B1 PLUS-MINUS SIGN, as the kernel runner prints it */
#define BC_MILLION 1000000.0
/* The runner's hits/drops lines always have a drops field; a benchmark
 * without a DROPS metric shows 0 there under the runner's own word. */
#define BC_RUNNER_DROPS_WORD "drops"

static const struct bc_metric_summary bc_no_summary;

static unsigned int bc_metric_cnt(const struct bc_run_result *res)
{
	return res->bench && res->bench->metrics ? res->bench->desc.metric_cnt : 0;
}

static enum bc_lines bc_lines_of(const struct bc_run_result *res)
{
	return res->figs ? res->figs->lines : BC_LINES_PLAIN;
}

static const char *bc_label(const struct bc_run_result *res, int m)
{
	const struct bc_metric_view *v = m >= 0 ? bc_metric_view(res, (unsigned int)m) : NULL;

	return v && v->label ? v->label : "";
}

static double bc_rate(const struct bc_iteration *it, int m)
{
	return m < 0 ? 0 : it->rates[m];
}

static const struct bc_metric_summary *bc_sum(const struct bc_run_result *res, int m)
{
	return m < 0 || !res->summary ? &bc_no_summary : &res->summary[m];
}

/* A figure's value in iteration idx, or 0 when the roles gave none. */
static double bc_fig_at(const struct bc_run_result *res, enum bc_figure_kind kind, size_t idx)
{
	const struct bc_figure *f = bc_figure_find(res, kind, -1);

	return f && idx < res->figs->iter_cap ? f->iters[idx] : 0;
}

static const struct bc_figure *bc_fig(const struct bc_run_result *res, enum bc_figure_kind kind)
{
	static const struct bc_figure none;
	const struct bc_figure *f = bc_figure_find(res, kind, -1);

	return f ? f : &none;
}

static const char *bc_warm_mark(const struct bc_iteration *it)
{
	return it->warmup ? " [warm-up]" : "";
}

/* A benchmark under the kernel runner's name keeps the runner's Iter and
 * Summary lines to the character; any other prints its metrics' units. */
static bool bc_runner_shaped(const struct bc_run_result *res)
{
	return res->bench && res->bench->desc.runner_name;
}

/* A counter's rate is its unit per second, a time per operation its time
 * per op. */
static void bc_rate_unit(const struct bc_metric_desc *m, char *buf, size_t len)
{
	const char *u = m->unit && *m->unit ? m->unit : "events";

	if (m->kind == BC_METRIC_COUNTER)
		snprintf(buf, len, "%s/s", u);
	else if (m->kind == BC_METRIC_TIME_PER_OP)
		snprintf(buf, len, "%s/op", u);
	else
		snprintf(buf, len, "%s", m->unit ? m->unit : "");
}

/* The runner prints time units, and nothing after a count. */
static bool bc_unit_is_time(const char *u)
{
	return u && (!strcmp(u, "ns") || !strcmp(u, "us") || !strcmp(u, "ms") || !strcmp(u, "s"));
}

/* ------------------------------------------------ lines in metric units */

/*
 * What a benchmark without the runner's name prints: each figure with its
 * metric's unit, scaled (scale.h). One item per metric: a counter's rate
 * (the headline's with its per-producer rate and its latency), a gauge's or
 * a ratio's value, a histogram's p50 and p99. idx is an iteration, or
 * SIZE_MAX for the summary (mean and standard deviation).
 */
static void bc_unit_item(FILE *f, const struct bc_run_result *res, int m, size_t idx)
{
	const struct bc_metric_desc *d = &res->bench->metrics[m];
	const struct bc_figures *fg = res->figs;
	const struct bc_figure *r = bc_figure_find(res, BC_FIG_RATIO, m);
	const struct bc_figure *pp = fg && fg->headline == m ?
					     bc_figure_find(res, BC_FIG_PER_PRODUCER, m) : NULL;
	const struct bc_figure *lat = fg && fg->headline == m ?
					      bc_figure_find(res, BC_FIG_LATENCY, m) : NULL;
	bool sum = idx == SIZE_MAX;
	char unit[64], a[96], b[96];

	bc_rate_unit(d, unit, sizeof(unit));
	if (d->kind == BC_METRIC_HISTOGRAM) {
		const struct bc_hist_stats *h = fg && fg->hist_iters[m] ?
			(sum ? &fg->hist_summary[m] : &fg->hist_iters[m][idx]) : NULL;

		if (!h || !h->count) {
			fprintf(f, "%s no values", bc_label(res, m));
			return;
		}
		fprintf(f, "%s p50 %s, p99 %s", bc_label(res, m),
			bc_scale_fmt(a, sizeof(a), h->p50, unit),
			bc_scale_fmt(b, sizeof(b), h->p99, unit));
		return;
	}
	if (r) {
		if (sum)
			bc_scale_fmt_pm(a, sizeof(a), r->stats.mean, r->stats.stddev, unit);
		else
			bc_scale_fmt(a, sizeof(a), r->iters[idx], unit);
	} else if (sum) {
		bc_scale_fmt_pm(a, sizeof(a), bc_sum(res, m)->mean, bc_sum(res, m)->stddev, unit);
	} else {
		bc_scale_fmt(a, sizeof(a), res->iters[idx].rates[m], unit);
	}
	fprintf(f, "%s %s", bc_label(res, m), a);
	if (pp && res->producer_cnt > 1)
		fprintf(f, " (%s per producer)",
			bc_scale_fmt(b, sizeof(b), sum ? pp->value : pp->iters[idx], unit));
	if (lat)
		fprintf(f, ", latency %s",
			bc_scale_fmt(b, sizeof(b), sum ? lat->value : lat->iters[idx], "ns/op"));
}

/* The metrics the benchmark's `summary` names, in its order, or (NULL, or
 * on the Iter lines) every metric but the histograms and the AUX ones when
 * a headline exists; the judged one (a declared headline) always. Returns
 * how many it printed. */
static unsigned int bc_unit_items(FILE *f, const struct bc_run_result *res, size_t idx)
{
	const char *want = idx == SIZE_MAX ? res->bench->desc.summary : NULL;
	unsigned int i, cnt = bc_metric_cnt(res), n = 0;
	int head = res->figs ? res->figs->headline : -1;
	int judged = res->figs ? res->figs->judged : -1;

	if (want && *want) {
		const char *p = want;

		while (*p) {
			size_t len = strcspn(p, ",");

			for (i = 0; i < cnt; i++) {
				const char *nm = res->bench->metrics[i].name;

				if (nm && strlen(nm) == len && !strncmp(nm, p, len)) {
					fprintf(f, "%s", n++ ? ", " : "");
					bc_unit_item(f, res, (int)i, idx);
					break;
				}
			}
			p += len + (p[len] == ',');
		}
		return n;
	}
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *d = &res->bench->metrics[i];

		if (d->kind == BC_METRIC_HISTOGRAM ||
		    (head >= 0 && d->role == BC_ROLE_AUX && (int)i != judged))
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		bc_unit_item(f, res, (int)i, idx);
	}
	return n;
}

static void bc_unit_iter(FILE *f, const struct bc_run_result *res, size_t idx)
{
	fprintf(f, "Iter %3zu (%7.3lfus): ", idx, res->iters[idx].drift_us);
	bc_unit_items(f, res, idx);
	fprintf(f, "%s\n", bc_warm_mark(&res->iters[idx]));
}

static void bc_unit_summary(FILE *f, const struct bc_run_result *res)
{
	fprintf(f, "Summary: ");
	bc_unit_items(f, res, SIZE_MAX);
	fprintf(f, "\n");
}

/* ------------------------------------------------------------ Iter lines */

/* Counter rates in M/s, gauges as they are with their unit. */
static void bc_plain_iter(FILE *f, const struct bc_run_result *res, const struct bc_iteration *it)
{
	unsigned int i, cnt = bc_metric_cnt(res);
	const char *sep = "";
	char unit[64];

	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];

		if (m->kind == BC_METRIC_HISTOGRAM)
			continue;
		bc_rate_unit(m, unit, sizeof(unit));
		if (m->kind == BC_METRIC_COUNTER)
			fprintf(f, "%s%s %8.3lfM/s", sep, m->name, it->rates[i] / BC_MILLION);
		else
			fprintf(f, "%s%s %8.3lf %s", sep, m->name, it->rates[i], unit);
		sep = ", ";
	}
}

/* The runner's grace-period lines: one per ratio, no drift, no prefix. */
static void bc_latency_iter(FILE *f, const struct bc_run_result *res, size_t idx)
{
	const struct bc_iteration *it = &res->iters[idx];
	size_t i;

	for (i = 0; i < res->figs->fig_cnt; i++) {
		const struct bc_figure *fg = &res->figs->figs[i];
		bool time = bc_unit_is_time(fg->unit);

		if (fg->kind != BC_FIG_RATIO)
			continue;
		fprintf(f, "Iter %zu\t avg %s\t%lf%s%s%s\n", idx, bc_label(res, fg->metric),
			fg->iters[idx], time ? " " : "", time ? fg->unit : "", bc_warm_mark(it));
	}
}

static void bc_rates_iter(FILE *f, const struct bc_run_result *res, const struct bc_iteration *it)
{
	unsigned int i;

	for (i = 0; i < res->figs->metric_cnt; i++)
		if (res->figs->views[i].role == BC_ROLE_RATE)
			fprintf(f, " %s %8.3lfM/s", bc_label(res, (int)i), it->rates[i] / BC_MILLION);
}

void bc_report_text_attach_line(FILE *f, const struct bc_run_result *res)
{
	const char *ap = res && res->ctx ? bc_ctx_attach_point(res->ctx) : NULL;

	if (ap)
		fprintf(f, "Attach point: %s\n", ap);
}

void bc_report_text_iter(FILE *f, const struct bc_run_result *res, size_t iter_idx)
{
	const struct bc_figures *fg;
	const struct bc_iteration *it;
	int h, d;
	char buf[1024];

	if (!res || iter_idx >= res->iter_cnt)
		return;
	/* Before the first Iter line: scripts take the last line as the
	 * summary, so nothing of benchcore's own may follow it. */
	if (iter_idx == 0)
		bc_report_text_attach_line(f, res);
	it = &res->iters[iter_idx];
	fg = res->figs;
	h = fg ? fg->headline : -1;
	d = fg ? fg->drops : -1;

	if (res->bench && !bc_runner_shaped(res) && !res->bench->desc.format_iter &&
	    bc_lines_of(res) != BC_LINES_SHARE) {
		bc_unit_iter(f, res, iter_idx);
		return;
	}
	if (bc_lines_of(res) == BC_LINES_LATENCY) {
		bc_latency_iter(f, res, iter_idx);
		return;
	}

	fprintf(f, "Iter %3zu (%7.3lfus): ", iter_idx, it->drift_us);
	switch (bc_lines_of(res)) {
	case BC_LINES_HITS:
		fprintf(f, "%s %8.3lfM/s (%7.3lfM/prod), %s %8.3lfM/s, "
			"total operations %8.3lfM/s", bc_label(res, h), bc_rate(it, h) / BC_MILLION,
			bc_fig_at(res, BC_FIG_PER_PRODUCER, iter_idx) / BC_MILLION,
			d >= 0 ? bc_label(res, d) : BC_RUNNER_DROPS_WORD, bc_rate(it, d) / BC_MILLION,
			bc_fig_at(res, BC_FIG_TOTAL, iter_idx) / BC_MILLION);
		break;
	case BC_LINES_OPS:
		fprintf(f, "%s %8.3lfM/s (%7.3lfM/prod)", bc_label(res, h),
			bc_rate(it, h) / BC_MILLION,
			bc_fig_at(res, BC_FIG_PER_PRODUCER, iter_idx) / BC_MILLION);
		break;
	case BC_LINES_OPS_RATE:
		fprintf(f, "%s %8.3lfM/s", bc_label(res, h), bc_rate(it, h) / BC_MILLION);
		bc_rates_iter(f, res, it);
		break;
	case BC_LINES_SHARE:
		fprintf(f, "%ld %s of %ld total operations. Percentage = %2.2f %%",
			(long)bc_fig_at(res, BC_FIG_SHARE_EVENTS, iter_idx), bc_label(res, fg->share),
			(long)bc_fig_at(res, BC_FIG_SHARE_TOTAL, iter_idx),
			bc_fig_at(res, BC_FIG_SHARE_PCT, iter_idx));
		break;
	default:
		if (res->bench && res->bench->desc.format_iter && res->ctx &&
		    !res->bench->desc.format_iter(res->ctx, it->rates, buf, sizeof(buf))) {
			buf[strcspn(buf, "\n")] = '\0';
			fputs(buf, f);
		} else {
			bc_plain_iter(f, res, it);
		}
		break;
	}
	fprintf(f, "%s\n", bc_warm_mark(it));
}

/* --------------------------------------------------------- Summary lines */

static void bc_plain_summary(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = bc_metric_cnt(res);
	const char *sep = "";
	char unit[64];

	fprintf(f, "Summary: ");
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];
		const struct bc_metric_summary *s = bc_sum(res, (int)i);

		if (m->kind == BC_METRIC_HISTOGRAM)
			continue;
		bc_rate_unit(m, unit, sizeof(unit));
		if (m->kind == BC_METRIC_COUNTER)
			fprintf(f, "%s%s %8.3lf " BC_PM " %5.3lfM/s", sep, m->name,
				s->mean / BC_MILLION, s->stddev / BC_MILLION);
		else
			fprintf(f, "%s%s %8.3lf " BC_PM " %5.3lf %s", sep, m->name, s->mean,
				s->stddev, unit);
		sep = ", ";
	}
	fprintf(f, "\n");
}

/* The plugin's own summary line, for lines no role combination gives. */
static bool bc_custom_summary(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = bc_metric_cnt(res);
	double *means, *stddevs;
	char buf[1024];
	bool done = false;

	if (!res->bench || !res->bench->desc.format_summary || !res->ctx || !cnt || !res->summary)
		return false;
	means = calloc(cnt, sizeof(*means));
	stddevs = calloc(cnt, sizeof(*stddevs));
	if (means && stddevs) {
		for (i = 0; i < cnt; i++) {
			means[i] = res->summary[i].mean;
			stddevs[i] = res->summary[i].stddev;
		}
		if (!res->bench->desc.format_summary(res->ctx, means, stddevs, buf, sizeof(buf))) {
			buf[strcspn(buf, "\n")] = '\0';
			fprintf(f, "Summary: %s\n", buf);
			done = true;
		}
	}
	free(means);
	free(stddevs);
	return done;
}

static void bc_latency_summary(FILE *f, const struct bc_run_result *res)
{
	size_t i;

	for (i = 0; i < res->figs->fig_cnt; i++) {
		const struct bc_figure *fg = &res->figs->figs[i];
		/* The runner's summaries give nanosecond latencies in us. */
		bool ns = !strcmp(fg->unit, "ns"), time = bc_unit_is_time(fg->unit);
		const char *u = ns ? " us" : "";
		double scale = ns ? 1000.0 : 1.0;

		if (fg->kind != BC_FIG_RATIO)
			continue;
		if (time && !ns)
			u = fg->unit;
		fprintf(f, "SUMMARY %s", bc_label(res, fg->metric));
		fprintf(f, "\tavg %.3lf%s%s\tstddev %.3lf%s%s\n", fg->stats.mean / scale,
			time && !ns ? " " : "", u, fg->stats.stddev / scale, time && !ns ? " " : "",
			u);
	}
}

/* A time in unit u, in nanoseconds; NaN when u is not a time. */
static double bc_to_ns(double v, const char *u)
{
	if (!u)
		return NAN;
	if (!strcmp(u, "ns"))
		return v;
	if (!strcmp(u, "us"))
		return v * 1e3;
	if (!strcmp(u, "ms"))
		return v * 1e6;
	if (!strcmp(u, "s"))
		return v * 1e9;
	return NAN;
}

/* The runner's "latency X ns/op": the headline's inverse, or the mean of
 * the LATENCY or RATIO metric the benchmark's `summary` names (the loader
 * allows no other name under a runner's name). */
static double bc_runner_latency(const struct bc_run_result *res)
{
	const char *want = res->bench ? res->bench->desc.summary : NULL;
	unsigned int i, cnt = bc_metric_cnt(res);

	for (i = 0; want && i < cnt; i++) {
		const struct bc_metric_desc *d = &res->bench->metrics[i];
		const struct bc_figure *r = bc_figure_find(res, BC_FIG_RATIO, (int)i);
		size_t len = d->name ? strlen(d->name) : 0;

		if (!r || !len)
			continue;
		for (const char *p = want; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
			if (strcspn(p, ",") == len && !strncmp(p, d->name, len))
				return bc_to_ns(r->stats.mean, d->unit);
	}
	return bc_fig(res, BC_FIG_LATENCY)->value;
}

static void bc_summary_lines(FILE *f, const struct bc_run_result *res)
{
	const struct bc_figures *fg = res->figs;
	int hi = fg ? fg->headline : -1, d = fg ? fg->drops : -1;
	const struct bc_metric_summary *h = bc_sum(res, hi), *ds = bc_sum(res, d);
	const struct bc_figure *total = bc_fig(res, BC_FIG_TOTAL);
	double hm = h->mean / BC_MILLION, hs = h->stddev / BC_MILLION;
	double per_prod = bc_fig(res, BC_FIG_PER_PRODUCER)->value / BC_MILLION;
	unsigned int i;

	if (res->bench && !bc_runner_shaped(res) && !res->bench->desc.format_summary &&
	    bc_lines_of(res) != BC_LINES_SHARE) {
		bc_unit_summary(f, res);
		return;
	}
	switch (bc_lines_of(res)) {
	case BC_LINES_HITS:
		fprintf(f, "Summary: %s %8.3lf " BC_PM " %5.3lfM/s (%7.3lfM/prod), ",
			bc_label(res, hi), hm, hs, per_prod);
		fprintf(f, "%s %8.3lf " BC_PM " %5.3lfM/s, ",
			d >= 0 ? bc_label(res, d) : BC_RUNNER_DROPS_WORD, ds->mean / BC_MILLION,
			ds->stddev / BC_MILLION);
		fprintf(f, "total operations %8.3lf " BC_PM " %5.3lfM/s\n",
			total->stats.mean / BC_MILLION, total->stats.stddev / BC_MILLION);
		return;
	case BC_LINES_OPS:
		fprintf(f, "Summary: throughput %8.3lf " BC_PM " %5.3lf M ops/s (%7.3lfM ops/prod), ",
			hm, hs, per_prod);
		fprintf(f, "latency %8.3lf ns/op\n", bc_runner_latency(res));
		return;
	case BC_LINES_OPS_RATE:
		fprintf(f, "Summary: %s throughput %8.3lf " BC_PM " %5.3lf M ops/s, ",
			bc_label(res, hi), hm, hs);
		fprintf(f, "%s latency %8.3lf ns/op", bc_label(res, hi), bc_runner_latency(res));
		for (i = 0; i < fg->metric_cnt; i++) {
			const struct bc_metric_summary *s = bc_sum(res, (int)i);

			if (fg->views[i].role != BC_ROLE_RATE)
				continue;
			fprintf(f, ", %s throughput %8.3lf " BC_PM " %5.3lf M ops/s",
				bc_label(res, (int)i), s->mean / BC_MILLION, s->stddev / BC_MILLION);
		}
		fprintf(f, "\n");
		return;
	case BC_LINES_SHARE:
		fprintf(f, "Summary: %ld %s of %ld total operations. ",
			(long)bc_fig(res, BC_FIG_SHARE_EVENTS)->value, bc_label(res, fg->share),
			(long)bc_fig(res, BC_FIG_SHARE_TOTAL)->value);
		fprintf(f, "Percentage =  %2.2f %%\n", bc_fig(res, BC_FIG_SHARE_PCT)->value);
		return;
	case BC_LINES_LATENCY:
		bc_latency_summary(f, res);
		return;
	default:
		break;
	}
	if (!bc_custom_summary(f, res))
		bc_plain_summary(f, res);
}

/* ----------------------------------------------------------- extra lines */

/* What the kernel runner never showed: min, median and max per metric
 * (a ratio's own values, not its totals' rates). */
static void bc_spread_line(FILE *f, const struct bc_run_result *res, size_t n)
{
	unsigned int i, cnt = bc_metric_cnt(res);
	const char *sep = "";
	char unit[64], lo[64], mid[64], hi[64];

	if (!cnt)
		return;
	fprintf(f, "Spread over %zu iteration%s:", n, n == 1 ? "" : "s");
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];
		const struct bc_figure *r = bc_figure_find(res, BC_FIG_RATIO, (int)i);
		const struct bc_metric_summary *s = r ? &r->stats : bc_sum(res, (int)i);

		if (m->kind == BC_METRIC_HISTOGRAM)
			continue;
		bc_rate_unit(m, unit, sizeof(unit));
		fprintf(f, "%s %s min %s, median %s, max %s", sep, m->name,
			bc_scale_fmt(lo, sizeof(lo), s->min, unit),
			bc_scale_fmt(mid, sizeof(mid), s->median, unit),
			bc_scale_fmt(hi, sizeof(hi), s->max, unit));
		sep = ";";
	}
	fprintf(f, "\n");
}

/* Wall-clock rates hide a consumer that keeps up by spinning a whole CPU. */
static void bc_cpu_line(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = bc_metric_cnt(res);
	int m = res->figs ? res->figs->headline : -1;
	char num[64];

	fprintf(f, "CPU: producers %.3f CPUs (%.3f user, %.3f sys), "
		"consumers %.3f CPUs (%.3f user, %.3f sys)",
		res->prod_cpu_util.mean, res->prod_user_util.mean, res->prod_sys_util.mean,
		res->cons_cpu_util.mean, res->cons_user_util.mean, res->cons_sys_util.mean);
	/* The headline's events, or the first counter's. */
	for (i = 0; m < 0 && i < cnt; i++)
		if (res->bench->metrics[i].kind == BC_METRIC_COUNTER)
			m = (int)i;
	if (m >= 0 && res->bench->metrics[m].kind == BC_METRIC_COUNTER && res->figs) {
		double x = res->figs->per_cpu_sec[m];

		if (!isnan(x))
			fprintf(f, "; %s per CPU-second %s", res->bench->metrics[m].name,
				bc_scale_fmt(num, sizeof(num), x, res->bench->metrics[m].unit));
		else
			fprintf(f, "; %s per CPU-second n/a (no CPU time measured)",
				res->bench->metrics[m].name);
	}
	fprintf(f, "\n");
}

static void bc_hist_lines(FILE *f, const struct bc_run_result *res)
{
	unsigned int i;

	for (i = 0; res->figs && i < res->figs->metric_cnt; i++) {
		const struct bc_hist_stats *s = &res->figs->hist_summary[i];
		const char *u = res->bench->metrics[i].unit;
		char a[64];

		if (!res->figs->hist_iters[i])
			continue;
		/* No percentile of nothing: never print a number not measured. */
		if (!s->count) {
			fprintf(f, "Histogram %s: no values recorded\n", bc_label(res, (int)i));
			continue;
		}
		fprintf(f, "Histogram %s: count %llu, p50 %s, ", bc_label(res, (int)i),
			(unsigned long long)s->count, bc_scale_fmt(a, sizeof(a), s->p50, u));
		fprintf(f, "p90 %s, ", bc_scale_fmt(a, sizeof(a), s->p90, u));
		fprintf(f, "p99 %s, ", bc_scale_fmt(a, sizeof(a), s->p99, u));
		fprintf(f, "p99.9 %s, ", bc_scale_fmt(a, sizeof(a), s->p999, u));
		fprintf(f, "max %s\n", bc_scale_fmt(a, sizeof(a), s->max, u));
	}
}

/* --bpf-stats: what the kernel counted for the program over the measured
 * intervals. No "X ± YM/s" and no "ns/op": the runner's scripts look for
 * those shapes in the whole output. */
static void bc_prog_stats_text(FILE *f, const struct bc_run_result *res, size_t i)
{
	const struct bc_prog_stats *ps;
	double rps;

	if (!res->bpf || !res->bpf->progs || i >= res->bpf->prog_cnt)
		return;
	ps = &res->bpf->progs[i];
	if (!(ps->measured_sec > 0))
		return;		/* no measured interval: nothing to say */
	if (!ps->runs_per_sec.n) {
		fprintf(f, ": not read");
		return;
	}
	if (!ps->run_cnt) {
		fprintf(f, ": no runs");
		return;
	}
	rps = ps->runs_per_sec.mean;
	if (rps >= 1e4)
		fprintf(f, ": %.3fM runs/s", rps / BC_MILLION);
	else
		fprintf(f, ": %.1f runs/s", rps);
	fprintf(f, ", %.1f ns/run", ps->ns_per_run_value);
	if (!isnan(ps->prod_pct_value))
		fprintf(f, ", %.2f%% of producer time", ps->prod_pct_value);
	/* A busy machine gives producers less CPU than wall time. */
	if (!isnan(ps->prod_pct_value) && !isnan(ps->prod_cpu_pct_value))
		fprintf(f, " (%.2f%% of their CPU time)", ps->prod_cpu_pct_value);
}

static void bc_prog_lines(FILE *f, const struct bc_run_result *res)
{
	size_t i;

	for (i = 0; res->ctx && i < res->ctx->prog_cnt; i++) {
		const struct bc_prog *p = &res->ctx->progs[i];

		fprintf(f, "Program %s: %s (id %u, %s)", p->role, p->name[0] ? p->name : "?",
			p->id, p->type[0] ? p->type : "unknown type");
		bc_prog_stats_text(f, res, i);
		fprintf(f, "\n");
	}
}

/* A metric's value over runs as the Spread line prints it: in its unit. */
static void bc_rep_value(FILE *f, const struct bc_metric_desc *m, double v)
{
	char unit[64], num[96];

	bc_rate_unit(m, unit, sizeof(unit));
	fputs(bc_scale_fmt(num, sizeof(num), v, unit), f);
}

static void bc_rep_ended(FILE *f, const struct bc_run_result *res)
{
	const struct bc_repeats *r = res->repeats;
	const struct bc_rep_rule *rule = &r->rule;
	const char *w = r->watched >= 0 ? res->bench->metrics[r->watched].name : "";

	switch (r->end) {
	case BC_REP_END_PRECISION:
		fprintf(f, " (--precision %g reached: %s " BC_PM "%.2f%%)", rule->precision_pct, w,
			r->metrics[r->watched].ci_pct);
		break;
	case BC_REP_END_MAX_REPEAT:
		fprintf(f, " (--precision %g not reached: --max-repeat %u)", rule->precision_pct,
			rule->max_repeat);
		break;
	case BC_REP_END_MAX_TIME:
		fprintf(f, " (--precision %g not reached: --max-time %g s)", rule->precision_pct,
			rule->max_time_sec);
		break;
	case BC_REP_END_INTERRUPTED:
		fprintf(f, " complete (interrupted)");
		break;
	default:
		fprintf(f, " (--repeat %u)", rule->repeat);
		break;
	}
}

/* The statistics over runs (--repeat, --precision), before the Summary
 * line: that one keeps the runner's shape and meaning, the mean and
 * standard deviation of the per-second samples, here pooled over runs. */
static void bc_repeats_line(FILE *f, const struct bc_run_result *res)
{
	const struct bc_repeats *r = res->repeats;
	unsigned int i, cnt = bc_metric_cnt(res);
	const char *sep = ":";

	if (!r || !r->metrics)
		return;
	fprintf(f, "Repeats: %u run%s", r->complete_cnt, r->complete_cnt == 1 ? "" : "s");
	bc_rep_ended(f, res);
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];
		const struct bc_rep_stats *s = &r->metrics[i];

		if (m->kind == BC_METRIC_HISTOGRAM || !s->n)
			continue;
		fprintf(f, "%s %s ", sep, m->name);
		bc_rep_value(f, m, s->mean);
		if (s->n < 2) {
			fprintf(f, ", 95%% CI n/a (one run)");
		} else {
			fprintf(f, ", 95%% CI " BC_PM);
			bc_rep_value(f, m, s->ci_half);
			if (isfinite(s->ci_pct))
				fprintf(f, " (" BC_PM "%.2f%%)", s->ci_pct);
			if (isfinite(s->cv_pct))
				fprintf(f, ", run-to-run CV %.2f%%", s->cv_pct);
			else
				fprintf(f, ", run-to-run CV n/a");
		}
		sep = ";";
	}
	fprintf(f, "\n");
}

void bc_report_warnings(FILE *f, const struct bc_run_result *res)
{
	size_t i;

	for (i = 0; i < res->warning_cnt; i++)
		fprintf(f, "benchcore: warning: %s\n", res->warnings[i]);
}

/* The plugin's end-of-run lines (bc_ctx_final_line()): last, as the
 * runner prints them. */
static void bc_final_lines(FILE *f, const struct bc_run_result *res)
{
	size_t i;

	for (i = 0; res->ctx && i < res->ctx->final_cnt; i++)
		fprintf(f, "%s\n", res->ctx->final_lines[i]);
}

void bc_report_text_summary(FILE *f, const struct bc_run_result *res)
{
	const char *ap = res->ctx ? bc_ctx_attach_point(res->ctx) : NULL;
	size_t n = bc_stats_measured_cnt(res);

	/* Not printed yet when no Iter line was. */
	if (ap && !res->iter_cnt)
		fprintf(f, "Attach point: %s\n", ap);
	if (!n) {
		bc_prog_lines(f, res);
		fprintf(f, "Summary: no measured iterations (%zu warm-up%s)\n", res->iter_cnt,
			res->interrupted ? ", interrupted" : "");
	} else {
		bc_spread_line(f, res, n);
		bc_cpu_line(f, res);
		bc_hist_lines(f, res);
		bc_prog_lines(f, res);
		bc_repeats_line(f, res);
		bc_summary_lines(f, res);
		bc_final_lines(f, res);
	}
	fflush(f);
	bc_report_warnings(stderr, res);
}

void bc_report_reason_line(const struct bc_bench *bench, const struct bc_run_result *res)
{
	const char *plugin = bench->plugin->desc.name, *name = bench->desc.name;
	const char *reason = res->reason[0] ? res->reason : "no reason given";

	switch (res->exit_status) {
	case BC_EXIT_OK:
		break;
	case BC_EXIT_UNAVAILABLE:
		bc_warn("%s:%s: unavailable on this kernel: %s", plugin, name, reason);
		break;
	case BC_EXIT_USAGE:
		bc_warn("%s:%s: %s", plugin, name, reason);
		break;
	case BC_EXIT_INTERRUPTED:
		bc_warn("%s:%s: interrupted; the summary covers the %zu iterations measured so far",
			plugin, name, bc_stats_measured_cnt(res));
		break;
	case BC_EXIT_FAILED:
	default:
		bc_warn("%s:%s: failed: %s", plugin, name, reason);
		break;
	}
}
