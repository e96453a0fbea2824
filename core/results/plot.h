/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A picture of a result document (`benchcore plot`, the report's charts).
 * plot_read.c reads the document (a sweep, a suite, a compare document, a run with a
 * histogram) into the chart below; plot_draw.c lays it out and writes it
 * as SVG (svg.h).
 */
#ifndef BENCHCORE_PLOT_H
#define BENCHCORE_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct bc_doc;

/* What a plot is drawn from, for messages about any other file. */
#define BC_PLOT_EXPECTED                                                                           \
	"expected the --format json output of benchcore run (with a histogram), run --sweep, " \
	"suite or compare"

/* ------------------------------------------------------------- the chart */

struct bc_plot_point {
	double x;	/* the x value; a category's index in bar panels */
	double y;
	double lo, hi;	/* the error bar's ends; NaN: none */
	/* Line panels: a ring around the point, with this tooltip (the
	 * report's entry whose BPF programs changed); NULL: none. */
	const char *ring;
};

struct bc_plot_series {
	const char *name;
	struct bc_plot_point *pts;
	size_t cnt;
};

struct bc_plot_tick {
	double v;
	const char *label;
};

struct bc_plot_axis {
	const char *label;	/* "count-batch", "hits" */
	/* The values' unit: "ops/s" is shown scaled ("M ops/s"), "ns" as
	 * times (10 µs, 1 ms). NULL: a plain number. */
	const char *unit;
	bool log;
	/* Ticks where the data are (the swept values, the percentiles);
	 * none: round numbers from the range. */
	struct bc_plot_tick *ticks;
	size_t tick_cnt;
};

/* A vertical mark across a line panel (a change point in a trend): a
 * dashed line at x, a short label above the plot area ("-5.0%") and a
 * tooltip saying what it marks. */
struct bc_plot_mark {
	double x;
	const char *label;
	const char *title;
};

struct bc_plot_panel {
	const char *title;
	/* Categories on x (grouped bars, one bar per series) rather than
	 * values (lines through markers). */
	bool bars;
	struct bc_plot_axis x, y;
	struct bc_plot_series *series;
	size_t series_cnt;
	const char **cats;		/* bars: category labels */
	const char **cat_notes;		/* bars: a line above each group, or NULL */
	bool *cat_strong;		/* bars: that line in bold */
	size_t cat_cnt;
	const char *note;		/* under the panel, or NULL */
	const struct bc_plot_mark *marks;	/* line panels only */
	size_t mark_cnt;
};

struct bc_plot {
	const char *title;
	const char *lines[4];		/* under the title: what the bars mean, the machine */
	size_t line_cnt;
	struct bc_plot_panel *panels;
	size_t panel_cnt;
	/* every string and array above, freed by bc_plot_free() */
	void **owned;
	size_t owned_cnt, owned_cap;
};

/* What to draw from a document: `auto` picks by its shape. */
enum bc_plot_chart {
	BC_PLOT_AUTO = 0,
	BC_PLOT_HEADLINE,	/* sweep or suite: the headline metric against the swept value */
	BC_PLOT_LATENCY,	/* histograms: the percentile curve */
	BC_PLOT_COMPARE,	/* compare document: paired bars */
};

struct bc_plot_opts {
	enum bc_plot_chart chart;
	const char *x_option;	/* --x: the option on the x axis; NULL: chosen */
	/* --metric: the headline chart's y; NULL: each run's headline */
	const char *metric;
};

/*
 * Reads a document (the model's, run_doc.h) into p. 0; -EINVAL with one
 * line in err saying what the document lacks (the caller names the file);
 * -ENOMEM.
 */
int bc_plot_read(const struct bc_doc *doc, const struct bc_plot_opts *opts, struct bc_plot *p,
		 char *err, size_t err_len);
void bc_plot_free(struct bc_plot *p);

/* Writes the chart as one SVG document; 0 or -EINVAL (nothing to draw). */
int bc_plot_draw(FILE *f, const struct bc_plot *p);

/* The x-axis rule, one place: values span decades when all are positive
 * and the largest is at least 100 times the smallest (two decades). */
bool bc_plot_spans_decades(const double *v, size_t n);

#endif /* BENCHCORE_PLOT_H */
