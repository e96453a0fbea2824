/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A few SVG 1.1 elements written straight to a FILE, for `benchcore plot`:
 * no scripts, no CSS, no fonts to fetch, only presentation attributes, so
 * that any viewer (a browser, an image viewer, a Markdown page) draws the
 * same picture. Text is escaped for XML, and bytes that are not valid UTF-8
 * (or not characters XML allows) become U+FFFD: a benchmark label cannot
 * make the document ill-formed. Internal to the CLI; nothing is exported.
 */
#ifndef BENCHCORE_SVG_H
#define BENCHCORE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum bc_svg_anchor {
	BC_SVG_START = 0,
	BC_SVG_MIDDLE,
	BC_SVG_END,
};

struct bc_svg_font {
	double size;		/* px; 0: 12 */
	enum bc_svg_anchor anchor;
	bool bold;
	const char *fill;	/* NULL: black */
	double rotate;		/* degrees around (x, y); 0: none */
	size_t max_chars;	/* longer text ends in "…"; 0: no limit */
};

/* The XML declaration, the <svg> root (width x height px) with its <title>
 * and <desc> (NULL: none), and a white background. */
void bc_svg_begin(FILE *f, double width, double height, const char *title, const char *desc);
void bc_svg_end(FILE *f);

/* A <g> around one series or panel; title (NULL: none) becomes its <title>,
 * which viewers show as a tooltip. */
void bc_svg_group_begin(FILE *f, const char *title);
void bc_svg_group_end(FILE *f);

void bc_svg_text(FILE *f, double x, double y, const struct bc_svg_font *font, const char *text);
void bc_svg_textf(FILE *f, double x, double y, const struct bc_svg_font *font, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* dash: a stroke-dasharray ("4 3"), NULL for a solid line. */
void bc_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash);
/* xy: n points as x0, y0, x1, y1, ... */
void bc_svg_polyline(FILE *f, const double *xy, size_t n, const char *stroke, double width,
		     const char *dash);
/* fill or stroke NULL: none. */
void bc_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
		 const char *stroke);

/* Marker shapes, so that series differ without colour too. */
enum bc_svg_shape {
	BC_SVG_CIRCLE = 0,
	BC_SVG_SQUARE,
	BC_SVG_TRIANGLE,
	BC_SVG_DIAMOND,
	BC_SVG_SHAPE_CNT,
};
void bc_svg_marker(FILE *f, enum bc_svg_shape shape, double x, double y, double r,
		   const char *color);

/* A circle's outline only, around something drawn before it. */
void bc_svg_ring(FILE *f, double x, double y, double r, const char *stroke);

/* Writes s as XML character data (attribute-safe too): & < > " ' escaped,
 * tabs and newlines as spaces, invalid UTF-8 and characters XML 1.0
 * forbids as U+FFFD; at most max_chars characters (0: all), the last one
 * "…" when s was longer. */
void bc_svg_escape(FILE *f, const char *s, size_t max_chars);
/* Characters (not bytes) of s, as bc_svg_escape() counts them. */
size_t bc_svg_chars(const char *s);
/* A rough width of text in px, for layout: sans-serif averages about 0.6 em. */
double bc_svg_text_width(const char *s, double size);

#endif /* BENCHCORE_SVG_H */
