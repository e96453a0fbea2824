// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * From a result document to a chart (plot.h): which numbers go on which
 * axis. Nothing is computed here that the document does not hold: the
 * headline is the model's (run_doc.c) or --metric, its error bar the run's
 * own stddev or confidence interval, the percentiles the run's histogram
 * summary, the significance compare's own p value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/log.h"
#include "run_doc.h"
#include "plot.h"

/* -------------------------------------------------------------- memory */

static void *bc_own(struct bc_plot *p, void *ptr)
{
	if (!ptr)
		return NULL;
	if (p->owned_cnt == p->owned_cap) {
		size_t cap = p->owned_cap ? p->owned_cap * 2 : 64;
		void **grown = realloc(p->owned, cap * sizeof(*grown));

		if (!grown) {
			free(ptr);
			return NULL;
		}
		p->owned = grown;
		p->owned_cap = cap;
	}
	p->owned[p->owned_cnt++] = ptr;
	return ptr;
}

static void *bc_own_calloc(struct bc_plot *p, size_t n, size_t size)
{
	return bc_own(p, calloc(n ? n : 1, size));
}

static char *bc_own_printf(struct bc_plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *bc_own_printf(struct bc_plot *p, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : bc_own(p, s);
}

void bc_plot_free(struct bc_plot *p)
{
	for (size_t i = 0; i < p->owned_cnt; i++)
		free(p->owned[i]);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}

bool bc_plot_spans_decades(const double *v, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return false;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return n > 1 && hi >= 100 * lo;
}

/* ------------------------------------------------------------- documents */

static const char *bc_str_or(const char *s, const char *def)
{
	return s && *s ? s : def;
}

/* A metric's label as the document names it ("delivery latency"). */
static const char *bc_metric_label(const struct bc_doc_metric *m)
{
	return bc_str_or(m->decl ? m->decl->label : NULL, m->name);
}

/* "benchcore 0.1.0, Linux 6.18.44, 2 CPUs (AMD EPYC), a VM, 2026-12-01":
 * what the picture was measured on, from the first run's context. */
static void bc_add_context_line(struct bc_plot *p, const struct bc_doc_run *res)
{
	const struct bc_doc_context *ctx = res ? &res->ctx : NULL;
	char *line;

	if (!ctx || !ctx->present || p->line_cnt >= sizeof(p->lines) / sizeof(p->lines[0]))
		return;
	line = bc_own_printf(p, "measured with benchcore %s on Linux %s, %.0f CPUs (%s)%s, %.10s",
			  bc_str_or(ctx->benchcore_version, "?"),
			  bc_str_or(ctx->kernel_release, "?"),
			  isfinite(ctx->cpu_count) ? ctx->cpu_count : 0,
			  bc_str_or(ctx->cpu_model, "unknown model"),
			  ctx->hypervisor == 1 ? " in a VM" : "",
			  ctx->date ? ctx->date : "");
	if (line)
		p->lines[p->line_cnt++] = line;
}

static void bc_add_line(struct bc_plot *p, const char *line)
{
	if (line && p->line_cnt < sizeof(p->lines) / sizeof(p->lines[0]))
		p->lines[p->line_cnt++] = line;
}

/* ------------------------------------------------- sweeps and suites */

struct bc_plot_row {
	const char *section, *label, *bench, *status;
	const struct bc_doc_row *opts;	/* its options (the model has them as text) */
	const struct bc_doc_run *res;	/* runs[i].result */
	const char *metric, *unit;
	double mean, lo, hi;
	bool has_bar, is_ci, ok;
	double n;
};

/* metric: --metric, else each run's headline. */
static void bc_read_row(const struct bc_doc_row *row, const char *metric, struct bc_plot_row *r)
{
	const struct bc_doc_metric *m;

	memset(r, 0, sizeof(*r));
	r->res = row->run;
	r->bench = bc_str_or(row->benchmark, bc_str_or(r->res ? r->res->benchmark : NULL, "?"));
	r->section = bc_str_or(row->section, r->bench);
	r->label = bc_str_or(row->label, r->bench);
	r->status = bc_str_or(row->status, r->res ? "ok" : "no result");
	r->opts = row->has_options ? row : NULL;
	if (!r->res || (strcmp(r->status, "ok") && strcmp(r->status, "interrupted")))
		return;
	r->metric = metric ? metric : bc_doc_headline(r->res);
	m = bc_doc_find(r->res, r->metric);
	if (!r->metric || !m || !isfinite(m->mean))
		return;
	r->mean = m->mean;
	r->unit = m->unit;
	r->has_bar = m->has_bar;
	r->is_ci = m->bar_is_ci;
	r->lo = m->bar_lo;
	r->hi = m->bar_hi;
	if (isfinite(m->stats.n))
		r->n = m->stats.n;
	r->ok = true;
}

/* The value of option `name` in a row as text; "" when the row has none. */
static const char *bc_opt_text(const struct bc_plot_row *r, const char *name)
{
	for (size_t k = 0; r->opts && k < r->opts->opt_cnt; k++)
		if (!strcmp(r->opts->opts[k].name, name))
			return r->opts->opts[k].text ? r->opts->opts[k].text : "";
	return "";
}

static bool bc_opt_number(const struct bc_plot_row *r, const char *name, double *out)
{
	const char *s = bc_opt_text(r, name);
	char *end;

	if (!*s)
		return false;
	*out = strtod(s, &end);
	return !*end && isfinite(*out);
}

struct bc_opt_info {
	const char *name;
	size_t distinct;
	bool numeric;	/* every row has it, as a number */
	bool tied;	/* one-to-one with the x option: named with it, no series of its bc_own */
};

static size_t bc_distinct_values(const struct bc_plot_row *const *rows, size_t n, const char *name)
{
	size_t cnt = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(bc_opt_text(rows[i], name), bc_opt_text(rows[j], name));
		cnt += !seen;
	}
	return cnt;
}

/* Does each value of a go with one value of b, and the other way round
 * (`--sweep rb-batch-cnt,rb-sample-rate=1,5,10` zips the two)? */
static bool bc_one_to_one(const struct bc_plot_row *const *rows, size_t n, const char *a, const char *b)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++) {
			bool same_a = !strcmp(bc_opt_text(rows[i], a), bc_opt_text(rows[j], a)),
			     same_b = !strcmp(bc_opt_text(rows[i], b), bc_opt_text(rows[j], b));

			if (same_a != same_b)
				return false;
		}
	return true;
}

/* Every option name of the rows, in order of first appearance. */
static size_t bc_collect_opts(const struct bc_plot_row *const *rows, size_t n, struct bc_opt_info *out,
			   size_t cap)
{
	size_t cnt = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; rows[i]->opts && k < rows[i]->opts->opt_cnt; k++) {
			const char *name = rows[i]->opts->opts[k].name;
			bool seen = false;

			for (size_t j = 0; j < cnt && !seen; j++)
				seen = !strcmp(out[j].name, name);
			if (seen || cnt == cap)
				continue;
			out[cnt++].name = name;
		}
	for (size_t j = 0; j < cnt; j++) {
		double v;

		out[j].distinct = bc_distinct_values(rows, n, out[j].name);
		out[j].numeric = true;
		for (size_t i = 0; i < n && out[j].numeric; i++)
			out[j].numeric = bc_opt_number(rows[i], out[j].name, &v);
	}
	return cnt;
}

static int bc_cmp_point(const void *a, const void *b)
{
	const struct bc_plot_point *pa = a, *pb = b;

	return (pa->x > pb->x) - (pa->x < pb->x);
}

static int bc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct bc_headline_ctx {
	struct bc_plot *p;
	const struct bc_plot_opts *opts;
	bool any_ci, any_sd;
	double n_min, n_max;
	bool x_found;
};

/* The row's name within its series: what differs from the others. */
static char *bc_series_key(struct bc_plot *p, const struct bc_plot_row *r, const struct bc_opt_info *oi,
			size_t oi_cnt, const struct bc_opt_info *x, bool many_benches)
{
	char *key = bc_own_printf(p, "%s", many_benches ? r->bench : "");

	for (size_t j = 0; key && j < oi_cnt; j++) {
		if (&oi[j] == x || oi[j].distinct < 2 || oi[j].tied)
			continue;
		key = bc_own_printf(p, "%s%s%s=%s", key, *key ? " " : "", oi[j].name,
				 bc_opt_text(r, oi[j].name));
	}
	return key;
}

/* The y axis of a panel: the headline's name(s) and unit. */
static int bc_headline_axis(struct bc_plot *p, struct bc_plot_panel *pn, const struct bc_plot_row *const *rows,
			 size_t n)
{
	const char *label = rows[0]->metric, *unit = rows[0]->unit;

	for (size_t i = 1; i < n; i++) {
		if (!strstr(label, rows[i]->metric))
			label = bc_own_printf(p, "%s / %s", label, rows[i]->metric);
		if (!label)
			return -ENOMEM;
		if (unit && (!rows[i]->unit || strcmp(unit, rows[i]->unit)))
			unit = NULL;
	}
	pn->y.label = label;
	pn->y.unit = unit;
	return 0;
}

static void bc_note_bar(struct bc_headline_ctx *hc, const struct bc_plot_row *r)
{
	if (!r->has_bar)
		return;
	if (r->is_ci)
		hc->any_ci = true;
	else
		hc->any_sd = true;
	if (r->n > 0) {
		hc->n_min = hc->n_min > 0 ? fmin(hc->n_min, r->n) : r->n;
		hc->n_max = fmax(hc->n_max, r->n);
	}
}

static void bc_set_point(struct bc_plot_point *pt, double x, const struct bc_plot_row *r)
{
	pt->x = x;
	pt->y = r->mean;
	pt->lo = r->has_bar ? r->lo : NAN;
	pt->hi = r->has_bar ? r->hi : NAN;
}

/* A panel without a numeric option that varies: one bar per run. */
static int bc_headline_bars(struct bc_headline_ctx *hc, struct bc_plot_panel *pn,
			 const struct bc_plot_row *const *rows, size_t n)
{
	struct bc_plot *p = hc->p;
	struct bc_plot_series *s;

	pn->bars = true;
	pn->cats = bc_own_calloc(p, n, sizeof(*pn->cats));
	pn->series = s = bc_own_calloc(p, 1, sizeof(*pn->series));
	if (!pn->cats || !s || !(s->pts = bc_own_calloc(p, n, sizeof(*s->pts))))
		return -ENOMEM;
	pn->series_cnt = 1;
	s->name = pn->y.label;
	for (size_t i = 0; i < n; i++) {
		pn->cats[i] = rows[i]->label;
		bc_set_point(&s->pts[s->cnt++], (double)i, rows[i]);
		bc_note_bar(hc, rows[i]);
	}
	pn->cat_cnt = n;
	pn->x.label = "run";
	return 0;
}

/* The swept values as ticks, labelled as the command line gave them. */
static int bc_sweep_ticks(struct bc_plot *p, struct bc_plot_axis *ax, const struct bc_plot_row *const *rows,
		       size_t n, const char *name)
{
	double *xs = bc_own_calloc(p, n, sizeof(*xs));
	size_t cnt = 0;

	if (!xs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		bc_opt_number(rows[i], name, &xs[cnt++]);
	qsort(xs, cnt, sizeof(*xs), bc_cmp_double);
	ax->log = bc_plot_spans_decades(xs, cnt);
	ax->ticks = bc_own_calloc(p, cnt, sizeof(*ax->ticks));
	if (!ax->ticks)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		if (ax->tick_cnt && ax->ticks[ax->tick_cnt - 1].v == xs[i])
			continue;
		ax->ticks[ax->tick_cnt].v = xs[i];
		ax->ticks[ax->tick_cnt].label = bc_own_printf(p, "%.15g", xs[i]);
		if (!ax->ticks[ax->tick_cnt].label)
			return -ENOMEM;
		ax->tick_cnt++;
	}
	/* Past a dozen values, round numbers read better than every value. */
	if (ax->tick_cnt > 12)
		ax->tick_cnt = 0;
	return 0;
}

#define BC_PLOT_MAX_OPTS 32

static int bc_headline_panel(struct bc_headline_ctx *hc, struct bc_plot_panel *pn,
			  const struct bc_plot_row *const *rows, size_t n)
{
	struct bc_plot *p = hc->p;
	struct bc_opt_info oi[BC_PLOT_MAX_OPTS] = {};
	size_t oi_cnt = bc_collect_opts(rows, n, oi, BC_PLOT_MAX_OPTS);
	const struct bc_opt_info *x = NULL;
	const char **keys;
	bool many_benches = false;
	const char *xlabel;
	int err;

	err = bc_headline_axis(p, pn, rows, n);
	if (err)
		return err;
	for (size_t i = 1; i < n; i++)
		many_benches |= strcmp(rows[i]->bench, rows[0]->bench) != 0;
	for (size_t j = 0; j < oi_cnt; j++) {
		if (hc->opts->x_option) {
			if (strcmp(oi[j].name, hc->opts->x_option))
				continue;
			hc->x_found = true;
			if (oi[j].numeric)
				x = &oi[j];
			continue;
		}
		/* the most values; on a tie the later --sweep, the inner loop */
		if (oi[j].numeric && oi[j].distinct > 1 && (!x || oi[j].distinct >= x->distinct))
			x = &oi[j];
	}
	if (!x)
		return bc_headline_bars(hc, pn, rows, n);

	xlabel = x->name;
	for (size_t j = 0; j < oi_cnt; j++) {
		if (&oi[j] == x || oi[j].distinct < 2 || !bc_one_to_one(rows, n, x->name, oi[j].name))
			continue;
		oi[j].tied = true;
		xlabel = bc_own_printf(p, "%s and %s", xlabel, oi[j].name);
		if (!xlabel)
			return -ENOMEM;
	}
	pn->x.label = xlabel;
	err = bc_sweep_ticks(p, &pn->x, rows, n, x->name);
	if (err)
		return err;

	/* One series per value of the other options, in order of appearance. */
	keys = bc_own_calloc(p, n, sizeof(*keys));
	pn->series = bc_own_calloc(p, n, sizeof(*pn->series));
	if (!keys || !pn->series)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct bc_plot_series *s = NULL;
		double xv = 0;

		keys[i] = bc_series_key(p, rows[i], oi, oi_cnt, x, many_benches);
		if (!keys[i])
			return -ENOMEM;
		for (size_t k = 0; k < pn->series_cnt && !s; k++)
			if (!strcmp(pn->series[k].name, *keys[i] ? keys[i] : pn->y.label))
				s = &pn->series[k];
		if (!s) {
			s = &pn->series[pn->series_cnt++];
			s->name = *keys[i] ? keys[i] : pn->y.label;
			s->pts = bc_own_calloc(p, n, sizeof(*s->pts));
			if (!s->pts)
				return -ENOMEM;
		}
		bc_opt_number(rows[i], x->name, &xv);
		bc_set_point(&s->pts[s->cnt++], xv, rows[i]);
		bc_note_bar(hc, rows[i]);
	}
	for (size_t k = 0; k < pn->series_cnt; k++)
		qsort(pn->series[k].pts, pn->series[k].cnt, sizeof(*pn->series[k].pts), bc_cmp_point);
	/* Rates that span decades (a batch count swept 1 to 1000) would sit
	 * flat on zero on a linear axis: the x axis's rule, on the means. */
	{
		double *means = bc_own_calloc(p, n, sizeof(*means));

		if (!means)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			means[i] = rows[i]->mean;
		pn->y.log = bc_plot_spans_decades(means, n);
	}
	return 0;
}

/* "not plotted: producers=64 (invalid), producers=128 (invalid)" */
static int bc_skipped_note(struct bc_plot *p, struct bc_plot_panel *pn, const struct bc_plot_row *rows,
			size_t n, const char *section)
{
	size_t shown = 0, more = 0;
	char *note = NULL;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].ok || strcmp(rows[i].section, section))
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		note = bc_own_printf(p, "%s%s%s (%s)", note ? note : "not plotted: ", shown ? ", " : "",
				  rows[i].label, rows[i].status);
		if (!note)
			return -ENOMEM;
		shown++;
	}
	if (more)
		note = bc_own_printf(p, "%s and %zu more", note, more);
	if (shown && !note)
		return -ENOMEM;
	pn->note = note;
	return 0;
}

static int bc_headline_lines(struct bc_headline_ctx *hc)
{
	struct bc_plot *p = hc->p;
	const char *what = hc->any_ci && hc->any_sd
				   ? "the 95% confidence interval where the run has one, else ±1 standard deviation"
			   : hc->any_ci ? "the 95% confidence interval of each run"
					: "±1 standard deviation of each run's per-second samples";
	char *line;

	if (!hc->any_ci && !hc->any_sd)
		return 0;
	if (hc->n_max > 0 && hc->n_min < hc->n_max)
		line = bc_own_printf(p, "error bars: %s (n = %.0f to %.0f)", what, hc->n_min, hc->n_max);
	else if (hc->n_max > 0)
		line = bc_own_printf(p, "error bars: %s (n = %.0f)", what, hc->n_max);
	else
		line = bc_own_printf(p, "error bars: %s", what);
	if (!line)
		return -ENOMEM;
	bc_add_line(p, line);
	return 0;
}

/* Panels: the document's sections (a suite's headers; a sweep has one). */
static size_t bc_sections(const struct bc_plot_row *rows, size_t n, const char **out)
{
	size_t cnt = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < cnt && !seen; j++)
			seen = !strcmp(out[j], rows[i].section);
		if (!seen)
			out[cnt++] = rows[i].section;
	}
	return cnt;
}

static int bc_read_rows(struct bc_plot *p, const struct bc_doc *doc, const char *metric,
			struct bc_plot_row **rows_out)
{
	struct bc_plot_row *rows = bc_own_calloc(p, doc->row_cnt, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < doc->row_cnt; i++)
		bc_read_row(&doc->rows[i], metric, &rows[i]);
	*rows_out = rows;
	return 0;
}

static const char *bc_doc_kind(const struct bc_doc *doc)
{
	return doc->suite ? "suite" : "sweep";
}

/* --metric: a name some run of the document has, else one line naming
 * those they have. */
static int bc_check_metric(const struct bc_doc *doc, const char *metric, char *err, size_t err_len)
{
	char names[1024] = "";

	for (size_t i = 0; i < doc->row_cnt; i++)
		if (bc_doc_find(doc->rows[i].run, metric))
			return 0;
	for (size_t i = 0; i < doc->row_cnt; i++)
		bc_doc_names_add(doc->rows[i].run, names, sizeof(names));
	bc_set_err(err, err_len, "--metric '%s': no run of this %s has a metric or figure of that name; they have %s",
		   metric, bc_doc_kind(doc), *names ? names : "none");
	return -EINVAL;
}

static int bc_read_headline(struct bc_plot *p, const struct bc_doc *doc,
			 const struct bc_plot_opts *opts, char *err, size_t err_len)
{
	size_t n = doc->row_cnt, sec_cnt, plotted = 0;
	struct bc_headline_ctx hc = { .p = p, .opts = opts };
	const struct bc_plot_row **sel;
	const char **secs;
	struct bc_plot_row *rows;
	int ret;

	if (opts->metric && bc_check_metric(doc, opts->metric, err, err_len))
		return -EINVAL;
	ret = bc_read_rows(p, doc, opts->metric, &rows);
	secs = bc_own_calloc(p, n, sizeof(*secs));
	sel = bc_own_calloc(p, n, sizeof(*sel));
	p->panels = bc_own_calloc(p, n, sizeof(*p->panels));
	if (ret || !secs || !sel || !p->panels)
		return -ENOMEM;
	sec_cnt = bc_sections(rows, n, secs);
	for (size_t s = 0; s < sec_cnt; s++) {
		struct bc_plot_panel *pn = &p->panels[p->panel_cnt];
		size_t cnt = 0;

		for (size_t i = 0; i < n; i++)
			if (rows[i].ok && !strcmp(rows[i].section, secs[s]))
				sel[cnt++] = &rows[i];
		if (!cnt)
			continue;
		memset(pn, 0, sizeof(*pn));
		ret = bc_headline_panel(&hc, pn, sel, cnt);
		if (!ret)
			ret = bc_skipped_note(p, pn, rows, n, secs[s]);
		if (ret)
			return ret;
		if (pn->bars)
			pn->title = bc_own_printf(p, "%s: %s per run", secs[s], pn->y.label);
		else if (!strcmp(pn->y.label, pn->x.label))
			/* A metric named like the swept option: say which is which. */
			pn->title = bc_own_printf(p, "%s: metric %s against option --%s", secs[s],
						  pn->y.label, pn->x.label);
		else
			pn->title = bc_own_printf(p, "%s: %s against %s", secs[s], pn->y.label, pn->x.label);
		if (!pn->title)
			return -ENOMEM;
		p->panel_cnt++;
		plotted += cnt;
	}
	if (opts->x_option && !hc.x_found) {
		bc_set_err(err, err_len, "--x '%s': no run of this %s has that option", opts->x_option,
			   bc_doc_kind(doc));
		return -EINVAL;
	}
	if (!plotted) {
		bc_set_err(err, err_len, "no run of this %s measured anything (%zu runs); nothing to plot",
			   bc_doc_kind(doc), n);
		return -EINVAL;
	}
	/* A sweep is one panel: the picture's title says it all. */
	p->title = bc_own_printf(p, "%s %s", bc_doc_kind(doc), bc_str_or(doc->name, "(unnamed)"));
	if (p->panel_cnt == 1 && !strcmp(bc_doc_kind(doc), "sweep")) {
		p->title = p->panels[0].title;
		p->panels[0].title = NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].ok) {
			bc_add_context_line(p, rows[i].res);
			break;
		}
	return p->title ? bc_headline_lines(&hc) : -ENOMEM;
}

/* ----------------------------------------------------------- latency */

/* Percentiles are spaced by -log10(1 - p): p90, p99, p99.9 one step
 * apart, each ten times rarer than the one before. */
static double bc_percentile_x(double pct)
{
	return -log10(1 - pct / 100);
}

#define BC_PLOT_MAX_PCT 16

struct bc_pct_point {
	double pct, value;
	const char *key;
};

static int bc_cmp_pct(const void *a, const void *b)
{
	const struct bc_pct_point *x = a, *y = b;

	return (x->pct > y->pct) - (x->pct < y->pct);
}

/* The percentiles (and max) of one histogram summary entry, ascending. */
static size_t bc_hist_points(const struct bc_doc_metric *h, struct bc_pct_point *out, double *max)
{
	size_t cnt = 0;

	for (size_t i = 0; i < h->h.pct_cnt && cnt < BC_PLOT_MAX_PCT; i++) {
		out[cnt].pct = h->h.pcts[i].pct;
		out[cnt].value = h->h.pcts[i].value;
		out[cnt++].key = h->h.pcts[i].key;
	}
	*max = isfinite(h->h.max) ? h->h.max : NAN;
	qsort(out, cnt, sizeof(*out), bc_cmp_pct);
	return cnt;
}

struct bc_lat_ctx {
	struct bc_plot *p;
	double last_x;			/* the rightmost percentile over all series */
	const char *unit;
	bool mixed_units;
	const char *what;		/* the histograms' label ("delivery latency") */
	bool mixed_what;
	struct bc_plot_tick ticks[BC_PLOT_MAX_PCT + 1];
	size_t tick_cnt;
	size_t series_total;
};

static void bc_lat_tick(struct bc_lat_ctx *lc, double x, const char *label)
{
	for (size_t i = 0; i < lc->tick_cnt; i++)
		if (fabs(lc->ticks[i].v - x) < 1e-9)
			return;
	if (lc->tick_cnt < BC_PLOT_MAX_PCT)
		lc->ticks[lc->tick_cnt++] = (struct bc_plot_tick){ .v = x, .label = label };
}

/* The max of each series sits half a step right of the last percentile;
 * set once every series is read. */
#define BC_PLOT_MAX_X_NAN (-1.0)

/* A histogram summary entry with samples and at least one percentile. */
static bool bc_hist_has_samples(const struct bc_doc_metric *h)
{
	struct bc_pct_point pts[BC_PLOT_MAX_PCT];
	double max;

	if (!h->hist)
		return false;
	return isfinite(h->h.count) && h->h.count > 0 && bc_hist_points(h, pts, &max) > 0;
}

/* Adds one series per histogram metric of a run document with samples,
 * named by prefix (a run's label) and, when the run has several, the
 * metric's label. */
static int bc_lat_series(struct bc_lat_ctx *lc, struct bc_plot_panel *pn, const struct bc_doc_run *res,
		      const char *prefix)
{
	struct bc_plot *p = lc->p;
	size_t hist_cnt = 0;

	for (size_t i = 0; i < res->metric_cnt; i++)
		hist_cnt += bc_hist_has_samples(&res->metrics[i]);
	for (size_t i = 0; i < res->metric_cnt; i++) {
		const struct bc_doc_metric *h = &res->metrics[i];
		const char *unit, *what = bc_metric_label(h);
		struct bc_pct_point pts[BC_PLOT_MAX_PCT];
		struct bc_plot_series *s;
		double count = 0, max;
		size_t cnt;

		if (!bc_hist_has_samples(h))
			continue;
		cnt = bc_hist_points(h, pts, &max);
		count = h->h.count;
		unit = h->unit;
		if (!lc->unit)
			lc->unit = unit;
		else if (!unit || strcmp(unit, lc->unit))
			lc->mixed_units = true;
		if (!lc->what)
			lc->what = what;
		else if (strcmp(what, lc->what))
			lc->mixed_what = true;
		s = &pn->series[pn->series_cnt];
		s->pts = bc_own_calloc(p, cnt + 1, sizeof(*s->pts));
		if (!prefix)
			s->name = bc_own_printf(p, "%s (n=%.0f)", what, count);
		else if (hist_cnt > 1)
			s->name = bc_own_printf(p, "%s: %s (n=%.0f)", prefix, what, count);
		else
			s->name = bc_own_printf(p, "%s (n=%.0f)", prefix, count);
		if (!s->pts || !s->name)
			return -ENOMEM;
		for (size_t k = 0; k < cnt; k++) {
			double x = bc_percentile_x(pts[k].pct);

			s->pts[s->cnt++] = (struct bc_plot_point){ x, pts[k].value, NAN, NAN, NULL };
			lc->last_x = fmax(lc->last_x, x);
			bc_lat_tick(lc, x, pts[k].key);
		}
		if (isfinite(max))
			s->pts[s->cnt++] = (struct bc_plot_point){ BC_PLOT_MAX_X_NAN, max, NAN, NAN, NULL };
		pn->series_cnt++;
		lc->series_total++;
	}
	return 0;
}

static int bc_lat_finish_panel(struct bc_lat_ctx *lc, struct bc_plot_panel *pn)
{
	struct bc_plot *p = lc->p;
	double max_x = lc->last_x + 0.5;
	double *ys;
	size_t ny = 0, total = 0;

	for (size_t k = 0; k < pn->series_cnt; k++)
		total += pn->series[k].cnt;
	ys = bc_own_calloc(p, total, sizeof(*ys));
	pn->x.ticks = bc_own_calloc(p, lc->tick_cnt + 1, sizeof(*pn->x.ticks));
	if (!ys || !pn->x.ticks)
		return -ENOMEM;
	for (size_t k = 0; k < pn->series_cnt; k++)
		for (size_t i = 0; i < pn->series[k].cnt; i++) {
			struct bc_plot_point *pt = &pn->series[k].pts[i];

			if (pt->x == BC_PLOT_MAX_X_NAN)
				pt->x = max_x;
			ys[ny++] = pt->y;
		}
	memcpy(pn->x.ticks, lc->ticks, lc->tick_cnt * sizeof(*lc->ticks));
	pn->x.tick_cnt = lc->tick_cnt;
	pn->x.ticks[pn->x.tick_cnt++] = (struct bc_plot_tick){ .v = max_x, .label = "max" };
	qsort(pn->x.ticks, pn->x.tick_cnt, sizeof(*pn->x.ticks), bc_cmp_double);
	pn->x.label = "percentile (log scale of 1 − p: p90, p99, p99.9 equally spaced)";
	pn->y.label = lc->what && !lc->mixed_what ? lc->what : "latency";
	pn->y.unit = lc->mixed_units ? NULL : lc->unit;
	pn->y.log = bc_plot_spans_decades(ys, ny);
	return 0;
}

/* One run: a panel with a curve per histogram. */
static int bc_read_latency_run(struct bc_plot *p, const struct bc_doc_run *doc, char *err,
			    size_t err_len)
{
	struct bc_lat_ctx lc = { .p = p };
	const char *bench = doc->bench ? doc->bench : "a run";
	int ret;

	p->panels = bc_own_calloc(p, 1, sizeof(*p->panels));
	if (!p->panels || !(p->panels->series = bc_own_calloc(p, doc->metric_cnt, sizeof(struct bc_plot_series))))
		return -ENOMEM;
	ret = bc_lat_series(&lc, p->panels, doc, NULL);
	if (ret)
		return ret;
	if (!lc.series_total) {
		bc_set_err(err, err_len,
			   "a run without a histogram that has samples; plot draws a run's latency percentiles, or a sweep, suite or compare document");
		return -EINVAL;
	}
	p->panel_cnt = 1;
	ret = bc_lat_finish_panel(&lc, p->panels);
	if (ret)
		return ret;
	p->title = bc_own_printf(p, "%s: %s percentiles", bench, p->panels->y.label);
	bc_add_line(p, "percentiles of every value recorded over the measured seconds (warm-up excluded)");
	bc_add_context_line(p, doc);
	return p->title ? 0 : -ENOMEM;
}

/* A sweep or a suite: a panel per section, a curve per run (and histogram). */
static int bc_read_latency_runs(struct bc_plot *p, const struct bc_doc *doc, char *err,
			     size_t err_len)
{
	size_t n = doc->row_cnt, sec_cnt, total = 0;
	const struct bc_doc_run *first = NULL;
	const char **secs;
	struct bc_plot_row *rows;
	int ret;

	ret = bc_read_rows(p, doc, NULL, &rows);
	secs = bc_own_calloc(p, n, sizeof(*secs));
	p->panels = bc_own_calloc(p, n, sizeof(*p->panels));
	if (ret || !secs || !p->panels)
		return -ENOMEM;
	sec_cnt = bc_sections(rows, n, secs);
	for (size_t s = 0; s < sec_cnt; s++) {
		struct bc_plot_panel *pn = &p->panels[p->panel_cnt];
		struct bc_lat_ctx lc = { .p = p };
		size_t hist_cap = 0;

		memset(pn, 0, sizeof(*pn));
		for (size_t i = 0; i < n; i++)
			if (rows[i].res && !strcmp(rows[i].section, secs[s]))
				hist_cap += rows[i].res->metric_cnt;
		pn->series = bc_own_calloc(p, hist_cap, sizeof(*pn->series));
		if (!pn->series)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			if (!rows[i].res || strcmp(rows[i].section, secs[s]))
				continue;
			ret = bc_lat_series(&lc, pn, rows[i].res, rows[i].label);
			if (ret)
				return ret;
			if (lc.series_total && !first)
				first = rows[i].res;
		}
		if (!lc.series_total)
			continue;
		ret = bc_lat_finish_panel(&lc, pn);
		if (!ret)
			pn->title = bc_own_printf(p, "%s: %s percentiles", secs[s], pn->y.label);
		if (ret || !pn->title)
			return ret ? ret : -ENOMEM;
		p->panel_cnt++;
		total += lc.series_total;
	}
	if (!total) {
		bc_set_err(err, err_len, "no run of this %s has a histogram with samples; nothing to plot as percentiles",
			   bc_doc_kind(doc));
		return -EINVAL;
	}
	p->title = bc_own_printf(p, "%s %s: %s percentiles", bc_doc_kind(doc),
			      bc_str_or(doc->name, "(unnamed)"),
			      p->panel_cnt == 1 ? p->panels[0].y.label : "latency");
	if (p->panel_cnt == 1)
		p->panels[0].title = NULL;
	bc_add_line(p, "percentiles of every value recorded over each run's measured seconds (warm-up excluded)");
	bc_add_context_line(p, first);
	return p->title ? 0 : -ENOMEM;
}

/* ----------------------------------------------------------- compare */

static const char *bc_base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* The words of a configuration line that are not in every line of the
 * panel: "producers=2" out of "producers=2 consumers=0 affinity ...". */
static char *bc_config_diff(struct bc_plot *p, const struct bc_doc_cmp *const *cmp, size_t n, size_t idx)
{
	const char *cfg = bc_str_or(cmp[idx]->config, "");
	char *out = bc_own_printf(p, "%s", "");
	char word[256];

	for (const char *w = cfg; out && *w;) {
		size_t len = strcspn(w, " ");
		bool everywhere = true;

		if (len && len < sizeof(word)) {
			memcpy(word, w, len);
			word[len] = '\0';
			for (size_t j = 0; j < n && everywhere; j++) {
				const char *other = bc_str_or(cmp[j]->config, "");

				for (const char *q = other;; q++) {
					q = strstr(q, word);
					if (!q) {
						everywhere = false;
						break;
					}
					if ((q == other || q[-1] == ' ') && (q[len] == ' ' || !q[len]))
						break;
				}
			}
			if (!everywhere)
				out = bc_own_printf(p, "%s%s%s", out, *out ? " " : "", word);
		}
		w += len;
		w += strspn(w, " ");
	}
	return out;
}

static const char *bc_compare_cat(struct bc_plot *p, const struct bc_doc_cmp *const *cmp, size_t n,
			       size_t idx, bool many_benches)
{
	const char *label = bc_str_or(cmp[idx]->label, NULL),
		   *bench = bc_str_or(cmp[idx]->bench, "?");
	char *diff;

	if (label)
		return label;
	diff = bc_config_diff(p, cmp, n, idx);
	if (!diff)
		return NULL;
	if (!*diff)
		return bench;
	return many_benches ? bc_own_printf(p, "%s %s", bench, diff) : diff;
}

static int bc_compare_panel(struct bc_plot *p, struct bc_plot_panel *pn, const struct bc_doc_cmp *const *cmp,
			 size_t n, double alpha, const char *base, const char *new)
{
	bool many_benches = false;

	pn->bars = true;
	pn->series_cnt = 2;
	pn->series = bc_own_calloc(p, 2, sizeof(*pn->series));
	pn->cats = bc_own_calloc(p, n, sizeof(*pn->cats));
	pn->cat_notes = bc_own_calloc(p, n, sizeof(*pn->cat_notes));
	pn->cat_strong = bc_own_calloc(p, n, sizeof(*pn->cat_strong));
	if (!pn->series || !pn->cats || !pn->cat_notes || !pn->cat_strong)
		return -ENOMEM;
	pn->series[0].name = bc_own_printf(p, "base: %s", base);
	pn->series[1].name = bc_own_printf(p, "new: %s", new);
	pn->series[0].pts = bc_own_calloc(p, n, sizeof(struct bc_plot_point));
	pn->series[1].pts = bc_own_calloc(p, n, sizeof(struct bc_plot_point));
	if (!pn->series[0].name || !pn->series[1].name || !pn->series[0].pts || !pn->series[1].pts)
		return -ENOMEM;
	for (size_t i = 1; i < n; i++)
		many_benches |= strcmp(bc_str_or(cmp[i]->bench, ""), bc_str_or(cmp[0]->bench, "")) != 0;
	for (size_t i = 0; i < n; i++) {
		double b = cmp[i]->base_mean, v = cmp[i]->new_mean, pct = cmp[i]->change_pct,
		       pv = cmp[i]->p_value;
		bool has_pct = !isnan(pct), has_p = !isnan(pv);
		const char *change = has_pct ? bc_own_printf(p, "%+.1f%%", pct) : "n/a";

		pn->series[0].pts[i] = (struct bc_plot_point){ (double)i, b, NAN, NAN, NULL };
		pn->series[1].pts[i] = (struct bc_plot_point){ (double)i, v, NAN, NAN, NULL };
		pn->cats[i] = bc_compare_cat(p, cmp, n, i, many_benches);
		if (!has_p)
			pn->cat_notes[i] = bc_own_printf(p, "%s\ntoo few samples", change ? change : "");
		else if (pv < alpha)
			pn->cat_notes[i] = bc_own_printf(p, "%s\n* p=%.2g", change ? change : "", pv);
		else
			pn->cat_notes[i] = bc_own_printf(p, "%s\np=%.2g", change ? change : "", pv);
		pn->cat_strong[i] = has_p && pv < alpha;
		if (!pn->cats[i] || !pn->cat_notes[i] || !change)
			return -ENOMEM;
	}
	pn->series[0].cnt = pn->series[1].cnt = n;
	pn->cat_cnt = n;
	pn->x.label = "run";
	return 0;
}

static int bc_read_compare(struct bc_plot *p, const struct bc_doc *doc, char *err, size_t err_len)
{
	const char *base = bc_str_or(doc->base, "base"), *new = bc_str_or(doc->new, "new"),
		   *test = bc_str_or(doc->test, "welch");
	size_t n = doc->cmp_cnt, metric_cnt = 0;
	const struct bc_doc_cmp **sel = bc_own_calloc(p, n, sizeof(*sel));
	const char **metrics = bc_own_calloc(p, n, sizeof(*metrics));
	double alpha = isnan(doc->alpha) ? 0.05 : doc->alpha;
	char *line;
	int ret;

	p->panels = bc_own_calloc(p, n, sizeof(*p->panels));
	if (!sel || !metrics || !p->panels)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *m = bc_str_or(doc->cmps[i].metric, NULL);
		bool seen = false;

		for (size_t j = 0; m && j < metric_cnt && !seen; j++)
			seen = !strcmp(metrics[j], m);
		if (m && !seen)
			metrics[metric_cnt++] = m;
	}
	if (!metric_cnt) {
		bc_set_err(err, err_len, "the comparison matched no runs of %s and %s; nothing to plot",
			   base, new);
		return -EINVAL;
	}
	for (size_t k = 0; k < metric_cnt; k++) {
		struct bc_plot_panel *pn = &p->panels[p->panel_cnt++];
		const char *unit = NULL;
		size_t cnt = 0;

		for (size_t i = 0; i < n; i++) {
			const struct bc_doc_cmp *c = &doc->cmps[i];
			const char *m = bc_str_or(c->metric, NULL);

			if (m && !strcmp(m, metrics[k])) {
				sel[cnt++] = c;
				if (!unit)
					unit = bc_str_or(c->unit, NULL);
			}
		}
		ret = bc_compare_panel(p, pn, sel, cnt, alpha, bc_base_name(base), bc_base_name(new));
		if (ret)
			return ret;
		pn->y.label = metrics[k];
		pn->y.unit = unit;
		pn->title = metric_cnt > 1 ? metrics[k] : NULL;
	}
	p->title = bc_own_printf(p, "compare: %s (base) vs %s (new)", bc_base_name(base), bc_base_name(new));
	line = bc_own_printf(p, "bars: the mean of each run; above them the change and the %s test's p value, * marking p < %g",
			  test, alpha);
	if (!p->title || !line)
		return -ENOMEM;
	bc_add_line(p, line);
	return 0;
}

/* ----------------------------------------------------------- dispatch */

int bc_plot_read(const struct bc_doc *doc, const struct bc_plot_opts *opts, struct bc_plot *p,
		 char *err, size_t err_len)
{
	enum bc_plot_chart chart = opts->chart, shape;
	int ret;

	memset(p, 0, sizeof(*p));
	/* The shape says what the document is. */
	if (doc->kind == BC_DOC_COMPARE)
		shape = BC_PLOT_COMPARE;
	else if (doc->kind == BC_DOC_BATCH)
		shape = BC_PLOT_HEADLINE;
	else if (doc->kind == BC_DOC_RUN)
		shape = BC_PLOT_LATENCY;
	else {
		bc_set_err(err, err_len,
			   "JSON of an unknown shape (no \"runs\", \"comparisons\" or \"summary\"); %s",
			   BC_PLOT_EXPECTED);
		return -EINVAL;
	}
	if (chart == BC_PLOT_AUTO)
		chart = shape;
	if (chart == BC_PLOT_COMPARE && shape != BC_PLOT_COMPARE) {
		bc_set_err(err, err_len, "--chart compare: not a compare document (expected the --format json output of benchcore compare)");
		return -EINVAL;
	}
	if (chart != BC_PLOT_COMPARE && shape == BC_PLOT_COMPARE) {
		bc_set_err(err, err_len, "a compare document is drawn as --chart compare only");
		return -EINVAL;
	}
	if (chart == BC_PLOT_HEADLINE && shape != BC_PLOT_HEADLINE) {
		bc_set_err(err, err_len, "--chart headline: a single run; expected a sweep or a suite");
		return -EINVAL;
	}
	if (opts->x_option && chart != BC_PLOT_HEADLINE) {
		bc_set_err(err, err_len, "--x '%s': only the headline chart of a sweep or suite has a swept x axis",
			   opts->x_option);
		return -EINVAL;
	}
	if (opts->metric && chart != BC_PLOT_HEADLINE) {
		bc_set_err(err, err_len, "--metric '%s': only the headline chart of a sweep or suite draws one metric",
			   opts->metric);
		return -EINVAL;
	}
	if (chart == BC_PLOT_COMPARE)
		ret = bc_read_compare(p, doc, err, err_len);
	else if (chart == BC_PLOT_HEADLINE)
		ret = bc_read_headline(p, doc, opts, err, err_len);
	else if (shape == BC_PLOT_HEADLINE)
		ret = bc_read_latency_runs(p, doc, err, err_len);
	else
		ret = bc_read_latency_run(p, doc->run, err, err_len);
	if (ret == -ENOMEM)
		bc_set_err(err, err_len, "out of memory");
	return ret;
}
