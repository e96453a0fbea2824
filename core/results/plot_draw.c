// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Laying out a chart (plot.h) and writing it as SVG (svg.h): panels stacked
 * top to bottom, each a plot area with its axes, ticks and grid, a legend
 * to its right (outside the data, so it never hides a point) and a note
 * under it. Series differ by colour (a palette that colour-blind readers
 * can tell apart) and by marker shape, so a grey print still reads.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "svg.h"

#define BC_PLOT_FONT 12.0
#define BC_PLOT_W 560.0		/* plot area of a line panel */
#define BC_PLOT_H 300.0
#define BC_PLOT_ML 96.0		/* left of the plot area: tick labels, y label */
#define BC_PLOT_GAP 24.0		/* plot area to legend */
#define BC_PLOT_MR 16.0
#define BC_PLOT_LEGEND_CHARS 48
#define BC_PLOT_BAR_W 22.0
#define BC_PLOT_MAX_TICKS 64
/* Marks (change points): apart from every series' colour. */
#define BC_PLOT_MARK_COLOR "#b00020"
/* A ringed point's (the report's changed programs): not a series' colour */
#define BC_PLOT_RING_COLOR "#6a3d9a"

/* Okabe and Ito's palette, black last. */
static const char *const bc_plot_colors[] = {
	"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000",
};
#define BC_PLOT_COLOR_CNT (sizeof(bc_plot_colors) / sizeof(bc_plot_colors[0]))

static const char *bc_series_color(size_t i)
{
	return bc_plot_colors[i % BC_PLOT_COLOR_CNT];
}

/* Past the palette, lines are dashed so that no two series look alike. */
static const char *bc_series_dash(size_t i)
{
	static const char *const dashes[] = { NULL, "6 3", "2 3", "8 3 2 3" };

	return dashes[(i / BC_PLOT_COLOR_CNT) % 4];
}

/* ------------------------------------------------------------- scales */

struct bc_plot_scale {
	double lo, hi;
	bool log;
	double p0, p1;		/* pixels of lo and hi */
};

static double bc_map(const struct bc_plot_scale *s, double v)
{
	double t;

	if (s->log) {
		if (!(v > 0))
			v = s->lo;
		t = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	} else {
		/* halves: hi - lo of values near ±1e308 overflows to inf */
		t = (v * 0.5 - s->lo * 0.5) / (s->hi * 0.5 - s->lo * 0.5);
	}
	/* an error bar past the range ends at the frame */
	t = fmax(-0.02, fmin(1.02, t));
	return s->p0 + t * (s->p1 - s->p0);
}

static double bc_nice_step(double range, double target)
{
	double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

struct bc_plot_ticks {
	double v[BC_PLOT_MAX_TICKS];
	size_t cnt;
	double step;		/* linear ticks: their spacing */
};

/* Round numbers covering [lo, hi] (the scale is widened to them). */
static void bc_auto_ticks(struct bc_plot_scale *s, struct bc_plot_ticks *t, bool wide_to_ticks)
{
	t->cnt = 0;
	t->step = 0;
	if (s->log) {
		int e0 = (int)floor(log10(s->lo) + 1e-9), e1 = (int)ceil(log10(s->hi) - 1e-9);
		bool minor = e1 - e0 <= 2;

		if (wide_to_ticks) {
			s->lo = pow(10, e0);
			s->hi = pow(10, e1 > e0 ? e1 : e0 + 1);
			e1 = e1 > e0 ? e1 : e0 + 1;
		}
		for (int e = e0; e <= e1 && t->cnt + 3 < BC_PLOT_MAX_TICKS; e++) {
			static const double mult[] = { 1, 2, 5 };

			for (size_t m = 0; m < (minor ? 3u : 1u); m++) {
				double v = mult[m] * pow(10, e);

				if (v >= s->lo * (1 - 1e-9) && v <= s->hi * (1 + 1e-9))
					t->v[t->cnt++] = v;
			}
		}
		return;
	}
	t->step = bc_nice_step(s->hi * 0.5 - s->lo * 0.5, 2.5);
	if (wide_to_ticks) {
		s->lo = fmax(floor(s->lo / t->step + 1e-9) * t->step, -DBL_MAX);
		s->hi = fmin(ceil(s->hi / t->step - 1e-9) * t->step, DBL_MAX);
	}
	for (double v = ceil(s->lo / t->step - 1e-9) * t->step;
	     v <= s->hi + t->step * 1e-6 && t->cnt < BC_PLOT_MAX_TICKS; v += t->step)
		t->v[t->cnt++] = fabs(v) < t->step * 1e-9 ? 0 : v;
}

/* ------------------------------------------------------------- labels */

struct bc_unit_fmt {
	double scale;
	const char *prefix;	/* "M" */
	bool time;		/* the unit is ns: ticks say 10 µs, 1 ms */
};

static void bc_pick_unit(const char *unit, double maxabs, struct bc_unit_fmt *uf)
{
	uf->scale = 1;
	uf->prefix = "";
	uf->time = unit && !strcmp(unit, "ns");
	if (uf->time || (unit && !strcmp(unit, "%")))
		return;
	if (maxabs >= 1e9) {
		uf->scale = 1e9;
		uf->prefix = "G";
	} else if (maxabs >= 1e6) {
		uf->scale = 1e6;
		uf->prefix = "M";
	} else if (maxabs >= 1e4) {
		uf->scale = 1e3;
		uf->prefix = "k";
	}
}

static void bc_fmt_time(char *buf, size_t len, double ns)
{
	static const struct {
		double div;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" }, { 1, "ns" } };
	size_t i = 0;

	while (i < 3 && fabs(ns) < units[i].div)
		i++;
	if (ns == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.3g %s", ns / units[i].div, units[i].unit);
}

static void bc_fmt_tick(char *buf, size_t len, double v, const struct bc_unit_fmt *uf, double step)
{
	double x = v / uf->scale;

	if (uf->time) {
		bc_fmt_time(buf, len, v);
	} else if (step > 0) {
		double s = step / uf->scale;
		int dec = s >= 1 ? 0 : (int)ceil(-log10(s) - 1e-9);

		snprintf(buf, len, "%.*f", dec > 6 ? 6 : dec, x);
	} else {
		snprintf(buf, len, "%.4g", x);
	}
}

/* "hits (M ops/s)", "delivery latency (log scale)" */
static void bc_axis_title(char *buf, size_t len, const struct bc_plot_axis *ax,
		       const struct bc_unit_fmt *uf)
{
	const char *label = ax->label ? ax->label : "";
	const char *log = ax->log ? ", log scale" : "";

	if (uf->time)
		/* the ticks carry the unit: 10 µs, 1 ms */
		snprintf(buf, len, "%s%s", label, ax->log ? " (log scale)" : "");
	else if (ax->unit && *ax->unit)
		snprintf(buf, len, "%s (%s%s%s%s)", label, uf->prefix, *uf->prefix ? " " : "",
			 ax->unit, log);
	else if (*uf->prefix)
		snprintf(buf, len, "%s (%s%s)", label, uf->prefix, log);
	else if (ax->log)
		snprintf(buf, len, "%s (log scale)", label);
	else
		snprintf(buf, len, "%s", label);
}

/* ------------------------------------------------------------- layout */

struct bc_panel_layout {
	double top;		/* of the panel */
	double title_h;
	double plot_top;	/* of the plot area */
	double plot_w;
	double bottom_h;	/* under the plot area: tick labels, x title */
	bool rotate_cats;
	double height;
};

static double bc_legend_width(const struct bc_plot *p)
{
	double w = 0;

	for (size_t k = 0; k < p->panel_cnt; k++)
		for (size_t i = 0; i < p->panels[k].series_cnt; i++) {
			const char *name = p->panels[k].series[i].name;
			size_t chars = bc_svg_chars(name);

			if (chars > BC_PLOT_LEGEND_CHARS)
				chars = BC_PLOT_LEGEND_CHARS;
			w = fmax(w, (double)chars * BC_PLOT_FONT * 0.6);
		}
	return fmax(w + 34, 100);
}

static bool bc_has_notes(const struct bc_plot_panel *pn)
{
	for (size_t i = 0; pn->cat_notes && i < pn->cat_cnt; i++)
		if (pn->cat_notes[i])
			return true;
	return false;
}

static double bc_group_width(const struct bc_plot_panel *pn)
{
	double w = (double)pn->series_cnt * BC_PLOT_BAR_W + 30;

	return bc_has_notes(pn) ? fmax(w, 86) : w;
}

static void bc_layout_panel(const struct bc_plot_panel *pn, double top, struct bc_panel_layout *l)
{
	double cat_w = 0;

	memset(l, 0, sizeof(*l));
	l->top = top;
	l->title_h = (pn->title ? 26 : 6) + (pn->mark_cnt && !pn->bars ? 14 : 0);
	l->plot_top = top + l->title_h;
	l->plot_w = BC_PLOT_W;
	l->bottom_h = 56;
	if (pn->bars) {
		double gw = bc_group_width(pn);

		l->plot_w = fmax(BC_PLOT_W * 0.6, gw * (double)pn->cat_cnt);
		gw = l->plot_w / (double)(pn->cat_cnt ? pn->cat_cnt : 1);
		for (size_t i = 0; i < pn->cat_cnt; i++) {
			double w = bc_svg_text_width(pn->cats[i], BC_PLOT_FONT);

			if (w > BC_PLOT_LEGEND_CHARS * BC_PLOT_FONT * 0.6)
				w = BC_PLOT_LEGEND_CHARS * BC_PLOT_FONT * 0.6;
			cat_w = fmax(cat_w, w);
			l->rotate_cats |= w > gw - 8;
		}
		if (l->rotate_cats)
			l->bottom_h = cat_w * sin(35 * M_PI / 180) + 50;
	}
	l->height = l->title_h + BC_PLOT_H + l->bottom_h + (pn->note ? 18 : 0) + 14;
	/* a long legend runs down past the plot area, not into the next panel */
	l->height = fmax(l->height, l->title_h + 10 + 20 * (double)pn->series_cnt + 14);
}

/* ------------------------------------------------------------- ranges */

struct bc_plot_range {
	double lo, hi;		/* finite values seen; lo > hi: none */
	double pos_lo;		/* the smallest positive one */
};

static void bc_range_add(struct bc_plot_range *r, double v)
{
	if (!isfinite(v))
		return;
	r->lo = fmin(r->lo, v);
	r->hi = fmax(r->hi, v);
	if (v > 0)
		r->pos_lo = fmin(r->pos_lo, v);
}

static void bc_panel_ranges(const struct bc_plot_panel *pn, struct bc_plot_range *x, struct bc_plot_range *y)
{
	*x = (struct bc_plot_range){ INFINITY, -INFINITY, INFINITY };
	*y = *x;
	for (size_t k = 0; k < pn->series_cnt; k++)
		for (size_t i = 0; i < pn->series[k].cnt; i++) {
			const struct bc_plot_point *pt = &pn->series[k].pts[i];

			if (!isfinite(pt->y))
				continue;
			bc_range_add(x, pt->x);
			bc_range_add(y, pt->y);
			bc_range_add(y, pt->lo);
			bc_range_add(y, pt->hi);
		}
	for (size_t i = 0; i < pn->x.tick_cnt; i++)
		bc_range_add(x, pn->x.ticks[i].v);
}

static void bc_y_scale(const struct bc_plot_panel *pn, const struct bc_plot_range *yr, double top,
		    struct bc_plot_scale *s, struct bc_plot_ticks *t)
{
	s->log = pn->y.log && yr->pos_lo < INFINITY;
	s->p0 = top + BC_PLOT_H;
	s->p1 = top;
	if (s->log) {
		s->lo = yr->pos_lo;
		s->hi = fmax(yr->hi, s->lo);
	} else {
		/* Rates start at zero: a bar or line cut off above zero
		 * exaggerates a difference. */
		s->lo = fmin(0, yr->lo <= yr->hi ? yr->lo : 0);
		s->hi = yr->lo <= yr->hi ? yr->hi : 1;
		/* Room above the tallest bar for its note. */
		if (bc_has_notes(pn))
			s->hi = fmin(s->hi + (s->hi * 0.5 - s->lo * 0.5) * 0.44, DBL_MAX);
		if (s->hi <= s->lo)
			s->hi = s->lo + 1;
	}
	bc_auto_ticks(s, t, true);
}

static void bc_x_scale(const struct bc_plot_panel *pn, const struct bc_plot_range *xr, double left,
		    double width, struct bc_plot_scale *s, struct bc_plot_ticks *t)
{
	s->p0 = left;
	s->p1 = left + width;
	s->log = pn->x.log && xr->pos_lo < INFINITY && xr->lo > 0;
	if (pn->bars) {
		s->log = false;
		s->lo = -0.5;
		s->hi = (double)pn->cat_cnt - 0.5;
		t->cnt = 0;
		return;
	}
	s->lo = xr->lo <= xr->hi ? xr->lo : 0;
	s->hi = xr->lo <= xr->hi ? xr->hi : 1;
	if (s->log) {
		double a = log10(s->lo), b = log10(s->hi), pad = fmax((b - a) * 0.05, 0.1);

		s->lo = pow(10, a - pad);
		s->hi = pow(10, b + pad);
	} else {
		double half = s->hi * 0.5 - s->lo * 0.5;
		double pad = half > 0 ? half * 0.1 : fmax(fabs(s->lo) * 1e-9, 1);

		s->lo = fmax(s->lo - pad, -DBL_MAX);
		s->hi = fmin(s->hi + pad, DBL_MAX);
	}
	if (pn->x.tick_cnt) {
		t->cnt = 0;
		t->step = 0;
		return;
	}
	bc_auto_ticks(s, t, false);
}

/* ------------------------------------------------------------- drawing */

static void bc_draw_y_axis(FILE *f, const struct bc_plot_panel *pn, const struct bc_plot_scale *ys,
			const struct bc_plot_ticks *t, double left, double width)
{
	struct bc_svg_font tick = { .anchor = BC_SVG_END, .size = 11 };
	struct bc_svg_font title = { .anchor = BC_SVG_MIDDLE, .rotate = -90 };
	struct bc_unit_fmt uf;
	double maxabs = 0;
	char buf[256];

	for (size_t i = 0; i < t->cnt; i++)
		maxabs = fmax(maxabs, fabs(t->v[i]));
	bc_pick_unit(pn->y.unit, maxabs, &uf);
	for (size_t i = 0; i < t->cnt; i++) {
		double y = bc_map(ys, t->v[i]);

		bc_svg_line(f, left, y, left + width, y, "#dddddd", 1, NULL);
		bc_svg_line(f, left - 4, y, left, y, "#333333", 1, NULL);
		bc_fmt_tick(buf, sizeof(buf), t->v[i], &uf, ys->log ? 0 : t->step);
		bc_svg_text(f, left - 7, y + 4, &tick, buf);
	}
	bc_axis_title(buf, sizeof(buf), &pn->y, &uf);
	bc_svg_text(f, left - 70, (ys->p0 + ys->p1) / 2, &title, buf);
}

static void bc_draw_x_ticks(FILE *f, const struct bc_plot_panel *pn, const struct bc_plot_scale *xs,
			 const struct bc_plot_ticks *t, double top)
{
	struct bc_svg_font font = { .anchor = BC_SVG_MIDDLE, .size = 11 };
	double bottom = top + BC_PLOT_H, last_right = -INFINITY;
	size_t cnt = pn->x.tick_cnt ? pn->x.tick_cnt : t->cnt;
	char buf[64];

	for (size_t i = 0; i < cnt; i++) {
		double v = pn->x.tick_cnt ? pn->x.ticks[i].v : t->v[i], x = bc_map(xs, v), w;
		const char *label = buf;

		if (pn->x.tick_cnt)
			label = pn->x.ticks[i].label;
		else
			snprintf(buf, sizeof(buf), "%.4g", v);
		bc_svg_line(f, x, top, x, bottom, "#eeeeee", 1, NULL);
		bc_svg_line(f, x, bottom, x, bottom + 4, "#333333", 1, NULL);
		/* Values closer than their labels keep the tick, not the text. */
		w = bc_svg_text_width(label, 11);
		if (x - w / 2 < last_right + 4)
			continue;
		bc_svg_text(f, x, bottom + 17, &font, label);
		last_right = x + w / 2;
	}
}

static void bc_draw_error_bar(FILE *f, double x, double y0, double y1, const char *color)
{
	bc_svg_line(f, x, y0, x, y1, color, 1.2, NULL);
	bc_svg_line(f, x - 4, y0, x + 4, y0, color, 1.2, NULL);
	bc_svg_line(f, x - 4, y1, x + 4, y1, color, 1.2, NULL);
}

/* The ringed points of a series, over their markers: each ring a group
 * whose <title> says why it is there. */
static void bc_draw_rings(FILE *f, const struct bc_plot_series *s, const struct bc_plot_scale *xs,
			  const struct bc_plot_scale *ys)
{
	for (size_t i = 0; i < s->cnt; i++) {
		const struct bc_plot_point *pt = &s->pts[i];

		if (!pt->ring || !isfinite(pt->y) || !isfinite(pt->x))
			continue;
		bc_svg_group_begin(f, pt->ring);
		bc_svg_ring(f, bc_map(xs, pt->x), bc_map(ys, pt->y), 8, BC_PLOT_RING_COLOR);
		bc_svg_group_end(f);
	}
}

static void bc_draw_lines(FILE *f, const struct bc_plot_panel *pn, const struct bc_plot_scale *xs,
		       const struct bc_plot_scale *ys)
{
	for (size_t k = 0; k < pn->series_cnt; k++) {
		const struct bc_plot_series *s = &pn->series[k];
		const char *color = bc_series_color(k);
		double *xy = calloc(2 * (s->cnt ? s->cnt : 1), sizeof(*xy));
		size_t n = 0;

		bc_svg_group_begin(f, s->name);
		for (size_t i = 0; i < s->cnt; i++) {
			const struct bc_plot_point *pt = &s->pts[i];

			if (!isfinite(pt->y) || !isfinite(pt->x))
				continue;
			if (isfinite(pt->lo) && isfinite(pt->hi))
				bc_draw_error_bar(f, bc_map(xs, pt->x), bc_map(ys, pt->lo), bc_map(ys, pt->hi), color);
			if (xy) {
				xy[2 * n] = bc_map(xs, pt->x);
				xy[2 * n + 1] = bc_map(ys, pt->y);
				n++;
			}
		}
		bc_svg_polyline(f, xy, n, color, 2, bc_series_dash(k));
		for (size_t i = 0; xy && i < n; i++)
			bc_svg_marker(f, (enum bc_svg_shape)(k % BC_SVG_SHAPE_CNT), xy[2 * i],
				      xy[2 * i + 1], 4, color);
		bc_draw_rings(f, s, xs, ys);
		free(xy);
		bc_svg_group_end(f);
	}
}

/* Behind the data: a mark never hides a point. Each is a group whose
 * <title> is its tooltip. */
static void bc_draw_marks(FILE *f, const struct bc_plot_panel *pn, const struct bc_plot_scale *xs,
			  double top, double left, double width)
{
	struct bc_svg_font font = { .anchor = BC_SVG_MIDDLE, .size = 10.5, .fill = BC_PLOT_MARK_COLOR,
				    .bold = true };

	for (size_t i = 0; i < pn->mark_cnt; i++) {
		const struct bc_plot_mark *m = &pn->marks[i];
		double x = bc_map(xs, m->x);

		if (!isfinite(x))
			continue;
		x = fmin(fmax(x, left), left + width);
		bc_svg_group_begin(f, m->title);
		bc_svg_line(f, x, top, x, top + BC_PLOT_H, BC_PLOT_MARK_COLOR, 1.5, "5 3");
		bc_svg_marker(f, BC_SVG_DIAMOND, x, top, 4, BC_PLOT_MARK_COLOR);
		if (m->label)
			bc_svg_text(f, x, top - 6, &font, m->label);
		bc_svg_group_end(f);
	}
}

static void bc_draw_bars(FILE *f, const struct bc_plot_panel *pn, const struct bc_panel_layout *l,
		      const struct bc_plot_scale *xs, const struct bc_plot_scale *ys)
{
	double gw = l->plot_w / (double)(pn->cat_cnt ? pn->cat_cnt : 1);
	double bw = fmin(BC_PLOT_BAR_W, (gw - 10) / (double)(pn->series_cnt ? pn->series_cnt : 1));
	double base = bc_map(ys, ys->log ? ys->lo : fmax(0, ys->lo)), bottom = l->plot_top + BC_PLOT_H;
	struct bc_svg_font cat = { .anchor = BC_SVG_MIDDLE, .size = 11,
				   .max_chars = BC_PLOT_LEGEND_CHARS };
	struct bc_svg_font note = { .anchor = BC_SVG_MIDDLE, .size = 10.5 };

	if (l->rotate_cats) {
		cat.anchor = BC_SVG_END;
		cat.rotate = -35;
	}
	for (size_t c = 0; c < pn->cat_cnt; c++) {
		double cx = bc_map(xs, (double)c), x0 = cx - bw * (double)pn->series_cnt / 2, top = bottom;

		for (size_t k = 0; k < pn->series_cnt; k++) {
			const struct bc_plot_point *pt = c < pn->series[k].cnt ? &pn->series[k].pts[c] : NULL;
			double x = x0 + bw * (double)k, y;

			if (!pt || !isfinite(pt->y))
				continue;
			y = bc_map(ys, pt->y);
			bc_svg_group_begin(f, pn->series[k].name);
			bc_svg_rect(f, x + 1, fmin(y, base), bw - 2, fabs(base - y), bc_series_color(k), NULL);
			if (isfinite(pt->lo) && isfinite(pt->hi)) {
				bc_draw_error_bar(f, x + bw / 2, bc_map(ys, pt->lo), bc_map(ys, pt->hi), "#333333");
				y = fmin(y, bc_map(ys, pt->hi));
			}
			bc_svg_group_end(f);
			top = fmin(top, y);
		}
		if (l->rotate_cats)
			bc_svg_text(f, cx + 4, bottom + 14, &cat, pn->cats[c]);
		else
			bc_svg_text(f, cx, bottom + 17, &cat, pn->cats[c]);
		if (pn->cat_notes && pn->cat_notes[c]) {
			const char *nl = strchr(pn->cat_notes[c], '\n');
			char first[128];

			note.bold = pn->cat_strong && pn->cat_strong[c];
			if (nl) {
				snprintf(first, sizeof(first), "%.*s", (int)(nl - pn->cat_notes[c]),
					 pn->cat_notes[c]);
				bc_svg_text(f, cx, top - 19, &note, first);
				bc_svg_text(f, cx, top - 6, &note, nl + 1);
			} else {
				bc_svg_text(f, cx, top - 6, &note, pn->cat_notes[c]);
			}
		}
	}
}

static void bc_draw_legend(FILE *f, const struct bc_plot_panel *pn, double x, double y)
{
	struct bc_svg_font font = { .max_chars = BC_PLOT_LEGEND_CHARS };

	for (size_t k = 0; k < pn->series_cnt; k++, y += 20) {
		const char *color = bc_series_color(k);

		bc_svg_group_begin(f, pn->series[k].name);
		if (pn->bars) {
			bc_svg_rect(f, x, y - 6, 22, 12, color, NULL);
		} else {
			bc_svg_line(f, x, y, x + 22, y, color, 2, bc_series_dash(k));
			bc_svg_marker(f, (enum bc_svg_shape)(k % BC_SVG_SHAPE_CNT), x + 11, y, 4, color);
		}
		bc_svg_text(f, x + 30, y + 4, &font, pn->series[k].name);
		bc_svg_group_end(f);
	}
}

static void bc_draw_panel(FILE *f, const struct bc_plot_panel *pn, const struct bc_panel_layout *l,
		       double legend_x)
{
	struct bc_svg_font title = { .bold = true, .size = 13 };
	struct bc_svg_font xtitle = { .anchor = BC_SVG_MIDDLE };
	struct bc_svg_font note = { .size = 11, .fill = "#555555" };
	double left = BC_PLOT_ML, bottom = l->plot_top + BC_PLOT_H;
	struct bc_plot_scale xs, ys;
	struct bc_plot_ticks xt, yt;
	struct bc_plot_range xr, yr;
	struct bc_unit_fmt uf = { .scale = 1, .prefix = "" };
	char buf[256];

	bc_panel_ranges(pn, &xr, &yr);
	bc_y_scale(pn, &yr, l->plot_top, &ys, &yt);
	bc_x_scale(pn, &xr, left, l->plot_w, &xs, &xt);

	bc_svg_group_begin(f, pn->title);
	if (pn->title)
		bc_svg_text(f, left, l->top + 16, &title, pn->title);
	bc_draw_y_axis(f, pn, &ys, &yt, left, l->plot_w);
	if (!pn->bars)
		bc_draw_x_ticks(f, pn, &xs, &xt, l->plot_top);
	bc_svg_rect(f, left, l->plot_top, l->plot_w, BC_PLOT_H, NULL, "#333333");
	if (pn->bars) {
		bc_draw_bars(f, pn, l, &xs, &ys);
	} else {
		bc_draw_marks(f, pn, &xs, l->plot_top, left, l->plot_w);
		bc_draw_lines(f, pn, &xs, &ys);
	}
	bc_axis_title(buf, sizeof(buf), &pn->x, &uf);
	bc_svg_text(f, left + l->plot_w / 2, bottom + l->bottom_h - 14, &xtitle, buf);
	bc_draw_legend(f, pn, legend_x, l->plot_top + 10);
	if (pn->note)
		bc_svg_text(f, left, bottom + l->bottom_h + 8, &note, pn->note);
	bc_svg_group_end(f);
}

int bc_plot_draw(FILE *f, const struct bc_plot *p)
{
	struct bc_svg_font title = { .bold = true, .size = 15 };
	struct bc_svg_font line = { .size = 11, .fill = "#555555" };
	struct bc_panel_layout *lay;
	double top, width, height, plot_w = 0, legend_w = bc_legend_width(p);

	if (!p->panel_cnt)
		return -EINVAL;
	lay = calloc(p->panel_cnt, sizeof(*lay));
	if (!lay)
		return -ENOMEM;
	top = 34 + 16 * (double)p->line_cnt + 8;
	for (size_t k = 0; k < p->panel_cnt; k++) {
		bc_layout_panel(&p->panels[k], top, &lay[k]);
		top += lay[k].height;
		plot_w = fmax(plot_w, lay[k].plot_w);
	}
	width = BC_PLOT_ML + plot_w + BC_PLOT_GAP + legend_w + BC_PLOT_MR;
	width = fmax(width, bc_svg_text_width(p->title, 15) + 2 * BC_PLOT_MR);
	for (size_t i = 0; i < p->line_cnt; i++)
		width = fmax(width, bc_svg_text_width(p->lines[i], 11) + 2 * BC_PLOT_MR);
	height = top + 6;

	bc_svg_begin(f, ceil(width), ceil(height), p->title, p->line_cnt ? p->lines[0] : NULL);
	bc_svg_text(f, BC_PLOT_MR, 24, &title, p->title);
	for (size_t i = 0; i < p->line_cnt; i++)
		bc_svg_text(f, BC_PLOT_MR, 42 + 16 * (double)i, &line, p->lines[i]);
	for (size_t k = 0; k < p->panel_cnt; k++)
		bc_draw_panel(f, &p->panels[k], &lay[k], BC_PLOT_ML + lay[k].plot_w + BC_PLOT_GAP);
	bc_svg_end(f);
	free(lay);
	return 0;
}
